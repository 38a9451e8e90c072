/* SPDX-License-Identifier: MIT
 * relay.h — the guard's sockets: one epoll loop (no thread per client) relaying ENet over UDP between clients and
 * one upstream server, one upstream socket per client address (so the server sees one peer per client), every
 * client datagram through the decision (guard.h). guard/README.md "Bounds" says what it holds. */
#ifndef GDWIRE_GUARD_RELAY_H
#define GDWIRE_GUARD_RELAY_H

#include <stdbool.h>
#include <stddef.h>

#include "guard/guard.h"

typedef struct gdw_relay_options {
    const char *listen;        /* ADDR:PORT ([::1]:PORT for IPv6) */
    const char *upstream;      /* ADDR:PORT */
    size_t max_clients;        /* client addresses followed at once (default 256) */
    double idle_seconds;       /* a client silent this long is forgotten (default 30) */
    double handshake_seconds;  /* one whose server never sent VERIFY_CONNECT, this long (default 5) */
    double drain_seconds;      /* after SIGTERM: relay this long at most, no new client, then exit (default 2) */
    double duration;           /* stop after this many seconds (0: at SIGTERM or SIGINT); tests and benchmarks */
    void (*report)(void *ctx, const char *why); /* SIGUSR1 ("signal") and the exit ("exit"): print the counters */
    void *report_ctx;
} gdw_relay_options;

typedef struct gdw_relay_stats {
    unsigned long long clients_admitted, clients_expired, clients_evicted, clients_refused, clients_now, clients_peak;
    unsigned long long not_connect;  /* datagrams from an unknown address that were not a CONNECT: no state made */
    unsigned long long send_errors;
    size_t held_now, held_peak;      /* every peer's gdw_guard_peer_held, summed */
} gdw_relay_stats;

/* Runs until SIGTERM (drained), SIGINT or the duration. 0, or 2 with a sentence on stderr (an address that does
 * not resolve or bind). */
int gdw_relay_run(const gdw_relay_options *o, gdw_guard *g);
/* gdw_relay_run_ws: the same for WebSocket over TCP (--ws): one upstream TCP connection per client connection, the
 * HTTP upgrade passed through, each whole binary message of the client's judged (gdw_guard_ws_message) and forwarded
 * as its frames came, or dropped; the server's bytes back untouched. */
int gdw_relay_run_ws(const gdw_relay_options *o, gdw_guard *g);
/* "127.0.0.1:40000": the client whose datagram is being judged (for the log); "" outside. */
const char *gdw_relay_current_client(void);
/* The relay's own counters (valid during report and after the run). */
gdw_relay_stats gdw_relay_get_stats(void);

#endif

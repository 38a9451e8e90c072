/* SPDX-License-Identifier: MIT
 * relay.c — the guard's sockets (relay.h): one epoll loop, a signalfd for SIGTERM, SIGINT and SIGUSR1, the listening
 * UDP socket and one connected UDP socket to the upstream per client address. Every client datagram goes through
 * gdw_guard_client; every server datagram through gdw_guard_from_server (read; judged too with the policy's server.judge)
 * and back to its client.
 *
 * Bounded: at most max_clients clients; a new address must open with an ENet CONNECT (else no state is made);
 * when full, the least recently heard client whose handshake never finished is evicted (its server peer freed with
 * the forged DISCONNECT), else the newcomer is refused; idle clients expire. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* accept4, signalfd (the CMake build defines it for the whole command) */
#endif
#include "guard/relay.h"

#include <errno.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct client {
    struct sockaddr_storage addr;
    socklen_t addr_len;
    int fd;                 /* connected to the upstream */
    gdw_guard_peer *peer;
    double last, since;
    unsigned long long datagrams;
    struct client *next;    /* hash chain */
    bool used;
} client;

typedef struct relay {
    const gdw_relay_options *o;
    gdw_guard *g;
    int ep, listen_fd, sig_fd;
    struct sockaddr_storage up;
    socklen_t up_len;
    client *clients;        /* max_clients slots */
    client **buckets;
    size_t n_buckets;
    gdw_relay_stats st;
    client *cur;            /* the client whose datagram is being judged (emit's) */
} relay;

static gdw_relay_stats g_stats;
gdw_relay_stats gdw_relay_get_stats(void) { return g_stats; }

static char g_current[64];
static const client *g_cur; /* the client being judged: its address printed only when the log asks for it */
const char *gdw_relay_current_client(void) {
    const client *c = g_cur;
    g_current[0] = 0;
    if (!c) return g_current;
    char host[INET6_ADDRSTRLEN] = "?";
    if (c->addr.ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)&c->addr;
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
        snprintf(g_current, sizeof g_current, "%s:%u", host, (unsigned)ntohs(a->sin_port));
    } else {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&c->addr;
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
        snprintf(g_current, sizeof g_current, "[%s]:%u", host, (unsigned)ntohs(a->sin6_port));
    }
    return g_current;
}

static void set_current(const client *c) { g_cur = c; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "127.0.0.1:7000", "[::1]:7000", "localhost:7000" */
static int resolve(const char *text, struct sockaddr_storage *out, socklen_t *len) {
    char host[256];
    const char *colon = strrchr(text, ':');
    if (!colon || colon == text || strlen(text) >= sizeof host) return -1;
    size_t hl = (size_t)(colon - text);
    memcpy(host, text, hl);
    host[hl] = 0;
    char *h = host;
    if (h[0] == '[' && hl > 2 && h[hl - 1] == ']') h[hl - 1] = 0, h++;
    struct addrinfo hints, *res;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_DGRAM;
    if (getaddrinfo(h, colon + 1, &hints, &res) != 0 || !res) return -1;
    memcpy(out, res->ai_addr, res->ai_addrlen);
    *len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static uint64_t addr_hash(const struct sockaddr_storage *a, socklen_t n) {
    const uint8_t *b = (const uint8_t *)a;
    uint64_t h = 1469598103934665603ull;
    for (socklen_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The IP address alone (no port), for the peers-per-address rule. */
static bool same_ip(const struct sockaddr_storage *a, const struct sockaddr_storage *b) {
    if (a->ss_family != b->ss_family) return false;
    if (a->ss_family == AF_INET) return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
    return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr, 16) == 0;
}

static client *client_find(relay *r, const struct sockaddr_storage *a, socklen_t n) {
    for (client *c = r->buckets[addr_hash(a, n) % r->n_buckets]; c; c = c->next)
        if (c->addr_len == n && memcmp(&c->addr, a, n) == 0) return c;
    return NULL;
}

static void emit(void *ctx, bool to_server, const uint8_t *d, size_t n) {
    relay *r = ctx;
    client *c = r->cur;
    ssize_t k = to_server ? send(c->fd, d, n, MSG_DONTWAIT) : sendto(r->listen_fd, d, n, MSG_DONTWAIT, (struct sockaddr *)&c->addr, c->addr_len);
    if (k < 0) r->st.send_errors++;
}

static void client_drop(relay *r, client *c, bool forget) {
    if (forget) {
        r->cur = c;
        set_current(c);
        gdw_guard_forget(r->g, c->peer, emit, r);
    }
    r->st.held_now -= gdw_guard_peer_held(c->peer);
    client **q = &r->buckets[addr_hash(&c->addr, c->addr_len) % r->n_buckets];
    for (; *q; q = &(*q)->next)
        if (*q == c) { *q = c->next; break; }
    epoll_ctl(r->ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    gdw_guard_peer_free(c->peer);
    memset(c, 0, sizeof *c);
    r->st.clients_now--;
}

/* A free slot: an empty one, else the least recently heard client whose handshake never finished. */
static client *client_slot(relay *r) {
    client *victim = NULL;
    for (size_t i = 0; i < r->o->max_clients; i++) {
        client *c = &r->clients[i];
        if (!c->used) return c;
        bool settled = gdw_guard_peer_id(c->peer) != 0 && c->datagrams > 2;
        if (!settled && (!victim || c->last < victim->last)) victim = c;
    }
    if (!victim) return NULL;
    client_drop(r, victim, true);
    r->st.clients_evicted++;
    return victim;
}

static client *client_new(relay *r, const struct sockaddr_storage *a, socklen_t n, double now) {
    unsigned same = 0;
    for (size_t i = 0; i < r->o->max_clients; i++)
        if (r->clients[i].used && same_ip(&r->clients[i].addr, a)) same++;
    if (same >= gdw_guard_policy_of(r->g)->peers_per_address) return NULL;
    client *c = client_slot(r);
    if (!c) return NULL;
    int fd = socket(r->up.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return NULL;
    if (connect(fd, (struct sockaddr *)&r->up, r->up_len) != 0) { close(fd); return NULL; }
    gdw_guard_peer *p = gdw_guard_peer_new(r->g);
    if (!p) { close(fd); return NULL; }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    if (epoll_ctl(r->ep, EPOLL_CTL_ADD, fd, &ev) != 0) { close(fd); gdw_guard_peer_free(p); return NULL; }
    memcpy(&c->addr, a, n);
    c->addr_len = n, c->fd = fd, c->peer = p, c->last = c->since = now, c->used = true, c->datagrams = 0;
    uint64_t b = addr_hash(a, n) % r->n_buckets;
    c->next = r->buckets[b], r->buckets[b] = c;
    r->st.clients_admitted++, r->st.clients_now++;
    if (r->st.clients_now > r->st.clients_peak) r->st.clients_peak = r->st.clients_now;
    r->st.held_now += gdw_guard_peer_held(p);
    return c;
}

static void note_held(relay *r, client *c, size_t before) {
    size_t after = gdw_guard_peer_held(c->peer);
    r->st.held_now += after - before;
    if (r->st.held_now > r->st.held_peak) r->st.held_peak = r->st.held_now;
}

#define BATCH 64

static void from_clients(relay *r, double now, bool draining) {
    static uint8_t buf[BATCH][65536];
    struct mmsghdr msgs[BATCH];
    struct iovec iov[BATCH];
    struct sockaddr_storage from[BATCH];
    for (int round = 0; round < 16; round++) {
        for (int i = 0; i < BATCH; i++) {
            iov[i].iov_base = buf[i], iov[i].iov_len = sizeof buf[i];
            memset(&msgs[i].msg_hdr, 0, sizeof msgs[i].msg_hdr);
            msgs[i].msg_hdr.msg_iov = &iov[i], msgs[i].msg_hdr.msg_iovlen = 1;
            msgs[i].msg_hdr.msg_name = &from[i], msgs[i].msg_hdr.msg_namelen = sizeof from[i];
        }
        int k = recvmmsg(r->listen_fd, msgs, BATCH, MSG_DONTWAIT, NULL);
        if (k <= 0) return;
        for (int i = 0; i < k; i++) {
            size_t n = msgs[i].msg_len;
            socklen_t al = msgs[i].msg_hdr.msg_namelen;
            client *c = client_find(r, &from[i], al);
            if (!c) {
                if (draining) { r->st.clients_refused++; continue; }
                if (!gdw_guard_is_connect(r->g, buf[i], n)) { r->st.not_connect++; continue; }
                if (!(c = client_new(r, &from[i], al, now))) { r->st.clients_refused++; continue; }
            }
            c->last = now;
            c->datagrams++;
            r->cur = c;
            set_current(c);
            size_t before = gdw_guard_peer_held(c->peer);
            gdw_guard_client(r->g, c->peer, buf[i], n, now, emit, r);
            note_held(r, c, before);
        }
        if (k < BATCH) return;
    }
}

static void from_server(relay *r, client *c) {
    static uint8_t buf[65536];
    for (int i = 0; i < 64; i++) {
        ssize_t n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0) return; /* EAGAIN, or ECONNREFUSED while the upstream is down: the client's ENet resends */
        r->cur = c;
        set_current(c);
        size_t before = gdw_guard_peer_held(c->peer);
        gdw_guard_from_server(r->g, c->peer, buf, (size_t)n, now_s(), emit, r);
        note_held(r, c, before);
    }
}

static void expire(relay *r, double now) {
    for (size_t i = 0; i < r->o->max_clients; i++) {
        client *c = &r->clients[i];
        if (!c->used) continue;
        bool settled = gdw_guard_peer_id(c->peer) != 0 && c->datagrams > 2;
        double limit = settled ? r->o->idle_seconds : r->o->handshake_seconds;
        if (now - c->last > limit) {
            client_drop(r, c, false);
            r->st.clients_expired++;
        }
    }
}

/* What both loops open: the addresses resolved, the descriptor limit raised (one descriptor per client), the listening
 * socket of `type` (SOCK_DGRAM, or SOCK_STREAM for --ws), a signalfd for SIGTERM, SIGINT, SIGUSR1 (and SIGPIPE, which a
 * closed TCP peer would raise), the epoll set with both. 0, or 2 with the sentence said. */
static int g_listen_tag, g_sig_tag;

static int relay_open(relay *r, const gdw_relay_options *o, gdw_guard *g, int type) {
    memset(r, 0, sizeof *r);
    r->o = o, r->g = g;
    struct sockaddr_storage la;
    socklen_t ll;
    if (resolve(o->listen, &la, &ll) != 0) { fprintf(stderr, "gdwire guard: --listen %s: not an ADDR:PORT that resolves\n", o->listen); return 2; }
    if (resolve(o->upstream, &r->up, &r->up_len) != 0) { fprintf(stderr, "gdwire guard: --upstream %s: not an ADDR:PORT that resolves\n", o->upstream); return 2; }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) rl.rlim_cur = rl.rlim_max, setrlimit(RLIMIT_NOFILE, &rl);
    r->listen_fd = socket(la.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1, big = 4 << 20;
    setsockopt(r->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (type == SOCK_DGRAM) setsockopt(r->listen_fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    if (r->listen_fd < 0 || bind(r->listen_fd, (struct sockaddr *)&la, ll) != 0 || (type == SOCK_STREAM && listen(r->listen_fd, 64) != 0)) {
        fprintf(stderr, "gdwire guard: --listen %s: %s\n", o->listen, strerror(errno));
        return 2;
    }
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM), sigaddset(&mask, SIGINT), sigaddset(&mask, SIGUSR1), sigaddset(&mask, SIGPIPE);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    r->sig_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    r->ep = epoll_create1(EPOLL_CLOEXEC);
    if (r->sig_fd < 0 || r->ep < 0) { fprintf(stderr, "gdwire guard: %s\n", strerror(errno)); return 2; }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &g_listen_tag};
    epoll_ctl(r->ep, EPOLL_CTL_ADD, r->listen_fd, &ev);
    ev.data.ptr = &g_sig_tag;
    epoll_ctl(r->ep, EPOLL_CTL_ADD, r->sig_fd, &ev);
    return 0;
}

/* The signals that came: SIGUSR1 reports, SIGTERM starts the drain, SIGINT stops. true: stop now. */
static bool relay_signals(relay *r, double now, bool *draining, double *drain_start) {
    struct signalfd_siginfo si;
    bool stop = false;
    while (read(r->sig_fd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGUSR1) {
            g_stats = r->st;
            if (r->o->report) r->o->report(r->o->report_ctx, "signal");
        } else if (si.ssi_signo == SIGTERM && !*draining) *draining = true, *drain_start = now;
        else if (si.ssi_signo == SIGINT) stop = true;
    }
    return stop;
}

int gdw_relay_run(const gdw_relay_options *o, gdw_guard *g) {
    relay r;
    int rc = relay_open(&r, o, g, SOCK_DGRAM);
    if (rc) return rc;
    r.clients = calloc(o->max_clients, sizeof *r.clients);
    r.n_buckets = o->max_clients * 2 + 1;
    r.buckets = calloc(r.n_buckets, sizeof *r.buckets);
    if (!r.clients || !r.buckets) { fprintf(stderr, "gdwire guard: out of memory\n"); return 2; }
    double start = now_s(), last_expire = start, drain_start = 0, last_traffic = start;
    bool draining = false, stop = false;
    struct epoll_event evs[64];
    while (!stop) {
        int k = epoll_wait(r.ep, evs, 64, 200);
        double now = now_s();
        for (int i = 0; i < k; i++) {
            if (evs[i].data.ptr == &g_listen_tag) from_clients(&r, now, draining), last_traffic = now;
            else if (evs[i].data.ptr == &g_sig_tag) stop |= relay_signals(&r, now, &draining, &drain_start);
            else from_server(&r, evs[i].data.ptr), last_traffic = now;
        }
        if (now - last_expire >= 1) expire(&r, now), last_expire = now;
        if (draining && (now - drain_start >= o->drain_seconds || now - last_traffic >= 0.5 || r.st.clients_now == 0)) stop = true;
        if (o->duration > 0 && now - start >= o->duration) stop = true;
    }
    g_stats = r.st;
    if (o->report) o->report(o->report_ctx, "exit");
    for (size_t i = 0; i < o->max_clients; i++)
        if (r.clients[i].used) client_drop(&r, &r.clients[i], false);
    free(r.clients), free(r.buckets);
    close(r.listen_fd), close(r.sig_fd), close(r.ep);
    return 0;
}

/* ---- --ws: WebSocket over TCP ---------------------------------------------------------------------------------- */

/* One client's TCP connection and its own to the upstream. The client's bytes: the HTTP upgrade passed through as it
 * came, then frames (RFC 6455 5.2: the client's masked), read one by one; a message's frames are kept until the
 * message is whole (at most enet.max_message_bytes) and judged (gdw_guard_ws_message), then forwarded as they came or
 * dropped. Control frames go on at once. The server's bytes go back untouched. Every buffer is bounded: a side whose
 * outgoing bytes reach WS_OUT_MOST is not read until they drain. */
#define WS_OUT_MOST (1u << 20)
#define WS_HEAD_MOST 16384

typedef struct wsconn {
    bool used, upgraded;
    int cfd, ufd;
    gdw_guard_peer *peer;
    double last;
    uint8_t *in;            /* the client's bytes not yet taken */
    size_t in_len, in_cap;
    uint8_t *frames;        /* the current message's frames, as they came */
    size_t frames_len;
    uint8_t *msg;           /* its payload, unmasked */
    size_t msg_len;
    unsigned msg_op;        /* its first frame's opcode: 2 binary (Godot's), 1 text */
    uint8_t *out[2];        /* [0] to the upstream, [1] to the client */
    size_t out_len[2];
    struct sockaddr_storage addr;
    socklen_t addr_len;
} wsconn;

static bool grow(uint8_t **b, size_t *cap, size_t need) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    uint8_t *n = realloc(*b, c);
    if (!n) return false;
    *b = n, *cap = c;
    return true;
}

static void ws_queue(wsconn *c, int side, const uint8_t *d, size_t n) {
    size_t cap = c->out_len[side] + n;
    uint8_t *b = realloc(c->out[side], cap ? cap : 1);
    if (!b) return;
    memcpy(b + c->out_len[side], d, n);
    c->out[side] = b, c->out_len[side] = cap;
}

static void ws_flush(wsconn *c, int side) {
    int fd = side ? c->cfd : c->ufd;
    size_t done = 0;
    while (done < c->out_len[side]) {
        ssize_t k = send(fd, c->out[side] + done, c->out_len[side] - done, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (k <= 0) break;
        done += (size_t)k;
    }
    memmove(c->out[side], c->out[side] + done, c->out_len[side] - done);
    c->out_len[side] -= done;
}

static void ws_close(relay *r, wsconn *c) {
    epoll_ctl(r->ep, EPOLL_CTL_DEL, c->cfd, NULL);
    epoll_ctl(r->ep, EPOLL_CTL_DEL, c->ufd, NULL);
    close(c->cfd), close(c->ufd);
    gdw_guard_peer_free(c->peer);
    free(c->in), free(c->frames), free(c->msg), free(c->out[0]), free(c->out[1]);
    memset(c, 0, sizeof *c);
    r->st.clients_now--;
}

/* The client's bytes: the upgrade, then whole frames. false: close the connection (a cut, or bytes that are not
 * WebSocket). */
static bool ws_take(relay *r, wsconn *c, double now) {
    const gdw_guard_policy *pol = gdw_guard_policy_of(r->g);
    size_t pos = 0;
    if (!c->upgraded) {
        size_t head = 0;
        for (size_t i = 0; i + 4 <= c->in_len && !head; i++)
            if (memcmp(c->in + i, "\r\n\r\n", 4) == 0) head = i + 4;
        if (!head) return c->in_len <= WS_HEAD_MOST;
        ws_queue(c, 0, c->in, head); /* the HTTP upgrade, passed through */
        c->upgraded = true, pos = head;
    }
    while (c->in_len - pos >= 2) {
        const uint8_t *f = c->in + pos;
        size_t avail = c->in_len - pos, hl = 2;
        uint64_t len = f[1] & 0x7F;
        if (len == 126) {
            if (avail < 4) break;
            len = (uint64_t)f[2] << 8 | f[3], hl = 4;
        } else if (len == 127) {
            if (avail < 10) break;
            len = 0;
            for (int i = 0; i < 8; i++) len = len << 8 | f[2 + i];
            hl = 10;
        }
        bool masked = f[1] & 0x80;
        if (masked) hl += 4;
        if (len > pol->max_message_bytes + 16) return false; /* past what a message may hold: not read, the peer goes */
        if (avail < hl + len) break;
        size_t flen = hl + (size_t)len;
        unsigned op = f[0] & 0x0F;
        bool fin = f[0] & 0x80;
        if (op & 0x08) { /* control: ping, pong, close, whole in one frame */
            ws_queue(c, 0, f, flen);
        } else {
            if (c->frames_len + flen > pol->max_message_bytes + 4096) return false; /* a message past the cap: the peer goes */
            uint8_t *fb = realloc(c->frames, c->frames_len + flen);
            if (!fb) return false;
            c->frames = fb;
            uint8_t *mb = realloc(c->msg, c->msg_len + (size_t)len + 1);
            if (!mb) return false;
            c->msg = mb;
            if (c->frames_len == 0) c->msg_op = op; /* the message's kind is its first frame's */
            memcpy(c->frames + c->frames_len, f, flen);
            c->frames_len += flen;
            const uint8_t *key = f + hl - 4, *pay = f + hl;
            for (size_t i = 0; i < (size_t)len; i++) c->msg[c->msg_len + i] = masked ? pay[i] ^ key[i & 3] : pay[i];
            c->msg_len += (size_t)len;
            if (fin) {
                int v = c->msg_op == 1 ? 1 : gdw_guard_ws_message(r->g, c->peer, c->msg, c->msg_len, now); /* text: not Godot's */
                if (v < 0) return false;
                if (v > 0) ws_queue(c, 0, c->frames, c->frames_len);
                c->frames_len = 0, c->msg_len = 0;
            }
        }
        pos += flen;
    }
    memmove(c->in, c->in + pos, c->in_len - pos);
    c->in_len -= pos;
    return true;
}

static void ws_want(relay *r, wsconn *c) {
    struct epoll_event ev = {.events = (c->out_len[0] < WS_OUT_MOST ? EPOLLIN : 0) | (c->out_len[1] ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(r->ep, EPOLL_CTL_MOD, c->cfd, &ev);
    struct epoll_event eu = {.events = (c->out_len[1] < WS_OUT_MOST ? EPOLLIN : 0) | (c->out_len[0] ? EPOLLOUT : 0), .data.ptr = (char *)c + 1};
    epoll_ctl(r->ep, EPOLL_CTL_MOD, c->ufd, &eu);
}

static void ws_event(relay *r, wsconn *c, bool upstream, double now) {
    uint8_t buf[65536];
    static client shown; /* the log's client: this connection's address */
    memcpy(&shown.addr, &c->addr, sizeof c->addr), shown.addr_len = c->addr_len;
    set_current(&shown);
    if (upstream) {
        ssize_t k = recv(c->ufd, buf, sizeof buf, MSG_DONTWAIT);
        if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) { ws_flush(c, 1); ws_close(r, c); return; }
        if (k > 0) ws_queue(c, 1, buf, (size_t)k);
    } else {
        ssize_t k = recv(c->cfd, buf, sizeof buf, MSG_DONTWAIT);
        if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) { ws_flush(c, 0); ws_close(r, c); return; }
        if (k > 0) {
            c->last = now;
            if (!grow(&c->in, &c->in_cap, c->in_len + (size_t)k)) { ws_close(r, c); return; }
            memcpy(c->in + c->in_len, buf, (size_t)k);
            c->in_len += (size_t)k;
            if (!ws_take(r, c, now)) { ws_flush(c, 0); ws_close(r, c); return; }
        }
    }
    ws_flush(c, 0), ws_flush(c, 1);
    ws_want(r, c);
}

int gdw_relay_run_ws(const gdw_relay_options *o, gdw_guard *g) {
    relay r;
    int rc = relay_open(&r, o, g, SOCK_STREAM);
    if (rc) return rc;
    wsconn *conns = calloc(o->max_clients, sizeof *conns);
    if (!conns) { fprintf(stderr, "gdwire guard: out of memory\n"); return 2; }
    double start = now_s(), last_expire = start, drain_start = 0;
    bool draining = false, stop = false;
    struct epoll_event evs[64];
    while (!stop) {
        int k = epoll_wait(r.ep, evs, 64, 200);
        double now = now_s();
        for (int i = 0; i < k; i++) {
            void *tag = evs[i].data.ptr;
            if (tag == &g_listen_tag) {
                for (;;) {
                    struct sockaddr_storage a;
                    socklen_t al = sizeof a;
                    int cfd = accept4(r.listen_fd, (struct sockaddr *)&a, &al, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (cfd < 0) break;
                    wsconn *c = NULL;
                    for (size_t j = 0; j < o->max_clients && !c; j++)
                        if (!conns[j].used) c = &conns[j];
                    int ufd = c && !draining ? socket(r.up.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0) : -1;
                    gdw_guard_peer *p = ufd >= 0 ? gdw_guard_peer_new(g) : NULL;
                    if (!p || (connect(ufd, (struct sockaddr *)&r.up, r.up_len) != 0 && errno != EINPROGRESS)) {
                        if (ufd >= 0) close(ufd);
                        gdw_guard_peer_free(p);
                        close(cfd);
                        r.st.clients_refused++;
                        continue;
                    }
                    memset(c, 0, sizeof *c);
                    c->used = true, c->cfd = cfd, c->ufd = ufd, c->peer = p, c->last = now;
                    memcpy(&c->addr, &a, al), c->addr_len = al;
                    struct epoll_event e1 = {.events = EPOLLIN, .data.ptr = c}, e2 = {.events = EPOLLIN, .data.ptr = (char *)c + 1};
                    epoll_ctl(r.ep, EPOLL_CTL_ADD, cfd, &e1);
                    epoll_ctl(r.ep, EPOLL_CTL_ADD, ufd, &e2);
                    r.st.clients_admitted++, r.st.clients_now++;
                    if (r.st.clients_now > r.st.clients_peak) r.st.clients_peak = r.st.clients_now;
                }
            } else if (tag == &g_sig_tag) {
                stop |= relay_signals(&r, now, &draining, &drain_start);
            } else {
                bool up = ((uintptr_t)tag & 1) != 0;
                wsconn *c = (wsconn *)((char *)tag - (up ? 1 : 0));
                if (c->used) ws_event(&r, c, up, now);
            }
        }
        if (now - last_expire >= 1) {
            for (size_t j = 0; j < o->max_clients; j++)
                if (conns[j].used && now - conns[j].last > o->idle_seconds) ws_close(&r, &conns[j]), r.st.clients_expired++;
            last_expire = now;
        }
        if (draining && (now - drain_start >= o->drain_seconds || r.st.clients_now == 0)) stop = true;
        if (o->duration > 0 && now - start >= o->duration) stop = true;
    }
    g_stats = r.st;
    if (o->report) o->report(o->report_ctx, "exit");
    for (size_t j = 0; j < o->max_clients; j++)
        if (conns[j].used) ws_close(&r, &conns[j]);
    free(conns);
    close(r.listen_fd), close(r.sig_fd), close(r.ep);
    return 0;
}

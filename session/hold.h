/* SPDX-License-Identifier: MIT
 * hold.h — what session/ holds because of the traffic it reads, counted in one place.
 *
 * Every allocation a capture makes session/ keep (a fragmented packet, a TCP stream's buffers, a
 * retransmit window, a path-cache entry, a flow) is a holder: charged to its kind by hold_add, in
 * total and in its flow, at what it really costs the C library (hold_cost: the allocator's chunk
 * header and rounding included). Each kind has two caps, one for all flows and one per flow
 * (gdw_session_options; docs/capture.md lists them). Holders of a kind are kept oldest first, in
 * the session's list and in their flow's, so that making room (hold_room) drops the oldest state
 * of that kind, in the flow when its own cap is reached, else in the whole session. A filtering
 * proxy bounds its memory per client with the same book. */
#ifndef GDWIRE_SESSION_HOLD_H
#define GDWIRE_SESSION_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum hold_kind {
    HOLD_REASSEMBLY, /* bytes waiting to become a message: ENet fragments, TCP streams, WebSocket messages */
    HOLD_WINDOWS,    /* ENet retransmit windows, one per direction and channel in use */
    HOLD_PATHS,      /* the peers' path caches */
    HOLD_FLOWS,      /* the flows themselves (their count is capped by max_flows) */
    HOLD_IP,         /* IP datagrams being put back together from their fragments (in no flow: they have no ports) */
    HOLD_KINDS
} hold_kind;

struct hold_flow;

typedef struct holder {
    struct holder *prev, *next;   /* the session's list of its kind, oldest first */
    struct holder *fprev, *fnext; /* its flow's list of its kind, oldest first */
    struct hold_flow *flow;
    size_t bytes;                 /* what it is charged */
    uint8_t kind;                 /* hold_kind */
    uint8_t type;                 /* which structure holds it: the session's to say (its evict function) */
    bool held;                    /* linked and charged */
} holder;

typedef struct hold_list {
    holder *head, *tail;
} hold_list;

/* A flow's part of the book. */
typedef struct hold_flow {
    size_t bytes[HOLD_KINDS];
    hold_list list[HOLD_KINDS];
} hold_flow;

typedef struct hold_cap {
    size_t total, per_flow;
} hold_cap;

typedef struct hold_book {
    size_t bytes[HOLD_KINDS], peak[HOLD_KINDS];
    size_t total, peak_total; /* every kind together */
    hold_list list[HOLD_KINDS];
    hold_cap cap[HOLD_KINDS];
    /* Drops h's state: frees it and calls hold_remove on h (and on any other holder that goes
     * with it), saying why through the session's problems: per_flow, the cap of h's flow was
     * reached, else the cap of all flows. */
    void (*evict)(void *ctx, holder *h, bool per_flow);
    void *ctx;
} hold_book;

/* What an allocation of n bytes costs the C library: glibc's chunk, a size word rounded up to 16
 * bytes, 32 at least. An allocator of the caller's may cost less; never more is assumed. */
static inline size_t hold_cost(size_t n) {
    size_t c = (n + 8 + 15) & ~(size_t)15;
    return c < 32 ? 32 : c;
}

/* Makes room for `bytes` more of kind k in flow fl (NULL: no flow), dropping the oldest holders of
 * that kind (never `keep`): first the flow's while its cap is passed, then the session's. false
 * when even then they would not fit (the caller refuses the new state, and says so). */
bool hold_room(hold_book *b, hold_flow *fl, hold_kind k, size_t bytes, const holder *keep);

/* Charges h, `bytes`, to kind k in flow fl and puts it last (newest) in both lists. */
void hold_add(hold_book *b, hold_flow *fl, holder *h, hold_kind k, uint8_t type, size_t bytes);

/* h's charge becomes `bytes` (after hold_room for the growth). */
void hold_resize(hold_book *b, holder *h, size_t bytes);

/* Unlinks h and takes its charge back; nothing when h is not held. */
void hold_remove(hold_book *b, holder *h);

/* h was used: it becomes the newest of its kind. */
void hold_touch(hold_book *b, holder *h);

#endif

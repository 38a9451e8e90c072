/* SPDX-License-Identifier: MIT
 * session.c — the core of a session: its options and lifecycle, its flows, the caps on what it holds
 * (hold.h: the book charges every byte, and a table of holder types says how each is dropped and freed), its
 * stats and its problems. The layers are in their own files (session.h lists them). */
#include "session.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

gdw_session_options gdw_session_options_default(void) {
    gdw_session_options o;
    memset(&o, 0, sizeof o);
    o.decode = gdw_decode_options_default();
    o.decode.allow_objects = true;
    o.max_open_fragment_bytes = (size_t)64 << 20;
    o.max_flow_fragment_bytes = (size_t)40 << 20;
    o.max_packet_bytes = (size_t)32 << 20;
    o.max_flows = 4096;
    o.max_cached_paths = 65536;
    o.max_window_bytes = (size_t)16 << 20;
    o.max_flow_window_bytes = (size_t)192 << 10;
    o.max_path_bytes = (size_t)16 << 20;
    o.max_flow_path_bytes = (size_t)4 << 20;
    o.max_ip_fragment_bytes = (size_t)16 << 20;
    return o;
}

const gdw_dialect *gdw_godot_dialect_of(gdw_multiplayer layer) {
    for (size_t i = 0; i < gdw_dialect_count(); i++)
        if (gdw_session_layer(gdw_dialect_at(i)) == layer) return gdw_dialect_at(i);
    return NULL;
}

void problem(gdw_session *s, const flow *f, const char *layer, size_t offset, const char *fmt, ...) {
    s->stats.problems++;
    if (!s->on_problem) return;
    gdw_session_problem p;
    memset(&p, 0, sizeof p);
    p.frame = s->frame, p.time = s->time, p.flow = f ? f->number : 0, p.layer = layer, p.offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p.message, sizeof p.message, fmt, ap);
    va_end(ap);
    s->on_problem(s->ctx, &p);
}

/* ---- what a session holds (hold.h) ------------------------------------------------------ */

/* A flow is never dropped (max_flows refuses new ones instead) and is freed with its session. */
static void flow_holder_drop(gdw_session *s, holder *h, const char *said) {
    (void)said;
    hold_remove(&s->book, h);
}

static const held_rule k_held[HELD_TYPES] = {
    [HELD_FRAGMENT_SET] = {enet_fragment_drop, enet_fragment_free},
    [HELD_WINDOW] = {enet_window_drop, enet_window_free},
    [HELD_PATH] = {godot_path_drop, godot_path_free},
    [HELD_TCP_DIR] = {tcp_dir_drop, NULL},  /* freed with its flow's TCP side (tcp_flow_free) */
    [HELD_FLOW] = {flow_holder_drop, NULL}, /* freed by flow_free */
    [HELD_IP_FRAGMENTS] = {link_fragments_drop, link_fragments_free},
};

/* The caps of what a session holds, by kind (hold.h), and the options that set them. */
static const char *const k_cap_option[HOLD_KINDS][2] = {
    [HOLD_REASSEMBLY] = {"--max-fragment-bytes", "--max-flow-fragment-bytes"},
    [HOLD_WINDOWS] = {"--max-window-bytes", "--max-flow-window-bytes"},
    [HOLD_PATHS] = {"--max-path-bytes", "--max-flow-path-bytes"},
    [HOLD_FLOWS] = {"--max-flows", "--max-flows"},
    [HOLD_IP] = {"--max-ip-fragment-bytes", "--max-ip-fragment-bytes"},
};

/* The book's evict: the oldest state of a kind makes room (hold_room). The first time a cap drops
 * state of its kind it says so in full; later drops are counted, and said at the end
 * (gdw_session_finish), so that a flood of forged state cannot flood the problems too. */
static void evict(void *ctx, holder *h, bool per_flow) {
    gdw_session *s = ctx;
    const hold_cap *c = &s->book.cap[h->kind];
    s->stats.states_dropped++;
    char cap[96];
    const char *said = NULL; /* the cap, the first time it drops state of its kind: then the drop is said */
    if (!s->evictions[h->kind][per_flow]++) {
        snprintf(cap, sizeof cap, "%zu bytes %s (%s)", per_flow ? c->per_flow : c->total, per_flow ? "in one flow" : "in all flows",
                 k_cap_option[h->kind][per_flow]);
        said = cap;
    }
    k_held[h->type].drop(s, h, said);
}

gdw_session *gdw_session_new(const gdw_session_options *opts, gdw_message_fn on_message, gdw_problem_fn on_problem, void *ctx) {
    gdw_session_options o = opts ? *opts : gdw_session_options_default();
    gdw_session_options d = gdw_session_options_default();
    if (!o.max_open_fragment_bytes) o.max_open_fragment_bytes = d.max_open_fragment_bytes;
    if (!o.max_flow_fragment_bytes) o.max_flow_fragment_bytes = d.max_flow_fragment_bytes;
    if (!o.max_packet_bytes) o.max_packet_bytes = d.max_packet_bytes;
    if (!o.max_flows) o.max_flows = d.max_flows;
    if (!o.max_cached_paths) o.max_cached_paths = d.max_cached_paths;
    if (!o.max_window_bytes) o.max_window_bytes = d.max_window_bytes;
    if (!o.max_flow_window_bytes) o.max_flow_window_bytes = d.max_flow_window_bytes;
    if (!o.max_path_bytes) o.max_path_bytes = d.max_path_bytes;
    if (!o.max_flow_path_bytes) o.max_flow_path_bytes = d.max_flow_path_bytes;
    if (!o.max_ip_fragment_bytes) o.max_ip_fragment_bytes = d.max_ip_fragment_bytes;
    if (o.max_flows > GDW_SESSION_MAX_FLOWS_LIMIT || o.max_cached_paths > GDW_SESSION_MAX_CACHED_PATHS_LIMIT) return NULL;
    gdw_session *s = gdw_session_alloc(o.alloc, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->opts = o, s->on_message = on_message, s->on_problem = on_problem, s->ctx = ctx;
    s->parsed.alloc = o.alloc;
    hold_book *b = &s->book;
    b->cap[HOLD_REASSEMBLY] = (hold_cap){o.max_open_fragment_bytes, o.max_flow_fragment_bytes};
    b->cap[HOLD_WINDOWS] = (hold_cap){o.max_window_bytes, o.max_flow_window_bytes};
    b->cap[HOLD_PATHS] = (hold_cap){o.max_path_bytes, o.max_flow_path_bytes};
    b->cap[HOLD_FLOWS] = (hold_cap){SIZE_MAX, SIZE_MAX}; /* a flow is refused past max_flows instead */
    b->cap[HOLD_IP] = (hold_cap){o.max_ip_fragment_bytes, o.max_ip_fragment_bytes}; /* in no flow: the total holds */
    b->evict = evict, b->ctx = s;
    s->fragments = (ptr_index){.hash = NULL, .alloc = o.alloc};
    s->windows = (ptr_index){.hash = NULL, .alloc = o.alloc};
    s->paths = (ptr_index){.hash = NULL, .alloc = o.alloc};
    s->ip_fragments = (ptr_index){.hash = NULL, .alloc = o.alloc};
    link_session_init(s), enet_session_init(s), godot_session_init(s);
    /* the flow table starts small and doubles as it fills (a capture of one session needs little) */
    s->flow_cap = 16;
    s->flows = gdw_session_alloc(o.alloc, s->flow_cap * sizeof *s->flows);
    s->flow_list = gdw_session_alloc(o.alloc, s->flow_cap * sizeof *s->flow_list); /* grows with the table */
    if (!s->flows || !s->flow_list) {
        gdw_session_free(s);
        return NULL;
    }
    memset(s->flows, 0, s->flow_cap * sizeof *s->flows);
    return s;
}

static void flow_free(gdw_session *s, flow *f) {
    for (int k = 0; k < HOLD_KINDS; k++)
        while (f->hold.list[k].head) {
            holder *h = f->hold.list[k].head;
            if (k_held[h->type].free) k_held[h->type].free(s, h);
            else hold_remove(&s->book, h); /* the TCP directions and the flow: freed below */
        }
    tcp_flow_free(s, f);
    gdw_session_release(s->opts.alloc, f, sizeof *f);
}

void gdw_session_free(gdw_session *s) {
    if (!s) return;
    for (unsigned i = 1; i <= s->stats.flows; i++) flow_free(s, s->flow_list[i]);
    while (s->book.list[HOLD_PATHS].head) godot_path_free(s, s->book.list[HOLD_PATHS].head);
    while (s->book.list[HOLD_IP].head) link_fragments_free(s, s->book.list[HOLD_IP].head); /* in no flow */
    index_free(&s->fragments), index_free(&s->windows), index_free(&s->paths), index_free(&s->ip_fragments);
    gdw_mp_parsed_free(&s->parsed);
    gdw_session_release(s->opts.alloc, s->flows, s->flow_cap * sizeof *s->flows);
    gdw_session_release(s->opts.alloc, s->flow_list, s->flow_cap * sizeof *s->flow_list);
    gdw_session_release(s->opts.alloc, s, sizeof *s);
}

gdw_session_stats gdw_session_get_stats(const gdw_session *s) {
    gdw_session_stats z;
    memset(&z, 0, sizeof z);
    if (!s) return z;
    gdw_session_stats st = s->stats;
    const hold_book *b = &s->book;
    st.open_fragment_bytes = b->bytes[HOLD_REASSEMBLY], st.peak_fragment_bytes = b->peak[HOLD_REASSEMBLY];
    st.window_bytes = b->bytes[HOLD_WINDOWS], st.path_bytes = b->bytes[HOLD_PATHS];
    st.held_bytes = b->total, st.peak_held_bytes = b->peak_total;
    return st;
}

const char *gdw_session_flow_text(const gdw_session *s, unsigned n) {
    return s && n >= 1 && n <= s->stats.flows ? s->flow_list[n]->text : "";
}

const gdw_dialect *gdw_session_flow_dialect(const gdw_session *s, unsigned n) {
    return s && n >= 1 && n <= s->stats.flows ? s->flow_list[n]->dialect : NULL;
}

gdw_enet_compression gdw_session_flow_compression(const gdw_session *s, unsigned n, int side) {
    if (!s || n < 1 || n > s->stats.flows || (side != 0 && side != 1)) return GDW_ENET_COMPRESS_NONE;
    return (gdw_enet_compression)s->flow_list[n]->compression[side].locked;
}

void gdw_session_finish(gdw_session *s) {
    if (!s) return;
    uint64_t frame = s->frame;
    s->frame = 0;
    static const char *const held_name[HOLD_KINDS] = {"fragmented packets, TCP streams or WebSocket messages", "retransmit windows",
                                                      "path-cache entries", "flows", "IP datagrams in fragments"};
    static const char *const held_layer[HOLD_KINDS] = {"session", "enet", "multiplayer", "session", "ip"};
    for (int k = 0; k < HOLD_KINDS; k++)
        for (int per_flow = 0; per_flow < 2; per_flow++)
            if (s->evictions[k][per_flow] > 1) {
                problem(s, NULL, held_layer[k], 0, "%llu more %s were dropped by the cap %s (the first is reported above)",
                        (unsigned long long)(s->evictions[k][per_flow] - 1), held_name[k], k_cap_option[k][per_flow]);
                s->evictions[k][per_flow] = 1; /* said: a second finish says it no more */
            }
    link_finish(s);
    for (unsigned i = 1; i <= s->stats.flows; i++) {
        enet_flow_finish(s, s->flow_list[i]);
        tcp_flow_finish(s, s->flow_list[i]);
    }
    s->frame = frame;
}

/* ---- flows ------------------------------------------------------------------------------- */

/* The flow key is the unordered pair of endpoints: the hash of each endpoint, combined symmetrically. */
static uint64_t endpoint_hash(const uint8_t *a, size_t alen, uint16_t port) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < alen; i++) h = (h ^ a[i]) * 1099511628211ull;
    return (h ^ port) * 1099511628211ull;
}

static size_t flow_home(const gdw_session *s, uint64_t ha, uint64_t hb) {
    uint64_t h = (ha ^ hb) * 1099511628211ull;
    return (size_t)(h ^ (h >> 31)) & (s->flow_cap - 1);
}

/* The slot of the flow of these endpoints, or the empty slot where it would go. */
static size_t flow_slot(const gdw_session *s, uint8_t proto, const uint8_t *a, uint16_t ap, const uint8_t *b, uint16_t bp, size_t alen,
                        int *dir) {
    size_t i = flow_home(s, endpoint_hash(a, alen, ap), endpoint_hash(b, alen, bp));
    for (; s->flows[i]; i = (i + 1) & (s->flow_cap - 1)) {
        const flow *f = s->flows[i];
        if (f->addr_len != alen || f->proto != proto) continue;
        if (f->port[0] == ap && f->port[1] == bp && !memcmp(f->addr[0], a, alen) && !memcmp(f->addr[1], b, alen)) {
            *dir = 0;
            return i;
        }
        if (f->port[0] == bp && f->port[1] == ap && !memcmp(f->addr[0], b, alen) && !memcmp(f->addr[1], a, alen)) {
            *dir = 1;
            return i;
        }
    }
    *dir = 0;
    return i;
}

flow *flow_find(const gdw_session *s, uint8_t proto, const uint8_t *src, uint16_t sport, const uint8_t *dst, uint16_t dport, size_t alen,
                int *dir) {
    return s->flows[flow_slot(s, proto, src, sport, dst, dport, alen, dir)];
}

/* Doubles the flow table; false when memory runs out. */
static bool flow_grow(gdw_session *s) {
    size_t cap = s->flow_cap * 2;
    flow **t = gdw_session_alloc(s->opts.alloc, cap * sizeof *t);
    flow **list = t ? gdw_session_alloc(s->opts.alloc, cap * sizeof *list) : NULL;
    if (!list) {
        gdw_session_release(s->opts.alloc, t, cap * sizeof *t);
        return false;
    }
    memset(t, 0, cap * sizeof *t);
    memcpy(list, s->flow_list, (s->stats.flows + 1) * sizeof *list);
    gdw_session_release(s->opts.alloc, s->flows, s->flow_cap * sizeof *s->flows);
    gdw_session_release(s->opts.alloc, s->flow_list, s->flow_cap * sizeof *s->flow_list);
    s->flows = t, s->flow_list = list, s->flow_cap = cap;
    for (unsigned n = 1; n <= s->stats.flows; n++) {
        flow *f = s->flow_list[n];
        size_t i = flow_home(s, endpoint_hash(f->addr[0], f->addr_len, f->port[0]), endpoint_hash(f->addr[1], f->addr_len, f->port[1]));
        while (t[i]) i = (i + 1) & (cap - 1);
        t[i] = f;
    }
    return true;
}

static void endpoint_text(char *out, size_t cap, const uint8_t *addr, size_t alen, uint16_t port) {
    char a[64];
    inet_ntop(alen == 4 ? AF_INET : AF_INET6, addr, a, sizeof a);
    snprintf(out, cap, alen == 4 ? "%s:%u" : "[%s]:%u", a, port);
}

static void flow_text(flow *f) {
    char a[60], b[60];
    endpoint_text(a, sizeof a, f->addr[0], f->addr_len, f->port[0]);
    endpoint_text(b, sizeof b, f->addr[1], f->addr_len, f->port[1]);
    snprintf(f->text, sizeof f->text, "%s -> %s", a, b);
}

unsigned flow_group(const gdw_session *s, const flow *f) {
    for (unsigned i = 1; i < f->number; i++) {
        const flow *o = s->flow_list[i];
        if (o->addr_len == f->addr_len && o->port[1] == f->port[1] && memcmp(o->addr[1], f->addr[1], f->addr_len) == 0) return i;
    }
    return f->number;
}

flow *flow_new(gdw_session *s, uint8_t proto, const uint8_t *src, uint16_t sport, const uint8_t *dst, uint16_t dport, size_t alen) {
    if (s->stats.flows >= s->opts.max_flows) {
        problem(s, NULL, proto == 17 ? "udp" : "tcp", 0, "more than %zu flows (--max-flows): a new flow (port %u to %u) is not followed",
                s->opts.max_flows, sport, dport);
        return NULL;
    }
    if ((s->stats.flows + 1) * 2 > s->flow_cap && !flow_grow(s)) return NULL;
    int dir;
    size_t slot = flow_slot(s, proto, src, sport, dst, dport, alen, &dir);
    flow *f = gdw_session_alloc(s->opts.alloc, sizeof *f);
    if (!f) return NULL;
    memset(f, 0, sizeof *f);
    f->addr_len = (uint8_t)alen;
    f->proto = proto;
    memcpy(f->addr[0], src, alen), memcpy(f->addr[1], dst, alen);
    f->port[0] = sport, f->port[1] = dport;
    f->number = ++s->stats.flows;
    s->flow_list[f->number] = f;
    s->flows[slot] = f;
    hold_add(&s->book, &f->hold, &f->h, HOLD_FLOWS, HELD_FLOW, hold_cost(sizeof *f));
    f->group = flow_group(s, f);
    flow_text(f);
    return f;
}

void flow_swap_ends(gdw_session *s, flow *f) {
    uint8_t ta[16];
    size_t alen = f->addr_len;
    memcpy(ta, f->addr[0], alen), memcpy(f->addr[0], f->addr[1], alen), memcpy(f->addr[1], ta, alen);
    uint16_t tp = f->port[0];
    f->port[0] = f->port[1], f->port[1] = tp;
    f->swapped = !f->swapped;
    flow_text(f);
    f->group = flow_group(s, f);
}

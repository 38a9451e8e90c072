/* SPDX-License-Identifier: MIT
 * session.c — frames in, messages out: the link, IP and UDP layers; flows; ENet (Godot 4.3's
 * bundled ENet 1.3.18, thirdparty/enet/protocol.c and enet/protocol.h: big-endian fields, a
 * 2- or 4-byte datagram header, commands of fixed size, reliable sequence numbers per channel,
 * fragments); Godot 4's mapping of ENet channels and flags to transfer modes
 * (modules/enet/enet_multiplayer_peer.cpp); the peers' path caches; SYS relays. */
#include "session.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hold.h"
#include "index.h"

/* ---- ENet ---------------------------------------------------------------------------- */

enum {
    ENET_ACKNOWLEDGE = 1,
    ENET_CONNECT = 2,
    ENET_VERIFY_CONNECT = 3,
    ENET_DISCONNECT = 4,
    ENET_PING = 5,
    ENET_SEND_RELIABLE = 6,
    ENET_SEND_UNRELIABLE = 7,
    ENET_SEND_FRAGMENT = 8,
    ENET_SEND_UNSEQUENCED = 9,
    ENET_BANDWIDTH_LIMIT = 10,
    ENET_THROTTLE_CONFIGURE = 11,
    ENET_SEND_UNRELIABLE_FRAGMENT = 12,
    ENET_COMMAND_COUNT = 13,
    ENET_FLAG_ACKNOWLEDGE = 0x80,
    ENET_HEADER_SENT_TIME = 0x8000,
    ENET_HEADER_COMPRESSED = 0x4000,
    ENET_MAX_PEER_ID = 0x0FFF,
    ENET_MAX_FRAGMENT_COUNT = 1024 * 1024, /* ENET_PROTOCOL_MAXIMUM_FRAGMENT_COUNT */
    ENET_MAXIMUM_MTU = 4096 /* ENET_PROTOCOL_MAXIMUM_MTU: a decompressed datagram's most */
};

/* The compressions a side's compressed datagrams are tried in, where more than one fits: zstd and zlib first (their
 * headers say them), then FastLZ (its first byte's level bits, and every copy inside what was written), then the
 * range coder (given by the caller; it turns most blocks into something). */
static const gdw_enet_compression k_try_order[] = {GDW_ENET_COMPRESS_ZSTD, GDW_ENET_COMPRESS_ZLIB, GDW_ENET_COMPRESS_FASTLZ,
                                                   GDW_ENET_COMPRESS_RANGE_CODER};

/* Each command's size, its 4-byte header included (protocol.c commandSizes). */
static const uint8_t k_enet_size[ENET_COMMAND_COUNT] = {0, 8, 48, 44, 8, 4, 6, 8, 24, 8, 12, 16, 24};

/* The data a command of kind carries after its fixed part (c holds at least k_enet_size[kind] bytes):
 * its dataLength field, at byte 4 of SEND_RELIABLE, byte 6 of the other sends (protocol.h). */
static size_t enet_data_length(const uint8_t *c, unsigned kind) {
    if (kind == ENET_SEND_RELIABLE) return gdw_session_be16(c + 4);
    if (kind == ENET_SEND_UNRELIABLE || kind == ENET_SEND_UNSEQUENCED || kind == ENET_SEND_FRAGMENT || kind == ENET_SEND_UNRELIABLE_FRAGMENT)
        return gdw_session_be16(c + 6);
    return 0;
}

#define SEEN_WINDOW 1024 /* reliable sequence numbers remembered per channel and direction */

/* What holds memory, for the book's evict (hold.h). */
enum { HELD_FRAGMENT_SET, HELD_WINDOW, HELD_PATH, HELD_TCP_DIR, HELD_FLOW };

struct flow;

/* The reliable sequence numbers seen on one channel in one direction of a flow (its side: the
 * flow's endpoint 0 or 1 that sent them, which stays when the flow's two ends are swapped). Found
 * through the session's index of windows; made only for a channel in use. */
typedef struct seen_window {
    holder h;
    struct flow *f;
    uint8_t side, channel;
    uint16_t top; /* the newest sequence number seen */
    uint8_t bits[SEEN_WINDOW / 8]; /* bit seq % SEEN_WINDOW: seq was seen (for seq within the window below top) */
} seen_window;

/* An ENet packet being reassembled from its fragments; found through the session's index. */
typedef struct fragment_set {
    holder h;
    struct flow *f;
    uint8_t side, channel;
    bool reliable;
    uint16_t start_seq, unreliable_of; /* unreliable fragments: the reliable seq they ride with */
    uint32_t count, received, total;
    uint8_t *data, *have;
    uint64_t first_frame;
} fragment_set;

typedef struct flow {
    uint8_t addr[2][16]; /* [0] the client (CONNECT's sender) when known, else the first sender */
    uint16_t port[2];
    uint8_t addr_len;
    unsigned number;
    unsigned group; /* the number of the first flow to this server endpoint (flow_group) */
    bool connect_seen;
    uint64_t compressed; /* compressed datagrams skipped (the first is reported, the count at the end) */
    uint8_t compression[2]; /* per side: the gdw_enet_compression its datagrams were found in; 0 not yet */
    uint8_t guess[2];       /* per side: a compression one datagram fits, not alone among those tried: locked
                               (compression) when a second datagram fits it too, or when one fits it alone */
    bool switched_said;     /* a side's datagrams stopped fitting its compression: said once */
    int64_t client_id; /* the Godot peer id CONNECT carried; 0 unknown */
    const gdw_dialect *dialect; /* the options', or detected at the flow's first packet (flow_dialect) */
    bool swapped;           /* the two ends were swapped: direction dir is sent by side dir ^ swapped */
    hold_flow hold;         /* what the flow holds, by kind (hold.h) */
    holder h;               /* the flow itself */
    uint8_t proto;          /* 17 UDP (ENet), 6 TCP (WebSocket) */
    struct tcp_side *tcp;   /* TCP flows: the two directions' streams */
    char text[128];
} flow;

typedef struct path_entry {
    holder h;
    unsigned group; /* the server endpoint's flow group: peers of one server share ids */
    int64_t sender;
    uint32_t id;
    size_t path_len;
    char path[]; /* NUL-terminated */
} path_entry;

struct gdw_session {
    gdw_session_options opts;
    gdw_message_fn on_message;
    gdw_problem_fn on_problem;
    void *ctx;
    gdw_session_stats stats;
    flow **flows; /* hash table of flows, open addressing */
    size_t flow_cap;
    flow **flow_list; /* by number */
    hold_book book;   /* every byte held because of the capture, by kind, in total and per flow */
    ptr_index fragments, windows, paths; /* open fragmented packets, retransmit windows, path-cache entries */
    uint64_t evictions[HOLD_KINDS][2];    /* state dropped by each kind's cap in all flows [0] and one flow [1] */
    uint64_t frame;
    double time;
    gdw_mp_parsed parsed; /* reused: one message at a time */
};

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
    return o;
}

static void problem(gdw_session *s, const flow *f, const char *layer, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void problem(gdw_session *s, const flow *f, const char *layer, size_t offset, const char *fmt, ...) {
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

static void evict(void *ctx, holder *h, bool per_flow);
static uint64_t fragment_set_hash(const void *item);
static uint64_t window_hash(const void *item);
static uint64_t path_entry_hash(const void *item);

/* The caps of what a session holds, by kind (hold.h), and the options that set them. */
static const char *const k_cap_option[HOLD_KINDS][2] = {
    [HOLD_REASSEMBLY] = {"--max-fragment-bytes", "--max-flow-fragment-bytes"},
    [HOLD_WINDOWS] = {"--max-window-bytes", "--max-flow-window-bytes"},
    [HOLD_PATHS] = {"--max-path-bytes", "--max-flow-path-bytes"},
    [HOLD_FLOWS] = {"--max-flows", "--max-flows"},
};

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
    if (o.max_flows > ((size_t)1 << 24) || o.max_cached_paths > ((size_t)1 << 26)) return NULL;
    gdw_session *s = gdw_session_alloc(o.alloc, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->opts = o, s->on_message = on_message, s->on_problem = on_problem, s->ctx = ctx;
    hold_book *b = &s->book;
    b->cap[HOLD_REASSEMBLY] = (hold_cap){o.max_open_fragment_bytes, o.max_flow_fragment_bytes};
    b->cap[HOLD_WINDOWS] = (hold_cap){o.max_window_bytes, o.max_flow_window_bytes};
    b->cap[HOLD_PATHS] = (hold_cap){o.max_path_bytes, o.max_flow_path_bytes};
    b->cap[HOLD_FLOWS] = (hold_cap){SIZE_MAX, SIZE_MAX}; /* a flow is refused past max_flows instead */
    b->evict = evict, b->ctx = s;
    s->fragments = (ptr_index){.hash = fragment_set_hash, .alloc = o.alloc};
    s->windows = (ptr_index){.hash = window_hash, .alloc = o.alloc};
    s->paths = (ptr_index){.hash = path_entry_hash, .alloc = o.alloc};
    /* the flow table starts small and doubles as it fills (a capture of one session needs little) */
    s->flow_cap = 16;
    s->flows = gdw_session_alloc(o.alloc, s->flow_cap * sizeof *s->flows);
    s->flow_list = gdw_session_alloc(o.alloc, (o.max_flows + 1) * sizeof *s->flow_list);
    if (!s->flows || !s->flow_list) {
        gdw_session_free(s);
        return NULL;
    }
    memset(s->flows, 0, s->flow_cap * sizeof *s->flows);
    return s;
}

/* ---- what a session holds (hold.h) ------------------------------------------------------ */

/* What an item of `size` bytes costs, with its slots in an index. */
static size_t indexed_cost(size_t size) { return hold_cost(size) + INDEX_SLOT_COST; }

static size_t fragment_set_cost(uint32_t count, uint32_t total) {
    return indexed_cost(sizeof(fragment_set)) + hold_cost(total) + hold_cost((count + 7) / 8);
}

static void fragment_set_free(gdw_session *s, fragment_set *fs) {
    index_remove(&s->fragments, fs);
    hold_remove(&s->book, &fs->h);
    gdw_session_release(s->opts.alloc, fs->data, fs->total);
    gdw_session_release(s->opts.alloc, fs->have, (fs->count + 7) / 8);
    gdw_session_release(s->opts.alloc, fs, sizeof *fs);
}

static void window_free(gdw_session *s, seen_window *w) {
    index_remove(&s->windows, w);
    hold_remove(&s->book, &w->h);
    gdw_session_release(s->opts.alloc, w, sizeof *w);
}

static void path_entry_free(gdw_session *s, path_entry *e) {
    index_remove(&s->paths, e);
    hold_remove(&s->book, &e->h);
    gdw_session_release(s->opts.alloc, e, sizeof *e + e->path_len + 1);
}

static void tcp_free(gdw_session *s, struct tcp_side *t);
static void tcp_dir_evict(gdw_session *s, holder *h, const char *cap_text);

/* the structure of a holder: each names its holder h */
#define HOLDER_OF(type, ptr) ((type *)(void *)((char *)(ptr) - offsetof(type, h)))

static const char *side_name(int side) { return side ? "server's" : "client's"; }

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
    switch (h->type) {
    case HELD_FRAGMENT_SET: {
        fragment_set *fs = HOLDER_OF(fragment_set, h);
        if (said)
            problem(s, fs->f, "enet", 0, "open fragments past %s: the packet first seen in frame %llu (%u of %u parts) is dropped", said,
                    (unsigned long long)fs->first_frame, fs->received, fs->count);
        s->stats.fragments_dropped++;
        fragment_set_free(s, fs);
        break;
    }
    case HELD_WINDOW: {
        seen_window *w = HOLDER_OF(seen_window, h);
        if (said)
            problem(s, w->f, "enet", 0, "retransmit windows past %s: the %s window of channel %u is dropped (a retransmit on it may show twice)",
                    said, side_name(w->side), w->channel);
        window_free(s, w);
        break;
    }
    case HELD_PATH: {
        path_entry *e = HOLDER_OF(path_entry, h);
        if (said)
            problem(s, NULL, "multiplayer", 0, "path caches past %s: cache id %u of peer %lld is dropped (RPCs to it then show no path)", said,
                    e->id, (long long)e->sender);
        path_entry_free(s, e);
        break;
    }
    case HELD_TCP_DIR:
        tcp_dir_evict(s, h, said);
        break;
    default:
        hold_remove(&s->book, h); /* flows are never dropped: max_flows refuses new ones */
        break;
    }
}

static void flow_free(gdw_session *s, flow *f) {
    for (int k = 0; k < HOLD_KINDS; k++)
        while (f->hold.list[k].head) {
            holder *h = f->hold.list[k].head;
            if (h->type == HELD_FRAGMENT_SET) fragment_set_free(s, HOLDER_OF(fragment_set, h));
            else if (h->type == HELD_WINDOW) window_free(s, HOLDER_OF(seen_window, h));
            else if (h->type == HELD_PATH) path_entry_free(s, HOLDER_OF(path_entry, h));
            else hold_remove(&s->book, h); /* the TCP directions and the flow: freed below */
        }
    if (f->tcp) tcp_free(s, f->tcp);
    gdw_session_release(s->opts.alloc, f, sizeof *f);
}

void gdw_session_free(gdw_session *s) {
    if (!s) return;
    for (unsigned i = 1; i <= s->stats.flows; i++) flow_free(s, s->flow_list[i]);
    while (s->book.list[HOLD_PATHS].head) path_entry_free(s, HOLDER_OF(path_entry, s->book.list[HOLD_PATHS].head));
    index_free(&s->fragments), index_free(&s->windows), index_free(&s->paths);
    gdw_mp_parsed_free(&s->parsed);
    gdw_session_release(s->opts.alloc, s->flows, s->flow_cap * sizeof *s->flows);
    gdw_session_release(s->opts.alloc, s->flow_list, (s->opts.max_flows + 1) * sizeof *s->flow_list);
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
    return (gdw_enet_compression)s->flow_list[n]->compression[side];
}

/* ---- the path caches ------------------------------------------------------------------ */

typedef struct path_key {
    unsigned group;
    int64_t sender;
    uint32_t id;
} path_key;

static uint64_t path_hash(unsigned group, int64_t sender, uint32_t id) {
    return index_mix((uint64_t)group << 32 | id, (uint64_t)sender);
}

static uint64_t path_entry_hash(const void *item) {
    const path_entry *e = item;
    return path_hash(e->group, e->sender, e->id);
}

static bool path_entry_is(const void *item, const void *key) {
    const path_entry *e = item;
    const path_key *k = key;
    return e->group == k->group && e->sender == k->sender && e->id == k->id;
}

static path_entry *path_entry_find(const gdw_session *s, unsigned group, int64_t sender, uint32_t id) {
    path_key k = {group, sender, id};
    return index_find(&s->paths, path_hash(group, sender, id), path_entry_is, &k);
}

static const char *path_find(const gdw_session *s, unsigned group, int64_t sender, uint32_t id) {
    path_entry *e = path_entry_find(s, group, sender, id);
    return e ? e->path : NULL;
}

/* A SIMPLIFY_PATH: the sender's cache id names path from now on. Past max_cached_paths or the
 * path caches' byte caps, the oldest entry makes room. */
static void path_store(gdw_session *s, flow *f, unsigned group, int64_t sender, uint32_t id, const char *path, size_t len) {
    path_entry *old = path_entry_find(s, group, sender, id);
    if (old) path_entry_free(s, old); /* a cache id given again: the new path replaces the old */
    size_t size = sizeof(path_entry) + len + 1, cost = indexed_cost(size);
    if (s->paths.count >= s->opts.max_cached_paths && s->book.list[HOLD_PATHS].head) {
        path_entry *e = HOLDER_OF(path_entry, s->book.list[HOLD_PATHS].head);
        problem(s, f, "multiplayer", 0, "the path caches hold %zu paths (--max-paths): cache id %u of peer %lld, the oldest, is dropped",
                s->paths.count, e->id, (long long)e->sender);
        path_entry_free(s, e);
    }
    if (!hold_room(&s->book, &f->hold, HOLD_PATHS, cost, NULL)) {
        problem(s, f, "multiplayer", 0, "a path of %zu bytes does not fit the path caches' limits (--max-path-bytes, --max-flow-path-bytes): cache id %u of peer %lld is not kept",
                len, id, (long long)sender);
        return;
    }
    path_entry *e = gdw_session_alloc(s->opts.alloc, size);
    if (!e) return;
    memset(e, 0, sizeof *e);
    e->group = group, e->sender = sender, e->id = id, e->path_len = len;
    memcpy(e->path, path, len);
    e->path[len] = 0;
    if (!index_insert(&s->paths, e)) {
        gdw_session_release(s->opts.alloc, e, size);
        return;
    }
    hold_add(&s->book, &f->hold, &e->h, HOLD_PATHS, HELD_PATH, cost);
}

/* ---- the Godot layer ------------------------------------------------------------------ */

typedef struct delivery {
    flow *f;
    int dir; /* 0: sent by the flow's client side, 1: by the server */
    unsigned channel; /* Godot's transfer channel */
    const char *mode;
} delivery;

/* Peers of one server share one id space for their path caches: the group is the number of the
 * first flow to that server endpoint. */
static unsigned flow_group(const gdw_session *s, const flow *f) {
    for (unsigned i = 1; i < f->number; i++) {
        const flow *o = s->flow_list[i];
        if (o->addr_len == f->addr_len && o->port[1] == f->port[1] && memcmp(o->addr[1], f->addr[1], f->addr_len) == 0) return i;
    }
    return f->number;
}

static void emit(gdw_session *s, const delivery *dv, const uint8_t *pkt, size_t len, int64_t from, int64_t to, bool relayed);

/* One multiplayer packet from `from` to `to` (relayed: it came inside a SYS relay, or, in Godot 3,
 * a server passed it on to the peer its header names). */
static void deliver(gdw_session *s, const delivery *dv, const uint8_t *pkt, size_t len, int64_t from, int64_t to, bool relayed) {
    flow *f = dv->f;
    gdw_mp_parsed *p = &s->parsed;
    gdw_mp_parsed_free(p);
    gdw_error err;
    gdw_status st = gdw_mp_parse(pkt, len, f->dialect, &s->opts.decode, s->opts.alloc, p, &err);
    if (st != GDW_OK) {
        problem(s, f, "multiplayer", err.offset, "%s (%s; a %zu-byte packet from peer %lld%s)", err.message, gdw_status_name(st), len,
                (long long)from, relayed ? ", relayed" : "");
        return;
    }
    if (p->command == GDW_MP_SYS_RELAY) {
        s->stats.by_command[p->command]++;
        if (relayed) {
            problem(s, f, "multiplayer", 0, "a relay inside a relay (peer %lld): the engines never send one", (long long)from);
            return;
        }
        /* client to server: the field is the destination; server to client: the source */
        int64_t peer = p->sys_peer;
        const uint8_t *inner = p->payload;
        size_t inner_len = p->payload_len;
        if (dv->dir == 0) deliver(s, dv, inner, inner_len, from, peer, true);
        else deliver(s, dv, inner, inner_len, peer, to, true);
        return;
    }
    emit(s, dv, pkt, len, from, to, relayed);
}

/* The parsed packet in s->parsed, with its node path from the sender's cache, to the caller. */
static void emit(gdw_session *s, const delivery *dv, const uint8_t *pkt, size_t len, int64_t from, int64_t to, bool relayed) {
    flow *f = dv->f;
    gdw_mp_parsed *p = &s->parsed;
    s->stats.by_command[p->command]++;
    unsigned group = f->group;
    const char *path = NULL;
    if (p->command == GDW_MP_SIMPLIFY_PATH) {
        path_store(s, f, group, from, (uint32_t)p->node_id, p->path, p->path_len);
        path = path_find(s, group, from, (uint32_t)p->node_id);
    } else if (p->command == GDW_MP_RPC || p->command == GDW_MP_RSET) {
        path = p->path ? p->path : path_find(s, group, from, (uint32_t)p->node_id);
        if (!path) problem(s, f, "multiplayer", 1, "%s to path-cache id %lld of peer %lld: no SIMPLIFY_PATH for it was seen",
                           gdw_mp_command_name(p->command), (long long)p->node_id, (long long)from);
    } else if (p->command == GDW_MP_SPAWN) {
        path = path_find(s, group, from, (uint32_t)p->node_id);
    } else if (p->command == GDW_MP_CONFIRM_PATH && p->path) {
        path = p->path; /* Godot 3 confirms by path */
    }
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        if (v->status != GDW_OK)
            problem(s, f, "multiplayer", v->offset + v->error.offset, "%s %s %u does not decode: %s (%s)", gdw_mp_command_name(p->command),
                    v->label, v->index, v->error.message, gdw_status_name(v->status));
    }
    s->stats.messages++;
    s->stats.message_bytes += len;
    if (!s->on_message) return;
    gdw_message m;
    memset(&m, 0, sizeof m);
    m.frame = s->frame, m.time = s->time, m.flow = f->number, m.transport = f->proto == 6 ? "websocket" : "enet", m.dialect = f->dialect;
    m.from = from, m.to = to, m.relayed = relayed, m.channel = dv->channel, m.mode = dv->mode;
    m.path = path, m.mp = p, m.bytes = pkt, m.len = len;
    s->on_message(s->ctx, &m);
}

/* Which multiplayer layer a flow speaks, from its first packet (when the options name no dialect).
 * Godot 3 puts an 8-byte header on every packet: its source peer id, then its target; so a client's
 * packet begins with the id its CONNECT carried, a server's own with 1, and the server's
 * configuration channel (0) carries 8 bytes, a message 0 or 1 then a peer id. Godot 4's packets
 * begin with a command byte (0-7, flags in bits 4-7): never four bytes that spell 1 or a client's id
 * (its SIMPLIFY_PATH goes on with MD5 text, its RPC node ids start at 1). */
static const gdw_dialect *flow_dialect(const flow *f, int dir, unsigned enet_channel, const uint8_t *pkt, size_t len) {
    bool godot3 = false;
    if (len >= 8) {
        uint32_t first = gdw_session_le32(pkt);
        if (dir == 0) godot3 = f->client_id != 0 && first == (uint32_t)f->client_id && len >= 9;
        else godot3 = (enet_channel == 0 && len == 8 && first <= 1) || (first == 1 && len >= 9);
    }
    return gdw_dialect_find(godot3 ? "godot3" : "godot4");
}

/* Godot 3 over ENet (modules/enet/networked_multiplayer_enet.cpp, 3.2-stable): channel 0 is the
 * server's configuration channel (a message, 0 a peer added or 1 removed, and the peer's id: 8
 * bytes); every other packet has the 8-byte header, source then target (0 everyone, -N everyone
 * but N), which the server keeps when it passes a packet on; channel 1 is reliable, 2 unreliable,
 * and a game's transfer channel N > 2 is ENet channel N. */
/* A peer added or removed, as Godot 3's server says it (its configuration channel over ENet, a system message
 * over WebSocket): a message of its own, from the server. */
static void emit_godot3_peer(gdw_session *s, const delivery *dv, const uint8_t *pkt, size_t len, gdw_mp_command c, int32_t peer, int64_t to) {
    gdw_mp_parsed *p = &s->parsed;
    gdw_mp_parsed_free(p);
    memset(p, 0, offsetof(gdw_mp_parsed, values));
    p->node_id = p->net_id = -1;
    p->method_id = p->scene_id = p->checksum_valid = -1;
    p->command = c;
    p->sys_peer = peer;
    emit(s, dv, pkt, len, 1, to, false);
}

static void deliver_godot3(gdw_session *s, flow *f, int dir, unsigned enet_channel, const char *mode, const uint8_t *pkt, size_t len) {
    delivery dv = {f, dir, enet_channel > 2 ? enet_channel : 0, mode};
    int64_t receiver = dir == 1 ? f->client_id : 1;
    if (enet_channel == 0) {
        if (len < 8 || gdw_session_le32(pkt) > 1) {
            problem(s, f, "multiplayer", 0, "a %zu-byte packet on Godot 3's configuration channel: not a peer added or removed", len);
            return;
        }
        emit_godot3_peer(s, &dv, pkt, len, gdw_session_le32(pkt) == 0 ? GDW_MP_SYS_ADD_PEER : GDW_MP_SYS_DEL_PEER, (int32_t)gdw_session_le32(pkt + 4),
                         receiver);
        return;
    }
    if (len < 8) {
        problem(s, f, "multiplayer", 0, "a %zu-byte packet: shorter than Godot 3's 8-byte header", len);
        return;
    }
    int64_t source = gdw_session_le32(pkt), target = (int32_t)gdw_session_le32(pkt + 4);
    bool relayed = dir == 0 ? target != 1 : source != 1;
    deliver(s, &dv, pkt + 8, len - 8, source, relayed ? target : receiver, relayed);
}

/* Godot 4 over ENet: ENet channel 0 carries the reliable system channel, 1 the unreliable ones, and
 * channel N > 1 the game's transfer channel N - 1; the ENet command gives the mode
 * (enet_multiplayer_peer.cpp: RELIABLE, UNSEQUENCED | UNRELIABLE_FRAGMENT, UNRELIABLE_FRAGMENT). */
static void deliver_enet(gdw_session *s, flow *f, int dir, unsigned enet_channel, const char *mode, const uint8_t *pkt, size_t len) {
    if (!f->dialect) f->dialect = s->opts.dialect ? s->opts.dialect : flow_dialect(f, dir, enet_channel, pkt, len);
    if (gdw_session_layer(f->dialect) == GDW_MULTIPLAYER_API3) {
        deliver_godot3(s, f, dir, enet_channel, mode, pkt, len);
        return;
    }
    delivery dv = {f, dir, enet_channel >= 2 ? enet_channel - 1 : 0, mode};
    deliver(s, &dv, pkt, len, dir == 1 ? 1 : f->client_id, dir == 1 ? f->client_id : 1, false);
}

/* ---- ENet ------------------------------------------------------------------------------ */

/* The side of flow f that sends in direction dir (dir 0: the side taken for the client now). */
static uint8_t side_of(const flow *f, int dir) { return (uint8_t)(dir ^ f->swapped); }

typedef struct window_key {
    const flow *f;
    uint8_t side, channel;
} window_key;

static uint64_t window_hash_of(const flow *f, uint8_t side, uint8_t channel) {
    return index_mix(f->number, (uint64_t)side << 8 | channel);
}

static uint64_t window_hash(const void *item) {
    const seen_window *w = item;
    return window_hash_of(w->f, w->side, w->channel);
}

static bool window_is(const void *item, const void *key) {
    const seen_window *w = item;
    const window_key *k = key;
    return w->f == k->f && w->side == k->side && w->channel == k->channel;
}

/* true when this reliable command was seen before in its direction and channel: a retransmit. A
 * channel's window is made when the channel is first used; past the windows' caps the oldest
 * window makes room. */
static bool seen_before(gdw_session *s, flow *f, int dir, unsigned channel, uint16_t seq) {
    window_key key = {f, side_of(f, dir), (uint8_t)channel};
    seen_window *w = index_find(&s->windows, window_hash_of(f, key.side, key.channel), window_is, &key);
    if (!w) {
        size_t cost = indexed_cost(sizeof *w);
        if (!hold_room(&s->book, &f->hold, HOLD_WINDOWS, cost, NULL)) return false;
        w = gdw_session_alloc(s->opts.alloc, sizeof *w);
        if (!w) return false;
        memset(w, 0, sizeof *w);
        w->f = f, w->side = key.side, w->channel = key.channel;
        if (!index_insert(&s->windows, w)) {
            gdw_session_release(s->opts.alloc, w, sizeof *w);
            return false;
        }
        hold_add(&s->book, &f->hold, &w->h, HOLD_WINDOWS, HELD_WINDOW, cost);
        w->top = seq;
        w->bits[(seq % SEEN_WINDOW) / 8] = (uint8_t)(1u << (seq % 8));
        return false;
    }
    hold_touch(&s->book, &w->h);
    uint16_t behind = (uint16_t)(w->top - seq);
    if (behind >= 0x8000) { /* newer: slide the window */
        uint16_t ahead = (uint16_t)(seq - w->top);
        if (ahead >= SEEN_WINDOW) memset(w->bits, 0, sizeof w->bits);
        else
            for (uint16_t k = 1; k <= ahead; k++) {
                unsigned bit = (uint16_t)(w->top + k) % SEEN_WINDOW;
                w->bits[bit / 8] &= (uint8_t)~(1u << (bit % 8));
            }
        w->top = seq;
    } else if (behind >= SEEN_WINDOW) {
        return true; /* far behind the newest: ENet drops it as old */
    }
    unsigned bit = seq % SEEN_WINDOW;
    bool was = (w->bits[bit / 8] >> (bit % 8)) & 1;
    w->bits[bit / 8] |= (uint8_t)(1u << (bit % 8));
    return was;
}

typedef struct fragment_key {
    const flow *f;
    uint8_t side, channel;
    bool reliable;
    uint16_t start_seq, unreliable_of;
} fragment_key;

static uint64_t fragment_hash_of(const fragment_key *k) {
    return index_mix(k->f->number, (uint64_t)k->side << 48 | (uint64_t)k->channel << 40 | (uint64_t)k->reliable << 32 |
                                       (uint64_t)k->start_seq << 16 | (k->reliable ? 0 : k->unreliable_of));
}

static uint64_t fragment_set_hash(const void *item) {
    const fragment_set *fs = item;
    fragment_key k = {fs->f, fs->side, fs->channel, fs->reliable, fs->start_seq, fs->unreliable_of};
    return fragment_hash_of(&k);
}

static bool fragment_set_is(const void *item, const void *key) {
    const fragment_set *fs = item;
    const fragment_key *k = key;
    return fs->f == k->f && fs->side == k->side && fs->channel == k->channel && fs->reliable == k->reliable &&
           fs->start_seq == k->start_seq && (k->reliable || fs->unreliable_of == k->unreliable_of);
}

/* A new fragmented packet of `total` bytes in `count` parts, charged at what it costs; NULL, said,
 * when it cannot be held. */
static fragment_set *fragment_set_new(gdw_session *s, flow *f, const fragment_key *k, uint32_t count, uint32_t total, size_t at) {
    size_t cost = fragment_set_cost(count, total);
    if (!hold_room(&s->book, &f->hold, HOLD_REASSEMBLY, cost, NULL)) {
        problem(s, f, "enet", at, "a fragmented packet of %u bytes does not fit the open-fragment limits (%zu bytes in all, %zu in one flow): dropped",
                total, s->book.cap[HOLD_REASSEMBLY].total, s->book.cap[HOLD_REASSEMBLY].per_flow);
        s->stats.fragments_dropped++;
        return NULL;
    }
    fragment_set *fs = gdw_session_alloc(s->opts.alloc, sizeof *fs);
    if (!fs) return NULL;
    memset(fs, 0, sizeof *fs);
    fs->data = gdw_session_alloc(s->opts.alloc, total);
    fs->have = gdw_session_alloc(s->opts.alloc, (count + 7) / 8);
    fs->f = f, fs->side = k->side, fs->channel = k->channel, fs->reliable = k->reliable, fs->start_seq = k->start_seq;
    fs->unreliable_of = k->unreliable_of, fs->count = count, fs->total = total, fs->first_frame = s->frame;
    if (!fs->data || !fs->have || !index_insert(&s->fragments, fs)) {
        gdw_session_release(s->opts.alloc, fs->data, total);
        gdw_session_release(s->opts.alloc, fs->have, (count + 7) / 8);
        gdw_session_release(s->opts.alloc, fs, sizeof *fs);
        problem(s, f, "enet", at, "out of memory for a fragmented packet of %u bytes", total);
        return NULL;
    }
    memset(fs->have, 0, (count + 7) / 8);
    memset(fs->data, 0, total);
    hold_add(&s->book, &f->hold, &fs->h, HOLD_REASSEMBLY, HELD_FRAGMENT_SET, cost);
    return fs;
}

static void fragment(gdw_session *s, flow *f, int dir, const uint8_t *cmd, const uint8_t *data, size_t data_len, size_t at) {
    unsigned channel = cmd[1];
    bool reliable = (cmd[0] & 0x0F) == ENET_SEND_FRAGMENT;
    uint16_t rel_seq = gdw_session_be16(cmd + 2), start = gdw_session_be16(cmd + 4);
    uint32_t count = gdw_session_be32(cmd + 8), number = gdw_session_be32(cmd + 12), total = gdw_session_be32(cmd + 16),
             offset = gdw_session_be32(cmd + 20);
    if (count == 0 || count > ENET_MAX_FRAGMENT_COUNT || number >= count || total == 0 || offset >= total || data_len > total - offset) {
        problem(s, f, "enet", at, "a fragment that cannot be: number %u of %u, %zu bytes at %u of %u", number, count, data_len, offset, total);
        return;
    }
    if (total > s->opts.max_packet_bytes) {
        problem(s, f, "enet", at + 16, "a fragmented packet of %u bytes, over the limit of %zu (--max-packet): dropped", total,
                s->opts.max_packet_bytes);
        return;
    }
    fragment_key key = {f, side_of(f, dir), (uint8_t)channel, reliable, start, reliable ? 0 : rel_seq};
    fragment_set *fs = index_find(&s->fragments, fragment_hash_of(&key), fragment_set_is, &key);
    if (fs && (fs->count != count || fs->total != total)) {
        problem(s, f, "enet", at, "a fragment of %u bytes in %u parts joins a packet of %u bytes in %u parts", total, count, fs->total, fs->count);
        return;
    }
    if (!fs && !(fs = fragment_set_new(s, f, &key, count, total, at))) return;
    hold_touch(&s->book, &fs->h);
    if ((fs->have[number / 8] >> (number % 8)) & 1) return; /* an unreliable part sent twice */
    fs->have[number / 8] |= (uint8_t)(1u << (number % 8));
    fs->received++;
    memcpy(fs->data + offset, data, data_len);
    if (fs->received < fs->count) return;
    s->stats.fragments_completed++;
    /* complete: out of the index, handed up (still charged: the Godot layer above makes room only
     * for paths), then freed */
    index_remove(&s->fragments, fs);
    deliver_enet(s, f, dir, channel, reliable ? "reliable" : "unreliable", fs->data, fs->total);
    fragment_set_free(s, fs);
}

static bool enet_commands_whole(const uint8_t *d, size_t pos, size_t len);

/* What s reads compressed blocks with, as its problems say it: "zstd, zlib, fastlz (not in this build: range_coder)". */
static void decompressors_text(const gdw_session *s, char *out, size_t cap) {
    size_t k = 0, n = 0, missing = 0;
    out[0] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof k_try_order / sizeof *k_try_order && k < cap; i++) {
            gdw_enet_compression c = k_try_order[i];
            bool have = c == GDW_ENET_COMPRESS_RANGE_CODER ? s->opts.decompress != NULL : gdw_enet_compression_built(c);
            if (have == (pass == 0))
                k += (size_t)snprintf(out + k, cap - k, "%s%s", pass ? (missing++ ? ", " : " (not in this build: ") : (n++ ? ", " : ""),
                                      gdw_enet_compression_name(c));
        }
    if (missing && k < cap) snprintf(out + k, cap - k, ")");
}

static size_t inflate_with(const gdw_session *s, gdw_enet_compression c, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    if (c == GDW_ENET_COMPRESS_RANGE_CODER) return s->opts.decompress ? s->opts.decompress(s->opts.decompress_ctx, in, n, out, cap) : 0;
    return gdw_enet_decompress(c, in, n, out, cap);
}

/* A compressed block of side's datagram into out: with the compression the side's datagrams were found in, or at
 * its first, the first of k_try_order whose output is whole ENet commands (out holds the header before it:
 * out - header ... out is the datagram). 0: none reads it. */
static size_t enet_inflate(gdw_session *s, flow *f, uint8_t side, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    /* a block fits a compression when its output is whole ENet commands; the locked one is tried first */
    gdw_enet_compression was = (gdw_enet_compression)f->compression[side];
    if (was) {
        size_t got = inflate_with(s, was, in, n, out, cap);
        if (got && enet_commands_whole(out, 0, got)) return got;
    }
    /* Found anew: every one is tried. One that alone fits (or that fits again what the side's last datagram
     * fitted) is locked; where several fit (the range coder turns most blocks into something, and a few real
     * FastLZ blocks come out as whole commands through it), the first in k_try_order reads this datagram only.
     * A locked one that stops fitting is unlocked: a forged datagram cannot blind a side for good. */
    size_t fits = 0;
    bool guessed = false;
    gdw_enet_compression first = GDW_ENET_COMPRESS_NONE;
    for (size_t i = 0; i < sizeof k_try_order / sizeof *k_try_order; i++) {
        gdw_enet_compression c = k_try_order[i];
        if (c == was) continue;
        size_t got = inflate_with(s, c, in, n, out, cap);
        if (!got || !enet_commands_whole(out, 0, got)) continue;
        fits++;
        if (!first) first = c;
        if (c == f->guess[side]) guessed = true;
    }
    if (!fits) return 0;
    gdw_enet_compression use = guessed ? (gdw_enet_compression)f->guess[side] : first;
    if (fits == 1 || guessed) {
        f->compression[side] = (uint8_t)use;
        f->guess[side] = 0;
        if (was && !f->switched_said) {
            f->switched_said = true;
            problem(s, f, "enet", 0, "a compressed ENet datagram that %s does not read, as this side's did, and %s does: read with %s from here "
                    "(said once a flow)", gdw_enet_compression_name(was), gdw_enet_compression_name(use), gdw_enet_compression_name(use));
        }
    } else {
        f->compression[side] = 0;
        f->guess[side] = (uint8_t)use;
    }
    return inflate_with(s, use, in, n, out, cap); /* out holds the last one tried: the chosen one's output again */
}

/* One ENet datagram of flow f in direction dir. */
static void enet_datagram(gdw_session *s, flow *f, int dir, const uint8_t *d, size_t len, size_t base) {
    uint16_t peer = gdw_session_be16(d);
    size_t pos = (peer & ENET_HEADER_SENT_TIME) ? 4 : 2;
    uint8_t plain[ENET_MAXIMUM_MTU];
    if (peer & ENET_HEADER_COMPRESSED) {
        /* everything after the header is compressed as one block (protocol.c, enet_protocol_receive_incoming_commands);
         * offsets in problems are then offsets in the decompressed datagram */
        uint8_t side = side_of(f, dir);
        size_t n = len > pos ? enet_inflate(s, f, side, d + pos, len - pos, plain + pos, sizeof plain - pos) : 0;
        if (!n) {
            if (!f->compressed++) {
                if (f->compression[side])
                    problem(s, f, "enet", base, "a compressed ENet datagram that does not decompress with %s, as this side's did: "
                            "this flow's are skipped (their count comes at the end)", gdw_enet_compression_name(f->compression[side]));
                else {
                    char have[112];
                    decompressors_text(s, have, sizeof have);
                    problem(s, f, "enet", base, "a compressed ENet datagram that none of %s reads as ENet commands: this flow's are skipped "
                            "(their count comes at the end)", have);
                }
            }
            return;
        }
        memcpy(plain, d, pos);
        d = plain, len = pos + n;
        s->stats.decompressed++;
    }
    while (pos < len) {
        const uint8_t *c = d + pos;
        if (len - pos < 4) {
            problem(s, f, "enet", base + pos, "an ENet command header cut short (%zu bytes left)", len - pos);
            return;
        }
        unsigned kind = c[0] & 0x0F;
        if (kind == 0 || kind >= ENET_COMMAND_COUNT) {
            problem(s, f, "enet", base + pos, "ENet command %u is not a command: the rest of the datagram is skipped", kind);
            return;
        }
        size_t size = k_enet_size[kind];
        if (len - pos < size) {
            problem(s, f, "enet", base + pos, "ENet command %u needs %zu bytes, %zu are left", kind, size, len - pos);
            return;
        }
        const uint8_t *data = c + size;
        size_t data_len = enet_data_length(c, kind);
        if (data_len > len - pos - size) {
            problem(s, f, "enet", base + pos + 4, "ENet command %u says %zu bytes of data, %zu are left", kind, data_len, len - pos - size);
            return;
        }
        pos += size + data_len;
        unsigned channel = c[1];
        /* ENet drops a reliable command it has seen, whether or not it asks for an acknowledgement
         * (protocol.c, enet_peer_queue_incoming_command); a CONNECT is seen by its peer id below */
        bool reliable = (c[0] & ENET_FLAG_ACKNOWLEDGE) || kind == ENET_SEND_RELIABLE || kind == ENET_SEND_FRAGMENT;
        if (reliable && kind != ENET_CONNECT && seen_before(s, f, dir, channel, gdw_session_be16(c + 2))) {
            s->stats.retransmits++;
            continue;
        }
        switch (kind) {
        case ENET_CONNECT:
            /* a peer that has no id yet (peer id 0xFFF, channel 0xFF: host.c, enet_host_connect) asks once; a
               CONNECT later in a flow, or from the server's side, would rename its peers: it is a problem */
            if (f->connect_seen && dir == 0 && (int32_t)gdw_session_be32(c + 44) == f->client_id) {
                s->stats.retransmits++; /* the same CONNECT again: ENet resends it until it is verified */
                break;
            }
            if ((peer & ENET_MAX_PEER_ID) != ENET_MAX_PEER_ID || channel != 0xFF || dir != 0 || f->connect_seen) {
                problem(s, f, "enet", base + pos - size, "a CONNECT %s: ignored",
                        f->connect_seen ? "on a flow already connected" : dir != 0 ? "from the server's side" : "with a peer id or channel a new peer does not send");
                break;
            }
            f->connect_seen = true;
            f->client_id = (int32_t)gdw_session_be32(c + 44);
            break;
        case ENET_SEND_RELIABLE:
            deliver_enet(s, f, dir, channel, "reliable", data, data_len);
            break;
        case ENET_SEND_UNRELIABLE:
            deliver_enet(s, f, dir, channel, "unreliable_ordered", data, data_len);
            break;
        case ENET_SEND_UNSEQUENCED:
            deliver_enet(s, f, dir, channel, "unreliable", data, data_len);
            break;
        case ENET_SEND_FRAGMENT:
        case ENET_SEND_UNRELIABLE_FRAGMENT:
            fragment(s, f, dir, c, data, data_len, base + pos - size - data_len);
            break;
        default:
            break; /* acknowledgements, pings, bandwidth and throttle: nothing of Godot's */
        }
    }
}

/* Is this datagram ENet as Godot's hosts send it? Its commands must walk to its end exactly. */
static bool looks_like_enet(const uint8_t *d, size_t len) {
    if (len < 4) return false;
    uint16_t peer = gdw_session_be16(d);
    if (peer & ENET_HEADER_COMPRESSED) return true; /* cannot be walked; the flow decides */
    size_t pos = (peer & ENET_HEADER_SENT_TIME) ? 4 : 2;
    return pos < len && enet_commands_whole(d, pos, len);
}

/* d[pos..len) is whole ENet commands, each of a kind, size and data length that fit. */
static bool enet_commands_whole(const uint8_t *d, size_t pos, size_t len) {
    while (pos < len) {
        if (len - pos < 4) return false;
        unsigned kind = d[pos] & 0x0F;
        if (kind == 0 || kind >= ENET_COMMAND_COUNT || len - pos < k_enet_size[kind]) return false;
        size_t data_len = enet_data_length(d + pos, kind);
        if (data_len > len - pos - k_enet_size[kind]) return false;
        pos += k_enet_size[kind] + data_len;
    }
    return true;
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

/* Doubles the flow table; false when memory runs out. */
static bool flow_grow(gdw_session *s) {
    size_t cap = s->flow_cap * 2;
    flow **t = gdw_session_alloc(s->opts.alloc, cap * sizeof *t);
    if (!t) return false;
    memset(t, 0, cap * sizeof *t);
    gdw_session_release(s->opts.alloc, s->flows, s->flow_cap * sizeof *s->flows);
    s->flows = t, s->flow_cap = cap;
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

/* A new flow from src to dst (src taken for the client until the protocol says otherwise); NULL,
 * reported, past max_flows. */
static flow *flow_new(gdw_session *s, uint8_t proto, const uint8_t *src, uint16_t sport, const uint8_t *dst, uint16_t dport, size_t alen) {
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

void gdw_session_udp(gdw_session *s, const uint8_t *src, size_t alen, uint16_t sport, const uint8_t *dst, uint16_t dport,
                     const uint8_t *payload, size_t len, double time) {
    if (!s || !src || !dst || (alen != 4 && alen != 16) || (!payload && len)) return;
    s->time = time;
    s->stats.udp_datagrams++;
    int dir;
    size_t slot = flow_slot(s, 17, src, sport, dst, dport, alen, &dir);
    flow *f = s->flows[slot];
    bool enet = looks_like_enet(payload, len);
    if (!f) {
        if (!enet) {
            problem(s, NULL, "udp", 0, "a UDP datagram of %zu bytes (port %u to %u) that is not ENet, in no ENet flow: skipped", len, sport, dport);
            return;
        }
        if (!(f = flow_new(s, 17, src, sport, dst, dport, alen))) return;
        dir = 0;
    }
    if (!enet) {
        problem(s, f, "enet", 0, "a datagram of %zu bytes that is not ENet: its commands do not walk to its end", len);
        return;
    }
    s->stats.enet_datagrams++;
    /* a CONNECT from the side taken for the server: the two sides swap, before anything is kept */
    uint16_t peer = gdw_session_be16(payload);
    if (dir == 1 && !f->connect_seen && !(peer & ENET_HEADER_COMPRESSED) && (peer & ENET_MAX_PEER_ID) == ENET_MAX_PEER_ID) {
        size_t pos = (peer & ENET_HEADER_SENT_TIME) ? 4 : 2;
        if ((payload[pos] & 0x0F) == ENET_CONNECT) {
            uint8_t ta[16];
            memcpy(ta, f->addr[0], alen), memcpy(f->addr[0], f->addr[1], alen), memcpy(f->addr[1], ta, alen);
            uint16_t tp = f->port[0];
            f->port[0] = f->port[1], f->port[1] = tp;
            f->swapped = !f->swapped; /* what each side sent stays its own (side_of) */
            flow_text(f);
            f->group = flow_group(s, f);
            dir = 0;
        }
    }
    enet_datagram(s, f, dir, payload, len, 0);
}

/* ---- TCP and WebSocket ---------------------------------------------------------------- */

/* Godot 4's WebSocketMultiplayerPeer (modules/websocket/websocket_multiplayer_peer.cpp, 4.3): after
 * the HTTP upgrade (RFC 6455), the server's first binary message is the client's peer id (4 bytes),
 * then every binary message is one SceneMultiplayer packet, the client's masked. TCP is put back in
 * order per direction: bytes seen again are dropped, segments ahead of the stream wait (bounded by
 * the open-fragment budget) until the gap fills. */

enum { TCP_FIN = 1, TCP_SYN = 2, TCP_RST = 4, TCP_ACK = 16 };
enum { WS_HANDSHAKE, WS_FRAMES, WS_OFF };

typedef struct tcp_segment {
    struct tcp_segment *next;
    uint32_t seq;
    size_t len;
    uint8_t data[];
} tcp_segment;

typedef struct tcp_dir {
    holder h;               /* its buffers and waiting segments, charged as reassembly (hold.h) */
    flow *f;
    uint8_t dir;
    bool have_seq;
    uint32_t next;          /* the sequence number of the stream's next byte */
    uint8_t *buf;           /* stream bytes not yet parsed */
    size_t len, cap;
    tcp_segment *ahead;     /* segments past a gap, in no order */
    size_t ahead_bytes, ahead_count, ahead_cost;
    int state;
    uint8_t *msg;           /* a WebSocket message being assembled from its frames */
    size_t msg_len, msg_cap;
    int msg_opcode;
} tcp_dir;

typedef struct tcp_side {
    tcp_dir d[2];
    bool id_seen, reported_off;
} tcp_side;

/* What a direction's buffers and waiting segments cost. */
static size_t tcp_dir_cost(const tcp_dir *d) {
    return (d->cap ? hold_cost(d->cap) : 0) + (d->msg_cap ? hold_cost(d->msg_cap) : 0) + d->ahead_cost;
}

/* d's charge becomes `bytes`, room made first; false when it does not fit the reassembly caps. A
 * direction that holds nothing is in no list (dropping it would free nothing). */
static bool tcp_charge(gdw_session *s, tcp_dir *d, size_t bytes) {
    if (!bytes) {
        hold_remove(&s->book, &d->h);
        return true;
    }
    if (bytes > d->h.bytes && !hold_room(&s->book, &d->f->hold, HOLD_REASSEMBLY, bytes - d->h.bytes, &d->h)) return false;
    if (d->h.held) hold_resize(&s->book, &d->h, bytes);
    else hold_add(&s->book, &d->f->hold, &d->h, HOLD_REASSEMBLY, HELD_TCP_DIR, bytes);
    return true;
}

/* A stream or message buffer of d to hold `need` bytes (of which len are kept), doubling up to
 * `most`; false when memory or the caps refuse it. */
static bool tcp_grow(gdw_session *s, tcp_dir *d, uint8_t **buf, size_t *cap, size_t len, size_t need, size_t most) {
    if (need <= *cap) return true;
    size_t cap2 = *cap ? *cap : 4096;
    while (cap2 < need) cap2 *= 2;
    if (cap2 > most) cap2 = need > most ? need : most;
    if (!tcp_charge(s, d, d->h.bytes - (*cap ? hold_cost(*cap) : 0) + hold_cost(cap2))) return false;
    uint8_t *b = gdw_session_alloc(s->opts.alloc, cap2);
    if (!b) {
        tcp_charge(s, d, tcp_dir_cost(d));
        return false;
    }
    if (len) memcpy(b, *buf, len);
    gdw_session_release(s->opts.alloc, *buf, *cap);
    *buf = b, *cap = cap2;
    return true;
}

/* Frees what d holds; it stays its flow's direction. */
static void tcp_dir_free(gdw_session *s, tcp_dir *d) {
    gdw_session_release(s->opts.alloc, d->buf, d->cap);
    gdw_session_release(s->opts.alloc, d->msg, d->msg_cap);
    while (d->ahead) {
        tcp_segment *g = d->ahead;
        d->ahead = g->next;
        gdw_session_release(s->opts.alloc, g, sizeof *g + g->len);
    }
    hold_remove(&s->book, &d->h);
    flow *f = d->f;
    uint8_t dir = d->dir;
    memset(d, 0, sizeof *d);
    d->f = f, d->dir = dir;
}

static void tcp_free(gdw_session *s, tcp_side *t) {
    tcp_dir_free(s, &t->d[0]);
    tcp_dir_free(s, &t->d[1]);
    gdw_session_release(s->opts.alloc, t, sizeof *t);
}

static void ws_off(gdw_session *s, flow *f, const char *why) {
    if (!f->tcp->reported_off) problem(s, f, "tcp", 0, "%s: this flow is not read", why);
    f->tcp->reported_off = true;
    for (int k = 0; k < 2; k++) {
        tcp_dir_free(s, &f->tcp->d[k]);
        f->tcp->d[k].state = WS_OFF;
    }
}

/* The book's evict for a TCP direction: its stream is dropped, and no more of it is read. */
static void tcp_dir_evict(gdw_session *s, holder *h, const char *cap_text) {
    tcp_dir *d = HOLDER_OF(tcp_dir, h);
    if (cap_text) /* NULL: counted (evict) */
        problem(s, d->f, "tcp", 0, "TCP streams and WebSocket messages past %s: the %s stream (%zu bytes waiting in %zu held) is dropped and not read further",
                cap_text, side_name(d->dir), d->len + d->msg_len + d->ahead_bytes, d->h.bytes);
    tcp_dir_free(s, d);
    d->state = WS_OFF;
}

static bool has_text(const uint8_t *p, size_t n, const char *want) {
    size_t w = strlen(want);
    for (size_t i = 0; i + w <= n; i++) {
        size_t k = 0;
        while (k < w && (p[i + k] | 0x20) == (want[k] | 0x20)) k++;
        if (k == w) return true;
    }
    return false;
}

/* One whole WebSocket message of direction dir. */
/* Godot 3's WebSocketMultiplayerPeer (modules/websocket/websocket_multiplayer_peer.cpp, 3.6.2: _make_pkt 176-186,
 * _process_multiplayer 259-335): every message starts with a 9-byte header, a type (0 a packet, 1 a peer added,
 * 2 a peer removed, 3 the client's own id), then the source and the target peer ids (32-bit, little-endian; the
 * target 0 everyone, -N everyone but N). A packet's body is a MultiplayerAPI packet; a system message's, which
 * only the server sends, a peer id. The server relays a packet with its header as it came. */
enum { WS3_HEADER = 9, WS3_PACKET = 0, WS3_ADD = 1, WS3_DEL = 2, WS3_ID = 3 };

static void ws_godot3(gdw_session *s, flow *f, int dir, const uint8_t *m, size_t len) {
    if (len < WS3_HEADER) {
        problem(s, f, "multiplayer", 0, "a %zu-byte message: shorter than Godot 3's 9-byte WebSocket header", len);
        return;
    }
    unsigned type = m[0];
    int64_t source = (int32_t)gdw_session_le32(m + 1), target = (int32_t)gdw_session_le32(m + 5);
    delivery dv = {f, dir, 0, "reliable"};
    int64_t receiver = dir == 1 ? f->client_id : 1;
    if (type == WS3_PACKET) {
        if (dir == 0 && f->client_id && source != f->client_id) { /* the engine drops it: "Someone is cheating" (:283) */
            problem(s, f, "multiplayer", 0, "a packet from the client that says it comes from peer %lld, not the client's %lld: the server drops it",
                    (long long)source, (long long)f->client_id);
            return;
        }
        bool relayed = dir == 0 ? target != 1 : source != 1;
        deliver(s, &dv, m + WS3_HEADER, len - WS3_HEADER, source, relayed ? target : receiver, relayed);
        return;
    }
    if (dir == 0 || type > WS3_ID || len < WS3_HEADER + 4) {
        problem(s, f, "multiplayer", 0, "a %zu-byte Godot 3 WebSocket message of type %u from the %s: not a packet nor a system message", len, type,
                dir == 0 ? "client (only the server sends system messages)" : "server");
        return;
    }
    int32_t peer = (int32_t)gdw_session_le32(m + WS3_HEADER);
    if (type == WS3_ID) f->client_id = peer;
    else emit_godot3_peer(s, &dv, m, len, type == WS3_ADD ? GDW_MP_SYS_ADD_PEER : GDW_MP_SYS_DEL_PEER, peer, receiver);
}

static void ws_message(gdw_session *s, flow *f, int dir, const uint8_t *m, size_t len, int opcode) {
    if (opcode != 2) return; /* text messages are not Godot's */
    if (dir == 1 && !f->tcp->id_seen) {
        f->tcp->id_seen = true;
        if (len == 4) {
            f->client_id = (int32_t)gdw_session_le32(m); /* Godot 4's server tells the client its id */
            return;
        }
        if (len == WS3_HEADER + 4 && m[0] == WS3_ID) { /* Godot 3's: a system message, the id after the header */
            f->client_id = (int32_t)gdw_session_le32(m + WS3_HEADER);
            if (!f->dialect) f->dialect = s->opts.dialect ? s->opts.dialect : gdw_dialect_find("godot3");
            return;
        }
        problem(s, f, "multiplayer", 0, "the server's first message is %zu bytes, not the client's peer id (Godot 4's 4 bytes, or Godot 3's "
                "9-byte header and 4 bytes)", len);
    }
    if (!f->dialect) f->dialect = s->opts.dialect ? s->opts.dialect : gdw_dialect_find("godot4");
    if (gdw_session_layer(f->dialect) == GDW_MULTIPLAYER_API3) {
        ws_godot3(s, f, dir, m, len);
        return;
    }
    if (gdw_session_layer(f->dialect) != GDW_MULTIPLAYER_SCENE4) {
        ws_off(s, f, "a WebSocket flow of this dialect's engines (its multiplayer layer is not read)");
        return;
    }
    delivery dv = {f, dir, 0, "reliable"};
    deliver(s, &dv, m, len, dir == 1 ? 1 : f->client_id, dir == 1 ? f->client_id : 1, false);
}

/* Parses what direction dir's stream holds: the HTTP head, then frames. */
static void ws_parse(gdw_session *s, flow *f, int dir) {
    tcp_dir *d = &f->tcp->d[dir];
    size_t pos = 0;
    while (d->state != WS_OFF) {
        const uint8_t *p = d->buf + pos;
        size_t n = d->len - pos;
        if (d->state == WS_HANDSHAKE) {
            const uint8_t *end = NULL;
            for (size_t i = 0; i + 4 <= n; i++)
                if (p[i] == '\r' && p[i + 1] == '\n' && p[i + 2] == '\r' && p[i + 3] == '\n') { end = p + i + 4; break; }
            if (!end) {
                if (n > 16384) ws_off(s, f, "no end to the HTTP head in 16 KiB");
                break;
            }
            size_t head = (size_t)(end - p);
            bool ok = dir == 0 ? n >= 4 && memcmp(p, "GET ", 4) == 0 && has_text(p, head, "upgrade: websocket")
                               : n >= 12 && memcmp(p, "HTTP/1.1 101", 12) == 0;
            if (!ok) {
                ws_off(s, f, dir == 0 ? "a TCP flow that does not begin with a WebSocket upgrade" : "the server did not accept the WebSocket upgrade");
                return;
            }
            pos += head;
            d->state = WS_FRAMES;
            continue;
        }
        if (n < 2) break;
        uint8_t b0 = p[0], b1 = p[1];
        size_t hdr = 2;
        uint64_t plen = b1 & 0x7F;
        if (plen == 126) {
            if (n < 4) break;
            plen = gdw_session_be16(p + 2), hdr = 4;
        } else if (plen == 127) {
            if (n < 10) break;
            plen = (uint64_t)gdw_session_be32(p + 2) << 32 | gdw_session_be32(p + 6), hdr = 10;
        }
        bool masked = b1 & 0x80;
        if (masked) hdr += 4;
        if ((b0 & 0x08) && (plen > 125 || !(b0 & 0x80))) { /* RFC 6455 5.5: a control frame is whole and at most 125 bytes */
            ws_off(s, f, "a WebSocket control frame longer than 125 bytes or in parts");
            return;
        }
        if (plen > s->opts.max_packet_bytes) {
            ws_off(s, f, "a WebSocket frame longer than --max-packet");
            return;
        }
        if (n < hdr || n - hdr < plen) break;
        int opcode = b0 & 0x0F;
        const uint8_t *payload = p + hdr;
        uint8_t *data = (uint8_t *)d->buf + pos + hdr;
        if (masked)
            for (uint64_t i = 0; i < plen; i++) data[i] ^= p[hdr - 4 + (i & 3)];
        if (opcode == 0 || opcode == 1 || opcode == 2) {
            if (opcode != 0) d->msg_opcode = opcode, d->msg_len = 0;
            if (d->msg_len + plen > s->opts.max_packet_bytes) {
                ws_off(s, f, "a WebSocket message longer than --max-packet");
                return;
            }
            if (!tcp_grow(s, d, &d->msg, &d->msg_cap, d->msg_len, d->msg_len + (size_t)plen + 1, s->opts.max_packet_bytes + 1)) {
                tcp_dir_evict(s, &d->h, "the reassembly limits");
                return;
            }
            memcpy(d->msg + d->msg_len, payload, (size_t)plen);
            d->msg_len += (size_t)plen;
            if (b0 & 0x80) {
                ws_message(s, f, dir, d->msg, d->msg_len, d->msg_opcode);
                d->msg_len = 0;
                if (d->state == WS_OFF) return;
                gdw_session_release(s->opts.alloc, d->msg, d->msg_cap); /* held only while a message waits */
                d->msg = NULL, d->msg_cap = 0;
                tcp_charge(s, d, tcp_dir_cost(d));
            }
        } else if (opcode >= 3 && opcode <= 7) {
            ws_off(s, f, "a WebSocket frame with a reserved opcode");
            return;
        } /* close, ping and pong carry nothing of Godot's */
        if (d->state == WS_OFF) return;
        pos += hdr + (size_t)plen;
    }
    if (d->state != WS_OFF && pos) {
        memmove(d->buf, d->buf + pos, d->len - pos);
        d->len -= pos;
    }
    if (d->state != WS_OFF && !d->len && d->cap) { /* all read: the buffer goes until more comes */
        gdw_session_release(s->opts.alloc, d->buf, d->cap);
        d->buf = NULL, d->cap = 0;
        tcp_charge(s, d, tcp_dir_cost(d));
    }
}

#define TCP_MAX_AHEAD 1024 /* segments waiting past a gap, per direction */

/* Bytes at seq: those already in the stream dropped, the rest appended and parsed if they follow
 * on, else kept until the gap fills. false when the direction was turned off. */
static bool tcp_take(gdw_session *s, flow *f, int dir, uint32_t seq, const uint8_t *p, size_t n) {
    tcp_dir *d = &f->tcp->d[dir];
    int32_t behind = (int32_t)(d->next - seq);
    if (behind > 0) { /* bytes already in the stream: a retransmit, maybe with new bytes after */
        if ((size_t)behind >= n) {
            s->stats.retransmits++;
            return true;
        }
        p += behind, n -= (size_t)behind, seq = d->next;
    }
    if (seq != d->next) { /* past a gap: wait for it */
        if (d->ahead_count >= TCP_MAX_AHEAD || d->ahead_bytes + n > s->opts.max_packet_bytes) {
            ws_off(s, f, "a gap in the TCP stream that never filled within the limits (1,024 segments, --max-packet)");
            return false;
        }
        if (!tcp_charge(s, d, d->h.bytes + hold_cost(sizeof(tcp_segment) + n))) {
            tcp_dir_evict(s, &d->h, "the reassembly limits");
            return false;
        }
        tcp_segment *g = gdw_session_alloc(s->opts.alloc, sizeof *g + n);
        if (!g) {
            tcp_charge(s, d, tcp_dir_cost(d));
            return true;
        }
        g->seq = seq, g->len = n, g->next = d->ahead;
        memcpy(g->data, p, n);
        d->ahead = g, d->ahead_bytes += n, d->ahead_count++, d->ahead_cost += hold_cost(sizeof *g + n);
        return true;
    }
    /* a stream holds at most one frame of --max-packet and its header, and what follows it in the
     * same segment */
    size_t most = s->opts.max_packet_bytes + 16384;
    if (d->len + n > most) {
        ws_off(s, f, "more stream bytes waiting than a message can hold (--max-packet)");
        return false;
    }
    if (!tcp_grow(s, d, &d->buf, &d->cap, d->len, d->len + n, most)) {
        tcp_dir_evict(s, &d->h, "the reassembly limits");
        return false;
    }
    memcpy(d->buf + d->len, p, n);
    d->len += n;
    d->next += (uint32_t)n;
    ws_parse(s, f, dir);
    return d->state != WS_OFF;
}

/* A segment, then, one at a time (no recursion: a hostile capture can leave many waiting), each
 * waiting segment the stream's new end reaches. */
static void tcp_append(gdw_session *s, flow *f, int dir, uint32_t seq, const uint8_t *p, size_t n) {
    tcp_dir *d = &f->tcp->d[dir];
    if (!tcp_take(s, f, dir, seq, p, n)) return;
    for (bool more = true; more && d->ahead;) { /* at most TCP_MAX_AHEAD waiting: each pass takes one */
        more = false;
        for (tcp_segment **link = &d->ahead; *link; link = &(*link)->next) {
            tcp_segment *g = *link;
            /* not reached yet: the same test as tcp_take's (a segment exactly 2^31 bytes ahead is
             * ahead both ways round as int32_t; taking it would queue it again, for ever) */
            if ((int32_t)(d->next - g->seq) < 0) continue;
            *link = g->next;
            d->ahead_bytes -= g->len, d->ahead_count--, d->ahead_cost -= hold_cost(sizeof *g + g->len);
            bool on = tcp_take(s, f, dir, g->seq, g->data, g->len);
            gdw_session_release(s->opts.alloc, g, sizeof *g + g->len);
            if (d->state != WS_OFF) tcp_charge(s, d, tcp_dir_cost(d)); /* smaller: no room needed */
            if (!on) return;
            more = true;
            break;
        }
    }
}

static void tcp_segment_in(gdw_session *s, const uint8_t *src, const uint8_t *dst, size_t alen, const uint8_t *tcp, size_t tlen,
                           size_t frame_pos) {
    if (tlen < 20) { /* its ports too: nothing of it is read */
        problem(s, NULL, "tcp", frame_pos, "a TCP header cut at %zu bytes", tlen);
        return;
    }
    uint16_t sport = gdw_session_be16(tcp), dport = gdw_session_be16(tcp + 2);
    size_t off = (size_t)(tcp[12] >> 4) * 4;
    if (off < 20 || off > tlen) {
        problem(s, NULL, "tcp", frame_pos + 12, "a TCP header length of %zu in %zu bytes", off, tlen);
        return;
    }
    uint32_t seq = gdw_session_be32(tcp + 4);
    unsigned flags = tcp[13];
    const uint8_t *data = tcp + off;
    size_t n = tlen - off;
    int dir;
    size_t slot = flow_slot(s, 6, src, sport, dst, dport, alen, &dir);
    flow *f = s->flows[slot];
    if (!f) {
        /* a flow starts at its SYN, or at a WebSocket upgrade request when the capture missed it */
        bool start = ((flags & TCP_SYN) && !(flags & TCP_ACK)) || (n >= 4 && memcmp(data, "GET ", 4) == 0);
        if (!start) return; /* other TCP traffic, or a flow whose start the capture missed */
        if (!(f = flow_new(s, 6, src, sport, dst, dport, alen))) return;
        f->tcp = gdw_session_alloc(s->opts.alloc, sizeof *f->tcp);
        if (!f->tcp) return;
        memset(f->tcp, 0, sizeof *f->tcp);
        hold_resize(&s->book, &f->h, f->h.bytes + hold_cost(sizeof *f->tcp)); /* part of the flow */
        for (int k = 0; k < 2; k++) f->tcp->d[k].f = f, f->tcp->d[k].dir = (uint8_t)k;
        dir = 0;
    }
    if (!f->tcp || f->tcp->d[dir].state == WS_OFF) return;
    tcp_dir *d = &f->tcp->d[dir];
    if (flags & TCP_SYN) {
        d->have_seq = true, d->next = seq + 1;
        return;
    }
    if (!n) return;
    if (!d->have_seq) d->have_seq = true, d->next = seq; /* the capture began after the SYN */
    tcp_append(s, f, dir, seq, data, n);
}

/* ---- link, IP, UDP ----------------------------------------------------------------------- */

void gdw_session_frame(gdw_session *s, int link, const uint8_t *d, size_t caplen, size_t wirelen, double time) {
    if (!s || (!d && caplen)) return;
    s->frame++;
    s->stats.frames++;
    s->time = time;
    size_t pos = 0;
    unsigned ethertype = 0, version = 0;
    switch (link) {
    case GDW_LINK_ETHERNET:
        if (caplen < 14) {
            problem(s, NULL, "link", caplen, "an Ethernet frame cut at %zu bytes", caplen);
            return;
        }
        ethertype = gdw_session_be16(d + 12), pos = 14;
        while ((ethertype == 0x8100 || ethertype == 0x88A8) && caplen - pos >= 4) /* VLAN tags */
            ethertype = gdw_session_be16(d + pos + 2), pos += 4;
        break;
    case GDW_LINK_LINUX_SLL:
        if (caplen < 16) {
            problem(s, NULL, "link", caplen, "a Linux cooked (SLL) frame cut at %zu bytes", caplen);
            return;
        }
        ethertype = gdw_session_be16(d + 14), pos = 16;
        break;
    case GDW_LINK_LINUX_SLL2:
        if (caplen < 20) {
            problem(s, NULL, "link", caplen, "a Linux cooked (SLL2) frame cut at %zu bytes", caplen);
            return;
        }
        ethertype = gdw_session_be16(d), pos = 20;
        break;
    case GDW_LINK_NULL:
    case GDW_LINK_LOOP: {
        if (caplen < 4) {
            problem(s, NULL, "link", caplen, "a loopback frame cut at %zu bytes", caplen);
            return;
        }
        uint32_t family = link == GDW_LINK_LOOP ? gdw_session_be32(d) : (d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24);
        if (link == GDW_LINK_NULL && family > 0xFFFF) family = gdw_session_be32(d); /* captured on a big-endian host */
        ethertype = family == 2 ? 0x0800 : (family == 24 || family == 28 || family == 30 || family == 10) ? 0x86DD : 0;
        pos = 4;
        break;
    }
    case GDW_LINK_RAW:
    case GDW_LINK_DLT_RAW:
    case GDW_LINK_DLT_RAW_OPENBSD:
    case GDW_LINK_IPV4:
    case GDW_LINK_IPV6:
        if (caplen < 1) return;
        ethertype = (d[0] >> 4) == 4 ? 0x0800 : (d[0] >> 4) == 6 ? 0x86DD : 0;
        break;
    default:
        {
            problem(s, NULL, "link", 0, "link type %d is not read (Ethernet, Linux cooked SLL/SLL2, loopback and raw IP are)", link);
            return;
        }
    }
    if (ethertype != 0x0800 && ethertype != 0x86DD) return; /* ARP and the like */
    const uint8_t *ip = d + pos;
    size_t left = caplen - pos;
    const uint8_t *src, *dst;
    size_t alen, hlen;
    unsigned proto;
    size_t ip_len; /* what the IP header says the packet holds after it */
    if (ethertype == 0x0800) {
        if (left < 20) {
            problem(s, NULL, "ip", pos, "an IPv4 header cut at %zu bytes", left);
            return;
        }
        version = ip[0] >> 4, hlen = (size_t)(ip[0] & 15) * 4;
        if (version != 4 || hlen < 20 || hlen > left) {
            problem(s, NULL, "ip", pos, "not an IPv4 header");
            return;
        }
        size_t total = gdw_session_be16(ip + 2);
        if (total < hlen) {
            problem(s, NULL, "ip", pos + 2, "an IPv4 total length shorter than its header");
            return;
        }
        if ((gdw_session_be16(ip + 6) & 0x3FFF) != 0) {
            if (ip[9] == 17) problem(s, NULL, "ip", pos + 6, "a fragment of an IPv4 datagram: IP fragments are not reassembled");
            return;
        }
        proto = ip[9], src = ip + 12, dst = ip + 16, alen = 4, ip_len = total - hlen;
    } else {
        if (left < 40) {
            problem(s, NULL, "ip", pos, "an IPv6 header cut at %zu bytes", left);
            return;
        }
        proto = ip[6], src = ip + 8, dst = ip + 24, alen = 16, hlen = 40, ip_len = gdw_session_be16(ip + 4);
        while (proto == 0 || proto == 43 || proto == 60) { /* hop-by-hop, routing, destination options */
            if (left - hlen < 8) return;
            size_t ext = ((size_t)ip[hlen + 1] + 1) * 8;
            if (ext > left - hlen || ext > ip_len) return;
            proto = ip[hlen], hlen += ext, ip_len -= ext;
        }
        if (proto == 44) {
            problem(s, NULL, "ip", pos, "a fragment of an IPv6 datagram: IP fragments are not reassembled");
            return;
        }
    }
    if (proto == 6) {
        size_t have = left - hlen, tl = ip_len < have ? ip_len : have;
        if (have < ip_len)
            problem(s, NULL, "tcp", pos + hlen + have, "a TCP segment cut by the capture's snapshot length: %zu of %zu bytes captured: its stream is cut", have,
                    ip_len);
        s->stats.tcp_segments++;
        tcp_segment_in(s, src, dst, alen, ip + hlen, tl, pos + hlen);
        return;
    }
    if (proto != 17) return;
    const uint8_t *udp = ip + hlen;
    size_t have = left - hlen;
    if (have < 8) {
            problem(s, NULL, "udp", pos + hlen, "a UDP header cut at %zu bytes by the capture's snapshot length", have);
            return;
        }
    size_t ulen = gdw_session_be16(udp + 4);
    if (ulen < 8 || ulen > ip_len) {
            problem(s, NULL, "udp", pos + hlen + 4, "a UDP length of %zu where the IP packet holds %zu", ulen, ip_len);
            return;
        }
    if (have < ulen) {
        problem(s, NULL, "udp", pos + hlen + have,
                "a UDP datagram cut by the capture's snapshot length: %zu of its %zu bytes captured (frame of %zu bytes): skipped", have,
                ulen, wirelen);
        return;
    }
    gdw_session_udp(s, src, alen, gdw_session_be16(udp), dst, gdw_session_be16(udp + 2), udp + 8, ulen - 8, time);
}

void gdw_session_finish(gdw_session *s) {
    if (!s) return;
    uint64_t frame = s->frame;
    s->frame = 0;
    static const char *const held_name[HOLD_KINDS] = {"fragmented packets, TCP streams or WebSocket messages", "retransmit windows",
                                                      "path-cache entries", "flows"};
    for (int k = 0; k < HOLD_KINDS; k++)
        for (int per_flow = 0; per_flow < 2; per_flow++)
            if (s->evictions[k][per_flow] > 1)
                problem(s, NULL, k == HOLD_PATHS ? "multiplayer" : k == HOLD_WINDOWS ? "enet" : "session", 0,
                        "%llu more %s were dropped by the cap %s (the first is reported above)",
                        (unsigned long long)(s->evictions[k][per_flow] - 1), held_name[k], k_cap_option[k][per_flow]);
    for (unsigned i = 1; i <= s->stats.flows; i++) {
        flow *f = s->flow_list[i];
        if (f->compressed)
            problem(s, f, "enet", 0, "%llu compressed datagrams of this flow were not read", (unsigned long long)f->compressed);
        for (int k = 0; f->tcp && k < 2; k++) {
            tcp_dir *d = &f->tcp->d[k];
            /* (the start of a control frame left waiting is no message lost: Godot 3.6.2's server writes a close
             * frame's head, and its peer resets the connection before the rest) */
            bool control_head = d->state == WS_FRAMES && !d->ahead && !d->msg_len && d->len && d->len <= 2 + 4 + 125 && (d->buf[0] & 0x88) == 0x88;
            if (d->state != WS_OFF && !control_head && (d->ahead || d->msg_len || (d->state == WS_FRAMES && d->len)))
                problem(s, f, "tcp", 0, "the %s stream ends inside a WebSocket message or before a gap filled (%zu bytes waiting)",
                        k ? "server's" : "client's", d->len + d->msg_len + d->ahead_bytes);
            tcp_dir_free(s, d);
            d->state = WS_OFF;
        }
        for (holder *h = f->hold.list[HOLD_REASSEMBLY].head, *next; h; h = next) {
            next = h->fnext;
            if (h->type != HELD_FRAGMENT_SET) continue;
            fragment_set *fs = HOLDER_OF(fragment_set, h);
            problem(s, f, "enet", 0, "a fragmented packet first seen in frame %llu never completed: %u of %u parts, %u bytes",
                    (unsigned long long)fs->first_frame, fs->received, fs->count, fs->total);
            s->stats.fragments_dropped++;
            fragment_set_free(s, fs);
        }
    }
    s->frame = frame;
}

/* SPDX-License-Identifier: MIT
 * godot.c — the Godot layer of a flow, between its transport (enet.c, websocket.c) and one multiplayer packet
 * (multiplayer.c): which engine generation the flow speaks (a table of what differs: its transport header, its
 * ENet channels, its WebSocket messages), the peers, the peers' path caches, and SYS relays.
 *
 * Godot 4 over ENet (modules/enet/enet_multiplayer_peer.cpp): ENet channel 0 carries the reliable system channel,
 * 1 the unreliable ones, and channel N > 1 the game's transfer channel N - 1. Godot 3 over ENet
 * (modules/enet/networked_multiplayer_enet.cpp, 3.2-stable): channel 0 is the server's configuration channel (a
 * message, 0 a peer added or 1 removed, and the peer's id: 8 bytes); every other packet has the 8-byte header,
 * source then target (0 everyone, -N everyone but N), which the server keeps when it passes a packet on; channel
 * 1 is reliable, 2 unreliable, and a game's transfer channel N > 2 is ENet channel N.
 *
 * Godot 4's WebSocketMultiplayerPeer (modules/websocket/websocket_multiplayer_peer.cpp, 4.3): the server's first
 * binary message is the client's peer id (4 bytes), then every binary message is one SceneMultiplayer packet.
 * Godot 3's (3.6.2: _make_pkt 176-186, _process_multiplayer 259-335): every message starts with a 9-byte header,
 * a type (0 a packet, 1 a peer added, 2 a peer removed, 3 the client's own id), then the source and the target
 * peer ids (32-bit, little-endian; the target 0 everyone, -N everyone but N). A packet's body is a
 * MultiplayerAPI packet; a system message's, which only the server sends, a peer id. The server relays a packet
 * with its header as it came. */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the path caches ------------------------------------------------------------------ */

typedef struct path_entry {
    holder h;
    unsigned group; /* the server endpoint's flow group: peers of one server share ids */
    int64_t sender;
    uint32_t id;
    size_t path_len;
    char path[]; /* NUL-terminated */
} path_entry;

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

/* Where path-cache entries live: a session's (its book and index), or a caller's gdw_mp_paths (its own). One set of
 * rules serves both (path_learn, command_path). */
typedef struct path_store {
    hold_book *book;
    ptr_index *index;
    const gdw_allocator *alloc;
    size_t max_entries;
} path_store;

static path_entry *path_entry_find(const path_store *st, unsigned group, int64_t sender, uint32_t id) {
    path_key k = {group, sender, id};
    return index_find(st->index, path_hash(group, sender, id), path_entry_is, &k);
}

static const char *path_find(const path_store *st, unsigned group, int64_t sender, uint32_t id) {
    path_entry *e = path_entry_find(st, group, sender, id);
    return e ? e->path : NULL;
}

static void path_entry_release(const path_store *st, path_entry *e) {
    index_remove(st->index, e);
    hold_remove(st->book, &e->h);
    gdw_session_release(st->alloc, e, sizeof *e + e->path_len + 1);
}

typedef enum { PATH_KEPT, PATH_NO_ROOM, PATH_NOMEM } path_verdict;

/* A SIMPLIFY_PATH: the sender's cache id names path from now on (a cache id given again: the new path replaces the
 * old). Past max_entries the oldest entry makes room first (*dropped: it, said by the caller before it goes; NULL:
 * dropped silently); past the book's caps, the oldest of the kind. */
static path_verdict path_learn(const path_store *st, hold_flow *fl, unsigned group, int64_t sender, uint32_t id, const char *path, size_t len,
                               void (*said)(void *ctx, const path_entry *e, size_t count), void *ctx) {
    path_entry *old = path_entry_find(st, group, sender, id);
    if (old) path_entry_release(st, old);
    size_t size = sizeof(path_entry) + len + 1, cost = indexed_cost(size);
    if (st->index->count >= st->max_entries && st->book->list[HOLD_PATHS].head) {
        path_entry *e = HOLDER_OF(path_entry, st->book->list[HOLD_PATHS].head);
        if (said) said(ctx, e, st->index->count);
        path_entry_release(st, e);
    }
    if (!hold_room(st->book, fl, HOLD_PATHS, cost, NULL)) return PATH_NO_ROOM;
    path_entry *e = gdw_session_alloc(st->alloc, size);
    if (!e) return PATH_NOMEM;
    memset(e, 0, sizeof *e);
    e->group = group, e->sender = sender, e->id = id, e->path_len = len;
    if (len) memcpy(e->path, path, len);
    e->path[len] = 0;
    if (!index_insert(st->index, e)) {
        gdw_session_release(st->alloc, e, size);
        return PATH_NOMEM;
    }
    hold_add(st->book, fl, &e->h, HOLD_PATHS, HELD_PATH, cost);
    return PATH_KEPT;
}

/* The node path a parsed packet from `sender` names, as its receiver's cache resolves it: an RPC's or RSET's inline
 * path, else the sender's cache id; a SIMPLIFY_PATH's own path (learnt first: learn says how); a SPAWN's spawner;
 * Godot 3's CONFIRM_PATH, by path. NULL: none, or an id the cache does not hold. */
static const char *command_path(const path_store *st, unsigned group, int64_t sender, const gdw_mp_parsed *p, path_verdict (*learn)(void *ctx),
                                void *ctx) {
    switch (p->command) {
    case GDW_MP_SIMPLIFY_PATH:
        if (learn) learn(ctx);
        return path_find(st, group, sender, (uint32_t)p->as.path.node_id);
    case GDW_MP_RPC:
    case GDW_MP_RSET: return p->as.rpc.path ? p->as.rpc.path : path_find(st, group, sender, (uint32_t)p->as.rpc.node_id);
    case GDW_MP_SPAWN: return path_find(st, group, sender, (uint32_t)p->as.spawn.spawner_id);
    case GDW_MP_CONFIRM_PATH: return p->as.path.path; /* Godot 3 confirms by path; Godot 4 by id (NULL) */
    default: return NULL;
    }
}

static path_store session_paths(gdw_session *s) {
    path_store st = {&s->book, &s->paths, s->opts.alloc, s->opts.max_cached_paths};
    return st;
}

void godot_path_free(gdw_session *s, holder *h) {
    path_store st = session_paths(s);
    path_entry_release(&st, HOLDER_OF(path_entry, h));
}

void godot_path_drop(gdw_session *s, holder *h, const char *said) {
    path_entry *e = HOLDER_OF(path_entry, h);
    if (said)
        problem(s, NULL, "multiplayer", 0, "path caches past %s: cache id %u of peer %lld is dropped (RPCs to it then show no path)", said, e->id,
                (long long)e->sender);
    godot_path_free(s, h);
}

/* A session's SIMPLIFY_PATH, and what it could not keep, said. */
typedef struct session_learning {
    gdw_session *s;
    flow *f;
    int64_t sender;
    const gdw_mp_parsed *p;
} session_learning;

static void too_many_paths(void *ctx, const path_entry *e, size_t count) {
    session_learning *l = ctx;
    problem(l->s, l->f, "multiplayer", 0, "the path caches hold %zu paths (--max-paths): cache id %u of peer %lld, the oldest, is dropped", count,
            e->id, (long long)e->sender);
}

static path_verdict session_learn(void *ctx) {
    session_learning *l = ctx;
    path_store st = session_paths(l->s);
    uint32_t id = (uint32_t)l->p->as.path.node_id;
    path_verdict v = path_learn(&st, &l->f->hold, l->f->group, l->sender, id, l->p->as.path.path, l->p->as.path.path_len, too_many_paths, l);
    if (v == PATH_NO_ROOM)
        problem(l->s, l->f, "multiplayer", 0, "a path of %zu bytes does not fit the path caches' limits (--max-path-bytes, --max-flow-path-bytes): cache id %u of peer %lld is not kept",
                l->p->as.path.path_len, id, (long long)l->sender);
    return v;
}

/* ---- the path cache of a caller (gdw_mp_paths) ----------------------------------------- */

struct gdw_mp_paths {
    hold_book book;
    ptr_index index;
    gdw_mp_paths_options opts;
    uint64_t dropped;
};

static void paths_evict(void *ctx, holder *h, bool per_flow) {
    (void)per_flow;
    gdw_mp_paths *c = ctx;
    path_store st = {&c->book, &c->index, c->opts.alloc, c->opts.max_entries};
    c->dropped++;
    path_entry_release(&st, HOLDER_OF(path_entry, h));
}

gdw_mp_paths *gdw_mp_paths_new(const gdw_mp_paths_options *opts) {
    gdw_mp_paths_options o = {0};
    if (opts) o = *opts;
    if (!o.max_entries) o.max_entries = 65536;
    if (!o.max_bytes) o.max_bytes = (size_t)16 << 20;
    gdw_mp_paths *c = gdw_session_alloc(o.alloc, sizeof *c);
    if (!c) return NULL;
    memset(c, 0, sizeof *c);
    c->opts = o;
    c->book.cap[HOLD_PATHS] = (hold_cap){o.max_bytes, o.max_bytes};
    c->book.evict = paths_evict, c->book.ctx = c;
    c->index = (ptr_index){.hash = path_entry_hash, .alloc = o.alloc};
    return c;
}

typedef struct paths_learning {
    gdw_mp_paths *c;
    int64_t sender;
    const gdw_mp_parsed *p;
} paths_learning;

static void paths_counted(void *ctx, const path_entry *e, size_t count) {
    (void)e, (void)count;
    ((paths_learning *)ctx)->c->dropped++;
}

static path_verdict paths_learn(void *ctx) {
    paths_learning *l = ctx;
    path_store st = {&l->c->book, &l->c->index, l->c->opts.alloc, l->c->opts.max_entries};
    return path_learn(&st, NULL, 0, l->sender, (uint32_t)l->p->as.path.node_id, l->p->as.path.path, l->p->as.path.path_len, paths_counted, l);
}

const char *gdw_mp_paths_apply(gdw_mp_paths *c, int64_t sender, const gdw_mp_parsed *p) {
    if (!c || !p) return NULL;
    path_store st = {&c->book, &c->index, c->opts.alloc, c->opts.max_entries};
    paths_learning l = {c, sender, p};
    return command_path(&st, 0, sender, p, paths_learn, &l);
}

size_t gdw_mp_paths_count(const gdw_mp_paths *c) { return c ? c->index.count : 0; }
size_t gdw_mp_paths_held(const gdw_mp_paths *c) { return c ? c->book.total : 0; }
uint64_t gdw_mp_paths_dropped(const gdw_mp_paths *c) { return c ? c->dropped : 0; }

void gdw_mp_paths_free(gdw_mp_paths *c) {
    if (!c) return;
    path_store st = {&c->book, &c->index, c->opts.alloc, c->opts.max_entries};
    while (c->book.list[HOLD_PATHS].head) path_entry_release(&st, HOLDER_OF(path_entry, c->book.list[HOLD_PATHS].head));
    index_free(&c->index);
    gdw_session_release(c->opts.alloc, c, sizeof *c);
}

void godot_session_init(gdw_session *s) { s->paths.hash = path_entry_hash; }

/* ---- one packet to the caller ------------------------------------------------------------ */

typedef struct delivery {
    flow *f;
    int dir;          /* 0: sent by the flow's client side, 1: by the server */
    unsigned channel; /* Godot's transfer channel */
    const char *mode;
} delivery;

/* The parsed packet in s->parsed, with its node path from the sender's cache, to the caller. */
static void emit(gdw_session *s, const delivery *dv, reader pkt, int64_t from, int64_t to, bool relayed) {
    flow *f = dv->f;
    gdw_mp_parsed *p = &s->parsed;
    s->stats.by_command[p->command]++;
    path_store st = session_paths(s);
    session_learning l = {s, f, from, p};
    const char *path = command_path(&st, f->group, from, p, session_learn, &l);
    if (!path && (p->command == GDW_MP_RPC || p->command == GDW_MP_RSET))
        problem(s, f, "multiplayer", 1, "%s to path-cache id %lld of peer %lld: no SIMPLIFY_PATH for it was seen", gdw_mp_command_name(p->command),
                (long long)p->as.rpc.node_id, (long long)from);
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        if (v->status != GDW_OK)
            problem(s, f, "multiplayer", v->offset + v->error.offset, "%s %s %u does not decode: %s (%s)", gdw_mp_command_name(p->command),
                    v->label, v->index, v->error.message, gdw_status_name(v->status));
    }
    s->stats.messages++;
    s->stats.message_bytes += pkt.len;
    if (!s->on_message) return;
    gdw_message m;
    memset(&m, 0, sizeof m);
    m.frame = s->frame, m.time = s->time, m.flow = f->number, m.transport = f->proto != 6 ? "enet" : f->tcp && f->tcp->framing == FRAMING_PUT_VAR ? "tcp" : "websocket", m.dialect = f->dialect;
    m.from = from, m.to = to, m.relayed = relayed, m.channel = dv->channel, m.mode = dv->mode;
    m.path = path, m.mp = p, m.bytes = pkt.p, m.len = pkt.len;
    s->on_message(s->ctx, &m);
}

/* One multiplayer packet from `from` to `to` (relayed: it came inside a SYS relay, or, in Godot 3,
 * a server passed it on to the peer its header names). */
static void deliver(gdw_session *s, const delivery *dv, reader pkt, int64_t from, int64_t to, bool relayed) {
    flow *f = dv->f;
    gdw_mp_parsed *p = &s->parsed;
    gdw_error err;
    gdw_status st = gdw_mp_parse_into(pkt.p, pkt.len, f->dialect, &s->opts.decode, p, &err);
    if (st != GDW_OK) {
        problem(s, f, "multiplayer", err.offset, "%s (%s; a %zu-byte packet from peer %lld%s)", err.message, gdw_status_name(st), pkt.len,
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
        int64_t peer = p->as.sys.peer;
        reader inner = rd_view(p->as.sys.payload, p->as.sys.payload_len, 0);
        if (dv->dir == 0) deliver(s, dv, inner, from, peer, true);
        else deliver(s, dv, inner, peer, to, true);
        return;
    }
    emit(s, dv, pkt, from, to, relayed);
}

/* A peer added or removed, as Godot 3's server says it (its configuration channel over ENet, a system message
 * over WebSocket): a message of its own, from the server. */
static void emit_peer(gdw_session *s, const delivery *dv, reader pkt, gdw_mp_command c, int32_t peer, int64_t to) {
    gdw_mp_parsed *p = &s->parsed;
    gdw_mp_parsed_clear(p);
    p->command = c;
    p->as.sys.peer = peer;
    emit(s, dv, pkt, 1, to, false);
}

/* ---- the generations (public: gdw_godot_*) -------------------------------------------------- */

/* What differs between the engine generations above their transports. Pandemonium and Godot 3.0-3.1 would be rows
 * of their own (docs/capture.md: not claimed without a session of theirs). */
typedef struct godot_generation {
    gdw_multiplayer layer;      /* the dialect table's rule "multiplayer" that selects the row */
    size_t enet_header;         /* bytes before each ENet packet: Godot 3's source and target peer ids */
    int enet_peer_channel;      /* the ENet channel of the server's peers added and removed; -1 none */
    unsigned enet_game_first;   /* ENet channel N >= this carries the game's transfer channel N - enet_game_shift */
    unsigned enet_game_shift;
    size_t ws_header;           /* bytes before each WebSocket message after the first: Godot 3's type, source, target */
} godot_generation;

enum { WS3_HEADER = 9, WS3_PACKET = 0, WS3_ADD = 1, WS3_DEL = 2, WS3_ID = 3 };

static const godot_generation k_generations[] = {
    {GDW_MULTIPLAYER_SCENE4, 0, -1, 2, 1, 0},
    {GDW_MULTIPLAYER_API3, 8, 0, 3, 0, WS3_HEADER},
};

/* A dialect whose layer is not read: its packets go to the parse, which says why. */
static const godot_generation k_unread = {GDW_MULTIPLAYER_NONE, 0, -1, 2, 1, 0};

static const godot_generation *generation_of(const gdw_dialect *d) {
    for (size_t i = 0; i < sizeof k_generations / sizeof *k_generations; i++)
        if (k_generations[i].layer == gdw_session_layer(d)) return &k_generations[i];
    return &k_unread;
}

/* Godot 3 puts an 8-byte header on every packet: its source peer id, then its target; so a client's packet begins
 * with the id its CONNECT carried, a server's own with 1, and the server's configuration channel (0) carries 8
 * bytes, a message 0 or 1 then a peer id. Godot 4's packets begin with a command byte (0-7, flags in bits 4-7):
 * never four bytes that spell 1 or a client's id (its SIMPLIFY_PATH goes on with MD5 text, its RPC node ids start
 * at 1). */
gdw_multiplayer gdw_godot_detect_enet(int dir, unsigned enet_channel, int64_t client_id, const uint8_t *pkt, size_t len) {
    reader r = rd_view(pkt, pkt ? len : 0, 0);
    uint32_t first = 0, second = 0;
    bool api3 = false;
    if (r.len >= 8 && rd_le32(&r, &first) && rd_le32(&r, &second)) {
        if (dir == 0) api3 = client_id != 0 && first == (uint32_t)client_id && r.len >= 9;
        /* the server's own packet (source 1), its configuration message, or one it passes on from another peer to
         * this client (the target: the client's id, which Godot 4 never writes at bytes 4-7 of a packet to it) */
        else api3 = (enet_channel == 0 && r.len == 8 && first <= 1) || (r.len >= 9 && (first == 1 || (client_id && second == (uint32_t)client_id)));
    }
    return api3 ? GDW_MULTIPLAYER_API3 : GDW_MULTIPLAYER_SCENE4;
}

static void not_read(gdw_godot_packet *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void not_read(gdw_godot_packet *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->why, sizeof out->why, fmt, ap);
    va_end(ap);
    out->kind = GDW_GODOT_NOT_READ;
}

static void packet_start(gdw_godot_packet *out, int dir, int64_t client_id) {
    memset(out, 0, sizeof *out);
    out->ws_type = -1;
    out->from = dir == 1 ? 1 : client_id, out->to = dir == 1 ? client_id : 1;
}

/* Godot 3's header read: a packet the server passed on goes to the header's target (the sender's is the server). */
static void packet_from_header(gdw_godot_packet *out, int dir, uint32_t source, uint32_t target) {
    out->source = (int32_t)source, out->target = (int32_t)target;
    out->relayed = dir == 0 ? (int32_t)target != 1 : (int32_t)source != 1;
    out->from = (int32_t)source;
    if (out->relayed) out->to = (int32_t)target;
    out->body = out->header;
}

void gdw_godot_enet_packet(const gdw_dialect *d, int dir, unsigned enet_channel, int64_t client_id, const uint8_t *pkt, size_t len,
                           gdw_godot_packet *out) {
    if (!out) return;
    const godot_generation *g = generation_of(d);
    packet_start(out, dir, client_id);
    out->channel = enet_channel >= g->enet_game_first ? enet_channel - g->enet_game_shift : 0;
    reader r = rd_view(pkt, pkt ? len : 0, 0);
    if (g->enet_peer_channel >= 0 && enet_channel == (unsigned)g->enet_peer_channel) {
        uint32_t added_or_removed, peer;
        if (!rd_le32(&r, &added_or_removed) || !rd_le32(&r, &peer) || added_or_removed > 1) {
            not_read(out, "a %zu-byte packet on Godot 3's configuration channel: not a peer added or removed", len);
            return;
        }
        out->kind = GDW_GODOT_PEER;
        out->command = added_or_removed == 0 ? GDW_MP_SYS_ADD_PEER : GDW_MP_SYS_DEL_PEER;
        out->peer = (int32_t)peer, out->from = 1;
        return;
    }
    if (g->enet_header) {
        uint32_t source, target;
        if (!rd_le32(&r, &source) || !rd_le32(&r, &target)) {
            not_read(out, "a %zu-byte packet: shorter than Godot 3's 8-byte header", len);
            return;
        }
        out->header = g->enet_header;
        packet_from_header(out, dir, source, target);
    }
}

bool gdw_godot_ws_client_id(const uint8_t *m, size_t len, int32_t *id, gdw_multiplayer *layer) {
    reader r = rd_view(m, m ? len : 0, 0);
    uint32_t v;
    uint8_t type;
    gdw_multiplayer l;
    if (len == 4 && rd_le32(&r, &v)) l = GDW_MULTIPLAYER_SCENE4;
    else if (len == WS3_HEADER + 4 && rd_u8(&r, &type) && type == WS3_ID && rd_skip(&r, 8) && rd_le32(&r, &v)) l = GDW_MULTIPLAYER_API3;
    else return false;
    if (id) *id = (int32_t)v;
    if (layer) *layer = l;
    return true;
}

void gdw_godot_ws_message(const gdw_dialect *d, int dir, int64_t client_id, const uint8_t *m, size_t len, gdw_godot_packet *out) {
    if (!out) return;
    const godot_generation *g = generation_of(d);
    packet_start(out, dir, client_id);
    if (!g->ws_header) return; /* Godot 4: every binary message after the id is one packet */
    /* Godot 3: the 9-byte header, then a packet or a system message */
    reader r = rd_view(m, m ? len : 0, 0);
    uint8_t type;
    uint32_t source, target, peer;
    if (!rd_u8(&r, &type) || !rd_le32(&r, &source) || !rd_le32(&r, &target)) {
        not_read(out, "a %zu-byte message: shorter than Godot 3's 9-byte WebSocket header", len);
        return;
    }
    out->header = g->ws_header, out->ws_type = type;
    out->source = (int32_t)source, out->target = (int32_t)target;
    if (type == WS3_PACKET) {
        if (dir == 0 && client_id && (int32_t)source != client_id) { /* the engine drops it: "Someone is cheating" (:283) */
            not_read(out, "a packet from the client that says it comes from peer %lld, not the client's %lld: the server drops it",
                     (long long)(int32_t)source, (long long)client_id);
            return;
        }
        packet_from_header(out, dir, source, target);
        return;
    }
    if (dir == 0 || type > WS3_ID || !rd_le32(&r, &peer)) {
        not_read(out, "a %zu-byte Godot 3 WebSocket message of type %u from the %s: not a packet nor a system message", len, type,
                 dir == 0 ? "client (only the server sends system messages)" : "server");
        return;
    }
    out->peer = (int32_t)peer, out->from = 1;
    if (type == WS3_ID) {
        out->kind = GDW_GODOT_CLIENT_ID;
    } else {
        out->kind = GDW_GODOT_PEER;
        out->command = type == WS3_ADD ? GDW_MP_SYS_ADD_PEER : GDW_MP_SYS_DEL_PEER;
    }
}

/* ---- a session's flow through them ------------------------------------------------------------ */

/* The dialect another flow to the same server speaks (its peers are one game's: one engine), or NULL. It settles a
 * flow whose first packets say nothing for sure: a client whose CONNECT the capture missed or could not read (a
 * compressed one). */
static const gdw_dialect *group_dialect(const gdw_session *s, const flow *f) {
    for (unsigned i = 1; i <= s->stats.flows; i++) {
        const flow *o = s->flow_list[i];
        if (o != f && o->group == f->group && o->dialect) return o->dialect;
    }
    return NULL;
}

/* What the Godot layer made of a packet, to the caller: a message, a peer added or removed, or a problem. */
static void godot_packet(gdw_session *s, flow *f, int dir, const char *mode, reader pkt, const gdw_godot_packet *gp) {
    delivery dv = {f, dir, gp->channel, mode};
    switch (gp->kind) {
    case GDW_GODOT_PACKET: deliver(s, &dv, rd_view(pkt.p + gp->body, pkt.len - gp->body, pkt.base + gp->body), gp->from, gp->to, gp->relayed); break;
    case GDW_GODOT_PEER: emit_peer(s, &dv, pkt, gp->command, gp->peer, gp->to); break;
    case GDW_GODOT_CLIENT_ID: f->client_id = gp->peer; break;
    case GDW_GODOT_NOT_READ: problem(s, f, "multiplayer", 0, "%s", gp->why); break;
    }
}

void godot_enet_packet(gdw_session *s, flow *f, int dir, unsigned enet_channel, const char *mode, reader pkt) {
    if (!f->dialect && s->opts.dialect) f->dialect = s->opts.dialect;
    if (!f->dialect && !(f->dialect = group_dialect(s, f)))
        f->dialect = gdw_godot_dialect_of(gdw_godot_detect_enet(dir, enet_channel, f->client_id, pkt.p, pkt.len));
    gdw_godot_packet gp;
    gdw_godot_enet_packet(f->dialect, dir, enet_channel, f->client_id, pkt.p, pkt.len, &gp);
    godot_packet(s, f, dir, mode, pkt, &gp);
}

/* A put_var flow has no peers and no multiplayer layer: each value is a message of its own, on channel 0. The engine
 * reads a frame's value with its length given (StreamPeer::get_var: decode_variant of the frame's bytes), so bytes
 * after the value are ignored there: here they are a problem. */
void godot_stream_value(gdw_session *s, flow *f, int dir, reader value) {
    gdw_mp_parsed *p = &s->parsed;
    if (gdw_mp_parse_var(value.p, value.len, f->dialect, &s->opts.decode, p) != GDW_OK) {
        problem(s, f, "tcp", 0, "out of memory for a put_var value of %zu bytes", value.len);
        return;
    }
    const gdw_mp_value *v = &p->values[0];
    if (v->status == GDW_OK && v->length < value.len)
        problem(s, f, "tcp", 0, "a put_var frame of %zu bytes whose value takes %zu: the engine's get_var ignores the other %zu", value.len,
                v->length, value.len - v->length);
    delivery dv = {f, dir, 0, "reliable"};
    emit(s, &dv, value, 0, 0, false);
}

void godot_ws_message(gdw_session *s, flow *f, int dir, reader m) {
    if (dir == 1 && !f->tcp->id_seen) {
        /* the server's first message tells the client its id */
        f->tcp->id_seen = true;
        gdw_multiplayer layer;
        int32_t id;
        if (gdw_godot_ws_client_id(m.p, m.len, &id, &layer)) {
            f->client_id = id;
            if (!f->dialect) f->dialect = s->opts.dialect ? s->opts.dialect : gdw_godot_dialect_of(layer);
            return;
        }
        problem(s, f, "multiplayer", 0, "the server's first message is %zu bytes, not the client's peer id (Godot 4's 4 bytes, or Godot 3's "
                "9-byte header and 4 bytes)", m.len);
    }
    if (!f->dialect) f->dialect = s->opts.dialect ? s->opts.dialect : gdw_godot_dialect_of(GDW_MULTIPLAYER_SCENE4);
    if (gdw_session_layer(f->dialect) == GDW_MULTIPLAYER_NONE) {
        tcp_off(s, f, "a WebSocket flow of this dialect's engines (its multiplayer layer is not read)");
        return;
    }
    gdw_godot_packet gp;
    gdw_godot_ws_message(f->dialect, dir, f->client_id, m.p, m.len, &gp);
    godot_packet(s, f, dir, "reliable", m, &gp);
}

/* SPDX-License-Identifier: MIT
 * enet.c — ENet as Godot's hosts speak it (Godot 4.3's bundled ENet 1.3.18, thirdparty/enet/protocol.c and
 * enet/protocol.h: big-endian fields, a 2- or 4-byte datagram header, commands of fixed size, reliable sequence
 * numbers per channel, fragments). Two parts:
 *   - the commands of one datagram, read through a table (gdw_enet_commands_next: no session needed);
 *   - a session's ENet: each side's compression found (compress.c, or the caller's range coder), retransmits
 *     dropped by a window per channel and direction, fragments reassembled under the caps, the CONNECT that names
 *     the client, and every packet ENet would deliver handed to godot.c with its channel and mode. */
#include "session.h"

#include <stdio.h>
#include <string.h>

enum {
    ENET_FLAG_ACKNOWLEDGE = 0x80,
    ENET_FLAG_UNSEQUENCED = 0x40,
    ENET_HEADER_SENT_TIME = 0x8000,
    ENET_HEADER_COMPRESSED = 0x4000,
    ENET_MAX_PEER_ID = 0x0FFF,
    ENET_MAX_FRAGMENT_COUNT = 1024 * 1024, /* ENET_PROTOCOL_MAXIMUM_FRAGMENT_COUNT */
};

/* ---- one datagram's commands ------------------------------------------------------------ */

typedef struct enet_rule {
    const char *name;
    uint8_t size;           /* the fixed part, its 4-byte header included (protocol.c commandSizes) */
    uint8_t data_length_at; /* where its dataLength field is (0: it carries no data) */
} enet_rule;

static const enet_rule k_enet[GDW_ENET_COMMAND_KINDS] = {
    [GDW_ENET_ACKNOWLEDGE] = {"acknowledge", 8, 0},
    [GDW_ENET_CONNECT] = {"connect", 48, 0},
    [GDW_ENET_VERIFY_CONNECT] = {"verify_connect", 44, 0},
    [GDW_ENET_DISCONNECT] = {"disconnect", 8, 0},
    [GDW_ENET_PING] = {"ping", 4, 0},
    [GDW_ENET_SEND_RELIABLE] = {"send_reliable", 6, 4},
    [GDW_ENET_SEND_UNRELIABLE] = {"send_unreliable", 8, 6},
    [GDW_ENET_SEND_FRAGMENT] = {"send_fragment", 24, 6},
    [GDW_ENET_SEND_UNSEQUENCED] = {"send_unsequenced", 8, 6},
    [GDW_ENET_BANDWIDTH_LIMIT] = {"bandwidth_limit", 12, 0},
    [GDW_ENET_THROTTLE_CONFIGURE] = {"throttle_configure", 16, 0},
    [GDW_ENET_SEND_UNRELIABLE_FRAGMENT] = {"send_unreliable_fragment", 24, 6},
};

const char *gdw_enet_command_name(unsigned kind) {
    return kind >= 1 && kind < GDW_ENET_COMMAND_KINDS ? k_enet[kind].name : "?";
}

static int enet_fail(gdw_enet_commands *it, gdw_error *err, gdw_enet_walk_end why, size_t at, const char *message) {
    it->why = why;
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = why == GDW_ENET_NOT_A_COMMAND ? GDW_ERR_BAD_VALUE : GDW_ERR_TRUNCATED;
        err->offset = err->value_offset = it->base + at;
        err->engine_error = GDW_ENGINE_ERR_INVALID_DATA;
        err->message = message;
    }
    return -1;
}

void gdw_enet_commands_begin(gdw_enet_commands *it, const uint8_t *commands, size_t len, size_t base) {
    memset(it, 0, sizeof *it);
    it->d = commands, it->len = commands ? len : 0, it->base = base;
}

int gdw_enet_commands_next(gdw_enet_commands *it, gdw_enet_command *out, gdw_error *err) {
    if (it->why != GDW_ENET_WALK_OK) return -1; /* a walk that failed stays failed */
    reader r = rd_view(it->d, it->len, it->base);
    r.pos = it->pos;
    if (!rd_left(&r)) return 0;
    size_t at = it->pos;
    uint8_t byte0, channel;
    uint16_t seq;
    it->kind = 0, it->left = rd_left(&r), it->need = 4;
    if (!rd_u8(&r, &byte0) || !rd_u8(&r, &channel) || !rd_be16(&r, &seq))
        return enet_fail(it, err, GDW_ENET_CUT_HEADER, at, "an ENet command header cut short");
    unsigned kind = byte0 & 0x0F;
    it->kind = kind;
    if (kind == 0 || kind >= GDW_ENET_COMMAND_KINDS) return enet_fail(it, err, GDW_ENET_NOT_A_COMMAND, at, "not an ENet command");
    const enet_rule *rule = &k_enet[kind];
    it->need = rule->size;
    reader fields;
    r.pos = at;
    if (!rd_child(&r, rule->size, &fields)) return enet_fail(it, err, GDW_ENET_CUT_FIELDS, at, "an ENet command cut short");
    memset(out, 0, sizeof *out);
    out->kind = kind, out->acknowledge = byte0 & ENET_FLAG_ACKNOWLEDGE, out->unsequenced = byte0 & ENET_FLAG_UNSEQUENCED;
    out->channel = channel, out->reliable_seq = seq, out->offset = it->base + at;
    out->fields = fields.p, out->fields_len = fields.len;
    if (rule->data_length_at) {
        uint16_t data_len = 0;
        rd_be16_at(&fields, rule->data_length_at, &data_len);
        it->need = data_len, it->left = rd_left(&r);
        if (!rd_bytes(&r, data_len, &out->data)) return enet_fail(it, err, GDW_ENET_CUT_DATA, at + 4, "an ENet command's data cut short");
        out->data_len = data_len;
        if (kind != GDW_ENET_SEND_RELIABLE && kind != GDW_ENET_SEND_FRAGMENT) rd_be16_at(&fields, 4, &out->unreliable_seq);
    }
    if (kind == GDW_ENET_CONNECT) rd_be32_at(&fields, 44, &out->connect_data);
    if (kind == GDW_ENET_SEND_FRAGMENT || kind == GDW_ENET_SEND_UNRELIABLE_FRAGMENT) {
        rd_be16_at(&fields, 4, &out->fragment.start_seq);
        rd_be32_at(&fields, 8, &out->fragment.count), rd_be32_at(&fields, 12, &out->fragment.number);
        rd_be32_at(&fields, 16, &out->fragment.total), rd_be32_at(&fields, 20, &out->fragment.offset);
    }
    it->pos = r.pos;
    return 1;
}

gdw_status gdw_enet_read_header(const uint8_t *d, size_t len, gdw_enet_header *out, gdw_error *err) {
    reader r = rd_view(d, d ? len : 0, 0);
    uint16_t peer;
    memset(out, 0, sizeof *out);
    if (!rd_be16(&r, &peer)) goto cut;
    out->peer_id = peer & ENET_MAX_PEER_ID, out->session_id = (peer >> 12) & 3;
    out->compressed = peer & ENET_HEADER_COMPRESSED, out->has_sent_time = peer & ENET_HEADER_SENT_TIME;
    if (out->has_sent_time && !rd_be16(&r, &out->sent_time)) goto cut;
    out->size = r.pos;
    return GDW_OK;
cut:
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = GDW_ERR_TRUNCATED, err->offset = err->value_offset = r.len;
        err->engine_error = GDW_ENGINE_ERR_INVALID_DATA;
        err->message = "an ENet datagram shorter than its header";
    }
    return GDW_ERR_TRUNCATED;
}

/* d[0..len) is whole ENet commands, each of a kind, size and data length that fit. */
static bool enet_commands_whole(const uint8_t *d, size_t len) {
    gdw_enet_commands it;
    gdw_enet_command c;
    gdw_enet_commands_begin(&it, d, len, 0);
    int rc;
    while ((rc = gdw_enet_commands_next(&it, &c, NULL)) == 1) {}
    return rc == 0;
}

bool enet_looks_like(const uint8_t *d, size_t len) {
    gdw_enet_header h;
    if (len < 4 || gdw_enet_read_header(d, len, &h, NULL) != GDW_OK) return false;
    if (h.compressed) return true; /* cannot be walked; the flow decides */
    return h.size < len && enet_commands_whole(d + h.size, len - h.size);
}

/* ---- retransmit windows ------------------------------------------------------------------- */

#define SEEN_WINDOW GDW_ENET_SEEN_WINDOW /* reliable sequence numbers remembered per channel and direction */

/* The reliable sequence numbers seen on one channel in one direction of a flow (its side: the
 * flow's endpoint 0 or 1 that sent them, which stays when the flow's two ends are swapped). Found
 * through the session's index of windows; made only for a channel in use. */
typedef struct seen_window {
    holder h;
    flow *f;
    uint8_t side, channel;
    gdw_enet_seen seen;
} seen_window;

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

void enet_window_free(gdw_session *s, holder *h) {
    seen_window *w = HOLDER_OF(seen_window, h);
    index_remove(&s->windows, w);
    hold_remove(&s->book, &w->h);
    gdw_session_release(s->opts.alloc, w, sizeof *w);
}

void enet_window_drop(gdw_session *s, holder *h, const char *said) {
    seen_window *w = HOLDER_OF(seen_window, h);
    if (said)
        problem(s, w->f, "enet", 0, "retransmit windows past %s: the %s window of channel %u is dropped (a retransmit on it may show twice)",
                said, side_name(w->side), w->channel);
    enet_window_free(s, h);
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
        return gdw_enet_seen_before(&w->seen, seq);
    }
    hold_touch(&s->book, &w->h);
    return gdw_enet_seen_before(&w->seen, seq);
}

bool gdw_enet_seen_before(gdw_enet_seen *w, uint16_t seq) {
    if (!w->started) { /* the channel's first: the window starts at it */
        memset(w->bits, 0, sizeof w->bits);
        w->started = true;
        w->top = seq;
        w->bits[(seq % SEEN_WINDOW) / 8] = (uint8_t)(1u << (seq % 8));
        return false;
    }
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

/* ---- fragments ------------------------------------------------------------------------------ */

/* An ENet packet being reassembled from its fragments; found through its store's index. */
typedef struct fragment_set {
    holder h;
    flow *f; /* NULL in a caller's gdw_enet_reassembly */
    uint8_t side, channel;
    bool reliable;
    uint16_t start_seq, unreliable_of; /* unreliable fragments: the reliable seq they ride with */
    uint32_t count, received, total;
    uint8_t *data, *have;
    uint64_t first_frame;
} fragment_set;

typedef struct fragment_key {
    const flow *f;
    uint8_t side, channel;
    bool reliable;
    uint16_t start_seq, unreliable_of;
} fragment_key;

static uint64_t fragment_hash_of(const fragment_key *k) {
    return index_mix(k->f ? k->f->number : 0, (uint64_t)k->side << 48 | (uint64_t)k->channel << 40 | (uint64_t)k->reliable << 32 |
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

static size_t fragment_set_cost(uint32_t count, uint32_t total) {
    return indexed_cost(sizeof(fragment_set)) + hold_cost(total) + hold_cost((count + 7) / 8);
}

/* Where fragment sets live: a session's (its book, with every other kind, and its index), or a caller's
 * gdw_enet_reassembly (a book and an index of its own). One set of rules serves both (fragment_take). */
typedef struct fragment_store {
    hold_book *book;
    ptr_index *index;
    const gdw_allocator *alloc;
    size_t max_packet;
    uint64_t frame;
} fragment_store;

static void fragment_set_release(fragment_store *st, fragment_set *fs) {
    index_remove(st->index, fs);
    hold_remove(st->book, &fs->h);
    gdw_session_release(st->alloc, fs->data, fs->total);
    gdw_session_release(st->alloc, fs->have, (fs->count + 7) / 8);
    gdw_session_release(st->alloc, fs, sizeof *fs);
}

typedef enum { FRAGMENT_KEPT, FRAGMENT_WHOLE, FRAGMENT_BAD, FRAGMENT_MISMATCH, FRAGMENT_TOO_BIG, FRAGMENT_NO_ROOM, FRAGMENT_NOMEM } fragment_verdict;

/* One fragment command (ENet's enet_protocol_handle_send_fragment: its number, count, total length and offset must
 * fit one another and its packet's): kept in its packet (made, and charged to fl in the store's book, when it is the
 * packet's first), and the packet, when every part came, handed back in *whole (out of the index, still charged:
 * fragment_set_release after use); FRAGMENT_MISMATCH: *whole is the packet the fragment does not fit (still held). */
static fragment_verdict fragment_take(fragment_store *st, hold_flow *fl, const fragment_key *key, const gdw_enet_command *c,
                                      fragment_set **whole) {
    uint32_t count = c->fragment.count, number = c->fragment.number, total = c->fragment.total, offset = c->fragment.offset;
    *whole = NULL;
    if (count == 0 || count > ENET_MAX_FRAGMENT_COUNT || number >= count || total == 0 || offset >= total || c->data_len > total - offset)
        return FRAGMENT_BAD;
    if (total > st->max_packet) return FRAGMENT_TOO_BIG;
    fragment_set *fs = index_find(st->index, fragment_hash_of(key), fragment_set_is, key);
    if (fs && (fs->count != count || fs->total != total)) {
        *whole = fs; /* not whole: the packet it does not fit, for the caller's words */
        return FRAGMENT_MISMATCH;
    }
    if (!fs) {
        size_t cost = fragment_set_cost(count, total);
        if (!hold_room(st->book, fl, HOLD_REASSEMBLY, cost, NULL)) return FRAGMENT_NO_ROOM;
        if (!(fs = gdw_session_alloc(st->alloc, sizeof *fs))) return FRAGMENT_NOMEM;
        memset(fs, 0, sizeof *fs);
        fs->data = gdw_session_alloc(st->alloc, total);
        fs->have = gdw_session_alloc(st->alloc, (count + 7) / 8);
        fs->f = (flow *)key->f, fs->side = key->side, fs->channel = key->channel, fs->reliable = key->reliable;
        fs->start_seq = key->start_seq, fs->unreliable_of = key->unreliable_of, fs->count = count, fs->total = total;
        fs->first_frame = st->frame;
        if (!fs->data || !fs->have || !index_insert(st->index, fs)) {
            gdw_session_release(st->alloc, fs->data, total);
            gdw_session_release(st->alloc, fs->have, (count + 7) / 8);
            gdw_session_release(st->alloc, fs, sizeof *fs);
            return FRAGMENT_NOMEM;
        }
        memset(fs->have, 0, (count + 7) / 8);
        memset(fs->data, 0, total);
        hold_add(st->book, fl, &fs->h, HOLD_REASSEMBLY, HELD_FRAGMENT_SET, cost);
    }
    hold_touch(st->book, &fs->h);
    if ((fs->have[number / 8] >> (number % 8)) & 1) return FRAGMENT_KEPT; /* an unreliable part sent twice */
    fs->have[number / 8] |= (uint8_t)(1u << (number % 8));
    fs->received++;
    if (c->data_len) memcpy(fs->data + offset, c->data, c->data_len);
    if (fs->received < fs->count) return FRAGMENT_KEPT;
    index_remove(st->index, fs);
    *whole = fs;
    return FRAGMENT_WHOLE;
}

static fragment_store session_fragments(gdw_session *s) {
    fragment_store st = {&s->book, &s->fragments, s->opts.alloc, s->opts.max_packet_bytes, s->frame};
    return st;
}

void enet_fragment_free(gdw_session *s, holder *h) {
    fragment_store st = session_fragments(s);
    fragment_set_release(&st, HOLDER_OF(fragment_set, h));
}

void enet_fragment_drop(gdw_session *s, holder *h, const char *said) {
    fragment_set *fs = HOLDER_OF(fragment_set, h);
    if (said)
        problem(s, fs->f, "enet", 0, "open fragments past %s: the packet first seen in frame %llu (%u of %u parts) is dropped", said,
                (unsigned long long)fs->first_frame, fs->received, fs->count);
    s->stats.fragments_dropped++;
    enet_fragment_free(s, h);
}

/* A fragment of a session's flow: kept, said when it cannot be kept, its packet handed up when whole. */
static void on_fragment(gdw_session *s, flow *f, int dir, const gdw_enet_command *c) {
    bool reliable = c->kind == GDW_ENET_SEND_FRAGMENT;
    size_t at = c->offset;
    fragment_key key = {f, side_of(f, dir), (uint8_t)c->channel, reliable, c->fragment.start_seq, reliable ? 0 : c->reliable_seq};
    fragment_store st = session_fragments(s);
    fragment_set *whole;
    switch (fragment_take(&st, &f->hold, &key, c, &whole)) {
    case FRAGMENT_KEPT: return;
    case FRAGMENT_BAD:
        problem(s, f, "enet", at, "a fragment that cannot be: number %u of %u, %zu bytes at %u of %u", c->fragment.number, c->fragment.count,
                c->data_len, c->fragment.offset, c->fragment.total);
        return;
    case FRAGMENT_MISMATCH:
        problem(s, f, "enet", at, "a fragment of %u bytes in %u parts joins a packet of %u bytes in %u parts", c->fragment.total, c->fragment.count,
                whole->total, whole->count);
        return;
    case FRAGMENT_TOO_BIG:
        problem(s, f, "enet", at + 16, "a fragmented packet of %u bytes, over the limit of %zu (--max-packet): dropped", c->fragment.total,
                s->opts.max_packet_bytes);
        return;
    case FRAGMENT_NO_ROOM:
        problem(s, f, "enet", at, "a fragmented packet of %u bytes does not fit the open-fragment limits (%zu bytes in all, %zu in one flow): dropped",
                c->fragment.total, s->book.cap[HOLD_REASSEMBLY].total, s->book.cap[HOLD_REASSEMBLY].per_flow);
        s->stats.fragments_dropped++;
        return;
    case FRAGMENT_NOMEM:
        problem(s, f, "enet", at, "out of memory for a fragmented packet of %u bytes", c->fragment.total);
        return;
    case FRAGMENT_WHOLE: break;
    }
    s->stats.fragments_completed++;
    /* handed up still charged (the Godot layer above makes room only for paths), then freed */
    godot_enet_packet(s, f, dir, c->channel, reliable ? "reliable" : "unreliable", rd_view(whole->data, whole->total, 0));
    fragment_set_release(&st, whole);
}

/* ---- a caller's reassembly: the same rules, a book of its own ---------------------------------- */

struct gdw_enet_reassembly {
    hold_book book;
    ptr_index index;
    gdw_enet_reassembly_options opts;
    fragment_set *given; /* the packet handed out by the last call, freed by the next */
    uint64_t dropped;
};

static void reassembly_evict(void *ctx, holder *h, bool per_flow) {
    (void)per_flow;
    gdw_enet_reassembly *r = ctx;
    fragment_store st = {&r->book, &r->index, r->opts.alloc, r->opts.max_packet_bytes, 0};
    r->dropped++;
    fragment_set_release(&st, HOLDER_OF(fragment_set, h));
}

gdw_enet_reassembly *gdw_enet_reassembly_new(const gdw_enet_reassembly_options *opts) {
    gdw_enet_reassembly_options o = {0};
    if (opts) o = *opts;
    if (!o.max_bytes) o.max_bytes = (size_t)64 << 20;
    if (!o.max_packet_bytes) o.max_packet_bytes = (size_t)32 << 20;
    gdw_enet_reassembly *r = gdw_session_alloc(o.alloc, sizeof *r);
    if (!r) return NULL;
    memset(r, 0, sizeof *r);
    r->opts = o;
    r->book.cap[HOLD_REASSEMBLY] = (hold_cap){o.max_bytes, o.max_bytes};
    r->book.evict = reassembly_evict, r->book.ctx = r;
    r->index = (ptr_index){.hash = fragment_set_hash, .alloc = o.alloc};
    return r;
}

int gdw_enet_reassemble(gdw_enet_reassembly *r, unsigned side, const gdw_enet_command *c, const uint8_t **packet, size_t *len, gdw_error *err) {
    static const char *const k_why[] = {
        [FRAGMENT_BAD] = "a fragment that cannot be: its number, count, total length and offset do not fit one another",
        [FRAGMENT_MISMATCH] = "a fragment whose count or total length differ from its packet's other parts",
        [FRAGMENT_TOO_BIG] = "a fragmented packet over max_packet_bytes",
        [FRAGMENT_NO_ROOM] = "a fragmented packet that does not fit max_bytes",
        [FRAGMENT_NOMEM] = "out of memory for a fragmented packet",
    };
    if (!r || !c || !packet || !len) return -1;
    fragment_store st = {&r->book, &r->index, r->opts.alloc, r->opts.max_packet_bytes, 0};
    if (r->given) fragment_set_release(&st, r->given), r->given = NULL;
    *packet = NULL, *len = 0;
    if (c->kind != GDW_ENET_SEND_FRAGMENT && c->kind != GDW_ENET_SEND_UNRELIABLE_FRAGMENT) {
        if (err) memset(err, 0, sizeof *err), err->code = GDW_ERR_INVALID_ARG, err->offset = c->offset, err->message = "not a fragment";
        return -1;
    }
    bool reliable = c->kind == GDW_ENET_SEND_FRAGMENT;
    fragment_key key = {NULL, (uint8_t)(side & 1), (uint8_t)c->channel, reliable, c->fragment.start_seq, reliable ? 0 : c->reliable_seq};
    fragment_set *whole;
    fragment_verdict v = fragment_take(&st, NULL, &key, c, &whole);
    if (v == FRAGMENT_KEPT) return 0;
    if (v == FRAGMENT_WHOLE) { /* the caller's now: no longer charged, freed by the next call */
        hold_remove(&r->book, &whole->h);
        r->given = whole, *packet = whole->data, *len = whole->total;
        return 1;
    }
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = v == FRAGMENT_NOMEM ? GDW_ERR_NOMEM : v == FRAGMENT_BAD || v == FRAGMENT_MISMATCH ? GDW_ERR_BAD_VALUE : GDW_ERR_TOO_LARGE;
        err->offset = err->value_offset = c->offset;
        err->engine_error = GDW_ENGINE_ERR_INVALID_DATA;
        err->message = k_why[v];
    }
    return -1;
}

size_t gdw_enet_reassembly_held(const gdw_enet_reassembly *r) { return r ? r->book.total : 0; }
uint64_t gdw_enet_reassembly_dropped(const gdw_enet_reassembly *r) { return r ? r->dropped : 0; }

void gdw_enet_reassembly_free(gdw_enet_reassembly *r) {
    if (!r) return;
    fragment_store st = {&r->book, &r->index, r->opts.alloc, r->opts.max_packet_bytes, 0};
    if (r->given) fragment_set_release(&st, r->given);
    while (r->book.list[HOLD_REASSEMBLY].head) fragment_set_release(&st, HOLDER_OF(fragment_set, r->book.list[HOLD_REASSEMBLY].head));
    index_free(&r->index);
    gdw_session_release(r->opts.alloc, r, sizeof *r);
}

/* ---- a session's commands: what each kind does ------------------------------------------------ */

/* A CONNECT: a peer that has no id yet (peer id 0xFFF, channel 0xFF: host.c, enet_host_connect) asks once; its
 * data word is the client's Godot peer id. A CONNECT later in a flow, or from the server's side, would rename its
 * peers: it is a problem. */
static void on_connect(gdw_session *s, flow *f, int dir, const gdw_enet_header *h, const gdw_enet_command *c) {
    if (f->connect_seen && dir == 0 && (int32_t)c->connect_data == f->client_id) {
        s->stats.retransmits++; /* the same CONNECT again: ENet resends it until it is verified */
        return;
    }
    if (h->peer_id != ENET_MAX_PEER_ID || c->channel != 0xFF || dir != 0 || f->connect_seen) {
        problem(s, f, "enet", c->offset, "a CONNECT %s: ignored",
                f->connect_seen ? "on a flow already connected" : dir != 0 ? "from the server's side" : "with a peer id or channel a new peer does not send");
        return;
    }
    f->connect_seen = true;
    f->client_id = (int32_t)c->connect_data;
}

/* A send: its data is one packet ENet delivers, in Godot's transfer mode for its kind (enet_multiplayer_peer.cpp:
 * RELIABLE, UNSEQUENCED | UNRELIABLE_FRAGMENT, UNRELIABLE_FRAGMENT). */
static void on_send(gdw_session *s, flow *f, int dir, const gdw_enet_header *h, const gdw_enet_command *c) {
    (void)h;
    const char *mode = c->kind == GDW_ENET_SEND_RELIABLE ? "reliable" : c->kind == GDW_ENET_SEND_UNRELIABLE ? "unreliable_ordered" : "unreliable";
    godot_enet_packet(s, f, dir, c->channel, mode, rd_view(c->data, c->data_len, 0));
}

static void on_fragment_command(gdw_session *s, flow *f, int dir, const gdw_enet_header *h, const gdw_enet_command *c) {
    (void)h;
    on_fragment(s, f, dir, c);
}

/* What a session does with each kind of command; NULL: nothing of Godot's (acknowledgements, pings, bandwidth and
 * throttle, the connection's verification and end). */
typedef void (*enet_handler)(gdw_session *s, flow *f, int dir, const gdw_enet_header *h, const gdw_enet_command *c);
static const enet_handler k_on_command[GDW_ENET_COMMAND_KINDS] = {
    [GDW_ENET_CONNECT] = on_connect,
    [GDW_ENET_SEND_RELIABLE] = on_send,
    [GDW_ENET_SEND_UNRELIABLE] = on_send,
    [GDW_ENET_SEND_UNSEQUENCED] = on_send,
    [GDW_ENET_SEND_FRAGMENT] = on_fragment_command,
    [GDW_ENET_SEND_UNRELIABLE_FRAGMENT] = on_fragment_command,
};

/* ---- compressed datagrams -------------------------------------------------------------------- */

/* The compressions a side's compressed datagrams are tried in, where more than one fits: zstd and zlib first (their
 * headers say them), then FastLZ (its first byte's level bits, and every copy inside what was written), then the
 * range coder (given by the caller; it turns most blocks into something). */
static const gdw_enet_compression k_try_order[] = {GDW_ENET_COMPRESS_ZSTD, GDW_ENET_COMPRESS_ZLIB, GDW_ENET_COMPRESS_FASTLZ,
                                                   GDW_ENET_COMPRESS_RANGE_CODER};

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

static size_t inflate_with(gdw_decompress_fn range_coder, void *ctx, gdw_enet_compression c, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    if (c == GDW_ENET_COMPRESS_RANGE_CODER) return range_coder ? range_coder(ctx, in, n, out, cap) : 0;
    return gdw_enet_decompress(c, in, n, out, cap);
}

size_t gdw_enet_inflate(gdw_enet_side_compression *side, gdw_decompress_fn range_coder, void *ctx, const uint8_t *in, size_t n, uint8_t *out,
                        size_t cap, gdw_enet_compression *used) {
    gdw_enet_compression none = GDW_ENET_COMPRESS_NONE, *use_out = used ? used : &none;
    *use_out = GDW_ENET_COMPRESS_NONE;
    if (!side || !in || !out) return 0;
    gdw_enet_compression was = (gdw_enet_compression)side->locked;
    if (was) {
        size_t got = inflate_with(range_coder, ctx, was, in, n, out, cap);
        if (got && enet_commands_whole(out, got)) {
            *use_out = was;
            return got;
        }
    }
    size_t fits = 0;
    bool guessed = false;
    gdw_enet_compression first = GDW_ENET_COMPRESS_NONE;
    for (size_t i = 0; i < sizeof k_try_order / sizeof *k_try_order; i++) {
        gdw_enet_compression c = k_try_order[i];
        if (c == was) continue;
        size_t got = inflate_with(range_coder, ctx, c, in, n, out, cap);
        if (!got || !enet_commands_whole(out, got)) continue;
        fits++;
        if (!first) first = c;
        if (c == side->guess) guessed = true;
    }
    if (!fits) return 0;
    gdw_enet_compression use = guessed ? (gdw_enet_compression)side->guess : first;
    if (fits == 1 || guessed) side->locked = (uint8_t)use, side->guess = 0;
    else side->locked = 0, side->guess = (uint8_t)use;
    *use_out = use;
    return inflate_with(range_coder, ctx, use, in, n, out, cap); /* out holds the last one tried: the chosen one's output again */
}

/* A compressed block of side's datagram into out (gdw_enet_inflate), a switch of the side's compression said once a
 * flow. 0: none reads it. */
static size_t enet_inflate(gdw_session *s, flow *f, uint8_t side, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    gdw_enet_compression was = (gdw_enet_compression)f->compression[side].locked, use;
    size_t got = gdw_enet_inflate(&f->compression[side], s->opts.decompress, s->opts.decompress_ctx, in, n, out, cap, &use);
    if (was && f->compression[side].locked && f->compression[side].locked != was && !f->switched_said) {
        f->switched_said = true;
        problem(s, f, "enet", 0, "a compressed ENet datagram that %s does not read, as this side's did, and %s does: read with %s from here "
                "(said once a flow)", gdw_enet_compression_name(was), gdw_enet_compression_name(use), gdw_enet_compression_name(use));
    }
    return got;
}

/* ---- one datagram of a flow ----------------------------------------------------------------- */

/* One ENet datagram of flow f in direction dir: each command through the table, each packet ENet would deliver
 * handed up. */
static void enet_datagram(gdw_session *s, flow *f, int dir, const uint8_t *d, size_t len) {
    gdw_enet_header h;
    if (gdw_enet_read_header(d, len, &h, NULL) != GDW_OK) return; /* enet_looks_like saw 4 bytes at least */
    uint8_t plain[GDW_ENET_MAXIMUM_MTU];
    const uint8_t *commands = d + h.size;
    size_t commands_len = len - h.size;
    if (h.compressed) {
        /* everything after the header is compressed as one block (protocol.c, enet_protocol_receive_incoming_commands);
         * offsets in problems are then offsets in the decompressed datagram */
        uint8_t side = side_of(f, dir);
        size_t n = commands_len ? enet_inflate(s, f, side, commands, commands_len, plain, sizeof plain - h.size) : 0;
        if (!n) {
            if (!f->compressed++) {
                if (f->compression[side].locked)
                    problem(s, f, "enet", 0, "a compressed ENet datagram that does not decompress with %s, as this side's did: "
                            "this flow's are skipped (their count comes at the end)", gdw_enet_compression_name(f->compression[side].locked));
                else {
                    char have[112];
                    decompressors_text(s, have, sizeof have);
                    problem(s, f, "enet", 0, "a compressed ENet datagram that none of %s reads as ENet commands: this flow's are skipped "
                            "(their count comes at the end)", have);
                }
            }
            return;
        }
        commands = plain, commands_len = n;
        s->stats.decompressed++;
    }
    gdw_enet_commands it;
    gdw_enet_command c;
    gdw_error err;
    int rc;
    gdw_enet_commands_begin(&it, commands, commands_len, h.size);
    while ((rc = gdw_enet_commands_next(&it, &c, &err)) == 1) {
        /* ENet drops a reliable command it has seen, whether or not it asks for an acknowledgement
         * (protocol.c, enet_peer_queue_incoming_command); a CONNECT is seen by its peer id (on_connect) */
        bool reliable = c.acknowledge || c.kind == GDW_ENET_SEND_RELIABLE || c.kind == GDW_ENET_SEND_FRAGMENT;
        if (reliable && c.kind != GDW_ENET_CONNECT && seen_before(s, f, dir, c.channel, c.reliable_seq)) {
            s->stats.retransmits++;
            continue;
        }
        if (k_on_command[c.kind]) k_on_command[c.kind](s, f, dir, &h, &c);
    }
    if (rc < 0) {
        if (it.why == GDW_ENET_CUT_HEADER)
            problem(s, f, "enet", err.offset, "an ENet command header cut short (%zu bytes left)", it.left);
        else if (it.why == GDW_ENET_NOT_A_COMMAND)
            problem(s, f, "enet", err.offset, "ENet command %u is not a command: the rest of the datagram is skipped", it.kind);
        else if (it.why == GDW_ENET_CUT_FIELDS)
            problem(s, f, "enet", err.offset, "ENet command %u needs %zu bytes, %zu are left", it.kind, it.need, it.left);
        else
            problem(s, f, "enet", err.offset, "ENet command %u says %zu bytes of data, %zu are left", it.kind, it.need, it.left);
    }
}

void gdw_session_udp(gdw_session *s, const uint8_t *src, size_t alen, uint16_t sport, const uint8_t *dst, uint16_t dport,
                     const uint8_t *payload, size_t len, double time) {
    if (!s || !src || !dst || (alen != 4 && alen != 16) || (!payload && len)) return;
    s->frame++; /* a datagram the caller read is a frame of its own: messages and problems number it */
    s->stats.frames++;
    s->time = time;
    udp_datagram_in(s, src, alen, sport, dst, dport, payload, len);
}

void udp_datagram_in(gdw_session *s, const uint8_t *src, size_t alen, uint16_t sport, const uint8_t *dst, uint16_t dport,
                     const uint8_t *payload, size_t len) {
    s->stats.udp_datagrams++;
    int dir;
    flow *f = flow_find(s, 17, src, sport, dst, dport, alen, &dir);
    bool enet = enet_looks_like(payload, len);
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
    gdw_enet_header h;
    uint8_t first;
    reader r = rd_view(payload, len, 0);
    if (dir == 1 && !f->connect_seen && gdw_enet_read_header(payload, len, &h, NULL) == GDW_OK && !h.compressed &&
        h.peer_id == ENET_MAX_PEER_ID && rd_u8_at(&r, h.size, &first) && (first & 0x0F) == GDW_ENET_CONNECT) {
        flow_swap_ends(s, f);
        dir = 0;
    }
    enet_datagram(s, f, dir, payload, len);
}

void enet_flow_finish(gdw_session *s, flow *f) {
    if (f->compressed)
        problem(s, f, "enet", 0, "%llu compressed datagram%s of this flow %s not read", (unsigned long long)f->compressed,
                f->compressed == 1 ? "" : "s", f->compressed == 1 ? "was" : "were");
    f->compressed = 0; /* said: a second finish says it no more */
    for (holder *h = f->hold.list[HOLD_REASSEMBLY].head, *next; h; h = next) {
        next = h->fnext;
        if (h->type != HELD_FRAGMENT_SET) continue;
        fragment_set *fs = HOLDER_OF(fragment_set, h);
        problem(s, f, "enet", 0, "a fragmented packet first seen in frame %llu never completed: %u of %u parts, %u bytes",
                (unsigned long long)fs->first_frame, fs->received, fs->count, fs->total);
        s->stats.fragments_dropped++;
        enet_fragment_free(s, &fs->h);
    }
}

void enet_session_init(gdw_session *s) {
    s->fragments.hash = fragment_set_hash;
    s->windows.hash = window_hash;
}

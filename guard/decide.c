/* SPDX-License-Identifier: MIT
 * decide.c — the guard's decision (guard.h): one client datagram and its peer's state in, the datagrams to
 * forward out. No socket here (relay.c has them).
 *
 * ENet's rules the actions keep (protocol.c, read in lsalzman/enet at 8be2368, whose line numbers are cited; Godot
 * 4.6.3 and 3.6.2 bundle ENet 1.3.x with changes of their own in thirdparty/enet, not read here: guard/tests/
 * engine_actions_test holds the actions to the real 4.6.3 engine):
 *   - a datagram is a header and commands, each delimited by its own size (commandSizes, protocol.c:12-27) and
 *     dataLength; there is no count and, in Godot, no checksum (host.c: host->checksum = NULL), so a command can be
 *     cut out of a datagram and the rest forwarded as it was;
 *   - an unreliable or unsequenced command that never arrives is a lost one (enet_peer_queue_incoming_command
 *     drops what it misses): removing it breaks nothing;
 *   - a reliable command (flag 0x80) is delivered in order of its channel's reliableSequenceNumber and resent
 *     until acknowledged (enet_peer_dispatch_incoming_reliable_commands stops at the first missing one), so one
 *     that is removed stalls its channel: it is replaced by a SEND_RELIABLE of the same channel and sequence
 *     number carrying the generation's harmless packet (README "Actions");
 *   - the fragments of a reliable message are acknowledged one by one and the sender keeps at most its window
 *     (ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE, 64 KiB) in flight, so a guard that held every fragment of a 100 KB
 *     message would wait for ever: it forwards each fragment but the first (fragmentNumber 0, the packet's head)
 *     and holds that one until the message is whole and judged; a message that breaks a rule gets its head
 *     overwritten by the harmless packet, so the engine refuses it at its first byte;
 *   - a datagram longer than ENET_PROTOCOL_MAXIMUM_MTU (4,096) is not read by the engine (unix.c
 *     enet_socket_receive: MSG_TRUNC), nor by the guard;
 *   - DISCONNECT (protocol.c enet_protocol_handle_disconnect) without the acknowledge flag puts a connected peer
 *     in the zombie state: the server frees it. The forged one carries the peer id and session of the server's
 *     VERIFY_CONNECT (outgoingPeerID, outgoingSessionID: the header the client itself sends, protocol.c:980-981
 *     and :1707; the server checks both, :1029-1052).
 */
#include "guard/guard_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rules, in the order of counters.by_rule ----------------------------------------------------------- */

static const char *const k_rules[] = {
    "object", "depth", "value_bytes", "container", "string", "variant", "strict", "multiplayer",
    "unknown_path", "unknown_method", "arguments", "raw", "relay", "peer_command", "forged_source", "config_channel",
    "channel", "fragments", "message_bytes", "rate_messages", "rate_bytes", "compressed", "enet", "retransmit", "spawn", "put_var",
    "conversion", NULL,
};

const char *gdw_guard_rule_name(unsigned i) { return i < sizeof k_rules / sizeof k_rules[0] ? k_rules[i] : NULL; }

static unsigned rule_index(const char *rule) {
    for (unsigned i = 0; k_rules[i]; i++)
        if (strcmp(k_rules[i], rule) == 0) return i;
    return 31;
}

/* ---- the engine generations: what differs between Godot 4's and Godot 3's layer over ENet (DATA) ------------ */

/* Godot 4 (modules/enet/enet_multiplayer_peer.cpp, 4.6.3: SYSCH_RELIABLE 0, SYSCH_UNRELIABLE 1, a transfer channel
 * N > 0 on ENet channel N + 1) and Godot 3 (modules/enet/networked_multiplayer_enet.cpp, 3.6.2: SYSCH_CONFIG 0, the
 * server's; SYSCH_RELIABLE 1, SYSCH_UNRELIABLE 2; a transfer channel N > 2 on ENet channel N; every packet's 8-byte
 * source and target header, session/godot.c). The harmless packets are ones the engine's multiplayer layer does
 * nothing with (README "The harmless packet", measured by //guard:engine_actions_test). A whole message: Godot 4's
 * SYS AUTH of exactly 2 bytes, which SceneMultiplayer::poll drops without a word from an admitted peer
 * (scene_multiplayer.cpp:122-127 in 4.6.3); Godot 3's 0xFF command, which MultiplayerAPI::_process_packet's switch
 * has no case for (core/io/multiplayer_api.cpp:188-229 in 3.6.2). A fragmented message's head (its first bytes
 * overwritten, the rest still there): Godot 4's SYS with sub-command 0xFF (_process_sys's default: ERR_FAIL, one
 * error line); Godot 3's 0xFF again. */
static const generation k_generations[] = {
    {GDW_MULTIPLAYER_SCENE4, "godot4", 0, -1, 2, 1, {0x07, 0x00}, 2, {0x07, 0xFF}, 2},
    {GDW_MULTIPLAYER_API3, "godot3", 8, 0, 3, 0, {0xFF}, 1, {0xFF}, 1},
};

const generation *generation_of(const gdw_dialect *d) {
    int layer = gdw_dialect_rule(d, GDW_RULE_MULTIPLAYER);
    for (size_t i = 0; i < sizeof k_generations / sizeof k_generations[0]; i++)
        if ((int)k_generations[i].layer == layer) return &k_generations[i];
    return NULL;
}

/* The harmless packet of the generation for peer p (head: the one for a fragmented message's first bytes), into out
 * (at least 16 bytes): its length. */
static size_t harmless_packet(const gdw_guard_peer *p, bool head, uint8_t *out) {
    const generation *gen = p->g->gen;
    size_t n = 0;
    if (gen->transport_header == 8) { /* Godot 3: the peer's own id as source, the server (1) as target */
        uint32_t src = (uint32_t)p->godot_id, dst = 1;
        for (int i = 0; i < 4; i++) out[n++] = (uint8_t)(src >> (8 * i));
        for (int i = 0; i < 4; i++) out[n++] = (uint8_t)(dst >> (8 * i));
    }
    memcpy(out + n, head ? gen->harmless_head : gen->harmless, head ? gen->harmless_head_len : gen->harmless_len);
    return n + (head ? gen->harmless_head_len : gen->harmless_len);
}

/* ---- lifecycle -------------------------------------------------------------------------------------------- */

gdw_guard *gdw_guard_new(const gdw_guard_policy *pol, gdw_guard_log_fn log, void *log_ctx) {
    gdw_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->pol = *pol;
    g->gen = generation_of(pol->dialect);
    if (!g->gen) g->gen = &k_generations[0];
    g->log = log, g->log_ctx = log_ctx;
    g->dec = gdw_decode_options_default();
    g->dec.max_depth = pol->max_depth;
    g->dec.max_size = pol->max_value_bytes;
    g->dec.allow_objects = pol->objects;
    g->dec.mode = pol->strict ? GDW_MODE_STRICT : GDW_MODE_COMPATIBLE;
    g->dec.allow_trailing = true; /* a multiplayer packet's values follow each other */
    g->dec.borrow_input = true;
    g->dec.keep_nodes = 1; /* the verdict is the whole value's; the tree is not needed */
    /* the conversion rule: a row whose engine converts typed containers' elements (data: the row's typed_rule) has
     * each value's walk watch for what the engine holds otherwise, so that only those values are decoded again */
    g->conversions = !pol->undefined_conversions && gdw_dialect_rule(pol->dialect, GDW_RULE_TYPED_RULE) == GDW_TYPED_CONVERT;
    g->dec.watch_engine = g->conversions;
    return g;
}

void gdw_guard_free(gdw_guard *g) {
    if (!g) return;
    for (int i = 0; i < 2; i++) gdw_mp_parsed_free(&g->mp[i]);
    free(g);
}

void gdw_guard_set_decompressor(gdw_guard *g, gdw_decompress_fn fn, void *ctx) { g->range = fn, g->range_ctx = ctx; }
void gdw_guard_set_method_rule(gdw_guard *g, gdw_guard_method_fn fn, void *ctx) {
    g->method = fn, g->method_ctx = ctx;
    g->dec.keep_nodes = 0; /* the rule reads the arguments' trees (a typed Array's elements) */
}
const gdw_guard_policy *gdw_guard_policy_of(const gdw_guard *g) { return &g->pol; }
gdw_guard_counters gdw_guard_get_counters(const gdw_guard *g) { return g->c; }

gdw_guard_peer *gdw_guard_peer_new(gdw_guard *g) {
    gdw_guard_peer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->g = g;
    gdw_enet_reassembly_options ro = {g->pol.max_message_bytes + 4096, g->pol.max_message_bytes, NULL};
    gdw_mp_paths_options po = {g->pol.max_paths, g->pol.max_path_bytes, NULL};
    p->frag = gdw_enet_reassembly_new(&ro);
    p->paths = gdw_mp_paths_new(&po);
    if (!p->frag || !p->paths) { gdw_guard_peer_free(p); return NULL; }
    p->msg_tokens = g->pol.messages_per_second * g->pol.burst_seconds;
    p->byte_tokens = g->pol.bytes_per_second * g->pol.burst_seconds;
    p->last = -1;
    return p;
}

void gdw_guard_peer_free(gdw_guard_peer *p) {
    if (!p) return;
    gdw_guard_peer_free(p->toward_client);
    gdw_enet_reassembly_free(p->frag);
    gdw_mp_paths_free(p->paths);
    for (held_head *h = p->held, *next; h; h = next) next = h->next, free(h);
    free(p);
}

size_t gdw_guard_peer_held(const gdw_guard_peer *p) {
    return sizeof *p + gdw_enet_reassembly_held(p->frag) + gdw_mp_paths_held(p->paths) + p->held_bytes +
           (p->toward_client ? gdw_guard_peer_held(p->toward_client) : 0);
}
bool gdw_guard_peer_cut(const gdw_guard_peer *p) { return p->cut; }
int64_t gdw_guard_peer_id(const gdw_guard_peer *p) { return p->godot_id; }

/* ---- reading big-endian fields ---------------------------------------------------------------------------- */

static uint16_t be16(const uint8_t *b) { return (uint16_t)(b[0] << 8 | b[1]); }
static uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }
static void put_be16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8), b[1] = (uint8_t)v; }

static uint32_t fnv(const uint8_t *d, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ d[i]) * 16777619u;
    return h;
}

/* A compressed datagram's commands into out: the compression the side was found to use, else the first that reads
 * it (zstd and zlib by their headers, FastLZ, the range coder), as a session finds it (gdwire_session.h). The bytes
 * written; 0 when none reads it. */
static size_t decompress(const gdw_guard *g, gdw_enet_compression *found, bool *range_found, const uint8_t *in, size_t n, uint8_t *out,
                         size_t cap) {
    static const gdw_enet_compression order[] = {GDW_ENET_COMPRESS_ZSTD, GDW_ENET_COMPRESS_ZLIB, GDW_ENET_COMPRESS_FASTLZ};
    if (*found) return gdw_enet_decompress(*found, in, n, out, cap);
    if (*range_found) return g->range ? g->range(g->range_ctx, in, n, out, cap) : 0;
    size_t k = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0] && !k; i++)
        if ((k = gdw_enet_decompress(order[i], in, n, out, cap))) *found = order[i];
    if (!k && g->range && (k = g->range(g->range_ctx, in, n, out, cap))) *range_found = true;
    return k;
}

bool gdw_guard_is_connect(const gdw_guard *g, const uint8_t *d, size_t n) {
    gdw_enet_header h;
    gdw_error err;
    if (n > GDW_ENET_MAXIMUM_MTU || gdw_enet_read_header(d, n, &h, &err) != GDW_OK || h.peer_id != 0xFFF) return false;
    if (!h.compressed) return n >= h.size + 4 && (d[h.size] & 0x0F) == GDW_ENET_CONNECT;
    uint8_t plain[GDW_ENET_MAXIMUM_MTU];
    gdw_enet_compression found = GDW_ENET_COMPRESS_NONE;
    bool range = false;
    size_t k = decompress(g, &found, &range, d + h.size, n - h.size, plain, sizeof plain - h.size);
    return k >= 4 && (plain[0] & 0x0F) == GDW_ENET_CONNECT;
}

/* ---- the output: datagrams built command by command --------------------------------------------------------- */

static void out_begin(judge *j) {
    memcpy(j->out, j->hdr_bytes, j->hdr_len);
    j->out_len = j->hdr_len;
}

static void out_flush(judge *j) {
    if (j->out_len > j->hdr_len || j->header_only) {
        if (!j->g->pol.dry_run) {
            j->emit(j->ctx, j->to_server, j->out, j->out_len);
            j->g->c.datagrams_out++, j->g->c.bytes_out += j->out_len;
        }
    }
    out_begin(j);
}

static void out_put(judge *j, const uint8_t *cmd, size_t n) {
    if (j->out_len + n > sizeof j->out) out_flush(j);
    if (j->out_len + n > sizeof j->out) return; /* cannot be: every command came in a datagram of at most 4,096 */
    memcpy(j->out + j->out_len, cmd, n);
    j->out_len += n;
}

/* A SEND_RELIABLE of channel and seq carrying the harmless packet (the replacement of a reliable command). */
static void out_harmless(judge *j, unsigned channel, uint16_t seq) {
    uint8_t cmd[6 + 16];
    size_t n = harmless_packet(j->p, false, cmd + 6);
    cmd[0] = GDW_ENET_SEND_RELIABLE | 0x80;
    cmd[1] = (uint8_t)channel;
    put_be16(cmd + 2, seq);
    put_be16(cmd + 4, (uint16_t)n);
    out_put(j, cmd, 6 + n);
}

/* ---- actions ---------------------------------------------------------------------------------------------- */

static void log_action(judge *j, const char *action, const char *rule, const msg_ctx *m, size_t offset, const char *fmt, const char *arg) {
    gdw_guard_action a;
    memset(&a, 0, sizeof a);
    a.action = action;
    a.rule = rule;
    a.command = m && m->mp ? gdw_mp_command_name(m->mp->command) : (m ? gdw_enet_command_name(m->kind) : "datagram");
    a.mode = m ? m->mode : "";
    a.channel = m ? m->channel : 0;
    a.from = j->p->godot_id;
    a.node = m ? m->node : NULL;
    a.method_id = -1;
    if (m && m->mp && (m->mp->command == GDW_MP_RPC || m->mp->command == GDW_MP_RSET)) {
        a.method_id = m->mp->as.rpc.method_id;
        a.method = m->mp->as.rpc.method, a.method_len = m->mp->as.rpc.method_len;
    }
    a.offset = offset;
    a.dry_run = j->g->pol.dry_run;
    snprintf(a.detail, sizeof a.detail, fmt, arg);
    if (j->g->log) j->g->log(j->g->log_ctx, &a);
}

static void forged_disconnect(gdw_guard *g, const gdw_guard_peer *p, gdw_guard_emit_fn emit, void *ctx) {
    if (!p->verified) return; /* no VERIFY_CONNECT seen: the server has no peer for it yet */
    uint8_t d[10];
    put_be16(d, (uint16_t)(p->server_peer_id | (p->session << 12)));
    d[2] = GDW_ENET_DISCONNECT; /* no acknowledge flag: the server goes straight to the zombie state */
    d[3] = 0xFF;
    put_be16(d + 4, 0);
    memset(d + 6, 0, 4);
    emit(ctx, true, d, sizeof d);
    g->c.datagrams_out++, g->c.bytes_out += sizeof d;
}

void gdw_guard_forget(gdw_guard *g, gdw_guard_peer *p, gdw_guard_emit_fn emit, void *ctx) {
    if (g->pol.checks && !g->pol.dry_run && !p->cut) forged_disconnect(g, p, emit, ctx);
}

/* The forged DISCONNECT, and every later datagram refused. */
static void cut_off(judge *j, const char *rule, const msg_ctx *m, size_t offset) {
    gdw_guard_peer *p = j->p;
    if (p->cut) return;
    j->g->c.cuts++;
    j->actions++;
    char why[64];
    snprintf(why, sizeof why, "after %u violation%s", p->violations, p->violations == 1 ? "" : "s");
    log_action(j, "cut", rule, m, offset, "%s", why);
    if (j->g->pol.dry_run) return;
    p->cut = true;
    /* a hostile server's traffic is only refused; a WebSocket flow has no ENet peer to free (and no emit: the relay
     * closes the TCP connection on the -1 it is given) */
    if (!p->server_side && j->emit) forged_disconnect(j->g, p, j->emit, j->ctx);
}

/* One rule broken by message m: counted and logged; the caller removes or replaces the command. Returns true when
 * the peer is now cut off. */
static bool violation(judge *j, const char *action, const char *rule, const msg_ctx *m, size_t offset, const char *fmt, const char *arg) {
    gdw_guard *g = j->g;
    gdw_guard_peer *p = j->p;
    g->c.violations++;
    g->c.by_rule[rule_index(rule)]++;
    p->violations++;
    j->actions++;
    log_action(j, action, rule, m, offset, fmt, arg);
    bool reliable_cut = m && m->reliable && g->pol.reliable == GDW_GUARD_CUT;
    if (reliable_cut || (g->pol.cut_after && p->violations >= g->pol.cut_after)) cut_off(j, rule, m, offset);
    return p->cut && !g->pol.dry_run;
}

/* ---- the multiplayer packet ------------------------------------------------------------------------------- */

/* The policy's container and string limits on one Variant, through the validator's trace (it allocates nothing). */
typedef struct limits_ctx {
    const gdw_guard_policy *pol;
    const char *rule;
    size_t offset;
    int64_t number;
} limits_ctx;

static void limits_trace(void *ctx, const gdw_trace_event *ev) {
    limits_ctx *l = ctx;
    if (l->rule) return;
    bool container = ev->type == GDW_ARRAY || ev->type == GDW_DICTIONARY; /* packed arrays: bounded by variant.max_bytes */
    if (container && strcmp(ev->field, "count") == 0 && ((uint64_t)ev->number & 0x7FFFFFFFu) > l->pol->max_container) {
        l->rule = "container", l->offset = ev->offset, l->number = ev->number & 0x7FFFFFFF;
    } else if (strcmp(ev->field, "length") == 0 && ev->number > (int64_t)l->pol->max_string) {
        l->rule = "string", l->offset = ev->offset, l->number = ev->number;
    }
}

static const char *status_rule(gdw_status s) {
    switch (s) {
    case GDW_ERR_OBJECTS_DISALLOWED: return "object";
    case GDW_ERR_DEPTH: return "depth";
    case GDW_ERR_TOO_LARGE: return "value_bytes";
    case GDW_ERR_BAD_FLAGS:
    case GDW_ERR_NONZERO_PADDING:
    case GDW_ERR_TRAILING_BYTES:
    case GDW_ERR_NON_CANONICAL: return "strict";
    default: return "variant";
    }
}

/* One Variant in bytes[0..n) against the validator's limits (g->dec) and the policy's container and string limits:
 * the rule it breaks (*offset in bytes, why naming it as "label index"), or NULL. */
static const char *variant_limits(const gdw_guard *g, const uint8_t *bytes, size_t n, const char *label, unsigned index, size_t *offset,
                                  char *why, size_t cap) {
    limits_ctx l = {&g->pol, NULL, 0, 0};
    gdw_decode_options o = g->dec;
    o.trace = limits_trace, o.trace_ctx = &l;
    o.keep_nodes = 0;
    size_t consumed;
    gdw_error err;
    gdw_status s = gdw_validate(g->pol.dialect, bytes, n, &o, &consumed, &err);
    if (l.rule) {
        *offset = l.offset;
        snprintf(why, cap, "%s %u: %s of %lld, past variant.max_%s", label, index, l.rule[0] == 'c' ? "a count" : "a length",
                 (long long)l.number, l.rule);
        return l.rule;
    }
    if (s != GDW_OK) {
        *offset = err.offset;
        snprintf(why, cap, "%s %u: %s", label, index, err.message);
        return status_rule(s);
    }
    return NULL;
}

/* The first undefined conversion's place and why, from the engine-exact pass's trace. */
typedef struct conversion_ctx {
    bool seen;
    char path[GDW_PATH_MAX];
} conversion_ctx;

static void conversion_trace(void *ctx, const gdw_trace_event *ev) {
    conversion_ctx *t = ctx;
    if (t->seen || strcmp(ev->field, "undefined conversion") != 0) return;
    t->seen = true;
    snprintf(t->path, sizeof t->path, "%s", ev->path ? ev->path : "");
}

/* Engine finding 7 (docs/engine-findings.md): Godot 4 converts a typed container's elements (and a typed Dictionary's
 * keys) to its element type, and some conversions are undefined in its C++: a float out of the integer's range, an
 * infinity or a NaN entering an int, a Vector2i, Vector3i, Vector4i, Rect2i or packed integer array (x86-64 builds
 * hold the most negative integer, or in a byte the low byte of a 32-bit conversion; ARM64 builds saturate), and a Quaternion of length 0 entering a Basis (a division
 * by zero). A peer can so make two builds of one game hold different values from the same bytes. The codec's
 * engine-exact pass counts them (gdw_doc_undefined_conversions); a value of bytes[0..n) with one breaks the rule
 * `conversion`. Only a value whose first walk met a place where the engine may hold another value (engine_same
 * false) is decoded again: NULL as engine_doc for a value with no such walk (a RAW put_var frame). */
static const char *conversion_rule(const gdw_guard *g, const gdw_doc *engine_doc, const uint8_t *bytes, size_t n, const char *label,
                                   unsigned index, size_t *offset, char *why, size_t cap) {
    if (!g->conversions || (engine_doc && gdw_doc_engine_same(engine_doc))) return NULL;
    gdw_decode_options o = g->dec;
    o.mode = GDW_MODE_ENGINE_EXACT;
    o.watch_engine = false;
    o.keep_nodes = 0;
    /* one decode, with the trace for the place (only values whose first walk met a typed container come here); at
     * most gdw_decode_heap_bound(n) in engine-exact mode, freed at once. A value engine-exact mode refuses where
     * compatible mode read it is one the engine refuses (it may have converted on the way): refused too */
    conversion_ctx t = {false, ""};
    o.trace = conversion_trace, o.trace_ctx = &t;
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_decode(g->pol.dialect, bytes, n, &o, NULL, &doc, NULL, &err);
    size_t count = s == GDW_OK ? gdw_doc_undefined_conversions(doc) : 0;
    gdw_doc_free(doc);
    if (s != GDW_OK) {
        *offset = err.offset;
        snprintf(why, cap, "%s %u: the engine refuses it (%s)", label, index, err.message);
        return s == GDW_ERR_NOMEM ? "conversion" : status_rule(s);
    }
    if (!count) return NULL;
    *offset = 0;
    snprintf(why, cap, "%s %u%s%s: %zu conversion%s the engine's C++ leaves undefined (engine finding 7: the value it holds depends on the CPU)",
             label, index, t.path[0] ? " at " : "", t.path, count, count == 1 ? "" : "s");
    return "conversion";
}

/* Judges the values of a parsed packet: the first broken rule, with its offset in pkt; NULL when none. */
static const char *judge_values(judge *j, const gdw_mp_parsed *mp, const uint8_t *pkt, size_t *offset, char *why, size_t cap) {
    gdw_guard *g = j->g;
    for (size_t i = 0; i < mp->value_count; i++) {
        const gdw_mp_value *v = &mp->values[i];
        if (v->status != GDW_OK) {
            *offset = v->offset + v->error.offset;
            snprintf(why, cap, "%s %u: %s", v->label, v->index, v->error.message);
            return status_rule(v->status);
        }
        if (v->encoding == GDW_MP_BARE_BYTES) {
            if (v->length > g->pol.max_value_bytes) {
                *offset = v->offset;
                snprintf(why, cap, "%s %u: %zu bare bytes, past variant.max_bytes", v->label, v->index, v->length);
                return "value_bytes";
            }
            continue;
        }
        if (v->encoding != GDW_MP_VARIANT) continue;
        /* A value that decoded holds every element it counts, each at least a 4-byte header, and every string's bytes:
         * one too short to pass a limit needs no second walk (the validator's, with the trace). */
        const char *rule = NULL;
        if (v->length > g->pol.max_string || v->length / 4 > g->pol.max_container)
            rule = variant_limits(g, pkt + v->offset, v->length, v->label, v->index, offset, why, cap);
        /* after the limits: a value past them is refused without the second decode */
        if (!rule) rule = conversion_rule(g, v->doc, pkt + v->offset, v->length, v->label, v->index, offset, why, cap);
        if (rule) {
            *offset += v->offset;
            return rule;
        }
    }
    return NULL;
}

/* Engine finding 3 (docs/engine-findings.md): StreamPeer::get_var reads a 32-bit length, allocates that much and
 * reads it, and StreamPeerBuffer::get_partial_data checks `pointer + p_bytes > data.size()` in int (4.6.3-stable
 * core/io/stream_peer.cpp:656-673, 3.6.2-stable :435-447): a length near 2^31 wraps the sum, passes, and memcpy reads
 * 2 GiB past the packet. A game that reads RAW packets (send_bytes) with StreamPeerBuffer.get_var, as put_var wrote
 * them, is crashed by one. With rpc.raw_put_var a RAW packet must be nothing but put_var frames (the 4-byte length,
 * then a Variant of that many bytes: StreamPeer::put_var, :474-497 in 4.6.3), each in the packet and each passing
 * the variant rules. */
static const char *raw_put_var_rule(const gdw_guard *g, const gdw_mp_parsed *mp, const uint8_t *pkt, size_t *offset, char *why,
                                    size_t cap) {
    const uint8_t *p = mp->as.raw.payload;
    size_t n = mp->as.raw.payload_len, base = (size_t)(p - pkt);
    gdw_frame_options fo = gdw_frame_options_default(GDW_FRAMING_STREAM);
    fo.max_payload = g->pol.max_value_bytes;
    unsigned index = 1;
    for (size_t at = 0; at < n; index++) {
        size_t payload_len = 0, frame_len = 0;
        gdw_error err;
        gdw_status s = gdw_frame_read(&fo, p + at, n - at, &payload_len, &frame_len, &err);
        if (s != GDW_OK) {
            *offset = base + at;
            if (s == GDW_ERR_TRUNCATED && n - at < 4)
                snprintf(why, cap, "RAW put_var %u: %zu bytes, not a 4-byte length (rpc.raw_put_var)", index, n - at);
            else
                snprintf(why, cap, "RAW put_var %u: a length of %zu with %zu bytes after it (engine finding 3: StreamPeerBuffer.get_var reads past the packet)",
                         index, payload_len, n - at - 4);
            return "put_var";
        }
        const char *rule = variant_limits(g, p + at + 4, payload_len, "RAW put_var", index, offset, why, cap);
        if (!rule) rule = conversion_rule(g, NULL, p + at + 4, payload_len, "RAW put_var", index, offset, why, cap);
        if (rule) {
            *offset += base + at + 4;
            return rule;
        }
        at += frame_len;
    }
    return NULL;
}

/* Godot 4.6.3's on_spawn_receive checks name_len + sync_len * 4 against the bytes left in 32 bits
 * (modules/multiplayer/scene_replication_interface.cpp:581-590), so a sync count past 2^30 wraps, passes, and the
 * client reads 2^31 ids past the packet and hangs (docs/engine-findings.md, finding 8: a hostile server's SPAWN).
 * The rule: the sync ids and the name must fit in the packet, summed without wrapping. SPAWN's layout: 04, scene id u8,
 * spawner u32, net id u32, sync count u32, name length u32, the ids, the name (docs/multiplayer.md 1.7). */
static const char *spawn_rule(const generation *gen, const uint8_t *pkt, size_t n, size_t *offset, char *why, size_t cap) {
    if (gen->layer != GDW_MULTIPLAYER_SCENE4 || n < 18 || (pkt[0] & 7) != 4) return NULL;
    uint64_t sync_len = (uint64_t)pkt[10] | (uint64_t)pkt[11] << 8 | (uint64_t)pkt[12] << 16 | (uint64_t)pkt[13] << 24;
    uint64_t name_len = (uint64_t)pkt[14] | (uint64_t)pkt[15] << 8 | (uint64_t)pkt[16] << 16 | (uint64_t)pkt[17] << 24;
    if (name_len + sync_len * 4 <= n - 18) return NULL;
    *offset = 10;
    snprintf(why, cap, "a SPAWN with %llu sync ids and a name of %llu bytes in %zu bytes (engine finding 8: the engine's 32-bit check wraps)",
             (unsigned long long)sync_len, (unsigned long long)name_len, n - 18);
    return "spawn";
}

/* Judges one multiplayer packet pkt[0..n) of message m (depth 0; a relay's inner packet at depth 1). The first
 * broken rule (and *offset in pkt), or NULL. */
static const char *judge_packet(judge *j, msg_ctx *m, const uint8_t *pkt, size_t n, unsigned depth, size_t *offset, char *why, size_t cap) {
    gdw_guard *g = j->g;
    gdw_guard_peer *p = j->p;
    gdw_error err;
    gdw_mp_parsed *mp = &g->mp[depth];
    *offset = 0;
    const char *spawn = spawn_rule(g->gen, pkt, n, offset, why, cap);
    if (spawn) return spawn;
    if (gdw_mp_parse_into(pkt, n, g->pol.dialect, &g->dec, mp, &err) != GDW_OK) {
        *offset = err.offset;
        snprintf(why, cap, "%s", err.message);
        m->mp = NULL;
        return "multiplayer";
    }
    m->mp = mp;
    m->node = gdw_mp_paths_apply(p->paths, 0, mp);
    const char *rule = NULL;
    switch (mp->command) {
    case GDW_MP_RPC:
    case GDW_MP_RSET:
        if (!m->node && !g->pol.unknown_paths) {
            snprintf(why, cap, "node cache id %lld was never announced by this peer", (long long)mp->as.rpc.node_id);
            *offset = 1;
            return "unknown_path";
        }
        if (g->method && mp->command == GDW_MP_RPC) {
            int fit = g->method(g->method_ctx, m->node, mp->as.rpc.method_id, mp, why, cap);
            if (fit == -2 && !g->pol.unknown_paths) { *offset = 1; return "unknown_path"; }
            if (fit == -1 && !g->pol.unknown_methods) { *offset = 1; return "unknown_method"; }
            if (fit == 0) { *offset = 1; return "arguments"; }
        }
        break;
    case GDW_MP_RAW:
        if (!g->pol.raw) { snprintf(why, cap, "RAW packets are not allowed (rpc.raw)"); return "raw"; }
        if (g->pol.raw_put_var) return raw_put_var_rule(g, mp, pkt, offset, why, cap);
        break;
    case GDW_MP_SYS_ADD_PEER:
    case GDW_MP_SYS_DEL_PEER:
        if (!g->pol.peer_commands && !p->server_side) { snprintf(why, cap, "only the server sends %s", gdw_mp_command_name(mp->command)); *offset = 1; return "peer_command"; }
        break;
    case GDW_MP_SYS_RELAY:
        if (!g->pol.relay) { snprintf(why, cap, "SYS relays are not allowed (sys.relay)"); *offset = 1; return "relay"; }
        if (depth > 0) { snprintf(why, cap, "a relay inside a relay"); *offset = 1; return "relay"; }
        if (mp->as.sys.peer == p->godot_id && p->godot_id) {
            snprintf(why, cap, "a relay to the sender itself");
            *offset = 2;
            return "relay";
        }
        {
            size_t inner_off = (size_t)(mp->as.sys.payload - pkt);
            const uint8_t *inner = mp->as.sys.payload;
            size_t inner_n = mp->as.sys.payload_len;
            rule = judge_packet(j, m, inner, inner_n, depth + 1, offset, why, cap);
            if (rule) *offset += inner_off;
            return rule;
        }
    default: break;
    }
    return judge_values(j, mp, pkt, offset, why, cap);
}

/* The token buckets of rate.*: false (and the rule) when the message is past them. */
static const char *rate_check(judge *j, size_t bytes) {
    gdw_guard_peer *p = j->p;
    const gdw_guard_policy *pol = &j->g->pol;
    if (p->last >= 0 && j->now > p->last) {
        double dt = j->now - p->last;
        p->msg_tokens += dt * pol->messages_per_second;
        p->byte_tokens += dt * pol->bytes_per_second;
        if (p->msg_tokens > pol->messages_per_second * pol->burst_seconds) p->msg_tokens = pol->messages_per_second * pol->burst_seconds;
        if (p->byte_tokens > pol->bytes_per_second * pol->burst_seconds) p->byte_tokens = pol->bytes_per_second * pol->burst_seconds;
    }
    p->last = j->now;
    if (pol->messages_per_second > 0) {
        if (p->msg_tokens < 1) return "rate_messages";
        p->msg_tokens -= 1;
    }
    if (pol->bytes_per_second > 0) {
        if (p->byte_tokens < (double)bytes) return "rate_bytes";
        p->byte_tokens -= (double)bytes;
    }
    return NULL;
}

/* Judges one whole message (an ENet packet): NULL when it may go on, else the rule (why, *offset filled). */
static const char *judge_message(judge *j, msg_ctx *m, const uint8_t *pkt, size_t n, size_t *offset, char *why, size_t cap) {
    gdw_guard *g = j->g;
    gdw_guard_peer *p = j->p;
    const generation *gen = g->gen;
    g->c.messages++;
    *offset = 0;
    m->mp = NULL, m->node = NULL;
    const char *rule = rate_check(j, n);
    if (rule) {
        snprintf(why, cap, "past rate.%s", rule + 5);
        return rule;
    }
    if (n > g->pol.max_message_bytes) {
        snprintf(why, cap, "%zu bytes, past enet.max_message_bytes", n);
        return "message_bytes";
    }
    if (gen->config_channel >= 0 && m->enet_channel == (unsigned)gen->config_channel && !p->server_side) {
        snprintf(why, cap, "ENet channel %u is the server's configuration channel", m->enet_channel);
        return "config_channel";
    }
    if (gen->transport_header) { /* Godot 3: source and target */
        if (n < gen->transport_header) {
            snprintf(why, cap, "%zu bytes: shorter than Godot 3's 8-byte header", n);
            return "multiplayer";
        }
        uint32_t src = (uint32_t)pkt[0] | (uint32_t)pkt[1] << 8 | (uint32_t)pkt[2] << 16 | (uint32_t)pkt[3] << 24;
        if (p->godot_id && src != (uint32_t)p->godot_id && !p->server_side) { /* the server relays others' packets as they came */
            char t[48];
            snprintf(t, sizeof t, "source %u, the sender is %lld", src, (long long)p->godot_id);
            snprintf(why, cap, "%s", t);
            return "forged_source";
        }
        rule = judge_packet(j, m, pkt + gen->transport_header, n - gen->transport_header, 0, offset, why, cap);
        if (rule) *offset += gen->transport_header;
        return rule;
    }
    return judge_packet(j, m, pkt, n, 0, offset, why, cap);
}

/* ---- one WebSocket message ---------------------------------------------------------------------------------- */

/* A whole binary message of a WebSocket flow, as Godot's WebSocketMultiplayerPeer frames them (session/godot.c): Godot
 * 4, one SceneMultiplayer packet; Godot 3, a 9-byte header (type 0 a packet, the source and the target) and then a
 * MultiplayerAPI packet. TCP delivers in order and has no sequence numbers of its own to keep, so a message that
 * breaks a rule is dropped whole, reliable or not. */
int gdw_guard_ws_message(gdw_guard *g, gdw_guard_peer *p, const uint8_t *msg, size_t n, double now) {
    if (!g->pol.checks) return 1;
    if (p->cut) return -1;
    judge j;
    memset(&j, 0, sizeof j);
    j.g = g, j.p = p, j.now = now, j.to_server = true;
    msg_ctx m;
    memset(&m, 0, sizeof m);
    m.kind = GDW_ENET_SEND_RELIABLE, m.mode = "reliable";
    g->c.messages++;
    size_t off = 0, head = g->gen->transport_header ? 9 : 0;
    char why[200];
    const char *rule = rate_check(&j, n);
    if (rule) snprintf(why, sizeof why, "past rate.%s", rule + 5);
    else if (n > g->pol.max_message_bytes) rule = "message_bytes", snprintf(why, sizeof why, "%zu bytes, past enet.max_message_bytes", n);
    else if (n < head || (head && msg[0] != 0)) rule = "multiplayer", snprintf(why, sizeof why, "not a packet message of Godot 3's 9-byte header");
    else if ((rule = judge_packet(&j, &m, msg + head, n - head, 0, &off, why, sizeof why))) off += head;
    if (!rule) return 1;
    if (violation(&j, "drop", rule, &m, off, "%s", why)) return -1;
    if (g->pol.dry_run) return 1;
    g->c.dropped++;
    return 0;
}

/* ---- reliable commands seen before (retransmits) ------------------------------------------------------------- */

/* A direct-mapped table: a command's slot is its channel and sequence number hashed; a newer command in the same slot
 * takes it (a retransmit not found is judged afresh, as the first was). */
static unsigned recent_slot(unsigned channel, uint16_t seq) { return (unsigned)((seq * 2654435761u) ^ (channel * 40503u)) % RECENT; }

static recent *recent_find(gdw_guard_peer *p, unsigned channel, uint16_t seq) {
    recent *r = &p->rec[recent_slot(channel, seq)];
    return r->used && r->channel == channel && r->seq == seq ? r : NULL;
}

static recent *recent_add(gdw_guard_peer *p, unsigned channel, uint16_t seq, uint32_t hash, uint8_t verdict) {
    recent *r = &p->rec[recent_slot(channel, seq)];
    r->used = 1, r->channel = (uint8_t)channel, r->seq = seq, r->hash = hash, r->verdict = verdict;
    return r;
}

/* ---- held heads of fragmented messages ----------------------------------------------------------------------- */

static held_head *held_find(gdw_guard_peer *p, unsigned channel, uint16_t start, bool reliable) {
    for (held_head *h = p->held; h; h = h->next)
        if (h->channel == channel && h->start_seq == start && h->reliable == reliable) return h;
    return NULL;
}

static void held_remove(gdw_guard_peer *p, held_head *h) {
    for (held_head **q = &p->held; *q; q = &(*q)->next)
        if (*q == h) { *q = h->next; break; }
    p->held_bytes -= sizeof *h + h->len;
    free(h);
}

/* A new ENet session from the same address (a client that reconnects from its port, a server that restarted): its
 * sequence numbers start again and its path cache is new, so the old session's state goes. Its violations stay. */
static void session_reset(gdw_guard_peer *p) {
    memset(p->rec, 0, sizeof p->rec);
    for (held_head *h = p->held, *next; h; h = next) next = h->next, free(h);
    p->held = NULL, p->held_bytes = 0;
    gdw_enet_reassembly_options ro = {p->g->pol.max_message_bytes + 4096, p->g->pol.max_message_bytes, NULL};
    gdw_mp_paths_options po = {p->g->pol.max_paths, p->g->pol.max_path_bytes, NULL};
    gdw_enet_reassembly *r = gdw_enet_reassembly_new(&ro);
    gdw_mp_paths *m = gdw_mp_paths_new(&po);
    if (r && m) {
        gdw_enet_reassembly_free(p->frag), gdw_mp_paths_free(p->paths);
        p->frag = r, p->paths = m;
    } else {
        gdw_enet_reassembly_free(r), gdw_mp_paths_free(m);
    }
    p->verified = false;
    gdw_guard_peer_free(p->toward_client); /* the server's side starts again too */
    p->toward_client = NULL;
}

/* ---- one command ------------------------------------------------------------------------------------------- */

static void msg_of(judge *j, const gdw_enet_command *c, msg_ctx *m) {
    const generation *gen = j->g->gen;
    memset(m, 0, sizeof *m);
    m->kind = c->kind;
    m->reliable = c->acknowledge;
    m->enet_channel = c->channel;
    m->channel = c->channel < gen->system_channels ? 0 : c->channel - gen->channel_offset;
    m->mode = c->acknowledge ? "reliable" : c->unsequenced ? "unreliable" : "unreliable_ordered";
}

/* The fragment's head fragment (number 0) with its first bytes overwritten by the harmless packet, into out. */
static void out_fragment_neutralised(judge *j, const uint8_t *cmd, size_t n, size_t fixed) {
    uint8_t tmp[GDW_ENET_MAXIMUM_MTU];
    uint8_t head[16];
    size_t hn = harmless_packet(j->p, true, head);
    if (n > sizeof tmp) return;
    memcpy(tmp, cmd, n);
    if (n - fixed >= hn) memcpy(tmp + fixed, head, hn);
    out_put(j, tmp, n);
}

/* A head held with its datagram goes out as that datagram, byte for byte; neutralised, alone in a datagram of its own. */
static void emit_whole(judge *j, const held_head *h, bool neutralise) {
    const uint8_t *d = h->bytes + h->len;
    size_t n = h->dgram_len;
    uint8_t tmp[GDW_ENET_MAXIMUM_MTU + 8];
    if (neutralise) {
        uint8_t head[16];
        size_t hn = harmless_packet(j->p, true, head);
        if (h->hdr_len + h->len > sizeof tmp) return;
        memcpy(tmp, h->hdr, h->hdr_len);
        memcpy(tmp + h->hdr_len, h->bytes, h->len);
        if (h->len - h->fixed >= hn) memcpy(tmp + h->hdr_len + h->fixed, head, hn);
        d = tmp, n = h->hdr_len + h->len;
    }
    j->emit(j->ctx, j->to_server, d, n);
    j->g->c.datagrams_out++, j->g->c.bytes_out += n;
}

static void command_fragment(judge *j, const gdw_enet_command *c, const uint8_t *raw, size_t raw_len) {
    gdw_guard *g = j->g;
    gdw_guard_peer *p = j->p;
    msg_ctx m;
    msg_of(j, c, &m);
    bool reliable = c->acknowledge;
    uint16_t start = c->fragment.start_seq;
    uint32_t hash = fnv(raw, raw_len);
    if (reliable) {
        recent *r = recent_find(p, c->channel, c->reliable_seq);
        if (r) { /* a retransmit */
            g->c.retransmits++;
            if (r->hash != hash) {
                if (!violation(j, "cut", "retransmit", &m, c->offset, "%s", "a retransmitted fragment differs from the one judged")) cut_off(j, "retransmit", &m, c->offset);
                return;
            }
            if (r->verdict == V_HELD) return; /* its message is not whole yet: the head stays here */
            if (r->verdict == V_REPLACED) out_fragment_neutralised(j, raw, raw_len, c->fields_len);
            else out_put(j, raw, raw_len);
            return;
        }
    }
    size_t off = 0;
    char why[200];
    const char *rule = NULL;
    if (c->fragment.count > g->pol.max_fragments) {
        rule = "fragments";
        snprintf(why, sizeof why, "%u fragments, past enet.max_fragments", c->fragment.count);
    } else if (c->fragment.total > g->pol.max_message_bytes) {
        rule = "message_bytes";
        snprintf(why, sizeof why, "%u bytes, past enet.max_message_bytes", c->fragment.total);
    }
    if (rule) {
        /* the server would keep the rest of the message waiting: a reliable one stalls the channel, so the peer goes */
        if (reliable) {
            if (!violation(j, "cut", rule, &m, c->offset, "%s", why)) cut_off(j, rule, &m, c->offset);
        } else if (violation(j, "drop", rule, &m, c->offset, "%s", why)) return;
        if (g->pol.dry_run) out_put(j, raw, raw_len);
        return;
    }
    const uint8_t *pkt;
    size_t pkt_len;
    gdw_error err;
    int done = gdw_enet_reassemble(p->frag, 0, c, &pkt, &pkt_len, &err);
    if (done < 0) {
        if (reliable) {
            if (!violation(j, "cut", "fragments", &m, c->offset, "%s", err.message)) cut_off(j, "fragments", &m, c->offset);
        } else
            violation(j, "drop", "fragments", &m, c->offset, "%s", err.message);
        if (g->pol.dry_run) out_put(j, raw, raw_len);
        return;
    }
    g->c.held_fragments++;
    held_head *h = held_find(p, c->channel, start, reliable);
    if (done == 0) {
        if (c->fragment.number == 0 && h) return; /* the head again (an unreliable copy): the one held stands */
        if (c->fragment.number == 0 && !g->pol.dry_run) { /* the head waits for the judgement */
            while (p->held_bytes + raw_len > g->pol.max_message_bytes) { /* an unreliable message never finished goes first */
                held_head *old = NULL;
                for (held_head *x = p->held; x; x = x->next)
                    if (!x->reliable) old = x;
                if (!old) break;
                held_remove(p, old);
            }
            if (p->held_bytes + raw_len > g->pol.max_message_bytes) {
                if (reliable) {
                    if (!violation(j, "cut", "fragments", &m, c->offset, "%s", "heads of unfinished messages past enet.max_message_bytes")) cut_off(j, "fragments", &m, c->offset);
                } else
                    violation(j, "drop", "fragments", &m, c->offset, "%s", "heads of unfinished messages past enet.max_message_bytes");
                return;
            }
            h = malloc(sizeof *h + raw_len);
            if (!h) return;
            h->channel = (uint8_t)c->channel, h->start_seq = start, h->reliable = reliable, h->len = raw_len, h->fixed = c->fields_len;
            h->dgram_len = 0;
            memcpy(h->bytes, raw, raw_len);
            j->just_held = h;
            h->next = p->held, p->held = h;
            p->held_bytes += sizeof *h + raw_len;
            if (reliable) recent_add(p, c->channel, c->reliable_seq, hash, V_HELD);
            return;
        }
        if (reliable) recent_add(p, c->channel, c->reliable_seq, hash, V_PASSED);
        out_put(j, raw, raw_len);
        return;
    }
    /* the message is whole: judge it */
    rule = judge_message(j, &m, pkt, pkt_len, &off, why, sizeof why);
    const uint8_t *head = c->fragment.number == 0 ? raw : h ? h->bytes : NULL;
    size_t head_len = c->fragment.number == 0 ? raw_len : h ? h->len : 0;
    size_t head_fixed = c->fragment.number == 0 ? c->fields_len : h ? h->fixed : 0;
    uint16_t head_seq = start;
    if (reliable && c->fragment.number != 0) recent_add(p, c->channel, c->reliable_seq, hash, V_PASSED);
    if (!rule) {
        if (reliable) {
            recent *hr = recent_find(p, c->channel, head_seq);
            if (hr) hr->verdict = V_PASSED;
            else if (head) recent_add(p, c->channel, head_seq, head == raw ? hash : fnv(head, head_len), V_PASSED);
        }
        if (h && h->dgram_len) emit_whole(j, h, false);
        else if (head && head != raw) out_put(j, head, head_len);
        if (c->fragment.number != 0 || !h) out_put(j, raw, raw_len);
    } else {
        bool gone = violation(j, reliable ? "replace" : "drop", rule, &m, off, "%s", why);
        if (g->pol.dry_run) out_put(j, raw, raw_len);
        else if (!gone) {
            if (reliable) {
                recent *hr = recent_find(p, c->channel, head_seq);
                if (hr) hr->verdict = V_REPLACED;
                else recent_add(p, c->channel, head_seq, head == raw ? hash : fnv(head, head_len), V_REPLACED);
                if (h && h->dgram_len) emit_whole(j, h, true);
                else if (head) out_fragment_neutralised(j, head, head_len, head_fixed);
                if (c->fragment.number != 0) out_put(j, raw, raw_len);
                g->c.replaced++;
            } else {
                g->c.dropped++; /* the head never goes: the server drops the rest when a newer one comes */
            }
        }
    }
    if (h) held_remove(p, h);
}

static void command_send(judge *j, const gdw_enet_command *c, const uint8_t *raw, size_t raw_len) {
    gdw_guard *g = j->g;
    gdw_guard_peer *p = j->p;
    msg_ctx m;
    msg_of(j, c, &m);
    uint32_t hash = c->acknowledge ? fnv(raw, raw_len) : 0;
    if (c->acknowledge) {
        recent *r = recent_find(p, c->channel, c->reliable_seq);
        if (r) {
            g->c.retransmits++;
            if (r->hash == hash) {
                if (r->verdict == V_REPLACED) out_harmless(j, c->channel, c->reliable_seq);
                else out_put(j, raw, raw_len);
                return;
            }
            if (violation(j, "replace", "retransmit", &m, c->offset, "%s", "a retransmitted command differs from the one judged")) return;
            r->hash = hash, r->verdict = V_REPLACED;
            out_harmless(j, c->channel, c->reliable_seq);
            g->c.replaced++;
            return;
        }
    }
    size_t off = 0;
    char why[200];
    const char *rule = judge_message(j, &m, c->data, c->data_len, &off, why, sizeof why);
    if (!rule) {
        if (c->acknowledge) recent_add(p, c->channel, c->reliable_seq, hash, V_PASSED);
        out_put(j, raw, raw_len);
        return;
    }
    bool gone = violation(j, c->acknowledge ? "replace" : "drop", rule, &m, off, "%s", why);
    if (gone) return;
    if (c->acknowledge) {
        recent_add(p, c->channel, c->reliable_seq, hash, V_REPLACED);
        out_harmless(j, c->channel, c->reliable_seq);
        g->c.replaced++;
    } else {
        g->c.dropped++;
    }
}

/* ---- one datagram ------------------------------------------------------------------------------------------ */

static void refuse(judge *j, const char *rule, size_t offset, const char *why) {
    j->g->c.refused++;
    j->g->c.by_rule[rule_index(rule)]++;
    j->actions++;
    log_action(j, "refuse", rule, NULL, offset, "%s", why);
}

/* One datagram judged, to_server: from a client (to the server), else from the server (policy server.judge). */
static unsigned judge_datagram(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n, double now, gdw_guard_emit_fn emit, void *ctx,
                               bool to_server) {
    judge j;
    j.g = g, j.p = p, j.emit = emit, j.ctx = ctx, j.now = now, j.actions = 0, j.commands_in = 0, j.sends = 0, j.just_held = NULL, j.header_only = false;
    j.to_server = to_server;
    g->c.datagrams_in++, g->c.bytes_in += n;
    if (p->cut) { /* its traffic is dropped; the relay keeps the address until it is idle */
        g->c.refused++;
        return 1;
    }
    if (!g->pol.checks) {
        emit(ctx, j.to_server, d, n);
        g->c.datagrams_out++, g->c.bytes_out += n;
        return 0;
    }
    gdw_enet_header h;
    gdw_error err;
    if (n > GDW_ENET_MAXIMUM_MTU || gdw_enet_read_header(d, n, &h, &err) != GDW_OK) {
        refuse(&j, "enet", 0,
               n > GDW_ENET_MAXIMUM_MTU ? "longer than ENet's 4,096-byte datagram" : "shorter than an ENet header");
        if (g->pol.encrypted == GDW_GUARD_UNREADABLE_PASS || g->pol.dry_run) emit(ctx, j.to_server, d, n), g->c.datagrams_out++, g->c.bytes_out += n;
        return j.actions;
    }
    const uint8_t *body = d + h.size;
    size_t body_len = n - h.size;
    memcpy(j.hdr_bytes, d, h.size);
    j.hdr_len = h.size;
    if (h.compressed) {
        size_t k = decompress(g, &p->compression, &p->range_found, body, body_len, j.plain, sizeof j.plain - h.size);
        if (!k) {
            refuse(&j, "compressed", h.size, "a compressed datagram the guard cannot read");
            if (g->pol.compressed == GDW_GUARD_UNREADABLE_PASS || g->pol.dry_run) emit(ctx, j.to_server, d, n), g->c.datagrams_out++, g->c.bytes_out += n;
            return j.actions;
        }
        body = j.plain, body_len = k;
        put_be16(j.hdr_bytes, (uint16_t)(be16(d) & ~0x4000)); /* forwarded plain: ENet reads either (protocol.c:1054) */
    }
    out_begin(&j);
    gdw_enet_commands it;
    gdw_enet_commands_begin(&it, body, body_len, h.size);
    gdw_enet_command c;
    int more;
    while ((more = gdw_enet_commands_next(&it, &c, &err)) == 1) {
        j.commands_in++;
        const uint8_t *raw = body + (c.offset - h.size);
        size_t raw_len = c.fields_len + c.data_len;
        msg_ctx m;
        msg_of(&j, &c, &m);
        if (c.channel != 0xFF && c.channel >= g->pol.max_channels) {
            if (c.acknowledge) {
                if (!violation(&j, "cut", "channel", &m, c.offset, "%s", "a channel past enet.max_channels")) cut_off(&j, "channel", &m, c.offset);
            } else
                violation(&j, "drop", "channel", &m, c.offset, "%s", "a channel past enet.max_channels");
            if (p->cut && !g->pol.dry_run) return j.actions;
            continue;
        }
        switch (c.kind) {
        case GDW_ENET_CONNECT:
            if (p->godot_id && p->godot_id != (int64_t)c.connect_data) { /* a new session from this address */
                session_reset(p);
                j.just_held = NULL; /* (a head this datagram gave went with the old session) */
            }
            p->godot_id = c.connect_data;
            if (c.fields_len >= 24) {
                uint32_t channels = be32(c.fields + 16);
                if (channels > g->pol.max_channels) {
                    /* ENet clamps a CONNECT's channel count to the host's limit (protocol.c enet_protocol_handle_connect) */
                    violation(&j, "drop", "channel", &m, c.offset + 16, "%s", "a CONNECT asking for more channels than enet.max_channels");
                    if (!g->pol.dry_run) continue;
                }
            }
            out_put(&j, raw, raw_len);
            break;
        case GDW_ENET_SEND_RELIABLE:
        case GDW_ENET_SEND_UNRELIABLE:
        case GDW_ENET_SEND_UNSEQUENCED:
            j.sends++;
            command_send(&j, &c, raw, raw_len);
            break;
        case GDW_ENET_SEND_FRAGMENT:
        case GDW_ENET_SEND_UNRELIABLE_FRAGMENT:
            j.sends++;
            command_fragment(&j, &c, raw, raw_len);
            break;
        default: /* acknowledgements, pings, DISCONNECT, bandwidth and throttle: ENet's own */
            out_put(&j, raw, raw_len);
            break;
        }
        if (p->cut && !g->pol.dry_run) return j.actions;
    }
    if (more < 0) { /* ENet stops at the first command it cannot read (protocol.c commandError): so does the guard */
        j.actions++;
        g->c.by_rule[rule_index("enet")]++;
        log_action(&j, "drop", "enet", NULL, err.offset, "%s", err.message);
    }
    if (g->pol.dry_run) {
        emit(ctx, j.to_server, d, n);
        g->c.datagrams_out++, g->c.bytes_out += n;
        return j.actions;
    }
    if (j.just_held && j.sends == 1 && j.actions == 0) { /* the datagram had only the head to give: kept whole */
        held_head *k = j.just_held, *w = realloc(k, sizeof *k + k->len + n);
        if (w) {
            for (held_head **q = &p->held; *q; q = &(*q)->next)
                if (*q == k) { *q = w; break; }
            memcpy(w->bytes + w->len, d, n);
            w->dgram_len = n;
            memcpy(w->hdr, j.hdr_bytes, j.hdr_len);
            w->hdr_len = j.hdr_len;
            p->held_bytes += n;
            return 0;
        }
    }
    if (j.actions == 0 && h.compressed && j.out_len - j.hdr_len == body_len && memcmp(j.out + j.hdr_len, body, body_len) == 0) {
        emit(ctx, j.to_server, d, n); /* nothing changed: the compressed datagram as it came */
        g->c.datagrams_out++, g->c.bytes_out += n;
        return 0;
    }
    if (j.actions == 0 && !h.compressed && j.out_len == n && memcmp(j.out, d, n) == 0) { /* byte for byte */
        emit(ctx, j.to_server, d, n);
        g->c.datagrams_out++, g->c.bytes_out += n;
        return 0;
    }
    j.header_only = body_len == 0;
    if (j.out_len > j.hdr_len || j.header_only) out_flush(&j);
    return j.actions;
}

unsigned gdw_guard_client(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n, double now, gdw_guard_emit_fn emit, void *ctx) {
    return judge_datagram(g, p, d, n, now, emit, ctx, true);
}

unsigned gdw_guard_from_server(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n, double now, gdw_guard_emit_fn emit, void *ctx) {
    gdw_guard_server(g, p, d, n);
    if (!g->pol.judge_server || !g->pol.checks) {
        emit(ctx, false, d, n);
        return 0;
    }
    if (!p->toward_client && !(p->toward_client = gdw_guard_peer_new(g))) return 0; /* out of memory: nothing goes on */
    p->toward_client->server_side = true;
    p->toward_client->godot_id = 1; /* the server */
    return judge_datagram(g, p->toward_client, d, n, now, emit, ctx, false);
}

void gdw_guard_server(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n) {
    g->c.server_datagrams++;
    gdw_enet_header h;
    gdw_error err;
    if (!g->pol.checks || gdw_enet_read_header(d, n, &h, &err) != GDW_OK || h.compressed) return;
    gdw_enet_commands it;
    gdw_enet_commands_begin(&it, d + h.size, n - h.size, h.size);
    gdw_enet_command c;
    while (gdw_enet_commands_next(&it, &c, &err) == 1) {
        if (c.kind == GDW_ENET_VERIFY_CONNECT && c.fields_len >= 8) {
            p->server_peer_id = be16(c.fields + 4) & 0x0FFF;
            p->session = c.fields[7] & 3; /* outgoingSessionID: the session the client's header carries */
            p->verified = true;
        }
    }
}

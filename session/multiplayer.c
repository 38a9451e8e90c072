/* SPDX-License-Identifier: MIT
 * multiplayer.c — one multiplayer packet (gdw_mp_parse): the command byte through a table per engine
 * generation, one short function per command. Layouts read from Godot 4.3-stable
 * (TriggerCoder/TurboDot3D@21dd2992, which 4.6.3 sessions confirm: capture_test):
 *   modules/multiplayer/scene_multiplayer.cpp   the command byte, SYS (auth, peers, relay), RAW
 *   modules/multiplayer/scene_rpc_interface.cpp RPC (process_rpc, _send_rpc)
 *   modules/multiplayer/scene_cache_interface.cpp  SIMPLIFY_PATH, CONFIRM_PATH (6 bytes since 4.3)
 *   modules/multiplayer/scene_replication_interface.cpp  SPAWN, DESPAWN, SYNC, delta SYNC
 *   scene/main/multiplayer_api.cpp              the compressed Variants (BOOL and INT in 1 + n bytes)
 * and Godot 3's MultiplayerAPI, from Godot 3.2-stable (mehdigoom/ValjangEngine4.0.x@4e7d75cc, held against
 * 3.2.3 and 3.6.2 sessions): core/io/multiplayer_api.cpp (_process_packet, _process_get_node,
 * _process_rpc, _process_rset, _process_simplify_path, _process_confirm_path, _send_rpc).
 * Every multi-byte field is little-endian. Every byte is read through reader.h. */
#include "session.h"

#include <string.h>

const char *gdw_mp_command_name(gdw_mp_command c) {
    static const char *const names[GDW_MP_COMMAND_COUNT] = {
        "rpc", "simplify_path", "confirm_path", "raw", "spawn", "despawn", "sync", "sys", "delta", "auth", "add_peer", "del_peer", "relay", "rset", "var"};
    return (unsigned)c < GDW_MP_COMMAND_COUNT ? names[c] : "?";
}

int gdw_mp_command_from_name(const char *name) {
    for (int c = 0; name && c < GDW_MP_COMMAND_COUNT; c++)
        if (strcmp(name, gdw_mp_command_name((gdw_mp_command)c)) == 0) return c;
    return -1;
}

const char *gdw_mp_encoding_name(gdw_mp_encoding e) {
    switch (e) {
    case GDW_MP_VARIANT: return "Variant";
    case GDW_MP_COMPACT_BOOL: return "compact bool";
    case GDW_MP_COMPACT_INT: return "compact int";
    case GDW_MP_BARE_BYTES: return "bare bytes";
    }
    return "?";
}

/* One parse: the packet, the dialect its Variants are in, and what it fills. */
typedef struct mp_parse {
    reader pkt; /* the whole packet (offsets in problems are its bytes) */
    uint8_t meta;
    const gdw_dialect *d;
    const gdw_decode_options *opts;
    gdw_mp_parsed *out;
    gdw_error *err;
    bool nomem; /* a value's room could not be had: the parse says GDW_ERR_NOMEM */
} mp_parse;

static gdw_status fail(gdw_error *err, gdw_status code, size_t offset, const char *message) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = code;
        err->offset = offset;
        err->value_offset = offset;
        err->engine_error = GDW_ENGINE_ERR_INVALID_DATA;
        err->message = message;
    }
    return code;
}

/* A path as the engine reads it (String::parse_utf8 of the rest of the packet): from `at` up to its
 * NUL, or, when the packet ends without one, all of the rest, copied with a NUL so that every path handed
 * out is a C string. false only when memory runs out. */
static bool take_path(mp_parse *c, size_t at, const char **path, size_t *path_len) {
    reader r;
    if (!rd_span(&c->pkt, at, c->pkt.len, &r)) return false;
    size_t n;
    if (rd_find_nul(&r, &n)) {
        *path = (const char *)rd_here(&r), *path_len = n;
        return true;
    }
    n = rd_left(&r);
    gdw_mp_parsed *out = c->out;
    char *copy = gdw_session_alloc(out->alloc, n + 1);
    if (!copy) return false;
    if (n) memcpy(copy, rd_here(&r), n);
    copy[n] = 0;
    out->owned_path = copy, out->owned_len = n + 1;
    *path = copy, *path_len = n;
    return true;
}

/* Room for one more value in the parse's own array (it doubles, up to GDW_MP_MAX_VALUES); NULL past that
 * or when memory runs out. */
static gdw_mp_value *new_value(mp_parse *c, const char *label, unsigned index, uint32_t net_id, uint64_t indexes, size_t offset) {
    gdw_mp_parsed *p = c->out;
    if (p->value_count >= GDW_MP_MAX_VALUES) return NULL;
    if (p->value_count == p->store_cap) {
        size_t cap = p->store_cap ? p->store_cap * 2 : 4;
        gdw_mp_value *grown = gdw_session_alloc(p->alloc, cap * sizeof *grown);
        if (!grown) {
            c->nomem = true;
            return NULL;
        }
        if (p->value_count) memcpy(grown, p->store, p->value_count * sizeof *grown);
        gdw_session_release(p->alloc, p->store, p->store_cap * sizeof *p->store);
        p->store = grown, p->store_cap = cap;
    }
    gdw_mp_value *v = &p->store[p->value_count++];
    memset(v, 0, sizeof *v);
    v->label = label, v->index = index, v->net_id = net_id, v->indexes = indexes, v->offset = offset;
    p->values = p->store;
    return v;
}

/* A Variant of the dialect at the start of bytes, into v; the bytes it took (0: it did not decode). */
static size_t decode_variant(mp_parse *c, const uint8_t *bytes, size_t n, gdw_mp_value *v) {
    size_t consumed = 0;
    gdw_decode_options o = *c->opts;
    o.allow_trailing = true; /* the next value follows */
    v->status = gdw_decode(c->d, bytes, n, &o, c->out->alloc, &v->doc, &consumed, &v->error);
    if (v->status != GDW_OK) return 0;
    v->value = gdw_doc_root(v->doc);
    return consumed;
}

/* One compressed Variant (MultiplayerAPI::decode_and_decompress_variant) at the start of r: BOOL is
 * one byte (bit 7 the value), INT a byte and 1, 2, 4 or 8 bytes (bits 6-7), any other type a
 * plain Variant of the dialect. BOOL and INT are rewritten as the plain Variant they stand for,
 * so every value comes from gdw_decode. Returns the bytes it took (0 when it failed). */
static size_t decode_compressed(mp_parse *c, reader r, gdw_mp_value *v) {
    v->encoding = GDW_MP_VARIANT;
    uint8_t meta;
    if (!rd_peek_u8(&r, &meta) || ((meta & 0x3F) != 1 && (meta & 0x3F) != 2)) return decode_variant(c, rd_here(&r), rd_left(&r), v);
    rd_skip(&r, 1);
    uint8_t plain[12] = {0};
    size_t plain_len = 8;
    if ((meta & 0x3F) == 1) { /* BOOL */
        v->encoding = GDW_MP_COMPACT_BOOL;
        plain[0] = 1;
        plain[4] = (meta & 0x80) ? 1 : 0;
        return decode_variant(c, plain, plain_len, v) ? 1 : 0;
    }
    static const size_t widths[4] = {1, 2, 4, 8}; /* INT */
    size_t w = widths[meta >> 6];
    v->encoding = GDW_MP_COMPACT_INT;
    uint64_t u;
    if (!rd_uint(&r, w, false, &u)) {
        v->status = fail(&v->error, GDW_ERR_TRUNCATED, r.len, "a compressed int ends after its meta byte");
        return 0;
    }
    if (w < 8 && (u >> (8 * w - 1)) & 1) u |= ~(uint64_t)0 << (8 * w); /* sign-extend */
    int64_t x = (int64_t)u;
    plain[0] = 2;
    size_t width = 4;
    if (x < INT32_MIN || x > INT32_MAX) plain[2] = 1, width = 8, plain_len = 12; /* ENCODE_FLAG_64 */
    for (size_t i = 0; i < width; i++) plain[4 + i] = (uint8_t)(u >> (8 * i));
    return decode_variant(c, plain, plain_len, v) ? 1 + w : 0;
}

/* Variants one after another over r, as the replication and RPC readers take them
 * (decode_and_decompress_variants): at most max_count, the count from the bytes. A value that does not
 * decode ends the run (the rest cannot be told apart) and holds the rest. Returns how many were read. */
static size_t decode_run(mp_parse *c, reader r, bool compressed, const char *label, uint32_t net_id, uint64_t indexes, size_t max_count) {
    unsigned index = 0;
    while (rd_left(&r) && index < max_count) {
        gdw_mp_value *v = new_value(c, label, index, net_id, indexes, rd_at(&r));
        if (!v) break;
        index++;
        size_t took = compressed ? decode_compressed(c, r, v) : decode_variant(c, rd_here(&r), rd_left(&r), v);
        v->length = took ? took : rd_left(&r);
        if (!took) break;
        rd_skip(&r, took);
    }
    return index;
}

/* ---- Godot 4's SceneMultiplayer: the command in the first byte's low 3 bits, flags above ---------------- */

static gdw_status scene4_rpc(mp_parse *c, reader *r) {
    gdw_mp_parsed *out = c->out;
    out->as.rpc.node_id = -1, out->as.rpc.method_id = -1;
    static const unsigned node_widths[4] = {1, 2, 4, 0};
    unsigned nw = node_widths[(c->meta >> 4) & 3];
    if (!nw) return fail(c->err, GDW_ERR_BAD_VALUE, 0, "RPC: node id compression 3 is not a width");
    uint64_t node, method;
    if (!rd_uint(r, nw, false, &node)) return fail(c->err, GDW_ERR_TRUNCATED, rd_at(r), "RPC: the packet ends inside the node id");
    if (!rd_uint(r, (c->meta >> 6) & 1 ? 2 : 1, false, &method))
        return fail(c->err, GDW_ERR_TRUNCATED, rd_at(r), "RPC: the packet ends inside the method id");
    out->as.rpc.method_id = (int)method;
    size_t end = r->len;
    if (nw == 4 && (node & 0x80000000u)) {
        /* the path follows the arguments: the id's low bits are where it starts */
        size_t at = (size_t)(node & 0x7FFFFFFFu);
        if (at >= r->len || at < r->pos) return fail(c->err, GDW_ERR_BAD_VALUE, 1, "RPC: the inline path's offset is outside the packet");
        if (!take_path(c, at, &out->as.rpc.path, &out->as.rpc.path_len))
            return fail(c->err, GDW_ERR_NOMEM, at, "RPC: out of memory for its path");
        end = at;
    } else {
        out->as.rpc.node_id = (int64_t)node;
    }
    reader args;
    rd_span(r, r->pos, end, &args);
    if (c->meta & 0x80) {
        /* byte_only_or_no_args: nothing, or one PackedByteArray with no header */
        if (!rd_left(&args)) return GDW_OK;
        gdw_mp_value *v = new_value(c, "arg", 0, 0, 0, rd_at(&args));
        if (!v) return GDW_OK;
        v->length = rd_left(&args);
        v->encoding = GDW_MP_BARE_BYTES;
        gdw_builder *b = gdw_builder_new(out->alloc);
        gdw_build_packed_bytes(b, rd_here(&args), rd_left(&args));
        v->status = gdw_build_finish(b, &v->doc, &v->error);
        gdw_builder_free(b);
        if (v->doc) v->value = gdw_doc_root(v->doc);
        return GDW_OK;
    }
    uint8_t argc;
    if (!rd_u8(&args, &argc)) return fail(c->err, GDW_ERR_TRUNCATED, rd_at(&args), "RPC: the packet ends before the argument count");
    size_t got = decode_run(c, args, true, "arg", 0, 0, argc);
    if (got < argc && !c->nomem && (out->value_count == 0 || out->values[out->value_count - 1].status == GDW_OK))
        return fail(c->err, GDW_ERR_TRUNCATED, end, "RPC: fewer arguments than its count says");
    return GDW_OK;
}

static gdw_status scene4_simplify_path(mp_parse *c, reader *r) {
    /* md5 (32 hex digits and a NUL), the cache id, the path */
    gdw_mp_parsed *out = c->out;
    out->as.path.checksum_valid = -1;
    const uint8_t *md5 = NULL;
    uint32_t id = 0;
    if (rd_left(r) < 37) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "SIMPLIFY_PATH: shorter than 38 bytes");
    rd_bytes(r, 32, &md5), rd_skip(r, 1), rd_le32(r, &id);
    memcpy(out->as.path.md5, md5, 32);
    out->as.path.md5[32] = 0;
    out->as.path.node_id = id;
    if (!take_path(c, r->pos, &out->as.path.path, &out->as.path.path_len))
        return fail(c->err, GDW_ERR_NOMEM, r->pos, "SIMPLIFY_PATH: out of memory for its path");
    return GDW_OK;
}

static gdw_status scene4_confirm_path(mp_parse *c, reader *r) {
    /* 4.3+: valid flag, cache id: exactly 6 bytes */
    uint8_t valid = 0;
    uint32_t id = 0;
    if (r->len != 6)
        return fail(c->err, r->len < 6 ? GDW_ERR_TRUNCATED : GDW_ERR_BAD_LENGTH, r->len < 6 ? r->len : 6,
                    "CONFIRM_PATH: not 6 bytes (4.0-4.2 confirmed by path: not read)");
    rd_u8(r, &valid), rd_le32(r, &id);
    c->out->as.path.checksum_valid = valid != 0;
    c->out->as.path.node_id = id;
    return GDW_OK;
}

static gdw_status raw(mp_parse *c, reader *r) {
    c->out->as.raw.payload = rd_here(r), c->out->as.raw.payload_len = rd_left(r);
    return GDW_OK;
}

static gdw_status scene4_spawn(mp_parse *c, reader *r) {
    gdw_mp_parsed *out = c->out;
    uint8_t scene = 0;
    uint32_t spawner = 0, net = 0, sync_count = 0, name_len = 0, arg_size = 0;
    if (r->len < 18) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "SPAWN: shorter than 18 bytes");
    rd_u8(r, &scene), rd_le32(r, &spawner), rd_le32(r, &net), rd_le32(r, &sync_count), rd_le32(r, &name_len);
    out->as.spawn.scene_id = scene, out->as.spawn.spawner_id = spawner, out->as.spawn.net_id = net;
    if ((uint64_t)sync_count * 4 + name_len > rd_left(r))
        return fail(c->err, GDW_ERR_BAD_LENGTH, 14, "SPAWN: its synchronizer count and name length pass the end");
    if (name_len < 1) return fail(c->err, GDW_ERR_BAD_LENGTH, 14, "SPAWN: a name of no bytes");
    const uint8_t *name = NULL;
    rd_skip(r, (size_t)sync_count * 4), rd_bytes(r, name_len, &name);
    out->as.spawn.name = (const char *)name;
    out->as.spawn.name_len = name[name_len - 1] == 0 ? name_len - 1 : name_len;
    if (scene == 0xFF) { /* a custom spawn: its argument, sized */
        reader arg;
        if (!rd_le32(r, &arg_size))
            return fail(c->err, GDW_ERR_TRUNCATED, rd_at(r), "SPAWN: the packet ends before the custom argument's size");
        if (!rd_child(r, arg_size, &arg))
            return fail(c->err, GDW_ERR_BAD_LENGTH, rd_at(r) - 4, "SPAWN: the custom argument's size passes the end");
        decode_run(c, arg, true, "spawn_arg", 0, 0, 1);
    }
    decode_run(c, rd_rest(r), true, "spawn_state", 0, 0, GDW_MP_MAX_VALUES);
    return GDW_OK;
}

static gdw_status scene4_despawn(mp_parse *c, reader *r) {
    uint32_t net;
    if (!rd_le32(r, &net)) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "DESPAWN: shorter than 5 bytes");
    c->out->as.despawn.net_id = net;
    return GDW_OK;
}

/* A synchronizer's states: {net id, [property mask,] size, state} while a whole header fits (on_sync_receive,
 * on_delta_receive). */
static gdw_status sync_states(mp_parse *c, reader *r, bool delta) {
    size_t head = delta ? 16 : 8;
    while (rd_left(r) > head) {
        uint32_t net = 0, size = 0;
        uint64_t indexes = 0;
        rd_le32(r, &net);
        if (delta) rd_le64(r, &indexes);
        size_t at = rd_at(r);
        rd_le32(r, &size);
        reader state;
        if (!rd_child(r, size, &state))
            return fail(c->err, GDW_ERR_BAD_LENGTH, at, delta ? "delta SYNC: a state's size passes the end" : "SYNC: a state's size passes the end");
        decode_run(c, state, true, "state", net, indexes, GDW_MP_MAX_VALUES);
    }
    return GDW_OK;
}

static gdw_status scene4_sync(mp_parse *c, reader *r) {
    if (c->meta & 0x10) {
        c->out->command = GDW_MP_DELTA;
        return sync_states(c, r, true);
    }
    uint16_t time = 0;
    if (r->len < 11) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "SYNC: shorter than 11 bytes");
    rd_le16(r, &time);
    c->out->as.sync.time = time;
    return sync_states(c, r, false);
}

static gdw_status scene4_sys(mp_parse *c, reader *r) {
    static const gdw_mp_command sub[4] = {GDW_MP_SYS_AUTH, GDW_MP_SYS_ADD_PEER, GDW_MP_SYS_DEL_PEER, GDW_MP_SYS_RELAY};
    uint8_t sys;
    uint32_t peer = 0;
    if (!rd_u8(r, &sys)) return fail(c->err, GDW_ERR_TRUNCATED, 1, "SYS: no sub-command");
    if (sys > 3) return fail(c->err, GDW_ERR_BAD_VALUE, 1, "SYS: sub-command past 3");
    if (sys != 0 && !rd_le32(r, &peer)) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "SYS: shorter than 6 bytes"); /* AUTH has no peer */
    c->out->command = sub[sys];
    c->out->as.sys.peer = (int32_t)peer;
    c->out->as.sys.payload = rd_here(r), c->out->as.sys.payload_len = rd_left(r);
    return GDW_OK;
}

/* ---- Godot 3's MultiplayerAPI: the whole first byte is the command --------------------------------------- */

/* A call or set (REMOTE_CALL, REMOTE_SET): a path-cache id (bit 31: the path follows the values, at the offset
 * the low bits give), the method's or property's name up to its NUL, then the argument count and the
 * arguments, or the one value. */
static gdw_status api3_call(mp_parse *c, reader *r) {
    gdw_mp_parsed *out = c->out;
    out->as.rpc.node_id = -1, out->as.rpc.method_id = -1;
    uint32_t u = 0;
    size_t name_len = 0;
    if (r->len < 6) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "a call or set shorter than 6 bytes");
    rd_le32(r, &u);
    if (!rd_find_nul(r, &name_len)) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "the method's name has no end (NUL)");
    out->as.rpc.method = (const char *)rd_here(r), out->as.rpc.method_len = name_len;
    rd_skip(r, name_len + 1);
    size_t end = r->len;
    if (u & 0x80000000u) {
        size_t at = u & 0x7FFFFFFFu;
        if (at >= r->len || at < r->pos) return fail(c->err, GDW_ERR_BAD_VALUE, 1, "the inline path's offset is outside the packet");
        if (!take_path(c, at, &out->as.rpc.path, &out->as.rpc.path_len)) return fail(c->err, GDW_ERR_NOMEM, at, "out of memory for its path");
        end = at;
    } else {
        out->as.rpc.node_id = u;
    }
    reader args;
    rd_span(r, r->pos, end, &args);
    if (out->command == GDW_MP_RSET) {
        decode_run(c, args, false, "arg", 0, 0, 1);
        if (!out->value_count && !c->nomem) return fail(c->err, GDW_ERR_TRUNCATED, rd_at(&args), "a set without its value");
        return GDW_OK;
    }
    uint8_t argc;
    if (!rd_u8(&args, &argc)) return fail(c->err, GDW_ERR_TRUNCATED, rd_at(&args), "a call without its argument count");
    size_t got = decode_run(c, args, false, "arg", 0, 0, argc);
    if (got < argc && !c->nomem && (out->value_count == 0 || out->values[out->value_count - 1].status == GDW_OK))
        return fail(c->err, GDW_ERR_TRUNCATED, end, "fewer arguments than its count says");
    return GDW_OK;
}

static gdw_status api3_simplify_path(mp_parse *c, reader *r) {
    uint32_t id;
    c->out->as.path.checksum_valid = -1;
    if (!rd_le32(r, &id)) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "SIMPLIFY_PATH shorter than 5 bytes");
    c->out->as.path.node_id = id;
    if (!take_path(c, r->pos, &c->out->as.path.path, &c->out->as.path.path_len))
        return fail(c->err, GDW_ERR_NOMEM, r->pos, "out of memory for its path");
    return GDW_OK;
}

static gdw_status api3_confirm_path(mp_parse *c, reader *r) {
    c->out->as.path.node_id = -1, c->out->as.path.checksum_valid = -1;
    if (r->len < 2) return fail(c->err, GDW_ERR_TRUNCATED, r->len, "CONFIRM_PATH shorter than 2 bytes");
    if (!take_path(c, r->pos, &c->out->as.path.path, &c->out->as.path.path_len))
        return fail(c->err, GDW_ERR_NOMEM, r->pos, "out of memory for its path");
    return GDW_OK;
}

/* ---- the generations: which table a layer's command byte indexes ---------------------------------------- */

typedef struct mp_command_rule {
    gdw_mp_command command;
    gdw_status (*parse)(mp_parse *c, reader *r); /* r: the packet, after its command byte */
} mp_command_rule;

static const mp_command_rule k_scene4_commands[8] = {
    {GDW_MP_RPC, scene4_rpc},           {GDW_MP_SIMPLIFY_PATH, scene4_simplify_path}, {GDW_MP_CONFIRM_PATH, scene4_confirm_path},
    {GDW_MP_RAW, raw},                  {GDW_MP_SPAWN, scene4_spawn},                 {GDW_MP_DESPAWN, scene4_despawn},
    {GDW_MP_SYNC, scene4_sync},         {GDW_MP_SYS, scene4_sys},
};

static const mp_command_rule k_api3_commands[5] = {
    {GDW_MP_RPC, api3_call}, {GDW_MP_RSET, api3_call}, {GDW_MP_SIMPLIFY_PATH, api3_simplify_path}, {GDW_MP_CONFIRM_PATH, api3_confirm_path},
    {GDW_MP_RAW, raw},
};

typedef struct mp_generation {
    gdw_multiplayer layer;     /* the dialect table's rule "multiplayer" */
    uint8_t command_bits;      /* the bits of the first byte that are the command (the rest are flags) */
    const mp_command_rule *commands;
    size_t count;
    const char *past_commands; /* the problem of a command byte past the table */
} mp_generation;

static const mp_generation k_generations[] = {
    {GDW_MULTIPLAYER_SCENE4, 0x07, k_scene4_commands, 8, "unreachable"},
    {GDW_MULTIPLAYER_API3, 0xFF, k_api3_commands, 5, "Godot 3 has commands 0-4 only"},
};

gdw_status gdw_mp_parse(const uint8_t *pkt, size_t len, const gdw_dialect *d, const gdw_decode_options *opts,
                        const gdw_allocator *alloc, gdw_mp_parsed *out, gdw_error *err) {
    if (!out) return fail(err, GDW_ERR_INVALID_ARG, 0, "no output");
    memset(out, 0, sizeof *out);
    out->alloc = alloc;
    return gdw_mp_parse_into(pkt, len, d, opts, out, err);
}

gdw_status gdw_mp_parse_into(const uint8_t *pkt, size_t len, const gdw_dialect *d, const gdw_decode_options *opts, gdw_mp_parsed *out,
                             gdw_error *err) {
    if (!out) return fail(err, GDW_ERR_INVALID_ARG, 0, "no output");
    gdw_mp_parsed_clear(out);
    if (!pkt && len) return fail(err, GDW_ERR_INVALID_ARG, 0, "no packet");
    if (!d) d = gdw_godot_dialect_of(GDW_MULTIPLAYER_SCENE4);
    gdw_decode_options dflt = gdw_decode_options_default();
    dflt.allow_objects = true;
    mp_parse c = {rd_view(pkt, len, 0), 0, d, opts ? opts : &dflt, out, err, false};
    const mp_generation *g = NULL;
    for (size_t i = 0; i < sizeof k_generations / sizeof *k_generations; i++)
        if (k_generations[i].layer == gdw_session_layer(d)) g = &k_generations[i];
    if (!g) return fail(err, GDW_ERR_INVALID_ARG, 0, "the multiplayer layer of this dialect's engines is not read yet (gdw_multiplayer)");
    reader r = c.pkt;
    if (!rd_u8(&r, &c.meta)) return fail(err, GDW_ERR_TRUNCATED, 0, "an empty packet: no command byte");
    out->meta = c.meta;
    unsigned k = c.meta & g->command_bits;
    if (k >= g->count) return fail(err, GDW_ERR_BAD_VALUE, 0, g->past_commands);
    out->command = g->commands[k].command;
    gdw_status st = g->commands[k].parse(&c, &r);
    if (st == GDW_OK && c.nomem) return fail(err, GDW_ERR_NOMEM, 0, "out of memory for its values");
    return st;
}

gdw_status gdw_mp_parse_var(const uint8_t *bytes, size_t len, const gdw_dialect *d, const gdw_decode_options *opts, gdw_mp_parsed *out) {
    gdw_decode_options dflt = gdw_session_options_default().decode; /* NULL: as a session decodes (compatible, objects allowed) */
    if (!opts) opts = &dflt;
    gdw_mp_parsed_clear(out);
    out->command = GDW_MP_VAR;
    mp_parse c = {rd_view(bytes, len, 0), 0, d, opts, out, NULL, false};
    gdw_mp_value *v = new_value(&c, "value", 0, 0, 0, 0);
    if (!v) return GDW_ERR_NOMEM;
    size_t took = decode_variant(&c, bytes, len, v);
    v->length = took ? took : len;
    return GDW_OK;
}

void gdw_mp_parsed_clear(gdw_mp_parsed *p) {
    for (size_t i = 0; i < p->value_count; i++) gdw_doc_free(p->store[i].doc);
    gdw_session_release(p->alloc, p->owned_path, p->owned_len);
    gdw_mp_value *store = p->store;
    size_t cap = p->store_cap;
    const gdw_allocator *alloc = p->alloc;
    memset(p, 0, sizeof *p);
    p->store = store, p->store_cap = cap, p->alloc = alloc;
}

void gdw_mp_parsed_free(gdw_mp_parsed *p) {
    if (!p) return;
    gdw_mp_parsed_clear(p);
    gdw_session_release(p->alloc, p->store, p->store_cap * sizeof *p->store);
    p->store = NULL, p->store_cap = 0;
}

const char *gdw_mp_parsed_path(const gdw_mp_parsed *p, size_t *len) {
    const char *path = NULL;
    size_t n = 0;
    if (p && (p->command == GDW_MP_RPC || p->command == GDW_MP_RSET)) path = p->as.rpc.path, n = p->as.rpc.path_len;
    else if (p && (p->command == GDW_MP_SIMPLIFY_PATH || p->command == GDW_MP_CONFIRM_PATH)) path = p->as.path.path, n = p->as.path.path_len;
    if (len) *len = path ? n : 0;
    return path;
}

int64_t gdw_mp_parsed_cache_id(const gdw_mp_parsed *p) {
    if (!p) return -1;
    switch (p->command) {
    case GDW_MP_RPC:
    case GDW_MP_RSET: return p->as.rpc.node_id;
    case GDW_MP_SIMPLIFY_PATH:
    case GDW_MP_CONFIRM_PATH: return p->as.path.node_id;
    case GDW_MP_SPAWN: return p->as.spawn.spawner_id;
    default: return -1;
    }
}

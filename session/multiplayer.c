/* SPDX-License-Identifier: MIT
 * multiplayer.c — one Godot 4 SceneMultiplayer packet (gdw_mp_parse). Layouts read from Godot
 * 4.3-stable (TriggerCoder/TurboDot3D@21dd2992, which 4.6.3 sessions confirm: capture_test):
 *   modules/multiplayer/scene_multiplayer.cpp   the command byte, SYS (auth, peers, relay), RAW
 *   modules/multiplayer/scene_rpc_interface.cpp RPC (process_rpc, _send_rpc)
 *   modules/multiplayer/scene_cache_interface.cpp  SIMPLIFY_PATH, CONFIRM_PATH (6 bytes since 4.3)
 *   modules/multiplayer/scene_replication_interface.cpp  SPAWN, DESPAWN, SYNC, delta SYNC
 *   scene/main/multiplayer_api.cpp              the compressed Variants (BOOL and INT in 1 + n bytes)
 * and Godot 3's MultiplayerAPI, from Godot 3.2-stable (mehdigoom/ValjangEngine4.0.x@4e7d75cc, held against
 * 3.2.3 and 3.6.2 sessions): core/io/multiplayer_api.cpp (_process_packet, _process_get_node,
 * _process_rpc, _process_rset, _process_simplify_path, _process_confirm_path, _send_rpc).
 * Every multi-byte field is little-endian. */
#include "session.h"

#include <string.h>

const char *gdw_mp_command_name(gdw_mp_command c) {
    static const char *const names[GDW_MP_COMMAND_COUNT] = {
        "rpc", "simplify_path", "confirm_path", "raw", "spawn", "despawn", "sync", "sys", "delta", "auth", "add_peer", "del_peer", "relay", "rset"};
    return (unsigned)c < GDW_MP_COMMAND_COUNT ? names[c] : "?";
}

int gdw_mp_command_from_name(const char *name) {
    for (int c = 0; name && c < GDW_MP_COMMAND_COUNT; c++)
        if (strcmp(name, gdw_mp_command_name((gdw_mp_command)c)) == 0) return c;
    return -1;
}

/* The one cursor every field of a packet is read through: it advances only on success. */
typedef struct mp_cursor {
    const uint8_t *p;
    size_t len, pos;
} mp_cursor;

static bool mp_u8(mp_cursor *c, uint32_t *v) {
    if (c->len - c->pos < 1) return false;
    *v = c->p[c->pos++];
    return true;
}

static bool mp_u16(mp_cursor *c, uint32_t *v) {
    if (c->len - c->pos < 2) return false;
    *v = (uint32_t)c->p[c->pos] | (uint32_t)c->p[c->pos + 1] << 8;
    c->pos += 2;
    return true;
}

static bool mp_u32(mp_cursor *c, uint32_t *v) {
    if (c->len - c->pos < 4) return false;
    *v = gdw_session_le32(c->p + c->pos);
    c->pos += 4;
    return true;
}

static bool mp_u64(mp_cursor *c, uint64_t *v) {
    if (c->len - c->pos < 8) return false;
    *v = (uint64_t)gdw_session_le32(c->p + c->pos) | (uint64_t)gdw_session_le32(c->p + c->pos + 4) << 32;
    c->pos += 8;
    return true;
}

/* A path as the engine reads it (String::parse_utf8 of the rest of the packet): up to its NUL, or,
 * when the packet ends without one, all of the rest, copied with a NUL so that every path handed
 * out is a C string. false only when memory runs out. */
static bool mp_path(gdw_mp_parsed *out, const uint8_t *pkt, size_t len, size_t at) {
    const uint8_t *nul = memchr(pkt + at, 0, len - at);
    if (nul) {
        out->path = (const char *)(pkt + at);
        out->path_len = (size_t)(nul - (pkt + at));
        return true;
    }
    size_t n = len - at;
    char *copy = out->alloc ? out->alloc->malloc_fn(out->alloc->ctx, n + 1) : malloc(n + 1);
    if (!copy) return false;
    memcpy(copy, pkt + at, n);
    copy[n] = 0;
    out->owned_path = copy;
    out->path = copy;
    out->path_len = n;
    return true;
}

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

const char *gdw_mp_encoding_name(gdw_mp_encoding e) {
    switch (e) {
    case GDW_MP_VARIANT: return "Variant";
    case GDW_MP_COMPACT_BOOL: return "compact bool";
    case GDW_MP_COMPACT_INT: return "compact int";
    case GDW_MP_BARE_BYTES: return "bare bytes";
    }
    return "?";
}

/* One compressed Variant (MultiplayerAPI::decode_and_decompress_variant) at buf[0..len): BOOL is
 * one byte (bit 7 the value), INT a byte and 1, 2, 4 or 8 bytes (bits 6-7), any other type a
 * plain Variant of the dialect. BOOL and INT are rewritten as the plain Variant they stand for,
 * so every value comes from gdw_decode. Returns the bytes it took (0 when it failed). */
static size_t decode_compressed(gdw_mp_parsed *p, const uint8_t *buf, size_t len, const gdw_dialect *d,
                                const gdw_decode_options *opts, const gdw_allocator *alloc, gdw_mp_value *v) {
    v->value = NULL;
    v->status = GDW_OK;
    v->encoding = GDW_MP_VARIANT;
    memset(&v->error, 0, sizeof v->error);
    uint8_t plain[12];
    const uint8_t *src = buf;
    size_t src_len = len, took = 0;
    if (len >= 1 && (buf[0] & 0x3F) == 1) { /* BOOL */
        memset(plain, 0, 8);
        plain[0] = 1;
        plain[4] = (buf[0] & 0x80) ? 1 : 0;
        src = plain, src_len = 8, took = 1;
        v->encoding = GDW_MP_COMPACT_BOOL;
    } else if (len >= 1 && (buf[0] & 0x3F) == 2) { /* INT */
        static const size_t widths[4] = {1, 2, 4, 8};
        size_t w = widths[buf[0] >> 6];
        v->encoding = GDW_MP_COMPACT_INT;
        if (len - 1 < w) {
            v->status = fail(&v->error, GDW_ERR_TRUNCATED, len, "a compressed int ends after its meta byte");
            return 0;
        }
        uint64_t u = 0;
        for (size_t i = 0; i < w; i++) u |= (uint64_t)buf[1 + i] << (8 * i);
        if (w < 8 && (u >> (8 * w - 1)) & 1) u |= ~(uint64_t)0 << (8 * w); /* sign-extend */
        int64_t x = (int64_t)u;
        memset(plain, 0, sizeof plain);
        plain[0] = 2;
        if (x >= INT32_MIN && x <= INT32_MAX) {
            for (int i = 0; i < 4; i++) plain[4 + i] = (uint8_t)(u >> (8 * i));
            src_len = 8;
        } else {
            plain[2] = 1; /* ENCODE_FLAG_64 */
            for (int i = 0; i < 8; i++) plain[4 + i] = (uint8_t)(u >> (8 * i));
            src_len = 12;
        }
        src = plain, took = 1 + w;
    }
    gdw_doc *doc = NULL;
    size_t consumed = 0;
    gdw_decode_options o = *opts;
    o.allow_trailing = true; /* the next value follows */
    gdw_status st = gdw_decode(d, src, src_len, &o, alloc, &doc, &consumed, &v->error);
    if (st != GDW_OK) {
        v->status = st;
        return 0;
    }
    if (p->doc_count < GDW_MP_MAX_VALUES) p->docs[p->doc_count++] = doc;
    v->value = gdw_doc_root(doc);
    return took ? took : consumed;
}

/* Variants one after another over buf[from..to), as the replication and RPC readers take them
 * (decode_and_decompress_variants): the count comes from the bytes. */
static gdw_mp_value *new_value(gdw_mp_parsed *p, const char *label, unsigned index, uint32_t net_id, uint64_t indexes,
                               size_t offset) {
    gdw_mp_value *v = &p->values[p->value_count++];
    memset(v, 0, sizeof *v);
    v->label = label, v->index = index, v->net_id = net_id, v->indexes = indexes, v->offset = offset;
    return v;
}

static void decode_run(gdw_mp_parsed *p, const uint8_t *pkt, size_t from, size_t to, const char *label, uint32_t net_id,
                       uint64_t indexes, size_t max_count, const gdw_dialect *d, const gdw_decode_options *opts,
                       const gdw_allocator *alloc) {
    unsigned index = 0;
    while (from < to && index < max_count && p->value_count < GDW_MP_MAX_VALUES) {
        gdw_mp_value *v = new_value(p, label, index++, net_id, indexes, from);
        size_t took = decode_compressed(p, pkt + from, to - from, d, opts, alloc, v);
        v->length = took ? took : to - from;
        if (!took) return; /* the rest cannot be told apart */
        from += took;
    }
}

/* Plain Variants one after another (Godot 3 RPC arguments): at most max_count, over buf[from..to). */
static size_t decode_plain_run(gdw_mp_parsed *p, const uint8_t *pkt, size_t from, size_t to, const char *label, size_t max_count,
                               const gdw_dialect *d, const gdw_decode_options *opts, const gdw_allocator *alloc) {
    unsigned index = 0;
    while (from < to && index < max_count && p->value_count < GDW_MP_MAX_VALUES) {
        gdw_mp_value *v = new_value(p, label, index++, 0, 0, from);
        gdw_doc *doc = NULL;
        size_t consumed = 0;
        gdw_decode_options o = *opts;
        o.allow_trailing = true;
        v->status = gdw_decode(d, pkt + from, to - from, &o, alloc, &doc, &consumed, &v->error);
        if (v->status != GDW_OK) {
            v->length = to - from;
            return index;
        }
        p->docs[p->doc_count++] = doc;
        v->value = gdw_doc_root(doc);
        v->length = consumed;
        from += consumed;
    }
    return index;
}

/* Godot 3's MultiplayerAPI packet: the whole first byte is the command (REMOTE_CALL 0, REMOTE_SET 1,
 * SIMPLIFY_PATH 2, CONFIRM_PATH 3, RAW 4); a call or set names its node by a path-cache id (bit 31:
 * the path follows the values, at the offset the low bits give) and its method or property by name. */
static gdw_status parse_api3(const uint8_t *pkt, size_t len, const gdw_dialect *d, const gdw_decode_options *opts,
                             const gdw_allocator *alloc, gdw_mp_parsed *out, gdw_error *err) {
    static const gdw_mp_command commands[5] = {GDW_MP_RPC, GDW_MP_RSET, GDW_MP_SIMPLIFY_PATH, GDW_MP_CONFIRM_PATH, GDW_MP_RAW};
    if (len < 1) return fail(err, GDW_ERR_TRUNCATED, 0, "an empty packet: no command byte");
    if (pkt[0] > 4) return fail(err, GDW_ERR_BAD_VALUE, 0, "Godot 3 has commands 0-4 only");
    out->command = commands[pkt[0]];
    mp_cursor c = {pkt, len, 1};
    uint32_t u;
    switch (out->command) {
    case GDW_MP_RPC:
    case GDW_MP_RSET: {
        if (len < 6) return fail(err, GDW_ERR_TRUNCATED, len, "a call or set shorter than 6 bytes");
        mp_u32(&c, &u);
        const uint8_t *nul = memchr(pkt + 5, 0, len - 5);
        if (!nul) return fail(err, GDW_ERR_TRUNCATED, len, "the method's name has no end (NUL)");
        out->method = (const char *)(pkt + 5);
        out->method_len = (size_t)(nul - (pkt + 5));
        c.pos = 5 + out->method_len + 1;
        size_t end = len;
        if (u & 0x80000000u) {
            size_t at = u & 0x7FFFFFFFu;
            if (at >= len || at < c.pos) return fail(err, GDW_ERR_BAD_VALUE, 1, "the inline path's offset is outside the packet");
            if (!mp_path(out, pkt, len, at)) return fail(err, GDW_ERR_NOMEM, at, "out of memory for its path");
            end = at;
        } else {
            out->node_id = u;
        }
        if (out->command == GDW_MP_RSET) {
            decode_plain_run(out, pkt, c.pos, end, "arg", 1, d, opts, alloc);
            if (!out->value_count) return fail(err, GDW_ERR_TRUNCATED, c.pos, "a set without its value");
            return GDW_OK;
        }
        uint32_t argc;
        if (c.pos >= end || !mp_u8(&c, &argc)) return fail(err, GDW_ERR_TRUNCATED, c.pos, "a call without its argument count");
        size_t got = decode_plain_run(out, pkt, c.pos, end, "arg", argc, d, opts, alloc);
        if (got < argc && (out->value_count == 0 || out->values[out->value_count - 1].status == GDW_OK))
            return fail(err, GDW_ERR_TRUNCATED, end, "fewer arguments than its count says");
        return GDW_OK;
    }
    case GDW_MP_SIMPLIFY_PATH:
        if (!mp_u32(&c, &u)) return fail(err, GDW_ERR_TRUNCATED, len, "SIMPLIFY_PATH shorter than 5 bytes");
        out->node_id = u;
        if (!mp_path(out, pkt, len, 5)) return fail(err, GDW_ERR_NOMEM, 5, "out of memory for its path");
        return GDW_OK;
    case GDW_MP_CONFIRM_PATH:
        if (len < 2) return fail(err, GDW_ERR_TRUNCATED, len, "CONFIRM_PATH shorter than 2 bytes");
        if (!mp_path(out, pkt, len, 1)) return fail(err, GDW_ERR_NOMEM, 1, "out of memory for its path");
        return GDW_OK;
    default: /* RAW */
        out->payload = pkt + 1, out->payload_len = len - 1;
        return GDW_OK;
    }
}

gdw_status gdw_mp_parse(const uint8_t *pkt, size_t len, const gdw_dialect *d, const gdw_decode_options *opts,
                        const gdw_allocator *alloc, gdw_mp_parsed *out, gdw_error *err) {
    if (!out || (!pkt && len)) return fail(err, GDW_ERR_INVALID_ARG, 0, "no packet or no output");
    memset(out, 0, offsetof(gdw_mp_parsed, values));
    out->doc_count = 0;
    out->alloc = alloc;
    out->node_id = out->net_id = -1;
    out->method_id = out->scene_id = out->checksum_valid = -1;
    if (!d) d = gdw_dialect_find("godot4");
    gdw_decode_options dflt = gdw_decode_options_default();
    dflt.allow_objects = true;
    if (!opts) opts = &dflt;
    switch (gdw_session_layer(d)) {
    case GDW_MULTIPLAYER_API3: return parse_api3(pkt, len, d, opts, alloc, out, err);
    case GDW_MULTIPLAYER_SCENE4: break;
    default: return fail(err, GDW_ERR_INVALID_ARG, 0, "the multiplayer layer of this dialect's engines is not read yet (gdw_multiplayer)");
    }
    mp_cursor c = {pkt, len, 0};
    uint32_t meta, u, v32;
    if (!mp_u8(&c, &meta)) return fail(err, GDW_ERR_TRUNCATED, 0, "an empty packet: no command byte");
    out->meta = (uint8_t)meta;
    out->command = (gdw_mp_command)(meta & 7);
    switch (meta & 7) {
    case GDW_MP_RPC: {
        static const unsigned node_widths[4] = {1, 2, 4, 0};
        unsigned nw = node_widths[(meta >> 4) & 3];
        if (!nw) return fail(err, GDW_ERR_BAD_VALUE, 0, "RPC: node id compression 3 is not a width");
        uint32_t node;
        bool ok = nw == 1 ? mp_u8(&c, &node) : nw == 2 ? mp_u16(&c, &node) : mp_u32(&c, &node);
        if (!ok) return fail(err, GDW_ERR_TRUNCATED, c.pos, "RPC: the packet ends inside the node id");
        uint32_t method;
        ok = (meta >> 6) & 1 ? mp_u16(&c, &method) : mp_u8(&c, &method);
        if (!ok) return fail(err, GDW_ERR_TRUNCATED, c.pos, "RPC: the packet ends inside the method id");
        out->method_id = (int)method;
        size_t end = len;
        if (nw == 4 && (node & 0x80000000u)) {
            /* the path follows the arguments: the id's low bits are where it starts */
            size_t at = node & 0x7FFFFFFFu;
            if (at >= len || at < c.pos) return fail(err, GDW_ERR_BAD_VALUE, 1, "RPC: the inline path's offset is outside the packet");
            if (!mp_path(out, pkt, len, at)) return fail(err, GDW_ERR_NOMEM, at, "RPC: out of memory for its path");
            end = at;
        } else {
            out->node_id = node;
        }
        if (meta & 0x80) {
            /* byte_only_or_no_args: nothing, or one PackedByteArray with no header */
            if (c.pos < end) {
                gdw_mp_value *v = new_value(out, "arg", 0, 0, 0, c.pos);
                v->length = end - c.pos;
                v->encoding = GDW_MP_BARE_BYTES;
                gdw_builder *b = gdw_builder_new(alloc);
                gdw_doc *doc = NULL;
                gdw_build_packed_bytes(b, pkt + c.pos, end - c.pos);
                v->status = gdw_build_finish(b, &doc, &v->error);
                gdw_builder_free(b);
                if (doc) {
                    out->docs[out->doc_count++] = doc;
                    v->value = gdw_doc_root(doc);
                }
            }
            return GDW_OK;
        }
        uint32_t argc;
        if (c.pos >= end || !mp_u8(&c, &argc)) return fail(err, GDW_ERR_TRUNCATED, c.pos, "RPC: the packet ends before the argument count");
        decode_run(out, pkt, c.pos, end, "arg", 0, 0, argc, d, opts, alloc);
        if (out->value_count < argc && (out->value_count == 0 || out->values[out->value_count - 1].status == GDW_OK))
            return fail(err, GDW_ERR_TRUNCATED, end, "RPC: fewer arguments than its count says");
        return GDW_OK;
    }
    case GDW_MP_SIMPLIFY_PATH: {
        /* md5 (32 hex digits and a NUL), the cache id, the path */
        if (len < 38) return fail(err, GDW_ERR_TRUNCATED, len, "SIMPLIFY_PATH: shorter than 38 bytes");
        memcpy(out->md5, pkt + 1, 32);
        out->md5[32] = 0;
        c.pos = 34;
        mp_u32(&c, &u);
        out->node_id = u;
        if (!mp_path(out, pkt, len, c.pos)) return fail(err, GDW_ERR_NOMEM, c.pos, "SIMPLIFY_PATH: out of memory for its path");
        return GDW_OK;
    }
    case GDW_MP_CONFIRM_PATH:
        /* 4.3+: valid flag, cache id: exactly 6 bytes */
        if (len != 6) return fail(err, len < 6 ? GDW_ERR_TRUNCATED : GDW_ERR_BAD_LENGTH, len < 6 ? len : 6,
                                  "CONFIRM_PATH: not 6 bytes (4.0-4.2 confirmed by path: not read)");
        mp_u8(&c, &u);
        out->checksum_valid = u != 0;
        mp_u32(&c, &u);
        out->node_id = u;
        return GDW_OK;
    case GDW_MP_RAW:
        out->payload = pkt + 1, out->payload_len = len - 1;
        return GDW_OK;
    case GDW_MP_SPAWN: {
        if (len < 18) return fail(err, GDW_ERR_TRUNCATED, len, "SPAWN: shorter than 18 bytes");
        uint32_t scene, sync_len, name_len;
        mp_u8(&c, &scene);
        mp_u32(&c, &u);
        out->scene_id = (int)scene, out->node_id = u;
        mp_u32(&c, &u);
        out->net_id = u;
        mp_u32(&c, &sync_len);
        mp_u32(&c, &name_len);
        if ((uint64_t)sync_len * 4 + name_len > len - c.pos)
            return fail(err, GDW_ERR_BAD_LENGTH, 14, "SPAWN: its synchronizer count and name length pass the end");
        if (name_len < 1) return fail(err, GDW_ERR_BAD_LENGTH, 14, "SPAWN: a name of no bytes");
        c.pos += (size_t)sync_len * 4;
        out->name = (const char *)(pkt + c.pos);
        out->name_len = name_len && pkt[c.pos + name_len - 1] == 0 ? name_len - 1 : name_len;
        c.pos += name_len;
        if (scene == 0xFF) { /* a custom spawn: its argument, sized */
            if (!mp_u32(&c, &v32)) return fail(err, GDW_ERR_TRUNCATED, c.pos, "SPAWN: the packet ends before the custom argument's size");
            if (v32 > len - c.pos) return fail(err, GDW_ERR_BAD_LENGTH, c.pos - 4, "SPAWN: the custom argument's size passes the end");
            decode_run(out, pkt, c.pos, c.pos + v32, "spawn_arg", 0, 0, 1, d, opts, alloc);
            c.pos += v32;
        }
        decode_run(out, pkt, c.pos, len, "spawn_state", 0, 0, GDW_MP_MAX_VALUES, d, opts, alloc);
        return GDW_OK;
    }
    case GDW_MP_DESPAWN:
        if (!mp_u32(&c, &u)) return fail(err, GDW_ERR_TRUNCATED, len, "DESPAWN: shorter than 5 bytes");
        out->node_id = u;
        return GDW_OK;
    case GDW_MP_SYNC:
        if (meta & 0x10) {
            out->command = GDW_MP_DELTA;
            /* {net id, property bit mask, size, state} while a whole header fits (on_delta_receive) */
            while (c.pos + 16 < len) {
                uint64_t indexes = 0; /* set: a whole header fits (the loop test), but gcc -O2 cannot see it */
                uint32_t size = 0;
                size_t at = c.pos;
                mp_u32(&c, &u), mp_u64(&c, &indexes), mp_u32(&c, &size);
                if (size > len - c.pos) return fail(err, GDW_ERR_BAD_LENGTH, at + 12, "delta SYNC: a state's size passes the end");
                decode_run(out, pkt, c.pos, c.pos + size, "state", u, indexes, GDW_MP_MAX_VALUES, d, opts, alloc);
                c.pos += size;
            }
            return GDW_OK;
        }
        if (len < 11) return fail(err, GDW_ERR_TRUNCATED, len, "SYNC: shorter than 11 bytes");
        mp_u16(&c, &u);
        out->sync_time = (uint16_t)u;
        while (c.pos + 8 < len) {
            uint32_t size;
            size_t at = c.pos;
            mp_u32(&c, &u), mp_u32(&c, &size);
            if (size > len - c.pos) return fail(err, GDW_ERR_BAD_LENGTH, at + 4, "SYNC: a state's size passes the end");
            decode_run(out, pkt, c.pos, c.pos + size, "state", u, 0, GDW_MP_MAX_VALUES, d, opts, alloc);
            c.pos += size;
        }
        return GDW_OK;
    case GDW_MP_SYS: {
        uint32_t sys;
        if (!mp_u8(&c, &sys)) return fail(err, GDW_ERR_TRUNCATED, 1, "SYS: no sub-command");
        if (sys == 0) { /* AUTH: no peer field */
            out->command = GDW_MP_SYS_AUTH;
            out->payload = pkt + 2, out->payload_len = len - 2;
            return GDW_OK;
        }
        if (sys > 3) return fail(err, GDW_ERR_BAD_VALUE, 1, "SYS: sub-command past 3");
        if (!mp_u32(&c, &u)) return fail(err, GDW_ERR_TRUNCATED, len, "SYS: shorter than 6 bytes");
        out->command = sys == 1 ? GDW_MP_SYS_ADD_PEER : sys == 2 ? GDW_MP_SYS_DEL_PEER : GDW_MP_SYS_RELAY;
        out->sys_peer = (int32_t)u;
        out->payload = pkt + 6, out->payload_len = len - 6;
        return GDW_OK;
    }
    }
    return fail(err, GDW_ERR_BAD_VALUE, 0, "unreachable");
}

void gdw_mp_parsed_free(gdw_mp_parsed *p) {
    if (!p) return;
    if (p->owned_path) {
        if (p->alloc) p->alloc->free_fn(p->alloc->ctx, p->owned_path, p->path_len + 1);
        else free(p->owned_path);
        p->owned_path = NULL;
    }
    for (size_t i = 0; i < p->doc_count; i++) gdw_doc_free(p->docs[i]);
    p->doc_count = 0;
    p->value_count = 0;
}

/* SPDX-License-Identifier: MIT */
/* wire.h — the wire wing (decode.c, encode.c): the cursor every input read goes through, and the
 * decoder's entry below the public gdw_decode (codec/api.c adds the engine pass on top). */
#ifndef GDWIRE_WIRE_H
#define GDWIRE_WIRE_H

#include "codec/value/value.h"

/* ---- Cursor: every input read goes through these, and each checks itself --------------------
 * In the spirit of BoringSSL's CBS: a read that would pass the end reads nothing, moves nothing
 * and returns false, and the decoder turns false into its error report (offset, message, engine
 * error). Nothing reads the input without a check of its own, so a check the decoder forgot is
 * a wrong verdict at worst, never a read out of bounds. Invariant: pos <= len. */

typedef struct gdw_cursor {
    const uint8_t *base;
    size_t len;
    size_t pos;
} gdw_cursor;

static GDW_ALWAYS_INLINE size_t cur_left(const gdw_cursor *c) { return c->len - c->pos; }
static GDW_ALWAYS_INLINE bool cur_has(const gdw_cursor *c, size_t n) {
    return n <= c->len - c->pos;
}

/* The next 4 or 8 bytes as a little-endian word, or n bytes (a pointer into the input). */
static GDW_ALWAYS_INLINE bool cur_u32(gdw_cursor *c, uint32_t *out) {
    if (!cur_has(c, 4)) return false;
    *out = rd_u32le(c->base + c->pos);
    c->pos += 4;
    return true;
}
static GDW_ALWAYS_INLINE bool cur_u64(gdw_cursor *c, uint64_t *out) {
    if (!cur_has(c, 8)) return false;
    *out = rd_u64le(c->base + c->pos);
    c->pos += 8;
    return true;
}
static GDW_ALWAYS_INLINE bool cur_bytes(gdw_cursor *c, size_t n, const uint8_t **out) {
    if (!cur_has(c, n)) return false;
    *out = c->base + c->pos;
    c->pos += n;
    return true;
}
/* Looking ahead without moving: the word or n bytes that start `ahead` bytes after pos. */
static GDW_ALWAYS_INLINE bool cur_peek_u32(const gdw_cursor *c, size_t ahead, uint32_t *out) {
    if (ahead > cur_left(c) || !(4 <= cur_left(c) - ahead)) return false;
    *out = rd_u32le(c->base + c->pos + ahead);
    return true;
}
static GDW_ALWAYS_INLINE bool cur_peek_bytes(const gdw_cursor *c, size_t ahead, size_t n,
                                             const uint8_t **out) {
    if (ahead > cur_left(c) || n > cur_left(c) - ahead) return false;
    *out = c->base + c->pos + ahead;
    return true;
}
static GDW_ALWAYS_INLINE bool cur_skip(gdw_cursor *c, size_t n) {
    if (!cur_has(c, n)) return false;
    c->pos += n;
    return true;
}
/* Bytes already read, again (a dictionary key for an error's path): [off, off + n) before pos. */
static GDW_ALWAYS_INLINE bool cur_behind(const gdw_cursor *c, size_t off, size_t n,
                                         const uint8_t **out) {
    if (off > c->pos || n > c->pos - off) return false;
    *out = c->base + off;
    return true;
}


/* What a compatible decode finds out on its way, for gdw_check (one walk instead of three):
 * whether strict mode accepts the consumed bytes (canonical; else *strict_err, which the caller
 * gives, says where it first refuses) and whether engine-exact mode reads them the same way
 * (engine_same: then it gives the same verdict and length). */
typedef struct gdw_shadow_report {
    gdw_error *strict_err; /* in: where the first strict refusal goes */
    bool canonical;        /* out */
    bool engine_same;      /* out */
    /* in, a validation (doc NULL): watch, as a decode with opts->watch_engine does, for what the
     * engine holds otherwise (gdw_validate_watched) */
    bool watched;
    bool value_same; /* out: gdw_doc_engine_same's answer for this walk */
    /* out when not NULL: what the walk read of the row is added to it, whether the walk accepts or
     * fails (not for a fast walk: a compatible one without a shadow or trace, whose reads are not
     * noted) */
    gdw_rules_read *read;
} gdw_shadow_report;

/* gdw_wire_decode: the decode of gdwire.h's gdw_decode without the engine pass: the tree as the
 * wire gives it, into doc->root (doc NULL: validate only, nothing built). report (compatible mode
 * only; NULL: nothing asked) is filled as gdw_shadow_report says. */
/* A Godot 2 KEY InputEvent's modifiers as the engine keeps them: four flags, shift, alt, meta and
 * ctrl (KEY_MASK_* of 2.x core/os/keyboard.h, bits 25-28). The decoder holds and the encoder writes
 * only these. */
#define GDW_KEY_MODIFIER_FLAGS (0xFu << 25)

gdw_status gdw_wire_decode(const gdw_dialect *d, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts, gdw_doc *doc, size_t *consumed,
                           gdw_error *err, gdw_shadow_report *report);

#endif

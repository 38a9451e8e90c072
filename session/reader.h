/* SPDX-License-Identifier: MIT
 * reader.h — the one way session/ reads bytes: a bounded reader over a view, in the style of
 * BoringSSL's CBS. Every read checks what is left and reports failure without moving; a child
 * reader takes the next n bytes as a view of its own (a command's data, a header's options), so a
 * layer hands the next exactly its payload and nothing past it. `base` is the view's first byte's
 * offset in what the caller calls its input (a frame, a datagram, a packet), so a problem says
 * where in it a field failed (rd_at). Nothing in session/ indexes a raw pointer past these. */
#ifndef GDWIRE_SESSION_READER_H
#define GDWIRE_SESSION_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct reader {
    const uint8_t *p;
    size_t len, pos;
    size_t base; /* p[0]'s offset in the caller's input */
} reader;

static inline reader rd_view(const uint8_t *p, size_t len, size_t base) {
    reader r = {p, len, 0, base};
    return r;
}

static inline size_t rd_left(const reader *r) { return r->len - r->pos; }
/* Where the next byte is, in the caller's input. */
static inline size_t rd_at(const reader *r) { return r->base + r->pos; }
/* The next byte, not taken (rd_left must be at least 1). */
static inline const uint8_t *rd_here(const reader *r) { return r->p + r->pos; }

static inline bool rd_skip(reader *r, size_t n) {
    if (rd_left(r) < n) return false;
    r->pos += n;
    return true;
}

/* The next n bytes, taken: a pointer to them (valid as long as the viewed bytes). */
static inline bool rd_bytes(reader *r, size_t n, const uint8_t **out) {
    if (rd_left(r) < n) return false;
    *out = r->p + r->pos;
    r->pos += n;
    return true;
}

/* The next n bytes, taken, as a reader of their own whose offsets go on from this one's. */
static inline bool rd_child(reader *r, size_t n, reader *child) {
    if (rd_left(r) < n) return false;
    *child = rd_view(r->p + r->pos, n, rd_at(r));
    r->pos += n;
    return true;
}

/* Everything left, taken, as a child. */
static inline reader rd_rest(reader *r) {
    reader c = rd_view(r->p + r->pos, rd_left(r), rd_at(r));
    r->pos = r->len;
    return c;
}

/* The bytes at [from, to) of r's view, a child of their own (from <= to <= len, checked). */
static inline bool rd_span(const reader *r, size_t from, size_t to, reader *child) {
    if (from > to || to > r->len) return false;
    *child = rd_view(r->p + from, to - from, r->base + from);
    return true;
}

static inline bool rd_u8(reader *r, uint8_t *v) {
    if (rd_left(r) < 1) return false;
    *v = r->p[r->pos++];
    return true;
}

/* The next byte without taking it. */
static inline bool rd_peek_u8(const reader *r, uint8_t *v) {
    if (rd_left(r) < 1) return false;
    *v = r->p[r->pos];
    return true;
}

/* An unsigned integer of n bytes (n <= 8), big-endian (ENet, IP, TCP, WebSocket) or little-endian
 * (Godot's own fields). */
static inline bool rd_uint(reader *r, size_t n, bool big, uint64_t *v) {
    if (rd_left(r) < n) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) x |= (uint64_t)r->p[r->pos + (big ? n - 1 - i : i)] << (8 * i);
    r->pos += n;
    *v = x;
    return true;
}

static inline bool rd_be16(reader *r, uint16_t *v) {
    uint64_t x;
    if (!rd_uint(r, 2, true, &x)) return false;
    *v = (uint16_t)x;
    return true;
}

static inline bool rd_be32(reader *r, uint32_t *v) {
    uint64_t x;
    if (!rd_uint(r, 4, true, &x)) return false;
    *v = (uint32_t)x;
    return true;
}

static inline bool rd_le16(reader *r, uint16_t *v) {
    uint64_t x;
    if (!rd_uint(r, 2, false, &x)) return false;
    *v = (uint16_t)x;
    return true;
}

static inline bool rd_le32(reader *r, uint32_t *v) {
    uint64_t x;
    if (!rd_uint(r, 4, false, &x)) return false;
    *v = (uint32_t)x;
    return true;
}

static inline bool rd_le64(reader *r, uint64_t *v) { return rd_uint(r, 8, false, v); }

/* A field at a fixed offset of the view, not moving the reader: a header's field read where the
 * format puts it (false past the view). */
static inline bool rd_be16_at(const reader *r, size_t at, uint16_t *v) {
    reader c;
    return rd_span(r, at, r->len, &c) && rd_be16(&c, v);
}

static inline bool rd_be32_at(const reader *r, size_t at, uint32_t *v) {
    reader c;
    return rd_span(r, at, r->len, &c) && rd_be32(&c, v);
}

static inline bool rd_le32_at(const reader *r, size_t at, uint32_t *v) {
    reader c;
    return rd_span(r, at, r->len, &c) && rd_le32(&c, v);
}

static inline bool rd_u8_at(const reader *r, size_t at, uint8_t *v) {
    if (at >= r->len) return false;
    *v = r->p[at];
    return true;
}

/* The bytes up to the next NUL (not taken), its length in *n; false when the view has none. */
static inline bool rd_find_nul(const reader *r, size_t *n) {
    const uint8_t *nul = rd_left(r) ? memchr(r->p + r->pos, 0, rd_left(r)) : NULL;
    if (!nul) return false;
    *n = (size_t)(nul - (r->p + r->pos));
    return true;
}

#endif

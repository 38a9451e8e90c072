/* SPDX-License-Identifier: MIT */
/* mutator.c — the wire-format-aware mutator (mutator.h). */
#include "fuzzers/mutator.h"

#include <stdlib.h>
#include <string.h>

#include "codec/gdwire_check.h"
#include "fuzzers/fuzz.h"
#include "fuzzers/value_gen.h"

typedef struct rng { uint64_t s; } rng;
static uint32_t next(rng *r) { /* xorshift64* */
    r->s ^= r->s >> 12, r->s ^= r->s << 25, r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1DULL) >> 32);
}
static uint32_t below(rng *r, uint32_t n) { return n ? next(r) % n : 0; }

static void put_u32le(uint8_t *p, uint32_t x) { p[0] = (uint8_t)x, p[1] = (uint8_t)(x >> 8), p[2] = (uint8_t)(x >> 16), p[3] = (uint8_t)(x >> 24); }

/* An aligned offset inside the packet (after the two selector bytes) with room for `need` bytes;
 * -1 if none. */
static long aligned_at(rng *r, size_t size, size_t need) {
    if (size < 2 + need) return -1;
    size_t words = (size - 2 - need) / 4 + 1;
    return (long)(2 + 4 * below(r, (uint32_t)words));
}

static uint32_t type_header(rng *r, const gdw_dialect *d) {
    unsigned n = gdw_dialect_type_count(d);
    uint32_t id = below(r, 8) ? below(r, n) : n + below(r, 3); /* now and then one past the table */
    static const uint32_t flags[] = {0, 1u << 16, 2u << 16, 3u << 16, 1u << 17, 0xFu << 16, 1u << 31};
    return id | (below(r, 2) ? flags[below(r, sizeof flags / sizeof flags[0])] : 0);
}

static uint32_t length_word(rng *r, size_t left) {
    switch (below(r, 9)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return (uint32_t)left;
    case 3: return (uint32_t)left + 1;
    case 4: return (uint32_t)(left / 4);
    case 5: return 0x7FFFFFFFu;
    case 6: return 0x80000000u;
    case 7: return 0xFFFFFFFFu;
    default: return below(r, 16);
    }
}

/* An encoded value of dialect d made from random choices; NULL if the dialect refused it. */
static uint8_t *generated_value(rng *r, const gdw_dialect *d, size_t *len) {
    uint8_t choices[64];
    size_t n = 1 + below(r, sizeof choices);
    for (size_t i = 0; i < n; i++) choices[i] = (uint8_t)next(r);
    gen_text gt;
    if (!gen_value_text(choices, n, &gt)) return NULL;
    gdw_doc *doc = NULL;
    gdw_error err;
    uint8_t *out = NULL;
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = true;
    if (gdw_text_parse(gt.s, gt.len, NULL, &doc, &err) == GDW_OK &&
        gdw_encode_alloc(d, gdw_doc_root(doc), &eo, NULL, &out, len, &err) != GDW_OK)
        out = NULL;
    gdw_doc_free(doc);
    free(gt.s);
    return out;
}

/* The packet decoded in its dialect (compatible mode, objects allowed), re-encoded: canonical,
 * or wrapped in a one-element Array / a one-pair Dictionary. NULL if it does not decode. */
static uint8_t *reencoded(rng *r, const gdw_dialect *d, const uint8_t *pkt, size_t n, size_t *len) {
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    o.allow_trailing = true;
    gdw_doc *doc = NULL;
    gdw_error err;
    if (gdw_decode(d, pkt, n, &o, NULL, &doc, NULL, &err) != GDW_OK) return NULL;
    gdw_value root = *gdw_doc_root(doc), pair[2], wrap;
    memset(&wrap, 0, sizeof wrap);
    memset(pair, 0, sizeof pair);
    const gdw_value *v = &root;
    switch (below(r, 3)) {
    case 0: wrap.type = GDW_ARRAY, wrap.len = 1, wrap.u.items = &root, v = &wrap; break;
    case 1:
        pair[0].type = GDW_INT, pair[0].u.i = (int64_t)below(r, 4), pair[1] = root;
        wrap.type = GDW_DICTIONARY, wrap.len = 1, wrap.u.items = pair, v = &wrap;
        break;
    default: break;
    }
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = true;
    uint8_t *out = NULL;
    if (gdw_encode_alloc(d, v, &eo, NULL, &out, len, &err) != GDW_OK) out = NULL;
    gdw_doc_free(doc);
    return out;
}

static size_t splice(uint8_t *data, size_t at, const uint8_t *bytes, size_t n, size_t max_size) {
    if (at + n > max_size) n = max_size - at;
    memcpy(data + at, bytes, n);
    return at + n;
}

size_t gdw_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed, gdw_byte_mutator bytes) {
    rng r = {((uint64_t)seed << 1) ^ 0x9E3779B97F4A7C15ULL};
    if (max_size < 6) return bytes(data, size, max_size);
    if (size < 2) { /* give it selector bytes */
        data[0] = (uint8_t)next(&r), data[1] = (uint8_t)next(&r);
        size = 2;
    }
    const gdw_dialect *d = fuzz_dialect(data[0]);
    size_t pkt = size - 2;
    long at;
    switch (below(&r, 11)) {
    case 0: data[0] = (uint8_t)below(&r, (uint32_t)fuzz_id_count()); return size; /* any row's id */
    case 1: data[1] = (uint8_t)((data[1] & ~7u) | below(&r, 8)); return size;
    case 2:
        if ((at = aligned_at(&r, size, 4)) < 0) break;
        put_u32le(data + at, type_header(&r, d));
        return size;
    case 3:
        if ((at = aligned_at(&r, size, 4)) < 0) break;
        put_u32le(data + at, length_word(&r, size - (size_t)at - 4));
        return size;
    case 4: { /* insert 4 or 8 bytes at an aligned offset */
        size_t k = 4 * (1 + below(&r, 2));
        if (size + k > max_size) break;
        at = aligned_at(&r, size, 0);
        if (at < 0) at = 2;
        memmove(data + at + k, data + at, size - (size_t)at);
        put_u32le(data + at, below(&r, 2) ? type_header(&r, d) : length_word(&r, size - (size_t)at));
        if (k == 8) put_u32le(data + at + 4, length_word(&r, size - (size_t)at));
        return size + k;
    }
    case 5: /* delete an aligned word */
        if ((at = aligned_at(&r, size, 4)) < 0) break;
        memmove(data + at, data + at + 4, size - (size_t)at - 4);
        return size - 4;
    case 6: { /* copy aligned words over another aligned place */
        size_t k = 4 * (1 + below(&r, 4));
        long from = aligned_at(&r, size, k), to = aligned_at(&r, size, k);
        if (from < 0 || to < 0) break;
        memmove(data + to, data + from, k);
        return size;
    }
    case 7:
    case 8: { /* a generated value in place of the tail */
        size_t n = 0;
        uint8_t *v = generated_value(&r, d, &n);
        if (!v) break;
        at = aligned_at(&r, size, 0);
        if (at < 0 || below(&r, 4) == 0) at = 2;
        size = splice(data, (size_t)at, v, n, max_size);
        free(v);
        return size;
    }
    case 9: { /* re-encoded, maybe wrapped */
        size_t n = 0;
        uint8_t *v = reencoded(&r, d, data + 2, pkt, &n);
        if (!v) break;
        size = splice(data, 2, v, n, max_size);
        free(v);
        return size;
    }
    default: break;
    }
    return bytes(data, size, max_size);
}

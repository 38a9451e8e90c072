/* SPDX-License-Identifier: MIT */
/* testing.h — the small harness the codec tests share: counted checks, hex, helpers.
 * Each test program ends with the line "N passed, N failed" and exits 1 on any failure. */
#ifndef GDWIRE_TESTING_H
#define GDWIRE_TESTING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire_check.h"
#include "codec/table/dialects.h"

static int t_passed, t_failed;

#define CHECK(cond, ...) \
    do { \
        if (cond) t_passed++; \
        else { \
            t_failed++; \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
        } \
    } while (0)

static inline int t_finish(void) {
    printf("%d passed, %d failed\n", t_passed, t_failed);
    return t_failed ? 1 : 0;
}

/* Hex text (whitespace allowed) to bytes; returns the length, or (size_t)-1 on bad hex. */
static inline size_t t_unhex(const char *hex, uint8_t *out, size_t cap) {
    size_t len = strlen(hex), n = 0;
    uint8_t *tmp = (uint8_t *)malloc(len / 2 + 1);
    if (!tmp) return (size_t)-1;
    gdw_status s = gdw_hex_decode(hex, len, tmp, &n, NULL);
    if (!s && n <= cap) memcpy(out, tmp, n);
    free(tmp);
    return s || n > cap ? (size_t)-1 : n;
}

static inline void t_hex(const uint8_t *p, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n && o + 3 < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%02x%s", p[i], i % 4 == 3 ? " " : "");
    if (o && out[o - 1] == ' ') o--;
    out[o < cap ? o : cap - 1] = 0;
}

/* The next packet of an engine-made TSV (tools/engines/ENGINE-packets.tsv: name, the engine's bytes
 * in hex, ...): its bytes in buf[0..*n), and its hex (in line) returned; NULL at the end. Comment
 * lines, lines without hex and hex that does not fit are skipped. */
static inline const char *t_tsv_packet(FILE *f, char *line, size_t line_cap, uint8_t *buf,
                                       size_t cap, size_t *n) {
    while (fgets(line, (int)line_cap, f)) {
        if (line[0] == '#') continue;
        char *hex = strchr(line, '\t');
        if (!hex) continue;
        hex++;
        char *end = strchr(hex, '\t');
        if (end) *end = 0;
        *n = t_unhex(hex, buf, cap);
        if (*n != (size_t)-1) return hex;
    }
    return NULL;
}

/* Mutation k (0, 1, ...) of p[0..n) into m: even k flips one bit of a byte, odd k sets an aligned
 * word to a small number (a count, a type id, a length); *rng (xorshift, not 0) picks where. */
static inline uint64_t t_rnd(uint64_t *rng) {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return *rng;
}
static inline void t_mutate(const uint8_t *p, size_t n, uint8_t *m, int k, uint64_t *rng) {
    memcpy(m, p, n);
    if (n == 0) return;
    size_t at = t_rnd(rng) % n;
    if (k % 2 == 0) m[at] ^= (uint8_t)(1u << (t_rnd(rng) % 8));
    else {
        at &= ~(size_t)3;
        if (at + 4 <= n) {
            uint32_t w = (uint32_t)(t_rnd(rng) % 40);
            memcpy(m + at, &w, 4);
        }
    }
}

/* Each non-empty packet of the engine-made TSV at path (t_tsv_packet), then `mutations` mutations
 * of it (t_mutate, k = 0 ..), to fn(ctx, bytes, n, k), k = -1 for the packet itself. Returns how
 * many packets; exits 2 when the file cannot be opened. */
static inline size_t t_tsv_each(const char *path, int mutations, uint64_t *rng,
                                void (*fn)(void *, const uint8_t *, size_t, int), void *ctx) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    static char line[1 << 16];
    static uint8_t p[1 << 15], m[1 << 15];
    size_t count = 0, n = 0;
    while (t_tsv_packet(f, line, sizeof line, p, sizeof p, &n)) {
        if (n == 0) continue;
        count++;
        fn(ctx, p, n, -1);
        for (int k = 0; k < mutations; k++) {
            t_mutate(p, n, m, k, rng);
            fn(ctx, m, n, k);
        }
    }
    fclose(f);
    return count;
}

/* Two errors alike in every field a caller reads: code, offsets, the engine's error, message and
 * path. */
static inline bool t_same_error(const gdw_error *a, const gdw_error *b) {
    return a->code == b->code && a->offset == b->offset && a->value_offset == b->value_offset &&
           a->engine_error == b->engine_error && strcmp(a->message, b->message) == 0 &&
           strcmp(a->path, b->path) == 0;
}

static inline const gdw_dialect *t_dialect(const char *name) {
    const gdw_dialect *d = gdw_dialect_find(name);
    if (!d) {
        fprintf(stderr, "no dialect %s\n", name);
        exit(2);
    }
    return d;
}

/* The canonical text form as dialect d's encoder writes it: malloc'd bytes in *len, or NULL (the
 * text does not parse or d cannot hold it: a failed check). */
static inline uint8_t *t_encode_text(const gdw_dialect *d, const char *text, size_t *len) {
    gdw_doc *src = NULL;
    gdw_error err;
    if (gdw_text_parse(text, strlen(text), NULL, &src, &err)) {
        CHECK(0, "%s: %s", text, err.message);
        return NULL;
    }
    uint8_t *bytes = NULL;
    *len = 0;
    CHECK(gdw_encode_alloc(d, gdw_doc_root(src), NULL, NULL, &bytes, len, &err) == GDW_OK,
          "%s: encode: %s", text, err.message);
    gdw_doc_free(src);
    return bytes;
}

/* A counting allocator that refuses to go past a limit: live and peak bytes, refusals. */
typedef struct t_counting {
    size_t live, peak, limit;
    long refused;
} t_counting;

static inline void *t_counting_malloc(void *ctx, size_t n) {
    t_counting *c = ctx;
    if (n > c->limit - c->live) {
        c->refused++;
        return NULL;
    }
    void *p = malloc(n);
    if (!p) return NULL;
    c->live += n;
    if (c->live > c->peak) c->peak = c->live;
    return p;
}
static inline void *t_counting_realloc(void *ctx, void *p, size_t o, size_t n) {
    t_counting *c = ctx;
    if (n > o && n - o > c->limit - c->live) {
        c->refused++;
        return NULL;
    }
    void *q = realloc(p, n);
    if (!q) return NULL;
    c->live = c->live - o + n;
    if (c->live > c->peak) c->peak = c->live;
    return q;
}
static inline void t_counting_free(void *ctx, void *p, size_t n) {
    t_counting *c = ctx;
    if (p) {
        c->live -= n;
        free(p);
    }
}
/* The allocator over c (limit: SIZE_MAX for none). */
static inline gdw_allocator t_counting_allocator(t_counting *c) {
    gdw_allocator a = {t_counting_malloc, t_counting_realloc, t_counting_free, c};
    return a;
}

/* A row's whole answer to a packet, as gdw_check gives it (its tree kept), with what it rested on
 * and its decode's own digest (check_share_test, noting_test). */
typedef struct t_answer {
    gdw_check_result r;
    gdw_rules_read read;
    gdw_digest digest;
} t_answer;
static inline void t_answer_of(t_answer *a, const gdw_dialect *d, const uint8_t *p, size_t n,
                               const gdw_decode_options *base) {
    gdw_decode_options o = *base;
    gdw_digest_init(&a->digest, 0x0123456789ABCDEFu, 0xFEDCBA9876543210u, p, n);
    gdw_decode_events events = {.digest = &a->digest};
    o.events = &events;
    memset(&a->read, 0, sizeof a->read);
    memset(&a->r, 0, sizeof a->r);
    gdw_check_dialect_read(d, p, n, &o, NULL, true, &a->r, &a->read);
}
/* The five ways the sharing tests decode a packet: compatible with and without watching for the
 * engine's value, strict, engine-exact, and watching with the tree cut at its first node (as
 * `gdwire check` decodes: past the cut a Dictionary's keys are judged from the stack a watching
 * validation keeps). */
static inline void t_five_ways(const uint8_t *p, size_t n,
                               void (*fn)(const uint8_t *, size_t, const gdw_decode_options *)) {
    gdw_decode_options o = gdw_decode_options_default();
    fn(p, n, &o);
    o.watch_engine = true;
    fn(p, n, &o);
    o.watch_engine = false;
    o.mode = GDW_MODE_STRICT;
    fn(p, n, &o);
    o.mode = GDW_MODE_ENGINE_EXACT;
    fn(p, n, &o);
    o = gdw_decode_options_default();
    o.watch_engine = true;
    o.keep_nodes = 1;
    fn(p, n, &o);
}

#endif

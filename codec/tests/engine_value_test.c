/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* engine_value_test — merging Dictionary keys the engine finds equal (codec/engine/settle.c) on
 * hostile shapes of 200,000 keys: keys that can equal no other key (a NaN inside a Godot 4 Array,
 * a Godot 3 Dictionary) and keys alike in all but their last part. The counts are the engine's
 * (every key distinct, or every repeat merged). The times are printed: before the keys that
 * can equal nothing got buckets of their own, each of the first three took over two minutes
 * (the table's probing was quadratic); after, about 0.1 s. The size "medium" timeout (300 s)
 * stops a regression of that kind. */
#include <time.h>

#include "codec/api.h"
#include "codec/engine/pass.h"
#include "codec/tests/testing.h"

/* The library tells a program that defines this hook each engine pass's key-merging work
 * (codec/engine/settle.c); it keeps no record of its own. */
void gdw_engine_settle_counted(uint64_t keys, uint64_t probes, uint64_t hashed, uint64_t compared);
static gdw_settle_counts g_counts;
void gdw_engine_settle_counted(uint64_t keys, uint64_t probes, uint64_t hashed, uint64_t compared) {
    g_counts.keys = keys, g_counts.probes = probes, g_counts.hashed = hashed,
    g_counts.compared = compared;
}

enum { N = 200000 };

static uint8_t *put(uint8_t *p, uint32_t w) {
    p[0] = (uint8_t)w;
    p[1] = (uint8_t)(w >> 8);
    p[2] = (uint8_t)(w >> 16);
    p[3] = (uint8_t)(w >> 24);
    return p + 4;
}

/* A Dictionary (id dict_id) of n keys made by key(i), each with the value int i. */
static uint8_t *dict_of(uint32_t dict_id, size_t n, size_t key_words,
                        void (*key)(uint32_t *w, size_t i), size_t *len) {
    *len = 8 + n * (4 * key_words + 8);
    uint8_t *buf = malloc(*len), *p = buf;
    uint32_t w[16];
    p = put(p, dict_id);
    p = put(p, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        key(w, i);
        for (size_t k = 0; k < key_words; k++) p = put(p, w[k]);
        p = put(p, 2);
        p = put(p, (uint32_t)i);
    }
    return buf;
}

/* Godot 4 [NaN]: Array(28) of one float(3) NaN */
static void nan_array(uint32_t *w, size_t i) {
    (void)i;
    w[0] = 28;
    w[1] = 1;
    w[2] = 3;
    w[3] = 0x7FC00000u;
}
/* Godot 3 {}: Dictionary(18) of no pairs */
static void empty_dict3(uint32_t *w, size_t i) {
    (void)i;
    w[0] = 18;
    w[1] = 0;
}
/* Godot 4 int i % 1000: the repeats merge into 1000 keys */
static void int_mod(uint32_t *w, size_t i) {
    w[0] = 2;
    w[1] = (uint32_t)(i % 1000);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(const char *name, const char *dialect, uint8_t *buf, size_t len, uint32_t want) {
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = GDW_MODE_ENGINE_EXACT;
    gdw_doc *doc = NULL;
    size_t used = 0;
    gdw_error err;
    double t0 = now();
    gdw_status s = gdw_decode(t_dialect(dialect), buf, len, &o, NULL, &doc, &used, &err);
    double took = now() - t0;
    CHECK(s == GDW_OK && used == len, "%s: decode failed: %s", name, gdw_status_name(s));
    if (doc)
        CHECK(gdw_doc_root(doc)->len == want, "%s: %u keys, want %u", name, gdw_doc_root(doc)->len,
              want);
    printf("%s: %zu bytes, %u keys in %.3f s\n", name, len, doc ? gdw_doc_root(doc)->len : 0, took);
    gdw_doc_free(doc);
    free(buf);
}

/* ---- growth (issue 34): the work of merging keys, per input byte, at 1x, 4x and 16x -------- */

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
} wbuf;
static void w32(wbuf *b, uint32_t w) {
    if (b->len + 4 > b->cap) {
        b->cap = b->cap ? 2 * b->cap : 1024;
        b->p = realloc(b->p, b->cap);
    }
    put(b->p + b->len, w);
    b->len += 4;
}
static void wstr(wbuf *b, uint32_t type, const char *s) {
    size_t n = strlen(s);
    w32(b, type);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i += 4) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4 && i + k < n; k++) w |= (uint32_t)(uint8_t)s[i + k] << (8 * k);
        w32(b, w);
    }
}

/* Every shape: a Dictionary of n keys (or a nest of the given scale), each value null. */
static void g4_float_keys(wbuf *b, size_t n) { /* 1.0, 2.0, ...: equal low bits */
    w32(b, 27);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        float f = (float)(i + 1);
        uint32_t u;
        memcpy(&u, &f, 4);
        w32(b, 3);
        w32(b, u);
        w32(b, 0);
    }
}
static void g3_int_keys(wbuf *b, size_t n) { /* i << 16: equal low bits */
    w32(b, 18);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        w32(b, 2);
        w32(b, (uint32_t)(i << 16));
        w32(b, 0);
    }
}
/* doubles i * 2^20: only the exponent and top mantissa differ */
static void g4_float64_keys(wbuf *b, size_t n) {
    w32(b, 27);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        double f = (double)(i + 1) * 1048576.0 + 0.5;
        uint64_t u;
        memcpy(&u, &f, 8);
        w32(b, 3 | 1u << 16);
        w32(b, (uint32_t)u);
        w32(b, (uint32_t)(u >> 32));
        w32(b, 0);
    }
}
/* Arrays of 16 one-letter strings, each a String or a StringName by the bits of i: a hash that
 * takes both for one type puts all of them in one bucket, yet no two are equal inside an Array. */
static void g4_string_or_name(wbuf *b, size_t n) {
    w32(b, 27);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        w32(b, 28);
        w32(b, 16);
        for (int k = 0; k < 16; k++) wstr(b, (i >> k) & 1 ? 21 : 4, "s");
        w32(b, 0);
    }
}
/* The same text as a String key and a StringName key: one key in Godot 4 (n / 2 kept). */
static void g4_string_and_name_keys(wbuf *b, size_t n) {
    w32(b, 27);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        char k[24];
        snprintf(k, sizeof k, "key%zu", i / 2);
        wstr(b, i % 2 ? 21 : 4, k);
        w32(b, 0);
    }
}
/* A nest: {{{... {[blob]: null, 1: null} ...}: null, 1: null}: null, 1: null}, scale levels deep,
 * a PackedInt32Array of 64 * scale ints at the bottom: hashing every level's key afresh costs
 * depth x size. */
static void g4_nested_keys(wbuf *b, size_t scale) {
    size_t depth = scale / 16;
    for (size_t d = 0; d < depth; d++) {
        w32(b, 27);
        w32(b, 2);
    }
    w32(b, 30);
    w32(b, (uint32_t)(64 * scale));
    for (size_t i = 0; i < 64 * scale; i++) w32(b, (uint32_t)i);
    for (size_t d = 0; d < depth; d++) {
        w32(b, 0);
        w32(b, 2);
        w32(b, 1);
        w32(b, 0);
    }
}

/* Pandemonium 5 TypedArray[int]([i]) keys, every one distinct: a hash that leaves out a typed
 * array's items puts all of them in one bucket (found by fuzzers/decode, 2026-11-25). */
static void p5_typed_keys(wbuf *b, size_t n) {
    w32(b, 25);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        w32(b, 27);
        w32(b, 2);
        w32(b, 1);
        w32(b, 2);
        w32(b, (uint32_t)i);
        w32(b, 0);
    }
}
/* ... and TypedArray[T]([]) for T the element type i % 2 (int, float) repeated: two keys */
static void p5_typed_empty_keys(wbuf *b, size_t n) {
    w32(b, 25);
    w32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        w32(b, 27);
        w32(b, 2 + (uint32_t)(i % 2));
        w32(b, 0);
        w32(b, 0);
    }
}

static void growth(const char *name, const char *dialect, void (*make)(wbuf *, size_t), size_t base,
                   uint32_t keep_num, uint32_t keep_den) {
    double per_byte[3];
    uint64_t probes_per_key = 0;
    for (int k = 0; k < 3; k++) {
        size_t n = base << (2 * k);
        wbuf b = {0};
        make(&b, n);
        gdw_decode_options o = gdw_decode_options_default();
        o.mode = GDW_MODE_ENGINE_EXACT;
        gdw_doc *doc = NULL;
        memset(&g_counts, 0, sizeof g_counts);
        double t0 = now();
        gdw_status s = gdw_decode(t_dialect(dialect), b.p, b.len, &o, NULL, &doc, NULL, NULL);
        double took = now() - t0;
        gdw_settle_counts c = g_counts;
        CHECK(s == GDW_OK, "%s at %zu: %s", name, n, gdw_status_name(s));
        CHECK(
            c.keys > 0,
            "%s at %zu: the pass told of no keys (the hook gdw_engine_settle_counted not called?)",
            name, n);
        if (keep_num && doc)
            CHECK(gdw_doc_root(doc)->len == n * keep_num / keep_den, "%s at %zu: %u keys kept",
                  name, n, gdw_doc_root(doc)->len);
        uint64_t work = c.probes + c.hashed + c.compared;
        per_byte[k] = (double)work / (double)b.len;
        if (c.keys)
            probes_per_key = c.probes / c.keys > probes_per_key ? c.probes / c.keys
                                                                : probes_per_key;
        printf("growth %-44s %9zu bytes: %7llu keys %8llu probes %9llu hashed %9llu compared  %.4f "
               "s\n",
               name, b.len, (unsigned long long)c.keys, (unsigned long long)c.probes,
               (unsigned long long)c.hashed, (unsigned long long)c.compared, took);
        gdw_doc_free(doc);
        free(b.p);
    }
    /* linear: the work per input byte stays put from 1x to 16x (quadratic: it grows 16-fold) */
    CHECK(per_byte[2] <= 1.5 * per_byte[0] + 0.01,
          "%s: work per byte %.3f at 1x, %.3f at 16x: not linear", name, per_byte[0], per_byte[2]);
    CHECK(probes_per_key <= 4, "%s: %llu probes per key", name, (unsigned long long)probes_per_key);
}

/* gdw_dict_get and a key the bytes repeat (issue 34 #11): a compatible-mode tree keeps both pairs
 * as written and the first is found; an engine-exact tree holds what the engine holds, one key
 * with the last value. */
static void repeated_key(void) {
    uint8_t buf[64];
    /* godot4 {"k": 1, "k": 2} */
    size_t n = t_unhex("1b000000 02000000 04000000 01000000 6b000000 02000000 01000000 04000000 "
                       "01000000 6b000000 02000000 02000000",
                       buf, sizeof buf);
    for (int m = 0; m < 2; m++) {
        gdw_decode_options o = gdw_decode_options_default();
        o.mode = m ? GDW_MODE_ENGINE_EXACT : GDW_MODE_COMPATIBLE;
        gdw_doc *doc = NULL;
        int64_t got = 0;
        CHECK(gdw_decode(t_dialect("godot4"), buf, n, &o, NULL, &doc, NULL, NULL) == GDW_OK,
              "repeated key: decode");
        const gdw_value *root = doc ? gdw_doc_root(doc) : NULL;
        CHECK(root && gdw_get_int(gdw_dict_get(root, "k", 1), &got) && got == (m ? 2 : 1),
              "%s: gdw_dict_get(\"k\") = %lld, want %d", m ? "engine-exact" : "compatible",
              (long long)got, m ? 2 : 1);
        CHECK(root && root->len == (m ? 1u : 2u), "%s: %u pairs", m ? "engine-exact" : "compatible",
              root ? root->len : 0);
        gdw_doc_free(doc);
    }
}

int main(void) {
    repeated_key();
    growth("godot4 float keys 1.0, 2.0, ...", "godot4", g4_float_keys, 4096, 1, 1);
    growth("godot4 double keys (i + 1) * 2^20 + 0.5", "godot4", g4_float64_keys, 4096, 1, 1);
    growth("godot3 int keys i << 16", "godot3", g3_int_keys, 2048, 1, 1);
    growth("godot4 [String or StringName x 16] keys", "godot4", g4_string_or_name, 1024, 1, 1);
    growth("godot4 String and StringName keys alike", "godot4", g4_string_and_name_keys, 4096, 1,
           2);
    growth("godot4 keys nested 1..64 deep over a blob", "godot4", g4_nested_keys, 64, 0, 1);
    growth("pandemonium-5 TypedArray[int]([i]) keys", "pandemonium-5", p5_typed_keys, 4096, 1, 1);
    wbuf tb = {0};
    p5_typed_empty_keys(&tb, N);
    run("pandemonium-5, 200000 keys TypedArray[int or float]([])", "pandemonium-5", tb.p, tb.len,
        2);
    size_t len;
    uint8_t *b = dict_of(27, N, 4, nan_array, &len);
    run("godot4, 200000 keys [NaN] (never equal)", "godot4", b, len, N);
    b = dict_of(18, N, 2, empty_dict3, &len);
    run("godot3, 200000 keys {} (by instance)", "godot3", b, len, N);
    b = dict_of(27, N, 2, int_mod, &len);
    run("godot4, 200000 int keys, 1000 distinct", "godot4", b, len, 1000);
    /* nine ints alike but the last, which is the key's index: all distinct */
    len = 8 + (size_t)N * (4 * 20 + 8);
    uint8_t *buf = malloc(len), *p = buf;
    p = put(p, 27);
    p = put(p, N);
    for (uint32_t i = 0; i < N; i++) {
        p = put(p, 28);
        p = put(p, 9);
        for (int k = 0; k < 8; k++) {
            p = put(p, 2);
            p = put(p, 0);
        }
        p = put(p, 2);
        p = put(p, i);
        p = put(p, 2);
        p = put(p, i);
    }
    run("godot4, 200000 keys [0 x 8, i]", "godot4", buf, len, N);
    return t_finish();
}

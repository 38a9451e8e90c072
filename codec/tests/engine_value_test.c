/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* engine_value_test — merging Dictionary keys the engine finds equal (codec/engine_value.c) on
 * hostile shapes of 200,000 keys: keys that can equal no other key (a NaN inside a Godot 4 Array,
 * a Godot 3 Dictionary) and keys alike in all but their last part. The counts are the engine's
 * (every key distinct, or every repeat merged). The times are printed: before the keys that
 * can equal nothing got buckets of their own, each of the first three took over two minutes
 * (the table's probing was quadratic); after, about 0.1 s. The size "medium" timeout (300 s)
 * stops a regression of that kind. */
#include <time.h>

#include "codec/tests/testing.h"

enum { N = 200000 };

static uint8_t *put(uint8_t *p, uint32_t w) {
    p[0] = (uint8_t)w; p[1] = (uint8_t)(w >> 8); p[2] = (uint8_t)(w >> 16); p[3] = (uint8_t)(w >> 24);
    return p + 4;
}

/* A Dictionary (id dict_id) of n keys made by key(i), each with the value int i. */
static uint8_t *dict_of(uint32_t dict_id, size_t n, size_t key_words, void (*key)(uint32_t *w, size_t i), size_t *len) {
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
static void nan_array(uint32_t *w, size_t i) { (void)i; w[0] = 28; w[1] = 1; w[2] = 3; w[3] = 0x7FC00000u; }
/* Godot 3 {}: Dictionary(18) of no pairs */
static void empty_dict3(uint32_t *w, size_t i) { (void)i; w[0] = 18; w[1] = 0; }
/* Godot 4 int i % 1000: the repeats merge into 1000 keys */
static void int_mod(uint32_t *w, size_t i) { w[0] = 2; w[1] = (uint32_t)(i % 1000); }

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
    if (doc) CHECK(gdw_doc_root(doc)->len == want, "%s: %u keys, want %u", name, gdw_doc_root(doc)->len, want);
    printf("%s: %zu bytes, %u keys in %.3f s\n", name, len, doc ? gdw_doc_root(doc)->len : 0, took);
    gdw_doc_free(doc);
    free(buf);
}

int main(void) {
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
        for (int k = 0; k < 8; k++) { p = put(p, 2); p = put(p, 0); }
        p = put(p, 2);
        p = put(p, i);
        p = put(p, 2);
        p = put(p, i);
    }
    run("godot4, 200000 keys [0 x 8, i]", "godot4", buf, len, N);
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* make_dicts — writes the fuzzing dictionaries (libFuzzer / AFL++ format) from the dialect
 * table: one per dialect, with every type header of that dialect (plain and with the flag bits
 * its reader knows), and all.dict, the union, which the byte-level targets use (their first
 * byte picks the dialect). Common payloads follow: lengths and counts at the edges, class
 * names, UTF-8 edge cases, float bit patterns.
 *   make_dicts OUTDIR       (tools/fuzz/make_dicts fuzzers/dict; //fuzzers:dicts_test checks the
 *                            committed files are what this writes) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire_check.h"

static int g_fail;

static FILE *open_dict(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.dict", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(2); }
    fprintf(f, "# %s.dict: written by tools/fuzz/make_dicts from the dialect table; do not edit.\n", name);
    return f;
}

/* the words already in one file (all.dict holds each word once) */
typedef struct seen { unsigned w[4096]; size_t n; } seen;
static seen g_all, g_one;

static void word(FILE *f, seen *s, unsigned id, unsigned flags, const char *what) {
    unsigned w = id | flags;
    for (size_t i = 0; i < s->n; i++)
        if (s->w[i] == w) return;
    if (s->n < sizeof s->w / sizeof s->w[0]) s->w[s->n++] = w;
    fprintf(f, "# %s\n\"\\x%02X\\x%02X\\x%02X\\x%02X\"\n", what, w & 0xFF, (w >> 8) & 0xFF, (w >> 16) & 0xFF, w >> 24);
}

static void headers(FILE *f, seen *s, const gdw_dialect *d) {
    char what[160];
    for (unsigned id = 0; id < gdw_dialect_type_count(d); id++) {
        int t = gdw_dialect_wire_type(d, id);
        const char *name = t >= 0 ? gdw_type_name((gdw_type)t) : "unused id";
        snprintf(what, sizeof what, "%s %u %s", gdw_dialect_name(d), id, name);
        word(f, s, id, 0, what);
        if (t == GDW_INT || t == GDW_FLOAT || gdw_type_has_reals((gdw_type)t) || t == GDW_OBJECT || t == GDW_TYPED_ARRAY ||
            t == GDW_PACKED_TYPED_ARRAY || t == GDW_ARRAY || t == GDW_DICTIONARY) {
            snprintf(what, sizeof what, "%s %u %s, flag bit 16", gdw_dialect_name(d), id, name);
            word(f, s, id, 1u << 16, what);
        }
        if (t == GDW_ARRAY || t == GDW_DICTIONARY) {
            snprintf(what, sizeof what, "%s %u %s, typed (kind 2 in bits 16-17)", gdw_dialect_name(d), id, name);
            word(f, s, id, 2u << 16, what);
        }
        if (t == GDW_DICTIONARY) {
            snprintf(what, sizeof what, "%s %u %s, typed key and value (bits 16-19)", gdw_dialect_name(d), id, name);
            word(f, s, id, 5u << 16, what);
        }
    }
}

static const char *const k_common[] = {
    "# counts and lengths at the edges", "\"\\x00\\x00\\x00\\x00\"", "\"\\x01\\x00\\x00\\x00\"", "\"\\xFF\\xFF\\xFF\\x7F\"",
    "\"\\x00\\x00\\x00\\x80\"", "\"\\xFF\\xFF\\xFF\\xFF\"", "\"\\x00\\x04\\x00\\x00\"", "\"\\x01\\x04\\x00\\x00\"",
    "# class names, paths, strings", "\"Node\"", "\"Resource\"", "\"res://a.gd\"", "\"position\"",
    "# UTF-8 edge cases: BOM, overlong NUL, surrogate, 4-byte, truncated", "\"\\xEF\\xBB\\xBF\"", "\"\\xC0\\x80\"",
    "\"\\xED\\xA0\\x80\"", "\"\\xF0\\x9F\\x98\\x80\"", "\"\\xE6\\x97\"",
    "# floats: 1.0f, NaN f32, inf f32, 1.0, NaN f64, inf f64", "\"\\x00\\x00\\x80\\x3F\"", "\"\\x00\\x00\\xC0\\x7F\"",
    "\"\\x00\\x00\\x80\\x7F\"", "\"\\x00\\x00\\x00\\x00\\x00\\x00\\xF0\\x3F\"", "\"\\x00\\x00\\x00\\x00\\x00\\x00\\xF8\\x7F\"",
    "\"\\x00\\x00\\x00\\x00\\x00\\x00\\xF0\\x7F\"",
    "# 64-bit ints at the edges", "\"\\x00\\x00\\x00\\x80\\x00\\x00\\x00\\x00\"", "\"\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\x7F\"",
    "\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x80\"",
};

static void common(FILE *f) {
    for (size_t i = 0; i < sizeof k_common / sizeof k_common[0]; i++) fprintf(f, "%s\n", k_common[i]);
}

int main(int argc, char **argv) {
    if (argc != 2) { fputs("usage: make_dicts OUTDIR\n", stderr); return 2; }
    FILE *all = open_dict(argv[1], "all");
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = gdw_dialect_at(i);
        FILE *f = open_dict(argv[1], gdw_dialect_name(d));
        g_one.n = 0;
        headers(f, &g_one, d);
        common(f);
        if (fclose(f)) g_fail = 1;
        headers(all, &g_all, d);
    }
    common(all);
    if (fclose(all)) g_fail = 1;
    return g_fail;
}

/* SPDX-License-Identifier: MIT */
/* heap_bound_test — the decoder's heap bound as a property (docs/library.md, "Heap bound"):
 * under an allocator that counts live bytes and refuses any allocation that would take them above
 * gdw_decode_heap_bound(len, opts) (its mode's), adversarial packets decode with their own verdict
 * (never NOMEM), rejected and accepted alike, in every mode, up to 64 MiB. The generators: nesting
 * with forged counts at every depth (each level claims all the input left), over NodePath and
 * PackedStringArray leaves with forged counts; many small parts (empty NodePath subnames, empty
 * string array entries, nulls, empty typed containers); and, for engine-exact mode, typed Arrays
 * whose elements the engine converts into larger values. Prints peak ÷ bound per case. */
#include "codec/tests/testing.h"

/* the bound gdw_decode_heap_bound gives a decode in mode m */
static size_t heap_bound_of(gdw_mode m, size_t len) {
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = m;
    return gdw_decode_heap_bound(len, &o);
}

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;
static void put(buf *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            perror("realloc");
            exit(2);
        }
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}
static void u32(buf *b, uint32_t v) {
    uint8_t w[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, w, 4);
}
static void zeros(buf *b, size_t n) {
    while (n--) put(b, "", 1);
}

/* Wire ids of the two generations the generators use. */
typedef struct ids {
    const char *dialect;
    uint32_t arr, dict, nodepath, strings, packed_bytes;
} ids;
static const ids k_g3 = {"godot3", 19, 18, 15, 23, 20};
static const ids k_g4 = {"godot4", 28, 27, 22, 34, 29};

/* depth containers, each claiming the rest of a `total`-byte packet, over a forged leaf. */
static void forged_nest(buf *b, const ids *w, size_t total, unsigned depth, int leaf, bool dicts) {
    for (unsigned i = 0; i < depth; i++) {
        /* key null, then the value */
        if (dicts && i % 2) {
            u32(b, w->dict);
            u32(b, (uint32_t)(total / 8));
            u32(b, 0);
        } else {
            u32(b, w->arr);
            u32(b, (uint32_t)(total / 4));
        }
    }
    if (leaf == 1) {
        u32(b, w->nodepath);
        u32(b, 0x80000000u | (uint32_t)(total / 4));
        u32(b, 0);
        u32(b, 0);
    } else if (leaf == 2) {
        u32(b, w->strings);
        u32(b, (uint32_t)(total / 4));
    }
    if (b->n < total) zeros(b, total - b->n);
}

/* An Array of n copies of one element (bytes e[0..k)). */
static void array_of(buf *b, const ids *w, size_t n, const uint8_t *e, size_t k) {
    u32(b, w->arr);
    u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) put(b, e, k);
}

static double g_worst[3];

static void run(const char *what, const char *dialect, const buf *b, int want_accept,
                bool objects) {
    const gdw_dialect *d = t_dialect(dialect);
    for (int m = 0; m < 3; m++) {
        t_counting c = {0, 0, heap_bound_of((gdw_mode)m, b->n), 0};
        gdw_allocator a = t_counting_allocator(&c);
        gdw_decode_options o = gdw_decode_options_default();
        o.mode = (gdw_mode)m;
        o.allow_objects = objects;
        gdw_doc *doc = NULL;
        gdw_error err;
        gdw_status s = gdw_decode(d, b->p, b->n, &o, &a, &doc, NULL, &err);
        gdw_status v = gdw_validate(d, b->p, b->n, &o, NULL, NULL);
        double ratio = (double)c.peak / (double)c.limit;
        if (ratio > g_worst[m]) g_worst[m] = ratio;
        printf("%-44s %-7s %-12s %10zu bytes  peak %11zu  bound %11zu  %.3f  %s\n", what, dialect,
               gdw_mode_name((gdw_mode)m), b->n, c.peak, c.limit, ratio,
               s ? gdw_status_name(s) : "accepted");
        CHECK(s != GDW_ERR_NOMEM && c.refused == 0,
              "%s [%s, %s]: the decode needed more than the bound %zu (%ld refused)", what, dialect,
              gdw_mode_name((gdw_mode)m), c.limit, c.refused);
        CHECK(s == v, "%s [%s, %s]: decode says %s, validate %s", what, dialect,
              gdw_mode_name((gdw_mode)m), gdw_status_name(s), gdw_status_name(v));
        if (want_accept >= 0 && m == GDW_MODE_COMPATIBLE)
            CHECK((s == GDW_OK) == (want_accept == 1), "%s [%s]: %s", what, dialect,
                  gdw_status_name(s));
        gdw_doc_free(doc);
        CHECK(c.live == 0, "%s: %zu bytes left allocated", what, c.live);
    }
}

int main(int argc, char **argv) {
    size_t big = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) << 20 : (size_t)64 << 20;
    const ids *gens[] = {&k_g3, &k_g4};
    for (size_t g = 0; g < 2; g++) {
        const ids *w = gens[g];
        char what[96];
        /* nesting with forged counts at every depth (rejected: the counts cannot be filled) */
        static const struct {
            unsigned depth;
            size_t total;
        } nests[] = {{1024, 64 << 10}, {1024, 1 << 20}, {64, 8 << 20}, {1000, 0}};
        for (size_t k = 0; k < sizeof nests / sizeof nests[0]; k++)
            for (int leaf = 0; leaf < 3; leaf++)
                for (int dicts = 0; dicts < 2; dicts++) {
                    size_t total = nests[k].total ? nests[k].total : big;
                    /* the largest once per generation */
                    if (!nests[k].total && (leaf || dicts)) continue;
                    buf b = {0};
                    forged_nest(&b, w, total, nests[k].depth, leaf, dicts);
                    snprintf(what, sizeof what, "%u forged %s, %s leaf", nests[k].depth,
                             dicts ? "Arrays+Dicts" : "Arrays",
                             leaf == 1   ? "NodePath"
                             : leaf == 2 ? "string array"
                                         : "no");
                    run(what, w->dialect, &b, 0, false);
                    free(b.p);
                }
        /* forged counts that all fit together: 1024 levels, each claiming 1/1024 of the input, so
         * every level may reserve storage, and the packet still cannot be complete */
        for (int dicts = 0; dicts < 2; dicts++) {
            buf b = {0};
            size_t total = 4u << 20;
            for (unsigned i = 0; i < 1024; i++) {
                uint32_t claim = (uint32_t)(total / 4 / 1024 - 2);
                if (dicts && i % 2) {
                    u32(&b, w->dict);
                    u32(&b, claim / 2);
                    u32(&b, 0);
                } else {
                    u32(&b, w->arr);
                    u32(&b, claim);
                }
            }
            zeros(&b, total - b.n);
            snprintf(what, sizeof what, "1024 levels of counts that fit%s", dicts ? ", Dicts" : "");
            run(what, w->dialect, &b, -1, false);
            free(b.p);
        }
        /* many small parts (accepted) */
        {
            buf e = {0}, b = {0};
            u32(&e, w->nodepath);
            u32(&e, 0x80000001u);
            u32(&e, 62);
            u32(&e, 0);
            for (int i = 0; i < 63; i++) u32(&e, 0);
            array_of(&b, w, (8u << 20) / e.n, e.p, e.n);
            run("NodePaths of 63 empty parts, 8 MiB", w->dialect, &b, 1, false);
            free(e.p);
            free(b.p);
        }
        {
            buf b = {0};
            u32(&b, w->strings);
            u32(&b, (uint32_t)((16u << 20) / 4));
            zeros(&b, 16u << 20);
            run("empty string array entries, 16 MiB", w->dialect, &b, 1, false);
            free(b.p);
        }
        {
            buf b = {0};
            uint8_t nil[4] = {0};
            array_of(&b, w, big / 4 - 2, nil, 4);
            run("nulls, the largest input", w->dialect, &b, 1, false);
            free(b.p);
        }
    }
    /* Godot 4: typed containers; engine-exact converts packed arrays into Arrays (16 bytes an
     * element) */
    {
        buf e = {0}, b = {0};
        u32(&e, 28 | (1u << 16));
        u32(&e, 2);
        u32(&e, 0); /* Array[int]([]) */
        array_of(&b, &k_g4, (8u << 20) / e.n, e.p, e.n);
        run("empty typed Arrays, 8 MiB", "godot4", &b, 1, false);
        free(e.p);
        free(b.p);
    }
    {
        buf e = {0}, b = {0};
        /* Dictionary[int, int]({}) */
        u32(&e, 27 | (1u << 16) | (1u << 18));
        u32(&e, 2);
        u32(&e, 2);
        u32(&e, 0);
        array_of(&b, &k_g4, (8u << 20) / e.n, e.p, e.n);
        run("empty typed Dictionaries, 8 MiB", "godot4", &b, 1, false);
        free(e.p);
        free(b.p);
    }
    {
        /* Array[Array] holding PackedByteArrays: the engine makes each an Array of ints */
        buf b = {0};
        size_t n = 16, per = (8u << 20) / n;
        u32(&b, 28 | (1u << 16));
        u32(&b, 28);
        u32(&b, (uint32_t)n);
        for (size_t i = 0; i < n; i++) {
            u32(&b, 29);
            u32(&b, (uint32_t)per);
            zeros(&b, per);
        }
        run("Array[Array] of PackedByteArrays, 8 MiB", "godot4", &b, 1, false);
        free(b.p);
    }
    printf("worst peak / bound: compatible %.3f, strict %.3f, engine-exact %.3f\n", g_worst[0],
           g_worst[1], g_worst[2]);
    return t_finish();
}

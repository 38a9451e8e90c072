/* SPDX-License-Identifier: MIT */
/* watch_test — gdw_validate_watched against gdw_decode (issue 29): on every engine's own packets
 * and byte-mutated copies of them, in every dialect, compatible and strict mode with watch_engine,
 * the same verdict, length or error, and the same answer to "does the engine hold what the bytes
 * spell" (gdw_doc_engine_same of the decoded tree). Both answers are counted, so the test cannot
 * pass on nothing. Then the one place the two may differ: more than 256 mergeable Dictionary keys
 * open at once, where the validation says false (the engine may hold another value) and the tree
 * may say true. */
#include "codec/tests/testing.h"

static long g_same, g_other, g_rejected;

static void check_packet(const uint8_t *p, size_t n, gdw_mode mode) {
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = mode;
    o.watch_engine = true;
    o.allow_objects = true;
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = gdw_dialect_at(i);
        gdw_doc *doc = NULL;
        gdw_error ed, ev;
        size_t ud = 0, uv = 0;
        gdw_status sd = gdw_decode(d, p, n, &o, NULL, &doc, &ud, &ed);
        bool same = true;
        gdw_status sv = gdw_validate_watched(d, p, n, &o, &uv, &ev, &same);
        const char *dn = gdw_dialect_name(d), *m = gdw_mode_name(mode);
        CHECK(sd == sv, "%s, %s, %zu bytes: decode %s, watched validation %s", dn, m, n,
              gdw_status_name(sd), gdw_status_name(sv));
        if (sd == GDW_OK && sv == GDW_OK) {
            CHECK(ud == uv, "%s: consumed %zu and %zu", dn, ud, uv);
            bool tree = gdw_doc_engine_same(doc);
            CHECK(same == tree,
                  "%s, %s, %zu bytes: the engine holds the same value: %d by the tree, %d by the "
                  "watched validation",
                  dn, m, n, tree, same);
            if (tree) g_same++;
            else g_other++;
        } else if (sd == sv) {
            CHECK(ed.offset == ev.offset && strcmp(ed.path, ev.path) == 0 && !same,
                  "%s: the error differs", dn);
            g_rejected++;
        }
        gdw_doc_free(doc);
    }
}

static uint64_t g_rng = 0x2545F4914F6CDD1Du;

/* Five Dictionaries nested, each of 60 int keys (the last holding the next): 300 keys open at once.
 * */
static void many_open_keys(void) {
    const gdw_dialect *g3 = t_dialect("godot3");
    static uint8_t p[1 << 16];
    size_t n = 0;
    for (int level = 0; level < 5; level++) {
        uint32_t w[2] = {18, 60};
        memcpy(p + n, w, 8), n += 8;
        for (int k = 0; k < 59; k++) {
            uint32_t kv[4] = {2, (uint32_t)k, 2, 0};
            memcpy(p + n, kv, 16), n += 16;
        }
        uint32_t last[2] = {2, 59};
        memcpy(p + n, last, 8), n += 8; /* the key; its value is the next level */
    }
    uint32_t nil = 0;
    memcpy(p + n, &nil, 4), n += 4;
    gdw_decode_options o = gdw_decode_options_default();
    o.watch_engine = true;
    gdw_doc *doc = NULL;
    CHECK(gdw_decode(g3, p, n, &o, NULL, &doc, NULL, NULL) == GDW_OK,
          "the nested Dictionaries decode");
    bool same = true;
    CHECK(gdw_validate_watched(g3, p, n, &o, NULL, NULL, &same) == GDW_OK, "and validate");
    CHECK(gdw_doc_engine_same(doc) && !same,
          "300 open keys: the tree %d (distinct keys), the validation %d (it kept 256)",
          gdw_doc_engine_same(doc), same);
    gdw_doc_free(doc);
    /* without watch_engine nothing is said: false, as gdw_doc_engine_same of such a decode */
    o.watch_engine = false;
    same = true;
    CHECK(gdw_validate_watched(g3, p, n, &o, NULL, NULL, &same) == GDW_OK && !same,
          "no watch: engine_same false");
    CHECK(gdw_validate_watched(g3, p, n, &o, NULL, NULL, NULL) == GDW_OK,
          "engine_same may be NULL");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: watch_test PACKETS.tsv...\n");
        return 2;
    }
    static char line[1 << 16];
    static uint8_t p[1 << 15], m[1 << 15];
    size_t packets = 0, n = 0;
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "watch_test: cannot open %s\n", argv[a]);
            return 2;
        }
        while (t_tsv_packet(f, line, sizeof line, p, sizeof p, &n)) {
            if (n == 0) continue;
            packets++;
            check_packet(p, n, GDW_MODE_COMPATIBLE);
            check_packet(p, n, GDW_MODE_STRICT);
            for (int k = 0; k < 6; k++) {
                t_mutate(p, n, m, k, &g_rng);
                check_packet(m, n, GDW_MODE_COMPATIBLE);
            }
        }
        fclose(f);
    }
    printf("%zu engine packets (and 6 mutations each): %ld accepted rows where the engine holds "
           "the same value, %ld where it may "
           "not, %ld rejected alike\n",
           packets, g_same, g_other, g_rejected);
    CHECK(packets >= 500 && g_same >= 100000 && g_other >= 5000 && g_rejected >= 10000,
          "too few cases of some kind");
    many_open_keys();
    return t_finish();
}

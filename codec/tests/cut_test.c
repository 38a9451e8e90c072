/* SPDX-License-Identifier: MIT */
/* cut_test — gdw_decode_options.keep_nodes against the whole decode. A decode that keeps only its
 * tree's first nodes (a cut tree, gdw_doc_cut) gives the whole decode's verdict, length, error,
 * gdw_doc_engine_same and digest, passes on_node the same values in the same order, keeps the first
 * nodes as they are (its text, as gdw_text_print_head prints it, is the whole value's to keep_nodes
 * characters, which is what `gdwire check` prints from it), is cut exactly where the value has more
 * nodes than it keeps (and otherwise is the whole tree), and holds no more of the heap than the
 * whole tree does. In engine-exact mode nothing is cut and on_node sees the tree the engine pass
 * made.
 *
 * Inputs: the engines' packets (the TSV files given as arguments), byte-mutated copies of them and
 * every fuzz corpus input (its packet: the bytes after fuzz.h's two-byte head), in every row, in
 * compatible mode with and without watching the engine's value, in strict mode and in engine-exact
 * mode, each cut at 1, 2, 5, 40 and 256 nodes. A cut walk borrows the input: the whole decode it is
 * held to does too. */
#define _DEFAULT_SOURCE /* d_type */
#include "codec/tests/testing.h"

static const uint64_t K0 = 0x0123456789ABCDEFu, K1 = 0xFEDCBA9876543210u;
static const size_t k_keep[] = {1, 2, 5, 40, 256};
#define HEAD_MAX 257

static long g_engine_unsure, g_packets, g_decodes_cut, g_cut_trees, g_whole_trees, g_equal_apart;

typedef struct seen {
    uint64_t hash;
    size_t n;
} seen;

static void on_node(void *ctx, const gdw_value *v, unsigned depth) {
    seen *s = ctx;
    s->hash = (s->hash ^ ((uint64_t)v->type | (uint64_t)depth << 8 | (uint64_t)v->len << 24)) *
              0x100000001B3u;
    s->n++;
}

static gdw_visit_answer count_node(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                   const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)v, (void)parent, (void)slot, (void)depth;
    (*(size_t *)ctx)++;
    return GDW_VISIT_GO;
}

typedef struct decoded {
    gdw_status s;
    gdw_doc *doc;
    size_t consumed;
    gdw_error err;
    gdw_digest digest;
    seen nodes;
} decoded;

static void decode(decoded *x, const gdw_dialect *d, const uint8_t *p, size_t n,
                   const gdw_decode_options *base, size_t keep) {
    gdw_decode_options o = *base;
    gdw_digest_init(&x->digest, K0, K1, p, n);
    x->nodes.hash = 0xcbf29ce484222325u;
    x->nodes.n = 0;
    gdw_decode_events events = {.digest = &x->digest, .on_node = on_node, .on_node_ctx = &x->nodes};
    o.events = &events;
    o.keep_nodes = keep;
    x->consumed = 0;
    x->doc = NULL;
    x->s = gdw_decode(d, p, n, &o, NULL, &x->doc, &x->consumed, &x->err);
}

static void check_row(const gdw_dialect *d, const uint8_t *p, size_t n, const gdw_decode_options *o,
                      const gdw_doc **whole_out) {
    const char *dn = gdw_dialect_name(d), *mode = gdw_mode_name(o->mode);
    static decoded whole;
    gdw_doc_free(whole.doc);
    gdw_decode_options wo = *o;
    wo.borrow_input = o->mode != GDW_MODE_ENGINE_EXACT; /* as a cut walk reads it (keep_nodes) */
    decode(&whole, d, p, n, &wo, 0);
    *whole_out = whole.doc;
    size_t nodes = 0;
    if (whole.s == GDW_OK) gdw_visit(gdw_doc_root(whole.doc), GDW_VISIT_PRE, count_node, &nodes);
    char head_whole[HEAD_MAX + 1], head_cut[HEAD_MAX + 1];
    for (size_t k = 0; k < sizeof k_keep / sizeof k_keep[0]; k++) {
        size_t keep = k_keep[k];
        decoded cut;
        decode(&cut, d, p, n, o, keep);
        g_decodes_cut++;
        CHECK(cut.s == whole.s, "%s, %s, %zu bytes, keep %zu: %s, whole %s", dn, mode, n, keep,
              gdw_status_name(cut.s), gdw_status_name(whole.s));
        if (cut.s != whole.s) {
            gdw_doc_free(cut.doc);
            continue;
        }
        if (cut.s != GDW_OK) {
            CHECK(t_same_error(&cut.err, &whole.err),
                  "%s, %s, %zu bytes, keep %zu: fails at %zu (%s), whole at %zu (%s)", dn, mode, n,
                  keep, cut.err.offset, cut.err.message, whole.err.offset, whole.err.message);
            continue;
        }
        const gdw_value *c = gdw_doc_root(cut.doc), *w = gdw_doc_root(whole.doc);
        CHECK(cut.consumed == whole.consumed,
              "%s, %s, %zu bytes, keep %zu: consumed %zu, whole %zu", dn, mode, n, keep,
              cut.consumed, whole.consumed);
        /* past the cut a watched Dictionary's keys wait on a stack of 256 (as a watching
         * validation's): more open at once are taken as keys the engine may merge, "may differ"
         * where the whole tree could tell */
        CHECK(!gdw_doc_engine_same(cut.doc) || gdw_doc_engine_same(whole.doc),
              "%s, %s, %zu bytes, keep %zu: engine_same, the whole tree not", dn, mode, n, keep);
        g_engine_unsure += gdw_doc_engine_same(cut.doc) != gdw_doc_engine_same(whole.doc);
        CHECK(memcmp(cut.digest.h, whole.digest.h, sizeof cut.digest.h) == 0,
              "%s, %s, %zu bytes, keep %zu: another digest", dn, mode, n, keep);
        CHECK(cut.nodes.n == whole.nodes.n && cut.nodes.hash == whole.nodes.hash,
              "%s, %s, %zu bytes, keep %zu: on_node saw %zu values, whole %zu", dn, mode, n, keep,
              cut.nodes.n, whole.nodes.n);
        bool cuts = o->mode != GDW_MODE_ENGINE_EXACT && nodes > keep;
        CHECK(gdw_doc_cut(cut.doc) == cuts,
              "%s, %s, %zu bytes, keep %zu: %s, the value has %zu nodes", dn, mode, n, keep,
              gdw_doc_cut(cut.doc) ? "cut" : "not cut", nodes);
        if (!gdw_doc_cut(cut.doc)) {
            CHECK(gdw_value_equal(c, w),
                  "%s, %s, %zu bytes, keep %zu: not cut, yet not the whole tree", dn, mode, n,
                  keep);
            g_whole_trees++;
        } else {
            g_cut_trees++;
            size_t cut_nodes = 0;
            gdw_visit(c, GDW_VISIT_PRE, count_node, &cut_nodes);
            /* the first keep nodes, and a null for each pair cut inside its key (at most one an
             * open container) */
            CHECK(cut_nodes <= keep + GDW_HARD_MAX_DEPTH + 1,
                  "%s, %s, %zu bytes, keep %zu: %zu nodes kept", dn, mode, n, keep, cut_nodes);
        }
        size_t width = keep < HEAD_MAX ? keep : HEAD_MAX;
        gdw_text_print_head(c, head_cut, width + 1);
        gdw_text_print_head(w, head_whole, width + 1);
        CHECK(strcmp(head_cut, head_whole) == 0,
              "%s, %s, %zu bytes, keep %zu: the cut tree prints\n  %s\nthe whole one\n  %s", dn,
              mode, n, keep, head_cut, head_whole);
        CHECK(gdw_doc_heap_bytes(cut.doc) <= gdw_doc_heap_bytes(whole.doc) + 32768,
              "%s, %s, %zu bytes, keep %zu: holds %zu bytes, the whole tree %zu", dn, mode, n, keep,
              gdw_doc_heap_bytes(cut.doc), gdw_doc_heap_bytes(whole.doc));
        gdw_doc_free(cut.doc);
    }
}

static void check_packet(const uint8_t *p, size_t n) {
    g_packets++;
    gdw_decode_options modes[4];
    for (int m = 0; m < 4; m++) modes[m] = gdw_decode_options_default();
    modes[0].watch_engine = true;
    modes[2].mode = GDW_MODE_STRICT;
    modes[3].mode = GDW_MODE_ENGINE_EXACT;
    static gdw_doc *trees[64];
    static gdw_digest digests[64];
    for (int m = 0; m < 4; m++) {
        size_t nd = gdw_dialect_count() < 64 ? gdw_dialect_count() : 64;
        for (size_t i = 0; i < nd; i++) {
            const gdw_doc *whole;
            check_row(gdw_dialect_at(i), p, n, &modes[m], &whole);
            gdw_doc_free(trees[i]);
            trees[i] = NULL;
            if (m != 1 || !whole) continue;
            /* how often two rows read equal values from other places (different digests): `gdwire
             * check` then decodes whole trees to tell its meanings apart (same_meaning) */
            gdw_decode(gdw_dialect_at(i), p, n, &modes[m], NULL, &trees[i], NULL, NULL);
            gdw_digest_init(&digests[i], K0, K1, p, n);
            gdw_digest_tree(&digests[i], gdw_doc_root(trees[i]));
            for (size_t j = 0; j < i; j++)
                if (trees[j] && gdw_value_equal(gdw_doc_root(trees[i]), gdw_doc_root(trees[j])) &&
                    memcmp(digests[i].h, digests[j].h, sizeof digests[i].h) != 0)
                    g_equal_apart++;
        }
        for (size_t i = 0; i < nd; i++) {
            gdw_doc_free(trees[i]);
            trees[i] = NULL;
        }
    }
}

static uint64_t g_rng = 0x9E3779B97F4A7C15u;

static void packet_or_mutation(void *ctx, const uint8_t *p, size_t n, int k) {
    (void)ctx, (void)k;
    check_packet(p, n);
}

static bool ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: cut_test PACKETS.tsv... [CORPUS FILES...]\n");
        return 2;
    }
    long files = 0;
    for (int i = 1; i < argc; i++) {
        if (ends_with(argv[i], ".tsv")) t_tsv_each(argv[i], 2, &g_rng, packet_or_mutation, NULL);
        else if (!ends_with(argv[i], "README.md")) {
            FILE *f = fopen(argv[i], "rb");
            if (!f) {
                fprintf(stderr, "cannot open %s\n", argv[i]);
                return 2;
            }
            static uint8_t buf[1 << 16];
            size_t n = fread(buf, 1, sizeof buf, f);
            fclose(f);
            /* fuzz.h: row and mode in the first two bytes */
            if (n > 2) check_packet(buf + 2, n - 2);
            files++;
        }
    }
    printf("%ld packets (%ld of them corpus inputs), every row, four modes: %ld cut decodes agree "
           "with the whole ones (%ld trees cut, %ld "
           "whole; %ld of them say \"may differ\" from the engine's value where the whole tree "
           "knows it does not); %ld pairs of rows read equal values "
           "with different digests (compatible mode)\n",
           g_packets, files, g_decodes_cut, g_cut_trees, g_whole_trees, g_engine_unsure,
           g_equal_apart);
    CHECK(g_cut_trees > 10000 && g_whole_trees > 10000,
          "too few trees to tell anything (%ld cut, %ld whole)", g_cut_trees, g_whole_trees);
    return t_finish();
}

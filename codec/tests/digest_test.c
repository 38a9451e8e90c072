/* SPDX-License-Identifier: MIT */
/* digest_test — gdw_digest against gdw_value_equal, its one definition of "the same value".
 *
 * 1. Engine-made packets (the TSV files given as arguments) and byte-mutated copies of them,
 * decoded
 *    zero-copy in every dialect, compatible and engine-exact: for every pair of accepted trees of a
 *    packet, equal digests only where gdw_value_equal says equal (no false merge), and equal trees
 *    with different digests only where a byte string of one tree lies outside the packet (the case
 *    the header leaves to gdw_value_equal). The pairs of each kind are counted, so the test cannot
 *    pass on nothing. Each decode also adds its tree in its own walk (gdw_decode_events.digest),
 *    zero-copy
 *    and copying, in the three modes: the same digest as gdw_digest_tree of the tree it returns.
 * 2. Values parsed from text (their bytes outside any packet, so read): a value parsed twice
 * digests
 *    alike; each of a list of values that differ in one thing equality looks at digests apart from
 *    every other.
 * 3. What equality does not look at does not count (an int's wire width, an RID's id flag), and the
 *    key does. */
#include "codec/tests/testing.h"

static const uint64_t K0 = 0x0123456789ABCDEFu, K1 = 0xFEDCBA9876543210u;

static void digest_of(const gdw_value *v, const uint8_t *packet, size_t len, uint64_t key0,
                      uint64_t out[2]) {
    gdw_digest g;
    gdw_digest_init(&g, key0, K1, packet, len);
    if (!gdw_digest_tree(&g, v)) {
        out[0] = out[1] = 0;
        return;
    }
    out[0] = g.h[0];
    out[1] = g.h[1];
}

/* ---- 1. packets ------------------------------------------------------------------------------ */

typedef struct inside {
    const uint8_t *p;
    size_t n;
    bool all;
} inside;

static void bytes_inside(inside *in, const void *ptr, size_t n) {
    const uint8_t *b = ptr;
    if (n && !(b >= in->p && b + n <= in->p + in->n)) in->all = false;
}

static gdw_visit_answer inside_at(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                  const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)parent, (void)slot, (void)depth;
    inside *in = ctx;
    const char *sp;
    size_t sl;
    if (gdw_get_string(v, &sp, &sl)) bytes_inside(in, sp, sl);
    else if (v->type == GDW_PACKED_BYTE_ARRAY) bytes_inside(in, v->u.bytes, v->len);
    else if (v->type == GDW_PACKED_STRING_ARRAY || v->type == GDW_NODE_PATH ||
             v->type == GDW_OBJECT || v->type == GDW_IMAGE || v->type == GDW_SIGNAL)
        /* strings held beside the value: taken as outside (the lenient side of the check) */
        in->all = false;
    else if (v->type != GDW_FLOAT &&
             (gdw_type_has_reals((gdw_type)v->type) || gdw_type_components((gdw_type)v->type)))
        bytes_inside(in, v->u.bytes, 1);
    return GDW_VISIT_GO;
}

static bool all_inside(const gdw_value *v, const uint8_t *p, size_t n) {
    inside in = {p, n, true};
    gdw_visit(v, GDW_VISIT_PRE, inside_at, &in);
    return in.all;
}

static long g_equal_same, g_unequal_apart, g_equal_apart_outside, g_pairs, g_walk_same, g_encoded;

/* A decode's own digest (gdw_decode_events.digest, added as its walk makes the nodes) against a
 * walk of the tree it returns. */
static void walk_digest(const gdw_dialect *d, const uint8_t *p, size_t n,
                        const gdw_decode_options *base, bool borrow) {
    gdw_decode_options o = *base;
    gdw_digest g;
    gdw_digest_init(&g, K0, K1, p, n);
    o.borrow_input = borrow;
    o.allow_objects = true; /* full Objects too: their property names are made outside read_value */
    gdw_decode_events events = {.digest = &g};
    o.events = &events;
    gdw_doc *doc = NULL;
    if (gdw_decode(d, p, n, &o, NULL, &doc, NULL, NULL) != GDW_OK) return;
    uint64_t want[2];
    digest_of(gdw_doc_root(doc), p, n, K0, want);
    CHECK(g.h[0] == want[0] && g.h[1] == want[1],
          "%s, mode %s, %s: the decode's digest is not its tree's (%zu bytes)", gdw_dialect_name(d),
          gdw_mode_name(o.mode), borrow ? "zero-copy" : "copying", n);
    g_walk_same += g.h[0] == want[0] && g.h[1] == want[1];
    gdw_doc_free(doc);
}

static void check_packet(const uint8_t *p, size_t n, gdw_mode mode) {
    size_t nd = gdw_dialect_count();
    gdw_doc *docs[64] = {0};
    uint64_t dg[64][2];
    gdw_decode_options o = gdw_decode_options_default();
    o.borrow_input = true;
    o.allow_trailing = true;
    o.mode = mode;
    for (size_t i = 0; i < nd && i < 64; i++) {
        if (gdw_decode(gdw_dialect_at(i), p, n, &o, NULL, &docs[i], NULL, NULL) != GDW_OK) {
            docs[i] = NULL;
            continue;
        }
        digest_of(gdw_doc_root(docs[i]), p, n, K0, dg[i]);
        walk_digest(gdw_dialect_at(i), p, n, &o, true);
        walk_digest(gdw_dialect_at(i), p, n, &o, false);
        if (mode == GDW_MODE_COMPATIBLE) {
            gdw_decode_options so = o;
            so.mode = GDW_MODE_STRICT;
            walk_digest(gdw_dialect_at(i), p, n, &so, true);
        }
    }
    for (size_t i = 0; i < nd && i < 64; i++)
        for (size_t j = i + 1; j < nd && j < 64; j++) {
            if (!docs[i] || !docs[j]) continue;
            const gdw_value *a = gdw_doc_root(docs[i]), *b = gdw_doc_root(docs[j]);
            bool eq = gdw_value_equal(a, b), same = dg[i][0] == dg[j][0] && dg[i][1] == dg[j][1];
            g_pairs++;
            if (same) {
                CHECK(eq, "%s and %s: the same digest for unequal trees (%zu bytes, mode %s)",
                      gdw_dialect_name(gdw_dialect_at(i)), gdw_dialect_name(gdw_dialect_at(j)), n,
                      gdw_mode_name(mode));
                g_equal_same += eq;
            } else if (!eq) {
                g_unequal_apart++;
            } else {
                bool outside = !all_inside(a, p, n) || !all_inside(b, p, n);
                CHECK(outside,
                      "%s and %s: equal trees, all bytes in the packet, yet different digests (%zu "
                      "bytes, mode %s)",
                      gdw_dialect_name(gdw_dialect_at(i)), gdw_dialect_name(gdw_dialect_at(j)), n,
                      gdw_mode_name(mode));
                g_equal_apart_outside++;
            }
        }
    for (size_t i = 0; i < nd && i < 64; i++) gdw_doc_free(docs[i]);
}

static uint64_t g_rng = 0x9E3779B97F4A7C15u;

/* A packet in both modes; a mutation (k >= 0) in compatible mode. */
static void packet_or_mutation(void *ctx, const uint8_t *p, size_t n, int k) {
    (void)ctx;
    check_packet(p, n, GDW_MODE_COMPATIBLE);
    if (k < 0) check_packet(p, n, GDW_MODE_ENGINE_EXACT);
}

static size_t packets_from(const char *path) {
    return t_tsv_each(path, 6, &g_rng, packet_or_mutation, NULL);
}

/* ---- 2. values from text --------------------------------------------------------------------- */

static gdw_doc *parse(const char *text) {
    gdw_doc *d = NULL;
    if (gdw_text_parse(text, strlen(text), NULL, &d, NULL)) {
        fprintf(stderr, "digest_test: cannot parse %s\n", text);
        exit(2);
    }
    return d;
}

static const char *const k_values[] = {
    "null",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "1.5",
    "f64:1.5",
    "0.1",
    "-0.0",
    "0.0",
    "\"\"",
    "\"a\"",
    "\"b\"",
    "\"ab\"",
    "&\"a\"",
    "\"0123456789abcdefXYZ\"",
    "\"0123456789abcdefXYz\"",
    "Vector2(1, 2)",
    "Vector2(2, 1)",
    "f64:Vector2(1, 2)",
    "Vector2i(1, 2)",
    "Vector3(1, 2, 3)",
    "Color(1, 0, 0, 1)",
    "[]",
    "[1]",
    "[1, 2]",
    "[2, 1]",
    "[[1], 2]",
    "[1, [2]]",
    "[[]]",
    "[[], []]",
    "{}",
    "{1: 2}",
    "{2: 1}",
    "{\"a\": 1}",
    "{&\"a\": 1}",
    "{\"a\": [1]}",
    "[{}]",
    "Array[int]([1])",
    "Array[float]([])",
    "[1.5]",
    "NodePath(\"a\")",
    "NodePath(\"/a\")",
    "NodePath(\"a:b\")",
    "NodePath(\"a/b\")",
    "NodePath(\"b\")",
    "PackedByteArray(1, 2)",
    "PackedByteArray(2, 1)",
    "PackedByteArray()",
    "PackedInt32Array(1, 2)",
    "PackedStringArray(\"a\", \"bc\")",
    "PackedStringArray(\"ab\", \"c\")",
    "PackedVector2Array(1.5, 2.0)",
    "Object(\"Node\", {\"p\": 1})",
    "Object(\"Node\", {\"p\": 2})",
    "Object(\"Node2D\", {\"p\": 1})",
    "Object(null)",
    "ObjectID(5)",
    "ObjectID(6)",
    "RID()",
};

static void values(void) {
    size_t n = sizeof k_values / sizeof k_values[0];
    gdw_doc *docs[sizeof k_values / sizeof k_values[0]];
    uint64_t dg[sizeof k_values / sizeof k_values[0]][2];
    for (size_t i = 0; i < n; i++) {
        docs[i] = parse(k_values[i]);
        digest_of(gdw_doc_root(docs[i]), NULL, 0, K0, dg[i]);
        gdw_doc *again = parse(k_values[i]);
        uint64_t d2[2];
        digest_of(gdw_doc_root(again), NULL, 0, K0, d2);
        CHECK(d2[0] == dg[i][0] && d2[1] == dg[i][1], "%s parsed twice: different digests",
              k_values[i]);
        digest_of(gdw_doc_root(again), NULL, 0, K0 + 1, d2);
        CHECK(d2[0] != dg[i][0] && d2[1] != dg[i][1], "%s: another key, the same digest",
              k_values[i]);
        gdw_doc_free(again);
        /* its bytes in every dialect that writes it, decoded with the decode's own digest (full
         * Objects among them: no engine packet holds one) */
        gdw_decode_options o = gdw_decode_options_default();
        for (size_t k = 0; k < gdw_dialect_count(); k++) {
            uint8_t *bytes = NULL;
            size_t len = 0;
            if (gdw_encode_alloc(gdw_dialect_at(k), gdw_doc_root(docs[i]), NULL, NULL, &bytes, &len,
                                 NULL) != GDW_OK)
                continue;
            walk_digest(gdw_dialect_at(k), bytes, len, &o, true);
            walk_digest(gdw_dialect_at(k), bytes, len, &o, false);
            g_encoded += strncmp(k_values[i], "Object(\"", 8) == 0;
            free(bytes);
        }
    }
    CHECK(g_encoded >= 10, "only %ld full Objects encoded", g_encoded);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (gdw_value_equal(gdw_doc_root(docs[i]), gdw_doc_root(docs[j]))) {
                CHECK(0, "the list holds equal values: %s, %s", k_values[i], k_values[j]);
                continue;
            }
            CHECK(dg[i][0] != dg[j][0] || dg[i][1] != dg[j][1], "%s and %s: the same digest",
                  k_values[i], k_values[j]);
        }
    for (size_t i = 0; i < n; i++) gdw_doc_free(docs[i]);
}

/* ---- 3. what equality leaves out ------------------------------------------------------------- */

static void ignored(void) {
    const gdw_dialect *g3 = t_dialect("godot3"), *g4 = t_dialect("godot4");
    uint8_t a[64], b[64];
    size_t na = t_unhex("02000000 01000000", a, sizeof a),
           nb = t_unhex("02000100 01000000 00000000", b, sizeof b);
    gdw_doc *da = NULL, *db = NULL;
    CHECK(gdw_decode(g3, a, na, NULL, NULL, &da, NULL, NULL) == GDW_OK &&
              gdw_decode(g3, b, nb, NULL, NULL, &db, NULL, NULL) == GDW_OK,
          "decode ints");
    uint64_t x[2], y[2];
    digest_of(gdw_doc_root(da), a, na, K0, x);
    digest_of(gdw_doc_root(db), b, nb, K0, y);
    CHECK(gdw_value_equal(gdw_doc_root(da), gdw_doc_root(db)) && x[0] == y[0] && x[1] == y[1],
          "an int's wire width changes its digest");
    gdw_doc_free(da);
    gdw_doc_free(db);
    /* RID() in Godot 4 (an id of 0 on the wire) and RID() parsed */
    na = t_unhex("17000000 00000000 00000000", a, sizeof a);
    da = NULL;
    db = parse("RID()");
    CHECK(gdw_decode(g4, a, na, NULL, NULL, &da, NULL, NULL) == GDW_OK, "decode RID");
    digest_of(gdw_doc_root(da), a, na, K0, x);
    digest_of(gdw_doc_root(db), NULL, 0, K0, y);
    CHECK(gdw_value_equal(gdw_doc_root(da), gdw_doc_root(db)) && x[0] == y[0] && x[1] == y[1],
          "an RID's id flag changes its digest");
    gdw_doc_free(da);
    gdw_doc_free(db);
    /* NULL */
    gdw_digest g;
    gdw_digest_init(&g, K0, K1, NULL, 0);
    CHECK(!gdw_digest_tree(&g, NULL) && !gdw_digest_tree(NULL, NULL), "NULL tree");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: digest_test PACKETS.tsv...\n");
        return 2;
    }
    size_t packets = 0;
    for (int i = 1; i < argc; i++) packets += packets_from(argv[i]);
    printf("%zu engine packets (and 6 mutations each): %ld pairs of accepted trees; %ld equal with "
           "one digest, %ld unequal apart, "
           "%ld equal apart (a string outside the packet); %ld decodes' own digests equal to their "
           "trees'\n",
           packets, g_pairs, g_equal_same, g_unequal_apart, g_equal_apart_outside, g_walk_same);
    CHECK(packets >= 500, "only %zu packets read", packets);
    CHECK(g_equal_same >= 10000 && g_unequal_apart >= 10000,
          "too few pairs of either kind: the test would prove little");
    CHECK(g_walk_same >= 100000, "only %ld decodes' own digests compared", g_walk_same);
    values();
    ignored();
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* children_test — gdw_children is the one definition of a value's children (issue 32).
 *
 * Linked with -Wl,--wrap=gdw_children: every call of gdw_children from the library (and from the
 * fuzz helpers, fuzzers/fuzz.h) reaches __wrap_gdw_children below, which adds a fake container
 * kind. A fake container is an Array of 2 whose own items pointer leads to a decoy, [9, 9]; its
 * real children, [1, "x"] (or, for the second kind, [1, Vector2i(1, 2)]), are known to
 * gdw_children alone. Every walk of the library (the printers, gdw_visit, the encoder and its error
 * paths, the converter, equality and diff, the builder's copy, element access, the fuzz targets'
 * walks) must see the real children: a walk that found a container's items another way would see
 * the decoy. Without the wrap every check of the first part fails. Then gdw_children itself, and
 * gdw_visit's order, skipping and stopping. */
#include "codec/tests/testing.h"
#include "fuzzers/fuzz.h"

size_t __real_gdw_children(const gdw_value *v, const gdw_value **items);
size_t __wrap_gdw_children(const gdw_value *v, const gdw_value **items);

/* A fake container is told by its items pointer: the decoy's items. */
static const gdw_value *g_decoy[2], *g_real[2];
static long g_fakes_seen;

size_t __wrap_gdw_children(const gdw_value *v, const gdw_value **items) {
    for (int i = 0; i < 2; i++)
        if (v && v->type == GDW_ARRAY && v->u.items == g_decoy[i] && g_decoy[i]) {
            g_fakes_seen++;
            if (items) *items = g_real[i];
            return 2;
        }
    return __real_gdw_children(v, items);
}

static gdw_doc *parse(const char *text) {
    gdw_doc *d = NULL;
    if (gdw_text_parse(text, strlen(text), NULL, &d, NULL)) {
        fprintf(stderr, "cannot parse %s\n", text);
        exit(1);
    }
    return d;
}

static gdw_value *items_of(const gdw_value *v) {
    const gdw_value *items = NULL;
    __real_gdw_children(v, &items);
    return (gdw_value *)items;
}

static gdw_visit_answer count_at(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                 const gdw_value *parent, size_t slot, unsigned depth) {
    (void)v, (void)parent, (void)slot, (void)depth;
    ((long *)ctx)[ev == GDW_VISIT_PRE ? 0 : 1]++;
    return GDW_VISIT_GO;
}

static bool is_x(const gdw_value *v) {
    return v->type == GDW_STRING && v->len == 1 && v->u.bytes[0] == 'x';
}

/* gdw_visit's events as text: <T d before the children, >T d after; T a digit for an int, A an
 * Array, D a Dictionary, s a String; d the depth. A Dictionary's children are skipped; 7 stops. */
typedef struct order {
    char seen[256];
    size_t n;
} order;
static gdw_visit_answer order_at(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                 const gdw_value *parent, size_t slot, unsigned depth) {
    (void)parent, (void)slot;
    order *o = ctx;
    int64_t i = -1;
    char c = gdw_get_int(v, &i)          ? (char)('0' + i)
             : v->type == GDW_ARRAY      ? 'A'
             : v->type == GDW_DICTIONARY ? 'D'
                                         : 's';
    if (o->n + 4 < sizeof o->seen) {
        o->seen[o->n++] = ev == GDW_VISIT_PRE ? '<' : '>';
        o->seen[o->n++] = c;
        o->seen[o->n++] = (char)('0' + depth);
        o->seen[o->n] = 0;
    }
    if (ev == GDW_VISIT_PRE && v->type == GDW_DICTIONARY) return GDW_VISIT_SKIP;
    return ev == GDW_VISIT_PRE && i == 7 ? GDW_VISIT_STOP : GDW_VISIT_GO;
}

static char *text(const gdw_value *v) {
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    gdw_text_print(v, buf[k], sizeof buf[k]);
    return buf[k];
}

int main(void) {
    /* ---- a fake container kind, seen by every walk through gdw_children alone */
    gdw_doc *decoy = parse("[9, 9]"), *decoy2 = parse("[9, 9]"), *real = parse("[1, \"x\"]"),
            *bad = parse("[1, Vector2i(1, 2)]");
    g_decoy[0] = items_of(gdw_doc_root(decoy)), g_real[0] = items_of(gdw_doc_root(real));
    g_decoy[1] = items_of(gdw_doc_root(decoy2)), g_real[1] = items_of(gdw_doc_root(bad));
    gdw_doc *tree = parse("[[9, 9], {\"k\": [9, 9]}]"),
            *want = parse("[[1, \"x\"], {\"k\": [1, \"x\"]}]");
    gdw_value *top = items_of(gdw_doc_root(tree));
    top[0].u.items = (gdw_value *)g_decoy[0];
    items_of(&top[1])[1].u.items = (gdw_value *)g_decoy[0];
    const gdw_value *v = gdw_doc_root(tree), *w = gdw_doc_root(want);

    const gdw_dialect *g3 = t_dialect("godot3"), *g4 = t_dialect("godot4");
    CHECK(!strcmp(text(v), text(w)), "text printer: %s", text(v));
    char j1[512], j2[512];
    gdw_json_print(v, j1, sizeof j1);
    gdw_json_print(w, j2, sizeof j2);
    CHECK(!strcmp(j1, j2), "JSON printer: %s", j1);
    long seen[2] = {0, 0}, want_seen[2] = {0, 0};
    gdw_visit(v, GDW_VISIT_PRE | GDW_VISIT_POST, count_at, seen);
    gdw_visit(w, GDW_VISIT_PRE | GDW_VISIT_POST, count_at, want_seen);
    CHECK(seen[0] == want_seen[0] && seen[1] == want_seen[1] && seen[0] == 9,
          "gdw_visit: %ld and %ld events, want %ld and %ld", seen[0], seen[1], want_seen[0],
          want_seen[1]);
    uint8_t b1[256], b2[256];
    size_t n1 = 0, n2 = 0;
    CHECK(gdw_encode(g3, v, NULL, b1, sizeof b1, &n1, NULL) == GDW_OK &&
              gdw_encode(g3, w, NULL, b2, sizeof b2, &n2, NULL) == GDW_OK && n1 == n2 &&
              !memcmp(b1, b2, n1),
          "encoder: %zu bytes, want %zu", n1, n2);
    gdw_doc *conv = NULL;
    CHECK(gdw_convert(v, g4, NULL, NULL, &conv, NULL) == GDW_OK &&
              !strcmp(text(gdw_doc_root(conv)), text(w)),
          "converter: %s", conv ? text(gdw_doc_root(conv)) : "failed");
    gdw_doc_free(conv);
    gdw_difference diff;
    CHECK(gdw_value_equal(v, w) && !gdw_value_diff(v, w, &diff),
          "equality and diff: differ at '%s'", diff.path);
    gdw_builder *b = gdw_builder_new(NULL);
    gdw_doc *copy = NULL;
    CHECK(gdw_build_value(b, v) == GDW_OK && gdw_build_finish(b, &copy, NULL) == GDW_OK &&
              !strcmp(text(gdw_doc_root(copy)), text(w)),
          "builder's copy: %s", copy ? text(gdw_doc_root(copy)) : "failed");
    gdw_builder_free(b);
    gdw_doc_free(copy);
    const gdw_value *x = gdw_array_get(&top[0], 1);
    CHECK(x && is_x(x), "gdw_array_get: %s", x ? text(x) : "NULL");
    CHECK(gdw_items(&top[0]) == g_real[0], "gdw_items is not gdw_children's");
    CHECK(fuzz_any(v, is_x), "fuzz_any does not find \"x\"");
    CHECK(fuzz_values_match(v, w), "fuzz_values_match");
    /* the second kind, [1, Vector2i(1, 2)]: the encoder's error names the place through the wrap */
    top[0].u.items = (gdw_value *)g_decoy[1];
    gdw_error e;
    gdw_status s = gdw_encode(g3, v, NULL, b1, sizeof b1, &n1, &e);
    CHECK(s == GDW_ERR_UNSUPPORTED_TYPE && !strcmp(e.path, "[0][1]"),
          "encoder error: %s at '%s', want UNSUPPORTED_TYPE at [0][1]", gdw_status_name(s),
          s ? e.path : "");
    s = gdw_convert(v, g3, NULL, NULL, &conv, &e);
    CHECK(s == GDW_ERR_LOSSY && !strcmp(e.path, "[0][1]"),
          "converter error: %s at '%s', want LOSSY at [0][1]", gdw_status_name(s), s ? e.path : "");
    CHECK(g_fakes_seen > 0,
          "the wrap was never called: the test is not linked with --wrap=gdw_children");

    /* ---- gdw_children itself */
    gdw_doc *d = parse("{\"a\": 1, 2: [3]}");
    const gdw_value *items = (const gdw_value *)1;
    CHECK(gdw_children(gdw_doc_root(d), &items) == 4 && items && is_x(&items[0]) == false &&
              items[2].type == GDW_INT,
          "a Dictionary's keys and values alternate");
    CHECK(gdw_children(gdw_doc_root(d), NULL) == 4, "items may be NULL");
    CHECK(gdw_children(&items[1], &items) == 0 && items == NULL,
          "a scalar has no children, and *items is NULL");
    CHECK(gdw_children(NULL, &items) == 0 && items == NULL, "NULL has no children");
    gdw_doc_free(d);
    d = parse("Object(\"Node\", {\"p\": 1})");
    CHECK(gdw_children(gdw_doc_root(d), &items) == 2 && items[0].type == GDW_STRING,
          "an Object's names and values alternate");
    gdw_doc_free(d);
    d = parse("[ObjectID(5), Object(null), PackedByteArray(1, 2), [], Array[int]([4, 5])]");
    const gdw_value *all;
    CHECK(gdw_children(gdw_doc_root(d), &all) == 5, "five items");
    for (int i = 0; i < 4; i++)
        CHECK(gdw_children(&all[i], &items) == 0 && !items, "item %d (%s) has no children", i,
              text(&all[i]));
    CHECK(gdw_children(&all[4], &items) == 2 && items && items[1].u.i == 5,
          "a typed Array's items are its children");
    gdw_doc_free(d);

    /* ---- gdw_visit: pre- and post-order, skip, stop */
    d = parse("[1, [2, {3: 4}], 5, [7, 8], 9]");
    order o = {{0}, 0};
    CHECK(!gdw_visit(gdw_doc_root(d), GDW_VISIT_PRE | GDW_VISIT_POST, order_at, &o),
          "a stopped walk answers false");
    CHECK(!strcmp(o.seen, "<A0<11>11<A1<22>22<D2>D2>A1<51>51<A1<72"), "order, skip and stop: %s",
          o.seen);
    o.n = 0;
    o.seen[0] = 0;
    gdw_doc_free(d);
    d = parse("[1, [2]]");
    CHECK(gdw_visit(gdw_doc_root(d), GDW_VISIT_POST, order_at, &o) &&
              !strcmp(o.seen, ">11>22>A1>A0"),
          "post-order alone: %s", o.seen);
    CHECK(!gdw_visit(NULL, GDW_VISIT_PRE, order_at, &o) &&
              !gdw_visit(gdw_doc_root(d), GDW_VISIT_PRE, NULL, NULL),
          "NULL root or fn");
    gdw_doc_free(d);
    /* values of a real-based value in bulk */
    d = parse("PackedVector2Array(1.5, 2.0, -3.0, 4.25)");
    double r[8];
    CHECK(gdw_value_reals(gdw_doc_root(d), 1, 8, r) == 3 && r[0] == 2.0 && r[1] == -3.0 &&
              r[2] == 4.25,
          "gdw_value_reals from 1");
    CHECK(gdw_value_reals(gdw_doc_root(d), 4, 8, r) == 0 &&
              gdw_value_reals(gdw_doc_root(d), 0, 0, r) == 0,
          "past the end, or none wanted");
    gdw_doc_free(d);
    d = parse("[2.5, \"s\", Vector3i(1, 2, 3)]");
    CHECK(gdw_children(gdw_doc_root(d), &all) == 3 && gdw_value_reals(&all[0], 0, 8, r) == 1 &&
              r[0] == 2.5,
          "a float is one real");
    CHECK(gdw_value_reals(&all[1], 0, 8, r) == 0 && gdw_value_reals(&all[2], 0, 8, r) == 0 &&
              gdw_value_reals(NULL, 0, 8, r) == 0,
          "no reals");
    gdw_doc_free(d);

    gdw_doc_free(decoy), gdw_doc_free(decoy2), gdw_doc_free(real), gdw_doc_free(bad),
        gdw_doc_free(tree), gdw_doc_free(want);
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target `readers`: the ways the library compares and reads decoded trees agree with each other, on the
 * trees of every dialect that accepts the packet (gdw_check_dialect, compatible mode, zero-copy):
 *   - each decode's own digest (gdw_decode_events.digest, added as the decode makes the nodes) is the digest
 *     of the tree it returns (gdw_digest_tree), and equal digests only for equal trees (gdw_value_equal);
 *   - gdw_value_diff finds a difference exactly where gdw_value_equal finds the trees unequal, its two nodes
 *     differ, and a path of indices alone names them (gdw_path_get);
 *   - gdw_check_rank_rows counts the misread-looking reals gdw_value_misread_reals counts, ranks every row in
 *     1..n and its best first, gives every row a reason, and gdw_check_summary a sentence;
 *   - the getters (gdw_get_*, gdw_count, gdw_array_get, gdw_dict_*, gdw_packed_*) agree with the nodes of
 *     the best row's tree;
 *   - in engine-exact mode (byte 1), gdw_doc_approximate counts a marked value exactly where
 *     fail_if_approximate fails the decode, and both name the same first place and reason;
 *   - gdw_decode_json prints what gdw_json_print_alloc prints of the tree gdw_decode makes.
 *   - rows alike on all one row's answer rested on (gdw_dialects_read_alike) answer alike: status, error,
 *     consumed bytes, strict and engine verdicts, tree, digest and what they read (gdw_check shares on it);
 * Its own target (it was a share of validate_vs_decode's inputs): the features these walks reach made
 * libFuzzer's bookkeeping cost that target 45% of its inputs a second. Input layout: fuzz.h. */
#include "fuzzers/fuzz.h"

static uint64_t digest_tree(const gdw_value *v, const fuzz_input *in, int lane) {
    gdw_digest g;
    gdw_digest_init(&g, 0x243F6A8885A308D3u, 0x13198A2E03707344u, in->packet, in->len);
    FUZZ_CHECK(gdw_digest_tree(&g, v), "gdw_digest_tree refused a decoded tree");
    return g.h[lane];
}

/* The getters against the node they read. */
static gdw_visit_answer getters_at(void *ctx, gdw_visit_event ev, const gdw_value *v, const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ctx, (void)ev, (void)parent, (void)slot, (void)depth;
    int64_t i;
    double x;
    bool b;
    const char *str;
    size_t len;
    FUZZ_CHECK(gdw_get_int(v, &i) == (v->type == GDW_INT) && (v->type != GDW_INT || i == v->u.i), "gdw_get_int");
    FUZZ_CHECK(gdw_get_int_in(v, 0, 9, &i) == (v->type == GDW_INT && v->u.i >= 0 && v->u.i <= 9), "gdw_get_int_in");
    FUZZ_CHECK(gdw_get_bool(v, &b) == (v->type == GDW_BOOL), "gdw_get_bool");
    FUZZ_CHECK(gdw_get_float(v, &x) == (v->type == GDW_FLOAT), "gdw_get_float");
    FUZZ_CHECK(gdw_get_number(v, &x) == (v->type == GDW_FLOAT || v->type == GDW_INT), "gdw_get_number");
    bool text = v->type == GDW_STRING || v->type == GDW_STRING_NAME;
    FUZZ_CHECK(gdw_get_string(v, &str, &len) == text && (!text || (len == v->len && (!len || memcmp(str, v->u.bytes, len) == 0))), "gdw_get_string");
    const gdw_value *items;
    size_t n = gdw_children(v, &items);
    if (v->type == GDW_ARRAY) {
        FUZZ_CHECK(gdw_count(v) == v->len, "gdw_count of an Array");
        for (size_t k = 0; k < n; k++) FUZZ_CHECK(gdw_array_get(v, k) == &items[k], "gdw_array_get(%zu)", k);
        FUZZ_CHECK(gdw_array_get(v, v->len) == NULL, "gdw_array_get past the end");
    }
    if (v->type == GDW_DICTIONARY) {
        FUZZ_CHECK(gdw_count(v) == v->len, "gdw_count of a Dictionary");
        for (size_t k = 0; k < n / 2; k++) {
            FUZZ_CHECK(gdw_dict_key_at(v, k) == &items[2 * k] && gdw_dict_value_at(v, k) == &items[2 * k + 1], "gdw_dict_key_at / value_at(%zu)", k);
            const gdw_value *key = &items[2 * k], *got = NULL;
            if (gdw_get_string(key, &str, &len)) got = gdw_dict_get(v, str, len);
            else if (gdw_get_int(key, &i)) got = gdw_dict_get_int(v, i);
            else continue;
            /* the first key with those bytes (or that int): this one or one before it */
            FUZZ_CHECK(got != NULL && got >= &items[1] && got <= &items[2 * k + 1] && (got - items) % 2 == 1, "gdw_dict_get of key %zu", k);
        }
        FUZZ_CHECK(gdw_dict_key_at(v, v->len) == NULL, "gdw_dict_key_at past the end");
    }
    size_t comps = gdw_type_components((gdw_type)v->type);
    if (v->type == GDW_PACKED_STRING_ARRAY) {
        for (size_t k = 0; k < v->len; k++) FUZZ_CHECK(gdw_packed_string_at(v, k, &str, &len), "gdw_packed_string_at(%zu)", k);
        FUZZ_CHECK(!gdw_packed_string_at(v, v->len, &str, &len), "gdw_packed_string_at past the end");
    } else if (v->type == GDW_PACKED_BYTE_ARRAY) {
        const uint8_t *p;
        FUZZ_CHECK(gdw_packed_bytes(v, &p, &len) && len == v->len, "gdw_packed_bytes");
    } else if (v->type > GDW_PACKED_BYTE_ARRAY && v->type <= GDW_PACKED_COLOR_ARRAY && comps > 0 && comps <= 4) {
        double c[4], one;
        for (size_t k = 0; k < v->len && k < 64; k++) {
            FUZZ_CHECK(gdw_packed_at(v, k, c, comps), "gdw_packed_at(%zu)", k);
            one = gdw_type_has_reals((gdw_type)v->type) ? gdw_value_real(v, k * comps) : (double)gdw_value_int_at(v, k * comps);
            FUZZ_CHECK(memcmp(&one, &c[0], sizeof one) == 0 || (one != one && c[0] != c[0]), "gdw_packed_at(%zu) reads another component", k);
        }
        FUZZ_CHECK(!gdw_packed_at(v, v->len, c, comps) && (comps == 1 || !gdw_packed_at(v, 0, c, comps - 1)), "gdw_packed_at out of range");
    } else if (comps > 1 && comps <= 16) { /* the math types (Vector2 ... Projection): exactly their count of components */
        double c[16];
        FUZZ_CHECK(gdw_get_components(v, (gdw_type)v->type, c, comps) && !gdw_get_components(v, (gdw_type)v->type, c, comps - 1),
                   "gdw_get_components of a %s", gdw_type_name((gdw_type)v->type));
        for (size_t k = 0; k < comps; k++) {
            double one = gdw_type_has_reals((gdw_type)v->type) ? gdw_value_real(v, k) : (double)gdw_value_int_at(v, k);
            FUZZ_CHECK(memcmp(&one, &c[k], sizeof one) == 0 || (one != one && c[k] != c[k]), "gdw_get_components: component %zu", k);
        }
    }
    return GDW_VISIT_GO;
}

/* res[0..nd): gdw_check_dialect's answers with their documents (zero-copy), each decode's own digest in dg[].
 * Each accepted row against the next accepted one (every pair would be 78 an input). */
static void readers_agree(const fuzz_input *in, const gdw_check_result *res, const gdw_digest *dg) {
    size_t nd = gdw_dialect_count();
    for (size_t i = 0; i < nd; i++) {
        if (res[i].status != GDW_OK) continue;
        const gdw_value *v = gdw_doc_root(res[i].doc);
        FUZZ_CHECK(dg[i].h[0] == digest_tree(v, in, 0) && dg[i].h[1] == digest_tree(v, in, 1), "%s: the decode's own digest is not its tree's",
                   gdw_dialect_name(gdw_dialect_at(i)));
    }
    for (size_t i = 0; i < nd; i++)
        for (size_t j = i + 1; j < nd; j++) {
            if (res[i].status != GDW_OK || res[j].status != GDW_OK) continue;
            if (j > i + 1 && res[j - 1].status == GDW_OK) break; /* only the next accepted row */
            const gdw_value *a = gdw_doc_root(res[i].doc), *b = gdw_doc_root(res[j].doc);
            bool eq = gdw_value_equal(a, b);
            FUZZ_CHECK(eq || dg[i].h[0] != dg[j].h[0] || dg[i].h[1] != dg[j].h[1], "%s and %s: unequal trees with one digest",
                       gdw_dialect_name(res[i].dialect), gdw_dialect_name(res[j].dialect));
            gdw_difference d;
            bool differ = gdw_value_diff(a, b, &d);
            FUZZ_CHECK(differ == !eq, "%s and %s: gdw_value_diff says %s, gdw_value_equal %s", gdw_dialect_name(res[i].dialect),
                       gdw_dialect_name(res[j].dialect), differ ? "different" : "equal", eq ? "equal" : "different");
            if (differ) {
                size_t plen = strlen(d.path);
                FUZZ_CHECK(d.a && d.b && !gdw_value_equal(d.a, d.b), "gdw_value_diff's nodes at '%s' are equal", d.path);
                /* a path of indices alone names its nodes (a path cut at GDW_PATH_MAX names nothing whole; a key or
                 * property name step finds the first of its name, which a tree may hold twice, or is shown shortened) */
                if (plen + 1 < GDW_PATH_MAX && !strchr(d.path, '"'))
                    FUZZ_CHECK(gdw_path_get(a, d.path, plen, NULL) == d.a && gdw_path_get(b, d.path, plen, NULL) == d.b,
                               "gdw_value_diff's path '%s' does not name its nodes", d.path);
            }
        }
    static gdw_check_row ranked[64];
    for (size_t i = 0; i < nd; i++) ranked[i].result = res[i], ranked[i].meaning = -1, ranked[i].misread = SIZE_MAX;
    size_t best = gdw_check_rank_rows(ranked, nd, in->packet, in->len, &in->opt, true);
    FUZZ_CHECK(best < nd && ranked[best].rank == 1 && ranked[best].first, "gdw_check_rank_rows's best ranks %d", ranked[best].rank);
    for (size_t i = 0; i < nd; i++) {
        FUZZ_CHECK(ranked[i].rank >= 1 && (size_t)ranked[i].rank <= nd, "rank %d", ranked[i].rank);
        FUZZ_CHECK(!ranked[i].first || ranked[i].rank == 1, "%s: first at rank %d", gdw_dialect_name(res[i].dialect), ranked[i].rank);
        FUZZ_CHECK(ranked[i].reason[0] && memchr(ranked[i].reason, 0, sizeof ranked[i].reason), "%s: no reason", gdw_dialect_name(res[i].dialect));
        if (res[i].status == GDW_OK)
            FUZZ_CHECK(ranked[i].misread == gdw_value_misread_reals(gdw_doc_root(res[i].doc)),
                       "%s: gdw_check_rank_rows counted %zu misread reals, the tree holds %zu", gdw_dialect_name(res[i].dialect), ranked[i].misread,
                       gdw_value_misread_reals(gdw_doc_root(res[i].doc)));
    }
    char summary[640];
    FUZZ_CHECK(gdw_check_summary(ranked, nd, best, in->packet, in->len, 0, summary, sizeof summary) > 0, "no summary");
    if (res[best].status == GDW_OK) gdw_visit(gdw_doc_root(res[best].doc), GDW_VISIT_PRE, getters_at, NULL);

    /* engine-exact: the values it does not compute, and the decode that refuses them */
    gdw_decode_options eo = in->opt;
    eo.mode = GDW_MODE_ENGINE_EXACT;
    eo.trace = NULL;
    gdw_doc *doc = NULL;
    if (in->opt.mode == GDW_MODE_ENGINE_EXACT && gdw_decode(in->dialect, in->packet, in->len, &eo, NULL, &doc, NULL, NULL) == GDW_OK) {
        char path[GDW_PATH_MAX];
        const char *why = NULL;
        size_t approx = gdw_doc_approximate(doc, path, &why);
        eo.fail_if_approximate = true;
        gdw_doc *strict_doc = NULL;
        gdw_error err;
        gdw_status s = gdw_decode(in->dialect, in->packet, in->len, &eo, NULL, &strict_doc, NULL, &err);
        FUZZ_CHECK((s == GDW_ERR_LOSSY) == (approx > 0) && (s == GDW_OK) == (approx == 0), "%zu approximate values, fail_if_approximate: %s", approx,
                   gdw_status_name(s));
        /* the first place names a marked value in the tree, and the failing decode names it too */
        if (approx) {
            const gdw_value *at = strlen(path) + 1 < GDW_PATH_MAX ? gdw_path_get(gdw_doc_root(doc), path, strlen(path), NULL) : NULL;
            FUZZ_CHECK(why && *why && err.message && strcmp(why, err.message) == 0, "gdw_doc_approximate's reason is not the failing decode's");
            FUZZ_CHECK(strcmp(path, err.path) == 0, "gdw_doc_approximate's first place '%s', the failing decode's '%s'", path, err.path);
            FUZZ_CHECK(strlen(path) + 1 >= GDW_PATH_MAX || (at && (at->flags & GDW_VF_APPROXIMATE)), "gdw_doc_approximate's first place '%s' is not a marked value", path);
        }
        gdw_doc_free(strict_doc);
        gdw_doc_free(doc);
    }

    /* gdw_decode_json: the JSON printer's text of the tree gdw_decode makes */
    gdw_decode_options jo = in->opt;
    jo.trace = NULL;
    char *json = NULL;
    size_t json_len = 0;
    doc = NULL;
    gdw_status sj = gdw_decode_json(in->dialect, in->packet, in->len, &jo, 0, NULL, &json, &json_len, NULL);
    gdw_status sd = gdw_decode(in->dialect, in->packet, in->len, &jo, NULL, &doc, NULL, NULL);
    FUZZ_CHECK(sj == sd, "gdw_decode_json %s, gdw_decode %s", gdw_status_name(sj), gdw_status_name(sd));
    if (sd == GDW_OK) {
        size_t n = 0;
        char *want = gdw_json_print_alloc(gdw_doc_root(doc), NULL, &n);
        FUZZ_CHECK(want && n == json_len && memcmp(want, json, n) == 0, "gdw_decode_json prints another text than gdw_json_print_alloc");
        free(want);
    }
    free(json);
    gdw_doc_free(doc);
}

/* A row alike another on all that row's answer rested on (gdw_dialects_read_alike) answers as it does: what
 * gdw_check and `gdwire check` rely on to give it that answer without walking (codec/tests/check_share_test
 * holds it on the corpus; here on every input). */
static bool same_error(const gdw_error *a, const gdw_error *b) {
    return a->code == b->code && a->offset == b->offset && a->value_offset == b->value_offset && a->engine_error == b->engine_error &&
           strcmp(a->message, b->message) == 0 && strcmp(a->path, b->path) == 0;
}

/* A row alike another but for a rule only the strict verdict read takes the other's answer with a strict
 * verdict of its own (gdw_check_take_answer): its own answer. */
static void taken_agrees(const fuzz_input *in, const gdw_decode_options *o, const gdw_check_result *a, const gdw_rules_read *read_a,
                         const gdw_check_result *b, const gdw_digest *da, const gdw_digest *db) {
    gdw_check_result t;
    gdw_check_take_answer(b->dialect, in->packet, in->len, o, a, read_a, &t);
    const char *na = gdw_dialect_name(a->dialect), *nb = gdw_dialect_name(b->dialect);
    FUZZ_CHECK(t.status == b->status && (t.status != GDW_OK ? same_error(&t.err, &b->err) : t.consumed == b->consumed),
               "%s takes %s's answer, yet its own walk answers otherwise", nb, na);
    if (t.status != GDW_OK) return;
    FUZZ_CHECK(t.reencodes_same == b->reencodes_same && (t.reencodes_same || same_error(&t.strict_err, &b->strict_err)) &&
                   t.engine_exact == b->engine_exact,
               "%s takes %s's answer, yet its own strict or engine verdict differs", nb, na);
    FUZZ_CHECK(gdw_value_equal(gdw_doc_root(a->doc), gdw_doc_root(b->doc)) && da->h[0] == db->h[0] && da->h[1] == db->h[1],
               "%s takes %s's answer, yet decodes another tree or digest", nb, na);
}

static void rows_alike_agree(const fuzz_input *in, const gdw_decode_options *o, const gdw_check_result *res, const gdw_digest *dg,
                             const gdw_rules_read *read, size_t nd) {
    for (size_t i = 0; i < nd; i++)
        for (size_t j = 0; j < nd; j++) {
            if (i == j || !gdw_dialects_answer_alike(res[i].dialect, res[j].dialect, &read[i])) continue;
            taken_agrees(in, o, &res[i], &read[i], &res[j], &dg[i], &dg[j]);
            if (!gdw_dialects_read_alike(res[i].dialect, res[j].dialect, &read[i])) continue;
            const gdw_check_result *a = &res[i], *b = &res[j];
            const char *na = gdw_dialect_name(a->dialect), *nb = gdw_dialect_name(b->dialect);
            FUZZ_CHECK(a->status == b->status && (a->status != GDW_OK ? same_error(&a->err, &b->err) : a->consumed == b->consumed),
                       "%s and %s read alike, yet answer %s / %s", na, nb, gdw_status_name(a->status), gdw_status_name(b->status));
            FUZZ_CHECK(read[i].rules == read[j].rules && read[i].type_ids == read[j].type_ids && read[i].strict_rules == read[j].strict_rules, "%s and %s read alike, yet read other rules or ids", na, nb);
            if (a->status != GDW_OK) continue;
            FUZZ_CHECK(a->reencodes_same == b->reencodes_same && (a->reencodes_same || same_error(&a->strict_err, &b->strict_err)) &&
                           a->engine_exact == b->engine_exact,
                       "%s and %s read alike, yet differ in their strict or engine verdicts", na, nb);
            FUZZ_CHECK(gdw_value_equal(gdw_doc_root(a->doc), gdw_doc_root(b->doc)) && gdw_doc_engine_same(a->doc) == gdw_doc_engine_same(b->doc) &&
                           dg[i].h[0] == dg[j].h[0] && dg[i].h[1] == dg[j].h[1],
                       "%s and %s read alike, yet decode other trees or digests", na, nb);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    size_t nd = gdw_dialect_count();
    gdw_check_result res[64];
    gdw_digest dg[64];
    gdw_rules_read read[64];
    gdw_decode_options o = in.opt;
    o.mode = GDW_MODE_COMPATIBLE;
    o.trace = NULL;
    o.borrow_input = true; /* the input outlives the documents */
    for (size_t i = 0; i < nd && i < 64; i++) {
        gdw_digest_init(&dg[i], 0x243F6A8885A308D3u, 0x13198A2E03707344u, in.packet, in.len);
        gdw_decode_events events = {.digest = &dg[i]};
        o.events = &events;
        memset(&read[i], 0, sizeof read[i]);
        gdw_check_dialect_read(gdw_dialect_at(i), in.packet, in.len, &o, NULL, true, &res[i], &read[i]);
    }
    o.events = NULL;
    rows_alike_agree(&in, &o, res, dg, read, nd < 64 ? nd : 64);
    readers_agree(&in, res, dg);
    for (size_t i = 0; i < nd && i < 64; i++) gdw_doc_free(res[i].doc);
    return 0;
}

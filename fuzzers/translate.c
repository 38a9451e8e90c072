/* SPDX-License-Identifier: MIT */
/* Fuzz target `translate`: decode in row A (byte 0), then in row B (byte 1, bits 3-7) encode the
 * value; where B can hold it (the encoder refuses only what fuzz_encode_refusal_allowed
 * lists), B must decode its own bytes back to the same value (fuzz_values_match: as
 * numbers, and the mappings listed there) and re-encode them identically. And gdw_convert
 * into B: with --lossy it always succeeds, and B's encoder (lossy too) writes its result,
 * which B reads back; strict, it fails only with LOSSY or UNSUPPORTED_TYPE, and where B's
 * encoder takes the value as it is, it changes nothing. (No other target reaches convert.c.)
 * And the JSON forms of the decoded value, on a share of the inputs (the packet's last byte, bits 3-4:
 * the JSON form a quarter, plain JSON a quarter): each reads back equal, and damaged, parses or fails
 * cleanly (fuzz_check_json; `encode` checked them on generated values and held its speed to half). */
#include "fuzzers/fuzz.h"

static void count_report(void *ctx, const gdw_error *where) {
    (void)where;
    ++*(size_t *)ctx;
}

static void check_convert(const gdw_dialect *a, const gdw_dialect *b, const gdw_value *v) {
    gdw_convert_options co = gdw_convert_options_default();
    gdw_error err;
    gdw_doc *conv = NULL;
    gdw_status s = gdw_convert(v, b, &co, NULL, &conv, &err);
    FUZZ_CHECK(s == GDW_OK || s == GDW_ERR_LOSSY || s == GDW_ERR_UNSUPPORTED_TYPE, "%s -> %s: strict convert: %s", gdw_dialect_name(a),
               gdw_dialect_name(b), gdw_status_name(s));
    FUZZ_CHECK(s == GDW_OK || conv == NULL, "a failed convert returned a document");
    if (s == GDW_OK && gdw_encode(b, v, NULL, NULL, 0, &(size_t){0}, NULL) == GDW_OK && !gdw_value_equal(gdw_doc_root(conv), v)) {
        fuzz_print_value("from", v);
        fuzz_print_value("converted", gdw_doc_root(conv));
        FUZZ_CHECK(0, "%s -> %s: convert changed a value the dialect holds as it is", gdw_dialect_name(a), gdw_dialect_name(b));
    }
    gdw_doc_free(conv);
    co.lossy = true;
    conv = NULL;
    s = gdw_convert(v, b, &co, NULL, &conv, &err);
    FUZZ_CHECK(s == GDW_OK, "%s -> %s: lossy convert: %s", gdw_dialect_name(a), gdw_dialect_name(b), gdw_status_name(s));
    gdw_encode_options eo = gdw_encode_options_default();
    size_t narrowed = 0;
    eo.lossy = true;
    eo.lossy_report = count_report;
    eo.lossy_ctx = &narrowed;
    uint8_t *bytes = NULL;
    size_t n = 0;
    s = gdw_encode_alloc(b, gdw_doc_root(conv), &eo, NULL, &bytes, &n, &err);
    FUZZ_CHECK(s == GDW_OK, "%s -> %s: the converted value does not encode: %s (%s at %s)", gdw_dialect_name(a), gdw_dialect_name(b),
               gdw_status_name(s), err.message, err.path);
    /* bytes the encoder narrowed nothing in read back whole (a narrowed packet may read
     * otherwise: that is what its warning says, e.g. a Godot 2.0 joystick motion into 2.1) */
    if (!narrowed) {
        gdw_decode_options o = gdw_decode_options_default();
        o.allow_objects = true;
        gdw_doc *back = NULL;
        size_t used = 0;
        s = gdw_decode(b, bytes, n, &o, NULL, &back, &used, &err);
        FUZZ_CHECK(s == GDW_OK && used == n, "%s -> %s: the converted value's bytes do not decode: %s at %zu, %zu of %zu bytes",
                   gdw_dialect_name(a), gdw_dialect_name(b), gdw_status_name(s), err.offset, used, n);
        gdw_doc_free(back);
    }
    free(bytes);
    gdw_doc_free(conv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    gdw_doc *doc = NULL;
    gdw_error err;
    if (gdw_decode(in.dialect, in.packet, in.len, &in.opt, NULL, &doc, NULL, &err) != GDW_OK) return 0;
    const gdw_value *v = gdw_doc_root(doc);
    unsigned forms = (data[size - 1] >> 3) & 3u;
    if (forms < 2) fuzz_check_json(v, forms == 1, NULL, data, size);
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    /* the row B byte 1's high bits name (each input one pair A -> B: the fuzzer's mutations reach
     * every pair, and an input costs one pair's work, not sixteen) */
    {
        const gdw_dialect *b = fuzz_dialect((uint8_t)in.extra);
        /* the dialect table agrees with itself: found by its name, wire ids and types map both ways,
         * every word and rule the API gives about a row is there (engine evidence, or why there
         * is none: one of the two) */
        FUZZ_CHECK(gdw_dialect_find(gdw_dialect_name(b)) == b, "%s is not found by its name", gdw_dialect_name(b));
        FUZZ_CHECK(gdw_dialect_family(b)[0] && gdw_dialect_summary(b)[0] && gdw_dialect_engines(b) && gdw_dialect_aliases(b) &&
                       gdw_dialect_released(b) && (gdw_dialect_engine_evidence(b) == NULL) != (gdw_dialect_no_engine(b) == NULL) && gdw_dialect_release(b) &&
                       gdw_dialect_base(b) && gdw_dialect_fuzz_id(b) < gdw_row_count(),
                   "%s: a word of the table is missing", gdw_dialect_name(b));
        for (unsigned r = 0; r < GDW_RULE_COUNT; r++)
            FUZZ_CHECK(gdw_rule_name((gdw_rule)r) && gdw_dialect_rule(b, (gdw_rule)r) >= 0, "%s: rule %u", gdw_dialect_name(b), r);
        for (unsigned id = 0; id < gdw_dialect_type_count(b); id++) {
            int t = gdw_dialect_wire_type(b, id);
            FUZZ_CHECK(t < 0 || gdw_dialect_type_id(b, (gdw_type)t) == (int)id, "%s: wire id %u -> %s -> %d", gdw_dialect_name(b), id,
                       gdw_type_name((gdw_type)t), gdw_dialect_type_id(b, (gdw_type)t));
        }
        check_convert(in.dialect, b, v);
        uint8_t *e1 = NULL, *e2 = NULL;
        size_t n1 = 0, n2 = 0, used = 0;
        gdw_status s = fuzz_encode(b, v, &e1, &n1);
        if (s != GDW_OK) {
            FUZZ_CHECK(fuzz_encode_refusal_allowed(s), "%s -> %s: %s", gdw_dialect_name(in.dialect), gdw_dialect_name(b), gdw_status_name(s));
            gdw_doc_free(doc);
            return 0;
        }
        gdw_doc *back = NULL;
        s = gdw_decode(b, e1, n1, &o, NULL, &back, &used, &err);
        FUZZ_CHECK(s == GDW_OK && used == n1, "%s -> %s: the encoding does not decode: %s at %zu", gdw_dialect_name(in.dialect),
                   gdw_dialect_name(b), gdw_status_name(s), err.offset);
        if (!fuzz_values_match(v, gdw_doc_root(back))) {
            fuzz_print_value("from", v);
            fuzz_print_value("back", gdw_doc_root(back));
            FUZZ_CHECK(0, "%s -> %s: the value changed", gdw_dialect_name(in.dialect), gdw_dialect_name(b));
        }
        s = fuzz_encode(b, gdw_doc_root(back), &e2, &n2);
        /* NodePath("/") written for an engine that reads it back as the empty path re-encodes
         * without the absolute flag: the one mapping of fuzz_values_match that changes bytes */
        bool root_path_dropped = !gdw_dialect_rule(b, GDW_RULE_NODEPATH_BARE_ABSOLUTE) && fuzz_any(v, fuzz_is_bare_nodepath);
        FUZZ_CHECK(s == GDW_OK && (root_path_dropped || (n1 == n2 && !memcmp(e1, e2, n1))), "%s: re-encoding differs",
                   gdw_dialect_name(b));
        free(e1);
        free(e2);
        gdw_doc_free(back);
    }
    gdw_doc_free(doc);
    return 0;
}

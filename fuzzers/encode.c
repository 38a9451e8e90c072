/* SPDX-License-Identifier: MIT */
/* Fuzz target `encode` (structure-aware): the input is a stream of choices that builds a value
 * tree (value_gen.h), written as canonical text and parsed. The value is then encoded in the row
 * byte 0 names: where it refuses it, the refusal must be one fuzz_encode_refusal_allowed lists,
 * and "no such type" only when the tree really holds a type the dialect lacks; where it accepts,
 * the sizing pass must equal the bytes written, the bytes must decode (compatible mode, Objects
 * allowed) to the same value, pass strict validation (unless the generator made a value no engine
 * writes: gen_text.noncanonical lists them), and re-encode byte-identically (where the value came
 * back through one of the mappings fuzz_values_match lists, the mapped value must be a fixed
 * point instead).
 * The text form round-trips too: print(parse(text)) parses to an equal value; so does the JSON form.
 * The generator makes the tree twice: as text, parsed, and with the typed gdw_build_* calls of the
 * library's API (gen_value_build). The two must be the same value, and the builder's deep copy
 * (gdw_build_value, inside an Array) is that value again. */
#include "fuzzers/fuzz.h"
#include "fuzzers/value_gen.h"

static int lacks_a_type(const gdw_dialect *d, const gen_text *gt) {
    if (gt->unmapped_ids) return 1; /* only Pandemonium 5 carries an element type id with no type */
    for (unsigned t = 0; t < GDW_TYPE_COUNT; t++)
        if (gt->uses[t] && gdw_dialect_type_id(d, (gdw_type)t) < 0) return 1;
    return 0;
}

/* The value in row d: encoded (or refused as listed), decoded back, strict-valid, re-encoded the
 * same (or, through a listed mapping, a fixed point). */
static void check_row(const gdw_dialect *d, const gdw_value *v, const gen_text *gtp, const char *printed) {
    gdw_error err;
    gdw_status s;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    gdw_decode_options strict = o;
    strict.mode = GDW_MODE_STRICT;
    const char *dn = gdw_dialect_name(d);
    uint8_t *e1 = NULL, *e2 = NULL;
    size_t n1 = 0, n2 = 0, used = 0;
    s = fuzz_encode(d, v, &e1, &n1);
    if (s != GDW_OK) {
        FUZZ_CHECK(fuzz_encode_refusal_allowed(s), "%s: encoding failed with %s\n  value: %.2000s", dn, gdw_status_name(s), printed);
        FUZZ_CHECK(s != GDW_ERR_UNSUPPORTED_TYPE || lacks_a_type(d, gtp), "%s: refused as UNSUPPORTED_TYPE, but has every type used\n  value: %.2000s",
                   dn, printed);
        return;
    }
    gdw_doc *back = NULL;
    s = gdw_decode(d, e1, n1, &o, NULL, &back, &used, &err);
    FUZZ_CHECK(s == GDW_OK && used == n1, "%s: gdwire's encoding does not decode: %s at %zu (%s)\n  value: %.2000s", dn, gdw_status_name(s),
               err.offset, err.message, printed);
    if (!fuzz_values_match(v, gdw_doc_root(back))) {
        fuzz_print_value("encoded", v);
        fuzz_print_value("decoded", gdw_doc_root(back));
        FUZZ_CHECK(0, "%s: the value changed through encode/decode", dn);
    }
    s = gtp->noncanonical ? GDW_OK : gdw_validate(d, e1, n1, &strict, NULL, &err);
    FUZZ_CHECK(s == GDW_OK, "%s: strict mode rejects gdwire's encoding: %s at %zu (%s)\n  value: %.2000s", dn, gdw_status_name(s), err.offset,
               err.message, printed);
    s = fuzz_encode(d, gdw_doc_root(back), &e2, &n2);
    FUZZ_CHECK(s == GDW_OK, "%s: the decoded value does not re-encode: %s", dn, gdw_status_name(s));
    if (gdw_value_same_numbers(v, gdw_doc_root(back))) {
        FUZZ_CHECK(n1 == n2 && !memcmp(e1, e2, n1), "%s: re-encoding differs\n  value: %.2000s", dn, printed);
    } else { /* a listed mapping was applied: the mapped value is a fixed point */
        gdw_doc *back2 = NULL;
        uint8_t *e3 = NULL;
        size_t n3 = 0;
        s = gdw_decode(d, e2, n2, &o, NULL, &back2, NULL, &err);
        FUZZ_CHECK(s == GDW_OK && gdw_value_same_numbers(gdw_doc_root(back), gdw_doc_root(back2)), "%s: mapped value is not stable", dn);
        FUZZ_CHECK(fuzz_encode(d, gdw_doc_root(back2), &e3, &n3) == GDW_OK && n3 == n2 && !memcmp(e2, e3, n2), "%s: mapped value re-encodes differently", dn);
        free(e3);
        gdw_doc_free(back2);
    }
    free(e1);
    free(e2);
    gdw_doc_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gen_text gt;
    gdw_builder *b = gdw_builder_new(NULL);
    FUZZ_CHECK(b != NULL && gen_value_build(data, size, &gt, b), "out of memory");
    gdw_doc *doc = NULL, *built = NULL;
    gdw_error err;
    gdw_status s = gdw_text_parse(gt.s, gt.len, NULL, &doc, &err);
    FUZZ_CHECK(s == GDW_OK, "generated text does not parse: %s at %zu (%s)\n  text: %.2000s", gdw_status_name(s), err.offset, err.message, gt.s);
    const gdw_value *v = gdw_doc_root(doc);

    /* the typed calls made the value the text says */
    s = gdw_build_finish(b, &built, &err);
    FUZZ_CHECK(s == GDW_OK, "the typed gdw_build_* calls failed: %s (%s at %s)\n  text: %.2000s", gdw_status_name(s), err.message, err.path, gt.s);
    if (!gdw_value_equal(v, gdw_doc_root(built))) {
        fuzz_print_value("parsed", v);
        fuzz_print_value("built", gdw_doc_root(built));
        FUZZ_CHECK(0, "the typed gdw_build_* calls made another value than the text\n  text: %.2000s", gt.s);
    }
    gdw_doc_free(built);

    char *printed = gdw_text_print_alloc(v, NULL, NULL);
    FUZZ_CHECK(printed != NULL, "out of memory");
    gdw_doc *again = NULL;
    s = gdw_text_parse(printed, strlen(printed), NULL, &again, &err);
    FUZZ_CHECK(s == GDW_OK && gdw_value_equal(v, gdw_doc_root(again)), "text round trip fails: %s\n  text: %.2000s\n  printed: %.2000s",
               gdw_status_name(s), gt.s, printed);
    gdw_doc_free(again);

    /* the builder copies the whole tree as one item of an Array: the same value */
    gdw_build_begin_array(b);
    gdw_build_int(b, (int64_t)size);
    gdw_build_value(b, v);
    gdw_build_end(b);
    s = gdw_build_finish(b, &again, &err);
    FUZZ_CHECK(s == GDW_OK && gdw_value_equal(v, gdw_array_get(gdw_doc_root(again), 1)), "builder copy differs: %s (%s at %s)\n  text: %.2000s",
               gdw_status_name(s), s ? err.message : "values differ", s ? err.path : "", printed);
    gdw_doc_free(again);
    gdw_builder_free(b);

    /* the JSON form holds the same value, or plain JSON does (docs/json.md "Plain JSON": what JSON
     * cannot say is wrapped, so it reads back equal): one of the two per input, the last byte's bit 2
     * picks, and the damage below goes to the same one */
    bool plain = size && (data[size - 1] & 4u);
    char *json = plain ? gdw_json_print_plain_alloc(v, 0, NULL, NULL) : gdw_json_print_alloc(v, NULL, NULL);
    FUZZ_CHECK(json != NULL, "out of memory");
    gdw_status (*parse_json)(const char *, size_t, const gdw_allocator *, gdw_doc **, gdw_error *) = plain ? gdw_json_parse_plain : gdw_json_parse;
    s = parse_json(json, strlen(json), NULL, &again, &err);
    FUZZ_CHECK(s == GDW_OK && gdw_value_equal(v, gdw_doc_root(again)), "%s round trip fails: %s at %zu (%s)\n  text: %.2000s\n  json: %.2000s",
               plain ? "plain JSON" : "JSON", gdw_status_name(s), err.offset, s ? err.message : "values differ", printed, json);
    gdw_doc_free(again);
    /* damaged JSON parses or fails cleanly; damaged text, below, the same: one of the two per input
     * (the last byte's bit 1 picks), each parse of a damaged document costing what a whole parse costs */
    bool damage_json = size && (data[size - 1] & 2u);
    char *dj = json;
    size_t jlen = strlen(dj);
    if (jlen && damage_json) {
        static const char k_jdamage[] = "\"\\{}[],:0-.eE\x80 $";
        dj[data[size - 1] % jlen] = k_jdamage[data[0] % (sizeof k_jdamage - 1)];
        gdw_doc *bad = NULL;
        s = parse_json(dj, jlen, NULL, &bad, &err);
        if (s != GDW_OK) {
            FUZZ_CHECK(bad == NULL, "a failed JSON parse returned a document");
            FUZZ_CHECK(s == GDW_ERR_SYNTAX || s == GDW_ERR_DEPTH, "damaged JSON: %s", gdw_status_name(s));
            fuzz_check_error(s, &err, jlen);
        }
        gdw_doc_free(bad);
    }
    free(json);

    /* damaged text: one byte changed, or the text cut short, parses or fails cleanly */
    if (gt.len && size && !damage_json) {
        size_t at = data[0] % gt.len;
        char keep = gt.s[at];
        static const char k_damage[] = "\"\\()[]{},:#^&-.e0x";
        gt.s[at] = k_damage[data[size - 1] % (sizeof k_damage - 1)];
        gdw_doc *bad = NULL;
        size_t cut = data[size - 1] & 1 ? gt.len : at;
        s = gdw_text_parse(gt.s, cut, NULL, &bad, &err);
        if (s != GDW_OK) {
            FUZZ_CHECK(bad == NULL, "a failed parse returned a document");
            FUZZ_CHECK(s == GDW_ERR_SYNTAX || s == GDW_ERR_DEPTH, "damaged text: %s", gdw_status_name(s));
            fuzz_check_error(s, &err, cut);
        }
        gdw_doc_free(bad);
        gt.s[at] = keep;
    }
    /* the row byte 0 names (each input one row, as the other targets: the fuzzer's mutations of
     * byte 0 reach every row, and an input costs one row's work, not sixteen) */
    const gdw_dialect *d = fuzz_dialect(size ? data[0] : 0);
    /* gdw_encode_alloc writes what the two-pass fuzz_encode writes */
    uint8_t *ea = NULL;
    size_t na = 0;
    gdw_status sa = gdw_encode_alloc(d, v, NULL, NULL, &ea, &na, &err);
    if (sa != GDW_OK) fuzz_check_error(sa, &err, (size_t)-1);
    free(ea);

    check_row(d, v, &gt, printed);
    free(printed);
    gdw_doc_free(doc);
    free(gt.s);
    return 0;
}

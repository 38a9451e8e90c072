/* SPDX-License-Identifier: MIT */
/* Fuzz target `encode` (structure-aware): the input is a stream of choices that builds a value
 * tree (value_gen.h) with the typed gdw_build_* calls of the library's API, and writes it as
 * canonical text too. The value is encoded in the row byte 0 names: where it refuses it, the
 * refusal must be one fuzz_encode_refusal_allowed lists, and "no such type" only when the tree
 * really holds a type the dialect lacks; where it accepts, the sizing pass must equal the bytes
 * written, the bytes must decode (compatible mode, Objects allowed) to the same value, pass strict
 * validation (unless the generator made a value no engine writes: gen_text.noncanonical lists
 * them), and re-encode byte-identically (where the value came back through one of the mappings
 * fuzz_values_match lists, the mapped value must be a fixed point instead).
 * The text form is checked too, one check an input (CHECK_* below, the last byte picks): the generated
 * text parses to the built value, print(value) parses back equal, the builder's deep copy is the value
 * again, and damaged text fails cleanly. (The JSON forms' round trips are `translate`'s, on decoded values.) */
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
static void check_row(const gdw_dialect *d, const gdw_value *v, const gen_text *gtp) {
    const char *printed = gtp->s; /* the value, as the generator wrote it: for the messages */
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

/* The forms' checks. The target's own checks (check_row: the value through the bytes of a row) run
 * on every input; the forms' on a share of them, one check an input, as the last byte's bits 3-6
 * pick: each of these 1/16 of the inputs, CHECK_ALL (every one) 1/16 more, and none the other 11/16.
 * Each form parse costs several KB of text under comparison tracing: doing all of them on every input
 * held this target to 2,100 inputs a second (issue 29), doing one to 3,400, of which the JSON forms'
 * took half (the fuzzer kept picking the inputs whose JSON parses reach rare features); they moved to
 * `translate`, which checks them on decoded values. The fuzzer's mutations of that byte reach every check.
 * CHECK_GENERATED  the text the generator wrote parses to the value the typed calls built;
 * CHECK_PRINTED    print(value) parses back equal;
 * CHECK_DAMAGED    that text with one byte changed, or cut short, parses or fails cleanly;
 * CHECK_COPY       the builder's deep copy (gdw_build_value, inside an Array) is the value again. */
enum { CHECK_GENERATED, CHECK_PRINTED, CHECK_DAMAGED, CHECK_COPY, CHECK_ALL, CHECK_KINDS };

static void check_generated(const gdw_value *v, const gen_text *gt) {
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_text_parse(gt->s, gt->len, NULL, &doc, &err);
    FUZZ_CHECK(s == GDW_OK, "generated text does not parse: %s at %zu (%s)\n  text: %.2000s", gdw_status_name(s), err.offset, err.message, gt->s);
    if (!gdw_value_equal(v, gdw_doc_root(doc))) {
        fuzz_print_value("parsed", gdw_doc_root(doc));
        fuzz_print_value("built", v);
        FUZZ_CHECK(0, "the typed gdw_build_* calls made another value than the text\n  text: %.2000s", gt->s);
    }
    gdw_doc_free(doc);
}

static void check_printed(const gdw_value *v, const gen_text *gt) {
    char *printed = gdw_text_print_alloc(v, NULL, NULL);
    FUZZ_CHECK(printed != NULL, "out of memory");
    gdw_doc *again = NULL;
    gdw_error err;
    gdw_status s = gdw_text_parse(printed, strlen(printed), NULL, &again, &err);
    FUZZ_CHECK(s == GDW_OK && gdw_value_equal(v, gdw_doc_root(again)), "text round trip fails: %s\n  text: %.2000s\n  printed: %.2000s",
               gdw_status_name(s), gt->s, printed);
    gdw_doc_free(again);
    free(printed);
}

/* the generated text with one byte changed, or cut short there, parses or fails cleanly */
static void check_damaged(gen_text *gt, const uint8_t *data, size_t size) {
    if (!gt->len || !size) return;
    size_t at = data[0] % gt->len;
    char keep = gt->s[at];
    static const char k_damage[] = "\"\\()[]{},:#^&-.e0x";
    gt->s[at] = k_damage[data[size - 1] % (sizeof k_damage - 1)];
    gdw_doc *bad = NULL;
    gdw_error err;
    size_t cut = data[size - 1] & 1 ? gt->len : at;
    gdw_status s = gdw_text_parse(gt->s, cut, NULL, &bad, &err);
    if (s != GDW_OK) {
        FUZZ_CHECK(bad == NULL, "a failed parse returned a document");
        FUZZ_CHECK(s == GDW_ERR_SYNTAX || s == GDW_ERR_DEPTH, "damaged text: %s", gdw_status_name(s));
        fuzz_check_error(s, &err, cut);
    }
    gdw_doc_free(bad);
    gt->s[at] = keep;
}

static void check_copy(gdw_builder *b, const gdw_value *v, const char *text, size_t size) {
    gdw_doc *again = NULL;
    gdw_error err;
    gdw_build_begin_array(b);
    gdw_build_int(b, (int64_t)size);
    gdw_build_value(b, v);
    gdw_build_end(b);
    gdw_status s = gdw_build_finish(b, &again, &err);
    FUZZ_CHECK(s == GDW_OK && gdw_value_equal(v, gdw_array_get(gdw_doc_root(again), 1)), "builder copy differs: %s (%s at %s)\n  text: %.2000s",
               gdw_status_name(s), s ? err.message : "values differ", s ? err.path : "", text);
    gdw_doc_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gen_text gt;
    gdw_builder *b = gdw_builder_new(NULL);
    FUZZ_CHECK(b != NULL && gen_value_build(data, size, &gt, b), "out of memory");
    /* the value: as the typed gdw_build_* calls made it (CHECK_GENERATED holds it against the text) */
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_build_finish(b, &doc, &err);
    FUZZ_CHECK(s == GDW_OK, "the typed gdw_build_* calls failed: %s (%s at %s)\n  text: %.2000s", gdw_status_name(s), err.message, err.path, gt.s);
    const gdw_value *v = gdw_doc_root(doc);

    unsigned pick = size ? (data[size - 1] >> 3) & 15u : CHECK_ALL; /* CHECK_KINDS and above: none */
    bool all = pick == CHECK_ALL;
    if (all || pick == CHECK_GENERATED) check_generated(v, &gt);
    if (all || pick == CHECK_PRINTED) check_printed(v, &gt);
    if (all || pick == CHECK_COPY) check_copy(b, v, gt.s, size);
    if (all || pick == CHECK_DAMAGED) check_damaged(&gt, data, size); /* last: it changes the text */
    gdw_builder_free(b);

    /* the row byte 0 names (each input one row, as the other targets: the fuzzer's mutations of
     * byte 0 reach every row, and an input costs one row's work, not sixteen) */
    const gdw_dialect *d = fuzz_dialect(size ? data[0] : 0);
    /* gdw_encode_alloc writes what the two-pass fuzz_encode writes */
    uint8_t *ea = NULL;
    size_t na = 0;
    gdw_status sa = gdw_encode_alloc(d, v, NULL, NULL, &ea, &na, &err);
    if (sa != GDW_OK) fuzz_check_error(sa, &err, (size_t)-1);
    free(ea);

    check_row(d, v, &gt);
    gdw_doc_free(doc);
    free(gt.s);
    return 0;
}

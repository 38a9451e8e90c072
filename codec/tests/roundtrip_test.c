/* SPDX-License-Identifier: MIT */
/* roundtrip_test — for each dialect, for each of its types, edge values (boundaries, NaN,
 * -0.0, infinities, denormals, empty and long, every padding length) go through
 * encode -> validate -> decode -> encode: same value, same bytes, sizing pass = bytes
 * written, strict and engine-exact modes accept the canonical bytes. */
#include <math.h>

#include "codec/api.h"
#include "codec/tests/testing.h"

static const char *k_reals32[] = {
    "0.0", "-0.0", "1.5", "inf", "-inf", "nan", "1e-45", "-3.4028235e+38", "nan(0x7fc00001)",
    "0.1"};
static const char *k_reals64[] = {"0.0",
                                  "-0.0",
                                  "0.1",
                                  "inf",
                                  "-inf",
                                  "nan",
                                  "5e-324",
                                  "-1.7976931348623157e+308",
                                  "nan(0x7ff8000000000001)",
                                  "1e-45"};
static const char *k_ints32[] = {"0", "-1", "2147483647", "-2147483648"};

/* Not here: ^"/" (an absolute path without names), which every engine writes and reads back
 * as the empty path ^"" (conformance/vectors/valid/). */
static const char *k_scalars[] = {
    "null",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "2147483647",
    "-2147483648",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "-9223372036854775808",
    "0.0",
    "-0.0",
    "1.5",
    "0.1",
    "inf",
    "-inf",
    "nan",
    "-nan",
    "nan(0x7ff8000000000001)",
    "1e-45",
    "5e-324",
    "1.7976931348623157e+308",
    "3.4028234663852886e+38",
    "\"\"",
    "\"a\"",
    "\"ab\"",
    "\"abc\"",
    "\"abcd\"",
    "\"abcde\"",
    "\"é\"",
    "\"日本\"",
    "\"😀\"",
    "\"tab\\tquote\\\"\"",
    "[]",
    "[null, true, 1, 1.5, \"s\"]",
    "[[[[]]]]",
    "{}",
    "{\"a\": 1}",
    "{1: [2], \"x\": {\"y\": null}}",
    "PackedByteArray()",
    "PackedByteArray(1)",
    "PackedByteArray(1, 2)",
    "PackedByteArray(1, 2, 3)",
    "PackedByteArray(0, 255, 1, 2)",
    "PackedStringArray()",
    "PackedStringArray(\"\")",
    "PackedStringArray(\"a\", \"ab\", \"abc\", \"abcd\")",
    "^\"\"",
    "^\"a\"",
    "^\"/root/x:p:q\"",
    "NodePath([\"a/b\"], [], 0)",
    "NodePath([], [\"p\"], 0)",
    "Callable()",
    "Signal(\"\", 0)",
    "Signal(\"pressed\", 18446744073709551615)",
    "RID()",
    "RID(0)",
    "RID(18446744073709551615)",
    "ObjectID(1)",
    "ObjectID(18446744073709551615)",
    "Object(null)",
    "Object(\"Node\", {\"a\": 1, \"b\": [1]})",
    "&\"\"",
    "&\"name\"",
    "Array[int]([1])",
    "Array[\"Node\"]([])",
    "Array[script(\"res://a.gd\")]([])",
    "Dictionary[String, int]({\"a\": 1})",
    "Dictionary[Variant, \"Node\"]({})",
    "TypedArray[int]([1, 2])",
    "TypedArray[\"Node\"]([])",
    "TypedArray[ObjectID]([])",
    "PackedTypedArray[float]([1.5])",
    "Image(0, 0, 0, 0, PackedByteArray())",
    "Image(4, 1, 1, 1, PackedByteArray(1, 2, 3, 4, 5))",
    "InputEvent(0, 0, 12)",
    "InputEvent(1, 2, 20, 33554432, 65)",
    "InputEvent(3, 0, 16, 1)",
    "InputEvent(4, 0, 16, 2)",
    "shared:[1]",
    "shared:{}",
    "NodePath([\"a\"], [\"p\"], 2)",
};

static int g_values;
static bool g_seen[GDW_TYPE_COUNT];

/* Can dialect d hold text's value exactly? (The encoder says LOSSY or UNSUPPORTED if not.) */
static void roundtrip(const gdw_dialect *d, const char *text) {
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_text_parse(text, strlen(text), NULL, &doc, &err);
    CHECK(s == GDW_OK, "parse %s: %s at %zu", text, err.message, err.offset);
    if (s) return;
    const gdw_value *v = gdw_doc_root(doc);
    /* the JSON form holds the same value */
    char *json = gdw_json_print_alloc(v, NULL, NULL);
    gdw_doc *jdoc = NULL;
    s = gdw_json_parse(json, strlen(json), NULL, &jdoc, &err);
    CHECK(s == GDW_OK && gdw_value_equal(v, gdw_doc_root(jdoc)),
          "JSON round trip of %s: %s at %zu (%s)\n  json: %s", text, gdw_status_name(s), err.offset,
          s ? err.message : "values differ", json);
    gdw_doc_free(jdoc);
    free(json);
    size_t need = 0;
    s = gdw_encode(d, v, NULL, NULL, 0, &need, &err);
    /* not this dialect's */
    if (s == GDW_ERR_UNSUPPORTED_TYPE || s == GDW_ERR_LOSSY) {
        gdw_doc_free(doc);
        return;
    }
    CHECK(s == GDW_OK, "%s: size %s: %s", d->name, text, err.message);
    uint8_t *b1 = malloc(need + 1);
    size_t w1 = 0;
    s = gdw_encode(d, v, NULL, b1, need, &w1, &err);
    CHECK(s == GDW_OK && w1 == need, "%s: encode %s: sizing %zu, wrote %zu", d->name, text, need,
          w1);
    g_values++;
    g_seen[v->type] = true;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    size_t used = 0;
    CHECK(gdw_validate(d, b1, w1, &o, &used, &err) == GDW_OK && used == w1, "%s: validate %s: %s",
          d->name, text, err.message);
    gdw_doc *back = NULL;
    s = gdw_decode(d, b1, w1, &o, NULL, &back, &used, &err);
    CHECK(s == GDW_OK, "%s: decode %s: %s at %zu", d->name, text, err.message, err.offset);
    if (s == GDW_OK) {
        const gdw_value *v2 = gdw_doc_root(back);
        bool null_object = v->type == GDW_OBJECT && (v->flags & GDW_VF_OBJECT_NULL) &&
                           !gdw_row_rule(d, GDW_RULE_OBJECT_HEADER_ONLY) &&
                           /* 3.0/3.1 write it as an Object of no class */
                           !gdw_row_rule(d, GDW_RULE_NULL_OBJECT_AS_CLASS);
        char t2[512];
        gdw_text_print(v2, t2, sizeof t2);
        /* Godot 2 writes every float as f32 */
        bool f32_only = gdw_row_rule(d, GDW_RULE_FLOAT_ENCODE_F32_ONLY) && v->type == GDW_FLOAT;
        /* and Godot 3.0.0 writes a NaN as a quiet f32 (built with -ffast-math) */
        bool nan_f32 = gdw_row_rule(d, GDW_RULE_FLOAT_NAN_F32) && v->type == GDW_FLOAT &&
                       (v->width == 8 ? isnan(bits_to_f64(v->u.bits))
                                      : isnan(bits_to_f32((uint32_t)v->u.bits)));
        if (f32_only || nan_f32)
            CHECK(v2->type == GDW_FLOAT && v2->width == 4, "%s: %s came back as %s", d->name, text,
                  t2);
        else if (null_object)
            CHECK(v2->type == GDW_NIL, "%s: null object decodes as %s", d->name, t2);
        else CHECK(gdw_value_equal(v, v2), "%s: %s came back as %s", d->name, text, t2);
        uint8_t *b2 = malloc(w1 + 1);
        size_t w2 = 0;
        CHECK(gdw_encode(d, v2, NULL, b2, w1, &w2, &err) == GDW_OK && w2 == w1 &&
                  memcmp(b1, b2, w1) == 0,
              "%s: %s re-encodes differently", d->name, text);
        free(b2);
        o.mode = GDW_MODE_STRICT;
        CHECK(gdw_validate(d, b1, w1, &o, NULL, &err) == GDW_OK,
              "%s: strict rejects canonical %s: %s at %zu", d->name, text,
              gdw_status_name(err.code), err.offset);
        o.mode = GDW_MODE_ENGINE_EXACT;
        s = gdw_validate(d, b1, w1, &o, NULL, &err);
        bool defect = gdw_row_rule(d, GDW_RULE_DEFECT_PROJECTION_248) && v->type == GDW_PROJECTION;
        CHECK(defect ? s == GDW_ERR_ENGINE_DEFECT : s == GDW_OK, "%s: engine-exact on %s: %s",
              d->name, text, gdw_status_name(s));
        /* every proper prefix is rejected as truncated (or, for a few types, as a bad value) */
        for (size_t cut = 0; cut < w1; cut++) {
            gdw_status ps = gdw_validate(d, b1, cut, NULL, NULL, &err);
            /* strings whose padding may be missing */
            const gdw_strings_facts *sf = gdw_strings_of(d);
            bool pad_only = ps == GDW_OK &&
                            (v->type == GDW_PACKED_BYTE_ARRAY || v->type == GDW_IMAGE ||
                             gdw_row_rule(d, GDW_RULE_LENIENT_STRINGS) ||
                             sf->padding_unchecked[GDW_STR_VALUE] ||
                             sf->padding_unchecked[GDW_STR_ARRAY_ENTRY]);
            CHECK(ps != GDW_OK || pad_only, "%s: %s cut at %zu accepted", d->name, text, cut);
        }
    }
    gdw_doc_free(back);
    free(b1);
    gdw_doc_free(doc);
}

static void math_values(const gdw_dialect *d) {
    char text[1024];
    for (unsigned t = 0; t < GDW_TYPE_COUNT; t++) {
        if (gdw_dialect_type_id(d, (gdw_type)t) < 0) continue;
        const gdw_type_info *ti = type_info(t);
        if (ti->kind != K_FIXED && ti->kind != K_PACKED) continue;
        unsigned w = comp_width_encode(d, ti->comp);
        const char *prefix = (ti->comp == C_REAL && w == 8) ? "f64:" : "";
        bool ints = ti->comp == C_I32 || ti->comp == C_I64;
        const char **pool = ints ? k_ints32 : w == 8 ? k_reals64 : k_reals32;
        size_t pn = ints ? 4 : 10;
        for (size_t start = 0; start < pn; start++) {
            /* 0..3 elements */
            size_t n = ti->kind == K_FIXED ? ti->ncomp : (size_t)ti->ncomp * (start % 4);
            size_t o = (size_t)snprintf(text, sizeof text, "%s%s(", prefix, ti->name);
            for (size_t i = 0; i < n; i++)
                o += (size_t)snprintf(text + o, sizeof text - o, "%s%s", i ? ", " : "",
                                      pool[(start + i) % pn]);
            snprintf(text + o, sizeof text - o, ")");
            roundtrip(d, text);
        }
    }
}

int main(void) {
    /* a long string: 1000 bytes, and one with every padding length above it */
    static char longtext[1100];
    longtext[0] = '"';
    memset(longtext + 1, 'x', 1001);
    for (size_t i = 0; i < gdw_row_count(); i++) { /* dialects, then releases */
        const gdw_dialect *d = gdw_row_at(i);
        int before = g_values;
        memset(g_seen, 0, sizeof g_seen);
        for (size_t k = 0; k < sizeof k_scalars / sizeof k_scalars[0]; k++)
            roundtrip(d, k_scalars[k]);
        for (int pad = 0; pad < 4; pad++) {
            longtext[1 + 1000 + pad] = '"';
            longtext[2 + 1000 + pad] = 0;
            roundtrip(d, longtext);
            longtext[1 + 1000 + pad] = 'x';
        }
        math_values(d);
        /* every type of the dialect got at least one value through */
        for (unsigned id = 0; id < d->type_count; id++)
            CHECK(g_seen[d->types[id]], "%s: no edge value of type %s (id %u)", d->name,
                  gdw_type_name((gdw_type)d->types[id]), id);
        printf("%-19s %4d values round-tripped\n", d->name, g_values - before);
        CHECK(g_values - before > 40, "%s: too few values", d->name);
    }
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* getters_test — the getters a server reads a request with (issue 33): a number sent as an int or
 * a float, keys by C string and by int, packed arrays without a struct cast, and a reply built and
 * written in one call. The packets are the engines' own (tools/engines/godot4.6-packets.tsv). */
#include "codec/tests/testing.h"

static gdw_doc *decode_hex(const char *dialect, const char *hex) {
    uint8_t buf[512];
    size_t n = t_unhex(hex, buf, sizeof buf);
    gdw_doc *doc = NULL;
    gdw_decode_options o = gdw_decode_options_default();
    if (n == (size_t)-1 ||
        gdw_decode(t_dialect(dialect), buf, n, &o, NULL, &doc, NULL, NULL) != GDW_OK) {
        fprintf(stderr, "cannot decode %s\n", hex);
        exit(2);
    }
    return doc;
}

static void numbers(void) {
    double x = -1;
    gdw_doc *doc = decode_hex("godot4", "0200000001000000"); /* int 1, as Godot 4.6.3 writes it */
    CHECK(gdw_get_number(gdw_doc_root(doc), &x) && x == 1.0, "int 1 as a number: %g", x);
    CHECK(!gdw_get_float(gdw_doc_root(doc), &x), "gdw_get_float still wants a FLOAT");
    gdw_doc_free(doc);
    doc = decode_hex("godot4", "030000000000c03f"); /* float 1.5 */
    CHECK(gdw_get_number(gdw_doc_root(doc), &x) && x == 1.5, "float 1.5 as a number: %g", x);
    gdw_doc_free(doc);
    doc = decode_hex("godot4", "04000000010000003100000000"); /* "1": a String is no number */
    x = -1;
    CHECK(!gdw_get_number(gdw_doc_root(doc), &x) && x == -1,
          "a String is not a number, *out untouched");
    gdw_doc_free(doc);
    /* int64 max: rounded to the nearest double */
    doc = decode_hex("godot4", "02000100ffffffffffffff7f");
    CHECK(gdw_get_number(gdw_doc_root(doc), &x) && x == 9223372036854775807.0,
          "int64 max as a number: %g", x);
    gdw_doc_free(doc);
}

static void keys(void) {
    /* {"cmd": "move", 7: "seven", &"hp": 3}: a String key, an int key, a StringName key */
    gdw_doc *doc = decode_hex(
        "godot4", "1b000000 03000000 04000000 03000000 636d6400 04000000 04000000 6d6f7665"
                  " 02000000 07000000 04000000 05000000 736576656e000000"
                  " 15000000 02000000 68700000 02000000 03000000");
    const gdw_value *r = gdw_doc_root(doc);
    const char *s = NULL;
    size_t n = 0;
    int64_t i = 0;
    CHECK(gdw_get_string(gdw_dict_getc(r, "cmd"), &s, &n) && n == 4 && memcmp(s, "move", 4) == 0,
          "dict_getc cmd");
    CHECK(gdw_get_int(gdw_dict_getc(r, "hp"), &i) && i == 3,
          "dict_getc finds a StringName key too");
    CHECK(gdw_dict_getc(r, "nope") == NULL && gdw_dict_getc(r, NULL) == NULL &&
              gdw_dict_getc(NULL, "cmd") == NULL,
          "dict_getc misses");
    CHECK(gdw_get_string(gdw_dict_get_int(r, 7), &s, &n) && n == 5 && memcmp(s, "seven", 5) == 0,
          "dict_get_int 7");
    CHECK(gdw_dict_get_int(r, 8) == NULL && gdw_dict_get_int(NULL, 7) == NULL,
          "dict_get_int misses");
    CHECK(gdw_dict_get_int(gdw_dict_getc(r, "cmd"), 7) == NULL, "dict_get_int of a String is NULL");
    gdw_doc_free(doc);
}

static void packed(void) {
    /* Godot 4.6.3's PackedStringArray ["", "a", "ab", "abc", "abcd", "héllo"] */
    gdw_doc *doc = decode_hex("godot4", "2200000006000000010000000000000002000000610000000300000061"
                                        "62000004000000616263000500000061626364"
                                        "000000000700000068c3a96c6c6f0000");
    const gdw_value *r = gdw_doc_root(doc);
    const char *s = NULL;
    size_t n = 9;
    CHECK(gdw_count(r) == 6, "6 strings");
    CHECK(gdw_packed_string_at(r, 0, &s, &n) && n == 0 && s && s[0] == 0,
          "element 0 is \"\": %zu bytes", n);
    CHECK(gdw_packed_string_at(r, 5, &s, &n) && n == 6 && memcmp(s, "h\xc3\xa9llo", 6) == 0,
          "element 5 is héllo: %zu bytes", n);
    CHECK(!gdw_packed_string_at(r, 6, &s, &n), "element 6 is out of range");
    double c[4];
    CHECK(!gdw_packed_at(r, 0, c, 1), "packed_at refuses strings");
    gdw_doc_free(doc);

    /* PackedVector2Array((1, 2), (-3, 4.5)) */
    doc = decode_hex("godot4", "23000000020000000000803f00000040000040c000009040");
    r = gdw_doc_root(doc);
    CHECK(gdw_packed_at(r, 1, c, 2) && c[0] == -3.0 && c[1] == 4.5, "Vector2 element 1: %g, %g",
          c[0], c[1]);
    CHECK(!gdw_packed_at(r, 1, c, 3) && !gdw_packed_at(r, 2, c, 2), "wrong n, out of range");
    gdw_doc_free(doc);

    /* PackedInt32Array(1, -2, 2147483647) */
    doc = decode_hex("godot4", "1e0000000300000001000000feffffffffffff7f");
    r = gdw_doc_root(doc);
    CHECK(gdw_packed_at(r, 1, c, 1) && c[0] == -2.0, "int32 element 1: %g", c[0]);
    CHECK(gdw_packed_at(r, 2, c, 1) && c[0] == 2147483647.0, "int32 element 2: %g", c[0]);
    gdw_doc_free(doc);

    /* PackedByteArray(1, 2, 3, 4, 5) */
    doc = decode_hex("godot4", "1d000000050000000102030405000000");
    r = gdw_doc_root(doc);
    const uint8_t *p = NULL;
    CHECK(gdw_packed_bytes(r, &p, &n) && n == 5 && p[0] == 1 && p[4] == 5, "5 bytes");
    CHECK(!gdw_packed_string_at(r, 0, &s, &n) && !gdw_packed_at(r, 0, c, 1),
          "bytes are not strings, nor packed_at's");
    gdw_doc_free(doc);
    doc = decode_hex("godot4", "1d00000000000000");
    CHECK(gdw_packed_bytes(gdw_doc_root(doc), &p, &n) && n == 0 && p != NULL,
          "an empty PackedByteArray: 0 bytes, a pointer");
    gdw_doc_free(doc);
}

static void build_encode(void) {
    gdw_builder *b = gdw_builder_new(NULL);
    gdw_build_begin_dictionary(b);
    gdw_build_cstring(b, "hi");
    gdw_build_int(b, 42);
    gdw_build_end(b);
    uint8_t *out = NULL;
    size_t n = 0;
    gdw_status s = gdw_build_encode(b, t_dialect("godot4"), NULL, NULL, &out, &n, NULL);
    uint8_t want[64];
    size_t wn = t_unhex("1b000000 01000000 04000000 02000000 68690000 02000000 2a000000", want,
                        sizeof want);
    CHECK(s == GDW_OK && n == wn && memcmp(out, want, n) == 0,
          "{\"hi\": 42} in one call: %s, %zu bytes", gdw_status_name(s), n);
    free(out);
    /* the builder is empty again; an unfinished value is reported and nothing allocated */
    gdw_build_begin_array(b);
    gdw_error err;
    s = gdw_build_encode(b, t_dialect("godot4"), NULL, NULL, &out, &n, &err);
    CHECK(s == GDW_ERR_INVALID_ARG && out == NULL && n == 0, "an open container: %s",
          gdw_status_name(s));
    /* a value the dialect cannot hold: the encoder's error */
    gdw_build_string_name(b, "x", 1);
    s = gdw_build_encode(b, t_dialect("godot3"), NULL, NULL, &out, &n, &err);
    CHECK(s == GDW_ERR_UNSUPPORTED_TYPE && out == NULL, "a StringName into godot3: %s",
          gdw_status_name(s));
    gdw_build_int(b, 1);
    s = gdw_build_encode(b, NULL, NULL, NULL, &out, &n, &err);
    CHECK(s == GDW_ERR_INVALID_ARG && out == NULL, "no dialect: %s", gdw_status_name(s));
    gdw_builder_free(b);
}

/* keep_float_width: a FLOAT read at a width the engines would not choose is written back at it
 * (the Python package's F32 / F64 ask for it); without the option, the engines' choice. */
static void float_widths(void) {
    static const struct {
        const char *dialect, *hex, *engines;
    } k[] = {
        /* 0.5 as f64: the engines write f32 */
        {"godot4", "0300010000000000 0000e03f", "030000000000003f"},
        {"godot3", "0300010000000000 0000e03f", "030000000000003f"},
        /* an f32 NaN: the engines write NaN as f64 */
        {"godot3", "03000000 0100c07f", "03000100 00000020 0000f87f"},
        /* Godot 2 has f32 only: no choice to keep */
        {"mole", "03000000 0000003f", "030000000000003f"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        uint8_t in[64], want[64], out[64];
        size_t n = t_unhex(k[i].hex, in, sizeof in), wn = t_unhex(k[i].engines, want, sizeof want),
               w = 0;
        gdw_doc *doc = decode_hex(k[i].dialect, k[i].hex);
        gdw_encode_options eo = gdw_encode_options_default();
        CHECK(gdw_encode(t_dialect(k[i].dialect), gdw_doc_root(doc), &eo, out, sizeof out, &w,
                         NULL) == GDW_OK &&
                  w == wn && !memcmp(out, want, wn),
              "%s %s: the engines' width by default", k[i].dialect, k[i].hex);
        eo.keep_float_width = true;
        CHECK(gdw_encode(t_dialect(k[i].dialect), gdw_doc_root(doc), &eo, out, sizeof out, &w,
                         NULL) == GDW_OK &&
                  w == n && !memcmp(out, in, n),
              "%s %s: the width read, with keep_float_width", k[i].dialect, k[i].hex);
        gdw_doc_free(doc);
    }
}

int main(void) {
    float_widths();
    numbers();
    keys();
    packed();
    build_encode();
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* examples_test — every engine-verified and derived example of docs/wire-format.md (in our
 * own words in docs/dialects/) decodes in its dialect to the stated value and re-encodes
 * byte-exactly, or, where the engine's own encoder writes something else, to the stated
 * bytes. Where a row names a group ("godot3*"), every dialect of the group is checked. */
#include "codec/tests/testing.h"

enum { SAME = 0, DIFFERS = 1, NOENC = 2 };

typedef struct example {
    /* space separated names; "*" suffix = every dialect whose name starts so */
    const char *dialects;
    const char *hex;
    const char *text; /* expected value in canonical text */
    int reencode;     /* SAME, DIFFERS (then reencoded gives the bytes), NOENC */
    const char *reencoded;
    gdw_mode mode;
    bool objects;
} example;

static const example k_examples[] = {
    /* ---- Godot 2 (wire-format §1.6, derived) */
    {"mole", "00000000", "null", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "01000000 01000000", "true", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "02000000 2a000000", "42", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "02000000 ffffffff", "-1", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "03000000 0000c03f", "1.5", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "04000000 02000000 68690000", "\"hi\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "05000000 0000803f 00000040", "Vector2(1.0, 2.0)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"mole", "08000000 0000803f 00000000 00000000 0000803f 00000000 00000000",
     "Transform2D(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "0e000000 0000803f 00000000 00000000 0000803f", "Color(1.0, 0.0, 0.0, 1.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "0f000000 00000000 00000000 00000000 00000000 00000000",
     "Image(0, 0, 0, 0, PackedByteArray())", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "0f000000 04000000 00000000 01000000 01000000 04000000 ff0000ff",
     "Image(4, 0, 1, 1, PackedByteArray(255, 0, 0, 255))", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole",
     "10000000 02000080 00000000 02000000 01000000 61000000 01000000 62000000 01000000 63000000",
     "NodePath([\"a\", \"b\"], [\"c\"], 2)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "11000000", "RID()", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "12000000", "Object(null)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "13000000 01000000 00000000 14000000 00000002 41000000",
     "InputEvent(1, 0, 20, 33554432, 65)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "13000000 03000000 00000000 10000000 01000000", "InputEvent(3, 0, 16, 1)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"mole", "14000000 01000000 04000000 01000000 61000000 02000000 01000000", "{\"a\": 1}", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "15000000 02000000 02000000 01000000 04000000 01000000 78000000", "[1, \"x\"]", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "15000000 00000080", "shared:[]", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "16000000 03000000 01020300", "PackedByteArray(1, 2, 3)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"mole", "19000000 02000000 02000000 61000000 03000000 62630000",
     "PackedStringArray(\"a\", \"bc\")", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"mole", "1a000000 01000000 0000803f 00000040", "PackedVector2Array(1.0, 2.0)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    /* 2.x-B headers decode tolerantly: bit 16 = 64-bit int; re-encoded as 2.x-A writes it */
    {"mole", "02000100 2a000000 00000000", "42", DIFFERS, "02000000 2a000000", GDW_MODE_COMPATIBLE,
     false},

    /* ---- Godot 3 (wire-format §2.7, engine-verified on 3.2.3) */
    {"godot3 godot3.0 godot3-double pandemonium-legacy", "00000000", "null", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3 godot3.0 godot3-double pandemonium-legacy", "01000000 01000000", "true", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3 godot3-double pandemonium-legacy", "02000000 2a000000", "42", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3.0", "02000000 2a000000", "42", DIFFERS, "02000100 2a000000 00000000",
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "02000000 ffffffff", "-1", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "02000000 ffffff7f", "2147483647", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3 godot3.0", "02000100 00000080 00000000", "2147483648", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"godot3", "02000100 ffffff7f ffffffff", "-2147483649", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "02000100 00000000 00000080", "-9223372036854775808", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "03000000 0000c03f", "1.5", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "03000000 00000080", "-0.0", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "03000000 0000807f", "inf", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "03000100 9a999999 9999b93f", "0.1", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3 godot4 pandemonium", "03000100 00000000 0000f87f", "nan", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "04000000 02000000 68690000", "\"hi\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "04000000 00000000", "\"\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "04000000 02000000 c3a90000", "\"é\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "05000000 0000803f 00000040", "Vector2(1.0, 2.0)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"godot3", "06000000 0000803f 00000040 00004040 00008040", "Rect2(1.0, 2.0, 3.0, 4.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3",
     "0d000000 0000803f 00000000 00000000 00000000 0000803f 00000000 00000000 00000000 0000803f "
     "0000803f 00000040 00004040",
     "Transform3D(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "0e000000 0000803f 00000000 00000000 0000803f", "Color(1.0, 0.0, 0.0, 1.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3",
     "0f000000 02000080 01000000 00000000 01000000 61000000 01000000 62000000 01000000 63000000",
     "^\"a/b:c\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    /* what 3.2.3 really sent: garbage in the pad bytes (#44999); we write zeros */
    {"godot3",
     "0f000000 02000080 01000000 00000000 01000000 6100803f 01000000 62000000 01000000 6300803f",
     "^\"a/b:c\"", DIFFERS,
     "0f000000 02000080 01000000 00000000 01000000 61000000 01000000 62000000 01000000 63000000",
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "0f000000 02000080 00000000 01000000 04000000 726f6f74 01000000 78000000",
     "^\"/root/x\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "10000000", "RID()", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "11000100 08050000 00000000", "ObjectID(1288)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"godot3",
     "11000000 09000000 52656665 72656e63 65000000 01000000 06000000 73637269 70740000 00000000",
     "Object(\"Reference\", {\"script\": null})", SAME, NULL, GDW_MODE_COMPATIBLE, true},
    {"godot3", "12000000 01000000 04000000 01000000 61000000 02000000 01000000", "{\"a\": 1}", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "13000000 02000000 02000000 01000000 04000000 01000000 78000000", "[1, \"x\"]", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "14000000 03000000 01020300", "PackedByteArray(1, 2, 3)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "15000000 02000000 01000000 ffffffff", "PackedInt32Array(1, -1)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "17000000 02000000 02000000 61000000 03000000 62630000",
     "PackedStringArray(\"a\", \"bc\")", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "17000000 01000000 04000000 61626300", "PackedStringArray(\"abc\")", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "19000000 01000000 0000803f 00000040 00004040", "PackedVector3Array(1.0, 2.0, 3.0)",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3", "1a000000 01000000 00000000 00000000 0000803f 0000803f",
     "PackedColorArray(0.0, 0.0, 1.0, 1.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    /* engine-verified tolerance: ignored header bits, entries without NUL, negative string array
     * count */
    {"godot3", "02ff0000 2a000000", "42", DIFFERS, "02000000 2a000000", GDW_MODE_COMPATIBLE, false},
    {"godot3", "05000100 0000803f 00000040", "Vector2(1.0, 2.0)", DIFFERS,
     "05000000 0000803f 00000040", GDW_MODE_COMPATIBLE, false},
    {"godot3", "17000000 01000000 01000000 61000000", "PackedStringArray(\"a\")", DIFFERS,
     "17000000 01000000 02000000 61000000", GDW_MODE_COMPATIBLE, false},
    {"godot3", "17000000 ffffffff", "PackedStringArray()", DIFFERS, "17000000 00000000",
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "04000000 03000000 61006200", "\"a\"", DIFFERS, "04000000 01000000 61000000",
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "04000000 04000000 efbbbf61", "\"a\"", DIFFERS, "04000000 01000000 61000000",
     GDW_MODE_COMPATIBLE, false},
    {"godot3", "14000000 03000000 010203", "PackedByteArray(1, 2, 3)", DIFFERS,
     "14000000 03000000 01020300", GDW_MODE_COMPATIBLE, false},
    /* NodePath flag bit 1 (a 2.x property) is one more subname in 3.x */
    {"godot3", "0f000000 01000080 00000000 02000000 01000000 61000000 01000000 70000000",
     "^\"a:p\"", DIFFERS, "0f000000 01000080 01000000 00000000 01000000 61000000 01000000 70000000",
     GDW_MODE_COMPATIBLE, false},
    /* the documented double build: real_t fields are 8 bytes, Color stays f32 */
    {"godot3-double", "05000000 00000000 0000f03f 00000000 00000040", "f64:Vector2(1.0, 2.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3-double", "0e000000 0000803f 00000000 00000000 0000803f", "Color(1.0, 0.0, 0.0, 1.0)",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot3-double", "16000000 01000000 00000000 0000f83f", "f64:PackedRealArray(1.5)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},

    /* ---- Godot 4 (wire-format §3.7, derived; typed containers from the engine's tests) */
    {"godot4 godot4.3 godot4.0 godot4-double", "02000000 2a000000", "42", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot4", "02000100 00000000 00010000", "1099511627776", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"godot4", "03000000 0000003f", "0.5", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "03000100 9a999999 9999b93f", "0.1", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "04000000 02000000 68690000", "\"hi\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4 godot4.0", "05000000 0000803f 00000040", "Vector2(1.0, 2.0)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot4-double", "05000100 00000000 0000f03f 00000000 00000040", "f64:Vector2(1.0, 2.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "05000100 00000000 0000f03f 00000000 00000040", "f64:Vector2(1.0, 2.0)", DIFFERS,
     "05000000 0000803f 00000040", GDW_MODE_COMPATIBLE, false},
    {"godot4", "06000000 01000000 feffffff", "Vector2i(1, -2)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"godot4", "0b000000 0000803f 00000000 00000000 0000803f 00000000 00000000",
     "Transform2D(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "0c000000 0000803f 00000040 00004040 00008040", "Vector4(1.0, 2.0, 3.0, 4.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "14000000 0000803f 00000000 00000000 0000803f", "Color(1.0, 0.0, 0.0, 1.0)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "15000000 02000000 68690000", "&\"hi\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4",
     "16000000 02000080 01000000 00000000 01000000 61000000 01000000 62000000 01000000 63000000",
     "^\"a/b:c\"", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "17000000 05000000 00000000", "RID(5)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "18000100 34120000 00000000", "ObjectID(4660)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"godot4", "19000000", "Callable()", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "1a000000 07000000 70726573 73656400 34120000 00000000", "Signal(\"pressed\", 4660)",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4 godot4.3", "1c000100 02000000 02000000 02000000 01000000 02000000 02000000",
     "Array[int]([1, 2])", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "1b000500 04000000 02000000 01000000 04000000 01000000 61000000 02000000 01000000",
     "Dictionary[String, int]({\"a\": 1})", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4 godot4.3", "1c000200 11000000 456e636f 6465644f 626a6563 74417349 44000000 00000000",
     "Array[\"EncodedObjectAsID\"]([])", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"godot4", "1f000000 01000000 01000000 00000000", "PackedInt64Array(1)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot4", "21000000 01000000 00000000 0000f83f", "PackedFloat64Array(1.5)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot4", "22000000 01000000 02000000 61000000", "PackedStringArray(\"a\")", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"godot4 godot4.3", "26000000 01000000 0000803f 00000040 00004040 00008040",
     "PackedVector4Array(1.0, 2.0, 3.0, 4.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    /* 4.0-4.2 ignore the kind bits: the descriptor is read as the count */
    {"godot4.0", "1c000100 00000000", "[]", DIFFERS, "1c000000 00000000", GDW_MODE_COMPATIBLE,
     false},

    /* ---- Pandemonium P3 (wire-format §4.4, derived) */
    {"pandemonium", "05000000 0000803f 00000040 00004040 00008040", "Rect2(1.0, 2.0, 3.0, 4.0)",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium pandemonium-5", "07000000 0000803f 00000040", "Vector2(1.0, 2.0)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "08000000 01000000 02000000", "Vector2i(1, 2)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"pandemonium", "0c000000 01000000 02000000 03000000 04000000", "Vector4i(1, 2, 3, 4)", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "0e000000 00000000 00000000 00000000 0000803f",
     "Quaternion(0.0, 0.0, 0.0, 1.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "12000000 0000803f 00000000 00000000 0000803f 00000000 00000000",
     "Transform2D(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "14000000 0000803f 00000000 00000000 0000803f", "Color(1.0, 0.0, 0.0, 1.0)",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "15000000 01000080 00000000 01000000 04000000 726f6f74", "^\"/root\"", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "17000100 34120000 00000000", "ObjectID(4660)", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"pandemonium", "18000000 02000000 68690000", "&\"hi\"", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
    {"pandemonium", "19000000 01000000 04000000 01000000 61000000 02000000 01000000", "{\"a\": 1}",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "1a000000 01000000 01000000 01000000", "[true]", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "1b000000 03000000 01020300", "PackedByteArray(1, 2, 3)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "1e000000 01000000 02000000 61000000", "PackedStringArray(\"a\")", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "20000000 01000000 01000000 02000000", "PackedVector2iArray(1, 2)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "23000000 01000000 0000803f 00000040 00004040 00008040",
     "PackedVector4Array(1.0, 2.0, 3.0, 4.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium", "23000000 01000000 0000803f 00000040 00004040 00008040",
     "PackedVector4Array(1.0, 2.0, 3.0, 3.0)", DIFFERS,
     "23000000 01000000 0000803f 00000040 00004040 00004040", GDW_MODE_ENGINE_EXACT, false},
    {"pandemonium", "25000000 01000000 00000000 00000000 0000803f 0000803f",
     "PackedColorArray(0.0, 0.0, 1.0, 1.0)", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium-double", "07000000 00000000 0000f03f 00000000 00000040", "f64:Vector2(1.0, 2.0)",
     SAME, NULL, GDW_MODE_COMPATIBLE, false},
    /* ---- Pandemonium P4 and P2 */
    {"pandemonium-5", "1b000000 02000000 01000000 02000000 01000000", "TypedArray[int]([1])", SAME,
     NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium-5", "1b000000 17000000 18000000 04000000 4e6f6465 00000000",
     "TypedArray[\"Node\"]([])", SAME, NULL, GDW_MODE_COMPATIBLE, false},
    {"pandemonium-5", "1b000100 17000000 00000000", "TypedArray[ObjectID]([])", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium-5", "1d000000 03000000 01020300", "PackedByteArray(1, 2, 3)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium-3.5", "06000000 01000000 02000000", "Vector2i(1, 2)", SAME, NULL,
     GDW_MODE_COMPATIBLE, false},
    {"pandemonium-3.5", "15000000 02000000 68690000", "&\"hi\"", SAME, NULL, GDW_MODE_COMPATIBLE,
     false},
};

static void run_one(const example *ex, const gdw_dialect *d) {
    uint8_t in[512], out[512];
    size_t n = t_unhex(ex->hex, in, sizeof in);
    CHECK(n != (size_t)-1, "bad hex in table: %s", ex->hex);
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = ex->mode;
    o.allow_objects = ex->objects;
    gdw_doc *doc = NULL;
    gdw_error err;
    size_t used = 0;
    gdw_status s = gdw_decode(d, in, n, &o, NULL, &doc, &used, &err);
    CHECK(s == GDW_OK, "%s %s: decode failed: %s at %zu: %s", d->name, ex->hex, gdw_status_name(s),
          err.offset, err.message);
    if (s) return;
    CHECK(used == n, "%s %s: consumed %zu of %zu", d->name, ex->hex, used, n);
    char text[1024];
    gdw_text_print(gdw_doc_root(doc), text, sizeof text);
    CHECK(strcmp(text, ex->text) == 0, "%s %s: value %s, expected %s", d->name, ex->hex, text,
          ex->text);
    /* validate agrees with decode */
    size_t vused = 0;
    CHECK(gdw_validate(d, in, n, &o, &vused, NULL) == GDW_OK && vused == used,
          "%s %s: validate disagrees", d->name, ex->hex);
    /* the text form reads back to an equal value */
    gdw_doc *back = NULL;
    CHECK(gdw_text_parse(text, strlen(text), NULL, &back, &err) == GDW_OK &&
              gdw_value_equal(gdw_doc_root(back), gdw_doc_root(doc)),
          "%s: text %s does not read back", d->name, text);
    gdw_doc_free(back);
    size_t w = 0;
    s = gdw_encode(d, gdw_doc_root(doc), NULL, out, sizeof out, &w, &err);
    CHECK(s == GDW_OK, "%s %s: encode failed: %s", d->name, ex->hex, err.message);
    if (s == GDW_OK) {
        uint8_t want[512];
        size_t wn = ex->reencode == SAME ? n : t_unhex(ex->reencoded, want, sizeof want);
        const uint8_t *wp = ex->reencode == SAME ? in : want;
        char got[1100];
        t_hex(out, w, got, sizeof got);
        CHECK(w == wn && memcmp(out, wp, wn) == 0, "%s %s: re-encoded as %s", d->name, ex->hex,
              got);
        /* a canonical encoding is accepted by strict mode */
        gdw_decode_options so = o;
        so.mode = GDW_MODE_STRICT;
        gdw_error serr;
        CHECK(gdw_validate(d, out, w, &so, NULL, &serr) == GDW_OK,
              "%s %s: strict rejects the re-encoding %s: %s at %zu", d->name, ex->hex, got,
              gdw_status_name(serr.code), serr.offset);
        /* and the strict verdict on the input is exactly "re-encodes identically" */
        if (ex->mode != GDW_MODE_ENGINE_EXACT) {
            gdw_status ss = gdw_validate(d, in, n, &so, NULL, &serr);
            CHECK((ss == GDW_OK) == (ex->reencode == SAME), "%s %s: strict says %s", d->name,
                  ex->hex, gdw_status_name(ss));
        }
    }
    gdw_doc_free(doc);
}

int main(void) {
    size_t rows = sizeof k_examples / sizeof k_examples[0];
    for (size_t i = 0; i < rows; i++) {
        char names[256];
        snprintf(names, sizeof names, "%s", k_examples[i].dialects);
        for (char *tok = strtok(names, " "); tok; tok = strtok(NULL, " "))
            run_one(&k_examples[i], t_dialect(tok));
    }
    printf("%zu example rows\n", rows);
    return t_finish();
}

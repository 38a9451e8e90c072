/* SPDX-License-Identifier: MIT */
/* errors_test — every status code is produced by at least one case here, with its byte
 * offset (and, inside containers, its path) checked; every code has a message. */
#include "codec/tests/testing.h"

typedef struct bad {
    const char *dialect;
    gdw_mode mode;
    const char *hex;
    gdw_status code;
    size_t offset;
    const char *path;
    gdw_engine_error engine;
} bad;

static const bad k_bad[] = {
    {"godot3", GDW_MODE_COMPATIBLE, "02000000 2a00", GDW_ERR_TRUNCATED, 4, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "", GDW_ERR_TRUNCATED, 0, "", GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "04000000 05000000 68656c6c", GDW_ERR_TRUNCATED, 4, "",
     GDW_ENGINE_ERR_FILE_EOF},
    {"godot3", GDW_MODE_COMPATIBLE, "04000000 02000000 6869", GDW_ERR_TRUNCATED, 10, "",
     GDW_ENGINE_ERR_FILE_EOF},
    {"godot3", GDW_MODE_COMPATIBLE, "15000000 03000000 01000000", GDW_ERR_TRUNCATED, 4, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "13000000 ffffff7f", GDW_ERR_TRUNCATED, 8, "[0]",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "1b000000", GDW_ERR_UNKNOWN_TYPE, 0, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot4.0", GDW_MODE_COMPATIBLE, "26000000 00000000", GDW_ERR_UNKNOWN_TYPE, 0, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"mole", GDW_MODE_ENGINE_EXACT, "02000100 2a000000 00000000", GDW_ERR_UNKNOWN_TYPE, 0, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "13000000 02000000 02000000 01000000 1b000000",
     GDW_ERR_UNKNOWN_TYPE, 16, "[1]", GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "12000000 01000000 04000000 03000000 706f7300 1b000000",
     GDW_ERR_UNKNOWN_TYPE, 20, "{\"pos\"}", GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "12000000 02000000 02000000 01000000 00000000 1b000000",
     GDW_ERR_UNKNOWN_TYPE, 20, "{#1 key}", GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "04000000 ffffffff", GDW_ERR_BAD_LENGTH, 4, "",
     GDW_ENGINE_ERR_FILE_EOF},
    {"mole", GDW_MODE_COMPATIBLE, "0f000000 04000000 00000000 01000000 01000000 fcffffff",
     GDW_ERR_BAD_LENGTH, 20, "", GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "15000000 ffffffff", GDW_ERR_BAD_COUNT, 4, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "19000000 ffffff0f", GDW_ERR_BAD_COUNT, 4, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_STRICT, "17000000 ffffffff", GDW_ERR_BAD_COUNT, 4, "", GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_COMPATIBLE, "04000000 02000000 c0800000", GDW_ERR_BAD_UTF8, 8, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "04000000 03000000 e08080", GDW_ERR_TRUNCATED, 11, "",
     GDW_ENGINE_ERR_FILE_EOF},
    {"godot3", GDW_MODE_COMPATIBLE, "04000000 03000000 e0808000", GDW_ERR_BAD_UTF8, 10, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot4", GDW_MODE_COMPATIBLE, "04000000 03000000 eda08000", GDW_ERR_BAD_UTF8, 8, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_STRICT, "04000000 03000000 eda08000", GDW_ERR_BAD_UTF8, 8, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "0f000000 01000000 61000000", GDW_ERR_BAD_NODEPATH, 4, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_COMPATIBLE, "11000000 04000000 4e6f6465 00000000",
     GDW_ERR_OBJECTS_DISALLOWED, 0, "", GDW_ENGINE_ERR_UNAUTHORIZED},
    {"godot4", GDW_MODE_COMPATIBLE, "1c000100 63000000 00000000", GDW_ERR_BAD_VALUE, 4, "",
     GDW_ENGINE_ERR_INVALID_DATA},
    {"mole", GDW_MODE_COMPATIBLE, "0f000000 17000000 00000000 01000000 01000000 04000000 ff0000ff",
     GDW_ERR_BAD_VALUE, 4, "", GDW_ENGINE_ERR_INVALID_DATA},
    {"pandemonium-5", GDW_MODE_COMPATIBLE, "1b000000 17000000 04000000 04000000 4e6f6465 00000000",
     GDW_ERR_BAD_VALUE, 8, "", GDW_ENGINE_ERR_INVALID_DATA},
    {"pandemonium", GDW_MODE_ENGINE_EXACT,
     "13000000 0000803f 00000000 00000000 00000000 00000000 0000803f 00000000 00000000 00000000 "
     "00000000 0000803f 00000000 00000000 00000000 00000000 0000803f",
     GDW_ERR_ENGINE_DEFECT, 4, "", GDW_ENGINE_ERR_INVALID_DATA},
    {"godot3", GDW_MODE_STRICT, "02000200 2a000000", GDW_ERR_BAD_FLAGS, 0, "", GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "0f000000 01000080 00000000 04000000 01000000 61000000",
     GDW_ERR_BAD_FLAGS, 12, "", GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "04000000 01000000 61ff0000", GDW_ERR_NONZERO_PADDING, 9, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "14000000 01000000 01000001", GDW_ERR_NONZERO_PADDING, 11, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "14000000 03000000 010203", GDW_ERR_TRUNCATED, 11, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "00000000 00000000", GDW_ERR_TRAILING_BYTES, 4, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "02000100 2a000000 00000000", GDW_ERR_NON_CANONICAL, 0, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "03000100 00000000 0000f83f", GDW_ERR_NON_CANONICAL, 0, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "01000000 02000000", GDW_ERR_NON_CANONICAL, 4, "", GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "13000000 00000080", GDW_ERR_NON_CANONICAL, 4, "", GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "11000100 00000000 00000000", GDW_ERR_NON_CANONICAL, 4, "",
     GDW_ENGINE_NONE},
    {"godot3", GDW_MODE_STRICT, "04000000 04000000 efbbbf61", GDW_ERR_NON_CANONICAL, 8, "",
     GDW_ENGINE_NONE},
    {"godot3.0", GDW_MODE_STRICT, "02000000 2a000000", GDW_ERR_NON_CANONICAL, 0, "",
     GDW_ENGINE_NONE},
    {"godot4", GDW_MODE_STRICT, "05000100 00000000 0000f03f 00000000 00000040",
     GDW_ERR_NON_CANONICAL, 0, "", GDW_ENGINE_NONE},
    {"godot4-double", GDW_MODE_STRICT, "05000000 0000803f 00000040", GDW_ERR_NON_CANONICAL, 0, "",
     GDW_ENGINE_NONE},
};

static int seen[600];

static void note(gdw_status s) {
    if ((unsigned)s < 600) seen[s] = 1;
}

static void run_bad(const bad *b) {
    const gdw_dialect *d = t_dialect(b->dialect);
    uint8_t in[256];
    size_t n = t_unhex(b->hex, in, sizeof in);
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = b->mode;
    gdw_error err;
    gdw_doc *doc = NULL;
    gdw_status s = gdw_decode(d, in, n, &o, NULL, &doc, NULL, &err);
    note(s);
    CHECK(s == b->code, "%s %s [%s]: got %s, want %s", b->dialect, gdw_mode_name(b->mode), b->hex,
          gdw_status_name(s), gdw_status_name(b->code));
    CHECK(doc == NULL, "%s: a failed decode returned a document", b->hex);
    if (s != b->code) return;
    CHECK(err.code == s && err.offset == b->offset, "%s [%s]: offset %zu, want %zu", b->dialect,
          b->hex, err.offset, b->offset);
    CHECK(strcmp(err.path, b->path) == 0, "%s [%s]: path '%s', want '%s'", b->dialect, b->hex,
          err.path, b->path);
    CHECK(err.engine_error == b->engine, "%s [%s]: engine error %s, want %s", b->dialect, b->hex,
          gdw_engine_error_name(err.engine_error), gdw_engine_error_name(b->engine));
    CHECK(err.message && err.message[0], "no message");
    gdw_error verr;
    gdw_status vs = gdw_validate(d, in, n, &o, NULL, &verr);
    CHECK(vs == s && verr.offset == err.offset && strcmp(verr.path, err.path) == 0,
          "%s [%s]: validate says %s at %zu", b->dialect, b->hex, gdw_status_name(vs), verr.offset);
}

/* An allocator that always fails. */
static void *no_malloc(void *c, size_t n) {
    (void)c;
    (void)n;
    return NULL;
}
static void *no_realloc(void *c, void *p, size_t o, size_t n) {
    (void)c;
    (void)p;
    (void)o;
    (void)n;
    return NULL;
}
static void no_free(void *c, void *p, size_t n) {
    (void)c;
    (void)p;
    (void)n;
}

/* An allocator that refuses any block over 6,000 bytes: a decode whose walk needs only small ones
 * (its strings borrowed) gets through the walk, and an engine pass that copies a longer string does
 * not. */
static void *small_malloc(void *c, size_t n) {
    (void)c;
    return n > 6000 ? NULL : malloc(n);
}
static void *small_realloc(void *c, void *p, size_t o, size_t n) {
    (void)c;
    (void)o;
    return n > 6000 ? NULL : realloc(p, n);
}
static void small_free(void *c, void *p, size_t n) {
    (void)c;
    (void)n;
    free(p);
}

/* An engine-pass failure is reported where the pass was: at the pass's offset (the value's end,
 * where its trace events point) and the path of the value it was settling, not offset 0 and the
 * root. Godot 3's UTF-8 decoder turns an overlong form into the character it stands for (`E0 80 AF`
 * is "/": String::parse_utf8, measured on 3.2.3 and 3.6.2, docs/dialects/godot3.md "Strings"), so
 * engine-exact mode's pass rewrites the second string of ["a", 2,667 overlong "/"] into a copy of
 * its own, the one block over 6,000 bytes. */
static void pass_failure(void) {
    enum { FORMS = 2667, TEXT = 3 * FORMS, LEN = 8 + 12 + 8 + TEXT + 3 };
    static uint8_t in[LEN];
    static const uint8_t head[] = {0x13,
                                   0,
                                   0,
                                   0,
                                   2,
                                   0,
                                   0,
                                   0,
                                   4,
                                   0,
                                   0,
                                   0,
                                   1,
                                   0,
                                   0,
                                   0,
                                   'a',
                                   0,
                                   0,
                                   0,
                                   4,
                                   0,
                                   0,
                                   0,
                                   (uint8_t)TEXT,
                                   (uint8_t)(TEXT >> 8),
                                   0,
                                   0};
    memcpy(in, head, sizeof head);
    for (size_t i = 0; i < FORMS; i++) memcpy(in + sizeof head + 3 * i, "\xe0\x80\xaf", 3);
    gdw_allocator small = {small_malloc, small_realloc, small_free, NULL};
    gdw_decode_options o = gdw_decode_options_default();
    o.borrow_input = true;
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_decode(t_dialect("godot3"), in, LEN, &o, &small, &doc, NULL, &err);
    CHECK(s == GDW_OK, "the walk alone fits the allocator: %s", gdw_status_name(s));
    gdw_doc_free(doc);
    o.mode = GDW_MODE_ENGINE_EXACT;
    doc = NULL;
    s = gdw_decode(t_dialect("godot3"), in, LEN, &o, &small, &doc, NULL, &err);
    note(s);
    CHECK(s == GDW_ERR_NOMEM && doc == NULL, "the pass's copy does not fit: %s",
          gdw_status_name(s));
    CHECK(err.code == s && err.offset == LEN && err.value_offset == LEN,
          "pass failure at %zu (value %zu), want %d", err.offset, err.value_offset, (int)LEN);
    CHECK(strcmp(err.path, "[1]") == 0, "pass failure at path '%s', want [1]", err.path);
    s = gdw_decode(t_dialect("godot3"), in, LEN, &o, NULL, &doc, NULL, &err);
    CHECK(s == GDW_OK && doc && gdw_doc_root(doc)->len == 2 &&
              gdw_items(gdw_doc_root(doc))[1].len == FORMS,
          "with memory, the pass makes the engine's \"/\" x %d: %s", FORMS, gdw_status_name(s));
    gdw_doc_free(doc);
}

static gdw_status parse(const char *text, gdw_doc **doc) {
    gdw_error err;
    gdw_status s = gdw_text_parse(text, strlen(text), NULL, doc, &err);
    CHECK(s == GDW_OK, "parse %s: %s", text, err.message);
    return s;
}

static void encode_error(const char *dialect, const char *text, bool lossy, gdw_status want) {
    gdw_doc *doc = NULL;
    if (parse(text, &doc)) return;
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy;
    uint8_t out[64];
    size_t w = 0;
    gdw_error err;
    gdw_status s = gdw_encode(t_dialect(dialect), gdw_doc_root(doc), &eo, out, sizeof out, &w,
                              &err);
    note(s);
    CHECK(s == want, "encode %s in %s: %s, want %s", text, dialect, gdw_status_name(s),
          gdw_status_name(want));
    gdw_doc_free(doc);
}

int main(void) {
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) run_bad(&k_bad[i]);

    const gdw_dialect *g3 = t_dialect("godot3");
    uint8_t nested[] = {0x13, 0, 0, 0, 1,    0, 0, 0, 0x13, 0, 0, 0,
                        1,    0, 0, 0, 0x13, 0, 0, 0, 0,    0, 0, 0};
    gdw_decode_options o = gdw_decode_options_default();
    gdw_error err;
    o.max_depth = 1;
    gdw_status s = gdw_validate(g3, nested, sizeof nested, &o, NULL, &err);
    note(s);
    CHECK(s == GDW_ERR_DEPTH && err.offset == 16 && strcmp(err.path, "[0][0]") == 0,
          "depth: %s at %zu %s", gdw_status_name(s), err.offset, err.path);
    CHECK(err.engine_error == GDW_ENGINE_ERR_OUT_OF_MEMORY,
          "depth maps to the engine's ERR_OUT_OF_MEMORY");

    o = gdw_decode_options_default();
    o.max_size = 8;
    s = gdw_validate(g3, nested, sizeof nested, &o, NULL, &err);
    note(s);
    CHECK(s == GDW_ERR_TOO_LARGE && err.offset == 8, "max_size: %s", gdw_status_name(s));

    gdw_allocator none = {no_malloc, no_realloc, no_free, NULL};
    gdw_doc *doc = NULL;
    s = gdw_decode(g3, nested, sizeof nested, NULL, &none, &doc, NULL, &err);
    note(s);
    CHECK(s == GDW_ERR_NOMEM && doc == NULL, "nomem: %s", gdw_status_name(s));

    pass_failure();

    s = gdw_decode(NULL, nested, sizeof nested, NULL, NULL, &doc, NULL, &err);
    note(s);
    CHECK(s == GDW_ERR_INVALID_ARG, "NULL dialect: %s", gdw_status_name(s));
    s = gdw_validate(g3, NULL, 4, NULL, NULL, &err);
    CHECK(s == GDW_ERR_INVALID_ARG, "NULL buffer: %s", gdw_status_name(s));

    encode_error("godot3", "Vector2i(1, 2)", false, GDW_ERR_UNSUPPORTED_TYPE);
    encode_error("godot4", "Image(0, 0, 0, 0, PackedByteArray())", false, GDW_ERR_UNSUPPORTED_TYPE);
    encode_error("mole", "1099511627776", false, GDW_ERR_LOSSY);
    encode_error("mole", "1099511627776", true, GDW_OK);
    /* text the engine could not hold as a String: NUL, a leading BOM, bytes that are not UTF-8 */
    encode_error("godot3", "\"a\\0b\"", false, GDW_ERR_LOSSY);
    encode_error("godot4", "\"\\xef\\xbb\\xbfa\"", false, GDW_ERR_LOSSY);
    encode_error("godot3", "^\"a\\xff\"", false, GDW_ERR_LOSSY);
    encode_error("godot3", "PackedStringArray(\"\\xc0\\x80\")", false, GDW_ERR_LOSSY);
    encode_error("godot3", "\"\\xff\"", true, GDW_OK);
    encode_error("mole", "0.1", false, GDW_ERR_LOSSY);
    encode_error("godot3", "f64:Vector2(0.1, 2.0)", false, GDW_ERR_LOSSY);
    encode_error("godot3", "f64:Vector2(0.5, 2.0)", false, GDW_OK);
    encode_error("godot4.0", "Array[int]([1])", false, GDW_ERR_LOSSY);
    encode_error("godot3", "RID(5)", false, GDW_ERR_LOSSY);
    encode_error("godot3", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]", false,
                 GDW_ERR_TRUNCATED);
    /* values no reader of the dialect would take back (found by fuzzers/encode.c) */
    encode_error("mole", "Image(23, 0, 1, 1, PackedByteArray(1))", false, GDW_ERR_INVALID_TREE);
    encode_error("mole", "Image(22, 0, 1, 1, PackedByteArray(1))", false, GDW_OK);
    encode_error("godot4", "Array[#40]([])", false, GDW_ERR_UNSUPPORTED_TYPE);
    encode_error("godot4.4", "Dictionary[\"Node\", #40]({})", false, GDW_ERR_UNSUPPORTED_TYPE);
    encode_error("pandemonium-5", "TypedArray[#3]([])", false, GDW_ERR_INVALID_TREE);
    encode_error("pandemonium-5", "TypedArray[#200]([])", false, GDW_OK);

    gdw_value broken = {.type = 200};
    size_t w = 0;
    s = gdw_encode(g3, &broken, NULL, NULL, 0, &w, &err);
    note(s);
    CHECK(s == GDW_ERR_INVALID_TREE, "invalid tree: %s", gdw_status_name(s));

    s = gdw_text_parse("[1,", 3, NULL, &doc, &err);
    note(s);
    CHECK(s == GDW_ERR_SYNTAX && err.offset == 3, "syntax: %s at %zu", gdw_status_name(s),
          err.offset);
    s = gdw_text_parse("Vector2(1)", 10, NULL, &doc, &err);
    CHECK(s == GDW_ERR_SYNTAX, "component count: %s", gdw_status_name(s));
    s = gdw_text_parse("TypedArray[Variant]([])", 23, NULL, &doc, &err);
    CHECK(s == GDW_ERR_SYNTAX && err.offset == 11, "TypedArray[Variant]: %s at %zu",
          gdw_status_name(s), err.offset);
    s = gdw_text_parse("TypedArray[Object]([])", 22, NULL, &doc, &err);
    CHECK(s == GDW_ERR_SYNTAX && err.offset == 11, "TypedArray[Object]: %s at %zu",
          gdw_status_name(s), err.offset);
    s = gdw_text_parse("Array[ObjectID]([])", 19, NULL, &doc, &err);
    CHECK(s == GDW_ERR_SYNTAX && err.offset == 6, "Array[ObjectID]: %s at %zu", gdw_status_name(s),
          err.offset);
    s = gdw_text_parse("InputEvent(1, 0, 20, 7)", 23, NULL, &doc, &err);
    CHECK(s == GDW_ERR_SYNTAX, "InputEvent KEY with one word: %s", gdw_status_name(s));

    /* The rules of a value have one definition (build.c): the text form, the JSON form and the
     * typed calls break each with the same message; the JSON reader keeps the path and offset of
     * the member that breaks it (it once lost both: its values went through the text form). */
    {
        static const gdw_typedesc variant = {GDW_DESC_NONE, 0, 0, 0, {NULL, 0}};
        static const double one = 1;
        static const struct rule_case {
            const char *text, *json, *json_path, *message;
            size_t json_off;
            int typed; /* which typed call breaks it too (below), 0: none */
        } rules[] = {
            {"[NodePath([], [], 2)]",
             "{\"type\":\"Array\",\"value\":[{\"type\":\"NodePath\",\"names\":[],\"subnames\":[],"
             "\"property\":true}]}",
             ".value[0]", "NodePath flags", 25, 1},
            {"[InputEvent(1, 0, 20, 7)]",
             "{\"type\":\"Array\",\"value\":[{\"type\":\"InputEvent\",\"event_type\":1,\"device\":"
             "0,\"length\":20,\"extra\":[7]}]}",
             ".value[0]", "InputEvent: wrong number of value words", 25, 0},
            {"[ObjectID(0)]", "{\"type\":\"Array\",\"value\":[{\"type\":\"Object\",\"id\":0}]}",
             ".value[0]", "ObjectID(0) is Object(null)", 25, 0},
            {"[TypedArray[Variant]([])]",
             "{\"type\":\"Array\",\"value\":[{\"type\":\"TypedArray\",\"element_type\":\"Variant\","
             "\"value\":[]}]}",
             ".value[0].element_type", "a Pandemonium TypedArray's element type", 61, 2},
            {"[Array[ObjectID]([])]",
             "{\"type\":\"Array\",\"value\":[{\"type\":\"Array\",\"element_type\":\"ObjectID\","
             "\"value\":[]}]}",
             ".value[0].element_type", "ObjectID element types are Pandemonium's TypedArray only",
             56, 0},
            {"[Vector2(1)]",
             "{\"type\":\"Array\",\"value\":[{\"type\":\"Vector2\",\"value\":[1]}]}", ".value[0]",
             "wrong number of components", 25, 3},
            {"Object(\"Node\", {1: 2})", NULL, NULL, "an Object's property names are Strings", 0,
             4},
        };
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
            const struct rule_case *r = &rules[i];
            gdw_doc *d = NULL;
            gdw_error e;
            gdw_status s = gdw_text_parse(r->text, strlen(r->text), NULL, &d, &e);
            CHECK(s == GDW_ERR_SYNTAX && strstr(e.message, r->message),
                  "text %s: %s (%s), want SYNTAX (%s...)", r->text, gdw_status_name(s),
                  s ? e.message : "", r->message);
            gdw_doc_free(d);
            if (r->json) {
                s = gdw_json_parse(r->json, strlen(r->json), NULL, &d, &e);
                CHECK(s == GDW_ERR_SYNTAX && strstr(e.message, r->message) &&
                          strcmp(e.path, r->json_path) == 0 && e.offset == r->json_off,
                      "JSON %s: %s (%s) at %zu path '%s', want SYNTAX (%s...) at %zu path '%s'",
                      r->json, gdw_status_name(s), s ? e.message : "", e.offset, e.path, r->message,
                      r->json_off, r->json_path);
                gdw_doc_free(d);
            }
            if (!r->typed) continue;
            gdw_builder *b = gdw_builder_new(NULL);
            if (r->typed == 1) s = gdw_build_node_path(b, NULL, 0, NULL, 0, 2);
            if (r->typed == 2) s = gdw_build_begin(b, GDW_TYPED_ARRAY, NULL, &variant);
            if (r->typed == 3) s = gdw_build_math(b, GDW_VECTOR2, &one, 1, 4);
            if (r->typed == 4) {
                gdw_build_begin_object(b, "Node", 4);
                s = gdw_build_int(b, 1);
            }
            gdw_builder_error(b, &e);
            CHECK(s == GDW_ERR_INVALID_ARG && strstr(e.message, r->message),
                  "typed call for %s: %s (%s)", r->text, gdw_status_name(s), e.message);
            gdw_builder_free(b);
        }
    }
    /* one number reader for both forms: a JSON number of 300 digits is the text form's number */
    {
        char json[400], text[340];
        memset(text, '1', 300);
        memcpy(text + 300, ".5", 3);
        snprintf(json, sizeof json, "{\"type\":\"float\",\"width\":8,\"value\":%s}", text);
        gdw_doc *dj = NULL, *dt = NULL;
        gdw_error e;
        char ftext[360];
        snprintf(ftext, sizeof ftext, "f64:%s", text);
        gdw_status sj = gdw_json_parse(json, strlen(json), NULL, &dj, &e),
                   st = gdw_text_parse(ftext, strlen(ftext), NULL, &dt, &e);
        CHECK(sj == GDW_OK && st == GDW_OK && gdw_value_equal(gdw_doc_root(dj), gdw_doc_root(dt)) &&
                  gdw_doc_root(dj)->u.bits == 0x7e053ca79555bde0ull,
              "a 300-digit number: JSON %s, text %s, bits %016llx", gdw_status_name(sj),
              gdw_status_name(st), sj ? 0ull : (unsigned long long)gdw_doc_root(dj)->u.bits);
        gdw_doc_free(dj);
        gdw_doc_free(dt);
    }

    /* NULL and out-of-range arguments (issue 14): each public function says INVALID_ARG or refuses
     * */
    {
        gdw_doc *d = NULL;
        gdw_error e;
        gdw_status s = gdw_json_parse(NULL, 5, NULL, &d, &e);
        CHECK(s == GDW_ERR_INVALID_ARG && d == NULL,
              "gdw_json_parse(NULL, 5): %s, want INVALID_ARG as gdw_text_parse",
              gdw_status_name(s));
        s = gdw_text_parse(NULL, 5, NULL, &d, &e);
        CHECK(s == GDW_ERR_INVALID_ARG && d == NULL, "gdw_text_parse(NULL, 5): %s",
              gdw_status_name(s));
        size_t n = 0;
        CHECK(gdw_base64_decode("AAAA", 4, NULL, &n, NULL) == GDW_ERR_INVALID_ARG,
              "gdw_base64_decode with a NULL output");
        uint8_t buf[8];
        CHECK(gdw_base64_decode("AAAA", 4, buf, NULL, NULL) == GDW_ERR_INVALID_ARG,
              "gdw_base64_decode with a NULL length");
        CHECK(gdw_base64_decode(NULL, 4, buf, &n, NULL) == GDW_ERR_INVALID_ARG,
              "gdw_base64_decode with a NULL input");
        CHECK(gdw_base64_decode(NULL, 0, buf, &n, NULL) == GDW_OK && n == 0,
              "gdw_base64_decode of nothing");
        gdw_value bogus_a, bogus_b;
        memset(&bogus_a, 0, sizeof bogus_a);
        bogus_a.type = 250; /* far past the type table */
        bogus_b = bogus_a;
        CHECK(!gdw_value_equal(&bogus_a, &bogus_b),
              "two values of an out-of-range type compare equal");
        CHECK(!gdw_value_same_numbers(&bogus_a, &bogus_b),
              "gdw_value_same_numbers on an out-of-range type");
        CHECK(gdw_value_equal(&bogus_a, &bogus_a), "a value is not itself");
        CHECK(!gdw_value_equal(&bogus_a, NULL) && gdw_value_equal(NULL, NULL),
              "NULL handling of gdw_value_equal");
        note(GDW_ERR_INVALID_ARG);
    }
    /* hex text: the one reader (gdw_hex_decode) the command, vectors, tests and fuzzers share */
    {
        static const struct {
            const char *in;
            gdw_status want;
            const char *bytes;
            size_t len, bad_at;
        } k_hex[] = {
            {"", GDW_OK, "", 0, 0},
            {"00ff7F", GDW_OK, "\x00\xff\x7f", 3, 0},
            {"0x0102", GDW_OK, "\x01\x02", 2, 0},
            {"0X 01 02", GDW_OK, "\x01\x02", 2, 0},
            /* whitespace anywhere, inside a pair too */
            {" 0 1\t02\r\n", GDW_OK, "\x01\x02", 2, 0},
            {"010", GDW_ERR_SYNTAX, NULL, 0, 2}, /* odd: the lone last digit */
            {"01 0 ", GDW_ERR_SYNTAX, NULL, 0, 3},
            /* the first character that is not hex */
            {"01zz", GDW_ERR_SYNTAX, NULL, 0, 2},
            {"x01", GDW_ERR_SYNTAX, NULL, 0, 0},
            {"0102 0x03", GDW_ERR_SYNTAX, NULL, 0, 6}, /* "0x" only at the start */
        };
        for (size_t i = 0; i < sizeof k_hex / sizeof k_hex[0]; i++) {
            uint8_t out[8];
            size_t n = 99, bad = 99;
            gdw_status s = gdw_hex_decode(k_hex[i].in, strlen(k_hex[i].in), out, &n, &bad);
            CHECK(s == k_hex[i].want, "gdw_hex_decode(\"%s\"): %s", k_hex[i].in,
                  gdw_status_name(s));
            if (s == GDW_OK && k_hex[i].want == GDW_OK)
                CHECK(n == k_hex[i].len && memcmp(out, k_hex[i].bytes, n) == 0,
                      "gdw_hex_decode(\"%s\"): %zu bytes", k_hex[i].in, n);
            if (s != GDW_OK && k_hex[i].want != GDW_OK)
                CHECK(bad == k_hex[i].bad_at, "gdw_hex_decode(\"%s\"): bad at %zu, want %zu",
                      k_hex[i].in, bad, k_hex[i].bad_at);
        }
        for (int c = 0; c < 256; c++) {
            int want = c >= '0' && c <= '9'   ? c - '0'
                       : c >= 'a' && c <= 'f' ? c - 'a' + 10
                       : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                              : -1;
            CHECK(gdw_hex_digit(c) == want, "gdw_hex_digit(%d) = %d, want %d", c, gdw_hex_digit(c),
                  want);
        }
        char inplace[] = "c0ffee";
        size_t n = 0;
        CHECK(gdw_hex_decode(inplace, 6, (uint8_t *)inplace, &n, NULL) == GDW_OK && n == 3 &&
                  memcmp(inplace, "\xc0\xff\xee", 3) == 0,
              "gdw_hex_decode in place");
    }
    /* pasted byte values (gdw_dump_decode): what `gdwire --dump`, the npm package and the page read
     * */
    {
        static const struct {
            const char *in;
            gdw_status want;
            const char *bytes;
            size_t len, bad_at;
        } k_dump[] = {
            /* Godot's print() of a PackedByteArray */
            {"[27, 0, 0, 0]", GDW_OK, "\x1b\0\0\0", 4, 0},
            {"0x1b,0xff;{3}", GDW_OK, "\x1b\xff\x03", 3, 0},
            {"00000000: 1b00 0000 0200  ....\n", GDW_OK, "\x1b\0\0\0\x02\0", 6, 0}, /* xxd */
            /* hexdump -C */
            {"00000000  1b 00 00 00  |....|\n00000004\n", GDW_OK, "\x1b\0\0\0", 4, 0},
            /* "*" repeats */
            {"00000000  01 02  |..|\n*\n00000006\n", GDW_OK, "\x01\x02\x01\x02\x01\x02", 6, 0},
            {"[27, 256]", GDW_ERR_SYNTAX, NULL, 0, 8}, /* past 255 */
            {"[27, x]", GDW_ERR_SYNTAX, NULL, 0, 5},
            /* hex is --hex, not a dump */
            {"1b 00", GDW_ERR_SYNTAX, NULL, 0, 1},
        };
        for (size_t i = 0; i < sizeof k_dump / sizeof k_dump[0]; i++) {
            uint8_t out[64];
            size_t n = 99, bad = 99;
            const char *why = NULL;
            gdw_status s = gdw_dump_decode(k_dump[i].in, strlen(k_dump[i].in), out, &n, &bad, &why);
            CHECK(s == k_dump[i].want, "gdw_dump_decode(\"%s\"): %s", k_dump[i].in,
                  gdw_status_name(s));
            if (s == GDW_OK && k_dump[i].want == GDW_OK)
                CHECK(n == k_dump[i].len && memcmp(out, k_dump[i].bytes, n) == 0,
                      "gdw_dump_decode(\"%s\"): %zu bytes", k_dump[i].in, n);
            if (s != GDW_OK && k_dump[i].want != GDW_OK)
                CHECK(bad == k_dump[i].bad_at && why && why[0],
                      "gdw_dump_decode(\"%s\"): bad at %zu, want %zu", k_dump[i].in, bad,
                      k_dump[i].bad_at);
        }
    }
    /* NaN payloads in the text form: the sign before "nan" is kept, only nan(0xHEX) is a payload */
    {
        static const struct {
            const char *text;
            gdw_status want;
            uint64_t bits;
        } nans[] = {
            {"f64:-nan(0x7ff8000000000001)", GDW_OK, 0xfff8000000000001ull},
            {"f64:nan(0xfff8000000000001)", GDW_OK, 0xfff8000000000001ull},
            {"f64:nan(0x7ff8000000000001)", GDW_OK, 0x7ff8000000000001ull},
            {"f64:-nan", GDW_OK, 0xfff8000000000000ull},
            {"nan(-1)", GDW_ERR_SYNTAX, 0},
            {"nan( 0x7ff8000000000001)", GDW_ERR_SYNTAX, 0},
            {"nan(+0x7ff8000000000001)", GDW_ERR_SYNTAX, 0},
            {"nan(0x)", GDW_ERR_SYNTAX, 0},
            {"f64:nan(0x17ff8000000000001)", GDW_ERR_SYNTAX, 0},
            {"f64:nan(7ff8000000000001)", GDW_ERR_SYNTAX, 0},
        };
        for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
            gdw_doc *d = NULL;
            gdw_error e;
            gdw_status s = gdw_text_parse(nans[i].text, strlen(nans[i].text), NULL, &d, &e);
            CHECK(s == nans[i].want, "%s: %s, want %s", nans[i].text, gdw_status_name(s),
                  gdw_status_name(nans[i].want));
            if (s == GDW_OK) {
                const gdw_value *v = gdw_doc_root(d);
                CHECK(v->type == GDW_FLOAT && v->width == 8 && v->u.bits == nans[i].bits,
                      "%s: bits %016llx", nans[i].text, (unsigned long long)v->u.bits);
                char back[64];
                gdw_text_print(v, back, sizeof back);
                gdw_doc *d2 = NULL;
                CHECK(gdw_text_parse(back, strlen(back), NULL, &d2, &e) == GDW_OK &&
                          gdw_value_equal(v, gdw_doc_root(d2)),
                      "%s prints as %s, which reads back otherwise", nans[i].text, back);
                gdw_doc_free(d2);
            }
            gdw_doc_free(d);
        }
    }

    /* every code of the table is produced above, and has a message and a name */
    static const gdw_status all[] = {GDW_ERR_TRUNCATED,
                                     GDW_ERR_UNKNOWN_TYPE,
                                     GDW_ERR_BAD_LENGTH,
                                     GDW_ERR_BAD_COUNT,
                                     GDW_ERR_BAD_UTF8,
                                     GDW_ERR_BAD_NODEPATH,
                                     GDW_ERR_OBJECTS_DISALLOWED,
                                     GDW_ERR_BAD_VALUE,
                                     GDW_ERR_ENGINE_DEFECT,
                                     GDW_ERR_BAD_FLAGS,
                                     GDW_ERR_NONZERO_PADDING,
                                     GDW_ERR_TRAILING_BYTES,
                                     GDW_ERR_NON_CANONICAL,
                                     GDW_ERR_DEPTH,
                                     GDW_ERR_TOO_LARGE,
                                     GDW_ERR_NOMEM,
                                     GDW_ERR_UNSUPPORTED_TYPE,
                                     GDW_ERR_LOSSY,
                                     GDW_ERR_INVALID_ARG,
                                     GDW_ERR_INVALID_TREE,
                                     GDW_ERR_SYNTAX};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK(seen[all[i]], "status %s is produced by no test", gdw_status_name(all[i]));
        CHECK(strcmp(gdw_strerror(all[i]), "unknown status") != 0, "status %d has no message",
              all[i]);
        CHECK(gdw_status_from_name(gdw_status_name(all[i])) == (int)all[i],
              "status %d name does not read back", all[i]);
    }
    return t_finish();
}

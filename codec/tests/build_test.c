/* SPDX-License-Identifier: MIT */
/* build_test — the value-building API (gdw_build_*) and the typed getters (gdw_get_*, gdw_dict_get,
 * gdw_array_get): every type built equals the same value read from its canonical text (an
 * independent path: the text parser's grammar); every misuse fails with its status and the path of
 * the value, stickily; a deep copy outlives its source; the getters refuse other types and ranges.
 * */
#include "codec/tests/testing.h"

static gdw_doc *parse(const char *text) {
    gdw_doc *doc = NULL;
    gdw_error e;
    if (gdw_text_parse(text, strlen(text), NULL, &doc, &e)) {
        fprintf(stderr, "cannot parse %s: %s at %zu\n", text, e.message, e.offset);
        exit(2);
    }
    return doc;
}

/* The builder's document equals the text's value, and prints as that text. */
static void same_as_text(gdw_builder *b, const char *text, int line) {
    gdw_doc *built = NULL;
    gdw_error e;
    gdw_status s = gdw_build_finish(b, &built, &e);
    CHECK(s == GDW_OK, "line %d: finish: %s %s at %s", line, gdw_status_name(s), e.message, e.path);
    if (s) return;
    gdw_doc *want = parse(text);
    char *got = gdw_text_print_alloc(gdw_doc_root(built), NULL, NULL);
    CHECK(gdw_value_equal(gdw_doc_root(built), gdw_doc_root(want)), "line %d: built %s, want %s",
          line, got, text);
    free(got);
    gdw_doc_free(want);
    gdw_doc_free(built);
}

static gdw_str S(const char *s) { return (gdw_str){(const uint8_t *)s, (uint32_t)strlen(s)}; }

static void every_type(void) {
    gdw_builder *b = gdw_builder_new(NULL);
    const double v2[] = {1.5, -2}, rect[] = {0, 1, 2, 3}, v3[] = {1, 2, 3},
                 col[] = {1, 0.5, 0.25, 1};
    const double xf[] = {1, 0, 0, 1, 10, 20};
    const int64_t v2i[] = {-7, 9}, v3i[] = {1, 2, 3}, ints[] = {1, -2, 2147483647},
                  i64s[] = {INT64_MIN, 5};
    const uint8_t raw[] = {0, 255, 7};
    gdw_str strs[] = {S("a"), S(""), S("b c")};

    gdw_build_nil(b);
    same_as_text(b, "null", __LINE__);
    gdw_build_bool(b, true);
    same_as_text(b, "true", __LINE__);
    gdw_build_int(b, -42);
    same_as_text(b, "-42", __LINE__);
    gdw_build_int(b, INT64_MIN);
    same_as_text(b, "-9223372036854775808", __LINE__);
    gdw_build_float(b, 0.5);
    same_as_text(b, "f32:0.5", __LINE__);
    gdw_build_float(b, 0.1);
    same_as_text(b, "f64:0.1", __LINE__);
    gdw_build_float_bits(b, 0x7ff8000000000001u, 8);
    same_as_text(b, "f64:nan(0x7ff8000000000001)", __LINE__);
    gdw_build_cstring(b, "héllo");
    same_as_text(b, "\"héllo\"", __LINE__);
    gdw_build_string(b, "a\0b", 3);
    same_as_text(b, "\"a\\0b\"", __LINE__);
    gdw_build_string_name(b, "player", 6);
    same_as_text(b, "&\"player\"", __LINE__);
    gdw_build_node_path(b, (gdw_str[]){S("root"), S("x")}, 2, (gdw_str[]){S("pos")}, 1, 1);
    same_as_text(b, "^\"/root/x:pos\"", __LINE__);
    gdw_build_rid(b, 77);
    same_as_text(b, "RID(77)", __LINE__);
    gdw_build_object_id(b, 12);
    same_as_text(b, "ObjectID(12)", __LINE__);
    gdw_build_object_id(b, 0);
    same_as_text(b, "Object(null)", __LINE__);
    gdw_build_callable(b);
    same_as_text(b, "Callable()", __LINE__);
    gdw_build_signal(b, "hit", 3, 9);
    same_as_text(b, "Signal(\"hit\", 9)", __LINE__);
    gdw_build_math(b, GDW_VECTOR2, v2, 2, 0);
    same_as_text(b, "Vector2(1.5, -2)", __LINE__);
    gdw_build_math(b, GDW_VECTOR3, v3, 3, 8);
    same_as_text(b, "f64:Vector3(1, 2, 3)", __LINE__);
    gdw_build_math(b, GDW_RECT2, rect, 4, 4);
    same_as_text(b, "Rect2(0, 1, 2, 3)", __LINE__);
    gdw_build_math(b, GDW_TRANSFORM2D, xf, 6, 0);
    same_as_text(b, "Transform2D(1, 0, 0, 1, 10, 20)", __LINE__);
    gdw_build_math(b, GDW_COLOR, col, 4, 0);
    same_as_text(b, "Color(1, 0.5, 0.25, 1)", __LINE__);
    gdw_build_math_int(b, GDW_VECTOR2I, v2i, 2);
    same_as_text(b, "Vector2i(-7, 9)", __LINE__);
    gdw_build_math_int(b, GDW_VECTOR3I, v3i, 3);
    same_as_text(b, "Vector3i(1, 2, 3)", __LINE__);
    gdw_build_packed_bytes(b, raw, 3);
    same_as_text(b, "PackedByteArray(0, 255, 7)", __LINE__);
    gdw_build_packed_ints(b, GDW_PACKED_INT32_ARRAY, ints, 3);
    same_as_text(b, "PackedInt32Array(1, -2, 2147483647)", __LINE__);
    gdw_build_packed_ints(b, GDW_PACKED_INT64_ARRAY, i64s, 2);
    same_as_text(b, "PackedInt64Array(-9223372036854775808, 5)", __LINE__);
    gdw_build_packed_ints(b, GDW_PACKED_VECTOR2I_ARRAY, ints + 1, 2);
    same_as_text(b, "PackedVector2iArray(-2, 2147483647)", __LINE__);
    gdw_build_packed_reals(b, GDW_PACKED_REAL_ARRAY, v3, 3, 0);
    same_as_text(b, "PackedRealArray(1, 2, 3)", __LINE__);
    gdw_build_packed_reals(b, GDW_PACKED_FLOAT64_ARRAY, v2, 2, 8);
    same_as_text(b, "PackedFloat64Array(1.5, -2)", __LINE__);
    /* 0: its own 8 */
    gdw_build_packed_reals(b, GDW_PACKED_FLOAT64_ARRAY, v2, 2, 0);
    same_as_text(b, "PackedFloat64Array(1.5, -2)", __LINE__);
    gdw_build_packed_reals(b, GDW_PACKED_VECTOR2_ARRAY, rect, 4, 8);
    same_as_text(b, "f64:PackedVector2Array(0, 1, 2, 3)", __LINE__);
    gdw_build_packed_reals(b, GDW_PACKED_COLOR_ARRAY, col, 4, 0);
    same_as_text(b, "PackedColorArray(1, 0.5, 0.25, 1)", __LINE__);
    gdw_build_packed_reals(b, GDW_PACKED_VECTOR3_ARRAY, NULL, 0, 0);
    same_as_text(b, "PackedVector3Array()", __LINE__);
    gdw_build_packed_strings(b, strs, 3);
    same_as_text(b, "PackedStringArray(\"a\", \"\", \"b c\")", __LINE__);

    gdw_build_begin_array(b);
    gdw_build_end(b);
    same_as_text(b, "[]", __LINE__);
    gdw_build_begin_dictionary(b);
    gdw_build_cstring(b, "id");
    gdw_build_int(b, 1);
    gdw_build_cstring(b, "items");
    gdw_build_begin_array(b);
    gdw_build_int(b, 1);
    gdw_build_nil(b);
    gdw_build_begin_dictionary(b);
    gdw_build_int(b, 5);
    gdw_build_bool(b, false);
    gdw_build_end(b);
    gdw_build_end(b);
    gdw_build_end(b);
    same_as_text(b, "{\"id\": 1, \"items\": [1, null, {5: false}]}", __LINE__);

    gdw_typedesc t_int = {GDW_DESC_BUILTIN, GDW_INT, 0, 0, {NULL, 0}},
                 t_str = {GDW_DESC_BUILTIN, GDW_STRING, 0, 0, {NULL, 0}};
    gdw_typedesc t_node = {GDW_DESC_CLASS, 0, 0, 0, S("Node")},
                 t_script = {GDW_DESC_SCRIPT, 0, 0, 0, S("res://a.gd")};
    gdw_build_begin(b, GDW_ARRAY, NULL, &t_int);
    gdw_build_int(b, 1);
    gdw_build_int(b, 2);
    gdw_build_end(b);
    same_as_text(b, "Array[int]([1, 2])", __LINE__);
    gdw_build_begin(b, GDW_DICTIONARY, &t_str, &t_node);
    gdw_build_cstring(b, "a");
    gdw_build_object_id(b, 3);
    gdw_build_end(b);
    same_as_text(b, "Dictionary[String, \"Node\"]({\"a\": ObjectID(3)})", __LINE__);
    gdw_build_begin(b, GDW_ARRAY, NULL, &t_script);
    gdw_build_end(b);
    same_as_text(b, "Array[script(\"res://a.gd\")]([])", __LINE__);
    gdw_build_begin(b, GDW_TYPED_ARRAY, NULL, &t_int);
    gdw_build_int(b, 9);
    gdw_build_end(b);
    same_as_text(b, "TypedArray[int]([9])", __LINE__);
    gdw_build_begin_object(b, "Node2D", 6);
    gdw_build_cstring(b, "hp");
    gdw_build_int(b, 3);
    gdw_build_end(b);
    same_as_text(b, "Object(\"Node2D\", {\"hp\": 3})", __LINE__);
    gdw_builder_free(b);
}

/* The builder's misuse: status, message, path; sticky; and the builder usable again after. */
static void expect_failure(gdw_builder *b, gdw_status want, const char *path, int line) {
    gdw_doc *doc = (gdw_doc *)1;
    gdw_error e;
    gdw_status s = gdw_build_finish(b, &doc, &e);
    CHECK(s == want && doc == NULL && e.code == want && e.message && strcmp(e.path, path) == 0,
          "line %d: %s (%s) at '%s', want %s at '%s'", line, gdw_status_name(s),
          e.message ? e.message : "-", e.path, gdw_status_name(want), path);
    gdw_build_int(b, 1);
    s = gdw_build_finish(b, &doc, &e);
    CHECK(s == GDW_OK && doc, "line %d: the builder is not usable after a failure", line);
    gdw_doc_free(doc);
}

static void misuse(void) {
    gdw_builder *b = gdw_builder_new(NULL);
    const double two[] = {1, 2};
    const int64_t big[] = {1, (int64_t)INT32_MAX + 1};

    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* nothing built */
    gdw_build_int(b, 1);
    gdw_build_int(b, 2);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* a second top value */
    gdw_build_begin_array(b);
    expect_failure(b, GDW_ERR_INVALID_ARG, "[0]", __LINE__); /* left open */
    gdw_build_end(b);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* nothing open */

    gdw_build_begin_dictionary(b);
    gdw_build_cstring(b, "pos");
    gdw_build_begin_array(b);
    gdw_build_nil(b);
    CHECK(gdw_build_math_int(b, GDW_VECTOR2I, big, 2) == GDW_ERR_LOSSY, "32-bit range");
    CHECK(gdw_build_int(b, 1) == GDW_ERR_LOSSY && gdw_build_end(b) == GDW_ERR_LOSSY, "not sticky");
    CHECK(gdw_builder_error(b, NULL) == GDW_ERR_LOSSY, "gdw_builder_error");
    expect_failure(b, GDW_ERR_LOSSY, "{\"pos\"}[1]", __LINE__);

    gdw_build_begin_dictionary(b);
    gdw_build_int(b, 1);
    gdw_build_end(b);
    expect_failure(b, GDW_ERR_INVALID_ARG, "{#0}", __LINE__); /* a key without a value */
    gdw_build_begin_object(b, "Node", 4);
    gdw_build_int(b, 1);
    expect_failure(b, GDW_ERR_INVALID_ARG, ".#0", __LINE__); /* a property name not a String */
    gdw_build_math(b, GDW_VECTOR2, two, 3, 0);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* wrong number of components */
    gdw_build_math(b, GDW_VECTOR2I, two, 2, 0);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* reals for an integer type */
    gdw_build_math(b, GDW_VECTOR2, two, 2, 6);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* width */
    gdw_build_packed_reals(b, GDW_PACKED_VECTOR2_ARRAY, two, 1, 0);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* half an element */
    gdw_build_packed_reals(b, GDW_PACKED_FLOAT32_ARRAY, two, 2, 8);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* PackedFloat32Array is f32 */
    gdw_build_string(b, NULL, 3);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__);
    gdw_build_begin(b, GDW_INT, NULL, NULL);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__);
    gdw_build_begin(b, GDW_TYPED_ARRAY, NULL, NULL);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__);
    gdw_build_node_path(b, NULL, 0, NULL, 0, 2);
    expect_failure(b, GDW_ERR_INVALID_ARG, "", __LINE__); /* property flag with no subname */

    /* depth: the top container and GDW_HARD_MAX_DEPTH levels below it, the deepest tree the
     * decoder gives and the encoder writes (issue 34: the builder took one level more) */
    for (int i = 0; i < (int)GDW_HARD_MAX_DEPTH + 1; i++) gdw_build_begin_array(b);
    CHECK(gdw_builder_error(b, NULL) == GDW_OK, "the deepest tree a reader builds is refused");
    CHECK(gdw_build_begin_array(b) == GDW_ERR_DEPTH, "one level more is not refused");
    gdw_doc *doc = NULL;
    CHECK(gdw_build_finish(b, &doc, NULL) == GDW_ERR_DEPTH && !doc, "depth");

    CHECK(gdw_build_int(NULL, 1) == GDW_ERR_INVALID_ARG &&
              gdw_build_end(NULL) == GDW_ERR_INVALID_ARG,
          "NULL builder");
    CHECK(gdw_build_finish(NULL, &doc, NULL) == GDW_ERR_INVALID_ARG && !doc, "NULL builder finish");
    CHECK(gdw_build_finish(b, NULL, NULL) == GDW_ERR_INVALID_ARG, "NULL out_doc");
    CHECK(gdw_build_value(b, NULL) == GDW_ERR_INVALID_ARG, "NULL value");
    gdw_builder_free(b);
    gdw_builder_free(NULL);
}

/* gdw_build_value: a deep copy that outlives the document it came from, in every dialect's bytes.
 * */
static void deep_copy(void) {
    const char *text = "{\"player\": Object(\"Node\", {\"name\": &\"p1\", \"path\": ^\"a/b:c\"}), "
                       "\"inv\": Array[String]([\"sword\"]),"
                       " \"img\": Image(4, 0, 1, 1, PackedByteArray(1, 2, 3, 4)), \"ev\": "
                       "InputEvent(1, 0, 20, 33554432, 65),"
                       " \"pool\": PackedStringArray(\"x\"), \"t\": f64:Transform3D(1, 0, 0, 0, 1, "
                       "0, 0, 0, 1, 5, 6, 7), \"s\": Signal(\"go\", 4)}";
    gdw_doc *src = parse(text);
    gdw_builder *b = gdw_builder_new(NULL);
    gdw_build_begin_array(b);
    gdw_build_value(b, gdw_doc_root(src));
    gdw_build_value(b, gdw_dict_get(gdw_doc_root(src), "inv", 3));
    gdw_build_end(b);
    gdw_doc *copy = NULL;
    CHECK(gdw_build_finish(b, &copy, NULL) == GDW_OK, "copy");
    char *want = gdw_text_print_alloc(gdw_doc_root(src), NULL, NULL);
    gdw_doc_free(src); /* the copy must not point into it (ASan would see it) */
    char *got = gdw_text_print_alloc(gdw_array_get(gdw_doc_root(copy), 0), NULL, NULL);
    CHECK(got && want && strcmp(got, want) == 0, "copy prints %s, want %s", got, want);
    CHECK(gdw_count(gdw_array_get(gdw_doc_root(copy), 1)) == 1, "the typed array copy");
    free(got);
    free(want);
    gdw_doc_free(copy);

    /* a hand-made malformed tree is refused, not followed */
    gdw_value bad = {GDW_STRING, 0, 0, 5, {.bytes = NULL}};
    CHECK(gdw_build_value(b, &bad) == GDW_ERR_INVALID_TREE, "NULL bytes with a length");
    gdw_build_finish(b, &copy, NULL);
    gdw_value bad_type = {GDW_TYPE_COUNT, 0, 0, 0, {.i = 0}};
    CHECK(gdw_build_value(b, &bad_type) == GDW_ERR_INVALID_TREE, "a type out of range");
    gdw_build_finish(b, &copy, NULL);
    gdw_builder_free(b);
}

/* A request read with the getters, a reply built, encoded in the request's dialect and read back.
 * */
static void request_reply(void) {
    gdw_doc *req = parse("{\"cmd\": \"move\", \"id\": 7, \"to\": Vector2(3, 4), \"speed\": "
                         "f32:1.5, \"run\": true, \"tags\": [&\"a\"]}");
    const gdw_value *r = gdw_doc_root(req);
    const char *cmd;
    size_t cmd_len;
    int64_t id;
    double to[2], speed;
    bool run;
    CHECK(gdw_get_string(gdw_dict_get(r, "cmd", 3), &cmd, &cmd_len) && cmd_len == 4 &&
              memcmp(cmd, "move", 4) == 0,
          "cmd");
    CHECK(gdw_get_int_in(gdw_dict_get(r, "id", 2), 0, 100, &id) && id == 7, "id");
    CHECK(!gdw_get_int_in(gdw_dict_get(r, "id", 2), 8, 100, &id) && id == 7,
          "id out of range is refused, *out untouched");
    CHECK(gdw_get_components(gdw_dict_get(r, "to", 2), GDW_VECTOR2, to, 2) && to[0] == 3 &&
              to[1] == 4,
          "to");
    CHECK(!gdw_get_components(gdw_dict_get(r, "to", 2), GDW_VECTOR3, to, 3),
          "a Vector2 is not a Vector3");
    CHECK(gdw_get_float(gdw_dict_get(r, "speed", 5), &speed) && speed == 1.5, "speed");
    CHECK(!gdw_get_float(gdw_dict_get(r, "id", 2), &speed), "an int is not a float");
    CHECK(gdw_get_bool(gdw_dict_get(r, "run", 3), &run) && run, "run");
    CHECK(!gdw_get_bool(gdw_dict_get(r, "nope", 4), &run), "a missing key");
    CHECK(gdw_get_string(gdw_array_get(gdw_dict_get(r, "tags", 4), 0), &cmd, &cmd_len) &&
              cmd_len == 1,
          "StringName through gdw_get_string");
    CHECK(gdw_array_get(gdw_dict_get(r, "tags", 4), 1) == NULL && gdw_array_get(r, 0) == NULL,
          "array_get range and type");
    CHECK(gdw_count(r) == 6 && gdw_count(gdw_dict_get(r, "id", 2)) == 0 && gdw_count(NULL) == 0,
          "gdw_count");
    CHECK(gdw_dict_key_at(r, 5) && !gdw_dict_key_at(r, 6) &&
              gdw_dict_value_at(r, 1) == gdw_dict_get(r, "id", 2),
          "pairs");

    gdw_builder *b = gdw_builder_new(NULL);
    gdw_build_begin_dictionary(b);
    gdw_build_cstring(b, "ok");
    gdw_build_bool(b, true);
    gdw_build_cstring(b, "id");
    gdw_build_int(b, id);
    gdw_build_cstring(b, "at");
    gdw_build_math(b, GDW_VECTOR2, to, 2, 0);
    gdw_build_end(b);
    gdw_doc *reply = NULL;
    CHECK(gdw_build_finish(b, &reply, NULL) == GDW_OK, "reply");
    const gdw_dialect *d = t_dialect("godot3");
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK(gdw_encode_alloc(d, gdw_doc_root(reply), NULL, NULL, &bytes, &len, NULL) == GDW_OK,
          "encode");
    gdw_doc *back = NULL;
    CHECK(gdw_decode(d, bytes, len, NULL, NULL, &back, NULL, NULL) == GDW_OK &&
              gdw_value_equal(gdw_doc_root(back), gdw_doc_root(reply)),
          "the reply does not read back");
    free(bytes);
    gdw_doc_free(back);
    gdw_doc_free(reply);
    gdw_doc_free(req);
    gdw_builder_free(b);
}

/* gdw_text_print_head: the start of the text, stopping once full. */
static void print_head(void) {
    gdw_builder *b = gdw_builder_new(NULL);
    gdw_build_begin_array(b);
    for (int i = 0; i < 200000; i++) gdw_build_int(b, i);
    gdw_build_end(b);
    gdw_doc *doc = NULL;
    gdw_error err;
    CHECK(gdw_build_finish(b, &doc, &err) == GDW_OK, "200,000 ints");
    if (!doc) {
        gdw_builder_free(b);
        return;
    }
    const gdw_value *v = gdw_doc_root(doc);
    char head[33], whole[64];
    size_t n = gdw_text_print_head(v, head, sizeof head), full = gdw_text_print(v, NULL, 0);
    CHECK(full > 1000000, "the whole text is %zu bytes", full);
    CHECK(n >= sizeof head - 1 && n < 64,
          "the head stopped at %zu bytes of %zu (a full print counts them all)", n, full);
    CHECK(strlen(head) == sizeof head - 1 &&
              !strncmp(head, "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1", sizeof head - 1),
          "the head is the text's start: %s", head);
    /* a value that fits: its whole text and length, as gdw_text_print */
    const gdw_value *one = gdw_array_get(v, 12345);
    n = gdw_text_print_head(one, head, sizeof head);
    CHECK(n == 5 && !strcmp(head, "12345") && gdw_text_print(one, whole, sizeof whole) == n,
          "a short value: %zu %s", n, head);
    CHECK(gdw_text_print_head(v, NULL, 0) <= 1, "cap 0 writes nothing and stops at once");
    gdw_doc_free(doc);
    gdw_builder_free(b);
}

/* Edges found by the hostile-input round 3 (issue 34 #9). */
static void edges(void) {
    gdw_builder *b = gdw_builder_new(NULL);
    gdw_doc *doc = NULL;
    gdw_error e;
    /* an empty packed array from a NULL pointer: the integer and the real forms */
    CHECK(gdw_build_packed_ints(b, GDW_PACKED_INT32_ARRAY, NULL, 0) == GDW_OK,
          "packed ints NULL, 0: %s", gdw_status_name(gdw_builder_error(b, NULL)));
    CHECK(gdw_build_finish(b, &doc, NULL) == GDW_OK &&
              gdw_doc_root(doc)->type == GDW_PACKED_INT32_ARRAY && gdw_doc_root(doc)->len == 0,
          "empty PackedInt32Array");
    gdw_doc_free(doc);
    CHECK(gdw_build_packed_reals(b, GDW_PACKED_FLOAT32_ARRAY, NULL, 0, 4) == GDW_OK,
          "packed reals NULL, 0");
    gdw_build_finish(b, &doc, NULL);
    gdw_doc_free(doc);
    /* a NULL array with a count: that message, whichever form */
    gdw_build_math_int(b, GDW_VECTOR2I, NULL, 2);
    gdw_build_finish(b, &doc, &e);
    CHECK(e.code == GDW_ERR_INVALID_ARG && strcmp(e.message, "NULL array with a count") == 0,
          "math_int NULL, 2: %s", e.message);
    /* finish without out_doc: refused, and the builder is empty after it (a new value goes in) */
    gdw_build_int(b, 7);
    CHECK(gdw_build_finish(b, NULL, &e) == GDW_ERR_INVALID_ARG, "finish with NULL out_doc");
    CHECK(gdw_build_int(b, 8) == GDW_OK, "the builder kept the value of a refused finish: %s",
          gdw_status_name(gdw_builder_error(b, NULL)));
    CHECK(gdw_build_finish(b, &doc, NULL) == GDW_OK && gdw_doc_root(doc)->u.i == 8,
          "after a refused finish");
    gdw_doc_free(doc);
    /* a hand-made math value whose len is not its component count is not copied */
    float f2[2] = {1, 2};
    gdw_value bad = {0};
    bad.type = GDW_VECTOR2;
    bad.width = 4;
    bad.len = 7;
    bad.u.bytes = (const uint8_t *)f2;
    gdw_build_value(b, &bad);
    CHECK(gdw_build_finish(b, &doc, &e) == GDW_ERR_INVALID_TREE && !doc,
          "a Vector2 of len 7 was copied");
    bad.len = 2;
    CHECK(gdw_build_value(b, &bad) == GDW_OK && gdw_build_finish(b, &doc, NULL) == GDW_OK,
          "a Vector2 of len 2");
    gdw_doc_free(doc);
    /* the deepest tree the builder takes encodes, and decodes back at the default depth */
    for (unsigned i = 0; i < GDW_HARD_MAX_DEPTH + 1; i++) gdw_build_begin_array(b);
    for (unsigned i = 0; i < GDW_HARD_MAX_DEPTH + 1; i++) gdw_build_end(b);
    CHECK(gdw_build_finish(b, &doc, &e) == GDW_OK, "the deepest tree: %s", e.message);
    /* ... and that tree encodes and decodes back in a dialect at the default depth */
    uint8_t *bytes = NULL;
    size_t n = 0;
    const gdw_dialect *g4 = t_dialect("godot4");
    gdw_doc *back = NULL;
    CHECK(doc && gdw_encode_alloc(g4, gdw_doc_root(doc), NULL, NULL, &bytes, &n, NULL) == GDW_OK &&
              gdw_decode(g4, bytes, n, NULL, NULL, &back, NULL, NULL) == GDW_OK &&
              gdw_value_equal(gdw_doc_root(doc), gdw_doc_root(back)),
          "the deepest built tree does not decode back");
    free(bytes);
    gdw_doc_free(back);
    gdw_doc_free(doc);
    gdw_builder_free(b);
}

int main(void) {
    edges();
    print_head();
    every_type();
    misuse();
    deep_copy();
    request_reply();
    return t_finish();
}

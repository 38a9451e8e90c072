/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* null_test — every public function of gdwire.h with NULL in each pointer argument, one at a
 * time, the others valid (issue 34): no call crashes, and each does what the header's rule
 * "NULL arguments" says. Each call runs in a child process, so a crash is reported as a failure
 * with the call's text instead of ending the test. */
#include <sys/wait.h>
#include <unistd.h>

#include "codec/tests/testing.h"

static const gdw_dialect *g4;
static gdw_doc *doc; /* [1, "a", {"k": 2.5}] in godot4 */
static const gdw_value *root;
static gdw_builder *builder;

/* Runs body in a child; the child exits 0 when ok holds. */
#define NULLCASE(ok_expr, body) \
    do { \
        fflush(stdout); \
        pid_t pid = fork(); \
        if (pid == 0) { \
            body; \
            _exit((ok_expr) ? 0 : 1); \
        } \
        int st = 0; \
        waitpid(pid, &st, 0); \
        if (WIFSIGNALED(st)) CHECK(0, "crashed (signal %d): %s", WTERMSIG(st), #body); \
        else CHECK(WEXITSTATUS(st) == 0, "wrong result: %s, want %s", #body, #ok_expr); \
    } while (0)

static void setup(void) {
    g4 = t_dialect("godot4");
    uint8_t buf[128];
    /* Array [1, "a", {"k": 2.5}] */
    size_t n = t_unhex(
        "1c000000 03000000 02000000 01000000 04000000 01000000 61000000 1b000000 01000000"
        "04000000 01000000 6b000000 03000000 00002040",
        buf, sizeof buf);
    if (gdw_decode(g4, buf, n, NULL, NULL, &doc, NULL, NULL) != GDW_OK) {
        fprintf(stderr, "setup decode failed\n");
        exit(2);
    }
    root = gdw_doc_root(doc);
    builder = gdw_builder_new(NULL);
}

int main(void) {
    setup();
    const gdw_value *v = root;
    gdw_error err;
    gdw_doc *out_doc = NULL;
    size_t sz = 0;
    uint8_t bytes[256];
    char text[256];
    gdw_typedesc td = {0};
    gdw_check_result results[64];

    /* names and numbers */
    NULLCASE(r == -1, int r = gdw_status_from_name(NULL));
    NULLCASE(r == -1, int r = gdw_type_from_name(NULL, 3));
    NULLCASE(r == -1, int r = gdw_type_from_name(NULL, 0));
    NULLCASE(r == -1, int r = gdw_mode_from_name(NULL));
    NULLCASE(r == NULL, const gdw_dialect *r = gdw_dialect_find(NULL));

    /* values */
    NULLCASE(r != r, double r = gdw_value_real(NULL, 0)); /* NaN, as a component out of range */
    NULLCASE(r == 0, int64_t r = gdw_value_int_at(NULL, 0));
    NULLCASE(r == NULL, const gdw_value *r = gdw_items(NULL));
    NULLCASE(r == NULL, const gdw_container *r = gdw_container_of(NULL));
    NULLCASE(!r, bool r = gdw_value_equal(NULL, v));
    NULLCASE(!r, bool r = gdw_value_equal(v, NULL));
    NULLCASE(!r, bool r = gdw_value_same_numbers(NULL, v));
    NULLCASE(!r, bool r = gdw_value_same_numbers(v, NULL));
    gdw_difference dif;
    NULLCASE(!r && !dif.a, bool r = gdw_value_diff(NULL, v, &dif));
    NULLCASE(!r && !dif.a, bool r = gdw_value_diff(v, NULL, &dif));
    NULLCASE(!r, bool r = gdw_value_diff(v, v, NULL));
    NULLCASE(!r, bool r = gdw_typedesc_equal(NULL, &td));
    NULLCASE(!r, bool r = gdw_typedesc_equal(&td, NULL));
    NULLCASE(r, bool r = gdw_typedesc_equal(NULL, NULL)); /* NULL equals only NULL */

    /* dialects */
    NULLCASE(r && !*r, const char *r = gdw_dialect_release(NULL));
    NULLCASE(r == NULL, const gdw_dialect *r = gdw_dialect_base(NULL));
    NULLCASE(r && !strcmp(r, "(null)"), const char *r = gdw_dialect_name(NULL));
    NULLCASE(r == 0, unsigned r = gdw_dialect_type_count(NULL));
    NULLCASE(r == -1, int r = gdw_dialect_wire_type(NULL, 2));
    NULLCASE(r == -1, int r = gdw_dialect_type_id(NULL, GDW_INT));

    /* decode, validate, check */
    NULLCASE(r == GDW_ERR_INVALID_ARG && err.code == GDW_ERR_INVALID_ARG && err.message,
             gdw_status r = gdw_decode(NULL, bytes, 4, NULL, NULL, &out_doc, NULL, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG && !out_doc, memset(bytes, 0, 8);
             gdw_status r = gdw_decode(g4, NULL, 4, NULL, NULL, &out_doc, NULL, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_decode(g4, bytes, 4, NULL, NULL, NULL, NULL, &err));
    NULLCASE(r == GDW_OK, memset(bytes, 0, 8);
             gdw_status r = gdw_decode(g4, bytes, 4, NULL, NULL, &out_doc, NULL, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_validate(NULL, bytes, 4, NULL, &sz, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_validate(g4, NULL, 4, NULL, &sz, &err));
    NULLCASE(r == GDW_OK, memset(bytes, 0, 8);
             gdw_status r = gdw_validate(g4, bytes, 4, NULL, NULL, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, bool same = true;
             gdw_status r = gdw_validate_watched(NULL, bytes, 4, NULL, &sz, &err, &same));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_validate_watched(g4, NULL, 4, NULL, &sz, &err, NULL));
    NULLCASE(r == GDW_OK, memset(bytes, 0, 8);
             gdw_status r = gdw_validate_watched(g4, bytes, 4, NULL, NULL, NULL, NULL));
    NULLCASE(r == 0, size_t r = gdw_check(NULL, 4, NULL, NULL, false, results, 64));
    NULLCASE(r == 0, memset(bytes, 0, 8);
             size_t r = gdw_check(bytes, 4, NULL, NULL, false, NULL, 64));
    /* NULL out with cap 0 sizes the answer, as snprintf(NULL, 0, ...) */
    NULLCASE(r == gdw_dialect_count(), memset(bytes, 0, 8);
             size_t r = gdw_check(bytes, 4, NULL, NULL, false, NULL, 0));
    NULLCASE(r == 0, size_t r = gdw_check_threads(NULL, 4, NULL, NULL, false, 2, results, 64));
    NULLCASE(r == 0, memset(bytes, 0, 8);
             size_t r = gdw_check_threads(bytes, 4, NULL, NULL, false, 2, NULL, 64));
    NULLCASE(r == gdw_dialect_count(), memset(bytes, 0, 8);
             size_t r = gdw_check_run_rows(bytes, 4, NULL, NULL, NULL, results, 64));
    NULLCASE(r == NULL, const gdw_doc *r = gdw_check_engine_tree(NULL, 0));
    NULLCASE(!r && results[0].status != GDW_OK, memset(bytes, 0, 8);
             bool r = gdw_check_dialect(NULL, bytes, 4, NULL, NULL, false, &results[0]));
    NULLCASE(!r && results[0].status != GDW_OK,
             bool r = gdw_check_dialect(g4, NULL, 4, NULL, NULL, false, &results[0]));
    NULLCASE(!r, memset(bytes, 0, 8);
             bool r = gdw_check_dialect(g4, bytes, 4, NULL, NULL, false, NULL));
    NULLCASE(r && results[0].status == GDW_OK && results[0].consumed == 4 &&
                 results[0].reencodes_same,
             /* opts and alloc may be NULL */
             memset(bytes, 0, 8);
             bool r = gdw_check_dialect(g4, bytes, 4, NULL, NULL, false, &results[0]));
    {
        gdw_rules_read rd = {0, 0, 0};
        NULLCASE(
            !r && results[0].status != GDW_OK, memset(bytes, 0, 8);
            bool r = gdw_check_dialect_read(NULL, bytes, 4, NULL, NULL, false, &results[0], &rd));
        NULLCASE(!r && results[0].status != GDW_OK,
                 bool r = gdw_check_dialect_read(g4, NULL, 4, NULL, NULL, false, &results[0], &rd));
        NULLCASE(!r, memset(bytes, 0, 8);
                 bool r = gdw_check_dialect_read(g4, bytes, 4, NULL, NULL, false, NULL, &rd));
        NULLCASE(
            r && results[0].status == GDW_OK, memset(bytes, 0, 8);
            bool r = gdw_check_dialect_read(g4, bytes, 4, NULL, NULL, false, &results[0], NULL));
        NULLCASE(
            r == GDW_ERR_INVALID_ARG && !out_doc, memset(bytes, 0, 8);
            gdw_status r = gdw_decode_read(NULL, bytes, 4, NULL, NULL, &out_doc, NULL, &err, &rd));
        NULLCASE(
            r == GDW_ERR_INVALID_ARG && !out_doc,
            gdw_status r = gdw_decode_read(g4, NULL, 4, NULL, NULL, &out_doc, NULL, &err, &rd));
        NULLCASE(r == GDW_ERR_INVALID_ARG, memset(bytes, 0, 8);
                 gdw_status r = gdw_decode_read(g4, bytes, 4, NULL, NULL, NULL, NULL, &err, &rd));
        NULLCASE(
            r == GDW_OK && out_doc, memset(bytes, 0, 8);
            gdw_status r = gdw_decode_read(g4, bytes, 4, NULL, NULL, &out_doc, NULL, NULL, NULL));
        NULLCASE(
            r == GDW_OK && rd.type_ids == 1, memset(bytes, 0, 8); memset(&rd, 0, sizeof rd);
            /* a Nil: id 0 read */
            gdw_status r = gdw_decode_read(g4, bytes, 4, NULL, NULL, &out_doc, NULL, NULL, &rd));
        NULLCASE(!r, bool r = gdw_dialects_read_alike(NULL, g4, &rd));
        NULLCASE(!r, bool r = gdw_dialects_read_alike(g4, NULL, &rd));
        NULLCASE(!r, bool r = gdw_dialects_read_alike(g4, g4, NULL));
        NULLCASE(!r, bool r = gdw_dialects_answer_alike(NULL, g4, &rd));
        NULLCASE(!r, bool r = gdw_dialects_answer_alike(g4, NULL, &rd));
        NULLCASE(!r, bool r = gdw_dialects_answer_alike(g4, g4, NULL));
        NULLCASE(true, memset(bytes, 0, 8);
                 gdw_check_take_answer(NULL, bytes, 4, NULL, &results[0], &rd, &results[1]));
        NULLCASE(true, gdw_check_take_answer(g4, bytes, 4, NULL, NULL, &rd, &results[1]));
        NULLCASE(true, gdw_check_take_answer(g4, bytes, 4, NULL, &results[0], &rd, NULL));
        NULLCASE(results[1].dialect == g4 && results[1].status == results[0].status &&
                     results[1].doc == NULL,
                 /* no read set: the answer as it is */
                 gdw_check_take_answer(g4, bytes, 4, NULL, &results[0], NULL, &results[1]));
        /* opts may be NULL: the defaults */
        NULLCASE(r, bool r = gdw_check_shares(GDW_CHECK_SHARE_MIN, NULL));
    }
    {
        gdw_digest g;
        NULLCASE(true, gdw_digest_init(NULL, 1, 2, bytes, 4));
        NULLCASE(g.packet == NULL && g.packet_len == 0, gdw_digest_init(&g, 1, 2, NULL, 4));
        NULLCASE(true, gdw_digest_init(&g, 1, 2, NULL, 0); gdw_digest_node(NULL, v));
        /* NULL is a value of its own */
        NULLCASE(g.h[0] != 2 || g.h[1] != 1, gdw_digest_init(&g, 1, 2, NULL, 0);
                 gdw_digest_node(&g, NULL));
        NULLCASE(!r, bool r = gdw_digest_tree(NULL, v));
        NULLCASE(!r, gdw_digest_init(&g, 1, 2, NULL, 0); bool r = gdw_digest_tree(&g, NULL));
    }
    {
        static gdw_check_row rows[64];
        size_t nd = gdw_dialect_count();
        memset(bytes, 0, 8);
        gdw_check(bytes, 4, NULL, NULL, true, results, 64); /* a Nil, which every dialect reads */
        for (size_t i = 0; i < nd; i++)
            rows[i].result = results[i], rows[i].meaning = -1, rows[i].misread = SIZE_MAX;
        NULLCASE(r == 0, size_t r = gdw_check_rank_rows(NULL, nd, bytes, 4, NULL, true));
        NULLCASE(r == 0, size_t r = gdw_check_rank_rows(rows, 0, bytes, 4, NULL, true));
        /* opts may be NULL */
        NULLCASE(r < nd && rows[r].rank == 1 && rows[r].first,
                 size_t r = gdw_check_rank_rows(rows, nd, bytes, 4, NULL, true));
        NULLCASE(r == 0, size_t r = gdw_check_summary(NULL, nd, 0, bytes, 4, 0, NULL, 0));
        NULLCASE(r == 0,
                 size_t r = gdw_check_script_text(NULL, nd, 0, bytes, 4, 0, false, NULL, 0));
        NULLCASE(r == 0, char t[8];
                 size_t r = gdw_check_script_text(NULL, nd, 0, bytes, 4, 0, false, t, sizeof t));
        /* best out of range */
        NULLCASE(r == 0, char t[64];
                 size_t r = gdw_check_script_text(rows, nd, nd, bytes, 4, 0, false, t, sizeof t));
        NULLCASE(r == 0, size_t r = gdw_check_find_skip(NULL, nd, bytes, 4, NULL));
        NULLCASE(r == 0, size_t r = gdw_check_framing_text(NULL, 4, 0, NULL, 0));
        NULLCASE(r == 0, gdw_check_report *rep = gdw_check_report_make(NULL, 4, NULL, NULL);
                 size_t r = rep != NULL);
        NULLCASE(r == 0, gdw_check_report_free(NULL); size_t r = 0);
        NULLCASE(r == 0, size_t r = gdw_value_misread_reals(NULL));
        for (size_t i = 0; i < nd; i++) gdw_doc_free(results[i].doc);
    }
    NULLCASE(r == NULL, const gdw_value *r = gdw_doc_root(NULL));
    NULLCASE(r == 0, size_t r = gdw_doc_heap_bytes(NULL));
    NULLCASE(1, gdw_doc_free(NULL));

    /* encode, convert */
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode(NULL, v, NULL, bytes, sizeof bytes, &sz, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode(g4, NULL, NULL, bytes, sizeof bytes, &sz, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode(g4, v, NULL, NULL, sizeof bytes, &sz, &err));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_encode(g4, v, NULL, bytes, sizeof bytes, NULL, NULL));
    uint8_t *outp = NULL;
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode_alloc(NULL, v, NULL, NULL, &outp, &sz, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode_alloc(g4, NULL, NULL, NULL, &outp, &sz, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode_alloc(g4, v, NULL, NULL, NULL, &sz, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_encode_alloc(g4, v, NULL, NULL, &outp, NULL, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_convert(NULL, g4, NULL, NULL, &out_doc, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_convert(v, NULL, NULL, NULL, &out_doc, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_convert(v, g4, NULL, NULL, NULL, &err));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_convert(v, g4, NULL, NULL, &out_doc, NULL));

    /* the text and JSON forms */
    NULLCASE(r == 6 && !strcmp(text, "<null>"), size_t r = gdw_text_print(NULL, text, sizeof text));
    NULLCASE(r > 0, size_t r = gdw_text_print(v, NULL, 0));
    NULLCASE(r > 0, size_t r = gdw_text_print(v, NULL, 100));
    NULLCASE(r && !strcmp(r, "<null>"), char *r = gdw_text_print_alloc(NULL, NULL, NULL));
    NULLCASE(r == 6, size_t r = gdw_text_print_head(NULL, text, sizeof text));
    NULLCASE(r > 0, size_t r = gdw_text_print_head(v, NULL, 100));
    NULLCASE(1, gdw_real_text(NULL, 0, 0x3ff0000000000000ull, 8));
    NULLCASE(1, gdw_real_text(NULL, 64, 0x3ff0000000000000ull, 8));
    NULLCASE(r == 4 && !strcmp(text, "null"), size_t r = gdw_json_print(NULL, text, sizeof text));
    NULLCASE(r > 0, size_t r = gdw_json_print(v, NULL, 100));
    NULLCASE(r && !strcmp(r, "null"), char *r = gdw_json_print_alloc(NULL, NULL, NULL));
    NULLCASE(1, gdw_text_free(NULL, NULL));
    NULLCASE(1, gdw_text_free(NULL, gdw_text_print_alloc(v, NULL, NULL)));
    NULLCASE(r == GDW_ERR_INVALID_ARG && !out_doc,
             gdw_status r = gdw_text_parse(NULL, 3, NULL, &out_doc, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_text_parse("[1]", 3, NULL, NULL, &err));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_text_parse("[1]", 3, NULL, &out_doc, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG && !out_doc,
             gdw_status r = gdw_json_parse(NULL, 3, NULL, &out_doc, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_json_parse("{}", 2, NULL, NULL, &err));

    /* reading values */
    bool b;
    int64_t i64;
    double d;
    const char *s;
    double comps[4];
    NULLCASE(!r, bool r = gdw_get_bool(NULL, &b));
    NULLCASE(!r, bool r = gdw_get_bool(v, NULL));
    NULLCASE(!r, bool r = gdw_get_int(NULL, &i64));
    NULLCASE(!r, bool r = gdw_get_int(gdw_array_get(v, 0), NULL));
    NULLCASE(!r, bool r = gdw_get_int_in(NULL, 0, 9, &i64));
    NULLCASE(!r, bool r = gdw_get_int_in(gdw_array_get(v, 0), 0, 9, NULL));
    NULLCASE(!r, bool r = gdw_get_float(NULL, &d));
    NULLCASE(!r, bool r = gdw_get_float(v, NULL));
    NULLCASE(!r, bool r = gdw_get_string(NULL, &s, &sz));
    NULLCASE(!r, bool r = gdw_get_string(gdw_array_get(v, 1), NULL, &sz));
    NULLCASE(!r, bool r = gdw_get_string(gdw_array_get(v, 1), &s, NULL));
    NULLCASE(!r, bool r = gdw_get_components(NULL, GDW_VECTOR2, comps, 2));
    NULLCASE(!r, bool r = gdw_get_components(v, GDW_VECTOR2, NULL, 2));
    NULLCASE(r == 0, size_t r = gdw_count(NULL));
    NULLCASE(r == NULL, const gdw_value *r = gdw_array_get(NULL, 0));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_get(NULL, "k", 1));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_get(gdw_array_get(v, 2), NULL, 1));
    NULLCASE(!r, bool r = gdw_get_number(NULL, &d));
    NULLCASE(!r, bool r = gdw_get_number(gdw_array_get(v, 0), NULL));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_getc(NULL, "k"));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_getc(gdw_array_get(v, 2), NULL));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_get_int(NULL, 1));
    NULLCASE(!r, const uint8_t *pb; bool r = gdw_packed_bytes(NULL, &pb, &sz));
    NULLCASE(!r, bool r = gdw_packed_bytes(v, NULL, &sz));
    NULLCASE(!r, const uint8_t *pb; bool r = gdw_packed_bytes(v, &pb, NULL));
    NULLCASE(!r, bool r = gdw_packed_string_at(NULL, 0, &s, &sz));
    NULLCASE(!r, bool r = gdw_packed_string_at(v, 0, NULL, &sz));
    NULLCASE(!r, bool r = gdw_packed_string_at(v, 0, &s, NULL));
    NULLCASE(!r, bool r = gdw_packed_at(NULL, 0, comps, 1));
    NULLCASE(!r, bool r = gdw_packed_at(v, 0, NULL, 1));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_key_at(NULL, 0));
    NULLCASE(r == NULL, const gdw_value *r = gdw_dict_value_at(NULL, 0));

    /* building */
    NULLCASE(1, gdw_builder_free(NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG && !out_doc && err.code == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_finish(NULL, &out_doc, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_builder_error(NULL, &err));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_builder_error(builder, NULL));
    gdw_str part = {(const uint8_t *)"a", 1};
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_nil(NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_bool(NULL, true));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_int(NULL, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_float(NULL, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_float_bits(NULL, 0, 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_string(NULL, "a", 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_string(builder, NULL, 1));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_build_string(builder, NULL, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_cstring(NULL, "a"));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_build_cstring(builder, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_string_name(NULL, "a", 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_string_name(builder, NULL, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_node_path(NULL, &part, 1, NULL, 0, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_node_path(builder, NULL, 1, NULL, 0, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_node_path(builder, &part, 1, NULL, 1, 0));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_build_node_path(builder, NULL, 0, NULL, 0, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_rid(NULL, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_object_id(NULL, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_callable(NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_signal(NULL, "s", 1, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_signal(builder, NULL, 1, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_math(NULL, GDW_VECTOR2, comps, 2, 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_math(builder, GDW_VECTOR2, NULL, 2, 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_math_int(NULL, GDW_VECTOR2I, &i64, 2));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_math_int(builder, GDW_VECTOR2I, NULL, 2));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_packed_reals(NULL, GDW_PACKED_FLOAT32_ARRAY, comps, 1, 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_packed_reals(builder, GDW_PACKED_FLOAT32_ARRAY, NULL, 1, 4));
    NULLCASE(r == GDW_OK,
             gdw_status r = gdw_build_packed_reals(builder, GDW_PACKED_FLOAT32_ARRAY, NULL, 0, 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_packed_ints(NULL, GDW_PACKED_INT32_ARRAY, &i64, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_build_packed_ints(builder, GDW_PACKED_INT32_ARRAY, NULL, 1));
    NULLCASE(r == GDW_OK,
             gdw_status r = gdw_build_packed_ints(builder, GDW_PACKED_INT32_ARRAY, NULL, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_packed_bytes(NULL, bytes, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_packed_bytes(builder, NULL, 1));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_build_packed_bytes(builder, NULL, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_packed_strings(NULL, &part, 1));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_packed_strings(builder, NULL, 1));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_build_packed_strings(builder, NULL, 0));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_value(NULL, v));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_value(builder, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_begin(NULL, GDW_ARRAY, NULL, NULL));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_build_begin(builder, GDW_ARRAY, NULL, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_begin_array(NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_begin_dictionary(NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_begin_object(NULL, "Node", 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_begin_object(builder, NULL, 4));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_build_end(NULL));

    NULLCASE(r == GDW_ERR_INVALID_ARG, uint8_t * o8; size_t on;
             gdw_status r = gdw_build_encode(NULL, g4, NULL, NULL, &o8, &on, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, uint8_t * o8; size_t on; gdw_build_nil(builder);
             gdw_status r = gdw_build_encode(builder, NULL, NULL, NULL, &o8, &on, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, size_t on; gdw_build_nil(builder);
             gdw_status r = gdw_build_encode(builder, g4, NULL, NULL, NULL, &on, &err));
    NULLCASE(r == GDW_ERR_INVALID_ARG, uint8_t * o8; gdw_build_nil(builder);
             gdw_status r = gdw_build_encode(builder, g4, NULL, NULL, &o8, NULL, &err));
    NULLCASE(r == GDW_OK && on == 4, uint8_t * o8; size_t on; gdw_build_nil(builder);
             gdw_status r = gdw_build_encode(builder, g4, NULL, NULL, &o8, &on, NULL));

    /* framing */
    {
        gdw_frame_options fo = gdw_frame_options_default(GDW_FRAMING_STREAM);
        uint8_t fb[8] = {4, 0, 0, 0, 0, 0, 0, 0};
        size_t pl, fl;
        const uint8_t *pp;
        NULLCASE(r == GDW_ERR_INVALID_ARG,
                 gdw_status r = gdw_frame_read(NULL, fb, 8, &pl, &fl, &err));
        NULLCASE(r == GDW_ERR_INVALID_ARG,
                 gdw_status r = gdw_frame_read(&fo, NULL, 8, &pl, &fl, &err));
        NULLCASE(r == GDW_ERR_TRUNCATED,
                 gdw_status r = gdw_frame_read(&fo, NULL, 0, &pl, &fl, &err));
        NULLCASE(r == GDW_ERR_INVALID_ARG,
                 gdw_status r = gdw_frame_read(&fo, fb, 8, NULL, &fl, &err));
        NULLCASE(r == GDW_ERR_INVALID_ARG,
                 gdw_status r = gdw_frame_read(&fo, fb, 8, &pl, NULL, &err));
        NULLCASE(r == GDW_OK, gdw_status r = gdw_frame_read(&fo, fb, 8, &pl, &fl, NULL));
        NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_frame_prefix(NULL, 4, fb));
        NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_frame_prefix(&fo, 4, NULL));
        NULLCASE(r == NULL, gdw_frame_reader *r = gdw_frame_reader_new(NULL, NULL));
        NULLCASE(1, gdw_frame_reader_free(NULL));
        NULLCASE(r == 0, size_t r = gdw_frame_reader_pending(NULL));
        NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_frame_reader_feed(NULL, fb, 8));
        NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_frame_reader *fr = gdw_frame_reader_new(&fo, NULL);
                 gdw_status r = gdw_frame_reader_feed(fr, NULL, 8));
        NULLCASE(r == GDW_OK, gdw_frame_reader *fr = gdw_frame_reader_new(&fo, NULL);
                 gdw_status r = gdw_frame_reader_feed(fr, NULL, 0));
        NULLCASE(r == GDW_ERR_INVALID_ARG,
                 gdw_status r = gdw_frame_reader_next(NULL, &pp, &pl, &err));
        NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_frame_reader *fr = gdw_frame_reader_new(&fo, NULL);
                 gdw_status r = gdw_frame_reader_next(fr, NULL, &pl, &err));
        NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_frame_reader *fr = gdw_frame_reader_new(&fo, NULL);
                 gdw_status r = gdw_frame_reader_next(fr, &pp, NULL, &err));
        NULLCASE(r == GDW_OK && pl == 4, gdw_frame_reader *fr = gdw_frame_reader_new(&fo, NULL);
                 gdw_frame_reader_feed(fr, fb, 8);
                 gdw_status r = gdw_frame_reader_next(fr, &pp, &pl, NULL));
    }

    /* base64 */
    NULLCASE(r == 0 && text[0] == 0, size_t r = gdw_base64_encode(NULL, 3, text, sizeof text));
    NULLCASE(r == 0 && text[0] == 0, text[0] = 'x';
             size_t r = gdw_base64_encode(NULL, 0, text, sizeof text));
    NULLCASE(r == 4, size_t r = gdw_base64_encode(bytes, 3, NULL, 0));
    NULLCASE(r == 4, size_t r = gdw_base64_encode(bytes, 3, NULL, 64));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_base64_decode(NULL, 4, bytes, &sz, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_base64_decode("AAAA", 4, NULL, &sz, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_base64_decode("AAAA", 4, bytes, NULL, NULL));
    NULLCASE(r == GDW_OK, gdw_status r = gdw_base64_decode("AAAA", 4, bytes, &sz, NULL));

    /* hex */
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_hex_decode(NULL, 4, bytes, &sz, NULL));
    NULLCASE(r == GDW_OK && sz == 0, gdw_status r = gdw_hex_decode(NULL, 0, bytes, &sz, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_hex_decode("0a0b", 4, NULL, &sz, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG, gdw_status r = gdw_hex_decode("0a0b", 4, bytes, NULL, NULL));
    NULLCASE(r == GDW_OK && sz == 2, gdw_status r = gdw_hex_decode("0a0b", 4, bytes, &sz, NULL));

    /* pasted byte values */
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_dump_decode(NULL, 4, bytes, &sz, NULL, NULL));
    NULLCASE(r == GDW_OK && sz == 0,
             gdw_status r = gdw_dump_decode(NULL, 0, bytes, &sz, NULL, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_dump_decode("[1]", 3, NULL, &sz, NULL, NULL));
    NULLCASE(r == GDW_ERR_INVALID_ARG,
             gdw_status r = gdw_dump_decode("[1]", 3, bytes, NULL, NULL, NULL));
    NULLCASE(r == GDW_ERR_SYNTAX, gdw_status r = gdw_dump_decode("[x]", 3, bytes, &sz, NULL, NULL));

    /* a traced field's text: no event or no room writes nothing; no input still gives the numbers
     * */
    {
        gdw_trace_event ev = {0, 4, 0, GDW_STRING, "bytes", 4, "", NULL};
        char text[64];
        NULLCASE(r == 0,
                 size_t r = gdw_trace_field_text(NULL, (const uint8_t *)"abcd", text, sizeof text));
        NULLCASE(r == 0, size_t r = gdw_trace_field_text(&ev, (const uint8_t *)"abcd", NULL, 64));
        NULLCASE(r == 7 && strcmp(text, "4 bytes") == 0,
                 size_t r = gdw_trace_field_text(&ev, NULL, text, sizeof text));
        NULLCASE(r == 6 && strcmp(text, "\"abcd\"") == 0,
                 size_t r = gdw_trace_field_text(&ev, (const uint8_t *)"abcd", text, sizeof text));
    }

    gdw_builder_free(builder);
    gdw_doc_free(doc);
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* json_memory_test — the JSON reader's memory is bounded by its input (issue 14): every byte it
 * holds comes from the caller's allocator (a counting one here, which also refuses to go past the
 * bound), and the peak stays under JSON_BOUND_FACTOR x the JSON's length + 1 MiB on the shapes
 * that cost the most per byte: many tiny values, long escaped strings, pairs, deep nesting,
 * PackedByteArrays, and JSON that is not the form at all (read whole before the form is checked:
 * a node of 32 bytes for every value, at worst one per 2 bytes of JSON). 5.9 MB of JSON once peaked
 * at 106.6 MB (18x), partly from libc realloc beside the caller's allocator. Prints peak / input
 * per shape. */
#include "codec/tests/testing.h"

#define JSON_BOUND_FACTOR 20
/* arena chunks, stacks of open lists, the text parser's frames */
#define JSON_BOUND_CONSTANT (1u << 20)


typedef struct text {
    char *p;
    size_t n, cap;
} text;
static void put(text *t, const char *s) {
    size_t k = strlen(s);
    if (t->n + k + 1 > t->cap) {
        t->cap = (t->n + k + 1) * 2;
        t->p = realloc(t->p, t->cap);
        if (!t->p) exit(2);
    }
    memcpy(t->p + t->n, s, k + 1);
    t->n += k;
}

static double g_worst;

static void run_want(const char *what, text *t, gdw_status want) {
    t_counting c = {0, 0, (size_t)JSON_BOUND_FACTOR * t->n + JSON_BOUND_CONSTANT, 0};
    gdw_allocator a = t_counting_allocator(&c);
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_json_parse(t->p, t->n, &a, &doc, &err);
    double ratio = (double)c.peak / (double)t->n;
    printf("  %-40s %10zu bytes of JSON  peak %11zu  %.2f x\n", what, t->n, c.peak, ratio);
    CHECK(s == want, "%s: %s at %zu (%s), %ld allocations refused", what, gdw_status_name(s),
          err.offset, err.message, c.refused);
    CHECK(c.refused == 0, "%s: the reader asked for more than %d x its input", what,
          JSON_BOUND_FACTOR);
    gdw_doc_free(doc);
    CHECK(c.live == 0, "%s: %zu bytes still held after gdw_doc_free", what, c.live);
    if (ratio > g_worst) g_worst = ratio;
    free(t->p);
    memset(t, 0, sizeof *t);
}

static void run(const char *what, text *t) { run_want(what, t, GDW_OK); }

int main(void) {
    size_t n = 200000;
    char tmp[160];
    text t = {0};
    printf("JSON reader: peak heap per byte of input (bound %d x + 1 MiB):\n", JSON_BOUND_FACTOR);

    put(&t, "{\"type\":\"Array\",\"value\":[");
    for (size_t i = 0; i < n; i++) put(&t, i ? ",{\"type\":\"Nil\"}" : "{\"type\":\"Nil\"}");
    put(&t, "]}");
    run("Array of 200,000 nulls", &t);

    put(&t, "{\"type\":\"Array\",\"value\":[");
    for (size_t i = 0; i < n; i++) {
        snprintf(tmp, sizeof tmp, "%s{\"type\":\"int\",\"value\":%zu}", i ? "," : "", i % 10);
        put(&t, tmp);
    }
    put(&t, "]}");
    run("Array of 200,000 small ints", &t);

    put(&t, "{\"type\":\"Dictionary\",\"value\":[");
    for (size_t i = 0; i < n / 2; i++) {
        snprintf(tmp, sizeof tmp,
                 "%s[{\"type\":\"int\",\"value\":%zu},{\"type\":\"bool\",\"value\":true}]",
                 i ? "," : "", i);
        put(&t, tmp);
    }
    put(&t, "]}");
    run("Dictionary of 100,000 pairs", &t);

    put(&t, "{\"type\":\"Array\",\"value\":[");
    for (size_t i = 0; i < 2000; i++) {
        put(&t, i ? ",{\"type\":\"String\",\"value\":\"" : "{\"type\":\"String\",\"value\":\"");
        for (int k = 0; k < 100; k++) put(&t, "\\u00e9\\n\\\"x");
        put(&t, "\"}");
    }
    put(&t, "]}");
    run("2,000 strings of escapes", &t);

    put(&t, "{\"type\":\"PackedByteArray\",\"value\":[");
    for (size_t i = 0; i < n; i++) put(&t, i ? ",7" : "7");
    put(&t, "]}");
    run("PackedByteArray of 200,000 numbers", &t);

    for (int i = 0; i < 1024; i++) put(&t, "{\"type\":\"Array\",\"value\":[");
    put(&t, "{\"type\":\"int\",\"value\":1}");
    for (int i = 0; i < 1024; i++) put(&t, "]}");
    run("Arrays 1024 deep", &t);

    for (int i = 0; i < 1024; i++)
        put(&t, "{\"type\":\"Dictionary\",\"value\":[[{\"type\":\"int\",\"value\":1},");
    put(&t, "{\"type\":\"int\",\"value\":1}");
    for (int i = 0; i < 1024; i++) put(&t, "]]}");
    run("Dictionaries 1024 deep", &t);

    /* JSON, but not the JSON form: the whole tree is read before the form is checked */
    put(&t, "[");
    for (size_t i = 0; i < n; i++) put(&t, i ? ",[]" : "[]");
    put(&t, "]");
    run_want("200,000 empty JSON arrays (not the form)", &t, GDW_ERR_SYNTAX);
    put(&t, "[");
    for (size_t i = 0; i < n; i++) put(&t, i ? ",0" : "0");
    put(&t, "]");
    run_want("200,000 JSON numbers (not the form)", &t, GDW_ERR_SYNTAX);

    printf("the worst: %.2f x its input\n", g_worst);
    return t_finish();
}

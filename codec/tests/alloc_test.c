/* SPDX-License-Identifier: MIT */
/* alloc_test — fail the n-th allocation (malloc or a growing realloc) for n = 0, 1, 2, ... until
 * the call succeeds: each time the out-of-memory code, no document, and nothing left allocated;
 * the call that succeeds made exactly n allocations (so every one of them was failed once).
 * Covers gdw_decode in every dialect, gdw_text_parse, gdw_json_parse, gdw_encode_alloc,
 * gdw_convert, gdw_check and the builder (gdw_build_*). Under ASan/LSan (--config=asan) leaks are
 * also caught by the sanitizer. */
#include "codec/tests/testing.h"

typedef struct failing {
    long fail_at; /* the allocation number that fails; -1 = none */
    long calls;
    long outstanding; /* blocks not yet freed */
} failing;

static void *f_malloc(void *ctx, size_t n) {
    failing *f = ctx;
    if (f->calls++ == f->fail_at) return NULL;
    void *p = malloc(n);
    if (p) f->outstanding++;
    return p;
}
static void *f_realloc(void *ctx, void *p, size_t o, size_t n) {
    failing *f = ctx;
    (void)o;
    if (f->calls++ == f->fail_at) return NULL;
    void *q = realloc(p, n);
    if (q && !p) f->outstanding++;
    return q;
}
static void f_free(void *ctx, void *p, size_t n) {
    failing *f = ctx;
    (void)n;
    if (p) {
        f->outstanding--;
        free(p);
    }
}

static const char *k_texts[] = {
    "[1, \"two\", 3.5, [null], {\"k\": ^\"/root/x:p\"}]",
    "{\"pos\": Vector2(1, 2), \"name\": &\"player\", \"tags\": PackedStringArray(\"a\", \"b\")}",
    "Object(\"Node\", {\"a\": [1, 2, 3], \"b\": PackedByteArray(1, 2, 3)})",
    "Array[int]([1, 2, 3])",
    "Dictionary[String, Variant]({\"x\": PackedInt32Array(1, 2), \"y\": Signal(\"s\", 1)})",
    "TypedArray[\"Node\"]([ObjectID(5)])",
    "Image(4, 0, 1, 1, PackedByteArray(255, 0, 0, 255))",
    "[InputEvent(1, 0, 20, 33554432, 65), NodePath([\"a\"], [\"p\"], 2)]",
};

/* Heap used by a decode versus gdw_decode_heap_bound(len, NULL), on packets built to be expensive
 * per input byte: small elements, many short strings, typed descriptors, deep nesting. */
static void heap_bound(const char *what, const char *dialect, const char *element, size_t count) {
    const gdw_dialect *d = t_dialect(dialect);
    size_t cap = (strlen(element) + 2) * count + 64, o = 0;
    char *text = malloc(cap);
    o += (size_t)snprintf(text + o, cap - o, "[");
    for (size_t i = 0; i < count; i++)
        o += (size_t)snprintf(text + o, cap - o, "%s%s", i ? ", " : "", element);
    snprintf(text + o, cap - o, "]");
    gdw_doc *src = NULL, *doc = NULL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (gdw_text_parse(text, strlen(text), NULL, &src, NULL) ||
        gdw_encode_alloc(d, gdw_doc_root(src), NULL, NULL, &bytes, &len, NULL)) {
        CHECK(0, "heap bound setup %s", what);
        free(text);
        return;
    }
    gdw_decode_options opts = gdw_decode_options_default();
    opts.allow_objects = true;
    CHECK(gdw_decode(d, bytes, len, &opts, NULL, &doc, NULL, NULL) == GDW_OK,
          "heap bound decode %s", what);
    size_t heap = gdw_doc_heap_bytes(doc);
    printf("heap: %-28s %9zu bytes in, %9zu bytes heap, %.2f x (bound %.2f x)\n", what, len, heap,
           (double)heap / (double)len, (double)gdw_decode_heap_bound(len, NULL) / (double)len);
    CHECK(heap <= gdw_decode_heap_bound(len, NULL), "%s: heap %zu above the bound %zu", what, heap,
          gdw_decode_heap_bound(len, NULL));
    gdw_doc_free(doc);
    gdw_doc_free(src);
    free(bytes);
    free(text);
}


/* One call under the failing allocator, which frees what it made when it succeeds. */
typedef gdw_status (*run_fn)(const void *arg, const gdw_allocator *a);

static int sweep(const char *what, run_fn run, const void *arg) {
    for (long n = 0;; n++) {
        failing f = {n, 0, 0};
        gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
        gdw_status s = run(arg, &a);
        if (s == GDW_OK) {
            CHECK(f.outstanding == 0 && f.calls == n,
                  "%s: after success %ld blocks left, %ld allocations made, not %ld", what,
                  f.outstanding, f.calls, n);
            return (int)n;
        }
        CHECK(s == GDW_ERR_NOMEM && f.outstanding == 0, "%s, fail at %ld: %s, %ld blocks left",
              what, n, gdw_status_name(s), f.outstanding);
        if (n > 100000) {
            CHECK(0, "%s never succeeds", what);
            return (int)n;
        }
    }
}

static gdw_status run_json(const void *arg, const gdw_allocator *a) {
    gdw_doc *doc = NULL;
    gdw_status s = gdw_json_parse(arg, strlen(arg), a, &doc, NULL);
    CHECK(s ? doc == NULL : doc != NULL, "json_parse out_doc");
    gdw_doc_free(doc);
    return s;
}

static const gdw_value *g_convert_src;
static gdw_status run_convert(const void *arg, const gdw_allocator *a) {
    gdw_convert_options o = gdw_convert_options_default();
    o.lossy = true;
    gdw_doc *doc = NULL;
    gdw_status s = gdw_convert(g_convert_src, arg, &o, a, &doc, NULL);
    gdw_doc_free(doc);
    return s;
}

typedef struct packet {
    const uint8_t *p;
    size_t n;
} packet;
static gdw_status run_check(const void *arg, const gdw_allocator *a) {
    const packet *pk = arg;
    gdw_check_result r[64];
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    gdw_check(pk->p, pk->n, &o, a, true, r, 64);
    gdw_status s = GDW_OK;
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        if (r[i].status == GDW_ERR_NOMEM) s = GDW_ERR_NOMEM;
        gdw_doc_free(r[i].doc);
    }
    return s;
}

/* A reply built value by value, with a deep copy of a parsed tree in it. */
static gdw_status run_build(const void *arg, const gdw_allocator *a) {
    gdw_builder *b = gdw_builder_new(a);
    if (!b) return GDW_ERR_NOMEM;
    const double v2[] = {1, 2};
    const int64_t ints[] = {1, 2, 3};
    gdw_typedesc t_int = {GDW_DESC_BUILTIN, GDW_INT, 0, 0, {NULL, 0}};
    gdw_build_begin_dictionary(b);
    for (int i = 0; i < 40; i++) { /* enough items to grow the builder's stack */
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        gdw_build_cstring(b, key);
        gdw_build_begin(b, GDW_ARRAY, NULL, &t_int);
        gdw_build_int(b, i);
        gdw_build_end(b);
    }
    gdw_build_cstring(b, "pos");
    gdw_build_math(b, GDW_VECTOR2, v2, 2, 0);
    gdw_build_cstring(b, "ints");
    gdw_build_packed_ints(b, GDW_PACKED_INT32_ARRAY, ints, 3);
    gdw_build_cstring(b, "copy");
    gdw_build_value(b, arg);
    gdw_build_end(b);
    gdw_doc *doc = NULL;
    gdw_status s = gdw_build_finish(b, &doc, NULL);
    gdw_doc_free(doc);
    gdw_builder_free(b);
    return s;
}

static void no_trace(void *ctx, const gdw_trace_event *ev) {
    (void)ctx;
    (void)ev;
}

/* A decode's leaf runs (decode.c, leaf_run) copy strings without read_value: an allocation that
 * fails in one is reported as the general reader reports it (a trace turns the runs off), at every
 * n, with the same offsets and path, and never tried again (the decode that succeeds made exactly n
 * allocations). The packet's strings are the most of its requests, so that chunks run out at
 * strings too. Returns the failures seen. */
static int leaf_runs_without_memory(const char *dialect) {
    char text[200000];
    size_t o = 0;
    o += (size_t)snprintf(text + o, sizeof text - o, "[[");
    for (int i = 0; i < 2000; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%s\"k%05d_abcdefghij\"", i ? ", " : "",
                              i);
    o += (size_t)snprintf(text + o, sizeof text - o, "], {");
    for (int i = 0; i < 1000; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%s\"key%d\": \"value%d\"", i ? ", " : "",
                              i, i);
    snprintf(text + o, sizeof text - o, "}]");
    gdw_doc *src = NULL;
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (gdw_text_parse(text, strlen(text), NULL, &src, NULL) ||
        gdw_encode_alloc(t_dialect(dialect), gdw_doc_root(src), NULL, NULL, &bytes, &len, NULL)) {
        CHECK(0, "leaf runs setup %s", dialect);
        gdw_doc_free(src);
        return 0;
    }
    int failures = 0;
    for (long n = 0;; n++) {
        gdw_status s[2];
        gdw_error e[2];
        long calls[2];
        for (int general = 0; general < 2; general++) {
            failing f = {n, 0, 0};
            gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
            gdw_decode_options opts = gdw_decode_options_default();
            if (general) opts.trace = no_trace;
            gdw_doc *doc = NULL;
            s[general] = gdw_decode(t_dialect(dialect), bytes, len, &opts, &a, &doc, NULL,
                                    &e[general]);
            calls[general] = f.calls;
            gdw_doc_free(doc);
            CHECK(f.outstanding == 0, "%s, fail at %ld: %ld blocks left", dialect, n,
                  f.outstanding);
        }
        CHECK(s[0] == s[1], "%s, fail at %ld: %s, without the runs %s", dialect, n,
              gdw_status_name(s[0]), gdw_status_name(s[1]));
        if (s[0] == GDW_OK) {
            CHECK(calls[0] == n && calls[1] == n,
                  "%s: the decodes that succeeded made %ld and %ld allocations, not %ld", dialect,
                  calls[0], calls[1], n);
            break;
        }
        failures++;
        CHECK(s[0] == GDW_ERR_NOMEM && e[0].offset == e[1].offset &&
                  e[0].value_offset == e[1].value_offset && strcmp(e[0].path, e[1].path) == 0,
              "%s, fail at %ld: at %zu (value %zu) in '%s', without the runs at %zu (value %zu) in "
              "'%s'",
              dialect, n, e[0].offset, e[0].value_offset, e[0].path, e[1].offset, e[1].value_offset,
              e[1].path);
        if (n > 10000) {
            CHECK(0, "never succeeds");
            break;
        }
    }
    gdw_doc_free(src);
    free(bytes);
    return failures;
}

int main(void) {
    heap_bound("200k nulls", "godot3", "null", 200000);
    heap_bound("100k one-byte strings", "godot3", "\"a\"", 100000);
    heap_bound("50k empty typed arrays", "godot4", "Array[int]([])", 50000);
    heap_bound("50k empty typed dicts", "godot4", "Dictionary[int, int]({})", 50000);
    heap_bound("20k small dictionaries", "godot3",
               "{\"id\": 1, \"n\": \"x\", \"p\": Vector2(1, 2), \"ok\": true}", 20000);
    heap_bound("50k P4 typed arrays", "pandemonium-5", "TypedArray[int]([])", 50000);
    heap_bound("20k NodePaths", "godot3", "^\"a/b:c\"", 20000);
    heap_bound("one small PackedVector3Array", "godot3", "PackedVector3Array(1, 2, 3)", 1);
    int sweeps = 0, other_sweeps = 0, failures_injected = 0;
    for (size_t k = 0; k < sizeof k_texts / sizeof k_texts[0]; k++) {
        const char *text = k_texts[k];
        /* text parse sweep */
        for (long n = 0;; n++) {
            failing f = {n, 0, 0};
            gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
            gdw_doc *doc = NULL;
            gdw_status s = gdw_text_parse(text, strlen(text), &a, &doc, NULL);
            if (s == GDW_OK) {
                gdw_doc_free(doc);
                CHECK(f.outstanding == 0 && f.calls == n,
                      "parse leaks after success, or made %ld allocations, not %ld", f.calls, n);
                break;
            }
            failures_injected++;
            CHECK(s == GDW_ERR_NOMEM && doc == NULL && f.outstanding == 0,
                  "parse %s, fail at %ld: %s, %ld blocks left", text, n, gdw_status_name(s),
                  f.outstanding);
            if (n > 10000) {
                CHECK(0, "never succeeds");
                break;
            }
        }
        gdw_doc *src = NULL;
        if (gdw_text_parse(text, strlen(text), NULL, &src, NULL)) {
            CHECK(0, "parse %s", text);
            continue;
        }
        char *json = gdw_json_print_alloc(gdw_doc_root(src), NULL, NULL);
        other_sweeps += sweep("json_parse", run_json, json) > 0;
        free(json); /* the default allocator's text: free() does too */
        /* the printers' memory comes from the caller's allocator, once, and goes back with
         * gdw_text_free */
        for (int json_form = 0; json_form < 2; json_form++) {
            for (long n = 0; n < 2; n++) {
                failing f = {n, 0, 0};
                gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
                size_t len = 99;
                char *t = json_form ? gdw_json_print_alloc(gdw_doc_root(src), &a, &len)
                                    : gdw_text_print_alloc(gdw_doc_root(src), &a, &len);
                if (n == 0) {
                    CHECK(!t && len == 0 && f.calls == 1,
                          "print_alloc with a failing allocator: %p, len %zu", (void *)t, len);
                    continue;
                }
                size_t want = json_form ? gdw_json_print(gdw_doc_root(src), NULL, 0)
                                        : gdw_text_print(gdw_doc_root(src), NULL, 0);
                CHECK(t && len == want && strlen(t) == len && f.calls == 1 && f.outstanding == 1,
                      "print_alloc from the caller's allocator: len %zu of %zu, %ld calls", len,
                      want, f.calls);
                gdw_text_free(&a, t);
                CHECK(f.outstanding == 0, "gdw_text_free gives the text back to its allocator");
            }
        }
        g_convert_src = gdw_doc_root(src);
        other_sweeps += sweep("convert to godot2", run_convert, t_dialect("godot2")) > 0;
        other_sweeps += sweep("convert to godot4", run_convert, t_dialect("godot4")) > 0;
        other_sweeps += sweep("build", run_build, gdw_doc_root(src)) > 0;
        for (size_t i = 0; i < gdw_dialect_count(); i++) {
            const gdw_dialect *d = gdw_dialect_at(i);
            uint8_t *bytes = NULL;
            size_t len = 0;
            if (gdw_encode_alloc(d, gdw_doc_root(src), NULL, NULL, &bytes, &len, NULL) != GDW_OK)
                continue;
            sweeps++;
            if (i % 4 == 0) { /* gdw_check decodes in every dialect: a few packets are enough */
                packet pk = {bytes, len};
                other_sweeps += sweep("check", run_check, &pk) > 0;
            }
            gdw_decode_options o = gdw_decode_options_default();
            o.allow_objects = true;
            for (long n = 0;; n++) {
                failing f = {n, 0, 0};
                gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
                gdw_doc *doc = (gdw_doc *)1;
                gdw_status s = gdw_decode(d, bytes, len, &o, &a, &doc, NULL, NULL);
                if (s == GDW_OK) {
                    CHECK(f.calls == n,
                          "%s: the decode that succeeded made %ld allocations, not %ld", d->name,
                          f.calls, n);
                    gdw_doc_free(doc);
                    CHECK(f.outstanding == 0, "%s: decode leaks after success", d->name);
                    break;
                }
                failures_injected++;
                CHECK(s == GDW_ERR_NOMEM && doc == NULL && f.outstanding == 0,
                      "%s decode %s, fail at %ld: %s, %ld blocks left", d->name, text, n,
                      gdw_status_name(s), f.outstanding);
                if (n > 10000) {
                    CHECK(0, "never succeeds");
                    break;
                }
            }
            for (long n = 0; n < 2; n++) {
                failing f = {n, 0, 0};
                gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
                uint8_t *out = (uint8_t *)1;
                size_t ol = 0;
                gdw_status s = gdw_encode_alloc(d, gdw_doc_root(src), NULL, &a, &out, &ol, NULL);
                if (s == GDW_OK) {
                    f_free(&f, out, ol);
                    CHECK(n == 1 && f.outstanding == 0, "encode_alloc");
                    break;
                }
                failures_injected++;
                CHECK(s == GDW_ERR_NOMEM && out == NULL && f.outstanding == 0,
                      "encode_alloc fail at %ld", n);
            }
            free(bytes);
        }
        gdw_doc_free(src);
    }
    int run_failures = leaf_runs_without_memory("godot3") + leaf_runs_without_memory("godot4");
    printf("%d decode sweeps, %d other sweeps, %d allocation failures injected in decode, %d more "
           "beside leaf runs\n",
           sweeps, other_sweeps, failures_injected, run_failures);
    CHECK(run_failures >= 10, "too few failures beside leaf runs");
    CHECK(sweeps > 40, "too few sweeps");
    CHECK(other_sweeps >= 4 * (int)(sizeof k_texts / sizeof k_texts[0]),
          "too few sweeps of json_parse, convert, build, check");
    return t_finish();
}

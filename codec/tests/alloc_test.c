/* alloc_test — fail the n-th allocation for n = 0, 1, 2, ... until the call succeeds:
 * each time the out-of-memory code, no document, and nothing left allocated. Covers
 * gdw_decode in every dialect, gdw_text_parse and gdw_encode_alloc. Under ASan/LSan
 * (--config=asan) leaks are also caught by the sanitizer. */
#include "codec/tests/testing.h"

typedef struct failing {
    long fail_at;     /* the allocation number that fails; -1 = none */
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
static void *f_realloc(void *ctx, void *p, size_t o, size_t n) { (void)ctx; (void)p; (void)o; (void)n; return NULL; }
static void f_free(void *ctx, void *p, size_t n) {
    failing *f = ctx;
    (void)n;
    if (p) { f->outstanding--; free(p); }
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

int main(void) {
    int sweeps = 0, failures_injected = 0;
    for (size_t k = 0; k < sizeof k_texts / sizeof k_texts[0]; k++) {
        const char *text = k_texts[k];
        /* text parse sweep */
        for (long n = 0;; n++) {
            failing f = {n, 0, 0};
            gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
            gdw_doc *doc = NULL;
            gdw_status s = gdw_text_parse(text, strlen(text), &a, &doc, NULL);
            if (s == GDW_OK) { gdw_doc_free(doc); CHECK(f.outstanding == 0, "parse leaks after success"); break; }
            failures_injected++;
            CHECK(s == GDW_ERR_NOMEM && doc == NULL && f.outstanding == 0, "parse %s, fail at %ld: %s, %ld blocks left", text, n,
                  gdw_status_name(s), f.outstanding);
            if (n > 10000) break;
        }
        gdw_doc *src = NULL;
        if (gdw_text_parse(text, strlen(text), NULL, &src, NULL)) { CHECK(0, "parse %s", text); continue; }
        for (size_t i = 0; i < gdw_dialect_count(); i++) {
            const gdw_dialect *d = gdw_dialect_at(i);
            uint8_t *bytes = NULL;
            size_t len = 0;
            if (gdw_encode_alloc(d, gdw_doc_root(src), NULL, NULL, &bytes, &len, NULL) != GDW_OK) continue;
            sweeps++;
            gdw_decode_options o = gdw_decode_options_default();
            o.allow_objects = true;
            for (long n = 0;; n++) {
                failing f = {n, 0, 0};
                gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
                gdw_doc *doc = (gdw_doc *)1;
                gdw_status s = gdw_decode(d, bytes, len, &o, &a, &doc, NULL, NULL);
                if (s == GDW_OK) {
                    CHECK(f.calls == n || n == 0 || f.calls <= n, "decode made fewer calls than the sweep");
                    gdw_doc_free(doc);
                    CHECK(f.outstanding == 0, "%s: decode leaks after success", d->name);
                    break;
                }
                failures_injected++;
                CHECK(s == GDW_ERR_NOMEM && doc == NULL && f.outstanding == 0, "%s decode %s, fail at %ld: %s, %ld blocks left", d->name, text, n,
                      gdw_status_name(s), f.outstanding);
                if (n > 10000) break;
            }
            for (long n = 0; n < 2; n++) {
                failing f = {n, 0, 0};
                gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
                uint8_t *out = (uint8_t *)1;
                size_t ol = 0;
                gdw_status s = gdw_encode_alloc(d, gdw_doc_root(src), NULL, &a, &out, &ol, NULL);
                if (s == GDW_OK) { f_free(&f, out, ol); CHECK(n == 1 && f.outstanding == 0, "encode_alloc"); break; }
                failures_injected++;
                CHECK(s == GDW_ERR_NOMEM && out == NULL && f.outstanding == 0, "encode_alloc fail at %ld", n);
            }
            free(bytes);
        }
        gdw_doc_free(src);
    }
    printf("%d decode sweeps, %d allocation failures injected\n", sweeps, failures_injected);
    CHECK(sweeps > 40, "too few sweeps");
    return t_finish();
}

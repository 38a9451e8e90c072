/* SPDX-License-Identifier: MIT */
/* outcome.c — run one byte string through the codec and describe the result. */
#include "conformance/outcome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growing strings --------------------------------------------------------------- */

void cf_buf_put(cf_buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) { fputs("out of memory\n", stderr); exit(2); }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void cf_buf_puts(cf_buf *b, const char *s) { cf_buf_put(b, s, strlen(s)); }

void cf_buf_printf(cf_buf *b, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) { cf_buf_put(b, small, (size_t)n); return; }
    char *big = malloc((size_t)n + 1);
    if (!big) { fputs("out of memory\n", stderr); exit(2); }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    cf_buf_put(b, big, (size_t)n);
    free(big);
}

void cf_buf_hex(cf_buf *b, const uint8_t *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        char two[3] = {digits[p[i] >> 4], digits[p[i] & 15], ' '};
        cf_buf_put(b, two, (i % 4 == 3 && i + 1 < n) ? 3 : 2);
    }
}

/* YAML allows only printable characters in a document: C0/C1 controls, DEL, surrogates and
 * U+FFFE/U+FFFF are written as escapes (which YAML reads back as the same code points). */
void cf_buf_yaml_string(cf_buf *b, const char *s) {
    cf_buf_put(b, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') { char e[2] = {'\\', (char)c}; cf_buf_put(b, e, 2); p++; continue; }
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f) cf_buf_printf(b, "\\x%02x", c);
            else cf_buf_put(b, (const char *)p, 1);
            p++;
            continue;
        }
        size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        unsigned cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
        for (size_t i = 1; i < n; i++) {
            if ((p[i] & 0xc0) != 0x80) { fputs("cf_buf_yaml_string: not UTF-8\n", stderr); exit(2); }
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff) cf_buf_printf(b, "\\u%04x", cp);
        else cf_buf_put(b, (const char *)p, n);
        p += n;
    }
    cf_buf_put(b, "\"", 1);
}

void cf_buf_free(cf_buf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

bool cf_unhex(const char *hex, uint8_t **out, size_t *len, size_t *bad) {
    size_t len_text = strlen(hex), n = 0;
    uint8_t *p = malloc(len_text / 2 + 1);
    if (!p) { fputs("out of memory\n", stderr); exit(2); }
    if (gdw_hex_decode(hex, len_text, p, &n, bad)) { free(p); return false; }
    *out = p;
    *len = n;
    return true;
}

/* ---- running the codec ------------------------------------------------------------- */

/* An allocator that fails once more than `limit` bytes are live: vectors use it to state
 * what a decode does when memory runs out. */
typedef struct limited_heap {
    size_t live, limit;
} limited_heap;

static void *limited_malloc(void *ctx, size_t n) {
    limited_heap *h = ctx;
    if (n > h->limit - h->live) return NULL;
    void *p = malloc(n);
    if (p) h->live += n;
    return p;
}

static void *limited_realloc(void *ctx, void *ptr, size_t old, size_t n) {
    limited_heap *h = ctx;
    if (n > old && n - old > h->limit - h->live) return NULL;
    void *p = realloc(ptr, n);
    if (p) h->live = h->live - old + n;
    return p;
}

static void limited_free(void *ctx, void *ptr, size_t n) {
    limited_heap *h = ctx;
    if (ptr) h->live -= n;
    free(ptr);
}

void cf_run(const gdw_dialect *d, gdw_mode m, const uint8_t *buf, size_t len, const cf_options *o, cf_outcome *out) {
    memset(out, 0, sizeof *out);
    gdw_decode_options opt = gdw_decode_options_default();
    opt.mode = m;
    opt.allow_objects = o->objects;
    opt.max_depth = o->max_depth;
    opt.max_size = o->max_size;
    opt.watch_engine = true; /* the runner holds gdw_doc_engine_same's claims to engine-exact mode */
    limited_heap heap = {0, o->heap_limit};
    gdw_allocator limited = {limited_malloc, limited_realloc, limited_free, &heap};
    gdw_error err;
    gdw_status s = gdw_decode(d, buf, len, &opt, o->heap_limit ? &limited : NULL, &out->doc, &out->consumed, &err);
    out->status = s;
    if (s != GDW_OK) {
        out->offset = err.offset;
        out->engine = err.engine_error;
        snprintf(out->path, sizeof out->path, "%s", err.path);
        out->consumed = 0;
    } else {
        out->encode_status = gdw_encode_alloc(d, gdw_doc_root(out->doc), NULL, NULL, &out->encode, &out->encode_len, &err);
    }
    /* validate runs the same walker without building; it must say the same */
    size_t vused = 0;
    gdw_error verr;
    gdw_status vs = gdw_validate(d, buf, len, &opt, &vused, &verr);
    if (s == GDW_ERR_NOMEM) out->validate_agrees = true; /* validate allocates nothing */
    else out->validate_agrees = vs == s && (s == GDW_OK ? vused == out->consumed : verr.offset == err.offset);
    if (out->doc && heap.limit) {
        /* the document's allocator lives on this stack frame: move the value to a document
         * on the C library's heap (printing then parsing is exact, docs/text-format.md) */
        gdw_doc *copy = NULL;
        char *text = gdw_text_print_alloc(gdw_doc_root(out->doc), NULL, NULL);
        gdw_doc_free(out->doc);
        out->doc = NULL;
        if (!text || gdw_text_parse(text, strlen(text), NULL, &copy, &err) != GDW_OK) {
            fputs("cannot re-read a printed value\n", stderr);
            exit(2);
        }
        free(text);
        out->doc = copy;
    }
}

void cf_outcome_free(cf_outcome *o) {
    if (!o->borrowed) {
        gdw_doc_free(o->doc);
        free(o->encode);
    }
    memset(o, 0, sizeof *o);
}

bool cf_outcome_equal(const cf_outcome *a, const cf_outcome *b) {
    if (a->status != b->status) return false;
    if (a->status != GDW_OK)
        return a->offset == b->offset && a->engine == b->engine && strcmp(a->path, b->path) == 0;
    if (a->consumed != b->consumed || !gdw_value_equal(gdw_doc_root(a->doc), gdw_doc_root(b->doc))) return false;
    if (a->encode_status != b->encode_status) return false;
    if (a->encode_status != GDW_OK) return true;
    return a->encode_len == b->encode_len && memcmp(a->encode, b->encode, a->encode_len) == 0;
}

void cf_outcome_format(cf_buf *b, const cf_outcome *o, const uint8_t *in, size_t len) {
    if (o->status != GDW_OK) {
        cf_buf_printf(b, "{error: %s, offset: %zu", gdw_status_name(o->status), o->offset);
        if (o->engine != GDW_ENGINE_NONE) cf_buf_printf(b, ", engine: %s", gdw_engine_error_name(o->engine));
        if (o->path[0]) { cf_buf_puts(b, ", path: "); cf_buf_yaml_string(b, o->path); }
        cf_buf_puts(b, "}");
        return;
    }
    char *text = gdw_text_print_alloc(gdw_doc_root(o->doc), NULL, NULL);
    if (!text) { fputs("out of memory\n", stderr); exit(2); }
    cf_buf_puts(b, "{value: ");
    cf_buf_yaml_string(b, text);
    free(text);
    if (o->consumed != len) cf_buf_printf(b, ", consumed: %zu", o->consumed);
    if (o->encode_status != GDW_OK) cf_buf_printf(b, ", encode_error: %s", gdw_status_name(o->encode_status));
    else if (o->encode_len != o->consumed || memcmp(o->encode, in, o->consumed) != 0) {
        cf_buf_puts(b, ", encode: \"");
        cf_buf_hex(b, o->encode, o->encode_len);
        cf_buf_puts(b, "\"");
    }
    cf_buf_puts(b, "}");
}

bool cf_split_fields(char *line, char **f, int n) {
    line[strcspn(line, "\r\n")] = 0;
    for (int i = 0; i < n; i++) {
        f[i] = line;
        char *t = strchr(line, '\t');
        if (i + 1 == n) return t == NULL;
        if (!t) return false;
        *t = 0;
        line = t + 1;
    }
    return true;
}

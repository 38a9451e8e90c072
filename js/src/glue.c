/* SPDX-License-Identifier: MIT */
/* glue.c — what the JavaScript layer (js/src/index.js) needs from the C library beyond its public calls,
 * compiled with it to WebAssembly (js/build.sh): the byte layout of the value structs the layer reads
 * straight from the WebAssembly memory (gdw_value and the records it points to, from codec/gdwire.h), so
 * the layer takes offsets from the compiler instead of hard-coding them, and one-call decode / check
 * entry points that return their results in a small record. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "codec/gdwire.h"

#define EXPORT __attribute__((used, visibility("default")))

/* The layout, as pairs the layer checks by name (index.js LAYOUT). */
EXPORT void gdwjs_layout(uint32_t *out) {
    uint32_t k[] = {
        sizeof(gdw_value), offsetof(gdw_value, type), offsetof(gdw_value, width), offsetof(gdw_value, flags),
        offsetof(gdw_value, len), offsetof(gdw_value, u),
        sizeof(gdw_str), offsetof(gdw_str, ptr), offsetof(gdw_str, len),
        sizeof(gdw_typedesc), offsetof(gdw_typedesc, kind), offsetof(gdw_typedesc, builtin), offsetof(gdw_typedesc, id_only),
        offsetof(gdw_typedesc, wire_id), offsetof(gdw_typedesc, name),
        offsetof(gdw_container, key), offsetof(gdw_container, elem), offsetof(gdw_container, items),
        offsetof(gdw_nodepath, name_count), offsetof(gdw_nodepath, subname_count), offsetof(gdw_nodepath, flags),
        offsetof(gdw_nodepath, parts),
        offsetof(gdw_object, class_name), offsetof(gdw_object, props),
        offsetof(gdw_signal, name), offsetof(gdw_signal, object_id),
        offsetof(gdw_image, format), offsetof(gdw_image, mipmaps), offsetof(gdw_image, width), offsetof(gdw_image, height),
        offsetof(gdw_image, data),
        offsetof(gdw_input_event, type), offsetof(gdw_input_event, device), offsetof(gdw_input_event, llen),
        offsetof(gdw_input_event, extra_count), offsetof(gdw_input_event, extra),
        offsetof(gdw_error, code), offsetof(gdw_error, offset), offsetof(gdw_error, value_offset),
        offsetof(gdw_error, engine_error), offsetof(gdw_error, message), offsetof(gdw_error, path), sizeof(gdw_error),
        GDW_TYPE_COUNT,
    };
    memcpy(out, k, sizeof k);
}

/* One decode: the document (free with gdw_doc_free), or NULL and the error in *err; *consumed the bytes
 * the value used. mode: gdw_mode; the input is borrowed (it must outlive the document). */
EXPORT gdw_doc *gdwjs_decode(const gdw_dialect *d, const uint8_t *buf, size_t len, int mode, int allow_objects, unsigned max_depth,
                             size_t *consumed, gdw_error *err) {
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = (gdw_mode)mode;
    o.allow_objects = allow_objects != 0;
    o.max_depth = max_depth;
    o.borrow_input = true;
    gdw_doc *doc = NULL;
    if (gdw_decode(d, buf, len, &o, NULL, &doc, consumed, err) != GDW_OK) return NULL;
    return doc;
}

/* One encode of the value a builder holds (gdw_build_*: the layer builds it call by call): the bytes (free
 * with free) and their length in *out_len, or NULL and the error in *err. The builder is empty after. */
EXPORT uint8_t *gdwjs_build_encode(gdw_builder *b, const gdw_dialect *d, int lossy, size_t *out_len, gdw_error *err) {
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy != 0;
    eo.keep_float_width = true;
    uint8_t *out = NULL;
    if (gdw_build_encode(b, d, &eo, NULL, &out, out_len, err) != GDW_OK) return NULL;
    return out;
}

/* A value given as the JSON form, added to the builder as one value (a type the layer does not build call
 * by call): GDW_OK, or the parse's error in *err. */
EXPORT int gdwjs_build_json(gdw_builder *b, const char *json, size_t len, gdw_error *err) {
    gdw_doc *doc = NULL;
    gdw_status s = gdw_json_parse(json, len, NULL, &doc, err);
    if (s == GDW_OK) gdw_build_value(b, gdw_doc_root(doc)); /* a failure is the builder's, reported when it encodes */
    gdw_doc_free(doc);
    return (int)s;
}

/* check: the library's whole answer (gdw_check_report_make: its ranking, reasons and sentence, as `gdwire check` prints
 * them). Every dialect's verdict into rows of 10 words (index.js CHECK_ROW): dialect row pointer, status, consumed,
 * strict (reencodes_same), engine_exact, rank, misread-looking reals, reading (gdw_reading), first, short_by; the error
 * records into errs, each row's reason into reasons (CHECK_REASON bytes a row, NUL-terminated), the summary and
 * the framing text and the script call into text (CHECK_TEXT bytes: the summary, then from CHECK_SUMMARY the framing, from CHECK_SCRIPT the script call), the named first
 * choice's index into *best and the bytes in front of the value the rows read into *skip. Returns the rows, 0 when
 * out of memory or cap is too small. */
#define CHECK_REASON 256
#define CHECK_SUMMARY 640
#define CHECK_SCRIPT (CHECK_SUMMARY + 80)
#define CHECK_TEXT (CHECK_SCRIPT + 384)
EXPORT size_t gdwjs_check(const uint8_t *buf, size_t len, int allow_objects, uint32_t *rows, gdw_error *errs, char *reasons, char *text, size_t cap,
                          uint32_t *best, uint32_t *skip) {
    size_t n = gdw_dialect_count();
    if (n > cap) return 0;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = allow_objects != 0;
    gdw_check_report *rep = gdw_check_report_make(buf, len, &o, NULL);
    if (!rep) return 0;
    *best = (uint32_t)rep->best;
    *skip = (uint32_t)rep->skip;
    for (size_t i = 0; i < n; i++) {
        const gdw_check_row *row = &rep->rows[i];
        const gdw_check_result *r = &row->result;
        uint32_t *w = rows + 10 * i;
        w[0] = (uint32_t)(uintptr_t)r->dialect;
        w[1] = (uint32_t)r->status;
        w[2] = (uint32_t)r->consumed;
        w[3] = r->status == GDW_OK && r->reencodes_same;
        w[4] = r->status == GDW_OK && r->engine_exact;
        w[5] = (uint32_t)row->rank;
        w[6] = r->status == GDW_OK ? (uint32_t)row->misread : 0;
        w[7] = (uint32_t)row->reading;
        w[8] = row->first;
        w[9] = r->status == GDW_OK ? 0 : (uint32_t)r->err.short_by;
        errs[i] = r->err;
        snprintf(reasons + CHECK_REASON * i, CHECK_REASON, "%s", row->reason);
    }
    snprintf(text, CHECK_SUMMARY, "%s", rep->summary);
    gdw_check_framing_text(buf, len, rep->skip, text + CHECK_SUMMARY, CHECK_SCRIPT - CHECK_SUMMARY);
    snprintf(text + CHECK_SCRIPT, CHECK_TEXT - CHECK_SCRIPT, "%s", rep->script);
    gdw_check_report_free(rep);
    return n;
}

/* ---- explain, the text forms and pasted input (the page, web/, and index.js explain / toText) -------------- */

/* explain's fields, as rows of EXPLAIN_ROW words (index.js EXPLAIN_ROW): offset, size, depth, type, the field's
 * name (a C string of the library's), and the offsets in the text pool of what its bytes say
 * (gdw_trace_field_text) and of its path; at most max_rows rows, the rest counted in omitted. */
enum { EXPLAIN_ROW = 7 };
typedef struct gdwjs_explain_run {
    const uint8_t *buf;
    uint32_t *rows;
    size_t n, cap, max_rows, omitted;
    char *pool;
    size_t pool_len, pool_cap;
    int nomem;
} gdwjs_explain_run;

static size_t pool_add(gdwjs_explain_run *x, const char *s, size_t len) {
    if (x->pool_len + len + 1 > x->pool_cap) {
        size_t cap = x->pool_cap ? x->pool_cap * 2 : 4096;
        while (cap < x->pool_len + len + 1) cap *= 2;
        char *p = (char *)realloc(x->pool, cap);
        if (!p) { x->nomem = 1; return 0; }
        x->pool = p;
        x->pool_cap = cap;
    }
    size_t at = x->pool_len;
    memcpy(x->pool + at, s, len);
    x->pool[at + len] = 0;
    x->pool_len += len + 1;
    return at;
}

static void explain_field(void *ctx, const gdw_trace_event *ev) {
    gdwjs_explain_run *x = (gdwjs_explain_run *)ctx;
    if (x->nomem) return;
    if (x->n >= x->max_rows) { x->omitted++; return; }
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 256;
        uint32_t *r = (uint32_t *)realloc(x->rows, cap * EXPLAIN_ROW * sizeof *r);
        if (!r) { x->nomem = 1; return; }
        x->rows = r;
        x->cap = cap;
    }
    char text[640];
    size_t len = gdw_trace_field_text(ev, x->buf, text, sizeof text);
    const char *path = ev->path ? ev->path : "";
    uint32_t *r = x->rows + EXPLAIN_ROW * x->n;
    r[0] = (uint32_t)ev->offset;
    r[1] = (uint32_t)ev->size;
    r[2] = ev->depth;
    r[3] = (uint32_t)ev->type;
    r[4] = (uint32_t)(uintptr_t)ev->field;
    r[5] = (uint32_t)pool_add(x, text, len);
    r[6] = (uint32_t)pool_add(x, path, strlen(path));
    x->n++;
}

/* One traced validation of buf (what `gdwire explain` prints): its status (the error in *err), and in out[0..5)
 * the rows, their count, the pool, the rows omitted and the bytes consumed. Free out[0] and out[2]. */
EXPORT int gdwjs_explain(const gdw_dialect *d, const uint8_t *buf, size_t len, int mode, int allow_objects, unsigned max_depth,
                         size_t max_rows, uint32_t *out, gdw_error *err) {
    gdwjs_explain_run x;
    memset(&x, 0, sizeof x);
    x.buf = buf;
    x.max_rows = max_rows;
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = (gdw_mode)mode;
    o.allow_objects = allow_objects != 0;
    o.max_depth = max_depth;
    o.trace = explain_field;
    o.trace_ctx = &x;
    size_t used = 0;
    gdw_status s = gdw_validate(d, buf, len, &o, &used, err);
    if (x.nomem) {
        free(x.rows);
        free(x.pool);
        memset(out, 0, 5 * sizeof *out);
        if (err) { memset(err, 0, sizeof *err); err->code = GDW_ERR_NOMEM; err->message = gdw_strerror(GDW_ERR_NOMEM); }
        return GDW_ERR_NOMEM;
    }
    out[0] = (uint32_t)(uintptr_t)x.rows;
    out[1] = (uint32_t)x.n;
    out[2] = (uint32_t)(uintptr_t)x.pool;
    out[3] = (uint32_t)x.omitted;
    out[4] = (uint32_t)used;
    return (int)s;
}

/* A decoded document's canonical text (which 0) or JSON form (which 1), NUL-terminated (free with free), its
 * length in *len; NULL when the memory runs out. */
EXPORT char *gdwjs_doc_text(const gdw_doc *doc, int which, size_t *len) {
    const gdw_value *v = gdw_doc_root(doc);
    return which ? gdw_json_print_alloc(v, NULL, len) : gdw_text_print_alloc(v, NULL, len);
}

/* A value given in the canonical text form (which 0) or the JSON form (which 1), encoded in d: the bytes (free
 * with free) and their length in *out_len, or NULL and the error in *err (a syntax error's offset is the text's). */
typedef struct gdwjs_narrowings { gdw_error *to; size_t cap, n; } gdwjs_narrowings;
static void note_narrowing(void *ctx, const gdw_error *e) {
    gdwjs_narrowings *w = (gdwjs_narrowings *)ctx;
    if (w->n < w->cap) w->to[w->n] = *e;
    w->n++;
}
/* With lossy, each place narrowed is a record in warnings[0..cap) (more are counted in *n_warnings). */
EXPORT uint8_t *gdwjs_text_encode(const gdw_dialect *d, const char *text, size_t len, int which, int lossy, size_t *out_len,
                                  gdw_error *err, gdw_error *warnings, size_t cap, size_t *n_warnings) {
    gdwjs_narrowings w = {warnings, cap, 0};
    *n_warnings = 0;
    gdw_doc *doc = NULL;
    gdw_status s = which ? gdw_json_parse(text, len, NULL, &doc, err) : gdw_text_parse(text, len, NULL, &doc, err);
    if (s != GDW_OK) return NULL;
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy != 0;
    eo.lossy_report = note_narrowing;
    eo.lossy_ctx = &w;
    uint8_t *out = NULL;
    s = gdw_encode_alloc(d, gdw_doc_root(doc), &eo, NULL, &out, out_len, err);
    gdw_doc_free(doc);
    *n_warnings = w.n;
    return s == GDW_OK ? out : NULL;
}

/* Pasted text to bytes, in place: hex (which 0), base64 (1) or byte values as people paste them (2). GDW_OK and
 * the length in *out_len, or the status, the offset in *bad_at and (for a dump) the reason in *why. */
EXPORT int gdwjs_untext(char *text, size_t len, int which, size_t *out_len, size_t *bad_at, const char **why) {
    *why = NULL;
    if (which == 0) return (int)gdw_hex_decode(text, len, (uint8_t *)text, out_len, bad_at);
    if (which == 2) return (int)gdw_dump_decode(text, len, (uint8_t *)text, out_len, bad_at, why);
    /* base64 grows nothing: n / 4 * 3 + 3 bytes may pass the text's end by up to 3, so decode to a copy */
    uint8_t *tmp = (uint8_t *)malloc(len / 4 * 3 + 3);
    if (!tmp) return GDW_ERR_NOMEM;
    gdw_status s = gdw_base64_decode(text, len, tmp, out_len, bad_at);
    if (s == GDW_OK) memcpy(text, tmp, *out_len);
    free(tmp);
    return (int)s;
}

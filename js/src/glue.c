/* SPDX-License-Identifier: MIT */
/* glue.c — what the JavaScript layer (js/src/index.js) needs from the C library beyond its public calls,
 * compiled with it to WebAssembly (js/build.sh): the byte layout of the value structs the layer reads
 * straight from the WebAssembly memory (gdw_value and the records it points to, from codec/gdwire.h), so
 * the layer takes offsets from the compiler instead of hard-coding them, and one-call decode / check
 * entry points that return their results in a small record. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/* check: every dialect's verdict into rows of 5 words (index.js CHECK_ROW): dialect row pointer, status,
 * consumed, strict (reencodes_same), engine_exact; the error records into errs. */
EXPORT size_t gdwjs_check(const uint8_t *buf, size_t len, int allow_objects, uint32_t *rows, gdw_error *errs, size_t cap) {
    size_t n = gdw_dialect_count();
    if (n > cap) return 0;
    gdw_check_result *r = (gdw_check_result *)calloc(n ? n : 1, sizeof *r);
    if (!r) return 0;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = allow_objects != 0;
    gdw_check(buf, len, &o, NULL, false, r);
    for (size_t i = 0; i < n; i++) {
        rows[5 * i] = (uint32_t)(uintptr_t)r[i].dialect;
        rows[5 * i + 1] = (uint32_t)r[i].status;
        rows[5 * i + 2] = (uint32_t)r[i].consumed;
        rows[5 * i + 3] = r[i].status == GDW_OK && r[i].reencodes_same;
        rows[5 * i + 4] = r[i].status == GDW_OK && r[i].engine_exact;
        errs[i] = r[i].err;
    }
    free(r);
    return n;
}

/* SPDX-License-Identifier: MIT */
/* api.c — gdw_decode: the wire's tree (codec/wire), then in engine-exact mode the value the
 * engine holds (codec/engine). The one place the two wings meet, so neither calls the other. */
#include "codec/api.h"

gdw_status gdw_decode(const gdw_dialect *d, const uint8_t *buf, size_t len,
                      const gdw_decode_options *opts, const gdw_allocator *alloc, gdw_doc **out_doc,
                      size_t *consumed, gdw_error *err) {
    return gdw_decode_shadowed(d, buf, len, opts, alloc, out_doc, consumed, err, NULL);
}

gdw_status gdw_decode_shadowed(const gdw_dialect *d, const uint8_t *buf, size_t len,
                               const gdw_decode_options *opts, const gdw_allocator *alloc,
                               gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                               gdw_shadow_report *report) {
    if (!out_doc) {
        gdw_error_set(err, GDW_ERR_INVALID_ARG, 0, 0, GDW_ENGINE_NONE, "out_doc is NULL");
        return GDW_ERR_INVALID_ARG;
    }
    *out_doc = NULL;
    gdw_doc *doc = gdw_doc_new(alloc);
    if (!doc) {
        gdw_error_set(err, GDW_ERR_NOMEM, 0, 0, GDW_ENGINE_NONE, "out of memory");
        return GDW_ERR_NOMEM;
    }
    size_t used = 0;
    bool settles = opts && opts->mode == GDW_MODE_ENGINE_EXACT;
    gdw_status s = gdw_wire_decode(d, buf, len, opts, doc, &used, err, report);
    /* the pass's reads are the answer's too */
    uint64_t *pass_read = report && report->read ? &report->read->rules : NULL;
    /* the pass's tree, its events (the walk made none in engine-exact mode), or its failure at its
     * offset and path */
    if (!s && settles) s = gdw_engine_settle(d, doc, opts, used, err, pass_read);
    if (s) {
        gdw_doc_free(doc);
        return s;
    }
    if (consumed) *consumed = used;
    *out_doc = doc;
    return GDW_OK;
}

static gdw_status api_fail(gdw_error *err, gdw_status code, const char *msg) {
    gdw_error_set(err, code, 0, 0, GDW_ENGINE_NONE, msg);
    return code;
}

gdw_status gdw_decode_json(const gdw_dialect *d, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts, unsigned json_flags,
                           const gdw_allocator *alloc, char **json, size_t *json_len,
                           gdw_error *err) {
    if (json) *json = NULL;
    if (json_len) *json_len = 0;
    if (!json || !json_len) return api_fail(err, GDW_ERR_INVALID_ARG, "NULL argument");
    gdw_doc *doc = NULL;
    gdw_status s = gdw_decode(d, buf, len, opts, alloc, &doc, NULL, err);
    if (s) return s;
    const gdw_value *v = gdw_doc_root(doc);
    *json = (json_flags & GDW_JSON_PLAIN)
                ? gdw_json_print_plain_alloc(v, json_flags, alloc, json_len)
                : gdw_json_print_alloc(v, alloc, json_len);
    gdw_doc_free(doc);
    if (!*json) {
        *json_len = 0;
        return api_fail(err, GDW_ERR_NOMEM, "out of memory");
    }
    return GDW_OK;
}

gdw_status gdw_encode_json(const gdw_dialect *d, const char *json, size_t len, unsigned json_flags,
                           const gdw_encode_options *opts, const gdw_allocator *alloc,
                           uint8_t **out, size_t *out_len, gdw_error *err) {
    if (out) *out = NULL;
    if (out_len) *out_len = 0;
    if (!d || !out || !out_len) return api_fail(err, GDW_ERR_INVALID_ARG, "NULL argument");
    gdw_doc *doc = NULL;
    gdw_status s = (json_flags & GDW_JSON_PLAIN) ? gdw_json_parse_plain(json, len, alloc, &doc, err)
                                                 : gdw_json_parse(json, len, alloc, &doc, err);
    if (s) return s;
    s = gdw_encode_alloc(d, gdw_doc_root(doc), opts, alloc, out, out_len, err);
    gdw_doc_free(doc);
    return s;
}

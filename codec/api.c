/* SPDX-License-Identifier: MIT */
/* api.c — gdw_decode: the wire's tree (codec/wire), then in engine-exact mode the value the
 * engine holds (codec/engine). The one place the two wings meet, so neither calls the other. */
#include "codec/api.h"

gdw_status gdw_decode(const gdw_dialect *d, const uint8_t *buf, size_t len,
                      const gdw_decode_options *opts, const gdw_allocator *alloc,
                      gdw_doc **out_doc, size_t *consumed, gdw_error *err) {
    return gdw_decode_shadowed(d, buf, len, opts, alloc, out_doc, consumed, err, NULL);
}

gdw_status gdw_decode_shadowed(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                               const gdw_allocator *alloc, gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                               gdw_shadow_report *report) {
    if (!out_doc) {
        if (err) { memset(err, 0, sizeof *err); err->code = GDW_ERR_INVALID_ARG; err->engine_error = GDW_ENGINE_NONE; err->message = "out_doc is NULL"; }
        return GDW_ERR_INVALID_ARG;
    }
    *out_doc = NULL;
    gdw_doc *doc = gdw_doc_new(alloc);
    if (!doc) {
        if (err) { memset(err, 0, sizeof *err); err->code = GDW_ERR_NOMEM; err->engine_error = GDW_ENGINE_NONE; err->message = "out of memory"; }
        return GDW_ERR_NOMEM;
    }
    size_t used = 0;
    gdw_status s = gdw_wire_decode(d, buf, len, opts, doc, &used, err, report);
    if (!s && opts && opts->mode == GDW_MODE_ENGINE_EXACT && (s = gdw_engine_settle(d, doc, opts, used, err)) && s != GDW_ERR_LOSSY && err) {
        memset(err, 0, sizeof *err);
        err->code = s;
        err->engine_error = GDW_ENGINE_NONE;
        err->message = gdw_strerror(s);
    }
    if (s) { gdw_doc_free(doc); return s; }
    if (consumed) *consumed = used;
    *out_doc = doc;
    return GDW_OK;
}

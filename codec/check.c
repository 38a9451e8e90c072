/* SPDX-License-Identifier: MIT */
/* check.c — one packet against every dialect (gdw_check, gdwire.h). */
#include <string.h>

#include "codec/api.h"

size_t gdw_check(const uint8_t *buf, size_t len, const gdw_decode_options *opts, const gdw_allocator *alloc, bool keep_docs,
                 gdw_check_result *out) {
    size_t accepted = 0;
    if (!out) return 0;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.borrow_input = o.borrow_input || !keep_docs; /* the input outlives these documents */
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        gdw_check_result *r = &out[i];
        /* fields set one by one: the two error records (about 400 bytes) are written only when
         * used, which matters when thirteen decodes of a packed array take a microsecond */
        r->dialect = gdw_dialect_at(i);
        r->consumed = 0;
        r->reencodes_same = false;
        r->doc = NULL;
        r->engine_exact = false;
        r->strict_err.code = GDW_OK;
        r->strict_err.message = gdw_strerror(GDW_OK);
        r->strict_err.path[0] = 0;
        gdw_doc *doc = NULL;
        /* Strict mode accepts exactly what the dialect's encoder writes, so "does the encoder write
         * these bytes" is strict mode's verdict on the consumed bytes (fuzzers/decode.c checks that
         * strict acceptance implies a byte-identical re-encode). In compatible mode the decode
         * finds it in the same walk, and whether engine-exact mode reads the bytes the same way
         * (then its verdict is this one); other verdicts take a validation of their own
         * (fuzzers/validate_vs_decode.c checks both against separate validations). */
        gdw_shadow_report report = {&r->strict_err, false, false};
        r->status = gdw_decode_shadowed(r->dialect, buf, len, &o, alloc, &doc, &r->consumed, &r->err, &report);
        if (r->status != GDW_OK) continue;
        accepted++;
        if (o.mode == GDW_MODE_COMPATIBLE) {
            r->reencodes_same = report.canonical;
        } else {
            gdw_decode_options so = o;
            so.mode = GDW_MODE_STRICT;
            so.allow_trailing = false;
            so.trace = NULL;
            r->reencodes_same = gdw_validate(r->dialect, buf, r->consumed, &so, NULL, &r->strict_err) == GDW_OK;
        }
        if (report.engine_same || o.mode == GDW_MODE_ENGINE_EXACT) {
            r->engine_exact = true;
        } else {
            gdw_decode_options eo = o;
            eo.mode = GDW_MODE_ENGINE_EXACT;
            eo.trace = NULL;
            r->engine_exact = gdw_validate(r->dialect, buf, len, &eo, NULL, NULL) == GDW_OK;
        }
        if (keep_docs) r->doc = doc;
        else gdw_doc_free(doc);
    }
    return accepted;
}

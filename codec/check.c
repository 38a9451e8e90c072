/* check.c — one packet against every dialect (gdw_check, gdwire.h). */
#include <string.h>

#include "codec/internal.h"

size_t gdw_check(const uint8_t *buf, size_t len, const gdw_decode_options *opts, bool keep_docs, gdw_check_result *out) {
    size_t accepted = 0;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.borrow_input = o.borrow_input || !keep_docs; /* the input outlives these documents */
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        gdw_check_result *r = &out[i];
        memset(r, 0, sizeof *r);
        r->dialect = gdw_dialect_at(i);
        gdw_doc *doc = NULL;
        r->status = gdw_decode(r->dialect, buf, len, &o, NULL, &doc, &r->consumed, &r->err);
        if (r->status != GDW_OK) continue;
        accepted++;
        /* Strict mode accepts exactly what the dialect's encoder writes, so validating the consumed
         * bytes strictly answers "does the encoder write these bytes" at a third of the cost of
         * re-encoding (fuzzers/decode.c checks the equivalence on every input it accepts). */
        gdw_decode_options so = o;
        so.mode = GDW_MODE_STRICT;
        so.allow_trailing = false;
        so.trace = NULL;
        gdw_status ss = gdw_validate(r->dialect, buf, r->consumed, &so, NULL, &r->strict_err);
        r->reencodes_same = ss == GDW_OK;
        if (keep_docs) r->doc = doc;
        else gdw_doc_free(doc);
    }
    return accepted;
}

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
        /* re-encode by comparing against the input as the encoder goes: no second buffer */
        r->encode_status = gdw_encode_matches(r->dialect, gdw_doc_root(doc), buf, r->consumed, &r->reencodes_same);
        if (keep_docs) r->doc = doc;
        else gdw_doc_free(doc);
    }
    return accepted;
}

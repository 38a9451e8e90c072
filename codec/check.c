/* check.c — one packet against every dialect (gdw_check, gdwire.h). */
#include <stdlib.h>
#include <string.h>

#include "codec/internal.h"

size_t gdw_check(const uint8_t *buf, size_t len, const gdw_decode_options *opts, bool keep_docs, gdw_check_result *out) {
    size_t accepted = 0;
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        gdw_check_result *r = &out[i];
        memset(r, 0, sizeof *r);
        r->dialect = gdw_dialect_at(i);
        gdw_doc *doc = NULL;
        r->status = gdw_decode(r->dialect, buf, len, opts, NULL, &doc, &r->consumed, &r->err);
        if (r->status != GDW_OK) continue;
        accepted++;
        size_t n = 0;
        gdw_error eerr;
        /* sizing pass first: a packet whose re-encoding has another length cannot be the same */
        r->encode_status = gdw_encode(r->dialect, gdw_doc_root(doc), NULL, NULL, 0, &n, &eerr);
        if (r->encode_status == GDW_ERR_TRUNCATED) r->encode_status = GDW_OK;
        if (r->encode_status == GDW_OK && n == r->consumed) {
            uint8_t *enc = malloc(n ? n : 1);
            if (!enc) r->encode_status = GDW_ERR_NOMEM;
            else {
                size_t w = 0;
                r->encode_status = gdw_encode(r->dialect, gdw_doc_root(doc), NULL, enc, n, &w, &eerr);
                r->reencodes_same = r->encode_status == GDW_OK && w == r->consumed && memcmp(enc, buf, w) == 0;
                free(enc);
            }
        }
        if (keep_docs) r->doc = doc;
        else gdw_doc_free(doc);
    }
    return accepted;
}

/* SPDX-License-Identifier: MIT */
/* check.c — one packet against every dialect (gdw_check, gdwire.h), and the ranking of the answers (gdw_check_rank):
 * the one definition `gdwire check`, the Python and npm packages and the page share. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/api.h"

/* A validation that adds what it read of d to *read (gdw_wire_decode's report). */
static gdw_status validate_read(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *o, size_t *consumed,
                                gdw_error *err, gdw_rules_read *read) {
    gdw_shadow_report report = {NULL, false, false, false, false, read};
    return gdw_wire_decode(d, buf, len, o, NULL, consumed, err, &report);
}

bool gdw_check_dialect(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts, const gdw_allocator *alloc,
                       bool keep_docs, gdw_check_result *r) {
    return gdw_check_dialect_read(d, buf, len, opts, alloc, keep_docs, r, NULL);
}

bool gdw_check_dialect_read(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts, const gdw_allocator *alloc,
                            bool keep_docs, gdw_check_result *r, gdw_rules_read *read) {
    if (!r) return false;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.borrow_input = o.borrow_input || !keep_docs; /* the input outlives these documents */
    if (!keep_docs && !o.keep_nodes) o.keep_nodes = 1; /* no one reads the tree: the walk holds only its open path */
    /* fields set one by one: the two error records (about 400 bytes) are written only when
     * used, which matters when thirteen decodes of a packed array take a microsecond */
    r->dialect = d;
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
    gdw_shadow_report report = {&r->strict_err, false, false, false, false, read};
    r->status = gdw_decode_shadowed(d, buf, len, &o, alloc, &doc, &r->consumed, &r->err, &report);
    if (r->status != GDW_OK) return false;
    if (o.mode == GDW_MODE_COMPATIBLE) {
        r->reencodes_same = report.canonical;
    } else {
        gdw_decode_options so = o;
        so.mode = GDW_MODE_STRICT;
        so.allow_trailing = false;
        so.trace = NULL;
        r->reencodes_same = validate_read(d, buf, r->consumed, &so, NULL, &r->strict_err, read) == GDW_OK;
    }
    if (report.engine_same || o.mode == GDW_MODE_ENGINE_EXACT) {
        r->engine_exact = true;
    } else {
        gdw_decode_options eo = o;
        eo.mode = GDW_MODE_ENGINE_EXACT;
        eo.trace = NULL;
        r->engine_exact = validate_read(d, buf, len, &eo, NULL, NULL, read) == GDW_OK;
    }
    if (keep_docs) r->doc = doc;
    else gdw_doc_free(doc);
    return true;
}

gdw_status gdw_decode_read(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                           const gdw_allocator *alloc, gdw_doc **out_doc, size_t *consumed, gdw_error *err, gdw_rules_read *read) {
    gdw_error strict_err; /* a compatible walk that notes its reads finds the strict verdict too (gdw_check's walk) */
    gdw_shadow_report report = {&strict_err, false, false, false, false, read};
    return gdw_decode_shadowed(d, buf, len, opts, alloc, out_doc, consumed, err, read ? &report : NULL);
}

void gdw_check_take_answer(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                           const gdw_check_result *from, const gdw_rules_read *from_read, gdw_check_result *r) {
    (void)len; /* the strict verdict is of the consumed bytes */
    if (!d || !from || !r) return;
    *r = *from;
    r->dialect = d;
    r->doc = NULL;
    if (r->status != GDW_OK || !from_read || gdw_dialects_read_alike(from->dialect, d, from_read)) return;
    /* the rows differ in a rule only the strict verdict read: d's own, as gdw_check_dialect_read finds it outside
     * compatible mode (gdw_dialects_answer_alike: in the other modes no rule is read for it alone) */
    gdw_decode_options so = opts ? *opts : gdw_decode_options_default();
    so.mode = GDW_MODE_STRICT;
    so.allow_trailing = false;
    so.trace = NULL;
    r->reencodes_same = validate_read(d, buf, r->consumed, &so, NULL, &r->strict_err, NULL) == GDW_OK;
}

bool gdw_check_shares(size_t len, const gdw_decode_options *opts) {
    (void)opts; /* every mode notes what its answers rest on */
    return len >= GDW_CHECK_SHARE_MIN;
}

size_t gdw_check(const uint8_t *buf, size_t len, const gdw_decode_options *opts, const gdw_allocator *alloc, bool keep_docs,
                 gdw_check_result *out) {
    size_t accepted = 0;
    if (!out) return 0;
    /* A row that agrees with a row walked before it on all that row's answer rested on takes that answer: where
     * the rows keep no documents (each would need its own tree), no digest is asked (each decode adds to it)
     * and gdw_check_shares says so. */
    enum { SHARED_MAX = 64 };
    gdw_rules_read read[SHARED_MAX];
    size_t walked[SHARED_MAX], nw = 0;
    bool share = !keep_docs && !(opts && opts->digest) && gdw_check_shares(len, opts);
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = gdw_dialect_at(i);
        size_t k = 0; /* the walked row whose answer this row takes, if one: k < nw */
        while (share && k < nw && !gdw_dialects_answer_alike(out[walked[k]].dialect, d, &read[k])) k++;
        if (share && k < nw) {
            gdw_check_take_answer(d, buf, len, opts, &out[walked[k]], &read[k], &out[i]);
        } else {
            gdw_rules_read mine = {0, 0, 0};
            gdw_check_dialect_read(d, buf, len, opts, alloc, keep_docs, &out[i], share ? &mine : NULL);
            if (share && nw < SHARED_MAX) read[nw] = mine, walked[nw++] = i;
        }
        accepted += out[i].status == GDW_OK;
    }
    return accepted;
}

/* ---- ranking: which dialect most likely wrote the packet -------------------------------------------- */

/* A real that looks misread: subnormal-small, NaN or beyond 1e30 (the marks of integers or text read as floats). */
static bool looks_misread(double x) {
    if (x == 0) return false;
    double a = fabs(x);
    return isnan(x) || a < 1e-30 || a > 1e30;
}

#define MISREAD_SAMPLE 4096 /* components read of each math value or packed array */

size_t gdw_value_misread_own(const gdw_value *v) {
    if (v && v->type == GDW_FLOAT) return looks_misread(gdw_value_real(v, 0)); /* its one component, without the buffer */
    size_t n = 0;
    double comps[64];
    for (size_t from = 0, got; from < MISREAD_SAMPLE && (got = gdw_value_reals(v, from, sizeof comps / sizeof comps[0], comps)) > 0; from += got)
        for (size_t i = 0; i < got; i++) n += looks_misread(comps[i]);
    return n;
}

static gdw_visit_answer count_misread(void *ctx, gdw_visit_event ev, const gdw_value *v, const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)parent, (void)slot;
    *(size_t *)ctx += gdw_value_misread_own(v);
    return depth >= GDW_MISREAD_DEPTH ? GDW_VISIT_SKIP : GDW_VISIT_GO;
}

size_t gdw_value_misread_reals(const gdw_value *root) {
    size_t n = 0;
    if (root) gdw_visit(root, GDW_VISIT_PRE, count_misread, &n);
    return n;
}

/* a's engine release came out after b's; an undated row is older than any dated one */
static bool released_after(const gdw_dialect *a, const gdw_dialect *b) {
    const char *ra = gdw_dialect_released(a), *rb = gdw_dialect_released(b);
    if (!ra[0]) return false;
    return !rb[0] || strcmp(ra, rb) > 0;
}

/* The score: for an accepted row, bits most telling first (accepted, reads every byte, no misread-looking
 * reals, its encoder writes the bytes back, the engine itself accepts them, an engine's row and not only
 * documentation); for a rejected row, how far it read. */
#define RANK_ACCEPTED (INT64_C(1) << 40)
#define RANK_READS_ALL (INT64_C(1) << 36)
#define RANK_PLAUSIBLE (INT64_C(1) << 35)
#define RANK_WRITES_BACK (INT64_C(1) << 34)
#define RANK_ENGINE_ACCEPTS (INT64_C(1) << 33)
#define RANK_ENGINE_ROW (INT64_C(1) << 32)

size_t gdw_check_rank(const gdw_check_result *r, size_t n, size_t len, size_t *misread, int *rank) {
    if (!r || !rank || n == 0) return 0;
    int64_t local[32], *score = n <= 32 ? local : (int64_t *)malloc(n * sizeof *score);
    if (!score) return 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].status != GDW_OK) {
            score[i] = (int64_t)r[i].err.offset; /* further is more plausible */
            continue;
        }
        size_t odd = misread && misread[i] != SIZE_MAX ? misread[i] : gdw_value_misread_reals(gdw_doc_root(r[i].doc));
        if (misread) misread[i] = odd;
        score[i] = RANK_ACCEPTED;
        if (r[i].consumed == len) score[i] += RANK_READS_ALL;
        if (odd == 0) score[i] += RANK_PLAUSIBLE;
        if (r[i].reencodes_same) score[i] += RANK_WRITES_BACK;
        if (r[i].engine_exact) score[i] += RANK_ENGINE_ACCEPTS;
        if (!gdw_dialect_documented_only(r[i].dialect)) score[i] += RANK_ENGINE_ROW;
    }
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (score[i] > score[best] || (score[i] == score[best] && released_after(r[i].dialect, r[best].dialect))) best = i;
    for (size_t i = 0; i < n; i++) {
        int better = 0;
        for (size_t k = 0; k < n; k++) better += score[k] > score[i];
        rank[i] = better + 1;
    }
    if (score != local) free(score);
    return best;
}

/* Fuzz target `validate_vs_decode`: gdw_validate and gdw_decode give the same verdict, bytes
 * consumed, error code, offsets, path and message on any input, and so does a validation with
 * the fast path for leaves off (a trace function); a zero-copy decode (borrow_input) gives
 * the same verdict and an equal value; and gdw_check's one-pass strict verdict (found during its
 * compatible decode) is the verdict, code, offset, path and message of a separate strict
 * validation of the consumed bytes, in every dialect. */
#include "fuzzers/fuzz.h"

static void no_trace(void *ctx, const gdw_trace_event *ev) { (void)ctx; (void)ev; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    gdw_doc *doc = NULL;
    size_t used_d = 0, used_v = 0;
    gdw_error ed, ev;
    gdw_status sd = gdw_decode(in.dialect, in.packet, in.len, &in.opt, NULL, &doc, &used_d, &ed);
    gdw_status sv = gdw_validate(in.dialect, in.packet, in.len, &in.opt, &used_v, &ev);
    FUZZ_CHECK(sd == sv, "%s/%s: decode %s, validate %s", gdw_dialect_name(in.dialect), gdw_mode_name(in.opt.mode),
               gdw_status_name(sd), gdw_status_name(sv));
    if (sd == GDW_OK) FUZZ_CHECK(used_d == used_v, "decode consumed %zu, validate %zu", used_d, used_v);
    else
        FUZZ_CHECK(ed.offset == ev.offset && ed.value_offset == ev.value_offset && ed.engine_error == ev.engine_error &&
                       strcmp(ed.path, ev.path) == 0 && strcmp(ed.message, ev.message) == 0,
                   "decode: offset %zu path '%s'; validate: offset %zu path '%s'", ed.offset, ed.path, ev.offset, ev.path);
    /* a trace function turns the fast path off (decode.c, skip_leaf): the general reader alone
     * must give the same verdict, length and report */
    gdw_decode_options ot = in.opt;
    ot.trace = no_trace;
    gdw_error et;
    size_t used_t = 0;
    gdw_status st = gdw_validate(in.dialect, in.packet, in.len, &ot, &used_t, &et);
    FUZZ_CHECK(st == sv, "validate %s, validate without the fast path %s", gdw_status_name(sv), gdw_status_name(st));
    if (st == GDW_OK) FUZZ_CHECK(used_t == used_v, "validate consumed %zu, without the fast path %zu", used_v, used_t);
    else
        FUZZ_CHECK(et.offset == ev.offset && et.value_offset == ev.value_offset && et.engine_error == ev.engine_error &&
                       strcmp(et.path, ev.path) == 0 && strcmp(et.message, ev.message) == 0,
                   "validate: offset %zu path '%s'; without the fast path: offset %zu path '%s'", ev.offset, ev.path, et.offset, et.path);
    gdw_decode_options ob = in.opt;
    ob.borrow_input = true;
    gdw_doc *borrowed = NULL;
    gdw_status sb = gdw_decode(in.dialect, in.packet, in.len, &ob, NULL, &borrowed, NULL, &ev);
    FUZZ_CHECK(sb == sd, "decode %s, zero-copy decode %s", gdw_status_name(sd), gdw_status_name(sb));
    if (sd == GDW_OK) {
        FUZZ_CHECK(gdw_value_equal(gdw_doc_root(doc), gdw_doc_root(borrowed)), "zero-copy decode gives another value");
        FUZZ_CHECK(gdw_doc_heap_bytes(borrowed) <= gdw_doc_heap_bytes(doc), "zero-copy decode uses more heap");
    }
    gdw_doc_free(borrowed);
    gdw_doc_free(doc);

    gdw_decode_options co = in.opt;
    co.mode = GDW_MODE_COMPATIBLE;
    co.trace = NULL;
    gdw_check_result res[64];
    gdw_check(in.packet, in.len, &co, NULL, false, res);
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_check_result *r = &res[i];
        if (r->status != GDW_OK) continue;
        gdw_decode_options so = co;
        so.mode = GDW_MODE_STRICT;
        gdw_error se;
        bool ok = gdw_validate(r->dialect, in.packet, r->consumed, &so, NULL, &se) == GDW_OK;
        FUZZ_CHECK(ok == r->reencodes_same, "%s: strict validation %s, gdw_check's one-pass verdict %s", gdw_dialect_name(r->dialect),
                   ok ? "accepts" : "rejects", r->reencodes_same ? "accepts" : "rejects");
        if (!ok)
            FUZZ_CHECK(se.code == r->strict_err.code && se.offset == r->strict_err.offset && se.value_offset == r->strict_err.value_offset &&
                           se.engine_error == r->strict_err.engine_error && strcmp(se.path, r->strict_err.path) == 0 &&
                           strcmp(se.message, r->strict_err.message) == 0,
                       "%s: strict says %s at %zu in '%s' (%s), gdw_check %s at %zu in '%s' (%s)", gdw_dialect_name(r->dialect),
                       gdw_status_name(se.code), se.offset, se.path, se.message, gdw_status_name(r->strict_err.code), r->strict_err.offset,
                       r->strict_err.path, r->strict_err.message);
    }
    return 0;
}

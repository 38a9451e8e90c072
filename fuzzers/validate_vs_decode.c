/* SPDX-License-Identifier: MIT */
/* Fuzz target `validate_vs_decode`: gdw_validate and gdw_decode give the same verdict, bytes
 * consumed, error code, offsets, path and message on any input, and so does a validation with
 * the fast path for leaves off (a trace function); a zero-copy decode (borrow_input) gives
 * the same verdict and an equal value, and in compatible mode (where the fast path runs) a decode with the
 * fast path off the same tree, node by node with every flag (same_nodes); and gdw_check's one-pass strict verdict (found during its
 * compatible decode) is the verdict, code, offset, path and message of a separate strict
 * validation of the consumed bytes, and its engine verdict (found in the same walk unless an
 * engine quirk is met) that of a separate engine-exact validation, in every dialect; and a watching
 * validation (gdw_validate_watched) gives the decode's verdict and says the engine holds the bytes'
 * value only where the decode's tree says so (gdw_doc_engine_same; equal but past 256 open keys). */
#include "fuzzers/fuzz.h"

static void no_trace(void *ctx, const gdw_trace_event *ev) { (void)ctx; (void)ev; }

/* Two ways of reading the same bytes agree: verdict, and length or the whole error report. */
static void same_outcome(const char *a, gdw_status sa, size_t used_a, const gdw_error *ea,
                         const char *b, gdw_status sb, size_t used_b, const gdw_error *eb) {
    FUZZ_CHECK(sa == sb, "%s %s, %s %s", a, gdw_status_name(sa), b, gdw_status_name(sb));
    if (sa == GDW_OK) {
        FUZZ_CHECK(used_a == used_b, "%s consumed %zu, %s %zu", a, used_a, b, used_b);
        return;
    }
    FUZZ_CHECK(ea->offset == eb->offset && ea->value_offset == eb->value_offset && ea->engine_error == eb->engine_error &&
                   strcmp(ea->path, eb->path) == 0 && strcmp(ea->message, eb->message) == 0,
               "%s: %s at %zu in '%s' (%s); %s: %s at %zu in '%s' (%s)", a, gdw_status_name(ea->code), ea->offset, ea->path, ea->message,
               b, gdw_status_name(eb->code), eb->offset, eb->path, eb->message);
}

/* The trees of two decodes of the same bytes are the same node by node: gdw_value_equal, and the flags it does not
 * compare too (how an int came), so that a leaf the fast path makes (decode.c, leaf_run) is the one read_value makes. */
static bool same_nodes(const gdw_value *a, const gdw_value *b) {
    if (a->type != b->type || a->width != b->width || a->flags != b->flags || a->len != b->len) return false;
    const gdw_value *ka, *kb;
    size_t na = gdw_children(a, &ka), nb = gdw_children(b, &kb);
    if (na != nb) return false;
    if (na == 0) return gdw_value_equal(a, b);
    for (size_t i = 0; i < na; i++)
        if (!same_nodes(&ka[i], &kb[i])) return false;
    return (gdw_container_of(a) == NULL) == (gdw_container_of(b) == NULL); /* the descriptors themselves: gdw_value_equal (the caller) */
}

/* gdw_check's engine verdict (run with o) in every dialect that accepts is that of a separate
 * engine-exact validation. */
static void same_engine_verdicts(const fuzz_input *in, const gdw_decode_options *o, const gdw_check_result *res) {
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_check_result *r = &res[i];
        if (r->status != GDW_OK) continue;
        gdw_decode_options eo = *o;
        eo.mode = GDW_MODE_ENGINE_EXACT;
        gdw_status es = gdw_validate(r->dialect, in->packet, in->len, &eo, NULL, NULL);
        FUZZ_CHECK((es == GDW_OK) == r->engine_exact, "%s (%s mode): engine-exact validation %s, gdw_check's engine verdict %s", gdw_dialect_name(r->dialect),
                   gdw_mode_name(o->mode), gdw_status_name(es), r->engine_exact ? "accepts" : "rejects");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    gdw_doc *doc = NULL;
    size_t used_d = 0, used_v = 0;
    gdw_error ed, ev;
    gdw_status sd = gdw_decode(in.dialect, in.packet, in.len, &in.opt, NULL, &doc, &used_d, &ed);
    gdw_status sv = gdw_validate(in.dialect, in.packet, in.len, &in.opt, &used_v, &ev);
    same_outcome("decode", sd, used_d, &ed, "validate", sv, used_v, &ev);
    /* a trace function turns the fast path off (decode.c, skip_leaf): the general reader alone
     * must give the same verdict, length and report */
    gdw_decode_options ot = in.opt;
    ot.trace = no_trace;
    gdw_error et;
    size_t used_t = 0;
    gdw_status st = gdw_validate(in.dialect, in.packet, in.len, &ot, &used_t, &et);
    same_outcome("validate", sv, used_v, &ev, "validate without the fast path", st, used_t, &et);
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
    /* the same with the fast path off (a trace): the general reader makes every node. The fast path runs in
     * compatible mode only (decode.c, set_mode): elsewhere both decodes are the general reader's */
    if (in.opt.mode == GDW_MODE_COMPATIBLE) {
        gdw_doc *general = NULL;
        gdw_status sg = gdw_decode(in.dialect, in.packet, in.len, &ot, NULL, &general, NULL, &et);
        FUZZ_CHECK(sg == sd, "decode %s, decode without the fast path %s", gdw_status_name(sd), gdw_status_name(sg));
        if (sd == GDW_OK)
            FUZZ_CHECK(same_nodes(gdw_doc_root(doc), gdw_doc_root(general)) && gdw_value_equal(gdw_doc_root(doc), gdw_doc_root(general)),
                       "decode without the fast path gives another tree");
        gdw_doc_free(general);
    }
    gdw_doc_free(doc);

    if (in.opt.mode != GDW_MODE_ENGINE_EXACT) {
        gdw_decode_options wo = in.opt;
        wo.watch_engine = true;
        wo.trace = NULL;
        gdw_doc *wd = NULL;
        gdw_error ew, ewv;
        size_t used_w = 0, used_wv = 0;
        gdw_status sw = gdw_decode(in.dialect, in.packet, in.len, &wo, NULL, &wd, &used_w, &ew);
        bool same = true;
        gdw_status swv = gdw_validate_watched(in.dialect, in.packet, in.len, &wo, &used_wv, &ewv, &same);
        same_outcome("watching decode", sw, used_w, &ew, "watching validation", swv, used_wv, &ewv);
        if (sw == GDW_OK) FUZZ_CHECK(!same || gdw_doc_engine_same(wd), "the watching validation says the engine holds the bytes' value, the tree does not");
        else FUZZ_CHECK(!same, "a refused packet's watching validation says the engine holds its value");
        gdw_doc_free(wd);
    }

    gdw_decode_options co = in.opt;
    co.mode = GDW_MODE_COMPATIBLE;
    co.trace = NULL;
    gdw_check_result res[64];
    gdw_check(in.packet, in.len, &co, NULL, false, res, 64);
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_check_result *r = &res[i];
        if (r->status != GDW_OK) continue;
        gdw_decode_options so = co;
        so.mode = GDW_MODE_STRICT;
        gdw_error se;
        gdw_status ss = gdw_validate(r->dialect, in.packet, r->consumed, &so, NULL, &se);
        same_outcome("strict validation", ss, 0, &se, "gdw_check's one-pass strict verdict", r->reencodes_same ? GDW_OK : r->strict_err.code, 0,
                     &r->strict_err);
    }
    same_engine_verdicts(&in, &co, res);
    /* in the input's own mode too: strict and engine-exact runs take the other verdicts from
     * validations of their own */
    if (in.opt.mode != GDW_MODE_COMPATIBLE) {
        gdw_decode_options mo = in.opt;
        mo.trace = NULL;
        gdw_check(in.packet, in.len, &mo, NULL, false, res, 64);
        same_engine_verdicts(&in, &mo, res);
    }
    return 0;
}

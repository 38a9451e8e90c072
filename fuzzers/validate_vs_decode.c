/* Fuzz target `validate_vs_decode`: gdw_validate and gdw_decode give the same verdict, bytes
 * consumed, error code, offset and path on any input; and a zero-copy decode (borrow_input)
 * gives the same verdict and an equal value. */
#include "fuzzers/fuzz.h"

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
        FUZZ_CHECK(ed.offset == ev.offset && ed.engine_error == ev.engine_error && strcmp(ed.path, ev.path) == 0,
                   "decode: offset %zu path '%s'; validate: offset %zu path '%s'", ed.offset, ed.path, ev.offset, ev.path);
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
    return 0;
}

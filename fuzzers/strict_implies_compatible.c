/* Fuzz target `strict_implies_compatible`: whatever strict mode accepts, compatible and
 * engine-exact mode accept with the same value and length. The exceptions are engine-exact
 * mode's model of known engine defects: ENGINE_DEFECT (a valid packet the engine rejects)
 * and, in dialects with defect_vec4_pool_w, packed Vector4 arrays whose w the engine reads
 * from z (a different value), and, in Godot 2 dialects whose engine-exact form is the 2015
 * one (joystick_axis_value false), a JOYSTICK_MOTION InputEvent with a value word: 2.1-era
 * engines write and strict mode accepts it, the 2015 engine reads the axis only (a shorter
 * packet). */
#include "dialects/dialects.h"
#include "fuzzers/fuzz.h"

/* a Godot 2 joystick motion event with the 2.1-era value word */
static bool is_joystick_value(const gdw_value *v) {
    const gdw_input_event *ev = v->type == GDW_INPUT_EVENT ? v->u.ext : NULL;
    return ev && ev->type == 4 && ev->extra_count == 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    const gdw_dialect *d = in.dialect;
    gdw_decode_options o = in.opt;
    o.mode = GDW_MODE_STRICT;
    o.allow_trailing = (in.extra & 1u) != 0;
    gdw_doc *strict = NULL;
    size_t used = 0;
    gdw_error err;
    if (gdw_decode(d, in.packet, in.len, &o, NULL, &strict, &used, &err) != GDW_OK) return 0;
    for (int m = 0; m < 3; m += 2) { /* compatible, engine-exact */
        o.mode = (gdw_mode)m;
        gdw_doc *other = NULL;
        size_t used2 = 0;
        gdw_status s = gdw_decode(d, in.packet, in.len, &o, NULL, &other, &used2, &err);
        if (m == GDW_MODE_ENGINE_EXACT && s == GDW_ERR_ENGINE_DEFECT) continue;
        if (m == GDW_MODE_ENGINE_EXACT && !d->joystick_axis_value && fuzz_any(gdw_doc_root(strict), is_joystick_value)) { gdw_doc_free(other); continue; }
        FUZZ_CHECK(s == GDW_OK, "%s: strict accepts, %s rejects with %s at %zu", gdw_dialect_name(d), gdw_mode_name(o.mode),
                   gdw_status_name(s), err.offset);
        FUZZ_CHECK(used2 == used, "%s: strict consumed %zu, %s %zu", gdw_dialect_name(d), used, gdw_mode_name(o.mode), used2);
        bool defect_values = m == GDW_MODE_ENGINE_EXACT && d->defect_vec4_pool_w;
        if (!defect_values && !gdw_value_equal(gdw_doc_root(strict), gdw_doc_root(other))) {
            fuzz_print_value("strict", gdw_doc_root(strict));
            fuzz_print_value(gdw_mode_name(o.mode), gdw_doc_root(other));
            FUZZ_CHECK(0, "%s: the modes decode different values", gdw_dialect_name(d));
        }
        gdw_doc_free(other);
    }
    gdw_doc_free(strict);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target `strict_implies_compatible`: whatever strict mode accepts, compatible and
 * engine-exact mode accept with the same value and length. The exceptions are engine-exact
 * mode's model of known engine defects: ENGINE_DEFECT (a valid packet the engine rejects)
 * and, in dialects with defect_vec4_pool_w, packed Vector4 and Vector4i arrays whose w the engine reads
 * from z (a different value), and, in Godot 2 dialects whose engine-exact form is the 2015
 * one (joystick_axis_value false), a JOYSTICK_MOTION InputEvent with a value word: 2.1-era
 * engines write and strict mode accepts it, the 2015 engine reads the axis only (a shorter
 * packet). In dialects whose engine-exact value is what the engine holds (typed_rule,
 * merge_dict_keys: typed containers converted, Dictionary keys merged) that value may differ;
 * it must then be settled for good: written back and read again in engine-exact mode, it is the
 * same value. */
#include <stdlib.h>

#include "fuzzers/fuzz.h"

/* a Godot 2 joystick motion event with the 2.1 value word, and one without it: strict mode reads
 * the words its length word announces, the engine release a fixed number (joystick_axis_value) */
static bool is_joystick_value(const gdw_value *v) {
    const gdw_input_event *ev = v->type == GDW_INPUT_EVENT ? v->u.ext : NULL;
    return ev && ev->type == 4 && ev->extra_count == 2;
}

static bool is_packed_vector4(const gdw_value *v) { return v->type == GDW_PACKED_VECTOR4_ARRAY || v->type == GDW_PACKED_VECTOR4I_ARRAY; }

static bool is_joystick_axis_only(const gdw_value *v) {
    const gdw_input_event *ev = v->type == GDW_INPUT_EVENT ? v->u.ext : NULL;
    return ev && ev->type == 4 && ev->extra_count == 1;
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
        if (m == GDW_MODE_ENGINE_EXACT && (fuzz_any(gdw_doc_root(strict), gdw_dialect_rule(d, GDW_RULE_JOYSTICK_AXIS_VALUE) ? is_joystick_axis_only : is_joystick_value) ||
                                            (gdw_dialect_rule(d, GDW_RULE_DEFECT_VEC4_ADVANCE_12) && fuzz_any(gdw_doc_root(strict), fuzz_is_vector4)))) {
            gdw_doc_free(other);
            continue;
        }
        FUZZ_CHECK(s == GDW_OK, "%s: strict accepts, %s rejects with %s at %zu", gdw_dialect_name(d), gdw_mode_name(o.mode),
                   gdw_status_name(s), err.offset);
        FUZZ_CHECK(used2 == used, "%s: strict consumed %zu, %s %zu", gdw_dialect_name(d), used, gdw_mode_name(o.mode), used2);
        /* only a packet holding a packed Vector4 or Vector4i array meets the w-from-z defect */
        bool defect_values = m == GDW_MODE_ENGINE_EXACT && gdw_dialect_rule(d, GDW_RULE_DEFECT_VEC4_POOL_W) && fuzz_any(gdw_doc_root(strict), is_packed_vector4);
        if (m == GDW_MODE_ENGINE_EXACT && (gdw_dialect_rule(d, GDW_RULE_TYPED_RULE) || gdw_dialect_rule(d, GDW_RULE_MERGE_DICT_KEYS)) &&
            !gdw_value_equal(gdw_doc_root(strict), gdw_doc_root(other))) {
            uint8_t *bytes = NULL;
            size_t n = 0;
            gdw_status es = gdw_encode_alloc(d, gdw_doc_root(other), NULL, NULL, &bytes, &n, &err);
            /* a refusal the decode target allows too (fuzz_encode_refusal_allowed): e.g. a String
             * in an Array[NodePath] becomes a NodePath whose subname starts with U+FEFF; the engine
             * writes it, and its reader (String::parse_utf8 skips a leading byte order mark,
             * godotengine/godot core/string/ustring.cpp) drops it: the engine's own value does not
             * survive its writer and reader either (measured on Godot 4.6.3: the held subname
             * U+FEFF, written back as EF BB BF and read again, is the empty subname), and gdwire's
             * encoder refuses it as LOSSY (found by the campaign of 2026-11-23:
             * corpus/regressions/strict_implies_compatible/check-90fbce73a4) */
            if (es != GDW_OK && fuzz_encode_refusal_allowed(es)) {
                gdw_doc_free(other);
                continue;
            }
            FUZZ_CHECK(es == GDW_OK, "%s: the settled value does not encode: %s", gdw_dialect_name(d), gdw_status_name(es));
            gdw_doc *again = NULL;
            size_t used3 = 0;
            es = gdw_decode(d, bytes, n, &o, NULL, &again, &used3, &err);
            /* the engine's own reader cannot read back every value its writer writes: Pandemonium's
             * Projection decoder wants 248 bytes left (defect_short_projection), so a settled value
             * whose Projection is now near the end is refused as the engine refuses it (found by
             * the campaign of 2026-11-24: corpus/regressions/strict_implies_compatible/check-9c078fcdbc) */
            if (es == GDW_ERR_ENGINE_DEFECT) {
                free(bytes);
                gdw_doc_free(other);
                continue;
            }
            FUZZ_CHECK(es == GDW_OK && used3 == n, "%s: the settled value does not read back", gdw_dialect_name(d));
            if (!gdw_value_equal(gdw_doc_root(again), gdw_doc_root(other))) {
                fuzz_print_value("settled", gdw_doc_root(other));
                fuzz_print_value("read again", gdw_doc_root(again));
                FUZZ_CHECK(0, "%s: settling is not stable", gdw_dialect_name(d));
            }
            gdw_doc_free(again);
            free(bytes);
            defect_values = true;
        }
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

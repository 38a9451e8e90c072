/* SPDX-License-Identifier: MIT */
/* dialects.h — what a dialect is: a const table of wire type ids plus named quirk fields.
 *
 * The codec never asks "which dialect is this?"; it reads these fields. Adding a dialect
 * means adding one table row in dialects.c and its page under docs/dialects/. The struct is the
 * library's own: programs, the command, the conformance runner and the fuzzers read a row through
 * gdwire.h (gdw_dialect_rule) and gdwire_check.h (gdw_dialect_family, ...), and only codec/ and
 * dialects/ include this file. The enums of the rules' values are public, in gdwire.h.
 */
#ifndef GDWIRE_DIALECTS_H
#define GDWIRE_DIALECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "codec/gdwire_check.h"

/* The rules that go together are one field each: a row points at the combination its engine has,
 * one of the few named in dialects.c (k_reals_*, k_keys_*, k_typed_*), so no row can hold a
 * combination no engine has. The codec reads each rule through gdw_row_rule (GDW_RULES, below). */

/* Reals: how math types and real arrays size their components, and how FLOAT is written
 * (k_reals_godot2: f32 everywhere, FLOAT too; _single: f32 components, FLOAT f32 or flagged f64;
 * _double_doc: f64 components, no flag; _flag64_single: bit 16 selects f64 components, which a
 * single build narrows to its float real_t (measured on 4.6.3), written f32; _flag64_double: bit 16
 * selects f64, and the encoder sets it). */
typedef struct gdw_reals_facts {
    uint8_t real_mode;          /* gdw_real_mode */
    bool encode_math_f64;       /* FLAG64: the encoder sets bit 16 (a precision=double build) */
    bool float_encode_f32_only; /* FLOAT is always written as f32 (2.x as released) */
    /* engine-exact: 64-bit components are narrowed to f32 and written back 32-bit (4.x single
     * builds; core/io/marshalls.cpp decode_double into real_t) */
    bool narrow_math_f64;
    /* the encoder writes a NaN FLOAT as f32, quieted: built with -ffast-math, its `double(f) != d`
     * test is false for NaN (3.0's platform/x11 and server detect.py; measured on 3.0-stable: nan
     * -> 0000c07f) */
    bool nan_written_f32;
} gdw_reals_facts;

/* Dictionary keys: which keys the engine's HashMap finds equal (engine-exact; engine/keys.c).
 * k_keys_as_written: not merged (2.x, and the documented Pandemonium table: not measured);
 * _godot3: merged, NaN equals NaN inside Arrays compared as keys, Dictionaries by instance (3.x
 * measured on 3.6.2 and 3.2.3, Pandemonium on v4.9.0); _godot4: merged, a String and a StringName
 * with the same text one key at the top (StringLikeVariantComparator; measured on 4.6.3);
 * _godot40: as Godot 4, and a StringName key becomes a String key (4.0-4.3: Dictionary::operator[]
 * stores `sn->operator String()`, 4.2 core/variant/dictionary.cpp:99-102; measured on a 4.3-stable
 * and a 4.2 build). */
typedef struct gdw_keys_facts {
    bool merge_dict_keys, nested_nan_equal, dicts_by_identity, string_like, name_to_string;
} gdw_keys_facts;

/* Strings: how the engine's readers check a string against the bytes left, at each place one is
 * read (gdw_string_place). k_strings_hardened: the shared _decode_string of the 2018 hardening
 * (#20558: 2.1.5+, 3.0.6+, 3.1+, 4.x, Pandemonium) wants the length and the padding, else
 * ERR_FILE_EOF, and refuses the old-form NodePath; _godot30 (3.0.0-3.0.5) and _godot2 (2.0-2.1.4)
 * check only that the bytes fit and ignore a UTF-8 failure, where a String and a PoolStringArray
 * entry step over their padding unchecked (a missing one leaves the engine's count of bytes left
 * below zero, so the next read fails with ERR_INVALID_DATA) while a NodePath part wants its
 * padding; and they read the old form (core/io/marshalls.cpp of 3.0-stable 9bd40269 and 2.0-stable
 * 9e2b9f8c: _decode_string / STRING, NODE_PATH, POOL_STRING_ARRAY). gdw_string_reader names the
 * combination. */
enum { GDW_STR_VALUE, GDW_STR_PATH_PART, GDW_STR_ARRAY_ENTRY, GDW_STR_PLACES };
typedef struct gdw_strings_facts {
    uint8_t reader; /* gdw_string_reader: which combination this is */
    /* gdw_engine_err when a string's bytes run past the end */
    uint8_t past_end_error[GDW_STR_PLACES];
    bool padding_unchecked[GDW_STR_PLACES]; /* the padding is stepped over, not checked */
    /* the old-form NodePath (a bare path string) is read */
    bool reads_old_nodepath;
    /* text that is not UTF-8 under utf8_rule is accepted as the empty string: the reader ignores
     * parse_utf8's failure, which leaves its fresh String empty (3.0.0-3.0.5, 2.0-2.1.4) */
    bool bad_utf8_empty;
} gdw_strings_facts;

/* How a script of the row's engines reads a Variant from bytes (`check` tells a user what to pass):
 * the call that decodes a byte array, the same allowing Objects, and the expression for the bytes
 * after the first N. Each is "<open>bytes<close>"; NULL where the engine has no such call or gdwire
 * has not read it in the engine's source. Godot 4.6.3 core/variant/variant_utility.cpp:1096-1117
 * and 1768-1771 (bytes_to_var, bytes_to_var_with_objects, which ignore bytes after the value:
 * decode_variant's r_len is nullptr), core/variant/variant_call.cpp:2764 and
 * core/templates/vector.h:227 (PackedByteArray.slice(begin, end = INT_MAX)); Godot 3.6.2
 * modules/gdscript/gdscript_functions.cpp:856-900 and 1876-1881 (bytes2var(bytes, allow_objects =
 * false)), core/pool_vector.h:448-469 (subarray(from, to): to inclusive, negative from the end);
 * Godot 3.0 and 3.1 have no allow_objects: their bytes2var and get_var decode Objects always
 * (docs/dialects/godot3.md); Godot 2.1 modules/gdscript/gd_functions.cpp BYTES_TO_VAR
 * (bytes2var(bytes), one argument); Pandemonium v4.9 modules/gdscript/gdscript_functions.cpp
 * (bytes2var(bytes, allow_objects), as Godot 3's). StreamPeer.get_var and the file's get_var read a
 * 32-bit length, then the value (4.6.3 core/io/stream_peer.cpp:502-515,
 * core/io/file_access.cpp:380-392; 3.6.2 core/io/stream_peer.cpp:332-345,
 * core/bind/core_bind.cpp:2339-2352). */
typedef struct gdw_script_facts {
    const char *who;                        /* the engines, as a sentence names them: "Godot 4" */
    const char *decode_open, *decode_close; /* "bytes_to_var(" ")" */
    /* "bytes_to_var_with_objects(" ")"; NULL: no call asks for Objects */
    const char *objects_open, *objects_close;
    /* "bytes.slice(" ")": around N; NULL: not confirmed in the source */
    const char *tail_open, *tail_close;
    /* the calls decode full Objects, unasked (Godot 3.0, 3.1) */
    bool objects_by_default;
} gdw_script_facts;

/* Typed containers: their header bits and what the engine makes of their elements. k_typed_none:
 * none (2.x, 3.x, 4.0-4.2, Pandemonium before v5); _godot43: ARRAY header bits 16-17,
 * ContainerTypeValidate::validate; _godot44: ARRAY bits 16-17 and DICTIONARY bits 16-19, converted
 * strictly; _pandemonium5: TYPED_ARRAY / PACKED_TYPED_ARRAY types, same type only. */
typedef struct gdw_typed_facts {
    bool array_bits; /* ARRAY header bits 16-17 = element type kind */
    bool dict_bits;  /* DICTIONARY header bits 16-19 = key/value kinds */
    uint8_t rule;    /* gdw_typed_rule: what typed containers keep, convert or drop */
} gdw_typed_facts;

/* Header rules: how ints are sized and which header and count bits exist. k_header_godot2: every
 * int 32 bits, the whole header a type id, count bit 31 "shared" (2.x); _int64: every int as flag +
 * i64 (3.0.x, #15383);
 * _minimal: i32 unless the value needs 64 bits (3.1+, 4.x, Pandemonium). */
typedef struct gdw_header_facts {
    uint8_t int_encoding; /* gdw_int_encoding */
    /* engine-exact: the whole u32 header must be < type_count, no flag bits exist (2.x as
     * released); compatible mode masks 0xFF */
    bool engine_header_whole;
    bool container_shared_bit; /* Array/Dictionary count bit 31 = "shared" (2.x); else ignored */
} gdw_header_facts;

/* Path and Object rules: RID, Object, NodePath and InputEvent payloads (the values whose payload
 * the engines changed between releases). k_objects_godot21, _godot20 (2.0: a JOYSTICK_MOTION
 * InputEvent carries the axis only), _godot3 (none of them), _null_as_class (3.0.6 and 3.1: the
 * encoder writes a null Object as an Object with no class), _godot300 (3.0.0-3.0.5: and the
 * old-form NodePath is read), _godot4 (RID id, NodePath("/") kept), _godot40 (4.0-4.2: RID id
 * only). */
typedef struct gdw_objects_facts {
    bool rid_has_id;         /* RID carries a u64 id (4.x); else header only */
    bool object_header_only; /* Object never carries a payload (2.x) */
    /* NodePath flag bit 1 = separate property (2.x); else extra subname */
    bool nodepath_property_bit;
    /* a NodePath without parts keeps its absolute flag: NodePath("/") (4.x); else it is the empty
     * path (2.x, 3.x) */
    bool nodepath_bare_absolute;
    /* compatible mode: a NodePath whose first word lacks bit 31 is the old format, a path string
     * without padding (2.0-2.1.4) */
    bool nodepath_old_string;
    /* the encoder writes a null Object as an OBJECT with an empty class name (3.0, 3.1 full-object
     * encoding), not as NIL */
    bool null_object_as_class;
    /* 2.x InputEvent JOYSTICK_MOTION carries an f32 value (every 2.1.x; 2.0 reads the axis only) */
    bool joystick_axis_value;
} gdw_objects_facts;

/* Text: the UTF-8 the engine's string reader accepts and what an accepted string holds.
 * k_text_godot21 (2.1.5+: lenient in compatible mode, bytes kept), _godot2 (2.0-2.1.4: and 3.x's
 * decoder's value), _godot35 (3.5+ and Pandemonium P2: surrogate pairs joined), _godot3 (3.0-3.4),
 * _godot3_kept (the Pandemonium docs' table: not measured), _strict (4.x, Pandemonium v3.8+). */
typedef struct gdw_text_facts {
    uint8_t utf8_rule; /* gdw_utf8_rule the engine applies */
    /* compatible mode: no UTF-8 check, padding may be missing (2.x before 2.1.5); engine-exact
     * follows utf8_rule */
    bool lenient_strings;
    uint8_t utf8_value; /* gdw_utf8_value: what an accepted string holds (engine-exact) */
} gdw_text_facts;

/* Engine defects modelled in engine-exact mode. k_defects_none, _pandemonium. */
typedef struct gdw_defects_facts {
    bool defect_projection_248; /* Projection decode wants 248 bytes left (Pandemonium) */
    bool defect_vec4_pool_w;    /* PoolVector4/4i arrays decode w from the z slot (Pandemonium) */
    /* Vector4/4i decode reads 16 bytes but moves on by 12, so in a container the next value starts
     * at w (Pandemonium v3.8+, core/io/marshalls.cpp `(*r_len) += 4 * 3`; found by a v4.9.0 build
     * reading its own packets) */
    bool defect_vec4_advance_12;
} gdw_defects_facts;

/* Above the Variants: the multiplayer layer the engines speak (session/). k_session_none, _api3,
 * _scene4. */
typedef struct gdw_session_facts {
    uint8_t multiplayer; /* gdw_multiplayer */
} gdw_session_facts;

struct gdw_dialect {
    const char *name; /* command-line name; a release row is "<dialect>@<release>" */
    /* byte 0 of a fuzz input names the row by this id (fuzzers/fuzz.h): the next free one for a new
     * row, never changed or reused, so committed corpora keep their meaning when rows are added.
     * Dense: 0 .. rows-1 */
    uint8_t fuzz_id;
    const char *release; /* the engine release whose behaviour the row models ("3.6") */
    /* a release row: the dialect it is a release of (same wire format); NULL for a dialect */
    const char *release_of;
    /* a release row: the groups of rules (the fields below: reals, keys, ..., space separated) in
     * which it differs from its dialect, every other group being the dialect's own
     * (codec:table_test holds both ways); NULL for a dialect */
    const char *differs;
    /* "YYYY-MM": when the newest engine release the row stands for came out; `check` names the
     * newest of dialects that read a packet alike. NULL for rows no one release stands for (the
     * Pandemonium fork, the documented double builds): they come after dated rows */
    const char *released;
    const char *aliases;            /* space-separated other names, "" if none */
    const char *engine;             /* the engine versions it speaks for */
    const char *family;             /* mole, godot3, pandemonium, godot4 */
    const gdw_script_facts *script; /* how its engines' scripts read bytes (the family's) */
    const char *summary;            /* one line for `gdwire dialects` */

    /* The groups of rules (above) */
    const gdw_reals_facts *reals;
    const gdw_keys_facts *keys;
    const gdw_typed_facts *typed;
    const gdw_strings_facts *strings;

    uint8_t type_count;   /* VARIANT_MAX: wire ids 0 .. type_count-1 exist */
    const uint8_t *types; /* wire id -> gdw_type */

    /* The other groups of rules */
    const gdw_header_facts *header;
    const gdw_objects_facts *objects;
    const gdw_text_facts *text;
    const gdw_defects_facts *defects;
    const gdw_session_facts *session;

    /* Where the row's expectations come from (README "Dialects"; issue 27) */
    /* the real engine that answered every conformance vector in this row (conformance/evidence/),
     * NULL if none has */
    const char *engine_evidence;
    /* one line: why no engine answers for this row, NULL if one does */
    const char *no_engine;
    /* the row describes documentation, not a released engine's wire: `check` ranks it below every
     * engine row that reads the packet as well */
    bool documented_only;
};


/* The rules, each once: its gdw_rule (GDW_RULE_<id>), its name (gdw_rule_name, `gdwire dialects
 * --json`) and where a row holds its value (the group a row points at, and its field there).
 * Everything that reads a rule goes through gdw_row_rule (the walk and the engine pass through
 * RULE, below, which notes it); gdw_dialect_rule and gdw_rule_name are made from this list, so a
 * rule's field is named here and in the rows, nowhere else. */
#define GDW_RULES(X) \
    X(REAL_MODE, "real_mode", reals, real_mode) \
    X(ENCODE_MATH_F64, "encode_math_f64", reals, encode_math_f64) \
    X(FLOAT_ENCODE_F32_ONLY, "float_encode_f32_only", reals, float_encode_f32_only) \
    X(NARROW_MATH_F64, "narrow_math_f64", reals, narrow_math_f64) \
    X(INT_ENCODING, "int_encoding", header, int_encoding) \
    X(ENGINE_HEADER_WHOLE, "engine_header_whole", header, engine_header_whole) \
    X(RID_HAS_ID, "rid_has_id", objects, rid_has_id) \
    X(OBJECT_HEADER_ONLY, "object_header_only", objects, object_header_only) \
    X(NODEPATH_PROPERTY_BIT, "nodepath_property_bit", objects, nodepath_property_bit) \
    X(NODEPATH_BARE_ABSOLUTE, "nodepath_bare_absolute", objects, nodepath_bare_absolute) \
    X(CONTAINER_SHARED_BIT, "container_shared_bit", header, container_shared_bit) \
    X(TYPED_ARRAY_BITS, "typed_array_bits", typed, array_bits) \
    X(TYPED_DICT_BITS, "typed_dict_bits", typed, dict_bits) \
    X(UTF8_RULE, "utf8_rule", text, utf8_rule) \
    X(LENIENT_STRINGS, "lenient_strings", text, lenient_strings) \
    X(UTF8_VALUE, "utf8_value", text, utf8_value) \
    X(NODEPATH_OLD_STRING, "nodepath_old_string", objects, nodepath_old_string) \
    X(DEFECT_PROJECTION_248, "defect_projection_248", defects, defect_projection_248) \
    X(DEFECT_VEC4_POOL_W, "defect_vec4_pool_w", defects, defect_vec4_pool_w) \
    X(DEFECT_VEC4_ADVANCE_12, "defect_vec4_advance_12", defects, defect_vec4_advance_12) \
    X(JOYSTICK_AXIS_VALUE, "joystick_axis_value", objects, joystick_axis_value) \
    X(NULL_OBJECT_AS_CLASS, "null_object_as_class", objects, null_object_as_class) \
    X(TYPED_RULE, "typed_rule", typed, rule) \
    X(MERGE_DICT_KEYS, "merge_dict_keys", keys, merge_dict_keys) \
    X(KEYS_NESTED_NAN_EQUAL, "keys_nested_nan_equal", keys, nested_nan_equal) \
    X(KEYS_DICTS_BY_IDENTITY, "keys_dicts_by_identity", keys, dicts_by_identity) \
    X(KEYS_STRING_LIKE, "keys_string_like", keys, string_like) \
    X(KEYS_NAME_TO_STRING, "keys_name_to_string", keys, name_to_string) \
    X(STRING_READER, "string_reader", strings, reader) \
    X(FLOAT_NAN_F32, "float_nan_f32", reals, nan_written_f32) \
    X(MULTIPLAYER, "multiplayer", session, multiplayer)

/* Rule r's value in row d (not NULL): 0 or 1 for a yes-or-no rule, else a value of its enum; -1 for
 * no rule. With a constant r it folds to the one load of the field. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int
gdw_row_rule(const gdw_dialect *d, gdw_rule r) {
    switch (r) {
#define GDW_RULE_CASE(id, name, group, field) \
    case GDW_RULE_##id: return (int)d->group->field;
        GDW_RULES(GDW_RULE_CASE)
#undef GDW_RULE_CASE
    case GDW_RULE_COUNT: break;
    }
    return -1;
}

/* How the decoder's walk and the engine pass read their row: RULE(c, GDW_RULE_X) is the rule's
 * value, and notes it in c->read.rules (c has `row`, the row, and `read`, a gdw_rules_read), so
 * that a row that agrees on every rule noted walks the packet alike (gdw_dialects_read_alike).
 * STRICT_RULE notes it in c->read.strict_rules: a rule read only to find where strict mode would
 * refuse (a compatible walk's shadow). A rule is noted where it is read and nowhere else, whatever
 * stands beside it: each site tests the input first and reads the rule only where the input makes
 * it matter (codec/tests/noting_test holds every rule not noted to change nothing). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int
gdw_rule_noted(uint64_t *noted, const gdw_dialect *d, gdw_rule r) {
    *noted |= (uint64_t)1 << r;
    return gdw_row_rule(d, r);
}
#define RULE(c, r) gdw_rule_noted(&(c)->read.rules, (c)->row, (r))
#define STRICT_RULE(c, r) gdw_rule_noted(&(c)->read.strict_rules, (c)->row, (r))
static inline const gdw_strings_facts *gdw_strings_of(const gdw_dialect *d) { return d->strings; }

#endif

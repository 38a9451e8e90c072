/* SPDX-License-Identifier: MIT */
/* dialects.h — what a dialect is: a const table of wire type ids plus named quirk fields.
 *
 * The codec never asks "which dialect is this?"; it reads these fields. Adding a dialect
 * means adding one table row in dialects.c and its page under docs/dialects/. The struct is the
 * library's own: programs, the command, the conformance runner and the fuzzers read a row through
 * gdwire.h (gdw_dialect_family, ..., gdw_dialect_rule), and only codec/ and dialects/ include this
 * file. The enums of the rules' values are public, in gdwire.h.
 */
#ifndef GDWIRE_DIALECTS_H
#define GDWIRE_DIALECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "codec/gdwire.h"

struct gdw_dialect {
    const char *name;      /* command-line name; a release row is "<dialect>@<release>" */
    uint8_t fuzz_id;       /* byte 0 of a fuzz input names the row by this id (fuzzers/fuzz.h): the
                              next free one for a new row, never changed or reused, so committed
                              corpora keep their meaning when rows are added. Dense: 0 .. rows-1 */
    const char *release;   /* the engine release whose behaviour the row models ("3.6") */
    const char *release_of;/* a release row: the dialect it is a release of (same wire format);
                              NULL for a dialect */
    const char *released;  /* "YYYY-MM": when the newest engine release the row stands for came
                              out; `check` names the newest of dialects that read a packet alike.
                              NULL for rows no one release stands for (the Pandemonium fork, the
                              documented double builds): they come after dated rows */
    const char *aliases;   /* space-separated other names, "" if none */
    const char *engine;    /* the engine versions it speaks for */
    const char *family;    /* mole, godot3, pandemonium, godot4 */
    const char *summary;   /* one line for `gdwire dialects` */

    uint8_t type_count;    /* VARIANT_MAX: wire ids 0 .. type_count-1 exist */
    const uint8_t *types;  /* wire id -> gdw_type */

    /* Reals */
    uint8_t real_mode;            /* gdw_real_mode, for math types and real arrays */
    bool encode_math_f64;         /* FLAG64 mode: the encoder sets bit 16 (precision=double build) */
    bool float_encode_f32_only;   /* FLOAT is always written as f32 (2.x as released) */
    bool narrow_math_f64;         /* engine-exact: a single-precision FLAG64 build reads 64-bit math
                                     components into its float real_t, so each is narrowed to f32
                                     (1e300 becomes inf) and written back 32-bit (4.x single builds;
                                     measured on 4.6.3; core/io/marshalls.cpp decode_double into real_t) */

    /* Ints */
    uint8_t int_encoding;         /* gdw_int_encoding */

    /* Header */
    bool engine_header_whole;     /* engine-exact: the whole u32 header must be < type_count, no
                                     flag bits exist (2.x as released); compatible mode masks 0xFF */

    /* Payload variations */
    bool rid_has_id;              /* RID carries a u64 id (4.x); else header only */
    bool object_header_only;      /* Object never carries a payload (2.x) */
    bool nodepath_property_bit;   /* NodePath flag bit 1 = separate property (2.x); else extra subname */
    bool nodepath_bare_absolute;  /* a NodePath without parts keeps its absolute flag: NodePath("/")
                                     (4.x); else it is the empty path (2.x, 3.x) */
    bool container_shared_bit;    /* Array/Dictionary count bit 31 = "shared" (2.x); else ignored */
    bool typed_array_bits;        /* ARRAY header bits 16-17 = element type kind (4.3+) */
    bool typed_dict_bits;         /* DICTIONARY header bits 16-19 = key/value kinds (4.4+) */

    /* Strings */
    uint8_t utf8_rule;            /* gdw_utf8_rule the engine applies */
    bool lenient_strings;         /* compatible mode: no UTF-8 check, padding may be missing
                                     (2.x before 2.1.5); engine-exact follows utf8_rule */
    uint8_t utf8_value;           /* gdw_utf8_value: what an accepted string holds (engine-exact) */
    bool nodepath_old_string;     /* compatible mode: a NodePath whose first word lacks bit 31 is the
                                     old format, a path string without padding (2.0-2.1.4) */

    /* Engine defects modelled in engine-exact mode */
    bool defect_projection_248;   /* Projection decode wants 248 bytes left (Pandemonium) */
    bool defect_vec4_pool_w;      /* PoolVector4/4i arrays decode w from the z slot (Pandemonium) */
    bool defect_vec4_advance_12;  /* Vector4/4i decode reads 16 bytes but moves on by 12, so in a
                                     container the next value starts at w (Pandemonium v3.8+,
                                     core/io/marshalls.cpp `(*r_len) += 4 * 3`; found by a v4.9.0
                                     build reading its own packets) */
    bool joystick_axis_value;     /* 2.x InputEvent JOYSTICK_MOTION carries an f32 value (every 2.1.x;
                                     2.0 reads the axis only) */

    /* The engine's encoder (what its script API decodes by default is not a wire rule:
       gdw_dialect_objects_by_default, dialects.c) */
    bool null_object_as_class;    /* the encoder writes a null Object as an OBJECT with an empty
                                     class name (3.0, 3.1 full-object encoding), not as NIL */

    /* What the engine holds after decoding (engine-exact mode; codec/engine/settle.c) */
    uint8_t typed_rule;           /* gdw_typed_rule: what typed containers keep, convert or drop */
    bool merge_dict_keys;         /* Dictionary keys the engine's HashMap finds equal are one entry:
                                     first key and place, last value (4.x measured on 4.6.3; 3.x
                                     on 3.6.2 and 3.2.3) */
    bool keys_nested_nan_equal;   /* ... and inside Arrays and Dictionaries compared as keys, NaN
                                     equals NaN (3.x); else only at the top (4.x) */
    bool keys_dicts_by_identity;  /* ... and two Dictionaries are never one key (3.x compares them
                                     by instance) */
    bool keys_string_like;        /* ... and a String and a StringName with the same text are one
                                     key (4.x StringLikeVariantComparator) */
    bool keys_name_to_string;     /* a StringName key becomes a String key (Godot 4.3 Dictionary::
                                     operator[] stores `sn->operator String()`; 4.4+ keeps it;
                                     measured on a 4.3-stable build) */

    /* Where the row's expectations come from (README "Dialects"; issue 27) */
    const char *engine_evidence;  /* the real engine that answered every conformance vector in this
                                     row (conformance/evidence/), NULL if none has */
    const char *no_engine;        /* one line: why no engine answers for this row, NULL if one does */
    bool documented_only;         /* the row describes documentation, not a released engine's
                                     wire: `check` ranks it below every engine row that reads the
                                     packet as well */
};

#endif

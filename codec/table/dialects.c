/* SPDX-License-Identifier: MIT */
/* dialects.c — the dialect tables. Sources and engine defects for each row are written in
 * docs/dialects/<name>.md; docs/dialects.md shows them side by side. */
#include "codec/table/dialects.h"

#include <string.h>

/* Godot 2.x (core/variant.h, 2.x): ids 0-28. */
static const uint8_t k_mole_types[] = {
    GDW_NIL,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_VECTOR2,
    GDW_RECT2,
    GDW_VECTOR3,
    GDW_TRANSFORM2D,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_COLOR,
    GDW_IMAGE,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_INPUT_EVENT,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_REAL_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
};

/* Godot 3.x: ids 0-26 (also Pandemonium before its first table change, and its docs). */
static const uint8_t k_godot3_types[] = {
    GDW_NIL,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_VECTOR2,
    GDW_RECT2,
    GDW_VECTOR3,
    GDW_TRANSFORM2D,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_COLOR,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_REAL_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
};

/* Pandemonium layout P2 (v3.5-v3.7): ids 0-32. */
static const uint8_t k_pandemonium_p2_types[] = {
    GDW_NIL,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_VECTOR2,
    GDW_VECTOR2I,
    GDW_RECT2,
    GDW_RECT2I,
    GDW_VECTOR3,
    GDW_VECTOR3I,
    GDW_TRANSFORM2D,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_COLOR,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_STRING_NAME,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_REAL_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR2I_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_VECTOR3I_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
};

/* Pandemonium layout P3 (v3.8-v4.9): ids 0-37. */
static const uint8_t k_pandemonium_p3_types[] = {
    GDW_NIL,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_RECT2,
    GDW_RECT2I,
    GDW_VECTOR2,
    GDW_VECTOR2I,
    GDW_VECTOR3,
    GDW_VECTOR3I,
    GDW_VECTOR4,
    GDW_VECTOR4I,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_TRANSFORM2D,
    GDW_PROJECTION,
    GDW_COLOR,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_STRING_NAME,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_REAL_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR2I_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_VECTOR3I_ARRAY,
    GDW_PACKED_VECTOR4_ARRAY,
    GDW_PACKED_VECTOR4I_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
};

/* Pandemonium layout P4 (v5.x): ids 0-39, typed arrays at 27/28. */
static const uint8_t k_pandemonium_p4_types[] = {
    GDW_NIL,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_RECT2,
    GDW_RECT2I,
    GDW_VECTOR2,
    GDW_VECTOR2I,
    GDW_VECTOR3,
    GDW_VECTOR3I,
    GDW_VECTOR4,
    GDW_VECTOR4I,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_TRANSFORM2D,
    GDW_PROJECTION,
    GDW_COLOR,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_STRING_NAME,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_TYPED_ARRAY,
    GDW_PACKED_TYPED_ARRAY,
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_REAL_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR2I_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_VECTOR3I_ARRAY,
    GDW_PACKED_VECTOR4_ARRAY,
    GDW_PACKED_VECTOR4I_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
};

/* Godot 4.x (core/variant/variant.h): ids 0-38; 4.0-4.2 stop before 38. */
static const uint8_t k_godot4_types[] = {
    GDW_NIL,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_VECTOR2,
    GDW_VECTOR2I,
    GDW_RECT2,
    GDW_RECT2I,
    GDW_VECTOR3,
    GDW_VECTOR3I,
    GDW_TRANSFORM2D,
    GDW_VECTOR4,
    GDW_VECTOR4I,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_PROJECTION,
    GDW_COLOR,
    GDW_STRING_NAME,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_CALLABLE,
    GDW_SIGNAL,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_INT64_ARRAY,
    GDW_PACKED_FLOAT32_ARRAY,
    GDW_PACKED_FLOAT64_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
    GDW_PACKED_VECTOR4_ARRAY,
};

/* The combinations of each group of rules that engines have (dialects.h). */
/* The scripts' calls (gdw_script_facts, with their sources). */
static const gdw_script_facts k_script_mole = {"Godot 2", "bytes2var(", ")",  NULL,
                                               NULL,      NULL,         NULL, false};
static const gdw_script_facts k_script_godot3 = {
    "Godot 3", "bytes2var(", ")", "bytes2var(", ", true)", "bytes.subarray(", ", -1)", false};
static const gdw_script_facts k_script_godot3_objects = {
    "Godot 3.0-3.1", "bytes2var(", ")", NULL, NULL, NULL, NULL, true};
static const gdw_script_facts k_script_pandemonium = {
    "Pandemonium", "bytes2var(", ")", "bytes2var(", ", true)", NULL, NULL, false};
static const gdw_script_facts k_script_godot4 = {
    "Godot 4", "bytes_to_var(", ")", "bytes_to_var_with_objects(", ")", "bytes.slice(", ")", false};

static const gdw_reals_facts k_reals_godot2 = {.real_mode = GDW_REALS_F32,
                                               .encode_math_f64 = false,
                                               .float_encode_f32_only = true,
                                               .narrow_math_f64 = false,
                                               .nan_written_f32 = false};
static const gdw_reals_facts k_reals_single = {.real_mode = GDW_REALS_F32,
                                               .encode_math_f64 = false,
                                               .float_encode_f32_only = false,
                                               .narrow_math_f64 = false,
                                               .nan_written_f32 = false};
static const gdw_reals_facts k_reals_single_fast_math = {.real_mode = GDW_REALS_F32,
                                                         .encode_math_f64 = false,
                                                         .float_encode_f32_only = false,
                                                         .narrow_math_f64 = false,
                                                         .nan_written_f32 = true};
static const gdw_reals_facts k_reals_double_doc = {.real_mode = GDW_REALS_F64,
                                                   .encode_math_f64 = false,
                                                   .float_encode_f32_only = false,
                                                   .narrow_math_f64 = false,
                                                   .nan_written_f32 = false};
static const gdw_reals_facts k_reals_flag64_single = {.real_mode = GDW_REALS_FLAG64,
                                                      .encode_math_f64 = false,
                                                      .float_encode_f32_only = false,
                                                      .narrow_math_f64 = true,
                                                      .nan_written_f32 = false};
static const gdw_reals_facts k_reals_flag64_double = {.real_mode = GDW_REALS_FLAG64,
                                                      .encode_math_f64 = true,
                                                      .float_encode_f32_only = false,
                                                      .narrow_math_f64 = false,
                                                      .nan_written_f32 = false};
static const gdw_keys_facts k_keys_as_written = {.merge_dict_keys = false,
                                                 .nested_nan_equal = false,
                                                 .dicts_by_identity = false,
                                                 .string_like = false,
                                                 .name_to_string = false};
static const gdw_keys_facts k_keys_godot3 = {.merge_dict_keys = true,
                                             .nested_nan_equal = true,
                                             .dicts_by_identity = true,
                                             .string_like = false,
                                             .name_to_string = false};
static const gdw_keys_facts k_keys_godot4 = {.merge_dict_keys = true,
                                             .nested_nan_equal = false,
                                             .dicts_by_identity = false,
                                             .string_like = true,
                                             .name_to_string = false};
/* 4.0-4.3: StringName keys stored as String */
static const gdw_keys_facts k_keys_godot40 = {.merge_dict_keys = true,
                                              .nested_nan_equal = false,
                                              .dicts_by_identity = false,
                                              .string_like = true,
                                              .name_to_string = true};
/* past_end_error and padding_unchecked by place: a String value, a NodePath part, a string array
 * entry */
static const gdw_strings_facts k_strings_hardened = {
    GDW_STRINGS_HARDENED,
    {GDW_ENGINE_ERR_FILE_EOF, GDW_ENGINE_ERR_FILE_EOF, GDW_ENGINE_ERR_FILE_EOF},
    {false, false, false},
    false,
    false};
static const gdw_strings_facts k_strings_godot30 = {
    GDW_STRINGS_GODOT30,
    {GDW_ENGINE_ERR_FILE_EOF, GDW_ENGINE_ERR_INVALID_DATA, GDW_ENGINE_ERR_INVALID_DATA},
    {true, false, true},
    true,
    true};
static const gdw_strings_facts k_strings_godot2 = {
    GDW_STRINGS_GODOT2,
    {GDW_ENGINE_ERR_INVALID_DATA, GDW_ENGINE_ERR_INVALID_DATA, GDW_ENGINE_ERR_INVALID_DATA},
    {true, false, true},
    true,
    true};
static const gdw_typed_facts k_typed_none = {
    .array_bits = false, .dict_bits = false, .rule = GDW_TYPED_AS_WRITTEN};
static const gdw_typed_facts k_typed_godot43 = {
    .array_bits = true, .dict_bits = false, .rule = GDW_TYPED_VALIDATE};
static const gdw_typed_facts k_typed_godot44 = {
    .array_bits = true, .dict_bits = true, .rule = GDW_TYPED_CONVERT};
static const gdw_typed_facts k_typed_pandemonium5 = {
    .array_bits = false, .dict_bits = false, .rule = GDW_TYPED_SAME_TYPE};
static const gdw_header_facts k_header_godot2 = {
    .int_encoding = GDW_INT_ALWAYS32, .engine_header_whole = true, .container_shared_bit = true};
static const gdw_header_facts k_header_int64 = {
    .int_encoding = GDW_INT_ALWAYS64, .engine_header_whole = false, .container_shared_bit = false};
static const gdw_header_facts k_header_minimal = {
    .int_encoding = GDW_INT_MINIMAL, .engine_header_whole = false, .container_shared_bit = false};
/* rid_has_id, object_header_only, nodepath_property_bit, nodepath_bare_absolute,
 * nodepath_old_string, null_object_as_class, joystick_axis_value */
static const gdw_objects_facts k_objects_godot21 = {.rid_has_id = false,
                                                    .object_header_only = true,
                                                    .nodepath_property_bit = true,
                                                    .nodepath_bare_absolute = false,
                                                    .nodepath_old_string = true,
                                                    .null_object_as_class = false,
                                                    .joystick_axis_value = true};
static const gdw_objects_facts k_objects_godot20 = {.rid_has_id = false,
                                                    .object_header_only = true,
                                                    .nodepath_property_bit = true,
                                                    .nodepath_bare_absolute = false,
                                                    .nodepath_old_string = true,
                                                    .null_object_as_class = false,
                                                    .joystick_axis_value = false};
static const gdw_objects_facts k_objects_godot3 = {.rid_has_id = false,
                                                   .object_header_only = false,
                                                   .nodepath_property_bit = false,
                                                   .nodepath_bare_absolute = false,
                                                   .nodepath_old_string = false,
                                                   .null_object_as_class = false,
                                                   .joystick_axis_value = false};
static const gdw_objects_facts k_objects_null_as_class = {.rid_has_id = false,
                                                          .object_header_only = false,
                                                          .nodepath_property_bit = false,
                                                          .nodepath_bare_absolute = false,
                                                          .nodepath_old_string = false,
                                                          .null_object_as_class = true,
                                                          .joystick_axis_value = false};
static const gdw_objects_facts k_objects_godot300 = {.rid_has_id = false,
                                                     .object_header_only = false,
                                                     .nodepath_property_bit = false,
                                                     .nodepath_bare_absolute = false,
                                                     .nodepath_old_string = true,
                                                     .null_object_as_class = true,
                                                     .joystick_axis_value = false};
static const gdw_objects_facts k_objects_godot4 = {.rid_has_id = true,
                                                   .object_header_only = false,
                                                   .nodepath_property_bit = false,
                                                   .nodepath_bare_absolute = true,
                                                   .nodepath_old_string = false,
                                                   .null_object_as_class = false,
                                                   .joystick_axis_value = false};
static const gdw_objects_facts k_objects_godot40 = {.rid_has_id = true,
                                                    .object_header_only = false,
                                                    .nodepath_property_bit = false,
                                                    .nodepath_bare_absolute = false,
                                                    .nodepath_old_string = false,
                                                    .null_object_as_class = false,
                                                    .joystick_axis_value = false};
static const gdw_text_facts k_text_godot21 = {
    .utf8_rule = GDW_UTF8_GODOT3, .lenient_strings = true, .utf8_value = GDW_UTF8_VALUE_BYTES};
static const gdw_text_facts k_text_godot2 = {
    .utf8_rule = GDW_UTF8_GODOT3, .lenient_strings = true, .utf8_value = GDW_UTF8_VALUE_GODOT3};
static const gdw_text_facts k_text_godot35 = {
    .utf8_rule = GDW_UTF8_GODOT3, .lenient_strings = false, .utf8_value = GDW_UTF8_VALUE_GODOT35};
static const gdw_text_facts k_text_godot3 = {
    .utf8_rule = GDW_UTF8_GODOT3, .lenient_strings = false, .utf8_value = GDW_UTF8_VALUE_GODOT3};
static const gdw_text_facts k_text_godot3_kept = {
    .utf8_rule = GDW_UTF8_GODOT3, .lenient_strings = false, .utf8_value = GDW_UTF8_VALUE_BYTES};
static const gdw_text_facts k_text_strict = {
    .utf8_rule = GDW_UTF8_STRICT, .lenient_strings = false, .utf8_value = GDW_UTF8_VALUE_BYTES};
static const gdw_defects_facts k_defects_none = {
    .defect_projection_248 = false, .defect_vec4_pool_w = false, .defect_vec4_advance_12 = false};
static const gdw_defects_facts k_defects_pandemonium = {
    .defect_projection_248 = true, .defect_vec4_pool_w = true, .defect_vec4_advance_12 = true};
static const gdw_session_facts k_session_none = {GDW_MULTIPLAYER_NONE};
static const gdw_session_facts k_session_api3 = {GDW_MULTIPLAYER_API3};
static const gdw_session_facts k_session_scene4 = {GDW_MULTIPLAYER_SCENE4};

#define N(a) ((uint8_t)(sizeof(a) / sizeof((a)[0])))

/* The dialects: one row per wire format. Each models its newest engine release (`release`);
 * k_releases below holds the older releases whose engines behave differently on the same
 * wire format. Only non-default fields are named, in the order of struct gdw_dialect (C++20,
 * which compiles this file too, wants that order; the amalgamation test checks it). */
static const gdw_dialect k_dialects[] = {
    {.name = "mole",
     .fuzz_id = 0,
     .release = "2.1",
     .released = "2016-08",
     .aliases = "godot2 godot2.1 mole@2.1",
     .engine = "Godot 2.0-2.1.x",
     .family = "mole",
     .script = &k_script_mole,
     .summary = "Godot 2 legacy: ids 0-28 with Image and InputEvent, 32-bit ints and reals",
     .reals = &k_reals_godot2,
     .keys = &k_keys_as_written,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_mole_types),
     .types = k_mole_types,
     .header = &k_header_godot2,
     .objects = &k_objects_godot21,
     .text = &k_text_godot21,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = NULL,
     .no_engine =
         "no reachable source: 2.1.5-2.1.6, whose hardened string reader this row models, are on "
         "Godot's 2.1 branch; the 2.1 branch point is the engine of mole@2.1.0 (2.1.0-2.1.4)"},
    {.name = "godot3",
     .fuzz_id = 1,
     .release = "3.6",
     .released = "2024-09",
     .aliases = "godot3.5 godot3.6 godot3@3.5 godot3@3.6",
     .engine = "Godot 3.1-3.6",
     .family = "godot3",
     .script = &k_script_godot3,
     .summary = "Godot 3: ids 0-26, bit 16 = 64-bit int/float or object id",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_godot35,
     .defects = &k_defects_none,
     .session = &k_session_api3,
     .engine_evidence = "Godot 3.6.2 (Debian sid godot3-server 3.6.2+ds-1)",
     .no_engine = NULL},
    {.name = "godot3.0",
     .fuzz_id = 2,
     .release = "3.0.6",
     .released = "2018-07",
     .aliases = "godot3@3.0",
     .engine = "Godot 3.0.6 (3.0.0-3.0.5: godot3.0@3.0.0)",
     .family = "godot3",
     .script = &k_script_godot3_objects,
     .summary =
         "Godot 3.0: as godot3, but every int is written as 64-bit, objects in full by default",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_int64,
     .objects = &k_objects_null_as_class,
     .text = &k_text_godot3,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = NULL,
     .no_engine = "no reachable source: 3.0.6 is on Godot's 3.0 branch (the master history has "
                  "3.0-stable, measured as godot3.0@3.0.0), and Debian shipped it only in buster, "
                  "gone from the mirror; the hardening it adds (#20558) was made on master and is "
                  "3.1-stable's reader, measured as godot3@3.1"},
    {.name = "godot3-double",
     .fuzz_id = 3,
     .release = "3.6",
     .aliases = "",
     .engine = "Godot 3 precision=double, as documented",
     .family = "godot3",
     .script = &k_script_godot3,
     .summary = "Godot 3 documented double build: real_t fields are f64, no flag",
     .reals = &k_reals_double_doc,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_godot35,
     .defects = &k_defects_none,
     .session = &k_session_api3,
     .engine_evidence = NULL,
     .no_engine =
         "documented only: no Godot 3 with 64-bit real_t compiles, its own decoder first (3.6.2 "
         "core/io/marshalls.cpp:593-603 gives a PoolVector<float> to a Variant; "
         "tools/engines/build godot3.6-double, from Debian's godot3 source), and that decoder "
         "reads every math component as f32 whatever real_t is (marshalls.cpp:179-190)",
     .documented_only = true},
    {.name = "pandemonium",
     .fuzz_id = 4,
     .aliases = "pandemonium-4",
     .engine = "Pandemonium v3.8-v4.9 (layout P3)",
     .family = "pandemonium",
     .script = &k_script_pandemonium,
     .summary = "Pandemonium P3: ids 0-37 with *i vectors, Vector4, Projection, StringName",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_pandemonium_p3_types),
     .types = k_pandemonium_p3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_strict,
     .defects = &k_defects_pandemonium,
     .session = &k_session_none,
     .engine_evidence = "Pandemonium v4.9.0 and v3.8.0, each agreeing with every vector: built "
                        "from Relintai/pandemonium_engine@43ca7ef9 and @8dd5dcb6 (provenance: "
                        "conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "pandemonium-double",
     .fuzz_id = 5,
     .aliases = "",
     .engine = "Pandemonium v3.8-v4.9 precision=double, as documented",
     .family = "pandemonium",
     .script = &k_script_pandemonium,
     .summary = "Pandemonium P3 documented double build: real_t fields are f64",
     .reals = &k_reals_double_doc,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_pandemonium_p3_types),
     .types = k_pandemonium_p3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_strict,
     .defects = &k_defects_pandemonium,
     .session = &k_session_none,
     .engine_evidence = NULL,
     .no_engine = "documented only: no Pandemonium with 64-bit real_t compiles, its own decoder "
                  "first (v4.9.0 core/io/marshalls.cpp:686-696 gives a PoolVector<float> to a "
                  "Variant; provenance: conformance/evidence/built-engines.md), and that decoder "
                  "reads math as f32 (marshalls.cpp:208-219)",
     .documented_only = true},
    {.name = "pandemonium-3.5",
     .fuzz_id = 6,
     .aliases = "pandemonium-p2",
     .engine = "Pandemonium v3.5-v3.7 (layout P2)",
     .family = "pandemonium",
     .script = &k_script_pandemonium,
     .summary = "Pandemonium P2: ids 0-32 with Vector2i/3i, Rect2i, StringName",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_pandemonium_p2_types),
     .types = k_pandemonium_p2_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_godot35,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = "Pandemonium v3.5.0 and v3.7.0, each agreeing with every vector: built "
                        "from Relintai/pandemonium_engine@4b2f580f and @cdbcabc9 (provenance: "
                        "conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "pandemonium-5",
     .fuzz_id = 7,
     .aliases = "pandemonium-p4",
     .engine = "Pandemonium v5.x (layout P4)",
     .family = "pandemonium",
     .script = &k_script_pandemonium,
     .summary = "Pandemonium P4: ids 0-39 with TYPED_ARRAY and PACKED_TYPED_ARRAY",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_pandemonium5,
     .strings = &k_strings_hardened,
     .type_count = N(k_pandemonium_p4_types),
     .types = k_pandemonium_p4_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_strict,
     .defects = &k_defects_pandemonium,
     .session = &k_session_none,
     .engine_evidence = "Pandemonium v5.2.0, built from Relintai/pandemonium_engine@1585b099 "
                        "(provenance: conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "pandemonium-legacy",
     .fuzz_id = 8,
     .aliases = "pandemonium-p0",
     .engine = "the Godot 3 table of Pandemonium's docs",
     .family = "pandemonium",
     .script = &k_script_pandemonium,
     .summary = "Pandemonium as its docs describe it: the Godot 3 table (ids 0-26)",
     .reals = &k_reals_single,
     .keys = &k_keys_as_written,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_godot3_kept,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = NULL,
     .no_engine = "documented only: no Pandemonium release wrote the Godot 3 table; it lived in "
                  "the repository from 2022-03-15 (49f8e8c3) to 2022-03-21 (527cfb88, Vector2i "
                  "added), before the first tag v3.5.0",
     .documented_only = true},
    {.name = "godot4",
     .fuzz_id = 9,
     .release = "4.6",
     .released = "2026-01",
     .aliases = "godot4.4 godot4.5 godot4.6 godot4@4.6",
     .engine = "Godot 4.4 and newer",
     .family = "godot4",
     .script = &k_script_godot4,
     .summary = "Godot 4.4+: ids 0-38, typed Array and typed Dictionary headers",
     .reals = &k_reals_flag64_single,
     .keys = &k_keys_godot4,
     .typed = &k_typed_godot44,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot4_types),
     .types = k_godot4_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot4,
     .text = &k_text_strict,
     .defects = &k_defects_none,
     .session = &k_session_scene4,
     .engine_evidence = "Godot 4.6.3 (Debian sid godot 4.6.3+ds-3)",
     .no_engine = NULL},
    {.name = "godot4.3",
     .fuzz_id = 10,
     .release = "4.3",
     .released = "2024-08",
     .aliases = "godot4@4.3",
     .engine = "Godot 4.3",
     .family = "godot4",
     .script = &k_script_godot4,
     .summary = "Godot 4.3: ids 0-38, typed Array header only",
     .reals = &k_reals_flag64_single,
     .keys = &k_keys_godot40,
     .typed = &k_typed_godot43,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot4_types),
     .types = k_godot4_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot4,
     .text = &k_text_strict,
     .defects = &k_defects_none,
     .session = &k_session_scene4,
     .engine_evidence = "Godot 4.3-stable, built from TriggerCoder/TurboDot3D@21dd2992, a "
                        "4.3-stable import (provenance: conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "godot4.0",
     .fuzz_id = 11,
     .release = "4.2",
     .released = "2023-11",
     .aliases = "godot4.1 godot4.2",
     .engine = "Godot 4.0-4.2",
     .family = "godot4",
     .script = &k_script_godot4,
     .summary = "Godot 4.0-4.2: ids 0-37, no typed containers",
     .reals = &k_reals_flag64_single,
     .keys = &k_keys_godot40,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot4_types) - 1,
     .types = k_godot4_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot40,
     .text = &k_text_strict,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence =
         "Godot 4.2 (4.2.3-rc, the 4.2 branch after 4.2.2-stable), built from "
         "WhalesState/godot-4.2@d3cb560e (provenance: conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "godot4-double",
     .fuzz_id = 12,
     .aliases = "godot4.4-double",
     .engine = "Godot 4.4+ precision=double",
     .family = "godot4",
     .script = &k_script_godot4,
     .summary = "Godot 4.4+ double build: bit 16 on every math type, reals f64",
     .reals = &k_reals_flag64_double,
     .keys = &k_keys_godot4,
     .typed = &k_typed_godot44,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot4_types),
     .types = k_godot4_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot4,
     .text = &k_text_strict,
     .defects = &k_defects_none,
     .session = &k_session_scene4,
     .engine_evidence = "Godot 4.6.3 precision=double, built from Debian's godot 4.6.3+ds-2 source "
                        "by tools/engines/build godot4.6-double",
     .no_engine = NULL},
};
/* Engine releases that read a dialect's wire format differently from its newest release: the
 * same fields, named "<dialect>@<release>". Sources and measurements: docs/dialects/<dialect>.md.
 * */
static const gdw_dialect k_releases[] = {
    {.name = "mole@2.0",
     .fuzz_id = 13,
     .release = "2.0",
     .release_of = "mole",
     .differs = "text objects strings",
     .released = "2016-02",
     .aliases = "godot2.0",
     .engine = "Godot 2.0.x",
     .family = "mole",
     .script = &k_script_mole,
     .summary = "Godot 2.0: strings read without the 2018 hardening; a JOYSTICK_MOTION InputEvent "
                "carries the axis only",
     .reals = &k_reals_godot2,
     .keys = &k_keys_as_written,
     .typed = &k_typed_none,
     .strings = &k_strings_godot2,
     .type_count = N(k_mole_types),
     .types = k_mole_types,
     .header = &k_header_godot2,
     .objects = &k_objects_godot20,
     .text = &k_text_godot2,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = "Godot 2.0-stable, built from Godot's master history, "
                        "mehdigoom/ValjangEngine4.0.x@9e2b9f8c (provenance: "
                        "conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "mole@2.1.0",
     .fuzz_id = 17,
     .release = "2.1.0",
     .release_of = "mole",
     .differs = "text strings",
     .released = "2016-08",
     .aliases = "godot2.1.0 godot2.1.1 godot2.1.2 godot2.1.3 godot2.1.4",
     .engine = "Godot 2.1.0-2.1.4 (measured: the 2.1 branch point)",
     .family = "mole",
     .script = &k_script_mole,
     .summary = "Godot 2.1 before 2.1.5: strings read without the 2018 hardening; a "
                "JOYSTICK_MOTION InputEvent carries axis and value",
     .reals = &k_reals_godot2,
     .keys = &k_keys_as_written,
     .typed = &k_typed_none,
     .strings = &k_strings_godot2,
     .type_count = N(k_mole_types),
     .types = k_mole_types,
     .header = &k_header_godot2,
     .objects = &k_objects_godot21,
     .text = &k_text_godot2,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = "Godot 2.1's branch point (2.2-alpha), built from Godot's master history, "
                        "mehdigoom/ValjangEngine4.0.x@c439a618 (provenance: "
                        "conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "godot3@3.1",
     .fuzz_id = 14,
     .release = "3.1",
     .release_of = "godot3",
     .differs = "text objects session",
     .released = "2019-03",
     .aliases = "godot3.1",
     .engine = "Godot 3.1.x",
     .family = "godot3",
     .script = &k_script_godot3_objects,
     .summary = "Godot 3.1: objects in full by default; UTF-8 as 3.2",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_null_as_class,
     .text = &k_text_godot3,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = "Godot 3.1-stable, built from Godot's master history, "
                        "mehdigoom/ValjangEngine4.0.x@320f49f2 (provenance: "
                        "conformance/evidence/built-engines.md)",
     .no_engine = NULL},
    {.name = "godot3@3.2",
     .fuzz_id = 15,
     .release = "3.2",
     .release_of = "godot3",
     .differs = "text",
     .released = "2020-01",
     .aliases = "godot3.2 godot3.3 godot3.4",
     .engine = "Godot 3.2-3.4 (measured: 3.2.3)",
     .family = "godot3",
     .script = &k_script_godot3,
     .summary =
         "Godot 3.2-3.4: surrogates kept as written, no depth limit (the engine's stack overflows)",
     .reals = &k_reals_single,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_hardened,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_minimal,
     .objects = &k_objects_godot3,
     .text = &k_text_godot3,
     .defects = &k_defects_none,
     .session = &k_session_api3,
     .engine_evidence = "Godot 3.2.3 (Debian 12 godot3-server 3.2.3-stable-1)",
     .no_engine = NULL},
    {.name = "godot3.0@3.0.0",
     .fuzz_id = 16,
     .release = "3.0.0",
     .release_of = "godot3.0",
     .differs = "objects strings reals",
     .released = "2018-01",
     .aliases = "godot3.0.0 godot3.0.1 godot3.0.2 godot3.0.3 godot3.0.4 godot3.0.5",
     .engine = "Godot 3.0.0-3.0.5 (measured: 3.0-stable)",
     .family = "godot3",
     .script = &k_script_godot3_objects,
     .summary =
         "Godot 3.0 before 3.0.6: strings read without the 2018 hardening, NaN written as f32",
     .reals = &k_reals_single_fast_math,
     .keys = &k_keys_godot3,
     .typed = &k_typed_none,
     .strings = &k_strings_godot30,
     .type_count = N(k_godot3_types),
     .types = k_godot3_types,
     .header = &k_header_int64,
     .objects = &k_objects_godot300,
     .text = &k_text_godot3,
     .defects = &k_defects_none,
     .session = &k_session_none,
     .engine_evidence = "Godot 3.0-stable, built from Godot's master history, "
                        "mehdigoom/ValjangEngine4.0.x@9bd40269 (provenance: "
                        "conformance/evidence/built-engines.md)",
     .no_engine = NULL},
};

size_t gdw_dialect_count(void) { return sizeof(k_dialects) / sizeof(k_dialects[0]); }

const gdw_dialect *gdw_dialect_at(size_t i) {
    return i < gdw_dialect_count() ? &k_dialects[i] : NULL;
}

size_t gdw_release_count(void) { return sizeof(k_releases) / sizeof(k_releases[0]); }

const gdw_dialect *gdw_release_at(size_t i) {
    return i < gdw_release_count() ? &k_releases[i] : NULL;
}

size_t gdw_row_count(void) { return gdw_dialect_count() + gdw_release_count(); }

const gdw_dialect *gdw_row_at(size_t i) {
    return i < gdw_dialect_count() ? gdw_dialect_at(i) : gdw_release_at(i - gdw_dialect_count());
}

const char *gdw_dialect_release(const gdw_dialect *d) { return d && d->release ? d->release : ""; }

const gdw_dialect *gdw_dialect_base(const gdw_dialect *d) {
    return d && d->release_of ? gdw_dialect_find(d->release_of) : d;
}

const char *gdw_dialect_name(const gdw_dialect *d) { return d ? d->name : "(null)"; }

unsigned gdw_dialect_type_count(const gdw_dialect *d) { return d ? d->type_count : 0; }

static bool word_in_list(const char *list, const char *word) {
    size_t n = strlen(word);
    const char *p = list;
    while (*p) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == n && n > 0 && memcmp(p, word, n) == 0) return true;
        p = e;
    }
    return false;
}

const gdw_dialect *gdw_dialect_find(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        if (strcmp(k_dialects[i].name, name) == 0 || word_in_list(k_dialects[i].aliases, name))
            return &k_dialects[i];
    }
    for (size_t i = 0; i < gdw_release_count(); i++) {
        if (strcmp(k_releases[i].name, name) == 0 || word_in_list(k_releases[i].aliases, name))
            return &k_releases[i];
    }
    return NULL;
}

int gdw_dialect_wire_type(const gdw_dialect *d, unsigned wire_id) {
    if (!d || wire_id >= d->type_count) return -1;
    return d->types[wire_id];
}

int gdw_dialect_type_id(const gdw_dialect *d, gdw_type t) {
    if (!d) return -1;
    for (unsigned i = 0; i < d->type_count; i++)
        if (d->types[i] == (uint8_t)t) return (int)i;
    return -1;
}

/* ---- reading a row (gdwire.h) ---- */

const char *gdw_dialect_family(const gdw_dialect *d) { return d ? d->family : ""; }
const char *gdw_dialect_summary(const gdw_dialect *d) { return d ? d->summary : ""; }
const char *gdw_dialect_engines(const gdw_dialect *d) { return d ? d->engine : ""; }
const char *gdw_dialect_aliases(const gdw_dialect *d) { return d ? d->aliases : ""; }
const char *gdw_dialect_released(const gdw_dialect *d) {
    return d && d->released ? d->released : "";
}
const char *gdw_dialect_engine_evidence(const gdw_dialect *d) {
    return d ? d->engine_evidence : NULL;
}
const char *gdw_dialect_no_engine(const gdw_dialect *d) { return d ? d->no_engine : NULL; }
bool gdw_dialect_documented_only(const gdw_dialect *d) { return d && d->documented_only; }
unsigned gdw_dialect_fuzz_id(const gdw_dialect *d) { return d ? d->fuzz_id : 0; }

/* Whether the row's engine's script API decodes full Objects by default (Godot 3.0 and 3.1:
 * decode_variant's allow_objects defaults to true there, and bytes2var / get_var call it so;
 * docs/dialects/godot3.md): an API fact, not a wire rule, so its script facts say it. */
bool gdw_dialect_objects_by_default(const gdw_dialect *d) {
    return d && d->script && d->script->objects_by_default;
}

int gdw_dialect_rule(const gdw_dialect *d, gdw_rule r) { return d ? gdw_row_rule(d, r) : -1; }

/* The lowest set bit of m (m not 0). */
static unsigned lowest_bit(uint64_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(m);
#else
    unsigned b = 0;
    while (!(m >> b & 1u)) b++;
    return b;
#endif
}

/* Type table entry w (63: every entry from 63 up) alike in rows a and b. */
static bool entry_alike(const gdw_dialect *a, const gdw_dialect *b, unsigned w) {
    if (w == 63) /* alike where neither table reaches them, or both alike from there */
        return (a->type_count <= 63 && b->type_count <= 63) ||
               (a->type_count == b->type_count &&
                memcmp(a->types + 63, b->types + 63, a->type_count - 63u) == 0);
    bool in_a = w < a->type_count, in_b = w < b->type_count;
    return in_a == in_b && (!in_a || a->types[w] == b->types[w]);
}

static bool rules_alike(const gdw_dialect *a, const gdw_dialect *b, uint64_t rules) {
    for (uint64_t m = rules; m; m &= m - 1) {
        unsigned r = (unsigned)lowest_bit(m);
        if (r >= GDW_RULE_COUNT ||
            gdw_dialect_rule(a, (gdw_rule)r) != gdw_dialect_rule(b, (gdw_rule)r))
            return false;
    }
    return true;
}

/* Only the bits read are compared, lowest first: a row that rejects at its first header read one
 * entry. */
bool gdw_dialects_answer_alike(const gdw_dialect *a, const gdw_dialect *b,
                               const gdw_rules_read *read) {
    if (!a || !b || !read) return false;
    if (a == b) return true;
    for (uint64_t m = read->type_ids; m; m &= m - 1)
        if (!entry_alike(a, b, (unsigned)lowest_bit(m))) return false;
    return rules_alike(a, b, read->rules);
}

bool gdw_dialects_read_alike(const gdw_dialect *a, const gdw_dialect *b,
                             const gdw_rules_read *read) {
    return gdw_dialects_answer_alike(a, b, read) && rules_alike(a, b, read->strict_rules);
}

const char *gdw_rule_name(gdw_rule r) {
    switch (r) {
#define GDW_RULE_NAME(id, name, group, field) \
    case GDW_RULE_##id: return name;
        GDW_RULES(GDW_RULE_NAME)
#undef GDW_RULE_NAME
    case GDW_RULE_COUNT: break;
    }
    return "?";
}

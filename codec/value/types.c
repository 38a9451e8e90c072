/* SPDX-License-Identifier: MIT */
/* types.c — facts about each logical type, and value accessors. */
#include <math.h>
#include <strings.h>

#include "codec/value/value.h"

/* In gdw_type order; each row names its own type and types_test checks the two agree. */
const gdw_type_info gdw_types[GDW_TYPE_COUNT] = {
    {GDW_NIL, "Nil", K_NIL, C_NONE, 0},
    {GDW_BOOL, "bool", K_BOOL, C_NONE, 0},
    {GDW_INT, "int", K_INT, C_NONE, 0},
    {GDW_FLOAT, "float", K_FLOAT, C_NONE, 0},
    {GDW_STRING, "String", K_STR, C_NONE, 0},
    {GDW_VECTOR2, "Vector2", K_FIXED, C_REAL, 2},
    {GDW_VECTOR2I, "Vector2i", K_FIXED, C_I32, 2},
    {GDW_RECT2, "Rect2", K_FIXED, C_REAL, 4},
    {GDW_RECT2I, "Rect2i", K_FIXED, C_I32, 4},
    {GDW_VECTOR3, "Vector3", K_FIXED, C_REAL, 3},
    {GDW_VECTOR3I, "Vector3i", K_FIXED, C_I32, 3},
    {GDW_TRANSFORM2D, "Transform2D", K_FIXED, C_REAL, 6},
    {GDW_VECTOR4, "Vector4", K_FIXED, C_REAL, 4},
    {GDW_VECTOR4I, "Vector4i", K_FIXED, C_I32, 4},
    {GDW_PLANE, "Plane", K_FIXED, C_REAL, 4},
    {GDW_QUATERNION, "Quaternion", K_FIXED, C_REAL, 4},
    {GDW_AABB, "AABB", K_FIXED, C_REAL, 6},
    {GDW_BASIS, "Basis", K_FIXED, C_REAL, 9},
    {GDW_TRANSFORM3D, "Transform3D", K_FIXED, C_REAL, 12},
    {GDW_PROJECTION, "Projection", K_FIXED, C_REAL, 16},
    {GDW_COLOR, "Color", K_FIXED, C_F32, 4},
    {GDW_STRING_NAME, "StringName", K_STR, C_NONE, 0},
    {GDW_NODE_PATH, "NodePath", K_NODEPATH, C_NONE, 0},
    {GDW_RID, "RID", K_RID, C_NONE, 0},
    {GDW_OBJECT, "Object", K_OBJECT, C_NONE, 0},
    {GDW_CALLABLE, "Callable", K_CALLABLE, C_NONE, 0},
    {GDW_SIGNAL, "Signal", K_SIGNAL, C_NONE, 0},
    {GDW_DICTIONARY, "Dictionary", K_DICT, C_NONE, 0},
    {GDW_ARRAY, "Array", K_ARRAY, C_NONE, 0},
    {GDW_TYPED_ARRAY, "TypedArray", K_TYPED_ARRAY, C_NONE, 0},
    {GDW_PACKED_TYPED_ARRAY, "PackedTypedArray", K_TYPED_ARRAY, C_NONE, 0},
    {GDW_PACKED_BYTE_ARRAY, "PackedByteArray", K_PACKED_BYTES, C_NONE, 1},
    {GDW_PACKED_INT32_ARRAY, "PackedInt32Array", K_PACKED, C_I32, 1},
    {GDW_PACKED_INT64_ARRAY, "PackedInt64Array", K_PACKED, C_I64, 1},
    {GDW_PACKED_REAL_ARRAY, "PackedRealArray", K_PACKED, C_REAL, 1},
    {GDW_PACKED_FLOAT32_ARRAY, "PackedFloat32Array", K_PACKED, C_F32, 1},
    {GDW_PACKED_FLOAT64_ARRAY, "PackedFloat64Array", K_PACKED, C_F64, 1},
    {GDW_PACKED_STRING_ARRAY, "PackedStringArray", K_PACKED_STRINGS, C_NONE, 0},
    {GDW_PACKED_VECTOR2_ARRAY, "PackedVector2Array", K_PACKED, C_REAL, 2},
    {GDW_PACKED_VECTOR2I_ARRAY, "PackedVector2iArray", K_PACKED, C_I32, 2},
    {GDW_PACKED_VECTOR3_ARRAY, "PackedVector3Array", K_PACKED, C_REAL, 3},
    {GDW_PACKED_VECTOR3I_ARRAY, "PackedVector3iArray", K_PACKED, C_I32, 3},
    {GDW_PACKED_VECTOR4_ARRAY, "PackedVector4Array", K_PACKED, C_REAL, 4},
    {GDW_PACKED_VECTOR4I_ARRAY, "PackedVector4iArray", K_PACKED, C_I32, 4},
    {GDW_PACKED_COLOR_ARRAY, "PackedColorArray", K_PACKED, C_F32, 4},
    {GDW_IMAGE, "Image", K_IMAGE, C_NONE, 0},
    {GDW_INPUT_EVENT, "InputEvent", K_INPUT_EVENT, C_NONE, 0},
};

/* Older engines' names, accepted by the text parser. */
static const struct {
    const char *alias;
    gdw_type t;
} k_aliases[] = {
    {"Quat", GDW_QUATERNION},
    {"Transform", GDW_TRANSFORM3D},
    {"Matrix32", GDW_TRANSFORM2D},
    {"Matrix3", GDW_BASIS},
    {"PoolByteArray", GDW_PACKED_BYTE_ARRAY},
    {"RawArray", GDW_PACKED_BYTE_ARRAY},
    {"PoolIntArray", GDW_PACKED_INT32_ARRAY},
    {"IntArray", GDW_PACKED_INT32_ARRAY},
    {"PoolRealArray", GDW_PACKED_REAL_ARRAY},
    {"RealArray", GDW_PACKED_REAL_ARRAY},
    {"PoolStringArray", GDW_PACKED_STRING_ARRAY},
    {"StringArray", GDW_PACKED_STRING_ARRAY},
    {"PoolVector2Array", GDW_PACKED_VECTOR2_ARRAY},
    {"PoolVector3Array", GDW_PACKED_VECTOR3_ARRAY},
    {"PoolColorArray", GDW_PACKED_COLOR_ARRAY},
    {"PoolVector2iArray", GDW_PACKED_VECTOR2I_ARRAY},
    {"PoolVector3iArray", GDW_PACKED_VECTOR3I_ARRAY},
    {"PoolVector4Array", GDW_PACKED_VECTOR4_ARRAY},
    {"PoolVector4iArray", GDW_PACKED_VECTOR4I_ARRAY},
    {"Variant", GDW_NIL},
    {"null", GDW_NIL},
};

const char *gdw_type_name(gdw_type t) {
    return (unsigned)t < GDW_TYPE_COUNT ? gdw_types[t].name : "?";
}

int gdw_type_from_name(const char *name, size_t len) {
    if (!name) return -1;
    for (unsigned t = 0; t < GDW_TYPE_COUNT; t++)
        if (strlen(gdw_types[t].name) == len && memcmp(gdw_types[t].name, name, len) == 0)
            return (int)t;
    for (size_t i = 0; i < sizeof(k_aliases) / sizeof(k_aliases[0]); i++)
        if (strlen(k_aliases[i].alias) == len && memcmp(k_aliases[i].alias, name, len) == 0)
            return (int)k_aliases[i].t;
    return -1;
}

size_t gdw_type_components(gdw_type t) {
    if ((unsigned)t >= GDW_TYPE_COUNT) return 0;
    const gdw_type_info *ti = &gdw_types[t];
    return (ti->kind == K_FIXED || ti->kind == K_PACKED) ? ti->ncomp : 0;
}

bool gdw_type_has_reals(gdw_type t) {
    return (unsigned)t < GDW_TYPE_COUNT && type_has_reals((unsigned)t);
}

bool gdw_f64_fits_f32(uint64_t bits) {
    double x = bits_to_f64(bits);
    float f = (float)x;
    return f64_to_bits((double)f) == bits;
}

double gdw_value_real(const gdw_value *v, size_t i) {
    if (!v || v->type >= GDW_TYPE_COUNT) return NAN;
    if (v->type == GDW_FLOAT)
        return v->width == 8 ? bits_to_f64(v->u.bits) : (double)bits_to_f32((uint32_t)v->u.bits);
    size_t n = gdw_type_components((gdw_type)v->type);
    size_t total = gdw_types[v->type].kind == K_PACKED ? (size_t)v->len * n : n;
    if (!gdw_type_has_reals((gdw_type)v->type) || i >= total) return NAN;
    return real_at(v->u.bytes + i * v->width, v->width);
}

size_t gdw_value_reals(const gdw_value *v, size_t from, size_t n, double *out) {
    if (!v || !out || v->type >= GDW_TYPE_COUNT) return 0;
    if (v->type == GDW_FLOAT) {
        if (from > 0 || n == 0) return 0;
        out[0] = gdw_value_real(v, 0);
        return 1;
    }
    if (!gdw_type_has_reals((gdw_type)v->type) || (v->width != 4 && v->width != 8) || !v->u.bytes)
        return 0;
    size_t per = gdw_type_components((gdw_type)v->type);
    size_t total = gdw_types[v->type].kind == K_PACKED ? (size_t)v->len * per : per;
    if (from >= total) return 0;
    if (n > total - from) n = total - from;
    const uint8_t *p = v->u.bytes + from * v->width;
    if (v->width == 8)
        for (size_t i = 0; i < n; i++, p += 8) out[i] = bits_to_f64(rd_u64le(p));
    else
        for (size_t i = 0; i < n; i++, p += 4) out[i] = (double)bits_to_f32(rd_u32le(p));
    return n;
}

int64_t gdw_value_int_at(const gdw_value *v, size_t i) {
    if (!v || v->type >= GDW_TYPE_COUNT) return 0;
    if (v->type == GDW_PACKED_BYTE_ARRAY) return i < v->len ? v->u.bytes[i] : 0;
    size_t n = gdw_type_components((gdw_type)v->type);
    size_t total = gdw_types[v->type].kind == K_PACKED ? (size_t)v->len * n : n;
    if (i >= total) return 0;
    unsigned c = gdw_types[v->type].comp;
    if (c == C_I32) return (int32_t)rd_u32le(v->u.bytes + i * 4);
    if (c == C_I64) return (int64_t)rd_u64le(v->u.bytes + i * 8);
    return 0;
}

const gdw_container *gdw_container_of(const gdw_value *v) {
    return (v && (v->flags & GDW_VF_TYPED)) ? (const gdw_container *)v->u.ext : NULL;
}

const gdw_value *gdw_items(const gdw_value *v) {
    if (!v || v->type >= GDW_TYPE_COUNT || type_info(v->type)->kind == K_OBJECT) return NULL;
    const gdw_value *items;
    gdw_children(v, &items);
    return items;
}

const char *gdw_mode_name(gdw_mode m) {
    switch (m) {
    case GDW_MODE_COMPATIBLE: return "compatible";
    case GDW_MODE_STRICT: return "strict";
    case GDW_MODE_ENGINE_EXACT: return "engine-exact";
    }
    return "?";
}

int gdw_mode_from_name(const char *name) {
    if (!name) return -1;
    if (strcmp(name, "compatible") == 0) return GDW_MODE_COMPATIBLE;
    if (strcmp(name, "strict") == 0) return GDW_MODE_STRICT;
    if (strcmp(name, "engine-exact") == 0 || strcmp(name, "exact") == 0)
        return GDW_MODE_ENGINE_EXACT;
    return -1;
}

bool gdw_input_event_words_ok(uint32_t type, uint32_t n) {
    switch (type) {
    case 1: return n == 2;
    case 3:
    case 5:
    case 6: return n == 1;
    case 4: return n == 1 || n == 2;
    default: return n == 0;
    }
}

/* SPDX-License-Identifier: MIT */
/* types.c — facts about each logical type, and value accessors. */
#include <math.h>
#include <strings.h>

#include "codec/value/digest.h"
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
static const struct { const char *alias; gdw_type t; } k_aliases[] = {
    {"Quat", GDW_QUATERNION}, {"Transform", GDW_TRANSFORM3D}, {"Matrix32", GDW_TRANSFORM2D},
    {"Matrix3", GDW_BASIS}, {"PoolByteArray", GDW_PACKED_BYTE_ARRAY}, {"RawArray", GDW_PACKED_BYTE_ARRAY},
    {"PoolIntArray", GDW_PACKED_INT32_ARRAY}, {"IntArray", GDW_PACKED_INT32_ARRAY},
    {"PoolRealArray", GDW_PACKED_REAL_ARRAY}, {"RealArray", GDW_PACKED_REAL_ARRAY},
    {"PoolStringArray", GDW_PACKED_STRING_ARRAY}, {"StringArray", GDW_PACKED_STRING_ARRAY},
    {"PoolVector2Array", GDW_PACKED_VECTOR2_ARRAY}, {"PoolVector3Array", GDW_PACKED_VECTOR3_ARRAY},
    {"PoolColorArray", GDW_PACKED_COLOR_ARRAY}, {"PoolVector2iArray", GDW_PACKED_VECTOR2I_ARRAY},
    {"PoolVector3iArray", GDW_PACKED_VECTOR3I_ARRAY}, {"PoolVector4Array", GDW_PACKED_VECTOR4_ARRAY},
    {"PoolVector4iArray", GDW_PACKED_VECTOR4I_ARRAY}, {"Variant", GDW_NIL}, {"null", GDW_NIL},
};

const char *gdw_type_name(gdw_type t) { return (unsigned)t < GDW_TYPE_COUNT ? gdw_types[t].name : "?"; }

int gdw_type_from_name(const char *name, size_t len) {
    if (!name) return -1;
    for (unsigned t = 0; t < GDW_TYPE_COUNT; t++)
        if (strlen(gdw_types[t].name) == len && memcmp(gdw_types[t].name, name, len) == 0) return (int)t;
    for (size_t i = 0; i < sizeof(k_aliases) / sizeof(k_aliases[0]); i++)
        if (strlen(k_aliases[i].alias) == len && memcmp(k_aliases[i].alias, name, len) == 0) return (int)k_aliases[i].t;
    return -1;
}

size_t gdw_type_components(gdw_type t) {
    if ((unsigned)t >= GDW_TYPE_COUNT) return 0;
    const gdw_type_info *ti = &gdw_types[t];
    return (ti->kind == K_FIXED || ti->kind == K_PACKED) ? ti->ncomp : 0;
}

bool gdw_type_has_reals(gdw_type t) { return (unsigned)t < GDW_TYPE_COUNT && type_has_reals((unsigned)t); }

bool gdw_f64_fits_f32(uint64_t bits) {
    double x = bits_to_f64(bits);
    float f = (float)x;
    return f64_to_bits((double)f) == bits;
}

double gdw_value_real(const gdw_value *v, size_t i) {
    if (!v || v->type >= GDW_TYPE_COUNT) return NAN;
    if (v->type == GDW_FLOAT) return v->width == 8 ? bits_to_f64(v->u.bits) : (double)bits_to_f32((uint32_t)v->u.bits);
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
    if (!gdw_type_has_reals((gdw_type)v->type) || (v->width != 4 && v->width != 8) || !v->u.bytes) return 0;
    size_t per = gdw_type_components((gdw_type)v->type);
    size_t total = gdw_types[v->type].kind == K_PACKED ? (size_t)v->len * per : per;
    if (from >= total) return 0;
    if (n > total - from) n = total - from;
    const uint8_t *p = v->u.bytes + from * v->width;
    if (v->width == 8) for (size_t i = 0; i < n; i++, p += 8) out[i] = bits_to_f64(rd_u64le(p));
    else for (size_t i = 0; i < n; i++, p += 4) out[i] = (double)bits_to_f32(rd_u32le(p));
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

bool gdw_typedesc_equal(const gdw_typedesc *a, const gdw_typedesc *b) {
    if (!a || !b) return a == b;
    if (a->kind != b->kind || a->id_only != b->id_only) return false;
    if (a->kind == GDW_DESC_BUILTIN)
        return a->builtin == b->builtin && (a->builtin != GDW_TYPE_COUNT || a->wire_id == b->wire_id);
    if (a->kind == GDW_DESC_CLASS || a->kind == GDW_DESC_SCRIPT) return str_same(a->name, b->name);
    return true;
}

/* GDW_VF_COMPARED: the flags equality compares (value.h). */

/* Real component i of a value of width 4 or 8, as the f64 a double-precision reader makes
 * of it (f32 widened by the C conversion, NaN payloads included). */
static uint64_t widened_bits(const uint8_t *p, unsigned width) {
    if (width == 8) return rd_u64le(p);
    return f64_to_bits((double)bits_to_f32(rd_u32le(p)));
}

static bool node_equal(const gdw_value *a, const gdw_value *b, bool widen);

static bool reals_equal(const gdw_value *a, const gdw_value *b, size_t ncomp) {
    for (size_t i = 0; i < ncomp; i++)
        if (widened_bits(a->u.bytes + i * a->width, a->width) != widened_bits(b->u.bytes + i * b->width, b->width)) return false;
    return true;
}

/* Two trees in step (gdw_walk_pair): each pair of nodes compared by node_equal, which leaves the
 * children to the walk. Trees deeper than GDW_WALK_MAX_DEPTH (only hand-built ones) are unequal. */
static int pair_equal(void *widen, const gdw_value *x, const gdw_value *y, const gdw_value *parent, size_t slot) {
    (void)parent, (void)slot;
    if (x == y) return GDW_PAIR_SAME;
    if (!node_equal(x, y, *(const bool *)widen)) return GDW_PAIR_DIFFER;
    return gdw_walk_opens(x) ? GDW_PAIR_DESCEND : GDW_PAIR_SAME; /* a leaf has nothing below it to compare */
}
static size_t pair_children(void *ctx, const gdw_value *v, const gdw_value **items) { (void)ctx; return gdw_children(v, items); }

static bool equal(const gdw_value *a, const gdw_value *b, bool widen) {
    return gdw_walk_pair(a, b, pair_equal, pair_children, &widen);
}

bool gdw_value_equal(const gdw_value *a, const gdw_value *b) { return equal(a, b, false); }
bool gdw_value_same_numbers(const gdw_value *a, const gdw_value *b) { return equal(a, b, true); }

/* gdw_value_diff: the walk keeps the chain of a-side nodes it is inside, each with its slot in
 * its parent: a pair's parent is on that chain (the walk is depth first), so the chain is popped
 * to it and the pair pushed. At the first unequal pair the chain is the path. */
typedef struct diff_walk {
    struct { const gdw_value *node, *parent; uint32_t slot; } chain[GDW_WALK_MAX_DEPTH + 2];
    unsigned depth;
    gdw_difference *out;
} diff_walk;

static void path_to(const diff_walk *w, const gdw_value *parent, uint32_t slot, char *path) {
    size_t n = 0;
    path[0] = 0;
    for (unsigned i = 0; i <= w->depth; i++) {
        const gdw_value *p = i < w->depth ? w->chain[i].parent : parent;
        uint32_t s = i < w->depth ? w->chain[i].slot : slot;
        if (p) gdw_path_child(path, &n, p, s);
    }
}

static int diff_pair(void *ctx, const gdw_value *x, const gdw_value *y, const gdw_value *parent, size_t slot) {
    diff_walk *w = (diff_walk *)ctx;
    while (w->depth && w->chain[w->depth - 1].node != parent) w->depth--;
    if (x != y && !node_equal(x, y, false)) {
        w->out->a = x;
        w->out->b = y;
        path_to(w, parent, (uint32_t)slot, w->out->path);
        return GDW_PAIR_DIFFER;
    }
    if (w->depth < GDW_WALK_MAX_DEPTH + 2) {
        w->chain[w->depth].node = x;
        w->chain[w->depth].parent = parent;
        w->chain[w->depth].slot = (uint32_t)slot;
        w->depth++;
    }
    return x == y ? GDW_PAIR_SAME : GDW_PAIR_DESCEND;
}

bool gdw_value_diff(const gdw_value *a, const gdw_value *b, gdw_difference *out) {
    if (out) memset(out, 0, sizeof *out);
    if (!a || !b || !out) return false;
    diff_walk w; /* about 25 KiB of stack, as the walk's own frames: no allocator to ask */
    w.depth = 0;
    w.out = out;
    if (gdw_walk_pair(a, b, diff_pair, pair_children, &w)) return false;
    if (!out->a) out->a = a, out->b = b; /* deeper than a walk goes (hand-built trees only) */
    return true;
}

const char *gdw_approximate_why(unsigned want, unsigned have) {
    if (want == GDW_COLOR && have == GDW_STRING)
        return "the engine makes a Color of this String (Color(String)), which gdwire does not compute for text that is not UTF-8 "
               "or holds U+0131 or U+017F (String::to_upper may map them into a colour name)";
    if (want == GDW_QUATERNION && have == GDW_BASIS)
        return "the engine makes a Quaternion of this Basis, which is not a rotation: a debug build holds Quaternion() "
               "(MATH_CHECKS), a release build computes Basis::get_quaternion";
    if (want == GDW_PACKED_STRING_ARRAY && have == GDW_ARRAY)
        return "the engine makes a PackedStringArray of this Array, each element's text (String(Variant)); gdwire does not "
               "write the text of a float, a math type, a container or an object as the engine does";
    if (want >= GDW_PACKED_BYTE_ARRAY && want <= GDW_PACKED_COLOR_ARRAY && have == GDW_ARRAY)
        return "the engine makes a packed array of this Array, converting each element; gdwire does not compute one of them";
    return "the engine converts this value to the container's element type; gdwire does not compute the conversion";
}

/* gdw_doc_approximate: the same chain as gdw_value_diff, over the tree paired with itself: every
 * node is descended into, and the marked ones counted; the first one's path is the chain. */
typedef struct approx_walk {
    diff_walk w;
    size_t count;
    const gdw_value *first_parent;
    uint32_t first_slot;
    char *path;
} approx_walk;

static int approx_pair(void *ctx, const gdw_value *x, const gdw_value *y, const gdw_value *parent, size_t slot) {
    approx_walk *a = (approx_walk *)ctx;
    (void)y;
    while (a->w.depth && a->w.chain[a->w.depth - 1].node != parent) a->w.depth--;
    if ((x->flags & GDW_VF_APPROXIMATE) && !a->count++) {
        a->first_parent = parent;
        a->first_slot = (uint32_t)slot;
        if (a->path) path_to(&a->w, parent, (uint32_t)slot, a->path);
    }
    if (a->w.depth < GDW_WALK_MAX_DEPTH + 2) {
        a->w.chain[a->w.depth].node = x;
        a->w.chain[a->w.depth].parent = parent;
        a->w.chain[a->w.depth].slot = (uint32_t)slot;
        a->w.depth++;
    }
    return GDW_PAIR_DESCEND;
}

/* The element type a container's item `slot` was to have: a typed Array's element type, a typed
 * Dictionary's key type (its keys are what the engine converts). */
static unsigned slot_type(const gdw_value *parent, uint32_t slot) {
    const gdw_container *ct = parent ? gdw_container_of(parent) : NULL;
    if (!ct) return GDW_NIL;
    const gdw_typedesc *td = parent->type == GDW_DICTIONARY && slot % 2 == 0 ? &ct->key : &ct->elem;
    return td->kind == GDW_DESC_BUILTIN ? td->builtin : (unsigned)GDW_NIL;
}

size_t gdw_doc_approximate(const gdw_doc *doc, char *path, const char **why) {
    if (path) path[0] = 0;
    if (why) *why = NULL;
    if (!doc || !doc->approximate) return 0;
    approx_walk a; /* about 25 KiB of stack, as gdw_value_diff */
    a.w.depth = 0;
    a.w.out = NULL;
    a.count = 0;
    a.first_parent = NULL;
    a.first_slot = 0;
    a.path = path;
    gdw_walk_pair(&doc->root, &doc->root, approx_pair, pair_children, &a);
    if (a.count && why) {
        const gdw_value *items, *first = &doc->root;
        if (a.first_parent && gdw_children(a.first_parent, &items) > a.first_slot) first = &items[a.first_slot];
        *why = gdw_approximate_why(slot_type(a.first_parent, a.first_slot), first->type);
    }
    return a.count;
}

/* One node against another: type, flags, scalar content, container descriptors, class name;
 * not the children (equal walks them). */
static bool node_equal(const gdw_value *a, const gdw_value *b, bool widen) {
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->type != b->type || a->len != b->len) return false;
    if (a->type >= GDW_TYPE_COUNT) return false; /* no such type: equal to nothing, not even itself */
    if ((a->flags & GDW_VF_COMPARED) != (b->flags & GDW_VF_COMPARED)) return false;
    const gdw_type_info *ti = type_info(a->type);
    if (widen && ti->kind == K_FLOAT) { /* u.bits holds the f32 or f64 bit pattern as a number; compared as the
                                           double the engine holds (an f32 NaN read is quieted), whatever the widths */
        uint64_t x = a->width == 8 ? a->u.bits : f64_to_bits((double)bits_to_f32((uint32_t)a->u.bits));
        uint64_t y = b->width == 8 ? b->u.bits : f64_to_bits((double)bits_to_f32((uint32_t)b->u.bits));
        return x == y;
    }
    if (gdw_type_has_reals((gdw_type)a->type) && a->width != b->width) {
        if (!widen) return false;
        return reals_equal(a, b, (size_t)ti->ncomp * (ti->kind == K_PACKED ? a->len : 1));
    }
    switch (ti->kind) {
    case K_NIL: case K_CALLABLE: return true;
    case K_BOOL: case K_INT: return a->u.i == b->u.i;
    case K_FLOAT: return a->u.bits == b->u.bits;
    /* the same bytes (two zero-copy decodes of one packet) are equal without a look */
    case K_STR: return a->len == 0 || a->u.bytes == b->u.bytes || memcmp(a->u.bytes, b->u.bytes, a->len) == 0;
    case K_RID: return a->u.i == b->u.i;
    case K_FIXED: case K_PACKED: {
        size_t w = ti->comp == C_I32 ? 4 : ti->comp == C_I64 ? 8 : a->width;
        size_t n = (size_t)ti->ncomp * w * (ti->kind == K_PACKED ? a->len : 1);
        return n == 0 || a->u.bytes == b->u.bytes || memcmp(a->u.bytes, b->u.bytes, n) == 0;
    }
    case K_PACKED_BYTES: return a->len == 0 || a->u.bytes == b->u.bytes || memcmp(a->u.bytes, b->u.bytes, a->len) == 0;
    case K_PACKED_STRINGS: {
        const gdw_str *x = (const gdw_str *)a->u.ext, *y = (const gdw_str *)b->u.ext;
        for (uint32_t i = 0; i < a->len; i++) if (!str_same(x[i], y[i])) return false;
        return true;
    }
    case K_NODEPATH: {
        const gdw_nodepath *x = (const gdw_nodepath *)a->u.ext, *y = (const gdw_nodepath *)b->u.ext;
        if (x->name_count != y->name_count || x->subname_count != y->subname_count || x->flags != y->flags) return false;
        for (uint32_t i = 0; i < x->name_count + x->subname_count; i++) if (!str_same(x->parts[i], y->parts[i])) return false;
        return true;
    }
    case K_OBJECT: {
        if (a->flags & GDW_VF_OBJECT_NULL) return true;
        if (a->flags & GDW_VF_OBJECT_ID) return a->u.i == b->u.i;
        const gdw_object *x = (const gdw_object *)a->u.ext, *y = (const gdw_object *)b->u.ext;
        return str_same(x->class_name, y->class_name); /* the properties: equal's walk */
    }
    case K_SIGNAL: {
        const gdw_signal *x = (const gdw_signal *)a->u.ext, *y = (const gdw_signal *)b->u.ext;
        return str_same(x->name, y->name) && x->object_id == y->object_id;
    }
    case K_DICT: case K_ARRAY: case K_TYPED_ARRAY: {
        const gdw_container *ca = gdw_container_of(a), *cb = gdw_container_of(b);
        if ((ca != NULL) != (cb != NULL)) return false;
        return !ca || (gdw_typedesc_equal(&ca->key, &cb->key) && gdw_typedesc_equal(&ca->elem, &cb->elem)); /* the items: equal's walk */
    }
    case K_IMAGE: {
        const gdw_image *x = (const gdw_image *)a->u.ext, *y = (const gdw_image *)b->u.ext;
        return x->format == y->format && x->mipmaps == y->mipmaps && x->width == y->width &&
               x->height == y->height && str_same(x->data, y->data);
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *x = (const gdw_input_event *)a->u.ext, *y = (const gdw_input_event *)b->u.ext;
        if (x->type != y->type || x->device != y->device || x->llen != y->llen || x->extra_count != y->extra_count) return false;
        for (uint32_t i = 0; i < x->extra_count; i++) if (x->extra[i] != y->extra[i]) return false;
        return true;
    }
    }
    return false;
}

/* ---- digests (gdw_digest, gdwire.h): node_equal's comparisons, as 128 bits ---------------------------- */

void gdw_digest_init(gdw_digest *g, uint64_t key0, uint64_t key1, const uint8_t *packet, size_t packet_len) {
    if (!g) return;
    g->key[0] = key0;
    g->key[1] = key1 ^ 0xA0761D6478BD642Fu; /* two lanes, even for one key given twice */
    g->h[0] = key1;
    g->h[1] = key0;
    g->packet = packet;
    g->packet_len = packet ? packet_len : 0;
}

/* Every field node_equal (widen false) compares, and nothing else: equal nodes add the same words (digest.h). */
void gdw_digest_node(gdw_digest *g, const gdw_value *v) {
    if (g) digest_node(g, v);
}

static gdw_visit_answer digest_at(void *ctx, gdw_visit_event ev, const gdw_value *v, const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)parent, (void)slot, (void)depth;
    gdw_digest_node((gdw_digest *)ctx, v);
    return GDW_VISIT_GO;
}

bool gdw_digest_tree(gdw_digest *g, const gdw_value *root) {
    if (!g || !root) return false;
    return gdw_visit(root, GDW_VISIT_PRE, digest_at, g);
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
    if (strcmp(name, "engine-exact") == 0 || strcmp(name, "exact") == 0) return GDW_MODE_ENGINE_EXACT;
    return -1;
}

bool gdw_input_event_words_ok(uint32_t type, uint32_t n) {
    switch (type) {
    case 1: return n == 2;
    case 3: case 5: case 6: return n == 1;
    case 4: return n == 1 || n == 2;
    default: return n == 0;
    }
}

/* SPDX-License-Identifier: MIT */
/* engine/typed.c — typed containers in engine-exact mode: what a Godot 4 ContainerTypeValidate
 * keeps, converts (Variant::can_convert_strict; Godot 4.3's three conversions) or drops of a typed
 * Array's elements and a typed Dictionary's keys, and what Pandemonium 5's TypedArray keeps.
 * Conversions gdwire does not compute leave the value as written and marked (not_computed). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "codec/engine/pass.h"

const gdw_str gdw_engine_encoded_object_as_id = {(const uint8_t *)"EncodedObjectAsID", 17};

/* ---- typed containers --------------------------------------------------------------------- */

/* The path of item `slot` of the container the walk has just closed (frames[depth]), as
 * gdw_error.path writes it: the walk's open containers give the steps above it. */
static void closed_item_path(const settle_ctx *c, const gdw_value *container, size_t slot,
                             char *path) {
    gdw_engine_path(c, c->depth, path);
    size_t n = strlen(path);
    gdw_path_child(path, &n, container, (uint32_t)slot);
}

/* The engine would hold another value than v, item `slot` of container, and gdwire does not
 * compute it: v stays as written and is marked; the trace is told. (fail_if_approximate is asked at
 * the end, of the tree the pass returns, gdw_engine_settle: a marked value a later step drops, as
 * an element the engine's container refuses, leaves the engine's value exact.) */
static gdw_status not_computed(settle_ctx *c, const gdw_value *container, size_t slot, gdw_value *v,
                               unsigned want) {
    v->flags |= GDW_VF_APPROXIMATE;
    c->approximate++;
    if (!c->opts || !c->opts->trace) return GDW_OK;
    char path[GDW_PATH_MAX];
    closed_item_path(c, container, slot, path);
    gdw_trace_event ev = {c->consumed,    0,
                          c->depth + 1,   (gdw_type)v->type,
                          "not computed", (int64_t)want,
                          path,           gdw_approximate_why(want, v->type)};
    c->opts->trace(c->opts->trace_ctx, &ev);
    return GDW_OK;
}

/* The engine converted item `slot` of container (now v) to `want` by a conversion its C++ leaves
 * undefined (to_i32 and its kind, Basis of a zero Quaternion): v holds the x86-64 build's value;
 * the pass counts it (gdw_doc_undefined_conversions) and the trace is told. */
static void undefined_conversion(settle_ctx *c, const gdw_value *container, size_t slot,
                                 const gdw_value *v, unsigned want) {
    c->undefined++;
    if (!c->opts || !c->opts->trace) return;
    char path[GDW_PATH_MAX];
    closed_item_path(c, container, slot, path);
    gdw_trace_event ev = {c->consumed,
                          0,
                          c->depth + 1,
                          (gdw_type)v->type,
                          "undefined conversion",
                          (int64_t)want,
                          path,
                          gdw_undefined_conversion_why(want)};
    c->opts->trace(c->opts->trace_ctx, &ev);
}

/* What the engine makes of a container's element type: Nil is no type; without objects, any
 * Object type is the class EncodedObjectAsID. Returns the builtin type elements must have
 * (GDW_NIL: any). */
unsigned gdw_engine_settle_desc(settle_ctx *c, gdw_typedesc *td) {
    if (td->kind == GDW_DESC_BUILTIN && td->builtin == GDW_NIL) td->kind = GDW_DESC_NONE;
    if (td->kind == GDW_DESC_NONE) return GDW_NIL;
    bool object = td->kind != GDW_DESC_BUILTIN || td->builtin == GDW_OBJECT;
    if (object && !c->objects) {
        td->kind = GDW_DESC_CLASS;
        td->name = gdw_engine_encoded_object_as_id;
    }
    return object ? (unsigned)GDW_OBJECT : td->builtin;
}

/* int32_t(float) and int64_t(double) as the engine's x86-64 build computes them: a value out of
 * range, infinite or NaN becomes the most negative integer (cvttss2si / cvttsd2si). Such a value is
 * an undefined conversion in the engine's C++ ([conv.fpint]; engine finding 7): another CPU's
 * build holds another integer (ARM64's saturates), so the pass counts it (undefined_here). */
static int32_t to_i32(settle_ctx *c, double x) {
    if (x > -2147483649.0 && x < 2147483648.0) return (int32_t)x;
    c->undefined_here = true;
    return INT32_MIN;
}
static int64_t to_i64(settle_ctx *c, double x) {
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0) return (int64_t)x;
    c->undefined_here = true;
    return INT64_MIN;
}
/* uint8_t(double), a PackedByteArray's element; defined in C++ only where the truncated value is
 * 0..255. The x86-64 build converts through a 32-bit cvttsd2si and keeps its low byte: past
 * int32_t's range that is INT32_MIN's, 0 (Godot 4.6.3 holds 0 for 4294967301.0, not 5:
 * tools/engines/godot4.6-typed_conversions.tsv). */
static uint8_t to_u8(settle_ctx *c, double x) {
    if (!(x > -1.0 && x < 256.0)) c->undefined_here = true;
    if (x > -2147483649.0 && x < 2147483648.0) return (uint8_t)(int32_t)x;
    return (uint8_t)INT32_MIN;
}

/* v becomes an empty value of type t (its fields set by the caller). */
static void reset_value(gdw_value *v, unsigned t) {
    memset(v, 0, sizeof *v);
    v->type = (uint8_t)t;
}

/* A FLOAT holding x as a decoded one would after the engine wrote it: 32-bit where that is exact.
 * */
static void set_float(gdw_value *v, double x) {
    reset_value(v, GDW_FLOAT);
    bool narrow = !isnan(x) && (double)(float)x == x;
    v->width = narrow ? 4 : 8;
    v->u.bits = narrow ? f32_to_bits((float)x) : f64_to_bits(x);
}

/* Math vectors between their float and integer forms, component by component. */
static gdw_status convert_vector(settle_ctx *c, gdw_value *v, unsigned to) {
    size_t n = gdw_type_components((gdw_type)to);
    bool to_reals = gdw_type_has_reals((gdw_type)to);
    unsigned w = to_reals ? pass_real_width(c) : 4;
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, n * w);
    if (!out) return GDW_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        if (to_reals) {
            double x = (double)gdw_value_int_at(v, i);
            if (w == 4) wr_u32le(out + 4 * i, f32_to_bits((float)x));
            else wr_u64le(out + 8 * i, f64_to_bits(x));
        } else {
            /* the engine holds real_t components: int32_t(real_t) */
            double x = gdw_value_real(v, i);
            if (pass_real_width(c) == 4) x = (double)(float)x;
            wr_u32le(out + 4 * i, (uint32_t)to_i32(c, x));
        }
    }
    v->type = (uint8_t)to;
    v->width = to_reals ? (uint8_t)w : 0;
    v->u.bytes = out;
    return GDW_OK;
}

/* Packed arrays become Arrays of their elements. */
static gdw_status packed_to_array(settle_ctx *c, gdw_value *v) {
    unsigned t = v->type, et;
    switch (t) {
    case GDW_PACKED_BYTE_ARRAY:
    case GDW_PACKED_INT32_ARRAY:
    case GDW_PACKED_INT64_ARRAY: et = GDW_INT; break;
    case GDW_PACKED_FLOAT32_ARRAY:
    case GDW_PACKED_FLOAT64_ARRAY: et = GDW_FLOAT; break;
    case GDW_PACKED_STRING_ARRAY: et = GDW_STRING; break;
    case GDW_PACKED_VECTOR2_ARRAY: et = GDW_VECTOR2; break;
    case GDW_PACKED_VECTOR3_ARRAY: et = GDW_VECTOR3; break;
    case GDW_PACKED_VECTOR4_ARRAY: et = GDW_VECTOR4; break;
    case GDW_PACKED_COLOR_ARRAY: et = GDW_COLOR; break;
    default: return GDW_ERR_UNSUPPORTED_TYPE;
    }
    gdw_value *items = (gdw_value *)gdw_arena_alloc(c->doc, (size_t)v->len * sizeof *items);
    if (!items) return GDW_ERR_NOMEM;
    size_t per = gdw_type_components((gdw_type)et);
    for (uint32_t i = 0; i < v->len; i++) {
        gdw_value *x = &items[i];
        memset(x, 0, sizeof *x);
        x->type = (uint8_t)et;
        if (et == GDW_INT) x->u.i = gdw_value_int_at(v, i);
        else if (et == GDW_FLOAT) set_float(x, gdw_value_real(v, i));
        else if (et == GDW_STRING) {
            const gdw_str *s = (const gdw_str *)v->u.ext;
            x->len = s[i].len;
            x->u.bytes = s[i].ptr;
        } else {
            x->width = v->width;
            x->len = (uint32_t)per;
            x->u.bytes = v->u.bytes + (size_t)i * per * v->width;
        }
    }
    uint32_t n = v->len;
    reset_value(v, GDW_ARRAY);
    v->len = n;
    v->u.items = items;
    return GDW_OK;
}

/* NodePath to String, as Godot 4.6.3's NodePath::operator String (core/string/node_path.cpp):
 * "/" when absolute, the names joined by "/", then ":" and the subnames joined by ":" unless that
 * join is empty. So a lone empty subname leaves no ":" (NodePath "/:" reads back as "/"; 4.3-stable
 * still wrote ":" before each subname, but only 4.4+ rows convert a NodePath to a String). */
static gdw_status nodepath_to_string(settle_ctx *c, gdw_value *v) {
    const gdw_nodepath *np = (const gdw_nodepath *)v->u.ext;
    uint32_t parts = np->name_count + np->subname_count;
    bool lone_empty_subname = np->subname_count == 1 && np->parts[np->name_count].len == 0;
    if (lone_empty_subname) parts--;
    size_t len = (np->flags & 1) ? 1 : 0;
    for (uint32_t i = 0; i < parts; i++)
        len += np->parts[i].len + (i > 0 || i >= np->name_count ? 1 : 0);
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, len ? len : 1), *p = out;
    if (!out) return GDW_ERR_NOMEM;
    if (np->flags & 1) *p++ = '/';
    for (uint32_t i = 0; i < parts; i++) {
        if (i >= np->name_count) *p++ = ':';
        else if (i > 0) *p++ = '/';
        if (np->parts[i].len) memcpy(p, np->parts[i].ptr, np->parts[i].len);
        p += np->parts[i].len;
    }
    reset_value(v, GDW_STRING);
    v->len = (uint32_t)(p - out);
    v->u.bytes = out;
    return GDW_OK;
}


/* Color(int): Color::hex of the low 32 bits. */
static gdw_status int_to_color(settle_ctx *c, gdw_value *v) {
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, 16);
    if (!out) return GDW_ERR_NOMEM;
    uint32_t hex = (uint32_t)v->u.i;
    for (unsigned k = 0; k < 4; k++)
        wr_u32le(out + 4 * k, f32_to_bits(gdw_engine_hex_channel(hex, k)));
    reset_value(v, GDW_COLOR);
    v->width = 4;
    v->len = 4;
    v->u.bytes = out;
    return GDW_OK;
}

/* The real components of a math value as doubles (n of them). */
static void reals_of(const gdw_value *v, double *out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = gdw_value_real(v, i);
}

/* A math value of type t from n doubles, stored as the engine's real_t. */
static gdw_status set_reals(settle_ctx *c, gdw_value *v, unsigned t, const double *x, size_t n) {
    unsigned w = t == GDW_COLOR ? 4 : pass_real_width(c);
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, n * w);
    if (!out) return GDW_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        if (w == 4) wr_u32le(out + 4 * i, f32_to_bits((float)x[i]));
        else wr_u64le(out + 8 * i, f64_to_bits(x[i]));
    }
    reset_value(v, t);
    v->width = (uint8_t)w;
    v->len = (uint32_t)n;
    v->u.bytes = out;
    return GDW_OK;
}

/* Transform2D, Transform3D, Basis and Projection into one another where the engine copies
 * components (core/variant/variant.cpp: the Transform2D and Transform3D conversions,
 * Projection(Transform3D), Projection::operator Transform3D). On the wire: Transform2D is
 * columns[3][2], Basis rows[3][3], Transform3D basis rows then origin, Projection columns[4][4].
 * Each map gives, per component written, the component read, or COPY_0 / COPY_1 for a constant.
 * A component is copied bit for bit when both sides are the same real_t, as the engine's
 * assignments copy it: a signalling NaN stays signalling (a trip through double would quiet it,
 * found by the differential run against Godot 4.6.3). */
enum { COPY_0 = -1, COPY_1 = -2 };
typedef struct {
    unsigned to, from, n;
    int8_t src[16];
} copy_map;
static const copy_map k_copy_maps[] = {
    {GDW_TRANSFORM2D, GDW_TRANSFORM3D, 6, {0, 3, 1, 4, 9, 10}},
    {GDW_TRANSFORM3D,
     GDW_TRANSFORM2D,
     12,
     {0, 2, COPY_0, 1, 3, COPY_0, COPY_0, COPY_0, COPY_1, 4, 5, COPY_0}},
    {GDW_TRANSFORM3D, GDW_BASIS, 12, {0, 1, 2, 3, 4, 5, 6, 7, 8, COPY_0, COPY_0, COPY_0}},
    {GDW_TRANSFORM3D, GDW_PROJECTION, 12, {0, 4, 8, 1, 5, 9, 2, 6, 10, 12, 13, 14}},
    {GDW_PROJECTION,
     GDW_TRANSFORM3D,
     16,
     {0, 3, 6, COPY_0, 1, 4, 7, COPY_0, 2, 5, 8, COPY_0, 9, 10, 11, COPY_1}},
};

static gdw_status copy_math(settle_ctx *c, gdw_value *v, unsigned to) {
    const copy_map *m = NULL;
    for (size_t i = 0; i < sizeof k_copy_maps / sizeof *k_copy_maps; i++)
        if (k_copy_maps[i].to == to && k_copy_maps[i].from == v->type) m = &k_copy_maps[i];
    assert(m); /* the conversion table names only these pairs */
    unsigned w = pass_real_width(c);
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, m->n * w);
    if (!out) return GDW_ERR_NOMEM;
    for (unsigned i = 0; i < m->n; i++) {
        int k = m->src[i];
        uint8_t *o = out + i * w;
        if (k >= 0 && v->width == w) memcpy(o, v->u.bytes + (size_t)k * w, w);
        else {
            double x = k >= 0 ? gdw_value_real(v, (size_t)k) : k == COPY_1 ? 1.0 : 0.0;
            if (w == 4) wr_u32le(o, f32_to_bits((float)x));
            else wr_u64le(o, f64_to_bits(x));
        }
    }
    reset_value(v, to);
    v->width = (uint8_t)w;
    v->len = m->n;
    v->u.bytes = out;
    return GDW_OK;
}

/* NodePath(String) (core/string/node_path.cpp): absolute after a leading '/'; subnames after the
 * first ':', separated by ':' (an empty one before the end makes the whole path empty); names
 * between '/'s, empty ones skipped. */
static gdw_status string_to_nodepath(settle_ctx *c, gdw_value *v) {
    static const gdw_nodepath_rules k_godot4_rules = {
        .strict = false, .last_is_property = false, .godot2_bare = false};
    gdw_nodepath_split sp;
    gdw_nodepath_split_text(v->u.bytes, v->len, &k_godot4_rules, NULL, &sp);
    gdw_nodepath *np = (gdw_nodepath *)gdw_arena_alloc(c->doc, sizeof *np);
    /* + 1: never 0 bytes */
    gdw_str *parts = (gdw_str *)gdw_arena_alloc(c->doc, ((size_t)sp.names + sp.subnames + 1) *
                                                            sizeof *parts);
    if (!np || !parts) return GDW_ERR_NOMEM;
    gdw_nodepath_split_text(v->u.bytes, v->len, &k_godot4_rules, parts, &sp);
    gdw_nodepath_of_split(np, &sp, parts);
    reset_value(v, GDW_NODE_PATH);
    v->u.ext = np;
    return GDW_OK;
}

/* String::to_int: the digits before the first '.', others skipped, a '-' before any digit flips
 * the sign. false where the engine would overflow (it fails with an error). */
static bool string_to_int(gdw_str s, int64_t *out) {
    const uint8_t *dot = s.len ? (const uint8_t *)memchr(s.ptr, '.', s.len) : NULL;
    uint32_t to = dot ? (uint32_t)(dot - s.ptr) : s.len;
    int64_t v = 0, sign = 1;
    for (uint32_t i = 0; i < to; i++) {
        uint8_t ch = s.ptr[i];
        if (ch >= '0' && ch <= '9') {
            if (v > (INT64_MAX - (ch - '0')) / 10) return false;
            v = v * 10 + (ch - '0');
        } else if (v == 0 && ch == '-') {
            sign = -sign;
        }
    }
    *out = v * sign;
    return true;
}

/* String::to_float: the engine's built_in_strtod (core/string/ustring.cpp, Godot 4.3-stable
 * 21dd2992 lines 2667-2886, the same in 4.6.3), step for step in the same double arithmetic, so
 * the bits are the engine's: blanks (' ', TAB, LF) skipped, a sign, at most 18 mantissa digits
 * (two 9-digit integers, 1e9 * frac1 + frac2), one '.', an exponent only when a digit follows
 * "e" / "E" / "e-" / "e+", the exponent clamped to 511 and applied through the table of 10^2^i.
 * No digit gives 0 with the sign ("-" is -0.0); text after the number is ignored; an "e" with no
 * digit after it ends the number unscaled ("1.5e" is 15: the engine jumps past the scaling);
 * the string ends at its first NUL, as the engine's String does. The exponent is the engine's
 * int, which wraps as its build runs it (undefined behaviour in its C++, measured on Godot
 * 4.6.3: "314159e526535879323846" is 0.0, "1234567890e1234567890123" is inf). false: not
 * computed, only where the wrapped exponent is INT32_MIN, where the engine's scaling loop does
 * not end. */
static bool string_to_float(gdw_str s, double *out) {
    static const double powers_of_10[] = {10.,    100.,   1.0e4,   1.0e8,  1.0e16,
                                          1.0e32, 1.0e64, 1.0e128, 1.0e256};
    size_t len = s.len;
    const uint8_t *nul = len ? (const uint8_t *)memchr(s.ptr, 0, len) : NULL;
    if (nul) len = (size_t)(nul - s.ptr);
#define AT(i) ((i) < len ? s.ptr[i] : 0u)
#define DIGIT(ch) ((ch) >= '0' && (ch) <= '9')
    size_t p = 0;
    while (AT(p) == ' ' || AT(p) == '\t' || AT(p) == '\n') p++;
    bool sign = AT(p) == '-';
    if (AT(p) == '-' || AT(p) == '+') p++;
    int dec_pt = -1, mant_size = 0;
    for (;; mant_size++) {
        unsigned ch = AT(p);
        if (!DIGIT(ch)) {
            if (ch != '.' || dec_pt >= 0) break;
            dec_pt = mant_size;
        }
        p++;
    }
    size_t p_exp = p;
    p -= (size_t)mant_size;
    if (dec_pt < 0) dec_pt = mant_size;
    else mant_size -= 1;
    int frac_exp;
    if (mant_size > 18) {
        frac_exp = dec_pt - 18;
        mant_size = 18;
    } else frac_exp = dec_pt - mant_size;
    double fraction = 0.0;
    if (mant_size > 0) {
        int frac1 = 0, frac2 = 0;
        for (; mant_size > 9; mant_size--) {
            unsigned ch = AT(p);
            p++;
            if (ch == '.') {
                ch = AT(p);
                p++;
            }
            frac1 = 10 * frac1 + (int)(ch - '0');
        }
        for (; mant_size > 0; mant_size--) {
            unsigned ch = AT(p);
            p++;
            if (ch == '.') {
                ch = AT(p);
                p++;
            }
            frac2 = 10 * frac2 + (int)(ch - '0');
        }
        fraction = (1.0e9 * frac1) + frac2;
        p = p_exp;
        int exp = 0;
        bool exp_sign = false;
        if (AT(p) == 'E' || AT(p) == 'e') {
            p++;
            if (AT(p) == '-') {
                exp_sign = true;
                p++;
            } else if (AT(p) == '+') p++;
            if (DIGIT(AT(p))) {
                /* the engine's int, wrapping as its build does (measured on 4.6.3) */
                uint32_t e = 0;
                while (DIGIT(AT(p))) {
                    e = e * 10u + (uint32_t)(AT(p) - '0');
                    p++;
                }
                exp = (int)(int32_t)e;
            } else {
                /* as the engine: "e" without digits skips the scaling too, "1.5e" is 15 */
                goto done;
            }
        }
        exp = (int)(int32_t)(exp_sign ? (uint32_t)frac_exp - (uint32_t)exp
                                      : (uint32_t)frac_exp + (uint32_t)exp);
        exp_sign = exp < 0;
        if (exp_sign) exp = (int)(int32_t)(0u - (uint32_t)exp);
        /* INT_MIN stays negative: the engine's scaling loop never ends */
        if (exp < 0) return false;
        if (exp > 511) exp = 511;
        double dbl_exp = 1.0;
        for (const double *d = powers_of_10; exp != 0; exp >>= 1, ++d)
            if (exp & 1) dbl_exp *= *d;
        if (exp_sign) fraction /= dbl_exp;
        else fraction *= dbl_exp;
    }
done:
#undef AT
#undef DIGIT
    *out = sign ? -fraction : fraction;
    return true;
}

/* An element as the engine's loose Variant conversion makes it a number (operator int64_t when
 * !real, operator double when real): Nil, containers and other types are 0. false: not
 * computed (a float parsed from a String with digits; an int that overflows). */
static bool loose_number(settle_ctx *c, const gdw_value *e, bool real, int64_t *iv, double *dv) {
    *iv = 0;
    *dv = 0;
    switch (e->type) {
    case GDW_BOOL:
    case GDW_INT:
        *iv = e->u.i;
        *dv = (double)e->u.i;
        return true;
    case GDW_FLOAT: {
        double x = gdw_value_real(e, 0);
        *dv = x;
        /* operator int64_t where the caller holds an integer (a byte's or int32's own conversion,
         * to_u8 and to_i32, then overrides it) */
        if (!real) *iv = to_i64(c, x);
        return true;
    }
    case GDW_STRING:
    case GDW_STRING_NAME: {
        gdw_str s = str_of(e);
        return real ? string_to_float(s, dv) : string_to_int(s, iv);
    }
    default: return true;
    }
}

static bool loose_vector(const gdw_value *e) {
    switch (e->type) {
    case GDW_VECTOR2:
    case GDW_VECTOR2I:
    case GDW_VECTOR3:
    case GDW_VECTOR3I:
    case GDW_VECTOR4:
    case GDW_VECTOR4I: return true;
    default: return false;
    }
}

/* The text String(Variant) gives an element, where gdwire writes it as the engine does (Nil,
 * bool, int, String, StringName, NodePath); false for every other type. */
static bool element_text(settle_ctx *c, const gdw_value *e, gdw_str *out, gdw_status *s) {
    static const char *const k_null = "<null>", *const k_true = "true", *const k_false = "false";
    switch (e->type) {
    case GDW_NIL:
        out->ptr = (const uint8_t *)k_null;
        out->len = 6;
        return true;
    case GDW_BOOL:
        out->ptr = (const uint8_t *)(e->u.i ? k_true : k_false);
        out->len = e->u.i ? 4 : 5;
        return true;
    case GDW_STRING:
    case GDW_STRING_NAME: *out = str_of(e); return true;
    case GDW_INT: { /* String::num_int64 */
        char digits[24];
        size_t n = 0;
        uint64_t m = e->u.i < 0 ? 0 - (uint64_t)e->u.i : (uint64_t)e->u.i;
        do {
            digits[n++] = (char)('0' + m % 10);
            m /= 10;
        } while (m);
        uint8_t *p = (uint8_t *)gdw_arena_alloc(c->doc, n + 1);
        if (!p) {
            *s = GDW_ERR_NOMEM;
            return true;
        }
        size_t k = 0;
        if (e->u.i < 0) p[k++] = '-';
        while (n) p[k++] = (uint8_t)digits[--n];
        out->ptr = p;
        out->len = (uint32_t)k;
        return true;
    }
    case GDW_NODE_PATH: {
        gdw_value t = *e;
        if ((*s = nodepath_to_string(c, &t))) return true;
        *out = str_of(&t);
        return true;
    }
    default: return false;
    }
}

/* A non-empty Array into a PackedStringArray: each element's text. false: not computed. */
static bool array_to_strings(settle_ctx *c, gdw_value *v, gdw_status *s) {
    const gdw_value *items = gdw_items(v);
    uint32_t n = v->len;
    gdw_str *out = (gdw_str *)gdw_arena_alloc(c->doc, (size_t)n * sizeof *out);
    if (!out) {
        *s = GDW_ERR_NOMEM;
        return true;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!element_text(c, &items[i], &out[i], s)) return false;
        if (*s) return true;
    }
    reset_value(v, GDW_PACKED_STRING_ARRAY);
    v->len = n;
    v->u.ext = out;
    return true;
}

/* A non-empty Array into a packed array of numbers, vectors or colours, each element converted
 * loosely (an element of no convertible type becomes the zero value; a Color, Color(); a String
 * entering a Color, Color(String)). false: not computed (see gdw_approximate_why). */
static bool array_to_packed(settle_ctx *c, gdw_value *v, unsigned to, gdw_status *s) {
    const gdw_value *items = gdw_items(v);
    uint32_t n = v->len;
    unsigned elem = 0, w = 0, per = 1;
    switch (to) {
    case GDW_PACKED_BYTE_ARRAY: w = 1; break;
    case GDW_PACKED_INT32_ARRAY: w = 4; break;
    case GDW_PACKED_INT64_ARRAY: w = 8; break;
    case GDW_PACKED_FLOAT32_ARRAY: w = 4; break;
    case GDW_PACKED_FLOAT64_ARRAY: w = 8; break;
    case GDW_PACKED_VECTOR2_ARRAY: elem = GDW_VECTOR2; break;
    case GDW_PACKED_VECTOR3_ARRAY: elem = GDW_VECTOR3; break;
    case GDW_PACKED_VECTOR4_ARRAY: elem = GDW_VECTOR4; break;
    case GDW_PACKED_COLOR_ARRAY: elem = GDW_COLOR; break;
    case GDW_PACKED_STRING_ARRAY: return array_to_strings(c, v, s);
    default: return false;
    }
    if (elem) {
        per = (unsigned)gdw_type_components((gdw_type)elem);
        w = elem == GDW_COLOR ? 4 : pass_real_width(c);
    }
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, (size_t)n * per * w + 1);
    if (!out) {
        *s = GDW_ERR_NOMEM;
        return true;
    }
    bool reals = to == GDW_PACKED_FLOAT32_ARRAY || to == GDW_PACKED_FLOAT64_ARRAY || elem;
    for (uint32_t i = 0; i < n; i++) {
        const gdw_value *e = &items[i];
        double x[4] = {0, 0, 0, 0};
        int64_t iv = 0;
        if (!elem) {
            if (!loose_number(c, e, reals, &iv, &x[0])) return false;
        } else if (e->type == elem) {
            reals_of(e, x, per);
        } else if (elem == GDW_COLOR && e->type == GDW_INT) {
            for (unsigned k = 0; k < 4; k++)
                x[k] = (double)gdw_engine_hex_channel((uint32_t)e->u.i, k);
            /* Variant::operator Color: Color(String) */
        } else if (elem == GDW_COLOR && e->type == GDW_STRING) {
            float rgba[4];
            if (!gdw_engine_color_from_text(e->u.bytes, e->len, rgba)) return false;
            for (unsigned k = 0; k < 4; k++) x[k] = (double)rgba[k];
            /* a StringName among them: operator Color knows String only */
        } else if (elem == GDW_COLOR) {
            x[3] = 1;
        } else if (loose_vector(e)) { /* any Vector2/3/4(i): its first components, the rest 0 */
            size_t have = gdw_type_components((gdw_type)e->type);
            bool r = gdw_type_has_reals((gdw_type)e->type);
            for (unsigned k = 0; k < per && k < have; k++)
                x[k] = r ? gdw_value_real(e, k) : (double)gdw_value_int_at(e, k);
        }
        uint8_t *p = out + (size_t)i * per * w;
        for (unsigned k = 0; k < per; k++, p += w) {
            if (reals && w == 4) wr_u32le(p, f32_to_bits((float)x[k]));
            else if (reals) wr_u64le(p, f64_to_bits(x[k]));
            else if (w == 1) *p = e->type == GDW_FLOAT ? to_u8(c, x[0]) : (uint8_t)iv;
            else if (w == 4)
                wr_u32le(p, e->type == GDW_FLOAT ? (uint32_t)to_i32(c, x[0]) : (uint32_t)iv);
            else wr_u64le(p, (uint64_t)iv);
        }
    }
    reset_value(v, to);
    v->width = reals ? (uint8_t)w : 0;
    v->len = n;
    v->u.bytes = out;
    return true;
}

enum { KEEP, DROP };

/* ---- ContainerTypeValidate: the table of conversions --------------------------------------
 *
 * What an element of type `have` entering a typed container of builtin type `want` becomes: each
 * row a conversion the engine makes, as Godot 4.6's Variant::can_convert_strict allows them
 * (core/variant/variant.cpp) and ContainerTypeValidate::validate applies them
 * (core/variant/container_type_validate.h), so that a reviewer can hold one against the other. A
 * pair with no row is dropped; a value of the type itself is kept. EXACT rows are computed bit
 * for bit; PARTIAL rows where their function can, and elsewhere the element is kept as written and
 * marked (not_computed, GDW_VF_APPROXIMATE). Godot 4.3 (typed_rule GDW_TYPED_VALIDATE) has its own
 * three rows. A row names a range of types where one function serves them all. */
enum { EXACT, PARTIAL };
typedef struct conv_at {
    settle_ctx *c;
    unsigned want;
    const gdw_value *container;
    size_t slot;
} conv_at;
typedef gdw_status (*conv_fn)(const conv_at *at, gdw_value *v);
typedef struct conversion {
    uint8_t want, want_last, have, have_last;
    conv_fn fn;
    uint8_t how;
} conversion;

static gdw_status cv_retype(const conv_at *at, gdw_value *v) {
    v->type = (uint8_t)at->want;
    return GDW_OK;
}
static gdw_status cv_to_bool(const conv_at *at, gdw_value *v) {
    bool b = v->type == GDW_FLOAT ? gdw_value_real(v, 0) != 0 : v->u.i != 0;
    (void)at;
    reset_value(v, GDW_BOOL);
    v->u.i = b;
    return GDW_OK;
}
static gdw_status cv_to_int(const conv_at *at, gdw_value *v) {
    int64_t x = v->type == GDW_FLOAT ? to_i64(at->c, gdw_value_real(v, 0)) : v->u.i;
    reset_value(v, GDW_INT);
    v->u.i = x;
    return GDW_OK;
}
static gdw_status cv_to_float(const conv_at *at, gdw_value *v) {
    (void)at;
    set_float(v, (double)v->u.i);
    return GDW_OK;
}
/* Godot 4.3: `(float)inout_variant`, through a C float */
static gdw_status cv_to_float_43(const conv_at *at, gdw_value *v) {
    (void)at;
    set_float(v, (double)(float)v->u.i);
    return GDW_OK;
}
static gdw_status cv_nodepath_to_string(const conv_at *at, gdw_value *v) {
    return nodepath_to_string(at->c, v);
}
static gdw_status cv_object_to_rid(const conv_at *at, gdw_value *v) {
    (void)at;
    reset_value(v, GDW_RID);
    v->flags = GDW_VF_RID_ID;
    return GDW_OK;
}
static gdw_status cv_int_to_color(const conv_at *at, gdw_value *v) {
    return int_to_color(at->c, v);
}
static gdw_status cv_string_to_color(const conv_at *at, gdw_value *v) {
    float rgba[4];
    double x[4];
    if (!gdw_engine_color_from_text(v->u.bytes, v->len, rgba))
        return not_computed(at->c, at->container, at->slot, v, at->want);
    for (unsigned k = 0; k < 4; k++) x[k] = (double)rgba[k];
    return set_reals(at->c, v, GDW_COLOR, x, 4);
}
static gdw_status cv_packed_to_array(const conv_at *at, gdw_value *v) {
    return packed_to_array(at->c, v);
}
static gdw_status cv_copy_math(const conv_at *at, gdw_value *v) {
    return copy_math(at->c, v, at->want);
}
/* Basis::get_quaternion */
static gdw_status cv_basis_to_quaternion(const conv_at *at, gdw_value *v) {
    double m[9], q[4];
    reals_of(v, m, 9);
    if (!gdw_engine_quaternion_from_basis(m, pass_real_width(at->c), q))
        return not_computed(at->c, at->container, at->slot, v, at->want);
    return set_reals(at->c, v, GDW_QUATERNION, q, 4);
}
/* Basis(Quaternion); Transform3D(Basis(Quaternion), Vector3()) */
static gdw_status cv_quaternion_to_basis(const conv_at *at, gdw_value *v) {
    double q[4], m[12] = {0};
    reals_of(v, q, 4);
    /* a Quaternion of length 0: Basis(Quaternion) divides by it (undefined in C++; finding 7) */
    if (!gdw_engine_basis_from_quaternion(q, pass_real_width(at->c), m))
        at->c->undefined_here = true;
    return set_reals(at->c, v, at->want, m, at->want == GDW_BASIS ? 9 : 12);
}
static gdw_status cv_string_to_nodepath(const conv_at *at, gdw_value *v) {
    return string_to_nodepath(at->c, v);
}
static gdw_status cv_vector(const conv_at *at, gdw_value *v) {
    return convert_vector(at->c, v, at->want);
}
/* an Array into a packed array: each element converted; an empty Array is the empty packed array */
static gdw_status cv_array_to_packed(const conv_at *at, gdw_value *v) {
    gdw_status s = GDW_OK;
    unsigned want = at->want;
    if (v->len && array_to_packed(at->c, v, want, &s)) return s;
    if (v->len) return not_computed(at->c, at->container, at->slot, v, want);
    reset_value(v, want);
    v->width = gdw_type_has_reals((gdw_type)want) ? (uint8_t)pass_real_width(at->c) : 0;
    if (want == GDW_PACKED_FLOAT32_ARRAY || want == GDW_PACKED_COLOR_ARRAY) v->width = 4;
    if (want == GDW_PACKED_FLOAT64_ARRAY) v->width = 8;
    v->u.bytes = (const uint8_t *)"";
    return GDW_OK;
}

#define ONE(want, have) want, want, have, have
static const conversion k_convert_strict[] = {
    /* Godot 4.4+ (typed_rule GDW_TYPED_CONVERT) */
    {ONE(GDW_BOOL, GDW_INT), cv_to_bool, EXACT},
    {ONE(GDW_BOOL, GDW_FLOAT), cv_to_bool, EXACT},
    {ONE(GDW_INT, GDW_BOOL), cv_to_int, EXACT},
    {ONE(GDW_INT, GDW_FLOAT), cv_to_int, EXACT},
    {ONE(GDW_FLOAT, GDW_BOOL), cv_to_float, EXACT},
    {ONE(GDW_FLOAT, GDW_INT), cv_to_float, EXACT},
    {ONE(GDW_STRING, GDW_STRING_NAME), cv_retype, EXACT},
    {ONE(GDW_STRING, GDW_NODE_PATH), cv_nodepath_to_string, EXACT},
    {ONE(GDW_STRING_NAME, GDW_STRING), cv_retype, EXACT},
    {ONE(GDW_RID, GDW_OBJECT), cv_object_to_rid, EXACT},
    {ONE(GDW_COLOR, GDW_INT), cv_int_to_color, EXACT},
    {ONE(GDW_COLOR, GDW_STRING), cv_string_to_color, PARTIAL},
    {GDW_ARRAY, GDW_ARRAY, GDW_PACKED_BYTE_ARRAY, GDW_PACKED_COLOR_ARRAY, cv_packed_to_array,
     EXACT},
    {ONE(GDW_TRANSFORM2D, GDW_TRANSFORM3D), cv_copy_math, EXACT},
    {ONE(GDW_PROJECTION, GDW_TRANSFORM3D), cv_copy_math, EXACT},
    {ONE(GDW_QUATERNION, GDW_BASIS), cv_basis_to_quaternion, PARTIAL},
    {ONE(GDW_BASIS, GDW_QUATERNION), cv_quaternion_to_basis, EXACT},
    {ONE(GDW_TRANSFORM3D, GDW_QUATERNION), cv_quaternion_to_basis, EXACT},
    {ONE(GDW_TRANSFORM3D, GDW_TRANSFORM2D), cv_copy_math, EXACT},
    {ONE(GDW_TRANSFORM3D, GDW_BASIS), cv_copy_math, EXACT},
    {ONE(GDW_TRANSFORM3D, GDW_PROJECTION), cv_copy_math, EXACT},
    {ONE(GDW_NODE_PATH, GDW_STRING), cv_string_to_nodepath, EXACT},
    {ONE(GDW_VECTOR2, GDW_VECTOR2I), cv_vector, EXACT},
    {ONE(GDW_VECTOR2I, GDW_VECTOR2), cv_vector, EXACT},
    {ONE(GDW_VECTOR3, GDW_VECTOR3I), cv_vector, EXACT},
    {ONE(GDW_VECTOR3I, GDW_VECTOR3), cv_vector, EXACT},
    {ONE(GDW_VECTOR4, GDW_VECTOR4I), cv_vector, EXACT},
    {ONE(GDW_VECTOR4I, GDW_VECTOR4), cv_vector, EXACT},
    {ONE(GDW_RECT2, GDW_RECT2I), cv_vector, EXACT},
    {ONE(GDW_RECT2I, GDW_RECT2), cv_vector, EXACT},
    {GDW_PACKED_BYTE_ARRAY, GDW_PACKED_COLOR_ARRAY, GDW_ARRAY, GDW_ARRAY, cv_array_to_packed,
     PARTIAL},
};
static const conversion k_convert_validate_43[] = {
    /* Godot 4.3 (typed_rule GDW_TYPED_VALIDATE) */
    {ONE(GDW_STRING, GDW_STRING_NAME), cv_retype, EXACT},
    {ONE(GDW_STRING_NAME, GDW_STRING), cv_retype, EXACT},
    {ONE(GDW_FLOAT, GDW_INT), cv_to_float_43, EXACT},
};
#undef ONE

/* ContainerTypeValidate::validate for an element of builtin type `want`, item `slot` of
 * container: KEEP (v possibly converted) or DROP; *s is set on NOMEM. */
static int validate_elem(settle_ctx *c, unsigned want, const gdw_value *container, size_t slot,
                         gdw_value *v, gdw_status *s) {
    unsigned have = v->type;
    if (want == GDW_NIL || have == want) return KEEP;
    if (want == GDW_OBJECT) return have == GDW_NIL ? KEEP : DROP;
    bool v43 = RULE(c, GDW_RULE_TYPED_RULE) == GDW_TYPED_VALIDATE;
    const conversion *t = v43 ? k_convert_validate_43 : k_convert_strict;
    size_t n = v43 ? sizeof k_convert_validate_43 / sizeof *t : sizeof k_convert_strict / sizeof *t;
    for (size_t i = 0; i < n; i++) {
        if (want < t[i].want || want > t[i].want_last || have < t[i].have || have > t[i].have_last)
            continue;
        conv_at at = {c, want, container, slot};
        bool marked = v->flags & GDW_VF_APPROXIMATE;
        c->undefined_here = false;
        *s = t[i].fn(&at, v);
        /* an EXACT row computes, always */
        assert(t[i].how == PARTIAL || marked || !(v->flags & GDW_VF_APPROXIMATE));
        (void)marked;
        if (c->undefined_here && !*s) undefined_conversion(c, container, slot, v, want);
        return KEEP;
    }
    return DROP;
}

/* The elements (stride 1) or keys (stride 2) of a container through validate_elem; the dropped
 * ones (with their values) are removed. */
gdw_status gdw_engine_validate_items(settle_ctx *c, unsigned want, const gdw_value *container,
                                     gdw_value *items, uint32_t *len, unsigned stride) {
    if (want == GDW_NIL) return GDW_OK;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < *len; i++) {
        gdw_status s = GDW_OK;
        int r = validate_elem(c, want, container, (size_t)stride * i, &items[stride * i], &s);
        if (s) return s;
        if (r == DROP) continue;
        if (kept != i) memmove(&items[stride * kept], &items[stride * i], stride * sizeof *items);
        kept++;
    }
    *len = kept;
    return GDW_OK;
}

/* Pandemonium 5's TypedArray and PackedTypedArray (core/variant/typed_array.cpp push_back and
 * can_take_variant, v5.2.0): an element of exactly the element type is kept, Nil too where the
 * type is Object; any other is dropped (push_back returns false, decode_variant goes on). A
 * decoded object id is an EncodedObjectAsID instance (null for id 0): kept where the element
 * class is one it is (Object::is_class: EncodedObjectAsID, Reference, Object). A full Object kept
 * where its class is the element class or Object; for any other class the engine asks ClassDB,
 * which gdwire does not model: kept as written and marked. A PackedTypedArray of floats holds
 * them as real_t (core/variant/packed_typed_array.cpp: Vector<real_t>): a double is narrowed. */
gdw_status gdw_engine_keep_same_type(settle_ctx *c, gdw_value *v, gdw_container *ct) {
    static const char *const k_id_classes[] = {"EncodedObjectAsID", "Reference", "Object"};
    unsigned want = ct->elem.kind == GDW_DESC_BUILTIN ? ct->elem.builtin : (unsigned)GDW_OBJECT;
    /* header bit 16: the engine names it so */
    gdw_str cls = ct->elem.id_only ? gdw_engine_encoded_object_as_id : ct->elem.name;
    bool packed = v->type == GDW_PACKED_TYPED_ARRAY;
    uint32_t kept = 0;
    /* the document's own: kept elements move down in place */
    gdw_value *items = (gdw_value *)gdw_items(v);
    for (uint32_t i = 0; i < v->len && items; i++) {
        gdw_value *e = &items[i];
        bool keep = e->type == want || (e->type == GDW_NIL && want == GDW_OBJECT);
        if (keep && e->type == GDW_OBJECT && !(e->flags & GDW_VF_OBJECT_NULL)) {
            gdw_str have = gdw_engine_encoded_object_as_id;
            if (!(e->flags & GDW_VF_OBJECT_ID)) {
                have.ptr = NULL;
                have.len = 0;
                if (e->u.ext) have = ((const gdw_object *)e->u.ext)->class_name;
            }
            keep = false;
            for (size_t k = 0; k < 3 && !keep; k++) {
                size_t n = strlen(k_id_classes[k]);
                bool named = cls.len == n && memcmp(cls.ptr, k_id_classes[k], n) == 0;
                keep = named && ((e->flags & GDW_VF_OBJECT_ID) || k == 2);
            }
            if (!keep && !(e->flags & GDW_VF_OBJECT_ID)) keep = str_same(have, cls);
            if (!keep && !(e->flags & GDW_VF_OBJECT_ID)) {
                gdw_status s = not_computed(c, v, i, e, GDW_OBJECT);
                if (s) return s;
                keep = true;
            }
        }
        if (!keep) continue;
        if (packed && e->type == GDW_FLOAT && e->width == 8 && pass_real_width(c) == 4) {
            /* a PackedTypedArray keeps its floats as real_t */
            float f = (float)gdw_value_real(e, 0);
            e->width = 4;
            e->u.bits = f32_to_bits(f);
        }
        if (kept != i) items[kept] = *e;
        kept++;
    }
    v->len = kept;
    return GDW_OK;
}

/* SPDX-License-Identifier: MIT */
/* value_gen.c — bytes → a value tree in canonical text (value_gen.h). */
#include "fuzzers/value_gen.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GEN_MAX_DEPTH = 5, GEN_MAX_ITEMS = 6, GEN_MAX_PACKED = 8, GEN_MAX_TEXT = 1 << 16 };

typedef struct gen {
    const uint8_t *data;
    size_t size, pos;
    char *s;
    size_t len, cap;
    int oom;
    gen_text *out;
} gen;

/* ---- the choice stream ---- */
static unsigned take(gen *g) { return g->pos < g->size ? g->data[g->pos++] : 0; }
static unsigned pick(gen *g, unsigned n) { return n ? take(g) % n : 0; }
static uint64_t take_bytes(gen *g, unsigned n) {
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++) x |= (uint64_t)take(g) << (8 * i);
    return x;
}

/* ---- the text ---- */
static void put(gen *g, const char *fmt, ...) {
    if (g->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(g->s + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if (n < 0) { g->oom = 1; return; }
        if ((size_t)n < g->cap - g->len) { g->len += (size_t)n; return; }
        size_t cap = g->cap * 2 + (size_t)n + 1;
        char *s = realloc(g->s, cap);
        if (!s) { g->oom = 1; return; }
        g->s = s, g->cap = cap;
    }
}
static int full(const gen *g) { return g->len > GEN_MAX_TEXT || g->oom; }

/* ---- numbers ---- */
static const int64_t k_ints[] = {0, 1, -1, 2, 255, 256, 65535, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
                                 INT64_MAX, INT64_MIN, 4294967295LL, 1LL << 53, -(1LL << 53) - 1};
static const int32_t k_i32[] = {0, 1, -1, 7, 255, 256, 65535, INT32_MAX, INT32_MIN, 1 << 24, -(1 << 24)};

static int64_t gen_i64(gen *g) {
    switch (pick(g, 4)) {
    case 0: return k_ints[pick(g, sizeof k_ints / sizeof k_ints[0])];
    case 1: return (int8_t)take(g);
    case 2: return (int32_t)take_bytes(g, 4);
    default: return (int64_t)take_bytes(g, 8);
    }
}
static int32_t gen_i32(gen *g) { return pick(g, 2) ? k_i32[pick(g, sizeof k_i32 / sizeof k_i32[0])] : (int32_t)take_bytes(g, 4); }
static void put_int(gen *g, int64_t x) {
    if (x < INT32_MIN || x > INT32_MAX) g->out->int64s = 1;
    put(g, "%" PRId64, x);
}

static const double k_reals[] = {0.0, -0.0, 1.0, 1.5, -2.25, 0.1, 1e300, -1e-300, 3.4028234663852886e38, 1.401298464324817e-45, 16777217.0,
                                 0.5, 100.0};

/* A real of the given width, written so that it parses back to exactly these bits. */
static void put_real(gen *g, unsigned width) {
    uint64_t bits;
    unsigned how = pick(g, 4);
    if (how == 0) { /* raw bits: NaN payloads, denormals, anything */
        bits = take_bytes(g, width);
    } else if (how == 1) {
        static const char *const special[] = {"inf", "-inf", "nan", "-nan"};
        put(g, "%s", special[pick(g, 4)]);
        return;
    } else {
        double d = k_reals[pick(g, sizeof k_reals / sizeof k_reals[0])];
        if (width == 4) { float f = (float)d; uint32_t b; memcpy(&b, &f, 4); bits = b; }
        else memcpy(&bits, &d, 8);
    }
    char tok[64];
    if (width == 4) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        if (isnan(f)) { put(g, "nan(0x%08" PRIx32 ")", b); return; }
        if (isinf(f)) { put(g, f < 0 ? "-inf" : "inf"); return; }
        snprintf(tok, sizeof tok, "%.9g", (double)f);
    } else {
        double d;
        memcpy(&d, &bits, 8);
        if (isnan(d)) { put(g, "nan(0x%016" PRIx64 ")", bits); return; }
        if (isinf(d)) { put(g, d < 0 ? "-inf" : "inf"); return; }
        snprintf(tok, sizeof tok, "%.17g", d);
    }
    put(g, "%s%s", tok, strpbrk(tok, ".eEni") ? "" : ".0");
}

/* ---- strings ---- */
static const char *const k_pieces[] = {
    "a", "Node", "position", "/", ":", " ", "\\\"", "\\\\", "\\n", "\\0", "\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac",
    "\xf0\x9f\x98\x80", "\\xff", "\\xc0\\x80", "\\xed\\xa0\\x80", "\\xef\\xbb\\xbf", "res://a.gd", "0123456789abcdef", "",
};
static void put_string_body(gen *g) {
    put(g, "\"");
    for (unsigned i = 0, n = pick(g, 6); i < n; i++) {
        const char *piece = k_pieces[pick(g, sizeof k_pieces / sizeof k_pieces[0])];
        if (strstr(piece, "\\x")) g->out->noncanonical = 1; /* not UTF-8: only lax readers take it */
        put(g, "%s", piece);
    }
    put(g, "\"");
}
static const char *const k_names[] = {"root", "a", "Node2D", "player", "\xc3\xa9t\xc3\xa9", "x"};
static const char *const k_subnames[] = {"position", "x", "modulate", "a"};

/* ---- values ---- */
static void gen_value(gen *g, unsigned depth);
static void gen_of_type(gen *g, gdw_type t, unsigned depth);

static void gen_items(gen *g, unsigned depth, int dict, const gdw_typedesc *key, const gdw_typedesc *elem) {
    unsigned n = depth >= GEN_MAX_DEPTH ? 0 : pick(g, GEN_MAX_ITEMS + 1);
    put(g, dict ? "{" : "[");
    for (unsigned i = 0; i < n && !full(g); i++) {
        if (i) put(g, ", ");
        for (int k = dict ? 0 : 1; k < 2; k++) {
            const gdw_typedesc *d = k == 0 ? key : elem;
            if (d && d->kind == GDW_DESC_BUILTIN && d->builtin < GDW_TYPE_COUNT && !d->id_only) gen_of_type(g, (gdw_type)d->builtin, depth + 1);
            else if (d && (d->kind == GDW_DESC_CLASS || d->kind == GDW_DESC_SCRIPT || d->id_only)) {
                unsigned c = pick(g, 3);
                if (c == 0) put(g, "Object(null)");
                else if (c == 1 || d->id_only) put(g, "ObjectID(%" PRIu64 ")", take_bytes(g, 2) + 1);
                else put(g, "Object(\"Node\", {})");
                g->out->uses[GDW_OBJECT] = 1;
            } else gen_value(g, depth + 1);
            if (k == 0) put(g, ": ");
        }
    }
    put(g, dict ? "}" : "]");
}

/* An element type: builtin, Variant, class, script, ObjectID, or an unmapped wire id. */
static void gen_desc(gen *g, gdw_typedesc *d, int pandemonium) {
    memset(d, 0, sizeof *d);
    unsigned c = pick(g, 8);
    if (pandemonium && (c == 0 || c == 2)) c = 5; /* its TypedArray has no Variant or script element type */
    if (!pandemonium && c == 3) c = 5;            /* ObjectID element types are its alone */
    switch (c) {
    case 0: put(g, "Variant"); break;
    case 1: put(g, "\"Node\""); d->kind = GDW_DESC_CLASS; break;
    case 2: put(g, "script(\"res://a.gd\")"); d->kind = GDW_DESC_SCRIPT; break;
    case 3: put(g, "ObjectID"); d->kind = GDW_DESC_BUILTIN; d->builtin = GDW_OBJECT; d->id_only = 1; g->out->uses[GDW_OBJECT] = 1; break;
    case 4: put(g, "#%u", 40 + pick(g, 200)); d->kind = GDW_DESC_BUILTIN; d->builtin = GDW_TYPE_COUNT; g->out->noncanonical = g->out->unmapped_ids = 1; break;
    default: {
        gdw_type t = (gdw_type)pick(g, GDW_TYPE_COUNT);
        if (pandemonium && t == GDW_OBJECT) { /* a class name or ObjectID there */
            put(g, "ObjectID");
            d->kind = GDW_DESC_BUILTIN; d->builtin = GDW_OBJECT; d->id_only = 1; g->out->uses[GDW_OBJECT] = 1;
            break;
        }
        put(g, "%s", gdw_type_name(t));
        d->kind = GDW_DESC_BUILTIN;
        d->builtin = (uint8_t)t;
        g->out->uses[t] = 1;
    }
    }
}

/* A type's name, now and then as the Godot 3 / Godot 2 name the text form also reads. */
static const char *type_name(gen *g, gdw_type t) {
    static const struct { gdw_type t; const char *alias; } k_old[] = {
        {GDW_QUATERNION, "Quat"}, {GDW_TRANSFORM3D, "Transform"}, {GDW_TRANSFORM2D, "Matrix32"}, {GDW_BASIS, "Matrix3"},
        {GDW_PACKED_BYTE_ARRAY, "PoolByteArray"}, {GDW_PACKED_INT32_ARRAY, "PoolIntArray"}, {GDW_PACKED_REAL_ARRAY, "PoolRealArray"},
        {GDW_PACKED_STRING_ARRAY, "PoolStringArray"}, {GDW_PACKED_VECTOR2_ARRAY, "PoolVector2Array"},
        {GDW_PACKED_VECTOR3_ARRAY, "PoolVector3Array"}, {GDW_PACKED_COLOR_ARRAY, "PoolColorArray"}, {GDW_PACKED_INT32_ARRAY, "IntArray"},
        {GDW_PACKED_REAL_ARRAY, "RealArray"}, {GDW_PACKED_STRING_ARRAY, "StringArray"}, {GDW_PACKED_BYTE_ARRAY, "RawArray"},
    };
    if (pick(g, 4) == 0)
        for (size_t i = 0; i < sizeof k_old / sizeof k_old[0]; i++)
            if (k_old[i].t == t) return k_old[i].alias;
    return gdw_type_name(t);
}

static void gen_components(gen *g, gdw_type t, unsigned count) {
    size_t nc = gdw_type_components(t);
    int reals = gdw_type_has_reals(t);
    int f32_only = t == GDW_COLOR || t == GDW_PACKED_COLOR_ARRAY || t == GDW_PACKED_FLOAT32_ARRAY;
    int f64_only = t == GDW_PACKED_FLOAT64_ARRAY;
    unsigned width = f64_only ? 8 : 4;
    if (reals && !f32_only && !f64_only && pick(g, 3) == 0) {
        put(g, "f64:");
        width = 8;
    }
    if (width == 8 && !f64_only) g->out->wide_reals = 1;
    put(g, "%s(", type_name(g, t));
    for (size_t i = 0; i < nc * count && !full(g); i++) {
        if (i) put(g, ", ");
        if (reals) put_real(g, width);
        else if (t == GDW_PACKED_INT64_ARRAY) put_int(g, gen_i64(g));
        else put_int(g, gen_i32(g));
    }
    put(g, ")");
}

static void gen_of_type(gen *g, gdw_type t, unsigned depth) {
    g->out->uses[t] = 1;
    switch (t) {
    case GDW_NIL: put(g, "null"); break;
    case GDW_BOOL: put(g, pick(g, 2) ? "true" : "false"); break;
    case GDW_INT: put_int(g, gen_i64(g)); break;
    case GDW_FLOAT: {
        unsigned w = pick(g, 2) ? 8 : 4;
        if (w == 8) g->out->wide_reals = 1;
        put(g, w == 8 ? "f64:" : "f32:");
        put_real(g, w);
        break;
    }
    case GDW_STRING: put_string_body(g); break;
    case GDW_STRING_NAME: put(g, "&"); put_string_body(g); break;
    case GDW_NODE_PATH:
        if (pick(g, 3)) {
            put(g, "^\"%s", pick(g, 2) ? "/" : "");
            unsigned nn = 1 + pick(g, 3), ns = pick(g, 3);
            for (unsigned i = 0; i < nn; i++) put(g, "%s%s", i ? "/" : "", k_names[pick(g, sizeof k_names / sizeof k_names[0])]);
            for (unsigned i = 0; i < ns; i++) put(g, ":%s", k_subnames[pick(g, sizeof k_subnames / sizeof k_subnames[0])]);
            put(g, "\"");
        } else {
            unsigned nn = pick(g, 3), ns = pick(g, 3);
            put(g, "NodePath([");
            for (unsigned i = 0; i < nn; i++) { if (i) put(g, ", "); put_string_body(g); }
            put(g, "], [");
            for (unsigned i = 0; i < ns; i++) { if (i) put(g, ", "); put_string_body(g); }
            put(g, "], %u)", ns ? pick(g, 4) : pick(g, 2));
        }
        break;
    case GDW_RID:
        if (pick(g, 2)) put(g, "RID(%" PRIu64 ")", take_bytes(g, pick(g, 2) ? 1 : 8));
        else put(g, "RID()");
        break;
    case GDW_OBJECT:
        switch (pick(g, 3)) {
        case 0: put(g, "Object(null)"); break;
        case 1: put(g, "ObjectID(%" PRIu64 ")", take_bytes(g, pick(g, 2) ? 2 : 8) | 1); break;
        default: {
            put(g, "Object(\"%s\", {", pick(g, 2) ? "Node" : "Resource");
            unsigned n = depth >= GEN_MAX_DEPTH ? 0 : pick(g, 4);
            for (unsigned i = 0; i < n && !full(g); i++) {
                if (i) put(g, ", ");
                put_string_body(g);
                put(g, ": ");
                gen_value(g, depth + 1);
            }
            put(g, "})");
        }
        }
        break;
    case GDW_CALLABLE: put(g, "Callable()"); break;
    case GDW_SIGNAL: put(g, "Signal("); put_string_body(g); put(g, ", %" PRIu64 ")", take_bytes(g, pick(g, 2) ? 2 : 8)); break;
    case GDW_DICTIONARY:
    case GDW_ARRAY: {
        int dict = t == GDW_DICTIONARY;
        unsigned form = pick(g, 4);
        if (form == 0) { /* typed (Godot 4.3+ Array, 4.4+ Dictionary) */
            gdw_typedesc k, e;
            put(g, "%s[", dict ? "Dictionary" : "Array");
            if (dict) { gen_desc(g, &k, 0); put(g, ", "); }
            gen_desc(g, &e, 0);
            put(g, "](");
            gen_items(g, depth, dict, dict ? &k : NULL, &e);
            put(g, ")");
        } else {
            if (form == 1) put(g, "shared:");
            gen_items(g, depth, dict, NULL, NULL);
        }
        break;
    }
    case GDW_TYPED_ARRAY:
    case GDW_PACKED_TYPED_ARRAY: {
        gdw_typedesc e;
        put(g, "%s[", gdw_type_name(t));
        gen_desc(g, &e, 1);
        put(g, "](");
        gen_items(g, depth, 0, NULL, &e);
        put(g, ")");
        break;
    }
    case GDW_PACKED_BYTE_ARRAY: {
        put(g, "%s(", type_name(g, t));
        for (unsigned i = 0, n = pick(g, 4 * GEN_MAX_PACKED); i < n; i++) put(g, "%s%u", i ? ", " : "", take(g));
        put(g, ")");
        break;
    }
    case GDW_PACKED_STRING_ARRAY: {
        put(g, "%s(", type_name(g, t));
        for (unsigned i = 0, n = pick(g, GEN_MAX_PACKED); i < n; i++) { if (i) put(g, ", "); put_string_body(g); }
        put(g, ")");
        break;
    }
    case GDW_IMAGE: {
        /* the engine reads formats 0-22 only, with or without data (decode.c read_image) */
        unsigned n = pick(g, 4 * GEN_MAX_PACKED), fmt = pick(g, 23), mip = pick(g, 4), w = pick(g, 9), h = pick(g, 9);
        if (n == 0 && (fmt | mip | w | h)) {
            if (pick(g, 4)) fmt = mip = w = h = 0; /* the engine writes an empty Image as zeros */
            else g->out->noncanonical = 1;
        }
        put(g, "Image(%u, %u, %u, %u, PackedByteArray(", fmt, mip, w, h);
        for (unsigned i = 0; i < n; i++) put(g, "%s%u", i ? ", " : "", take(g));
        put(g, "))");
        break;
    }
    case GDW_INPUT_EVENT: {
        unsigned type = pick(g, 10);
        unsigned extra = type == 1 ? 2 : type == 3 || type == 5 || type == 6 ? 1 : type == 4 ? 1 + pick(g, 2) : 0;
        unsigned llen = 12 + 4 * extra;
        if (pick(g, 4) == 0) llen = take(g);
        if (llen != 12 + 4 * extra) g->out->noncanonical = 1;
        put(g, "InputEvent(%u, %u, %u", type, (unsigned)take_bytes(g, pick(g, 2) ? 1 : 4), llen);
        for (unsigned i = 0; i < extra; i++) put(g, ", %u", (unsigned)take_bytes(g, pick(g, 2) ? 1 : 4));
        put(g, ")");
        break;
    }
    default: /* math types and packed arrays of numbers */
        gen_components(g, t, gdw_type_components(t) && t >= GDW_PACKED_BYTE_ARRAY ? pick(g, GEN_MAX_PACKED + 1) : 1);
        break;
    }
}

static void gen_value(gen *g, unsigned depth) {
    if (full(g)) { put(g, "null"); return; }
    gen_of_type(g, (gdw_type)pick(g, GDW_TYPE_COUNT), depth);
}

int gen_value_text(const uint8_t *data, size_t size, gen_text *out) {
    memset(out, 0, sizeof *out);
    gen g = {data, size, 0, malloc(256), 0, 256, 0, out};
    if (!g.s) return 0;
    g.s[0] = 0;
    gen_value(&g, 0);
    if (g.oom) { free(g.s); return 0; }
    out->s = g.s;
    out->len = g.len;
    return 1;
}

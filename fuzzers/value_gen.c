/* SPDX-License-Identifier: MIT */
/* value_gen.c — bytes → a value tree in canonical text and, when asked, the same tree made with the
 * typed gdw_build_* calls (value_gen.h). */
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
    gdw_builder *b;  /* NULL: text only */
    unsigned opaque; /* > 0: inside a value the typed calls cannot make; built from its own text */
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

/* ---- the builder ---- */
static int building(const gen *g) { return g->b && !g->opaque && !g->oom; }

/* A value the typed calls cannot make (an Image or InputEvent, a Godot 2 "shared" container, a
 * header-only RID, a float32 signalling NaN component, which a double cannot carry): its text is
 * written as usual, and the builder gets the value parsed from that text alone (gdw_build_value). */
static void build_from_text(gen *g, size_t start) {
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_text_parse(g->s + start, g->len - start, NULL, &doc, &err);
    gdw_build_value(g->b, s == GDW_OK ? gdw_doc_root(doc) : NULL); /* NULL: the builder fails */
    gdw_doc_free(doc);
    g->out->opaque_values++;
}
static size_t opaque_begin(gen *g) {
    g->opaque++;
    return g->len;
}
static void opaque_end(gen *g, size_t start) {
    if (--g->opaque == 0 && building(g)) build_from_text(g, start);
}

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

/* A real of the given width, written so that it parses back to exactly these bits; returns them. */
static uint64_t put_real(gen *g, unsigned width) {
    uint64_t bits;
    unsigned how = pick(g, 4);
    if (how == 0) { /* raw bits: NaN payloads, denormals, anything */
        bits = take_bytes(g, width);
    } else if (how == 1) { /* the text form's words; "nan" is the quiet NaN of the width */
        static const char *const special[] = {"inf", "-inf", "nan", "-nan"};
        static const uint64_t bits4[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u};
        static const uint64_t bits8[] = {0x7FF0000000000000u, 0xFFF0000000000000u, 0x7FF8000000000000u, 0xFFF8000000000000u};
        unsigned w = pick(g, 4);
        put(g, "%s", special[w]);
        return width == 4 ? bits4[w] : bits8[w];
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
        if (isnan(f)) { put(g, "nan(0x%08" PRIx32 ")", b); return bits; }
        if (isinf(f)) { put(g, f < 0 ? "-inf" : "inf"); return bits; }
        snprintf(tok, sizeof tok, "%.9g", (double)f);
    } else {
        double d;
        memcpy(&d, &bits, 8);
        if (isnan(d)) { put(g, "nan(0x%016" PRIx64 ")", bits); return bits; }
        if (isinf(d)) { put(g, d < 0 ? "-inf" : "inf"); return bits; }
        snprintf(tok, sizeof tok, "%.17g", d);
    }
    put(g, "%s%s", tok, strpbrk(tok, ".eEni") ? "" : ".0");
    return bits;
}

/* Bits of a real as the double the typed calls take; 0 if a double cannot carry them (a float32
 * signalling NaN: widening it quiets it). */
static int real_as_double(uint64_t bits, unsigned width, double *out) {
    if (width == 8) { memcpy(out, &bits, 8); return 1; }
    uint32_t b = (uint32_t)bits;
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) && !(b & 0x00400000u)) return 0;
    float f;
    memcpy(&f, &b, 4);
    *out = (double)f;
    return 1;
}

/* ---- strings ---- */
/* Pieces of a string: as the text form writes them, and the bytes they stand for. */
static const struct { const char *text, *bytes; unsigned len; } k_pieces[] = {
    {"a", "a", 1}, {"Node", "Node", 4}, {"position", "position", 8}, {"/", "/", 1}, {":", ":", 1}, {" ", " ", 1},
    {"\\\"", "\"", 1}, {"\\\\", "\\", 1}, {"\\n", "\n", 1}, {"\\0", "\0", 1}, {"\xc3\xa9", "\xc3\xa9", 2},
    {"\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac", 6}, {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", 4}, {"\\xff", "\xff", 1},
    {"\\xc0\\x80", "\xc0\x80", 2}, {"\\xed\\xa0\\x80", "\xed\xa0\x80", 3}, {"\\xef\\xbb\\xbf", "\xef\xbb\xbf", 3},
    {"res://a.gd", "res://a.gd", 10}, {"0123456789abcdef", "0123456789abcdef", 16}, {"", "", 0},
};
typedef struct gstr { char bytes[96]; size_t len; } gstr; /* at most 5 pieces of at most 16 bytes */

/* A quoted string; *out holds its bytes. */
static void put_string_body(gen *g, gstr *out) {
    out->len = 0;
    put(g, "\"");
    for (unsigned i = 0, n = pick(g, 6); i < n; i++) {
        unsigned k = pick(g, sizeof k_pieces / sizeof k_pieces[0]);
        if (strstr(k_pieces[k].text, "\\x")) g->out->noncanonical = 1; /* not UTF-8: only lax readers take it */
        put(g, "%s", k_pieces[k].text);
        memcpy(out->bytes + out->len, k_pieces[k].bytes, k_pieces[k].len);
        out->len += k_pieces[k].len;
    }
    put(g, "\"");
}
static const char *const k_names[] = {"root", "a", "Node2D", "player", "\xc3\xa9t\xc3\xa9", "x"};
static const char *const k_subnames[] = {"position", "x", "modulate", "a"};

/* ---- values ---- */
static void gen_value(gen *g, unsigned depth);
static void gen_of_type(gen *g, gdw_type t, unsigned depth);

/* An Object as a typed container's element: null, by id, or a full Object without properties. */
static void gen_object_element(gen *g, const gdw_typedesc *d) {
    unsigned c = pick(g, 3);
    if (c == 0) {
        put(g, "Object(null)");
        if (building(g)) gdw_build_object_id(g->b, 0);
    } else if (c == 1 || d->id_only) {
        uint64_t id = take_bytes(g, 2) + 1;
        put(g, "ObjectID(%" PRIu64 ")", id);
        if (building(g)) gdw_build_object_id(g->b, id);
    } else {
        put(g, "Object(\"Node\", {})");
        if (building(g)) { gdw_build_begin_object(g->b, "Node", 4); gdw_build_end(g->b); }
    }
    g->out->uses[GDW_OBJECT] = 1;
}

/* The items of a list (dict: key, value pairs), each of its declared type where it has one; the
 * container itself is opened and closed by the caller. */
static void gen_items(gen *g, unsigned depth, int dict, const gdw_typedesc *key, const gdw_typedesc *elem) {
    unsigned n = depth >= GEN_MAX_DEPTH ? 0 : pick(g, GEN_MAX_ITEMS + 1);
    put(g, dict ? "{" : "[");
    for (unsigned i = 0; i < n && !full(g); i++) {
        if (i) put(g, ", ");
        for (int k = dict ? 0 : 1; k < 2; k++) {
            const gdw_typedesc *d = k == 0 ? key : elem;
            if (d && d->kind == GDW_DESC_BUILTIN && d->builtin < GDW_TYPE_COUNT && !d->id_only) gen_of_type(g, (gdw_type)d->builtin, depth + 1);
            else if (d && (d->kind == GDW_DESC_CLASS || d->kind == GDW_DESC_SCRIPT || d->id_only)) gen_object_element(g, d);
            else gen_value(g, depth + 1);
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
    case 1:
        put(g, "\"Node\"");
        d->kind = GDW_DESC_CLASS;
        d->name.ptr = (const uint8_t *)"Node", d->name.len = 4;
        break;
    case 2:
        put(g, "script(\"res://a.gd\")");
        d->kind = GDW_DESC_SCRIPT;
        d->name.ptr = (const uint8_t *)"res://a.gd", d->name.len = 10;
        break;
    case 3: put(g, "ObjectID"); d->kind = GDW_DESC_BUILTIN; d->builtin = GDW_OBJECT; d->id_only = 1; g->out->uses[GDW_OBJECT] = 1; break;
    case 4:
        d->wire_id = 40 + pick(g, 200);
        put(g, "#%u", (unsigned)d->wire_id);
        d->kind = GDW_DESC_BUILTIN;
        d->builtin = GDW_TYPE_COUNT;
        g->out->noncanonical = g->out->unmapped_ids = 1;
        break;
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

/* A math type (count 1) or a packed array of numbers (count elements), through gdw_build_math,
 * gdw_build_math_int, gdw_build_packed_reals or gdw_build_packed_ints. */
static void gen_components(gen *g, gdw_type t, unsigned count, int packed) {
    enum { MAX_COMPONENTS = 16 * (GEN_MAX_PACKED + 1) };
    size_t nc = gdw_type_components(t), n = 0;
    int reals = gdw_type_has_reals(t);
    int f32_only = t == GDW_COLOR || t == GDW_PACKED_COLOR_ARRAY || t == GDW_PACKED_FLOAT32_ARRAY;
    int f64_only = t == GDW_PACKED_FLOAT64_ARRAY;
    unsigned width = f64_only ? 8 : 4;
    uint64_t bits[MAX_COMPONENTS];
    int64_t ints[MAX_COMPONENTS];
    size_t start = g->len;
    if (reals && !f32_only && !f64_only && pick(g, 3) == 0) {
        put(g, "f64:");
        width = 8;
    }
    if (width == 8 && !f64_only) g->out->wide_reals = 1;
    put(g, "%s(", type_name(g, t));
    for (size_t i = 0; i < nc * count && !full(g) && n < MAX_COMPONENTS; i++) {
        if (i) put(g, ", ");
        if (reals) bits[n++] = put_real(g, width);
        else if (t == GDW_PACKED_INT64_ARRAY) { ints[n] = gen_i64(g); put_int(g, ints[n++]); }
        else { ints[n] = gen_i32(g); put_int(g, ints[n++]); }
    }
    put(g, ")");
    if (!building(g)) return;
    if (!reals) {
        if (packed) gdw_build_packed_ints(g->b, t, ints, n);
        else gdw_build_math_int(g->b, t, ints, n);
        return;
    }
    double c[MAX_COMPONENTS];
    for (size_t i = 0; i < n; i++)
        if (!real_as_double(bits[i], width, &c[i])) { build_from_text(g, start); return; }
    if (packed) gdw_build_packed_reals(g->b, t, c, n, width);
    else gdw_build_math(g->b, t, c, n, width);
}

static void gen_node_path(gen *g) {
    gstr parts[6];
    gdw_str names[3], subnames[3];
    unsigned nn, ns, flags;
    if (pick(g, 3)) { /* ^"/a/b:c" */
        flags = pick(g, 2);
        put(g, "^\"%s", flags ? "/" : "");
        nn = 1 + pick(g, 3), ns = pick(g, 3);
        for (unsigned i = 0; i < nn; i++) {
            const char *s = k_names[pick(g, sizeof k_names / sizeof k_names[0])];
            put(g, "%s%s", i ? "/" : "", s);
            names[i].ptr = (const uint8_t *)s, names[i].len = (uint32_t)strlen(s);
        }
        for (unsigned i = 0; i < ns; i++) {
            const char *s = k_subnames[pick(g, sizeof k_subnames / sizeof k_subnames[0])];
            put(g, ":%s", s);
            subnames[i].ptr = (const uint8_t *)s, subnames[i].len = (uint32_t)strlen(s);
        }
        put(g, "\"");
    } else { /* NodePath(["a"], ["b"], flags): any bytes in the parts, Godot 2's property bit */
        nn = pick(g, 3), ns = pick(g, 3);
        put(g, "NodePath([");
        for (unsigned i = 0; i < nn; i++) {
            if (i) put(g, ", ");
            put_string_body(g, &parts[i]);
            names[i].ptr = (const uint8_t *)parts[i].bytes, names[i].len = (uint32_t)parts[i].len;
        }
        put(g, "], [");
        for (unsigned i = 0; i < ns; i++) {
            if (i) put(g, ", ");
            put_string_body(g, &parts[3 + i]);
            subnames[i].ptr = (const uint8_t *)parts[3 + i].bytes, subnames[i].len = (uint32_t)parts[3 + i].len;
        }
        flags = ns ? pick(g, 4) : pick(g, 2);
        put(g, "], %u)", flags);
    }
    if (building(g)) gdw_build_node_path(g->b, names, nn, subnames, ns, flags);
}

static void gen_of_type(gen *g, gdw_type t, unsigned depth) {
    g->out->uses[t] = 1;
    gstr str;
    switch (t) {
    case GDW_NIL:
        put(g, "null");
        if (building(g)) gdw_build_nil(g->b);
        break;
    case GDW_BOOL: {
        int x = pick(g, 2);
        put(g, x ? "true" : "false");
        if (building(g)) gdw_build_bool(g->b, x);
        break;
    }
    case GDW_INT: {
        int64_t x = gen_i64(g);
        put_int(g, x);
        if (building(g)) gdw_build_int(g->b, x);
        break;
    }
    case GDW_FLOAT: {
        unsigned w = pick(g, 2) ? 8 : 4;
        if (w == 8) g->out->wide_reals = 1;
        put(g, w == 8 ? "f64:" : "f32:");
        uint64_t bits = put_real(g, w);
        if (building(g)) gdw_build_float_bits(g->b, bits, w);
        break;
    }
    case GDW_STRING:
        put_string_body(g, &str);
        if (building(g)) gdw_build_string(g->b, str.bytes, str.len);
        break;
    case GDW_STRING_NAME:
        put(g, "&");
        put_string_body(g, &str);
        if (building(g)) gdw_build_string_name(g->b, str.bytes, str.len);
        break;
    case GDW_NODE_PATH: gen_node_path(g); break;
    case GDW_RID:
        if (pick(g, 2)) {
            uint64_t id = take_bytes(g, pick(g, 2) ? 1 : 8);
            put(g, "RID(%" PRIu64 ")", id);
            if (building(g)) gdw_build_rid(g->b, id);
        } else { /* a RID without an id (Godot 2 and 3 carry none) */
            size_t at = opaque_begin(g);
            put(g, "RID()");
            opaque_end(g, at);
        }
        break;
    case GDW_OBJECT:
        switch (pick(g, 3)) {
        case 0:
            put(g, "Object(null)");
            if (building(g)) gdw_build_object_id(g->b, 0);
            break;
        case 1: {
            uint64_t id = take_bytes(g, pick(g, 2) ? 2 : 8) | 1;
            put(g, "ObjectID(%" PRIu64 ")", id);
            if (building(g)) gdw_build_object_id(g->b, id);
            break;
        }
        default: {
            const char *cls = pick(g, 2) ? "Node" : "Resource";
            put(g, "Object(\"%s\", {", cls);
            if (building(g)) gdw_build_begin_object(g->b, cls, strlen(cls));
            unsigned n = depth >= GEN_MAX_DEPTH ? 0 : pick(g, 4);
            for (unsigned i = 0; i < n && !full(g); i++) {
                if (i) put(g, ", ");
                put_string_body(g, &str);
                if (building(g)) gdw_build_string(g->b, str.bytes, str.len);
                put(g, ": ");
                gen_value(g, depth + 1);
            }
            put(g, "})");
            if (building(g)) gdw_build_end(g->b);
        }
        }
        break;
    case GDW_CALLABLE:
        put(g, "Callable()");
        if (building(g)) gdw_build_callable(g->b);
        break;
    case GDW_SIGNAL: {
        put(g, "Signal(");
        put_string_body(g, &str);
        uint64_t id = take_bytes(g, pick(g, 2) ? 2 : 8);
        put(g, ", %" PRIu64 ")", id);
        if (building(g)) gdw_build_signal(g->b, str.bytes, str.len, id);
        break;
    }
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
            if (building(g)) gdw_build_begin(g->b, t, dict ? &k : NULL, &e);
            gen_items(g, depth, dict, dict ? &k : NULL, &e);
            put(g, ")");
            if (building(g)) gdw_build_end(g->b);
        } else if (form == 1) { /* Godot 2's "shared" bit: no typed call sets it */
            size_t at = opaque_begin(g);
            put(g, "shared:");
            gen_items(g, depth, dict, NULL, NULL);
            opaque_end(g, at);
        } else {
            if (building(g)) gdw_build_begin(g->b, t, NULL, NULL);
            gen_items(g, depth, dict, NULL, NULL);
            if (building(g)) gdw_build_end(g->b);
        }
        break;
    }
    case GDW_TYPED_ARRAY:
    case GDW_PACKED_TYPED_ARRAY: {
        gdw_typedesc e;
        put(g, "%s[", gdw_type_name(t));
        gen_desc(g, &e, 1);
        put(g, "](");
        if (building(g)) gdw_build_begin(g->b, t, NULL, &e);
        gen_items(g, depth, 0, NULL, &e);
        put(g, ")");
        if (building(g)) gdw_build_end(g->b);
        break;
    }
    case GDW_PACKED_BYTE_ARRAY: {
        uint8_t bytes[4 * GEN_MAX_PACKED];
        unsigned n = pick(g, 4 * GEN_MAX_PACKED);
        put(g, "%s(", type_name(g, t));
        for (unsigned i = 0; i < n; i++) { bytes[i] = (uint8_t)take(g); put(g, "%s%u", i ? ", " : "", bytes[i]); }
        put(g, ")");
        if (building(g)) gdw_build_packed_bytes(g->b, bytes, n);
        break;
    }
    case GDW_PACKED_STRING_ARRAY: {
        gstr strs[GEN_MAX_PACKED];
        gdw_str refs[GEN_MAX_PACKED];
        unsigned n = pick(g, GEN_MAX_PACKED);
        put(g, "%s(", type_name(g, t));
        for (unsigned i = 0; i < n; i++) {
            if (i) put(g, ", ");
            put_string_body(g, &strs[i]);
            refs[i].ptr = (const uint8_t *)strs[i].bytes, refs[i].len = (uint32_t)strs[i].len;
        }
        put(g, ")");
        if (building(g)) gdw_build_packed_strings(g->b, refs, n);
        break;
    }
    case GDW_IMAGE: { /* Godot 2 only: no typed call makes one */
        size_t at = opaque_begin(g);
        /* the engine reads formats 0-22 only, with or without data (decode.c read_image) */
        unsigned n = pick(g, 4 * GEN_MAX_PACKED), fmt = pick(g, 23), mip = pick(g, 4), w = pick(g, 9), h = pick(g, 9);
        if (n == 0 && (fmt | mip | w | h)) {
            if (pick(g, 4)) fmt = mip = w = h = 0; /* the engine writes an empty Image as zeros */
            else g->out->noncanonical = 1;
        }
        put(g, "Image(%u, %u, %u, %u, PackedByteArray(", fmt, mip, w, h);
        for (unsigned i = 0; i < n; i++) put(g, "%s%u", i ? ", " : "", take(g));
        put(g, "))");
        opaque_end(g, at);
        break;
    }
    case GDW_INPUT_EVENT: { /* Godot 2 only: no typed call makes one */
        size_t at = opaque_begin(g);
        unsigned type = pick(g, 10);
        unsigned extra = type == 1 ? 2 : type == 3 || type == 5 || type == 6 ? 1 : type == 4 ? 1 + pick(g, 2) : 0;
        unsigned llen = 12 + 4 * extra;
        if (pick(g, 4) == 0) llen = take(g);
        if (llen != 12 + 4 * extra) g->out->noncanonical = 1;
        put(g, "InputEvent(%u, %u, %u", type, (unsigned)take_bytes(g, pick(g, 2) ? 1 : 4), llen);
        for (unsigned i = 0; i < extra; i++) put(g, ", %u", (unsigned)take_bytes(g, pick(g, 2) ? 1 : 4));
        put(g, ")");
        opaque_end(g, at);
        break;
    }
    default: { /* math types and packed arrays of numbers */
        int packed = gdw_type_components(t) && t >= GDW_PACKED_BYTE_ARRAY;
        gen_components(g, t, packed ? pick(g, GEN_MAX_PACKED + 1) : 1, packed);
        break;
    }
    }
}

static void gen_value(gen *g, unsigned depth) {
    if (full(g)) {
        put(g, "null");
        if (building(g)) gdw_build_nil(g->b);
        return;
    }
    gen_of_type(g, (gdw_type)pick(g, GDW_TYPE_COUNT), depth);
}

int gen_value_build(const uint8_t *data, size_t size, gen_text *out, gdw_builder *b) {
    memset(out, 0, sizeof *out);
    gen g;
    memset(&g, 0, sizeof g);
    g.data = data, g.size = size, g.s = (char *)malloc(256), g.cap = 256, g.out = out, g.b = b;
    if (!g.s) return 0;
    g.s[0] = 0;
    gen_value(&g, 0);
    if (g.oom) { free(g.s); return 0; }
    out->s = g.s;
    out->len = g.len;
    return 1;
}

int gen_value_text(const uint8_t *data, size_t size, gen_text *out) { return gen_value_build(data, size, out, NULL); }

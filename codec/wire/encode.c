/* SPDX-License-Identifier: MIT */
/* encode.c — the encoder: value tree -> bytes, choosing what each engine's encoder chooses.
 *
 * One writer: it copies while the buffer has room and counts always, so the sizing pass is
 * the same code with no buffer. Padding is always zero. Trees are at most max_depth deep
 * (1024 by default, the engines' own limit), which bounds the recursion.
 */
#include <math.h>

#include "codec/wire/wire.h"

typedef struct writer {
    uint8_t *buf;
    size_t cap;
    size_t pos;
} writer;

typedef struct ectx {
    const gdw_dialect *d;
    writer w;
    bool lossy;
    unsigned max_depth;
    gdw_error *err;
    void (*lossy_report)(void *ctx, const gdw_error *where);
    void *lossy_ctx;
    bool narrowed;         /* the value being written has had a real narrowed (reported once) */
    bool keep_float_width; /* options.keep_float_width */
    /* where the value being written sits: the container at each level and the slot in it */
    const gdw_value *parent[GDW_HARD_MAX_DEPTH + 2];
    uint32_t slot[GDW_HARD_MAX_DEPTH + 2];
    /* each level's children (gdw_children), asked once */
    const gdw_value *items[GDW_HARD_MAX_DEPTH + 2];
    uint32_t count[GDW_HARD_MAX_DEPTH + 2];
    unsigned levels;
    /* each type's wire id in d (-1: none), looked up at its first header (TYPE_ID_UNASKED before:
     * ectx_init) */
    int8_t type_ids[GDW_TYPE_COUNT];
} ectx;

#define TYPE_ID_UNASKED ((int8_t)-2)

/* Where the next n bytes go when the buffer has room for them, else NULL (a sizing pass, or past a
 * short buffer's end). */
static inline uint8_t *room(const writer *w, size_t n) {
    return w->buf && w->pos <= w->cap && n <= w->cap - w->pos ? w->buf + w->pos : NULL;
}
static void put(writer *w, const void *src, size_t n) {
    uint8_t *at = n ? room(w, n) : NULL;
    if (at) memcpy(at, src, n);
    /* a prefix */
    else if (w->buf && n && w->pos < w->cap) memcpy(w->buf + w->pos, src, w->cap - w->pos);
    w->pos += n;
}
/* A word or padding, written in place where it fits (the common case); put copes with the others.
 * */
static inline void put_u32(writer *w, uint32_t v) {
    uint8_t b[4], *at = room(w, 4);
    wr_u32le(at ? at : b, v);
    if (at) w->pos += 4;
    else put(w, b, 4);
}
static inline void put_u64(writer *w, uint64_t v) {
    uint8_t b[8], *at = room(w, 8);
    wr_u64le(at ? at : b, v);
    if (at) w->pos += 8;
    else put(w, b, 8);
}
static inline void put_zeros(writer *w, size_t n) { /* n <= 8: a string's padding */
    static const uint8_t z[8] = {0};
    uint8_t *at = room(w, n);
    if (!at) {
        put(w, z, n);
        return;
    }
    for (size_t i = 0; i < n; i++) at[i] = 0;
    w->pos += n;
}

/* The path of the value being written (path.c). */
static void enc_path(const ectx *e, char *out) {
    size_t n = 0;
    out[0] = 0;
    for (unsigned i = 0; i < e->levels && n < GDW_PATH_MAX - 1; i++)
        gdw_path_child(out, &n, e->parent[i], e->slot[i]);
}

static void enc_error(ectx *e, gdw_error *err, gdw_status code, const char *msg) {
    enc_path(e, gdw_error_set(err, code, e->w.pos, e->w.pos, GDW_ENGINE_NONE, msg)->path);
}

static gdw_status efail(ectx *e, gdw_status code, const char *msg) {
    if (e->err) enc_error(e, e->err, code, msg);
    return code;
}

/* A value that does not fit: an error, or with the lossy option a narrowing, reported. */
static gdw_status lossy(ectx *e, const char *msg) {
    if (!e->lossy) return efail(e, GDW_ERR_LOSSY, msg);
    if (e->lossy_report) {
        gdw_error where;
        enc_error(e, &where, GDW_ERR_LOSSY, msg);
        e->lossy_report(e->lossy_ctx, &where);
    }
    return GDW_OK;
}

static void put_str(writer *w, const uint8_t *p, uint32_t n) {
    put_u32(w, n);
    put(w, p, n);
    put_zeros(w, (4 - n % 4) % 4);
}

static unsigned text_rule(const ectx *e) {
    return gdw_row_rule(e->d, GDW_RULE_LENIENT_STRINGS)
               ? (unsigned)GDW_UTF8_UNCHECKED
               : (unsigned)gdw_row_rule(e->d, GDW_RULE_UTF8_RULE);
}

/* Text the engine keeps as a String: it must read back as the same bytes. A NUL ends the
 * engine's string, a leading byte order mark is dropped, and bytes that are not UTF-8 under
 * the dialect's rule are rejected; so these are LOSSY unless the caller allows it. */
static gdw_status check_text(ectx *e, const uint8_t *p, uint32_t n) {
    /* plain ASCII: none of the three */
    if ((e->lossy && !e->lossy_report) || n == 0 || gdw_plain_ascii(p, n)) return GDW_OK;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        return lossy(e, "a string starting with a byte order mark reads back without it");
    if (memchr(p, 0, n)) return lossy(e, "a NUL inside a string: the engine's string ends there");
    if (gdw_utf8_check(p, n, text_rule(e)) != (size_t)-1)
        return lossy(
            e,
            "string is not UTF-8 under this dialect's rule: each byte that is not becomes U+FFFD");
    return GDW_OK;
}

static size_t text_bytes_replaced(const ectx *e, writer *w, const uint8_t *p, uint32_t n);
/* The bytes a string is written as: as they are, or, when lossy and some are not UTF-8 under
 * the dialect's rule (the engine would refuse the whole packet), each such byte replaced by
 * U+FFFD (EF BF BD: text_bytes_replaced). Writes to w when not NULL; returns the length. */
static inline size_t text_bytes(const ectx *e, writer *w, const uint8_t *p, uint32_t n) {
    if (n && e->lossy && !gdw_plain_ascii(p, n) && gdw_utf8_check(p, n, text_rule(e)) != (size_t)-1)
        return text_bytes_replaced(e, w, p, n);
    if (w) put(w, p, n);
    return n;
}
static size_t text_bytes_replaced(const ectx *e, writer *w, const uint8_t *p, uint32_t n) {
    /* a character at a time: the shortest prefix the rule takes whole (up to the 6-byte forms
     * Godot 3 reads), else one byte replaced */
    size_t len = 0, i = 0;
    while (i < n) {
        size_t k = 1;
        while (k <= 6 && i + k <= n && gdw_utf8_check(p + i, k, text_rule(e)) != (size_t)-1) k++;
        bool ok = k <= 6 && i + k <= n;
        if (ok) {
            if (w) put(w, p + i, k);
            len += k;
            i += k;
        } else {
            if (w) put(w, "\xEF\xBF\xBD", 3);
            len += 3;
            i++;
        }
    }
    return len;
}

static gdw_status put_text(ectx *e, const uint8_t *p, uint32_t n) {
    gdw_status s = check_text(e, p, n);
    if (s) return s;
    size_t len = text_bytes(e, NULL, p, n);
    if (len > 0x7FFFFFFFu) return efail(e, GDW_ERR_INVALID_TREE, "string longer than 2^31-1 bytes");
    put_u32(&e->w, (uint32_t)len);
    text_bytes(e, &e->w, p, n);
    put_zeros(&e->w, (4 - len % 4) % 4);
    return GDW_OK;
}

static gdw_status header(ectx *e, gdw_type t, uint32_t flags) {
    int id = e->type_ids[t];
    if (id == TYPE_ID_UNASKED) id = e->type_ids[t] = (int8_t)gdw_dialect_type_id(e->d, t);
    if (id < 0) return efail(e, GDW_ERR_UNSUPPORTED_TYPE, "the dialect has no such type");
    put_u32(&e->w, (uint32_t)id | flags);
    return GDW_OK;
}

/* Write one real component stored with width `from` as width `to`. */
static gdw_status put_real(ectx *e, const uint8_t *p, unsigned from, unsigned to) {
    if (from == to) {
        put(&e->w, p, to);
        return GDW_OK;
    }
    if (from == 4) { /* widen: always exact */
        put_u64(&e->w, f64_to_bits((double)bits_to_f32(rd_u32le(p))));
        return GDW_OK;
    }
    uint64_t bits = rd_u64le(p);
    if (!gdw_f64_fits_f32(bits) && !e->narrowed) {
        gdw_status s = lossy(e, "a 64-bit real does not fit the dialect's 32-bit field");
        if (s) return s;
        e->narrowed = true; /* one report per value */
    }
    put_u32(&e->w, f32_to_bits((float)bits_to_f64(bits)));
    return GDW_OK;
}

static gdw_status put_components(ectx *e, const gdw_value *v, const gdw_type_info *ti,
                                 size_t count) {
    if (ti->comp == C_I32 || ti->comp == C_I64) {
        put(&e->w, v->u.bytes, count * ti->ncomp * (ti->comp == C_I32 ? 4u : 8u));
        return GDW_OK;
    }
    unsigned from = v->width, to = comp_width_encode(e->d, ti->comp);
    if (from != 4 && from != 8)
        return efail(e, GDW_ERR_INVALID_TREE, "real width is neither 4 nor 8");
    size_t n = count * ti->ncomp;
    if (from == to) {
        put(&e->w, v->u.bytes, n * to);
        return GDW_OK;
    }
    e->narrowed = false;
    for (size_t i = 0; i < n; i++) {
        gdw_status s = put_real(e, v->u.bytes + i * from, from, to);
        if (s) return s;
    }
    return GDW_OK;
}

static uint32_t real_flag(const ectx *e, const gdw_type_info *ti) {
    return (ti->comp == C_REAL && gdw_row_rule(e->d, GDW_RULE_REAL_MODE) == GDW_REALS_FLAG64 &&
            gdw_row_rule(e->d, GDW_RULE_ENCODE_MATH_F64))
               ? GDW_FLAG16
               : 0;
}

static gdw_status enc_one(ectx *e, const gdw_value *v, unsigned depth);

static gdw_status put_desc(ectx *e, const gdw_typedesc *td) {
    if (td->kind == GDW_DESC_BUILTIN && td->id_only)
        return efail(e, GDW_ERR_INVALID_TREE,
                     "ObjectID element type outside a Pandemonium TypedArray");
    if (td->kind == GDW_DESC_BUILTIN) {
        /* Godot 4 readers range-check the element type: an id with no type cannot be written */
        int id = td->builtin == GDW_TYPE_COUNT ? -1
                                               : gdw_dialect_type_id(e->d, (gdw_type)td->builtin);
        if (id < 0)
            return efail(e, GDW_ERR_UNSUPPORTED_TYPE, "container element type not in the dialect");
        put_u32(&e->w, (uint32_t)id);
    } else if (td->kind == GDW_DESC_CLASS || td->kind == GDW_DESC_SCRIPT) {
        gdw_status s = put_text(e, td->name.ptr, td->name.len);
        if (s) return s;
    }
    return GDW_OK;
}

/* Containers are written without recursion (the C stack stays flat at any depth): a container
 * writes its own header and count, then opens a level; enc_tree writes the children of the
 * innermost open level one by one. parent[] and slot[] record where each value sits (the path);
 * items[] and count[] hold each level's children, as gdw_children gives them (a count fits 32 bits:
 * a container holds at most 2^31 - 1 items or pairs). */
#define SLOT_NONE UINT32_MAX

static gdw_status open_level(ectx *e, const gdw_value *v) {
    unsigned level = e->levels;
    if (level > GDW_HARD_MAX_DEPTH)
        return efail(e, GDW_ERR_DEPTH, "value nested deeper than the depth limit");
    e->parent[level] = v;
    e->slot[level] = SLOT_NONE;
    size_t n = gdw_children(v, &e->items[level]);
    if (n > UINT32_MAX - 2) return efail(e, GDW_ERR_INVALID_TREE, "container count above 2^31-1");
    e->count[level] = (uint32_t)n;
    e->levels = level + 1;
    return GDW_OK;
}

static gdw_status enc_container(ectx *e, const gdw_value *v, const gdw_type_info *ti) {
    const gdw_dialect *d = e->d;
    bool is_dict = ti->kind == K_DICT;
    const gdw_container *ct = gdw_container_of(v);
    unsigned kk = 0, ek = 0;
    if (ct) {
        kk = is_dict ? ct->key.kind : 0;
        ek = ct->elem.kind;
        bool fits = is_dict ? gdw_row_rule(d, GDW_RULE_TYPED_DICT_BITS)
                            : gdw_row_rule(d, GDW_RULE_TYPED_ARRAY_BITS);
        if ((kk || ek) && !fits) {
            gdw_status s = lossy(e, "typed container in a dialect without typed containers: the "
                                    "element type is dropped");
            if (s) return s;
            kk = ek = 0;
        }
    }
    uint32_t flags = is_dict ? (kk << 16) | (ek << 18) : (ek << 16);
    gdw_status s = header(e, (gdw_type)v->type, flags);
    if (s) return s;
    if (kk && (s = put_desc(e, &ct->key))) return s;
    if (ek && (s = put_desc(e, &ct->elem))) return s;
    if (v->len > 0x7FFFFFFFu) return efail(e, GDW_ERR_INVALID_TREE, "container count above 2^31-1");
    if ((v->flags & GDW_VF_SHARED) && !gdw_row_rule(d, GDW_RULE_CONTAINER_SHARED_BIT) &&
        (s = lossy(e, "the Godot 2 'shared' container flag has no field in this dialect")))
        return s;
    uint32_t shared = (v->flags & GDW_VF_SHARED) && gdw_row_rule(d, GDW_RULE_CONTAINER_SHARED_BIT)
                          ? 0x80000000u
                          : 0;
    put_u32(&e->w, v->len | shared);
    if (v->len && !gdw_children(v, NULL))
        return efail(e, GDW_ERR_INVALID_TREE, "container without items");
    return v->len ? open_level(e, v) : GDW_OK;
}

static gdw_status enc_p4_typed(ectx *e, const gdw_value *v) {
    const gdw_container *ct = gdw_container_of(v);
    if (!ct) return efail(e, GDW_ERR_INVALID_TREE, "typed array without a descriptor");
    const gdw_typedesc *td = &ct->elem;
    bool is_object = td->kind == GDW_DESC_CLASS ||
                     (td->kind == GDW_DESC_BUILTIN && td->builtin == GDW_OBJECT);
    bool id_only = is_object && (td->id_only || td->kind != GDW_DESC_CLASS);
    gdw_status s = header(e, (gdw_type)v->type, id_only ? GDW_FLAG16 : 0);
    if (s) return s;
    int id = is_object                       ? gdw_dialect_type_id(e->d, GDW_OBJECT)
             : td->builtin == GDW_TYPE_COUNT ? (int)td->wire_id
                                             : gdw_dialect_type_id(e->d, (gdw_type)td->builtin);
    if (td->kind == GDW_DESC_NONE || td->kind == GDW_DESC_SCRIPT || id < 0)
        return efail(e, GDW_ERR_UNSUPPORTED_TYPE, "typed array element type not in the dialect");
    /* an id with no type (#N) travels as is; one that names a type would read back as that type */
    if (!is_object && td->builtin == GDW_TYPE_COUNT &&
        gdw_dialect_wire_type(e->d, (unsigned)id) >= 0)
        return efail(e, GDW_ERR_INVALID_TREE,
                     "element type #N names a type of the dialect: write the type");
    put_u32(&e->w, (uint32_t)id);
    if (is_object && !id_only) {
        if ((s = header(e, GDW_STRING_NAME, 0))) return s;
        if ((s = put_text(e, td->name.ptr, td->name.len))) return s;
    }
    put_u32(&e->w, v->len);
    if (v->len && !gdw_children(v, NULL))
        return efail(e, GDW_ERR_INVALID_TREE, "container without items");
    return v->len ? open_level(e, v) : GDW_OK;
}

static gdw_status enc_int(ectx *e, const gdw_value *v) {
    int64_t x = v->u.i;
    bool fits32 = x >= INT32_MIN && x <= INT32_MAX;
    bool wide;
    switch (gdw_row_rule(e->d, GDW_RULE_INT_ENCODING)) {
    case GDW_INT_ALWAYS64: wide = true; break;
    case GDW_INT_ALWAYS32: {
        gdw_status s = fits32 ? GDW_OK
                              : lossy(e, "int needs 64 bits and the dialect has only 32: it wraps");
        if (s) return s;
        wide = false;
    } break;
    default: wide = !fits32;
    }
    gdw_status s = header(e, GDW_INT, wide ? GDW_FLAG16 : 0);
    if (s) return s;
    if (wide) put_u64(&e->w, (uint64_t)x);
    else put_u32(&e->w, (uint32_t)x);
    return GDW_OK;
}

static gdw_status enc_float(ectx *e, const gdw_value *v) {
    /* The engine holds a double: f32 on the wire iff (double)(float)x == x, so NaN is f64. */
    double x;
    uint64_t bits64;
    if (v->width == 4) {
        x = (double)bits_to_f32((uint32_t)v->u.bits);
        bits64 = f64_to_bits(x);
    } else if (v->width == 8) {
        bits64 = v->u.bits;
        x = bits_to_f64(bits64);
    } else return efail(e, GDW_ERR_INVALID_TREE, "float width is neither 4 nor 8");
    bool narrow = !isnan(x) && (double)(float)x == x;
    bool f32_only = gdw_row_rule(e->d, GDW_RULE_FLOAT_ENCODE_F32_ONLY),
         nan_f32 = gdw_row_rule(e->d, GDW_RULE_FLOAT_NAN_F32);
    /* asked to keep the width the value carries: an f32 stays f32 (every f32 fits, NaN included),
     * an f64 f64 */
    if (e->keep_float_width && !f32_only && !(isnan(x) && nan_f32)) narrow = v->width == 4;
    if (isnan(x) && (nan_f32 || f32_only)) {
        /* the engine holds a double and writes a NaN as f32: built with -ffast-math, it finds a NaN
         * equal to its f32 narrowing (3.0), or every float is f32 (2.x). That is a quiet NaN with
         * the sign and the top 22 payload bits, as x86 cvtsd2ss narrows (computed here, so every
         * platform writes the same bytes); an f32 NaN read went through the double, quieted too
         * (measured on 3.0-stable and 2.0-stable: 0020807f is written back as 0020c07f) */
        gdw_status s = GDW_OK;
        if (v->width == 8 && !gdw_f64_fits_f32(bits64))
            s = lossy(e,
                      "NaN payload needs 64 bits and the engine writes NaN as 32: it is narrowed");
        if (s || (s = header(e, GDW_FLOAT, 0))) return s;
        uint32_t f = v->width == 4 ? (uint32_t)v->u.bits
                                   : (uint32_t)(bits64 >> 32 & 0x80000000u) | 0x7F800000u |
                                         (uint32_t)(bits64 >> 29 & 0x7FFFFFu);
        put_u32(&e->w, f | 0x00400000u);
        return GDW_OK;
    }
    if (f32_only) {
        gdw_status s = GDW_OK;
        if (!narrow) s = lossy(e, "float needs 64 bits and the dialect has only 32: it is rounded");
        if (s || (s = header(e, GDW_FLOAT, 0))) return s;
        if (s) return s;
        put_u32(&e->w, v->width == 4 ? (uint32_t)v->u.bits : f32_to_bits((float)x));
        return GDW_OK;
    }
    gdw_status s = header(e, GDW_FLOAT, narrow ? 0 : GDW_FLAG16);
    if (s) return s;
    if (narrow) put_u32(&e->w, v->width == 4 ? (uint32_t)v->u.bits : f32_to_bits((float)x));
    else put_u64(&e->w, bits64);
    return GDW_OK;
}

static gdw_status enc_object(ectx *e, const gdw_value *v) {
    const gdw_dialect *d = e->d;
    bool null = (v->flags & GDW_VF_OBJECT_NULL) != 0;
    if (gdw_row_rule(d, GDW_RULE_OBJECT_HEADER_ONLY)) {
        gdw_status s = null ? GDW_OK
                            : lossy(
                                  e,
                                  "this dialect never transmits objects: it becomes a null Object");
        return s ? s : header(e, GDW_OBJECT, 0);
    }
    /* 3.0/3.1 encode objects in full: an empty class */
    if (null && gdw_row_rule(d, GDW_RULE_NULL_OBJECT_AS_CLASS)) {
        gdw_status s = header(e, GDW_OBJECT, 0);
        if (!s) put_u32(&e->w, 0);
        return s;
    }
    if (null) return header(e, GDW_NIL, 0); /* the engines write a freed or null object as Nil */
    if (v->flags & GDW_VF_OBJECT_ID) {
        gdw_status s = header(e, GDW_OBJECT, GDW_FLAG16);
        if (s) return s;
        put_u64(&e->w, (uint64_t)v->u.i);
        return GDW_OK;
    }
    const gdw_object *o = (const gdw_object *)v->u.ext;
    if (!o) return efail(e, GDW_ERR_INVALID_TREE, "object without class");
    gdw_status s = header(e, GDW_OBJECT, 0);
    if (s) return s;
    if ((s = put_text(e, o->class_name.ptr, o->class_name.len))) return s;
    put_u32(&e->w, v->len);
    if (v->len && !gdw_children(v, NULL))
        return efail(e, GDW_ERR_INVALID_TREE, "object without properties");
    /* each property: its name, then its value (enc_tree) */
    return v->len ? open_level(e, v) : GDW_OK;
}

static gdw_status enc_nodepath(ectx *e, const gdw_value *v) {
    const gdw_nodepath *np = (const gdw_nodepath *)v->u.ext;
    if (!np) return efail(e, GDW_ERR_INVALID_TREE, "NodePath without parts");
    uint32_t subs = np->subname_count, flags = np->flags & 1u;
    gdw_status s0;
    if ((np->flags & 2u) && !gdw_row_rule(e->d, GDW_RULE_NODEPATH_PROPERTY_BIT) &&
        (s0 = lossy(e, "a Godot 2 NodePath property becomes a plain subname in this dialect")))
        return s0;
    if ((np->flags & 2u) && gdw_row_rule(e->d, GDW_RULE_NODEPATH_PROPERTY_BIT)) {
        if (subs == 0)
            return efail(e, GDW_ERR_INVALID_TREE, "NodePath property flag without a property");
        subs--;
        flags |= 2u;
    }
    if (np->name_count > 0x7FFFFFFFu)
        return efail(e, GDW_ERR_INVALID_TREE, "too many NodePath names");
    gdw_status s = header(e, GDW_NODE_PATH, 0);
    if (s) return s;
    put_u32(&e->w, np->name_count | 0x80000000u);
    put_u32(&e->w, subs);
    put_u32(&e->w, flags);
    for (uint64_t i = 0; i < (uint64_t)np->name_count + np->subname_count; i++) {
        gdw_status s = put_text(e, np->parts[i].ptr, np->parts[i].len);
        if (s) return s;
    }
    return GDW_OK;
}

static gdw_status enc_one(ectx *e, const gdw_value *v, unsigned depth) {
    if (depth > e->max_depth)
        return efail(e, GDW_ERR_DEPTH, "value nested deeper than the depth limit");
    if (v->type >= GDW_TYPE_COUNT) return efail(e, GDW_ERR_INVALID_TREE, "unknown value type");
    const gdw_type_info *ti = type_info(v->type);
    const gdw_dialect *d = e->d;
    gdw_status s;
    switch (ti->kind) {
    case K_NIL:
    case K_CALLABLE: return header(e, (gdw_type)v->type, 0);
    case K_BOOL:
        if ((s = header(e, GDW_BOOL, 0))) return s;
        put_u32(&e->w, v->u.i != 0);
        return GDW_OK;
    case K_INT: return enc_int(e, v);
    case K_FLOAT: return enc_float(e, v);
    case K_STR:
        if ((s = header(e, (gdw_type)v->type, 0))) return s;
        return put_text(e, v->u.bytes, v->len);
    case K_FIXED:
        if (v->len != ti->ncomp) return efail(e, GDW_ERR_INVALID_TREE, "wrong component count");
        if ((s = header(e, (gdw_type)v->type, real_flag(e, ti)))) return s;
        return put_components(e, v, ti, 1);
    case K_NODEPATH: return enc_nodepath(e, v);
    case K_RID:
        if ((s = header(e, GDW_RID, 0))) return s;
        if (gdw_row_rule(d, GDW_RULE_RID_HAS_ID)) put_u64(&e->w, (uint64_t)v->u.i);
        else if (v->u.i != 0) return lossy(e, "RID id has no field in this dialect: it is dropped");
        return GDW_OK;
    case K_OBJECT: return enc_object(e, v);
    case K_SIGNAL: {
        const gdw_signal *sg = (const gdw_signal *)v->u.ext;
        if (!sg) return efail(e, GDW_ERR_INVALID_TREE, "Signal without name");
        if ((s = header(e, GDW_SIGNAL, 0))) return s;
        if ((s = put_text(e, sg->name.ptr, sg->name.len))) return s;
        put_u64(&e->w, sg->object_id);
        return GDW_OK;
    }
    case K_DICT:
    case K_ARRAY: return enc_container(e, v, ti);
    case K_TYPED_ARRAY: return enc_p4_typed(e, v);
    case K_PACKED:
        if (v->len > 0x7FFFFFFFu) return efail(e, GDW_ERR_INVALID_TREE, "array count above 2^31-1");
        if ((s = header(e, (gdw_type)v->type, real_flag(e, ti)))) return s;
        put_u32(&e->w, v->len);
        return put_components(e, v, ti, v->len);
    case K_PACKED_BYTES:
        if ((s = header(e, GDW_PACKED_BYTE_ARRAY, 0))) return s;
        put_str(&e->w, v->u.bytes, v->len);
        return GDW_OK;
    case K_PACKED_STRINGS: {
        if ((s = header(e, GDW_PACKED_STRING_ARRAY, 0))) return s;
        const gdw_str *strs = (const gdw_str *)v->u.ext;
        if (v->len && !strs) return efail(e, GDW_ERR_INVALID_TREE, "string array without strings");
        put_u32(&e->w, v->len);
        for (uint32_t i = 0; i < v->len; i++) {
            if ((s = check_text(e, strs[i].ptr, strs[i].len))) return s;
            size_t len = text_bytes(e, NULL, strs[i].ptr, strs[i].len);
            if (len >= 0x7FFFFFFFu)
                return efail(e, GDW_ERR_INVALID_TREE, "string longer than 2^31-1 bytes");
            uint32_t n = (uint32_t)len + 1; /* the engines count and write a NUL */
            put_u32(&e->w, n);
            text_bytes(e, &e->w, strs[i].ptr, strs[i].len);
            put_zeros(&e->w, 1 + (4 - n % 4) % 4);
        }
        return GDW_OK;
    }
    case K_IMAGE: {
        const gdw_image *im = (const gdw_image *)v->u.ext;
        if (!im) return efail(e, GDW_ERR_INVALID_TREE, "Image without fields");
        if (im->format >= GDW_IMAGE_FORMATS) /* checked before the data, even for none */
            return efail(e, GDW_ERR_INVALID_TREE,
                         "Image format out of range (the engine reads 0-22)");
        if ((s = header(e, GDW_IMAGE, 0))) return s;
        put_u32(&e->w, im->format);
        put_u32(&e->w, im->mipmaps);
        put_u32(&e->w, im->width);
        put_u32(&e->w, im->height);
        put_str(&e->w, im->data.ptr, im->data.len);
        return GDW_OK;
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *ev = (const gdw_input_event *)v->u.ext;
        if (!ev || !gdw_input_event_words_ok(ev->type, ev->extra_count))
            return efail(e, GDW_ERR_INVALID_TREE,
                         "InputEvent carries a number of value words its type does not have");
        /* a reader that does not know the engine's version takes a joystick motion's value word
         * from the length word (decode.c): one that disagrees would read back differently */
        if (ev->type == 4 && (ev->llen >= 20) != (ev->extra_count == 2) &&
            (s = lossy(e, "joystick motion length word disagrees with its value words")))
            return s;
        /* the engine release reads the axis value word (2.1) or not (2.0) whatever the length says
         * */
        if (ev->type == 4 &&
            (ev->extra_count == 2) != gdw_row_rule(e->d, GDW_RULE_JOYSTICK_AXIS_VALUE) &&
            (s = lossy(
                 e,
                 gdw_row_rule(e->d, GDW_RULE_JOYSTICK_AXIS_VALUE)
                     ? "joystick motion without its axis value: this release reads one (Godot 2.1)"
                     : "joystick motion with an axis value: this release reads the axis only "
                       "(Godot 2.0)")))
            return s;
        /* a KEY's modifiers are four flags to the engine, and it writes only those */
        const uint32_t k_key_mods = GDW_KEY_MODIFIER_FLAGS;
        bool other_mods = ev->type == 1 && ev->extra_count >= 1 && (ev->extra[0] & ~k_key_mods);
        if (other_mods && (s = lossy(e, "KEY modifiers other than shift, alt, meta and ctrl: the "
                                        "engine keeps only those")))
            return s;
        if ((s = header(e, GDW_INPUT_EVENT, 0))) return s;
        put_u32(&e->w, ev->type);
        put_u32(&e->w, ev->device);
        put_u32(&e->w, ev->llen);
        for (uint32_t i = 0; i < ev->extra_count; i++)
            put_u32(&e->w, i == 0 && other_mods ? ev->extra[0] & k_key_mods : ev->extra[i]);
        return GDW_OK;
    }
    }
    return efail(e, GDW_ERR_INVALID_TREE, "type has no writer");
}

/* The next child of the innermost open level, its name written first for an Object property;
 * NULL when the level is done. */
static const gdw_value *next_child(ectx *e, unsigned level, gdw_status *s) {
    const gdw_value *pv = e->parent[level], *items = e->items[level];
    uint32_t at = e->slot[level], n = e->count[level];
    *s = GDW_OK;
    /* the names (even slots) are written here, as the property's first half */
    if (pv->type == GDW_OBJECT) {
        uint32_t slot = at == SLOT_NONE ? 1 : at + 2;
        if (slot >= n) return NULL;
        e->slot[level] = slot;
        const gdw_value *name = &items[slot - 1];
        if (name->type != GDW_STRING && name->type != GDW_STRING_NAME) {
            *s = efail(e, GDW_ERR_INVALID_TREE, "property name is not a string");
            return NULL;
        }
        if ((*s = put_text(e, name->u.bytes, name->len))) return NULL;
        return &items[slot];
    }
    uint32_t slot = at == SLOT_NONE ? 0 : at + 1;
    if (slot >= n) return NULL;
    e->slot[level] = slot;
    return &items[slot];
}

/* v and everything in it, depth first, with no recursion: the open levels are the stack. */
static gdw_status enc_tree(ectx *e, const gdw_value *v) {
    unsigned base = e->levels;
    gdw_status s = enc_one(e, v, 0);
    while (!s && e->levels > base) {
        unsigned level = e->levels - 1;
        const gdw_value *child = next_child(e, level, &s);
        if (s) break;
        if (!child) {
            e->levels = level;
            continue;
        }
        s = enc_one(e, child, level - base + 1);
    }
    return s;
}

gdw_encode_options gdw_encode_options_default(void) {
    gdw_encode_options o;
    memset(&o, 0, sizeof o);
    o.max_depth = GDW_DEFAULT_MAX_DEPTH;
    return o;
}

/* The scalar fields zeroed; the path arrays (12 KiB) are written before they are read. */
static void ectx_init(ectx *e, const gdw_dialect *d, gdw_error *err) {
    e->d = d;
    memset(&e->w, 0, sizeof e->w);
    e->lossy = false;
    e->max_depth = GDW_DEFAULT_MAX_DEPTH;
    e->err = err;
    e->lossy_report = NULL;
    e->lossy_ctx = NULL;
    e->narrowed = false;
    e->levels = 0;
    memset(e->type_ids, TYPE_ID_UNASKED, sizeof e->type_ids);
}

gdw_status gdw_encode(const gdw_dialect *d, const gdw_value *v, const gdw_encode_options *opts,
                      uint8_t *out, size_t cap, size_t *written, gdw_error *err) {
    ectx e;
    ectx_init(&e, d, err);
    size_t written_here;
    if (!written) written = &written_here;
    if (!d || !v || (!out && cap)) return efail(&e, GDW_ERR_INVALID_ARG, "NULL argument");
    gdw_encode_options o = opts ? *opts : gdw_encode_options_default();
    e.d = d;
    e.lossy = o.lossy;
    e.keep_float_width = o.keep_float_width;
    e.lossy_report = o.lossy_report;
    e.lossy_ctx = o.lossy_ctx;
    e.max_depth = o.max_depth == 0 ? GDW_DEFAULT_MAX_DEPTH : o.max_depth;
    if (e.max_depth > GDW_HARD_MAX_DEPTH) e.max_depth = GDW_HARD_MAX_DEPTH;
    e.w.buf = out;
    e.w.cap = cap;
    gdw_status s = enc_tree(&e, v);
    *written = e.w.pos;
    if (s) return s;
    if (e.w.pos > cap && out) return efail(&e, GDW_ERR_TRUNCATED, "output buffer too small");
    gdw_error_clear(err);
    return GDW_OK;
}

gdw_status gdw_encode_alloc(const gdw_dialect *d, const gdw_value *v,
                            const gdw_encode_options *opts, const gdw_allocator *alloc,
                            uint8_t **out, size_t *out_len, gdw_error *err) {
    if (!out || !out_len) {
        ectx e;
        ectx_init(&e, d, err);
        return efail(&e, GDW_ERR_INVALID_ARG, "NULL argument");
    }
    *out = NULL;
    *out_len = 0;
    if (!alloc) alloc = gdw_default_allocator();
    size_t n = 0;
    /* the sizing pass reports nothing: each narrowing is reported once, by the writing pass */
    gdw_encode_options sizing = opts ? *opts : gdw_encode_options_default();
    sizing.lossy_report = NULL;
    gdw_status s = gdw_encode(d, v, &sizing, NULL, 0, &n, err);
    if (s) return s;
    uint8_t *buf = (uint8_t *)alloc->malloc_fn(alloc->ctx, n ? n : 1);
    if (!buf) {
        ectx e;
        ectx_init(&e, d, err);
        return efail(&e, GDW_ERR_NOMEM, "out of memory");
    }
    size_t n2 = 0;
    s = gdw_encode(d, v, opts, buf, n, &n2, err);
    if (s) {
        alloc->free_fn(alloc->ctx, buf, n ? n : 1);
        return s;
    }
    *out = buf;
    *out_len = n2;
    return GDW_OK;
}

/* gdw_build_encode: the builder's value (value/build.c) encoded; here, as the encoder is above the
 * builder. */
gdw_status gdw_build_encode(gdw_builder *b, const gdw_dialect *d, const gdw_encode_options *opts,
                            const gdw_allocator *alloc, uint8_t **out, size_t *out_len,
                            gdw_error *err) {
    if (out) *out = NULL;
    if (out_len) *out_len = 0;
    gdw_doc *doc = NULL;
    gdw_status s = gdw_build_finish(b, &doc, err); /* empties the builder whatever follows */
    if (s) return s;
    if (!d || !out || !out_len) {
        gdw_doc_free(doc);
        gdw_error_set(err, GDW_ERR_INVALID_ARG, 0, 0, GDW_ENGINE_NONE, "NULL argument");
        return GDW_ERR_INVALID_ARG;
    }
    s = gdw_encode_alloc(d, gdw_doc_root(doc), opts, alloc, out, out_len, err);
    gdw_doc_free(doc);
    return s;
}

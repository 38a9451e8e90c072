/* SPDX-License-Identifier: MIT */
/* convert.c — a value from one dialect made fit for another (gdwire convert).
 *
 * Types the target lacks become their nearest counterpart (docs/convert.md has the table).
 * Two names for one thing (Godot 3's PoolRealArray and Godot 4's PackedFloat32Array) change
 * silently; every other change loses something and is an error unless the caller allows it,
 * in which case each place is reported. Narrowing of numbers inside a type both dialects have
 * (f64 into f32, i64 into i32) is the encoder's to report (gdw_encode_options.lossy_report).
 */
#include <stdio.h>

#include "codec/value/value.h"

typedef struct cctx {
    const gdw_dialect *to;
    gdw_convert_options o;
    gdw_doc *doc;
    gdw_error *err;
    char path[GDW_PATH_MAX];
    size_t path_len;
} cctx;

static gdw_status cfail(cctx *c, gdw_status code, const char *msg) {
    if (gdw_error_set(c->err, code, 0, 0, GDW_ENGINE_NONE, msg))
        memcpy(c->err->path, c->path, sizeof c->path);
    return code;
}

/* A lossy change at the current path: fails without the lossy option, else is reported. */
static gdw_status change(cctx *c, gdw_status code, const char *msg) {
    if (!c->o.lossy) return cfail(c, code, msg);
    if (c->o.report) {
        gdw_error where;
        memset(&where, 0, sizeof where);
        where.code = code;
        where.engine_error = GDW_ENGINE_NONE;
        where.message = msg;
        memcpy(where.path, c->path, sizeof c->path);
        c->o.report(c->o.report_ctx, &where);
    }
    return GDW_OK;
}

/* One step down the path (path.c); path_pop goes back up. */
static size_t path_push(cctx *c, gdw_path_in in, uint32_t slot, const gdw_value *key) {
    size_t saved = c->path_len;
    bool text = key && (key->type == GDW_STRING || key->type == GDW_STRING_NAME);
    gdw_path_step(c->path, &c->path_len, in, slot, text ? key->u.bytes : NULL, text ? key->len : 0);
    return saved;
}
static void path_pop(cctx *c, size_t saved) {
    c->path_len = saved;
    c->path[saved] = 0;
}

static bool has(const gdw_dialect *d, unsigned t) {
    return gdw_dialect_type_id(d, (gdw_type)t) >= 0;
}

static const struct {
    uint8_t from, to;
    const char *msg;
} k_near[] = {
    {GDW_VECTOR2I, GDW_VECTOR2, "no Vector2i in this dialect: it becomes a Vector2"},
    {GDW_RECT2I, GDW_RECT2, "no Rect2i in this dialect: it becomes a Rect2"},
    {GDW_VECTOR3I, GDW_VECTOR3, "no Vector3i in this dialect: it becomes a Vector3"},
    {GDW_VECTOR4I, GDW_VECTOR4, "no Vector4i in this dialect: it becomes a Vector4"},
    {GDW_STRING_NAME, GDW_STRING, "no StringName in this dialect: it becomes a String"},
    {GDW_PACKED_INT64_ARRAY, GDW_PACKED_INT32_ARRAY,
     "no PackedInt64Array in this dialect: it becomes a PackedInt32Array (values wrap)"},
    {GDW_PACKED_VECTOR2I_ARRAY, GDW_PACKED_VECTOR2_ARRAY,
     "no PackedVector2iArray in this dialect: it becomes a PackedVector2Array"},
    {GDW_PACKED_VECTOR3I_ARRAY, GDW_PACKED_VECTOR3_ARRAY,
     "no PackedVector3iArray in this dialect: it becomes a PackedVector3Array"},
    {GDW_PACKED_VECTOR4I_ARRAY, GDW_PACKED_VECTOR4_ARRAY,
     "no PackedVector4iArray in this dialect: it becomes a PackedVector4Array"},
    {GDW_TYPED_ARRAY, GDW_ARRAY, "no TypedArray in this dialect: it becomes an Array"},
    {GDW_PACKED_TYPED_ARRAY, GDW_ARRAY, "no PackedTypedArray in this dialect: it becomes an Array"},
    {GDW_PACKED_FLOAT64_ARRAY, GDW_PACKED_FLOAT32_ARRAY,
     "no PackedFloat64Array in this dialect: it becomes a PackedFloat32Array"},
};

static const struct {
    uint8_t t;
    const char *msg;
} k_dropped[] = {
    {GDW_IMAGE, "no Image in this dialect: it becomes null"},
    {GDW_INPUT_EVENT, "no InputEvent in this dialect: it becomes null"},
    {GDW_CALLABLE, "no Callable in this dialect: it becomes null"},
    {GDW_SIGNAL, "no Signal in this dialect: it becomes null"},
    {GDW_PROJECTION, "no Projection in this dialect: it becomes null"},
    {GDW_VECTOR4, "no Vector4 in this dialect: it becomes null"},
    {GDW_VECTOR4I, "no Vector4i in this dialect: it becomes null"},
    {GDW_PACKED_VECTOR4_ARRAY, "no PackedVector4Array in this dialect: it becomes null"},
    {GDW_PACKED_VECTOR4I_ARRAY, "no PackedVector4iArray in this dialect: it becomes null"},
};

/* What happens to type t in a dialect that lacks it (a constant message). */
static const char *change_message(unsigned t, unsigned nt) {
    for (size_t i = 0; i < sizeof k_near / sizeof k_near[0]; i++)
        if (k_near[i].from == t && k_near[i].to == nt) return k_near[i].msg;
    for (size_t i = 0; i < sizeof k_dropped / sizeof k_dropped[0]; i++)
        if (k_dropped[i].t == t) return k_dropped[i].msg;
    return "the dialect has no such type: it becomes null";
}

/* The type t becomes in dialect d; *same_thing when it is only another name for it. */
static unsigned counterpart(const gdw_dialect *d, unsigned t, unsigned width, bool *same_thing) {
    *same_thing = true;
    if (has(d, t)) return t;
    switch (t) {
    case GDW_PACKED_REAL_ARRAY:
        if (width == 8 ? has(d, GDW_PACKED_FLOAT64_ARRAY) : has(d, GDW_PACKED_FLOAT32_ARRAY))
            return width == 8 ? GDW_PACKED_FLOAT64_ARRAY : GDW_PACKED_FLOAT32_ARRAY;
        break;
    case GDW_PACKED_FLOAT32_ARRAY:
        if (has(d, GDW_PACKED_REAL_ARRAY)) return GDW_PACKED_REAL_ARRAY;
        break;
    case GDW_PACKED_FLOAT64_ARRAY:
        /* the same array; elements that do not fit f32 are the encoder's to report */
        if (has(d, GDW_PACKED_REAL_ARRAY)) return GDW_PACKED_REAL_ARRAY;
        break;
    default: break;
    }
    *same_thing = false;
    for (size_t i = 0; i < sizeof k_near / sizeof k_near[0]; i++)
        if (k_near[i].from == t && has(d, k_near[i].to)) return k_near[i].to;
    return GDW_NIL; /* no counterpart: dropped */
}

/* Integer components (i32 or i64) rewritten as type nt's components. */
static gdw_status convert_components(cctx *c, gdw_value *out, unsigned nt) {
    const gdw_type_info *from = type_info(out->type), *to = type_info(nt);
    size_t n = (size_t)(to->kind == K_FIXED ? 1 : out->len) * to->ncomp;
    unsigned fw = from->comp == C_I64 ? 8 : 4;
    unsigned tw = to->comp == C_REAL                       ? comp_width_encode(c->to, C_REAL)
                  : to->comp == C_I64 || to->comp == C_F64 ? 8
                                                           : 4;
    uint8_t *b = (uint8_t *)gdw_arena_alloc(c->doc, n * tw + 1);
    if (!b) return cfail(c, GDW_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        int64_t x = fw == 8 ? (int64_t)rd_u64le(out->u.bytes + 8 * i)
                            : (int64_t)(int32_t)rd_u32le(out->u.bytes + 4 * i);
        if (to->comp == C_I32) wr_u32le(b + 4 * i, (uint32_t)x);
        else if (to->comp == C_I64) wr_u64le(b + 8 * i, (uint64_t)x);
        else if (tw == 8) wr_u64le(b + 8 * i, f64_to_bits((double)x));
        else wr_u32le(b + 4 * i, f32_to_bits((float)x));
    }
    out->u.bytes = b;
    out->width = (uint8_t)(to->comp == C_I32 || to->comp == C_I64 ? 0 : tw);
    return GDW_OK;
}

/* The children of a converted container still to convert (conv_tree's stack, no recursion):
 * in[i] becomes out[i]; for an Object only the odd slots (values; names are copied). */
typedef struct cframe {
    const gdw_value *in;
    gdw_value *out;
    size_t n, next, path_len;
    gdw_path_in shape;
} cframe;

static gdw_status conv_desc(cctx *c, gdw_typedesc *td) {
    if (td->kind != GDW_DESC_BUILTIN || td->builtin >= GDW_TYPE_COUNT || td->id_only) return GDW_OK;
    bool same;
    unsigned nt = counterpart(c->to, td->builtin, 4, &same);
    if (nt == td->builtin) return GDW_OK;
    gdw_status s = change(
        c, GDW_ERR_UNSUPPORTED_TYPE,
        nt == GDW_NIL
            ? "container element type not in the dialect: the container becomes untyped"
            : "container element type not in the dialect: its nearest counterpart is used");
    if (s) return s;
    if (nt == GDW_NIL) td->kind = GDW_DESC_NONE;
    else td->builtin = (uint8_t)nt;
    return GDW_OK;
}

/* Room for a container's n converted children; the frame that conv_tree fills them from. */
static gdw_status open_items(cctx *c, cframe *f, const gdw_value *parent, const gdw_value *items,
                             gdw_value **out_items, size_t n) {
    f->n = 0;
    if (!n) {
        *out_items = NULL;
        return GDW_OK;
    }
    gdw_value *dst = (gdw_value *)gdw_arena_alloc(c->doc, n * sizeof *dst);
    if (!dst) return cfail(c, GDW_ERR_NOMEM, "out of memory");
    *out_items = dst;
    f->in = items;
    f->out = dst;
    f->n = n;
    f->next = 0;
    f->shape = parent->type == GDW_DICTIONARY ? GDW_PATH_IN_DICT : GDW_PATH_IN_ARRAY;
    return GDW_OK;
}

/* One value: in converted into out; a container's children are left in f (f->n of them). */
static gdw_status conv(cctx *c, const gdw_value *in, gdw_value *out, unsigned depth, cframe *f) {
    f->n = 0;
    if (depth > GDW_HARD_MAX_DEPTH)
        return cfail(c, GDW_ERR_DEPTH, "value nested deeper than the depth limit");
    if (in->type >= GDW_TYPE_COUNT) return cfail(c, GDW_ERR_INVALID_TREE, "unknown value type");
    *out = *in;
    bool same;
    unsigned nt = counterpart(c->to, in->type, in->width, &same);
    if (nt != in->type) {
        if (!same) {
            gdw_status s = change(c, nt == GDW_NIL ? GDW_ERR_UNSUPPORTED_TYPE : GDW_ERR_LOSSY,
                                  change_message(in->type, nt));
            if (s) return s;
        }
        if (nt == GDW_NIL) {
            memset(out, 0, sizeof *out);
            return GDW_OK;
        }
        const gdw_type_info *from = type_info(in->type), *to = type_info(nt);
        if ((from->comp == C_I32 || from->comp == C_I64) && to->comp != from->comp) {
            gdw_status s = convert_components(c, out, nt);
            if (s) return s;
        }
        /* PackedFloat64Array into PackedFloat32Array keeps width 8: the encoder narrows and reports
         * */
        out->type = (uint8_t)nt;
        if (from->kind == K_TYPED_ARRAY) {
            /* Pandemonium's TypedArray as an Array: typed where the target has typed arrays */
            const gdw_container *ct = gdw_container_of(in);
            gdw_container *nc = (gdw_container *)gdw_arena_alloc(c->doc, sizeof *nc);
            if (!nc) return cfail(c, GDW_ERR_NOMEM, "out of memory");
            memset(nc, 0, sizeof *nc);
            bool keep = gdw_row_rule(c->to, GDW_RULE_TYPED_ARRAY_BITS) && ct &&
                        ct->elem.kind == GDW_DESC_BUILTIN && !ct->elem.id_only &&
                        ct->elem.builtin < GDW_TYPE_COUNT && ct->elem.builtin != GDW_OBJECT;
            if (keep) nc->elem = ct->elem;
            else {
                gdw_status s = change(
                    c, GDW_ERR_LOSSY,
                    "the array's element type has no field in this dialect: it is dropped");
                if (s) return s;
            }
            if (keep && nc->elem.kind != GDW_DESC_NONE) {
                out->flags |= GDW_VF_TYPED;
                out->u.ext = nc;
            } else {
                out->flags &= (uint16_t)~GDW_VF_TYPED;
                out->u.items = NULL;
            }
            gdw_value **dst = (out->flags & GDW_VF_TYPED) ? &nc->items : &out->u.items;
            if (nc->elem.kind != GDW_DESC_NONE) {
                gdw_status s = conv_desc(c, &nc->elem);
                if (s) return s;
            }
            const gdw_value *items;
            size_t n = gdw_children(in, &items);
            if (in->len && !n) return cfail(c, GDW_ERR_INVALID_TREE, "container without items");
            return open_items(c, f, out, items, dst, n);
        }
    }
    const gdw_type_info *ti = type_info(out->type);
    switch (ti->kind) {
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: {
        bool dict = ti->kind == K_DICT;
        const gdw_container *ct = gdw_container_of(in);
        const gdw_value *items;
        size_t n = gdw_children(in, &items);
        if (in->len && !n) return cfail(c, GDW_ERR_INVALID_TREE, "container without items");
        if (ct) {
            gdw_container *nc = (gdw_container *)gdw_arena_alloc(c->doc, sizeof *nc);
            if (!nc) return cfail(c, GDW_ERR_NOMEM, "out of memory");
            *nc = *ct;
            gdw_status s;
            if (dict && (s = conv_desc(c, &nc->key))) return s;
            if ((s = conv_desc(c, &nc->elem))) return s;
            out->u.ext = nc;
            return open_items(c, f, out, items, &nc->items, n);
        }
        return open_items(c, f, out, items, &out->u.items, n);
    }
    case K_OBJECT: {
        if (in->flags & (GDW_VF_OBJECT_NULL | GDW_VF_OBJECT_ID)) return GDW_OK;
        const gdw_object *o = (const gdw_object *)in->u.ext;
        const gdw_value *items;
        size_t n = gdw_children(in, &items);
        if (!o || (in->len && !n))
            return cfail(c, GDW_ERR_INVALID_TREE, "object without its properties");
        gdw_object *no = (gdw_object *)gdw_arena_alloc(c->doc, sizeof *no);
        gdw_value *props = n ? (gdw_value *)gdw_arena_alloc(c->doc, n * sizeof *props) : NULL;
        if (!no || (n && !props)) return cfail(c, GDW_ERR_NOMEM, "out of memory");
        *no = *o;
        /* the names; the values: conv_tree */
        for (size_t i = 0; i < n; i += 2) props[i] = items[i];
        no->props = props;
        out->u.ext = no;
        if (n) {
            f->in = items;
            f->out = props;
            f->n = n;
            f->next = 1;
            f->shape = GDW_PATH_IN_OBJECT;
        }
        return GDW_OK;
    }
    default: return GDW_OK;
    }
}

/* in and everything in it, depth first, without recursion: the frames are the stack. */
static gdw_status conv_tree(cctx *c, const gdw_value *in, gdw_value *out) {
    cframe f[GDW_HARD_MAX_DEPTH + 2];
    gdw_status s = conv(c, in, out, 0, &f[0]);
    if (s) return s;
    unsigned sp = f[0].n ? 1 : 0;
    f[0].path_len = c->path_len;
    while (sp) {
        cframe *top = &f[sp - 1];
        path_pop(c, top->path_len);
        if (top->next >= top->n) {
            sp--;
            continue;
        }
        size_t i = top->next;
        top->next += top->shape == GDW_PATH_IN_OBJECT ? 2 : 1;
        const gdw_value *key = top->shape == GDW_PATH_IN_ARRAY ? NULL : &top->in[i & ~(size_t)1];
        path_push(c, top->shape, (uint32_t)i, key);
        if ((s = conv(c, &top->in[i], &top->out[i], sp, &f[sp]))) return s;
        if (f[sp].n) {
            f[sp].path_len = c->path_len;
            sp++;
        }
    }
    return GDW_OK;
}

gdw_convert_options gdw_convert_options_default(void) {
    gdw_convert_options o;
    memset(&o, 0, sizeof o);
    return o;
}

gdw_status gdw_convert(const gdw_value *v, const gdw_dialect *to, const gdw_convert_options *opts,
                       const gdw_allocator *alloc, gdw_doc **out_doc, gdw_error *err) {
    cctx c;
    memset(&c, 0, sizeof c);
    c.err = err;
    if (!v || !to || !out_doc) return cfail(&c, GDW_ERR_INVALID_ARG, "NULL argument");
    *out_doc = NULL;
    c.to = to;
    c.o = opts ? *opts : gdw_convert_options_default();
    c.doc = gdw_doc_new(alloc);
    if (!c.doc) return cfail(&c, GDW_ERR_NOMEM, "out of memory");
    gdw_status s = conv_tree(&c, v, &c.doc->root);
    if (s) {
        gdw_doc_free(c.doc);
        return s;
    }
    *out_doc = c.doc;
    gdw_error_clear(err);
    return GDW_OK;
}

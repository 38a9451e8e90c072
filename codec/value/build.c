/* SPDX-License-Identifier: MIT */
/* build.c — the one tree builder (docs/library.md "Building values"): the public gdw_build_*
 * API, and the way the text parser makes its trees.
 *
 * A builder is a stack machine. Values are added one after another in the order the wire (and
 * the text form) has them; gdw_build_begin_* opens a container, the values added next are its
 * items (a Dictionary's and an Object's alternate key, value), gdw_build_end closes it. The items
 * of every open container sit on one growing stack of 16-byte values from the caller's allocator;
 * closing a container copies its items once into an array of exactly their number in the
 * document's arena. So a finished document holds no spare room, nothing ever points into a
 * buffer that grows, and no call recurses.
 *
 * Errors are sticky: the first failed call's status and error (with the path of the value it was
 * adding) are kept, every later call returns that status and does nothing, and gdw_build_finish
 * reports it. Every byte comes from the builder's allocator.
 */
#include <math.h>

#include "codec/value/value.h"

typedef struct bframe {
    gdw_value head; /* the container: type, flags; len and items set when it closes */
    void *ext;      /* the gdw_container (typed) or gdw_object it closes into, else NULL */
    size_t base;    /* its first item's index on the item stack */
} bframe;

struct gdw_builder {
    gdw_allocator alloc;
    gdw_doc *doc;     /* where everything built lives; made at the first value */
    gdw_value *items; /* the open containers' items, outermost first */
    size_t n_items, cap_items;
    bframe *frames; /* the open containers */
    size_t depth, cap_frames;
    gdw_value root;
    bool has_root;
    gdw_status status; /* the first failure, sticky */
    gdw_error err;
};

/* ---- the builder itself ------------------------------------------------------------------- */

gdw_builder *gdw_builder_new(const gdw_allocator *alloc) {
    if (!alloc) alloc = gdw_default_allocator();
    gdw_builder *b = (gdw_builder *)alloc->malloc_fn(alloc->ctx, sizeof *b);
    if (!b) return NULL;
    memset(b, 0, sizeof *b);
    b->alloc = *alloc;
    return b;
}

static void drop_doc(gdw_builder *b) {
    gdw_doc_free(b->doc);
    b->doc = NULL;
    b->n_items = b->depth = 0;
    b->has_root = false;
}

void gdw_builder_free(gdw_builder *b) {
    if (!b) return;
    gdw_allocator a = b->alloc;
    drop_doc(b);
    if (b->items) a.free_fn(a.ctx, b->items, b->cap_items * sizeof *b->items);
    if (b->frames) a.free_fn(a.ctx, b->frames, b->cap_frames * sizeof *b->frames);
    a.free_fn(a.ctx, b, sizeof *b);
}

/* Where the value being added goes, as gdw_error.path writes it. */
static void where(const gdw_builder *b, char *path) {
    size_t n = 0;
    path[0] = 0;
    for (size_t i = 0; i < b->depth; i++) {
        const bframe *f = &b->frames[i];
        size_t end = i + 1 < b->depth ? b->frames[i + 1].base : b->n_items;
        uint32_t slot = (uint32_t)(end - f->base);
        unsigned kind = type_info(f->head.type)->kind;
        gdw_path_in in = kind == K_OBJECT ? GDW_PATH_IN_OBJECT
                         : kind == K_DICT ? GDW_PATH_IN_DICT
                                          : GDW_PATH_IN_ARRAY;
        const gdw_value *key = slot % 2 ? &b->items[f->base + slot - 1] : NULL;
        bool text_key = in != GDW_PATH_IN_ARRAY && key &&
                        (key->type == GDW_STRING || key->type == GDW_STRING_NAME);
        gdw_path_step(path, &n, in, slot, text_key ? key->u.bytes : NULL, text_key ? key->len : 0);
    }
}

gdw_status gdw_build_fail(gdw_builder *b, gdw_status code, const char *message) {
    if (b->status) return b->status;
    b->status = code;
    where(b, gdw_error_set(&b->err, code, 0, 0, GDW_ENGINE_NONE, message)->path);
    return code;
}

static gdw_status fail_nomem(gdw_builder *b) {
    return gdw_build_fail(b, GDW_ERR_NOMEM, "out of memory");
}

gdw_status gdw_build_blame(const gdw_builder *b, const char **message) {
    gdw_error e;
    gdw_status s = gdw_builder_error(b, &e);
    *message = b ? e.message : gdw_strerror(s);
    return s == GDW_ERR_INVALID_ARG ? GDW_ERR_SYNTAX : s;
}

gdw_status gdw_builder_error(const gdw_builder *b, gdw_error *err) {
    if (!b) return GDW_ERR_INVALID_ARG;
    if (err) {
        if (b->status) *err = b->err;
        else gdw_error_clear(err);
    }
    return b->status;
}

size_t gdw_builder_depth(const gdw_builder *b) { return b ? b->depth : 0; }

bool gdw_builder_top(const gdw_builder *b, const gdw_value **top) {
    const bframe *f = &b->frames[b->depth - 1];
    *top = &f->head;
    return f->ext != NULL;
}

size_t gdw_builder_open_count(const gdw_builder *b) {
    return b && b->depth ? b->n_items - b->frames[b->depth - 1].base : 0;
}

gdw_doc *gdw_builder_doc(gdw_builder *b) {
    if (!b->doc && !b->status) {
        b->doc = gdw_doc_new(&b->alloc);
        if (!b->doc) fail_nomem(b);
    }
    return b->status ? NULL : b->doc;
}

void *gdw_build_alloc(gdw_builder *b, size_t n) {
    gdw_doc *doc = gdw_builder_doc(b);
    if (!doc) return NULL;
    void *p = gdw_arena_alloc(doc, n);
    if (!p) fail_nomem(b);
    return p;
}

static void *dup_bytes(gdw_builder *b, const void *src, size_t n) {
    void *p = gdw_build_alloc(b, n);
    if (p && n) memcpy(p, src, n);
    return p;
}

static bool grow_array(gdw_builder *b, void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    if (nc > SIZE_MAX / elem) return false;
    void *q = *arr ? b->alloc.realloc_fn(b->alloc.ctx, *arr, *cap * elem, nc * elem)
                   : b->alloc.malloc_fn(b->alloc.ctx, nc * elem);
    if (!q) return false;
    *arr = q;
    *cap = nc;
    return true;
}

/* Checks before any value is added: not failed, not too deep, room at the top. */
static gdw_status may_add(gdw_builder *b) {
    if (!b) return GDW_ERR_INVALID_ARG;
    if (b->status) return b->status;
    if (b->depth == 0 && b->has_root)
        return gdw_build_fail(
            b, GDW_ERR_INVALID_ARG,
            "the document has its value: gdw_build_finish it before building another");
    if (b->depth > GDW_WALK_MAX_DEPTH)
        return gdw_build_fail(b, GDW_ERR_DEPTH, "containers nested too deeply");
    return gdw_builder_doc(b) ? GDW_OK : b->status;
}

const char *gdw_descs_refused(unsigned kind, const gdw_container *ct) {
    if (kind == K_TYPED_ARRAY && !ct) return "a (Packed)TypedArray has an element type";
    if (!ct) return NULL;
    if (kind == K_DICT && ct->key.id_only)
        return "ObjectID element types are Pandemonium's TypedArray only";
    if (kind != K_TYPED_ARRAY)
        return ct->elem.id_only ? "ObjectID element types are Pandemonium's TypedArray only" : NULL;
    if (ct->elem.kind != GDW_DESC_BUILTIN && ct->elem.kind != GDW_DESC_CLASS)
        return "a Pandemonium TypedArray's element type is a builtin type, a class name or "
               "ObjectID";
    if (ct->elem.kind == GDW_DESC_BUILTIN && ct->elem.builtin == GDW_OBJECT && !ct->elem.id_only)
        return "a Pandemonium TypedArray of Objects names a class (\"Node\") or is ObjectID";
    return NULL;
}

/* The rules a value holds however it is made (the typed calls, the text and JSON readers, a copy
 * of a tree): one definition, checked as the value is added. NULL, or why not. ext: a container's
 * extra part at gdw_build_open. */
static const char *refused(const gdw_builder *b, const gdw_value *v, const void *ext, bool opens) {
    /* an Object's property names are Strings: the rule every reader and the encoder hold */
    if (b->depth) {
        const bframe *f = &b->frames[b->depth - 1];
        if (f->head.type == GDW_OBJECT && (b->n_items - f->base) % 2 == 0 && v->type != GDW_STRING)
            return "an Object's property names are Strings";
    }
    if (v->type >= GDW_TYPE_COUNT) return "no such type";
    unsigned kind = type_info(v->type)->kind;
    if (opens) return kind == K_OBJECT ? NULL : gdw_descs_refused(kind, (const gdw_container *)ext);
    switch (kind) {
    case K_NODEPATH: {
        const gdw_nodepath *np = (const gdw_nodepath *)v->u.ext;
        return np && (np->flags > 3 || ((np->flags & 2) && np->subname_count == 0))
                   ? "NodePath flags: bit 0 absolute, bit 1 (Godot 2) only with a subname"
                   : NULL;
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *ev = (const gdw_input_event *)v->u.ext;
        return ev && !gdw_input_event_words_ok(ev->type, ev->extra_count)
                   ? "InputEvent: wrong number of value words for its type (KEY 2; MOUSE_BUTTON, "
                     "JOYSTICK_BUTTON, SCREEN_TOUCH 1; JOYSTICK_MOTION 1 or 2; others 0)"
                   : NULL;
    }
    case K_OBJECT:
        return (v->flags & GDW_VF_OBJECT_ID) && v->u.i == 0 ? "ObjectID(0) is Object(null)" : NULL;
    default: return NULL;
    }
}

gdw_status gdw_build_put(gdw_builder *b, const gdw_value *v) {
    gdw_status s = may_add(b);
    if (s) return s;
    const char *why = refused(b, v, NULL, false);
    if (why) return gdw_build_fail(b, GDW_ERR_INVALID_ARG, why);
    if (b->depth == 0) {
        b->root = *v;
        b->has_root = true;
        return GDW_OK;
    }
    if (!grow_array(b, (void **)&b->items, &b->cap_items, b->n_items + 1, sizeof *b->items))
        return fail_nomem(b);
    b->items[b->n_items++] = *v;
    return GDW_OK;
}

gdw_status gdw_build_open(gdw_builder *b, const gdw_value *head, void *ext) {
    gdw_status s = may_add(b);
    if (s) return s;
    const char *why = refused(b, head, ext, true);
    if (why) return gdw_build_fail(b, GDW_ERR_INVALID_ARG, why);
    /* the deepest decoded tree: the top container and GDW_HARD_MAX_DEPTH levels below it */
    if (b->depth >= GDW_HARD_MAX_DEPTH + 1)
        return gdw_build_fail(b, GDW_ERR_DEPTH, "containers nested too deeply");
    if (!grow_array(b, (void **)&b->frames, &b->cap_frames, b->depth + 1, sizeof *b->frames))
        return fail_nomem(b);
    bframe *f = &b->frames[b->depth++];
    f->head = *head;
    f->head.len = 0;
    f->ext = ext;
    f->base = b->n_items;
    return GDW_OK;
}

gdw_status gdw_build_end(gdw_builder *b) {
    if (!b) return GDW_ERR_INVALID_ARG;
    if (b->status) return b->status;
    if (b->depth == 0)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "gdw_build_end with no container open");
    bframe *f = &b->frames[b->depth - 1];
    size_t n = b->n_items - f->base;
    bool pairs = f->head.type == GDW_DICTIONARY || f->head.type == GDW_OBJECT;
    if (pairs && n % 2)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG,
                              f->head.type == GDW_OBJECT
                                  ? "an Object property has a name and no value"
                                  : "a Dictionary key has no value");
    size_t count = pairs ? n / 2 : n;
    if (count > UINT32_MAX)
        return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "more than 2^32 - 1 items in one container");
    gdw_value *items = (gdw_value *)dup_bytes(b, n ? b->items + f->base : NULL, n * sizeof *items);
    if (!items) return b->status;
    gdw_value v = f->head;
    v.len = (uint32_t)count;
    if (f->head.type == GDW_OBJECT) ((gdw_object *)f->ext)->props = items, v.u.ext = f->ext;
    else if (f->ext)
        ((gdw_container *)f->ext)->items = items, v.u.ext = f->ext, v.flags |= GDW_VF_TYPED;
    else v.u.items = items;
    b->n_items = f->base;
    b->depth--;
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_finish(gdw_builder *b, gdw_doc **out_doc, gdw_error *err) {
    if (!b || !out_doc) {
        gdw_error_set(err, GDW_ERR_INVALID_ARG, 0, 0, GDW_ENGINE_NONE, "NULL argument");
        if (out_doc) *out_doc = NULL;
        /* as documented: the builder is empty either way */
        if (b) {
            drop_doc(b);
            b->status = GDW_OK;
        }
        return GDW_ERR_INVALID_ARG;
    }
    *out_doc = NULL;
    if (!b->status && b->depth)
        gdw_build_fail(b, GDW_ERR_INVALID_ARG, "containers are still open: gdw_build_end each");
    if (!b->status && !b->has_root) gdw_build_fail(b, GDW_ERR_INVALID_ARG, "nothing was built");
    gdw_status s = gdw_builder_error(b, err);
    if (!s) {
        b->doc->root = b->root;
        *out_doc = b->doc;
        b->doc = NULL;
    }
    drop_doc(b);
    b->status = GDW_OK;
    return s;
}

/* ---- scalars -------------------------------------------------------------------------------- */

static gdw_value scalar(gdw_type t) {
    gdw_value v;
    memset(&v, 0, sizeof v);
    v.type = (uint8_t)t;
    return v;
}

gdw_status gdw_build_nil(gdw_builder *b) {
    gdw_value v = scalar(GDW_NIL);
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_bool(gdw_builder *b, bool x) {
    gdw_value v = scalar(GDW_BOOL);
    v.u.i = x ? 1 : 0;
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_int(gdw_builder *b, int64_t x) {
    gdw_value v = scalar(GDW_INT);
    v.u.i = x;
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_float(gdw_builder *b, double x) {
    uint64_t bits = f64_to_bits(x);
    /* the width every engine's encoder chooses: 32 bits when that holds the number exactly */
    if (!isnan(x) && gdw_f64_fits_f32(bits))
        return gdw_build_float_bits(b, f32_to_bits((float)x), 4);
    return gdw_build_float_bits(b, bits, 8);
}

gdw_status gdw_build_float_bits(gdw_builder *b, uint64_t bits, unsigned width) {
    gdw_status s = may_add(b);
    if (s) return s;
    if (width != 4 && width != 8)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "a float's width is 4 or 8");
    if (width == 4 && bits > UINT32_MAX)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "a 32-bit float's bits do not fit 32 bits");
    gdw_value v = scalar(GDW_FLOAT);
    v.width = (uint8_t)width;
    v.u.bits = bits;
    return gdw_build_put(b, &v);
}

/* A String, StringName or PackedByteArray: its bytes copied. */
static gdw_status bytes_value(gdw_builder *b, gdw_type t, const void *s, size_t len) {
    gdw_status st = may_add(b);
    if (st) return st;
    if (!s && len) return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "NULL bytes with a length");
    if (len > UINT32_MAX)
        return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "4 GiB or more of bytes in one value");
    gdw_value v = scalar(t);
    v.len = (uint32_t)len;
    v.u.bytes = (const uint8_t *)dup_bytes(b, s, len);
    return v.u.bytes ? gdw_build_put(b, &v) : b->status;
}

gdw_status gdw_build_string(gdw_builder *b, const char *s, size_t len) {
    return bytes_value(b, GDW_STRING, s, len);
}
gdw_status gdw_build_cstring(gdw_builder *b, const char *s) {
    return bytes_value(b, GDW_STRING, s, s ? strlen(s) : 0);
}
gdw_status gdw_build_string_name(gdw_builder *b, const char *s, size_t len) {
    return bytes_value(b, GDW_STRING_NAME, s, len);
}

static bool copy_str(gdw_builder *b, gdw_str *dst, gdw_str src) {
    if (!src.ptr && src.len) {
        gdw_build_fail(b, GDW_ERR_INVALID_ARG, "NULL text with a length");
        return false;
    }
    dst->len = src.len;
    dst->ptr = (const uint8_t *)dup_bytes(b, src.ptr, src.len);
    return dst->ptr != NULL;
}

static gdw_str *copy_strs(gdw_builder *b, const gdw_str *src, size_t n) {
    if (!src && n) {
        gdw_build_fail(b, GDW_ERR_INVALID_ARG, "NULL array with a count");
        return NULL;
    }
    if (n > SIZE_MAX / sizeof(gdw_str)) {
        fail_nomem(b);
        return NULL;
    }
    gdw_str *out = (gdw_str *)gdw_build_alloc(b, n * sizeof *out);
    for (size_t i = 0; out && i < n; i++)
        if (!copy_str(b, &out[i], src[i])) return NULL;
    return out;
}

gdw_status gdw_build_node_path(gdw_builder *b, const gdw_str *names, size_t name_count,
                               const gdw_str *subnames, size_t subname_count, uint32_t flags) {
    gdw_status s = may_add(b);
    if (s) return s;
    if (name_count > UINT32_MAX || subname_count > UINT32_MAX - name_count)
        return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "too many NodePath parts");
    gdw_nodepath *np = (gdw_nodepath *)gdw_build_alloc(b, sizeof *np);
    gdw_str *parts = (gdw_str *)gdw_build_alloc(b, (name_count + subname_count) * sizeof *parts);
    if (!np || !parts) return b->status;
    for (size_t i = 0; i < name_count + subname_count; i++) {
        const gdw_str *src = i < name_count ? names : subnames;
        if (!src) return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "NULL array with a count");
        if (!copy_str(b, &parts[i], src[i < name_count ? i : i - name_count])) return b->status;
    }
    np->name_count = (uint32_t)name_count;
    np->subname_count = (uint32_t)subname_count;
    np->flags = flags;
    np->parts = parts;
    gdw_value v = scalar(GDW_NODE_PATH);
    v.u.ext = np;
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_rid(gdw_builder *b, uint64_t id) {
    gdw_value v = scalar(GDW_RID);
    v.u.i = (int64_t)id;
    v.flags = GDW_VF_RID_ID;
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_object_id(gdw_builder *b, uint64_t id) {
    gdw_value v = scalar(GDW_OBJECT);
    v.u.i = (int64_t)id;
    v.flags = id ? GDW_VF_OBJECT_ID : GDW_VF_OBJECT_NULL;
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_callable(gdw_builder *b) {
    gdw_value v = scalar(GDW_CALLABLE);
    return gdw_build_put(b, &v);
}

gdw_status gdw_build_signal(gdw_builder *b, const char *name, size_t len, uint64_t object_id) {
    gdw_status s = may_add(b);
    if (s) return s;
    if (len > UINT32_MAX) return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "a string of 4 GiB or more");
    gdw_signal *sg = (gdw_signal *)gdw_build_alloc(b, sizeof *sg);
    if (!sg || !copy_str(b, &sg->name, str_make(name, len))) return b->status;
    sg->object_id = object_id;
    gdw_value v = scalar(GDW_SIGNAL);
    v.u.ext = sg;
    return gdw_build_put(b, &v);
}

/* ---- math types and packed arrays ------------------------------------------------------------ */

unsigned gdw_comp_bytes(const gdw_type_info *ti, unsigned w) {
    switch (ti->comp) {
    case C_I32:
    case C_F32: return 4;
    case C_I64:
    case C_F64: return 8;
    default: return w;
    }
}

/* The count rule of a math type (exactly its components) or packed array (whole elements, at
 * most 2^32 - 1 of them): GDW_OK or the builder's failure. Checked before any component is read. */
static gdw_status count_holds(gdw_builder *b, const gdw_type_info *ti, size_t n) {
    if (ti->kind == K_PACKED ? n % ti->ncomp != 0 : n != ti->ncomp)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "wrong number of components");
    if (n / ti->ncomp > UINT32_MAX)
        return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "more than 2^32 - 1 elements");
    return GDW_OK;
}

gdw_status gdw_build_components(gdw_builder *b, gdw_type t, const uint8_t *bytes, size_t n,
                                unsigned width) {
    gdw_status s = may_add(b);
    if (s) return s;
    const gdw_type_info *ti = type_info((unsigned)t);
    bool packed = ti->kind == K_PACKED, int_comps = ti->comp == C_I32 || ti->comp == C_I64;
    if ((s = count_holds(b, ti, n))) return s;
    gdw_value v = scalar(t);
    v.len = (uint32_t)(packed ? n / ti->ncomp : n);
    v.width = (uint8_t)(int_comps ? 0 : gdw_comp_bytes(ti, width));
    v.u.bytes = bytes;
    return gdw_build_put(b, &v);
}

/* n components (count values × ncomp) from doubles or int64s, in the type's component form. */
static gdw_status components(gdw_builder *b, gdw_type t, bool packed, bool int_api,
                             const double *reals, const int64_t *ints, size_t n, unsigned width) {
    gdw_status s = may_add(b);
    if (s) return s;
    if ((unsigned)t >= GDW_TYPE_COUNT)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "no such type");
    const gdw_type_info *ti = type_info((unsigned)t);
    bool int_comps = ti->comp == C_I32 || ti->comp == C_I64;
    if (ti->kind != (packed ? K_PACKED : K_FIXED) || int_comps != int_api)
        return gdw_build_fail(
            b, GDW_ERR_INVALID_ARG,
            packed ? (int_api ? "not a packed array of integers" : "not a packed array of reals")
                   : (int_api ? "not a math type of integers" : "not a math type of reals"));
    /* the type's own: 4, or 8 for PackedFloat64Array */
    if (width == 0) width = gdw_comp_bytes(ti, 4);
    if (width != 4 && width != 8)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "a real's width is 4 or 8");
    if (ti->comp != C_REAL && !int_comps && width != gdw_comp_bytes(ti, width))
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "this type's reals have a fixed width");
    if (n && !(reals || ints))
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "NULL array with a count");
    /* before a component is read: n is the caller's word */
    if ((s = count_holds(b, ti, n))) return s;
    unsigned cw = gdw_comp_bytes(ti, width);
    if (n > SIZE_MAX / cw) return fail_nomem(b);
    uint8_t *out = (uint8_t *)gdw_build_alloc(b, n * cw);
    if (!out) return b->status;
    for (size_t i = 0; i < n; i++) {
        if (int_api) {
            if (cw == 4 && (ints[i] < INT32_MIN || ints[i] > INT32_MAX))
                return gdw_build_fail(b, GDW_ERR_LOSSY, "a component does not fit 32 bits");
            if (cw == 4) wr_u32le(out + 4 * i, (uint32_t)(int32_t)ints[i]);
            else wr_u64le(out + 8 * i, (uint64_t)ints[i]);
        } else if (cw == 4) {
            wr_u32le(out + 4 * i, f32_to_bits((float)reals[i]));
        } else {
            wr_u64le(out + 8 * i, f64_to_bits(reals[i]));
        }
    }
    return gdw_build_components(b, t, out, n, width);
}

gdw_status gdw_build_math(gdw_builder *b, gdw_type t, const double *c, size_t n, unsigned width) {
    return components(b, t, false, false, c, NULL, n, width);
}
gdw_status gdw_build_math_int(gdw_builder *b, gdw_type t, const int64_t *c, size_t n) {
    return components(b, t, false, true, NULL, c, n, 0);
}
gdw_status gdw_build_packed_reals(gdw_builder *b, gdw_type t, const double *c, size_t n,
                                  unsigned width) {
    return components(b, t, true, false, c, NULL, n, width);
}
gdw_status gdw_build_packed_ints(gdw_builder *b, gdw_type t, const int64_t *c, size_t n) {
    return components(b, t, true, true, NULL, c, n, 0);
}

gdw_status gdw_build_packed_bytes(gdw_builder *b, const uint8_t *p, size_t n) {
    return bytes_value(b, GDW_PACKED_BYTE_ARRAY, p, n);
}

gdw_status gdw_build_packed_strings(gdw_builder *b, const gdw_str *strs, size_t n) {
    gdw_status s = may_add(b);
    if (s) return s;
    if (n > UINT32_MAX) return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "more than 2^32 - 1 elements");
    gdw_value v = scalar(GDW_PACKED_STRING_ARRAY);
    v.len = (uint32_t)n;
    v.u.ext = copy_strs(b, strs, n);
    return v.u.ext ? gdw_build_put(b, &v) : b->status;
}

/* ---- containers ------------------------------------------------------------------------------ */

static bool copy_desc(gdw_builder *b, gdw_typedesc *dst, const gdw_typedesc *src) {
    memset(dst, 0, sizeof *dst);
    if (!src) return true;
    *dst = *src;
    if (src->kind > GDW_DESC_SCRIPT ||
        (src->kind == GDW_DESC_BUILTIN && src->builtin > GDW_TYPE_COUNT)) {
        gdw_build_fail(b, GDW_ERR_INVALID_ARG, "not an element type");
        return false;
    }
    return src->kind == GDW_DESC_NONE || src->kind == GDW_DESC_BUILTIN ||
           copy_str(b, &dst->name, src->name);
}

gdw_status gdw_build_begin(gdw_builder *b, gdw_type t, const gdw_typedesc *key,
                           const gdw_typedesc *elem) {
    gdw_status s = may_add(b);
    if (s) return s;
    unsigned kind = (unsigned)t < GDW_TYPE_COUNT ? type_info((unsigned)t)->kind : (unsigned)K_NIL;
    if (kind != K_ARRAY && kind != K_DICT && kind != K_TYPED_ARRAY)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG,
                              "not an Array, Dictionary or (Packed)TypedArray");
    if (kind != K_DICT && key)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "only a Dictionary has a key type");
    if (kind == K_TYPED_ARRAY && !elem)
        return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "a (Packed)TypedArray has an element type");
    gdw_container *ct = NULL;
    if (key || elem) {
        ct = (gdw_container *)gdw_build_alloc(b, sizeof *ct);
        if (!ct) return b->status;
        memset(ct, 0, sizeof *ct);
        if (!copy_desc(b, &ct->key, key) || !copy_desc(b, &ct->elem, elem)) return b->status;
    }
    gdw_value head = scalar(t);
    return gdw_build_open(b, &head, ct);
}

gdw_status gdw_build_begin_array(gdw_builder *b) {
    return gdw_build_begin(b, GDW_ARRAY, NULL, NULL);
}
gdw_status gdw_build_begin_dictionary(gdw_builder *b) {
    return gdw_build_begin(b, GDW_DICTIONARY, NULL, NULL);
}

gdw_status gdw_build_begin_object(gdw_builder *b, const char *class_name, size_t len) {
    gdw_status s = may_add(b);
    if (s) return s;
    if (len > UINT32_MAX) return gdw_build_fail(b, GDW_ERR_TOO_LARGE, "a string of 4 GiB or more");
    gdw_object *o = (gdw_object *)gdw_build_alloc(b, sizeof *o);
    if (!o) return b->status;
    memset(o, 0, sizeof *o);
    if (!copy_str(b, &o->class_name, str_make(class_name, len))) return b->status;
    gdw_value head = scalar(GDW_OBJECT);
    return gdw_build_open(b, &head, o);
}

/* ---- a copy of any value --------------------------------------------------------------------- */

/* A tree made by hand can be malformed: what a copy must not follow. */
static bool malformed(const gdw_value *v) {
    if (v->type >= GDW_TYPE_COUNT) return true;
    const gdw_type_info *ti = type_info(v->type);
    if ((ti->kind == K_FLOAT || ti->comp == C_REAL) && v->width != 4 && v->width != 8) return true;
    switch (ti->kind) {
    /* a math value's len is its component count */
    case K_FIXED: return v->len != ti->ncomp || !v->u.bytes;
    case K_STR:
    case K_PACKED_BYTES:
    case K_PACKED: return v->len && !v->u.bytes;
    case K_PACKED_STRINGS: return v->len && !v->u.ext;
    case K_NODEPATH:
    case K_SIGNAL:
    case K_IMAGE:
    case K_INPUT_EVENT: return !v->u.ext;
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY:
        return ((v->flags & GDW_VF_TYPED) && !v->u.ext) || (v->len && !gdw_children(v, NULL));
    case K_OBJECT:
        return !(v->flags & (GDW_VF_OBJECT_ID | GDW_VF_OBJECT_NULL)) &&
               (!v->u.ext || (v->len && !gdw_children(v, NULL)));
    default: return false;
    }
}

/* The value v, which has no children, its bytes copied into the builder's document. */
static void copy_scalar(gdw_builder *b, const gdw_value *v) {
    const gdw_type_info *ti = type_info(v->type);
    gdw_value c = *v;
    switch (ti->kind) {
    case K_STR:
    case K_PACKED_BYTES: c.u.bytes = (const uint8_t *)dup_bytes(b, v->u.bytes, v->len); break;
    case K_FIXED:
    case K_PACKED: {
        size_t n = (size_t)(ti->kind == K_PACKED ? v->len : 1) * ti->ncomp *
                   gdw_comp_bytes(ti, v->width);
        c.u.bytes = (const uint8_t *)dup_bytes(b, v->u.bytes, n);
        break;
    }
    case K_PACKED_STRINGS: c.u.ext = copy_strs(b, (const gdw_str *)v->u.ext, v->len); break;
    case K_NODEPATH: {
        const gdw_nodepath *np = (const gdw_nodepath *)v->u.ext;
        gdw_nodepath *q = (gdw_nodepath *)dup_bytes(b, np, sizeof *np);
        if (q) q->parts = copy_strs(b, np->parts, (size_t)np->name_count + np->subname_count);
        c.u.ext = q;
        break;
    }
    case K_SIGNAL: {
        gdw_signal *q = (gdw_signal *)dup_bytes(b, v->u.ext, sizeof(gdw_signal));
        if (q) copy_str(b, &q->name, q->name);
        c.u.ext = q;
        break;
    }
    case K_IMAGE: {
        gdw_image *q = (gdw_image *)dup_bytes(b, v->u.ext, sizeof(gdw_image));
        if (q) copy_str(b, &q->data, q->data);
        c.u.ext = q;
        break;
    }
    case K_INPUT_EVENT: c.u.ext = dup_bytes(b, v->u.ext, sizeof(gdw_input_event)); break;
    default: break;
    }
    if (!b->status) gdw_build_put(b, &c);
}

static void copy_enter(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)parent, (void)slot;
    gdw_builder *b = (gdw_builder *)ctx;
    if (may_add(b)) return;
    if (malformed(v)) {
        gdw_build_fail(b, GDW_ERR_INVALID_TREE, "a malformed value (type, width or pointers)");
        return;
    }
    if (!gdw_walk_opens(v)) {
        copy_scalar(b, v);
        return;
    }
    gdw_value head = *v;
    head.flags &= (uint16_t)~GDW_VF_TYPED;
    void *ext = NULL;
    if (v->type == GDW_OBJECT) {
        const gdw_object *o = (const gdw_object *)v->u.ext;
        gdw_object *q = (gdw_object *)gdw_build_alloc(b, sizeof *q);
        if (!q || !copy_str(b, &q->class_name, o->class_name)) return;
        ext = q;
    } else if (v->flags & GDW_VF_TYPED) {
        const gdw_container *ct = (const gdw_container *)v->u.ext;
        gdw_container *q = (gdw_container *)gdw_build_alloc(b, sizeof *q);
        if (!q) return;
        memset(q, 0, sizeof *q);
        if (!copy_desc(b, &q->key, &ct->key) || !copy_desc(b, &q->elem, &ct->elem)) return;
        ext = q;
    }
    gdw_build_open(b, &head, ext);
}

static void copy_before(void *ctx, const gdw_value *parent, uint32_t slot) {
    (void)ctx, (void)parent, (void)slot;
}

static void copy_leave(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)parent, (void)slot;
    if (gdw_walk_opens(v)) gdw_build_end((gdw_builder *)ctx);
}

static void copy_too_deep(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)v, (void)parent, (void)slot;
    gdw_build_fail((gdw_builder *)ctx, GDW_ERR_DEPTH, "containers nested too deeply");
}

gdw_status gdw_build_value(gdw_builder *b, const gdw_value *v) {
    gdw_status s = may_add(b);
    if (s) return s;
    if (!v) return gdw_build_fail(b, GDW_ERR_INVALID_ARG, "NULL value");
    size_t depth = b->depth;
    gdw_walk_visitor w = {copy_enter, copy_before, copy_leave, copy_too_deep, b, NULL, NULL};
    gdw_walk(v, &w);
    if (!b->status && b->depth != depth)
        return gdw_build_fail(b, GDW_ERR_INVALID_TREE, "a container's items are missing");
    return b->status;
}

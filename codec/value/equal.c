/* SPDX-License-Identifier: MIT */
/* equal.c — equality of two trees (gdw_value_equal, gdw_value_same_numbers), where they first
 * differ (gdw_value_diff), and the chain of a pair walk that gdw_value_diff and gdw_doc_approximate
 * (approximate.c) share. node_equal is the one statement of what equality compares; the digest
 * (digest.h) adds exactly those fields. */
#include "codec/value/value.h"

bool gdw_typedesc_equal(const gdw_typedesc *a, const gdw_typedesc *b) {
    if (!a || !b) return a == b;
    if (a->kind != b->kind || a->id_only != b->id_only) return false;
    if (a->kind == GDW_DESC_BUILTIN)
        return a->builtin == b->builtin &&
               (a->builtin != GDW_TYPE_COUNT || a->wire_id == b->wire_id);
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
        if (widened_bits(a->u.bytes + i * a->width, a->width) !=
            widened_bits(b->u.bytes + i * b->width, b->width))
            return false;
    return true;
}

/* Two trees in step (gdw_walk_pair): each pair of nodes compared by node_equal, which leaves the
 * children to the walk. Trees deeper than GDW_WALK_MAX_DEPTH (only hand-built ones) are unequal. */
static int pair_equal(void *widen, const gdw_value *x, const gdw_value *y, const gdw_value *parent,
                      size_t slot) {
    (void)parent, (void)slot;
    if (x == y) return GDW_PAIR_SAME;
    if (!node_equal(x, y, *(const bool *)widen)) return GDW_PAIR_DIFFER;
    /* a leaf has nothing below it to compare */
    return gdw_walk_opens(x) ? GDW_PAIR_DESCEND : GDW_PAIR_SAME;
}
size_t gdw_pair_children(void *ctx, const gdw_value *v, const gdw_value **items) {
    (void)ctx;
    return gdw_children(v, items);
}

static bool equal(const gdw_value *a, const gdw_value *b, bool widen) {
    return gdw_walk_pair(a, b, pair_equal, gdw_pair_children, &widen);
}

bool gdw_value_equal(const gdw_value *a, const gdw_value *b) { return equal(a, b, false); }
bool gdw_value_same_numbers(const gdw_value *a, const gdw_value *b) { return equal(a, b, true); }

/* The chain of a pair walk (value.h): popped to the pair's parent, which is on it (the walk is
 * depth first); the pair pushed; the path of a pair, the chain's steps and the pair's own. */
void gdw_chain_pop_to(gdw_chain *ch, const gdw_value *parent) {
    while (ch->depth && ch->at[ch->depth - 1].node != parent) ch->depth--;
}

void gdw_chain_push(gdw_chain *ch, const gdw_value *x, const gdw_value *parent, size_t slot) {
    if (ch->depth < GDW_WALK_MAX_DEPTH + 2) {
        ch->at[ch->depth].node = x;
        ch->at[ch->depth].parent = parent;
        ch->at[ch->depth].slot = (uint32_t)slot;
        ch->depth++;
    }
}

void gdw_chain_path(const gdw_chain *ch, const gdw_value *parent, uint32_t slot, char *path) {
    size_t n = 0;
    path[0] = 0;
    for (unsigned i = 0; i <= ch->depth; i++) {
        const gdw_value *p = i < ch->depth ? ch->at[i].parent : parent;
        uint32_t s = i < ch->depth ? ch->at[i].slot : slot;
        if (p) gdw_path_child(path, &n, p, s);
    }
}

/* gdw_value_diff: at the first unequal pair, the chain of a-side nodes the walk is inside is the
 * path. */
typedef struct diff_walk {
    gdw_chain chain;
    gdw_difference *out;
} diff_walk;

static int diff_pair(void *ctx, const gdw_value *x, const gdw_value *y, const gdw_value *parent,
                     size_t slot) {
    diff_walk *w = (diff_walk *)ctx;
    gdw_chain_pop_to(&w->chain, parent);
    if (x != y && !node_equal(x, y, false)) {
        w->out->a = x;
        w->out->b = y;
        gdw_chain_path(&w->chain, parent, (uint32_t)slot, w->out->path);
        return GDW_PAIR_DIFFER;
    }
    gdw_chain_push(&w->chain, x, parent, slot);
    return x == y ? GDW_PAIR_SAME : GDW_PAIR_DESCEND;
}

bool gdw_value_diff(const gdw_value *a, const gdw_value *b, gdw_difference *out) {
    if (out) memset(out, 0, sizeof *out);
    if (!a || !b || !out) return false;
    diff_walk w; /* about 25 KiB of stack, as the walk's own frames: no allocator to ask */
    w.chain.depth = 0;
    w.out = out;
    if (gdw_walk_pair(a, b, diff_pair, gdw_pair_children, &w)) return false;
    if (!out->a) out->a = a, out->b = b; /* deeper than a walk goes (hand-built trees only) */
    return true;
}

/* One node against another: type, flags, scalar content, container descriptors, class name;
 * not the children (equal walks them). */
static bool node_equal(const gdw_value *a, const gdw_value *b, bool widen) {
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->type != b->type || a->len != b->len) return false;
    /* no such type: equal to nothing, not even itself */
    if (a->type >= GDW_TYPE_COUNT) return false;
    if ((a->flags & GDW_VF_COMPARED) != (b->flags & GDW_VF_COMPARED)) return false;
    const gdw_type_info *ti = type_info(a->type);
    /* u.bits holds the f32 or f64 bit pattern as a number; compared as the double the engine holds
     * (an f32 NaN read is quieted), whatever the widths */
    if (widen && ti->kind == K_FLOAT) {
        uint64_t x = a->width == 8 ? a->u.bits
                                   : f64_to_bits((double)bits_to_f32((uint32_t)a->u.bits));
        uint64_t y = b->width == 8 ? b->u.bits
                                   : f64_to_bits((double)bits_to_f32((uint32_t)b->u.bits));
        return x == y;
    }
    if (gdw_type_has_reals((gdw_type)a->type) && a->width != b->width) {
        if (!widen) return false;
        return reals_equal(a, b, (size_t)ti->ncomp * (ti->kind == K_PACKED ? a->len : 1));
    }
    switch (ti->kind) {
    case K_NIL:
    case K_CALLABLE: return true;
    case K_BOOL:
    case K_INT: return a->u.i == b->u.i;
    case K_FLOAT: return a->u.bits == b->u.bits;
    /* the same bytes (two zero-copy decodes of one packet) are equal without a look */
    case K_STR:
        return a->len == 0 || a->u.bytes == b->u.bytes ||
               memcmp(a->u.bytes, b->u.bytes, a->len) == 0;
    case K_RID: return a->u.i == b->u.i;
    case K_FIXED:
    case K_PACKED: {
        size_t w = ti->comp == C_I32 ? 4 : ti->comp == C_I64 ? 8 : a->width;
        size_t n = (size_t)ti->ncomp * w * (ti->kind == K_PACKED ? a->len : 1);
        return n == 0 || a->u.bytes == b->u.bytes || memcmp(a->u.bytes, b->u.bytes, n) == 0;
    }
    case K_PACKED_BYTES:
        return a->len == 0 || a->u.bytes == b->u.bytes ||
               memcmp(a->u.bytes, b->u.bytes, a->len) == 0;
    case K_PACKED_STRINGS: {
        const gdw_str *x = (const gdw_str *)a->u.ext, *y = (const gdw_str *)b->u.ext;
        for (uint32_t i = 0; i < a->len; i++)
            if (!str_same(x[i], y[i])) return false;
        return true;
    }
    case K_NODEPATH: {
        const gdw_nodepath *x = (const gdw_nodepath *)a->u.ext, *y = (const gdw_nodepath *)b->u.ext;
        if (x->name_count != y->name_count || x->subname_count != y->subname_count ||
            x->flags != y->flags)
            return false;
        for (uint32_t i = 0; i < x->name_count + x->subname_count; i++)
            if (!str_same(x->parts[i], y->parts[i])) return false;
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
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: {
        const gdw_container *ca = gdw_container_of(a), *cb = gdw_container_of(b);
        if ((ca != NULL) != (cb != NULL)) return false;
        /* the items: equal's walk */
        return !ca ||
               (gdw_typedesc_equal(&ca->key, &cb->key) && gdw_typedesc_equal(&ca->elem, &cb->elem));
    }
    case K_IMAGE: {
        const gdw_image *x = (const gdw_image *)a->u.ext, *y = (const gdw_image *)b->u.ext;
        return x->format == y->format && x->mipmaps == y->mipmaps && x->width == y->width &&
               x->height == y->height && str_same(x->data, y->data);
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *x = (const gdw_input_event *)a->u.ext,
                              *y = (const gdw_input_event *)b->u.ext;
        if (x->type != y->type || x->device != y->device || x->llen != y->llen ||
            x->extra_count != y->extra_count)
            return false;
        for (uint32_t i = 0; i < x->extra_count; i++)
            if (x->extra[i] != y->extra[i]) return false;
        return true;
    }
    }
    return false;
}

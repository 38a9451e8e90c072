/* SPDX-License-Identifier: MIT */
/* walk.c — the one depth-first walk of a value tree, without recursion (docs/library.md
 * "Stack"): the open containers are a fixed array of frames, so a walk needs the same few KiB
 * of C stack at any depth. Printers (text, JSON) are visitors of it.
 *
 * The children of a container, in wire order: an Array's or typed Array's items; a
 * Dictionary's keys and values alternating (slot 2i the key, 2i+1 its value); an Object's
 * property names and values alternating the same way. Scalars, null Objects and Object ids have
 * none. A tree deeper than GDW_WALK_MAX_DEPTH (only a tree built by hand can be: decoding stops at
 * GDW_HARD_MAX_DEPTH) is not descended past it: the visitor's too_deep is called there.
 *
 * gdw_walk_pair walks two trees in step the same way, for the comparisons (gdw_value_equal,
 * the engine's Dictionary key equality).
 */
#include "codec/internal.h"

size_t gdw_children(const gdw_value *v, const gdw_value **items) {
    *items = NULL;
    if (v->type >= GDW_TYPE_COUNT || v->len == 0) return 0;
    switch (type_info(v->type)->kind) {
    case K_ARRAY: *items = gdw_items(v); return *items ? v->len : 0;
    case K_DICT: *items = gdw_items(v); return *items ? 2 * (size_t)v->len : 0;
    case K_TYPED_ARRAY: {
        const gdw_container *ct = gdw_container_of(v);
        *items = ct ? ct->items : NULL;
        return *items ? v->len : 0;
    }
    case K_OBJECT: {
        if (v->flags & (GDW_VF_OBJECT_NULL | GDW_VF_OBJECT_ID)) return 0;
        const gdw_object *o = (const gdw_object *)v->u.ext;
        *items = o ? o->props : NULL;
        return *items ? 2 * (size_t)v->len : 0;
    }
    default: return 0;
    }
}

bool gdw_walk_opens(const gdw_value *v) {
    if (v->type >= GDW_TYPE_COUNT) return false;
    unsigned k = type_info(v->type)->kind;
    return k == K_DICT || k == K_ARRAY || k == K_TYPED_ARRAY || (k == K_OBJECT && !(v->flags & (GDW_VF_OBJECT_NULL | GDW_VF_OBJECT_ID)));
}

void gdw_walk(const gdw_value *root, const gdw_walk_visitor *w) {
    struct { const gdw_value *v, *items; size_t n, next; } f[GDW_WALK_MAX_DEPTH + 1];
    unsigned sp = 0;
    w->enter(w->ctx, root, NULL, 0);
    f[0].v = root;
    f[0].n = gdw_children(root, &f[0].items);
    f[0].next = 0;
    sp = 1;
    while (sp) {
        if (w->done && w->done(w->ctx)) return;
        unsigned top = sp - 1;
        if (f[top].next == f[top].n) {
            sp--;
            w->leave(w->ctx, f[top].v, sp ? f[sp - 1].v : NULL, sp ? (uint32_t)(f[sp - 1].next - 1) : 0);
            continue;
        }
        uint32_t slot = (uint32_t)f[top].next++;
        const gdw_value *c = &f[top].items[slot];
        w->before(w->ctx, f[top].v, slot);
        if (sp > GDW_WALK_MAX_DEPTH) { w->too_deep(w->ctx, c, f[top].v, slot); continue; }
        w->enter(w->ctx, c, f[top].v, slot);
        f[sp].v = c;
        f[sp].n = gdw_children(c, &f[sp].items);
        f[sp].next = 0;
        sp++;
    }
}

bool gdw_walk_pair(const gdw_value *a, const gdw_value *b, gdw_pair_fn compare, gdw_children_fn children, void *ctx) {
    struct { const gdw_value *pa, *a, *b; size_t n, next; } f[GDW_WALK_MAX_DEPTH + 1];
    int how = compare(ctx, a, b, NULL, 0);
    if (how != GDW_PAIR_DESCEND) return how == GDW_PAIR_SAME;
    f[0].pa = a;
    f[0].n = children(ctx, a, &f[0].a);
    if (children(ctx, b, &f[0].b) != f[0].n) return false;
    f[0].next = 0;
    unsigned sp = 1;
    while (sp) {
        unsigned top = sp - 1;
        if (f[top].next == f[top].n) { sp--; continue; }
        size_t i = f[top].next++;
        const gdw_value *x = &f[top].a[i], *y = &f[top].b[i];
        how = compare(ctx, x, y, f[top].pa, i);
        if (how == GDW_PAIR_DIFFER) return false;
        if (how == GDW_PAIR_SAME) continue;
        if (sp > GDW_WALK_MAX_DEPTH) return false;
        f[sp].pa = x;
        f[sp].n = children(ctx, x, &f[sp].a);
        if (children(ctx, y, &f[sp].b) != f[sp].n) return false;
        f[sp].next = 0;
        sp++;
    }
    return true;
}

/* SPDX-License-Identifier: MIT */
/* walk.c — the one depth-first walk of a value tree, without recursion (docs/library.md
 * "Stack"): the open containers are a fixed array of frames, so a walk needs the same few KiB
 * of C stack at any depth. Printers (text, JSON) are visitors of it.
 *
 * A value's children are what gdw_children (children.c, the one definition) gives. A tree deeper
 * than GDW_WALK_MAX_DEPTH (only a tree built by hand can be: decoding stops at GDW_HARD_MAX_DEPTH)
 * is not descended past it: the visitor's too_deep is called there. gdw_visit is the walk as the
 * public API offers it: pre-order, post-order or both, a subtree skipped or the walk stopped by
 * the callback.
 *
 * gdw_walk_pair walks two trees in step the same way, for the comparisons (gdw_value_equal,
 * the engine's Dictionary key equality).
 */
#include "codec/value/value.h"

bool gdw_walk_opens(const gdw_value *v) {
    if (v->type >= GDW_TYPE_COUNT) return false;
    unsigned k = type_info(v->type)->kind;
    return k == K_DICT || k == K_ARRAY || k == K_TYPED_ARRAY ||
           (k == K_OBJECT && !(v->flags & (GDW_VF_OBJECT_NULL | GDW_VF_OBJECT_ID)));
}

void gdw_walk(const gdw_value *root, const gdw_walk_visitor *w) {
    struct {
        const gdw_value *v, *items;
        size_t n, next;
    } f[GDW_WALK_MAX_DEPTH + 1];
    unsigned sp = 0;
    w->enter(w->ctx, root, NULL, 0);
    f[0].v = root;
    f[0].n = w->skip && w->skip(w->ctx, root) ? 0 : gdw_children(root, &f[0].items);
    f[0].next = 0;
    sp = 1;
    while (sp) {
        if (w->done && w->done(w->ctx)) return;
        unsigned top = sp - 1;
        if (f[top].next == f[top].n) {
            sp--;
            w->leave(w->ctx, f[top].v, sp ? f[sp - 1].v : NULL,
                     sp ? (uint32_t)(f[sp - 1].next - 1) : 0);
            continue;
        }
        uint32_t slot = (uint32_t)f[top].next++;
        const gdw_value *c = &f[top].items[slot];
        if (w->before) w->before(w->ctx, f[top].v, slot);
        if (sp > GDW_WALK_MAX_DEPTH) {
            w->too_deep(w->ctx, c, f[top].v, slot);
            continue;
        }
        w->enter(w->ctx, c, f[top].v, slot);
        f[sp].v = c;
        f[sp].n = w->skip && w->skip(w->ctx, c) ? 0 : gdw_children(c, &f[sp].items);
        f[sp].next = 0;
        sp++;
    }
}

/* gdw_visit on gdw_walk: the callback's answer to a value's PRE event is kept until the walk asks
 * whether to skip that value's children; depth counts the open values. */
typedef struct visit_ctx {
    gdw_visit_fn fn;
    void *ctx;
    unsigned events, depth;
    gdw_visit_answer last;
    bool stopped, too_deep;
} visit_ctx;

static void visit_enter(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    visit_ctx *c = (visit_ctx *)ctx;
    c->last = c->events & GDW_VISIT_PRE ? c->fn(c->ctx, GDW_VISIT_PRE, v, parent, slot, c->depth)
                                        : GDW_VISIT_GO;
    if (c->last == GDW_VISIT_STOP) c->stopped = true;
    c->depth++;
}
static bool visit_skip(void *ctx, const gdw_value *v) {
    (void)v;
    return ((visit_ctx *)ctx)->last != GDW_VISIT_GO;
}
static void visit_leave(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    visit_ctx *c = (visit_ctx *)ctx;
    c->depth--;
    if (!c->stopped && (c->events & GDW_VISIT_POST) &&
        c->fn(c->ctx, GDW_VISIT_POST, v, parent, slot, c->depth) == GDW_VISIT_STOP)
        c->stopped = true;
}
static void visit_too_deep(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)v, (void)parent, (void)slot;
    ((visit_ctx *)ctx)->too_deep = true;
}
static bool visit_done(void *ctx) { return ((visit_ctx *)ctx)->stopped; }

bool gdw_visit(const gdw_value *root, unsigned events, gdw_visit_fn fn, void *ctx) {
    if (!root || !fn) return false;
    visit_ctx c = {.fn = fn,
                   .ctx = ctx,
                   .events = events,
                   .depth = 0,
                   .last = GDW_VISIT_GO,
                   .stopped = false,
                   .too_deep = false};
    gdw_walk_visitor w = {visit_enter, NULL,       visit_leave, visit_too_deep,
                          &c,          visit_done, visit_skip};
    gdw_walk(root, &w);
    return !c.stopped && !c.too_deep;
}

bool gdw_walk_pair(const gdw_value *a, const gdw_value *b, gdw_pair_fn compare,
                   gdw_children_fn children, void *ctx) {
    struct {
        const gdw_value *pa, *a, *b;
        size_t n, next;
    } f[GDW_WALK_MAX_DEPTH + 1];
    int how = compare(ctx, a, b, NULL, 0);
    if (how != GDW_PAIR_DESCEND) return how == GDW_PAIR_SAME;
    f[0].pa = a;
    f[0].n = children(ctx, a, &f[0].a);
    if (children(ctx, b, &f[0].b) != f[0].n) return false;
    f[0].next = 0;
    unsigned sp = 1;
    while (sp) {
        unsigned top = sp - 1;
        if (f[top].next == f[top].n) {
            sp--;
            continue;
        }
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

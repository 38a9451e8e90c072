/* SPDX-License-Identifier: MIT */
/* cut.c — the cut tree (gdw_decode_options.keep_nodes): where a cutting walk stops keeping nodes,
 * and the lengths its open containers keep (walk.h says what the walk keeps of the cut). */
#include "codec/wire/walk.h"

bool gdw_cut_here(gdw_cut *k, gdw_doc *doc, const frame *stack, unsigned open, gdw_value *root,
                  size_t pos) {
    k->past = true;
    if (open && !(k->fix = (gdw_cut_fix *)gdw_arena_alloc(doc, open * sizeof(gdw_cut_fix))))
        return false;
    k->fixes = open;
    for (unsigned i = 0; i < open; i++) {
        const frame *f = &stack[i];
        gdw_cut_fix *x = &k->fix[i];
        x->node = i == 0 ? root : &stack[i - 1].items[stack[i - 1].next - 1];
        x->len = f->kind == FR_ARRAY ? f->next : (f->next + 1) / 2;
        x->null_value = f->kind != FR_ARRAY && f->next % 2 ? &f->items[f->next] : NULL;
    }
    k->mark = gdw_arena_mark_now(doc);
    k->allocated = false;
    k->pos = pos;
    return true;
}

void gdw_cut_done(const gdw_cut *k) {
    for (unsigned i = 0; i < k->fixes; i++) {
        const gdw_cut_fix *x = &k->fix[i];
        x->node->len = x->len;
        if (x->null_value) {
            memset(x->null_value, 0, sizeof *x->null_value);
            x->null_value->type = GDW_NIL;
        }
    }
}

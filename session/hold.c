/* SPDX-License-Identifier: MIT
 * hold.c — the book of what session/ holds (hold.h): two lists per kind, oldest first, and the
 * charges, in total and per flow. Every operation is O(1) but hold_room, which is O(holders it
 * drops). */
#include "hold.h"

static void list_unlink(hold_list *l, holder *h, bool flow_list) {
    holder **prev_next, **next_prev;
    holder *p = flow_list ? h->fprev : h->prev, *n = flow_list ? h->fnext : h->next;
    prev_next = p ? (flow_list ? &p->fnext : &p->next) : &l->head;
    next_prev = n ? (flow_list ? &n->fprev : &n->prev) : &l->tail;
    *prev_next = n;
    *next_prev = p;
    if (flow_list) h->fprev = h->fnext = NULL;
    else h->prev = h->next = NULL;
}

static void list_append(hold_list *l, holder *h, bool flow_list) {
    if (flow_list) {
        h->fprev = l->tail, h->fnext = NULL;
        if (l->tail) l->tail->fnext = h;
    } else {
        h->prev = l->tail, h->next = NULL;
        if (l->tail) l->tail->next = h;
    }
    if (!l->head) l->head = h;
    l->tail = h;
}

/* The oldest holder of a list that is not keep. */
static holder *oldest(const hold_list *l, const holder *keep, bool flow_list) {
    holder *h = l->head;
    if (h == keep) h = flow_list ? h->fnext : h->next;
    return h;
}

bool hold_room(hold_book *b, hold_flow *fl, hold_kind k, size_t bytes, const holder *keep) {
    const hold_cap *c = &b->cap[k];
    if (bytes > c->total || (fl && bytes > c->per_flow)) return false;
    if (fl)
        while (fl->bytes[k] + bytes > c->per_flow) {
            holder *h = oldest(&fl->list[k], keep, true);
            if (!h) return false;
            b->evict(b->ctx, h, true);
        }
    while (b->bytes[k] + bytes > c->total) {
        holder *h = oldest(&b->list[k], keep, false);
        if (!h) return false;
        b->evict(b->ctx, h, false);
    }
    return true;
}

void hold_add(hold_book *b, hold_flow *fl, holder *h, hold_kind k, uint8_t type, size_t bytes) {
    h->flow = fl, h->kind = (uint8_t)k, h->type = type, h->bytes = bytes, h->held = true;
    list_append(&b->list[k], h, false);
    if (fl) list_append(&fl->list[k], h, true), fl->bytes[k] += bytes;
    b->bytes[k] += bytes, b->total += bytes;
    if (b->bytes[k] > b->peak[k]) b->peak[k] = b->bytes[k];
    if (b->total > b->peak_total) b->peak_total = b->total;
}

void hold_resize(hold_book *b, holder *h, size_t bytes) {
    if (!h->held) return;
    b->bytes[h->kind] += bytes - h->bytes, b->total += bytes - h->bytes; /* unsigned: wraps back exactly */
    if (h->flow) h->flow->bytes[h->kind] += bytes - h->bytes;
    h->bytes = bytes;
    if (b->bytes[h->kind] > b->peak[h->kind]) b->peak[h->kind] = b->bytes[h->kind];
    if (b->total > b->peak_total) b->peak_total = b->total;
}

void hold_remove(hold_book *b, holder *h) {
    if (!h->held) return;
    list_unlink(&b->list[h->kind], h, false);
    if (h->flow) list_unlink(&h->flow->list[h->kind], h, true), h->flow->bytes[h->kind] -= h->bytes;
    b->bytes[h->kind] -= h->bytes, b->total -= h->bytes;
    h->held = false, h->bytes = 0, h->flow = NULL;
}

void hold_touch(hold_book *b, holder *h) {
    if (!h->held) return;
    if (b->list[h->kind].tail != h) list_unlink(&b->list[h->kind], h, false), list_append(&b->list[h->kind], h, false);
    if (h->flow && h->flow->list[h->kind].tail != h)
        list_unlink(&h->flow->list[h->kind], h, true), list_append(&h->flow->list[h->kind], h, true);
}

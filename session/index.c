/* SPDX-License-Identifier: MIT
 * index.c — the hash index of pointers (index.h). */
#include "index.h"

#include <string.h>

#include "session.h"

static size_t home(const ptr_index *ix, uint64_t h) { return (size_t)(h ^ (h >> 32)) & (ix->cap - 1); }

void *index_find(const ptr_index *ix, uint64_t h, bool (*eq)(const void *item, const void *key), const void *key) {
    if (!ix->cap) return NULL;
    for (size_t i = home(ix, h); ix->slot[i]; i = (i + 1) & (ix->cap - 1))
        if (eq(ix->slot[i], key)) return ix->slot[i];
    return NULL;
}

/* The table at cap slots, every item in it again; false when memory runs out. */
static bool rehash(ptr_index *ix, size_t cap) {
    void **t = gdw_session_alloc(ix->alloc, cap * sizeof *t);
    if (!t) return false;
    memset(t, 0, cap * sizeof *t);
    void **old = ix->slot;
    size_t old_cap = ix->cap;
    ix->slot = t, ix->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i]) {
            size_t j = home(ix, ix->hash(old[i]));
            while (t[j]) j = (j + 1) & (cap - 1);
            t[j] = old[i];
        }
    gdw_session_release(ix->alloc, old, old_cap * sizeof *old);
    return true;
}

bool index_insert(ptr_index *ix, void *item) {
    if ((ix->count + 1) * 2 > ix->cap && !rehash(ix, ix->cap ? ix->cap * 2 : 16)) return false;
    size_t i = home(ix, ix->hash(item));
    while (ix->slot[i]) i = (i + 1) & (ix->cap - 1);
    ix->slot[i] = item;
    ix->count++;
    return true;
}

void index_remove(ptr_index *ix, const void *item) {
    if (!ix->cap) return;
    size_t i = home(ix, ix->hash(item));
    while (ix->slot[i] && ix->slot[i] != item) i = (i + 1) & (ix->cap - 1);
    if (!ix->slot[i]) return;
    ix->slot[i] = NULL;
    ix->count--;
    /* backward shift: each item of the run after the hole that may stand in it moves there */
    for (size_t j = (i + 1) & (ix->cap - 1); ix->slot[j]; j = (j + 1) & (ix->cap - 1)) {
        size_t h = home(ix, ix->hash(ix->slot[j]));
        /* the item at j may move to i when its home is not cyclically in (i, j] */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            ix->slot[i] = ix->slot[j];
            ix->slot[j] = NULL;
            i = j;
        }
    }
    if (ix->cap > 16 && ix->count * 8 < ix->cap) rehash(ix, ix->cap / 2); /* a quarter full at least (when it fails, it stays) */
}

void index_free(ptr_index *ix) {
    gdw_session_release(ix->alloc, ix->slot, ix->cap * sizeof *ix->slot);
    ix->slot = NULL, ix->cap = ix->count = 0;
}

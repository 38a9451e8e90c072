/* SPDX-License-Identifier: MIT
 * index.h — a hash index of pointers (open addressing, linear probing, removal by backward shift,
 * so no tombstones): session/ finds a fragmented packet, a retransmit window and a path-cache
 * entry in O(1) with it. Its table stays between an eighth and half full, so it costs at most
 * INDEX_SLOT_COST bytes per item, which each item's charge includes (hold.h). */
#ifndef GDWIRE_SESSION_INDEX_H
#define GDWIRE_SESSION_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire.h"

#define INDEX_SLOT_COST (8 * sizeof(void *))

typedef struct ptr_index {
    void **slot;
    size_t cap, count;               /* cap: a power of two, 16 at least; 0 before the first insert */
    uint64_t (*hash)(const void *item);
    const gdw_allocator *alloc;
} ptr_index;

/* The item whose hash is h and that eq says is key; NULL when none. */
void *index_find(const ptr_index *ix, uint64_t h, bool (*eq)(const void *item, const void *key), const void *key);

/* Adds item (not in the index yet); false when memory runs out (the index is as it was). */
bool index_insert(ptr_index *ix, void *item);

/* Removes item, which is in the index. */
void index_remove(ptr_index *ix, const void *item);

/* Frees the table (not the items). */
void index_free(ptr_index *ix);

/* A 64-bit mix of two words, for the keys' hashes. */
static inline uint64_t index_mix(uint64_t a, uint64_t b) {
    uint64_t h = (a ^ 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 31) ^ b) * 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

#endif

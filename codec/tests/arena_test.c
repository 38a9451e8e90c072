/* SPDX-License-Identifier: MIT */
/* arena_test.c — the document arena (codec/arena.c): sizes that would wrap when rounded up are
 * refused, never served from a small block; every block is 8-aligned, distinct and writable;
 * large requests get a chunk of their own; the heap count follows. */
#include <stdint.h>

#include "codec/api.h"
#include "codec/tests/testing.h"

int main(void) {
    gdw_doc *doc = gdw_doc_new(NULL);
    CHECK(doc != NULL, "gdw_doc_new");
    if (!doc) return t_finish();
    /* the sizes whose rounding to 8 wraps, and the largest, are refused */
    for (size_t k = 0; k < 8; k++)
        CHECK(gdw_arena_alloc(doc, SIZE_MAX - k) == NULL,
              "gdw_arena_alloc(SIZE_MAX - %zu) gave a block", k);
    CHECK(gdw_arena_alloc(doc, SIZE_MAX - 7) == NULL,
          "gdw_arena_alloc(SIZE_MAX - 7): no allocator holds it");
    CHECK(sizeof(gdw_doc) <= 80,
          "the document is at most 80 bytes (the heap-limit vectors count its allocation)");
    size_t before = gdw_doc_heap_bytes(doc);
    /* small blocks: aligned, apart, writable */
    uint8_t *prev = NULL;
    for (size_t n = 0; n < 200; n++) {
        uint8_t *p = (uint8_t *)gdw_arena_alloc(doc, n);
        CHECK(p != NULL && ((uintptr_t)p % 8) == 0, "block of %zu: %p", n, (void *)p);
        if (!p) break;
        memset(p, 0xAB, n ? n : 1);
        CHECK(prev == NULL || p != prev, "block of %zu is the previous one", n);
        prev = p;
    }
    CHECK(gdw_doc_heap_bytes(doc) > before, "heap_bytes grew with the blocks");
    /* a large block: its own chunk, the heap count grows by at least its size */
    before = gdw_doc_heap_bytes(doc);
    uint8_t *big = (uint8_t *)gdw_arena_alloc(doc, 1u << 20);
    CHECK(big != NULL && gdw_doc_heap_bytes(doc) >= before + (1u << 20), "a 1 MiB block");
    if (big) {
        big[0] = 1;
        big[(1u << 20) - 1] = 2;
    }
    /* bumping goes on in the current chunk after a large block */
    uint8_t *a = (uint8_t *)gdw_arena_alloc(doc, 16), *b = (uint8_t *)gdw_arena_alloc(doc, 16);
    CHECK(a && b && b == a + 16, "small blocks after a large one bump in the same chunk");
    static const char k_text[] = "gdwire";
    char *dup = (char *)gdw_arena_dup(doc, k_text, sizeof k_text);
    CHECK(dup && !strcmp(dup, k_text) && dup != k_text, "gdw_arena_dup copies");
    gdw_doc_free(doc);
    return t_finish();
}

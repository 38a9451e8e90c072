/* SPDX-License-Identifier: MIT */
/* arena.h — the document and its arena (arena.c): chunks from the caller's allocator, bumped from
 * inline, released to a mark, freed at once. value.h includes it; arena.c needs nothing more. */
#ifndef GDWIRE_VALUE_ARENA_H
#define GDWIRE_VALUE_ARENA_H

#include <string.h>

#include "codec/gdwire.h"

typedef struct gdw_chunk gdw_chunk;
struct gdw_chunk {
    gdw_chunk *next;
    size_t size; /* whole chunk, header included */
};

struct gdw_doc {
    gdw_allocator alloc;
    gdw_chunk *chunks; /* small allocations are bumped from the first chunk (gdw_chunk_end) */
    uint8_t *bump;     /* from here; NULL until the first ordinary chunk */
    gdw_value root;
    /* engine-exact: values marked GDW_VF_APPROXIMATE when the tree was made */
    size_t approximate;
    bool engine_same; /* gdw_doc_engine_same: set by the walk (codec/wire/decode.c) */
    /* gdw_doc_cut: the tree holds the value's first nodes only (decode_options.keep_nodes) */
    bool cut;
    /* engine-exact: gdw_doc_undefined_conversions, at most UINT32_MAX (in the bools' padding on
     * LP64) */
    uint32_t undefined_conversions;
};

const gdw_allocator *gdw_default_allocator(void);
gdw_doc *gdw_doc_new(const gdw_allocator *alloc);
/* gdw_arena_alloc: 8-byte aligned, uninitialised; NULL on failure. n == 0 gives a valid pointer.
 * Inline where the current chunk has room for a small request (the decoder asks for a 16-byte
 * node or a short string at every value); gdw_arena_alloc_chunk otherwise. */
void *gdw_arena_alloc_chunk(gdw_doc *doc, size_t n);
#define GDW_ARENA_INLINE_MAX 1024u /* the largest request bumped inline (GDW_BIG_ALLOC) */
/* The end of the first chunk, which bump points into (not a field: the document stays 80 bytes,
 * the size the heap-limit vectors count). */
static inline uint8_t *gdw_chunk_end(const gdw_doc *doc) {
    return (uint8_t *)doc->chunks + doc->chunks->size;
}
static inline void *gdw_arena_alloc(gdw_doc *doc, size_t n) {
    if (n - 1 < GDW_ARENA_INLINE_MAX && doc->bump) { /* 1 .. max: rounding cannot wrap */
        size_t r = (n + 7u) & ~(size_t)7u;
        if ((size_t)(gdw_chunk_end(doc) - doc->bump) >= r) {
            void *p = doc->bump;
            doc->bump += r;
            return p;
        }
    }
    return gdw_arena_alloc_chunk(doc, n);
}
/* A point in a document's arena to come back to: gdw_arena_release frees what was allocated after
 * it (a decode that keeps only the first nodes of its tree releases each later node's storage once
 * it is made, codec/wire/decode.c). Ordinary chunks are pushed at the head of the list, a chunk of
 * its own is linked right behind the head of the moment (gdw_arena_alloc_chunk): so what came after
 * the mark is the chunks before `head` and those between `head` and `after_head`. */
typedef struct gdw_arena_mark {
    gdw_chunk *head, *after_head;
    uint8_t *bump;
} gdw_arena_mark;
static inline gdw_arena_mark gdw_arena_mark_now(const gdw_doc *doc) {
    gdw_arena_mark m = {doc->chunks, doc->chunks ? doc->chunks->next : NULL, doc->bump};
    return m;
}
void gdw_arena_release_chunks(gdw_doc *doc, const gdw_arena_mark *m);
static inline void gdw_arena_release(gdw_doc *doc, const gdw_arena_mark *m) {
    if (doc->chunks != m->head || (m->head && m->head->next != m->after_head))
        gdw_arena_release_chunks(doc, m);
    doc->bump = m->bump;
}
/* gdw_arena_dup: copy n bytes; NULL on failure. */
static inline void *gdw_arena_dup(gdw_doc *doc, const void *src, size_t n) {
    void *p = gdw_arena_alloc(doc, n);
    if (p && n) memcpy(p, src, n);
    return p;
}

#endif

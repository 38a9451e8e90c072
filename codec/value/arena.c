/* SPDX-License-Identifier: MIT */
/* arena.c — the document arena: chunks from the caller's allocator, freed at once. */
#include <stdlib.h>

#include "codec/value/arena.h"

#define GDW_FIRST_CHUNK 4096u /* bytes of a document's first ordinary chunk, header included */
/* bytes per later ordinary chunk: a chunk's unused tail is under GDW_BIG_ALLOC, so under 6.3% of it
 * (docs/library.md, Heap bound) */
#define GDW_CHUNK_SIZE 16384u
/* larger requests get a chunk of their own (a 32-byte header: 3.1%) */
#define GDW_BIG_ALLOC 1024u

#define HDR ((sizeof(gdw_chunk) + 15u) & ~(size_t)15u)

static void *libc_malloc(void *ctx, size_t n) {
    (void)ctx;
    return malloc(n);
}
static void *libc_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)ctx;
    (void)o;
    return realloc(p, n);
}
static void libc_free(void *ctx, void *p, size_t n) {
    (void)ctx;
    (void)n;
    free(p);
}

static const gdw_allocator k_libc = {libc_malloc, libc_realloc, libc_free, NULL};

const gdw_allocator *gdw_default_allocator(void) { return &k_libc; }

gdw_doc *gdw_doc_new(const gdw_allocator *alloc) {
    if (!alloc) alloc = &k_libc;
    gdw_doc *doc = (gdw_doc *)alloc->malloc_fn(alloc->ctx, sizeof(gdw_doc));
    if (!doc) return NULL;
    memset(doc, 0, sizeof(*doc));
    doc->alloc = *alloc;
    return doc;
}

static gdw_chunk *new_chunk(gdw_doc *doc, size_t payload) {
    size_t size = HDR + payload;
    if (size < payload) return NULL;
    gdw_chunk *c = (gdw_chunk *)doc->alloc.malloc_fn(doc->alloc.ctx, size);
    if (!c) return NULL;
    c->size = size;
    return c;
}

/* What gdw_arena_alloc (value.h) does not bump inline: a request too large for it (always a chunk
 * of its own, linked behind the current one so bumping goes on there), or a current chunk that is
 * full (a new one, which becomes the current one).
 * So the ordinary chunks take the requests of at most GDW_BIG_ALLOC bytes in order, each into the
 * current chunk or else a new one, whose size follows only how many ordinary chunks there are: such
 * a packing never takes more chunks for fewer of the same requests. A zero-copy decode makes the
 * requests of a copying one less its copies, so its heap is never the larger (validate_vs_decode
 * holds it; a large request bumped where it fitted once made it a chunk larger:
 * corpus/regressions). */
void *gdw_arena_alloc_chunk(gdw_doc *doc, size_t n) {
    if (n > SIZE_MAX - 7u) return NULL; /* rounding up would wrap to a tiny size */
    n = n ? (n + 7u) & ~(size_t)7u : 8u;
    gdw_chunk *cur = doc->chunks;
    if (n > GDW_BIG_ALLOC) {
        gdw_chunk *c = new_chunk(doc, n);
        if (!c) return NULL;
        if (cur) {
            c->next = cur->next;
            cur->next = c;
        }
        /* no ordinary chunk yet (bump is NULL): the next request starts one */
        else {
            c->next = NULL;
            doc->chunks = c;
        }
        return (uint8_t *)c + HDR;
    }
    /* n == 0 comes here: 8 bytes */
    if (doc->bump && (size_t)(gdw_chunk_end(doc) - doc->bump) >= n) {
        void *p = doc->bump;
        doc->bump += n;
        return p;
    }
    gdw_chunk *c = new_chunk(doc, (doc->bump ? GDW_CHUNK_SIZE : GDW_FIRST_CHUNK) - HDR);
    if (!c) return NULL;
    c->next = cur;
    doc->chunks = c;
    doc->bump = (uint8_t *)c + HDR + n;
    return (uint8_t *)c + HDR;
}

void gdw_arena_release_chunks(gdw_doc *doc, const gdw_arena_mark *m) {
    while (doc->chunks != m->head) {
        gdw_chunk *c = doc->chunks;
        doc->chunks = c->next;
        doc->alloc.free_fn(doc->alloc.ctx, c, c->size);
    }
    while (m->head && m->head->next != m->after_head) {
        gdw_chunk *c = m->head->next;
        m->head->next = c->next;
        doc->alloc.free_fn(doc->alloc.ctx, c, c->size);
    }
}

void gdw_doc_free(gdw_doc *doc) {
    if (!doc) return;
    gdw_allocator a = doc->alloc;
    gdw_chunk *c = doc->chunks;
    while (c) {
        gdw_chunk *next = c->next;
        a.free_fn(a.ctx, c, c->size);
        c = next;
    }
    a.free_fn(a.ctx, doc, sizeof(gdw_doc));
}

const gdw_value *gdw_doc_root(const gdw_doc *doc) { return doc ? &doc->root : NULL; }

size_t gdw_doc_heap_bytes(const gdw_doc *doc) {
    if (!doc) return 0;
    size_t n = sizeof(gdw_doc);
    for (const gdw_chunk *c = doc->chunks; c; c = c->next) n += c->size;
    return n;
}
bool gdw_doc_engine_same(const gdw_doc *doc) { return doc && doc->engine_same; }
bool gdw_doc_cut(const gdw_doc *doc) { return doc && doc->cut; }

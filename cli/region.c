/* SPDX-License-Identifier: MIT */
/* region.c — the command's allocator for decoded documents (decode and check).
 *
 * A document's arena asks for chunks (codec/value/arena.c) and frees them all at once. The C
 * library's malloc hands out those chunks from pages it takes from the kernel one 4 KiB page fault
 * at a time and gives back when the document is freed: decoding a 20 MB packet costs about 7,000
 * page faults, which on a virtual machine weigh as much as the decode itself (docs/performance.md).
 *
 * The region takes its memory in blocks of at least 2 MiB, mapped anonymously and marked
 * MADV_HUGEPAGE, so that a kernel with transparent huge pages (madvise mode, the default of
 * Debian and most distributions) backs them with 2 MiB pages: one fault where there were 512.
 * Chunks are bumped out of the blocks; a freed chunk goes on a list that later requests of about its
 * size take first (check frees the trees it no longer needs while it decodes other dialects, so they
 * reuse pages already touched: on a virtual machine the kernel's zeroing of fresh pages was most of
 * check's time), and region_reset (after the packet's documents are freed) makes every block empty
 * again for the next packet, so a run of packets reuses the same pages. Memory: what the documents of
 * one packet ask for, plus at most
 * one partly used block per block (each block is at least twice the request that opened it), so
 * under twice the arena's own use; gdw_decode_heap_bound still bounds what is asked for.
 * Where mmap or madvise is missing the region falls back to plain blocks; nothing else changes.
 * Chunks may be asked for from several threads at once (check), under one lock.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and madvise under -std=c11 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cli/cli.h"

#define REGION_MIN_BLOCK ((size_t)2 << 20) /* a huge page */
#define REGION_ALIGN 16u

typedef struct block {
    struct block *next;
    size_t size; /* bytes of the mapping, this header included */
    size_t used; /* bytes handed out, this header included */
} block;

/* A freed chunk, kept in its own first bytes until a request of about its size takes it. */
typedef struct freed {
    struct freed *next;
    size_t size;
} freed;

typedef struct region {
    block *first, *cur;
    freed *free_list; /* most recently freed first */
    pthread_mutex_t lock; /* check decodes its dialects on several threads (check.c): a chunk at a time */
} region;

static region g_region = {NULL, NULL, NULL, PTHREAD_MUTEX_INITIALIZER};

static size_t header_size(void) { return (sizeof(block) + REGION_ALIGN - 1) & ~(size_t)(REGION_ALIGN - 1); }

static block *map_block(size_t need) {
    size_t size = REGION_MIN_BLOCK;
    while (size < need || size - need < need) { /* at least twice the request, whole huge pages */
        if (size > SIZE_MAX / 2) return NULL;
        size *= 2;
    }
    /* a huge page backs only a 2 MiB-aligned range: map a huge page more and trim both ends (kernels
     * since 6.7 align such mappings themselves; older ones, Debian 12's 6.1 among them, do not) */
    size_t slack = REGION_MIN_BLOCK;
    char *raw = mmap(NULL, size + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uintptr_t start = ((uintptr_t)raw + slack - 1) & ~(uintptr_t)(slack - 1);
    char *p = (char *)start;
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (p + size < raw + size + slack) munmap(p + size, (size_t)(raw + size + slack - (p + size)));
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE); /* a hint: without huge pages the block still works */
#endif
    block *b = (block *)p;
    b->next = NULL;
    b->size = size;
    b->used = header_size();
    return b;
}

static void *region_bump(region *r, size_t n) {
    if (n > SIZE_MAX - REGION_ALIGN - header_size()) return NULL;
    size_t want = (n + REGION_ALIGN - 1) & ~(size_t)(REGION_ALIGN - 1);
    for (;;) {
        block *b = r->cur;
        if (b && b->size - b->used >= want) {
            void *p = (char *)b + b->used;
            b->used += want;
            return p;
        }
        if (b && b->next) { /* a block kept from an earlier packet */
            r->cur = b->next;
            continue;
        }
        block *nb = map_block(want + header_size());
        if (!nb) return NULL;
        if (b) b->next = nb;
        else r->first = nb;
        r->cur = nb;
    }
}

/* A freed chunk for a request of n bytes: among the few most recently freed, one at least n bytes long and
 * not much longer (a large chunk is not spent on a small request). A bounded look, so a request costs O(1)
 * however many chunks wait; when none fits, the request is bumped from the blocks as before. */
#define REGION_REUSE_LOOK 8
static void *region_reuse(region *r, size_t n) {
    freed **at = &r->free_list;
    for (int k = 0; *at && k < REGION_REUSE_LOOK; k++, at = &(*at)->next) {
        freed *f = *at;
        if (f->size >= n && f->size - n <= n + 4096) {
            *at = f->next;
            return f;
        }
    }
    return NULL;
}

/* The arena asks for whole chunks (codec/value/arena.c), a few a megabyte: one lock each costs nothing. */
static void *region_malloc(void *ctx, size_t n) {
    region *r = ctx;
    pthread_mutex_lock(&r->lock);
    void *p = region_reuse(r, n);
    if (!p) p = region_bump(r, n);
    pthread_mutex_unlock(&r->lock);
    return p;
}

static void region_free(void *ctx, void *p, size_t n) {
    region *r = ctx;
    if (!p || n < sizeof(freed)) return; /* too small to keep: region_reset frees it with its block */
    pthread_mutex_lock(&r->lock);
    freed *f = p;
    f->size = n;
    f->next = r->free_list;
    r->free_list = f;
    pthread_mutex_unlock(&r->lock);
}

static void *region_realloc(void *ctx, void *p, size_t old_n, size_t new_n) {
    void *q = region_malloc(ctx, new_n);
    if (q && p) {
        memcpy(q, p, old_n < new_n ? old_n : new_n);
        region_free(ctx, p, old_n);
    }
    return q;
}

static const gdw_allocator k_region = {region_malloc, region_realloc, region_free, &g_region};

/* Below this many bytes of packet the documents are small: the C library's malloc serves them
 * as well, and a huge page's first fault (zeroing 2 MiB) would cost more than it saves. */
#define REGION_MIN_PACKET ((size_t)1 << 20)

const gdw_allocator *region_for(size_t packet_len) { return packet_len >= REGION_MIN_PACKET ? &k_region : NULL; }

/* After every document of the packet is freed, and no thread is decoding. */
void region_reset(void) {
    for (block *b = g_region.first; b; b = b->next) b->used = header_size();
    g_region.cur = g_region.first;
    g_region.free_list = NULL;
}

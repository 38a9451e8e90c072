/* SPDX-License-Identifier: MIT */
/* mutator_afl.c — the wire-format-aware mutator (mutator.h) as an AFL++ custom mutator
 * library: AFL_CUSTOM_MUTATOR_LIBRARY=.../libgdwire_afl_mutator.so afl-fuzz ... AFL++ runs its
 * own havoc stage besides (unless AFL_CUSTOM_MUTATOR_ONLY=1), so the byte-level fallback here is
 * a plain random byte change. Built in the default (uninstrumented) config: afl-fuzz loads it. */
#include <stdlib.h>
#include <string.h>

#include "fuzzers/mutator.h"

typedef struct state {
    uint64_t rng;
    uint8_t *buf;
    size_t cap;
} state;

static uint64_t g_rng = 1;
static size_t flip_byte(uint8_t *data, size_t size, size_t max_size) {
    (void)max_size;
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    if (size) data[g_rng % size] ^= (uint8_t)(1u << ((g_rng >> 32) % 8));
    return size;
}

void *afl_custom_init(void *afl, unsigned int seed) {
    (void)afl;
    state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    g_rng = s->rng;
    return s;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf, size_t add_buf_size,
                       size_t max_size) {
    (void)add_buf, (void)add_buf_size;
    state *s = data;
    if (max_size > s->cap) {
        uint8_t *b = realloc(s->buf, max_size);
        if (!b) { *out_buf = buf; return buf_size; }
        s->buf = b, s->cap = max_size;
    }
    size_t n = buf_size < max_size ? buf_size : max_size;
    memcpy(s->buf, buf, n);
    s->rng ^= s->rng << 13, s->rng ^= s->rng >> 7, s->rng ^= s->rng << 17;
    *out_buf = s->buf;
    return gdw_fuzz_mutate(s->buf, n, max_size, (unsigned)s->rng, flip_byte);
}

void afl_custom_deinit(void *data) {
    state *s = data;
    if (s) free(s->buf);
    free(s);
}

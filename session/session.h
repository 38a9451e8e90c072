/* SPDX-License-Identifier: MIT
 * session.h — what the files of session/ share: byte readers and the allocator's wrappers. */
#ifndef GDWIRE_SESSION_INTERNAL_H
#define GDWIRE_SESSION_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "gdwire_session.h"

/* The multiplayer layer a dialect's engines speak (the dialect table's rule "multiplayer"). */
static inline gdw_multiplayer gdw_session_layer(const gdw_dialect *d) {
    int r = gdw_dialect_rule(d, GDW_RULE_MULTIPLAYER);
    return r < 0 ? GDW_MULTIPLAYER_NONE : (gdw_multiplayer)r;
}

static inline uint32_t gdw_session_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t gdw_session_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static inline uint32_t gdw_session_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void *gdw_session_alloc(const gdw_allocator *a, size_t n) {
    return a ? a->malloc_fn(a->ctx, n) : malloc(n);
}

static inline void gdw_session_release(const gdw_allocator *a, void *p, size_t n) {
    if (!p) return;
    if (a) a->free_fn(a->ctx, p, n);
    else free(p);
}

#endif

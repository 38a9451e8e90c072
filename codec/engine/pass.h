/* SPDX-License-Identifier: MIT */
/* engine/pass.h — what the engine pass's own files share (keys.c, typed.c, settle.c): the
 * context of one pass and the steps settle.c runs. Only codec/engine/ includes it; the rest of the
 * library sees engine.h. */
#ifndef GDWIRE_ENGINE_PASS_H
#define GDWIRE_ENGINE_PASS_H

#include "codec/engine/engine.h"

typedef struct hash_memo {
    uintptr_t key;
    uint64_t h;
} hash_memo;

/* The work of one pass merging Dictionary keys: keys seen, hash-table probes, key nodes hashed and
 * compared (what the tests and the fuzz targets hold to a constant of work per key, through
 * gdw_engine_settle_counted: settle.c). */
typedef struct gdw_settle_counts {
    uint64_t keys, probes, hashed, compared;
} gdw_settle_counts;

typedef struct settle_ctx {
    /* read through RULE (table/dialects.h) or pass_real_width, which note the rule */
    const gdw_dialect *row;
    gdw_rules_read read; /* the rules read (gdw_engine_settle's rules_read: read.rules) */
    gdw_doc *doc;
    bool objects;
    uint64_t seed;   /* keys the hash: see "the table of keys" */
    hash_memo *memo; /* remembered hashes of large parts of keys (memo_put) */
    size_t memo_cap, memo_n;
    gdw_settle_counts counts;
    /* values kept as written where the engine computes something gdwire does not (not_computed) */
    size_t approximate;
    /* conversions the engine's C++ leaves undefined (typed.c, undefined_conversion): how many, and
     * whether the element being converted made one (a conversion sets it, validate_elem reads
     * it) */
    size_t undefined;
    bool undefined_here;
    const gdw_decode_options *opts; /* the trace and fail_if_approximate; NULL: neither */
    size_t consumed;                /* the value's length: where a trace event of the pass points */
    gdw_error *err;                 /* filled for fail_if_approximate */
    const struct settle_frame *frames; /* the walk's open containers, for the path of a value */
    unsigned depth;
} settle_ctx;

/* One open container of the walk: the value, its items, how many, the next one to visit. */
typedef struct settle_frame {
    gdw_value *v, *items;
    size_t n, next;
} settle_frame;

/* The width of the row's real_t as its encoder writes it (comp_width_encode), the rules it reads
 * noted: the real mode, and where it is FLAG64 whether the encoder sets the flag. */
static inline unsigned pass_real_width(settle_ctx *c) {
    if (RULE(c, GDW_RULE_REAL_MODE) == GDW_REALS_FLAG64) (void)RULE(c, GDW_RULE_ENCODE_MATH_F64);
    return comp_width_encode(c->row, C_REAL);
}

/* The class the engine names an Object decoded as an id (EncodedObjectAsID; typed.c): an Object
 * element type without objects, and a typed container's element class omitted (header bit 16). */
extern const gdw_str gdw_engine_encoded_object_as_id;

/* settle.c: the path of the value the pass is at, below the walk's first `open` containers (as
 * gdw_error.path writes it): where a failure of the pass, and a value it does not compute, are
 * reported. */
void gdw_engine_path(const settle_ctx *c, unsigned open, char *path);

/* keys.c: keys the engine's Dictionary finds equal become one entry (the first key, its place,
 * the last value); the hash seed of one pass, from addresses that are not on the wire. */
gdw_status gdw_engine_merge_keys(settle_ctx *c, gdw_value *dict);
uint64_t gdw_engine_key_seed(const void *a, const void *b);

/* typed.c: what the engine makes of a container's element type (the builtin type its elements
 * must have, GDW_NIL: any); a typed container's elements (stride 1) or keys (stride 2) through
 * ContainerTypeValidate, the dropped ones removed; Pandemonium 5's TypedArray keeping only
 * elements of exactly its type. */
unsigned gdw_engine_settle_desc(settle_ctx *c, gdw_typedesc *td);
gdw_status gdw_engine_validate_items(settle_ctx *c, unsigned want, const gdw_value *container,
                                     gdw_value *items, uint32_t *len, unsigned stride);
gdw_status gdw_engine_keep_same_type(settle_ctx *c, gdw_value *v, gdw_container *ct);

#endif

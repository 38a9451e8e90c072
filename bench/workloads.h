/* SPDX-License-Identifier: MIT */
/* workloads.h — the benchmark packets, built as value trees in memory (no text parsing) so
 * that large ones (a 64 MiB PoolByteArray, 200,000 Dictionaries) are quick to make. The shapes
 * follow the performance issue: the packets the Godot 3 engine was timed on, plus a mixed game
 * state, a deep Dictionary tree, a PackedFloat64Array and multi-byte UTF-8 strings. */
#ifndef GDWIRE_BENCH_WORKLOADS_H
#define GDWIRE_BENCH_WORKLOADS_H

#include <stddef.h>

#include "codec/gdwire_check.h"

typedef struct pool pool; /* owns a workload's memory */

typedef struct workload_info {
    const char *name;
    const char *what;
    int engine_comparable; /* the Godot 3 engine can take it (bench/compare) */
} workload_info;

size_t workload_count(void);
const workload_info *workload_at(size_t i);
const workload_info *workload_find(const char *name);

/* Build a workload for dialect d at scale (1.0 = the sizes). Returns NULL if the dialect
 * has no type for it (e.g. PackedFloat64Array outside Godot 4 and the double builds). *values
 * receives the number of values in the tree (containers, elements of packed arrays count one
 * each). Free everything with pool_free(*p). */
const gdw_value *workload_build(const workload_info *w, const gdw_dialect *d, double scale, pool **p, size_t *values);
void pool_free(pool *p);

#endif

/* SPDX-License-Identifier: MIT */
/* mutator_libfuzzer.c — the wire-format-aware mutator (mutator.h) as libFuzzer's custom
 * mutator. Linked into the byte-level targets in --config=libfuzzer only. Set
 * GDWIRE_FUZZ_NO_MUTATOR=1 to fall back to libFuzzer's own mutations (to measure what the
 * custom mutator adds, docs/fuzzing.md). */
#include <stdlib.h>

#include "fuzzers/mutator.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    static int off = -1;
    if (off < 0) off = getenv("GDWIRE_FUZZ_NO_MUTATOR") != NULL;
    if (off) return LLVMFuzzerMutate(data, size, max_size);
    return gdw_fuzz_mutate(data, size, max_size, seed, LLVMFuzzerMutate);
}

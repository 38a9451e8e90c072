/* SPDX-License-Identifier: MIT */
/* mutator.h — a mutator that knows the wire format, shared by libFuzzer
 * (LLVMFuzzerCustomMutator, fuzzers/mutator_libfuzzer.c) and AFL++ (a custom mutator library,
 * fuzzers/mutator_afl.c) for the byte-level targets (input layout in fuzz.h).
 *
 * Each call makes one of these edits, chosen at random:
 *   - another dialect (byte 0) or mode / objects flag (byte 1) for the same packet;
 *   - an aligned word becomes a type header of the input's dialect (a real type id, now and then
 *     one past the table) with the flag bits that dialect reads (64-bit, typed, id-only);
 *   - an aligned word becomes a length or count near the bytes that are left (0, 1, the exact
 *     remainder, remainder+1, 2^31-1, 2^31, 2^32-1), so length prefixes and counts line up;
 *   - aligned words are inserted, deleted or copied elsewhere (the format pads to 4 bytes, so
 *     everything after stays aligned);
 *   - the tail after an aligned offset becomes a whole encoded value of the dialect, made by the
 *     structure-aware generator (value_gen.h): a new value of any type in place of the old;
 *   - the packet, decoded, is wrapped in an Array or Dictionary (one more level of nesting) or
 *     replaced by its canonical re-encoding (padding and flags cleaned);
 *   - or a plain byte-level mutation (the engine's own: LLVMFuzzerMutate, or AFL++'s havoc).
 * The result never exceeds max_size. */
#ifndef GDWIRE_FUZZ_MUTATOR_H
#define GDWIRE_FUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* The engine's byte-level mutator: mutates data[0..size) in place up to max_size, returns the
 * new size. */
typedef size_t (*gdw_byte_mutator)(uint8_t *data, size_t size, size_t max_size);

size_t gdw_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed, gdw_byte_mutator bytes);

#endif

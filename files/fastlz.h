/* SPDX-License-Identifier: MIT */
/* fastlz.h — FastLZ blocks, gdwire's own reader and writer, shared by the session library (ENet's compressed
 * datagrams, session/compress.c) and the file containers (files/files.c). One definition of the format. */
#ifndef GDWIRE_FASTLZ_H
#define GDWIRE_FASTLZ_H

#include <stddef.h>
#include <stdint.h>

/* One FastLZ block in[0..n) (level 1 or 2, the level in the first byte's top 3 bits) into out[0..cap): the
 * bytes written, or 0 when the block is malformed, reads past its end, copies from before the output's start,
 * or would write past cap. */
size_t gdw_fastlz_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

/* The longest block gdw_fastlz_compress writes for n bytes. */
static inline size_t gdw_fastlz_bound(size_t n) { return n + (n + 31) / 32 + 1; }

/* in[0..n) (n >= 1) as one level-1 FastLZ block of literal runs only (32 bytes a run, a control byte each:
 * n + ceil(n / 32) bytes), into out (gdw_fastlz_bound(n) bytes). Any FastLZ reader reads it (fastlz.c's
 * fastlz1_decompress takes a literal run wherever a control byte is under 32); it does not look for
 * matches, so it does not make the data smaller. Returns the bytes written (0 when n is 0). */
size_t gdw_fastlz_compress(const uint8_t *in, size_t n, uint8_t *out);

#endif

/* SPDX-License-Identifier: MIT */
/* Fuzz target `decompress`: ENet's compressed blocks (session/compress.c, gdw_enet_decompress) as a hostile
 * peer sends them. The input is
 *   byte 0      bits 0-1: the compression (FastLZ, zlib, zstd, FastLZ), bits 2-3: the room given (4,096 bytes,
 *               ENet's MTU; 1,024; 17; 16,384, where FastLZ level 2's far matches fit)
 *   then the block.
 * Checked: what it writes fits the room; a block that decompresses to n bytes gives the same n bytes in exactly n
 * bytes of room, and nothing (0) in n - 1 (every decompressor refuses what does not fit, as the engine's do); it
 * never reads past the block or writes past the room (ASan: the room is a heap buffer of exactly its size).
 * Seeds: corpus/decompress/, the compressed blocks of the real FastLZ, zlib and zstd sessions in
 * conformance/sessions/. */
#include <stdlib.h>
#include <string.h>

#include "fuzzers/fuzz.h"
#include "session/gdwire_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    static const gdw_enet_compression modes[4] = {GDW_ENET_COMPRESS_FASTLZ, GDW_ENET_COMPRESS_ZLIB, GDW_ENET_COMPRESS_ZSTD,
                                                  GDW_ENET_COMPRESS_FASTLZ};
    static const size_t rooms[4] = {GDW_ENET_MAXIMUM_MTU, 1024, 17, 16384}; /* 16 KiB: FastLZ level 2's far matches (past 8 KiB) */
    gdw_enet_compression c = modes[data[0] & 3];
    size_t room = rooms[(data[0] >> 2) & 3];
    const uint8_t *in = data + 1;
    size_t n_in = size - 1;
    uint8_t *block = malloc(n_in), *out = malloc(room);
    if (!block || !out) abort();
    memcpy(block, in, n_in); /* a heap copy of exactly its size: a read past it is ASan's */
    size_t n = gdw_enet_decompress(c, block, n_in, out, room);
    FUZZ_CHECK(n <= room, "%s wrote %zu bytes into %zu", gdw_enet_compression_name(c), n, room);
    if (n > 0 && gdw_enet_compression_built(c)) {
        uint8_t *exact = malloc(n);
        if (!exact) abort();
        size_t again = gdw_enet_decompress(c, block, n_in, exact, n);
        FUZZ_CHECK(again == n && memcmp(exact, out, n) == 0, "%s: %zu bytes in %zu of room, %zu in exactly that", gdw_enet_compression_name(c), n,
                   room, again);
        free(exact);
        if (n > 1) {
            uint8_t *short_room = malloc(n - 1);
            if (!short_room) abort();
            size_t less = gdw_enet_decompress(c, block, n_in, short_room, n - 1);
            FUZZ_CHECK(less == 0, "%s: %zu bytes written into %zu, one short of the %zu it decompresses to", gdw_enet_compression_name(c), less, n - 1, n);
            free(short_room);
        }
    }
    free(block);
    free(out);
    return 0;
}

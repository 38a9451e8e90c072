/* SPDX-License-Identifier: MIT */
/* Fuzz target `files`: Godot's file containers (files/gdwire_files.h) as a hostile file gives them: header fields,
 * block tables, block sizes against the declared total, encrypted lengths and CFB / ECB cipher text. The input is
 *   byte 0      bits 0-1: the key given (none; the test key of conformance/saves; the key of its test password;
 *               none), bits 2-3: the cap on the plain bytes (1 KiB, 64 KiB, 1 MiB, 16 MiB)
 *   then the file.
 * Checked: inspect and open agree on the container; what inspect reports lies inside the file (the header, the
 * blocks, the cipher text and what trails it add up to the file's length); a failed open returns no plain bytes,
 * an offset inside the file and a message; a successful one returns exactly the declared plain length, within
 * the cap; its plain bytes written again in the same container (the same generation, mode and key) open to the
 * same bytes. ASan: no read past the file (a heap copy of exactly its size).
 * Seeds: corpus/files/, every file Godot 3.2.3, 3.6.2 and 4.6.3 wrote in conformance/saves/ with the byte 0
 * that gives its secret, and some cut short (tools/fuzz/files_seeds.py). */
#include <stdlib.h>
#include <string.h>

#include "files/gdwire_files.h"
#include "fuzzers/fuzz.h"

static const char k_password[] = "gdwire issue 63: Zo\xc3\xab's save \xe2\x9c\x93"; /* conformance/saves/README.md */
static const char k_key_hex[] = "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static uint8_t keys[2][32];
    static bool made;
    if (!made) {
        gdw_file_key_from_hex(k_key_hex, keys[0]);
        gdw_file_key_from_password(k_password, strlen(k_password), keys[1]);
        made = true;
    }
    static const uint64_t caps[4] = {1024, 65536, 1 << 20, 16 << 20};
    unsigned which = data[0] & 3;
    gdw_file_options o = {which == 1 ? keys[0] : which == 2 ? keys[1] : NULL, caps[(data[0] >> 2) & 3]};
    size_t n = size - 1;
    uint8_t *file = malloc(n ? n : 1);
    if (!file) abort();
    memcpy(file, data + 1, n);

    gdw_file_info head, info;
    gdw_file_error err;
    gdw_file_status hs = gdw_file_inspect(file, n, &head, &err);
    if (hs == GDW_FILE_OK && head.container == GDW_FILE_COMPRESSED) {
        FUZZ_CHECK(head.header_len + head.compressed_len + (head.end_magic ? 4 : 0) + head.trailing == n, "compressed: %llu + %llu + trailing %llu != %zu",
                   (unsigned long long)head.header_len, (unsigned long long)head.compressed_len, (unsigned long long)head.trailing, n);
        FUZZ_CHECK(head.block_size > 0 && head.blocks == head.plain_len / head.block_size + 1, "compressed: %u blocks of %u for %llu", head.blocks,
                   head.block_size, (unsigned long long)head.plain_len);
    } else if (hs == GDW_FILE_OK && head.container == GDW_FILE_ENCRYPTED) {
        FUZZ_CHECK(head.cipher_len % 16 == 0 && head.cipher_len >= head.plain_len && head.cipher_len - head.plain_len < 16, "encrypted: cipher %llu for %llu",
                   (unsigned long long)head.cipher_len, (unsigned long long)head.plain_len);
        FUZZ_CHECK(head.header_len + head.cipher_len + head.trailing == n, "encrypted: the parts do not add up to %zu", n);
    } else if (hs) {
        FUZZ_CHECK(err.offset <= n && err.message[0], "inspect: error at %llu of %zu, message '%s'", (unsigned long long)err.offset, n, err.message);
    }

    uint8_t *plain = (uint8_t *)file; /* must come back NULL on failure */
    size_t plain_n = 12345;
    gdw_file_status st = gdw_file_open(file, n, &o, &info, &plain, &plain_n, &err);
    if (st) {
        FUZZ_CHECK(plain == NULL && plain_n == 0, "a failed open (%d) returned %zu bytes", (int)st, plain_n);
        FUZZ_CHECK(err.offset <= n && err.message[0], "open: error at %llu of %zu, message '%s'", (unsigned long long)err.offset, n, err.message);
        FUZZ_CHECK(hs == GDW_FILE_OK || st == hs, "inspect said %d, open %d", (int)hs, (int)st);
    } else {
        FUZZ_CHECK(hs == GDW_FILE_OK && info.container == head.container, "open read a %d, inspect a %d (%d)", (int)info.container, (int)head.container, (int)hs);
        FUZZ_CHECK(plain_n == info.plain_len, "%zu plain bytes, %llu declared", plain_n, (unsigned long long)info.plain_len);
        FUZZ_CHECK(info.container == GDW_FILE_PLAIN || plain_n <= o.max_plain, "%zu plain bytes over the cap %llu", plain_n, (unsigned long long)o.max_plain);
        /* written again in its own container, it opens to the same bytes */
        gdw_file_spec s = {info.container, info.generation ? info.generation : 4, info.compression, info.block_size, o.key, NULL};
        if (info.container == GDW_FILE_COMPRESSED && !gdw_file_compression_supported(info.compression, s.generation, true)) s.container = GDW_FILE_PLAIN;
        if (info.container == GDW_FILE_COMPRESSED && info.plain_len / (info.block_size ? info.block_size : 1) > 4096) s.block_size = 4096; /* bounded work */
        uint8_t *again = NULL, *back = NULL;
        size_t again_n = 0, back_n = 0;
        gdw_file_status ws = gdw_file_write(&s, plain, plain_n, &again, &again_n, &err);
        FUZZ_CHECK(ws == GDW_FILE_OK, "writing %zu plain bytes again: %s", plain_n, err.message);
        gdw_file_options o2 = {o.key, (uint64_t)plain_n + 1};
        if (ws == GDW_FILE_OK) {
            gdw_file_status bs = gdw_file_open(again, again_n, &o2, NULL, &back, &back_n, &err);
            FUZZ_CHECK(bs == GDW_FILE_OK && back_n == plain_n && (!plain_n || memcmp(back, plain, plain_n) == 0), "written again, it does not open to its bytes: %s",
                       err.message);
        }
        free(again);
        free(back);
        free(plain);
    }
    free(file);
    return 0;
}

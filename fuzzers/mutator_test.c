/* SPDX-License-Identifier: MIT */
/* mutator_test — the custom mutator on the conformance packets: every result stays within
 * max_size and keeps the two header bytes of the byte-level targets' input (fuzz.h: with them
 * every input is one the targets read, since every value of bytes 0 and 1 has a meaning),
 * nothing crashes (this test also runs under ASan in CI),
 * and the structure-aware edits do what they are for: compared with random byte flips from
 * the same seeds, more of their results decode in the input's dialect. Prints the figures.
 *   mutator_test SEEDS.tsv */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire.h"
#include "fuzzers/fuzz.h"
#include "fuzzers/mutator.h"

static uint64_t g_r = 88172645463325252ULL;
static size_t flip(uint8_t *data, size_t size, size_t max_size) {
    (void)max_size;
    g_r ^= g_r << 13, g_r ^= g_r >> 7, g_r ^= g_r << 17;
    if (size) data[g_r % size] ^= (uint8_t)(1u << (g_r >> 40) % 8);
    return size;
}

static int decodes(const uint8_t *in, size_t n) {
    if (n < 2) return 0;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = true;
    return gdw_validate(fuzz_dialect(in[0]), in + 2, n - 2, &o, NULL, NULL) == GDW_OK;
}

int main(int argc, char **argv) {
    if (argc != 2) { fputs("usage: mutator_test SEEDS.tsv\n", stderr); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    enum { MAX = 4096 };
    static uint8_t buf[MAX], copy[MAX];
    char *line = NULL;
    size_t cap = 0;
    long runs = 0, ok_custom = 0, ok_flip = 0, grew = 0, failed = 0;
    unsigned seed = 1;
    while (getline(&line, &cap, f) > 0) {
        char *hex = strchr(line, '\t'), *end = hex ? strchr(hex + 1, '\t') : NULL;
        if (!end) { fputs("mutator_test: malformed seeds line\n", stderr); return 2; }
        size_t n = (size_t)(end - hex - 1) / 2;
        if (n + 2 > MAX / 2) continue;
        buf[0] = (uint8_t)(seed % fuzz_id_count());
        buf[1] = 4;
        size_t got = 0;
        if (gdw_hex_decode(hex + 1, 2 * n, buf + 2, &got, NULL) || got != n) { fputs("mutator_test: bad hex in a seeds line\n", stderr); return 2; }
        for (int k = 0; k < 8; k++, seed++) {
            memcpy(copy, buf, n + 2);
            size_t max = k == 7 ? n + 2 : MAX; /* once with no room to grow */
            size_t m = gdw_fuzz_mutate(copy, n + 2, max, seed, flip);
            if (m > max) { fprintf(stderr, "FAIL: mutated to %zu bytes, max %zu\n", m, max); failed++; }
            if (m < 2) { fprintf(stderr, "FAIL: the mutator dropped the input's header bytes (%zu bytes left)\n", m); failed++; }
            ok_custom += decodes(copy, m);
            grew += m > n + 2;
            memcpy(copy, buf, n + 2);
            m = flip(copy, n + 2, max);
            ok_flip += decodes(copy, m);
            runs++;
        }
    }
    free(line);
    fclose(f);
    printf("%ld mutations: %.1f%% decode after the custom mutator, %.1f%% after a byte flip; %.1f%% grew\n", runs,
           100.0 * ok_custom / (runs ? runs : 1), 100.0 * ok_flip / (runs ? runs : 1), 100.0 * grew / (runs ? runs : 1));
    if (runs < 10000) { fprintf(stderr, "FAIL: only %ld mutations\n", runs); failed++; }
    if (ok_custom <= ok_flip) { fputs("FAIL: the custom mutator makes no more decodable inputs than byte flips\n", stderr); failed++; }
    printf("%ld passed, %ld failed\n", failed ? 0 : 1L, failed);
    return failed != 0;
}

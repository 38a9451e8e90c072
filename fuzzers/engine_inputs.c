/* SPDX-License-Identifier: MIT */
/* engine_inputs.c — gdwire's structure-aware mutator (mutator.h) as a stream of inputs for the engines
 * themselves (tools/engines/harness/engine_fuzz.py, issue 62).
 *
 *   engine_inputs --row NAME --count N --seed S [--max-size B] [--edits K] SEED_FILE...
 *
 * Each SEED_FILE holds one fuzz input in the byte-level layout of fuzz.h (byte 0 the row, byte 1 the mode and
 * the Objects flag, then the packet), as corpus/decode/ does. Prints N lines, each the hex of one packet (the
 * bytes after the two selector bytes): a seed picked at random, given 1..K of the mutator's edits with byte 0
 * held at the row NAME names, so the type headers, counts and values the mutator writes are that row's.
 * The byte-level edits the mutator falls back on are this file's own (a flipped bit, a random byte, a
 * truncation): no fuzzing engine is linked. Deterministic for a given seed. Exit 2 on a usage error. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire_check.h"
#include "fuzzers/mutator.h"

static uint64_t rng_state;

static uint32_t rng_next(void) { /* xorshift64*: enough for picking seeds and edits */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static size_t byte_edits(uint8_t *data, size_t size, size_t max_size) {
    (void)max_size; /* no edit here makes the input longer */
    if (size == 0) return 0;
    switch (rng_next() % 3) {
    case 0: data[rng_next() % size] ^= (uint8_t)(1u << (rng_next() % 8)); return size;
    case 1: data[rng_next() % size] = (uint8_t)rng_next(); return size;
    default: return size > 1 ? 1 + rng_next() % (size - 1) : size;
    }
}

typedef struct seed {
    uint8_t *bytes;
    size_t len;
} seed;

static int read_file(const char *path, size_t max, seed *out) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "engine_inputs: %s: %s\n", path, strerror(errno));
        return -1;
    }
    out->bytes = malloc(max);
    if (!out->bytes) {
        fclose(f);
        return -1;
    }
    out->len = fread(out->bytes, 1, max, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    if (more || out->len < 2) { /* bigger than --max-size, or no packet: not a seed */
        free(out->bytes);
        out->bytes = NULL;
        return 0;
    }
    return 1;
}

static int usage(void) {
    fputs("usage: engine_inputs --row NAME --count N --seed S [--max-size B] [--edits K] SEED_FILE...\n", stderr);
    return 2;
}

int main(int argc, char **argv) {
    const char *row_name = NULL;
    unsigned long count = 0, seed_value = 1, max_size = 4096, edits = 3;
    int first = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        char *end = NULL;
        if (!strcmp(a, "--row") && has) row_name = argv[++i];
        else if (!strcmp(a, "--count") && has) count = strtoul(argv[++i], &end, 10);
        else if (!strcmp(a, "--seed") && has) seed_value = strtoul(argv[++i], &end, 10);
        else if (!strcmp(a, "--max-size") && has) max_size = strtoul(argv[++i], &end, 10);
        else if (!strcmp(a, "--edits") && has) edits = strtoul(argv[++i], &end, 10);
        else if (a[0] == '-' && a[1] == '-') return usage();
        else {
            first = i;
            break;
        }
        if (end && *end) return usage();
    }
    const gdw_dialect *row = row_name ? gdw_dialect_find(row_name) : NULL;
    if (!row || first >= argc || max_size < 3 || max_size > (1u << 24) || edits == 0) {
        if (row_name && !row) fprintf(stderr, "engine_inputs: no row named %s (gdwire dialects)\n", row_name);
        return usage();
    }
    size_t nseeds = 0;
    seed *seeds = calloc((size_t)(argc - first), sizeof *seeds);
    if (!seeds) return 1;
    for (int i = first; i < argc; i++) {
        int r = read_file(argv[i], max_size, &seeds[nseeds]);
        if (r < 0) return 2;
        nseeds += (size_t)r;
    }
    if (nseeds == 0) {
        fputs("engine_inputs: no seed of 2 bytes or more within --max-size\n", stderr);
        return 2;
    }
    rng_state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed_value << 1 | 1);
    uint8_t id = (uint8_t)gdw_dialect_fuzz_id(row);
    uint8_t *buf = malloc(max_size);
    if (!buf) return 1;
    for (unsigned long n = 0; n < count; n++) {
        const seed *s = &seeds[rng_next() % nseeds];
        memcpy(buf, s->bytes, s->len);
        size_t len = s->len;
        for (unsigned long k = 1 + rng_next() % edits; k > 0; k--) {
            buf[0] = id;
            len = gdw_fuzz_mutate(buf, len, max_size, rng_next(), byte_edits);
            if (len < 2) { /* the edit ate the selector: start again from the seed */
                memcpy(buf, s->bytes, s->len);
                len = s->len;
            }
        }
        for (size_t i = 2; i < len; i++) printf("%02x", buf[i]);
        if (len == 2) putchar('-'); /* the empty packet */
        putchar('\n');
    }
    free(buf);
    for (size_t i = 0; i < nseeds; i++) free(seeds[i].bytes);
    free(seeds);
    return fflush(stdout) == 0 ? 0 : 1;
}

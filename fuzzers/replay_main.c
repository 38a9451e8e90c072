/* SPDX-License-Identifier: MIT */
/* replay_main.c — in the default (non-fuzzing) build every fuzz target links this main, so
 * `bazel test //...` replays its corpus and regressions with any compiler: each file argument,
 * or each file in a directory argument, is one input. Prints "N passed, N failed"; a failing
 * input aborts, which fails the test.
 *
 *   replay [--exact-ids] [--vectors FILE] PATH...
 * --vectors FILE: packets exported from the conformance suite (`runner --export`, lines
 * "id<TAB>hex<TAB>objects"); each is run once per dialect, with the fuzz input prefix
 * (fuzzers/fuzz.h) choosing that dialect and the vector's objects option.
 * --exact-ids: the byte-level targets' inputs begin with a row's fuzz id; an input whose byte 0
 * is past the last id (one a new row would take) fails the replay: committed corpora must keep
 * their meaning when rows are added (fuzzers/fuzz.h; tools/fuzz/campaign writes exact ids). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codec/gdwire_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long g_inputs;
static int g_exact_ids;

static void run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); exit(1); }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) { fputs("replay: out of memory\n", stderr); exit(1); }
    fprintf(stderr, "replay %s (%zu bytes)\n", path, n);
    size_t ids = gdw_row_count();
    if (g_exact_ids && n >= 2 && buf[0] >= ids) {
        fprintf(stderr, "replay: %s: byte 0 is %u, no row's fuzz id (0-%zu): a new row would change its meaning; "
                        "write it with byte 0 = %zu, the id it means now\n", path, buf[0], ids - 1, buf[0] % ids);
        exit(1);
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    g_inputs++;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) { fprintf(stderr, "replay: no such file %s\n", path); exit(1); }
    if (!S_ISDIR(st.st_mode)) { run_file(path); return; }
    DIR *d = opendir(path);
    if (!d) { fprintf(stderr, "replay: cannot read %s\n", path); exit(1); }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md")) continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *sub = malloc(len);
        snprintf(sub, len, "%s/%s", path, names[i]);
        run_path(sub);
        free(sub);
        free(names[i]);
    }
    free(names);
}

static void run_vectors(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); exit(1); }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        char *hex = strchr(line, '\t');
        char *objects = hex ? strchr(hex + 1, '\t') : NULL;
        if (!objects) { fprintf(stderr, "replay: malformed line in %s\n", path); exit(1); }
        size_t nhex = (size_t)(objects - hex - 1), nbytes = 0;
        uint8_t *buf = malloc(nhex / 2 + 2);
        if (!buf || gdw_hex_decode(hex + 1, nhex, buf + 2, &nbytes, NULL) || nbytes != nhex / 2) {
            fprintf(stderr, "replay: bad hex in %s\n", path);
            exit(1);
        }
        for (size_t d = 0; d < gdw_dialect_count(); d++) { /* the dialects; fuzzers reach the releases */
            buf[0] = gdw_dialect_fuzz_id(gdw_dialect_at(d));
            buf[1] = objects[1] == '1' ? 4 : 0;
            LLVMFuzzerTestOneInput(buf, nhex / 2 + 2);
            g_inputs++;
        }
        free(buf);
    }
    free(line);
    fclose(f);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--exact-ids")) g_exact_ids = 1;
        else if (!strcmp(argv[i], "--vectors") && i + 1 < argc) run_vectors(argv[++i]);
        else run_path(argv[i]);
    }
    printf("%ld passed, 0 failed\n", g_inputs);
    return 0;
}

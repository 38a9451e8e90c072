/* SPDX-License-Identifier: MIT */
/* bench — throughput of gdwire's decode, validate, encode and check on generated workloads,
 * beside memcpy of the same bytes (docs/performance.md).
 *
 *   bazel run -c opt //bench -- [--dialect D|all] [--workload NAME] [--op OP] [--runs N]
 *                               [--scale X] [--json] [--write-packets DIR] [--list]
 *
 * For each (workload, dialect) it encodes the workload once (the packet), then times each op
 * --runs times (default 5) and reports the median: MB/s of packet bytes, values/s, and the
 * peak heap of one decode (a counting allocator). ops: decode (compatible mode, the document
 * freed outside the timing), validate, encode (into a buffer of the right size), check (what
 * `gdwire check` does for the library: decode in every dialect and, where accepted, validate
 * strictly whether the dialect's encoder writes exactly these bytes), decode_each (a zero-copy decode in every dialect, what check is measured against),
 * memcpy (the same bytes, the bandwidth ceiling). A short op is repeated until
 * one timing lasts at least 20 ms. --json prints one JSON array of objects with the keys
 * workload, dialect, op, bytes, mb_per_s, values_per_s, peak_heap_bytes (plus runs, seconds).
 * --allocator reuse gives decode, decode_each and check an allocator that keeps freed blocks for
 * the next decode (a server's steady state: no fresh pages from the kernel); the default is the
 * C library's.
 * --write-packets DIR writes DIR/<workload>.<dialect>.bin (for bench/compare). --once runs each
 * selected op exactly once, untimed, for instruction counts:
 *   valgrind --tool=callgrind --toggle-collect=gdw_decode bench --workload dicts_200k --op decode --once */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/workloads.h"
#include "codec/gdwire_check.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- a counting allocator: peak heap of a decode ---- */
typedef struct counter { size_t cur, peak; } counter;
static void *c_malloc(void *ctx, size_t n) {
    counter *c = ctx;
    void *p = malloc(n);
    if (p && (c->cur += n) > c->peak) c->peak = c->cur;
    return p;
}
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) {
    counter *c = ctx;
    void *q = realloc(p, n);
    if (q) { c->cur += n - o; if (c->cur > c->peak) c->peak = c->cur; }
    return q;
}
static void c_free(void *ctx, void *p, size_t n) {
    counter *c = ctx;
    c->cur -= n;
    free(p);
}

/* ---- a reusing allocator: what a server that decodes packet after packet would plug in
 * (gdw_allocator): freed blocks are kept by size and handed out again, so a steady stream of
 * decodes touches the same pages instead of faulting in fresh ones from the kernel ---- */
typedef struct bucket { size_t size; void *head; } bucket;
typedef struct reuse { bucket b[128]; size_t n; } reuse;
static bucket *find_bucket(reuse *r, size_t size) {
    for (size_t i = 0; i < r->n; i++)
        if (r->b[i].size == size) return &r->b[i];
    if (r->n == sizeof r->b / sizeof r->b[0]) return NULL;
    r->b[r->n] = (bucket){size, NULL};
    return &r->b[r->n++];
}
static void *r_malloc(void *ctx, size_t n) {
    if (n < sizeof(void *)) n = sizeof(void *);
    bucket *b = find_bucket(ctx, n);
    if (b && b->head) { void *p = b->head; b->head = *(void **)p; return p; }
    return malloc(n);
}
static void *r_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)ctx, (void)o;
    return realloc(p, n);
}
static void r_free(void *ctx, void *p, size_t n) {
    if (n < sizeof(void *)) n = sizeof(void *);
    bucket *b = find_bucket(ctx, n);
    if (!b) { free(p); return; }
    *(void **)p = b->head;
    b->head = p;
}
static reuse g_reuse;
static const gdw_allocator k_reuse = {r_malloc, r_realloc, r_free, &g_reuse};
static const gdw_allocator *g_alloc; /* NULL: the C library's malloc, as gdwire's default */

typedef struct job {
    const gdw_dialect *d;
    const gdw_value *v;
    const uint8_t *packet;
    size_t len;
    uint8_t *scratch;
    size_t scratch_len;
} job;

static volatile size_t g_sink;

/* The ops, in k_ops' order (main). run_op takes the number, so that what callgrind counts holds no string
 * comparison, whose cost follows where the linker put the strings. */
enum { OP_DECODE, OP_VALIDATE, OP_ENCODE, OP_CHECK, OP_DECODE_EACH, OP_MEMCPY };

__attribute__((noinline)) static int run_op(int op, job *j) { /* noinline: callgrind counts it (bench/budget_test.sh) */
    gdw_error err;
    gdw_decode_options o = gdw_decode_options_default();
    if (op == OP_DECODE) {
        gdw_doc *doc = NULL;
        if (gdw_decode(j->d, j->packet, j->len, &o, g_alloc, &doc, NULL, &err) != GDW_OK) return -1;
        g_sink += gdw_doc_root(doc)->len;
        gdw_doc_free(doc);
    } else if (op == OP_VALIDATE) {
        size_t used = 0;
        if (gdw_validate(j->d, j->packet, j->len, &o, &used, &err) != GDW_OK) return -1;
        g_sink += used;
    } else if (op == OP_ENCODE) {
        size_t w = 0;
        if (gdw_encode(j->d, j->v, NULL, j->scratch, j->scratch_len, &w, &err) != GDW_OK) return -1;
        g_sink += w;
    } else if (op == OP_CHECK) {
        gdw_check_result r[64];
        g_sink += gdw_check(j->packet, j->len, &o, g_alloc, false, r, 64);
    } else if (op == OP_DECODE_EACH) {
        /* what check is measured against: a decode per dialect, zero-copy as check's own decodes
         * are, so that the ratio counts only the work check adds */
        o.borrow_input = true;
        for (size_t i = 0; i < gdw_dialect_count(); i++) {
            gdw_doc *doc = NULL;
            if (gdw_decode(gdw_dialect_at(i), j->packet, j->len, &o, g_alloc, &doc, NULL, &err) == GDW_OK) g_sink++;
            gdw_doc_free(doc);
        }
    } else if (op == OP_MEMCPY) {
        memcpy(j->scratch, j->packet, j->len);
        g_sink += j->scratch[j->len / 2];
    } else return -2;
    return 0;
}

/* seconds per op: the median of runs timings, each repeating the op until it lasts 20 ms */
static double time_op(int op, job *j, int runs) {
    double best[64];
    if (runs > 64) runs = 64;
    int reps = 1;
    for (;;) { /* calibrate */
        double t0 = now();
        for (int r = 0; r < reps; r++)
            if (run_op(op, j)) return -1;
        double t = now() - t0;
        if (t >= 0.02 || reps >= 1 << 20) break;
        reps *= t > 0.002 ? 2 : 8;
    }
    for (int i = 0; i < runs; i++) {
        double t0 = now();
        for (int r = 0; r < reps; r++) run_op(op, j);
        best[i] = (now() - t0) / reps;
    }
    for (int a = 0; a < runs; a++) /* sort for the median */
        for (int b = a + 1; b < runs; b++)
            if (best[b] < best[a]) { double t = best[a]; best[a] = best[b]; best[b] = t; }
    return runs % 2 ? best[runs / 2] : (best[runs / 2 - 1] + best[runs / 2]) / 2;
}

static size_t peak_heap(job *j) {
    counter c = {0, 0};
    gdw_allocator a = {c_malloc, c_realloc, c_free, &c};
    gdw_decode_options o = gdw_decode_options_default();
    gdw_doc *doc = NULL;
    gdw_error err;
    if (gdw_decode(j->d, j->packet, j->len, &o, &a, &doc, NULL, &err) != GDW_OK) return 0;
    gdw_doc_free(doc);
    return c.peak;
}

static void usage(FILE *f) {
    fputs("usage: bench [--dialect D|all] [--workload NAME] [--op decode|validate|encode|check|decode_each|memcpy]\n"
          "             [--runs N]\n"
          "             [--scale X] [--json] [--write-packets DIR] [--list] [--once] [--allocator libc|reuse]\n"
          "Times gdwire on generated workloads (median of --runs, default 5) beside memcpy; default:\n"
          "every workload, dialect godot3, every op. --scale 0.1 makes every workload ten times smaller.\n"
          "Example: bazel run -c opt //bench -- --workload dicts_200k --op decode --json\n",
          f);
}

int main(int argc, char **argv) {
    const char *dialect = "godot3", *wname = NULL, *opname = NULL, *packets_dir = NULL;
    int runs = 5, json = 0, once = 0;
    double scale = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "--once")) once = 1;
        else if (val && !strcmp(a, "--allocator")) {
            if (!strcmp(val, "reuse")) g_alloc = &k_reuse;
            else if (strcmp(val, "libc")) { fprintf(stderr, "bench: --allocator libc|reuse\n"); return 2; }
            i++;
        }
        else if (!strcmp(a, "--list")) {
            for (size_t k = 0; k < workload_count(); k++) printf("%-16s %s\n", workload_at(k)->name, workload_at(k)->what);
            return 0;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (val && !strcmp(a, "--dialect")) dialect = val, i++;
        else if (val && !strcmp(a, "--workload")) wname = val, i++;
        else if (val && !strcmp(a, "--op")) opname = val, i++;
        else if (val && !strcmp(a, "--runs")) runs = atoi(val), i++;
        else if (val && !strcmp(a, "--scale")) scale = atof(val), i++;
        else if (val && !strcmp(a, "--write-packets")) packets_dir = val, i++;
        else { fprintf(stderr, "bench: unknown option %s\n", a); usage(stderr); return 2; }
    }
    static const char *const k_ops[] = {"decode", "validate", "encode", "check", "decode_each", "memcpy"};
    enum { N_OPS = sizeof k_ops / sizeof k_ops[0] };
    if (opname) {
        int ok = 0;
        for (size_t k = 0; k < N_OPS; k++) ok |= !strcmp(opname, k_ops[k]);
        if (!ok) { fprintf(stderr, "bench: unknown op %s\n", opname); return 2; }
    }
    if (wname && !workload_find(wname)) { fprintf(stderr, "bench: unknown workload %s (--list)\n", wname); return 2; }
    if (runs < 1 || scale <= 0) { fputs("bench: --runs and --scale must be positive\n", stderr); return 2; }
    int all_dialects = !strcmp(dialect, "all");
    if (!all_dialects && !gdw_dialect_find(dialect)) { fprintf(stderr, "bench: unknown dialect %s\n", dialect); return 2; }

    if (json) printf("[");
    else printf("%-16s %-19s %-8s %12s %10s %14s %12s %8s\n", "workload", "dialect", "op", "bytes", "MB/s", "values/s", "peak heap", "heap/pkt");
    int first = 1;
    for (size_t wi = 0; wi < workload_count(); wi++) {
        const workload_info *w = workload_at(wi);
        if (wname && strcmp(wname, w->name)) continue;
        for (size_t di = 0; di < gdw_dialect_count(); di++) {
            const gdw_dialect *d = gdw_dialect_at(di);
            if (!all_dialects && d != gdw_dialect_find(dialect)) continue;
            pool *p = NULL;
            size_t nvalues = 0;
            const gdw_value *v = workload_build(w, d, scale, &p, &nvalues);
            uint8_t *packet = NULL;
            size_t len = 0;
            gdw_error err;
            gdw_status s = v ? gdw_encode_alloc(d, v, NULL, NULL, &packet, &len, &err) : GDW_ERR_UNSUPPORTED_TYPE;
            if (s != GDW_OK) {
                if (!json) fprintf(stderr, "bench: %s cannot be written in %s (%s)\n", w->name, gdw_dialect_name(d), gdw_status_name(s));
                pool_free(p);
                continue;
            }
            if (packets_dir) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s.%s.bin", packets_dir, w->name, gdw_dialect_name(d));
                FILE *f = fopen(path, "wb");
                if (!f || fwrite(packet, 1, len, f) != len || fclose(f)) { fprintf(stderr, "bench: cannot write %s: %s\n", path, strerror(errno)); return 2; }
            }
            job j = {d, v, packet, len, malloc(len + 64), len + 64};
            size_t heap = peak_heap(&j);
            for (size_t oi = 0; oi < N_OPS; oi++) {
                const char *op_name = k_ops[oi];
                int op = (int)oi;
                if (opname && strcmp(opname, op_name)) continue;
                if (packets_dir && !opname) break; /* writing packets only */
                if (once) { /* one call, untimed: for callgrind (--toggle-collect=gdw_decode) */
                    if (run_op(op, &j)) { fprintf(stderr, "bench: %s failed\n", op_name); return 1; }
                    printf("%s %s %s: ran once (%zu bytes, %zu values)\n", w->name, gdw_dialect_name(d), op_name, len, nvalues);
                    continue;
                }
                double t = time_op(op, &j, runs);
                if (t < 0) { fprintf(stderr, "bench: %s %s in %s failed\n", op_name, w->name, gdw_dialect_name(d)); return 1; }
                double mbps = (double)len / t / 1e6, vps = (double)nvalues / t;
                if (json)
                    printf("%s\n {\"workload\": \"%s\", \"dialect\": \"%s\", \"op\": \"%s\", \"bytes\": %zu, \"mb_per_s\": %.1f, "
                           "\"values_per_s\": %.0f, \"peak_heap_bytes\": %zu, \"runs\": %d, \"seconds\": %.9f, \"allocator\": \"%s\"}",
                           first ? "" : ",", w->name, gdw_dialect_name(d), op_name, len, mbps, vps, heap, runs, t, g_alloc ? "reuse" : "libc");
                else
                    printf("%-16s %-19s %-8s %12zu %10.1f %14.0f %12zu %8.2f\n", w->name, gdw_dialect_name(d), op_name, len, mbps, vps, heap,
                           (double)heap / (double)len);
                first = 0;
                fflush(stdout);
            }
            free(j.scratch);
            free(packet);
            pool_free(p);
        }
    }
    if (json) printf("\n]\n");
    return 0;
}

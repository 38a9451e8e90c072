/* SPDX-License-Identifier: MIT */
/* check_threads_test — the one scheduler of a check (codec/check.c: gdw_check_run_rows, which
 * gdw_check, gdw_check_threads and `gdwire check` run), against each row's own walk
 * (gdw_check_dialect: no sharing, no threads), on the engines' packets and mutations of them, each
 * also padded to 300 bytes (trailing bytes, which every row but strict mode's reads past, and over
 * GDW_CHECK_SHARE_MIN: there rows take alike rows' answers), in the five ways of the sharing tests:
 *   - gdw_check, and gdw_check_threads on 2 and 4 threads, give every row its own answer, field for
 *   field;
 *   - gdw_check writes exactly cap rows, 0, 1, all, or all with room to spare, and returns the
 *   number of rows;
 *   - gdw_check_run_rows with hooks calls after_row once a row, before_walk exactly for the rows
 *   that walk, each
 *     taken answer from an earlier walked row, with no document; a walked row keeps its document
 *     with
 *     keep_docs, and gdw_check_engine_tree gives the tree an engine-exact gdw_decode of the row
 *     makes.
 * Built twice: against the library and against the library built with GDW_NO_THREADS (the
 * WebAssembly build's fallback), where every row runs on the calling thread whatever the threads
 * asked. */
#include <pthread.h>

#include "codec/tests/testing.h"

#define MAX_ROWS 64
#define PAD_TO 300

static size_t g_nd;
static long g_packets, g_taken, g_engine_trees, g_sharing_checks, g_off_thread_runs;

static bool same_answer(const gdw_check_result *a, const gdw_check_result *b) {
    if (a->dialect != b->dialect || a->status != b->status) return false;
    if (a->status != GDW_OK) return t_same_error(&a->err, &b->err);
    if (a->consumed != b->consumed || a->reencodes_same != b->reencodes_same ||
        a->engine_exact != b->engine_exact)
        return false;
    return a->reencodes_same || t_same_error(&a->strict_err, &b->strict_err);
}

/* What the hooks saw of one gdw_check_run_rows. */
typedef struct seen {
    const uint8_t *p;
    size_t n;
    const gdw_decode_options *o;
    gdw_check_result *out;
    int after[MAX_ROWS], before[MAX_ROWS];
    size_t from[MAX_ROWS];
    bool off_thread; /* a hook ran on another thread than the caller's */
    pthread_t caller;
    pthread_mutex_t lock;
    long trees_compared, trees_differ;
} seen;

static void before_walk(void *ctx, size_t i, gdw_decode_options *o) {
    seen *s = ctx;
    (void)o;
    pthread_mutex_lock(&s->lock);
    s->before[i]++;
    if (!pthread_equal(pthread_self(), s->caller)) s->off_thread = true;
    pthread_mutex_unlock(&s->lock);
}

static void after_row(void *ctx, gdw_check_run *run, size_t i, size_t from) {
    seen *s = ctx;
    bool compare = from == i && s->out[i].status == GDW_OK && s->out[i].engine_exact;
    long differ = 0;
    /* the engine's value, as gdw_check_engine_tree shares it, is an engine-exact decode's */
    if (compare) {
        const gdw_doc *held = gdw_check_engine_tree(run, i);
        gdw_decode_options eo = *s->o;
        eo.mode = GDW_MODE_ENGINE_EXACT;
        eo.keep_nodes = 0;
        gdw_doc *own = NULL;
        bool ok = gdw_decode(gdw_dialect_at(i), s->p, s->n, &eo, NULL, &own, NULL, NULL) == GDW_OK;
        differ = !ok || !held || !gdw_value_equal(gdw_doc_root(held), gdw_doc_root(own));
        gdw_doc_free(own);
    }
    pthread_mutex_lock(&s->lock);
    s->after[i]++;
    s->from[i] = from;
    if (!pthread_equal(pthread_self(), s->caller)) s->off_thread = true;
    s->trees_compared += compare;
    s->trees_differ += differ;
    pthread_mutex_unlock(&s->lock);
}

static void hooked(const uint8_t *p, size_t n, const gdw_decode_options *o,
                   const gdw_check_result *own, unsigned threads) {
    static gdw_check_result out[MAX_ROWS];
    seen s;
    memset(&s, 0, sizeof s);
    s.p = p, s.n = n, s.o = o, s.out = out, s.caller = pthread_self();
    pthread_mutex_init(&s.lock, NULL);
    gdw_check_options co = {true, threads, true, before_walk, after_row, &s};
    size_t rows = gdw_check_run_rows(p, n, o, NULL, &co, out, g_nd);
    CHECK(rows == g_nd, "gdw_check_run_rows: %zu rows of %zu", rows, g_nd);
    bool shares = gdw_check_shares(n, o);
    for (size_t i = 0; i < g_nd; i++) {
        const char *name = gdw_dialect_name(gdw_dialect_at(i));
        CHECK(s.after[i] == 1, "row %s: after_row called %d times (%zu bytes)", name, s.after[i],
              n);
        bool walked = s.from[i] == i;
        CHECK(s.before[i] == (walked ? 1 : 0), "row %s: before_walk called %d times, %s", name,
              s.before[i], walked ? "walked" : "taken");
        CHECK(walked || (shares && s.from[i] < i && s.from[s.from[i]] == s.from[i]),
              "row %s took the answer of row %zu, not an earlier walked one", name, s.from[i]);
        CHECK(same_answer(&own[i], &out[i]),
              "row %s: another answer with hooks on %u threads (%zu bytes, %s)", name, threads, n,
              gdw_mode_name(o->mode));
        CHECK(walked ? (out[i].status != GDW_OK) == (out[i].doc == NULL) : out[i].doc == NULL,
              "row %s: %s document", name, out[i].doc ? "a" : "no");
        g_taken += !walked;
        gdw_doc_free(out[i].doc);
    }
    CHECK(
        s.trees_differ == 0,
        "gdw_check_engine_tree differs from the engine-exact decode in %ld of %ld rows (%zu bytes)",
        s.trees_differ, s.trees_compared, n);
    g_engine_trees += s.trees_compared;
#ifdef GDW_NO_THREADS
    CHECK(!s.off_thread, "built without threads, a hook ran on another thread (%u asked)", threads);
#endif
    g_off_thread_runs += s.off_thread;
    pthread_mutex_destroy(&s.lock);
}

static void each_way(const uint8_t *p, size_t n, const gdw_decode_options *o) {
    static gdw_check_result own[MAX_ROWS], got[MAX_ROWS];
    for (size_t i = 0; i < g_nd; i++)
        gdw_check_dialect(gdw_dialect_at(i), p, n, o, NULL, false, &own[i]);
    static const unsigned threads[] = {1, 2, 4};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        size_t rows = threads[t] == 1
                          ? gdw_check(p, n, o, NULL, false, got, g_nd)
                          : gdw_check_threads(p, n, o, NULL, false, threads[t], got, g_nd);
        CHECK(rows == g_nd, "%zu rows of %zu", rows, g_nd);
        for (size_t i = 0; i < g_nd; i++)
            CHECK(same_answer(&own[i], &got[i]),
                  "row %s: another answer on %u threads (%zu bytes, %s)",
                  gdw_dialect_name(gdw_dialect_at(i)), threads[t], n, gdw_mode_name(o->mode));
    }
    g_sharing_checks += gdw_check_shares(n, o);
    hooked(p, n, o, own, n % 2 ? 1 : 3);
}

static void packet(void *ctx, const uint8_t *p, size_t n, int k) {
    (void)ctx, (void)k;
    g_packets++;
    t_five_ways(p, n, each_way);
    static uint8_t padded[PAD_TO];
    if (n < PAD_TO) {
        memcpy(padded, p, n);
        memset(padded + n, 0, PAD_TO - n);
        t_five_ways(padded, PAD_TO, each_way);
    }
}

/* A digest in the options is one object of the caller's: gdw_check_threads adds to it from one
 * thread, so it holds every row's tree in table order whatever the threads asked, as gdw_check's
 * does. */
static void digest_one_object(void) {
    /* an Array of 4,096 ints: past the sharing threshold, so rows may take answers */
    static uint8_t packet[1 << 16];
    size_t n = 0;
    /* Array in Godot 3; another type elsewhere */
    packet[n++] = 19, packet[n++] = 0, packet[n++] = 0, packet[n++] = 0;
    uint32_t count = 4096;
    memcpy(packet + n, &count, 4), n += 4;
    for (uint32_t i = 0; i < count; i++) {
        packet[n++] = 2, packet[n++] = 0, packet[n++] = 0, packet[n++] = 0;
        memcpy(packet + n, &i, 4), n += 4;
    }
    static gdw_check_result one[MAX_ROWS], many[MAX_ROWS];
    gdw_decode_options o = gdw_decode_options_default();
    gdw_digest d1, d4;
    gdw_digest_init(&d1, 1, 2, packet, n);
    gdw_decode_events e1 = {.digest = &d1}, e4 = {.digest = &d4};
    o.events = &e1;
    gdw_check(packet, n, &o, NULL, false, one, MAX_ROWS);
    gdw_digest_init(&d4, 1, 2, packet, n);
    o.events = &e4;
    for (int round = 0; round < 20; round++) {
        gdw_digest_init(&d4, 1, 2, packet, n);
        gdw_check_threads(packet, n, &o, NULL, false, 4, many, MAX_ROWS);
        CHECK(d4.h[0] == d1.h[0] && d4.h[1] == d1.h[1],
              "round %d: the digest of gdw_check_threads (4) is not gdw_check's", round);
    }
}

/* gdw_check writes the first cap rows and no more, and returns the number of rows, as snprintf
 * does. */
static void capacity(void) {
    static const uint8_t nil[4] = {0, 0, 0, 0}; /* a Nil, which every dialect reads */
    static gdw_check_result out[MAX_ROWS + 4];
    size_t caps[] = {0, 1, g_nd - 1, g_nd, g_nd + 3};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        memset(out, 0xA5, sizeof out);
        size_t rows = gdw_check(nil, sizeof nil, NULL, NULL, false, out, caps[c]);
        CHECK(rows == g_nd, "cap %zu: returns %zu, not the %zu rows", caps[c], rows, g_nd);
        for (size_t i = 0; i < g_nd + 4; i++) {
            bool written = i < caps[c] && i < g_nd;
            const uint8_t *b = (const uint8_t *)&out[i];
            bool untouched = true;
            for (size_t k = 0; k < sizeof out[i]; k++) untouched = untouched && b[k] == 0xA5;
            if (written)
                CHECK(out[i].dialect == gdw_dialect_at(i) && out[i].status == GDW_OK &&
                          out[i].consumed == 4,
                      "cap %zu: row %zu not answered", caps[c], i);
            else CHECK(untouched, "cap %zu: row %zu written past the capacity", caps[c], i);
        }
    }
    CHECK(gdw_check(nil, sizeof nil, NULL, NULL, false, NULL, 0) == g_nd,
          "NULL out, cap 0: the rows needed");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: check_threads_test PACKETS.tsv...\n");
        return 2;
    }
    g_nd = gdw_dialect_count();
    if (g_nd < 2 || g_nd > MAX_ROWS) {
        fprintf(stderr, "%zu dialects: the test holds 2 to %d\n", g_nd, MAX_ROWS);
        return 2;
    }
    capacity();
    digest_one_object();
    uint64_t rng = 58;
    size_t files = 0;
    for (int i = 1; i < argc; i++) files += t_tsv_each(argv[i], 1, &rng, packet, NULL) > 0;
    CHECK(files == (size_t)(argc - 1), "only %zu of the %d packet files held packets", files,
          argc - 1);
    printf("%ld packets (engine packets and a mutation each; each also padded to %d bytes), five "
           "ways: every row's answer from "
           "gdw_check, gdw_check_threads (2, 4) and the hooked run as its own walk's; %ld decodes "
           "where rows share, %ld answers "
           "taken, %ld engine trees compared; %ld hooked runs had a row on another thread\n",
           g_packets, PAD_TO, g_sharing_checks, g_taken, g_engine_trees, g_off_thread_runs);
    CHECK(g_packets >= 500, "only %ld packets", g_packets);
    CHECK(g_taken >= 1000, "only %ld answers taken: the sharing went untested", g_taken);
    CHECK(g_engine_trees >= 1000, "only %ld engine trees compared", g_engine_trees);
#ifndef GDW_NO_THREADS
    CHECK(g_off_thread_runs > 0, "no row of a hooked run on 3 threads ran off the calling thread: "
                                 "the threads went untested");
#endif
    return t_finish();
}

/* SPDX-License-Identifier: MIT */
/* check.c — one packet against every dialect (gdw_check, gdwire_check.h), and the ranking of the
 * answers (gdw_check_rank_rows, gdw_check_summary): the one definition `gdwire check`, the Python
 * and npm packages and the page share. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/api.h"

/* A validation that adds what it read of d to *read (gdw_wire_decode's report). */
static gdw_status validate_read(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                const gdw_decode_options *o, size_t *consumed, gdw_error *err,
                                gdw_rules_read *read) {
    gdw_shadow_report report = {.strict_err = NULL, .read = read};
    return gdw_wire_decode(d, buf, len, o, NULL, consumed, err, &report);
}

bool gdw_check_dialect(const gdw_dialect *d, const uint8_t *buf, size_t len,
                       const gdw_decode_options *opts, const gdw_allocator *alloc, bool keep_docs,
                       gdw_check_result *r) {
    return gdw_check_dialect_read(d, buf, len, opts, alloc, keep_docs, r, NULL);
}

bool gdw_check_dialect_read(const gdw_dialect *d, const uint8_t *buf, size_t len,
                            const gdw_decode_options *opts, const gdw_allocator *alloc,
                            bool keep_docs, gdw_check_result *r, gdw_rules_read *read) {
    if (!r) return false;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.borrow_input = o.borrow_input || !keep_docs; /* the input outlives these documents */
    /* no one reads the tree: the walk holds only its open path */
    if (!keep_docs && !o.keep_nodes) o.keep_nodes = 1;
    /* fields set one by one: the two error records (about 400 bytes) are written only when
     * used, which matters when thirteen decodes of a packed array take a microsecond */
    r->dialect = d;
    r->consumed = 0;
    r->reencodes_same = false;
    r->doc = NULL;
    r->engine_exact = false;
    r->strict_err.code = GDW_OK;
    r->strict_err.message = gdw_strerror(GDW_OK);
    r->strict_err.path[0] = 0;
    gdw_doc *doc = NULL;
    /* Strict mode accepts exactly what the dialect's encoder writes, so "does the encoder write
     * these bytes" is strict mode's verdict on the consumed bytes (fuzzers/decode.c checks that
     * strict acceptance implies a byte-identical re-encode). In compatible mode the decode
     * finds it in the same walk, and whether engine-exact mode reads the bytes the same way
     * (then its verdict is this one); other verdicts take a validation of their own
     * (fuzzers/validate_vs_decode.c checks both against separate validations). */
    gdw_shadow_report report = {.strict_err = &r->strict_err, .read = read};
    r->status = gdw_decode_shadowed(d, buf, len, &o, alloc, &doc, &r->consumed, &r->err, &report);
    if (r->status != GDW_OK) return false;
    if (o.mode == GDW_MODE_COMPATIBLE) {
        r->reencodes_same = report.canonical;
    } else {
        gdw_decode_options so = o;
        so.mode = GDW_MODE_STRICT;
        so.allow_trailing = false;
        so.trace = NULL;
        r->reencodes_same = validate_read(d, buf, r->consumed, &so, NULL, &r->strict_err, read) ==
                            GDW_OK;
    }
    if (report.engine_same || o.mode == GDW_MODE_ENGINE_EXACT) {
        r->engine_exact = true;
    } else {
        gdw_decode_options eo = o;
        eo.mode = GDW_MODE_ENGINE_EXACT;
        eo.trace = NULL;
        r->engine_exact = validate_read(d, buf, len, &eo, NULL, NULL, read) == GDW_OK;
    }
    if (keep_docs) r->doc = doc;
    else gdw_doc_free(doc);
    return true;
}

gdw_status gdw_decode_read(const gdw_dialect *d, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts, const gdw_allocator *alloc,
                           gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                           gdw_rules_read *read) {
    /* a compatible walk that notes its reads finds the strict verdict too (gdw_check's walk) */
    gdw_error strict_err;
    gdw_shadow_report report = {.strict_err = &strict_err, .read = read};
    return gdw_decode_shadowed(d, buf, len, opts, alloc, out_doc, consumed, err,
                               read ? &report : NULL);
}

void gdw_check_take_answer(const gdw_dialect *d, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts, const gdw_check_result *from,
                           const gdw_rules_read *from_read, gdw_check_result *r) {
    (void)len; /* the strict verdict is of the consumed bytes */
    if (!d || !from || !r) return;
    *r = *from;
    r->dialect = d;
    r->doc = NULL;
    if (r->status != GDW_OK || !from_read || gdw_dialects_read_alike(from->dialect, d, from_read))
        return;
    /* the rows differ in a rule only the strict verdict read: d's own, as gdw_check_dialect_read
     * finds it outside compatible mode (gdw_dialects_answer_alike: in the other modes no rule is
     * read for it alone) */
    gdw_decode_options so = opts ? *opts : gdw_decode_options_default();
    so.mode = GDW_MODE_STRICT;
    so.allow_trailing = false;
    so.trace = NULL;
    r->reencodes_same = validate_read(d, buf, r->consumed, &so, NULL, &r->strict_err, NULL) ==
                        GDW_OK;
}

bool gdw_check_shares(size_t len, const gdw_decode_options *opts) {
    (void)opts; /* every mode notes what its answers rest on */
    return len >= GDW_CHECK_SHARE_MIN;
}

/* ---- the rows of a check, on one thread or several: the one scheduler ------------------------ */

/* Where the library has threads: POSIX ones, but for a WebAssembly build without them (and
 * GDW_NO_THREADS). */
#if !defined(GDW_NO_THREADS) && (defined(__unix__) || defined(__APPLE__)) && \
    !(defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__))
#define RUN_THREADS 1
#include <pthread.h>
/* a run on the calling thread alone takes no lock: gdw_check, and every check of a small packet,
 * call no pthread function (each one's first call in a process costs its symbol's binding,
 * thousands of instructions) */
#define RUN_LOCK(run) ((run)->threaded ? (void)pthread_mutex_lock(&(run)->lock) : (void)0)
#define RUN_UNLOCK(run) ((run)->threaded ? (void)pthread_mutex_unlock(&(run)->lock) : (void)0)
#define CHECK_THREAD_STACK ((size_t)1 << 20) /* the least stack a helper thread gets (below) */

#else
#define RUN_THREADS 0
#define RUN_LOCK(run) ((void)(run))
#define RUN_UNLOCK(run) ((void)(run))

#endif

/* The steps of a row, inlined into the loops that run them: on a packet whose rows cost little (a
 * megabyte PackedVector3Array, stepped over in O(1)), calls would cost a tenth of the check
 * (bench/budget). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ROW_STEPS_CALLED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(ROW_STEPS_CALLED)
/* AddressSanitizer gives every inlined copy's locals their own slot and red zones: inlined at each
 * of their call sites the steps would take a check past the stack promise
 * (codec/tests/stack_test.c) in that build only */
#define ROW_STEP static __attribute__((noinline))
#elif defined(__GNUC__) || defined(__clang__)
#define ROW_STEP static inline __attribute__((always_inline))
#else
#define ROW_STEP static inline
#endif

/* The rows one run schedules and shares among (the table has 13 dialects); a row past them walks on
 * its own. Its arrays live on gdw_check's stack, which codec/tests/stack_test.c holds to its budget
 * under ASan too. */
#define RUN_ROWS 16

enum { ROW_WAITING, ROW_RUNNING, ROW_TOOK, ROW_WALKED };

struct gdw_check_run {
    const uint8_t *buf;
    size_t len;
    size_t n; /* the rows scheduled: the first min(cap, RUN_ROWS) */
    const gdw_decode_options *opts;
    const gdw_allocator *alloc;
    const gdw_check_options *co;
    gdw_check_result *out;
    bool share; /* rows take alike rows' answers */
    unsigned char state[RUN_ROWS];
    size_t first_waiting; /* no row before it waits */
    /* the rows that walked and finished (ROW_WALKED), in table order */
    unsigned char walked[RUN_ROWS];
    size_t nw;
    gdw_rules_read read[RUN_ROWS]; /* what each walked row's answer rested on (shared rows) */
    /* engine_tree[] is in use (cleared at the first gdw_check_engine_tree) */
    bool engine_trees;
    /* gdw_check_engine_tree's decodes, by the row that made each */
    gdw_doc *engine_tree[RUN_ROWS];
    gdw_rules_read engine_read[RUN_ROWS];
#if RUN_THREADS
    bool threaded; /* helper threads run rows too: lock and row_finished are in use */
    pthread_mutex_t lock;
    pthread_cond_t row_finished;
#endif
};

/* Row i takes the answer of a walked row that read the packet as it would
 * (gdw_dialects_answer_alike): its walk would read the same of its own table and so make the same
 * answer, tree and digest (but for a strict verdict of its own where a rule only that read differs:
 * gdw_check_take_answer). Returns that row, or run->n: none. */
ROW_STEP size_t answer_from_alike_row(gdw_check_run *run, size_t i, const gdw_dialect *d,
                                      bool threaded) {
    if (!run->share) return run->n;
    size_t from = run->n;
    if (threaded) RUN_LOCK(run);
    for (size_t w = 0; w < run->nw; w++) {
        size_t k = run->walked[w];
        if (gdw_dialects_answer_alike(run->out[k].dialect, d, &run->read[k])) {
            from = k;
            break;
        }
    }
    if (threaded) RUN_UNLOCK(run);
    if (from == run->n) return from;
    gdw_check_take_answer(d, run->buf, run->len, run->opts, &run->out[from], &run->read[from],
                          &run->out[i]);
    return from;
}

/* Row i's own walk, under the options the caller's before_walk makes of the check's; what it read
 * into *read (NULL: not asked). */
ROW_STEP void walk_row(const gdw_check_options *co, size_t i, const gdw_dialect *d,
                       const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                       const gdw_allocator *alloc, gdw_check_result *r, gdw_rules_read *read,
                       bool hooks) {
    gdw_decode_options hooked;
    if (hooks && co->before_walk)
        hooked = *opts, co->before_walk(co->ctx, i, &hooked), opts = &hooked;
    if (read) memset(read, 0, sizeof *read);
    gdw_check_dialect_read(d, buf, len, opts, alloc, co->keep_docs, r, read);
}

/* Row i, start to finish. threaded and hooks are constants where it is inlined: the loop of
 * gdw_check, alone and without hooks, takes no lock and asks for no hook. */
ROW_STEP void answer_row(gdw_check_run *run, size_t i, bool threaded, bool hooks) {
    const gdw_check_options *co = run->co;
    const gdw_dialect *d = gdw_dialect_at(i);
    size_t from = answer_from_alike_row(run, i, d, threaded);
    if (from == run->n) {
        from = i;
        walk_row(co, i, d, run->buf, run->len, run->opts, run->alloc, &run->out[i],
                 run->share ? &run->read[i] : NULL, hooks);
    }
    if (hooks && co->after_row) co->after_row(co->ctx, run, i, from);
    if (threaded) RUN_LOCK(run);
#if RUN_THREADS
    if (threaded)
        run->state[i] = from == i ? ROW_WALKED : ROW_TOOK,
        pthread_cond_broadcast(&run->row_finished);
#endif
    /* into the walked rows, kept in table order (alone, the order they finish in) */
    if (from == i) {
        size_t w = run->nw++;
        for (; threaded && w > 0 && run->walked[w - 1] > i; w--)
            run->walked[w] = run->walked[w - 1];
        run->walked[w] = (unsigned char)i;
    }
    if (threaded) RUN_UNLOCK(run);
}

#if RUN_THREADS
/* Whether rows a and b may read the packet alike: their type tables give its first header's id the
 * same type (rows that read the top value as different types read nothing alike). */
static bool may_read_alike(const gdw_check_run *run, size_t a, size_t b) {
    unsigned id = run->len ? run->buf[0] : 0; /* the header's low byte (little-endian) */
    return gdw_dialect_wire_type(gdw_dialect_at(a), id) ==
           gdw_dialect_wire_type(gdw_dialect_at(b), id);
}

/* The next row to do, or run->n when none is left. Where rows share answers, a row that may read
 * the packet alike a row running on another thread (may_read_alike) waits, and the thread takes a
 * later row meanwhile: the row will then mostly take the running row's answer rather than walk the
 * packet beside it; when only such rows are left, the thread waits for a row to finish. The answers
 * do not depend on the order (check_share_test, check_threads_test). */
static size_t claim_row(gdw_check_run *run) {
    RUN_LOCK(run);
    for (;;) {
        size_t pick = run->n;
        bool held = false;
        while (run->first_waiting < run->n && run->state[run->first_waiting] != ROW_WAITING)
            run->first_waiting++;
        for (size_t i = run->first_waiting; i < run->n && pick == run->n; i++) {
            if (run->state[i] != ROW_WAITING) continue;
            bool kin_running = false;
            for (size_t k = 0; run->share && k < run->n && !kin_running; k++)
                kin_running = run->state[k] == ROW_RUNNING && may_read_alike(run, k, i);
            if (kin_running) held = true;
            else pick = i;
        }
        if (pick < run->n || !held) {
            if (pick < run->n) run->state[pick] = ROW_RUNNING;
            RUN_UNLOCK(run);
            return pick;
        }
        pthread_cond_wait(&run->row_finished, &run->lock);
    }
}

static void *answer_rows(void *arg) {
    gdw_check_run *run = (gdw_check_run *)arg;
    for (size_t i; (i = claim_row(run)) < run->n;) answer_row(run, i, true, true);
    return NULL;
}
#endif

const gdw_doc *gdw_check_engine_tree(gdw_check_run *run, size_t i) {
    if (!run || i >= run->n) return NULL;
    const gdw_dialect *d = gdw_dialect_at(i);
    const gdw_doc *held = NULL;
    RUN_LOCK(run);
    if (!run->engine_trees)
        memset(run->engine_tree, 0, sizeof run->engine_tree), run->engine_trees = true;
    for (size_t k = 0; k < run->n && !held; k++)
        if (run->engine_tree[k] &&
            gdw_dialects_read_alike(gdw_dialect_at(k), d, &run->engine_read[k]))
            held = run->engine_tree[k];
    RUN_UNLOCK(run);
    if (held) return held;
    gdw_decode_options o = *run->opts;
    o.mode = GDW_MODE_ENGINE_EXACT;
    o.borrow_input = true;
    o.keep_nodes = 0;
    o.trace = NULL;
    o.events = NULL;
    gdw_rules_read read = {0, 0, 0};
    gdw_doc *doc = NULL;
    if (gdw_decode_read(d, run->buf, run->len, &o, run->alloc, &doc, NULL, NULL, &read) != GDW_OK)
        return NULL;
    RUN_LOCK(run);
    /* row i asked before (found above unless its own reads say otherwise) */
    gdw_doc *spare = run->engine_tree[i];
    run->engine_tree[i] = doc;
    run->engine_read[i] = read;
    RUN_UNLOCK(run);
    gdw_doc_free(spare);
    return doc;
}

#if RUN_THREADS
/* The rows on `threads` threads, the calling one among them; false (nothing done) where the lock
 * cannot be made. A function of its own, so that gdw_check's one-thread path does not carry its
 * frame (codec/tests/stack_test.c). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static bool
answer_on_threads(gdw_check_run *run, unsigned threads) {
    if (pthread_mutex_init(&run->lock, NULL) != 0) return false;
    if (pthread_cond_init(&run->row_finished, NULL) != 0) {
        pthread_mutex_destroy(&run->lock);
        return false;
    }
    run->threaded = true;
    memset(run->state, ROW_WAITING, sizeof run->state);
    run->first_waiting = 0;
    pthread_t helper[GDW_CHECK_THREADS_MAX];
    unsigned started = 0;
    /* a helper's stack holds a row's walk (docs/library.md "Stack": tens of KiB) and the caller's
     * hooks: at least CHECK_THREAD_STACK, where the platform's default is smaller (musl's is 128
     * KiB) */
    pthread_attr_t attr;
    size_t stack = 0;
    bool have_attr = pthread_attr_init(&attr) == 0;
    if (have_attr && pthread_attr_getstacksize(&attr, &stack) == 0 && stack < CHECK_THREAD_STACK &&
        pthread_attr_setstacksize(&attr, CHECK_THREAD_STACK) != 0) {
        pthread_attr_destroy(&attr);
        have_attr = false;
    }
    while (started + 1 < threads &&
           pthread_create(&helper[started], have_attr ? &attr : NULL, answer_rows, run) == 0)
        started++;
    if (have_attr) pthread_attr_destroy(&attr);
    answer_rows(run);
    for (unsigned k = 0; k < started; k++) pthread_join(helper[k], NULL);
    pthread_cond_destroy(&run->row_finished);
    pthread_mutex_destroy(&run->lock);
    return true;
}
#endif

size_t gdw_check_run_rows(const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                          const gdw_allocator *alloc, const gdw_check_options *co,
                          gdw_check_result *out, size_t cap) {
    size_t nd = gdw_dialect_count();
    if ((!buf && len > 0) || (!out && cap > 0)) return 0;
    static const gdw_check_options one_thread = {.threads = 1};
    if (!co) co = &one_thread;
    gdw_decode_options defaults = gdw_decode_options_default();
    gdw_check_run run;
    run.buf = buf;
    run.len = len;
    run.n = cap < nd ? cap : nd;
    if (run.n > RUN_ROWS) run.n = RUN_ROWS;
    run.opts = opts ? opts : &defaults;
    run.alloc = alloc;
    run.co = co;
    run.out = out;
    /* A row that agrees with a row walked before it on all that row's answer rested on takes that
     * answer: where the rows keep no documents (each would need its own tree) and no digest is
     * asked (each decode adds to it), or where the caller's hooks stand in for both (take_answers),
     * and gdw_check_shares says so. */
    bool bare = !co->keep_docs && !(run.opts->events && run.opts->events->digest);
    run.share = (bare || co->take_answers) && gdw_check_shares(len, run.opts);
    run.nw = 0;
    run.engine_trees = false;
    unsigned threads = co->threads > GDW_CHECK_THREADS_MAX ? GDW_CHECK_THREADS_MAX : co->threads;
    if (threads > run.n) threads = (unsigned)run.n;
    /* the caller's trace and events are one object each: without a before_walk that gives each row
     * its own, one thread calls them */
    if (!co->before_walk && (run.opts->events || run.opts->trace)) threads = 1;
#if RUN_THREADS
    run.threaded = false;
    bool on_threads = threads > 1 && answer_on_threads(&run, threads);
#else
    (void)threads; /* no threads here: the calling thread answers every row */
    bool on_threads = false;
#endif
    if (on_threads) {
        /* every row answered */
    } else if (co->before_walk || co->after_row) { /* alone: the rows in table order, no lock */
        for (size_t i = 0; i < run.n; i++) answer_row(&run, i, false, true);
    } else {
        for (size_t i = 0; i < run.n; i++) answer_row(&run, i, false, false);
    }
    for (size_t i = 0; run.engine_trees && i < run.n; i++) gdw_doc_free(run.engine_tree[i]);
    /* past RUN_ROWS (not in today's table): each row its own walk */
    for (size_t i = run.n; i < cap && i < nd; i++) {
        walk_row(co, i, gdw_dialect_at(i), buf, len, run.opts, alloc, &out[i], NULL, true);
        if (co->after_row) co->after_row(co->ctx, NULL, i, i);
    }
    return nd;
}

size_t gdw_check_threads(const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                         const gdw_allocator *alloc, bool keep_docs, unsigned threads,
                         gdw_check_result *out, size_t cap) {
    gdw_check_options co = {.keep_docs = keep_docs, .threads = threads};
    return gdw_check_run_rows(buf, len, opts, alloc, &co, out, cap);
}

size_t gdw_check(const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                 const gdw_allocator *alloc, bool keep_docs, gdw_check_result *out, size_t cap) {
    return gdw_check_threads(buf, len, opts, alloc, keep_docs, 1, out, cap);
}

/* ---- ranking: which dialect most likely wrote the packet ------------------------------------- */

/* A real that looks misread: subnormal-small, NaN or beyond 1e30 (the marks of integers or text
 * read as floats). */
static bool looks_misread(double x) {
    if (x == 0) return false;
    double a = fabs(x);
    return isnan(x) || a < 1e-30 || a > 1e30;
}

#define MISREAD_SAMPLE 4096 /* components read of each math value or packed array */

size_t gdw_value_misread_own(const gdw_value *v) {
    /* its one component, without the buffer */
    if (v && v->type == GDW_FLOAT) return looks_misread(gdw_value_real(v, 0));
    size_t n = 0;
    double comps[64];
    for (size_t from = 0, got;
         from < MISREAD_SAMPLE &&
         (got = gdw_value_reals(v, from, sizeof comps / sizeof comps[0], comps)) > 0;
         from += got)
        for (size_t i = 0; i < got; i++) n += looks_misread(comps[i]);
    return n;
}

static gdw_visit_answer count_misread(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                      const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)parent, (void)slot;
    *(size_t *)ctx += gdw_value_misread_own(v);
    return depth >= GDW_MISREAD_DEPTH ? GDW_VISIT_SKIP : GDW_VISIT_GO;
}

size_t gdw_value_misread_reals(const gdw_value *root) {
    size_t n = 0;
    if (root) gdw_visit(root, GDW_VISIT_PRE, count_misread, &n);
    return n;
}


/* a's engine release came out after b's; an undated row is older than any dated one */
static bool released_after(const gdw_dialect *a, const gdw_dialect *b) {
    const char *ra = gdw_dialect_released(a), *rb = gdw_dialect_released(b);
    if (!ra[0]) return false;
    return !rb[0] || strcmp(ra, rb) > 0;
}

/* A reading that runs out of bytes is taken for a cut packet of its dialect while the tail it needs
 * is at most this many times the bytes there are, and GDW_CUT_SLACK more (a packet cut at a fifth
 * of its length; a misread length word mostly asks for far more). */
#define CUT_TAIL_FACTOR 4u
#define CUT_TAIL_SLACK 64u

gdw_reading gdw_check_reading(const gdw_check_result *r, size_t len) {
    if (!r) return GDW_READING_REJECTED;
    if (r->status == GDW_OK) return r->consumed == len ? GDW_READING_WHOLE : GDW_READING_PREFIX;
    bool believable = len <= SIZE_MAX / CUT_TAIL_FACTOR - CUT_TAIL_SLACK &&
                      r->err.short_by <= CUT_TAIL_FACTOR * len + CUT_TAIL_SLACK;
    if (r->err.code == GDW_ERR_TRUNCATED && r->err.short_by > 0 && believable)
        return GDW_READING_CUT;
    return GDW_READING_REJECTED;
}

/* The score, most telling first: the reading (whole, cut, a prefix, rejected); then for a whole
 * reading, a value without reals that look misread, its encoder writing back exactly these bytes,
 * the engine itself accepting them (engine_exact), an engine's row before one only documentation
 * describes; for a cut one, how far it read before the value it reads where the missing bytes are
 * zeros (complete_cut) without misread-looking reals and written back by its encoder, an engine's
 * row, then how far it read before it ran out; for a prefix, the same marks as a whole reading, the
 * plausible value first and then how many bytes it reads; for a rejection, how far it read. */
#define SCORE_READING(k) ((int64_t)(k) << 40)
#define SCORE_PLAUSIBLE (INT64_C(1) << 38)
#define SCORE_WRITES_BACK (INT64_C(1) << 37)
#define SCORE_ENGINE_ACCEPTS (INT64_C(1) << 36)
#define SCORE_ENGINE_ROW (INT64_C(1) << 35)
#define SCORE_OFFSET_MAX ((INT64_C(1) << 34) - 1)

static int64_t clamp_offset(size_t off) {
    return off > (size_t)SCORE_OFFSET_MAX ? SCORE_OFFSET_MAX : (int64_t)off;
}

static int64_t score_of(const gdw_check_result *r, gdw_reading reading, size_t misread) {
    int order = reading == GDW_READING_WHOLE    ? 3
                : reading == GDW_READING_CUT    ? 2
                : reading == GDW_READING_PREFIX ? 1
                                                : 0;
    int64_t s = SCORE_READING(order);
    bool engine_row = !gdw_dialect_documented_only(r->dialect);
    switch (reading) {
    case GDW_READING_WHOLE:
    case GDW_READING_PREFIX:
        if (misread == 0) s += SCORE_PLAUSIBLE;
        if (reading == GDW_READING_PREFIX)
            return s + clamp_offset(r->consumed) * 8 + r->reencodes_same * 4 + r->engine_exact * 2 +
                   engine_row;
        return s + r->reencodes_same * SCORE_WRITES_BACK + r->engine_exact * SCORE_ENGINE_ACCEPTS +
               engine_row * SCORE_ENGINE_ROW;
    case GDW_READING_CUT: /* the marks of its completion (complete_cut), passed in r and misread */
        if (misread == 0) s += SCORE_PLAUSIBLE;
        return s + r->reencodes_same * SCORE_WRITES_BACK + engine_row * SCORE_ENGINE_ROW +
               clamp_offset(r->err.offset);
    case GDW_READING_REJECTED: break;
    }
    return s + clamp_offset(r->err.offset);
}

/* ---- the rows ranked, the first of them and why: what every surface prints ------------------- */

/* The value the row reads, whole: its document, or a decode of its own (*tmp, freed by the caller).
 * */
static const gdw_value *whole_value(const gdw_check_row *w, const uint8_t *buf, size_t len,
                                    const gdw_decode_options *opts, gdw_doc **tmp) {
    if (w->result.doc && !gdw_doc_cut(w->result.doc)) return gdw_doc_root(w->result.doc);
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.keep_nodes = 0;
    o.allow_trailing = true;
    o.trace = NULL;
    o.events = NULL;
    return gdw_decode(w->result.dialect, buf, len, &o, NULL, tmp, NULL, NULL) == GDW_OK
               ? gdw_doc_root(*tmp)
               : NULL;
}

/* A cut reading completed: the packet with the bytes its value needs as zeros after it (more where
 * the completed value needs more still, to CUT_TAIL_FACTOR times the bytes there are), checked as
 * gdw_check checks a row. What the reading makes of the bytes there are, as a whole value: its
 * misread-looking reals (*misread) and whether its encoder writes the bytes back
 * (out->reencodes_same) rank it among cut readings. (Not whether two cut readings are alike: the
 * zeros may read otherwise in each; same_reading asks of the bytes there are.) False where the
 * reading does not complete. */
static bool complete_cut(const gdw_check_result *r, const uint8_t *buf, size_t len,
                         const gdw_decode_options *opts, gdw_check_result *out, size_t *misread) {
    memset(out, 0, sizeof *out);
    if (r->status == GDW_OK || r->err.code != GDW_ERR_TRUNCATED || !r->err.short_by) return false;
    size_t limit = len * CUT_TAIL_FACTOR + CUT_TAIL_SLACK, tail = r->err.short_by;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.trace = NULL;
    o.events = NULL;
    o.borrow_input = true; /* the tree is read before the padded copy is freed */
    for (int round = 0; round < 8 && tail <= limit; round++) {
        uint8_t *padded = (uint8_t *)calloc(len + tail, 1);
        if (!padded) return false;
        memcpy(padded, buf, len);
        bool ok = gdw_check_dialect(r->dialect, padded, len + tail, &o, NULL, true, out) &&
                  out->consumed == len + tail;
        if (ok) *misread = gdw_value_misread_reals(gdw_doc_root(out->doc));
        gdw_doc_free(out->doc);
        out->doc = NULL;
        free(padded);
        if (ok) return true;
        if (out->status == GDW_OK || out->err.code != GDW_ERR_TRUNCATED || !out->err.short_by)
            return false;
        tail += out->err.short_by;
    }
    return false;
}

/* What row a's walk of the packet read (gdw_decode_read), found once for every row compared with a.
 * */
typedef struct walk_read {
    gdw_rules_read read;
    bool known;
} walk_read;

/* Rows a and b read the same thing from the packet: accepted rows the same value (the caller's
 * meanings where it gave both, else the trees); cut rows the same walk to the same place (a row
 * that reads alike every rule and type id the other's walk read makes the same partial value: they
 * read the bytes there are alike; a_read holds what a's walk read). */
static bool same_reading(const gdw_check_row *a, const gdw_check_row *b, const uint8_t *buf,
                         size_t len, const gdw_decode_options *opts, walk_read *a_read) {
    bool accepted_a = a->result.status == GDW_OK, accepted_b = b->result.status == GDW_OK;
    if (accepted_a != accepted_b) return false;
    if (!accepted_a) {
        if (a->reading != GDW_READING_CUT || b->reading != GDW_READING_CUT) return false;
        const gdw_error *ea = &a->result.err, *eb = &b->result.err;
        if (ea->offset != eb->offset || ea->short_by != eb->short_by ||
            strcmp(ea->path, eb->path) != 0 || strcmp(ea->message, eb->message) != 0)
            return false;
        if (!a_read->known) {
            gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
            o.trace = NULL;
            o.events = NULL;
            memset(&a_read->read, 0, sizeof a_read->read);
            gdw_decode_read(a->result.dialect, buf, len, &o, NULL, NULL, NULL, NULL, &a_read->read);
            a_read->known = true;
        }
        return gdw_dialects_read_alike(a->result.dialect, b->result.dialect, &a_read->read);
    }
    if (a->meaning >= 0 && b->meaning >= 0) return a->meaning == b->meaning;
    gdw_doc *ta = NULL, *tb = NULL;
    const gdw_value *va = whole_value(a, buf, len, opts, &ta),
                    *vb = whole_value(b, buf, len, opts, &tb);
    bool same = va && vb && gdw_value_equal(va, vb);
    gdw_doc_free(ta);
    gdw_doc_free(tb);
    return same;
}

typedef struct type_ids {
    unsigned id[64];
    size_t n;
} type_ids;

static void collect_type_id(void *ctx, const gdw_trace_event *ev) {
    type_ids *s = (type_ids *)ctx;
    if (strcmp(ev->field, "header") != 0) return;
    unsigned w = (unsigned)(ev->number & 0xFF);
    for (size_t i = 0; i < s->n; i++)
        if (s->id[i] == w) return;
    if (s->n < sizeof s->id / sizeof s->id[0]) s->id[s->n++] = w;
}

/* The wire ids of the types of a tree's first GDW_CHECK_REASON_NODES values, in the order they
 * come. */
typedef struct tree_ids {
    type_ids *seen;
    const gdw_dialect *d;
    size_t left;
} tree_ids;
static gdw_visit_answer collect_tree_id(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                        const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)parent, (void)slot, (void)depth;
    tree_ids *t = (tree_ids *)ctx;
    if (t->left == 0) return GDW_VISIT_STOP;
    t->left--;
    int id = gdw_dialect_type_id(t->d, (gdw_type)v->type);
    if (id < 0) return GDW_VISIT_GO;
    for (size_t i = 0; i < t->seen->n; i++)
        if (t->seen->id[i] == (unsigned)id) return GDW_VISIT_GO;
    if (t->seen->n < sizeof t->seen->id / sizeof t->seen->id[0])
        t->seen->id[t->seen->n++] = (unsigned)id;
    return GDW_VISIT_GO;
}

/* The type ids the first choice reads, in the order it meets them (the reasons name the first
 * another row reads as another type): from its tree's first GDW_CHECK_REASON_NODES values where it
 * has one and holds the values as the bytes spell them (not in engine-exact mode, whose tree may
 * hold converted ones), else from a traced walk. */
static void best_type_ids(const gdw_check_row *b, const uint8_t *buf, size_t len,
                          const gdw_decode_options *opts, type_ids *seen) {
    bool exact = opts && opts->mode == GDW_MODE_ENGINE_EXACT;
    if (b->result.status == GDW_OK && b->result.doc && !exact) {
        tree_ids t = {seen, b->result.dialect, GDW_CHECK_REASON_NODES};
        gdw_visit(gdw_doc_root(b->result.doc), GDW_VISIT_PRE, collect_tree_id, &t);
        return;
    }
    gdw_decode_options t = opts ? *opts : gdw_decode_options_default();
    t.trace = collect_type_id;
    t.trace_ctx = seen;
    t.allow_trailing = true;
    t.events = NULL;
    gdw_validate(b->result.dialect, buf, len, &t, NULL, NULL);
}

static const char *type_named(const gdw_dialect *d, unsigned w) {
    int t = gdw_dialect_wire_type(d, w);
    return t < 0 ? NULL : gdw_type_name((gdw_type)t);
}

/* Appends to out[*n..cap) and keeps *n within cap. */
static void say(char *out, size_t cap, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(char *out, size_t cap, size_t *n, const char *fmt, ...) {
    if (*n >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out + *n, cap - *n, fmt, ap);
    va_end(ap);
    if (k > 0) *n = (size_t)k < cap - *n ? *n + (size_t)k : cap - 1;
}

/* What a cut reading says: how much more the value needs, and where it ran out; and, given as_read
 * (the first choice's name), that it reads the bytes there are as that row does. */
static void say_cut(char *out, size_t cap, size_t *n, const gdw_error *e, const char *as_read) {
    say(out, cap, n,
        "cut short: the value needs at least %zu more byte%s (%s at byte %zu%s%s)%s%s%s",
        e->short_by, e->short_by == 1 ? "" : "s", e->message, e->offset, e->path[0] ? " in " : "",
        e->path, as_read ? "; as " : "", as_read ? as_read : "", as_read ? " reads it" : "");
}

/* Row w's reason, beside the first choice b. */
static void reason_of(gdw_check_row *w, const gdw_check_row *b, bool same, const type_ids *seen,
                      const uint8_t *buf, size_t len) {
    char *out = w->reason;
    size_t cap = sizeof w->reason, n = 0;
    const gdw_check_result *r = &w->result;
    const char *bname = gdw_dialect_name(b->result.dialect);
    out[0] = 0;
    if (w->reading == GDW_READING_REJECTED) {
        /* one format a kind of rejection: a reason is written for every row of every packet `check`
         * ranks */
        const gdw_error *e = &r->err;
        const char *code = gdw_status_name(e->code), *in = e->path[0] ? " in " : "";
        if (e->code == GDW_ERR_TRUNCATED && e->short_by)
            say(out, cap, &n,
                "rejected: %s at byte %zu%s%s: %s (%zu more bytes wanted: more than a cut packet "
                "would miss)",
                code, e->offset, in, e->path, e->message, e->short_by);
        else if (e->code == GDW_ERR_UNKNOWN_TYPE && e->offset < len)
            say(out, cap, &n, "rejected: %s at byte %zu%s%s: %s (type id %u; %s has ids 0-%u)",
                code, e->offset, in, e->path, e->message, buf[e->offset],
                gdw_dialect_name(r->dialect), gdw_dialect_type_count(r->dialect) - 1);
        else
            say(out, cap, &n, "rejected: %s at byte %zu%s%s: %s", code, e->offset, in, e->path,
                e->message);
        return;
    }
    if (w == b) {
        if (w->reading == GDW_READING_CUT) {
            say_cut(out, cap, &n, &r->err, NULL);
            return;
        }
        if (w->reading == GDW_READING_WHOLE) say(out, cap, &n, "reads all %zu bytes", r->consumed);
        else say(out, cap, &n, "reads %zu bytes and leaves %zu", r->consumed, len - r->consumed);
        if (w->misread)
            say(out, cap, &n, ", but %zu real%s look%s misread (subnormal, NaN or huge)",
                w->misread, w->misread == 1 ? "" : "s", w->misread == 1 ? "s" : "");
        if (r->reencodes_same) say(out, cap, &n, "; its encoder writes exactly these bytes");
        else
            say(out, cap, &n, "; its encoder would write other bytes (strict: %s at byte %zu: %s)",
                gdw_status_name(r->strict_err.code), r->strict_err.offset, r->strict_err.message);
        return;
    }
    if (w->first) {
        say(out, cap, &n,
            w->reading == GDW_READING_CUT
                ? "reads the packet as %s does, and runs out at the same place"
                : "reads the packet as %s does",
            bname);
        return;
    }
    if (w->reading == GDW_READING_CUT) {
        say_cut(out, cap, &n, &r->err, same ? bname : NULL);
        return;
    }
    if (!same) {
        if (w->reading == GDW_READING_PREFIX)
            say(out, cap, &n, "reads %zu of %zu bytes, ", r->consumed, len);
        if (w->misread)
            say(out, cap, &n, "%zu real%s look%s misread, ", w->misread, w->misread == 1 ? "" : "s",
                w->misread == 1 ? "s" : "");
        if (b->reading == GDW_READING_CUT) {
            say(out, cap, &n, "a value where %s reads a cut one", bname);
            return;
        }
        for (size_t k = 0; k < seen->n; k++) {
            const char *tb = type_named(b->result.dialect, seen->id[k]),
                       *tx = type_named(r->dialect, seen->id[k]);
            if (tb && tx && strcmp(tb, tx) != 0) {
                say(out, cap, &n, "a different value: type id %u is %s here, %s in %s", seen->id[k],
                    tx, tb, bname);
                return;
            }
        }
        say(out, cap, &n,
            "a different value from the same type ids (other field widths or flags than %s)",
            bname);
        return;
    }
    if (w->reading == GDW_READING_PREFIX)
        say(out, cap, &n, "same value as %s, but leaves %zu trailing bytes", bname,
            len - r->consumed);
    else if (!r->reencodes_same)
        say(out, cap, &n,
            "same value as %s, but its encoder would write other bytes: strict says %s", bname,
            r->strict_err.message);
    else if (r->engine_exact && gdw_dialect_documented_only(r->dialect))
        say(out, cap, &n,
            "same value as %s; this row is documentation only, no engine release writes it", bname);
    else
        say(out, cap, &n, "same value as %s; not accepted by the engine as it is (engine-exact)",
            bname);
}

size_t gdw_check_rank_rows(gdw_check_row *rows, size_t n, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts, bool reasons) {
    if (!rows || n == 0) return 0;
    int64_t local[32], *score = n <= 32 ? local : (int64_t *)malloc(n * sizeof *score);
    if (!score) return 0;
    gdw_check_result done; /* a cut reading completed (complete_cut) */
    /* a row reads every byte: it ranks above every cut reading, which then need no completion */
    bool whole = false;
    for (size_t i = 0; i < n; i++)
        whole = whole || gdw_check_reading(&rows[i].result, len) == GDW_READING_WHOLE;
    for (size_t i = 0; i < n; i++) {
        gdw_check_row *w = &rows[i];
        w->reading = gdw_check_reading(&w->result, len);
        if (w->result.status == GDW_OK) {
            if (w->misread == SIZE_MAX)
                w->misread = gdw_value_misread_reals(gdw_doc_root(w->result.doc));
            score[i] = score_of(&w->result, w->reading, w->misread);
        } else if (w->reading == GDW_READING_CUT && !whole &&
                   complete_cut(&w->result, buf, len, opts, &done, &w->misread)) {
            gdw_check_result marks = w->result;
            marks.reencodes_same = done.reencodes_same;
            score[i] = score_of(&marks, w->reading, w->misread);
        } else {
            w->misread = 0;
            score[i] = score_of(&w->result, w->reading, 0);
        }
    }
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (score[i] > score[best] ||
            (score[i] == score[best] &&
             released_after(rows[i].result.dialect, rows[best].result.dialect)))
            best = i;
    const gdw_check_row *b = &rows[best];
    bool best_reads = b->reading != GDW_READING_REJECTED;
    /* what the best row's walk read, where a cut row is compared with it */
    walk_read best_walk = {{0, 0, 0}, false};
    for (size_t i = 0; i < n; i++) {
        int better = 0;
        for (size_t k = 0; k < n; k++) better += score[k] > score[i];
        rows[i].rank = better + 1;
        rows[i].first = i == best || (best_reads && score[i] == score[best] &&
                                      same_reading(b, &rows[i], buf, len, opts, &best_walk));
    }
    if (reasons) {
        type_ids seen = {{0}, 0};
        if (best_reads) best_type_ids(b, buf, len, opts, &seen);
        for (size_t i = 0; i < n; i++) {
            gdw_check_row *w = &rows[i];
            bool same = i == best || w->first ||
                        (best_reads && w->reading != GDW_READING_REJECTED &&
                         same_reading(b, w, buf, len, opts, &best_walk));
            reason_of(w, b, same, &seen, buf, len);
        }
    }
    if (score != local) free(score);
    return best;
}

/* ---- bytes in front: a framing, an opcode ---------------------------------------------------- */

/* The most bytes in front of a value that a check looks past. */
#define SKIP_MAX 8u

/* buf starts with the 4-byte length prefix of put_var, store_var and PacketPeerStream for the rest
 * of it. */
static bool length_prefixed(const uint8_t *buf, size_t len) {
    if (len < 4) return false;
    uint32_t n = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 |
                 (uint32_t)buf[3] << 24;
    return (size_t)n == len - 4;
}

size_t gdw_check_framing_text(const uint8_t *buf, size_t len, size_t skip, char *out, size_t cap) {
    size_t n = 0;
    if (!out || cap == 0) return 0;
    out[0] = 0;
    if (skip == 0 || !buf) return 0;
    if (skip == 4 && length_prefixed(buf, len))
        say(out, cap, &n, "a 4-byte length prefix (put_var's, store_var's)");
    else say(out, cap, &n, "%zu byte%s in front", skip, skip == 1 ? "" : "s");
    return n;
}

size_t gdw_check_find_skip(const gdw_check_result *at0, size_t n, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts) {
    if (!at0 || !buf || n == 0 || n > 64) return 0;
    for (size_t i = 0; i < n; i++) /* the bytes are a value whole */
        if (gdw_check_reading(&at0[i], len) == GDW_READING_WHOLE) return 0;
    /* Bytes in front are looked past even where a row reads the packet as a cut one: on the
     * engines' packets that names the writer more often (check_family_test: 85.1 % of prefixed
     * packets against 82.1 %, and cut ones alike). */
    bool prefixed = length_prefixed(buf, len);
    gdw_check_result r[64];
    size_t found = 0;
    for (size_t k = 1; k <= SKIP_MAX && k + 4 <= len && !found; k++) {
        if (k != 4 && prefixed) continue; /* a length prefix says where the value starts */
        gdw_check(buf + k, len - k, opts, NULL, false, r, n);
        for (size_t i = 0; i < n && !found; i++)
            if (gdw_check_reading(&r[i], len - k) == GDW_READING_WHOLE) found = k;
    }
    return found;
}

/* ---- the sentence ---------------------------------------------------------------------------- */

size_t gdw_check_summary(const gdw_check_row *rows, size_t n, size_t best, const uint8_t *buf,
                         size_t len, size_t skip, char *out, size_t cap) {
    size_t k = 0;
    if (!out || cap == 0) return 0;
    out[0] = 0;
    if (!rows || best >= n || skip > len) return 0;
    const gdw_check_row *b = &rows[best];
    const char *name = gdw_dialect_name(b->result.dialect);
    size_t body = len - skip;
    if (b->reading == GDW_READING_REJECTED) {
        say(out, cap, &k, "No dialect reads this packet; %s reads furthest (to byte %zu).", name,
            b->result.err.offset + skip);
        return k;
    }
    say(out, cap, &k, "Most likely: ");
    if (skip) {
        char framing[80];
        gdw_check_framing_text(buf, len, skip, framing, sizeof framing);
        unsigned id = buf ? buf[skip] : 0;
        const char *type = type_named(b->result.dialect, id);
        say(out, cap, &k, "%s, then a%s %s %s", framing,
            b->reading == GDW_READING_CUT ? " cut" : "", name, type ? type : "value");
    } else if (b->reading == GDW_READING_CUT) {
        say(out, cap, &k, "a cut %s packet", name);
    } else {
        say(out, cap, &k, "%s", name);
    }
    int also = 0;
    for (size_t i = 0; i < n; i++)
        if (i != best && rows[i].first)
            say(out, cap, &k, "%s%s",
                also++ ? ", " : " (equally: ", gdw_dialect_name(rows[i].result.dialect));
    if (also) say(out, cap, &k, "; they read it alike, so the newest engine release is named)");
    if (b->reading == GDW_READING_CUT) {
        const gdw_error *e = &b->result.err;
        say(out, cap, &k, ": the value needs at least %zu more byte%s (%s at byte %zu%s%s)",
            e->short_by, e->short_by == 1 ? "" : "s", e->message, e->offset + skip,
            e->path[0] ? " in " : "", e->path);
    } else if (b->reading == GDW_READING_PREFIX) {
        say(out, cap, &k, ", reading the first %zu of %zu bytes and leaving %zu",
            b->result.consumed, body, body - b->result.consumed);
    }
    int tied = 0;
    for (size_t i = 0; i < n; i++)
        if (!rows[i].first && rows[i].rank == b->rank && rows[i].reading != GDW_READING_REJECTED)
            say(out, cap, &k, "%s%s",
                tied++ ? ", " : "; as likely by these bytes alone, but reading something else: ",
                gdw_dialect_name(rows[i].result.dialect));
    say(out, cap, &k, ".");
    return k;
}

/* ---- what to pass to the engine -------------------------------------------------------------- */

/* "bytes_to_var(bytes)", "bytes2var(bytes.subarray(4, -1), true)": the script call of s that reads
 * the value after the first skip bytes; where s has no confirmed expression for the tail, a
 * placeholder says what to pass: "bytes2var(<the bytes after the first 4>)". */
static void say_call(char *out, size_t cap, size_t *k, const gdw_script_facts *s, size_t skip,
                     bool objects) {
    bool o = objects && s->objects_open;
    say(out, cap, k, "%s", o ? s->objects_open : s->decode_open);
    if (!skip) say(out, cap, k, "bytes");
    else if (s->tail_open) say(out, cap, k, "%s%zu%s", s->tail_open, skip, s->tail_close);
    else say(out, cap, k, "<the bytes after the first %zu>", skip);
    say(out, cap, k, "%s", o ? s->objects_close : s->decode_close);
}

/* The other script calls that read the value as the best does: those of the engines of the rows as
 * likely ("equally") whose call differs, as " (in Godot 3, Pandemonium: bytes2var(bytes))". */
static void say_other_calls(char *out, size_t cap, size_t *k, const gdw_check_row *rows, size_t n,
                            size_t best, size_t skip, bool objects) {
    enum { KINDS = 4, WHO = 6 };
    char mine[128], other[KINDS][128];
    const char *who[KINDS][WHO];
    size_t m = 0, kinds = 0, whos[KINDS] = {0};
    say_call(mine, sizeof mine, &m, rows[best].result.dialect->script, skip, objects);
    for (size_t i = 0; i < n; i++) {
        const gdw_dialect *d = rows[i].result.dialect;
        if (i == best || !rows[i].first || !d || !d->script) continue;
        char call[128];
        size_t c = 0, j, w;
        say_call(call, sizeof call, &c, d->script, skip, objects);
        if (!strcmp(call, mine)) continue;
        for (j = 0; j < kinds && strcmp(other[j], call); j++) {}
        if (j == kinds) {
            if (kinds == KINDS) continue;
            memcpy(other[kinds++], call, sizeof call);
        }
        for (w = 0; w < whos[j] && strcmp(who[j][w], d->script->who); w++) {}
        if (w == whos[j] && w < WHO) who[j][whos[j]++] = d->script->who;
    }
    for (size_t j = 0; j < kinds; j++) {
        say(out, cap, k, "%s", j ? "; " : " (in ");
        for (size_t w = 0; w < whos[j]; w++) say(out, cap, k, "%s%s", w ? ", " : "", who[j][w]);
        say(out, cap, k, ": %s", other[j]);
    }
    if (kinds) say(out, cap, k, ")");
}

size_t gdw_check_script_text(const gdw_check_row *rows, size_t n, size_t best, const uint8_t *buf,
                             size_t len, size_t skip, bool allow_objects, char *out, size_t cap) {
    size_t k = 0;
    if (!out || cap == 0) return 0;
    out[0] = 0;
    if (!rows || best >= n || skip > len || !rows[best].result.dialect ||
        !rows[best].result.dialect->script)
        return 0;
    const gdw_check_row *b = &rows[best];
    const gdw_script_facts *s = b->result.dialect->script;
    const char *get_var = allow_objects && s->objects_open ? "get_var(true)" : "get_var()";
    if (b->reading == GDW_READING_REJECTED) return 0;
    size_t body = len - skip, left = b->result.consumed <= body ? body - b->result.consumed : 0;
    bool framed = skip == 4 && buf && length_prefixed(buf, len) && b->reading != GDW_READING_CUT;
    if (framed)
        say(out, cap, &k,
            "StreamPeer.%s or the file's %s reads it as put_var or store_var wrote it (the length, "
            "then the value); from a byte "
            "array, ",
            get_var, get_var);
    say_call(out, cap, &k, s, skip, allow_objects);
    say_other_calls(out, cap, &k, rows, n, best, skip, allow_objects);
    if (b->reading == GDW_READING_CUT)
        say(out, cap, &k,
            " fails on these bytes: the value needs at least %zu more. Read the whole packet first "
            "(where the sender uses "
            "put_var, StreamPeer.%s waits for all the bytes its length gives).",
            b->result.err.short_by, get_var);
    else if (b->reading == GDW_READING_PREFIX)
        say(out, cap, &k, " reads the value in the first %zu bytes and ignores the other %zu.",
            b->result.consumed, left);
    else if (skip && !framed)
        say(out, cap, &k, " reads it, past the %zu byte%s in front.", skip, skip == 1 ? "" : "s");
    else say(out, cap, &k, framed ? "." : " reads it.");
    return k;
}

/* ---- the whole answer ------------------------------------------------------------------------ */

static void *report_malloc(const gdw_allocator *a, size_t size) {
    return a && a->malloc_fn ? a->malloc_fn(a->ctx, size) : malloc(size);
}
static void report_release(const gdw_allocator *a, void *p, size_t size) {
    if (a && a->free_fn) a->free_fn(a->ctx, p, size);
    else free(p);
}

gdw_check_report *gdw_check_report_make(const uint8_t *buf, size_t len,
                                        const gdw_decode_options *opts,
                                        const gdw_allocator *alloc) {
    size_t n = gdw_dialect_count();
    if (!buf && len) return NULL;
    static const uint8_t none[1] = {0};
    if (!buf) buf = none;
    size_t size = sizeof(gdw_check_report) + n * sizeof(gdw_check_row) +
                  n * sizeof(gdw_check_result) + sizeof(gdw_allocator);
    gdw_check_report *rep = (gdw_check_report *)report_malloc(alloc, size);
    if (!rep) return NULL;
    memset(rep, 0, size);
    rep->rows = (gdw_check_row *)(rep + 1);
    gdw_check_result *res = (gdw_check_result *)(rep->rows + n);
    gdw_allocator *kept = (gdw_allocator *)(res + n);
    if (alloc) *kept = *alloc;
    rep->alloc_ = alloc ? kept : NULL;
    rep->n = n;
    rep->len = len;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    o.trace = NULL;
    o.events = NULL;
    o.borrow_input = false; /* the report outlives the caller's buffer */
    gdw_check(buf, len, &o, alloc, true, res, n);
    rep->skip = gdw_check_find_skip(res, n, buf, len, &o);
    if (rep->skip) {
        for (size_t i = 0; i < n; i++) gdw_doc_free(res[i].doc);
        gdw_check(buf + rep->skip, len - rep->skip, &o, alloc, true, res, n);
    }
    for (size_t i = 0; i < n; i++) {
        gdw_check_row *w = &rep->rows[i];
        w->result = res[i];
        w->meaning = -1;
        w->misread = SIZE_MAX;
        rep->accepted += res[i].status == GDW_OK;
    }
    rep->best = gdw_check_rank_rows(rep->rows, n, buf + rep->skip, len - rep->skip, &o, true);
    gdw_check_summary(rep->rows, n, rep->best, buf, len, rep->skip, rep->summary,
                      sizeof rep->summary);
    gdw_check_script_text(rep->rows, n, rep->best, buf, len, rep->skip, o.allow_objects,
                          rep->script, sizeof rep->script);
    return rep;
}

void gdw_check_report_free(gdw_check_report *rep) {
    if (!rep) return;
    for (size_t i = 0; i < rep->n; i++) gdw_doc_free(rep->rows[i].result.doc);
    size_t size = sizeof(gdw_check_report) + rep->n * sizeof(gdw_check_row) +
                  rep->n * sizeof(gdw_check_result) + sizeof(gdw_allocator);
    report_release(rep->alloc_, rep, size);
}

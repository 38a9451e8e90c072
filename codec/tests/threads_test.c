/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
/* threads_test — gdwire.h promises that every call is thread-safe on distinct documents (issue
 * 32). Eight threads at once read texts and JSON, encode them in every dialect, decode the bytes
 * in each mode, check them against every dialect and print the trees, over and over; each result
 * must equal the one a single thread got first. Half the threads read numbers under a
 * thread-local locale whose decimal point is ',' (uselocale, where the C library has such a
 * locale; codec/tests/locale_test.sh makes de_DE.UTF-8 and names it), which must not change a
 * thing. `bazel test --config=tsan //codec:threads_test` runs it
 * under ThreadSanitizer (.ci/run does), which reports any data race: a libc call that touches the
 * global locale, such as localeconv, is one. */
#include <locale.h>
#include <pthread.h>

#include "codec/tests/testing.h"

#define THREADS 8
#define ROUNDS 40

static const char *k_texts[] = {
    "0.5",
    "f64:0.1",
    "-2.25e-07",
    "f32:3.4028235e+38",
    "[1.5, -0.0, 1e+16, 123456.75]",
    "Vector2(1.5, -2.0)",
    "f64:Transform2D(0.1, 0.2, 0.3, 0.4, 0.5, 0.6)",
    "PackedFloat64Array(0.1, 1e+300, 2.5e-300)",
    ("{\"pos\": Color(0.25, 0.5, 0.75, 1.0), \"speed\": f64:3.3333333333333335, 7: [true, null, "
     "\"k\"]}"), /* one string */
    "Array[int]([1, 2, 3])",
    "{1: \"a\", 1.0: \"b\", \"x\": NodePath([\"root\", \"a\"], [\"b\"], 1)}",
    "Array[Transform3D]([Quaternion(0.0, 0.0, 0.0, 1.0)])",
    "PackedStringArray(\"a\", \"\\xc3\\xa9\", \"#ff0000\")",
    "Array[Color]([\"red\", 7])",
};
#define N_TEXTS (sizeof k_texts / sizeof k_texts[0])
#define MAX_DIALECTS 64

/* What one thread makes of text i: its printed forms and, per dialect and mode, the verdict and
 * the decoded tree's text; and how many dialects accept its godot4 bytes. */
typedef struct outcome {
    char *text, *json;
    char *decoded[MAX_DIALECTS][3];
    gdw_status status[MAX_DIALECTS][3];
    size_t accepted;
} outcome;

static void outcome_free(outcome *o) {
    free(o->text);
    free(o->json);
    for (size_t d = 0; d < MAX_DIALECTS; d++)
        for (int m = 0; m < 3; m++) free(o->decoded[d][m]);
    memset(o, 0, sizeof *o);
}

static void work(size_t i, outcome *o) {
    memset(o, 0, sizeof *o);
    gdw_doc *doc = NULL;
    if (gdw_text_parse(k_texts[i], strlen(k_texts[i]), NULL, &doc, NULL)) return;
    o->text = gdw_text_print_alloc(gdw_doc_root(doc), NULL, NULL);
    o->json = gdw_json_print_alloc(gdw_doc_root(doc), NULL, NULL);
    gdw_doc *back = NULL;
    if (o->json && gdw_json_parse(o->json, strlen(o->json), NULL, &back, NULL) == GDW_OK &&
        !gdw_value_equal(gdw_doc_root(back), gdw_doc_root(doc))) {
        free(o->json);
        o->json = NULL; /* the JSON form does not read back: no result equals this */
    }
    gdw_doc_free(back);
    size_t nd = gdw_dialect_count() < MAX_DIALECTS ? gdw_dialect_count() : MAX_DIALECTS;
    for (size_t d = 0; d < nd; d++) {
        uint8_t *bytes = NULL;
        size_t len = 0;
        gdw_encode_options eo = gdw_encode_options_default();
        eo.lossy = true;
        if (gdw_encode_alloc(gdw_dialect_at(d), gdw_doc_root(doc), &eo, NULL, &bytes, &len, NULL))
            continue;
        for (int m = 0; m < 3; m++) {
            gdw_decode_options opt = gdw_decode_options_default();
            opt.mode = (gdw_mode)m;
            gdw_doc *got = NULL;
            o->status[d][m] = gdw_decode(gdw_dialect_at(d), bytes, len, &opt, NULL, &got, NULL,
                                         NULL);
            if (got) o->decoded[d][m] = gdw_text_print_alloc(gdw_doc_root(got), NULL, NULL);
            gdw_doc_free(got);
        }
        if (strcmp(gdw_dialect_name(gdw_dialect_at(d)), "godot4") == 0) {
            gdw_check_result res[MAX_DIALECTS];
            if (gdw_dialect_count() <= MAX_DIALECTS) {
                gdw_check(bytes, len, NULL, NULL, false, res, MAX_DIALECTS);
                o->accepted = 0;
                for (size_t k = 0; k < gdw_dialect_count(); k++)
                    o->accepted += res[k].status == GDW_OK;
            }
        }
        free(bytes);
    }
    gdw_doc_free(doc);
}

static int same_str(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_outcome(const outcome *a, const outcome *b) {
    if (!same_str(a->text, b->text) || !same_str(a->json, b->json) || a->accepted != b->accepted)
        return 0;
    for (size_t d = 0; d < MAX_DIALECTS; d++)
        for (int m = 0; m < 3; m++)
            if (a->status[d][m] != b->status[d][m] || !same_str(a->decoded[d][m], b->decoded[d][m]))
                return 0;
    return 1;
}

static outcome g_reference[N_TEXTS];
static locale_t g_comma_locale; /* (locale_t)0 when the C library has none */

typedef struct thread_job {
    int index;
    size_t mismatches, rounds;
    const char *first_bad;
} thread_job;

static void *thread_main(void *arg) {
    thread_job *j = (thread_job *)arg;
    if (j->index % 2 && g_comma_locale) uselocale(g_comma_locale);
    for (int r = 0; r < ROUNDS; r++) {
        for (size_t k = 0; k < N_TEXTS; k++) {
            size_t i = (k + (size_t)j->index) % N_TEXTS; /* threads start on different texts */
            outcome o;
            work(i, &o);
            if (!same_outcome(&o, &g_reference[i])) {
                if (!j->mismatches) j->first_bad = k_texts[i];
                j->mismatches++;
            }
            outcome_free(&o);
        }
        j->rounds++;
    }
    if (j->index % 2 && g_comma_locale) uselocale(LC_GLOBAL_LOCALE);
    return NULL;
}

int main(int argc, char **argv) {
    CHECK(gdw_dialect_count() <= MAX_DIALECTS, "%zu dialects, the test has room for %d",
          gdw_dialect_count(), MAX_DIALECTS);
    for (size_t i = 0; i < N_TEXTS; i++) {
        work(i, &g_reference[i]);
        CHECK(g_reference[i].text != NULL, "%s does not parse and print", k_texts[i]);
        CHECK(g_reference[i].json != NULL, "%s: the JSON form does not read back", k_texts[i]);
    }
    const char *comma[] = {argc > 1 ? argv[1] : "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8"};
    for (size_t i = 0; i < sizeof comma / sizeof comma[0] && !g_comma_locale; i++) {
        locale_t l = newlocale(LC_ALL_MASK, comma[i], (locale_t)0);
        if (!l) continue;
        locale_t old = uselocale(l);
        int is_comma = strcmp(localeconv()->decimal_point, ",") == 0; /* this thread's own locale */
        uselocale(old);
        if (is_comma) g_comma_locale = l;
        else freelocale(l);
    }
    CHECK(argc < 2 || g_comma_locale, "cannot make the locale %s with ',' as its decimal point",
          argv[1]);
    printf("threads_test: %d threads x %d rounds x %zu texts x %zu dialects x 3 modes; %s\n",
           THREADS, ROUNDS, N_TEXTS, gdw_dialect_count(),
           g_comma_locale ? "odd threads under a ',' locale"
                          : "no ',' locale here: every thread in C");
    pthread_t th[THREADS];
    thread_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (thread_job){t, 0, 0, NULL};
        CHECK(pthread_create(&th[t], NULL, thread_main, &jobs[t]) == 0, "pthread_create %d", t);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK(jobs[t].rounds == ROUNDS, "thread %d ran %zu rounds of %d", t, jobs[t].rounds,
              ROUNDS);
        CHECK(jobs[t].mismatches == 0,
              "thread %d: %zu results differ from the single thread's; the first: %s", t,
              jobs[t].mismatches, jobs[t].first_bad ? jobs[t].first_bad : "");
    }
    for (size_t i = 0; i < N_TEXTS; i++) outcome_free(&g_reference[i]);
    if (g_comma_locale) freelocale(g_comma_locale);
    return t_finish();
}

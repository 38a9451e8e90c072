/* SPDX-License-Identifier: MIT */
/* runner.c — `bazel test //conformance`: run every vector in every dialect and mode, print
 * failures as expected-vs-got diffs and a dialect x passed/failed table ending with the line
 * "N passed, N failed". Also the two halves of the Godot 3 engine cross-check (oracle.c).
 *
 *   runner [--deviations FILE] [--evidence DIR] [--root DIR] PATH...   run the suite; with the
 *                                                            recorded engine evidence of DIR
 *   runner --oracle D --testee-results F --engine E --engine-version V --write-evidence OUT PATH...
 *                                                            keep a live engine's answers as evidence
 *   runner --export DIALECT [--root DIR] PATH...             packets for the engine (oracle.c): every vector an
 *                                                            engine can judge, the same whatever row DIALECT names
 *   runner --oracle DIALECT --testee-results FILE [--mode M] [--compare-errors] ...
 *                                                            compare a testee's answers (oracle.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/oracle.h"
#include "conformance/vectors.h"

static void usage(void) {
    fputs("usage: runner [--deviations FILE] [--evidence DIR] [--root DIR] [--verbose] PATH...\n"
          "       runner --export DIALECT [--root DIR] PATH...\n"
          "       runner --dialects   (every dialect and release row, one a line)\n"
          "       runner --oracle DIALECT --testee-results FILE [--mode M] [--compare-errors] [--engine NAME] [--deviations FILE] [--root DIR] PATH...\n"
          "       runner --oracle DIALECT --testee-results FILE --engine NAME --engine-version V --write-evidence OUT [--mode M] PATH...\n",
          stderr);
    exit(2);
}

/* The families the suite reports vector counts for: every distinct `family` of the dialect table
 * (the family of the dialect a vector was made for), in table order, so a new family is counted
 * (and held to MIN_PER_FAMILY) without a second list. Labelled as the dialect patterns that
 * select them: "godot3*" where the family has several dialects. */
#define MAX_FAMILIES 16
#define MIN_PER_FAMILY 100
static const char *g_families[MAX_FAMILIES];
static char g_family_labels[MAX_FAMILIES][40];
static int g_nfamilies;

static void load_families(void) {
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const char *fam = gdw_dialect_family(gdw_dialect_at(i));
        int f = 0, members = 0;
        while (f < g_nfamilies && strcmp(g_families[f], fam)) f++;
        if (f == g_nfamilies) {
            if (g_nfamilies == MAX_FAMILIES) { fprintf(stderr, "runner: more than %d families\n", MAX_FAMILIES); exit(2); }
            g_families[g_nfamilies++] = fam;
        }
        for (size_t j = 0; j < gdw_dialect_count(); j++) members += !strcmp(gdw_dialect_family(gdw_dialect_at(j)), fam);
        snprintf(g_family_labels[f], sizeof g_family_labels[f], "%s%s", fam, members > 1 ? "*" : "");
    }
}

static int family_of(const gdw_dialect *d) {
    for (int f = 0; f < g_nfamilies; f++)
        if (!strcmp(gdw_dialect_family(d), g_families[f])) return f;
    return -1;
}

static void print_diff(const cf_vector *v, const gdw_dialect *d, gdw_mode m, const cf_outcome *want, const cf_outcome *got) {
    cf_buf a = {0}, b = {0};
    cf_outcome_format(&a, want, v->bytes, v->len);
    cf_outcome_format(&b, got, v->bytes, v->len);
    printf("FAIL %s:%d %s  [%s, %s]\n", v->file, v->line, v->name, gdw_dialect_name(d), gdw_mode_name(m));
    printf("  - expected %.600s%s\n  + got      %.600s%s\n", a.p, a.n > 600 ? "..." : "", b.p, b.n > 600 ? "..." : "");
    cf_buf_free(&a);
    cf_buf_free(&b);
}

/* Mark every type inside v (containers, object properties) as seen. */
static void mark_types(const gdw_value *v, bool seen[GDW_TYPE_COUNT], int depth) {
    if (v->type < GDW_TYPE_COUNT) seen[v->type] = true;
    if (depth > 64) return;
    const gdw_value *items = gdw_items(v);
    if (items) {
        size_t n = v->type == GDW_DICTIONARY ? 2 * (size_t)v->len : v->len;
        for (size_t i = 0; i < n; i++) mark_types(&items[i], seen, depth + 1);
    }
}

/* gdw_doc_engine_same's claim about a tree decoded in compatible or strict mode: engine-exact mode
 * accepts the bytes, reads as many, and holds the same tree, bit for bit (its exact text). */
static bool engine_same_holds(const gdw_dialect *d, const cf_vector *v, const cf_outcome *got) {
    cf_outcome exact;
    cf_run(d, GDW_MODE_ENGINE_EXACT, v->bytes, v->len, &v->opt, &exact);
    bool same = exact.status == GDW_OK && exact.consumed == got->consumed;
    if (same) {
        char *a = gdw_text_print_alloc(gdw_doc_root(got->doc), NULL, NULL), *b = gdw_text_print_alloc(gdw_doc_root(exact.doc), NULL, NULL);
        same = a && b && strcmp(a, b) == 0;
        free(a);
        free(b);
    }
    cf_outcome_free(&exact);
    return same;
}

static int run_suite(cf_suite *s, const char *evidence_dir) {
    size_t nd = gdw_row_count();
    long passed[CF_MAX_DIALECTS] = {0}, failed[CF_MAX_DIALECTS] = {0}, excused[CF_MAX_DIALECTS] = {0};
    long vectors_with[CF_MAX_DIALECTS] = {0};
    bool seen_type[CF_MAX_DIALECTS][GDW_TYPE_COUNT];
    bool seen_code[600] = {0};
    long family_count[MAX_FAMILIES] = {0};
    load_families();
    long validate_disagreements = 0;
    long engine_same_claims = 0, engine_same_wrong = 0;
    memset(seen_type, 0, sizeof seen_type);

    for (size_t k = 0; k < s->n; k++) {
        cf_vector *v = &s->v[k];
        int fam = family_of(v->from);
        if (fam >= 0) family_count[fam]++;
        for (size_t i = 0; i < nd; i++) {
            const gdw_dialect *d = gdw_row_at(i);
            vectors_with[i]++;
            for (int m = 0; m < CF_MODES; m++) {
                const cf_outcome *want = &v->expect[i][m];
                cf_outcome got;
                cf_run(d, (gdw_mode)m, v->bytes, v->len, &v->opt, &got);
                if (want->status != GDW_OK) seen_code[want->status] = true;
                if (!got.validate_agrees) {
                    validate_disagreements++;
                    printf("FAIL %s:%d %s  [%s, %s]: gdw_validate and gdw_decode disagree\n", v->file, v->line, v->name,
                           gdw_dialect_name(d), gdw_mode_name((gdw_mode)m));
                }
                bool ok = cf_outcome_equal(want, &got) && got.validate_agrees;
                cf_deviation *dev = cf_find_deviation(s, v->id, d, m, false, NULL);
                if (ok && got.status == GDW_OK && m == GDW_MODE_COMPATIBLE) mark_types(gdw_doc_root(got.doc), seen_type[i], 0);
                if (got.status == GDW_OK && m != GDW_MODE_ENGINE_EXACT && gdw_doc_engine_same(got.doc)) {
                    engine_same_claims++;
                    if (!engine_same_holds(d, v, &got)) {
                        engine_same_wrong++;
                        printf("FAIL %s:%d %s  [%s, %s]: gdw_doc_engine_same says the engine holds this tree, engine-exact mode holds another\n",
                               v->file, v->line, v->name, gdw_dialect_name(d), gdw_mode_name((gdw_mode)m));
                    }
                }
                if (ok && !dev) passed[i]++;
                else if (!ok && dev) { excused[i]++; dev->used++; }
                else if (ok && dev) {
                    failed[i]++;
                    printf("STALE deviation %s:%d: %s [%s, %s] now passes; remove the entry\n", "deviations.yaml", dev->line, v->id,
                           gdw_dialect_name(d), gdw_mode_name((gdw_mode)m));
                } else {
                    failed[i]++;
                    print_diff(v, d, (gdw_mode)m, want, &got);
                }
                cf_outcome_free(&got);
            }
        }
    }

    /* the suite itself must be complete */
    long suite_problems = 0;
    for (size_t i = 0; i < nd; i++) {
        const gdw_dialect *d = gdw_row_at(i);
        if (!vectors_with[i]) { printf("FAIL dialect %s has no vectors at all\n", gdw_dialect_name(d)); suite_problems++; }
        for (unsigned id = 0; id < gdw_dialect_type_count(d); id++) {
            int t = gdw_dialect_wire_type(d, id);
            if (t >= 0 && !seen_type[i][t]) {
                printf("FAIL dialect %s: no vector is accepted with a value of type %s (id %u)\n", gdw_dialect_name(d),
                       gdw_type_name((gdw_type)t), id);
                suite_problems++;
            }
        }
    }
    for (int code = 100; code < 400; code++) {
        if (!strcmp(gdw_status_name((gdw_status)code), "UNKNOWN")) continue;
        if (!seen_code[code]) { printf("FAIL no vector expects the decode error %s\n", gdw_status_name((gdw_status)code)); suite_problems++; }
    }
    for (int f = 0; f < g_nfamilies; f++)
        if (family_count[f] < MIN_PER_FAMILY) {
            printf("FAIL family %s: %ld vectors made for it, want at least %d\n", g_family_labels[f], family_count[f], MIN_PER_FAMILY);
            suite_problems++;
        }
    for (size_t i = 0; i < s->ndev; i++)
        if (!s->dev[i].against_engine && !s->dev[i].used) {
            printf("STALE deviation line %d: %s [%s] excuses nothing; remove the entry\n", s->dev[i].line, s->dev[i].vector,
                   gdw_dialect_name(s->dev[i].dialect));
            suite_problems++;
        }

    /* gdw_doc_engine_same: every claim checked above; a suite where it never claims would test nothing */
    if (!engine_same_claims) { printf("FAIL gdw_doc_engine_same never claims the engine holds a tree\n"); suite_problems++; }
    suite_problems += engine_same_wrong;
    printf("gdw_doc_engine_same: %ld trees claimed to be the engine's, checked against engine-exact mode: %ld wrong\n",
           engine_same_claims, engine_same_wrong);
    printf("\n%zu vectors; made for: ", s->n);
    for (int f = 0; f < g_nfamilies; f++) printf("%s%s %ld", f ? ", " : "", g_family_labels[f], family_count[f]);
    long evidence_problems = evidence_dir ? cf_evidence_load(s, evidence_dir) : 0;
    long ev[CF_MAX_DIALECTS][CF_EV_COUNT] = {{0}};
    for (size_t k = 0; k < s->n; k++)
        for (size_t i = 0; i < nd; i++) ev[i][s->v[k].evidence[i]]++;
    printf("\n\n%-20s %9s %9s %9s %9s   %9s %9s %9s %9s\n", "dialect", "vectors", "passed", "failed", "deviation", "engine", "fact",
           "source", "recorded");
    long tp = 0, tf = 0;
    for (size_t i = 0; i < nd; i++) {
        printf("%-20s %9ld %9ld %9ld %9ld   %9ld %9ld %9ld %9ld\n", gdw_dialect_name(gdw_row_at(i)), vectors_with[i], passed[i], failed[i],
               excused[i], ev[i][CF_EV_ENGINE], ev[i][CF_EV_FACT], ev[i][CF_EV_SOURCE], ev[i][CF_EV_RECORDED]);
        tp += passed[i] + excused[i];
        tf += failed[i];
    }
    tf += suite_problems + evidence_problems;
    printf("(each vector is checked in 3 modes; a deviation is a listed, expected difference. Evidence, per\n"
           " expectation: engine = a real engine's recorded answer agrees (conformance/evidence/); fact = the\n"
           " engine's own tests or docs; source = read from engine source, cited; recorded = taken from gdwire)\n");
    printf("%ld passed, %ld failed\n", tp, tf);
    return tf ? 1 : 0;
}

int main(int argc, char **argv) {
    const char *deviations = NULL, *root = NULL, *export_d = NULL, *oracle_d = NULL, *results = NULL, *evidence = NULL,
               *write_evidence = NULL, *engine_version = NULL;
    int mode = GDW_MODE_ENGINE_EXACT;
    const char *engine = NULL;
    bool compare_errors = false;
    const char *paths[256];
    int np = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (!strcmp(a, "--deviations") && has_next) deviations = argv[++i];
        else if (!strcmp(a, "--root") && has_next) root = argv[++i];
        else if (!strcmp(a, "--evidence") && has_next) evidence = argv[++i];
        else if (!strcmp(a, "--write-evidence") && has_next) write_evidence = argv[++i];
        else if (!strcmp(a, "--engine-version") && has_next) engine_version = argv[++i];
        else if (!strcmp(a, "--export") && has_next) export_d = argv[++i];
        else if (!strcmp(a, "--dialects")) {
            for (size_t k = 0; k < gdw_dialect_count(); k++) printf("%s\n", gdw_dialect_name(gdw_dialect_at(k)));
            for (size_t k = 0; k < gdw_release_count(); k++) printf("%s\n", gdw_dialect_name(gdw_release_at(k)));
            return 0;
        }
        else if (!strcmp(a, "--oracle") && has_next) oracle_d = argv[++i];
        else if (!strcmp(a, "--testee-results") && has_next) results = argv[++i];
        else if (!strcmp(a, "--mode") && has_next) {
            if ((mode = gdw_mode_from_name(argv[++i])) < 0) usage();
        } else if (!strcmp(a, "--compare-errors")) compare_errors = true;
        else if (!strcmp(a, "--engine") && has_next) engine = argv[++i];
        else if (a[0] == '-') usage();
        else if (np < 256) paths[np++] = a;
        else usage();
    }
    if (!np || (oracle_d && !results)) usage();
    cf_suite s = {0};
    for (int i = 0; i < np; i++) cf_load_path(&s, root ? root : paths[i], paths[i]);
    if (deviations) cf_load_deviations(&s, deviations);
    if (s.errors) {
        printf("%d problems in the vector files (above); nothing was run\n0 passed, %d failed\n", s.errors, s.errors);
        cf_suite_free(&s);
        return 1;
    }
    int rc;
    if (export_d) rc = cf_oracle_export(&s, export_d, stdout);
    else if (oracle_d && write_evidence) {
        if (!engine || !engine_version) usage();
        rc = cf_evidence_write(&s, oracle_d, mode, engine, engine_version, results, write_evidence);
    } else if (oracle_d) rc = cf_oracle_compare(&s, oracle_d, results, mode, compare_errors, engine);
    else rc = run_suite(&s, evidence);
    cf_suite_free(&s);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* oracle.c — export packets for a real engine and compare its verdicts with the vectors. */
#include "conformance/oracle.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


static bool engine_can_judge(const cf_vector *v) {
    return !v->opt.max_depth && !v->opt.max_size && !v->opt.heap_limit;
}

int cf_oracle_export(cf_suite *s, const char *dialect, FILE *out) {
    const gdw_dialect *d = gdw_dialect_find(dialect);
    if (!d) { fprintf(stderr, "unknown dialect %s\n", dialect); return 2; }
    for (size_t k = 0; k < s->n; k++) {
        const cf_vector *v = &s->v[k];
        if (!engine_can_judge(v)) continue;
        fprintf(out, "%s\t", v->id);
        for (size_t i = 0; i < v->len; i++) fprintf(out, "%02x", v->bytes[i]);
        fprintf(out, "\t%d\n", v->opt.objects ? 1 : 0);
    }
    return 0;
}

typedef struct answer {
    char *id, *verdict, *consumed, *hex, *errclass, *detail;
} answer;

static void describe(cf_buf *b, const answer *r) {
    if (!strcmp(r->verdict, "accepted")) cf_buf_printf(b, "accepted, consumed %s, re-encoding %s", r->consumed, r->hex);
    else if (!strcmp(r->verdict, "rejected")) cf_buf_printf(b, "rejected with %s", r->errclass);
    else cf_buf_printf(b, "%s", r->verdict);
    if (strcmp(r->detail, "-")) cf_buf_printf(b, " (%.200s)", r->detail);
}

/* The category of a vector: the first folder of its file below the suite root (its id). */
static void category_of(const cf_vector *v, char *out, size_t cap) {
    size_t n = strcspn(v->id, "/#");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v->id);
}

enum { COL_ASKED, COL_AGREE, COL_DEVIATION, COL_DIFFER, COL_HANG, COL_CRASH, COL_UNSUPPORTED, NCOL };
static const char *const col_name[NCOL] = {"asked", "agree", "deviation", "differ", "hang", "crash", "unsupported"};
#define MAX_CATEGORIES 16

typedef struct matrix {
    char name[MAX_CATEGORIES + 1][32];
    long n[MAX_CATEGORIES + 1][NCOL];
    int rows;
} matrix;

static long *row_for(matrix *m, const char *cat) {
    for (int i = 0; i < m->rows; i++)
        if (!strcmp(m->name[i], cat)) return m->n[i];
    int i = m->rows < MAX_CATEGORIES ? m->rows++ : MAX_CATEGORIES - 1;
    snprintf(m->name[i], sizeof m->name[i], "%s", cat);
    return m->n[i];
}

/* Why the answer differs from the expectation (empty: it agrees). */
static void compare_one(const gdw_dialect *d, const cf_vector *v, const cf_outcome *want, const answer *r, bool compare_errors,
                        cf_buf *why) {
    bool got_ok = !strcmp(r->verdict, "accepted"), want_ok = want->status == GDW_OK;
    if (got_ok != want_ok) { cf_buf_puts(why, "decision differs"); return; }
    if (!got_ok) {
        /* only where both name one: an engine's check without a message of its own (ERR_FAIL_INDEX)
         * does not print its Error */
        if (compare_errors && want->engine != GDW_ENGINE_NONE && strcmp(r->errclass, "-") &&
            strcmp(gdw_engine_error_name(want->engine), r->errclass))
            cf_buf_puts(why, "error class differs");
        return;
    }
    if (strcmp(r->consumed, "-") && strtoull(r->consumed, NULL, 10) != want->consumed) {
        cf_buf_printf(why, "consumed differs (gdwire %zu)", want->consumed);
        return;
    }
    if (v->opt.objects) return; /* an engine instantiates the class: only the decision is comparable */
    uint8_t *bytes = NULL;
    size_t n = 0, bad;
    if (!cf_unhex(strcmp(r->hex, "-") ? r->hex : "", &bytes, &n, &bad)) { cf_buf_puts(why, "re-encoding is not hex"); return; }
    if (want->encode_status != GDW_OK) {
        if (n) cf_buf_puts(why, "re-encoding differs (gdwire cannot re-encode)");
    }
    else if (n == want->encode_len && !memcmp(bytes, want->encode, n)) {
    } else {
        /* The testee's bytes must still decode (in gdwire) to the same value and re-encode to
         * the same canonical bytes: then they differ in padding only (Godot 3.2.3 leaves NodePath
         * padding uninitialised). */
        cf_outcome again;
        cf_options none = {0};
        cf_run(d, GDW_MODE_COMPATIBLE, bytes, n, &none, &again);
        bool padding_only = again.status == GDW_OK && again.consumed == n && gdw_value_equal(gdw_doc_root(again.doc), gdw_doc_root(want->doc)) &&
                            again.encode_len == want->encode_len && !memcmp(again.encode, want->encode, want->encode_len);
        if (!padding_only) cf_buf_puts(why, "re-encoding differs");
        cf_outcome_free(&again);
    }
    free(bytes);
}

/* What kind of answer differs from want (a deviation's engine-did): the engine died, accepted where
 * gdwire rejects, accepted with another value, or rejected where gdwire accepts. */
static const char *engine_did(const answer *r, const cf_outcome *want) {
    if (!strcmp(r->verdict, "crash") || !strcmp(r->verdict, "hang") || !strcmp(r->verdict, "bad-response") || !strcmp(r->errclass, "CRASH"))
        return "crash";
    if (!strcmp(r->verdict, "accepted")) return want->status != GDW_OK ? "accepted" : "other-value";
    return "rejected";
}

int cf_oracle_compare(cf_suite *s, const char *dialect, const char *results_path, int mode, bool compare_errors, const char *engine) {
    const gdw_dialect *d = gdw_dialect_find(dialect);
    if (!d) { fprintf(stderr, "unknown dialect %s\n", dialect); return 2; }
    int di = cf_row_index(d);
    FILE *f = fopen(results_path, "r");
    if (!f) { fprintf(stderr, "%s: cannot open\n", results_path); return 2; }
    bool *answered = calloc(s->n + 1, 1);
    matrix *m = calloc(1, sizeof *m);
    if (!answered || !m) return 2;
    long fail = 0;
    char *line = NULL;
    size_t cap = 0, next = 0;
    while (getline(&line, &cap, f) > 0) {
        char *fld[6];
        if (!cf_split_fields(line, fld, 6)) { printf("FAIL malformed answer line: %s\n", line); fail++; continue; }
        answer r = {fld[0], fld[1], fld[2], fld[3], fld[4], fld[5]};
        size_t k = next < s->n && !strcmp(s->v[next].id, r.id) ? next : s->n;
        for (size_t j = 0; k == s->n && j < s->n; j++) if (!strcmp(s->v[j].id, r.id)) k = j;
        if (k == s->n) { printf("FAIL an answer for an unknown vector %s\n", r.id); fail++; continue; }
        next = k + 1;
        answered[k] = true;
        const cf_vector *v = &s->v[k];
        char cat[32];
        category_of(v, cat, sizeof cat);
        long *row = row_for(m, cat);
        row[COL_ASKED]++;
        if (!strcmp(r.verdict, "unsupported")) { row[COL_UNSUPPORTED]++; continue; }
        const cf_outcome *want = &v->expect[di][mode];
        cf_buf why = {0};
        bool hang = !strcmp(r.verdict, "hang"), crash = !strcmp(r.verdict, "crash") || !strcmp(r.verdict, "bad-response") ||
                                                     !strcmp(r.errclass, "CRASH");
        if (hang || crash) cf_buf_puts(&why, hang ? "the testee hung" : "the testee crashed");
        else if (strcmp(r.verdict, "accepted") && strcmp(r.verdict, "rejected")) cf_buf_printf(&why, "unknown verdict %s", r.verdict);
        else compare_one(d, v, want, &r, compare_errors, &why);
        cf_deviation *dev = why.n ? cf_find_engine_deviation(s, v->id, d, mode, engine, engine_did(&r, want), want)
                                  : cf_find_deviation(s, v->id, d, mode, true, engine);
        if (!why.n) {
            row[COL_AGREE]++;
            if (dev) {
                printf("STALE deviation line %d: the testee now agrees on %s; remove the entry\n", dev->line, v->id);
                fail++;
            }
        } else if (dev) {
            row[COL_DEVIATION]++;
            dev->used++;
        } else {
            row[hang ? COL_HANG : crash ? COL_CRASH : COL_DIFFER]++;
            cf_buf want_s = {0}, got_s = {0};
            cf_outcome_format(&want_s, want, v->bytes, v->len);
            describe(&got_s, &r);
            printf("FAIL %s:%d %s  [%s, %s vs the testee]: %s\n  - gdwire %.300s%s\n  + testee %.400s\n", v->file, v->line, v->name,
                   dialect, gdw_mode_name((gdw_mode)mode), why.p, want_s.p, want_s.n > 300 ? "..." : "", got_s.p);
            cf_buf_free(&want_s);
            cf_buf_free(&got_s);
            fail++;
        }
        cf_buf_free(&why);
    }
    free(line);
    fclose(f);
    for (size_t k = 0; k < s->n; k++) {
        if (!engine_can_judge(&s->v[k])) continue;
        if (!answered[k]) { printf("FAIL no answer for %s\n", s->v[k].id); fail++; }
    }
    for (size_t i = 0; i < s->ndev; i++)
        if (cf_deviation_applies(&s->dev[i], d, mode, true, engine) && !s->dev[i].used) {
            printf("STALE deviation line %d: %s excuses nothing; remove the entry\n", s->dev[i].line, s->dev[i].vector);
            fail++;
        }
    free(answered);
    long total[NCOL] = {0};
    printf("\n%s, %s mode, against the testee:\n%-14s", dialect, gdw_mode_name((gdw_mode)mode), "category");
    for (int c = 0; c < NCOL; c++) printf(" %11s", col_name[c]);
    printf("\n");
    for (int i = 0; i <= m->rows; i++) {
        const long *row = i < m->rows ? m->n[i] : total;
        printf("%-14s", i < m->rows ? m->name[i] : "all");
        for (int c = 0; c < NCOL; c++) {
            printf(" %11ld", row[c]);
            if (i < m->rows) total[c] += row[c];
        }
        printf("\n");
    }
    long judged = total[COL_ASKED] - total[COL_UNSUPPORTED];
    printf("agreement: %.3f%% of %ld judged (%ld listed deviations)\n", judged ? 100.0 * total[COL_AGREE] / judged : 0.0, judged,
           total[COL_DEVIATION]);
    free(m);
    printf("%ld passed, %ld failed\n", total[COL_AGREE] + total[COL_DEVIATION], fail);
    return fail ? 1 : 0;
}

/* ---- recorded engine evidence (conformance/evidence/) ------------------------------------ */

uint64_t cf_packet_hash(const cf_vector *v) {
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 over the bytes, then the objects flag */
    for (size_t i = 0; i < v->len; i++) h = (h ^ v->bytes[i]) * 0x100000001b3ull;
    return (h ^ (v->opt.objects ? 1u : 0u)) * 0x100000001b3ull;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* One evidence file: its answers judged as the live oracle judges them. */
static long evidence_file(cf_suite *s, const char *path, long *n_engine, long *n_dev, matrix *m) {
    FILE *f = fopen(path, "r");
    if (!f) { printf("FAIL evidence %s: cannot open\n", path); return 1; }
    char *line = NULL;
    size_t cap = 0, next = 0;
    long fail = 0;
    char *hdr[5];
    const gdw_dialect *d = NULL;
    int mode = -1;
    if (getline(&line, &cap, f) <= 0 || !cf_split_fields(line, hdr, 5) || strcmp(hdr[0], "# gdwire-evidence/1") ||
        !(d = gdw_dialect_find(hdr[3])) || (mode = gdw_mode_from_name(hdr[4])) < 0) {
        printf("FAIL evidence %s: the first line must be \"# gdwire-evidence/1<TAB>engine<TAB>version<TAB>dialect<TAB>mode\"\n", path);
        free(line);
        fclose(f);
        return 1;
    }
    char engine[64], version[128];
    snprintf(engine, sizeof engine, "%s", hdr[1]);
    snprintf(version, sizeof version, "%s", hdr[2]);
    int di = cf_row_index(d);
    bool *answered = calloc(s->n + 1, 1);
    if (!answered) exit(2);
    while (getline(&line, &cap, f) > 0) {
        char *fld[7];
        if (!cf_split_fields(line, fld, 7)) { printf("FAIL evidence %s: malformed line %.80s\n", path, line); fail++; continue; }
        size_t k = next < s->n && !strcmp(s->v[next].id, fld[0]) ? next : s->n;
        for (size_t j = 0; k == s->n && j < s->n; j++) if (!strcmp(s->v[j].id, fld[0])) k = j;
        if (k == s->n) {
            printf("FAIL evidence %s: an answer for %s, which is no longer a vector: re-record (tools/engines/record-evidence %s)\n", path, fld[0], engine);
            fail++;
            continue;
        }
        next = k + 1;
        cf_vector *v = &s->v[k];
        char want_hash[17];
        snprintf(want_hash, sizeof want_hash, "%016llx", (unsigned long long)cf_packet_hash(v));
        if (strcmp(fld[1], want_hash)) {
            printf("FAIL evidence %s: %s has other bytes than when %s judged it: re-record (tools/engines/record-evidence %s)\n", path, v->id, engine, engine);
            fail++;
            continue;
        }
        answered[k] = true;
        answer r = {fld[0], fld[2], fld[3], fld[4], fld[5], fld[6]};
        cf_buf why = {0};
        if (strcmp(r.verdict, "accepted") && strcmp(r.verdict, "rejected")) cf_buf_printf(&why, "the engine's answer was %s", r.verdict);
        else compare_one(d, v, &v->expect[di][mode], &r, true, &why);
        char cat[32];
        category_of(v, cat, sizeof cat);
        long *row = row_for(m, cat);
        row[COL_ASKED]++;
        if (!why.n) {
            v->evidence[di] = CF_EV_ENGINE;
            (*n_engine)++;
            row[COL_AGREE]++;
        } else if (cf_find_engine_deviation(s, v->id, d, mode, engine, engine_did(&r, &v->expect[di][mode]), &v->expect[di][mode])) {
            (*n_dev)++;
            row[COL_DEVIATION]++;
        } else {
            cf_buf want_s = {0}, got_s = {0};
            cf_outcome_format(&want_s, &v->expect[di][mode], v->bytes, v->len);
            describe(&got_s, &r);
            printf("FAIL %s:%d %s  [%s, %s]: the expectation disagrees with %s %s as recorded in %s: %s\n  - expected %.300s\n  + %s did %.400s\n",
                   v->file, v->line, v->name, gdw_dialect_name(d), gdw_mode_name((gdw_mode)mode), engine, version, path, why.p, want_s.p,
                   engine, got_s.p);
            cf_buf_free(&want_s);
            cf_buf_free(&got_s);
            fail++;
        }
        cf_buf_free(&why);
    }
    long missing = 0;
    for (size_t k = 0; k < s->n; k++)
        if (engine_can_judge(&s->v[k]) && !answered[k] && missing++ < 5)
            printf("FAIL evidence %s: no answer for %s: re-record (tools/engines/record-evidence %s)\n", path, s->v[k].id, engine);
    if (missing > 5) printf("FAIL evidence %s: ... %ld vectors without an answer in all\n", path, missing);
    fail += missing;
    free(answered);
    free(line);
    fclose(f);
    return fail;
}

long cf_evidence_load(cf_suite *s, const char *dir) {
    printf("\n");
    DIR *dh = opendir(dir);
    if (!dh) { printf("FAIL evidence: cannot open the folder %s\n", dir); return 1; }
    char *names[64];
    int n = 0;
    for (struct dirent *e; (e = readdir(dh)) && n < 64;) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".tsv")) names[n++] = strdup(e->d_name);
    }
    closedir(dh);
    qsort(names, (size_t)n, sizeof *names, by_name);
    long fail = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        matrix *m = calloc(1, sizeof *m);
        if (!m) exit(2);
        long agree = 0, dev = 0, f = evidence_file(s, path, &agree, &dev, m);
        printf("evidence %s: %ld expectations confirmed by the engine, %ld listed deviations, %ld problems; by category:", names[i], agree,
               dev, f);
        for (int c = 0; c < m->rows; c++) printf(" %s %ld/%ld", m->name[c], m->n[c][COL_AGREE], m->n[c][COL_ASKED]);
        printf("\n");
        free(m);
        fail += f;
        free(names[i]);
    }
    if (!n) { printf("FAIL evidence: no *.tsv in %s\n", dir); fail++; }
    return fail;
}

int cf_evidence_write(cf_suite *s, const char *dialect, int mode, const char *engine, const char *version, const char *results_path,
                      const char *out_path) {
    FILE *in = fopen(results_path, "r"), *out = fopen(out_path, "w");
    if (!in || !out) { fprintf(stderr, "cannot open %s or %s\n", results_path, out_path); return 2; }
    fprintf(out, "# gdwire-evidence/1\t%s\t%s\t%s\t%s\n", engine, version, dialect, gdw_mode_name((gdw_mode)mode));
    char *line = NULL;
    size_t cap = 0, next = 0;
    long n = 0;
    while (getline(&line, &cap, in) > 0) {
        char *fld[6];
        if (!cf_split_fields(line, fld, 6)) continue;
        size_t k = next < s->n && !strcmp(s->v[next].id, fld[0]) ? next : s->n;
        for (size_t j = 0; k == s->n && j < s->n; j++) if (!strcmp(s->v[j].id, fld[0])) k = j;
        if (k == s->n) continue;
        next = k + 1;
        /* the detail (the engine's own words) is kept short: it is for people, never compared */
        fprintf(out, "%s\t%016llx\t%s\t%s\t%s\t%s\t%.24s\n", fld[0], (unsigned long long)cf_packet_hash(&s->v[k]), fld[1], fld[2], fld[3],
                fld[4], fld[5]);
        n++;
    }
    free(line);
    fclose(in);
    int bad = fclose(out) != 0;
    fprintf(stderr, "evidence: %ld answers of %s %s -> %s\n", n, engine, version, out_path);
    return bad ? 2 : 0;
}

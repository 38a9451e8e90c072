/* oracle.c — export packets for a real engine and compare its verdicts with the vectors. */
#include "conformance/oracle.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/dialects.h"

static bool engine_can_judge(const cf_vector *v) {
    return !v->opt.max_depth && !v->opt.max_size && !v->opt.heap_limit;
}

static int index_of(const gdw_dialect *d) {
    for (size_t i = 0; i < gdw_dialect_count(); i++)
        if (gdw_dialect_at(i) == d) return (int)i;
    return -1;
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

typedef struct engine_result {
    char *id, *verdict, *type, *hex, *errclass, *objid;
} engine_result;

/* Split a line into exactly n tab-separated fields (in place). */
static bool split(char *line, char **f, int n) {
    for (int i = 0; i < n; i++) {
        f[i] = line;
        char *t = strchr(line, i + 1 < n ? '\t' : '\n');
        if (!t) {
            if (i + 1 < n) return false;
            break;
        }
        *t = 0;
        line = t + 1;
    }
    return true;
}

static void describe(cf_buf *b, const engine_result *r) {
    if (!strcmp(r->verdict, "ok")) cf_buf_printf(b, "accepted, typeof %s, var2bytes %s%s%s", r->type, r->hex, r->objid[0] ? ", object id " : "", r->objid);
    else if (!strcmp(r->verdict, "error")) cf_buf_printf(b, "rejected with %s", r->errclass);
    else cf_buf_printf(b, "%s", r->verdict);
}

int cf_oracle_compare(cf_suite *s, const char *dialect, const char *results_path) {
    const gdw_dialect *d = gdw_dialect_find(dialect);
    if (!d) { fprintf(stderr, "unknown dialect %s\n", dialect); return 2; }
    int di = index_of(d);
    FILE *f = fopen(results_path, "r");
    if (!f) { fprintf(stderr, "%s: cannot open\n", results_path); return 2; }
    bool *answered = calloc(s->n + 1, 1);
    if (!answered) return 2;
    long agree = 0, fail = 0, excused = 0, accepted = 0, rejected = 0, verdict_only = 0, object_ids = 0, identical = 0, padding_only = 0;
    char *line = NULL;
    size_t cap = 0, next = 0;
    while (getline(&line, &cap, f) > 0) {
        char *fld[6];
        if (!split(line, fld, 6)) { printf("FAIL malformed engine result line: %s\n", line); fail++; continue; }
        engine_result r = {fld[0], fld[1], fld[2], fld[3], fld[4], fld[5]};
        size_t k = next < s->n && !strcmp(s->v[next].id, r.id) ? next : s->n;
        for (size_t j = 0; k == s->n && j < s->n; j++) if (!strcmp(s->v[j].id, r.id)) k = j;
        if (k == s->n) { printf("FAIL the engine answered for an unknown vector %s\n", r.id); fail++; continue; }
        next = k + 1;
        answered[k] = true;
        const cf_vector *v = &s->v[k];
        const cf_outcome *want = &v->expect[di][GDW_MODE_ENGINE_EXACT];
        bool engine_ok = !strcmp(r.verdict, "ok"), want_ok = want->status == GDW_OK;
        cf_buf why = {0};
        if (engine_ok != want_ok || (strcmp(r.verdict, "ok") && strcmp(r.verdict, "error"))) {
            cf_buf_puts(&why, "decision differs");
        } else if (!engine_ok) {
            rejected++;
            if (want->engine != GDW_ENGINE_NONE && strcmp(gdw_engine_error_name(want->engine), r.errclass))
                cf_buf_puts(&why, "error class differs");
        } else {
            accepted++;
            const gdw_value *val = gdw_doc_root(want->doc);
            int wire = gdw_dialect_type_id(d, (gdw_type)val->type);
            char *end;
            long type = strtol(r.type, &end, 10);
            if (v->opt.objects) verdict_only++; /* the engine instantiates the class: only the decision is comparable */
            else if (type != wire) cf_buf_printf(&why, "type differs (gdwire id %d)", wire);
            else if (r.objid[0]) {
                object_ids++; /* an EncodedObjectAsID: compare the id, not its wrapper's re-encoding */
                if (!(val->type == GDW_OBJECT && (val->flags & GDW_VF_OBJECT_ID) && (uint64_t)val->u.i == strtoull(r.objid, NULL, 10)))
                    cf_buf_puts(&why, "object id differs");
            } else {
                /* The engine's var2bytes of its value must be gdwire's re-encoding. Godot 3.2.3
                 * leaves NodePath padding uninitialised, so where the bytes differ the engine's
                 * bytes must still decode (in gdwire) to the same value and re-encode to the
                 * same canonical bytes: they differ in padding only. */
                uint8_t *bytes = NULL;
                size_t n = 0, bad;
                if (!cf_unhex(r.hex, &bytes, &n, &bad)) cf_buf_puts(&why, "engine re-encoding is not hex");
                else if (want->encode_status != GDW_OK || n != want->encode_len) cf_buf_puts(&why, "re-encoding differs");
                else if (!memcmp(bytes, want->encode, n)) identical++;
                else {
                    cf_outcome again;
                    cf_options none = {0};
                    cf_run(d, GDW_MODE_COMPATIBLE, bytes, n, &none, &again);
                    if (again.status == GDW_OK && again.consumed == n && gdw_value_equal(gdw_doc_root(again.doc), val) &&
                        again.encode_len == n && !memcmp(again.encode, want->encode, n))
                        padding_only++;
                    else cf_buf_puts(&why, "re-encoding differs");
                    cf_outcome_free(&again);
                }
                free(bytes);
            }
        }
        cf_deviation *dev = cf_find_deviation(s, v->id, d, GDW_MODE_ENGINE_EXACT, true);
        if (!why.n) {
            agree++;
            if (dev) {
                printf("STALE deviation line %d: the engine now agrees on %s; remove the entry\n", dev->line, v->id);
                fail++;
            }
        } else if (dev) {
            excused++;
            dev->used++;
        } else {
            cf_buf want_s = {0}, got_s = {0};
            cf_outcome_format(&want_s, want, v->bytes, v->len);
            describe(&got_s, &r);
            printf("FAIL %s:%d %s  [%s, engine-exact vs the real engine]: %s\n  - gdwire %.300s%s\n  + engine %.300s%s\n", v->file,
                   v->line, v->name, dialect, why.p, want_s.p, want_s.n > 300 ? "..." : "", got_s.p, got_s.n > 300 ? "..." : "");
            cf_buf_free(&want_s);
            cf_buf_free(&got_s);
            fail++;
        }
        cf_buf_free(&why);
    }
    free(line);
    fclose(f);
    long asked = 0;
    for (size_t k = 0; k < s->n; k++) {
        if (!engine_can_judge(&s->v[k])) continue;
        asked++;
        if (!answered[k]) { printf("FAIL the engine gave no answer for %s\n", s->v[k].id); fail++; }
    }
    for (size_t i = 0; i < s->ndev; i++)
        if (s->dev[i].against_engine && s->dev[i].dialect == d && !s->dev[i].used && s->dev[i].mode != GDW_MODE_COMPATIBLE &&
            s->dev[i].mode != GDW_MODE_STRICT) {
            printf("STALE deviation line %d: %s excuses nothing; remove the entry\n", s->dev[i].line, s->dev[i].vector);
            fail++;
        }
    free(answered);
    printf("\n%s against the real engine: %ld vectors asked, %ld accepted by both, %ld rejected by both\n", dialect, asked, accepted, rejected);
    printf("  values compared by type and re-encoding: %ld (byte-identical %ld, identical but for the engine's\n"
           "  uninitialised NodePath padding %ld); by object id: %ld; decision only (full objects): %ld\n",
           accepted - verdict_only - object_ids, identical, padding_only, object_ids, verdict_only);
    printf("  agree: %ld, listed deviations: %ld, failures: %ld\n", agree, excused, fail);
    printf("%ld passed, %ld failed\n", agree + excused, fail);
    return fail ? 1 : 0;
}

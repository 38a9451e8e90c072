/* SPDX-License-Identifier: MIT */
/* diff.c — `gdwire diff`: two packets decoded in one dialect, every place their values differ, by
 * error path (docs/library.md "Error paths"): a value changed, an item or key only on one side. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define DIFF_SHOWN 100 /* differences printed; the rest are counted */
#define DIFF_PAIRWISE_KEYS 4096 /* Dictionaries up to this many pairs are matched by key, larger by place */

typedef struct dframe {
    const gdw_value *a, *b, *ia, *ib;
    size_t na, nb;  /* children (a Dictionary's keys and values alternating) */
    size_t k;       /* the next child of a to look at, then (phase 1) of b */
    int phase;      /* 0: a's children against b's; 1: b's children a lacks */
    bool dict, by_key;
    size_t plen;    /* the frame's own path length in the shared path */
} dframe;

typedef struct diff_run {
    const opts *o;
    size_t found;
} diff_run;

static void show(const gdw_value *v, char *out, size_t cap) {
    if (!v) { snprintf(out, cap, "(nothing)"); return; }
    gdw_text_print_head(v, out, cap);
    if (strlen(out) + 1 >= cap && cap > 4) memcpy(out + cap - 4, "...", 4);
}

static void report(diff_run *r, const char *path, const gdw_value *a, const gdw_value *b) {
    if (++r->found > DIFF_SHOWN) return;
    char ta[160], tb[160];
    show(a, ta, sizeof ta);
    show(b, tb, sizeof tb);
    const char *at = path[0] ? path : "(the top)";
    if (!a) printf("%s: only in B: %s\n", at, tb);
    else if (!b) printf("%s: only in A: %s\n", at, ta);
    else printf("%s: %s -> %s\n", at, ta, tb);
}

/* Both containers of one shape: Arrays item by item, Dictionaries key by key. */
static bool same_shape(const gdw_value *a, const gdw_value *b) {
    if (a->type != b->type || (a->type != GDW_ARRAY && a->type != GDW_DICTIONARY)) return false;
    const gdw_container *ca = gdw_container_of(a), *cb = gdw_container_of(b);
    if ((ca == NULL) != (cb == NULL)) return false;
    return !ca || (gdw_typedesc_equal(&ca->key, &cb->key) && gdw_typedesc_equal(&ca->elem, &cb->elem));
}

/* The value under key in b's children (a Dictionary's), or NULL. */
static const gdw_value *value_under(const gdw_value *ib, size_t nb, const gdw_value *key) {
    for (size_t j = 0; j + 1 < nb; j += 2)
        if (gdw_value_equal(key, &ib[j])) return &ib[j + 1];
    return NULL;
}

/* Compare the pair, or descend into it: true when a frame was pushed. */
static bool visit(diff_run *r, dframe *st, size_t *sp, char *path, size_t plen, const gdw_value *a, const gdw_value *b) {
    if (a && b && gdw_value_equal(a, b)) return false;
    if (!a || !b || !same_shape(a, b) || *sp >= GDW_HARD_MAX_DEPTH + 2) { report(r, path, a, b); return false; }
    dframe *f = &st[(*sp)++];
    memset(f, 0, sizeof *f);
    f->a = a;
    f->b = b;
    f->na = gdw_children(a, &f->ia);
    f->nb = gdw_children(b, &f->ib);
    f->dict = a->type == GDW_DICTIONARY;
    f->by_key = f->dict && f->na / 2 <= DIFF_PAIRWISE_KEYS && f->nb / 2 <= DIFF_PAIRWISE_KEYS;
    f->plen = plen;
    return true;
}

/* Every difference, depth first in A's wire order, then what only B has; no recursion. */
static int walk(diff_run *r, const gdw_value *a, const gdw_value *b) {
    dframe *st = malloc((GDW_HARD_MAX_DEPTH + 4) * sizeof *st);
    if (!st) { fprintf(stderr, "gdwire: out of memory\n"); return EXIT_USAGE; }
    char path[GDW_PATH_MAX] = "";
    size_t sp = 0;
    visit(r, st, &sp, path, 0, a, b);
    while (sp) {
        dframe *f = &st[sp - 1];
        size_t step = f->dict ? 2 : 1;
        path[f->plen] = 0;
        size_t len = f->plen;
        if (f->phase == 0 && f->k < f->na) {
            size_t i = f->k;
            f->k += step;
            const gdw_value *mine = &f->ia[i + step - 1], *theirs = NULL;
            if (f->by_key) theirs = value_under(f->ib, f->nb, &f->ia[i]);
            else if (i + step - 1 < f->nb) theirs = &f->ib[i + step - 1];
            gdw_path_push(path, &len, f->a, i + step - 1);
            visit(r, st, &sp, path, len, mine, theirs);
            continue;
        }
        if (f->phase == 0) { f->phase = 1; f->k = 0; }
        if (f->k < f->nb) {
            size_t i = f->k;
            f->k += step;
            bool in_a = f->by_key ? value_under(f->ia, f->na, &f->ib[i]) != NULL : i + step - 1 < f->na;
            if (!in_a) {
                gdw_path_push(path, &len, f->b, i + step - 1);
                report(r, path, NULL, &f->ib[i + step - 1]);
            }
            continue;
        }
        sp--;
    }
    free(st);
    return 0;
}

typedef struct diff_input { const opts *o; gdw_doc *doc; int status; uint8_t *bytes; size_t n; const gdw_dialect *d; } diff_input;

/* ---- the same value in other bytes: where the bytes first differ -------------------------------------------- */

#define DIFF_FIELDS_MAX 1000000 /* fields of A held to find the first that B writes otherwise */

typedef struct field { size_t offset, size; const char *name; gdw_type type; int64_t number; char path[64]; } field;
typedef struct fields { field *f; size_t n, cap; bool full; } fields;

static void keep_field(void *ctx, const gdw_trace_event *ev) {
    fields *fs = ctx;
    if (fs->n == fs->cap) {
        size_t cap = fs->cap ? fs->cap * 2 : 256;
        field *f = cap <= DIFF_FIELDS_MAX ? realloc(fs->f, cap * sizeof *f) : NULL;
        if (!f) { fs->full = true; return; }
        fs->f = f, fs->cap = cap;
    }
    field *f = &fs->f[fs->n++];
    f->offset = ev->offset, f->size = ev->size, f->name = ev->field, f->type = ev->type, f->number = ev->number;
    snprintf(f->path, sizeof f->path, "%s", ev->path ? ev->path : (fs->n > 1 ? fs->f[fs->n - 2].path : ""));
}

static bool trace_fields(const diff_input *in, fields *fs) {
    gdw_decode_options t = in->o->dec;
    t.trace = keep_field;
    t.trace_ctx = fs;
    gdw_validate(in->d, in->bytes, in->n, &t, NULL, NULL);
    return !fs->full;
}

/* One field as the sentence names it: "the header of int at the top (type id 2, flags 0x10000)". */
static void field_words(const field *f, const uint8_t *input, char *out, size_t cap) {
    gdw_trace_event ev = {f->offset, f->size, 0, f->type, f->name, f->number, f->path, NULL};
    char text[200];
    gdw_trace_field_text(&ev, input, text, sizeof text);
    snprintf(out, cap, "%s of %s %s (%zu byte%s: %s)", f->name, f->type < GDW_TYPE_COUNT ? gdw_type_name(f->type) : "a value",
             f->path[0] ? f->path : "at the top", f->size, f->size == 1 ? "" : "s", text);
}

/* A and B hold the same value in other bytes: the first field each writes otherwise. */
static void same_value_other_bytes(const diff_input *a, const diff_input *b) {
    fields fa = {NULL, 0, 0, false}, fb = {NULL, 0, 0, false};
    printf("the same value; the bytes differ (A %zu bytes, B %zu)", a->n, b->n);
    if (trace_fields(a, &fa) && trace_fields(b, &fb)) {
        size_t k = 0;
        while (k < fa.n && k < fb.n && strcmp(fa.f[k].name, fb.f[k].name) == 0 && fa.f[k].size == fb.f[k].size &&
               memcmp(a->bytes + fa.f[k].offset, b->bytes + fb.f[k].offset, fa.f[k].size) == 0)
            k++;
        if (k < fa.n && k < fb.n) {
            char wa[400], wb[400];
            field_words(&fa.f[k], a->bytes, wa, sizeof wa);
            field_words(&fb.f[k], b->bytes, wb, sizeof wb);
            printf(": first at A byte %zu, B byte %zu: A's %s, B's %s", fa.f[k].offset, fb.f[k].offset, wa, wb);
        } else if (a->n != b->n) {
            printf(": the value's fields are alike; %s has %zu bytes after the value", a->n > b->n ? "A" : "B", a->n > b->n ? a->n - b->n : b->n - a->n);
        }
    }
    printf("\n");
    free(fa.f);
    free(fb.f);
}

static int take_packet(void *ctx, const packet *pk) {
    diff_input *in = ctx;
    if (in->doc) { fprintf(stderr, "gdwire diff: %s holds more than one packet: give one each side\n", pk->source); return EXIT_USAGE; }
    gdw_error err;
    opts tmp;
    const opts *o = resolve_auto(in->o, pk, &tmp);
    if (!o) return EXIT_REJECTED;
    gdw_status s = gdw_decode(o->dialect, pk->p, pk->n, &o->dec, NULL, &in->doc, NULL, &err);
    if (s) { print_decode_error(stderr, pk, &err); return s == GDW_ERR_NOMEM ? EXIT_USAGE : EXIT_REJECTED; }
    in->bytes = malloc(pk->n ? pk->n : 1); /* the bytes, where the values are the same: where do they differ? */
    if (!in->bytes) { fprintf(stderr, "gdwire diff: out of memory\n"); return EXIT_USAGE; }
    memcpy(in->bytes, pk->p, pk->n);
    in->n = pk->n;
    in->d = o->dialect;
    return EXIT_ACCEPTED;
}

int cmd_diff(const opts *o) {
    if (o->n_inputs != 2) { fprintf(stderr, "gdwire diff: give two packets, A and B\n"); return EXIT_USAGE; }
    diff_input in[2] = {{o, NULL, 0, NULL, 0, NULL}, {o, NULL, 0, NULL, 0, NULL}};
    int rc = 0;
    for (int k = 0; k < 2; k++) {
        opts one = *o;
        one.inputs = &o->inputs[k];
        one.n_inputs = 1;
        run_stats st = {0};
        in[k].o = &one;
        int r = for_each_packet(&one, take_packet, &in[k], &st);
        in[k].o = o;
        if (r > rc) rc = r;
        if (r == EXIT_ACCEPTED && !in[k].doc) { fprintf(stderr, "gdwire diff: %s holds no packet\n", o->inputs[k]); rc = EXIT_USAGE; }
    }
    if (rc == EXIT_ACCEPTED) {
        diff_run r = {o, 0};
        rc = walk(&r, gdw_doc_root(in[0].doc), gdw_doc_root(in[1].doc));
        if (!rc) {
            if (r.found > DIFF_SHOWN) printf("... and %zu more\n", r.found - DIFF_SHOWN);
            if (r.found) printf("%zu difference%s (A %s, B %s)\n", r.found, r.found == 1 ? "" : "s", o->inputs[0], o->inputs[1]);
            else if (in[0].n == in[1].n && memcmp(in[0].bytes, in[1].bytes, in[0].n) == 0) printf("the same value, in the same bytes\n");
            else same_value_other_bytes(&in[0], &in[1]);
            rc = r.found ? EXIT_REJECTED : EXIT_ACCEPTED;
        }
    } else if (rc == EXIT_REJECTED) rc = EXIT_USAGE; /* a side that does not decode: nothing to compare */
    gdw_doc_free(in[0].doc);
    gdw_doc_free(in[1].doc);
    free(in[0].bytes);
    free(in[1].bytes);
    return rc;
}

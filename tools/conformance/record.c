/* SPDX-License-Identifier: MIT */
/* record.c — write conformance vectors: read a spec (tab-separated, one packet per line,
 * made by generate.py), build each packet, run it through every dialect and mode, and write
 * the outcomes as YAML under the output folder. Facts the spec asserts (an engine made these
 * bytes; the Godot test suite decodes them to this value) are checked before anything is
 * written: a recorder that disagrees with a fact stops.
 *
 * Spec columns: file, name, from, kind (hex | text), data, edit, options, assert, note, evidence
 *   evidence: "" or PATTERN=LEVEL: CITATION entries separated by ";;" (LEVEL fact or source),
 *            written as the vector's `evidence:` mapping
 *   edit:    "" | cuts (every proper prefix, one vector each) | patch=OFF:HEX[,OFF:HEX...]
 *            (overwrite) | or=OFF:HEX[,...] (bitwise or) | append=HEX | cut=N
 *   options: "" or a comma list of objects, max_depth=N, max_size=N, heap_limit=N
 *   kind:    hex (data is hex) | text (data is canonical text, encoded in `from`) | text?
 *            (the same, but skipped if `from` cannot hold the value)
 *   assert:  "" or facts separated by ";;": DIALECT=TEXT (accepted in compatible and strict
 *            mode with this value, re-encoded identically) | DIALECT=~ or DIALECT=~HEX (an
 *            engine-made packet, HEX the engine's own round trip of it where that differs:
 *            accepted whole in compatible and engine-exact mode; engine-exact re-encodes it
 *            identically but for padding the engine left uninitialised, or exactly as HEX)
 *            | DIALECT=!CODE@OFFSET (rejected in compatible mode)
 *
 * usage: record OUTDIR < spec.tsv */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conformance/outcome.h"

typedef struct rec {
    char *file, *name, *from, *note, *options, *evidence;
    uint8_t *bytes;
    size_t len;
    cf_options opt;
} rec;

static rec *g_recs;
static size_t g_n, g_cap;
static long g_dups;
static int g_line;

static void die(const char *msg, const char *arg) {
    fprintf(stderr, "record: spec line %d: %s%s%s\n", g_line, msg, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

static char *dup(const char *s) {
    char *p = strdup(s);
    if (!p) die("out of memory", NULL);
    return p;
}

static void parse_options(const char *s, cf_options *o) {
    memset(o, 0, sizeof *o);
    char *copy = dup(s), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "objects")) o->objects = true;
        else if (!strncmp(t, "max_depth=", 10)) o->max_depth = (unsigned)strtoul(t + 10, NULL, 10);
        else if (!strncmp(t, "max_size=", 9)) o->max_size = strtoull(t + 9, NULL, 10);
        else if (!strncmp(t, "heap_limit=", 11)) o->heap_limit = strtoull(t + 11, NULL, 10);
        else die("unknown option", t);
    }
    free(copy);
}

static bool same_packet(const rec *a, const uint8_t *b, size_t n, const cf_options *o) {
    return a->len == n && !memcmp(a->bytes, b, n) && !memcmp(&a->opt, o, sizeof *o);
}

static void add(const char *file, const char *name, const char *from, const uint8_t *b, size_t n, const char *options,
                const char *note, const char *evidence) {
    cf_options o;
    parse_options(options, &o);
    for (size_t i = 0; i < g_n; i++)
        if (same_packet(&g_recs[i], b, n, &o)) { g_dups++; return; }
        else if (!strcmp(g_recs[i].file, file) && !strcmp(g_recs[i].name, name)) die("duplicate name", name);
    if (g_n == g_cap) {
        g_cap = g_cap ? g_cap * 2 : 1024;
        g_recs = realloc(g_recs, g_cap * sizeof *g_recs);
        if (!g_recs) die("out of memory", NULL);
    }
    rec *r = &g_recs[g_n++];
    r->file = dup(file);
    r->name = dup(name);
    r->from = dup(from);
    r->note = dup(note);
    r->evidence = dup(evidence);
    r->options = dup(options);
    r->bytes = malloc(n + 1);
    if (!r->bytes) die("out of memory", NULL);
    memcpy(r->bytes, b, n);
    r->len = n;
    r->opt = o;
}

static void check_fact(const char *assertion, const uint8_t *b, size_t n, const cf_options *o) {
    const char *eq = strchr(assertion, '=');
    if (!eq) die("assert wants DIALECT=...", assertion);
    char dname[64];
    snprintf(dname, sizeof dname, "%.*s", (int)(eq - assertion), assertion);
    const gdw_dialect *d = gdw_dialect_find(dname);
    if (!d) die("assert: unknown dialect", dname);
    const char *want = eq + 1;
    gdw_doc *doc = NULL;
    gdw_error err;
    if (want[0] == '!') {
        cf_outcome got;
        cf_run(d, GDW_MODE_COMPATIBLE, b, n, o, &got);
        char expect[96];
        snprintf(expect, sizeof expect, "%s@%zu", gdw_status_name(got.status), got.offset);
        if (got.status == GDW_OK || strcmp(expect, want + 1)) die("fact not met: the codec says", got.status ? expect : "accepted");
        cf_outcome_free(&got);
        return;
    }
    bool any = want[0] == '~';
    uint8_t *rt = NULL; /* the engine's own round trip, when it differs from the packet */
    size_t rt_len = 0, bad;
    if (any && want[1] && !cf_unhex(want + 1, &rt, &rt_len, &bad)) die("assert: bad round-trip hex", want);
    if (!any && gdw_text_parse(want, strlen(want), NULL, &doc, &err) != GDW_OK) die("assert: value does not parse", want);
    for (int m = 0; m < 3; m++) {
        cf_outcome got;
        cf_run(d, (gdw_mode)m, b, n, o, &got);
        if (any) {
            /* an engine-made packet: read whole; in engine-exact mode re-encoded the same but for
             * bytes the engine left uninitialised where gdwire writes zero padding, or as the
             * engine's own round trip (strict mode is not asked). Engine-exact mode may stop short
             * of the end where the engine's decoder moves on by less than its encoder wrote
             * (Pandemonium's Vector4: defect_vec4_advance_12); the value must still be the one
             * the engine holds. */
            if (m == GDW_MODE_STRICT) { cf_outcome_free(&got); continue; }
            if (got.status != GDW_OK) die("fact not met: rejected with", gdw_status_name(got.status));
            if (m == GDW_MODE_ENGINE_EXACT ? got.consumed > n : got.consumed != n) die("fact not met: not read whole", NULL);
            if (m == GDW_MODE_ENGINE_EXACT) {
                bool as_engine = rt && got.encode_len == rt_len && !memcmp(got.encode, rt, rt_len);
                bool same = got.encode_len == n;
                for (size_t i = 0; same && i < n; i++) same = got.encode[i] == b[i] || got.encode[i] == 0;
                if (!as_engine && !same) die("fact not met: the re-encoding is neither the packet nor the engine's round trip", NULL);
            }
            cf_outcome_free(&got);
            continue;
        }
        if (m == GDW_MODE_ENGINE_EXACT) { cf_outcome_free(&got); continue; } /* engine defects are recorded, not asserted */
        if (got.status != GDW_OK) die("fact not met: rejected with", gdw_status_name(got.status));
        if (doc && !gdw_value_equal(gdw_doc_root(doc), gdw_doc_root(got.doc))) {
            char *t = gdw_text_print_alloc(gdw_doc_root(got.doc), NULL, NULL);
            die("fact not met: the codec decodes", t);
        }
        if (got.consumed != n || got.encode_len != n || memcmp(got.encode, b, n)) die("fact not met: re-encoding differs", want);
        cf_outcome_free(&got);
    }
    free(rt);
    gdw_doc_free(doc);
}

static void spec_line(char *line) {
    char *f[10];
    for (int i = 0; i < 10; i++) {
        f[i] = line;
        char *t = strchr(line, i < 9 ? '\t' : '\n');
        if (!t && i < 9) die("want 10 tab-separated columns", NULL);
        if (t) { *t = 0; line = t + 1; }
    }
    const char *file = f[0], *name = f[1], *from = f[2], *kind = f[3], *data = f[4], *edit = f[5], *options = f[6],
               *assertion = f[7], *note = f[8], *evidence = f[9];
    const gdw_dialect *d = gdw_dialect_find(from);
    if (!d || strcmp(gdw_dialect_name(d), from)) die("unknown dialect", from);
    uint8_t *b = NULL;
    size_t n = 0, bad;
    if (!strcmp(kind, "hex")) {
        if (!cf_unhex(data, &b, &n, &bad)) die("bad hex", data);
    } else if (!strcmp(kind, "text") || !strcmp(kind, "text?")) {
        gdw_doc *doc = NULL;
        gdw_error err;
        if (gdw_text_parse(data, strlen(data), NULL, &doc, &err) != GDW_OK) die("text does not parse", data);
        gdw_status s = gdw_encode_alloc(d, gdw_doc_root(doc), NULL, NULL, &b, &n, &err);
        gdw_doc_free(doc);
        if (s != GDW_OK && kind[4] == '?' && (s == GDW_ERR_UNSUPPORTED_TYPE || s == GDW_ERR_LOSSY)) return; /* not this dialect's */
        if (s != GDW_OK) die(gdw_status_name(s), data);
    } else die("kind is hex, text or text?", kind);

    bool or_edit = !strncmp(edit, "or=", 3);
    if (!strncmp(edit, "patch=", 6) || or_edit) {
        char *copy = dup(edit + (or_edit ? 3 : 6)), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            char *colon = strchr(t, ':');
            uint8_t *p = NULL;
            size_t pn = 0;
            if (!colon || !cf_unhex(colon + 1, &p, &pn, &bad)) die("patch wants OFF:HEX", t);
            size_t off = strtoull(t, NULL, 10);
            if (off + pn > n) die("patch past the end", t);
            for (size_t i = 0; i < pn; i++) b[off + i] = or_edit ? (uint8_t)(b[off + i] | p[i]) : p[i];
            free(p);
        }
        free(copy);
    } else if (!strncmp(edit, "append=", 7)) {
        uint8_t *p = NULL;
        size_t pn = 0;
        if (!cf_unhex(edit + 7, &p, &pn, &bad)) die("append wants HEX", edit);
        b = realloc(b, n + pn + 1);
        memcpy(b + n, p, pn);
        n += pn;
        free(p);
    } else if (!strncmp(edit, "cut=", 4)) {
        size_t cut = strtoull(edit + 4, NULL, 10);
        if (cut > n) die("cut past the end", edit);
        n = cut;
    } else if (edit[0] && strcmp(edit, "cuts")) die("unknown edit", edit);

    cf_options o;
    parse_options(options, &o);
    if (assertion[0]) {
        char *copy = dup(assertion);
        for (char *a = copy, *next; a; a = next) {
            next = strstr(a, ";;");
            if (next) { *next = 0; next += 2; }
            check_fact(a, b, n, &o);
        }
        free(copy);
    }
    if (!strcmp(edit, "cuts")) {
        for (size_t cut = 0; cut < n; cut++) {
            char nm[512];
            snprintf(nm, sizeof nm, "%s, cut at %zu of %zu", name, cut, n);
            add(file, nm, from, b, cut, options, note, evidence);
        }
    } else add(file, name, from, b, n, options, note, evidence);
    free(b);
}

/* ---- writing -------------------------------------------------------------------------- */

/* One dialect's outcome with its mode overrides, as a YAML flow mapping. */
static void format_dialect(cf_buf *out, const rec *r, const gdw_dialect *d) {
    cf_outcome o[3];
    for (int m = 0; m < 3; m++) cf_run(d, (gdw_mode)m, r->bytes, r->len, &r->opt, &o[m]);
    for (int m = 0; m < 3; m++)
        if (!o[m].validate_agrees) {
            fprintf(stderr, "record: %s [%s, %s]: validate and decode disagree\n", r->name, gdw_dialect_name(d), gdw_mode_name((gdw_mode)m));
            exit(1);
        }
    cf_outcome_format(out, &o[0], r->bytes, r->len);
    for (int m = 1; m < 3; m++) {
        if (cf_outcome_equal(&o[0], &o[m])) continue;
        out->n--; /* reopen the mapping */
        cf_buf_printf(out, ", %s: ", gdw_mode_name((gdw_mode)m));
        cf_outcome_format(out, &o[m], r->bytes, r->len);
        cf_buf_puts(out, "}");
    }
    for (int m = 0; m < 3; m++) cf_outcome_free(&o[m]);
}

/* Families of more than one dialect (the table's `family` field), written as "<family>*":
 * every member's name starts with its family's name, so the pattern selects exactly them. */
static const char *const k_groups[] = {"godot3", "pandemonium", "godot4"};

static int most_common(char **s, const int *members, int n, int *count) {
    int best = -1, best_n = 0;
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (int j = 0; j < n; j++) c += !strcmp(s[members[i]], s[members[j]]);
        if (c > best_n) { best = members[i]; best_n = c; }
    }
    *count = best_n;
    return best;
}

static void write_expect(FILE *f, const rec *r) {
    int nd = (int)gdw_dialect_count();
    char *s[64];
    for (int i = 0; i < nd; i++) {
        cf_buf b = {0};
        format_dialect(&b, r, gdw_dialect_at((size_t)i));
        s[i] = b.p;
    }
    int all[64], cnt;
    for (int i = 0; i < nd; i++) all[i] = i;
    const char *eff[64] = {0}; /* what each dialect gets from the keys written so far */
    int star = most_common(s, all, nd, &cnt);
    fputs("  expect:\n", f);
    if (cnt >= 2) {
        fprintf(f, "    \"*\": %s\n", s[star]);
        for (int i = 0; i < nd; i++) eff[i] = s[star];
    }
    for (size_t g = 0; g < sizeof k_groups / sizeof k_groups[0]; g++) {
        int mem[64], nm = 0;
        for (int i = 0; i < nd; i++)
            if (!strcmp(gdw_dialect_family(gdw_dialect_at((size_t)i)), k_groups[g])) mem[nm++] = i;
        int best = most_common(s, mem, nm, &cnt);
        if (cnt >= 2 && (!eff[best] || strcmp(eff[best], s[best]))) {
            fprintf(f, "    %s*: %s\n", k_groups[g], s[best]);
            for (int i = 0; i < nm; i++) eff[mem[i]] = s[best];
        }
    }
    for (int i = 0; i < nd; i++)
        if (!eff[i] || strcmp(eff[i], s[i])) fprintf(f, "    %s: %s\n", gdw_dialect_name(gdw_dialect_at((size_t)i)), s[i]);
    /* an engine release is written only where it differs from its dialect (conformance/vectors.h) */
    for (size_t k = 0; k < gdw_release_count(); k++) {
        const gdw_dialect *rd = gdw_release_at(k), *base = gdw_dialect_base(rd);
        cf_buf b = {0};
        format_dialect(&b, r, rd);
        for (int i = 0; i < nd; i++)
            if (gdw_dialect_at((size_t)i) == base && strcmp(s[i], b.p)) fprintf(f, "    \"%s\": %s\n", gdw_dialect_name(rd), b.p);
        cf_buf_free(&b);
    }
    for (int i = 0; i < nd; i++) free(s[i]);
}

static void mkdirs(char *path) {
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST) { perror(path); exit(1); }
            *p = '/';
        }
}

int main(int argc, char **argv) {
    if (argc != 2) { fputs("usage: record OUTDIR < spec.tsv\n", stderr); return 2; }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        g_line++;
        if (line[0] == '#' || line[0] == '\n') continue;
        spec_line(line);
    }
    free(line);
    /* one YAML file per spec file name, vectors in spec order */
    long files = 0;
    for (size_t i = 0; i < g_n; i++) {
        bool first = true;
        for (size_t j = 0; j < i; j++) if (!strcmp(g_recs[j].file, g_recs[i].file)) { first = false; break; }
        if (!first) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], g_recs[i].file);
        mkdirs(path);
        FILE *f = fopen(path, "w");
        if (!f) { perror(path); return 1; }
        fprintf(f, "# Generated by tools/conformance/generate.py and the recorder; edit the generator, not this file.\n"
                   "# Format: conformance/README.md. Outcomes: every dialect, every mode.\nvectors:\n");
        long count = 0;
        for (size_t k = i; k < g_n; k++) {
            rec *r = &g_recs[k];
            if (strcmp(r->file, g_recs[i].file)) continue;
            cf_buf b = {0};
            cf_buf_puts(&b, "- name: ");
            cf_buf_yaml_string(&b, r->name);
            cf_buf_printf(&b, "\n  from: %s\n", r->from);
            if (r->note[0]) { cf_buf_puts(&b, "  note: "); cf_buf_yaml_string(&b, r->note); cf_buf_puts(&b, "\n"); }
            if (r->evidence[0]) {
                cf_buf_puts(&b, "  evidence:\n");
                char *copy = dup(r->evidence), *save = NULL;
                for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
                    char *eq = strchr(e, '=');
                    if (!eq) die("evidence wants PATTERN=LEVEL: CITATION", e);
                    *eq = 0;
                    cf_buf_puts(&b, "    ");
                    cf_buf_yaml_string(&b, e);
                    cf_buf_puts(&b, ": ");
                    cf_buf_yaml_string(&b, eq + 1);
                    cf_buf_puts(&b, "\n");
                }
                free(copy);
            }
            cf_buf_puts(&b, "  hex: \"");
            cf_buf_hex(&b, r->bytes, r->len);
            cf_buf_puts(&b, "\"\n");
            if (r->options[0]) {
                cf_buf_puts(&b, "  options: {");
                cf_options *o = &r->opt;
                const char *sep = "";
                if (o->objects) { cf_buf_printf(&b, "%sobjects: true", sep); sep = ", "; }
                if (o->max_depth) { cf_buf_printf(&b, "%smax_depth: %u", sep, o->max_depth); sep = ", "; }
                if (o->max_size) { cf_buf_printf(&b, "%smax_size: %zu", sep, o->max_size); sep = ", "; }
                if (o->heap_limit) { cf_buf_printf(&b, "%sheap_limit: %zu", sep, o->heap_limit); sep = ", "; }
                cf_buf_puts(&b, "}\n");
            }
            fputs(b.p, f);
            cf_buf_free(&b);
            write_expect(f, r);
            count++;
        }
        fclose(f);
        files++;
        fprintf(stderr, "%6ld vectors  %s\n", count, path);
    }
    fprintf(stderr, "record: %zu vectors in %ld files (%ld duplicate packets dropped)\n", g_n, files, g_dups);
    return 0;
}

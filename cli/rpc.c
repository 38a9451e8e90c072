/* SPDX-License-Identifier: MIT */
/* rpc.c — `gdwire rpc` (a Godot project's RPCs, read from its files: project/gdwire_project.h) and
 * `gdwire rpc-diff` (two builds' RPCs compared: which ids name other methods). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "project/gdwire_project.h"

/* A project folder, or a manifest saved with `gdwire rpc --json` (or by the game addon). */
int rpc_manifest_load(const char *verb, const char *what, gdw_rpc_manifest **m) {
    char err[512] = "";
    struct stat st;
    if (stat(what, &st) != 0) {
        fprintf(stderr, "gdwire %s: %s: %s\n", verb, what, strerror(errno));
        return EXIT_USAGE;
    }
    gdw_project_status s;
    if (S_ISDIR(st.st_mode)) {
        s = gdw_project_read(what, NULL, m, err, sizeof err);
    } else {
        FILE *f = fopen(what, "rb");
        if (!f) { fprintf(stderr, "gdwire %s: %s: %s\n", verb, what, strerror(errno)); return EXIT_USAGE; }
        size_t cap = (size_t)st.st_size + 1, len = 0;
        char *text = cap <= ((size_t)256 << 20) ? malloc(cap) : NULL;
        if (!text) { fclose(f); fprintf(stderr, "gdwire %s: %s: too large for a manifest\n", verb, what); return EXIT_USAGE; }
        len = fread(text, 1, cap - 1, f);
        fclose(f);
        s = gdw_rpc_manifest_parse(text, len, m, err, sizeof err);
        free(text);
    }
    if (s != GDW_PROJECT_OK) {
        fprintf(stderr, "gdwire %s: %s: %s\n", verb, what, err);
        return EXIT_USAGE;
    }
    return 0;
}

int cmd_rpc(const opts *o) {
    if (o->n_inputs != 1) return usage_error("rpc", "%s", "one project folder (or saved manifest)");
    gdw_rpc_manifest *m;
    int rc = rpc_manifest_load("rpc", o->inputs[0], &m);
    if (rc) return rc;
    size_t len;
    char *text = o->json ? gdw_rpc_manifest_json(m, &len) : gdw_rpc_manifest_text(m, &len);
    if (!text) { gdw_rpc_manifest_free(m); fprintf(stderr, "gdwire rpc: out of memory\n"); return EXIT_USAGE; }
    fwrite(text, 1, len, stdout);
    if (!o->json)
        for (size_t i = 0; i < m->n_problems; i++) /* also on stderr, where a script looks for trouble */
            fprintf(stderr, "gdwire rpc: %s%s%.0u%s%s\n", m->problems[i].file ? m->problems[i].file : "",
                    m->problems[i].file && m->problems[i].line ? ":" : "", m->problems[i].line,
                    m->problems[i].file ? ": " : "", m->problems[i].message);
    free(text);
    gdw_rpc_manifest_free(m);
    return EXIT_ACCEPTED;
}

int cmd_rpc_diff(const opts *o) {
    if (o->n_inputs != 2) return usage_error("rpc-diff", "%s", "two builds: A B (project folders or saved manifests)");
    char la[64] = "A", lb[64] = "B";
    if (o->labels) {
        const char *comma = strchr(o->labels, ',');
        if (!comma || comma == o->labels || !comma[1] || (size_t)(comma - o->labels) >= sizeof la || strlen(comma + 1) >= sizeof lb)
            return usage_error("rpc-diff", "--labels %s: want two names, as client,server", o->labels);
        snprintf(la, sizeof la, "%.*s", (int)(comma - o->labels), o->labels);
        snprintf(lb, sizeof lb, "%s", comma + 1);
    }
    gdw_rpc_manifest *a, *b;
    int rc = rpc_manifest_load("rpc-diff", o->inputs[0], &a);
    if (rc) return rc;
    rc = rpc_manifest_load("rpc-diff", o->inputs[1], &b);
    if (rc) { gdw_rpc_manifest_free(a); return rc; }
    char *text;
    size_t len;
    bool compatible;
    if (!gdw_rpc_manifest_diff(a, b, la, lb, &text, &len, &compatible)) {
        fprintf(stderr, "gdwire rpc-diff: out of memory\n");
        rc = EXIT_USAGE;
    } else {
        fwrite(text, 1, len, stdout);
        free(text);
        rc = compatible ? EXIT_ACCEPTED : EXIT_REJECTED;
    }
    gdw_rpc_manifest_free(a);
    gdw_rpc_manifest_free(b);
    return rc;
}

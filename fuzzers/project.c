/* SPDX-License-Identifier: MIT */
/* Fuzz target `project`: the project reader's two scanners (project/pj.h) on hostile files. The input is
 *   byte 0      bit 0: the text is a GDScript script (set) or a text resource: project.godot, .tscn, .tres
 *               (clear); bit 1: the project is Godot 3 (set) or Godot 4 (clear), which decides the syntax the
 *               script scanner accepts; bits 2-3: the sections cap of the resource scanner (4, 64, 4,096 or
 *               1,000,000)
 *   then the file's bytes.
 * Checked: every problem has the file name given and a line inside the file (1 to its newlines + 1, or 0);
 * a script's functions have names, at most 256 parameters each with a name, ids that fit, a mode, a transfer
 * mode and a channel the engine can hold; its inherited path and class name, its dynamic reasons point at
 * lines of the file; the MD5 of its RPC names is 32 hex digits; a resource's sections never pass the cap
 * and every key and value is read on a line of the file, and the value helpers read each value safely; the
 * arena stays within 64 bytes per input byte plus 1 MiB. ASan: nothing read past the input (a heap copy of
 * exactly its size) or leaked.
 * Seeds: corpus/project/, every file of the test projects in conformance/projects/, whole and cut, read
 * both ways (tools/fuzz/project_seeds.py). */
#include <stdlib.h>
#include <string.h>

#include "fuzzers/fuzz.h"
#include "project/pj.h"

static void fail(const char *what) {
    fprintf(stderr, "project target: %s\n", what);
    abort();
}

static unsigned lines_of(const uint8_t *p, size_t n) {
    unsigned lines = 1;
    for (size_t i = 0; i < n; i++) lines += p[i] == '\n';
    return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    uint8_t flags = data[0];
    size_t n = size - 1;
    char *text = malloc(n ? n : 1); /* exactly the file: ASan sees a read past it */
    if (!text) return 0;
    if (n) memcpy(text, data + 1, n);
    unsigned lines = lines_of(data + 1, n);
    static const size_t caps[4] = {4, 64, 4096, 1000000};
    size_t cap = caps[(flags >> 2) & 3];
    pj_arena a = {0};
    pj_problems probs = {&a, PJ_VEC(gdw_project_problem), 1000, 0};
    const char *file = (flags & 1) ? "res://fuzz.gd" : "res://fuzz.tscn";
    if (flags & 1) {
        pj_script s;
        pj_gdscript_scan(text, n, file, (flags & 2) ? 3 : 4, &a, &probs, &s);
        if (!a.oom) {
            const char **names = malloc((s.n_funcs ? s.n_funcs : 1) * sizeof *names);
            size_t k = 0;
            for (size_t i = 0; i < s.n_funcs; i++) {
                const pj_func *f = &s.funcs[i];
                if (!f->name || !*f->name) fail("a function without a name");
                if (f->line < 1 || f->line > lines) fail("a function outside the file");
                if (f->n_args > 256) fail("more than 256 parameters");
                for (size_t j = 0; j < f->n_args; j++)
                    if (!f->args[j].name || !*f->args[j].name) fail("a parameter without a name");
                if (f->rpc.set) {
                    if ((unsigned)f->rpc.mode >= GDW_RPC_MODE_COUNT) fail("an RPC mode out of range");
                    if ((unsigned)f->rpc.transfer_mode > GDW_TRANSFER_RELIABLE) fail("a transfer mode out of range");
                    if (names) names[k++] = f->name;
                }
            }
            char md5[33];
            gdw_rpc_md5(names, names ? k : 0, md5);
            for (int i = 0; i < 32; i++)
                if (!strchr("0123456789abcdef", md5[i])) fail("an MD5 that is not hex");
            if (md5[32]) fail("an MD5 not terminated");
            free(names);
            if (s.extends_line > lines) fail("extends outside the file");
            for (size_t i = 0; i < s.n_dynamic; i++)
                if (!s.dynamic[i] || strncmp(s.dynamic[i], file, strlen(file)) != 0) fail("a dynamic reason without its file");
        }
    } else {
        pj_text_resource r;
        pj_text_resource_scan(text, n, file, &a, &probs, cap, &r);
        if (!a.oom) {
            if (r.n_sections > cap + 1) fail("more sections than the cap");
            for (size_t i = 0; i < r.n_sections; i++) {
                const pj_section *sec = &r.sections[i];
                if (!sec->tag) fail("a section without a tag");
                if (sec->line < 1 || sec->line > lines) fail("a section outside the file");
                for (int pass = 0; pass < 2; pass++) {
                    const pj_kv *kv = pass ? sec->props : sec->attrs;
                    size_t nk = pass ? sec->n_props : sec->n_attrs;
                    for (size_t j = 0; j < nk; j++) {
                        if (!kv[j].key || !kv[j].value) fail("a key or value missing");
                        if (kv[j].line < 1 || kv[j].line > lines) fail("a value outside the file");
                        long long x;
                        bool b;
                        const char **list;
                        (void)pj_value_string(&a, kv[j].value);
                        (void)pj_value_call_arg(&a, kv[j].value, "ExtResource");
                        (void)pj_value_call_arg(&a, kv[j].value, "NodePath");
                        (void)pj_value_int(kv[j].value, &x);
                        (void)pj_value_bool(kv[j].value, &b);
                        (void)pj_value_strings(&a, kv[j].value, &list);
                    }
                }
            }
        }
    }
    if (getenv("FZ_DEBUG")) for (size_t i = 0; i < probs.list.n; i++) fprintf(stderr, "P %u %s\n", PJ_AT(probs.list, gdw_project_problem, i).line, PJ_AT(probs.list, gdw_project_problem, i).message);
    for (size_t i = 0; i < probs.list.n; i++) {
        const gdw_project_problem *p = &PJ_AT(probs.list, gdw_project_problem, i);
        if (!p->message || !p->file || strcmp(p->file, file) != 0) fail("a problem without its file or message");
        if (p->line > lines) fail("a problem past the file's last line");
    }
    if (a.used_bytes > 64 * size + (1u << 20)) fail("the arena grew past 64 bytes an input byte");
    pj_vec_free(&probs.list);
    pj_arena_free(&a);
    free(text);
    return 0;
}

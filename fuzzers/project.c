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
 * With byte 0's bit 4 set, the input is instead an RPC manifest and a session against it (project/manifest.c,
 * fit.c, annotate.c: what capture --project and the Python and JS sessions read from a server operator's JSON):
 * the JSON up to the first NUL byte, then records (u16 little-endian length, then a SceneMultiplayer packet of
 * Godot 4, or Godot 3 with bit 1), each parsed alone, named by its inline path or the manifest's node its cache id
 * names, and read by one annotator, peers 1 and 2 in turn. Checked: a parsed manifest's every node is found by
 * its own path and its every method by its id and by its name; gdw_rpc_args_fit and gdw_rpc_manifest_call
 * with each packet's arguments give a reason whenever a call does not fit or is not known, an argument index
 * within the call, and refuse a count outside the method's; an annotated RPC's method is one of its node's;
 * the manifest written as JSON parses again to the same JSON, which rpc-diff finds compatible with it; its text
 * prints.
 * Seeds: corpus/project/, every file of the test projects in conformance/projects/, whole and cut, read
 * both ways (tools/fuzz/project_seeds.py). */
#include <stdlib.h>
#include <string.h>

#include "fuzzers/fuzz.h"
#include "project/pj.h"
#include "session/gdwire_session.h"

static void fail(const char *what) {
    fprintf(stderr, "project target: %s\n", what);
    abort();
}

static unsigned lines_of(const uint8_t *p, size_t n) {
    unsigned lines = 1;
    for (size_t i = 0; i < n; i++) lines += p[i] == '\n';
    return lines;
}

static void check_fit(const gdw_rpc_method *m, const gdw_rpc_fit *f, size_t n_args) {
    if ((!f->fits || !f->known) && !f->reason) fail("a call not fitting or not known without a reason");
    if (!f->fits && f->arg > n_args) fail("a refused argument past the call's");
    if (m && m->args_known && (n_args < m->n_required || (n_args > m->n_args && !m->rest)) && f->fits) fail("a call of the wrong count fits");
    if (m && m->n_required > m->n_args) fail("more required arguments than arguments");
}

/* The packet's arguments, as gdw_rpc_annotate takes them (NULL: one that did not decode). */
static size_t rpc_args(const gdw_mp_parsed *p, const gdw_value **args) {
    size_t n = 0;
    for (size_t i = 0; i < p->value_count && n < GDW_MP_MAX_VALUES; i++)
        if (strcmp(p->values[i].label, "arg") == 0) args[n++] = p->values[i].status == GDW_OK ? p->values[i].value : NULL;
    return n;
}

static void manifest_and_session(const uint8_t *data, size_t size, bool godot3) {
    const uint8_t *nul = memchr(data, 0, size);
    size_t jlen = nul ? (size_t)(nul - data) : size;
    char *json = malloc(jlen ? jlen : 1); /* exactly the JSON: ASan sees a read past it */
    if (!json) return;
    if (jlen) memcpy(json, data, jlen);
    gdw_rpc_manifest *m = NULL;
    char err[200];
    if (gdw_rpc_manifest_parse(json, jlen, &m, err, sizeof err) != GDW_PROJECT_OK) {
        if (m) fail("a manifest given on failure");
        free(json);
        return;
    }
    for (size_t i = 0; i < m->n_nodes; i++) {
        const gdw_rpc_node *n = &m->nodes[i];
        const gdw_rpc_node *found = gdw_rpc_manifest_node(m, n->path, strlen(n->path), n->has_md5 ? n->md5 : NULL);
        if (!found || (strcmp(found->path, n->path) != 0 && !gdw_rpc_path_match(found->path, n->path)))
            fail("a node not found by its own path");
        for (size_t k = 0; k < n->n_rpcs; k++) {
            const gdw_rpc_method *r = &n->rpcs[k], *by_id = gdw_rpc_node_method(n, r->id, NULL, 0),
                                 *by_name = gdw_rpc_node_method(n, -1, r->name, strlen(r->name));
            if (!by_id || by_id->id != r->id) fail("a method not found by its id");
            if (!by_name || strcmp(by_name->name, r->name) != 0) fail("a method not found by its name");
            if (r->n_required > r->n_args) fail("more required arguments than arguments");
        }
    }
    size_t tl = 0;
    free(gdw_rpc_manifest_text(m, &tl));
    size_t jl1 = 0, jl2 = 0;
    char *j1 = gdw_rpc_manifest_json(m, &jl1);
    if (j1) {
        gdw_rpc_manifest *again = NULL;
        if (gdw_rpc_manifest_parse(j1, jl1, &again, err, sizeof err) != GDW_PROJECT_OK) fail("the manifest's JSON does not parse");
        char *j2 = gdw_rpc_manifest_json(again, &jl2);
        if (j2 && (jl1 != jl2 || memcmp(j1, j2, jl1) != 0)) fail("the manifest's JSON reads back different");
        /* rpc-diff of a manifest and its own JSON read back: the same builds can talk, when no two nodes share a
           path (rpc-diff pairs nodes by path, then script) and no two methods of a node an id or a name (a
           manifest the engine cannot have made: the diff then says which one each side runs) */
        bool well_formed = m->n_nodes <= 64;
        for (size_t i = 0; well_formed && i < m->n_nodes; i++) {
            const gdw_rpc_node *a = &m->nodes[i];
            for (size_t k = i + 1; well_formed && k < m->n_nodes; k++)
                if (gdw_rpc_path_match(a->path, m->nodes[k].path) || gdw_rpc_path_match(m->nodes[k].path, a->path))
                    well_formed = false;
            for (size_t x = 0; well_formed && x < a->n_rpcs && a->n_rpcs <= 64; x++)
                for (size_t y = x + 1; well_formed && y < a->n_rpcs; y++)
                    if (a->rpcs[x].id == a->rpcs[y].id || strcmp(a->rpcs[x].name, a->rpcs[y].name) == 0) well_formed = false;
            if (a->n_rpcs > 64) well_formed = false;
        }
        char *diff = NULL;
        size_t dl = 0;
        bool compatible = false;
        if (gdw_rpc_manifest_diff(m, again, "a", "b", &diff, &dl, &compatible) && diff && !compatible && well_formed)
            fail("a manifest not compatible with itself");
        free(diff);
        free(j2);
        gdw_rpc_manifest_free(again);
        free(j1);
    }
    const gdw_dialect *d = gdw_dialect_find(godot3 ? "godot3" : "godot4");
    gdw_rpc_annotator *an = gdw_rpc_annotator_new(m);
    const uint8_t *p = nul ? nul + 1 : data + size, *end = data + size;
    for (unsigned rec = 0; an && d && end - p >= 2 && rec < 64; rec++) {
        size_t len = (size_t)p[0] | (size_t)p[1] << 8;
        p += 2;
        if (len > (size_t)(end - p)) len = (size_t)(end - p);
        uint8_t *pkt = malloc(len ? len : 1);
        if (!pkt) break;
        if (len) memcpy(pkt, p, len);
        p += len;
        gdw_mp_parsed mp;
        gdw_error e;
        if (gdw_mp_parse(pkt, len, d, NULL, NULL, &mp, &e) == GDW_OK) {
            size_t path_len = 0;
            const char *path = gdw_mp_parsed_path(&mp, &path_len);
            int64_t cache = gdw_mp_parsed_cache_id(&mp);
            if (!path && cache >= 0 && m->n_nodes) path = m->nodes[(uint64_t)cache % m->n_nodes].path;
            gdw_message msg = {.from = rec % 2 ? 2 : 1, .to = rec % 2 ? 1 : 2, .path = path, .mp = &mp, .bytes = pkt, .len = len};
            gdw_rpc_call c;
            if (gdw_rpc_annotate(an, &msg, &c) && mp.command == GDW_MP_RPC) {
                const gdw_value *args[GDW_MP_MAX_VALUES];
                size_t n = rpc_args(&mp, args);
                if (c.method && (!c.node || c.method < c.node->rpcs || c.method >= c.node->rpcs + c.node->n_rpcs))
                    fail("an annotated method not of its node");
                check_fit(c.method, &c.fit, n);
                gdw_rpc_fit f = gdw_rpc_args_fit(c.method, args, n);
                check_fit(c.method, &f, n);
                for (size_t i = 0; i < m->n_nodes && i < 16; i++)
                    for (size_t k = 0; k < m->nodes[i].n_rpcs && k < 16; k++) {
                        f = gdw_rpc_args_fit(&m->nodes[i].rpcs[k], args, n);
                        check_fit(&m->nodes[i].rpcs[k], &f, n);
                    }
            }
        }
        gdw_mp_parsed_free(&mp);
        free(pkt);
    }
    gdw_rpc_annotator_free(an);
    gdw_rpc_manifest_free(m);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    if (data[0] & 0x10) {
        manifest_and_session(data + 1, size - 1, data[0] & 2);
        return 0;
    }
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

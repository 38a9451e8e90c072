/* vectors.c — read conformance vectors and deviations from YAML (libyaml document API). */
#include "conformance/vectors.h"


#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>


int cf_row_index(const gdw_dialect *d) {
    for (size_t i = 0; i < gdw_row_count(); i++)
        if (gdw_row_at(i) == d) return (int)i;
    return -1;
}

/* A key names row i: a release row only through a pattern with '@' (else it inherits). */
static bool key_names_row(const char *pat, size_t i) {
    const gdw_dialect *d = gdw_row_at(i);
    if (gdw_dialect_base(d) != d && !strchr(pat, '@')) return false;
    return fnmatch(pat, gdw_dialect_name(d), 0) == 0;
}

typedef struct loader {
    cf_suite *s;
    const char *file;     /* as given, for messages */
    const char *rel;      /* relative to the suite root, for ids */
    yaml_document_t doc;
} loader;

static char *xstrdup(const char *s) {
    char *p = strdup(s ? s : "");
    if (!p) { fputs("out of memory\n", stderr); exit(2); }
    return p;
}

static void complain(loader *L, const yaml_node_t *n, const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "%s:%zu: ", L->file, n ? n->start_mark.line + 1 : 0);
    fprintf(stderr, fmt, a ? a : "", b ? b : "");
    fputc('\n', stderr);
    L->s->errors++;
}

static yaml_node_t *node(loader *L, int id) { return yaml_document_get_node(&L->doc, id); }

static const char *scalar(loader *L, yaml_node_t *n, const char *what) {
    if (n && n->type == YAML_SCALAR_NODE) return (const char *)n->data.scalar.value;
    complain(L, n, "%s must be a scalar", what, NULL);
    return NULL;
}

static bool number(loader *L, yaml_node_t *n, const char *what, size_t *out) {
    const char *s = scalar(L, n, what);
    if (!s) return false;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || *s == '-') { complain(L, n, "%s: not a non-negative integer: %s", what, s); return false; }
    *out = (size_t)v;
    return true;
}

static bool boolean(loader *L, yaml_node_t *n, const char *what, bool *out) {
    const char *s = scalar(L, n, what);
    if (!s) return false;
    if (!strcmp(s, "true")) *out = true;
    else if (!strcmp(s, "false")) *out = false;
    else { complain(L, n, "%s: want true or false, got %s", what, s); return false; }
    return true;
}

static int engine_from_name(const char *s) {
    static const int all[] = {GDW_ENGINE_OK, GDW_ENGINE_ERR_OUT_OF_MEMORY, GDW_ENGINE_ERR_FILE_EOF, GDW_ENGINE_ERR_UNAVAILABLE,
                              GDW_ENGINE_ERR_UNAUTHORIZED, GDW_ENGINE_ERR_INVALID_DATA};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(s, gdw_engine_error_name((gdw_engine_error)all[i]))) return all[i];
    return -2;
}

/* One outcome mapping, without its mode keys. present: which fields were given. */
typedef struct partial {
    bool has_value, has_error, has_consumed, has_encode, has_encode_error, has_offset, has_engine, has_path;
    cf_outcome o;
} partial;

static void parse_fields(loader *L, yaml_node_t *map, partial *p, yaml_node_t *modes[CF_MODES], bool allow_modes) {
    memset(p, 0, sizeof *p);
    p->o.engine = GDW_ENGINE_NONE;
    for (yaml_node_pair_t *kv = map->data.mapping.pairs.start; kv < map->data.mapping.pairs.top; kv++) {
        yaml_node_t *kn = node(L, kv->key), *vn = node(L, kv->value);
        const char *k = scalar(L, kn, "an outcome key");
        if (!k) continue;
        int mode = gdw_mode_from_name(k);
        if (mode >= 0 && allow_modes) {
            if (vn->type != YAML_MAPPING_NODE) complain(L, vn, "%s: a mode's outcome must be a mapping", k, NULL);
            else modes[mode] = vn;
        } else if (!strcmp(k, "value")) {
            const char *t = scalar(L, vn, "value");
            if (!t) continue;
            gdw_error err;
            if (gdw_text_parse(t, strlen(t), NULL, &p->o.doc, &err) != GDW_OK) {
                char where[64];
                snprintf(where, sizeof where, "%zu (%s)", err.offset, err.message);
                complain(L, vn, "value does not parse at text offset %s: %s", where, t);
                continue;
            }
            p->has_value = true;
        } else if (!strcmp(k, "error")) {
            const char *t = scalar(L, vn, "error");
            int code = t ? gdw_status_from_name(t) : -1;
            if (code <= 0) { if (t) complain(L, vn, "unknown error code %s", t, NULL); continue; }
            p->o.status = code;
            p->has_error = true;
        } else if (!strcmp(k, "offset")) {
            p->has_offset = number(L, vn, "offset", &p->o.offset);
        } else if (!strcmp(k, "consumed")) {
            p->has_consumed = number(L, vn, "consumed", &p->o.consumed);
        } else if (!strcmp(k, "engine")) {
            const char *t = scalar(L, vn, "engine");
            int e = t ? engine_from_name(t) : -2;
            if (e == -2) { if (t) complain(L, vn, "unknown engine error %s", t, NULL); continue; }
            p->o.engine = e;
            p->has_engine = true;
        } else if (!strcmp(k, "path")) {
            const char *t = scalar(L, vn, "path");
            if (t) snprintf(p->o.path, sizeof p->o.path, "%s", t);
            p->has_path = true;
        } else if (!strcmp(k, "encode")) {
            const char *t = scalar(L, vn, "encode");
            size_t bad;
            if (t && !cf_unhex(t, &p->o.encode, &p->o.encode_len, &bad)) complain(L, vn, "encode: malformed hex: %s", t, NULL);
            else if (t) p->has_encode = true;
        } else if (!strcmp(k, "encode_error")) {
            const char *t = scalar(L, vn, "encode_error");
            int code = t ? gdw_status_from_name(t) : -1;
            if (code <= 0) { if (t) complain(L, vn, "unknown error code %s", t, NULL); continue; }
            p->o.encode_status = code;
            p->has_encode_error = true;
        } else {
            complain(L, kn, "unknown outcome key %s (value, consumed, encode, encode_error, error, offset, engine, path, or a mode)", k, NULL);
        }
    }
}

/* Complete a partial outcome with the defaults the input implies; false if contradictory. */
static bool finish(loader *L, yaml_node_t *at, partial *p, const cf_vector *v, cf_outcome *out) {
    if (p->has_value == p->has_error) {
        complain(L, at, "an outcome needs exactly one of value or error", NULL, NULL);
        return false;
    }
    if (p->has_error) {
        if (!p->has_offset || p->has_consumed || p->has_encode || p->has_encode_error) {
            complain(L, at, "an error outcome has offset (required), engine and path only", NULL, NULL);
            return false;
        }
    } else if (p->has_offset || p->has_engine || p->has_path) {
        complain(L, at, "an accepted outcome has value, consumed, encode or encode_error only", NULL, NULL);
        return false;
    }
    *out = p->o;
    memset(&p->o, 0, sizeof p->o); /* ownership moved */
    if (out->status != GDW_OK) return true;
    if (!p->has_consumed) out->consumed = v->len;
    if (out->consumed > v->len) { complain(L, at, "consumed is past the end of the input", NULL, NULL); return false; }
    if (!p->has_encode && !p->has_encode_error) {
        out->encode = malloc(out->consumed + 1);
        if (!out->encode) exit(2);
        memcpy(out->encode, v->bytes, out->consumed);
        out->encode_len = out->consumed;
    }
    return true;
}

/* The vector takes ownership of a finished outcome; expect[] entries share it. */
static cf_outcome adopt(cf_vector *v, const cf_outcome *o) {
    v->owned = realloc(v->owned, (v->nowned + 1) * sizeof *v->owned);
    if (!v->owned) exit(2);
    v->owned[v->nowned++] = *o;
    cf_outcome shared = *o;
    shared.borrowed = true;
    return shared;
}

/* The outcome of one dialect key: base fields plus per-mode overrides -> three outcomes. */
static bool parse_dialect_outcome(loader *L, yaml_node_t *map, cf_vector *v, cf_outcome out[CF_MODES]) {
    if (map->type != YAML_MAPPING_NODE) { complain(L, map, "an outcome must be a mapping", NULL, NULL); return false; }
    yaml_node_t *modes[CF_MODES] = {0};
    partial base;
    parse_fields(L, map, &base, modes, true);
    bool base_given = base.has_value || base.has_error;
    cf_outcome base_o;
    bool ok = true, base_ready = false;
    for (int m = 0; m < CF_MODES; m++) {
        if (modes[m]) {
            partial p;
            cf_outcome o;
            parse_fields(L, modes[m], &p, NULL, false);
            if (finish(L, modes[m], &p, v, &o)) out[m] = adopt(v, &o);
            else ok = false;
            cf_outcome_free(&p.o);
        } else if (!base_given) {
            complain(L, map, "no outcome for mode %s (give value or error, or the mode key)", gdw_mode_name((gdw_mode)m), NULL);
            ok = false;
        } else {
            if (!base_ready) {
                base_ready = finish(L, map, &base, v, &base_o);
                if (!base_ready) { ok = false; break; }
                base_o = adopt(v, &base_o);
            }
            out[m] = base_o;
        }
    }
    cf_outcome_free(&base.o);
    return ok;
}

const char *cf_evidence_name(cf_evidence e) {
    static const char *const names[CF_EV_COUNT] = {"recorded", "source", "fact", "engine"};
    return (unsigned)e < CF_EV_COUNT ? names[e] : "?";
}

/* evidence: {DIALECT-OR-PATTERN: "fact: CITATION" | "source: CITATION"} — the citation is
 * required: godotengine/godot tests/core/io/test_marshalls.h, or a repository, tag, file, line. */
static void load_evidence(loader *L, yaml_node_t *val, cf_vector *v) {
    if (val->type != YAML_MAPPING_NODE) { complain(L, val, "evidence must be a mapping of dialects to \"fact: ...\" or \"source: ...\"", NULL, NULL); return; }
    for (yaml_node_pair_t *kv = val->data.mapping.pairs.start; kv < val->data.mapping.pairs.top; kv++) {
        yaml_node_t *kn = node(L, kv->key), *vv = node(L, kv->value);
        const char *pat = scalar(L, kn, "a dialect"), *t = scalar(L, vv, "an evidence");
        if (!pat || !t) continue;
        cf_evidence e = !strncmp(t, "fact: ", 6) ? CF_EV_FACT : !strncmp(t, "source: ", 8) ? CF_EV_SOURCE : CF_EV_RECORDED;
        const char *cite = strchr(t, ':');
        if (e == CF_EV_RECORDED || strlen(cite + 1) < 8) {
            complain(L, vv, "evidence %s: write \"fact: CITATION\" or \"source: CITATION\" (engine evidence is recorded in conformance/evidence/)", t, NULL);
            continue;
        }
        int hits = 0;
        for (size_t i = 0; i < gdw_row_count(); i++)
            if (key_names_row(pat, i)) { hits++; if (e > v->evidence[i]) v->evidence[i] = (uint8_t)e; }
        if (!hits) complain(L, kn, "evidence: unknown dialect %s", pat, NULL);
    }
}


/* The slot of id in the suite's set of ids: the vector's index + 1, or 0 where id would go. The
 * set is kept at most half full (23,000 vectors compared each new id with every other: 62% of a
 * load's time, ten seconds, was strcmp). */
static size_t id_hash(const char *id) {
    size_t h = 1469598103934665603u; /* FNV-1a */
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 1099511628211u;
    return h;
}
static size_t *id_slot(cf_suite *s, const char *id) {
    if (2 * (s->n + 1) > s->ids_cap) {
        size_t cap = s->ids_cap ? 2 * s->ids_cap : 4096, *ids = calloc(cap, sizeof *ids);
        if (!ids) exit(2);
        for (size_t k = 0; k < s->n; k++) {
            size_t j = id_hash(s->v[k].id) & (cap - 1);
            while (ids[j]) j = (j + 1) & (cap - 1);
            ids[j] = k + 1;
        }
        free(s->ids);
        s->ids = ids, s->ids_cap = cap;
    }
    size_t j = id_hash(id) & (s->ids_cap - 1);
    while (s->ids[j] && strcmp(s->v[s->ids[j] - 1].id, id)) j = (j + 1) & (s->ids_cap - 1);
    return &s->ids[j];
}

static void load_vector(loader *L, yaml_node_t *vn) {
    cf_suite *s = L->s;
    if (vn->type != YAML_MAPPING_NODE) { complain(L, vn, "a vector must be a mapping", NULL, NULL); return; }
    cf_vector v;
    memset(&v, 0, sizeof v);
    v.line = (int)vn->start_mark.line + 1;
    yaml_node_t *expect = NULL;
    const char *hex = NULL;
    for (yaml_node_pair_t *kv = vn->data.mapping.pairs.start; kv < vn->data.mapping.pairs.top; kv++) {
        yaml_node_t *kn = node(L, kv->key), *val = node(L, kv->value);
        const char *k = scalar(L, kn, "a vector key");
        if (!k) continue;
        if (!strcmp(k, "name")) { const char *t = scalar(L, val, "name"); if (t) v.name = xstrdup(t); }
        else if (!strcmp(k, "hex")) hex = scalar(L, val, "hex");
        else if (!strcmp(k, "note")) { const char *t = scalar(L, val, "note"); if (t) v.note = xstrdup(t); }
        else if (!strcmp(k, "from")) {
            const char *t = scalar(L, val, "from");
            const gdw_dialect *d = t ? gdw_dialect_find(t) : NULL;
            if (!d || strcmp(gdw_dialect_name(d), t)) complain(L, val, "from: unknown dialect %s (use a name from `gdwire dialects`)", t, NULL);
            v.from = d;
        } else if (!strcmp(k, "options")) {
            if (val->type != YAML_MAPPING_NODE) { complain(L, val, "options must be a mapping", NULL, NULL); continue; }
            for (yaml_node_pair_t *o = val->data.mapping.pairs.start; o < val->data.mapping.pairs.top; o++) {
                yaml_node_t *on = node(L, o->key), *ov = node(L, o->value);
                const char *ok = scalar(L, on, "an option");
                size_t num = 0;
                if (!ok) continue;
                if (!strcmp(ok, "objects")) boolean(L, ov, "objects", &v.opt.objects);
                else if (!strcmp(ok, "max_depth")) { if (number(L, ov, "max_depth", &num)) v.opt.max_depth = (unsigned)num; }
                else if (!strcmp(ok, "max_size")) number(L, ov, "max_size", &v.opt.max_size);
                else if (!strcmp(ok, "heap_limit")) number(L, ov, "heap_limit", &v.opt.heap_limit);
                else complain(L, on, "unknown option %s (objects, max_depth, max_size, heap_limit)", ok, NULL);
            }
        } else if (!strcmp(k, "expect")) expect = val;
        else if (!strcmp(k, "evidence")) load_evidence(L, val, &v);
        else complain(L, kn, "unknown vector key %s (name, from, note, hex, options, evidence, expect)", k, NULL);
    }
    if (!v.name || !hex || !expect || !v.from) {
        complain(L, vn, "a vector needs name, from, hex and expect", NULL, NULL);
        goto drop;
    }
    if (strpbrk(v.name, "\t\n#")) { complain(L, vn, "name %s: no tabs, newlines or '#'", v.name, NULL); goto drop; }
    size_t bad;
    if (!cf_unhex(hex, &v.bytes, &v.len, &bad)) {
        char at[32];
        snprintf(at, sizeof at, "%zu", bad);
        complain(L, vn, "hex: malformed at character %s of %s", at, v.name);
        goto drop;
    }
    if (expect->type != YAML_MAPPING_NODE) { complain(L, expect, "expect must be a mapping of dialect -> outcome", NULL, NULL); goto drop; }

    /* expand dialect names and patterns: exact name > longer pattern; every dialect once */
    size_t nd = gdw_row_count();
    int rank[CF_MAX_DIALECTS];
    yaml_node_t *chosen[CF_MAX_DIALECTS] = {0};
    for (size_t i = 0; i < nd; i++) rank[i] = -1;
    for (yaml_node_pair_t *kv = expect->data.mapping.pairs.start; kv < expect->data.mapping.pairs.top; kv++) {
        yaml_node_t *kn = node(L, kv->key);
        const char *pat = scalar(L, kn, "a dialect");
        if (!pat) continue;
        bool glob = strpbrk(pat, "*?[") != NULL;
        int r = glob ? (int)strlen(pat) : 10000, hits = 0;
        if (!glob) {
            const gdw_dialect *d = gdw_dialect_find(pat);
            if (d && strcmp(gdw_dialect_name(d), pat)) { complain(L, kn, "%s is an alias: write %s", pat, gdw_dialect_name(d)); continue; }
        }
        for (size_t i = 0; i < nd; i++) {
            if (!key_names_row(pat, i)) continue;
            hits++;
            if (r == rank[i]) complain(L, kn, "%s and another key of the same rank both name %s", pat, gdw_dialect_name(gdw_row_at(i)));
            if (r > rank[i]) { rank[i] = r; chosen[i] = node(L, kv->value); }
        }
        if (!hits) complain(L, kn, "unknown dialect %s (names and patterns such as godot3*; see `gdwire dialects`)", pat, NULL);
    }
    for (size_t i = gdw_dialect_count(); i < nd; i++) { /* a release without its own key: its dialect's */
        size_t base = (size_t)cf_row_index(gdw_dialect_base(gdw_row_at(i)));
        if (chosen[i]) continue;
        chosen[i] = chosen[base];
        if (!v.evidence[i]) v.evidence[i] = v.evidence[base]; /* the same outcome, the same evidence */
    }
    bool ok = true;
    for (size_t i = 0; i < nd; i++) {
        if (!chosen[i]) { complain(L, expect, "vector %s has no expectation for dialect %s", v.name, gdw_dialect_name(gdw_row_at(i))); ok = false; continue; }
        ok &= parse_dialect_outcome(L, chosen[i], &v, v.expect[i]);
    }
    if (!ok) goto drop;

    size_t idlen = strlen(L->rel) + strlen(v.name) + 2;
    v.id = malloc(idlen);
    if (!v.id) exit(2);
    snprintf(v.id, idlen, "%s#%s", L->rel, v.name);
    v.file = xstrdup(L->file);
    size_t *slot = id_slot(s, v.id);
    if (*slot) { complain(L, vn, "duplicate vector name %s", v.name, NULL); goto drop; }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 1024;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) exit(2);
    }
    *slot = s->n + 1;
    s->v[s->n++] = v;
    return;
drop:
    for (size_t i = 0; i < v.nowned; i++) cf_outcome_free(&v.owned[i]);
    free(v.owned);
    free(v.name);
    free(v.note);
    free(v.bytes);
    free(v.id);
    free(v.file);
}

/* A vector file is data written by people and tools, never trusted to be small or plain:
 * before libyaml builds a document, the file must be at most CF_YAML_MAX_BYTES, and one pass over
 * its events (which stops at the first problem) must find no anchor or alias and no nesting
 * deeper than CF_YAML_MAX_DEPTH. Aliases let a 305 KB file expand to 2.8 GB in 390 s, and
 * libyaml 0.2.5 is quadratic in flow nesting (200 KB of '[' took 50 s); the event pass meets a
 * too-deep '[' after CF_YAML_MAX_DEPTH of them, within libyaml's 1024-character look-ahead. */
#define CF_YAML_MAX_BYTES (64u << 20)
#define CF_YAML_MAX_DEPTH 16

static bool yaml_refuse(loader *L, const char *path, const yaml_mark_t *at, const char *what) {
    fprintf(stderr, "%s:%zu: YAML: %s\n", path, at->line + 1, what);
    L->s->errors++;
    return false;
}

static bool yaml_plain_and_shallow(loader *L, const char *path, const unsigned char *text, size_t n) {
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, text, n);
    bool ok = true, done = false;
    unsigned depth = 0;
    while (ok && !done) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e)) {
            fprintf(stderr, "%s:%zu: YAML: %s\n", path, p.problem_mark.line + 1, p.problem ? p.problem : "parse error");
            L->s->errors++;
            ok = false;
            break;
        }
        const char *anchor = NULL;
        switch (e.type) {
        case YAML_ALIAS_EVENT: ok = yaml_refuse(L, path, &e.start_mark, "an alias (*name): vector files take no anchors or aliases, write the value out"); break;
        case YAML_SCALAR_EVENT: anchor = (const char *)e.data.scalar.anchor; break;
        case YAML_SEQUENCE_START_EVENT: anchor = (const char *)e.data.sequence_start.anchor; depth++; break;
        case YAML_MAPPING_START_EVENT: anchor = (const char *)e.data.mapping_start.anchor; depth++; break;
        case YAML_SEQUENCE_END_EVENT: case YAML_MAPPING_END_EVENT: depth--; break;
        case YAML_STREAM_END_EVENT: done = true; break;
        default: break;
        }
        if (ok && anchor) ok = yaml_refuse(L, path, &e.start_mark, "an anchor (&name): vector files take no anchors or aliases, write the value out");
        if (ok && depth > CF_YAML_MAX_DEPTH) ok = yaml_refuse(L, path, &e.start_mark, "nested deeper than 16 levels: no vector file needs that");
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&p);
    return ok;
}

static bool load_yaml(loader *L, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "%s: cannot open\n", path); L->s->errors++; return false; }
    unsigned char *text = malloc(CF_YAML_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, CF_YAML_MAX_BYTES + 1, f) : 0;
    bool read_error = !text || ferror(f);
    fclose(f);
    if (read_error) { free(text); fprintf(stderr, "%s: cannot read\n", path); L->s->errors++; return false; }
    if (n > CF_YAML_MAX_BYTES) {
        free(text);
        fprintf(stderr, "%s: YAML: larger than %u MiB: split the file\n", path, CF_YAML_MAX_BYTES >> 20);
        L->s->errors++;
        return false;
    }
    bool ok = yaml_plain_and_shallow(L, path, text, n);
    if (ok) {
        yaml_parser_t p;
        yaml_parser_initialize(&p);
        yaml_parser_set_input_string(&p, text, n);
        ok = yaml_parser_load(&p, &L->doc) != 0;
        if (!ok) {
            fprintf(stderr, "%s:%zu: YAML: %s\n", path, p.problem_mark.line + 1, p.problem ? p.problem : "parse error");
            L->s->errors++;
        }
        yaml_parser_delete(&p);
    }
    free(text);
    if (ok && !yaml_document_get_root_node(&L->doc)) {
        fprintf(stderr, "%s: empty document\n", path);
        L->s->errors++;
        yaml_document_delete(&L->doc);
        ok = false;
    }
    return ok;
}

/* The root mapping's one key `key` must be a sequence. */
static yaml_node_t *root_sequence(loader *L, const char *key) {
    yaml_node_t *root = yaml_document_get_root_node(&L->doc), *seq = NULL;
    if (root->type != YAML_MAPPING_NODE) { complain(L, root, "the top level must be a mapping with the key %s", key, NULL); return NULL; }
    for (yaml_node_pair_t *kv = root->data.mapping.pairs.start; kv < root->data.mapping.pairs.top; kv++) {
        const char *k = scalar(L, node(L, kv->key), "a top-level key");
        if (k && !strcmp(k, key)) seq = node(L, kv->value);
        else if (k) complain(L, node(L, kv->key), "unknown top-level key %s (only %s)", k, key);
    }
    if (!seq || seq->type != YAML_SEQUENCE_NODE) { complain(L, root, "%s must be a sequence", key, NULL); return NULL; }
    return seq;
}

static void load_file(cf_suite *s, const char *root, const char *path) {
    size_t rl = strlen(root);
    loader L;
    memset(&L, 0, sizeof L);
    L.s = s;
    L.file = path;
    L.rel = (!strncmp(path, root, rl) && path[rl] == '/') ? path + rl + 1 : path;
    if (!load_yaml(&L, path)) return;
    yaml_node_t *seq = root_sequence(&L, "vectors");
    if (seq)
        for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) load_vector(&L, node(&L, *it));
    yaml_document_delete(&L.doc);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void cf_load_path(cf_suite *s, const char *root, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) { fprintf(stderr, "%s: no such file or directory\n", path); s->errors++; return; }
    if (!S_ISDIR(st.st_mode)) { load_file(s, root, path); return; }
    DIR *dir = opendir(path);
    if (!dir) { fprintf(stderr, "%s: cannot read directory\n", path); s->errors++; return; }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) { cap = cap ? cap * 2 : 64; names = realloc(names, cap * sizeof *names); if (!names) exit(2); }
        names[n++] = xstrdup(e->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *sub = malloc(len);
        if (!sub) exit(2);
        snprintf(sub, len, "%s/%s", path, names[i]);
        size_t nl = strlen(names[i]);
        bool yaml = nl > 5 && !strcmp(names[i] + nl - 5, ".yaml");
        if (stat(sub, &st) == 0 && (S_ISDIR(st.st_mode) || yaml)) cf_load_path(s, root, sub);
        free(sub);
        free(names[i]);
    }
    free(names);
}

/* A deviation names a vector id exactly (vector:) or by a shell pattern (vectors:). */
static bool deviation_names(const cf_deviation *d, const char *id) {
    return d->pattern ? fnmatch(d->vector, id, 0) == 0 : !strcmp(d->vector, id);
}

void cf_load_deviations(cf_suite *s, const char *path) {
    loader L;
    memset(&L, 0, sizeof L);
    L.s = s;
    L.file = L.rel = path;
    if (!load_yaml(&L, path)) return;
    yaml_node_t *seq = root_sequence(&L, "deviations");
    for (yaml_node_item_t *it = seq ? seq->data.sequence.items.start : NULL; seq && it < seq->data.sequence.items.top; it++) {
        yaml_node_t *e = node(&L, *it);
        if (e->type != YAML_MAPPING_NODE) { complain(&L, e, "a deviation must be a mapping", NULL, NULL); continue; }
        cf_deviation d = {.mode = -1, .line = (int)e->start_mark.line + 1};
        bool against = false;
        for (yaml_node_pair_t *kv = e->data.mapping.pairs.start; kv < e->data.mapping.pairs.top; kv++) {
            const char *k = scalar(&L, node(&L, kv->key), "a deviation key");
            const char *val = scalar(&L, node(&L, kv->value), "a deviation value");
            if (!k || !val) continue;
            if (!strcmp(k, "vector") || !strcmp(k, "vectors")) {
                if (d.vector) complain(&L, e, "a deviation names one vector or one vectors pattern", NULL, NULL);
                free(d.vector);
                d.vector = xstrdup(val);
                d.pattern = !strcmp(k, "vectors");
            } else if (!strcmp(k, "reason")) d.reason = xstrdup(val);
            else if (!strcmp(k, "engine")) d.engine = xstrdup(val);
            else if (!strcmp(k, "engine-did")) {
                d.engine_did = xstrdup(val);
                if (strcmp(val, "crash") && strcmp(val, "accepted") && strcmp(val, "other-value"))
                    complain(&L, e, "engine-did: crash, accepted or other-value, not %s", val, NULL);
            } else if (!strcmp(k, "expected")) d.expected = xstrdup(val);
            else if (!strcmp(k, "dialect")) {
                d.dialect = gdw_dialect_find(val);
                if (!d.dialect || strcmp(gdw_dialect_name(d.dialect), val)) complain(&L, e, "unknown dialect %s", val, NULL);
            } else if (!strcmp(k, "mode")) {
                d.mode = gdw_mode_from_name(val);
                if (d.mode < 0) complain(&L, e, "unknown mode %s", val, NULL);
            } else if (!strcmp(k, "against")) {
                against = true;
                if (!strcmp(val, "engine")) d.against_engine = true;
                else if (strcmp(val, "vector")) complain(&L, e, "against: engine or vector, not %s", val, NULL);
            } else complain(&L, e, "unknown deviation key %s (vector or vectors, dialect, mode, against, engine, engine-did, expected, reason)", k, NULL);
        }
        if (!d.vector || !d.dialect || !d.reason || !against || !d.reason[0]) {
            complain(&L, e, "a deviation needs vector (or vectors), dialect, against and a reason", NULL, NULL);
            continue;
        }
        if (d.engine && !d.against_engine) complain(&L, e, "engine: goes with against: engine", NULL, NULL);
        if (d.engine_did && !d.engine) complain(&L, e, "engine-did: goes with engine:", NULL, NULL);
        if (d.expected && !d.engine_did) complain(&L, e, "expected: goes with engine-did:", NULL, NULL);
        bool found = false;
        for (size_t i = 0; i < s->n && !found; i++) found = deviation_names(&d, s->v[i].id);
        if (!found) complain(&L, e, "deviation names no loaded vector: %s", d.vector, NULL);
        s->dev = realloc(s->dev, (s->ndev + 1) * sizeof *s->dev);
        if (!s->dev) exit(2);
        s->dev[s->ndev++] = d;
    }
    yaml_document_delete(&L.doc);
}

bool cf_deviation_applies(const cf_deviation *e, const gdw_dialect *d, int mode, bool against_engine, const char *engine) {
    return e->dialect == d && e->against_engine == against_engine && (e->mode < 0 || e->mode == mode) &&
           (!e->engine || (engine && !strcmp(e->engine, engine)));
}

cf_deviation *cf_find_deviation(cf_suite *s, const char *id, const gdw_dialect *d, int mode, bool against_engine, const char *engine) {
    for (size_t i = 0; i < s->ndev; i++) {
        cf_deviation *e = &s->dev[i];
        if (!e->engine_did && cf_deviation_applies(e, d, mode, against_engine, engine) && deviation_names(e, id)) return e;
    }
    return NULL;
}

/* want's status is one of the space-separated names in list */
static bool status_listed(const char *list, int status) {
    const char *name = gdw_status_name((gdw_status)status);
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
    return false;
}

cf_deviation *cf_find_engine_deviation(cf_suite *s, const char *id, const gdw_dialect *d, int mode, const char *engine, const char *did,
                                       const cf_outcome *want) {
    cf_deviation *named = cf_find_deviation(s, id, d, mode, true, engine);
    if (named) return named;
    for (size_t i = 0; i < s->ndev; i++) {
        cf_deviation *e = &s->dev[i];
        bool listed = !e->expected || status_listed(e->expected, want->status) ||
                      (want->status == GDW_OK && want->encode_status != GDW_OK && status_listed(e->expected, want->encode_status));
        if (e->engine_did && did && !strcmp(e->engine_did, did) && listed &&
            cf_deviation_applies(e, d, mode, true, engine) && deviation_names(e, id))
            return e;
    }
    return NULL;
}

void cf_suite_free(cf_suite *s) {
    for (size_t k = 0; k < s->n; k++) {
        cf_vector *v = &s->v[k];
        for (size_t i = 0; i < v->nowned; i++) cf_outcome_free(&v->owned[i]);
        free(v->owned);
        free(v->id); free(v->file); free(v->name); free(v->note); free(v->bytes);
    }
    for (size_t i = 0; i < s->ndev; i++) {
        free(s->dev[i].vector); free(s->dev[i].reason); free(s->dev[i].engine); free(s->dev[i].engine_did); free(s->dev[i].expected);
    }
    free(s->v);
    free(s->dev);
    free(s->ids);
    memset(s, 0, sizeof *s);
}

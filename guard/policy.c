/* SPDX-License-Identifier: MIT
 * policy.c — the guard's policy: its safe defaults and its YAML file (libyaml, as conformance/vectors.c reads the
 * vectors). Every key is one row of k_keys; guard/README.md "Policy" lists the same keys, each of which
 * guard/tests/relay_test.py loads with its documented default. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "guard/guard.h"

gdw_guard_policy gdw_guard_policy_default(void) {
    gdw_guard_policy p;
    memset(&p, 0, sizeof p);
    p.dialect = gdw_dialect_find("godot4");
    p.checks = true;
    p.max_depth = 64;
    p.max_value_bytes = 262144;
    p.max_container = 4096;
    p.max_string = 4096;
    p.objects = false;
    p.strict = false;
    p.undefined_conversions = false;
    p.max_fragments = 256;
    p.max_message_bytes = 262144;
    p.max_channels = 255;
    p.peers_per_address = 8;
    p.unknown_paths = false;
    p.unknown_methods = false;
    p.raw = true;
    p.raw_put_var = false;
    p.relay = true;
    p.peer_commands = false;
    p.messages_per_second = 500;
    p.bytes_per_second = 1048576;
    p.burst_seconds = 1;
    p.compressed = GDW_GUARD_UNREADABLE_DROP;
    p.encrypted = GDW_GUARD_UNREADABLE_DROP;
    p.reliable = GDW_GUARD_REPLACE;
    p.cut_after = 3;
    p.max_paths = 1024;
    p.max_path_bytes = 262144;
    return p;
}

typedef enum { K_DIALECT, K_BOOL, K_ALLOW, K_NEVER, K_UINT, K_SIZE, K_U32, K_RATE, K_UNREADABLE, K_RELIABLE, K_PATH } key_kind;

typedef struct key {
    const char *section, *name;
    key_kind kind;
    size_t offset;
    double lo, hi; /* numbers: the range accepted */
} key;

#define AT(f) offsetof(gdw_guard_policy, f)
static const key k_keys[] = {
    {"", "dialect", K_DIALECT, AT(dialect), 0, 0},
    {"", "checks", K_BOOL, AT(checks), 0, 0},
    {"", "project", K_PATH, AT(project), 0, 0},
    {"variant", "max_depth", K_UINT, AT(max_depth), 1, 1024},
    {"variant", "max_bytes", K_SIZE, AT(max_value_bytes), 16, 33554432},
    {"variant", "max_container", K_U32, AT(max_container), 0, 2147483647},
    {"variant", "max_string", K_U32, AT(max_string), 0, 2147483647},
    {"variant", "objects", K_NEVER, AT(objects), 0, 0},
    {"variant", "strict", K_BOOL, AT(strict), 0, 0},
    {"variant", "undefined_conversions", K_ALLOW, AT(undefined_conversions), 0, 0},
    {"enet", "max_fragments", K_U32, AT(max_fragments), 1, 1048576},
    {"enet", "max_message_bytes", K_SIZE, AT(max_message_bytes), 64, 33554432},
    {"enet", "max_channels", K_UINT, AT(max_channels), 1, 255},
    {"enet", "peers_per_address", K_UINT, AT(peers_per_address), 1, 65535},
    {"rpc", "unknown_paths", K_ALLOW, AT(unknown_paths), 0, 0},
    {"rpc", "unknown_methods", K_ALLOW, AT(unknown_methods), 0, 0},
    {"rpc", "raw", K_ALLOW, AT(raw), 0, 0},
    {"rpc", "raw_put_var", K_BOOL, AT(raw_put_var), 0, 0},
    {"sys", "relay", K_ALLOW, AT(relay), 0, 0},
    {"sys", "peer_commands", K_ALLOW, AT(peer_commands), 0, 0},
    {"rate", "messages_per_second", K_RATE, AT(messages_per_second), 0, 1e9},
    {"rate", "bytes_per_second", K_RATE, AT(bytes_per_second), 0, 1e12},
    {"rate", "burst_seconds", K_RATE, AT(burst_seconds), 0.001, 3600},
    {"unreadable", "compressed", K_UNREADABLE, AT(compressed), 0, 0},
    {"unreadable", "encrypted", K_UNREADABLE, AT(encrypted), 0, 0},
    {"actions", "reliable", K_RELIABLE, AT(reliable), 0, 0},
    {"actions", "cut_after", K_UINT, AT(cut_after), 0, 1000000},
    {"server", "judge", K_BOOL, AT(judge_server), 0, 0},
    {"paths", "max_entries", K_SIZE, AT(max_paths), 1, 1048576},
    {"paths", "max_bytes", K_SIZE, AT(max_path_bytes), 256, 268435456},
};
#undef AT

typedef struct loader {
    const char *file;
    yaml_document_t doc;
    char *err;
    size_t cap;
    int failed;
    char *owned_project; /* the project path, kept past the document */
} loader;

static int fail(loader *L, const yaml_node_t *n, const char *fmt, const char *a, const char *b) {
    if (L->failed) return -1;
    L->failed = 1;
    char what[200];
    snprintf(what, sizeof what, fmt, a, b);
    snprintf(L->err, L->cap, "%s line %lu: %s", L->file, n ? (unsigned long)n->start_mark.line + 1 : 0ul, what);
    return -1;
}

static int set_key(loader *L, const key *k, yaml_node_t *v, gdw_guard_policy *p) {
    if (v->type != YAML_SCALAR_NODE) return fail(L, v, "%s%s: want a single value", k->section, k->name);
    const char *s = (const char *)v->data.scalar.value;
    char *base = (char *)p + k->offset;
    char full[64];
    snprintf(full, sizeof full, "%s%s%s", k->section, k->section[0] ? "." : "", k->name);
    switch (k->kind) {
    case K_DIALECT: {
        const gdw_dialect *d = gdw_dialect_find(s);
        if (!d || gdw_dialect_rule(d, GDW_RULE_MULTIPLAYER) <= 0) return fail(L, v, "dialect '%s': not a dialect with a multiplayer layer (godot4, godot3, godot3@3.2, ...)%s", s, "");
        *(const gdw_dialect **)base = d;
        return 0;
    }
    case K_BOOL:
    case K_ALLOW: {
        bool yes = strcmp(s, "true") == 0 || strcmp(s, "on") == 0 || strcmp(s, "yes") == 0 || (k->kind == K_ALLOW && strcmp(s, "allow") == 0);
        bool no = strcmp(s, "false") == 0 || strcmp(s, "off") == 0 || strcmp(s, "no") == 0 || (k->kind == K_ALLOW && (strcmp(s, "drop") == 0 || strcmp(s, "deny") == 0));
        if (!yes && !no) return fail(L, v, k->kind == K_ALLOW ? "%s: '%s': want allow or drop" : "%s: '%s': want true or false", full, s);
        *(bool *)base = yes;
        return 0;
    }
    case K_NEVER: {
        if (strcmp(s, "never") == 0 || strcmp(s, "false") == 0) *(bool *)base = false;
        else if (strcmp(s, "allow") == 0 || strcmp(s, "true") == 0) *(bool *)base = true;
        else return fail(L, v, "%s: '%s': want never or allow", full, s);
        return 0;
    }
    case K_UNREADABLE:
        if (strcmp(s, "drop") == 0) *(gdw_guard_unreadable *)base = GDW_GUARD_UNREADABLE_DROP;
        else if (strcmp(s, "pass") == 0) *(gdw_guard_unreadable *)base = GDW_GUARD_UNREADABLE_PASS;
        else return fail(L, v, "%s: '%s': want drop or pass", full, s);
        return 0;
    case K_RELIABLE:
        if (strcmp(s, "replace") == 0) *(gdw_guard_reliable_action *)base = GDW_GUARD_REPLACE;
        else if (strcmp(s, "cut") == 0) *(gdw_guard_reliable_action *)base = GDW_GUARD_CUT;
        else return fail(L, v, "%s: '%s': want replace or cut", full, s);
        return 0;
    case K_PATH:
        free(L->owned_project);
        L->owned_project = strdup(s);
        *(const char **)base = L->owned_project;
        return 0;
    default: break;
    }
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || x < k->lo || x > k->hi) {
        char range[80];
        snprintf(range, sizeof range, "'%s': want a number from %g to %g", s, k->lo, k->hi);
        return fail(L, v, "%s: %s", full, range);
    }
    if (k->kind != K_RATE && x != (double)(uint64_t)x) return fail(L, v, "%s: '%s': want a whole number", full, s);
    switch (k->kind) {
    case K_UINT: *(unsigned *)base = (unsigned)x; break;
    case K_U32: *(uint32_t *)base = (uint32_t)x; break;
    case K_SIZE: *(size_t *)base = (size_t)x; break;
    default: *(double *)base = x; break;
    }
    return 0;
}

static const key *key_find(const char *section, const char *name) {
    for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0]; i++)
        if (strcmp(k_keys[i].section, section) == 0 && strcmp(k_keys[i].name, name) == 0) return &k_keys[i];
    return NULL;
}

static bool is_section(const char *name) {
    for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0]; i++)
        if (strcmp(k_keys[i].section, name) == 0) return true;
    return false;
}

static int load_map(loader *L, yaml_node_t *map, const char *section, gdw_guard_policy *p) {
    for (yaml_node_pair_t *kv = map->data.mapping.pairs.start; kv < map->data.mapping.pairs.top; kv++) {
        yaml_node_t *kn = yaml_document_get_node(&L->doc, kv->key), *vn = yaml_document_get_node(&L->doc, kv->value);
        if (!kn || !vn || kn->type != YAML_SCALAR_NODE) return fail(L, kn, "%s%s: a key must be a name", section, "");
        const char *name = (const char *)kn->data.scalar.value;
        if (!section[0] && vn->type == YAML_MAPPING_NODE && is_section(name)) {
            if (load_map(L, vn, name, p)) return -1;
            continue;
        }
        const key *k = key_find(section, name);
        if (!k) {
            char full[160];
            snprintf(full, sizeof full, "%s%s%s", section, section[0] ? "." : "", name);
            return fail(L, kn, "unknown key '%s' (guard/README.md lists every key)%s", full, "");
        }
        if (set_key(L, k, vn, p)) return -1;
    }
    return 0;
}

int gdw_guard_policy_load(const char *file, gdw_guard_policy *p, char *err, size_t errcap) {
    loader L;
    memset(&L, 0, sizeof L);
    L.file = file, L.err = err, L.cap = errcap;
    FILE *f = fopen(file, "rb");
    if (!f) { snprintf(err, errcap, "%s: %s", file, strerror(errno)); return -1; }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    int rc = 0;
    if (!yaml_parser_load(&parser, &L.doc)) {
        snprintf(err, errcap, "%s line %lu: %s", file, (unsigned long)parser.problem_mark.line + 1, parser.problem ? parser.problem : "not YAML");
        yaml_parser_delete(&parser);
        fclose(f);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&L.doc);
    gdw_guard_policy q = *p;
    if (root && root->type == YAML_MAPPING_NODE) rc = load_map(&L, root, "", &q);
    else if (root && !(root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)) rc = fail(&L, root, "the policy is a mapping of keys%s%s", "", "");
    yaml_document_delete(&L.doc);
    yaml_parser_delete(&parser);
    fclose(f);
    if (rc) { free(L.owned_project); return -1; }
    *p = q; /* the project path stays allocated for the program's life, as the policy is */
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* project.c — a Godot project folder read into the RPC manifest (docs/rpc-manifest.md).
 *
 * The engine's rules, cited from Godot 4.6.3-stable:
 * - a node's RPC list is its own config (Node.rpc_config, only at run time) then its script's,
 *   each sorted by name as code points; the id is the position, bit 15 for the node's own
 *   (modules/multiplayer/scene_rpc_interface.cpp:75-116); the MD5 is of the names concatenated in
 *   that order (:118-127);
 * - a script's config starts as its base script's and each function with @rpc sets its own entry
 *   (modules/gdscript/gdscript_compiler.cpp:2830-2833, 2947-2952): an override without @rpc keeps
 *   the base's entry. Godot 3 does the same through GDScriptInstance::get_rpc_mode, which walks to
 *   the base while a function's mode is DISABLED (modules/gdscript/gdscript.cpp:1308-1322 in 3.6.2);
 * - paths are as SIMPLIFY_PATH sends them: relative to the multiplayer root /root
 *   (modules/multiplayer/scene_cache_interface.cpp:170-207): Main/Player, an autoload by its name;
 * - a SceneReplicationConfig's spawn, sync and watch lists are its properties in order, filtered
 *   (modules/multiplayer/scene_replication_config.cpp:225-250), a new property spawn = true and
 *   mode ALWAYS (scene_replication_config.h:51-52), the `sync` and `watch` keys of older files as
 *   _set reads them (:33-70). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pj.h"

/* project.godot's config_version -> the engine generation that writes it (core/config/
 * project_settings.h CONFIG_VERSION: 5 in 4.x, 4 in 3.1+, 3 in 3.0). */
static const struct {
    long long config_version;
    int godot;
} k_generations[] = {{5, 4}, {4, 3}, {3, 3}};

typedef struct rpc_entry {
    const char *name;
    pj_rpc_config cfg;
    const gdw_rpc_arg *args;
    size_t n_args;
    const char *rest; /* the rest parameter's name, or NULL */
    const char *declared_at;
} rpc_entry;

typedef struct script_info {
    pj_script s;
    bool read;          /* the file was read and scanned */
    int state;          /* 0 not resolved, 1 resolving, 2 resolved */
    rpc_entry *rpcs;    /* the merged config, sorted */
    size_t n_rpcs;
    pj_vec reasons;     /* const char *: why its nodes are dynamic */
} script_info;

typedef struct scene_file {
    const char *path;
    bool parsed, ok;
    pj_text_resource res;
    pj_map ext, sub; /* ext_resource id -> its path; sub_resource id -> its section */
} scene_file;

/* A node of an expanded scene tree. */
typedef struct inode {
    const char *full;   /* path from the tree's root, the root's own name first */
    const char *name, *type, *script, *scene;
    bool builtin_script;
    bool spawner, synchronizer;
    const char *spawn_path, *root_path;
    const char **spawn_scenes;
    size_t n_spawn_scenes;
    const pj_section *replication; /* the SceneReplicationConfig's section */
    const char *replication_file;
} inode;

typedef struct project {
    const char *dir;
    gdw_project_limits lim;
    pj_arena *a;
    pj_problems probs;
    int godot;
    size_t total_bytes, n_files;
    size_t nodes_expanded; /* against max_total_nodes */
    bool told_total_nodes;
    pj_vec scripts;   /* script_info* */
    pj_map script_at; /* res path -> index */
    pj_map class_at;  /* class_name -> index */
    pj_map uid_path;  /* uid://... -> res path */
    pj_vec scenes;    /* scene_file* */
    pj_map scene_at;
    pj_vec nodes;     /* gdw_rpc_node */
    pj_map node_at;
    pj_vec syncs;     /* gdw_rpc_synchronizer */
    pj_vec spawners;  /* gdw_rpc_spawner */
    pj_vec spawn_queue; /* const char *[2]: scene, prefix */
    pj_map spawn_seen;
} project;

/* ---- files ---- */
static char *read_file(project *p, const char *res, size_t *len) {
    char *fs = pj_printf(p->a, "%s/%s", p->dir, res + 6);
    if (!fs) return NULL;
    FILE *f = fopen(fs, "rb");
    if (!f) { pj_problem(&p->probs, res, 0, "cannot open: %s", strerror(errno)); return NULL; }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) { fclose(f); pj_problem(&p->probs, res, 0, "not a regular file"); return NULL; }
    size_t size = (size_t)st.st_size;
    if (size > p->lim.max_file_bytes) {
        fclose(f);
        pj_problem(&p->probs, res, 0, "%zu bytes, more than the %zu a file may have: not read", size, p->lim.max_file_bytes);
        return NULL;
    }
    if (p->total_bytes + size > p->lim.max_total_bytes) {
        fclose(f);
        pj_problem(&p->probs, res, 0, "the project's files pass %zu bytes together: not read", p->lim.max_total_bytes);
        return NULL;
    }
    char *buf = malloc(size + 1);
    if (!buf) { fclose(f); p->a->oom = true; return NULL; }
    size_t got = fread(buf, 1, size, f);
    fclose(f);
    buf[got] = 0;
    p->total_bytes += got;
    *len = got;
    return buf;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static size_t add_script(project *p, const char *res) {
    script_info **slot = pj_vec_push(&p->scripts);
    script_info *si = slot ? pj_alloc(p->a, sizeof *si) : NULL;
    if (!si) { if (slot) p->scripts.n--; return SIZE_MAX; }
    *slot = si;
    si->s.file = pj_strdup(p->a, res);
    si->reasons = (pj_vec)PJ_VEC(const char *);
    pj_map_put(&p->script_at, si->s.file, p->scripts.n - 1);
    return p->scripts.n - 1;
}

static void read_script(project *p, script_info *si) {
    size_t len;
    char *src = read_file(p, si->s.file, &len);
    if (!src) return;
    if (ends_with(si->s.file, ".cs")) {
        si->s.csharp_rpc = strstr(src, "[Rpc") != NULL; /* out of scope: no engine here runs C# (issue 59) */
        if (si->s.csharp_rpc) pj_problem(&p->probs, si->s.file, 0, "not read (C#)");
        si->read = true;
        free(src);
        return;
    }
    const char *file = si->s.file;
    pj_gdscript_scan(src, len, file, p->godot, p->a, &p->probs, &si->s);
    free(src);
    si->read = true;
}

/* Folders walked in name order (readdir's order is the file system's). */
static int name_cmp(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static void walk(project *p, const char *rel, size_t depth) {
    if (depth > p->lim.max_dir_depth) { pj_problem(&p->probs, rel, 0, "folders deeper than %zu: not read", p->lim.max_dir_depth); return; }
    char *fs = pj_printf(p->a, "%s/%s", p->dir, rel);
    DIR *d = fs ? opendir(fs) : NULL;
    if (!d) return;
    pj_vec names = PJ_VEC(char *);
    struct dirent *e;
    bool ignored = false;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".gdignore") == 0) ignored = true;
        if (e->d_name[0] == '.') continue; /* ., .., .godot, .import, .git */
        char **slot = pj_vec_push(&names);
        if (slot) *slot = pj_strdup(p->a, e->d_name);
    }
    closedir(d);
    if (!ignored) {
        if (names.n) qsort(names.p, names.n, sizeof(char *), name_cmp);
        for (size_t i = 0; i < names.n; i++) {
            if (++p->n_files > p->lim.max_files) {
                if (p->n_files == p->lim.max_files + 1) pj_problem(&p->probs, NULL, 0, "more than %zu files: the rest not read", p->lim.max_files);
                break;
            }
            const char *name = PJ_AT(names, char *, i);
            if (!name) continue;
            char *child = pj_printf(p->a, "%s%s%s", rel, *rel ? "/" : "", name);
            char *cfs = pj_printf(p->a, "%s/%s", p->dir, child);
            struct stat st;
            if (!child || !cfs || stat(cfs, &st) != 0) continue; /* links followed (Bazel's runfiles); max_files and max_dir_depth bound a loop */
            if (S_ISDIR(st.st_mode)) { walk(p, child, depth + 1); continue; }
            if (!S_ISREG(st.st_mode)) continue;
            char *res = pj_printf(p->a, "res://%s", child);
            if (!res) continue;
            if (ends_with(name, ".gd") || ends_with(name, ".cs")) {
                size_t idx = add_script(p, res);
                if (idx != SIZE_MAX) {
                    script_info *si = PJ_AT(p->scripts, script_info *, idx);
                    read_script(p, si);
                    if (si->s.class_name) pj_map_put(&p->class_at, si->s.class_name, idx);
                }
            } else if (ends_with(name, ".tscn") || ends_with(name, ".tres")) {
                scene_file **slot = pj_vec_push(&p->scenes);
                scene_file *sf = slot ? pj_alloc(p->a, sizeof *sf) : NULL;
                if (!sf) { if (slot) p->scenes.n--; continue; }
                *slot = sf;
                sf->path = res;
                pj_map_put(&p->scene_at, res, p->scenes.n - 1);
            } else if (ends_with(name, ".uid")) { /* Godot 4.4+: x.gd.uid holds the script's uid */
                size_t len;
                char *text = st.st_size < 256 ? read_file(p, res, &len) : NULL;
                if (text) {
                    char *nl = strpbrk(text, "\r\n");
                    if (nl) *nl = 0;
                    if (strncmp(text, "uid://", 6) == 0) pj_map_put(&p->uid_path, pj_strdup(p->a, text), (size_t)(uintptr_t)pj_strndup(p->a, res, strlen(res) - 4));
                    free(text);
                }
            }
        }
    }
    pj_vec_free(&names);
}

/* ---- scenes ---- */
static const char *uid_to_path(project *p, const char *path) {
    if (!path || strncmp(path, "uid://", 6) != 0) return path;
    size_t v;
    return pj_map_get(&p->uid_path, path, &v) ? (const char *)(uintptr_t)v : NULL;
}

static const char *section_string(project *p, const pj_section *s, const char *key) {
    return pj_value_string(p->a, pj_kv_find(s->attrs, s->n_attrs, key));
}

static void index_resources(project *p, scene_file *sf);

static scene_file *scene_get(project *p, const char *path) {
    size_t idx;
    if (!path || !pj_map_get(&p->scene_at, path, &idx)) return NULL;
    scene_file *sf = PJ_AT(p->scenes, scene_file *, idx);
    if (!sf->parsed) {
        sf->parsed = true;
        size_t len;
        char *src = read_file(p, sf->path, &len);
        if (src) {
            pj_text_resource_scan(src, len, sf->path, p->a, &p->probs, p->lim.max_nodes * 4 + 64, &sf->res);
            free(src);
            sf->ok = true;
            index_resources(p, sf);
        }
    }
    return sf->ok ? sf : NULL;
}

/* The uid in each scene's header, for paths written as uid:// (main_scene, autoloads). */
static void learn_scene_uids(project *p) {
    for (size_t i = 0; i < p->scenes.n; i++) {
        scene_file *sf = PJ_AT(p->scenes, scene_file *, i);
        scene_file *got = scene_get(p, sf->path);
        if (!got || got->res.n_sections < 2) continue;
        const pj_section *h = &got->res.sections[1];
        char *uid = pj_value_string(p->a, pj_kv_find(h->attrs, h->n_attrs, "uid"));
        if (uid) pj_map_put(&p->uid_path, uid, (size_t)(uintptr_t)sf->path);
    }
}


/* The ids of a file's ext_resource and sub_resource sections, found in O(1) (Godot 4 writes "1_abc",
 * Godot 3 writes 1). */
static void index_resources(project *p, scene_file *sf) {
    for (size_t i = 0; i < sf->res.n_sections; i++) {
        const pj_section *s = &sf->res.sections[i];
        bool ext = strcmp(s->tag, "ext_resource") == 0;
        if (!ext && strcmp(s->tag, "sub_resource") != 0) continue;
        const char *sid = pj_kv_find(s->attrs, s->n_attrs, "id");
        const char *id = sid && sid[0] == '"' ? pj_value_string(p->a, sid) : sid;
        if (!id) continue;
        if (ext) {
            const char *path = section_string(p, s, "path");
            if (!path) path = uid_to_path(p, section_string(p, s, "uid"));
            if (path) pj_map_put(&sf->ext, id, (size_t)(uintptr_t)path);
        } else {
            pj_map_put(&sf->sub, id, i);
        }
    }
    if (sf->ext.oom || sf->sub.oom) p->a->oom = true;
}

static const char *ext_path(project *p, const scene_file *sf, const char *value) {
    char *id = pj_value_call_arg(p->a, value, "ExtResource");
    size_t v;
    return id && pj_map_get(&sf->ext, id, &v) ? (const char *)(uintptr_t)v : NULL;
}

static const pj_section *sub_section(project *p, const scene_file *sf, const char *value) {
    char *id = pj_value_call_arg(p->a, value, "SubResource");
    size_t v;
    return id && pj_map_get(&sf->sub, id, &v) ? &sf->res.sections[v] : NULL;
}

typedef struct tree {
    pj_vec nodes; /* inode */
    pj_map at;    /* full path -> index */
    bool over_budget;
} tree;

static size_t tree_add(project *p, tree *t, size_t parent, const char *name) {
    if (t->nodes.n >= p->lim.max_nodes) { t->over_budget = true; return SIZE_MAX; }
    if (p->nodes_expanded >= p->lim.max_total_nodes) {
        if (!p->told_total_nodes) pj_problem(&p->probs, NULL, 0, "the scenes' trees pass %zu nodes together: the rest not read", p->lim.max_total_nodes);
        p->told_total_nodes = true;
        return SIZE_MAX;
    }
    p->nodes_expanded++;
    inode *n = pj_vec_push(&t->nodes);
    if (!n) return SIZE_MAX;
    n->name = name;
    n->full = parent == SIZE_MAX ? name : pj_printf(p->a, "%s/%s", PJ_AT(t->nodes, inode, parent).full, name);
    if (!n->full) { t->nodes.n--; return SIZE_MAX; }
    pj_map_put(&t->at, n->full, t->nodes.n - 1);
    return t->nodes.n - 1;
}

static script_info *script_by_path(project *p, const char *path) {
    size_t idx;
    return path && pj_map_get(&p->script_at, path, &idx) ? PJ_AT(p->scripts, script_info *, idx) : NULL;
}

/* A built-in script (a GDScript sub_resource of the scene, its source in script/source): scanned as a file named as
 * the engine names it, "res://scene.tscn::GDScript_id" (resource_format_text.cpp: a sub-resource's path is the
 * scene's and "::" its id); NULL when it is no GDScript or has no source. */
static const char *builtin_script(project *p, const pj_section *sub, const char *file) {
    const char *type = section_string(p, sub, "type"), *src = pj_kv_find(sub->props, sub->n_props, "script/source");
    const char *sid = pj_kv_find(sub->attrs, sub->n_attrs, "id");
    const char *id = sid && sid[0] == '"' ? pj_value_string(p->a, sid) : sid;
    if (!type || strcmp(type, "GDScript") != 0 || !src || !id) return NULL;
    const char *name = pj_printf(p->a, "%s::%s", file, id);
    if (!name) return NULL;
    if (script_by_path(p, name)) return name;
    const char *text = pj_value_string(p->a, src);
    size_t at = text ? add_script(p, name) : SIZE_MAX;
    if (at == SIZE_MAX) return NULL;
    script_info *si = PJ_AT(p->scripts, script_info *, at);
    pj_gdscript_scan(text, strlen(text), si->s.file, p->godot, p->a, &p->probs, &si->s);
    si->read = true;
    return si->s.file;
}

static void apply_props(project *p, tree *t, size_t idx, const pj_section *s, const scene_file *r, const char *file) {
    inode *n = &PJ_AT(t->nodes, inode, idx);
    const char *type = section_string(p, s, "type");
    if (type) n->type = type;
    n->scene = file;
    const char *script = pj_kv_find(s->props, s->n_props, "script");
    if (script) {
        const char *path = ext_path(p, r, script);
        const pj_section *sub = path ? NULL : sub_section(p, r, script);
        if (sub) path = builtin_script(p, sub, file);
        n->builtin_script = !path && pj_value_call_arg(p->a, script, "SubResource") != NULL; /* one not read */
        n->script = path;
        if (!path && !n->builtin_script && strcmp(script, "null") != 0)
            pj_problem(&p->probs, file, pj_kv_find_entry(s->props, s->n_props, "script")->line, "script %s: no such resource in this file", script);
    }
    if (n->type && strcmp(n->type, "MultiplayerSpawner") == 0) n->spawner = true;
    if (n->type && strcmp(n->type, "MultiplayerSynchronizer") == 0) n->synchronizer = true;
    const char *v;
    if ((v = pj_kv_find(s->props, s->n_props, "_spawnable_scenes"))) /* multiplayer_spawner.cpp:162 */
        n->n_spawn_scenes = pj_value_strings(p->a, v, &n->spawn_scenes);
    if ((v = pj_kv_find(s->props, s->n_props, "spawn_path"))) n->spawn_path = pj_value_call_arg(p->a, v, "NodePath");
    if ((v = pj_kv_find(s->props, s->n_props, "root_path"))) n->root_path = pj_value_call_arg(p->a, v, "NodePath");
    if ((v = pj_kv_find(s->props, s->n_props, "replication_config"))) {
        n->replication = sub_section(p, r, v);
        n->replication_file = file;
        if (!n->replication) { /* a .tres of its own */
            const char *path = ext_path(p, r, v);
            scene_file *sf = scene_get(p, path);
            for (size_t i = 0; sf && i < sf->res.n_sections; i++)
                if (strcmp(sf->res.sections[i].tag, "resource") == 0) { n->replication = &sf->res.sections[i]; n->replication_file = path; }
        }
    }
}

/* Instance the scene at path under parent (SIZE_MAX: as the tree's root), its root named name
 * (NULL: its own). Returns the root's index or SIZE_MAX. */
static size_t expand(project *p, tree *t, const char *path, size_t parent, const char *name, size_t depth, const char *from,
                     unsigned from_line) {
    if (depth > p->lim.max_instance_depth) {
        pj_problem(&p->probs, from, from_line, "scenes inside scenes deeper than %zu (a loop?): %s not instanced", p->lim.max_instance_depth, path);
        return SIZE_MAX;
    }
    scene_file *sf = scene_get(p, path);
    if (!sf) { pj_problem(&p->probs, from, from_line, "scene %s: not found", path ? path : "(unknown)"); return SIZE_MAX; }
    const pj_text_resource *r = &sf->res;
    size_t root = SIZE_MAX;
    for (size_t i = 0; i < r->n_sections && !t->over_budget; i++) {
        const pj_section *s = &r->sections[i];
        if (strcmp(s->tag, "node") != 0) continue;
        const char *nname = section_string(p, s, "name");
        const char *par = section_string(p, s, "parent");
        const char *inst = pj_kv_find(s->attrs, s->n_attrs, "instance");
        if (!nname) { pj_problem(&p->probs, sf->path, s->line, "a node without a name"); continue; }
        size_t parent_idx;
        const char *full_parent;
        if (!par) {
            if (root != SIZE_MAX) { pj_problem(&p->probs, sf->path, s->line, "a second root node"); continue; }
            parent_idx = parent;
            if (name) nname = name;
        } else {
            if (root == SIZE_MAX) { pj_problem(&p->probs, sf->path, s->line, "a node before the root"); continue; }
            const char *root_full = PJ_AT(t->nodes, inode, root).full;
            full_parent = strcmp(par, ".") == 0 ? root_full : pj_printf(p->a, "%s/%s", root_full, par);
            if (!full_parent || !pj_map_get(&t->at, full_parent, &parent_idx)) {
                pj_problem(&p->probs, sf->path, s->line, "parent \"%s\" of %s: no such node", par, nname);
                continue;
            }
        }
        size_t idx;
        if (inst) {
            const char *ipath = ext_path(p, sf, inst);
            if (!ipath) { pj_problem(&p->probs, sf->path, s->line, "instance %s: no such resource in this file", inst); continue; }
            idx = expand(p, t, ipath, parent_idx, nname, depth + 1, sf->path, s->line);
            if (idx == SIZE_MAX) continue;
        } else {
            const char *full = parent_idx == SIZE_MAX ? nname : pj_printf(p->a, "%s/%s", PJ_AT(t->nodes, inode, parent_idx).full, nname);
            size_t existing;
            if (full && par && !pj_kv_find(s->attrs, s->n_attrs, "type") && pj_map_get(&t->at, full, &existing))
                idx = existing; /* an instanced node's properties changed here */
            else {
                idx = tree_add(p, t, parent_idx, nname);
                if (idx == SIZE_MAX) break;
            }
        }
        if (!par) root = idx;
        apply_props(p, t, idx, s, sf, sf->path);
    }
    if (t->over_budget) pj_problem(&p->probs, sf->path, 0, "more than %zu nodes: the rest not read", p->lim.max_nodes);
    return root;
}

/* ---- scripts' merged configs ---- */
static int entry_cmp(const void *x, const void *y) {
    /* code point order = UTF-8 byte order (StringName::AlphCompare, core/string/string_name.h:141-151) */
    return strcmp(((const rpc_entry *)x)->name, ((const rpc_entry *)y)->name);
}


/* "base.gd" beside res://dir/x.gd -> res://dir/base.gd */
static const char *relative_to(project *p, const char *file, const char *path) {
    if (strncmp(path, "res://", 6) == 0 || strncmp(path, "uid://", 6) == 0) return uid_to_path(p, path);
    const char *slash = strrchr(file, '/');
    return pj_printf(p->a, "%.*s/%s", (int)(slash - file), file, path);
}

static void reason(project *p, script_info *si, const char *text) {
    const char **r = pj_vec_push(&si->reasons);
    if (r) *r = text;
    (void)p;
}

static void resolve(project *p, script_info *si, size_t depth) {
    if (si->state == 2) return;
    if (si->state == 1 || depth > p->lim.max_inheritance) {
        pj_problem(&p->probs, si->s.file, si->s.extends_line, "an inheritance loop (or more than %zu scripts deep)", p->lim.max_inheritance);
        reason(p, si, pj_printf(p->a, "%s:%u: inheritance loop", si->s.file, si->s.extends_line));
        si->state = 2;
        return;
    }
    si->state = 1;
    pj_vec entries = PJ_VEC(rpc_entry);
    script_info *base = NULL;
    if (si->s.extends_path) {
        const char *bp = relative_to(p, si->s.file, si->s.extends_path);
        base = script_by_path(p, bp);
        if (!base) {
            pj_problem(&p->probs, si->s.file, si->s.extends_line, "extends %s: no such script", si->s.extends_path);
            reason(p, si, pj_printf(p->a, "%s:%u: base script %s missing", si->s.file, si->s.extends_line, si->s.extends_path));
        }
    } else if (si->s.extends_name) {
        size_t idx;
        if (pj_map_get(&p->class_at, si->s.extends_name, &idx)) base = PJ_AT(p->scripts, script_info *, idx);
        else if (strchr(si->s.extends_name, '.')) {
            pj_problem(&p->probs, si->s.file, si->s.extends_line, "extends %s: an inner class, not read", si->s.extends_name);
            reason(p, si, pj_printf(p->a, "%s:%u: extends an inner class", si->s.file, si->s.extends_line));
        } /* else an engine class: no RPCs of its own */
    }
    if (base) {
        resolve(p, base, depth + 1);
        for (size_t i = 0; i < base->n_rpcs; i++) {
            rpc_entry *e = pj_vec_push(&entries);
            if (e) *e = base->rpcs[i];
        }
        for (size_t i = 0; i < base->reasons.n; i++) reason(p, si, PJ_AT(base->reasons, const char *, i));
    }
    pj_map by_name = {0}; /* name -> index in entries: a script of many functions stays linear */
    for (size_t j = 0; j < entries.n; j++) pj_map_put(&by_name, PJ_AT(entries, rpc_entry, j).name, j);
    for (size_t i = 0; i < si->s.n_funcs; i++) {
        const pj_func *f = &si->s.funcs[i];
        size_t j;
        rpc_entry *e = pj_map_get(&by_name, f->name, &j) ? &PJ_AT(entries, rpc_entry, j) : NULL;
        if (!e && !f->rpc.set) continue; /* not an RPC */
        if (!e) {
            e = pj_vec_push(&entries);
            if (!e) break;
            e->name = f->name;
            pj_map_put(&by_name, f->name, entries.n - 1);
        }
        if (f->rpc.set) e->cfg = f->rpc; /* an override without @rpc keeps the base's config */
        e->args = f->args;
        e->n_args = f->n_args;
        e->rest = f->rest;
        e->declared_at = pj_printf(p->a, "%s:%u", si->s.file, f->line);
        if (f->rpc.set && !f->rpc.known)
            reason(p, si, pj_printf(p->a, "%s:%u: @rpc arguments not literals", si->s.file, f->line));
    }
    if (by_name.oom) p->a->oom = true;
    pj_map_free(&by_name);
    for (size_t i = 0; i < si->s.n_dynamic; i++) reason(p, si, si->s.dynamic[i]);
    if (si->s.broken) reason(p, si, pj_printf(p->a, "%s: does not compile (see problems): the engine attaches no RPCs", si->s.file));
    if (si->s.csharp_rpc) reason(p, si, pj_printf(p->a, "%s: not read (C#)", si->s.file));
    if (entries.n) qsort(entries.p, entries.n, sizeof(rpc_entry), entry_cmp);
    si->rpcs = pj_alloc(p->a, (entries.n ? entries.n : 1) * sizeof(rpc_entry));
    if (si->rpcs && entries.n) memcpy(si->rpcs, entries.p, entries.n * sizeof(rpc_entry));
    si->n_rpcs = si->rpcs ? entries.n : 0;
    pj_vec_free(&entries);
    si->state = 2;
}

static bool reason_is_config(const script_info *si) {
    return si->s.dynamic_config || si->s.broken || si->s.csharp_rpc || (si->reasons.n > si->s.n_dynamic);
}

/* ---- output ---- */
static void emit_node(project *p, const char *path, const char *origin, const inode *n) {
    script_info *si = NULL;
    const char **reasons = NULL;
    size_t n_reasons = 0;
    pj_vec rs = PJ_VEC(const char *);
    if (n->builtin_script) {
        const char **r = pj_vec_push(&rs);
        if (r) *r = pj_printf(p->a, "%s: a built-in script, not read", n->scene);
    }
    if (n->script) {
        si = script_by_path(p, n->script);
        if (!si) {
            pj_problem(&p->probs, n->scene, 0, "script %s of %s: not found", n->script, path);
            const char **r = pj_vec_push(&rs);
            if (r) *r = pj_printf(p->a, "%s: script missing", n->script);
        } else {
            resolve(p, si, 0);
            for (size_t i = 0; i < si->reasons.n; i++) {
                const char **r = pj_vec_push(&rs);
                if (r) *r = PJ_AT(si->reasons, const char *, i);
            }
        }
    }
    size_t n_rpcs = si ? si->n_rpcs : 0;
    bool config_dynamic = n->builtin_script || (n->script && !si) || (si && reason_is_config(si));
    if (!n_rpcs && !config_dynamic) { pj_vec_free(&rs); return; }
    /* a node is listed once; a spawned one (a "*" in its path) once per scene that makes it */
    const char *key = strchr(path, '*') ? pj_printf(p->a, "%s\n%s", path, n->scene ? n->scene : "") : path;
    if (!key || pj_map_get(&p->node_at, key, NULL)) { pj_vec_free(&rs); return; }
    gdw_rpc_node *out = pj_vec_push(&p->nodes);
    if (!out) { pj_vec_free(&rs); return; }
    pj_map_put(&p->node_at, key, p->nodes.n - 1);
    out->path = path;
    out->origin = origin;
    out->scene = n->scene;
    out->script = n->script;
    out->class_name = si ? si->s.class_name : NULL;
    n_reasons = rs.n;
    reasons = pj_alloc(p->a, (n_reasons ? n_reasons : 1) * sizeof *reasons);
    if (reasons && n_reasons) memcpy(reasons, rs.p, n_reasons * sizeof *reasons);
    pj_vec_free(&rs);
    out->dynamic_reasons = reasons;
    out->n_dynamic_reasons = reasons ? n_reasons : 0;
    out->dynamic = n_reasons > 0;
    if (n_rpcs > 0x7fff) /* ids are uint16_t, bit 15 the node's own (scene_rpc_interface.cpp:96-99): they wrap there too */
        pj_problem(&p->probs, n->script, 0, "%zu RPCs on %s: past 32,767 the engine's ids wrap into the node config's bit", n_rpcs, path);
    gdw_rpc_method *m = pj_alloc(p->a, (n_rpcs ? n_rpcs : 1) * sizeof *m);
    const char **names = pj_alloc(p->a, (n_rpcs ? n_rpcs : 1) * sizeof *names);
    if (!m || !names) return;
    for (size_t i = 0; i < n_rpcs; i++) {
        const rpc_entry *e = &si->rpcs[i];
        m[i] = (gdw_rpc_method){(uint16_t)i, false, e->name, e->cfg.mode, e->cfg.call_local, e->cfg.transfer_mode,
                                e->cfg.channel, e->args, e->n_args, true, e->declared_at,
                                pj_args_required(e->args, e->n_args), p->godot, e->rest};
        names[i] = e->name;
    }
    out->rpcs = m;
    out->n_rpcs = n_rpcs;
    out->has_md5 = pj_rpcs_by_id(p->godot);
    if (out->has_md5) gdw_rpc_md5(names, n_rpcs, out->md5);
}

/* spawner path + its spawn_path ("..", "../Players") -> the spawned nodes' parent. */
static const char *join_node_path(project *p, const char *base, const char *rel) {
    if (!rel || !*rel) return NULL;
    if (strncmp(rel, "/root/", 6) == 0) return pj_strdup(p->a, rel + 6);
    char *out = pj_strdup(p->a, base);
    if (!out) return NULL;
    const char *s = rel;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.') {
            char *slash = strrchr(out, '/');
            if (!slash) return NULL; /* above the multiplayer root */
            *slash = 0;
        } else if (!(n == 1 && s[0] == '.') && n) {
            char *next = pj_printf(p->a, "%s/%.*s", out, (int)n, s);
            if (!next) return NULL;
            out = next;
        }
        s += n;
        if (*s == '/') s++;
    }
    return out;
}

static void emit_replication(project *p, const char *path, const inode *n) {
    gdw_rpc_synchronizer *sy = pj_vec_push(&p->syncs);
    if (!sy) return;
    sy->path = path;
    sy->root_path = n->root_path ? n->root_path : "..";
    sy->scene = n->scene;
    pj_vec props = PJ_VEC(gdw_replicated_property);
    const pj_section *s = n->replication;
    for (size_t i = 0; s && i < s->n_props; i++) {
        const pj_kv *kv = &s->props[i];
        if (strncmp(kv->key, "properties/", 11) != 0) continue;
        char *end;
        long idx = strtol(kv->key + 11, &end, 10);
        if (*end != '/' || idx < 0) continue;
        const char *what = end + 1;
        if ((size_t)idx == props.n && strcmp(what, "path") == 0) { /* _set: scene_replication_config.cpp:40-45 */
            gdw_replicated_property *rp = pj_vec_push(&props);
            if (!rp) break;
            rp->path = pj_value_call_arg(p->a, kv->value, "NodePath");
            rp->spawn = true;
            rp->mode = GDW_REPLICATE_ALWAYS;
            if (!rp->path) { props.n--; pj_problem(&p->probs, n->replication_file, kv->line, "%s: not a NodePath", kv->key); }
            continue;
        }
        if ((size_t)idx >= props.n) { pj_problem(&p->probs, n->replication_file, kv->line, "%s: no such property yet", kv->key); continue; }
        gdw_replicated_property *rp = &PJ_AT(props, gdw_replicated_property, idx);
        long long mode;
        bool b;
        if (strcmp(what, "replication_mode") == 0 && pj_value_int(kv->value, &mode) && mode >= 0 && mode <= 2) rp->mode = (gdw_replication_mode)mode;
        else if (strcmp(what, "spawn") == 0 && pj_value_bool(kv->value, &b)) rp->spawn = b;
        else if (strcmp(what, "sync") == 0 && pj_value_bool(kv->value, &b)) { /* :187-193 */
            if (b) rp->mode = GDW_REPLICATE_ALWAYS;
            else if (rp->mode == GDW_REPLICATE_ALWAYS) rp->mode = GDW_REPLICATE_NEVER;
        } else if (strcmp(what, "watch") == 0 && pj_value_bool(kv->value, &b)) { /* :201-207 */
            if (b) rp->mode = GDW_REPLICATE_ON_CHANGE;
            else if (rp->mode == GDW_REPLICATE_ON_CHANGE) rp->mode = GDW_REPLICATE_NEVER;
        } else pj_problem(&p->probs, n->replication_file, kv->line, "%s = %s: not read", kv->key, kv->value);
    }
    int spawn = 0, sync = 0, watch = 0;
    for (size_t i = 0; i < props.n; i++) {
        gdw_replicated_property *rp = &PJ_AT(props, gdw_replicated_property, i);
        rp->spawn_index = rp->spawn ? spawn++ : -1;
        rp->sync_index = rp->mode == GDW_REPLICATE_ALWAYS ? sync++ : -1;
        rp->watch_index = rp->mode == GDW_REPLICATE_ON_CHANGE ? watch++ : -1;
    }
    gdw_replicated_property *list = pj_alloc(p->a, (props.n ? props.n : 1) * sizeof *list);
    if (list && props.n) memcpy(list, props.p, props.n * sizeof *list);
    sy->properties = list;
    sy->n_properties = list ? props.n : 0;
    pj_vec_free(&props);
}

/* Emit every node of a tree whose root sits at prefix ("" for the multiplayer root). */
static void emit_tree(project *p, tree *t, const char *prefix, const char *origin) {
    for (size_t i = 0; i < t->nodes.n; i++) {
        const inode *n = &PJ_AT(t->nodes, inode, i);
        const char *path = *prefix ? pj_printf(p->a, "%s/%s", prefix, n->full) : n->full;
        if (!path) continue;
        emit_node(p, path, origin, n);
        if (n->synchronizer) emit_replication(p, path, n);
        if (n->spawner) {
            gdw_rpc_spawner *sp = pj_vec_push(&p->spawners);
            if (!sp) continue;
            sp->path = path;
            sp->spawn_path = n->spawn_path ? n->spawn_path : "";
            sp->scene = n->scene;
            sp->scenes = n->spawn_scenes;
            sp->n_scenes = n->n_spawn_scenes;
            const char *at = join_node_path(p, path, n->spawn_path);
            if (!at) { pj_problem(&p->probs, n->scene, 0, "spawner %s: spawn_path \"%s\" not followed", path, sp->spawn_path); continue; }
            if (strlen(at) > 4096) { /* spawners inside what they spawn, round and round */
                pj_problem(&p->probs, n->scene, 0, "spawner %.64s...: a path past 4,096 bytes: what it spawns not read", path);
                continue;
            }
            for (size_t k = 0; k < n->n_spawn_scenes; k++) {
                const char *key = pj_printf(p->a, "%s\n%s", n->spawn_scenes[k], at);
                if (!key || pj_map_get(&p->spawn_seen, key, NULL)) continue;
                pj_map_put(&p->spawn_seen, key, 0);
                const char **q = pj_vec_push(&p->spawn_queue);
                if (!q) continue;
                q[0] = uid_to_path(p, n->spawn_scenes[k]);
                /* (the queue holds pairs: scene, parent path) */
                const char **q2 = pj_vec_push(&p->spawn_queue);
                if (q2) q2[0] = at;
            }
        }
    }
}

static void read_tree(project *p, const char *scene, const char *root_name, const char *prefix, const char *origin,
                      const char *from, unsigned from_line) {
    tree t = {PJ_VEC(inode), {0}, false};
    expand(p, &t, scene, SIZE_MAX, root_name, 0, from, from_line);
    emit_tree(p, &t, prefix, origin);
    pj_vec_free(&t.nodes);
    pj_map_free(&t.at);
}

static int node_cmp(const void *x, const void *y) {
    const gdw_rpc_node *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : strcmp(a->scene ? a->scene : "", b->scene ? b->scene : "");
}
static int sync_cmp(const void *x, const void *y) { return strcmp(((const gdw_rpc_synchronizer *)x)->path, ((const gdw_rpc_synchronizer *)y)->path); }
static int spawner_cmp(const void *x, const void *y) { return strcmp(((const gdw_rpc_spawner *)x)->path, ((const gdw_rpc_spawner *)y)->path); }

void gdw_project_limits_default(gdw_project_limits *l) {
    l->max_file_bytes = 16u << 20;
    l->max_total_bytes = (size_t)1 << 30;
    l->max_files = 200000;
    l->max_dir_depth = 64;
    l->max_nodes = 200000;
    l->max_instance_depth = 32;
    l->max_inheritance = 64;
    l->max_total_nodes = 2000000;
}


static void *copy_out(pj_arena *a, const pj_vec *v) {
    void *p = pj_alloc(a, v->n ? v->n * v->item : 1);
    if (p && v->n) memcpy(p, v->p, v->n * v->item);
    return p;
}

gdw_project_status gdw_project_read(const char *dir, const gdw_project_limits *limits, gdw_rpc_manifest **out,
                                    char *err, size_t err_cap) {
    *out = NULL;
    manifest_box *box = calloc(1, sizeof *box);
    if (!box) { if (err) snprintf(err, err_cap, "out of memory"); return GDW_PROJECT_NOMEM; }
    project p = {.dir = dir, .a = &box->arena, .scripts = PJ_VEC(script_info *), .scenes = PJ_VEC(scene_file *),
                 .nodes = PJ_VEC(gdw_rpc_node), .syncs = PJ_VEC(gdw_rpc_synchronizer), .spawners = PJ_VEC(gdw_rpc_spawner),
                 .spawn_queue = PJ_VEC(const char *)};
    gdw_project_limits_default(&p.lim);
    if (limits) {
        const size_t *in = (const size_t *)limits;
        size_t *lim = (size_t *)&p.lim;
        for (size_t i = 0; i < sizeof *limits / sizeof(size_t); i++) if (in[i]) lim[i] = in[i];
    }
    p.probs = (pj_problems){&box->arena, PJ_VEC(gdw_project_problem), 10000, 0};
    gdw_project_status status = GDW_PROJECT_OK;

    size_t len;
    char *text = read_file(&p, "res://project.godot", &len);
    if (!text) {
        if (err) snprintf(err, err_cap, "%s: no project.godot there (a Godot project's folder holds one)", dir);
        status = GDW_PROJECT_NOT_A_PROJECT;
        goto done;
    }
    pj_text_resource cfg;
    pj_text_resource_scan(text, len, "res://project.godot", p.a, &p.probs, 100000, &cfg);
    free(text);
    p.godot = 4;
    long long version = 0;
    const char *name = NULL, *main_scene = NULL;
    const pj_section *autoload = NULL;
    for (size_t i = 0; i < cfg.n_sections; i++) {
        const pj_section *s = &cfg.sections[i];
        if (!*s->tag) pj_value_int(pj_kv_find(s->props, s->n_props, "config_version"), &version);
        if (strcmp(s->tag, "application") == 0) {
            name = pj_value_string(p.a, pj_kv_find(s->props, s->n_props, "config/name"));
            main_scene = pj_value_string(p.a, pj_kv_find(s->props, s->n_props, "run/main_scene"));
        }
        if (strcmp(s->tag, "autoload") == 0) autoload = s;
    }
    bool known = false;
    for (size_t i = 0; i < sizeof k_generations / sizeof k_generations[0]; i++)
        if (k_generations[i].config_version == version) { p.godot = k_generations[i].godot; known = true; }
    if (!known) pj_problem(&p.probs, "res://project.godot", 1, "config_version=%lld: not a known Godot release; read as Godot 4", version);

    walk(&p, "", 0);
    learn_scene_uids(&p);
    for (size_t i = 0; i < p.scripts.n; i++) { /* class_name -> script, after every script is read */
        script_info *si = PJ_AT(p.scripts, script_info *, i);
        if (si->s.class_name) pj_map_put(&p.class_at, si->s.class_name, i);
    }

    /* autoloads, at /root/NAME (a script or a scene) */
    for (size_t i = 0; autoload && i < autoload->n_props; i++) {
        const pj_kv *kv = &autoload->props[i];
        char *v = pj_value_string(p.a, kv->value);
        if (!v) { pj_problem(&p.probs, "res://project.godot", kv->line, "autoload %s: not a string", kv->key); continue; }
        const char *path = uid_to_path(&p, v[0] == '*' ? v + 1 : v);
        if (!path) { pj_problem(&p.probs, "res://project.godot", kv->line, "autoload %s: %s not found", kv->key, v); continue; }
        if (ends_with(path, ".tscn")) read_tree(&p, path, kv->key, "", "autoload", "res://project.godot", kv->line);
        else {
            inode n = {.full = kv->key, .name = kv->key, .script = path, .scene = NULL};
            if (!script_by_path(&p, path)) pj_problem(&p.probs, "res://project.godot", kv->line, "autoload %s: %s not found", kv->key, path);
            else emit_node(&p, kv->key, "autoload", &n);
        }
    }
    if (main_scene) {
        const char *path = uid_to_path(&p, main_scene);
        if (path) read_tree(&p, path, NULL, "", "main_scene", "res://project.godot", 0);
        else pj_problem(&p.probs, "res://project.godot", 0, "run/main_scene %s: not found", main_scene);
    } else {
        pj_problem(&p.probs, "res://project.godot", 0, "no run/main_scene");
    }
    /* scenes the spawners can spawn (a spawned scene may hold spawners of its own) */
    for (size_t i = 0; i + 1 < p.spawn_queue.n && i < 2 * 10000; i += 2) {
        const char *scene = PJ_AT(p.spawn_queue, const char *, i);
        const char *at = PJ_AT(p.spawn_queue, const char *, i + 1);
        if (scene) read_tree(&p, scene, "*", at, "spawnable", "res://project.godot", 0);
    }
    if (p.probs.dropped) pj_problem(&p.probs, NULL, 0, "and %zu more problems", p.probs.dropped);

    if (p.nodes.n) qsort(p.nodes.p, p.nodes.n, sizeof(gdw_rpc_node), node_cmp);
    if (p.syncs.n) qsort(p.syncs.p, p.syncs.n, sizeof(gdw_rpc_synchronizer), sync_cmp);
    if (p.spawners.n) qsort(p.spawners.p, p.spawners.n, sizeof(gdw_rpc_spawner), spawner_cmp);
    box->m.godot = p.godot;
    box->m.generator = "gdwire rpc";
    box->m.name = name;
    box->m.main_scene = main_scene;
    box->m.dir = pj_strdup(p.a, dir);
    box->m.nodes = copy_out(p.a, &p.nodes);
    box->m.n_nodes = p.nodes.n;
    box->m.synchronizers = copy_out(p.a, &p.syncs);
    box->m.n_synchronizers = p.syncs.n;
    box->m.spawners = copy_out(p.a, &p.spawners);
    box->m.n_spawners = p.spawners.n;
    box->m.problems = copy_out(p.a, &p.probs.list);
    box->m.n_problems = p.probs.list.n;
    if (p.a->oom || p.nodes.oom || p.syncs.oom || p.spawners.oom || p.probs.list.oom || p.scripts.oom || p.scenes.oom ||
        p.script_at.oom || p.class_at.oom || p.scene_at.oom || p.node_at.oom) {
        if (err) snprintf(err, err_cap, "out of memory");
        status = GDW_PROJECT_NOMEM;
    }
done:
    for (size_t i = 0; i < p.scripts.n; i++) pj_vec_free(&PJ_AT(p.scripts, script_info *, i)->reasons);
    pj_vec_free(&p.scripts);
    for (size_t i = 0; i < p.scenes.n; i++) {
        pj_map_free(&PJ_AT(p.scenes, scene_file *, i)->ext);
        pj_map_free(&PJ_AT(p.scenes, scene_file *, i)->sub);
    }
    pj_vec_free(&p.scenes);
    pj_vec_free(&p.nodes);
    pj_vec_free(&p.syncs);
    pj_vec_free(&p.spawners);
    pj_vec_free(&p.spawn_queue);
    pj_vec_free(&p.probs.list);
    pj_map_free(&p.script_at);
    pj_map_free(&p.class_at);
    pj_map_free(&p.uid_path);
    pj_map_free(&p.scene_at);
    pj_map_free(&p.node_at);
    pj_map_free(&p.spawn_seen);
    if (status != GDW_PROJECT_OK) {
        pj_arena_free(&box->arena);
        free(box);
        return status;
    }
    *out = &box->m;
    return GDW_PROJECT_OK;
}


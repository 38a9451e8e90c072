/* SPDX-License-Identifier: MIT */
/* manifest.c — the manifest out (JSON of docs/rpc-manifest.schema.json, and text), in (JSON, as
 * `gdwire rpc --json` or the game addon write it), and two builds' manifests compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire.h"
#include "pj.h"

static const char *const k_mode_names[GDW_RPC_MODE_COUNT] = {
    "disabled", "any_peer", "authority", "remote", "master", "puppet", "remotesync", "mastersync", "puppetsync"};
static const char *const k_transfer_names[] = {"unreliable", "unreliable_ordered", "reliable"};
static const char *const k_replication_names[] = {"never", "always", "on_change"};

const char *gdw_rpc_mode_name(gdw_rpc_mode m) { return (unsigned)m < GDW_RPC_MODE_COUNT ? k_mode_names[m] : "?"; }
const char *gdw_transfer_mode_name(gdw_transfer_mode t) { return (unsigned)t < 3 ? k_transfer_names[t] : "?"; }
const char *gdw_replication_mode_name(gdw_replication_mode m) { return (unsigned)m < 3 ? k_replication_names[m] : "?"; }

static int name_index(const char *const *names, size_t n, const char *s) {
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0) return (int)i;
    return -1;
}

/* ---- JSON out ---- */
static void json_index(pj_buf *b, int i) {
    if (i < 0) pj_buf_adds(b, "null");
    else pj_buf_addf(b, "%d", i);
}

char *gdw_rpc_manifest_json(const gdw_rpc_manifest *m, size_t *len) {
    pj_buf b = {0};
    pj_buf_addf(&b, "{\"format\":\"gdwire-rpc-manifest\",\"version\":1,\"source\":\"%s\",\"generator\":",
                m->from_engine ? "engine" : "static");
    pj_buf_json_str(&b, m->generator ? m->generator : "gdwire " GDW_VERSION);
    pj_buf_addf(&b, ",\"godot\":%d,\"project\":{\"name\":", m->godot);
    pj_buf_json_str(&b, m->name);
    pj_buf_adds(&b, ",\"main_scene\":");
    pj_buf_json_str(&b, m->main_scene);
    pj_buf_adds(&b, ",\"dir\":");
    pj_buf_json_str(&b, m->dir);
    pj_buf_adds(&b, "},\n\"nodes\":[");
    for (size_t i = 0; i < m->n_nodes; i++) {
        const gdw_rpc_node *n = &m->nodes[i];
        pj_buf_adds(&b, i ? ",\n{\"path\":" : "\n{\"path\":");
        pj_buf_json_str(&b, n->path);
        pj_buf_adds(&b, ",\"origin\":");
        pj_buf_json_str(&b, n->origin ? n->origin : "runtime");
        pj_buf_adds(&b, ",\"scene\":");
        pj_buf_json_str(&b, n->scene);
        pj_buf_adds(&b, ",\"script\":");
        pj_buf_json_str(&b, n->script);
        pj_buf_adds(&b, ",\"class_name\":");
        pj_buf_json_str(&b, n->class_name);
        pj_buf_adds(&b, ",\"md5\":");
        pj_buf_json_str(&b, n->has_md5 ? n->md5 : NULL);
        pj_buf_addf(&b, ",\"dynamic\":%s,\"dynamic_reasons\":[", n->dynamic ? "true" : "false");
        for (size_t k = 0; k < n->n_dynamic_reasons; k++) {
            if (k) pj_buf_adds(&b, ",");
            pj_buf_json_str(&b, n->dynamic_reasons[k]);
        }
        pj_buf_adds(&b, "],\"rpcs\":[");
        for (size_t r = 0; r < n->n_rpcs; r++) {
            const gdw_rpc_method *rm = &n->rpcs[r];
            pj_buf_addf(&b, "%s\n {\"id\":%u,\"name\":", r ? "," : "", rm->id);
            pj_buf_json_str(&b, rm->name);
            pj_buf_addf(&b, ",\"from\":\"%s\",\"mode\":\"%s\",\"call_local\":%s,\"transfer_mode\":\"%s\",\"channel\":%d,\"args\":[",
                        rm->from_node ? "node" : "script", gdw_rpc_mode_name(rm->mode), rm->call_local ? "true" : "false",
                        gdw_transfer_mode_name(rm->transfer_mode), rm->channel);
            for (size_t a = 0; a < rm->n_args; a++) {
                pj_buf_adds(&b, a ? ",{\"name\":" : "{\"name\":");
                pj_buf_json_str(&b, rm->args[a].name);
                pj_buf_adds(&b, ",\"type\":");
                pj_buf_json_str(&b, rm->args[a].type);
                if (rm->args[a].inferred) pj_buf_adds(&b, ",\"inferred\":true");
                pj_buf_adds(&b, rm->args[a].has_default ? ",\"default\":true}" : "}");
            }
            pj_buf_adds(&b, "]");
            if (rm->rest) {
                pj_buf_adds(&b, ",\"rest\":");
                pj_buf_json_str(&b, rm->rest);
            }
            pj_buf_adds(&b, ",\"declared_at\":");
            pj_buf_json_str(&b, rm->declared_at);
            pj_buf_adds(&b, "}");
        }
        pj_buf_adds(&b, "]}");
    }
    pj_buf_adds(&b, "],\n\"synchronizers\":[");
    for (size_t i = 0; i < m->n_synchronizers; i++) {
        const gdw_rpc_synchronizer *s = &m->synchronizers[i];
        pj_buf_adds(&b, i ? ",\n{\"path\":" : "\n{\"path\":");
        pj_buf_json_str(&b, s->path);
        pj_buf_adds(&b, ",\"root_path\":");
        pj_buf_json_str(&b, s->root_path ? s->root_path : "..");
        pj_buf_adds(&b, ",\"scene\":");
        pj_buf_json_str(&b, s->scene);
        pj_buf_adds(&b, ",\"properties\":[");
        for (size_t k = 0; k < s->n_properties; k++) {
            const gdw_replicated_property *rp = &s->properties[k];
            pj_buf_adds(&b, k ? ",{\"path\":" : "{\"path\":");
            pj_buf_json_str(&b, rp->path);
            pj_buf_addf(&b, ",\"spawn\":%s,\"replication_mode\":\"%s\",\"spawn_index\":", rp->spawn ? "true" : "false",
                        gdw_replication_mode_name(rp->mode));
            json_index(&b, rp->spawn_index);
            pj_buf_adds(&b, ",\"sync_index\":");
            json_index(&b, rp->sync_index);
            pj_buf_adds(&b, ",\"watch_index\":");
            json_index(&b, rp->watch_index);
            pj_buf_adds(&b, ",\"delta_bit\":");
            json_index(&b, rp->watch_index); /* the DELTA mask's bit i is watch entry i */
            pj_buf_adds(&b, "}");
        }
        pj_buf_adds(&b, "]}");
    }
    pj_buf_adds(&b, "],\n\"spawners\":[");
    for (size_t i = 0; i < m->n_spawners; i++) {
        const gdw_rpc_spawner *s = &m->spawners[i];
        pj_buf_adds(&b, i ? ",\n{\"path\":" : "\n{\"path\":");
        pj_buf_json_str(&b, s->path);
        pj_buf_adds(&b, ",\"spawn_path\":");
        pj_buf_json_str(&b, s->spawn_path ? s->spawn_path : "");
        pj_buf_adds(&b, ",\"scene\":");
        pj_buf_json_str(&b, s->scene);
        pj_buf_adds(&b, ",\"scenes\":[");
        for (size_t k = 0; k < s->n_scenes; k++) {
            if (k) pj_buf_adds(&b, ",");
            pj_buf_json_str(&b, s->scenes[k]);
        }
        pj_buf_adds(&b, "]}");
    }
    pj_buf_adds(&b, "],\n\"problems\":[");
    for (size_t i = 0; i < m->n_problems; i++) {
        const gdw_project_problem *pr = &m->problems[i];
        pj_buf_adds(&b, i ? ",\n{\"file\":" : "\n{\"file\":");
        pj_buf_json_str(&b, pr->file);
        pj_buf_addf(&b, ",\"line\":%u,\"message\":", pr->line);
        pj_buf_json_str(&b, pr->message);
        pj_buf_adds(&b, "}");
    }
    pj_buf_adds(&b, "]}\n");
    if (b.oom) { free(b.p); return NULL; }
    if (len) *len = b.len;
    return b.p;
}

/* ---- text out ---- */
static void text_args(pj_buf *b, const gdw_rpc_method *rm) {
    pj_buf_adds(b, "(");
    for (size_t a = 0; a < rm->n_args; a++) {
        pj_buf_addf(b, "%s%s", a ? ", " : "", rm->args[a].name);
        if (rm->args[a].type) pj_buf_addf(b, ": %s", rm->args[a].type);
        if (rm->args[a].has_default) pj_buf_adds(b, " = …"); /* a call may leave it out */
    }
    if (rm->rest) pj_buf_addf(b, "%s...%s", rm->n_args ? ", " : "", rm->rest); /* and any number more */
    pj_buf_adds(b, rm->args_known ? ")" : "...)");
}

char *gdw_rpc_manifest_text(const gdw_rpc_manifest *m, size_t *len) {
    pj_buf b = {0};
    pj_buf_addf(&b, "project %s%s%s (Godot %d), main scene %s: %zu node%s with RPCs, %zu synchronizer%s, %zu spawner%s\n",
                m->name ? "\"" : "", m->name ? m->name : "(unnamed)", m->name ? "\"" : "", m->godot,
                m->main_scene ? m->main_scene : "(none)", m->n_nodes, m->n_nodes == 1 ? "" : "s", m->n_synchronizers,
                m->n_synchronizers == 1 ? "" : "s", m->n_spawners, m->n_spawners == 1 ? "" : "s");
    for (size_t i = 0; i < m->n_nodes; i++) {
        const gdw_rpc_node *n = &m->nodes[i];
        pj_buf_addf(&b, "\n%s", n->path);
        if (n->has_md5) pj_buf_addf(&b, "  md5 %s", n->md5);
        pj_buf_addf(&b, "  [%s]%s\n", n->origin ? n->origin : "runtime", n->dynamic ? "  DYNAMIC" : "");
        if (n->script) pj_buf_addf(&b, "  script %s%s%s%s\n", n->script, n->class_name ? " (class_name " : "",
                                   n->class_name ? n->class_name : "", n->class_name ? ")" : "");
        for (size_t r = 0; r < n->n_rpcs; r++) {
            const gdw_rpc_method *rm = &n->rpcs[r];
            pj_buf_addf(&b, "  %5u  %s", rm->id, rm->name);
            text_args(&b, rm);
            pj_buf_addf(&b, "  %s%s %s channel %d", gdw_rpc_mode_name(rm->mode), rm->call_local ? " call_local" : "",
                        gdw_transfer_mode_name(rm->transfer_mode), rm->channel);
            if (rm->from_node) pj_buf_adds(&b, "  (node config)");
            if (rm->declared_at) pj_buf_addf(&b, "  %s", rm->declared_at);
            pj_buf_adds(&b, "\n");
        }
        for (size_t k = 0; k < n->n_dynamic_reasons; k++) pj_buf_addf(&b, "  dynamic: %s\n", n->dynamic_reasons[k]);
    }
    for (size_t i = 0; i < m->n_synchronizers; i++) {
        const gdw_rpc_synchronizer *s = &m->synchronizers[i];
        pj_buf_addf(&b, "\nsynchronizer %s  root_path %s\n", s->path, s->root_path ? s->root_path : "..");
        for (size_t k = 0; k < s->n_properties; k++) {
            const gdw_replicated_property *rp = &s->properties[k];
            pj_buf_addf(&b, "  %s  %s", rp->path, gdw_replication_mode_name(rp->mode));
            if (rp->spawn_index >= 0) pj_buf_addf(&b, "  spawn %d", rp->spawn_index);
            if (rp->sync_index >= 0) pj_buf_addf(&b, "  sync %d", rp->sync_index);
            if (rp->watch_index >= 0) pj_buf_addf(&b, "  watch %d (delta bit %d)", rp->watch_index, rp->watch_index);
            pj_buf_adds(&b, "\n");
        }
    }
    for (size_t i = 0; i < m->n_spawners; i++) {
        const gdw_rpc_spawner *s = &m->spawners[i];
        pj_buf_addf(&b, "\nspawner %s  spawn_path %s\n", s->path, s->spawn_path && *s->spawn_path ? s->spawn_path : "(none)");
        for (size_t k = 0; k < s->n_scenes; k++) pj_buf_addf(&b, "  scene %zu  %s\n", k, s->scenes[k]);
    }
    if (m->n_problems) pj_buf_addf(&b, "\n%zu problem%s:\n", m->n_problems, m->n_problems == 1 ? "" : "s");
    for (size_t i = 0; i < m->n_problems; i++) {
        const gdw_project_problem *pr = &m->problems[i];
        if (pr->file && pr->line) pj_buf_addf(&b, "  %s:%u: %s\n", pr->file, pr->line, pr->message);
        else if (pr->file) pj_buf_addf(&b, "  %s: %s\n", pr->file, pr->message);
        else pj_buf_addf(&b, "  %s\n", pr->message);
    }
    if (b.oom) { free(b.p); return NULL; }
    if (len) *len = b.len;
    return b.p;
}

/* ---- JSON in ---- */

static const char *jstr(pj_arena *a, const gdw_value *obj, const char *key) {
    const gdw_value *v = obj ? gdw_dict_getc(obj, key) : NULL;
    const char *s;
    size_t n;
    return v && gdw_get_string(v, &s, &n) ? pj_strndup(a, s, n) : NULL;
}
static long long jint(const gdw_value *obj, const char *key, long long dflt) {
    const gdw_value *v = obj ? gdw_dict_getc(obj, key) : NULL;
    int64_t x;
    return v && gdw_get_int(v, &x) ? (long long)x : dflt;
}
static bool jbool(const gdw_value *obj, const char *key) {
    const gdw_value *v = obj ? gdw_dict_getc(obj, key) : NULL;
    bool x;
    return v && gdw_get_bool(v, &x) && x;
}
static size_t jcount(const gdw_value *obj, const char *key) {
    const gdw_value *v = obj ? gdw_dict_getc(obj, key) : NULL;
    return v && gdw_array_get(v, 0) ? gdw_count(v) : 0;
}
static const gdw_value *jat(const gdw_value *obj, const char *key, size_t i) {
    const gdw_value *v = obj ? gdw_dict_getc(obj, key) : NULL;
    return v ? gdw_array_get(v, i) : NULL;
}

/* A dump by the game addon has no ids and no MD5 (the engine does not expose them): given here by the
 * engine's rule (scene_rpc_interface.cpp:75-127 in 4.6.3): the node's own config sorted, ids with bit 15,
 * then the script's sorted, ids from 0; the MD5 of the names in that order. */
static int by_from_then_name(const void *x, const void *y) {
    const gdw_rpc_method *a = x, *b = y;
    if (a->from_node != b->from_node) return a->from_node ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void fill_ids(gdw_rpc_node *n, int godot, pj_arena *a) {
    bool missing = false;
    for (size_t i = 0; i < n->n_rpcs; i++) missing |= n->rpcs[i].id == 0xffff;
    if (!missing) return;
    gdw_rpc_method *m = (gdw_rpc_method *)n->rpcs;
    qsort(m, n->n_rpcs, sizeof *m, by_from_then_name);
    uint16_t node_i = 0, script_i = 0;
    const char **names = pj_alloc(a, (n->n_rpcs ? n->n_rpcs : 1) * sizeof *names);
    for (size_t i = 0; i < n->n_rpcs; i++) {
        m[i].id = m[i].from_node ? (uint16_t)(0x8000 | node_i++) : script_i++;
        if (names) names[i] = m[i].name;
    }
    if (pj_rpcs_by_id(godot) && !n->has_md5 && names) {
        gdw_rpc_md5(names, n->n_rpcs, n->md5);
        n->has_md5 = true;
    }
}

/* One for the read and the parsed manifest: both live in a manifest_box's arena. */
void gdw_rpc_manifest_free(gdw_rpc_manifest *m) {
    if (!m) return;
    manifest_box *box = (manifest_box *)m;
    pj_arena_free(&box->arena);
    free(box);
}

gdw_project_status gdw_rpc_manifest_parse(const char *json, size_t len, gdw_rpc_manifest **out, char *err, size_t err_cap) {
    *out = NULL;
    gdw_doc *doc = NULL;
    gdw_error e;
    if (gdw_json_parse_plain(json, len, NULL, &doc, &e) != GDW_OK) {
        if (err) snprintf(err, err_cap, "not JSON (byte %zu)", (size_t)e.offset);
        return GDW_PROJECT_SYNTAX;
    }
    const gdw_value *root = gdw_doc_root(doc);
    const char *fmt;
    size_t fl;
    const gdw_value *f = gdw_dict_getc(root, "format");
    if (!f || !gdw_get_string(f, &fmt, &fl) || fl != 19 || memcmp(fmt, "gdwire-rpc-manifest", 19) != 0) {
        if (err) snprintf(err, err_cap, "not an RPC manifest (no \"format\": \"gdwire-rpc-manifest\")");
        gdw_doc_free(doc);
        return GDW_PROJECT_SYNTAX;
    }
    manifest_box *box = calloc(1, sizeof *box);
    if (!box) { gdw_doc_free(doc); return GDW_PROJECT_NOMEM; }
    pj_arena *a = &box->arena;
    gdw_rpc_manifest *m = &box->m;
    const char *src = jstr(a, root, "source");
    m->from_engine = src && strcmp(src, "engine") == 0;
    m->godot = (int)jint(root, "godot", 4);
    m->generator = jstr(a, root, "generator");
    const gdw_value *proj = gdw_dict_getc(root, "project");
    m->name = jstr(a, proj, "name");
    m->main_scene = jstr(a, proj, "main_scene");
    m->dir = jstr(a, proj, "dir");
    size_t nn = jcount(root, "nodes");
    gdw_rpc_node *nodes = pj_alloc(a, (nn ? nn : 1) * sizeof *nodes);
    for (size_t i = 0; nodes && i < nn; i++) {
        const gdw_value *jn = jat(root, "nodes", i);
        gdw_rpc_node *n = &nodes[i];
        n->path = jstr(a, jn, "path");
        if (!n->path) n->path = "";
        n->origin = jstr(a, jn, "origin");
        n->scene = jstr(a, jn, "scene");
        n->script = jstr(a, jn, "script");
        n->class_name = jstr(a, jn, "class_name");
        const char *md5 = jstr(a, jn, "md5");
        if (md5 && strlen(md5) == 32) { n->has_md5 = true; memcpy(n->md5, md5, 33); }
        n->dynamic = jbool(jn, "dynamic");
        size_t nr = jcount(jn, "dynamic_reasons");
        const char **reasons = pj_alloc(a, (nr ? nr : 1) * sizeof *reasons);
        for (size_t k = 0; reasons && k < nr; k++) {
            const char *s;
            size_t sl;
            reasons[k] = gdw_get_string(jat(jn, "dynamic_reasons", k), &s, &sl) ? pj_strndup(a, s, sl) : "";
        }
        n->dynamic_reasons = reasons;
        n->n_dynamic_reasons = reasons ? nr : 0;
        size_t nm = jcount(jn, "rpcs");
        gdw_rpc_method *rpcs = pj_alloc(a, (nm ? nm : 1) * sizeof *rpcs);
        for (size_t r = 0; rpcs && r < nm; r++) {
            const gdw_value *jr = jat(jn, "rpcs", r);
            gdw_rpc_method *rm = &rpcs[r];
            long long id = jint(jr, "id", -1);
            rm->id = id < 0 || id > 0xfffe ? 0xffff : (uint16_t)id; /* 0xffff: none given (fill_ids) */
            rm->name = jstr(a, jr, "name");
            if (!rm->name) rm->name = "";
            const char *from = jstr(a, jr, "from");
            rm->from_node = from && strcmp(from, "node") == 0;
            int mode = name_index(k_mode_names, GDW_RPC_MODE_COUNT, jstr(a, jr, "mode"));
            rm->mode = mode < 0 ? GDW_RPC_AUTHORITY : (gdw_rpc_mode)mode;
            rm->call_local = jbool(jr, "call_local");
            int tm = name_index(k_transfer_names, 3, jstr(a, jr, "transfer_mode"));
            rm->transfer_mode = tm < 0 ? GDW_TRANSFER_RELIABLE : (gdw_transfer_mode)tm;
            rm->channel = (int)jint(jr, "channel", 0);
            rm->declared_at = jstr(a, jr, "declared_at");
            const gdw_value *ja = gdw_dict_getc(jr, "args");
            rm->args_known = ja != NULL;
            size_t na = jcount(jr, "args");
            gdw_rpc_arg *args = pj_alloc(a, (na ? na : 1) * sizeof *args);
            for (size_t k = 0; args && k < na; k++) {
                args[k].name = jstr(a, jat(jr, "args", k), "name");
                if (!args[k].name) args[k].name = "";
                args[k].type = jstr(a, jat(jr, "args", k), "type");
                args[k].has_default = jbool(jat(jr, "args", k), "default");
                args[k].inferred = jbool(jat(jr, "args", k), "inferred");
            }
            rm->args = args;
            rm->n_args = args ? na : 0;
            rm->n_required = pj_args_required(rm->args, rm->n_args);
            rm->godot = m->godot;
            rm->rest = jstr(a, jr, "rest");
        }
        n->rpcs = rpcs;
        n->n_rpcs = rpcs ? nm : 0;
        fill_ids(n, m->godot, a);
    }
    m->nodes = nodes;
    m->n_nodes = nodes ? nn : 0;
    size_t ns = jcount(root, "synchronizers");
    gdw_rpc_synchronizer *syncs = pj_alloc(a, (ns ? ns : 1) * sizeof *syncs);
    for (size_t i = 0; syncs && i < ns; i++) {
        const gdw_value *js = jat(root, "synchronizers", i);
        gdw_rpc_synchronizer *s = &syncs[i];
        s->path = jstr(a, js, "path");
        if (!s->path) s->path = "";
        s->root_path = jstr(a, js, "root_path");
        s->scene = jstr(a, js, "scene");
        size_t np = jcount(js, "properties");
        gdw_replicated_property *props = pj_alloc(a, (np ? np : 1) * sizeof *props);
        for (size_t k = 0; props && k < np; k++) {
            const gdw_value *jp = jat(js, "properties", k);
            props[k].path = jstr(a, jp, "path");
            if (!props[k].path) props[k].path = "";
            props[k].spawn = jbool(jp, "spawn");
            int rm = name_index(k_replication_names, 3, jstr(a, jp, "replication_mode"));
            props[k].mode = rm < 0 ? GDW_REPLICATE_ALWAYS : (gdw_replication_mode)rm;
            props[k].spawn_index = (int)jint(jp, "spawn_index", -1);
            props[k].sync_index = (int)jint(jp, "sync_index", -1);
            props[k].watch_index = (int)jint(jp, "watch_index", -1);
        }
        s->properties = props;
        s->n_properties = props ? np : 0;
    }
    m->synchronizers = syncs;
    m->n_synchronizers = syncs ? ns : 0;
    size_t nsp = jcount(root, "spawners");
    gdw_rpc_spawner *sps = pj_alloc(a, (nsp ? nsp : 1) * sizeof *sps);
    for (size_t i = 0; sps && i < nsp; i++) {
        const gdw_value *js = jat(root, "spawners", i);
        sps[i].path = jstr(a, js, "path");
        if (!sps[i].path) sps[i].path = "";
        sps[i].spawn_path = jstr(a, js, "spawn_path");
        sps[i].scene = jstr(a, js, "scene");
        size_t nsc = jcount(js, "scenes");
        const char **scenes = pj_alloc(a, (nsc ? nsc : 1) * sizeof *scenes);
        for (size_t k = 0; scenes && k < nsc; k++) {
            const char *s;
            size_t sl;
            scenes[k] = gdw_get_string(jat(js, "scenes", k), &s, &sl) ? pj_strndup(a, s, sl) : "";
        }
        sps[i].scenes = scenes;
        sps[i].n_scenes = scenes ? nsc : 0;
    }
    m->spawners = sps;
    m->n_spawners = sps ? nsp : 0;
    size_t npr = jcount(root, "problems");
    gdw_project_problem *probs = pj_alloc(a, (npr ? npr : 1) * sizeof *probs);
    for (size_t i = 0; probs && i < npr; i++) {
        const gdw_value *jp = jat(root, "problems", i);
        probs[i].file = jstr(a, jp, "file");
        probs[i].line = (unsigned)jint(jp, "line", 0);
        probs[i].message = jstr(a, jp, "message");
        if (!probs[i].message) probs[i].message = "";
    }
    m->problems = probs;
    m->n_problems = probs ? npr : 0;
    gdw_doc_free(doc);
    if (a->oom) {
        pj_arena_free(a);
        free(box);
        if (err) snprintf(err, err_cap, "out of memory");
        return GDW_PROJECT_NOMEM;
    }
    *out = m;
    return GDW_PROJECT_OK;
}

/* ---- paths ---- */
bool gdw_rpc_path_match(const char *pattern, const char *path) {
    while (*pattern && *path) {
        const char *pe = strchr(pattern, '/'), *qe = strchr(path, '/');
        size_t pn = pe ? (size_t)(pe - pattern) : strlen(pattern), qn = qe ? (size_t)(qe - path) : strlen(path);
        bool star = pn == 1 && pattern[0] == '*';
        if (!star && (pn != qn || memcmp(pattern, path, pn) != 0)) return false;
        pattern += pn;
        path += qn;
        if (*pattern == '/') pattern++;
        else if (*path == '/') return false;
        if (*path == '/') path++;
        else if (*pattern) return false;
    }
    return !*pattern && !*path;
}

static bool paths_meet(const char *a, const char *b) { return gdw_rpc_path_match(a, b) || gdw_rpc_path_match(b, a); }

static bool same_text(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* Of the node found so far and a candidate, the better match for x: its path meets x's, and with the same
 * script (then the same scene) before any other. */
static const gdw_rpc_node *better(const gdw_rpc_node *found, const gdw_rpc_node *x, const gdw_rpc_node *cand) {
    if (!paths_meet(x->path, cand->path)) return found;
    if (!found) return cand;
    int f = same_text(found->script, x->script) * 2 + same_text(found->scene, x->scene);
    int c = same_text(cand->script, x->script) * 2 + same_text(cand->scene, x->scene);
    return c > f ? cand : found;
}

/* ---- two builds ---- */
/* A node's methods by name and by id, found in O(1): a manifest may hold a node of 65,536 RPCs. */
typedef struct method_index {
    const gdw_rpc_node *n;
    pj_map names;
    const gdw_rpc_method **ids; /* 65,536 slots */
} method_index;

static bool index_methods(method_index *x, const gdw_rpc_node *n) {
    x->n = n;
    memset(&x->names, 0, sizeof x->names);
    x->ids = calloc(65536, sizeof *x->ids);
    if (!x->ids) return false;
    for (size_t i = 0; i < n->n_rpcs; i++) {
        pj_map_put(&x->names, n->rpcs[i].name, i);
        if (!x->ids[n->rpcs[i].id]) x->ids[n->rpcs[i].id] = &n->rpcs[i];
    }
    return !x->names.oom;
}
static void index_free(method_index *x) {
    pj_map_free(&x->names);
    free(x->ids);
}
static const gdw_rpc_method *method_named(const method_index *x, const char *name) {
    size_t i;
    return pj_map_get(&x->names, name, &i) ? &x->n->rpcs[i] : NULL;
}
static const gdw_rpc_method *method_id(const method_index *x, unsigned id) { return x->ids[id & 0xffff]; }

static void signature(pj_buf *b, const gdw_rpc_method *m) {
    pj_buf_adds(b, m->name);
    text_args(b, m);
}

/* Whether a call made for x's parameters can run as y: as many arguments, and no two declared types
 * that differ (the engine converts some, int to float, and refuses others: "Cannot convert argument"). */
static bool args_fit(const gdw_rpc_method *x, const gdw_rpc_method *y) {
    if (!x->args_known || !y->args_known) return true;
    if (x->n_args != y->n_args || !x->rest != !y->rest) return false;
    for (size_t i = 0; i < x->n_args; i++)
        if (x->args[i].type && y->args[i].type && strcmp(x->args[i].type, y->args[i].type) != 0) return false;
    return true;
}

/* "id 1: client calls `heal`, server runs `hit`", or, when the arguments do not fit, that the engine
 * would run it but refuses the call (scene_rpc_interface.cpp:299 in 4.6.3 prints why). */
static void id_sentence(pj_buf *b, const gdw_rpc_method *from, const char *lf, const gdw_rpc_method *to, const char *lt) {
    if (!to) {
        pj_buf_addf(b, "  id %u: %s calls `%s`, %s has no method %u (the engine refuses it)\n", from->id, lf, from->name, lt, from->id);
        return;
    }
    if (args_fit(from, to)) {
        pj_buf_addf(b, "  id %u: %s calls `%s`, %s runs `%s`\n", from->id, lf, from->name, lt, to->name);
        return;
    }
    pj_buf_addf(b, "  id %u: %s calls `", from->id, lf);
    signature(b, from);
    pj_buf_addf(b, "`, %s would run `", lt);
    signature(b, to);
    pj_buf_adds(b, "` (the arguments do not fit: the engine refuses the call unless it can convert them)\n");
}

static void diff_node(pj_buf *b, const gdw_rpc_node *x, const gdw_rpc_node *y, const char *la, const char *lb, bool godot4,
                      bool *ok) {
    method_index xi, yi;
    bool indexed_x = index_methods(&xi, x), indexed_y = index_methods(&yi, y);
    if (!indexed_x || !indexed_y) {
        b->oom = true;
        if (indexed_x || xi.ids) index_free(&xi);
        if (indexed_y || yi.ids) index_free(&yi);
        return;
    }
    pj_buf nb = {0};
    bool sum_differs = x->has_md5 && y->has_md5 && strcmp(x->md5, y->md5) != 0;
    if (sum_differs) {
        pj_buf_addf(&nb, "  checksum differs: %s %s, %s %s (the engine prints \"The rpc node checksum failed\")\n", la, x->md5, lb, y->md5);
        *ok = false;
    }
    for (size_t i = 0; i < x->n_rpcs; i++)
        if (!method_named(&yi, x->rpcs[i].name)) {
            pj_buf_addf(&nb, "  `%s` only on %s (removed on %s)\n", x->rpcs[i].name, la, lb);
            *ok = false;
        }
    for (size_t i = 0; i < y->n_rpcs; i++)
        if (!method_named(&xi, y->rpcs[i].name)) {
            pj_buf_addf(&nb, "  `%s` only on %s (added on %s)\n", y->rpcs[i].name, lb, lb);
            *ok = false;
        }
    if (godot4) { /* ids travel, not names: an id that names another method runs it */
        for (size_t i = 0; i < x->n_rpcs; i++) {
            const gdw_rpc_method *mx = &x->rpcs[i], *my = method_id(&yi, mx->id);
            if (my && strcmp(mx->name, my->name) == 0) continue;
            *ok = false;
            id_sentence(&nb, mx, la, my, lb);
        }
        for (size_t i = 0; i < y->n_rpcs; i++) {
            const gdw_rpc_method *my = &y->rpcs[i], *mx = method_id(&xi, my->id);
            if (mx && strcmp(mx->name, my->name) == 0) continue;
            *ok = false;
            id_sentence(&nb, my, lb, mx, la);
        }
    }
    for (size_t i = 0; i < x->n_rpcs; i++) {
        const gdw_rpc_method *mx = &x->rpcs[i], *my = method_named(&yi, mx->name);
        if (!my) continue;
        if (!args_fit(mx, my)) {
            pj_buf_adds(&nb, "  retyped: ");
            signature(&nb, mx);
            pj_buf_addf(&nb, " on %s, ", la);
            signature(&nb, my);
            pj_buf_addf(&nb, " on %s\n", lb);
            *ok = false;
        }
        const char *unseen = sum_differs ? "" : " (the checksum does not see this)";
        if (mx->mode != my->mode) {
            pj_buf_addf(&nb, "  `%s` mode: %s on %s, %s on %s%s\n", mx->name, gdw_rpc_mode_name(mx->mode), la,
                        gdw_rpc_mode_name(my->mode), lb, unseen);
            *ok = false; /* the receiver refuses a call its own mode does not allow */
        }
        if (mx->channel != my->channel)
            pj_buf_addf(&nb, "  `%s` channel: %d on %s, %d on %s%s\n", mx->name, mx->channel, la, my->channel, lb, unseen);
        if (mx->transfer_mode != my->transfer_mode)
            pj_buf_addf(&nb, "  `%s` transfer mode: %s on %s, %s on %s%s\n", mx->name, gdw_transfer_mode_name(mx->transfer_mode), la,
                        gdw_transfer_mode_name(my->transfer_mode), lb, unseen);
        if (mx->call_local != my->call_local)
            pj_buf_addf(&nb, "  `%s` call_local: %s on %s, %s on %s%s\n", mx->name, mx->call_local ? "true" : "false", la,
                        my->call_local ? "true" : "false", lb, unseen);
    }
    if (nb.len) {
        pj_buf_addf(b, "node %s\n", x->path);
        pj_buf_add(b, nb.p, nb.len);
        if (x->dynamic || y->dynamic) pj_buf_addf(b, "  (dynamic on %s: run time may change this)\n", x->dynamic ? la : lb);
    }
    if (nb.oom) b->oom = true;
    free(nb.p);
    index_free(&xi);
    index_free(&yi);
}

static void diff_synchronizers(pj_buf *b, const gdw_rpc_manifest *x, const gdw_rpc_manifest *y, const char *la, const char *lb,
                               bool *ok) {
    for (size_t i = 0; i < x->n_synchronizers; i++) {
        const gdw_rpc_synchronizer *sx = &x->synchronizers[i], *sy = NULL;
        for (size_t j = 0; j < y->n_synchronizers && !sy; j++)
            if (paths_meet(sx->path, y->synchronizers[j].path)) sy = &y->synchronizers[j];
        if (!sy) { pj_buf_addf(b, "synchronizer %s: only on %s\n", sx->path, la); *ok = false; continue; }
        bool same = sx->n_properties == sy->n_properties;
        for (size_t k = 0; same && k < sx->n_properties; k++) {
            const gdw_replicated_property *px = &sx->properties[k], *py = &sy->properties[k];
            same = strcmp(px->path, py->path) == 0 && px->spawn_index == py->spawn_index && px->sync_index == py->sync_index &&
                   px->watch_index == py->watch_index;
        }
        if (same) continue;
        *ok = false;
        pj_buf_addf(b, "synchronizer %s: the replicated properties differ (values land on other properties)\n", sx->path);
        size_t n = sx->n_properties > sy->n_properties ? sx->n_properties : sy->n_properties;
        for (size_t k = 0; k < n; k++) {
            const char *px = k < sx->n_properties ? sx->properties[k].path : "-", *py = k < sy->n_properties ? sy->properties[k].path : "-";
            pj_buf_addf(b, "  %zu: %s on %s, %s on %s\n", k, px, la, py, lb);
        }
    }
    for (size_t j = 0; j < y->n_synchronizers; j++) {
        bool found = false;
        for (size_t i = 0; i < x->n_synchronizers && !found; i++) found = paths_meet(x->synchronizers[i].path, y->synchronizers[j].path);
        if (!found) { pj_buf_addf(b, "synchronizer %s: only on %s\n", y->synchronizers[j].path, lb); *ok = false; }
    }
    for (size_t i = 0; i < x->n_spawners; i++) {
        const gdw_rpc_spawner *px = &x->spawners[i];
        for (size_t j = 0; j < y->n_spawners; j++) {
            const gdw_rpc_spawner *py = &y->spawners[j];
            if (!paths_meet(px->path, py->path)) continue;
            size_t n = px->n_scenes > py->n_scenes ? px->n_scenes : py->n_scenes;
            for (size_t k = 0; k < n; k++) {
                const char *a = k < px->n_scenes ? px->scenes[k] : "(none)", *c = k < py->n_scenes ? py->scenes[k] : "(none)";
                if (strcmp(a, c) == 0) continue;
                pj_buf_addf(b, "spawner %s: scene id %zu is %s on %s, %s on %s\n", px->path, k, a, la, c, lb);
                *ok = false;
            }
        }
    }
}

bool gdw_rpc_manifest_diff(const gdw_rpc_manifest *a, const gdw_rpc_manifest *b, const char *label_a, const char *label_b,
                           char **text, size_t *len, bool *compatible) {
    pj_buf out = {0};
    bool ok = true;
    if (a->godot != b->godot) {
        pj_buf_addf(&out, "Godot %d on %s, Godot %d on %s: they do not speak the same protocol\n", a->godot, label_a, b->godot, label_b);
        ok = false;
    }
    bool godot4 = pj_rpcs_by_id(a->godot) && pj_rpcs_by_id(b->godot);
    /* b's nodes by path; only paths with a "*" segment on either side are matched one by one */
    pj_map b_at = {0};
    pj_vec b_starred = PJ_VEC(size_t);
    for (size_t j = 0; j < b->n_nodes; j++) {
        if (!pj_map_get(&b_at, b->nodes[j].path, NULL)) pj_map_put(&b_at, b->nodes[j].path, j);
        size_t *slot = strchr(b->nodes[j].path, '*') ? pj_vec_push(&b_starred) : NULL;
        if (slot) *slot = j;
    }
    for (size_t i = 0; i < a->n_nodes; i++) {
        const gdw_rpc_node *x = &a->nodes[i], *y = NULL;
        size_t j;
        if (pj_map_get(&b_at, x->path, &j) && !strchr(x->path, '*')) y = &b->nodes[j];
        /* a "*" path (a spawned node; several scenes may spawn under one parent) meets the one with its script */
        for (size_t k = 0; k < b_starred.n && !y; k++) y = better(y, x, &b->nodes[PJ_AT(b_starred, size_t, k)]);
        for (size_t k = 0; k < b->n_nodes && strchr(x->path, '*'); k++) y = better(y, x, &b->nodes[k]);
        if (!y) {
            pj_buf_addf(&out, "node %s: only on %s (%zu RPC%s)\n", x->path, label_a, x->n_rpcs, x->n_rpcs == 1 ? "" : "s");
            if (x->n_rpcs) ok = false;
            continue;
        }
        diff_node(&out, x, y, label_a, label_b, godot4, &ok);
    }
    pj_map a_at = {0};
    pj_vec a_starred = PJ_VEC(size_t);
    for (size_t i = 0; i < a->n_nodes; i++) {
        pj_map_put(&a_at, a->nodes[i].path, i);
        size_t *slot = strchr(a->nodes[i].path, '*') ? pj_vec_push(&a_starred) : NULL;
        if (slot) *slot = i;
    }
    for (size_t j = 0; j < b->n_nodes; j++) {
        const gdw_rpc_node *y = &b->nodes[j];
        bool found = pj_map_get(&a_at, y->path, NULL) && !strchr(y->path, '*');
        for (size_t k = 0; k < a_starred.n && !found; k++) {
            const gdw_rpc_node *x = &a->nodes[PJ_AT(a_starred, size_t, k)];
            found = paths_meet(x->path, y->path) && (!x->script || !y->script || same_text(x->script, y->script));
        }
        for (size_t i = 0; i < a->n_nodes && !found && strchr(y->path, '*'); i++)
            found = paths_meet(a->nodes[i].path, y->path) && (!a->nodes[i].script || !y->script || same_text(a->nodes[i].script, y->script));
        if (found) continue;
        pj_buf_addf(&out, "node %s: only on %s (%zu RPC%s)\n", y->path, label_b, y->n_rpcs, y->n_rpcs == 1 ? "" : "s");
        if (y->n_rpcs) ok = false;
    }
    if (b_at.oom || a_at.oom || b_starred.oom || a_starred.oom) out.oom = true;
    pj_map_free(&a_at);
    pj_map_free(&b_at);
    pj_vec_free(&a_starred);
    pj_vec_free(&b_starred);
    diff_synchronizers(&out, a, b, label_a, label_b, &ok);
    pj_buf_addf(&out, ok ? "%s and %s can talk: no difference the wire would feel\n" : "%s and %s cannot talk\n", label_a, label_b);
    *compatible = ok;
    if (out.oom) { free(out.p); *text = NULL; return false; }
    *text = out.p;
    if (len) *len = out.len;
    return true;
}

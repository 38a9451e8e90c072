/* SPDX-License-Identifier: MIT
 * project_rule.c — the per-RPC argument rule from a project's RPC manifest (project/gdwire_project.h): the engine's
 * own rule of which calls run (gdw_rpc_manifest_call: argument counts and types as GDScriptFunction::call checks
 * them, an untyped parameter taking any type), not the guard's. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "guard/guard.h"
#include "project/gdwire_project.h"

/* Whether a node of the project may be at path: a node of the manifest is (gdw_rpc_manifest_node: its "*" segments
 * match the names the engine gives at run time), and so may anything below a node flagged dynamic (its script calls
 * add_child(), set_script() or rpc_config(): the static reader cannot know what it adds). Every other path is no node
 * of the project. The manifest lists every node with RPCs (docs/rpc-manifest.md), and an RPC to a node that has none
 * runs nothing either. */
static bool project_has(const gdw_rpc_manifest *m, const char *path) {
    size_t n = strlen(path);
    if (gdw_rpc_manifest_node(m, path, n, NULL)) return true;
    char prefix[512];
    for (size_t k = 0; k < n && k < sizeof prefix; k++) {
        if (path[k] != '/') continue;
        memcpy(prefix, path, k), prefix[k] = 0;
        for (size_t i = 0; i < m->n_nodes; i++)
            if (m->nodes[i].dynamic && gdw_rpc_path_match(m->nodes[i].path, prefix)) return true;
    }
    return false;
}

static int manifest_rule(void *ctx, const char *node, int method_id, const gdw_mp_parsed *mp, char *why, size_t cap) {
    const gdw_rpc_manifest *m = ctx;
    if (!node) return 1; /* an id never announced is rpc.unknown_paths' own rule (decide.c) */
    if (!project_has(m, node)) {
        snprintf(why, cap, "%.200s is no node of the project", node);
        return -2;
    }
    const gdw_value *args[GDW_MP_MAX_VALUES];
    size_t n = 0;
    for (size_t i = 0; i < mp->value_count && n < GDW_MP_MAX_VALUES; i++)
        if (strcmp(mp->values[i].label, "arg") == 0) args[n++] = mp->values[i].value;
    gdw_rpc_call c = gdw_rpc_manifest_call(m, node, NULL, method_id, mp->as.rpc.method, mp->as.rpc.method_len, args, n);
    if (!c.node) return 1; /* below a dynamic node: no rule to apply */
    if (!c.method) {
        if (mp->as.rpc.method) snprintf(why, cap, "%s has no RPC named %.*s", node, (int)(mp->as.rpc.method_len < 200 ? mp->as.rpc.method_len : 200), mp->as.rpc.method);
        else snprintf(why, cap, "%s has no RPC with id %d", node, method_id);
        return -1;
    }
    if (!c.fit.known || c.fit.fits) return 1;
    snprintf(why, cap, "%s: %s", c.method->name ? c.method->name : "?", c.fit.reason ? c.fit.reason : "the engine would not run it");
    return 0;
}

void gdw_guard_use_manifest(gdw_guard *g, const gdw_rpc_manifest *m) { gdw_guard_set_method_rule(g, manifest_rule, (void *)m); }

/* SPDX-License-Identifier: MIT */
/* annotate.c — a session's messages read against a manifest (gdw_rpc_annotate): which method an RPC runs, whether
 * the engine runs it with its arguments, whether a SIMPLIFY_PATH announces another build's node. The one reading
 * that capture --project, the Python session and the JS session share. It keeps each peer's announced MD5 per
 * node path (at most MAX_ANNOUNCED; past that, a new path is judged without one). */
#include <stdlib.h>
#include <string.h>

#include "pj.h"
#include "session/gdwire_session.h"

enum { MAX_ANNOUNCED = 4096 };

typedef struct announced {
    char *path;
    int64_t peer; /* the peer that sent the SIMPLIFY_PATH: its own build's MD5 for that node */
    char md5[33];
} announced;

struct gdw_rpc_annotator {
    const gdw_rpc_manifest *m;
    announced *seen;
    size_t n_seen;
};

gdw_rpc_annotator *gdw_rpc_annotator_new(const gdw_rpc_manifest *m) {
    gdw_rpc_annotator *a = calloc(1, sizeof *a);
    if (a) a->m = m;
    return a;
}

void gdw_rpc_annotator_free(gdw_rpc_annotator *a) {
    if (!a) return;
    for (size_t i = 0; i < a->n_seen; i++) free(a->seen[i].path);
    free(a->seen);
    free(a);
}

static announced *find(const gdw_rpc_annotator *a, const char *path, size_t len, int64_t peer) {
    for (size_t i = 0; i < a->n_seen; i++)
        if (a->seen[i].peer == peer && strlen(a->seen[i].path) == len && memcmp(a->seen[i].path, path, len) == 0) return &a->seen[i];
    return NULL;
}

static void learn(gdw_rpc_annotator *a, const char *path, size_t len, const char *md5, int64_t peer) {
    announced *e = find(a, path, len, peer);
    if (!e) {
        if (a->n_seen == MAX_ANNOUNCED) return;
        if (!a->seen && !(a->seen = calloc(MAX_ANNOUNCED, sizeof *a->seen))) return;
        char *p = malloc(len + 1);
        if (!p) return;
        memcpy(p, path, len);
        p[len] = 0;
        e = &a->seen[a->n_seen++];
        e->path = p;
        e->peer = peer;
    }
    memcpy(e->md5, md5, 32);
    e->md5[32] = 0;
}

bool gdw_rpc_annotate(gdw_rpc_annotator *a, const gdw_message *msg, gdw_rpc_call *out) {
    memset(out, 0, sizeof *out);
    if (!a || !msg || !msg->mp) return false;
    const gdw_mp_parsed *p = msg->mp;
    if (p->command == GDW_MP_SIMPLIFY_PATH) {
        const char *md5 = p->as.path.md5[0] ? p->as.path.md5 : NULL; /* Godot 4 only */
        if (!md5 || !p->as.path.path) return false;
        learn(a, p->as.path.path, p->as.path.path_len, md5, msg->from);
        out->node = gdw_rpc_manifest_node(a->m, p->as.path.path, p->as.path.path_len, md5);
        out->md5_differs = out->node && out->node->has_md5 && strcmp(out->node->md5, md5) != 0;
        out->fit = (gdw_rpc_fit){true, false, 0, NULL};
        return out->node != NULL;
    }
    if (p->command != GDW_MP_RPC || !msg->path) return false;
    /* the receiver runs its own build's method: the MD5 it announced for the node, else the sender's */
    size_t len = strlen(msg->path);
    const announced *e = find(a, msg->path, len, msg->to);
    if (!e) e = find(a, msg->path, len, msg->from);
    const gdw_value *args[GDW_MP_MAX_VALUES];
    size_t n = 0;
    for (size_t i = 0; i < p->value_count && n < GDW_MP_MAX_VALUES; i++)
        if (strcmp(p->values[i].label, "arg") == 0) args[n++] = p->values[i].status == GDW_OK ? p->values[i].value : NULL;
    *out = gdw_rpc_manifest_call(a->m, msg->path, e ? e->md5 : NULL, p->as.rpc.method_id, p->as.rpc.method,
                                 p->as.rpc.method_len, args, n);
    return true;
}

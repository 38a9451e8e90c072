/* SPDX-License-Identifier: MIT */
/* capture.c — `gdwire capture`: a packet capture of Godot multiplayer traffic, read with gdwire's own pcap and
 * pcapng reader (session/gdwire_pcap.h) and handed record by record to the session library
 * (session/gdwire_session.h), which finds the flows and messages; this file filters and prints them.
 * docs/capture.md. */
#define _DEFAULT_SOURCE /* strdup, strtok_r, isatty and dlopen's flags under -std=c11 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "project/gdwire_project.h"
#include "session/gdwire_pcap.h"
#include "session/gdwire_session.h"

/* ENet's range coder, which Godot 3.4+ compresses its datagrams with by default, from libenet
 * (Debian libenet7), loaded when capture runs; without it compressed datagrams are problems. */
static struct {
    void *(*create)(void);
    void (*destroy)(void *);
    size_t (*decompress)(void *, const uint8_t *, size_t, uint8_t *, size_t);
} E;

static size_t range_decompress(void *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) {
    return E.decompress(ctx, in, in_len, out, out_cap);
}

static void *load_range_coder(void) {
    void *h = dlopen("libenet.so.7", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libenet.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) return NULL;
    *(void **)&E.create = dlsym(h, "enet_range_coder_create");
    *(void **)&E.destroy = dlsym(h, "enet_range_coder_destroy");
    *(void **)&E.decompress = dlsym(h, "enet_range_coder_decompress");
    return E.create && E.destroy && E.decompress ? E.create() : NULL;
}

/* The capture file's bytes for the reader, read(2) on its descriptor: a pipe's bytes come as they are written
 * (tcpdump -U -w - | gdwire capture -), where fread would wait for the whole chunk the reader asks for. */
static size_t fd_read(void *ctx, uint8_t *buf, size_t n) {
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t k = read(fd, buf, n);
        if (k >= 0) return (size_t)k;
        if (errno != EINTR) return SIZE_MAX;
    }
}

/* ---- options ------------------------------------------------------------------------------------ */

static bool number_arg(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < 0) return false;
    *out = v;
    return true;
}

static bool count_arg(const char *s, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
    if (shift) end++;
    if (end == s || *end || errno || v == 0 || v > (1ull << 40) >> shift || s[0] == '-') return false;
    *out = (size_t)(v << shift);
    return true;
}

int capture_option(opts *o, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    capture_opts *c = &o->cap;
#define VALUE(what) \
    do { if (++*i >= argc) return usage_error("capture", "%s needs " what, a) ? -1 : -1; } while (0)
    if (strcmp(a, "--names") == 0) {
        VALUE("a file (docs/capture.md)");
        c->names = argv[*i];
    } else if (strcmp(a, "--project") == 0) {
        VALUE("a Godot project folder or a manifest saved with gdwire rpc --json");
        c->project = argv[*i];
    } else if (strcmp(a, "-d") == 0 || strcmp(a, "--dialect") == 0) {
        VALUE("a dialect name");
        o->dialect = gdw_dialect_find(argv[*i]);
        if (!o->dialect) return usage_error("capture", "unknown dialect '%s' (see 'gdwire dialects')", argv[*i]) ? -1 : -1;
        if (gdw_dialect_rule(o->dialect, GDW_RULE_MULTIPLAYER) == GDW_MULTIPLAYER_NONE)
            return usage_error("capture", "-d %s: the multiplayer layer of its engines is not read yet (godot4, godot4.3, godot4-double, godot3, godot3@3.2 are)", argv[*i]) ? -1 : -1;
    } else if (strcmp(a, "--peer") == 0) {
        VALUE("a Godot peer id");
        char *end;
        errno = 0;
        long long id = strtoll(argv[*i], &end, 10);
        if (end == argv[*i] || *end || errno || id < INT32_MIN || id > INT32_MAX)
            return usage_error("capture", "--peer '%s': want a Godot peer id (1 is the server)", argv[*i]) ? -1 : -1;
        if (c->n_peers == sizeof c->peers / sizeof c->peers[0]) return usage_error("capture", "%s", "at most 16 --peer") ? -1 : -1;
        c->peers[c->n_peers++] = id;
    } else if (strcmp(a, "--command") == 0) {
        VALUE("command names");
        char list[256];
        snprintf(list, sizeof list, "%s", argv[*i]);
        for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int cmd = gdw_mp_command_from_name(t);
            if (cmd < 0 || cmd == GDW_MP_SYS || cmd == GDW_MP_SYS_RELAY)
                return usage_error("capture", "--command: unknown command '%s' (rpc, rset, simplify_path, confirm_path, raw, spawn, despawn, sync, delta, auth, add_peer, del_peer)", t) ? -1 : -1;
            c->commands |= 1u << cmd;
        }
    } else if (strcmp(a, "--path") == 0) {
        VALUE("text a node path holds");
        c->path = argv[*i];
    } else if (strcmp(a, "--since") == 0 || strcmp(a, "--until") == 0) {
        VALUE("seconds after the first frame");
        double v;
        if (!number_arg(argv[*i], &v)) return usage_error("capture", "'%s': want seconds after the first frame (0, 1.5)", argv[*i]) ? -1 : -1;
        if (a[2] == 's') c->since = v;
        else c->until = v;
    } else if (strcmp(a, "-i") == 0 || strcmp(a, "--interface") == 0) {
        VALUE("an interface to capture on (lo, eth0)");
        c->interface = argv[*i];
    } else if (strcmp(a, "--filter") == 0) {
        VALUE("a libpcap filter ('udp port 7000')");
        c->filter = argv[*i];
    } else if (strcmp(a, "--duration") == 0) {
        VALUE("seconds");
        if (!number_arg(argv[*i], &c->duration) || c->duration <= 0)
            return usage_error("capture", "--duration '%s': want seconds (0.5, 30)", argv[*i]) ? -1 : -1;
    } else if (strcmp(a, "--check") == 0) {
        c->check = true;
    } else if (strcmp(a, "--no-summary") == 0) {
        c->no_summary = true;
    } else if (strncmp(a, "--max-", 6) == 0) {
        const struct { const char *name; size_t *to; } caps[] = {
            {"--max-fragment-bytes", &c->max_fragment_bytes}, {"--max-flow-fragment-bytes", &c->max_flow_fragment_bytes},
            {"--max-packet", &c->max_packet}, {"--max-flows", &c->max_flows}, {"--max-paths", &c->max_paths},
            {"--max-window-bytes", &c->max_window_bytes}, {"--max-flow-window-bytes", &c->max_flow_window_bytes},
            {"--max-path-bytes", &c->max_path_bytes}, {"--max-flow-path-bytes", &c->max_flow_path_bytes},
            {"--max-ip-fragment-bytes", &c->max_ip_fragment_bytes},
        };
        size_t *to = NULL;
        for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++)
            if (strcmp(a, caps[k].name) == 0) to = caps[k].to;
        if (!to) return 0;
        VALUE("a number (K, M, G suffixes)");
        if (!count_arg(argv[*i], to)) return usage_error("capture", "'%s': want a number from 1 (K, M, G suffixes)", argv[*i]) ? -1 : -1;
    } else {
        return 0;
    }
#undef VALUE
    return 1;
}

/* ---- names -------------------------------------------------------------------------------------- */

/* --names: "rpc<TAB>NODE PATH<TAB>ID<TAB>NAME" lines ('#' comments), as
 * tools/capture/gdwire_names.gd writes them; the path * stands for every node. */
typedef struct name_entry {
    char *path;
    int id;
    char *name;
} name_entry;

typedef struct names {
    name_entry *e;
    size_t n, cap;
    gdw_rpc_manifest *manifest; /* --project: names each RPC, checks its arguments, marks another build's MD5 */
    gdw_rpc_annotator *annotator;
} names;

static bool names_add(names *nm, const char *path, int id, const char *name) {
    if (nm->n == nm->cap) {
        size_t cap = nm->cap ? nm->cap * 2 : 64;
        name_entry *grown = realloc(nm->e, cap * sizeof *grown);
        if (!grown) return false;
        nm->e = grown;
        nm->cap = cap;
    }
    name_entry *e = &nm->e[nm->n];
    e->path = strdup(path);
    e->name = strdup(name);
    e->id = id;
    if (!e->path || !e->name) { free(e->path); free(e->name); return false; }
    nm->n++;
    return true;
}

static int names_load(const char *file, names *out) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "gdwire capture: --names %s: %s\n", file, strerror(errno));
        return EXIT_USAGE;
    }
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        char *kind = line, *path = strchr(kind, '\t'), *id = path ? strchr(path + 1, '\t') : NULL, *name = id ? strchr(id + 1, '\t') : NULL;
        char *end = NULL;
        long v = -1;
        if (name) {
            *path++ = 0, *id++ = 0, *name++ = 0;
            v = strtol(id, &end, 10);
        }
        if (!name || strcmp(kind, "rpc") != 0 || *end || v < 0 || v > 65535 || !*name) {
            fprintf(stderr, "gdwire capture: --names %s line %u: want \"rpc<TAB>node path<TAB>method id<TAB>name\"\n", file, lineno);
            fclose(f);
            return EXIT_USAGE;
        }
        if (!names_add(out, path, (int)v, name)) { fclose(f); return EXIT_USAGE; }
    }
    fclose(f);
    return 0;
}

/* The name of method id on the node at path: the first entry for that path (or "*", every node). */
static const char *names_find(const names *nm, const char *path, int id) {
    for (size_t i = 0; i < nm->n; i++) {
        const name_entry *e = &nm->e[i];
        if (e->id == id && (strcmp(e->path, "*") == 0 || (path && gdw_rpc_path_match(e->path, path)))) return e->name;
    }
    return NULL;
}

/* --project: the manifest, read by gdw_rpc_annotate (project/annotate.c) as the bindings' sessions read it. */
static int names_from_project(const char *what, names *out) {
    int rc = rpc_manifest_load("capture", what, &out->manifest);
    if (rc) return rc;
    if (!(out->annotator = gdw_rpc_annotator_new(out->manifest))) {
        fprintf(stderr, "gdwire capture: --project %s: out of memory\n", what);
        return EXIT_USAGE;
    }
    return 0;
}

static void names_free(names *nm) {
    for (size_t i = 0; i < nm->n; i++) free(nm->e[i].path), free(nm->e[i].name);
    free(nm->e);
    gdw_rpc_annotator_free(nm->annotator);
    gdw_rpc_manifest_free(nm->manifest);
}

/* ---- printing ----------------------------------------------------------------------------------- */

#define MAX_PEERS_COUNTED 64

typedef struct capture_run {
    const opts *o;
    names names;
    gdw_rpc_call call; /* --project: the message read against the manifest (when has_call) */
    bool has_call;
    gdw_session *s;
    double t0;
    bool have_t0;
    uint64_t shown, problems;
    struct { int64_t id; uint64_t sent, received, bytes; } peers[MAX_PEERS_COUNTED];
    size_t n_peers;
    const char *file;
    char file_shown[512];
    bool progress;
    time_t last_progress;
} capture_run;

static void count_peer(capture_run *r, int64_t id, bool sent, size_t bytes) {
    size_t i = 0;
    while (i < r->n_peers && r->peers[i].id != id) i++;
    if (i == r->n_peers) {
        if (r->n_peers == MAX_PEERS_COUNTED) return;
        r->peers[r->n_peers++].id = id;
    }
    if (sent) r->peers[i].sent++, r->peers[i].bytes += bytes;
    else r->peers[i].received++;
}

static bool wanted(const capture_run *r, const gdw_message *m) {
    const capture_opts *c = &r->o->cap;
    if (c->commands && !(c->commands >> m->mp->command & 1)) return false;
    if (c->n_peers) {
        bool hit = false;
        for (size_t i = 0; i < c->n_peers; i++) hit |= m->from == c->peers[i] || m->to == c->peers[i];
        if (!hit) return false;
    }
    if (c->path && (!m->path || !strstr(m->path, c->path))) return false;
    double t = m->time - r->t0;
    if (t < c->since || (c->until >= 0 && t > c->until)) return false;
    return true;
}

static const char *peer_text(int64_t id, char *buf, size_t cap) {
    if (id == 0) snprintf(buf, cap, "?");
    else snprintf(buf, cap, "%lld", (long long)id);
    return buf;
}

/* --check: the dialect gdwire check ranks first for a value's own bytes, and how many read them; for a value that
 * is not a Variant (SceneMultiplayer's compact bool and int, an RPC's bare bytes), what it is. */
static void check_value(const gdw_mp_value *v, const uint8_t *p, size_t n, char *out, size_t cap) {
    if (v->encoding != GDW_MP_VARIANT) {
        snprintf(out, cap, "not a Variant: SceneMultiplayer's %s (%zu byte%s), which no dialect reads alone", gdw_mp_encoding_name(v->encoding), n,
                 n == 1 ? "" : "s");
        return;
    }
    size_t nd = gdw_dialect_count();
    gdw_check_result *res = calloc(nd, sizeof *res);
    gdw_check_row *rows = calloc(nd, sizeof *rows);
    if (!res || !rows) { snprintf(out, cap, "?"); free(res), free(rows); return; }
    gdw_decode_options dec = gdw_decode_options_default();
    dec.allow_objects = true;
    size_t accepted = 0;
    gdw_check(p, n, &dec, NULL, true, res, nd);
    for (size_t i = 0; i < nd; i++) accepted += res[i].status == GDW_OK;
    for (size_t i = 0; i < nd; i++) rows[i].result = res[i], rows[i].meaning = -1, rows[i].misread = SIZE_MAX;
    size_t best = gdw_check_rank_rows(rows, nd, p, n, &dec, false); /* the value's own bytes: nothing in front to look past */
    snprintf(out, cap, "%s first, %zu of %zu dialects read it", accepted ? gdw_dialect_name(res[best].dialect) : "none", accepted, nd);
    for (size_t i = 0; i < nd; i++) gdw_doc_free(res[i].doc);
    free(res), free(rows);
}

/* The bytes a RAW or an AUTH carries after its header. */
static const uint8_t *payload_of(const gdw_mp_parsed *p, size_t *len) {
    *len = p->command == GDW_MP_RAW ? p->as.raw.payload_len : p->as.sys.payload_len;
    return p->command == GDW_MP_RAW ? p->as.raw.payload : p->as.sys.payload;
}

/* A Godot 4 RPC's method name: the manifest's (--project), else --names'. */
static const char *method_name(const capture_run *r, const gdw_message *m) {
    if (r->has_call && r->call.method) return r->call.method->name;
    return names_find(&r->names, m->path, m->mp->as.rpc.method_id);
}

/* --project, a SIMPLIFY_PATH: the project's MD5 for the node when the announced one is no node's of the project
 * there (the peer runs another build; the engine prints "The rpc node checksum failed"); else NULL. */
static const char *other_build_md5(const capture_run *r) {
    return r->has_call && r->call.md5_differs ? r->call.node->md5 : NULL;
}

/* The text line's hooks into gdw_mp_message_text: --names, --project's MD5 verdict, --check. */
typedef struct text_line {
    capture_run *r;
    const gdw_message *m;
} text_line;

static void text_put(void *ctx, const char *s, size_t n) {
    (void)ctx;
    fwrite(s, 1, n, stdout);
}

/* (path and id are the line's message's own: the one rule is method_name's) */
static const char *text_method_name(void *ctx, const char *path, int id) {
    (void)path, (void)id;
    const text_line *t = ctx;
    return method_name(t->r, t->m);
}

static void text_after_command(void *ctx, const gdw_mp_parsed *p, const char *path) {
    text_line *t = ctx;
    if (p->command != GDW_MP_SIMPLIFY_PATH || !path) return;
    const char *want = other_build_md5(t->r);
    if (want) printf(" (NOT the project's %s: its methods differ; gdwire rpc-diff says which)", want);
}

static void text_after_value(void *ctx, const gdw_mp_parsed *p, const gdw_mp_value *v) {
    (void)p;
    text_line *t = ctx;
    if (!t->r->o->cap.check) return;
    char why[160];
    check_value(v, t->m->bytes + v->offset, v->length, why, sizeof why);
    printf(" [check: %s]", why);
}

static void print_text(capture_run *r, const gdw_message *m) {
    char a[24], b[24];
    printf("%11.6f  #%u %s  %s -> %s%s  %s ch%u  ", m->time - r->t0, m->flow, gdw_dialect_name(m->dialect), peer_text(m->from, a, sizeof a),
           m->to == 0 && m->relayed ? "all" : peer_text(m->to, b, sizeof b), m->relayed ? " (relayed)" : "", m->mode, m->channel);
    text_line t = {r, m};
    gdw_mp_text_out out = {text_put, text_method_name, text_after_command, text_after_value, &t};
    gdw_mp_message_text(m->mp, m->path, &out);
    if (r->has_call && r->call.method && !r->call.fit.fits && r->call.fit.known)
        printf("  REFUSED by the engine: %s", r->call.fit.reason);
    putchar('\n');
}

static void print_json(capture_run *r, const gdw_message *m) {
    const gdw_mp_parsed *p = m->mp;
    printf("{\"type\":\"message\",\"frame\":%llu,\"time\":%.6f,\"flow\":%u,\"transport\":\"%s\",\"from\":%lld,\"to\":%lld,"
           "\"relayed\":%s,\"channel\":%u,\"mode\":\"%s\",\"command\":\"%s\",\"size\":%zu,\"path\":",
           (unsigned long long)m->frame, m->time - r->t0, m->flow, m->transport, (long long)m->from, (long long)m->to,
           m->relayed ? "true" : "false", m->channel, m->mode, gdw_mp_command_name(p->command), m->len);
    if (m->path) json_string(stdout, m->path);
    else printf("null");
    printf(",\"dialect\":\"%s\"", gdw_dialect_name(m->dialect));
    if (p->command == GDW_MP_RPC || p->command == GDW_MP_RSET) {
        const char *name = p->as.rpc.method ? NULL : method_name(r, m);
        printf(",\"inline_path\":%s,\"node_id\":%lld,\"method_id\":%d,\"method\":", p->as.rpc.path ? "true" : "false",
               (long long)p->as.rpc.node_id, p->as.rpc.method_id);
        if (p->as.rpc.method) json_bytes_string(stdout, (const uint8_t *)p->as.rpc.method, p->as.rpc.method_len);
        else if (name) json_string(stdout, name);
        else printf("null");
        const gdw_rpc_call *call = r->has_call && r->call.method ? &r->call : NULL;
        if (call) {
            printf(",\"args_fit\":%s", !call->fit.known ? "null" : call->fit.fits ? "true" : "false");
            if (!call->fit.fits && call->fit.known) {
                printf(",\"refused\":");
                json_string(stdout, call->fit.reason);
            }
        }
    } else if (p->command == GDW_MP_SIMPLIFY_PATH) {
        printf(",\"node_id\":%lld,\"md5\":", (long long)p->as.path.node_id);
        if (p->as.path.md5[0]) json_string(stdout, p->as.path.md5);
        else printf("null");
        const char *want = other_build_md5(r);
        if (want) {
            printf(",\"project_md5\":"); /* the project's node has other methods: "The rpc node checksum failed" */
            json_string(stdout, want);
        }
    } else if (p->command == GDW_MP_CONFIRM_PATH && p->as.path.path) {
        printf(",\"confirmed_path\":");
        json_bytes_string(stdout, (const uint8_t *)p->as.path.path, p->as.path.path_len);
    } else if (p->command == GDW_MP_CONFIRM_PATH) {
        printf(",\"node_id\":%lld,\"checksum_valid\":%s", (long long)p->as.path.node_id, p->as.path.checksum_valid ? "true" : "false");
    } else if (p->command == GDW_MP_SPAWN) {
        printf(",\"node_id\":%lld,\"net_id\":%lld,\"scene_id\":%d,\"name\":", (long long)p->as.spawn.spawner_id, (long long)p->as.spawn.net_id,
               p->as.spawn.scene_id);
        json_bytes_string(stdout, (const uint8_t *)p->as.spawn.name, p->as.spawn.name_len);
    } else if (p->command == GDW_MP_DESPAWN) {
        printf(",\"net_id\":%lld", (long long)p->as.despawn.net_id);
    } else if (p->command == GDW_MP_SYNC) {
        printf(",\"sync_time\":%u", p->as.sync.time);
    } else if (p->command == GDW_MP_SYS_ADD_PEER || p->command == GDW_MP_SYS_DEL_PEER) {
        printf(",\"peer\":%lld", (long long)p->as.sys.peer);
    }
    if (p->command == GDW_MP_RAW || p->command == GDW_MP_SYS_AUTH) {
        size_t n;
        const uint8_t *payload = payload_of(p, &n);
        printf(",\"payload\":\"");
        write_hex(stdout, payload, n);
        printf("\"");
    }
    printf(",\"values\":[");
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        printf("%s{\"label\":\"%s\",\"index\":%u,", i ? "," : "", v->label, v->index);
        if (p->command == GDW_MP_SYNC || p->command == GDW_MP_DELTA) printf("\"net_id\":%u,", v->net_id);
        if (p->command == GDW_MP_DELTA) printf("\"indexes\":%llu,", (unsigned long long)v->indexes);
        printf("\"offset\":%zu,\"length\":%zu,\"hex\":\"", v->offset, v->length);
        write_hex(stdout, m->bytes + v->offset, v->length);
        printf("\"");
        if (v->status == GDW_OK) {
            char *t = gdw_text_print_alloc(v->value, NULL, NULL);
            char *j = json_value_alloc(r->o, v->value);
            printf(",\"text\":");
            json_string(stdout, t ? t : "");
            printf(",\"value\":%s", j ? j : "null");
            gdw_text_free(NULL, t);
            free(j);
            if (r->o->cap.check) {
                char why[160];
                check_value(v, m->bytes + v->offset, v->length, why, sizeof why);
                printf(",\"check\":");
                json_string(stdout, why);
            }
        } else {
            printf(",\"error\":");
            json_error(stdout, &v->error);
        }
        printf("}");
    }
    printf("]}\n");
}

static void on_message(void *ctx, const gdw_message *m) {
    capture_run *r = ctx;
    /* before the filters: a later RPC needs what a SIMPLIFY_PATH announced */
    r->has_call = r->names.annotator && gdw_rpc_annotate(r->names.annotator, m, &r->call);
    if (m->mp->command != GDW_MP_VAR) { /* a put_var flow has no peers */
        count_peer(r, m->from, true, m->len);
        count_peer(r, m->to, false, 0);
    }
    if (!wanted(r, m)) return;
    r->shown++;
    if (r->o->json) print_json(r, m);
    else print_text(r, m);
    if (r->o->flush_each) fflush(stdout);
}

static void on_problem(void *ctx, const gdw_session_problem *p) {
    capture_run *r = ctx;
    r->problems++;
    if (r->progress) fputs("\r\033[K", stderr);
    char where[64], flow[24] = "";
    if (p->frame) snprintf(where, sizeof where, "frame %llu, byte %zu", (unsigned long long)p->frame, p->offset);
    else snprintf(where, sizeof where, "at the end");
    if (p->flow) snprintf(flow, sizeof flow, "flow #%u, ", p->flow);
    fprintf(stderr, "gdwire capture: %s: %s (%s%s): %s\n", r->file_shown, where, flow, p->layer, p->message);
    if (r->o->json) {
        printf("{\"type\":\"problem\",\"frame\":%llu,\"flow\":%u,\"layer\":\"%s\",\"offset\":%zu,\"message\":", (unsigned long long)p->frame,
               p->flow, p->layer, p->offset);
        json_string(stdout, p->message);
        printf("}\n");
    }
}

static void summary(capture_run *r) {
    gdw_session_stats st = gdw_session_get_stats(r->s);
    if (r->o->json) {
        printf("{\"type\":\"summary\",\"frames\":%llu,\"udp_datagrams\":%llu,\"enet_datagrams\":%llu,\"tcp_segments\":%llu,\"flows\":%u,\"messages\":%llu,"
               "\"shown\":%llu,\"message_bytes\":%llu,\"retransmits\":%llu,\"fragmented_packets\":%llu,\"fragments_dropped\":%llu,"
               "\"peak_fragment_bytes\":%zu,\"peak_held_bytes\":%zu,\"states_dropped\":%llu,\"decompressed\":%llu,\"problems\":%llu,\"commands\":{",
               (unsigned long long)st.frames, (unsigned long long)st.udp_datagrams, (unsigned long long)st.enet_datagrams,
               (unsigned long long)st.tcp_segments, st.flows,
               (unsigned long long)st.messages, (unsigned long long)r->shown, (unsigned long long)st.message_bytes,
               (unsigned long long)st.retransmits, (unsigned long long)st.fragments_completed, (unsigned long long)st.fragments_dropped,
               st.peak_fragment_bytes, st.peak_held_bytes, (unsigned long long)st.states_dropped, (unsigned long long)st.decompressed,
               (unsigned long long)st.problems);
        bool first = true;
        for (int c = 0; c < GDW_MP_COMMAND_COUNT; c++)
            if (st.by_command[c]) printf("%s\"%s\":%llu", first ? "" : ",", gdw_mp_command_name((gdw_mp_command)c), (unsigned long long)st.by_command[c]), first = false;
        printf("},\"peers\":[");
        for (size_t i = 0; i < r->n_peers; i++)
            printf("%s{\"peer\":%lld,\"sent\":%llu,\"received\":%llu,\"bytes_sent\":%llu}", i ? "," : "", (long long)r->peers[i].id,
                   (unsigned long long)r->peers[i].sent, (unsigned long long)r->peers[i].received, (unsigned long long)r->peers[i].bytes);
        printf("],\"flow_list\":[");
        for (unsigned f = 1; f <= st.flows; f++) {
            const gdw_dialect *d = gdw_session_flow_dialect(r->s, f);
            printf("%s{\"flow\":%u,\"endpoints\":", f > 1 ? "," : "", f);
            json_string(stdout, gdw_session_flow_text(r->s, f));
            printf(",\"dialect\":%s%s%s,\"compression\":[\"%s\",\"%s\"]}", d ? "\"" : "", d ? gdw_dialect_name(d) : "null", d ? "\"" : "",
                   gdw_enet_compression_name(gdw_session_flow_compression(r->s, f, 0)), gdw_enet_compression_name(gdw_session_flow_compression(r->s, f, 1)));
        }
        printf("]}\n");
        return;
    }
    char tcp[48] = "";
    if (st.tcp_segments) snprintf(tcp, sizeof tcp, " and %llu TCP segments", (unsigned long long)st.tcp_segments);
    printf("\n%llu frame%s, %llu ENet datagram%s%s in %u flow%s, %llu message%s (%llu shown), %llu bytes of messages; %llu retransmit%s dropped, "
           "%llu fragmented packet%s reassembled, %llu problem%s\n",
           (unsigned long long)st.frames, plural(st.frames), (unsigned long long)st.enet_datagrams, plural(st.enet_datagrams), tcp, st.flows,
           plural(st.flows), (unsigned long long)st.messages, plural(st.messages), (unsigned long long)r->shown,
           (unsigned long long)st.message_bytes, (unsigned long long)st.retransmits, plural(st.retransmits),
           (unsigned long long)st.fragments_completed, plural(st.fragments_completed), (unsigned long long)st.problems, plural(st.problems));
    for (unsigned f = 1; f <= st.flows; f++) {
        const gdw_dialect *d = gdw_session_flow_dialect(r->s, f);
        gdw_enet_compression c0 = gdw_session_flow_compression(r->s, f, 0), c1 = gdw_session_flow_compression(r->s, f, 1);
        char packed[64] = "";
        if (c0 && c1 && c0 != c1)
            snprintf(packed, sizeof packed, "  ENet compressed with %s (client), %s (server)", gdw_enet_compression_name(c0), gdw_enet_compression_name(c1));
        else if (c0 || c1)
            snprintf(packed, sizeof packed, "  ENet compressed with %s", gdw_enet_compression_name(c0 ? c0 : c1));
        printf("  flow #%u  %s  %s%s\n", f, gdw_session_flow_text(r->s, f), d ? gdw_dialect_name(d) : "(no Godot packet)", packed);
    }
    printf("  by command:");
    for (int c = 0; c < GDW_MP_COMMAND_COUNT; c++)
        if (st.by_command[c]) printf(" %s %llu", gdw_mp_command_name((gdw_mp_command)c), (unsigned long long)st.by_command[c]);
    printf("\n");
    for (size_t i = 0; i < r->n_peers; i++) {
        char a[24];
        printf("  peer %-11s sent %llu (%llu bytes), received %llu\n", peer_text(r->peers[i].id, a, sizeof a),
               (unsigned long long)r->peers[i].sent, (unsigned long long)r->peers[i].bytes, (unsigned long long)r->peers[i].received);
    }
}

/* ---- a live interface, through libpcap (loaded for -i only) --------------------------------------------- */

/* libpcap's ABI, as its headers (pcap/pcap.h, pcap/bpf.h) declare it and every release since 0.8 keeps it: what
 * capture calls, declared here so that the build needs no libpcap-dev and gdwire no libpcap but for -i. */
struct live_pkthdr {
    struct timeval ts;
    uint32_t caplen, len;
};
struct live_bpf_program {
    unsigned bf_len;
    void *bf_insns;
};
#define LIVE_ERRBUF_SIZE 256
#define LIVE_NETMASK_UNKNOWN 0xffffffffu
static struct {
    void *(*open_live)(const char *, int, int, int, char *);
    int (*datalink)(void *);
    int (*compile)(void *, struct live_bpf_program *, const char *, int, uint32_t);
    int (*setfilter)(void *, struct live_bpf_program *);
    void (*freecode)(struct live_bpf_program *);
    int (*next_ex)(void *, struct live_pkthdr **, const uint8_t **);
    char *(*geterr)(void *);
    void (*close)(void *);
    int (*setnonblock)(void *, int, char *);
    int (*selectable_fd)(void *);
} P;

static bool load_libpcap(void) {
    void *h = dlopen("libpcap.so.0.8", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libpcap.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libpcap.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "gdwire capture: -i needs libpcap (Debian: apt-get install libpcap0.8); files are read without it\n");
        return false;
    }
    *(void **)&P.open_live = dlsym(h, "pcap_open_live");
    *(void **)&P.datalink = dlsym(h, "pcap_datalink");
    *(void **)&P.compile = dlsym(h, "pcap_compile");
    *(void **)&P.setfilter = dlsym(h, "pcap_setfilter");
    *(void **)&P.freecode = dlsym(h, "pcap_freecode");
    *(void **)&P.next_ex = dlsym(h, "pcap_next_ex");
    *(void **)&P.geterr = dlsym(h, "pcap_geterr");
    *(void **)&P.close = dlsym(h, "pcap_close");
    *(void **)&P.setnonblock = dlsym(h, "pcap_setnonblock");
    *(void **)&P.selectable_fd = dlsym(h, "pcap_get_selectable_fd");
    if (P.open_live && P.datalink && P.compile && P.setfilter && P.freecode && P.next_ex && P.geterr && P.close && P.setnonblock &&
        P.selectable_fd)
        return true;
    fprintf(stderr, "gdwire capture: the libpcap found lacks a function capture needs\n");
    return false;
}

static volatile sig_atomic_t g_live_stop;
static void live_stop(int sig) {
    (void)sig;
    g_live_stop = 1;
}

/* ---- the session over frames, from a file or an interface ------------------------------------------------ */

static bool session_start(capture_run *r, void **range_coder) {
    const opts *o = r->o;
    gdw_session_options so = gdw_session_options_default();
    so.dialect = o->dialect;
    *range_coder = load_range_coder();
    if (*range_coder) so.decompress = range_decompress, so.decompress_ctx = *range_coder;
    so.decode.mode = o->dec.mode;
    /* 0 leaves the library's default */
    so.max_open_fragment_bytes = o->cap.max_fragment_bytes, so.max_flow_fragment_bytes = o->cap.max_flow_fragment_bytes;
    so.max_packet_bytes = o->cap.max_packet, so.max_flows = o->cap.max_flows, so.max_cached_paths = o->cap.max_paths;
    so.max_window_bytes = o->cap.max_window_bytes, so.max_flow_window_bytes = o->cap.max_flow_window_bytes;
    so.max_path_bytes = o->cap.max_path_bytes, so.max_flow_path_bytes = o->cap.max_flow_path_bytes;
    so.max_ip_fragment_bytes = o->cap.max_ip_fragment_bytes;
    r->s = gdw_session_new(&so, on_message, on_problem, r);
    if (r->s) return true;
    fprintf(stderr, "gdwire capture: out of memory (or a --max-* past what can be held)\n");
    if (*range_coder) E.destroy(*range_coder);
    return false;
}

/* One frame to the session, and the progress line on a terminal. */
static void session_feed(capture_run *r, int link, const uint8_t *data, size_t caplen, size_t wirelen, double t, uint64_t *frames) {
    if (!r->have_t0) r->t0 = t, r->have_t0 = true;
    gdw_session_frame(r->s, link, data, caplen, wirelen, t);
    if (r->progress && (++*frames & 4095) == 0) {
        time_t now = time(NULL);
        if (now != r->last_progress) {
            gdw_session_stats st = gdw_session_get_stats(r->s);
            fprintf(stderr, "\r\033[K%llu frames, %llu messages, %llu problems", (unsigned long long)st.frames,
                    (unsigned long long)st.messages, (unsigned long long)st.problems);
            r->last_progress = now;
        }
    }
}

/* A problem of the capture itself (a file cut short, an interface's error): said, and counted. */
static void capture_problem(capture_run *r, const char *message) {
    gdw_session_stats st = gdw_session_get_stats(r->s);
    fprintf(stderr, "gdwire capture: %s: after frame %llu: %s\n", r->file_shown, (unsigned long long)st.frames, message);
    if (r->o->json) {
        printf("{\"type\":\"problem\",\"frame\":%llu,\"flow\":0,\"layer\":\"pcap\",\"offset\":0,\"message\":", (unsigned long long)st.frames + 1);
        json_string(stdout, message);
        printf("}\n");
    }
    r->problems++;
}

static int session_end(capture_run *r, void *range_coder) {
    if (r->progress) fputs("\r\033[K", stderr);
    gdw_session_finish(r->s);
    if (!r->o->cap.no_summary) summary(r);
    gdw_session_free(r->s);
    if (range_coder) E.destroy(range_coder);
    names_free(&r->names);
    return r->problems ? EXIT_REJECTED : EXIT_ACCEPTED;
}

/* -i: frames as the interface gives them, each line flushed as it is written, until SIGINT or SIGTERM or
 * --duration. */
static int capture_live(capture_run *r) {
    const opts *o = r->o;
    if (!load_libpcap()) {
        names_free(&r->names);
        return EXIT_USAGE;
    }
    char errbuf[LIVE_ERRBUF_SIZE] = "";
    /* a frame whole (the session reassembles what spans frames), not promiscuous, woken every 100 ms to see the
     * signals and the clock */
    void *pc = P.open_live(o->cap.interface, 262144, 0, 100, errbuf);
    if (!pc) {
        bool denied = strstr(errbuf, "ermission") || strstr(errbuf, "not permitted");
        fprintf(stderr, "gdwire capture: %s: %s%s\n", o->cap.interface, errbuf,
                denied ? " (capturing needs tcpdump's privileges: root, or CAP_NET_RAW and CAP_NET_ADMIN: "
                         "sudo setcap cap_net_raw,cap_net_admin=eip $(command -v gdwire))"
                       : "");
        names_free(&r->names);
        return EXIT_USAGE;
    }
    if (o->cap.filter) {
        struct live_bpf_program prog;
        if (P.compile(pc, &prog, o->cap.filter, 1, LIVE_NETMASK_UNKNOWN) != 0 || P.setfilter(pc, &prog) != 0) {
            fprintf(stderr, "gdwire capture: --filter '%s': %s\n", o->cap.filter, P.geterr(pc));
            P.close(pc);
            names_free(&r->names);
            return EXIT_USAGE;
        }
        P.freecode(&prog);
    }
    void *range_coder;
    if (!session_start(r, &range_coder)) {
        P.close(pc);
        names_free(&r->names);
        return EXIT_USAGE;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line per message as it comes */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = live_stop; /* no SA_RESTART: a wait on the interface ends at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int link = P.datalink(pc);
    /* libpcap's read timeout does not wake a wait on Linux while no packet comes: the interface is read without
     * blocking, and poll waits for it at most 100 ms at a time, so that a signal or --duration ends the capture */
    int fd = P.selectable_fd(pc);
    if (fd < 0 || P.setnonblock(pc, 1, errbuf) != 0) {
        fprintf(stderr, "gdwire capture: %s: cannot be read without blocking: %s\n", o->cap.interface, errbuf);
        P.close(pc);
        return session_end(r, range_coder);
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint64_t frames = 0;
    bool failed = false;
    while (!g_live_stop && !failed) {
        struct pollfd pfd = {fd, POLLIN, 0};
        poll(&pfd, 1, 100);
        for (;;) { /* every frame that is there */
            struct live_pkthdr *h;
            const uint8_t *data;
            int rc = P.next_ex(pc, &h, &data);
            if (rc == 1) {
                session_feed(r, link, data, h->caplen, h->len, (double)h->ts.tv_sec + (double)h->ts.tv_usec / 1e6, &frames);
                continue;
            }
            if (rc < 0 && !g_live_stop) capture_problem(r, P.geterr(pc)), failed = true;
            break;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (o->cap.duration > 0 && (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 >= o->cap.duration) break;
    }
    P.close(pc);
    return session_end(r, range_coder);
}

int cmd_capture(const opts *o) {
    capture_run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    if (o->cap.interface) {
        if (o->n_inputs != 0) return usage_error("capture", "%s", "-i captures live: no file with it");
        snprintf(r.file_shown, sizeof r.file_shown, "%s", o->cap.interface);
    } else {
        if (o->n_inputs != 1) return usage_error("capture", "%s", "one capture file (or - for stdin), or -i IFACE");
        if (o->cap.filter || o->cap.duration > 0) return usage_error("capture", "%s", "--filter and --duration are for -i (a live capture)");
        r.file = o->inputs[0];
        shown_name(r.file, r.file_shown, sizeof r.file_shown);
    }
    if (o->cap.names) {
        int rc = names_load(o->cap.names, &r.names);
        if (rc) { names_free(&r.names); return rc; }
    }
    if (o->cap.project) {
        int rc = names_from_project(o->cap.project, &r.names);
        if (rc) { names_free(&r.names); return rc; }
    }
    r.progress = isatty(STDERR_FILENO) && !o->json;
    if (o->cap.interface) return capture_live(&r);
    bool from_stdin = strcmp(r.file, "-") == 0;
    int fd = from_stdin ? STDIN_FILENO : open(r.file, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "gdwire capture: %s: %s\n", r.file_shown, strerror(errno));
        names_free(&r.names);
        return EXIT_USAGE;
    }
    gdw_pcap *pc = gdw_pcap_open_stream(fd_read, &fd, NULL);
    gdw_pcap_record rec;
    gdw_pcap_error perr;
    /* the file's header and its first record are read before the session starts: a file that is no capture at
     * all is a usage error, as it was when libpcap opened files */
    gdw_pcap_status ps = pc ? gdw_pcap_next(pc, &rec, &perr) : GDW_PCAP_ERR_NOMEM;
    void *range_coder = NULL;
    bool no_capture = !pc || (ps != GDW_PCAP_OK && gdw_pcap_get_format(pc) == GDW_PCAP_FORMAT_UNKNOWN);
    if (no_capture) fprintf(stderr, "gdwire capture: %s: %s\n", r.file_shown, pc ? perr.message : "out of memory");
    if (no_capture || !session_start(&r, &range_coder)) { /* (session_start says why it failed) */
        gdw_pcap_free(pc);
        if (!from_stdin) close(fd);
        names_free(&r.names);
        return EXIT_USAGE;
    }
    uint64_t frames = 0;
    double t = 0;
    for (; ps == GDW_PCAP_OK; ps = gdw_pcap_next(pc, &rec, &perr)) {
        if (rec.has_time) t = rec.time; /* a Simple Packet Block has none: the time of the record before it */
        /* each record with its own interface's link type: a pcapng file's interfaces may differ */
        session_feed(&r, rec.link, rec.data, rec.caplen, rec.wirelen, t, &frames);
    }
    /* a file cut short (a capture stopped by a kill) or damaged: what came before it is kept */
    if (ps != GDW_PCAP_END) capture_problem(&r, perr.message);
    gdw_pcap_free(pc);
    if (!from_stdin) close(fd);
    return session_end(&r, range_coder);
}

/* SPDX-License-Identifier: MIT */
/* guard.c — `gdwire guard`: the filtering proxy in front of a Godot server (guard/README.md). The options, the
 * policy file, the log in capture's one-line format (or JSON lines), the counters; the loop is guard/relay.c and
 * the decision guard/decide.c. */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "guard/guard.h"
#include "guard/relay.h"
#include "project/gdwire_project.h"

static bool seconds_arg(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0) || v > 1e7) return false;
    *out = v;
    return true;
}

int guard_option(opts *o, int argc, char **argv, int *i) {
    guard_opts *g = &o->guard;
    const char *a = argv[*i];
#define NEED(what) \
    do { if (++*i >= argc) { usage_error(o->verb, "%s needs " what, a); return -1; } } while (0)
    if (strcmp(a, "--listen") == 0) { NEED("ADDR:PORT"); g->listen = argv[*i]; }
    else if (strcmp(a, "--upstream") == 0) { NEED("ADDR:PORT"); g->upstream = argv[*i]; }
    else if (strcmp(a, "--policy") == 0) { NEED("a YAML file"); g->policy = argv[*i]; }
    else if (strcmp(a, "--project") == 0) { NEED("a project folder or manifest"); g->project = argv[*i]; }
    else if (strcmp(a, "--log") == 0) { NEED("a file"); g->log = argv[*i]; }
    else if (strcmp(a, "--dry-run") == 0) g->dry_run = true;
    else if (strcmp(a, "--no-checks") == 0) g->no_checks = true;
    else if (strcmp(a, "--ws") == 0) g->ws = true;
    else if (strcmp(a, "--max-clients") == 0) {
        NEED("a number");
        char *end;
        unsigned long v = strtoul(argv[*i], &end, 10);
        if (*end || v < 1 || v > 65536) { usage_error(o->verb, "--max-clients '%s': want 1 to 65536", argv[*i]); return -1; }
        g->max_clients = v;
    } else if (strcmp(a, "--idle") == 0 || strcmp(a, "--duration") == 0 || strcmp(a, "--drain") == 0) {
        NEED("seconds");
        double v;
        if (!seconds_arg(argv[*i], &v)) { usage_error(o->verb, "'%s': want seconds", argv[*i]); return -1; }
        if (a[2] == 'i') g->idle = v;
        else if (a[3] == 'u') g->duration = v;
        else g->drain = v;
    } else
        return 0;
#undef NEED
    return 1;
}

/* ---- the log ------------------------------------------------------------------------------------------------ */

typedef struct guard_run {
    const opts *o;
    FILE *log;
    double t0;
    gdw_guard *g;
} guard_run;

static double mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* capture's line (cli/capture.c print_text): time, the flow (here the client's address), dialect, from -> to, mode and
 * channel, command, node, method; then what the guard did: its action, the rule, the byte, why. */
static void on_action(void *ctx, const gdw_guard_action *a) {
    guard_run *r = ctx;
    FILE *f = r->log;
    const char *client = gdw_relay_current_client();
    const char *dialect = gdw_dialect_name(gdw_guard_policy_of(r->g)->dialect);
    double t = mono() - r->t0;
    if (r->o->json) {
        fprintf(f, "{\"type\":\"action\",\"time\":%.6f,\"client\":", t);
        json_string(f, client);
        fprintf(f, ",\"dialect\":\"%s\",\"from\":%lld,\"to\":1,\"mode\":\"%s\",\"channel\":%u,\"command\":\"%s\",\"node\":", dialect, (long long)a->from,
                a->mode, a->channel, a->command);
        if (a->node) json_string(f, a->node);
        else fputs("null", f);
        fprintf(f, ",\"method_id\":%d,\"method\":", a->method_id);
        if (a->method) {
            char m[256];
            snprintf(m, sizeof m, "%.*s", (int)(a->method_len < 255 ? a->method_len : 255), a->method);
            json_string(f, m);
        } else
            fputs("null", f);
        fprintf(f, ",\"action\":\"%s\",\"rule\":\"%s\",\"offset\":%zu,\"dry_run\":%s,\"detail\":", a->action, a->rule, a->offset, a->dry_run ? "true" : "false");
        json_string(f, a->detail);
        fputs("}\n", f);
    } else {
        char from[24];
        if (a->from) snprintf(from, sizeof from, "%lld", (long long)a->from);
        else snprintf(from, sizeof from, "?");
        fprintf(f, "%11.6f  %s %s  %s -> 1  %s ch%u  %s", t, client, dialect, from, a->mode[0] ? a->mode : "-", a->channel, a->command);
        if (a->node) fprintf(f, " %s", a->node);
        if (a->method) fprintf(f, " %.*s", (int)(a->method_len < 255 ? a->method_len : 255), a->method);
        else if (a->method_id >= 0) fprintf(f, " method %d", a->method_id);
        fprintf(f, "  guard: %s%s %s at byte %zu: %s\n", a->dry_run ? "would " : "", a->action, a->rule, a->offset, a->detail);
    }
    fflush(f);
}

/* The counters, one row each: the name JSON and the text both print (guard/README.md "Log"). */
static void on_report(void *ctx, const char *why) {
    guard_run *r = ctx;
    FILE *f = r->log;
    gdw_guard_counters c = gdw_guard_get_counters(r->g);
    gdw_relay_stats s = gdw_relay_get_stats();
    const struct { const char *name; unsigned long long v; } rows[] = {
        {"datagrams_in", c.datagrams_in}, {"datagrams_out", c.datagrams_out}, {"bytes_in", c.bytes_in}, {"bytes_out", c.bytes_out},
        {"server_datagrams", c.server_datagrams}, {"messages", c.messages}, {"violations", c.violations}, {"dropped", c.dropped},
        {"replaced", c.replaced}, {"refused", c.refused}, {"cuts", c.cuts}, {"retransmits", c.retransmits},
        {"clients_admitted", s.clients_admitted}, {"clients_now", s.clients_now}, {"clients_peak", s.clients_peak},
        {"clients_expired", s.clients_expired}, {"clients_evicted", s.clients_evicted}, {"clients_refused", s.clients_refused},
        {"not_connect", s.not_connect}, {"held_bytes", s.held_now}, {"held_peak", s.held_peak},
    };
    bool json = r->o->json;
    if (json) fprintf(f, "{\"type\":\"counters\",\"when\":\"%s\"", why);
    else fprintf(f, "guard counters (%s):", why);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (json) fprintf(f, ",\"%s\":%llu", rows[i].name, rows[i].v);
        else fprintf(f, "%s %s %llu", i ? "," : "", rows[i].name, rows[i].v);
    }
    fputs(json ? ",\"by_rule\":{" : "; by rule:", f);
    bool first = true;
    for (unsigned i = 0; gdw_guard_rule_name(i); i++) {
        if (!c.by_rule[i]) continue;
        if (json) fprintf(f, "%s\"%s\":%llu", first ? "" : ",", gdw_guard_rule_name(i), (unsigned long long)c.by_rule[i]);
        else fprintf(f, "%s %s %llu", first ? "" : ",", gdw_guard_rule_name(i), (unsigned long long)c.by_rule[i]);
        first = false;
    }
    fputs(json ? "}}\n" : first ? " none\n" : "\n", f);
    fflush(f);
}

/* ENet's range coder (Godot 3.4+'s default compression), from libenet, loaded when the guard runs (as capture does). */
static struct {
    void *ctx;
    size_t (*decompress)(void *, const uint8_t *, size_t, uint8_t *, size_t);
} E;

static size_t range_decompress(void *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) {
    return E.decompress(ctx, in, in_len, out, out_cap);
}

static void load_range_coder(gdw_guard *g) {
    void *h = dlopen("libenet.so.7", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libenet.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    void *(*create)(void);
    *(void **)&create = dlsym(h, "enet_range_coder_create");
    *(void **)&E.decompress = dlsym(h, "enet_range_coder_decompress");
    if (create && E.decompress && (E.ctx = create())) gdw_guard_set_decompressor(g, range_decompress, E.ctx);
}

int cmd_guard(const opts *o) {
    const guard_opts *go = &o->guard;
    if (!go->listen || !go->upstream) return usage_error(o->verb, "%s", "needs --listen ADDR:PORT and --upstream ADDR:PORT");
    if (o->n_inputs) return usage_error(o->verb, "unexpected argument '%s'", o->inputs[0]);
    gdw_guard_policy pol = gdw_guard_policy_default();
    char err[400];
    if (go->policy && gdw_guard_policy_load(go->policy, &pol, err, sizeof err) != 0) {
        fprintf(stderr, "gdwire guard: --policy %s\n", err);
        return EXIT_USAGE;
    }
    if (o->dialect) {
        if (gdw_dialect_rule(o->dialect, GDW_RULE_MULTIPLAYER) <= 0) return usage_error(o->verb, "-d %s: a dialect without a multiplayer layer", gdw_dialect_name(o->dialect));
        pol.dialect = o->dialect;
    }
    if (go->project) pol.project = go->project;
    if (go->dry_run) pol.dry_run = true;
    if (go->no_checks) pol.checks = false;
    guard_run r = {o, stdout, mono(), NULL};
    if (go->log && !(r.log = fopen(go->log, "a"))) {
        fprintf(stderr, "gdwire guard: --log %s: %s\n", go->log, strerror(errno));
        return EXIT_USAGE;
    }
    r.g = gdw_guard_new(&pol, on_action, &r);
    if (!r.g) { fprintf(stderr, "gdwire guard: out of memory\n"); return EXIT_USAGE; }
    load_range_coder(r.g);
    gdw_rpc_manifest *manifest = NULL;
    if (pol.project) {
        if (rpc_manifest_load(o->verb, pol.project, &manifest) != 0) { gdw_guard_free(r.g); return EXIT_USAGE; }
        gdw_guard_use_manifest(r.g, manifest);
    }
    gdw_relay_options ro = {go->listen, go->upstream, go->max_clients ? go->max_clients : 256, go->idle > 0 ? go->idle : 30, 5,
                            go->drain > 0 ? go->drain : 2, go->duration, on_report, &r};
    int rc = go->ws ? gdw_relay_run_ws(&ro, r.g) : gdw_relay_run(&ro, r.g);
    gdw_rpc_manifest_free(manifest);
    gdw_guard_free(r.g);
    if (r.log != stdout) fclose(r.log);
    return rc;
}

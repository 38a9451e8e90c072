/* SPDX-License-Identifier: MIT
 * decide_test: the guard's decision (guard.h) with no socket, on real datagrams.
 *
 *   - Honest: every client datagram of the real sessions in conformance/sessions/ (Godot 4.6.3 plain, FastLZ and
 *     zstd; 3.6.2 with the range coder and with zlib; 3.2.3), fed in capture order with the server's, under the
 *     default policy. The engines ran those sessions to their end and received every RPC (the sessions' logs,
 *     //session:capture_test): so nothing may be judged hostile, and every datagram forwarded is one the client sent,
 *     byte for byte.
 *   - Hostile: datagrams made from the real ones (the client's own header, channel and path-cache id), each with what
 *     an engine refuses or a policy forbids; the expected action is ENet's rule for that command (decide.c's head
 *     cites protocol.c) and the engine's verdict on the packet, cited beside each case.
 *
 * usage: decide_test SESSIONS_DIR (conformance/sessions) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdwire_pcap.h"
#include "gdwire_session.h"
#include "guard/guard.h"
#include "project/gdwire_project.h"

/* (the codec's own tests share codec/tests/testing.h; outside codec/ a test includes gdwire.h alone of it) */
static int t_passed, t_failed;
#define CHECK(cond, ...)                                             \
    do {                                                             \
        if (cond) t_passed++;                                        \
        else {                                                       \
            t_failed++;                                              \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);     \
            fprintf(stderr, __VA_ARGS__);                            \
            fputc('\n', stderr);                                     \
        }                                                            \
    } while (0)

/* ---- the datagrams of a capture ------------------------------------------------------------------------------- */

typedef struct dgram {
    const uint8_t *p;
    size_t n;
    unsigned src, dst; /* UDP ports */
} dgram;

typedef struct capture {
    uint8_t *file;
    dgram *d;
    size_t n;
} capture;

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* Ethernet (tcpdump -i lo) or raw IPv4, UDP. */
static int load(const char *path, capture *c) {
    size_t len;
    memset(c, 0, sizeof *c);
    if (!(c->file = slurp(path, &len))) { fprintf(stderr, "%s: cannot read\n", path); return -1; }
    gdw_pcap *r = gdw_pcap_open_memory(c->file, len, NULL);
    gdw_pcap_record rec;
    gdw_pcap_error err;
    c->d = calloc(len / 40 + 1, sizeof *c->d);
    while (r && gdw_pcap_next(r, &rec, &err) == GDW_PCAP_OK) {
        const uint8_t *p = rec.data;
        size_t n = rec.caplen, at = 0;
        if (rec.link == GDW_LINK_ETHERNET) {
            if (n < 14 || p[12] != 0x08 || p[13] != 0x00) continue;
            at = 14;
        } else if (rec.link != GDW_LINK_RAW && rec.link != GDW_LINK_IPV4)
            continue;
        if (n < at + 20 || (p[at] >> 4) != 4 || p[at + 9] != 17) continue;
        size_t ihl = (size_t)(p[at] & 15) * 4;
        at += ihl;
        if (n < at + 8) continue;
        dgram *d = &c->d[c->n++];
        d->src = (unsigned)(p[at] << 8 | p[at + 1]), d->dst = (unsigned)(p[at + 2] << 8 | p[at + 3]);
        d->p = p + at + 8, d->n = n - at - 8;
    }
    gdw_pcap_free(r);
    return c->n ? 0 : -1;
}

/* The server's port: where the first CONNECT (peer id 0xFFF) went. */
static unsigned server_port(const capture *c, const gdw_guard *g) {
    for (size_t i = 0; i < c->n; i++)
        if (gdw_guard_is_connect(g, c->d[i].p, c->d[i].n)) return c->d[i].dst;
    return 0;
}

/* ---- what the guard gives ------------------------------------------------------------------------------------- */

typedef struct sink {
    uint8_t *buf[64];
    size_t len[64];
    bool up[64]; /* to the server */
    unsigned n;
    unsigned total;
    unsigned actions;
    char last_rule[32], last_action[16], last_why[400];
    size_t last_offset;
} sink;

static void sink_emit(void *ctx, bool to_server, const uint8_t *d, size_t n) {
    sink *s = ctx;
    s->total++;
    if (s->n >= 64) return;
    s->up[s->n] = to_server;
    s->buf[s->n] = malloc(n);
    memcpy(s->buf[s->n], d, n);
    s->len[s->n++] = n;
}

static void sink_clear(sink *s) {
    for (unsigned i = 0; i < s->n; i++) free(s->buf[i]);
    s->n = 0, s->total = 0;
}

static void on_action(void *ctx, const gdw_guard_action *a) {
    sink *s = ctx;
    s->actions++;
    snprintf(s->last_rule, sizeof s->last_rule, "%s", a->rule);
    snprintf(s->last_action, sizeof s->last_action, "%s", a->action);
    s->last_offset = a->offset;
    snprintf(s->last_why, sizeof s->last_why, "%s", a->detail);
    if (getenv("DECIDE_TEST_VERBOSE")) fprintf(stderr, "  action %s %s at %zu: %s\n", a->action, a->rule, a->offset, a->detail);
}

/* ENet's range coder from libenet (Debian libenet7), as gdwire guard loads it. */
static size_t (*range_fn)(void *, const uint8_t *, size_t, uint8_t *, size_t);
static void *range_ctx;
static size_t range(void *ctx, const uint8_t *in, size_t n, uint8_t *out, size_t cap) { return range_fn(ctx, in, n, out, cap); }
static bool load_range(void) {
    void *h = dlopen("libenet.so.7", RTLD_NOW);
    if (!h) h = dlopen("libenet.so", RTLD_NOW);
    if (!h) return false;
    void *(*create)(void);
    *(void **)&create = dlsym(h, "enet_range_coder_create");
    *(void **)&range_fn = dlsym(h, "enet_range_coder_decompress");
    return create && range_fn && (range_ctx = create());
}

/* ---- honest sessions ------------------------------------------------------------------------------------------ */

#define MAX_PEERS 8

static void honest(const char *dir, const char *name, const char *dialect, bool needs_range) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.pcap", dir, name);
    capture c;
    if (load(path, &c) != 0) { CHECK(0, "%s: no UDP datagrams", path); return; }
    gdw_guard_policy pol = gdw_guard_policy_default();
    pol.dialect = gdw_dialect_find(dialect);
    sink s;
    memset(&s, 0, sizeof s);
    gdw_guard *g = gdw_guard_new(&pol, on_action, &s);
    if (needs_range) gdw_guard_set_decompressor(g, range, range_ctx);
    unsigned sp = server_port(&c, g);
    CHECK(sp != 0, "%s: no CONNECT", name);
    unsigned ports[MAX_PEERS] = {0};
    gdw_guard_peer *peers[MAX_PEERS] = {0};
    size_t from_clients = 0, forwarded = 0, same = 0;
    for (size_t i = 0; i < c.n; i++) {
        const dgram *d = &c.d[i];
        unsigned client = d->dst == sp ? d->src : d->src == sp ? d->dst : 0;
        if (!client) continue;
        unsigned k = 0;
        while (k < MAX_PEERS && ports[k] && ports[k] != client) k++;
        if (k == MAX_PEERS) continue;
        if (!ports[k]) ports[k] = client, peers[k] = gdw_guard_peer_new(g);
        if (d->src == sp) { gdw_guard_server(g, peers[k], d->p, d->n); continue; }
        from_clients++;
        sink_clear(&s);
        gdw_guard_client(g, peers[k], d->p, d->n, (double)i * 1e-3, sink_emit, &s);
        for (unsigned e = 0; e < s.n; e++) { /* each one a datagram this client sent, as it sent it */
            forwarded++;
            bool found = false;
            for (size_t b = i + 1; b-- > 0 && !found;)
                found = c.d[b].src == client && c.d[b].n == s.len[e] && memcmp(c.d[b].p, s.buf[e], s.len[e]) == 0;
            same += found;
        }
    }
    sink_clear(&s);
    gdw_guard_counters ct = gdw_guard_get_counters(g);
    CHECK(s.actions == 0, "%s: %u actions on an honest session (the last: %s %s at byte %zu)", name, s.actions, s.last_action, s.last_rule, s.last_offset);
    CHECK(same == forwarded, "%s: %zu of %zu forwarded datagrams are not the client's own bytes", name, forwarded - same, forwarded);
    CHECK(forwarded + ct.retransmits >= from_clients, "%s: %zu client datagrams, %zu forwarded, %llu retransmits", name, from_clients, forwarded,
          (unsigned long long)ct.retransmits);
    CHECK(ct.messages > 20, "%s: only %llu messages judged", name, (unsigned long long)ct.messages);
    printf("honest %-22s %zu client datagrams, %zu forwarded byte for byte, %llu messages judged, 0 actions\n", name, from_clients, forwarded,
           (unsigned long long)ct.messages);
    for (unsigned k = 0; k < MAX_PEERS; k++) gdw_guard_peer_free(peers[k]);
    gdw_guard_free(g);
    free(c.d), free(c.file);
}

/* ---- hostile datagrams made from a real Godot 4.6.3 session --------------------------------------------------- */

typedef struct flow {
    gdw_guard *g;
    gdw_guard_peer *peer;
    sink s;
    uint8_t hdr[4];   /* the client's own header, with its sent time */
    uint32_t cache_id; /* a path-cache id the client announced */
    bool have_id;
    uint16_t verify_peer; /* from the server's VERIFY_CONNECT */
    bool verified;
    uint8_t verify_session;
} flow;

/* The first client of the 4.6.3 session through the guard, up to its first RPC; the ids it announced. */
static void flow_open(flow *f, const capture *c, const gdw_guard_policy *pol) {
    memset(f, 0, sizeof *f);
    f->g = gdw_guard_new(pol, on_action, &f->s);
    f->peer = gdw_guard_peer_new(f->g);
    unsigned sp = server_port(c, f->g), client = 0;
    for (size_t i = 0; i < c->n; i++) {
        const dgram *d = &c->d[i];
        if (!client && d->dst == sp && gdw_guard_is_connect(f->g, d->p, d->n)) client = d->src;
        if (!client) continue;
        if (d->src == sp && d->dst == client) {
            gdw_guard_server(f->g, f->peer, d->p, d->n);
            gdw_enet_header h;
            gdw_error err;
            gdw_enet_read_header(d->p, d->n, &h, &err);
            gdw_enet_commands it;
            gdw_enet_command cmd;
            gdw_enet_commands_begin(&it, d->p + h.size, d->n - h.size, h.size);
            while (gdw_enet_commands_next(&it, &cmd, &err) == 1)
                if (cmd.kind == GDW_ENET_VERIFY_CONNECT) f->verify_peer = (uint16_t)((cmd.fields[4] << 8 | cmd.fields[5]) & 0xFFF), f->verify_session = cmd.fields[7], f->verified = true;
            continue;
        }
        if (d->src != client || d->dst != sp) continue;
        sink_clear(&f->s);
        gdw_guard_client(f->g, f->peer, d->p, d->n, 0, sink_emit, &f->s);
        gdw_enet_header h;
        gdw_error err;
        if (gdw_enet_read_header(d->p, d->n, &h, &err) != GDW_OK) continue;
        if (h.has_sent_time) memcpy(f->hdr, d->p, 4);
        gdw_enet_commands it;
        gdw_enet_command cmd;
        gdw_enet_commands_begin(&it, d->p + h.size, d->n - h.size, h.size);
        while (gdw_enet_commands_next(&it, &cmd, &err) == 1) {
            if (cmd.kind != GDW_ENET_SEND_RELIABLE || cmd.data_len < 38 || (cmd.data[0] & 7) != 1) continue;
            /* SIMPLIFY_PATH: 01, 32 hex + NUL, the id (scene_cache_interface.cpp) */
            f->cache_id = (uint32_t)cmd.data[34] | (uint32_t)cmd.data[35] << 8 | (uint32_t)cmd.data[36] << 16 | (uint32_t)cmd.data[37] << 24;
            f->have_id = true;
        }
        if (f->have_id && f->verified) break;
    }
    sink_clear(&f->s);
    f->s.actions = 0;
}

static void flow_close(flow *f) {
    sink_clear(&f->s);
    gdw_guard_peer_free(f->peer);
    gdw_guard_free(f->g);
}

static void put16(uint8_t *b, unsigned v) { b[0] = (uint8_t)(v >> 8), b[1] = (uint8_t)v; }

/* A datagram: the client's header, then commands. */
typedef struct build {
    uint8_t b[GDW_ENET_MAXIMUM_MTU];
    size_t n;
} build;

static void b_begin(build *d, const flow *f) { memcpy(d->b, f->hdr, 4), d->n = 4; }

static void b_ack(build *d, unsigned seq) {
    uint8_t *c = d->b + d->n;
    c[0] = GDW_ENET_ACKNOWLEDGE, c[1] = 0xFF, put16(c + 2, 0), put16(c + 4, seq), put16(c + 6, 0x1234);
    d->n += 8;
}

/* SEND_RELIABLE (6 | 0x80) or SEND_UNSEQUENCED (9 | 0x40) on ENet channel ch with pkt. */
static size_t b_send(build *d, bool reliable, unsigned ch, unsigned seq, const uint8_t *pkt, size_t n) {
    size_t at = d->n;
    uint8_t *c = d->b + d->n;
    if (reliable) {
        c[0] = GDW_ENET_SEND_RELIABLE | 0x80, c[1] = (uint8_t)ch, put16(c + 2, seq), put16(c + 4, (unsigned)n);
        memcpy(c + 6, pkt, n), d->n += 6 + n;
    } else {
        c[0] = GDW_ENET_SEND_UNSEQUENCED | 0x40, c[1] = (uint8_t)ch, put16(c + 2, 0), put16(c + 4, seq), put16(c + 6, (unsigned)n);
        memcpy(c + 8, pkt, n), d->n += 8 + n;
    }
    return at;
}

/* An RPC on the announced node (method 0) with its arguments: meta 0 (a u8 node id, a u8 method id, an argument count:
 * scene_rpc_interface.cpp's layout, docs/multiplayer.md 1.2). */
static size_t rpc_packet(const flow *f, uint8_t *out, unsigned argc, const uint8_t *args, size_t args_n) {
    out[0] = 0x00, out[1] = (uint8_t)f->cache_id, out[2] = 0, out[3] = (uint8_t)argc;
    memcpy(out + 4, args, args_n);
    return 4 + args_n;
}

static unsigned judge_one(flow *f, const build *d) {
    sink_clear(&f->s);
    f->s.actions = 0;
    f->s.last_rule[0] = 0;
    return gdw_guard_client(f->g, f->peer, d->b, d->n, 1, sink_emit, &f->s);
}

static void le32(uint8_t *b, uint32_t v) { for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i)); }

static void hostile(const char *dir) {
    char path[1024];
    snprintf(path, sizeof path, "%s/godot4.6-enet.pcap", dir);
    capture c;
    if (load(path, &c) != 0) { CHECK(0, "%s: unreadable", path); return; }
    gdw_guard_policy pol = gdw_guard_policy_default();
    pol.cut_after = 0; /* each case alone; the cut is its own case */
    flow f;
    flow_open(&f, &c, &pol);
    CHECK(f.have_id && f.verified, "the 4.6.3 session's first client announced no path or had no VERIFY_CONNECT");
    uint8_t pkt[2048], args[1024];
    build d;

    /* An honest RPC made the same way goes through, byte for byte (a compact int argument: 02 then one byte). */
    args[0] = 0x02, args[1] = 42;
    size_t pn = rpc_packet(&f, pkt, 1, args, 2);
    b_begin(&d, &f), b_send(&d, true, 0, 40000, pkt, pn);
    CHECK(judge_one(&f, &d) == 0 && f.s.n == 1 && f.s.len[0] == d.n && memcmp(f.s.buf[0], d.b, d.n) == 0, "an honest made RPC was not forwarded as is");

    /* The client reconnects from the same address (a new CONNECT, a new Godot id): ENet starts its sequence numbers
     * again (peer.c enet_peer_reset), so a reliable command of the new session that reuses a sequence number of the old
     * one with other bytes is no retransmit of it: it goes on untouched. (Unknown paths let by: the new session has
     * announced none, and that rule is not this case's.) */
    {
        gdw_guard_policy p2 = gdw_guard_policy_default();
        p2.unknown_paths = true, p2.cut_after = 0;
        flow f2;
        flow_open(&f2, &c, &p2);
        args[0] = 0x02, args[1] = 99;
        pn = rpc_packet(&f2, pkt, 1, args, 2);
        b_begin(&d, &f2), b_send(&d, true, 0, 40100, pkt, pn);
        CHECK(judge_one(&f2, &d) == 0, "the first session's command at 40100");
        const dgram *cd = NULL;
        for (size_t i = 0; i < c.n && !cd; i++)
            if (gdw_guard_is_connect(f2.g, c.d[i].p, c.d[i].n)) cd = &c.d[i];
        build re;
        memcpy(re.b, cd->p, cd->n), re.n = cd->n;
        re.b[re.n - 1] ^= 0x5A; /* CONNECT's last field, data: the client's Godot id, another one */
        judge_one(&f2, &re);
        args[1] = 100;
        pn = rpc_packet(&f2, pkt, 1, args, 2);
        b_begin(&d, &f2), b_send(&d, true, 0, 40100, pkt, pn);
        CHECK(judge_one(&f2, &d) == 0 && f2.s.n == 1 && memcmp(f2.s.buf[0], d.b, d.n) == 0,
              "after a reconnect, sequence 40100 with other bytes was taken for a changed retransmit (%s)", f2.s.last_rule);
        flow_close(&f2);
    }

    /* An Object argument, reliable: Godot 4.6.3 refuses full objects unless allow_object_decoding (core/io/marshalls.cpp
     * decode_variant, case OBJECT: ERR_FAIL_COND_V(!p_allow_objects, ERR_UNAUTHORIZED)). Header 24 (OBJECT) without
     * ENCODE_FLAG_OBJECT_AS_ID: the class name as a String. The command is replaced by the harmless SEND_RELIABLE of
     * the same channel and sequence number (ENet delivers a channel's reliable commands in order, protocol.c). */
    size_t an = 0;
    le32(args + an, 24), an += 4;
    le32(args + an, 4), an += 4, memcpy(args + an, "Node", 4), an += 4;
    le32(args + an, 0), an += 4; /* no properties */
    pn = rpc_packet(&f, pkt, 1, args, an);
    b_begin(&d, &f), b_ack(&d, 7), b_send(&d, true, 0, 40001, pkt, pn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "object") == 0 && strcmp(f.s.last_action, "replace") == 0, "Object argument: %s %s", f.s.last_action, f.s.last_rule);
    CHECK(f.s.last_offset == 4, "Object argument: at byte %zu, want 4 (the argument's header)", f.s.last_offset);
    CHECK(f.s.n == 1 && f.s.len[0] == 4 + 8 + 6 + 2 && memcmp(f.s.buf[0], d.b, 12) == 0 && f.s.buf[0][12] == (GDW_ENET_SEND_RELIABLE | 0x80) &&
              f.s.buf[0][13] == 0 && f.s.buf[0][14] == (40001 >> 8) && f.s.buf[0][15] == (40001 & 0xFF) && f.s.buf[0][18] == 0x07 && f.s.buf[0][19] == 0x00,
          "Object argument: not the header and ack, then the harmless SEND_RELIABLE (07 00: 4.6.3 drops it silently, "
          "guard/README.md) on channel 0, sequence 40001");
    /* its retransmit (ENet resends until acknowledged) is answered alike */
    judge_one(&f, &d);
    CHECK(f.s.n == 1 && f.s.len[0] == 20 && f.s.buf[0][18] == 0x07, "the retransmit of a replaced command was not replaced alike");

    /* The same Object unsequenced, beside an honest unsequenced RPC and an ACK: removed, the rest forwarded as it was
     * (an unsequenced command that never arrives is a lost one, protocol.c enet_protocol_handle_send_unsequenced). */
    uint8_t good[16];
    args[0] = 0x02, args[1] = 7;
    size_t gn = rpc_packet(&f, good, 1, args, 2);
    build want;
    b_begin(&want, &f), b_ack(&want, 8), b_send(&want, false, 1, 3, good, gn);
    b_begin(&d, &f), b_ack(&d, 8), b_send(&d, false, 1, 2, pkt, pn), b_send(&d, false, 1, 3, good, gn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_action, "drop") == 0 && strcmp(f.s.last_rule, "object") == 0, "unsequenced Object: %s %s", f.s.last_action, f.s.last_rule);
    CHECK(f.s.n == 1 && f.s.len[0] == want.n && memcmp(f.s.buf[0], want.b, want.n) == 0, "unsequenced Object: the rest not forwarded as it was");

    /* Nesting past Godot 4.6.3's limit: decode_variant fails past Variant::MAX_RECURSION_DEPTH (1,024: "Variant is too
     * deep. Bailing."); 1,100 Arrays of one element each. */
    an = 0;
    for (int i = 0; i < 1100 && an + 8 < sizeof args; i++) le32(args + an, 28), le32(args + an + 4, 1), an += 8; /* ARRAY, one element */
    if (an + 4 <= sizeof args) le32(args + an, 0), an += 4;
    /* (1024 bytes hold 127 levels: deeper than the policy's 64, shallower than the engine's 1,024) */
    pn = rpc_packet(&f, pkt, 1, args, an);
    b_begin(&d, &f), b_send(&d, true, 0, 40002, pkt, pn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "depth") == 0, "127 nested Arrays under variant.max_depth 64: %s", f.s.last_rule);

    /* A PackedByteArray claiming 2 GB in a packet of a few bytes: the engine reads past no buffer (marshalls.cpp
     * PACKED_BYTE_ARRAY: ERR_FAIL_COND_V(count > len, ERR_INVALID_DATA)); the guard refuses it before the engine sees it. */
    an = 0;
    le32(args + an, 29), an += 4, le32(args + an, 0x7FFFFFF0u), an += 4, memcpy(args + an, "abcd", 4), an += 4;
    pn = rpc_packet(&f, pkt, 1, args, an);
    b_begin(&d, &f), b_send(&d, true, 0, 40003, pkt, pn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "variant") == 0 && strcmp(f.s.last_action, "replace") == 0, "2 GB PackedByteArray: %s %s", f.s.last_action, f.s.last_rule);

    /* Engine finding 7: Array[Vector3i] holding Vector3(0, 4.397412e+36, -0): 4.6.3 converts the element to Vector3i
     * by int32_t(float), undefined in C++ for a value out of int's range (UBSan in godot4.6-asan, core/math/
     * vector3.cpp:162); the release engine holds Vector3i(0, -2147483648, 0) on x86-64. Replaced (rule conversion,
     * at the argument, its element named); with variant.undefined_conversions: allow, or a Vector3 in range, it goes
     * on untouched. */
    {
        static const uint8_t finding7[] = {0x1c, 0x00, 0x09, 0x00, 0x0a, 0, 0, 0, 0x01, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0,
                                           0x4a, 0xba, 0x53, 0x7c, 0x00, 0x00, 0x00, 0x80};
        static const uint8_t in_range[] = {0x1c, 0x00, 0x09, 0x00, 0x0a, 0, 0, 0, 0x01, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0x80, 0x3f,
                                           0, 0, 0, 0x40, 0, 0, 0x40, 0x40}; /* Vector3(1, 2, 3) */
        pn = rpc_packet(&f, pkt, 1, finding7, sizeof finding7);
        b_begin(&d, &f), b_send(&d, true, 0, 41004, pkt, pn);
        judge_one(&f, &d);
        CHECK(strcmp(f.s.last_rule, "conversion") == 0 && strcmp(f.s.last_action, "replace") == 0 && f.s.last_offset == 4,
              "finding 7's typed Array: %s %s at %zu, want replace conversion at 4", f.s.last_action, f.s.last_rule, f.s.last_offset);
        CHECK(strstr(f.s.last_why, "arg 0 at [0]: 1 conversion") != NULL, "finding 7's typed Array: why '%s'", f.s.last_why);
        pn = rpc_packet(&f, pkt, 1, in_range, sizeof in_range);
        b_begin(&d, &f), b_send(&d, true, 0, 41005, pkt, pn);
        CHECK(judge_one(&f, &d) == 0 && f.s.actions == 0 && f.s.n == 1 && f.s.len[0] == d.n && memcmp(f.s.buf[0], d.b, d.n) == 0,
              "Vector3(1, 2, 3) into Array[Vector3i], a defined conversion, not forwarded as is (%s)", f.s.last_rule);
        gdw_guard_policy p3 = gdw_guard_policy_default();
        p3.undefined_conversions = true, p3.cut_after = 0;
        flow f3;
        flow_open(&f3, &c, &p3);
        pn = rpc_packet(&f3, pkt, 1, finding7, sizeof finding7);
        b_begin(&d, &f3), b_send(&d, true, 0, 41006, pkt, pn);
        CHECK(judge_one(&f3, &d) == 0 && f3.s.actions == 0 && f3.s.n == 1 && memcmp(f3.s.buf[0], d.b, d.n) == 0,
              "variant.undefined_conversions: allow, yet finding 7's typed Array was not forwarded (%s)", f3.s.last_rule);
        flow_close(&f3);
        /* a typed Dictionary's key converted alike: Dictionary[Vector2i, Variant]({Vector2(inf, 0): 1}), which the real
         * 4.6.3 reads as { (-2147483648, 0): 1 } (tools/engines/godot4.6-typed_conversions.tsv, "Dictionary key
         * Vector2i inf") */
        static const uint8_t key7[] = {0x1b, 0, 0x01, 0, 0x06, 0, 0, 0, 0x01, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0x80, 0x7f,
                                       0, 0, 0, 0, 0x02, 0, 0, 0, 0x01, 0, 0, 0};
        pn = rpc_packet(&f, pkt, 1, key7, sizeof key7);
        b_begin(&d, &f), b_send(&d, true, 0, 41007, pkt, pn);
        judge_one(&f, &d);
        CHECK(strcmp(f.s.last_rule, "conversion") == 0 && strcmp(f.s.last_action, "replace") == 0 && f.s.last_offset == 4,
              "a typed Dictionary's key: %s %s at %zu, want replace conversion at 4", f.s.last_action, f.s.last_rule,
              f.s.last_offset);
        CHECK(strstr(f.s.last_why, "{#0 key}") != NULL, "a typed Dictionary's key: why '%s' names no key", f.s.last_why);
    }

    /* An RPC naming a cache id the client never announced: the engine finds no node
     * (SceneCacheInterface::get_cached_object: "Invalid packet received. Unable to find requested cached node."). */
    args[0] = 0x02, args[1] = 1;
    pn = rpc_packet(&f, pkt, 1, args, 2);
    pkt[1] = (uint8_t)(f.cache_id + 77);
    b_begin(&d, &f), b_send(&d, true, 0, 40004, pkt, pn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "unknown_path") == 0, "unknown cache id: %s", f.s.last_rule);

    /* A client's ADD_PEER: only the server sends it (SceneMultiplayer::_process_sys, SYS_COMMAND_ADD_PEER:
     * ERR_FAIL_COND(!multiplayer_peer->is_server_relay_supported() || get_unique_id() == 1 ...)). */
    uint8_t sys[6] = {0x07, 0x01, 0x05, 0, 0, 0};
    b_begin(&d, &f), b_send(&d, true, 0, 40005, sys, sizeof sys);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "peer_command") == 0, "client ADD_PEER: %s", f.s.last_rule);

    /* A relay wrapping an Object: the inner packet is judged too, its offset in the outer packet. */
    an = 0;
    le32(args + an, 24), an += 4, le32(args + an, 4), an += 4, memcpy(args + an, "Node", 4), an += 4, le32(args + an, 0), an += 4;
    size_t in = rpc_packet(&f, pkt + 6, 1, args, an);
    pkt[0] = 0x07, pkt[1] = 0x03, le32(pkt + 2, 0);
    b_begin(&d, &f), b_send(&d, true, 0, 40006, pkt, 6 + in);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "object") == 0 && f.s.last_offset == 10, "relayed Object: %s at %zu, want object at 10", f.s.last_rule, f.s.last_offset);

    /* Fragments claiming 4 MB (ENet's maximum is 32 MB, so the server would hold them): the guard's enet.max_message_bytes;
     * a reliable fragment cannot be removed without stalling its channel, so the peer is cut off, and the server told with
     * the DISCONNECT forged from its VERIFY_CONNECT (outgoingPeerID and outgoingSessionID: protocol.c:1029-1052). */
    uint8_t *cm = d.b + 4;
    b_begin(&d, &f);
    cm[0] = GDW_ENET_SEND_FRAGMENT | 0x80, cm[1] = 0, put16(cm + 2, 40007), put16(cm + 4, 40007), put16(cm + 6, 100);
    uint8_t *fr = cm + 8;
    fr[0] = 0, fr[1] = 0, fr[2] = 0x0B, fr[3] = 0xB8;            /* fragmentCount 3000 */
    memset(fr + 4, 0, 4);                                        /* fragmentNumber 0 */
    fr[8] = 0, fr[9] = 0x40, fr[10] = 0, fr[11] = 0;             /* totalLength 4 MiB */
    memset(fr + 12, 0, 4);                                       /* fragmentOffset 0 */
    memset(cm + 24, 0, 100);
    d.n = 4 + 24 + 100;
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_action, "cut") == 0, "a 4 MB fragment flood: %s %s, want a cut", f.s.last_action, f.s.last_rule);
    CHECK(gdw_guard_peer_cut(f.peer), "not cut off");
    CHECK(f.s.n == 1 && f.s.len[0] == 10, "no forged DISCONNECT (%u datagrams)", f.s.n);
    if (f.s.n == 1 && f.s.len[0] == 10) {
        const uint8_t *x = f.s.buf[0];
        unsigned hdr = (unsigned)(x[0] << 8 | x[1]);
        CHECK((hdr & 0xFFF) == f.verify_peer && ((hdr >> 12) & 3) == (f.verify_session & 3) && x[2] == GDW_ENET_DISCONNECT && x[3] == 0xFF,
              "the forged DISCONNECT: header %04x, command %02x channel %02x; VERIFY_CONNECT said peer %u session %u", hdr, x[2], x[3], f.verify_peer,
              f.verify_session);
    }
    /* and nothing of it goes through after */
    b_begin(&d, &f), b_send(&d, true, 0, 40008, good, gn);
    judge_one(&f, &d);
    CHECK(f.s.n == 0, "a cut-off peer's datagram went through");
    flow_close(&f);

    /* Cut after N violations (actions.cut_after 3): two replaced, the third cuts. */
    pol = gdw_guard_policy_default();
    flow_open(&f, &c, &pol);
    an = 0;
    le32(args + an, 24), an += 4, le32(args + an, 4), an += 4, memcpy(args + an, "Node", 4), an += 4, le32(args + an, 0), an += 4;
    pn = rpc_packet(&f, pkt, 1, args, an);
    for (unsigned k = 0; k < 3; k++) {
        b_begin(&d, &f), b_send(&d, true, 0, 41000 + k, pkt, pn);
        judge_one(&f, &d);
        CHECK(gdw_guard_peer_cut(f.peer) == (k == 2), "violation %u: cut %d", k + 1, gdw_guard_peer_cut(f.peer));
    }
    flow_close(&f);

    /* --dry-run: the same hostile datagram forwarded byte for byte, the action logged. */
    pol = gdw_guard_policy_default();
    pol.dry_run = true;
    flow_open(&f, &c, &pol);
    b_begin(&d, &f), b_send(&d, true, 0, 42000, pkt, pn);
    judge_one(&f, &d);
    CHECK(f.s.actions == 1 && f.s.n == 1 && f.s.len[0] == d.n && memcmp(f.s.buf[0], d.b, d.n) == 0, "dry run: not forwarded as is, or not logged");
    flow_close(&f);

    /* Garbage from a client: not ENet commands after the header (ENet stops at the first command it cannot read,
     * protocol.c commandError): nothing of it goes on. */
    pol = gdw_guard_policy_default();
    flow_open(&f, &c, &pol);
    b_begin(&d, &f);
    memset(d.b + 4, 0xEE, 40), d.n = 44;
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "enet") == 0 && f.s.n == 0, "garbage commands: %s, %u datagrams out", f.s.last_rule, f.s.n);
    flow_close(&f);
    /* The policy's container and string limits (variant.max_container 10, variant.max_string 50: values the engine takes,
     * refused by the operator's rule): an Array of 20 ints, then a String of 100 bytes; the byte is the count's or the
     * length's, after the RPC's 4-byte head and the Variant's 4-byte header. */
    pol = gdw_guard_policy_default();
    pol.max_container = 10, pol.max_string = 50, pol.cut_after = 0;
    flow_open(&f, &c, &pol);
    an = 0;
    le32(args + an, 28), an += 4, le32(args + an, 20), an += 4;
    for (int i = 0; i < 20; i++) le32(args + an, 2), le32(args + an + 4, (uint32_t)i), an += 8; /* INT, 32-bit */
    pn = rpc_packet(&f, pkt, 1, args, an);
    b_begin(&d, &f), b_send(&d, true, 0, 44000, pkt, pn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "container") == 0 && f.s.last_offset == 8, "an Array of 20 under max_container 10: %s at %zu", f.s.last_rule,
          f.s.last_offset);
    an = 0;
    le32(args + an, 4), an += 4, le32(args + an, 100), an += 4, memset(args + an, 'x', 100), an += 100;
    pn = rpc_packet(&f, pkt, 1, args, an);
    b_begin(&d, &f), b_send(&d, true, 0, 44001, pkt, pn);
    judge_one(&f, &d);
    CHECK(strcmp(f.s.last_rule, "string") == 0 && f.s.last_offset == 8, "a String of 100 under max_string 50: %s at %zu", f.s.last_rule, f.s.last_offset);
    flow_close(&f);

    /* The project's rule (--project): conformance/projects/typed4, read as gdwire rpc reads it; Main/Typed's method 4 is
     * mark(k: int). Godot 4.6.3 refuses a String for a typed int parameter and a call with the wrong count
     * (GDScriptFunction::call; docs/rpc-manifest.md "Which calls the engine runs", held against the engine by
     * //project:fit_engine_test), and runs the call with an int. The node announced first: SIMPLIFY_PATH id 9. */
    gdw_rpc_manifest *man = NULL;
    char perr[256];
    char projdir[1100];
    snprintf(projdir, sizeof projdir, "%s/../projects/typed4", dir);
    CHECK(gdw_project_read(projdir, NULL, &man, perr, sizeof perr) == GDW_PROJECT_OK && man, "typed4: %s", perr);
    if (man) {
        pol = gdw_guard_policy_default();
        pol.cut_after = 0;
        flow_open(&f, &c, &pol);
        gdw_guard_use_manifest(f.g, man);
        uint8_t sp[64];
        size_t sn = 0;
        sp[sn++] = 0x01;
        memcpy(sp + sn, "46826b33f8cbddca06dc7e79f3b6eb5a", 32), sn += 32, sp[sn++] = 0;
        le32(sp + sn, 9), sn += 4;
        memcpy(sp + sn, "Main/Typed", 11), sn += 11;
        b_begin(&d, &f), b_send(&d, true, 0, 45000, sp, sn);
        CHECK(judge_one(&f, &d) == 0, "typed4's SIMPLIFY_PATH was judged");
        struct { const uint8_t *arg; size_t n; unsigned argc; int method; const char *want; } calls[] = {
            {(const uint8_t *)"\x02\x07", 2, 1, 4, ""},                                               /* mark(7): runs */
            {(const uint8_t *)"\x04\0\0\0\x02\0\0\0" "12\0\0", 12, 1, 4, "arguments"},            /* mark("12") */
            {(const uint8_t *)"\x02\x07\x02\x08", 4, 2, 4, "arguments"},                                /* mark(7, 8) */
            {(const uint8_t *)"\x02\x07", 2, 1, 99, "unknown_method"},                                  /* no method 99 */
        };
        for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
            uint8_t rp[64];
            rp[0] = 0x00, rp[1] = 9, rp[2] = (uint8_t)calls[k].method, rp[3] = (uint8_t)calls[k].argc;
            memcpy(rp + 4, calls[k].arg, calls[k].n);
            b_begin(&d, &f), b_send(&d, true, 0, (unsigned)(45001 + k), rp, 4 + calls[k].n);
            judge_one(&f, &d);
            CHECK(strcmp(f.s.last_rule, calls[k].want) == 0, "typed4 call %zu: rule '%s', want '%s'", k, f.s.last_rule, calls[k].want);
        }
        flow_close(&f);
        gdw_rpc_manifest_free(man);
    }

    /* An RPC naming its node inline (not by a cache id) with a path no node of the project has. The session's first
     * inline RPC (a client's `Game` method 5 with an argument, sent before the server confirmed the path: meta 0x2?,
     * a u32 node target 0x80000000 | ofs, the path after the arguments; scene_rpc_interface.cpp:435-457 in 4.6.3) edited to
     * name NoSuchNode/Deeper: Godot 4.6.3 finds no such node (`Node not found: "NoSuchNode/Deeper" (relative to
     * "/root").`, tools/engines/guard/hostile_unguarded.tsv). With a manifest (conformance/projects/arena4: Main/Dynamic
     * is dynamic, its script calls rpc_config(); Main/Units/ * is what a spawner spawns) that path is unknown_path; a name
     * the manifest's "*" stands for and a node below a dynamic one are not. Without a manifest the guard cannot know. */
    {
        uint8_t orig[1500];
        size_t on = 0, ofs = 0;
        unsigned och = 0;
        pol = gdw_guard_policy_default();
        flow_open(&f, &c, &pol);
        unsigned sp_port = server_port(&c, f.g);
        flow_close(&f);
        for (size_t i = 0; i < c.n && !on; i++) {
            const dgram *dg = &c.d[i];
            if (dg->dst != sp_port) continue;
            gdw_enet_header h;
            gdw_error err;
            if (gdw_enet_read_header(dg->p, dg->n, &h, &err) != GDW_OK) continue;
            gdw_enet_commands it;
            gdw_enet_command cmd;
            gdw_enet_commands_begin(&it, dg->p + h.size, dg->n - h.size, h.size);
            while (gdw_enet_commands_next(&it, &cmd, &err) == 1) {
                if (cmd.kind != GDW_ENET_SEND_RELIABLE || cmd.data_len < 6 || cmd.data_len > sizeof orig || (cmd.data[0] & 7) != 0 ||
                    ((cmd.data[0] >> 4) & 3) != 2)
                    continue;
                uint32_t target = (uint32_t)cmd.data[1] | (uint32_t)cmd.data[2] << 8 | (uint32_t)cmd.data[3] << 16 | (uint32_t)cmd.data[4] << 24;
                if (!(target & 0x80000000u) || (target & 0x7FFFFFFFu) >= cmd.data_len) continue;
                ofs = target & 0x7FFFFFFFu;
                if (ofs < 7 || cmd.data_len != ofs + 5 || memcmp(cmd.data + ofs, "Game", 5) != 0) continue;
                memcpy(orig, cmd.data, cmd.data_len), on = cmd.data_len, och = cmd.channel;
                break;
            }
        }
        CHECK(on > 0, "no inline RPC on Game in %s", path);
        gdw_rpc_manifest *arena = NULL;
        snprintf(projdir, sizeof projdir, "%s/../projects/arena4", dir);
        CHECK(gdw_project_read(projdir, NULL, &arena, perr, sizeof perr) == GDW_PROJECT_OK && arena, "arena4: %s", perr);
        struct { const char *path; bool manifest, allow; const char *want; } cases[] = {
            {"NoSuchNode/Deeper", true, false, "unknown_path"},
            {"Main/Units/Game", true, false, ""},         /* a name the spawner gives: "*" (method 5 unknown there: allowed) */
            {"Main/Dynamic/Added", true, false, ""},      /* below a dynamic node */
            {"NoSuchNode/Deeper", true, true, ""},        /* rpc.unknown_paths: allow */
            {"NoSuchNode/Deeper", false, false, ""},      /* no manifest: forwarded (guard/README.md) */
        };
        for (size_t k = 0; on && arena && k < sizeof cases / sizeof cases[0]; k++) {
            uint8_t rp[1600];
            size_t pl = strlen(cases[k].path) + 1;
            memcpy(rp, orig, ofs), memcpy(rp + ofs, cases[k].path, pl);
            pol = gdw_guard_policy_default();
            pol.cut_after = 0, pol.unknown_paths = cases[k].allow, pol.unknown_methods = true;
            flow_open(&f, &c, &pol);
            if (cases[k].manifest) gdw_guard_use_manifest(f.g, arena);
            b_begin(&d, &f), b_send(&d, true, och, 46000, rp, ofs + pl);
            judge_one(&f, &d);
            bool forwarded = f.s.n == 1 && f.s.up[0] && f.s.len[0] == d.n && memcmp(f.s.buf[0], d.b, d.n) == 0;
            if (cases[k].want[0])
                CHECK(strcmp(f.s.last_rule, cases[k].want) == 0 && strcmp(f.s.last_action, "replace") == 0 && f.s.last_offset == 1,
                      "inline %s: %s %s at %zu, want replace %s at 1", cases[k].path, f.s.last_action, f.s.last_rule, f.s.last_offset, cases[k].want);
            else
                CHECK(f.s.actions == 0 && forwarded, "inline %s (case %zu): %s, not forwarded untouched", cases[k].path, k, f.s.last_rule);
            flow_close(&f);
        }
        gdw_rpc_manifest_free(arena);
    }

    /* Finding 3 of docs/engine-findings.md: a game that reads RAW packets (send_bytes) with StreamPeerBuffer.get_var is
     * crashed by the 4-byte length ff ff ff 7f (StreamPeerBuffer::get_partial_data's bounds check wraps in int). RAW is
     * 03 then the bytes (scene_multiplayer.cpp:441-457). `honest` is what Godot 4.6.3, 3.6.2 and 3.2.3 all write for
     * StreamPeerBuffer.put_var({"hp": 3, "name": "bob"}) then put_var(Vector2(1.5, -2)) (their data_array; 4.6.3's
     * Dictionary header is 0x1b, the 3.x engines' 0x12: the 4.6.3 bytes here). With rpc.raw_put_var it goes through and
     * each hostile packet is replaced; without, every one goes through as the engine's own RAW does. */
    static const uint8_t honest_put_var[] = {
        0x34, 0, 0, 0, 0x1b, 0, 0, 0, 0x02, 0, 0, 0, 0x04, 0, 0, 0, 0x02, 0, 0, 0, 'h', 'p', 0, 0, 0x02, 0, 0, 0, 0x03, 0, 0, 0,
        0x04, 0, 0, 0, 0x04, 0, 0, 0, 'n', 'a', 'm', 'e', 0x04, 0, 0, 0, 0x03, 0, 0, 0, 'b', 'o', 'b', 0,
        0x0c, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0};
    static const struct {
        const char *what;
        uint8_t bytes[32];
        size_t n;
        const char *rule; /* under rpc.raw_put_var; NULL: forwarded */
        size_t offset;    /* in the RAW packet (the 03 at 0) */
    } raws[] = {
        {"finding 3's length 2^31-1", {0xff, 0xff, 0xff, 0x7f}, 4, "put_var", 1},
        {"a length past the packet after a whole frame", {0x08, 0, 0, 0, 0x02, 0, 0, 0, 0x10, 0, 0, 0, 0x10, 0, 0, 0}, 16, "put_var", 13},
        {"two bytes, no length", {0x01, 0x02}, 2, "put_var", 1},
        {"a frame holding a full Object", {0x0c, 0, 0, 0, 0x18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 16, "variant", 5},
        /* a frame holding finding 7's typed Array (above): 4.6.3's StreamPeer::get_var decodes the frame with
         * decode_variant (core/io/stream_peer.cpp), as bytes_to_var does, converting it on the way */
        {"a frame holding finding 7's Array[Vector3i]",
         {0x1c, 0, 0, 0, 0x1c, 0x00, 0x09, 0x00, 0x0a, 0, 0, 0, 0x01, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0x4a, 0xba, 0x53, 0x7c,
          0x00, 0x00, 0x00, 0x80},
         32, "conversion", 5},
    };
    for (int on = 0; on < 2; on++) {
        pol = gdw_guard_policy_default();
        pol.raw_put_var = on;
        pol.cut_after = 0;
        flow_open(&f, &c, &pol);
        pkt[0] = 0x03;
        memcpy(pkt + 1, honest_put_var, sizeof honest_put_var);
        b_begin(&d, &f);
        b_send(&d, true, 0, 50000, pkt, 1 + sizeof honest_put_var);
        judge_one(&f, &d);
        CHECK(f.s.actions == 0 && f.s.n == 1 && f.s.len[0] == d.n && memcmp(f.s.buf[0], d.b, d.n) == 0,
              "rpc.raw_put_var %s: the engines' own put_var RAW not forwarded untouched (%s)", on ? "on" : "off", f.s.last_rule);
        for (size_t k = 0; k < sizeof raws / sizeof raws[0]; k++) {
            pkt[0] = 0x03;
            memcpy(pkt + 1, raws[k].bytes, raws[k].n);
            b_begin(&d, &f);
            b_send(&d, true, 0, (unsigned)(50001 + k), pkt, 1 + raws[k].n);
            judge_one(&f, &d);
            if (!on) {
                CHECK(f.s.actions == 0 && f.s.n == 1 && f.s.len[0] == d.n, "rpc.raw_put_var off: %s not forwarded (%s)", raws[k].what, f.s.last_rule);
            } else {
                bool object = strcmp(raws[k].rule, "variant") == 0; /* a full Object: the objects rule names it */
                CHECK(strcmp(f.s.last_action, "replace") == 0 &&
                          strcmp(f.s.last_rule, object ? "object" : raws[k].rule) == 0 && f.s.last_offset == raws[k].offset,
                      "rpc.raw_put_var: %s: %s %s at %zu, want replace %s at %zu", raws[k].what, f.s.last_action, f.s.last_rule,
                      f.s.last_offset, object ? "object" : raws[k].rule, raws[k].offset);
            }
        }
        flow_close(&f);
    }

    /* Finding 8 of docs/engine-findings.md: a hostile server's SPAWN with a sync count of 0x8000001b hangs a Godot 4.6.3
     * client (on_spawn_receive's 32-bit check wraps: scene_replication_interface.cpp:581-590). With server.judge, a guard
     * in front of a client replaces it (reliable, channel 0, as SceneReplicationInterface sends a spawn) by the harmless
     * packet; without, the server's datagrams go through untouched. The SPAWN's first 32 bytes are the regression's
     * (tools/engines/harness/regressions/spawn_sync_count_overflow.bin, at byte 181). */
    static const uint8_t spawn[] = {0x04, 0xff, 0x02, 0, 0, 0, 0x14, 0x68, 0, 0, 0x1b, 0, 0, 0x80, 0x02, 0, 0, 0, 0x01, 0, 0, 0,
                                    0x19, 0, 0, 0, 0x02, 0, 0, 0, 0x02, 0};
    for (int judged = 0; judged < 2; judged++) {
        pol = gdw_guard_policy_default();
        pol.judge_server = judged;
        flow_open(&f, &c, &pol);
        b_begin(&d, &f);
        d.b[0] = 0x80, d.b[1] = 0x00; /* a server's header: the client's peer id 0, its sent time */
        b_send(&d, true, 0, 43000, spawn, sizeof spawn);
        sink_clear(&f.s);
        f.s.actions = 0;
        gdw_guard_from_server(f.g, f.peer, d.b, d.n, 2, sink_emit, &f.s);
        if (!judged) {
            CHECK(f.s.actions == 0 && f.s.n == 1 && !f.s.up[0] && f.s.len[0] == d.n && memcmp(f.s.buf[0], d.b, d.n) == 0,
                  "server.judge off: the server's SPAWN not forwarded untouched");
        } else {
            CHECK(strcmp(f.s.last_rule, "spawn") == 0 && strcmp(f.s.last_action, "replace") == 0 && f.s.last_offset == 10,
                  "finding 8's SPAWN: %s %s at %zu, want replace spawn at 10", f.s.last_action, f.s.last_rule, f.s.last_offset);
            CHECK(f.s.n == 1 && !f.s.up[0] && f.s.len[0] == 4 + 6 + 2 && f.s.buf[0][4] == (GDW_ENET_SEND_RELIABLE | 0x80) && f.s.buf[0][5] == 0 &&
                      f.s.buf[0][6] == (43000 >> 8) && f.s.buf[0][7] == (43000 & 0xFF) && f.s.buf[0][10] == 0x07 && f.s.buf[0][11] == 0x00,
                  "finding 8's SPAWN: the client did not get the harmless SEND_RELIABLE of the same channel and sequence number");
        }
        flow_close(&f);
    }
    free(c.d), free(c.file);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: decide_test SESSIONS_DIR\n"); return 2; }
    honest(argv[1], "godot4.6-enet", "godot4", false);
    honest(argv[1], "godot4.6-enet-fastlz", "godot4", false);
    honest(argv[1], "godot4.6-enet-zstd", "godot4", false);
    honest(argv[1], "godot3.2-enet", "godot3@3.2", false);
    honest(argv[1], "godot3.6-enet-zlib", "godot3", false);
    if (load_range()) honest(argv[1], "godot3.6-enet", "godot3", true);
    else if (getenv("GDW_NO_SKIP")) CHECK(0, "libenet's range coder (libenet7) is needed for godot3.6-enet");
    else printf("SKIP godot3.6-enet: no libenet (apt-get install libenet7) for its range coder\n");
    hostile(argv[1]);
    printf("%d passed, %d failed\n", t_passed, t_failed);
    return t_failed ? 1 : 0;
}

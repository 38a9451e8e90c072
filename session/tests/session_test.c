/* SPDX-License-Identifier: MIT
 * session_test: the session library's API on a real Godot 4.6.3 session (conformance/sessions/),
 * read here without libpcap:
 *   - frames in (gdw_session_frame) and UDP payloads in (gdw_session_udp) give the same messages;
 *   - every byte the session allocates through its allocator is freed, and an allocator that fails
 *     from its n-th call on never crashes it or leaks (each n until a run succeeds);
 *   - gdw_mp_parse on each message's packet gives its command again, and on every prefix of each
 *     one either parses or fails at an offset inside the prefix, with a message;
 *   - the documented example of docs/library.md ("Sessions") runs as written;
 *   - the layers one at a time: every datagram's commands through gdw_enet_commands_next, the fragments through a
 *     gdw_enet_reassembly (the packets the session completed, byte for byte), every message through a gdw_mp_paths
 *     (the paths the session gave);
 *   - gdw_enet_decompress reads what zlib's and zstd's own compressors write (compress2, ZSTD_compress), a FastLZ
 *     block of each instruction, and refuses what does not fit, as the engines do (the real compressed sessions
 *     are //session:capture_test's).
 * usage: session_test GODOT4.pcap GODOT3.pcap (an uncompressed Godot 3 session: 3.2.3's) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "gdwire_session.h"

static int failures, checks;
#define CHECK(cond, ...)                                   \
    do {                                                   \
        checks++;                                          \
        if (!(cond)) {                                     \
            failures++;                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                  \
            fputc('\n', stderr);                           \
        }                                                  \
    } while (0)

typedef struct frame { const uint8_t *p; size_t caplen, wirelen; double t; } frame;

static uint8_t *g_file;
static frame *g_frames;
static size_t g_n;
static int g_link;

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    g_file = malloc((size_t)n);
    if (!g_file || fread(g_file, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    if (rd32(g_file) != 0xa1b2c3d4u && rd32(g_file) != 0xa1b23c4du) { fprintf(stderr, "%s: not a little-endian pcap\n", path); exit(2); }
    bool nano = rd32(g_file) == 0xa1b23c4du;
    g_link = (int)rd32(g_file + 20);
    g_frames = calloc((size_t)n / 16 + 1, sizeof *g_frames);
    for (size_t pos = 24; pos + 16 <= (size_t)n;) {
        frame *fr = &g_frames[g_n++];
        fr->t = rd32(g_file + pos) + rd32(g_file + pos + 4) / (nano ? 1e9 : 1e6);
        fr->caplen = rd32(g_file + pos + 8), fr->wirelen = rd32(g_file + pos + 12);
        fr->p = g_file + pos + 16;
        pos += 16 + fr->caplen;
    }
}

/* What a run saw: a digest of every message (command, peers, channel, mode, path, values' text). */
typedef struct seen {
    bool quiet; /* the allocation-failure runs: their NOMEM problems are expected */
    size_t messages, problems;
    uint64_t digest;
    size_t by_command[GDW_MP_COMMAND_COUNT];
    uint8_t *packets[1024];
    size_t lens[1024];
    gdw_mp_command commands[1024];
    const gdw_dialect *dialects[1024];
    size_t kept;
    uint64_t big[64]; /* the digests of the packets of 4 KiB or more (fragmented ones), not kept whole */
    size_t n_big;
} seen;

static uint64_t mix(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void on_message(void *ctx, const gdw_message *m) {
    seen *s = ctx;
    s->messages++;
    s->by_command[m->mp->command]++;
    uint64_t h = s->digest;
    h = mix(h, &m->mp->command, sizeof m->mp->command);
    h = mix(h, &m->from, sizeof m->from);
    h = mix(h, &m->to, sizeof m->to);
    h = mix(h, &m->channel, sizeof m->channel);
    h = mix(h, m->mode, strlen(m->mode));
    if (m->path) h = mix(h, m->path, strlen(m->path));
    for (size_t i = 0; i < m->mp->value_count; i++) {
        char text[512];
        size_t n = m->mp->values[i].value ? gdw_text_print_head(m->mp->values[i].value, text, sizeof text) : 0;
        h = mix(h, text, n < sizeof text ? n : sizeof text - 1);
    }
    s->digest = h;
    /* Godot 3's peers added and removed come on its configuration channel, not as MultiplayerAPI packets */
    bool config = m->mp->command == GDW_MP_SYS_ADD_PEER || m->mp->command == GDW_MP_SYS_DEL_PEER;
    if (m->len >= 4096 && s->n_big < 64) s->big[s->n_big++] = mix(1469598103934665603ull, m->bytes, m->len);
    if (s->kept < 1024 && m->len < 4096 && !(config && gdw_dialect_rule(m->dialect, GDW_RULE_MULTIPLAYER) == GDW_MULTIPLAYER_API3)) {
        s->packets[s->kept] = malloc(m->len ? m->len : 1);
        memcpy(s->packets[s->kept], m->bytes, m->len);
        s->lens[s->kept] = m->len;
        s->dialects[s->kept] = m->dialect;
        s->commands[s->kept++] = m->mp->command;
    }
}

static void on_problem(void *ctx, const gdw_session_problem *p) {
    seen *s = ctx;
    s->problems++;
    if (!s->quiet) fprintf(stderr, "problem: frame %llu (%s) %s\n", (unsigned long long)p->frame, p->layer, p->message);
}

static void seen_free(seen *s) {
    for (size_t i = 0; i < s->kept; i++) free(s->packets[i]);
}

/* ---- allocators --------------------------------------------------------------------------- */

typedef struct counting { size_t live, peak, calls, fail_from; bool failing; } counting;

static void *c_malloc(void *ctx, size_t n) {
    counting *c = ctx;
    if (c->failing && c->calls >= c->fail_from) return NULL;
    c->calls++;
    void *p = malloc(n);
    if (p) {
        c->live += n;
        if (c->live > c->peak) c->peak = c->live;
    }
    return p;
}
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) {
    counting *c = ctx;
    if (c->failing && c->calls >= c->fail_from) return NULL;
    c->calls++;
    void *q = realloc(p, n);
    if (q) {
        c->live = c->live - o + n;
        if (c->live > c->peak) c->peak = c->live;
    }
    return q;
}
static void c_free(void *ctx, void *p, size_t n) {
    counting *c = ctx;
    c->live -= n;
    free(p);
}

static gdw_session_stats run_frames(const gdw_session_options *o, seen *s, bool *created) {
    gdw_session *ss = gdw_session_new(o, on_message, on_problem, s);
    gdw_session_stats st;
    memset(&st, 0, sizeof st);
    *created = ss != NULL;
    if (!ss) return st;
    for (size_t i = 0; i < g_n; i++) gdw_session_frame(ss, g_link, g_frames[i].p, g_frames[i].caplen, g_frames[i].wirelen, g_frames[i].t);
    gdw_session_finish(ss);
    st = gdw_session_get_stats(ss);
    gdw_session_free(ss);
    return st;
}

/* ---- the example of docs/library.md, as written there ---------------------------------------------- */

static size_t g_example_rpcs;
static void example_on_message(void *ctx, const gdw_message *m) {
    (void)ctx;
    if (m->mp->command != GDW_MP_RPC) return;
    g_example_rpcs++;
    char text[256];
    for (size_t i = 0; i < m->mp->value_count; i++)
        if (m->mp->values[i].value) gdw_text_print_head(m->mp->values[i].value, text, sizeof text);
}

static void session_checks(const char *path, bool godot4);

/* The path cache of the caller's (gdw_mp_paths), beside the session's own: every message's path the same. */
static gdw_mp_paths *g_paths;
static size_t g_paths_same, g_paths_differ;
static void paths_on_message(void *ctx, const gdw_message *m) {
    (void)ctx;
    const char *mine = gdw_mp_paths_apply(g_paths, m->from, m->mp);
    bool same = (!mine && !m->path) || (mine && m->path && strcmp(mine, m->path) == 0);
    if (same) g_paths_same++;
    else {
        g_paths_differ++;
        fprintf(stderr, "path: the session says %s, gdw_mp_paths %s (%s from %lld)\n", m->path ? m->path : "(none)", mine ? mine : "(none)",
                gdw_mp_command_name(m->mp->command), (long long)m->from);
    }
}

/* The ENet layer one datagram at a time (gdw_enet_commands_next), reliable commands seen before dropped as ENet drops
 * them, and the fragments put back together by a gdw_enet_reassembly: the packets it completes are those the session
 * completed, byte for byte. */
static void layers_checks(const seen *a, gdw_session_stats st, bool godot4) {
    static uint8_t seen_bits[2][256][65536 / 8];
    memset(seen_bits, 0, sizeof seen_bits);
    gdw_enet_reassembly *r = gdw_enet_reassembly_new(NULL);
    uint16_t server_port = 0;
    size_t commands = 0, completed = 0, matched = 0, walk_errors = 0;
    for (size_t i = 0; i < g_n; i++) {
        const uint8_t *f = g_frames[i].p;
        uint16_t sport = (uint16_t)(f[34] << 8 | f[35]), dport = (uint16_t)(f[36] << 8 | f[37]);
        if (!server_port) server_port = dport; /* the first datagram is a client's CONNECT */
        unsigned side = sport == server_port;
        const uint8_t *d = f + 42;
        size_t len = g_frames[i].caplen - 42;
        gdw_enet_header h;
        if (gdw_enet_read_header(d, len, &h, NULL) != GDW_OK || h.compressed) continue;
        gdw_enet_commands it;
        gdw_enet_command c;
        gdw_error err;
        int rc;
        gdw_enet_commands_begin(&it, d + h.size, len - h.size, h.size);
        while ((rc = gdw_enet_commands_next(&it, &c, &err)) == 1) {
            commands++;
            bool reliable = c.acknowledge || c.kind == GDW_ENET_SEND_RELIABLE || c.kind == GDW_ENET_SEND_FRAGMENT;
            if (reliable && c.kind != GDW_ENET_CONNECT) {
                uint8_t *b = &seen_bits[side][c.channel & 255][c.reliable_seq / 8];
                if (*b >> (c.reliable_seq % 8) & 1) continue; /* a retransmit */
                *b |= (uint8_t)(1u << (c.reliable_seq % 8));
            }
            if (c.kind != GDW_ENET_SEND_FRAGMENT && c.kind != GDW_ENET_SEND_UNRELIABLE_FRAGMENT) continue;
            const uint8_t *pkt;
            size_t n;
            if (gdw_enet_reassemble(r, side, &c, &pkt, &n, &err) != 1) continue;
            completed++;
            /* the session's packet: the same bytes (Godot 3's after its 8-byte header) */
            size_t skip = godot4 ? 0 : 8;
            uint64_t digest = n >= skip ? mix(1469598103934665603ull, pkt + skip, n - skip) : 0;
            for (size_t k = 0; k < a->n_big; k++)
                if (a->big[k] == digest) { matched++; break; }
        }
        if (rc < 0) walk_errors++;
    }
    CHECK(walk_errors == 0 && commands > 200, "the ENet walker: %zu commands, %zu datagrams it refused", commands, walk_errors);
    CHECK(completed == st.fragments_completed && matched == completed && gdw_enet_reassembly_held(r) == 0,
          "gdw_enet_reassembly: %zu packets completed (the session: %llu), %zu the session's bytes, %zu bytes left held", completed,
          (unsigned long long)st.fragments_completed, matched, gdw_enet_reassembly_held(r));
    printf("the layers one at a time: %zu ENet commands walked, %zu fragmented packets put back together by gdw_enet_reassembly, "
           "each the session's, byte for byte\n", commands, completed);
    gdw_enet_reassembly_free(r);

    g_paths = gdw_mp_paths_new(NULL);
    g_paths_same = g_paths_differ = 0;
    gdw_session *s = gdw_session_new(NULL, paths_on_message, NULL, NULL);
    for (size_t i = 0; i < g_n; i++) gdw_session_frame(s, g_link, g_frames[i].p, g_frames[i].caplen, g_frames[i].wirelen, g_frames[i].t);
    gdw_session_finish(s);
    gdw_session_free(s);
    CHECK(g_paths_differ == 0 && g_paths_same == a->messages && gdw_mp_paths_count(g_paths) > 0,
          "gdw_mp_paths: %zu messages' paths as the session's, %zu not, %zu entries", g_paths_same, g_paths_differ, gdw_mp_paths_count(g_paths));
    printf("gdw_mp_paths: the path of each of %zu messages as the session's (%zu entries learnt)\n", g_paths_same, gdw_mp_paths_count(g_paths));
    gdw_mp_paths_free(g_paths);
}

/* Each decompressor on a block made by something else, or by hand from the FastLZ format, and cut short of room. */
static void decompress_checks(void) {
    uint8_t plain[3000], packed[4096], out[GDW_ENET_MAXIMUM_MTU];
    for (size_t i = 0; i < sizeof plain; i++) plain[i] = (uint8_t)(i % 7 == 0 ? i : 'a' + i % 5);
    uLongf zn = sizeof packed;
    CHECK(compress2(packed, &zn, plain, sizeof plain, 6) == Z_OK, "zlib's compress2");
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_ZLIB, packed, zn, out, sizeof out) == sizeof plain && !memcmp(out, plain, sizeof plain),
          "zlib: compress2's stream reads back");
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_ZLIB, packed, zn, out, sizeof plain - 1) == 0, "zlib: one byte short of room: refused");
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_ZLIB, packed, zn - 1, out, sizeof out) == 0, "zlib: a stream cut by a byte: refused");
    size_t sn = ZSTD_compress(packed, sizeof packed, plain, sizeof plain, 3);
    CHECK(!ZSTD_isError(sn), "zstd's ZSTD_compress");
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_ZSTD, packed, sn, out, sizeof out) == sizeof plain && !memcmp(out, plain, sizeof plain),
          "zstd: ZSTD_compress's frame reads back");
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_ZSTD, packed, sn, out, sizeof plain - 1) == 0, "zstd: one byte short of room: refused");
    /* FastLZ level 1: a literal run "abcab" (ctrl 4), a match of 3 + 0 = 3 bytes at distance 3 (ctrl 0x20 | 0, byte 2),
     * a long match of (7 - 1) + 2 + 3 = 11 bytes at distance 1 (ctrl 0xE0, length byte 2, byte 0), a literal "z" */
    static const uint8_t l1[] = {0x04, 'a', 'b', 'c', 'a', 'b', 0x20, 0x02, 0xE0, 0x02, 0x00, 0x00, 'z'};
    static const char want1[] = "abcabcab" "bbbbbbbbbbb" "z";
    size_t n1 = gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, l1, sizeof l1, out, sizeof out);
    CHECK(n1 == sizeof want1 - 1 && !memcmp(out, want1, n1), "FastLZ level 1: %zu bytes, %.*s", n1, (int)n1, (const char *)out);
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, l1, sizeof l1, out, n1 - 1) == 0, "FastLZ: one byte short of room: refused");
    /* level 2 (the first byte's bit 5): a literal "x", then a match of 3 at distance 1, then a far match: distance
     * field 31 << 8 with code 255 says 16 bits follow, beyond what was written: refused */
    static const uint8_t l2[] = {0x20, 'x', 0x20, 0x00};
    size_t n2 = gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, l2, sizeof l2, out, sizeof out);
    CHECK(n2 == 4 && !memcmp(out, "xxxx", 4), "FastLZ level 2: %zu bytes", n2);
    static const uint8_t far[] = {0x20, 'x', 0x3F, 0xFF, 0x00, 0x05};
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, far, sizeof far, out, sizeof out) == 0, "FastLZ level 2: a far match before the start");
    /* a far match that reaches back 8,192 bytes (far distance 0, plus 8191, plus 1): 8,200 literals (256 runs of 32
     * and one of 8), then ctrl 0x3F (length 3, distance field 31 << 8), code 255, the 16 bits 0 0, and a literal
     * "z" after (fastlz.c wants a byte past the far distance's two) */
    static uint8_t lit[1 + 257 * 33 + 6];
    size_t k = 0, written = 0;
    for (int run = 0; run < 257; run++) {
        size_t len = run < 256 ? 32 : 8;
        lit[k++] = (uint8_t)((len - 1) | (run == 0 ? 0x20 : 0));
        for (size_t i = 0; i < len; i++) lit[k++] = (uint8_t)('a' + (written + i) % 26);
        written += len;
    }
    lit[k++] = 0x3F, lit[k++] = 0xFF, lit[k++] = 0x00, lit[k++] = 0x00, lit[k++] = 0x00, lit[k++] = 'z';
    static uint8_t big[16384];
    size_t nf = gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, lit, k, big, sizeof big);
    CHECK(nf == written + 3 + 1 && !memcmp(big + written, big + written - 8192, 3) && big[nf - 1] == 'z',
          "FastLZ level 2: a far match 8,192 bytes back: %zu bytes", nf);
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, lit, k - 2, big, sizeof big) == 0,
          "FastLZ level 2: a far match with only its two distance bytes left: refused, as fastlz.c refuses it");
    static const uint8_t level3[] = {0x40, 'x'};
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_FASTLZ, level3, sizeof level3, out, sizeof out) == 0, "FastLZ: level 3 does not exist");
    CHECK(gdw_enet_decompress(GDW_ENET_COMPRESS_RANGE_CODER, l1, sizeof l1, out, sizeof out) == 0 && !gdw_enet_compression_built(GDW_ENET_COMPRESS_RANGE_CODER),
          "the range coder is not built in (libenet's, given as a gdw_decompress_fn)");
    CHECK(gdw_enet_compression_built(GDW_ENET_COMPRESS_ZLIB) && gdw_enet_compression_built(GDW_ENET_COMPRESS_ZSTD), "this build reads zlib and zstd");
    CHECK(!strcmp(gdw_enet_compression_name(GDW_ENET_COMPRESS_ZSTD), "zstd") && !strcmp(gdw_enet_compression_name((gdw_enet_compression)9), ""),
          "the compressions' names");
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: session_test GODOT4.pcap GODOT3.pcap\n"); return 2; }
    decompress_checks();
    session_checks(argv[1], true);
    session_checks(argv[2], false);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}

static void session_checks(const char *path, bool godot4) {
    g_n = 0, g_example_rpcs = 0;
    load(path);
    printf("%s:\n", path);
    CHECK(g_link == GDW_LINK_ETHERNET && g_n > 100, "the session: link %d, %zu frames", g_link, g_n);

    /* frames in */
    seen a;
    memset(&a, 0, sizeof a);
    bool created;
    gdw_session_stats st = run_frames(NULL, &a, &created);
    CHECK(created && a.messages > 50 && a.problems == 0, "frames: %zu messages, %zu problems", a.messages, a.problems);
    CHECK(st.messages == a.messages && st.fragments_completed >= 1 && st.open_fragment_bytes == 0, "frames: stats");
    if (godot4) CHECK(a.by_command[GDW_MP_RPC] > 40 && a.by_command[GDW_MP_SPAWN] == 2 && a.by_command[GDW_MP_DELTA] > 0, "frames: commands");
    else CHECK(a.by_command[GDW_MP_RPC] > 30 && a.by_command[GDW_MP_RSET] == 1 && a.by_command[GDW_MP_SYS_ADD_PEER] == 2, "frames: commands");

    layers_checks(&a, st, godot4);

    /* UDP payloads in: Ethernet (14) + IPv4 (20) + UDP (8), as this capture has them */
    seen b;
    memset(&b, 0, sizeof b);
    gdw_session *s = gdw_session_new(NULL, on_message, on_problem, &b);
    for (size_t i = 0; i < g_n; i++) {
        const uint8_t *f = g_frames[i].p;
        gdw_session_udp(s, f + 26, 4, (uint16_t)(f[34] << 8 | f[35]), f + 30, (uint16_t)(f[36] << 8 | f[37]), f + 42,
                        g_frames[i].caplen - 42, g_frames[i].t);
    }
    gdw_session_finish(s);
    gdw_session_free(s);
    CHECK(b.messages == a.messages && b.digest == a.digest, "UDP payloads: %zu messages (frames: %zu), digest %s", b.messages, a.messages,
          b.digest == a.digest ? "equal" : "differs");

    /* every byte through the allocator comes back */
    counting c = {0};
    gdw_allocator al = {c_malloc, c_realloc, c_free, &c};
    gdw_session_options o = gdw_session_options_default();
    o.alloc = &al;
    seen d;
    memset(&d, 0, sizeof d);
    run_frames(&o, &d, &created);
    CHECK(created && d.digest == a.digest && c.live == 0, "counting allocator: %zu bytes live at the end, digest %s", c.live,
          d.digest == a.digest ? "equal" : "differs");
    size_t calls = c.calls;
    printf("the session through its allocator: %zu calls, peak %zu bytes\n", calls, c.peak);
    seen_free(&d);

    /* an allocator that fails from call n on: no crash, no leak */
    size_t tried = 0;
    for (size_t n = 0; n <= calls; n += n < 16 ? 1 : n / 4) {
        counting f = {0};
        f.failing = true, f.fail_from = n;
        gdw_allocator fa = {c_malloc, c_realloc, c_free, &f};
        gdw_session_options fo = gdw_session_options_default();
        fo.alloc = &fa;
        seen e;
        memset(&e, 0, sizeof e);
        e.quiet = true;
        run_frames(&fo, &e, &created);
        CHECK(f.live == 0, "allocation %zu fails: %zu bytes leaked", n, f.live);
        seen_free(&e);
        tried++;
    }
    printf("allocation failures: %zu runs, each failing from another call on, none leaked\n", tried);

    /* gdw_mp_parse on each packet and on every prefix of it */
    gdw_mp_parsed *p = malloc(sizeof *p);
    size_t prefixes = 0;
    for (size_t i = 0; i < a.kept; i++) {
        gdw_error err;
        gdw_status r = gdw_mp_parse(a.packets[i], a.lens[i], a.dialects[i], NULL, NULL, p, &err);
        gdw_mp_command c2 = p->command;
        gdw_mp_parsed_free(p);
        /* a relay is delivered by its inner packet, so a kept packet is never a relay */
        CHECK(r == GDW_OK && c2 == a.commands[i], "packet %zu: %s, command %d (the session: %d)", i, gdw_status_name(r), c2, a.commands[i]);
        for (size_t k = 0; k < a.lens[i]; k++, prefixes++) {
            r = gdw_mp_parse(a.packets[i], k, a.dialects[i], NULL, NULL, p, &err);
            CHECK(r == GDW_OK || (err.offset <= k && err.message), "packet %zu cut at %zu: %s at %zu", i, k, gdw_status_name(r), err.offset);
            gdw_mp_parsed_free(p);
        }
    }
    free(p);
    printf("gdw_mp_parse: %zu packets and %zu of their prefixes\n", a.kept, prefixes);

    /* the example of docs/library.md */
    gdw_session *ex = gdw_session_new(NULL, example_on_message, NULL, NULL);
    for (size_t i = 0; i < g_n; i++) {
        const uint8_t *f = g_frames[i].p;
        const uint8_t *src_ip = f + 26, *dst_ip = f + 30, *payload = f + 42;
        uint16_t src_port = (uint16_t)(f[34] << 8 | f[35]), dst_port = (uint16_t)(f[36] << 8 | f[37]);
        gdw_session_udp(ex, src_ip, 4, src_port, dst_ip, dst_port, payload, g_frames[i].caplen - 42, g_frames[i].t);
    }
    gdw_session_finish(ex);
    gdw_session_free(ex);
    CHECK(g_example_rpcs == a.by_command[GDW_MP_RPC], "the example: %zu RPCs", g_example_rpcs);

    seen_free(&a);
    seen_free(&b);
    free(g_frames);
    free(g_file);
}

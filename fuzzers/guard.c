/* SPDX-License-Identifier: MIT */
/* Fuzz target `guard`: the decision of `gdwire guard` (guard/guard.h) on a stream of hostile datagrams, with no
 * socket. The input is
 *   byte 0      bit 0: the server is Godot 3 (dialect godot3), bit 1: --dry-run, bit 2: actions.reliable cut,
 *               bit 3: small caps (enet.max_message_bytes 4 KiB, max_fragments 8, paths 4 entries) and rpc.raw_put_var, bit 4: no rate
 *               limit, and the server's datagrams judged too (server.judge), bit 5: compressed datagrams "decompress" as a copy of themselves (the range coder's plumbing),
 *               bit 6: actions.cut_after 1, bit 7: strict encoding
 *   then records, as the `capture` target's (fuzzers/capture.c): byte K, u16 LE length, the bytes. K bit 0: a datagram
 *   from the server (gdw_guard_from_server), else from a client; K bit 1: the second client; K bit 2: a client record is
 *   a whole WebSocket message (gdw_guard_ws_message) instead of a datagram.
 * Checked: every datagram the guard sends is at most ENet's 4,096 bytes plus a header, and in a dry run is the
 * client's own datagram byte for byte; a cut-off peer gets nothing through but its forged DISCONNECT; what a peer
 * holds stays within its documented bound (guard/README.md "Bounds"); nothing leaks (LeakSanitizer) or reads out of
 * bounds (ASan). Seeds: corpus/guard/, runs of datagrams of the real sessions (the capture target's format). */
#include <string.h>

#include "fuzzers/fuzz.h"
#include "guard/guard.h"

typedef struct fuzz_guard {
    const uint8_t *in;
    size_t in_len;
    bool dry_run, was_cut, to_server;
    unsigned sent;
} fuzz_guard;

static void emit(void *ctx, bool to_server, const uint8_t *d, size_t n) {
    fuzz_guard *f = ctx;
    FUZZ_CHECK(to_server == f->to_server, "a datagram sent the wrong way");
    if (f->dry_run) FUZZ_CHECK(n == f->in_len && memcmp(d, f->in, n) == 0, "a dry run changed a datagram");
    else FUZZ_CHECK(n >= 2 && n <= 4096 + 4, "a datagram of %zu bytes", n);
    FUZZ_CHECK(!f->was_cut, "a cut-off peer's datagram went on");
    f->sent++;
}

static void on_action(void *ctx, const gdw_guard_action *a) {
    (void)ctx;
    FUZZ_CHECK(a->action && a->rule && a->command && a->mode, "an action without its words");
    FUZZ_CHECK(strlen(a->detail) < sizeof a->detail, "an action's detail is not terminated");
}

static size_t copy_decompress(void *ctx, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    (void)ctx;
    if (n > cap) return 0;
    memcpy(out, in, n);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    gdw_guard_policy pol = gdw_guard_policy_default();
    uint8_t flags = data[0];
    if (flags & 1) pol.dialect = gdw_dialect_find("godot3");
    pol.dry_run = (flags & 2) != 0;
    if (flags & 4) pol.reliable = GDW_GUARD_CUT;
    if (flags & 8) pol.max_message_bytes = 4096, pol.max_fragments = 8, pol.max_paths = 4, pol.max_path_bytes = 1024, pol.raw_put_var = true;
    if (flags & 16) pol.messages_per_second = 0, pol.bytes_per_second = 0, pol.judge_server = true;
    if (flags & 64) pol.cut_after = 1;
    pol.strict = (flags & 128) != 0;
    gdw_guard *g = gdw_guard_new(&pol, on_action, NULL);
    FUZZ_CHECK(g != NULL, "no guard");
    if (flags & 32) gdw_guard_set_decompressor(g, copy_decompress, NULL);
    gdw_guard_peer *peers[2] = {gdw_guard_peer_new(g), gdw_guard_peer_new(g)};
    FUZZ_CHECK(peers[0] && peers[1], "no peer");
    /* a peer's bound: its fixed state, its reassembly (max_message_bytes and a datagram), its held heads
     * (max_message_bytes), its path cache (paths.max_bytes), with room for the allocator's rounding */
    size_t bound = gdw_guard_peer_held(peers[0]) + 2 * pol.max_message_bytes + 4096 + pol.max_path_bytes + 65536;
    size_t pos = 1;
    double t = 0;
    uint8_t k;
    const uint8_t *rec;
    size_t n;
    while (fuzz_next_record(data, size, &pos, &k, &rec, &n)) {
        t += (k >> 4) * 0.01; /* time goes on, by the record's high bits: the rate limits refill */
        gdw_guard_peer *p = peers[(k >> 1) & 1];
        if (k & 1) { /* untouched, or judged (server.judge) the same way as a client's */
            fuzz_guard f = {rec, n, pol.dry_run || !pol.judge_server, false, false, 0};
            gdw_guard_from_server(g, p, rec, n, t, emit, &f);
            FUZZ_CHECK(gdw_guard_peer_held(p) <= 2 * bound, "a peer and its server's side hold %zu bytes, past %zu", gdw_guard_peer_held(p), 2 * bound);
            continue;
        }
        if (k & 4) {
            int v = gdw_guard_ws_message(g, p, rec, n, t);
            FUZZ_CHECK(v >= -1 && v <= 1, "a WebSocket verdict of %d", v);
            if (pol.dry_run) FUZZ_CHECK(v == 1, "a dry run dropped a WebSocket message");
            continue;
        }
        fuzz_guard f = {rec, n, pol.dry_run, gdw_guard_peer_cut(p), true, 0};
        bool cut_before = gdw_guard_peer_cut(p);
        gdw_guard_client(g, p, rec, n, t, emit, &f);
        if (!cut_before && gdw_guard_peer_cut(p)) FUZZ_CHECK(f.sent <= 1 + 16, "a cut sent %u datagrams", f.sent);
        FUZZ_CHECK(gdw_guard_peer_held(p) <= bound, "a peer holds %zu bytes, past its bound %zu", gdw_guard_peer_held(p), bound);
        if (pol.dry_run) FUZZ_CHECK(!gdw_guard_peer_cut(p), "a dry run cut a peer off");
    }
    gdw_guard_counters c = gdw_guard_get_counters(g);
    FUZZ_CHECK(c.dropped + c.replaced <= c.violations, "%llu dropped and %llu replaced of %llu violations", (unsigned long long)c.dropped,
               (unsigned long long)c.replaced, (unsigned long long)c.violations);
    gdw_guard_peer_free(peers[0]);
    gdw_guard_peer_free(peers[1]);
    gdw_guard_free(g);
    return 0;
}

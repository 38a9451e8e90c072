/* SPDX-License-Identifier: MIT */
/* Fuzz target `capture`: the session library (session/gdwire_session.h) on hostile traffic. The
 * input is
 *   byte 0      bits 0-1: the open-fragment cap (4 KiB, 64 KiB, 1 MiB, 64 MiB), bit 2: the one
 *               reassembled packet cap 8 KiB instead of 32 MiB, bit 3: 2 flows and 4 paths at most,
 *               bit 4: compressed datagrams "decompress" as a copy of themselves (the plumbing of a
 *               decompressor, its bounds included), bit 5: every flow is Godot 3 (-d godot3), bit 6:
 *               small caps for the retransmit windows (8 KiB, 2 KiB a flow), the path caches (8 KiB,
 *               2 KiB a flow) and one flow's reassembly (a quarter of the open-fragment cap)
 *   then records: byte K, u16 LE length, the bytes. K bit 0: sent by the server side; bit 1: a
 *   whole frame (link type by K bits 2-4: Ethernet, Linux SLL, SLL2, BSD loopback, raw IP,
 *   OpenBSD loopback, IPv4, IPv6) rather than a UDP payload between two fixed IPv4 endpoints.
 * Every record also goes to gdw_mp_parse alone (and a caller's path cache, gdw_mp_paths), and to the ENet command walker
 * (gdw_enet_commands_next) and a caller's reassembly (gdw_enet_reassemble), each under small caps. Checked: what the session holds never passes its
 * caps (reassembly, windows, paths, after every record and message);
 * every message's values lie inside its packet and print; a parse that fails says where, inside
 * the packet; nothing leaks (LeakSanitizer) or reads out of bounds (ASan). Seeds: corpus/capture/,
 * cut from the real Godot 4.6.3 and 3.2.3 sessions in conformance/sessions/. */
#include <string.h>

#include "fuzzers/fuzz.h"
#include "session/gdwire_session.h"

static const int k_links[8] = {GDW_LINK_ETHERNET, GDW_LINK_LINUX_SLL, GDW_LINK_LINUX_SLL2, GDW_LINK_NULL,
                               GDW_LINK_RAW, GDW_LINK_LOOP, GDW_LINK_IPV4, GDW_LINK_IPV6};

typedef struct fuzz_session {
    gdw_session *s;
    size_t cap;
    const gdw_session_options *o;
} fuzz_session;

/* What the session holds is within its caps (issue 55). */
static void check_caps(const fuzz_session *f) {
    gdw_session_stats st = gdw_session_get_stats(f->s);
    FUZZ_CHECK(st.open_fragment_bytes <= f->cap, "open fragments %zu past the cap %zu", st.open_fragment_bytes, f->cap);
    FUZZ_CHECK(st.window_bytes <= f->o->max_window_bytes, "windows %zu past the cap %zu", st.window_bytes, f->o->max_window_bytes);
    FUZZ_CHECK(st.path_bytes <= f->o->max_path_bytes, "paths %zu past the cap %zu", st.path_bytes, f->o->max_path_bytes);
}

static void check_values(const gdw_mp_parsed *p, size_t len) {
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        FUZZ_CHECK(v->offset <= len && v->length <= len - v->offset, "value %zu at %zu+%zu outside a packet of %zu bytes", i, v->offset,
                   v->length, len);
        FUZZ_CHECK((v->status == GDW_OK) == (v->value != NULL), "value %zu: status %s and a value %p", i, gdw_status_name(v->status),
                   (const void *)v->value);
        if (v->value) {
            char head[64];
            gdw_text_print_head(v->value, head, sizeof head);
        }
    }
}

static void on_message(void *ctx, const gdw_message *m) {
    fuzz_session *f = ctx;
    FUZZ_CHECK(m->mp && m->bytes, "a message without its packet");
    FUZZ_CHECK(m->mode && m->transport, "a message without its mode");
    check_values(m->mp, m->len);
    check_caps(f);
}

static void on_problem(void *ctx, const gdw_session_problem *p) {
    (void)ctx;
    FUZZ_CHECK(p->layer && p->message[0], "a problem without its layer or message");
}

/* A stand-in decompressor: the bytes as they are, as much as fits (0, a failure, when none do). */
static size_t copy_decompress(void *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) {
    (void)ctx;
    size_t n = in_len < out_cap ? in_len : out_cap;
    memcpy(out, in, n);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const size_t caps[4] = {4096, 65536, 1 << 20, 64 << 20};
    gdw_session_options o = gdw_session_options_default();
    o.max_open_fragment_bytes = caps[data[0] & 3];
    if (data[0] & 4) o.max_packet_bytes = 8192;
    if (data[0] & 8) o.max_flows = 2, o.max_cached_paths = 4;
    if (data[0] & 16) o.decompress = copy_decompress;
    if (data[0] & 32) o.dialect = gdw_dialect_find("godot3");
    if (data[0] & 64) {
        o.max_window_bytes = 8192, o.max_flow_window_bytes = 2048, o.max_path_bytes = 8192, o.max_flow_path_bytes = 2048;
        o.max_flow_fragment_bytes = o.max_open_fragment_bytes / 4;
    } else {
        gdw_session_options d = gdw_session_options_default();
        o.max_window_bytes = d.max_window_bytes, o.max_path_bytes = d.max_path_bytes;
    }
    fuzz_session f = {NULL, o.max_open_fragment_bytes, &o};
    f.s = gdw_session_new(&o, on_message, on_problem, &f);
    FUZZ_CHECK(f.s != NULL, "no session");
    static const uint8_t a[4] = {10, 0, 0, 1}, b[4] = {10, 0, 0, 2};
    /* the layers one at a time, with the caller's state: a reassembly and a path cache, small caps */
    gdw_enet_reassembly_options ro = {1u << 18, 1u << 16, NULL};
    gdw_enet_reassembly *reassembly = gdw_enet_reassembly_new(&ro);
    gdw_mp_paths_options po = {8, 1u << 14, NULL};
    gdw_mp_paths *paths = gdw_mp_paths_new(&po);
    FUZZ_CHECK(reassembly && paths, "no reassembly or path cache");
    size_t pos = 1;
    double t = 0;
    uint8_t k;
    const uint8_t *rec;
    size_t n;
    while (fuzz_next_record(data, size, &pos, &k, &rec, &n)) {
        t += 0.001;
        if (k & 2) gdw_session_frame(f.s, k_links[(k >> 2) & 7], rec, n, n + (k >> 5), t);
        else if (k & 1) gdw_session_udp(f.s, b, 4, 7000, a, 40000, rec, n, t);
        else gdw_session_udp(f.s, a, 4, 40000, b, 7000, rec, n, t);
        check_caps(&f);
        /* the same bytes as one ENet datagram, through the public walker: every command inside it, and a walk
         * that fails says where, inside it */
        gdw_enet_header eh;
        if (gdw_enet_read_header(rec, n, &eh, NULL) == GDW_OK && !eh.compressed) {
            gdw_enet_commands it;
            gdw_enet_command ec;
            gdw_error werr;
            int rc;
            gdw_enet_commands_begin(&it, rec + eh.size, n - eh.size, eh.size);
            while ((rc = gdw_enet_commands_next(&it, &ec, &werr)) == 1) {
                FUZZ_CHECK(ec.offset + ec.fields_len <= n && ec.data_len <= n && (!ec.data || (size_t)(ec.data - rec) + ec.data_len <= n),
                           "an ENet command at %zu past a datagram of %zu bytes", ec.offset, n);
                const uint8_t *whole;
                size_t whole_len;
                gdw_error rerr;
                if (ec.kind == GDW_ENET_SEND_FRAGMENT || ec.kind == GDW_ENET_SEND_UNRELIABLE_FRAGMENT) {
                    int got = gdw_enet_reassemble(reassembly, k & 1, &ec, &whole, &whole_len, &rerr);
                    FUZZ_CHECK(got != 1 || (whole && whole_len <= 1u << 16), "a reassembled packet of %zu bytes past the cap", whole_len);
                    FUZZ_CHECK(gdw_enet_reassembly_held(reassembly) <= 1u << 18, "the reassembly holds %zu bytes past its cap",
                               gdw_enet_reassembly_held(reassembly));
                }
            }
            FUZZ_CHECK(rc == 0 || (werr.offset <= n && werr.message && it.why != GDW_ENET_WALK_OK), "a walk failed at %zu of %zu bytes",
                       werr.offset, n);
        }
        /* the same bytes as one SceneMultiplayer packet alone */
        gdw_mp_parsed *p = malloc(sizeof *p);
        FUZZ_CHECK(p != NULL, "out of memory");
        gdw_error err;
        gdw_status s = gdw_mp_parse(rec, n, (data[0] & 32) ? o.dialect : NULL, NULL, NULL, p, &err);
        if (s == GDW_OK) {
            check_values(p, n);
            gdw_mp_paths_apply(paths, (int64_t)(k & 1) + 1, p); /* a caller's path cache, bounded */
            FUZZ_CHECK(gdw_mp_paths_count(paths) <= 8, "the path cache holds %zu entries past its cap", gdw_mp_paths_count(paths));
        }
        else FUZZ_CHECK(err.offset <= n && err.message, "a parse failed at %zu of %zu bytes", err.offset, n);
        gdw_mp_parsed_free(p);
        free(p);
    }
    gdw_session_finish(f.s);
    gdw_session_stats st = gdw_session_get_stats(f.s);
    FUZZ_CHECK(st.open_fragment_bytes == 0, "open fragments left after finish: %zu bytes", st.open_fragment_bytes);
    gdw_session_free(f.s);
    gdw_enet_reassembly_free(reassembly);
    gdw_mp_paths_free(paths);
    return 0;
}

/* SPDX-License-Identifier: MIT
 * stream.c — plain TCP carrying values as the engines frame them on a stream: StreamPeer.put_var (Godot 4.6.3
 * core/io/stream_peer.cpp, put_var: put_32 of the value's length, then put_data of encode_variant's bytes; Godot 3's
 * is the same) and PacketPeerStream (core/io/packet_peer.cpp, PacketPeerStream::_poll_buffer and put_packet: a
 * 4-byte little-endian length, then the packet; PacketPeer.put_var's packet is encode_variant's bytes).
 *
 * A flow is read this way when it does not begin with an HTTP request or answer (websocket.c) and its first frame
 * is a 4-byte length of at most --max-packet followed by exactly one whole Variant; anything else is not read (a
 * problem says so), so no other TCP traffic is taken for Godot's. The dialect: the options'; else every dialect of
 * the table that reads each frame so far whole stays a candidate, and each value is read in the one `gdwire check`
 * ranks first among them (the newest release among equals), until one is left or 64 frames narrowed them. The
 * length is little-endian, as StreamPeer's big_endian property leaves it by default; a stream with big_endian set
 * is not read. */
#include "session.h"
#include "gdwire_check.h" /* gdw_check, its ranking */

#include <string.h>

#define ALL_DIALECTS(n) ((n) >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n)) - 1))
#define NARROW_FRAMES GDW_STREAM_NARROW_FRAMES

/* Is a newer than b (gdw_dialect_released: "YYYY-MM", "" undated)? */
static bool newer(const gdw_dialect *a, const gdw_dialect *b) { return strcmp(gdw_dialect_released(a), gdw_dialect_released(b)) > 0; }

/* The candidates (bit i: dialect i) that read value whole, and of them the one gdwire check ranks first, the newest
 * release among equals; 0 when none does. No documents are kept: one value's tree is held at a time. */
uint64_t gdw_stream_readers(const uint8_t *bytes, size_t len, uint64_t candidates, const gdw_decode_options *opts, const gdw_allocator *alloc,
                            const gdw_dialect **first) {
    reader value = rd_view(bytes, len, 0);
    gdw_decode_options dec = opts ? *opts : gdw_session_options_default().decode;
    *first = NULL;
    size_t n = gdw_dialect_count();
    gdw_check_row *rows = gdw_session_alloc(alloc, n * sizeof *rows);
    if (!rows) return 0;
    memset(rows, 0, n * sizeof *rows);
    gdw_check_result *res = gdw_session_alloc(alloc, n * sizeof *res);
    if (!res) {
        gdw_session_release(alloc, rows, n * sizeof *rows);
        return 0;
    }
    gdw_check(value.p, value.len, &dec, alloc, false, res, n);
    for (size_t i = 0; i < n; i++) {
        rows[i].result = res[i], rows[i].meaning = -1, rows[i].misread = 0;
        /* the reals each candidate that reads it whole would misread (the ranking's first question after the
         * reading), its value decoded alone: one document held at a time */
        if (i < 64 && (candidates >> i & 1) && res[i].status == GDW_OK && res[i].consumed == value.len) {
            gdw_doc *doc = NULL;
            size_t used = 0;
            gdw_error err;
            if (gdw_decode(res[i].dialect, value.p, value.len, &dec, alloc, &doc, &used, &err) == GDW_OK)
                rows[i].misread = gdw_value_misread_reals(gdw_doc_root(doc));
            gdw_doc_free(doc);
        }
    }
    gdw_check_rank_rows(rows, n, value.p, value.len, &dec, false);
    uint64_t whole = 0;
    int best_rank = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        const gdw_check_row *row = &rows[i];
        if (!(candidates >> i & 1) || row->reading != GDW_READING_WHOLE) continue;
        whole |= (uint64_t)1 << i;
        if (!*first || row->rank < best_rank || (row->rank == best_rank && newer(row->result.dialect, *first)))
            *first = row->result.dialect, best_rank = row->rank;
    }
    gdw_session_release(alloc, res, n * sizeof *res);
    gdw_session_release(alloc, rows, n * sizeof *rows);
    return whole;
}

/* The dialect this frame's value is read in, the flow's candidates narrowed by it. false: the flow's first frame
 * is no whole Variant (this is no put_var flow). */
static bool frame_dialect(gdw_session *s, flow *f, reader value) {
    tcp_side *t = f->tcp;
    if (!t->stream_started) t->stream_dialects = s->opts.dialect ? 0 : ALL_DIALECTS(gdw_dialect_count());
    if (s->opts.dialect) { /* the caller's: its first frame must read whole in it */
        if (t->stream_started) return true;
        gdw_decode_options o = s->opts.decode;
        o.allow_trailing = false;
        gdw_doc *doc = NULL;
        size_t consumed = 0;
        gdw_error err;
        bool whole = gdw_decode(s->opts.dialect, value.p, value.len, &o, s->opts.alloc, &doc, &consumed, &err) == GDW_OK;
        gdw_doc_free(doc);
        if (whole) f->dialect = s->opts.dialect, t->stream_started = true;
        return whole;
    }
    /* one candidate left, or narrowed long enough: the flow's dialect is settled */
    if (t->stream_started && ((t->stream_dialects & (t->stream_dialects - 1)) == 0 || t->stream_frames >= NARROW_FRAMES)) return true;
    const gdw_dialect *first;
    uint64_t whole = gdw_stream_readers(value.p, value.len, t->stream_dialects, &s->opts.decode, s->opts.alloc, &first);
    t->stream_frames++;
    if (!whole) return t->stream_started; /* read in the flow's dialect, whose problem it becomes */
    t->stream_dialects = whole, t->stream_started = true;
    f->dialect = first;
    return true;
}

size_t putvar_consume(gdw_session *s, flow *f, int dir, uint8_t *p, size_t n) {
    tcp_dir *d = &f->tcp->d[dir];
    reader r = rd_view(p, n, 0);
    while (d->state != STREAM_OFF) {
        reader frame = r, value;
        uint32_t len;
        if (!rd_le32(&frame, &len)) break;
        if (len > s->opts.max_packet_bytes) {
            tcp_off(s, f, f->tcp->stream_started ? "a put_var frame longer than --max-packet"
                                                 : "a TCP flow that is neither a WebSocket upgrade nor put_var frames (its first 4 bytes are no length within --max-packet)");
            return 0;
        }
        if (!rd_child(&frame, len, &value)) break; /* the rest of the frame is still to come */
        if (!frame_dialect(s, f, value)) {
            tcp_off(s, f, "a TCP flow that is neither a WebSocket upgrade nor put_var frames (its first frame is no whole Variant)");
            return 0;
        }
        r = frame;
        godot_stream_value(s, f, dir, value);
    }
    return r.pos;
}

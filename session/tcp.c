/* SPDX-License-Identifier: MIT
 * tcp.c — a TCP flow's two streams (RFC 9293), each put back in order: bytes seen again are dropped (a
 * retransmit, or the overlapping part of one), segments ahead of the stream wait (at most TCP_MAX_AHEAD, and
 * within the reassembly caps) until the gap fills. What a stream holds in order goes to the layer above
 * (websocket.c's ws_consume, or stream.c's putvar_consume, by the flow's first bytes: tcp_framing), which takes
 * what it can and leaves the rest for more. A flow starts at its SYN, or at a WebSocket upgrade request when the
 * capture missed the SYN. */
#include "session.h"

#include <string.h>

enum { TCP_FIN = 1, TCP_SYN = 2, TCP_RST = 4, TCP_ACK = 16 };

#define TCP_MAX_AHEAD 1024 /* segments waiting past a gap, per direction */

/* What a direction's buffers and waiting segments cost. */
static size_t tcp_dir_cost(const tcp_dir *d) {
    return (d->cap ? hold_cost(d->cap) : 0) + (d->msg_cap ? hold_cost(d->msg_cap) : 0) + d->ahead_cost;
}

/* d's charge becomes `bytes`, room made first; false when it does not fit the reassembly caps. A
 * direction that holds nothing is in no list (dropping it would free nothing). */
static bool tcp_charge(gdw_session *s, tcp_dir *d, size_t bytes) {
    if (!bytes) {
        hold_remove(&s->book, &d->h);
        return true;
    }
    if (bytes > d->h.bytes && !hold_room(&s->book, &d->f->hold, HOLD_REASSEMBLY, bytes - d->h.bytes, &d->h)) return false;
    if (d->h.held) hold_resize(&s->book, &d->h, bytes);
    else hold_add(&s->book, &d->f->hold, &d->h, HOLD_REASSEMBLY, HELD_TCP_DIR, bytes);
    return true;
}

/* A stream or message buffer of d to hold `need` bytes (of which len are kept), doubling up to
 * `most`; false when memory or the caps refuse it. */
static bool tcp_grow(gdw_session *s, tcp_dir *d, uint8_t **buf, size_t *cap, size_t len, size_t need, size_t most) {
    if (need <= *cap) return true;
    size_t cap2 = *cap ? *cap : 4096;
    while (cap2 < need) cap2 *= 2;
    if (cap2 > most) cap2 = need > most ? need : most;
    if (!tcp_charge(s, d, d->h.bytes - (*cap ? hold_cost(*cap) : 0) + hold_cost(cap2))) return false;
    uint8_t *b = gdw_session_alloc(s->opts.alloc, cap2);
    if (!b) {
        tcp_charge(s, d, tcp_dir_cost(d));
        return false;
    }
    if (len) memcpy(b, *buf, len);
    gdw_session_release(s->opts.alloc, *buf, *cap);
    *buf = b, *cap = cap2;
    return true;
}

/* Frees what d holds; it stays its flow's direction. */
static void tcp_dir_free(gdw_session *s, tcp_dir *d) {
    gdw_session_release(s->opts.alloc, d->buf, d->cap);
    gdw_session_release(s->opts.alloc, d->msg, d->msg_cap);
    while (d->ahead) {
        tcp_segment *g = d->ahead;
        d->ahead = g->next;
        gdw_session_release(s->opts.alloc, g, sizeof *g + g->len);
    }
    hold_remove(&s->book, &d->h);
    flow *f = d->f;
    uint8_t dir = d->dir;
    memset(d, 0, sizeof *d);
    d->f = f, d->dir = dir;
}

void tcp_flow_free(gdw_session *s, flow *f) {
    if (!f->tcp) return;
    tcp_dir_free(s, &f->tcp->d[0]);
    tcp_dir_free(s, &f->tcp->d[1]);
    gdw_session_release(s->opts.alloc, f->tcp, sizeof *f->tcp);
    f->tcp = NULL;
}

void tcp_off(gdw_session *s, flow *f, const char *why) {
    if (!f->tcp->reported_off) problem(s, f, "tcp", 0, "%s: this flow is not read", why);
    f->tcp->reported_off = true;
    for (int k = 0; k < 2; k++) {
        tcp_dir_free(s, &f->tcp->d[k]);
        f->tcp->d[k].state = STREAM_OFF;
    }
}

/* The book's drop for a TCP direction: its stream is dropped, and no more of it is read. */
void tcp_dir_drop(gdw_session *s, holder *h, const char *said) {
    tcp_dir *d = HOLDER_OF(tcp_dir, h);
    if (said)
        problem(s, d->f, "tcp", 0, "TCP streams and WebSocket messages past %s: the %s stream (%zu bytes waiting in %zu held) is dropped and not read further",
                said, side_name(d->dir), d->len + d->msg_len + d->ahead_bytes, d->h.bytes);
    tcp_dir_free(s, d);
    d->state = STREAM_OFF;
}

bool tcp_msg_room(gdw_session *s, tcp_dir *d, size_t need) {
    if (tcp_grow(s, d, &d->msg, &d->msg_cap, d->msg_len, need, s->opts.max_packet_bytes + 1)) return true;
    tcp_dir_drop(s, &d->h, "the reassembly limits");
    return false;
}

void tcp_msg_release(gdw_session *s, tcp_dir *d) {
    gdw_session_release(s->opts.alloc, d->msg, d->msg_cap); /* held only while a message waits */
    d->msg = NULL, d->msg_cap = 0, d->msg_len = 0;
    tcp_charge(s, d, tcp_dir_cost(d));
}

/* What a flow carries, by its first bytes: an HTTP request or answer begins a WebSocket upgrade; anything else is
 * tried as put_var frames (stream.c says when it is not). 0 while fewer than 4 bytes came. */
static int tcp_framing(const uint8_t *p, size_t n) {
    if (n < 4) return FRAMING_UNKNOWN;
    return memcmp(p, "GET ", 4) == 0 || memcmp(p, "HTTP", 4) == 0 ? FRAMING_WEBSOCKET : FRAMING_PUT_VAR;
}

/* What the stream holds in order, to the layer above; what it took goes, and an empty buffer is let go until more
 * comes. */
static void tcp_deliver(gdw_session *s, flow *f, int dir) {
    tcp_dir *d = &f->tcp->d[dir];
    if (!f->tcp->framing) f->tcp->framing = (uint8_t)tcp_framing(d->buf, d->len);
    if (!f->tcp->framing) return;
    size_t took = f->tcp->framing == FRAMING_WEBSOCKET ? ws_consume(s, f, dir, d->buf, d->len) : putvar_consume(s, f, dir, d->buf, d->len);
    if (d->state == STREAM_OFF) return; /* its buffers are gone */
    if (took) {
        memmove(d->buf, d->buf + took, d->len - took);
        d->len -= took;
    }
    if (!d->len && d->cap) {
        gdw_session_release(s->opts.alloc, d->buf, d->cap);
        d->buf = NULL, d->cap = 0;
        tcp_charge(s, d, tcp_dir_cost(d));
    }
}

/* Bytes at seq: those already in the stream dropped, the rest appended and handed up if they follow
 * on, else kept until the gap fills. false when the direction was turned off. */
static bool tcp_take(gdw_session *s, flow *f, int dir, uint32_t seq, const uint8_t *p, size_t n) {
    tcp_dir *d = &f->tcp->d[dir];
    int32_t behind = (int32_t)(d->next - seq);
    if (behind > 0) { /* bytes already in the stream: a retransmit, maybe with new bytes after */
        if ((size_t)behind >= n) {
            s->stats.retransmits++;
            return true;
        }
        p += behind, n -= (size_t)behind, seq = d->next;
    }
    if (seq != d->next) { /* past a gap: wait for it */
        if (d->ahead_count >= TCP_MAX_AHEAD || d->ahead_bytes + n > s->opts.max_packet_bytes) {
            tcp_off(s, f, "a gap in the TCP stream that never filled within the limits (1,024 segments, --max-packet)");
            return false;
        }
        if (!tcp_charge(s, d, d->h.bytes + hold_cost(sizeof(tcp_segment) + n))) {
            tcp_dir_drop(s, &d->h, "the reassembly limits");
            return false;
        }
        tcp_segment *g = gdw_session_alloc(s->opts.alloc, sizeof *g + n);
        if (!g) {
            tcp_charge(s, d, tcp_dir_cost(d));
            return true;
        }
        g->seq = seq, g->len = n, g->next = d->ahead;
        memcpy(g->data, p, n);
        d->ahead = g, d->ahead_bytes += n, d->ahead_count++, d->ahead_cost += hold_cost(sizeof *g + n);
        return true;
    }
    /* a stream holds at most one frame of --max-packet and its header, and what follows it in the
     * same segment */
    size_t most = s->opts.max_packet_bytes + 16384;
    if (d->len + n > most) {
        tcp_off(s, f, "more stream bytes waiting than a message can hold (--max-packet)");
        return false;
    }
    if (!tcp_grow(s, d, &d->buf, &d->cap, d->len, d->len + n, most)) {
        tcp_dir_drop(s, &d->h, "the reassembly limits");
        return false;
    }
    memcpy(d->buf + d->len, p, n);
    d->len += n;
    d->next += (uint32_t)n;
    tcp_deliver(s, f, dir);
    return d->state != STREAM_OFF;
}

/* A segment, then, one at a time (no recursion: a hostile capture can leave many waiting), each
 * waiting segment the stream's new end reaches. */
static void tcp_append(gdw_session *s, flow *f, int dir, uint32_t seq, const uint8_t *p, size_t n) {
    tcp_dir *d = &f->tcp->d[dir];
    if (!tcp_take(s, f, dir, seq, p, n)) return;
    for (bool more = true; more && d->ahead;) { /* at most TCP_MAX_AHEAD waiting: each pass takes one */
        more = false;
        for (tcp_segment **link = &d->ahead; *link; link = &(*link)->next) {
            tcp_segment *g = *link;
            /* not reached yet: the same test as tcp_take's (a segment exactly 2^31 bytes ahead is
             * ahead both ways round as int32_t; taking it would queue it again, for ever) */
            if ((int32_t)(d->next - g->seq) < 0) continue;
            *link = g->next;
            d->ahead_bytes -= g->len, d->ahead_count--, d->ahead_cost -= hold_cost(sizeof *g + g->len);
            bool on = tcp_take(s, f, dir, g->seq, g->data, g->len);
            gdw_session_release(s->opts.alloc, g, sizeof *g + g->len);
            if (d->state != STREAM_OFF) tcp_charge(s, d, tcp_dir_cost(d)); /* smaller: no room needed */
            if (!on) return;
            more = true;
            break;
        }
    }
}

void tcp_segment_in(gdw_session *s, const uint8_t *src, const uint8_t *dst, size_t alen, reader seg) {
    size_t at = rd_at(&seg);
    uint16_t sport = 0, dport = 0;
    uint32_t seq = 0;
    uint8_t offset_byte = 0, flags = 0;
    if (rd_left(&seg) < 20) { /* its ports too: nothing of it is read */
        problem(s, NULL, "tcp", at, "a TCP header cut at %zu bytes", rd_left(&seg));
        return;
    }
    rd_be16(&seg, &sport), rd_be16(&seg, &dport), rd_be32(&seg, &seq), rd_skip(&seg, 4), rd_u8(&seg, &offset_byte), rd_u8(&seg, &flags);
    size_t off = (size_t)(offset_byte >> 4) * 4;
    if (off < 20 || off > seg.len) {
        problem(s, NULL, "tcp", at + 12, "a TCP header length of %zu in %zu bytes", off, seg.len);
        return;
    }
    seg.pos = off;
    reader data = rd_rest(&seg);
    size_t n = rd_left(&data);
    int dir;
    flow *f = flow_find(s, 6, src, sport, dst, dport, alen, &dir);
    if (!f) {
        /* a flow starts at its SYN, or at a WebSocket upgrade request when the capture missed it */
        bool start = ((flags & TCP_SYN) && !(flags & TCP_ACK)) || (n >= 4 && memcmp(rd_here(&data), "GET ", 4) == 0);
        if (!start) return; /* other TCP traffic, or a flow whose start the capture missed */
        if (!(f = flow_new(s, 6, src, sport, dst, dport, alen))) return;
        f->tcp = gdw_session_alloc(s->opts.alloc, sizeof *f->tcp);
        if (!f->tcp) return;
        memset(f->tcp, 0, sizeof *f->tcp);
        hold_resize(&s->book, &f->h, f->h.bytes + hold_cost(sizeof *f->tcp)); /* part of the flow */
        for (int k = 0; k < 2; k++) f->tcp->d[k].f = f, f->tcp->d[k].dir = (uint8_t)k;
        dir = 0;
    }
    if (!f->tcp || f->tcp->d[dir].state == STREAM_OFF) return;
    tcp_dir *d = &f->tcp->d[dir];
    if (flags & TCP_SYN) {
        d->have_seq = true, d->next = seq + 1;
        return;
    }
    if (!n) return;
    if (!d->have_seq) d->have_seq = true, d->next = seq; /* the capture began after the SYN */
    tcp_append(s, f, dir, seq, rd_here(&data), n);
}

void tcp_flow_finish(gdw_session *s, flow *f) {
    for (int k = 0; f->tcp && k < 2; k++) {
        tcp_dir *d = &f->tcp->d[k];
        /* (a flow whose first bytes never said what it carries is no Godot flow: nothing of it is said) */
        bool harmless = !f->tcp->framing || (f->tcp->framing == FRAMING_WEBSOCKET && ws_waiting_is_harmless(d));
        if (d->state != STREAM_OFF && (d->ahead || d->msg_len || (d->len && !harmless)))
            problem(s, f, "tcp", 0, "the %s stream ends inside a %s or before a gap filled (%zu bytes waiting)", side_name(k),
                    f->tcp->framing == FRAMING_PUT_VAR ? "put_var frame" : "WebSocket message", d->len + d->msg_len + d->ahead_bytes);
        tcp_dir_free(s, d);
        d->state = STREAM_OFF;
    }
}

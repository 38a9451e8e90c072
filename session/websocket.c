/* SPDX-License-Identifier: MIT
 * websocket.c — WebSocket (RFC 6455) over a TCP stream (tcp.c): the HTTP upgrade, then frames (7-, 16- or
 * 64-bit lengths, the client's masked), control frames (whole, at most 125 bytes: 5.5), and messages in one or
 * several frames. Every whole binary message goes to godot.c; text, close, ping and pong carry nothing of
 * Godot's. */
#include "session.h"

#include <string.h>

enum { WS_CONTINUATION = 0, WS_TEXT = 1, WS_BINARY = 2, WS_FIN = 0x80, WS_CONTROL = 0x08, WS_MASKED = 0x80 };
#define WS_MAX_HEAD 16384 /* an HTTP head longer than this is no upgrade */
#define WS_CONTROL_MOST 125

static bool has_text(const uint8_t *p, size_t n, const char *want) {
    size_t w = strlen(want);
    for (size_t i = 0; i + w <= n; i++) {
        size_t k = 0;
        while (k < w && (p[i + k] | 0x20) == (want[k] | 0x20)) k++;
        if (k == w) return true;
    }
    return false;
}

/* The HTTP head of direction dir, when whole: the client's upgrade request or the server's 101. The bytes it
 * took; 0 while it is not whole (or the flow was turned off). */
static size_t ws_handshake(gdw_session *s, flow *f, int dir, reader r) {
    size_t head = 0;
    for (size_t i = 0; i + 4 <= r.len && !head; i++)
        if (memcmp(r.p + i, "\r\n\r\n", 4) == 0) head = i + 4;
    if (!head) {
        if (r.len > WS_MAX_HEAD) tcp_off(s, f, "no end to the HTTP head in 16 KiB");
        return 0;
    }
    bool ok = dir == 0 ? r.len >= 4 && memcmp(r.p, "GET ", 4) == 0 && has_text(r.p, head, "upgrade: websocket")
                       : r.len >= 12 && memcmp(r.p, "HTTP/1.1 101", 12) == 0;
    if (!ok) {
        tcp_off(s, f, dir == 0 ? "a TCP flow that does not begin with a WebSocket upgrade" : "the server did not accept the WebSocket upgrade");
        return 0;
    }
    f->tcp->d[dir].state = STREAM_FRAMES;
    return head;
}

/* A frame's head at r: its first byte, its payload's length, and its mask (when masked); false while it is not
 * whole. */
typedef struct ws_frame {
    uint8_t b0;
    uint64_t len;
    bool masked;
    const uint8_t *mask;
} ws_frame;

static bool ws_frame_head(reader *r, ws_frame *fr) {
    uint8_t b1;
    if (!rd_u8(r, &fr->b0) || !rd_u8(r, &b1)) return false;
    fr->len = b1 & 0x7F;
    if (fr->len == 126) {
        uint16_t n;
        if (!rd_be16(r, &n)) return false;
        fr->len = n;
    } else if (fr->len == 127 && !rd_uint(r, 8, true, &fr->len)) {
        return false;
    }
    fr->masked = b1 & WS_MASKED;
    return !fr->masked || rd_bytes(r, 4, &fr->mask);
}

size_t ws_consume(gdw_session *s, flow *f, int dir, uint8_t *p, size_t n) {
    tcp_dir *d = &f->tcp->d[dir];
    reader r = rd_view(p, n, 0);
    while (d->state != STREAM_OFF) {
        if (d->state == STREAM_HANDSHAKE) {
            size_t head = ws_handshake(s, f, dir, rd_view(rd_here(&r), rd_left(&r), 0));
            if (!head) break;
            rd_skip(&r, head);
            continue;
        }
        reader fr_r = r;
        ws_frame fr = {0};
        if (!ws_frame_head(&fr_r, &fr)) break;
        if ((fr.b0 & WS_CONTROL) && (fr.len > WS_CONTROL_MOST || !(fr.b0 & WS_FIN))) {
            tcp_off(s, f, "a WebSocket control frame longer than 125 bytes or in parts");
            return 0;
        }
        if (fr.len > s->opts.max_packet_bytes) {
            tcp_off(s, f, "a WebSocket frame longer than --max-packet");
            return 0;
        }
        if (rd_left(&fr_r) < fr.len) break; /* its payload is not all here yet */
        size_t len = (size_t)fr.len;
        uint8_t *payload = p + fr_r.pos; /* unmasked in place: the stream's own buffer */
        if (fr.masked)
            for (size_t i = 0; i < len; i++) payload[i] ^= fr.mask[i & 3];
        rd_skip(&fr_r, len);
        r = fr_r;
        int opcode = fr.b0 & 0x0F;
        if (opcode >= 3 && opcode <= 7) {
            tcp_off(s, f, "a WebSocket frame with a reserved opcode");
            return 0;
        }
        if (opcode > WS_BINARY) continue; /* close, ping and pong carry nothing of Godot's */
        if (opcode != WS_CONTINUATION) d->msg_opcode = opcode, d->msg_len = 0;
        if ((fr.b0 & WS_FIN) && opcode != WS_CONTINUATION) { /* a message in one frame: read where it lies */
            if (d->msg_cap) tcp_msg_release(s, d); /* a message it interrupts (RFC 6455 5.4 forbids it) is dropped */
            if (opcode == WS_BINARY) godot_ws_message(s, f, dir, rd_view(payload, len, 0));
            continue;
        }
        if (d->msg_len + len > s->opts.max_packet_bytes) {
            tcp_off(s, f, "a WebSocket message longer than --max-packet");
            return 0;
        }
        if (!tcp_msg_room(s, d, d->msg_len + len + 1)) return 0;
        if (len) memcpy(d->msg + d->msg_len, payload, len);
        d->msg_len += len;
        if (!(fr.b0 & WS_FIN)) continue;
        if (d->msg_opcode == WS_BINARY) godot_ws_message(s, f, dir, rd_view(d->msg, d->msg_len, 0));
        if (d->state == STREAM_OFF) return 0;
        tcp_msg_release(s, d);
    }
    return r.pos;
}

bool ws_waiting_is_harmless(const tcp_dir *d) {
    /* an unfinished HTTP head; or the start of a control frame left waiting, which is no message lost: Godot
     * 3.6.2's server writes a close frame's head, and its peer resets the connection before the rest */
    if (d->state == STREAM_HANDSHAKE) return true;
    return d->state == STREAM_FRAMES && !d->ahead && !d->msg_len && d->len && d->len <= 2 + 4 + WS_CONTROL_MOST &&
           (d->buf[0] & (WS_FIN | WS_CONTROL)) == (WS_FIN | WS_CONTROL);
}

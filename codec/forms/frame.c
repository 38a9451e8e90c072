/* SPDX-License-Identifier: MIT */
/* frame.c — the engines' length prefixes around a Variant (gdwire.h "Framing"): StreamPeer.put_var,
 * FileAccess.store_var and PacketPeerStream each write a 32-bit payload length, then the value
 * (core/io/stream_peer.cpp put_var, core/io/packet_peer.cpp, FileAccess::store_var; the frames of
 * Godot
 * 3.2.3 in codec/tests/frame_test.c). The one reading of a prefix: the
 * command's --framing goes through gdw_frame_read too. */
#include <string.h>

#include "codec/forms/forms.h"

static uint64_t frame_max_payload(const gdw_frame_options *fo) {
    if (fo->max_payload) return fo->max_payload;
    return fo->framing == GDW_FRAMING_PACKET_STREAM ? GDW_FRAME_MAX_PACKET_STREAM
                                                    : GDW_FRAME_MAX_DEFAULT;
}

static bool frame_known_framing(const gdw_frame_options *fo) {
    return fo && (fo->framing == GDW_FRAMING_STREAM || fo->framing == GDW_FRAMING_FILE ||
                  fo->framing == GDW_FRAMING_PACKET_STREAM);
}

/* PacketPeerStream writes its prefix with encode_uint32, little-endian whatever the peer says */
static bool frame_prefix_big_endian(const gdw_frame_options *fo) {
    return fo->big_endian && fo->framing != GDW_FRAMING_PACKET_STREAM;
}

static gdw_status frame_fail(gdw_error *err, gdw_status code, size_t offset, const char *msg) {
    gdw_error_set(err, code, offset, 0, GDW_ENGINE_NONE, msg);
    return code;
}

gdw_frame_options gdw_frame_options_default(gdw_framing framing) {
    gdw_frame_options fo;
    memset(&fo, 0, sizeof fo);
    fo.framing = framing;
    return fo;
}

gdw_status gdw_frame_read(const gdw_frame_options *fo, const uint8_t *buf, size_t len,
                          size_t *payload_len, size_t *frame_len, gdw_error *err) {
    if (!frame_known_framing(fo) || (!buf && len) || !payload_len || !frame_len)
        return frame_fail(err, GDW_ERR_INVALID_ARG, 0, "NULL argument or unknown framing");
    *payload_len = 0;
    *frame_len = GDW_FRAME_PREFIX;
    if (len < GDW_FRAME_PREFIX)
        return frame_fail(err, GDW_ERR_TRUNCATED, len, "the length prefix is cut short");
    uint32_t n = frame_prefix_big_endian(fo) ? ((uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
                                                (uint32_t)buf[2] << 8 | buf[3])
                                             : ((uint32_t)buf[3] << 24 | (uint32_t)buf[2] << 16 |
                                                (uint32_t)buf[1] << 8 | buf[0]);
    *payload_len = n;
    if (fo->framing == GDW_FRAMING_STREAM && (int32_t)n < 0)
        return frame_fail(
            err, GDW_ERR_BAD_LENGTH, 0,
            "negative length prefix: StreamPeer.get_var fails here, and the stream is lost");
    if (n > frame_max_payload(fo))
        return frame_fail(
            err, GDW_ERR_BAD_LENGTH, 0,
            fo->framing == GDW_FRAMING_PACKET_STREAM && !fo->max_payload
                ? "the prefix is over 65531 bytes: a default PacketPeerStream never delivers it"
                : "the prefix is over the largest payload allowed (max_payload)");
    *frame_len = GDW_FRAME_PREFIX + (size_t)n;
    if (len - GDW_FRAME_PREFIX < n)
        return frame_fail(err, GDW_ERR_TRUNCATED, len,
                          "the frame is cut short: fewer bytes follow than its prefix says");
    if (err) frame_fail(err, GDW_OK, 0, gdw_strerror(GDW_OK));
    return GDW_OK;
}

gdw_status gdw_frame_prefix(const gdw_frame_options *fo, size_t payload_len, uint8_t *out) {
    if (!frame_known_framing(fo) || !out) return GDW_ERR_INVALID_ARG;
    uint64_t limit = frame_max_payload(fo);
    /* read back signed */
    if (fo->framing == GDW_FRAMING_STREAM && limit > INT32_MAX) limit = INT32_MAX;
    if ((uint64_t)payload_len > limit || (uint64_t)payload_len > UINT32_MAX)
        return GDW_ERR_TOO_LARGE;
    uint32_t n = (uint32_t)payload_len;
    for (int k = 0; k < 4; k++)
        out[frame_prefix_big_endian(fo) ? 3 - k : k] = (uint8_t)(n >> (8 * k));
    return GDW_OK;
}

/* ---- the incremental reader ------------------------------------------------------------------ */

struct gdw_frame_reader {
    gdw_allocator alloc;
    gdw_frame_options fo;
    uint8_t *buf;
    size_t cap, start, end; /* bytes held: buf[start..end) */
    uint64_t base;          /* stream offset of buf[0] */
    gdw_status lost;        /* sticky: a bad prefix ends the stream, as for the engine */
    gdw_error lost_err;
};

gdw_frame_reader *gdw_frame_reader_new(const gdw_frame_options *fo, const gdw_allocator *alloc) {
    if (!frame_known_framing(fo)) return NULL;
    if (!alloc) alloc = gdw_default_allocator();
    gdw_frame_reader *r = (gdw_frame_reader *)alloc->malloc_fn(alloc->ctx, sizeof *r);
    if (!r) return NULL;
    memset(r, 0, sizeof *r);
    r->alloc = *alloc;
    r->fo = *fo;
    return r;
}

void gdw_frame_reader_free(gdw_frame_reader *r) {
    if (!r) return;
    if (r->buf) r->alloc.free_fn(r->alloc.ctx, r->buf, r->cap);
    r->alloc.free_fn(r->alloc.ctx, r, sizeof *r);
}

size_t gdw_frame_reader_pending(const gdw_frame_reader *r) { return r ? r->end - r->start : 0; }

gdw_status gdw_frame_reader_feed(gdw_frame_reader *r, const uint8_t *p, size_t n) {
    if (!r || (!p && n)) return GDW_ERR_INVALID_ARG;
    if (r->lost) return r->lost;
    if (!n) return GDW_OK;
    if (r->start == r->end) {
        r->base += r->end;
        r->start = r->end = 0;
    }
    if (r->cap - r->end < n && r->start) { /* move what is held to the front before growing */
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->base += r->start;
        r->end -= r->start;
        r->start = 0;
    }
    if (r->cap - r->end < n) {
        if (n > SIZE_MAX / 2 - r->end) return GDW_ERR_NOMEM;
        size_t nc = r->cap ? r->cap : 4096;
        while (nc < r->end + n) nc *= 2;
        uint8_t *q = (uint8_t *)r->alloc.realloc_fn(r->alloc.ctx, r->buf, r->cap, nc);
        if (!q) return GDW_ERR_NOMEM;
        r->buf = q;
        r->cap = nc;
    }
    memcpy(r->buf + r->end, p, n);
    r->end += n;
    return GDW_OK;
}

gdw_status gdw_frame_reader_next(gdw_frame_reader *r, const uint8_t **payload, size_t *len,
                                 gdw_error *err) {
    if (!r || !payload || !len) return frame_fail(err, GDW_ERR_INVALID_ARG, 0, "NULL argument");
    *payload = NULL;
    *len = 0;
    if (r->lost) {
        if (err) *err = r->lost_err;
        return r->lost;
    }
    size_t n = 0, whole = 0;
    gdw_error e;
    gdw_status s = gdw_frame_read(&r->fo, r->buf ? r->buf + r->start : NULL, r->end - r->start, &n,
                                  &whole, &e);
    e.offset += (size_t)(r->base + r->start); /* stream offsets */
    if (s == GDW_ERR_BAD_LENGTH) {
        r->lost = s;
        r->lost_err = e;
    }
    if (s) {
        if (err) *err = e;
        return s;
    }
    *payload = r->buf + r->start + GDW_FRAME_PREFIX;
    *len = n;
    r->start += whole;
    if (err) *err = e;
    return GDW_OK;
}

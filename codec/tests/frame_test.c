/* SPDX-License-Identifier: MIT */
/* frame_test — gdw_frame_*: the length prefixes Godot writes before a value, read whole and
 * incrementally. The frames are the engine's, as Godot 3.2.3 wrote them:
 * StreamPeerBuffer.put_var(42), PacketPeerStream.put_var("hi"), File.store_var(Vector2(1, 2)), and
 * a big-endian StreamPeer's prefix. */
#include "codec/tests/testing.h"

static const char *k_stream_42 = "08000000 02000000 2a000000";
static const char *k_pps_hi = "0c000000 04000000 02000000 68690000";
static const char *k_file_v2 = "0c000000 05000000 0000803f 00000040";
static const char *k_stream_be_42 = "00000008 02000000 2a000000";

static void read_whole(void) {
    uint8_t buf[64];
    size_t n, pl, fl;
    gdw_error err;
    gdw_frame_options fo = gdw_frame_options_default(GDW_FRAMING_STREAM);
    n = t_unhex(k_stream_42, buf, sizeof buf);
    CHECK(gdw_frame_read(&fo, buf, n, &pl, &fl, &err) == GDW_OK && pl == 8 && fl == 12,
          "stream 42: %zu, %zu", pl, fl);
    gdw_doc *doc = NULL;
    CHECK(gdw_decode(t_dialect("godot3"), buf + GDW_FRAME_PREFIX, pl, NULL, NULL, &doc, NULL,
                     NULL) == GDW_OK,
          "the payload decodes");
    int64_t i = 0;
    CHECK(gdw_get_int(gdw_doc_root(doc), &i) && i == 42, "42");
    gdw_doc_free(doc);
    /* cut short: how much the whole frame needs */
    CHECK(gdw_frame_read(&fo, buf, 2, &pl, &fl, &err) == GDW_ERR_TRUNCATED && fl == 4 &&
              err.offset == 2,
          "half a prefix");
    CHECK(gdw_frame_read(&fo, buf, 7, &pl, &fl, &err) == GDW_ERR_TRUNCATED && fl == 12 && pl == 8,
          "part of the payload: wants 12");
    CHECK(gdw_frame_read(&fo, NULL, 0, &pl, &fl, &err) == GDW_ERR_TRUNCATED, "nothing yet");
    /* big-endian peer: the prefix only */
    fo.big_endian = true;
    n = t_unhex(k_stream_be_42, buf, sizeof buf);
    CHECK(gdw_frame_read(&fo, buf, n, &pl, &fl, NULL) == GDW_OK && pl == 8,
          "big-endian stream: %zu", pl);
    /* PacketPeerStream is little-endian whatever big_endian says */
    fo = gdw_frame_options_default(GDW_FRAMING_PACKET_STREAM);
    fo.big_endian = true;
    n = t_unhex(k_pps_hi, buf, sizeof buf);
    CHECK(gdw_frame_read(&fo, buf, n, &pl, &fl, NULL) == GDW_OK && pl == 12 && fl == 16,
          "PacketPeerStream \"hi\"");
    fo = gdw_frame_options_default(GDW_FRAMING_FILE);
    n = t_unhex(k_file_v2, buf, sizeof buf);
    CHECK(gdw_frame_read(&fo, buf, n, &pl, &fl, NULL) == GDW_OK && pl == 12, "File Vector2");
}

static void bad_prefixes(void) {
    uint8_t buf[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    size_t pl, fl;
    gdw_error err;
    gdw_frame_options fo = gdw_frame_options_default(GDW_FRAMING_STREAM);
    CHECK(gdw_frame_read(&fo, buf, 8, &pl, &fl, &err) == GDW_ERR_BAD_LENGTH && pl == 0xffffffffu &&
              strstr(err.message, "negative"),
          "a negative StreamPeer prefix: %s", err.message);
    /* FileAccess reads it unsigned: over the default bound */
    fo = gdw_frame_options_default(GDW_FRAMING_FILE);
    CHECK(gdw_frame_read(&fo, buf, 8, &pl, &fl, &err) == GDW_ERR_BAD_LENGTH,
          "4 GiB in a file: over 256 MiB");
    fo = gdw_frame_options_default(GDW_FRAMING_PACKET_STREAM);
    uint8_t big[4] = {0xfc, 0xff, 0, 0}; /* 65532 */
    CHECK(gdw_frame_read(&fo, big, 4, &pl, &fl, &err) == GDW_ERR_BAD_LENGTH &&
              strstr(err.message, "PacketPeerStream"),
          "65532 bytes: a default PacketPeerStream never delivers it");
    fo.max_payload = 1u << 20;
    CHECK(gdw_frame_read(&fo, big, 4, &pl, &fl, &err) == GDW_ERR_TRUNCATED && fl == 65536,
          "allowed with a larger bound");
    gdw_frame_options none = {(gdw_framing)0, false, 0};
    CHECK(gdw_frame_read(&none, big, 4, &pl, &fl, &err) == GDW_ERR_INVALID_ARG,
          "framing 0 is no framing");
}

static void prefixes(void) {
    uint8_t p[4];
    gdw_frame_options fo = gdw_frame_options_default(GDW_FRAMING_STREAM);
    CHECK(gdw_frame_prefix(&fo, 8, p) == GDW_OK && p[0] == 8 && p[3] == 0, "LE prefix");
    fo.big_endian = true;
    CHECK(gdw_frame_prefix(&fo, 8, p) == GDW_OK && p[0] == 0 && p[3] == 8, "BE prefix");
    fo.max_payload = UINT64_MAX;
    CHECK(gdw_frame_prefix(&fo, (size_t)1 << 31, p) == GDW_ERR_TOO_LARGE,
          "2^31 reads back negative in a StreamPeer");
    fo = gdw_frame_options_default(GDW_FRAMING_PACKET_STREAM);
    CHECK(gdw_frame_prefix(&fo, 65532, p) == GDW_ERR_TOO_LARGE &&
              gdw_frame_prefix(&fo, 65531, p) == GDW_OK,
          "PacketPeerStream bound");
}

/* three engine frames fed one byte at a time, each taken out as soon as it is whole */
static void incremental(void) {
    uint8_t all[64];
    size_t n = t_unhex(
        "08000000 02000000 2a000000 0c000000 04000000 02000000 68690000 08000000 02000000 07000000",
        all, sizeof all);
    gdw_frame_options fo = gdw_frame_options_default(GDW_FRAMING_STREAM);
    gdw_frame_reader *r = gdw_frame_reader_new(&fo, NULL);
    size_t got = 0, at[3] = {0}, lens[3] = {0};
    for (size_t k = 0; k < n; k++) {
        CHECK(gdw_frame_reader_feed(r, all + k, 1) == GDW_OK, "feed");
        const uint8_t *p;
        size_t len;
        gdw_status s;
        while ((s = gdw_frame_reader_next(r, &p, &len, NULL)) == GDW_OK) {
            if (got < 3) {
                at[got] = k;
                lens[got] = len;
            }
            got++;
        }
        CHECK(s == GDW_ERR_TRUNCATED, "between frames: TRUNCATED");
    }
    CHECK(got == 3 && at[0] == 11 && at[1] == 27 && at[2] == 39,
          "3 frames, each at its last byte: %zu (%zu %zu %zu)", got, at[0], at[1], at[2]);
    CHECK(lens[0] == 8 && lens[1] == 12 && lens[2] == 8, "their lengths");
    CHECK(gdw_frame_reader_pending(r) == 0, "nothing pending");
    /* a negative prefix: sticky, at its stream offset */
    uint8_t bad[8] = {0, 0, 0, 0x80, 1, 2, 3, 4};
    gdw_frame_reader_feed(r, bad, 8);
    const uint8_t *p;
    size_t len;
    gdw_error err;
    CHECK(gdw_frame_reader_next(r, &p, &len, &err) == GDW_ERR_BAD_LENGTH && err.offset == 40,
          "bad prefix at 40: %zu", err.offset);
    CHECK(gdw_frame_reader_feed(r, all, 12) == GDW_ERR_BAD_LENGTH &&
              gdw_frame_reader_next(r, &p, &len, NULL) == GDW_ERR_BAD_LENGTH,
          "the stream stays lost");
    gdw_frame_reader_free(r);
    /* a forged length holds only what was fed */
    r = gdw_frame_reader_new(&fo, NULL);
    uint8_t forged[8] = {0, 0, 0, 0x0f, 9, 9, 9, 9}; /* 240 MiB, under the bound */
    gdw_frame_reader_feed(r, forged, 8);
    CHECK(gdw_frame_reader_next(r, &p, &len, NULL) == GDW_ERR_TRUNCATED &&
              gdw_frame_reader_pending(r) == 8,
          "forged length: 8 held");
    gdw_frame_reader_free(r);
    gdw_frame_options none = {(gdw_framing)9, false, 0};
    CHECK(gdw_frame_reader_new(&none, NULL) == NULL && gdw_frame_reader_new(NULL, NULL) == NULL,
          "no reader for no framing");
    gdw_frame_reader_free(NULL);
    CHECK(gdw_frame_reader_pending(NULL) == 0, "pending(NULL)");
}

int main(void) {
    read_whole();
    bad_prefixes();
    prefixes();
    incremental();
    return t_finish();
}

/* SPDX-License-Identifier: MIT
 * compress.c — ENet's compressed datagrams as Godot writes them: everything after a datagram's header is
 * one block of the compressor the host was given (thirdparty/enet/protocol.c, enet_protocol_receive_incoming_commands
 * hands it to host->compressor.decompress with ENET_PROTOCOL_MAXIMUM_MTU bytes of room). Godot 4.6.3
 * modules/enet/enet_connection.cpp:473-491 and Godot 3.6.2 modules/enet/networked_multiplayer_enet.cpp:737-758
 * decompress with core/io/compression.cpp: FastLZ (fastlz_decompress, whose first byte's top 3 bits give the
 * level), zlib (MODE_DEFLATE: inflateInit2 with 15 window bits, so a zlib header, inflate to Z_STREAM_END) and
 * zstd (ZSTD_decompressDCtx, default parameters). ENet's own range coder lives in libenet (gdw_decompress_fn).
 *
 * The FastLZ reader is gdwire's own, from the format: a literal run (ctrl 0-31: ctrl + 1 bytes follow) or a
 * match (ctrl's top 3 bits: its length - 2, 7 meaning a length byte follows (level 2: bytes while 255); its low
 * 5 bits and the next byte: the distance - 1; level 2's distance 0x1FFF + 1 says a 16-bit far distance
 * follows, plus 8191). Every read and copy is bounded: a block that reads past its end, copies from before the
 * output's start or past out_cap is refused (0), as the engine's safe decoder refuses it. One difference: a block
 * whose last byte is a match's control byte makes fastlz.c read one byte past the block (its code byte), and
 * accept or refuse by what lies there; gdwire refuses it. */
#include "session.h"

#include <string.h>

#ifdef GDW_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef GDW_HAVE_ZSTD
#include <pthread.h>
#include <zstd.h>
#endif

static const char *const k_compression_name[] = {"none", "range_coder", "fastlz", "zlib", "zstd"};

const char *gdw_enet_compression_name(gdw_enet_compression c) {
    return (unsigned)c < sizeof k_compression_name / sizeof *k_compression_name ? k_compression_name[c] : "";
}

bool gdw_enet_compression_built(gdw_enet_compression c) {
    switch (c) {
    case GDW_ENET_COMPRESS_FASTLZ: return true;
#ifdef GDW_HAVE_ZLIB
    case GDW_ENET_COMPRESS_ZLIB: return true;
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_ENET_COMPRESS_ZSTD: return true;
#endif
    default: return false;
    }
}

/* FastLZ, levels 1 and 2 (the level in the first byte's top 3 bits: 0 is level 1, 1 level 2). The block is read
 * through reader.h; the output is written only inside out[0..cap). */
static size_t fastlz_read(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    reader r = rd_view(in, n, 0);
    uint8_t first, ctrl;
    if (!rd_u8(&r, &first)) return 0;
    unsigned level = (first >> 5) + 1u;
    if (level > 2) return 0;
    size_t op = 0;
    ctrl = first & 31u; /* the first instruction is a literal run */
    for (;;) {
        if (ctrl >= 32) {
            size_t len = (ctrl >> 5) - 1u, dist = (size_t)(ctrl & 31u) << 8;
            if (len == 6) {
                uint8_t more;
                do {
                    if (!rd_u8(&r, &more)) return 0;
                    len += more;
                } while (level == 2 && more == 255);
            }
            uint8_t code;
            if (!rd_u8(&r, &code)) return 0;
            dist += code + 1u;
            if (level == 2 && code == 255 && dist == (31u << 8) + 256u) { /* a far match: 16 bits more */
                uint16_t far;
                if (rd_left(&r) < 3 || !rd_be16(&r, &far)) return 0; /* fastlz.c wants ip < ip_bound here: a byte past the two */
                dist = (size_t)far + 8191u + 1u;
            }
            len += 3;
            if (dist > op || len > cap - op) return 0;
            for (size_t k = 0; k < len; k++) out[op + k] = out[op + k - dist]; /* may overlap: byte by byte */
            op += len;
        } else {
            size_t run = ctrl + 1u;
            const uint8_t *literal;
            if (run > cap - op || !rd_bytes(&r, run, &literal)) return 0;
            memcpy(out + op, literal, run);
            op += run;
        }
        /* level 1 stops with fewer than 2 bytes left, level 2 with none (fastlz.c's ip_bound and ip_limit) */
        if (level == 1 ? rd_left(&r) < 2 : !rd_left(&r)) break;
        rd_u8(&r, &ctrl);
    }
    return op;
}

#ifdef GDW_HAVE_ZLIB
static size_t zlib_read(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    if (n > UINT32_MAX || cap > UINT32_MAX) return 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15) != Z_OK) return 0;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int err = inflate(&z, Z_FINISH);
    size_t total = z.total_out;
    inflateEnd(&z);
    return err == Z_STREAM_END ? total : 0;
}
#endif

#ifdef GDW_HAVE_ZSTD
/* One decompression context a thread, made at its first zstd block and kept for the thread's life (Godot keeps one
 * too, core/io/compression.cpp: current_zstd_d_ctx): a context made for each datagram cost about 20 us of the 25 a
 * small block takes. A thread-specific key frees it when its thread ends (a server with a thread per connection
 * leaked one a thread before). */
static pthread_key_t g_zstd_key;
static pthread_once_t g_zstd_once = PTHREAD_ONCE_INIT;
static bool g_zstd_key_made;

static void zstd_context_free(void *ctx) { ZSTD_freeDCtx(ctx); }
static void zstd_key_make(void) { g_zstd_key_made = pthread_key_create(&g_zstd_key, zstd_context_free) == 0; }

static size_t zstd_read(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    pthread_once(&g_zstd_once, zstd_key_make);
    ZSTD_DCtx *ctx = g_zstd_key_made ? pthread_getspecific(g_zstd_key) : NULL;
    bool kept = ctx != NULL;
    if (!ctx && !(ctx = ZSTD_createDCtx())) return 0;
    if (!kept && g_zstd_key_made && pthread_setspecific(g_zstd_key, ctx) == 0) kept = true;
    size_t r = ZSTD_decompressDCtx(ctx, out, cap, in, n);
    if (!kept) ZSTD_freeDCtx(ctx); /* no key: a context for this block only */
    return ZSTD_isError(r) ? 0 : r;
}
#endif

size_t gdw_enet_decompress(gdw_enet_compression c, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap) {
    if (!in || !out || in_len == 0 || out_cap == 0) return 0;
    switch (c) {
    case GDW_ENET_COMPRESS_FASTLZ: return fastlz_read(in, in_len, out, out_cap);
#ifdef GDW_HAVE_ZLIB
    case GDW_ENET_COMPRESS_ZLIB: return zlib_read(in, in_len, out, out_cap);
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_ENET_COMPRESS_ZSTD: return zstd_read(in, in_len, out, out_cap);
#endif
    default: return 0;
    }
}

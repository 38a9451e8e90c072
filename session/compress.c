/* SPDX-License-Identifier: MIT
 * compress.c — ENet's compressed datagrams as Godot writes them: everything after a datagram's header is
 * one block of the compressor the host was given (thirdparty/enet/protocol.c, enet_protocol_receive_incoming_commands
 * hands it to host->compressor.decompress with ENET_PROTOCOL_MAXIMUM_MTU bytes of room). Godot 4.6.3
 * modules/enet/enet_connection.cpp:473-491 and Godot 3.6.2 modules/enet/networked_multiplayer_enet.cpp:737-758
 * decompress with core/io/compression.cpp: FastLZ (fastlz_decompress, whose first byte's top 3 bits give the
 * level), zlib (MODE_DEFLATE: inflateInit2 with 15 window bits, so a zlib header, inflate to Z_STREAM_END) and
 * zstd (ZSTD_decompressDCtx, default parameters). ENet's own range coder lives in libenet (gdw_decompress_fn).
 *
 * The FastLZ reader is gdwire's own, shared with the file containers: files/fastlz.c (gdw_fastlz_decompress). */
#include "session.h"

#include "files/fastlz.h"

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
    case GDW_ENET_COMPRESS_FASTLZ: return gdw_fastlz_decompress(in, in_len, out, out_cap);
#ifdef GDW_HAVE_ZLIB
    case GDW_ENET_COMPRESS_ZLIB: return zlib_read(in, in_len, out, out_cap);
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_ENET_COMPRESS_ZSTD: return zstd_read(in, in_len, out, out_cap);
#endif
    default: return 0;
    }
}

/* SPDX-License-Identifier: MIT
 * files.c — the containers of FileAccess as the engines write them (gdwire_files.h). Every difference between
 * the engine generations is a row of a table below, with the engine source that says it:
 *
 *   3.6.2 = Godot 3.6.2-stable (Debian's godot3 3.6.2+ds source), 4.6.3 = Godot 4.6.3-stable (Debian's godot
 *   4.6.3+ds source). Godot 3.2.3's source was not at hand; its files are held to the 3.6.2 rows by the engine
 *   itself (conformance/saves/: 3.2.3 and 3.6.2 write byte-identical encrypted files).
 *
 * Encrypted (core/io/file_access_encrypted.cpp):
 *   3.6.2 :39      COMP_MAGIC 0x43454447 ("GDEC")        4.6.3 file_access_encrypted.h:36 ENCRYPTED_HEADER_MAGIC, the same
 *   3.6.2 :58-63   magic, then a mode word: MODE_WRITE_AES256 = 1 (file_access_encrypted.h:38-42), 0 refused
 *   3.6.2 :65-67   MD5 of the plain bytes (16), length (u64)
 *   4.6.3 :79-88   magic, MD5 (16), length (u64), IV (16)        (no mode word)
 *   3.6.2 :70-85   cipher text = length padded to 16, AES-256 ECB, block by block
 *   4.6.3 :92-105  cipher text = length padded to 16, AES-256 CFB (128-bit feedback) from the IV
 *   both: the file may hold more (only get_length() < base + length is refused: 3.6.2 :69, 4.6.3 :91); the MD5
 *   of the decrypted, unpadded bytes must equal the header's, else "The MD5 sum ... does not match" (3.6.2 :92,
 *   4.6.3 :113), the engine's only sign of a wrong key. The writers pad with zeros (3.6.2 :131, 4.6.3 :154)
 *   and store the magic, [mode,] MD5, length[, IV] (3.6.2 :143-147, 4.6.3 :159-165); 4.6.3 draws the IV at
 *   random (:57-68).
 *   The password's key: String::md5_text() of it, its 32 lowercase hex characters as bytes (3.6.2 :100-107,
 *   4.6.3 :121-128; core/string/ustring.cpp:2788-2793 at 4.6.3: the MD5 of the UTF-8, hex_encode_buffer).
 *
 * Compressed (core/io/file_access_compressed.cpp, the same layout in 3.6.2 and 4.6.3):
 *   magic "GCPF" (core/bind/core_bind.cpp:2058 at 3.6.2, core/io/file_access.cpp:231 at 4.6.3), then u32 mode,
 *   u32 block size, u32 total (3.6.2 :147-150, 4.6.3 :123-126); block count = total / block size + 1, so a total
 *   that is a multiple of the block size ends with an empty block (3.6.2 :151,159; 4.6.3 :127,133); one u32
 *   compressed size a block, the blocks, and the magic again at the end (3.6.2 :153-175, 4.6.3 :129-158). The
 *   reader refuses a block size of 0 (3.6.2 :65, 4.6.3 :45). Block size 4096 (file_access_compressed.h:67 at
 *   3.6.2, :69 at 4.6.3).
 *
 * Compression (core/io/compression.cpp):
 *   FastLZ: a block under 16 bytes is padded to 16 with zeros before compressing, and decompressed into 16
 *   (3.6.2 :43-51, :135-139; 4.6.3 :55-65, :165-169). Deflate: zlib with 15 window bits; gzip: 15 + 16 (3.6.2
 *   :54-56, :147; 4.6.3 :67-70, :178). Zstandard: ZSTD_compressCCtx at level 3, ZSTD_decompressDCtx (3.6.2
 *   :79-90, :169-176, :274). Brotli: 4.6.3 only, decompression only (4.6.3 :52-54, :151-159; compression.h:47-53;
 *   3.6.2's Mode ends at MODE_GZIP, compression.h:46-51). */
#include "gdwire_files.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cipher.h"
#include "fastlz.h"

#ifdef GDW_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef GDW_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef GDW_HAVE_BROTLI
#include <brotli/decode.h>
#endif
#ifdef GDW_HAVE_LIBCRYPTO
#include <openssl/evp.h>
#include <openssl/rand.h>
#endif

#define MAGIC_COMPRESSED 0x46504347u /* "GCPF" */
#define MAGIC_ENCRYPTED 0x43454447u  /* "GDEC" */

/* ---- the tables ------------------------------------------------------------------------------------------- */

typedef enum { CIPHER_ECB, CIPHER_CFB } cipher_kind;

/* One generation's encrypted layout. Offsets from the file's start; NO_FIELD where the layout has none. */
#define NO_FIELD ((size_t)-1)
typedef struct encrypted_layout {
    const char *name;
    unsigned generation;
    size_t mode_at; /* a mode word, and the one value written */
    uint32_t mode_value;
    size_t md5_at, length_at, iv_at, data_at;
    cipher_kind cipher;
    const char *described; /* as explain names the layout */
} encrypted_layout;

static const encrypted_layout k_encrypted[] = {
    /* 3.6.2 file_access_encrypted.cpp:58-85, :143-149 */
    {"encrypted-godot3", 3, 4, 1, 8, 24, NO_FIELD, 32, CIPHER_ECB, "Godot 3 (AES-256 ECB, no IV)"},
    /* 4.6.3 file_access_encrypted.cpp:78-105, :159-169 */
    {"encrypted-godot4", 4, NO_FIELD, 0, 4, 20, 28, 44, CIPHER_CFB, "Godot 4 (AES-256 CFB with an IV)"},
};
#define N_ENCRYPTED (sizeof k_encrypted / sizeof *k_encrypted)

/* The encrypted layout a generation writes, NULL for none. */
static const encrypted_layout *encrypted_row(unsigned generation) {
    for (size_t i = 0; i < N_ENCRYPTED; i++)
        if (k_encrypted[i].generation == generation) return &k_encrypted[i];
    return NULL;
}

/* One compression mode: its name, which generations read and write it (bit g for generation g). */
typedef struct compression_row {
    const char *name;
    unsigned reads, writes;
} compression_row;

#define GEN(g) (1u << (g))
static const compression_row k_compression[] = {
    [GDW_FILE_FASTLZ] = {"fastlz", GEN(3) | GEN(4), GEN(3) | GEN(4)},  /* compression.h:47 at both */
    [GDW_FILE_DEFLATE] = {"deflate", GEN(3) | GEN(4), GEN(3) | GEN(4)}, /* :48 */
    [GDW_FILE_ZSTD] = {"zstd", GEN(3) | GEN(4), GEN(3) | GEN(4)},       /* :49 */
    [GDW_FILE_GZIP] = {"gzip", GEN(3) | GEN(4), GEN(3) | GEN(4)},       /* :50 */
    [GDW_FILE_BROTLI] = {"brotli", GEN(4), 0},                           /* 4.6.3 compression.h:52; compression.cpp:52-54 */
};
#define N_COMPRESSION (sizeof k_compression / sizeof *k_compression)

/* The compressed layout, one for both generations (3.6.2 :147-175, 4.6.3 :123-158). */
enum { COMPRESSED_MODE_AT = 4, COMPRESSED_BLOCK_SIZE_AT = 8, COMPRESSED_TOTAL_AT = 12, COMPRESSED_TABLE_AT = 16 };
#define COMPRESSED_BLOCK_DEFAULT 4096u
#define FASTLZ_MIN_BLOCK 16u /* compression.cpp: blocks under 16 bytes are padded to 16 */

/* ---- small helpers ---------------------------------------------------------------------------------------- */

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }
static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
#ifdef GDW_HAVE_LIBCRYPTO /* only the encrypted writer stores a 64-bit length */
static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
#endif
static uint64_t pad16(uint64_t n) { return n % 16 ? n + 16 - n % 16 : n; }

static gdw_file_status fail(gdw_file_error *e, gdw_file_status s, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#include <stdarg.h>
static gdw_file_status fail(gdw_file_error *e, gdw_file_status s, uint64_t at, const char *fmt, ...) {
    if (e) {
        e->status = s;
        e->offset = at;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->message, sizeof e->message, fmt, ap);
        va_end(ap);
    }
    return s;
}

const char *gdw_file_compression_name(gdw_file_compression c) {
    return (unsigned)c < N_COMPRESSION ? k_compression[c].name : "";
}

bool gdw_file_compression_from_name(const char *name, gdw_file_compression *c) {
    for (unsigned i = 0; name && i < N_COMPRESSION; i++)
        if (strcmp(name, k_compression[i].name) == 0) return *c = (gdw_file_compression)i, true;
    return false;
}

static bool compression_built(gdw_file_compression c) {
    switch (c) {
    case GDW_FILE_FASTLZ: return true;
#ifdef GDW_HAVE_ZLIB
    case GDW_FILE_DEFLATE:
    case GDW_FILE_GZIP: return true;
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_FILE_ZSTD: return true;
#endif
#ifdef GDW_HAVE_BROTLI
    case GDW_FILE_BROTLI: return true;
#endif
    default: return false;
    }
}

bool gdw_file_compression_supported(gdw_file_compression c, unsigned generation, bool write) {
    if ((unsigned)c >= N_COMPRESSION || generation > 31) return false;
    return ((write ? k_compression[c].writes : k_compression[c].reads) & GEN(generation)) && compression_built(c);
}

/* ---- crypto (OpenSSL's libcrypto) ------------------------------------------------------------------------- */

#ifdef GDW_HAVE_LIBCRYPTO
static bool md5(const uint8_t *p, size_t n, uint8_t out[16]) {
    unsigned len = 0;
    return EVP_Digest(p, n, out, &len, EVP_md5(), NULL) == 1 && len == 16;
}

/* in[0..n) (n a multiple of 16) encrypted with AES-256 in the layout's mode into out (may be in): the writers. */
static bool aes_encrypt(cipher_kind kind, const uint8_t key[32], const uint8_t *iv, const uint8_t *in, uint8_t *out, size_t n) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx) return false;
    const EVP_CIPHER *c = kind == CIPHER_ECB ? EVP_aes_256_ecb() : EVP_aes_256_cfb128();
    bool ok = EVP_CipherInit_ex(ctx, c, NULL, key, iv, 1) == 1 && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
    size_t done = 0;
    while (ok && done < n) { /* EVP takes an int length: chunks of 1 GiB */
        size_t chunk = n - done < ((size_t)1 << 30) ? n - done : ((size_t)1 << 30);
        int got = 0;
        ok = EVP_CipherUpdate(ctx, out + done, &got, in + done, (int)chunk) == 1 && (size_t)got == chunk;
        done += chunk;
    }
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}
#endif

void gdw_file_key_from_password(const char *password, size_t len, uint8_t key[32]) {
    static const char hex[] = "0123456789abcdef";
    uint8_t d[16] = {0};
#ifdef GDW_HAVE_LIBCRYPTO
    md5((const uint8_t *)password, len, d);
#else
    (void)password, (void)len;
#endif
    for (int i = 0; i < 16; i++) key[2 * i] = (uint8_t)hex[d[i] >> 4], key[2 * i + 1] = (uint8_t)hex[d[i] & 15];
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool gdw_file_key_from_hex(const char *text, uint8_t key[32]) {
    if (!text || strlen(text) != 64) return false;
    for (int i = 0; i < 32; i++) {
        int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        key[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

/* ---- reading headers -------------------------------------------------------------------------------------- */

/* The compressed header and block table: fields into info; every block inside the file. */
static gdw_file_status inspect_compressed(const uint8_t *p, size_t n, gdw_file_info *info, gdw_file_error *e) {
    if (n < COMPRESSED_TABLE_AT)
        return fail(e, GDW_FILE_TRUNCATED, n, "compressed file (GCPF) ends at byte %zu inside its 16-byte header", n);
    uint32_t mode = le32(p + COMPRESSED_MODE_AT), bs = le32(p + COMPRESSED_BLOCK_SIZE_AT), total = le32(p + COMPRESSED_TOTAL_AT);
    info->container = GDW_FILE_COMPRESSED;
    info->layout = "compressed";
    info->compression = (gdw_file_compression)mode;
    info->block_size = bs;
    info->plain_len = total;
    if (mode >= N_COMPRESSION)
        return fail(e, GDW_FILE_CORRUPT, COMPRESSED_MODE_AT, "compression mode %u at byte %d is none the engines know (0-%zu)", mode,
                    COMPRESSED_MODE_AT, N_COMPRESSION - 1);
    info->generation = k_compression[mode].reads == GEN(4) ? 4 : 0; /* Brotli: only Godot 4 reads it */
    if (bs == 0) /* file_access_compressed.cpp:65 at 3.6.2, :45 at 4.6.3 */
        return fail(e, GDW_FILE_CORRUPT, COMPRESSED_BLOCK_SIZE_AT, "block size 0 at byte %d (the engines refuse it)", COMPRESSED_BLOCK_SIZE_AT);
    uint64_t blocks = (uint64_t)total / bs + 1;
    uint64_t table_end = COMPRESSED_TABLE_AT + blocks * 4;
    if (table_end > n)
        return fail(e, GDW_FILE_TRUNCATED, n, "the block table of %llu blocks (total %u, block size %u) needs bytes %d-%llu; the file ends at %zu",
                    (unsigned long long)blocks, total, bs, COMPRESSED_TABLE_AT, (unsigned long long)table_end, n);
    /* a table that fits (a file of 16 GiB and more) of block size 1 and a total of 2^32-1: the engines' uint32_t
     * count wraps to 0, and reading no block would give the whole total unwritten */
    if (blocks > UINT32_MAX)
        return fail(e, GDW_FILE_CORRUPT, COMPRESSED_TOTAL_AT, "a total of %u bytes in blocks of %u is %llu blocks, more than a 32-bit count holds",
                    total, bs, (unsigned long long)blocks);
    info->blocks = (uint32_t)blocks;
    info->header_len = table_end;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < blocks; i++) sum += le32(p + COMPRESSED_TABLE_AT + 4 * i);
    info->compressed_len = sum;
    if (sum > n - table_end)
        return fail(e, GDW_FILE_TRUNCATED, n, "the block table says %llu bytes of blocks from byte %llu; the file ends at %zu",
                    (unsigned long long)sum, (unsigned long long)table_end, n);
    uint64_t end = table_end + sum;
    info->end_magic = n - end >= 4 && le32(p + end) == MAGIC_COMPRESSED;
    info->trailing = n - end - (info->end_magic ? 4 : 0);
    return GDW_FILE_OK;
}

/* Whether p[0..n) fits row r of the encrypted table: its mode word, and its cipher text inside the file. */
static bool encrypted_fits(const encrypted_layout *r, const uint8_t *p, size_t n) {
    if (n < r->data_at) return false;
    if (r->mode_at != NO_FIELD && le32(p + r->mode_at) != r->mode_value) return false;
    uint64_t len = le64(p + r->length_at);
    return len <= UINT64_MAX - 16 && pad16(len) <= n - r->data_at;
}

static void encrypted_fields(const encrypted_layout *r, const uint8_t *p, size_t n, gdw_file_info *info) {
    info->container = GDW_FILE_ENCRYPTED;
    info->layout = r->name;
    info->generation = r->generation;
    info->has_mode_field = r->mode_at != NO_FIELD;
    info->mode_field = info->has_mode_field ? le32(p + r->mode_at) : 0;
    memcpy(info->md5, p + r->md5_at, 16);
    info->has_iv = r->iv_at != NO_FIELD;
    if (info->has_iv) memcpy(info->iv, p + r->iv_at, 16);
    info->plain_len = le64(p + r->length_at);
    info->cipher_len = pad16(info->plain_len);
    info->header_len = r->data_at;
    info->trailing = n - r->data_at - info->cipher_len;
}

/* Why no row of the table fits: the first row whose mode word (if it has one) is right and whose header is in
 * the file has a length past the file's end; with none, the file ends inside the header. */
static gdw_file_status encrypted_misfit(const uint8_t *p, size_t n, gdw_file_info *info, gdw_file_error *e) {
    info->container = GDW_FILE_ENCRYPTED;
    info->layout = "encrypted";
    for (size_t i = 0; i < N_ENCRYPTED; i++) {
        const encrypted_layout *r = &k_encrypted[i];
        if (n < r->data_at || (r->mode_at != NO_FIELD && le32(p + r->mode_at) != r->mode_value)) continue;
        uint64_t len = le64(p + r->length_at);
        return fail(e, GDW_FILE_TRUNCATED, n, "encrypted file (%s): the length at byte %zu says %llu plain bytes (%llu of cipher text from byte %zu); the file ends at %zu",
                    r->name, r->length_at, (unsigned long long)len, (unsigned long long)pad16(len), r->data_at, n);
    }
    return fail(e, GDW_FILE_TRUNCATED, n, "encrypted file (GDEC) ends at byte %zu inside its header (%zu bytes in Godot 3 with mode word 1, %zu in Godot 4)", n,
                k_encrypted[0].data_at, k_encrypted[1].data_at);
}

gdw_file_status gdw_file_inspect(const uint8_t *p, size_t n, gdw_file_info *info, gdw_file_error *e) {
    if (e) memset(e, 0, sizeof *e);
    if (!info || (!p && n)) return fail(e, GDW_FILE_BAD_ARGUMENT, 0, "no file or no info");
    memset(info, 0, sizeof *info);
    info->container = GDW_FILE_PLAIN;
    info->layout = "plain";
    info->magic = n >= 4 ? le32(p) : 0;
    info->plain_len = n;
    if (n < 4) return GDW_FILE_OK;
    if (info->magic == MAGIC_COMPRESSED) return inspect_compressed(p, n, info, e);
    if (info->magic != MAGIC_ENCRYPTED) return GDW_FILE_OK;
    for (size_t i = 0; i < N_ENCRYPTED; i++)
        if (encrypted_fits(&k_encrypted[i], p, n)) return encrypted_fields(&k_encrypted[i], p, n, info), GDW_FILE_OK;
    return encrypted_misfit(p, n, info, e);
}

/* ---- opening ---------------------------------------------------------------------------------------------- */

/* What a file's blocks are decompressed with, made once a file (a context a block made many blocks of a few bytes
 * cost microseconds each: the time stays linear in the file, with a small constant). */
typedef struct block_reader {
    gdw_file_compression c;
#ifdef GDW_HAVE_ZSTD
    ZSTD_DCtx *zstd;
#endif
#ifdef GDW_HAVE_ZLIB
    z_stream z;
    bool z_ready;
#endif
} block_reader;

static void block_reader_end(block_reader *r) {
#ifdef GDW_HAVE_ZSTD
    ZSTD_freeDCtx(r->zstd);
#endif
#ifdef GDW_HAVE_ZLIB
    if (r->z_ready) inflateEnd(&r->z);
#endif
    (void)r;
}

/* One block: in[0..n) to exactly want bytes at out (room for at least max(want, 16) bytes when FastLZ). Returns
 * whether it did. */
static bool block_decompress(block_reader *r, const uint8_t *in, size_t n, uint8_t *out, size_t want, size_t room) {
    switch (r->c) {
    case GDW_FILE_FASTLZ: {
        size_t got = n ? gdw_fastlz_decompress(in, n, out, room) : 0;
        return want < FASTLZ_MIN_BLOCK ? got == FASTLZ_MIN_BLOCK : got == want; /* compression.cpp: short blocks padded to 16 */
    }
#ifdef GDW_HAVE_ZLIB
    case GDW_FILE_DEFLATE:
    case GDW_FILE_GZIP: {
        if (n > UINT32_MAX || want > UINT32_MAX) return false;
        int bits = r->c == GDW_FILE_DEFLATE ? 15 : 15 + 16; /* compression.cpp: zlib's header, or gzip's */
        if (r->z_ready ? inflateReset(&r->z) != Z_OK : (r->z_ready = inflateInit2(&r->z, bits) == Z_OK) == false) return false;
        r->z.next_in = (Bytef *)(uintptr_t)in;
        r->z.avail_in = (uInt)n;
        r->z.next_out = out;
        r->z.avail_out = (uInt)want;
        int err = inflate(&r->z, Z_FINISH);
        return err == Z_STREAM_END && r->z.total_out == want;
    }
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_FILE_ZSTD: {
        size_t got = ZSTD_decompressDCtx(r->zstd, out, want, in, n);
        return !ZSTD_isError(got) && got == want;
    }
#endif
#ifdef GDW_HAVE_BROTLI
    case GDW_FILE_BROTLI: {
        size_t got = want;
        return BrotliDecoderDecompress(n, in, &got, out) == BROTLI_DECODER_RESULT_SUCCESS && got == want;
    }
#endif
    default: (void)in, (void)n, (void)out, (void)want, (void)room; return false;
    }
}

static gdw_file_status open_compressed(const uint8_t *p, size_t n, const gdw_file_info *info, uint8_t *out, gdw_file_error *e) {
    (void)n;
    gdw_file_compression c = info->compression;
    if (!compression_built(c))
        return fail(e, GDW_FILE_UNSUPPORTED, COMPRESSED_MODE_AT, "compression mode %s (%u) at byte %d: this build of gdwire has no %s library",
                    gdw_file_compression_name(c), (unsigned)c, COMPRESSED_MODE_AT, gdw_file_compression_name(c));
    block_reader r;
    memset(&r, 0, sizeof r);
    r.c = c;
#ifdef GDW_HAVE_ZSTD
    if (c == GDW_FILE_ZSTD && !(r.zstd = ZSTD_createDCtx())) return fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory");
#endif
    gdw_file_status st = GDW_FILE_OK;
    uint8_t scratch[FASTLZ_MIN_BLOCK];
    uint64_t at = info->header_len;
    for (uint32_t i = 0; i < info->blocks; i++) {
        size_t csize = le32(p + COMPRESSED_TABLE_AT + 4 * (size_t)i);
        size_t want = i + 1 == info->blocks ? info->plain_len % info->block_size : info->block_size;
        size_t off = (size_t)i * info->block_size;
        bool small = c == GDW_FILE_FASTLZ && want < FASTLZ_MIN_BLOCK;
        uint8_t *dst = small ? scratch : out + off;
        /* an empty last block (a total that is a multiple of the block size) is never decompressed by the engine:
         * get_buffer returns once it has what was asked (4.6.3 file_access_compressed.cpp:275-277), so whatever
         * its bytes are, the engines read the file */
        bool ok = want == 0 || block_decompress(&r, p + at, csize, dst, want, small ? sizeof scratch : want);
        if (!ok) {
            st = fail(e, GDW_FILE_CORRUPT, at, "block %u of %u (%zu bytes at byte %llu) does not decompress with %s to its %zu bytes", i + 1,
                      info->blocks, csize, (unsigned long long)at, gdw_file_compression_name(c), want);
            break;
        }
        if (small) memcpy(out + off, scratch, want);
        at += csize;
    }
    block_reader_end(&r);
    return st;
}

#ifdef GDW_HAVE_LIBCRYPTO
/* in[0..n) (n a multiple of 16, in and out apart) decrypted into out. ECB: AES-256 decryption block by block. CFB
 * (128-bit feedback): plain block i = cipher block i XOR AES-256-encrypt(cipher block i - 1), the IV before the
 * first; so the encryptions are one ECB encryption of the cipher text shifted by a block, which runs 4-8 blocks at
 * a time with AES instructions where the chained CFB call runs one. */
bool gdw_files_decrypt(bool cfb, const uint8_t key[32], const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t n) {
    if (n % 16 || n > INT_MAX) return false;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int got = 0, got0 = 0;
    bool ok = c && EVP_CipherInit_ex(c, EVP_aes_256_ecb(), NULL, key, NULL, cfb ? 1 : 0) == 1 && EVP_CIPHER_CTX_set_padding(c, 0) == 1;
    if (ok && !cfb) ok = !n || (EVP_CipherUpdate(c, out, &got, in, (int)n) == 1 && (size_t)got == n);
    if (ok && cfb && n) {
        ok = EVP_CipherUpdate(c, out, &got0, iv, 16) == 1 && got0 == 16 &&
             (n == 16 || (EVP_CipherUpdate(c, out + 16, &got, in, (int)(n - 16)) == 1 && (size_t)got == n - 16));
        for (size_t i = 0; ok && i < n; i++) out[i] ^= in[i];
    }
    EVP_CIPHER_CTX_free(c);
    return ok;
}

/* in[0..n) decrypted into out, and the MD5 of its first plain_n bytes, a MiB at a time: each piece is hashed while
 * it is still in the cache (one pass over memory, not two). */
static bool decrypt_md5(cipher_kind kind, const uint8_t key[32], const uint8_t *iv, const uint8_t *in, uint8_t *out, size_t n, size_t plain_n,
                        uint8_t sum[16]) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    bool ok = m && EVP_DigestInit_ex(m, EVP_md5(), NULL) == 1;
    for (size_t done = 0; ok && done < n;) {
        size_t chunk = n - done < ((size_t)1 << 20) ? n - done : ((size_t)1 << 20);
        ok = gdw_files_decrypt(kind == CIPHER_CFB, key, done ? in + done - 16 : iv, in + done, out + done, chunk); /* CFB: the previous block is the IV */
        size_t hashed = done < plain_n ? (plain_n - done < chunk ? plain_n - done : chunk) : 0;
        ok = ok && EVP_DigestUpdate(m, out + done, hashed) == 1;
        done += chunk;
    }
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(m, sum, &len) == 1 && len == 16;
    EVP_MD_CTX_free(m);
    return ok;
}
#endif

/* The plain bytes of an encrypted file into *out (malloc'ed, its cipher length). */
static gdw_file_status open_encrypted(const uint8_t *p, size_t n, const gdw_file_options *o, gdw_file_info *info, uint8_t **out,
                                      gdw_file_error *e) {
#ifndef GDW_HAVE_LIBCRYPTO
    (void)p, (void)n, (void)o, (void)info, (void)out;
    return fail(e, GDW_FILE_UNSUPPORTED, 0, "an encrypted file: this build of gdwire has no AES (OpenSSL's libcrypto)");
#else
    /* each row the bytes fit, in table order: the MD5 decides (a Godot 4 MD5 whose first word is 1 fits both) */
    uint64_t cap = o->max_plain ? o->max_plain : GDW_FILE_MAX_PLAIN_DEFAULT, room = 0;
    for (size_t i = 0; i < N_ENCRYPTED; i++)
        if (encrypted_fits(&k_encrypted[i], p, n) && le64(p + k_encrypted[i].length_at) <= cap && pad16(le64(p + k_encrypted[i].length_at)) > room)
            room = pad16(le64(p + k_encrypted[i].length_at)); /* at most the file's length */
    uint8_t *buf = malloc(room ? (size_t)room : 1);
    if (!buf) return fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory for %llu bytes", (unsigned long long)room);
    for (size_t i = 0; i < N_ENCRYPTED; i++) {
        const encrypted_layout *r = &k_encrypted[i];
        if (!encrypted_fits(r, p, n)) continue;
        gdw_file_info row;
        memset(&row, 0, sizeof row);
        row.magic = info->magic;
        encrypted_fields(r, p, n, &row);
        if (row.plain_len > cap) continue; /* the caller said so for the first row */
        uint8_t iv[16], sum[16];
        if (row.has_iv) memcpy(iv, row.iv, 16);
        if (!decrypt_md5(r->cipher, o->key, row.has_iv ? iv : NULL, p + r->data_at, buf, row.cipher_len, row.plain_len, sum)) {
            free(buf);
            return fail(e, GDW_FILE_NO_MEMORY, r->data_at, "libcrypto failed (AES-256 or MD5)");
        }
        if (memcmp(sum, row.md5, 16) == 0) {
            *out = buf;
            *info = row;
            return GDW_FILE_OK;
        }
    }
    free(buf);
    const encrypted_layout *said = encrypted_row(info->generation);
    size_t md5_at = said ? said->md5_at : k_encrypted[N_ENCRYPTED - 1].md5_at;
    return fail(e, GDW_FILE_WRONG_KEY, md5_at,
                "wrong password or key (or a damaged file): the MD5 of the decrypted bytes is not the one at byte %zu, as the engine would say", md5_at);
#endif
}

gdw_file_status gdw_file_open(const uint8_t *p, size_t n, const gdw_file_options *o, gdw_file_info *info_out, uint8_t **plain,
                              size_t *plain_len, gdw_file_error *e) {
    gdw_file_info local, *info = info_out ? info_out : &local;
    if (plain) *plain = NULL;
    if (plain_len) *plain_len = 0;
    if (!plain || !plain_len) return fail(e, GDW_FILE_BAD_ARGUMENT, 0, "nowhere to put the plain bytes");
    gdw_file_status st = gdw_file_inspect(p, n, info, e);
    if (st) return st;
    if (info->container == GDW_FILE_ENCRYPTED && (!o || !o->key))
        return fail(e, GDW_FILE_NEED_KEY, 0, "an encrypted file (%s): give its password or key", info->layout);
    uint64_t cap = o && o->max_plain ? o->max_plain : GDW_FILE_MAX_PLAIN_DEFAULT;
    if (info->container != GDW_FILE_PLAIN && info->plain_len > cap)
        return fail(e, GDW_FILE_TOO_BIG, info->container == GDW_FILE_COMPRESSED ? COMPRESSED_TOTAL_AT : 0,
                    "the header says %llu plain bytes, over the cap of %llu (raise it: max_plain, --max-plain)", (unsigned long long)info->plain_len,
                    (unsigned long long)cap);
    if (info->plain_len > SIZE_MAX - 16) return fail(e, GDW_FILE_TOO_BIG, 0, "too big for this machine");
    uint8_t *out = NULL;
    if (info->container == GDW_FILE_ENCRYPTED) {
        st = open_encrypted(p, n, o, info, &out, e);
    } else {
        out = malloc(info->plain_len ? (size_t)info->plain_len : 1);
        if (!out) return fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory for %llu plain bytes", (unsigned long long)info->plain_len);
        if (info->container == GDW_FILE_PLAIN) memcpy(out, p, n), st = GDW_FILE_OK;
        else st = open_compressed(p, n, info, out, e);
    }
    if (st) return free(out), st;
    *plain = out;
    *plain_len = (size_t)info->plain_len;
    return GDW_FILE_OK;
}

/* ---- writing ---------------------------------------------------------------------------------------------- */

/* The most bytes one block of n bytes can take in mode c. */
static size_t block_bound(gdw_file_compression c, size_t n) {
    switch (c) {
    case GDW_FILE_FASTLZ: return gdw_fastlz_bound(n < FASTLZ_MIN_BLOCK ? FASTLZ_MIN_BLOCK : n);
#ifdef GDW_HAVE_ZLIB
    case GDW_FILE_DEFLATE: return compressBound((uLong)n) + 16;
    case GDW_FILE_GZIP: return compressBound((uLong)n) + 32; /* the gzip header and trailer over zlib's */
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_FILE_ZSTD: return ZSTD_compressBound(n);
#endif
    default: return 0;
    }
}

/* One block as Compression::compress writes it (compression.cpp; the FastLZ blocks are literal runs, see
 * fastlz.h): its length, or 0 on failure. */
static size_t block_compress(gdw_file_compression c, void *zstd_ctx, const uint8_t *in, size_t n, uint8_t *out, size_t room) {
    (void)zstd_ctx, (void)room;
    switch (c) {
    case GDW_FILE_FASTLZ: {
        if (n >= FASTLZ_MIN_BLOCK) return gdw_fastlz_compress(in, n, out);
        uint8_t padded[FASTLZ_MIN_BLOCK] = {0}; /* compression.cpp: padded to 16 with zeros */
        if (n) memcpy(padded, in, n);
        return gdw_fastlz_compress(padded, sizeof padded, out);
    }
#ifdef GDW_HAVE_ZLIB
    case GDW_FILE_DEFLATE:
    case GDW_FILE_GZIP: {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, c == GDW_FILE_DEFLATE ? 15 : 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
        z.next_in = (Bytef *)(uintptr_t)in;
        z.avail_in = (uInt)n;
        z.next_out = out;
        z.avail_out = (uInt)room;
        int err = deflate(&z, Z_FINISH);
        size_t got = z.total_out;
        deflateEnd(&z);
        return err == Z_STREAM_END ? got : 0;
    }
#endif
#ifdef GDW_HAVE_ZSTD
    case GDW_FILE_ZSTD: {
        size_t r = ZSTD_compressCCtx(zstd_ctx, out, room, in, n, 3); /* compression.cpp: zstd_level = 3 */
        return ZSTD_isError(r) ? 0 : r;
    }
#endif
    default: return 0;
    }
}

static gdw_file_status write_compressed(const gdw_file_spec *s, const uint8_t *plain, size_t n, uint8_t **out, size_t *out_len, gdw_file_error *e) {
    gdw_file_compression c = s->compression;
    if (!gdw_file_compression_supported(c, s->generation, true))
        return fail(e, GDW_FILE_UNSUPPORTED, 0, "Godot %u does not write compression mode %s (%u)%s", s->generation, gdw_file_compression_name(c), (unsigned)c,
                    (unsigned)c < N_COMPRESSION && (k_compression[c].writes & GEN(s->generation)) ? " with this build of gdwire" : "");
    if (n > UINT32_MAX) return fail(e, GDW_FILE_TOO_BIG, 0, "%zu bytes: a compressed file holds at most 4 GiB - 1 (its total is 32 bits)", n);
    uint32_t bs = s->block_size ? s->block_size : COMPRESSED_BLOCK_DEFAULT;
    size_t blocks = n / bs + 1, last = n % bs;
    size_t bound = COMPRESSED_TABLE_AT + 4 * blocks + 4;
    for (size_t i = 0; i < blocks; i++) bound += block_bound(c, i + 1 == blocks ? last : bs);
    uint8_t *buf = malloc(bound);
    if (!buf) return fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory for %zu bytes", bound);
    void *zctx = NULL;
#ifdef GDW_HAVE_ZSTD
    if (c == GDW_FILE_ZSTD && !(zctx = ZSTD_createCCtx())) return free(buf), fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory");
#endif
    put32(buf, MAGIC_COMPRESSED);
    put32(buf + COMPRESSED_MODE_AT, (uint32_t)c);
    put32(buf + COMPRESSED_BLOCK_SIZE_AT, bs);
    put32(buf + COMPRESSED_TOTAL_AT, (uint32_t)n);
    size_t at = COMPRESSED_TABLE_AT + 4 * blocks;
    gdw_file_status st = GDW_FILE_OK;
    for (size_t i = 0; i < blocks; i++) {
        size_t len = i + 1 == blocks ? last : bs;
        size_t got = block_compress(c, zctx, plain + i * bs, len, buf + at, bound - at);
        if (!got || got > UINT32_MAX) {
            st = fail(e, GDW_FILE_CORRUPT, i * bs, "block %zu did not compress with %s", i + 1, gdw_file_compression_name(c));
            break;
        }
        put32(buf + COMPRESSED_TABLE_AT + 4 * i, (uint32_t)got);
        at += got;
    }
#ifdef GDW_HAVE_ZSTD
    ZSTD_freeCCtx(zctx);
#endif
    if (st) return free(buf), st;
    put32(buf + at, MAGIC_COMPRESSED); /* the magic again at the end */
    *out = buf;
    *out_len = at + 4;
    return GDW_FILE_OK;
}

static gdw_file_status write_encrypted(const gdw_file_spec *s, const uint8_t *plain, size_t n, uint8_t **out, size_t *out_len, gdw_file_error *e) {
#ifndef GDW_HAVE_LIBCRYPTO
    (void)s, (void)plain, (void)n, (void)out, (void)out_len;
    return fail(e, GDW_FILE_UNSUPPORTED, 0, "an encrypted file: this build of gdwire has no AES (OpenSSL's libcrypto)");
#else
    const encrypted_layout *r = encrypted_row(s->generation);
    if (!r) return fail(e, GDW_FILE_UNSUPPORTED, 0, "no encrypted layout for Godot %u", s->generation);
    if (!s->key) return fail(e, GDW_FILE_NEED_KEY, 0, "an encrypted file needs a password or key");
    uint64_t clen = pad16(n);
    if (clen > SIZE_MAX - r->data_at) return fail(e, GDW_FILE_TOO_BIG, 0, "too big");
    uint8_t *buf = calloc(1, r->data_at + clen);
    if (!buf) return fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory");
    uint8_t iv[16];
    bool ok = true;
    if (r->iv_at != NO_FIELD) {
        if (s->iv) memcpy(iv, s->iv, 16);
        else ok = RAND_bytes(iv, 16) == 1; /* 4.6.3 :57-68: a fresh random IV */
        memcpy(buf + r->iv_at, iv, 16);
    }
    put32(buf, MAGIC_ENCRYPTED);
    if (r->mode_at != NO_FIELD) put32(buf + r->mode_at, r->mode_value);
    put64(buf + r->length_at, n);
    ok = ok && md5(plain, n, buf + r->md5_at);
    if (n) memcpy(buf + r->data_at, plain, n); /* zero padding: calloc */
    ok = ok && aes_encrypt(r->cipher, s->key, r->iv_at != NO_FIELD ? iv : NULL, buf + r->data_at, buf + r->data_at, clen);
    if (!ok) return free(buf), fail(e, GDW_FILE_NO_MEMORY, 0, "libcrypto failed (AES-256, MD5 or the random IV)");
    *out = buf;
    *out_len = r->data_at + clen;
    return GDW_FILE_OK;
#endif
}

gdw_file_status gdw_file_write(const gdw_file_spec *s, const uint8_t *plain, size_t n, uint8_t **out, size_t *out_len, gdw_file_error *e) {
    if (e) memset(e, 0, sizeof *e);
    if (out) *out = NULL;
    if (out_len) *out_len = 0;
    if (!s || !out || !out_len || (!plain && n)) return fail(e, GDW_FILE_BAD_ARGUMENT, 0, "no spec, input or output");
    if (s->generation != 3 && s->generation != 4) return fail(e, GDW_FILE_BAD_ARGUMENT, 0, "generation %u: 3 or 4", s->generation);
    switch (s->container) {
    case GDW_FILE_PLAIN: {
        uint8_t *buf = malloc(n ? n : 1);
        if (!buf) return fail(e, GDW_FILE_NO_MEMORY, 0, "out of memory");
        if (n) memcpy(buf, plain, n);
        *out = buf;
        *out_len = n;
        return GDW_FILE_OK;
    }
    case GDW_FILE_COMPRESSED: return write_compressed(s, plain, n, out, out_len, e);
    case GDW_FILE_ENCRYPTED: return write_encrypted(s, plain, n, out, out_len, e);
    }
    return fail(e, GDW_FILE_BAD_ARGUMENT, 0, "no such container");
}

/* ---- describing ------------------------------------------------------------------------------------------- */

static void hex16(const uint8_t *p, char out[33]) {
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", p[i]);
}

void gdw_file_describe(const gdw_file_info *info, char *out, size_t cap) {
    if (!cap) return;
    size_t o = 0;
#define SAY(...) (o += (size_t)snprintf(out + (o < cap ? o : cap - 1), o < cap ? cap - o : 1, __VA_ARGS__))
    out[0] = 0;
    if (info->container == GDW_FILE_PLAIN) {
        SAY("container: plain (%llu bytes)\n", (unsigned long long)info->plain_len);
    } else if (info->container == GDW_FILE_COMPRESSED) {
        bool godot4_only = (unsigned)info->compression < N_COMPRESSION && k_compression[info->compression].reads == GEN(4);
        SAY("container: compressed (FileAccessCompressed), written alike by %s\n", godot4_only ? "Godot 4 only" : "Godot 3 and 4");
        SAY("  bytes 0-3    magic \"GCPF\"\n");
        SAY("  bytes 4-7    mode %u (%s)\n", (unsigned)info->compression, gdw_file_compression_name(info->compression));
        SAY("  bytes 8-11   block size %u\n", info->block_size);
        SAY("  bytes 12-15  total %llu plain bytes\n", (unsigned long long)info->plain_len);
        SAY("  bytes 16-%llu  block table: %u compressed sizes, %llu bytes of blocks from byte %llu\n", (unsigned long long)info->header_len - 1,
            info->blocks, (unsigned long long)info->compressed_len, (unsigned long long)info->header_len);
        SAY("  end magic    %s\n", info->end_magic ? "\"GCPF\"" : "absent");
    } else {
        char md5s[33], ivs[33];
        hex16(info->md5, md5s);
        hex16(info->iv, ivs);
        const encrypted_layout *r = encrypted_row(info->generation);
        if (!r) r = &k_encrypted[N_ENCRYPTED - 1]; /* an info gdw_file_inspect did not fill */
        SAY("container: encrypted (FileAccessEncrypted), %s layout\n", r->described);
        SAY("  bytes 0-3    magic \"GDEC\"\n");
        if (r->mode_at != NO_FIELD) SAY("  bytes %zu-%zu    mode %u\n", r->mode_at, r->mode_at + 3, info->mode_field);
        SAY("  bytes %zu-%zu   MD5 of the plain bytes %s\n", r->md5_at, r->md5_at + 15, md5s);
        SAY("  bytes %zu-%zu  length %llu\n", r->length_at, r->length_at + 7, (unsigned long long)info->plain_len);
        if (r->iv_at != NO_FIELD) SAY("  bytes %zu-%zu  IV %s\n", r->iv_at, r->iv_at + 15, ivs);
        SAY("  bytes %llu-   %llu bytes of cipher text\n", (unsigned long long)info->header_len, (unsigned long long)info->cipher_len);
    }
    if (info->trailing) SAY("  %llu bytes after the end the header says (the engines ignore them)\n", (unsigned long long)info->trailing);
#undef SAY
}

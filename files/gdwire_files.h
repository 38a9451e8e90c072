/* SPDX-License-Identifier: MIT */
/* gdwire_files.h — the files Godot games keep (files/README.md): FileAccess.store_var files plain, compressed
 * (FileAccess.open_compressed: FastLZ, Deflate, Zstandard, gzip, and Brotli read-only) and encrypted
 * (FileAccess.open_encrypted / open_encrypted_with_pass: Godot 3's AES-256 ECB layout and Godot 4's CFB layout
 * with an IV), found by their magic words, opened to the plain bytes inside and written as each engine writes
 * them. The plain bytes are what `--framing file` reads (gdw_frame_read with GDW_FRAMING_FILE).
 *
 * Every reader is bounded: a header is checked against the file's length before anything is allocated, a
 * compressed file's blocks against its declared total, and the total against a cap (max_plain) the caller can
 * raise; memory is the file plus the plain bytes. Errors are values with the byte offset they concern, and on
 * failure nothing is returned (no partial plain bytes).
 *
 * The secret comes from the caller only: nothing here looks for keys anywhere. */
#ifndef GDWIRE_FILES_H
#define GDWIRE_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire.h" /* GDW_API */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gdw_file_container {
    GDW_FILE_PLAIN,      /* store_var's bytes as they are */
    GDW_FILE_COMPRESSED, /* FileAccessCompressed: "GCPF" */
    GDW_FILE_ENCRYPTED,  /* FileAccessEncrypted: "GDEC" */
} gdw_file_container;

/* Compression::Mode, as the file's mode field holds it (core/io/compression.h). */
typedef enum gdw_file_compression {
    GDW_FILE_FASTLZ = 0,
    GDW_FILE_DEFLATE = 1,
    GDW_FILE_ZSTD = 2,
    GDW_FILE_GZIP = 3,
    GDW_FILE_BROTLI = 4, /* Godot 4 reads it; no engine writes it */
} gdw_file_compression;

typedef enum gdw_file_status {
    GDW_FILE_OK,
    GDW_FILE_TRUNCATED,   /* the file ends inside a header, a block table, a block or the cipher text */
    GDW_FILE_CORRUPT,     /* a field no engine writes, or a block that does not decompress to its size */
    GDW_FILE_NEED_KEY,    /* an encrypted file and no key given (its header is read: gdw_file_info) */
    GDW_FILE_WRONG_KEY,   /* the MD5 of the decrypted bytes is not the header's: the engine's own check */
    GDW_FILE_TOO_BIG,     /* the declared plain size is over max_plain */
    GDW_FILE_UNSUPPORTED, /* a mode this build or this generation does not read or write */
    GDW_FILE_NO_MEMORY,
    GDW_FILE_BAD_ARGUMENT,
} gdw_file_status;

typedef struct gdw_file_error {
    gdw_file_status status;
    uint64_t offset;    /* the byte of the file the error concerns */
    char message[240];  /* a sentence, naming the field and the offset */
} gdw_file_error;

/* The cap on a file's plain bytes unless the caller sets one (gdw_file_options.max_plain): 256 MiB. */
#define GDW_FILE_MAX_PLAIN_DEFAULT ((uint64_t)256 << 20)

typedef struct gdw_file_options {
    const uint8_t *key;  /* 32 bytes (gdw_file_key_from_password, gdw_file_key_from_hex), or NULL */
    uint64_t max_plain;  /* the most plain bytes a file may declare; 0: GDW_FILE_MAX_PLAIN_DEFAULT */
} gdw_file_options;

/* A file's container and header fields, as gdw_file_inspect / gdw_file_open read them. */
typedef struct gdw_file_info {
    gdw_file_container container;
    unsigned generation;       /* 3 or 4 where the bytes say which engine generation wrote them; 0 where both write alike */
    const char *layout;        /* the table row that read it: "plain", "compressed", "encrypted-godot3", "encrypted-godot4" */
    uint32_t magic;            /* the first 4 bytes, little-endian */
    uint64_t header_len;       /* bytes before the data (the blocks, or the cipher text) */
    uint64_t plain_len;        /* the plain bytes inside */
    /* compressed */
    gdw_file_compression compression;
    uint32_t block_size, blocks;
    uint64_t compressed_len;   /* the blocks' bytes, by the block table */
    bool end_magic;            /* the magic word again after the last block, as the engines write it */
    /* encrypted */
    bool has_mode_field;       /* Godot 3: a mode word after the magic */
    uint32_t mode_field;
    uint8_t md5[16];           /* the MD5 of the plain bytes */
    bool has_iv;               /* Godot 4: a 16-byte IV (AES-CFB); Godot 3: none (AES-ECB) */
    uint8_t iv[16];
    uint64_t cipher_len;       /* the plain length padded to 16 */
    uint64_t trailing;         /* bytes after what the header says (the engines ignore them) */
} gdw_file_info;

/* Which container p[0..n) is, by its magic word, and its header fields; no key is needed and nothing is
 * decrypted or decompressed. A file whose first word is neither magic is GDW_FILE_PLAIN. */
GDW_API gdw_file_status gdw_file_inspect(const uint8_t *p, size_t n, gdw_file_info *info, gdw_file_error *err);

/* The plain bytes inside p[0..n): *plain (malloc'ed, free() it) and *plain_len; for a plain file a copy.
 * info (may be NULL) gets the header fields. On failure *plain is NULL and err says why and where. */
GDW_API gdw_file_status gdw_file_open(const uint8_t *p, size_t n, const gdw_file_options *o, gdw_file_info *info, uint8_t **plain,
                              size_t *plain_len, gdw_file_error *err);

/* What to write. */
typedef struct gdw_file_spec {
    gdw_file_container container;
    unsigned generation;              /* 3 or 4: the layout of an encrypted file, the modes a compressed one may use */
    gdw_file_compression compression; /* compressed */
    uint32_t block_size;              /* compressed: 0 = 4096, FileAccessCompressed::configure's default */
    const uint8_t *key;               /* encrypted: 32 bytes */
    const uint8_t *iv;                /* encrypted, Godot 4: 16 bytes, or NULL for fresh random ones */
} gdw_file_spec;

/* plain[0..n) in the container s names, as that generation's engine writes it: *out (malloc'ed). */
GDW_API gdw_file_status gdw_file_write(const gdw_file_spec *s, const uint8_t *plain, size_t n, uint8_t **out, size_t *out_len,
                               gdw_file_error *err);

/* open_encrypted_with_pass's key: the 32 ASCII characters of the password's MD5 in lowercase hex
 * (String::md5_text over the password's UTF-8). */
GDW_API void gdw_file_key_from_password(const char *password, size_t len, uint8_t key[32]);
/* 64 hex digits to the 32 bytes open_encrypted takes; false if text is not exactly that. */
GDW_API bool gdw_file_key_from_hex(const char *text, uint8_t key[32]);

/* "fastlz", "deflate", "zstd", "gzip", "brotli"; "" for another value. */
GDW_API const char *gdw_file_compression_name(gdw_file_compression c);
/* The mode a name says (the names above); false if none. */
GDW_API bool gdw_file_compression_from_name(const char *name, gdw_file_compression *c);
/* Whether generation 3 or 4 writes (write) or reads (!write) mode c, and this build has its library. */
GDW_API bool gdw_file_compression_supported(gdw_file_compression c, unsigned generation, bool write);

/* The header fields as lines of text ("container: compressed\nmode: zstd (2)\n..."), into out (NUL-terminated,
 * cut at cap). */
GDW_API void gdw_file_describe(const gdw_file_info *info, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif

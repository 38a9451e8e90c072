/* SPDX-License-Identifier: MIT */
/* files_read — the file containers' read path timed (bench/saves_bench.py, docs/performance.md):
 *   files_read [--password P | --key HEX] -d DIALECT FILE...
 *       each FILE opened (gdw_file_open: decrypted or decompressed, the MD5 checked) and every store_var value in
 *       it decoded to a document (gdw_decode, as get_var makes Variants): one JSON line each, with the open and
 *       decode times in ms (the best of 3) and how many values.
 *   files_read --aes MB
 *       AES-256 decryption alone over MB megabytes: gdwire's (files/cipher.h: Godot 4's CFB as one ECB pass and an
 *       XOR, Godot 3's ECB), libcrypto's own chained CFB128 and ECB calls beside it, and MD5 (the engines'
 *       integrity check): MB/s, the best of 3.
 * Build with -c opt. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "codec/gdwire.h"
#include "files/cipher.h"
#include "files/gdwire_files.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint8_t *read_all(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(len > 0 ? (size_t)len : 1);
    *n = p ? fread(p, 1, (size_t)len, f) : 0;
    fclose(f);
    return p;
}

/* gdwire's own decryption (files/cipher.h: CFB as one ECB pass and an XOR; ECB), from buf into out. */
static double gdwire_mb_s(bool cfb, const uint8_t *buf, uint8_t *out, size_t n) {
    static const uint8_t key[32] = {1, 2, 3}, iv[16] = {4, 5, 6};
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now_ms();
        if (!gdw_files_decrypt(cfb, key, iv, buf, out, n)) return 0;
        double t = now_ms() - t0;
        if (t < best) best = t;
    }
    return n / 1e6 / (best / 1e3);
}

static double aes_mb_s(const EVP_CIPHER *c, uint8_t *buf, size_t n) {
    static const uint8_t key[32] = {1, 2, 3}, iv[16] = {4, 5, 6};
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        double t0 = now_ms();
        int got = 0;
        EVP_CipherInit_ex(ctx, c, NULL, key, iv, 0);
        EVP_CIPHER_CTX_set_padding(ctx, 0);
        EVP_CipherUpdate(ctx, buf, &got, buf, (int)n);
        double t = now_ms() - t0;
        EVP_CIPHER_CTX_free(ctx);
        if (t < best) best = t;
    }
    return n / 1e6 / (best / 1e3);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--aes") == 0) {
        size_t n = (size_t)atoi(argv[2]) * 1000000u / 16 * 16;
        uint8_t *buf = calloc(1, n), *out = calloc(1, n), d[16];
        if (!buf || !out) return 2;
        printf("{\"gdwire_cfb_decrypt_mb_s\":%.0f,\"gdwire_ecb_decrypt_mb_s\":%.0f,", gdwire_mb_s(true, buf, out, n), gdwire_mb_s(false, buf, out, n));
        printf("\"evp_cfb_decrypt_mb_s\":%.0f,\"evp_ecb_decrypt_mb_s\":%.0f,", aes_mb_s(EVP_aes_256_cfb128(), buf, n), aes_mb_s(EVP_aes_256_ecb(), buf, n));
        free(out);
        double best = 1e30;
        for (int r = 0; r < 3; r++) {
            double t0 = now_ms();
            unsigned len = 0;
            EVP_Digest(buf, n, d, &len, EVP_md5(), NULL);
            double t = now_ms() - t0;
            if (t < best) best = t;
        }
        printf("\"md5_mb_s\":%.0f,\"mb\":%.1f}\n", n / 1e6 / (best / 1e3), n / 1e6);
        free(buf);
        return 0;
    }
    uint8_t key[32];
    bool have_key = false;
    const gdw_dialect *d = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--password") == 0 && i + 1 < argc) gdw_file_key_from_password(argv[i + 1], strlen(argv[i + 1]), key), have_key = true, i++;
        else if (strcmp(argv[i], "--key") == 0 && i + 1 < argc) have_key = gdw_file_key_from_hex(argv[++i], key);
        else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) d = gdw_dialect_find(argv[++i]);
        else return fprintf(stderr, "files_read: unknown option %s\n", argv[i]), 2;
    }
    if (!d) return fprintf(stderr, "usage: files_read [--password P | --key HEX] -d DIALECT FILE... | --aes MB\n"), 2;
    int rc = 0;
    for (; i < argc; i++) {
        size_t n = 0;
        uint8_t *file = read_all(argv[i], &n);
        if (!file) { fprintf(stderr, "files_read: cannot read %s\n", argv[i]); rc = 1; continue; }
        gdw_file_options o = {have_key ? key : NULL, (uint64_t)4 << 30};
        double open_best = 1e30, decode_best = 1e30;
        size_t values = 0, plain_n = 0;
        for (int r = 0; r < 3; r++) {
            uint8_t *plain = NULL;
            gdw_file_error err;
            double t0 = now_ms();
            if (gdw_file_open(file, n, &o, NULL, &plain, &plain_n, &err)) { fprintf(stderr, "files_read: %s: %s\n", argv[i], err.message); rc = 1; break; }
            double t1 = now_ms();
            gdw_decode_options dec = gdw_decode_options_default();
            dec.borrow_input = true;
            values = 0;
            for (size_t at = 0; at + 4 <= plain_n;) {
                size_t len = (size_t)plain[at] | (size_t)plain[at + 1] << 8 | (size_t)plain[at + 2] << 16 | (size_t)plain[at + 3] << 24;
                gdw_doc *doc = NULL;
                gdw_error e;
                if (len > plain_n - at - 4 || gdw_decode(d, plain + at + 4, len, &dec, NULL, &doc, NULL, &e)) { rc = 1; break; }
                gdw_doc_free(doc);
                values++;
                at += 4 + len;
            }
            double t2 = now_ms();
            free(plain);
            if (t1 - t0 < open_best) open_best = t1 - t0;
            if (t2 - t1 < decode_best) decode_best = t2 - t1;
        }
        printf("{\"file\":\"%s\",\"file_bytes\":%zu,\"plain_bytes\":%zu,\"values\":%zu,\"open_ms\":%.1f,\"decode_ms\":%.1f}\n", argv[i], n, plain_n, values,
               open_best, decode_best);
        free(file);
    }
    return rc;
}

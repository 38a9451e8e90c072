/* SPDX-License-Identifier: MIT */
/* files_test — the file containers (files/gdwire_files.h) against what gdwire did not write:
 *
 * 1. The engines' own files (conformance/saves/godot3.2, godot3.6, godot4.6: Godot 3.2.3, 3.6.2 and 4.6.3 wrote a
 *    save of two store_var values plain, compressed in every mode and encrypted with a password and a key;
 *    tools/engines/saves/). Each file is opened to exactly the bytes store_var wrote: for each value the engine
 *    logged (log.jsonl, "stored" events), a 32-bit length and the engine's var_to_bytes bytes. A file the engine
 *    itself could not read back (4.6.3's Brotli file: open_compressed fails, error 16) is refused. The encrypted
 *    files with the other secret: a wrong key. Each value decodes in its generation's dialect.
 * 2. gdwire's writer against the engines' bytes where the engine is deterministic: Godot 3's encrypted files
 *    (AES-256 ECB, no IV) and Godot 4's written with a fixed IV (game.keyiv) are rewritten byte for byte.
 * 3. Hand-made bytes whose outcome is read off the engine source (files.c's header names each line):
 *    truncated and corrupt headers, block tables past the file, a zero block size, unknown modes, a
 *    decompression bomb under the cap, the engine's MD5 check.
 * Last line: "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "codec/gdwire.h"
#include "codec/tests/testing.h"
#include "files/gdwire_files.h"

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

/* The string value of "key": "..." in a JSON line (the log's values are plain ASCII hex or simple text; \\uXXXX
 * escapes are not needed for the keys read here except the password, which json.dumps writes with ensure_ascii
 * off: see saves_log.py). */
static bool json_str(const char *line, const char *key, char *out, size_t cap) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *s = strstr(line, pat);
    if (!s) return false;
    s += strlen(pat);
    size_t o = 0;
    for (; *s && *s != '"' && o + 1 < cap; s++) {
        if (*s == '\\' && s[1]) s++;
        out[o++] = *s;
    }
    out[o] = 0;
    return *s == '"';
}

static long json_int(const char *line, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *s = strstr(line, pat);
    return s ? strtol(s + strlen(pat), NULL, 10) : -999;
}

#define MAX_VALUES 8

typedef struct expect {
    char file[64];
    uint8_t *plain; /* the store_var frames the engine logged */
    size_t n;
    long readback_error; /* the engine's own open error when it read the file back */
    int values;
} expect;

typedef struct engine_dir {
    char password[256];
    uint8_t key[32];
    uint8_t iv[16];
    bool have_iv;
    expect files[16];
    int n_files;
    uint8_t *values[MAX_VALUES]; /* var_to_bytes of the values, by index */
    size_t value_len[MAX_VALUES];
} engine_dir;

static expect *file_entry(engine_dir *d, const char *name) {
    for (int i = 0; i < d->n_files; i++)
        if (strcmp(d->files[i].file, name) == 0) return &d->files[i];
    if (d->n_files == 16) return NULL;
    expect *e = &d->files[d->n_files++];
    memset(e, 0, sizeof *e);
    snprintf(e->file, sizeof e->file, "%s", name);
    e->readback_error = -1;
    return e;
}

static bool load_log(const char *path, engine_dir *d) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t cap = 1 << 20;
    char *line = malloc(cap), *hex = malloc(cap);
    memset(d, 0, sizeof *d);
    while (fgets(line, (int)cap, f)) {
        char ev[32], file[64], phase[32];
        if (!json_str(line, "event", ev, sizeof ev)) continue;
        if (strcmp(ev, "engine") == 0) {
            json_str(line, "password", d->password, sizeof d->password);
            char k[80];
            if (json_str(line, "key", k, sizeof k)) gdw_file_key_from_hex(k, d->key);
            if (json_str(line, "fixed_iv", k, sizeof k)) {
                size_t n = 0;
                d->have_iv = gdw_hex_decode(k, strlen(k), d->iv, &n, NULL) == GDW_OK && n == 16;
            }
            continue;
        }
        if (!json_str(line, "file", file, sizeof file)) { /* the values, once: their var_to_bytes */
            long idx = json_int(line, "index");
            if (strcmp(ev, "value") == 0 && idx >= 0 && idx < MAX_VALUES && json_str(line, "bytes", hex, cap)) {
                size_t n = strlen(hex) / 2;
                free(d->values[idx]);
                d->values[idx] = malloc(n ? n : 1);
                gdw_hex_decode(hex, strlen(hex), d->values[idx], &d->value_len[idx], NULL);
            }
            continue;
        }
        json_str(line, "phase", phase, sizeof phase);
        expect *e = file_entry(d, file);
        if (!e) continue;
        long idx = json_int(line, "index");
        if (strcmp(ev, "stored") == 0 && idx >= 0 && idx < MAX_VALUES && d->values[idx]) { /* store_var: a length, the bytes */
            size_t got = d->value_len[idx];
            e->plain = realloc(e->plain, e->n + 4 + got);
            uint8_t *at = e->plain + e->n;
            memcpy(at + 4, d->values[idx], got);
            at[0] = (uint8_t)got, at[1] = (uint8_t)(got >> 8), at[2] = (uint8_t)(got >> 16), at[3] = (uint8_t)(got >> 24);
            e->n += 4 + got;
            e->values++;
        } else if (strcmp(ev, "open") == 0 && strcmp(phase, "write") == 0) { /* encrypted files are written twice (a rewrite check) */
            e->n = 0;
            e->values = 0;
        } else if (strcmp(ev, "open") == 0 && strcmp(phase, "readback") == 0) {
            e->readback_error = json_int(line, "error");
        }
    }
    free(line);
    free(hex);
    fclose(f);
    return true;
}

static const char *suffix(const char *name) {
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : "";
}

static int g_read[3][5]; /* the table the final message quotes: [plain, compressed, encrypted][generation slot] */

/* Every file the engine in dir wrote: opened to the engine's store_var bytes. */
static void engine_files(const char *root, const char *name, unsigned gen, int slot) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/log.jsonl", root, name);
    engine_dir d;
    CHECK(load_log(path, &d), "%s: no log", path);
    CHECK(d.n_files >= 7, "%s: %d files in the log", name, d.n_files);
    uint8_t pass_key[32];
    gdw_file_key_from_password(d.password, strlen(d.password), pass_key);
    for (int i = 0; i < d.n_files; i++) {
        expect *e = &d.files[i];
        snprintf(path, sizeof path, "%s/%s/%s", root, name, e->file);
        size_t n = 0;
        uint8_t *p = read_all(path, &n);
        CHECK(p != NULL, "%s: not there", path);
        if (!p) continue;
        const char *sfx = suffix(e->file);
        bool by_pass = strcmp(sfx, "pass") == 0, by_key = strcmp(sfx, "key") == 0 || strcmp(sfx, "keyiv") == 0;
        gdw_file_options o = {by_pass ? pass_key : by_key ? d.key : NULL, 0};
        gdw_file_info info;
        gdw_file_error err;
        uint8_t *plain = NULL;
        size_t plain_n = 0;
        gdw_file_status st = gdw_file_open(p, n, &o, &info, &plain, &plain_n, &err);
        if (e->readback_error != 0) { /* the engine could not read its own file: neither does gdwire */
            CHECK(st != GDW_FILE_OK && !plain, "%s: the engine refused it (error %ld), gdwire read it", path, e->readback_error);
            printf("refused as the engine refused it: %s (engine error %ld): %s\n", path, e->readback_error, err.message);
            free(p);
            continue;
        }
        CHECK(e->values >= 2, "%s: %d values in the engine's log", path, e->values);
        CHECK(st == GDW_FILE_OK, "%s: %s (status %d at byte %llu)", path, err.message, (int)st, (unsigned long long)err.offset);
        CHECK(plain_n == e->n && plain && memcmp(plain, e->plain, e->n) == 0, "%s: %zu plain bytes, not the %zu store_var bytes the engine logged",
              path, plain_n, e->n);
        gdw_file_container want = strcmp(sfx, "plain") == 0 ? GDW_FILE_PLAIN : by_pass || by_key ? GDW_FILE_ENCRYPTED : GDW_FILE_COMPRESSED;
        CHECK(info.container == want, "%s: container %d", path, (int)info.container);
        if (want == GDW_FILE_ENCRYPTED) CHECK(info.generation == gen, "%s: generation %u, not %u", path, info.generation, gen);
        if (want == GDW_FILE_COMPRESSED) {
            gdw_file_compression c;
            CHECK(gdw_file_compression_from_name(sfx, &c) && c == info.compression, "%s: mode %d", path, (int)info.compression);
            CHECK(info.end_magic && info.trailing == 0, "%s: end magic %d, %llu trailing", path, info.end_magic, (unsigned long long)info.trailing);
        }
        if (st == GDW_FILE_OK && plain_n == e->n) g_read[want][slot] += 1;
        /* each value decodes in the generation's dialect, to its last byte */
        const gdw_dialect *dia = gdw_dialect_find(gen == 3 ? "godot3" : "godot4");
        for (size_t at = 0; plain && dia && at + 4 <= plain_n;) {
            size_t len = (size_t)plain[at] | (size_t)plain[at + 1] << 8 | (size_t)plain[at + 2] << 16 | (size_t)plain[at + 3] << 24, used = 0;
            CHECK(len <= plain_n - at - 4 && gdw_validate(dia, plain + at + 4, len, NULL, &used, NULL) == GDW_OK && used == len,
                  "%s: the value at byte %zu does not decode in %s", path, at, gdw_dialect_name(dia));
            at += 4 + len;
        }
        free(plain);
        if (want == GDW_FILE_ENCRYPTED) { /* the other secret: the engine's MD5 check says no, nothing comes out */
            gdw_file_options wrong = {by_pass ? d.key : pass_key, 0};
            plain = (uint8_t *)1;
            st = gdw_file_open(p, n, &wrong, NULL, &plain, &plain_n, &err);
            CHECK(st == GDW_FILE_WRONG_KEY && plain == NULL && plain_n == 0, "%s: the other secret gave status %d", path, (int)st);
            CHECK(strstr(err.message, "wrong password or key") != NULL, "%s: %s", path, err.message);
            gdw_file_options none = {NULL, 0};
            st = gdw_file_open(p, n, &none, &info, &plain, &plain_n, &err);
            CHECK(st == GDW_FILE_NEED_KEY && !plain && info.plain_len == e->n, "%s: no key gave status %d", path, (int)st);
        }
        /* 2. the writer, where the engine's bytes are determined by the key (and IV) */
        if (want == GDW_FILE_ENCRYPTED && (gen == 3 || (strcmp(sfx, "keyiv") == 0 && d.have_iv))) {
            gdw_file_spec s = {GDW_FILE_ENCRYPTED, gen, 0, 0, o.key, gen == 4 ? d.iv : NULL};
            uint8_t *w = NULL;
            size_t wn = 0;
            st = gdw_file_write(&s, e->plain, e->n, &w, &wn, &err);
            CHECK(st == GDW_FILE_OK && wn == n && memcmp(w, p, n) == 0, "%s: gdwire's Godot %u encrypted file is not the engine's bytes", path, gen);
            free(w);
        }
        free(p);
    }
    for (int i = 0; i < d.n_files; i++) free(d.files[i].plain);
    for (int i = 0; i < MAX_VALUES; i++) free(d.values[i]);
}

/* ---- 3. hand-made bytes ---------------------------------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static gdw_file_status try_open(const uint8_t *p, size_t n, uint64_t cap, gdw_file_error *err, size_t *plain_n) {
    gdw_file_options o = {NULL, cap};
    uint8_t *plain = (uint8_t *)1;
    size_t pn = 99;
    gdw_file_status st = gdw_file_open(p, n, &o, NULL, &plain, &pn, err);
    if (st) CHECK(plain == NULL && pn == 0, "a failed open left output");
    if (plain_n) *plain_n = pn;
    free(plain);
    return st;
}

static void hand_made(void) {
    gdw_file_error err;
    uint8_t b[256];
    /* compressed: "GCPF", mode, block size, total, one u32 a block (total / block size + 1 blocks) */
    memcpy(b, "GCPF", 4);
    for (size_t n = 4; n < 16; n++) CHECK(try_open(b, n, 0, &err, NULL) == GDW_FILE_TRUNCATED, "GCPF cut at %zu", n);
    put32(b + 4, 2), put32(b + 8, 0), put32(b + 12, 10), put32(b + 16, 0);
    CHECK(try_open(b, 20, 0, &err, NULL) == GDW_FILE_CORRUPT && err.offset == 8, "block size 0 (file_access_compressed.cpp:65 at 3.6.2)");
    put32(b + 4, 5), put32(b + 8, 4096);
    CHECK(try_open(b, 20, 0, &err, NULL) == GDW_FILE_CORRUPT && err.offset == 4, "mode 5: %s", err.message);
    /* a block table that does not fit: block size 1, total 2^32 - 1 needs 16 GiB of table; nothing allocated for it */
    put32(b + 4, 2), put32(b + 8, 1), put32(b + 12, 0xFFFFFFFFu);
    CHECK(try_open(b, 20, (uint64_t)1 << 40, &err, NULL) == GDW_FILE_TRUNCATED, "a 16 GiB block table in 20 bytes: %s", err.message);
    /* a table whose sizes run past the file */
    put32(b + 8, 4096), put32(b + 12, 10), put32(b + 16, 1000);
    CHECK(try_open(b, 40, 0, &err, NULL) == GDW_FILE_TRUNCATED, "blocks past the end: %s", err.message);
    /* Brotli: only Godot 4 reads it (compression.h:52 at 4.6.3); its inspect says generation 4 */
    gdw_file_info info;
    put32(b + 4, 4), put32(b + 16, 0);
    CHECK(gdw_file_inspect(b, 20, &info, &err) == GDW_FILE_OK && info.generation == 4 && info.compression == GDW_FILE_BROTLI, "brotli header");
    CHECK(!gdw_file_compression_supported(GDW_FILE_BROTLI, 4, true) && !gdw_file_compression_supported(GDW_FILE_BROTLI, 3, false),
          "Brotli: Godot 4 reads it only, Godot 3 not at all");

    /* a bomb: one zlib block (zlib's own compress2, not gdwire's) of 1 MiB of zeros, about 1 KB */
    size_t big = 1 << 20;
    uint8_t *zeros = calloc(1, big);
    uLongf clen = compressBound(big);
    uint8_t *file = malloc(20 + 4 + clen + 4);
    CHECK(compress2(file + 24, &clen, zeros, big, 9) == Z_OK, "zlib");
    memcpy(file, "GCPF", 4);
    put32(file + 4, 1), put32(file + 8, (uint32_t)big), put32(file + 12, (uint32_t)big);
    put32(file + 16, (uint32_t)clen), put32(file + 20, 0); /* two blocks: total / block size + 1, the last empty */
    size_t fn = 24 + clen;
    size_t pn = 0;
    CHECK(try_open(file, fn, big / 2, &err, NULL) == GDW_FILE_TOO_BIG && err.offset == 12, "1 MiB declared, cap 512 KiB: %s", err.message);
    /* the empty last block's size is 0 here: the engine never decompresses an empty last block (get_buffer returns
     * once it has what was asked, file_access_compressed.cpp:275-277 at 4.6.3), so the file reads */
    gdw_file_status st = try_open(file, fn, big * 2, &err, &pn);
    CHECK(st == GDW_FILE_OK && pn == big, "an empty last block of 0 bytes: %d %s", (int)st, err.message);
    /* with the empty zlib stream the engine's writer makes for the last block (compression.cpp:67-90 at 4.6.3) */
    uLongf elen = 64;
    uint8_t *file2 = malloc(fn + 64);
    memcpy(file2, file, fn);
    CHECK(compress2(file2 + fn, &elen, zeros, 0, Z_DEFAULT_COMPRESSION) == Z_OK, "zlib empty");
    put32(file2 + 20, (uint32_t)elen);
    st = try_open(file2, fn + elen, big * 2, &err, &pn);
    CHECK(st == GDW_FILE_OK && pn == big, "the bomb under a 2 MiB cap: %d %s", (int)st, err.message);
    CHECK(try_open(file2, fn + elen, 0, &err, &pn) == GDW_FILE_OK, "1 MiB under the default cap");
    /* declared more than the block gives: the block must decompress to its size */
    put32(file2 + 12, (uint32_t)big + 5); /* a last block of 5 bytes */
    CHECK(try_open(file2, fn + elen, 0, &err, NULL) == GDW_FILE_CORRUPT && err.offset == fn, "a last block short of its size: %s", err.message);
    free(file2);
    free(file);
    free(zeros);

    /* encrypted: "GDEC" */
    memset(b, 0, sizeof b);
    memcpy(b, "GDEC", 4);
    for (size_t n = 4; n < 32; n++) CHECK(try_open(b, n, 0, &err, NULL) == GDW_FILE_TRUNCATED, "GDEC cut at %zu", n);
    /* Godot 3: mode 1, MD5, length 17 -> 32 bytes of cipher text from byte 32 (file_access_encrypted.cpp:58-78 at 3.6.2) */
    put32(b + 4, 1), b[24] = 17;
    CHECK(gdw_file_inspect(b, 64, &info, &err) == GDW_FILE_OK && info.generation == 3 && info.cipher_len == 32 && info.trailing == 0, "GDEC 3");
    CHECK(try_open(b, 63, 0, &err, NULL) == GDW_FILE_TRUNCATED, "GDEC 3, a cipher text one byte short: %s", err.message);
    CHECK(try_open(b, 64, 0, &err, NULL) == GDW_FILE_NEED_KEY, "GDEC 3 without a key");
    uint8_t key[32] = {0};
    gdw_file_options o = {key, 0};
    uint8_t *plain = NULL;
    CHECK(gdw_file_open(b, 64, &o, NULL, &plain, &pn, &err) == GDW_FILE_WRONG_KEY && !plain, "zeros under a zero key: MD5 mismatch");
    /* Godot 4: no mode word; MD5 at 4, length at 20, IV at 28, data at 44 (4.6.3 :78-98) */
    memset(b, 0, sizeof b);
    memcpy(b, "GDEC", 4);
    put32(b + 4, 7), b[20] = 1;
    CHECK(gdw_file_inspect(b, 60, &info, &err) == GDW_FILE_OK && info.generation == 4 && info.has_iv && info.cipher_len == 16, "GDEC 4");
    CHECK(try_open(b, 59, 0, &err, NULL) == GDW_FILE_TRUNCATED, "GDEC 4 one byte short: %s", err.message);
    b[27] = 0x80; /* a length of 2^63 + 1 */
    CHECK(try_open(b, 60, 0, &err, NULL) == GDW_FILE_TRUNCATED, "GDEC 4 with a huge length: %s", err.message);
    /* the password's key: md5_text, lowercase hex (ustring.cpp:2788-2793 at 4.6.3); MD5("") = d41d8cd9... (RFC 1321) */
    uint8_t k[32];
    gdw_file_key_from_password("", 0, k);
    CHECK(memcmp(k, "d41d8cd98f00b204e9800998ecf8427e", 32) == 0, "the key of the empty password");
    CHECK(!gdw_file_key_from_hex("00", k) && gdw_file_key_from_hex("030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc", k) && k[1] == 0x0a,
          "hex keys");
    /* a plain file: neither magic */
    CHECK(gdw_file_inspect((const uint8_t *)"\x04\0\0\0\x01\0\0\0", 8, &info, &err) == GDW_FILE_OK && info.container == GDW_FILE_PLAIN, "plain");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: files_test conformance/saves\n");
        return 2;
    }
    hand_made();
    static const char *const dirs[] = {"godot3.2", "godot3.6", "godot4.6"};
    static const unsigned gens[] = {3, 3, 4};
    for (int i = 0; i < 3; i++) engine_files(argv[1], dirs[i], gens[i], i);
    static const char *const kinds[] = {"plain", "compressed", "encrypted"};
    printf("engine-written files read to the engine's store_var bytes (3.2.3 / 3.6.2 / 4.6.3):\n");
    for (int k = 0; k < 3; k++) printf("  %-11s %d / %d / %d\n", kinds[k], g_read[k][0], g_read[k][1], g_read[k][2]);
    return t_finish();
}

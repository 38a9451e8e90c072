/* SPDX-License-Identifier: MIT
 * pcap_test: session/pcap.c (gdwire_pcap.h) against files gdwire did not write, read as tshark reads them.
 *   - Each capture with an expectation (session/tests/data/tshark/NAME.tsv: tshark's fields of every frame, the
 *     command in session/tests/data/README.md) gives the same records: count, section, interface, link type,
 *     file offset, original and captured length, time to the nanosecond, and the captured bytes (tshark's MD5 of
 *     them). The captures: the real sessions of conformance/sessions/ (tcpdump's pcap files) and the pcap and
 *     pcapng files editcap, mergecap and tcpdump made of them (nanosecond pcap, pcapng with if_tsresol, two link
 *     types, comments and a Decryption Secrets Block, two sections, Simple Packet Blocks).
 *   - The same files streamed through a read callback, 1 byte at a time, in random chunks and whole, give the
 *     same records as from memory; and byte-swapped (big-endian: no tool here writes it, so the test swaps every
 *     field a writer on a big-endian host would have written its way), the same records as tshark's of the
 *     original.
 *   - Cut at every byte, a file gives every record that ends before the cut, then END at a record's end or else
 *     TRUNCATED at the cut record's offset with its message.
 *   - Hand-built malformed files: each error's code, offset and message; the caps (max_record_bytes,
 *     max_interfaces), the buffer grown to the largest record and no further, a block past the cap skipped in
 *     64 KiB; time resolutions and offsets; read errors; allocation failures; status names.
 *   - The session library reads the pcapng conversion of a real session, and a file whose records change link
 *     type, into the same messages as the original pcap.
 * usage: pcap_test FILE... (the data files and the conformance sessions: each matched to its expectation by name) */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdwire_pcap.h"
#include "gdwire_session.h"

static int failures, checks;
#define CHECK(cond, ...)                                         \
    do {                                                         \
        checks++;                                                \
        if (!(cond)) {                                           \
            failures++;                                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fputc('\n', stderr);                                 \
        }                                                        \
    } while (0)

/* ---- MD5 (RFC 1321), to hold the captured bytes against tshark's frame.md5_hash ----------------------------- */

static uint32_t md5_rotl(uint32_t x, unsigned c) { return x << c | x >> (32 - c); }

static void md5_hex(const uint8_t *msg, size_t len, char out[33]) {
    static const uint32_t k_s[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                     4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    /* floor(abs(sin(i + 1)) * 2^32), the RFC's table */
    static const uint32_t K[64] = {
        0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu, 0xf57c0fafu, 0x4787c62au, 0xa8304613u, 0xfd469501u,
        0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu, 0x6b901122u, 0xfd987193u, 0xa679438eu, 0x49b40821u,
        0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau, 0xd62f105du, 0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u,
        0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu, 0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au,
        0xfffa3942u, 0x8771f681u, 0x6d9d6122u, 0xfde5380cu, 0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u,
        0x289b7ec6u, 0xeaa127fau, 0xd4ef3085u, 0x04881d05u, 0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u,
        0xf4292244u, 0x432aff97u, 0xab9423a7u, 0xfc93a039u, 0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
        0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u, 0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu, 0xeb86d391u};
    uint32_t a0 = 0x67452301u, b0 = 0xefcdab89u, c0 = 0x98badcfeu, d0 = 0x10325476u;
    size_t total = ((len + 8) / 64 + 1) * 64;
    uint8_t *m = calloc(total, 1);
    if (!m) abort();
    memcpy(m, msg, len);
    m[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) m[total - 8 + i] = (uint8_t)(bits >> (8 * i));
    for (size_t off = 0; off < total; off += 64) {
        uint32_t w[16];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)m[off + 4 * i] | (uint32_t)m[off + 4 * i + 1] << 8 | (uint32_t)m[off + 4 * i + 2] << 16 | (uint32_t)m[off + 4 * i + 3] << 24;
        uint32_t a = a0, b = b0, c = c0, d = d0;
        for (unsigned i = 0; i < 64; i++) {
            uint32_t f;
            unsigned g;
            if (i < 16) f = (b & c) | (~b & d), g = i;
            else if (i < 32) f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
            else if (i < 48) f = b ^ c ^ d, g = (3 * i + 5) % 16;
            else f = c ^ (b | ~d), g = (7 * i) % 16;
            f += a + K[i] + w[g];
            a = d, d = c, c = b;
            b += md5_rotl(f, k_s[i]);
        }
        a0 += a, b0 += b, c0 += c, d0 += d;
    }
    free(m);
    uint32_t h[4] = {a0, b0, c0, d0};
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", (h[i / 4] >> (8 * (i % 4))) & 0xFFu);
}

/* ---- files ------------------------------------------------------------------------------------------------- */

typedef struct blob {
    uint8_t *p;
    size_t n, cap;
} blob;

static blob load(const char *path) {
    blob b = {0, 0, 0};
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    uint8_t chunk[65536];
    for (size_t k; (k = fread(chunk, 1, sizeof chunk, f)) > 0;) {
        if (b.n + k > b.cap) {
            b.cap = (b.n + k) * 2;
            b.p = realloc(b.p, b.cap);
            if (!b.p) abort();
        }
        memcpy(b.p + b.n, chunk, k);
        b.n += k;
    }
    fclose(f);
    return b;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* ---- readers ----------------------------------------------------------------------------------------------- */

typedef struct rec_copy {
    gdw_pcap_record r;
    uint8_t *bytes;
} rec_copy;

typedef struct run {
    rec_copy *recs;
    size_t n, cap;
    gdw_pcap_status end;
    gdw_pcap_error err;
    gdw_pcap_format format;
    size_t max_buffer;
} run;

static void run_free(run *r) {
    for (size_t i = 0; i < r->n; i++) free(r->recs[i].bytes);
    free(r->recs);
    memset(r, 0, sizeof *r);
}

static run read_all(gdw_pcap *p) {
    run out;
    memset(&out, 0, sizeof out);
    if (!p) { out.end = GDW_PCAP_ERR_NOMEM; return out; }
    gdw_pcap_record rec;
    while ((out.end = gdw_pcap_next(p, &rec, &out.err)) == GDW_PCAP_OK) {
        if (out.n == out.cap) {
            out.cap = out.cap ? out.cap * 2 : 64;
            out.recs = realloc(out.recs, out.cap * sizeof *out.recs);
            if (!out.recs) abort();
        }
        rec_copy *c = &out.recs[out.n++];
        c->r = rec;
        c->bytes = malloc(rec.caplen ? rec.caplen : 1);
        if (!c->bytes) abort();
        memcpy(c->bytes, rec.data, rec.caplen);
        size_t b = gdw_pcap_buffer_bytes(p);
        if (b > out.max_buffer) out.max_buffer = b;
    }
    size_t b = gdw_pcap_buffer_bytes(p);
    if (b > out.max_buffer) out.max_buffer = b;
    out.format = gdw_pcap_get_format(p);
    gdw_pcap_free(p);
    return out;
}

/* A stream over a buffer, in chunks of a chosen size: 0 whole reads, 1 a byte at a time, 2 random sizes. */
typedef struct source {
    const uint8_t *p;
    size_t n, pos;
    int mode;
    uint64_t rng;
    size_t fail_at; /* SIZE_MAX when reading never fails */
    bool overrun;   /* answer one byte more than asked, once */
} source;

static size_t source_read(void *ctx, uint8_t *buf, size_t want) {
    source *s = ctx;
    if (s->pos >= s->fail_at) return SIZE_MAX;
    if (s->overrun) return want + 1;
    size_t k = s->n - s->pos;
    if (k > want) k = want;
    if (s->mode == 1 && k > 1) k = 1;
    if (s->mode == 2 && k > 1) {
        s->rng ^= s->rng << 13, s->rng ^= s->rng >> 7, s->rng ^= s->rng << 17;
        size_t pick = 1 + (size_t)(s->rng % 5000);
        if (pick < k) k = pick;
    }
    if (s->fail_at != SIZE_MAX && s->pos + k > s->fail_at) k = s->fail_at - s->pos;
    if (k) memcpy(buf, s->p + s->pos, k);
    s->pos += k;
    return k;
}

static run read_memory(const uint8_t *p, size_t n, const gdw_pcap_options *o) { return read_all(gdw_pcap_open_memory(p, n, o)); }

static run read_stream(const uint8_t *p, size_t n, int mode, const gdw_pcap_options *o) {
    source s = {p, n, 0, mode, 0x9E3779B97F4A7C15ull ^ n, SIZE_MAX, false};
    return read_all(gdw_pcap_open_stream(source_read, &s, o));
}

static bool same_record(const rec_copy *a, const rec_copy *b) {
    const gdw_pcap_record *x = &a->r, *y = &b->r;
    return x->caplen == y->caplen && x->wirelen == y->wirelen && x->link == y->link && x->interface == y->interface && x->section == y->section &&
           x->has_time == y->has_time && x->seconds == y->seconds && x->nanoseconds == y->nanoseconds && x->time == y->time && x->offset == y->offset &&
           x->number == y->number && memcmp(a->bytes, b->bytes, x->caplen) == 0;
}

/* Two runs agree: records, the end and its error. */
static bool same_run(const run *a, const run *b, char *why, size_t cap) {
    if (a->n != b->n) return snprintf(why, cap, "%zu records, then %zu", a->n, b->n), false;
    for (size_t i = 0; i < a->n; i++)
        if (!same_record(&a->recs[i], &b->recs[i])) return snprintf(why, cap, "record %zu differs", i + 1), false;
    if (a->end != b->end) return snprintf(why, cap, "ends %s, then %s", gdw_pcap_status_name(a->end), gdw_pcap_status_name(b->end)), false;
    if (a->end != GDW_PCAP_END && (a->err.offset != b->err.offset || strcmp(a->err.message, b->err.message) != 0))
        return snprintf(why, cap, "\"%s\" at %llu, then \"%s\" at %llu", a->err.message, (unsigned long long)a->err.offset, b->err.message,
                        (unsigned long long)b->err.offset),
               false;
    return true;
}

/* ---- tshark's expectations --------------------------------------------------------------------------------- */

/* Wireshark's encapsulation numbers (frame.encap_type) of the files here, as LINKTYPE_* */
static int link_of_encap(long encap) { return encap == 1 ? GDW_LINK_ETHERNET : encap == 7 ? GDW_LINK_RAW : -1; }

/* Holds a run against tshark's lines: "number section interface encap file_off len cap_len time_epoch md5"
 * (tab-separated, after a header line; pcap files leave section and interface empty, a Simple Packet Block the
 * time). Returns how many records matched. */
static size_t against_tshark(const char *name, const run *got, const blob *tsv) {
    char *text = malloc(tsv->n + 1);
    if (!text) abort();
    memcpy(text, tsv->p, tsv->n);
    text[tsv->n] = 0;
    size_t line_no = 0, matched = 0, lines = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line_no++ == 0) continue; /* the header */
        char *f[9];
        int nf = 0;
        for (char *s = line; nf < 9; nf++) {
            f[nf] = s;
            char *tab = strchr(s, '\t');
            if (!tab) { nf++; break; }
            *tab = 0;
            s = tab + 1;
        }
        CHECK(nf == 9, "%s: tshark line %zu has %d fields", name, line_no, nf);
        if (nf != 9) break;
        size_t i = lines++;
        if (i >= got->n) continue;
        const gdw_pcap_record *r = &got->recs[i].r;
        char t[48] = "", md5[33];
        if (r->has_time) snprintf(t, sizeof t, "%lld.%09u", (long long)r->seconds, r->nanoseconds);
        md5_hex(got->recs[i].bytes, r->caplen, md5);
        unsigned long section = f[1][0] ? strtoul(f[1], NULL, 10) - 1 : 0, iface = f[2][0] ? strtoul(f[2], NULL, 10) : 0;
        bool ok = strtoull(f[0], NULL, 10) == r->number && section == r->section && iface == r->interface && link_of_encap(strtol(f[3], NULL, 10)) == r->link &&
                  strtoull(f[4], NULL, 10) == r->offset && strtoull(f[5], NULL, 10) == r->wirelen && strtoull(f[6], NULL, 10) == r->caplen &&
                  strcmp(f[7], t) == 0 && strcmp(f[8], md5) == 0;
        CHECK(ok, "%s: record %zu: tshark says #%s section %s interface %s encap %s at %s, %s of %s bytes, time %s, md5 %s; gdwire reads #%llu section %u "
                  "interface %u link %d at %llu, %zu of %zu bytes, time %s, md5 %s",
              name, i + 1, f[0], f[1], f[2], f[3], f[4], f[6], f[5], f[7], f[8], (unsigned long long)r->number, r->section + 1, r->interface, r->link,
              (unsigned long long)r->offset, r->caplen, r->wirelen, t, md5);
        matched += ok;
    }
    CHECK(lines == got->n, "%s: tshark reads %zu records, gdwire %zu", name, lines, got->n);
    free(text);
    return matched;
}

/* ---- byte order: a little-endian file as a big-endian host would have written it --------------------------- */

static void swap16(uint8_t *p) {
    uint8_t t = p[0];
    p[0] = p[1], p[1] = t;
}
static void swap32s(uint8_t *p) {
    uint8_t t[4] = {p[3], p[2], p[1], p[0]};
    memcpy(p, t, 4);
}
static void swap64(uint8_t *p) {
    uint8_t t[8];
    for (int i = 0; i < 8; i++) t[i] = p[7 - i];
    memcpy(p, t, 8);
}
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static blob swapped_pcap(const blob *in) {
    blob b = {malloc(in->n), in->n, in->n};
    memcpy(b.p, in->p, in->n);
    swap32s(b.p), swap16(b.p + 4), swap16(b.p + 6), swap32s(b.p + 8), swap32s(b.p + 12), swap32s(b.p + 16), swap32s(b.p + 20);
    for (size_t pos = 24; pos + 16 <= b.n;) {
        uint32_t caplen = le32(b.p + pos + 8);
        for (int k = 0; k < 4; k++) swap32s(b.p + pos + 4 * k);
        pos += 16 + caplen;
    }
    return b;
}

/* An option list's headers and the numeric values of the options in these files (the strings stay as they are). */
static void swap_options(uint8_t *p, size_t from, size_t to, uint32_t block) {
    while (to - from >= 4) {
        uint16_t code = le16(p + from), len = le16(p + from + 2);
        swap16(p + from), swap16(p + from + 2);
        if (code == 0) break;
        uint8_t *v = p + from + 4;
        if (block == 1 && (code == 8 || code == 14) && len == 8) swap64(v);         /* if_speed, if_tsoffset */
        else if (block == 1 && code == 10 && len == 4) swap32s(v);                    /* if_tzone */
        else if (!(code == 1 || (block == 0x0A0D0D0Au && code <= 4) || (block == 1 && (code <= 3 || code == 9 || code == 12 || code == 13 || code == 15)))) {
            fprintf(stderr, "swap_options: no rule for option %u of block %x\n", code, block);
            abort();
        }
        from += 4 + ((len + 3u) & ~3u);
    }
}

static blob swapped_pcapng(const blob *in) {
    blob b = {malloc(in->n), in->n, in->n};
    memcpy(b.p, in->p, in->n);
    for (size_t pos = 0; pos + 12 <= b.n;) {
        uint8_t *p = b.p + pos;
        uint32_t type = le32(p), len = le32(p + 4);
        switch (type) {
        case 0x0A0D0D0Au: swap32s(p + 8), swap16(p + 12), swap16(p + 14), swap64(p + 16), swap_options(p, 24, len - 4, type); break;
        case 1: swap16(p + 8), swap16(p + 10), swap32s(p + 12), swap_options(p, 16, len - 4, type); break;
        case 3: swap32s(p + 8); break;
        case 6: {
            uint32_t caplen = le32(p + 20);
            for (int k = 0; k < 5; k++) swap32s(p + 8 + 4 * k);
            swap_options(p, 28 + ((caplen + 3u) & ~3u), len - 4, type);
            break;
        }
        case 0x0A: { /* Decryption Secrets Block: the secrets' type and length, then them */
            uint32_t n = le32(p + 12);
            swap32s(p + 8), swap32s(p + 12);
            swap_options(p, 16 + ((n + 3u) & ~3u), len - 4, type);
            break;
        }
        default: fprintf(stderr, "swapped_pcapng: no rule for block type %x\n", type); abort();
        }
        swap32s(p), swap32s(p + 4), swap32s(p + len - 4);
        pos += len;
    }
    return b;
}

/* ---- files built here -------------------------------------------------------------------------------------- */

static void put(blob *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}
static void put16(blob *b, uint16_t v) { put(b, (uint8_t[]){(uint8_t)v, (uint8_t)(v >> 8)}, 2); }
static void put32(blob *b, uint32_t v) { put(b, (uint8_t[]){(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)}, 4); }
static void put64(blob *b, uint64_t v) { put32(b, (uint32_t)v), put32(b, (uint32_t)(v >> 32)); }

/* A pcapng block of body[0..n), padded, little-endian. */
static void block(blob *b, uint32_t type, const blob *body) {
    uint32_t len = (uint32_t)(12 + ((body->n + 3) & ~(size_t)3));
    put32(b, type), put32(b, len), put(b, body->p, body->n);
    for (size_t k = body->n; k % 4; k++) put(b, "", 1);
    put32(b, len);
}

static void shb(blob *b) {
    blob x = {0};
    put32(&x, 0x1A2B3C4Du), put16(&x, 1), put16(&x, 0), put64(&x, UINT64_MAX);
    block(b, 0x0A0D0D0Au, &x);
    free(x.p);
}

/* An IDB; opts: code/length/value triples already padded, ending with opt_endofopt if the caller wants one. */
static void idb(blob *b, uint16_t link, uint32_t snaplen, const blob *opts) {
    blob x = {0};
    put16(&x, link), put16(&x, 0), put32(&x, snaplen);
    if (opts) put(&x, opts->p, opts->n);
    block(b, 1, &x);
    free(x.p);
}

static void epb(blob *b, uint32_t iface, uint64_t ts, const void *data, uint32_t caplen, uint32_t orig) {
    blob x = {0};
    put32(&x, iface), put32(&x, (uint32_t)(ts >> 32)), put32(&x, (uint32_t)ts), put32(&x, caplen), put32(&x, orig), put(&x, data, caplen);
    block(b, 6, &x);
    free(x.p);
}

static void option(blob *o, uint16_t code, const void *v, uint16_t len) {
    put16(o, code), put16(o, len), put(o, v, len);
    for (size_t k = len; k % 4; k++) put(o, "", 1);
}

static blob pcap_header(uint32_t magic, uint16_t major, uint16_t minor, uint32_t link) {
    blob b = {0};
    put32(&b, magic), put16(&b, major), put16(&b, minor), put32(&b, 0), put32(&b, 0), put32(&b, 262144), put32(&b, link);
    return b;
}

static void pcap_rec(blob *b, uint32_t sec, uint32_t frac, const void *data, uint32_t incl, uint32_t orig) {
    put32(b, sec), put32(b, frac), put32(b, incl), put32(b, orig), put(b, data, incl);
}

/* The first error of a file from memory, and streamed a byte at a time (they must agree). */
static run expect_error(const char *what, const blob *f, const gdw_pcap_options *o, gdw_pcap_status status, uint64_t offset, const char *message) {
    run m = read_memory(f->p, f->n, o), s = read_stream(f->p, f->n, 1, o);
    char why[300];
    CHECK(m.end == status && m.err.status == status && m.err.offset == offset && strcmp(m.err.message, message) == 0,
          "%s: got %s at %llu \"%s\"; want %s at %llu \"%s\"", what, gdw_pcap_status_name(m.end), (unsigned long long)m.err.offset, m.err.message,
          gdw_pcap_status_name(status), (unsigned long long)offset, message);
    CHECK(same_run(&m, &s, why, sizeof why), "%s: streamed: %s", what, why);
    CHECK(m.err.offset <= f->n, "%s: the error's offset %llu is past the file's %zu bytes", what, (unsigned long long)m.err.offset, f->n);
    run_free(&s);
    return m;
}

static const char *grouped(uint64_t v, char out[32]) {
    char d[24];
    int n = snprintf(d, sizeof d, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = 0;
    return out;
}

/* ---- the checks -------------------------------------------------------------------------------------------- */

typedef struct named {
    const char *path, *name;
} named;
static named g_files[256];
static size_t g_n_files;

static const char *find_file(const char *name) {
    for (size_t i = 0; i < g_n_files; i++)
        if (strcmp(g_files[i].name, name) == 0) return g_files[i].path;
    return NULL;
}

static size_t g_records_vs_tshark;

/* One capture against its expectation, from memory, streamed three ways, and byte-swapped. */
static void tshark_checks(const char *path, const char *tsv_path) {
    const char *name = base_name(path);
    blob f = load(path), tsv = load(tsv_path);
    run m = read_memory(f.p, f.n, NULL);
    CHECK(m.end == GDW_PCAP_END, "%s: ends with %s: %s", name, gdw_pcap_status_name(m.end), m.err.message);
    size_t matched = against_tshark(name, &m, &tsv);
    g_records_vs_tshark += matched;
    char why[300];
    static const char *const ways[3] = {"whole reads", "1 byte at a time", "random chunks"};
    for (int mode = 0; mode < 3; mode++) {
        run s = read_stream(f.p, f.n, mode, NULL);
        CHECK(same_run(&m, &s, why, sizeof why), "%s: streamed in %s: %s", name, ways[mode], why);
        CHECK(s.max_buffer == 64u << 10, "%s: streamed, the buffer grew to %zu bytes (its records are all under 64 KiB)", name, s.max_buffer);
        run_free(&s);
    }
    bool ng = f.n >= 4 && le32(f.p) == 0x0A0D0D0Au;
    blob be = ng ? swapped_pcapng(&f) : swapped_pcap(&f);
    run b = read_memory(be.p, be.n, NULL);
    size_t be_matched = against_tshark(name, &b, &tsv);
    run bs = read_stream(be.p, be.n, 2, NULL);
    CHECK(same_run(&b, &bs, why, sizeof why), "%s big-endian: streamed: %s", name, why);
    printf("%s: %zu of %zu records as tshark reads them (count, section, interface, link, offset, lengths, time to the ns, bytes' MD5); the same "
           "streamed whole, a byte at a time and in random chunks; byte-swapped to big-endian, %zu\n",
           name, matched, m.n, be_matched);
    run_free(&m), run_free(&b), run_free(&bs);
    free(f.p), free(tsv.p), free(be.p);
}

/* The blocks' or records' [start, end) of a little-endian file, walked here from the formats' framing alone. */
typedef struct span {
    uint64_t start, end;
    uint32_t type; /* pcapng: the block type; pcap: 0 */
} span;

static size_t spans_of(const blob *f, span *out, size_t cap) {
    size_t n = 0;
    if (le32(f->p) == 0x0A0D0D0Au) {
        for (size_t pos = 0; pos + 8 <= f->n && n < cap; pos += le32(f->p + pos + 4)) out[n++] = (span){pos, pos + le32(f->p + pos + 4), le32(f->p + pos)};
    } else {
        out[n++] = (span){0, 24, 0xFFFFFFFFu};
        for (size_t pos = 24; pos + 16 <= f->n && n < cap; pos += 16 + le32(f->p + pos + 8)) out[n++] = (span){pos, pos + 16 + le32(f->p + pos + 8), 0};
    }
    return n;
}

static const char *span_name(uint32_t type) {
    switch (type) {
    case 0: return "record";
    case 0x0A0D0D0Au: return "Section Header Block";
    case 1: return "Interface Description Block";
    case 3: return "Simple Packet Block";
    case 6: return "Enhanced Packet Block";
    default: return "pcapng block";
    }
}

/* Cut at every byte: the records that end before the cut, then END at a span's end, or TRUNCATED at the cut
 * span's start with its message (a memory reader; a sample of the cuts streamed too). */
static void cut_checks(const char *path) {
    const char *name = base_name(path);
    blob f = load(path);
    static span spans[4096];
    size_t ns = spans_of(&f, spans, 4096);
    run whole = read_memory(f.p, f.n, NULL);
    uint64_t *rec_end = calloc(whole.n + 1, sizeof *rec_end);
    for (size_t i = 0, j = 0; i < whole.n; i++) {
        while (j < ns && spans[j].start != whole.recs[i].r.offset) j++;
        rec_end[i] = j < ns ? spans[j].end : UINT64_MAX;
    }
    size_t bad = 0, streamed = 0, want_n = 0;
    for (size_t cut = 0; cut <= f.n; cut++) {
        gdw_pcap *p = gdw_pcap_open_memory(f.p, cut, NULL);
        gdw_pcap_record rec;
        gdw_pcap_error err;
        gdw_pcap_status st;
        size_t n = 0;
        bool records_ok = true;
        while ((st = gdw_pcap_next(p, &rec, &err)) == GDW_PCAP_OK) {
            records_ok &= n < whole.n && rec.offset == whole.recs[n].r.offset && rec.caplen == whole.recs[n].r.caplen && rec.offset + rec.caplen <= cut;
            n++;
        }
        gdw_pcap_format format = gdw_pcap_get_format(p);
        gdw_pcap_free(p);
        /* the span the cut falls in, and the records wholly before it */
        size_t k = 0;
        while (k < ns && spans[k].end <= cut) k++;
        while (want_n < whole.n && rec_end[want_n] <= cut) want_n++;
        char want[200], a[32], b[32], c[32];
        gdw_pcap_status want_st;
        if (cut < 4) {
            want_st = GDW_PCAP_ERR_NOT_CAPTURE;
            if (cut == 0) snprintf(want, sizeof want, "not a pcap or pcapng file: it is empty");
            else snprintf(want, sizeof want, "not a pcap or pcapng file: it holds only %zu byte%s", cut, cut == 1 ? "" : "s");
        } else if (k < ns && spans[k].start == cut) {
            want_st = GDW_PCAP_END, want[0] = 0;
        } else if (k == ns) {
            want_st = GDW_PCAP_END, want[0] = 0;
        } else {
            const span *s = &spans[k];
            uint64_t got = cut - s->start;
            want_st = GDW_PCAP_ERR_TRUNCATED;
            if (s->type == 0xFFFFFFFFu) snprintf(want, sizeof want, "truncated file: it ends inside the pcap file header at byte 0: %s of its 24 bytes", grouped(got, a));
            else if (s->type != 0 && got < 8) snprintf(want, sizeof want, "truncated file: it ends inside the block header at byte %s: %s of its 8 bytes", grouped(s->start, a), grouped(got, b));
            else if (s->type == 0x0A0D0D0Au && got < 12)
                snprintf(want, sizeof want, "truncated file: it ends inside the Section Header Block at byte %s, %llu bytes in, before its byte-order magic",
                         grouped(s->start, a), (unsigned long long)got);
            else if (s->type == 0 && got < 16) snprintf(want, sizeof want, "truncated file: it ends inside the record header at byte %s: %s of its 16 bytes", grouped(s->start, a), grouped(got, b));
            else
                snprintf(want, sizeof want, "truncated file: it ends inside the %s at byte %s: %s of its %s bytes", span_name(s->type), grouped(s->start, a), grouped(got, b),
                         grouped(s->end - s->start, c));
        }
        bool header_whole = ns > 0 && cut >= spans[0].end;
        bool ok = records_ok && n == want_n && st == want_st && (st == GDW_PCAP_END || strcmp(err.message, want) == 0) &&
                  (st != GDW_PCAP_ERR_TRUNCATED || err.offset == spans[k].start) && (format != GDW_PCAP_FORMAT_UNKNOWN) == header_whole;
        if (!ok && bad++ < 5)
            CHECK(ok, "%s cut at %zu: %zu records (want %zu), %s \"%s\" at %llu; want %s \"%s\"; format %d", name, cut, n, want_n, gdw_pcap_status_name(st),
                  st == GDW_PCAP_END ? "" : err.message, (unsigned long long)err.offset, gdw_pcap_status_name(want_st), want, (int)format);
        if (cut % 251 == 0 || (k < ns && cut == spans[k].start + 1)) {
            if (streamed++ % 4 == 0) { /* a byte at a time is slow: every fourth of these */
                run m = read_memory(f.p, cut, NULL), s = read_stream(f.p, cut, 1, NULL);
                char why[300];
                bool same = same_run(&m, &s, why, sizeof why);
                if (!same && bad++ < 5) CHECK(same, "%s cut at %zu, streamed: %s", name, cut, why);
                run_free(&m), run_free(&s);
            }
        }
    }
    CHECK(bad == 0, "%s: %zu cuts went wrong", name, bad);
    printf("%s: cut at each of its %zu bytes: the whole records before the cut, then the end or the cut record's offset and message (%zu cuts "
           "streamed a byte at a time too)\n",
           name, f.n + 1, (streamed + 3) / 4);
    run_free(&whole);
    free(rec_end), free(f.p);
}

static void not_capture_checks(void) {
    blob f = {0};
    run r;
    r = expect_error("empty", &f, NULL, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: it is empty");
    CHECK(r.format == GDW_PCAP_FORMAT_UNKNOWN, "empty: a format");
    run_free(&r);
    put(&f, "\xd4\xc3", 2);
    r = expect_error("2 bytes", &f, NULL, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: it holds only 2 bytes"), run_free(&r);
    f.n = 0, put(&f, "hello, world\n", 13);
    r = expect_error("text", &f, NULL, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: its first 4 bytes are 68 65 6c 6c"), run_free(&r);
    f.n = 0, put(&f, "\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
    r = expect_error("gzip", &f, NULL, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: its first 4 bytes are 1f 8b 08 00 (a gzip file: decompress it first)");
    run_free(&r);
    free(f.p);
    /* editcap -F modpcap (session/tests/data/README.md) */
    const char *mod = find_file("modified.pcap");
    CHECK(mod != NULL, "modified.pcap is among the arguments");
    if (mod) {
        blob m = load(mod);
        r = expect_error("modified.pcap", &m, NULL, GDW_PCAP_ERR_UNSUPPORTED, 0,
                         "a modified pcap file (Alexey Kuznetzov's, magic a1b2cd34) is not read: editcap -F pcap writes it as a standard one");
        CHECK(r.format == GDW_PCAP_FORMAT_UNKNOWN && r.n == 0, "modified.pcap: a format or records");
        run_free(&r), free(m.p);
    }
    blob v = pcap_header(0xA1B2C3D4u, 1, 0, 1);
    r = expect_error("pcap 1.0", &v, NULL, GDW_PCAP_ERR_UNSUPPORTED, 4, "a pcap file of version 1.0: only version 2 (2.0 to 2.4 and later 2.x) is read"), run_free(&r);
    v.n = 20;
    r = expect_error("a cut pcap header", &v, NULL, GDW_PCAP_ERR_TRUNCATED, 0, "truncated file: it ends inside the pcap file header at byte 0: 20 of its 24 bytes");
    CHECK(r.format == GDW_PCAP_FORMAT_UNKNOWN, "a cut pcap header: a format");
    run_free(&r), free(v.p);
    printf("not capture files: empty, 2 bytes, text, gzip, a modified pcap (editcap's), pcap 1.0, a cut header: each its message\n");
}

/* A pcapng file's malformations, each at a known byte. */
static void malformed_checks(void) {
    static const uint8_t frame[60] = {1, 2, 3, 4, 5, 6};
    char want[200], a[32];
    run r;

    blob f = {0};
    shb(&f), idb(&f, 1, 0, NULL); /* 28 + 20 bytes */
    size_t at = f.n;
    put32(&f, 6), put32(&f, 8);
    r = expect_error("an 8-byte block", &f, NULL, GDW_PCAP_ERR_MALFORMED, at, "an Enhanced Packet Block of 8 bytes at byte 48: shorter than its 12-byte frame");
    CHECK(r.format == GDW_PCAP_FORMAT_PCAPNG && r.n == 0, "an 8-byte block: format and records");
    run_free(&r);

    f.n = at, put32(&f, 0x99), put32(&f, 14);
    r = expect_error("a 14-byte block", &f, NULL, GDW_PCAP_ERR_MALFORMED, at, "a pcapng block of 14 bytes at byte 48: not a multiple of 4"), run_free(&r);
    f.n = at, put32(&f, 6), put32(&f, 28), put32(&f, 0), put32(&f, 0), put32(&f, 0), put32(&f, 0), put32(&f, 28);
    r = expect_error("a 28-byte EPB", &f, NULL, GDW_PCAP_ERR_MALFORMED, at, "an Enhanced Packet Block of 28 bytes at byte 48: shorter than its 32-byte least"), run_free(&r);

    /* a block 4,096 bytes in, whose two lengths differ */
    f.n = at;
    while (f.n < 4096) epb(&f, 0, 0, frame, 60, 60); /* 92 bytes each */
    blob g = {0};
    put(&g, f.p, f.n);
    size_t n_before = (f.n - at) / 92, at2 = f.n;
    epb(&g, 0, 0, frame, 60, 60);
    g.p[g.n - 4] = 88;
    snprintf(want, sizeof want, "an Enhanced Packet Block at byte %s says 92 bytes at its start and 88 at its end", grouped(at2, a));
    r = expect_error("lengths that differ", &g, NULL, GDW_PCAP_ERR_MALFORMED, at2, want);
    CHECK(r.n == n_before, "lengths that differ: the %zu records before it (%zu)", n_before, r.n);
    run_free(&r);
    /* the same in a skipped block */
    g.n = at2, put32(&g, 0x0BADu), put32(&g, 16), put32(&g, 0), put32(&g, 20);
    snprintf(want, sizeof want, "a pcapng block at byte %s says 16 bytes at its start and 20 at its end", grouped(at2, a));
    r = expect_error("a skipped block's lengths differ", &g, NULL, GDW_PCAP_ERR_MALFORMED, at2, want), run_free(&r);

    /* an EPB of interface 1 where the section has 1; captured bytes past the block's room */
    g.n = at2, epb(&g, 1, 0, frame, 60, 60);
    snprintf(want, sizeof want, "an Enhanced Packet Block at byte %s names interface 1: its section has 1", grouped(at2, a));
    r = expect_error("an unknown interface", &g, NULL, GDW_PCAP_ERR_MALFORMED, at2, want), run_free(&r);
    g.n = at2, epb(&g, 0, 0, frame, 60, 60);
    g.p[at2 + 20] = 61;
    snprintf(want, sizeof want, "an Enhanced Packet Block at byte %s says it captured 61 bytes: the block has room for 60", grouped(at2, a));
    r = expect_error("captured past the room", &g, NULL, GDW_PCAP_ERR_MALFORMED, at2, want), run_free(&r);

    /* an SPB before any IDB; an IDB option past its block; if_tsresol and if_tsoffset of the wrong size */
    blob h = {0}, body = {0};
    shb(&h);
    put32(&body, 60), put(&body, frame, 60);
    block(&h, 3, &body);
    r = expect_error("an SPB first", &h, NULL, GDW_PCAP_ERR_MALFORMED, 28, "a Simple Packet Block at byte 28 before any Interface Description Block of its section"), run_free(&r);
    blob o = {0};
    h.n = 28, put16(&o, 2), put16(&o, 9), put(&o, "eth0", 4); /* 9 bytes of name, 4 there: its padded 12 pass the block */
    idb(&h, 1, 0, &o);
    r = expect_error("an option past its block", &h, NULL, GDW_PCAP_ERR_MALFORMED, 44, "an option (code 2) of 9 bytes at byte 44: past the end of its Interface Description Block at byte 28"),
    run_free(&r);
    h.n = 28, o.n = 0, option(&o, 9, "\x06\x00", 2), idb(&h, 1, 0, &o);
    r = expect_error("if_tsresol of 2 bytes", &h, NULL, GDW_PCAP_ERR_MALFORMED, 44, "an if_tsresol option of 2 bytes at byte 44: it has 1"), run_free(&r);
    h.n = 28, o.n = 0, option(&o, 14, "\x01\x00\x00\x00", 4), idb(&h, 1, 0, &o);
    r = expect_error("if_tsoffset of 4 bytes", &h, NULL, GDW_PCAP_ERR_MALFORMED, 44, "an if_tsoffset option of 4 bytes at byte 44: it has 8"), run_free(&r);
    h.n = 28, o.n = 0, option(&o, 9, "\x14", 1), idb(&h, 1, 0, &o);
    r = expect_error("if_tsresol 10^-20", &h, NULL, GDW_PCAP_ERR_MALFORMED, 44, "an if_tsresol of 10^-20 at byte 44: a second has more units than 64 bits count"), run_free(&r);
    h.n = 28, o.n = 0, option(&o, 9, "\xc0", 1), idb(&h, 1, 0, &o);
    r = expect_error("if_tsresol 2^-64", &h, NULL, GDW_PCAP_ERR_MALFORMED, 44, "an if_tsresol of 2^-64 at byte 44: a second has more units than 64 bits count"), run_free(&r);

    /* a Section Header Block: byte-order magic, version */
    blob s = {0};
    shb(&s);
    s.p[8] = 0x4e;
    r = expect_error("a bad byte-order magic", &s, NULL, GDW_PCAP_ERR_MALFORMED, 8,
                     "a Section Header Block at byte 0 whose byte-order magic is 4e 3c 2b 1a: neither order of 1a2b3c4d");
    CHECK(r.format == GDW_PCAP_FORMAT_UNKNOWN, "a bad byte-order magic: a format");
    run_free(&r);
    s.p[8] = 0x4d, s.p[12] = 2;
    r = expect_error("pcapng 2.0", &s, NULL, GDW_PCAP_ERR_UNSUPPORTED, 12, "a pcapng section of version 2.0 at byte 0: only version 1 is read"), run_free(&r);

    /* pcap: a record past the cap (the default 16 MiB, and a caller's 256 KiB) */
    blob p = pcap_header(0xA1B2C3D4u, 2, 4, 1);
    pcap_rec(&p, 1, 0, frame, 60, 60);
    put32(&p, 2), put32(&p, 0), put32(&p, 16u << 20), put32(&p, 16u << 20);
    r = expect_error("a 16 MiB pcap record", &p, NULL, GDW_PCAP_ERR_TOO_BIG, 100,
                     "a pcap record at byte 100 says it captured 16,777,216 bytes: with its 16-byte header, past max_record_bytes (16,777,216)");
    CHECK(r.n == 1 && r.max_buffer == 0, "a 16 MiB pcap record: the record before it, nothing held");
    run_free(&r);
    gdw_pcap_options small = gdw_pcap_options_default();
    small.max_record_bytes = 256u << 10;
    p.n = 100, put32(&p, 2), put32(&p, 0), put32(&p, 300000), put32(&p, 300000);
    r = expect_error("a 300,000-byte record past a 256 KiB cap", &p, &small, GDW_PCAP_ERR_TOO_BIG, 100,
                     "a pcap record at byte 100 says it captured 300,000 bytes: with its 16-byte header, past max_record_bytes (262,144)");
    run_free(&r);
    run st = read_stream(p.p, p.n, 0, &small);
    CHECK(st.end == GDW_PCAP_ERR_TOO_BIG && st.max_buffer == 64u << 10, "streamed, a record past the cap is refused before the buffer grows (%zu)", st.max_buffer);
    run_free(&st);

    /* max_interfaces */
    blob m = {0};
    shb(&m);
    for (int i = 0; i < 3; i++) idb(&m, 1, 0, NULL);
    gdw_pcap_options two = gdw_pcap_options_default();
    two.max_interfaces = 2;
    r = expect_error("a third interface", &m, &two, GDW_PCAP_ERR_TOO_MANY_INTERFACES, 68, "an Interface Description Block at byte 68: its section already has 2 interfaces (max_interfaces)");
    run_free(&r);
    shb(&m), idb(&m, 101, 0, NULL), idb(&m, 1, 0, NULL), epb(&m, 1, 0, frame, 60, 60); /* a new section: its interfaces from 0 again */
    gdw_pcap *rd = gdw_pcap_open_memory(m.p + 88, m.n - 88, &two);
    gdw_pcap_record rec;
    CHECK(gdw_pcap_next(rd, &rec, NULL) == GDW_PCAP_OK && rec.link == 1 && rec.interface == 1 && rec.section == 0 && gdw_pcap_interface_count(rd) == 2,
          "a section after a section: its own interfaces");
    gdw_pcap_free(rd);

    printf("malformed pcapng and pcap: short, unaligned and mismatched block lengths (a record 4 KiB in: the %zu before it kept), an unknown interface, "
           "captured bytes past the room, an SPB before any IDB, options past their block or of the wrong size, resolutions past 64 bits, a bad "
           "byte-order magic, pcapng 2.0, records past the cap, too many interfaces: each its code, offset and message\n",
           n_before);
    free(f.p), free(g.p), free(h.p), free(body.p), free(o.p), free(s.p), free(p.p), free(m.p);
}

/* Resolutions, offsets and the time's ends, on hand-built pcapng interfaces. */
static void time_checks(void) {
    static const uint8_t frame[4] = {0};
    struct { uint8_t tsresol; bool has_res; int64_t tsoffset; uint64_t ts; int64_t s; uint32_t ns; uint64_t units; } cases[] = {
        {0, false, 0, 1700000000123456ull, 1700000000, 123456000, 1000000u},           /* the default: microseconds */
        {9, true, 0, 1700000000123456789ull, 1700000000, 123456789, 1000000000u},      /* nanoseconds */
        {3, true, 0, 1700000000123ull, 1700000000, 123000000, 1000u},                  /* milliseconds */
        {0, true, 0, 1700000000ull, 1700000000, 0, 1u},                                /* seconds */
        {12, true, 0, 0, 0, 0, 1000000000000ull}, /* filled below */
        {0x80 | 20, true, 0, (1700000000ull << 20) | (1u << 19), 1700000000, 500000000, 1u << 20}, /* 2^-20: half a second */
        {0x80 | 30, true, 0, (3ull << 30) | 1u, 3, 0, 1u << 30},                       /* 2^-30: 0.93 ns, cut to 0 */
        {0x80 | 63, true, 0, (1ull << 63) - 1u, 0, 999999999, 1ull << 63},             /* just under a second in 2^-63 */
        {6, true, -1700000000, 1700000001500000ull, 1, 500000000, 1000000u},           /* if_tsoffset, negative */
        {6, true, INT64_MAX, 5000000ull, INT64_MAX, 0, 1000000u},                      /* an offset past the end: held */
        {0, true, INT64_MIN, UINT64_MAX, (int64_t)(UINT64_MAX - (1ull << 63)), 0, 1u}, /* 2^64 - 1 seconds, less 2^63 */
        {0, true, 0, UINT64_MAX, INT64_MAX, 0, 1u},                                    /* past int64_t: held */
    };
    /* 10^-12: 1,700,000,000.123456789012 s is past 64 bits; take 12,345,678.901234567890 s */
    cases[4].ts = 12345678901234567890ull, cases[4].s = 12345678, cases[4].ns = 901234567;
    size_t n = sizeof cases / sizeof cases[0], ok = 0;
    for (size_t i = 0; i < n; i++) {
        blob f = {0}, o = {0};
        shb(&f);
        if (cases[i].has_res) option(&o, 9, &cases[i].tsresol, 1);
        if (cases[i].tsoffset) {
            uint8_t v[8];
            uint64_t u = (uint64_t)cases[i].tsoffset;
            for (int k = 0; k < 8; k++) v[k] = (uint8_t)(u >> (8 * k));
            option(&o, 14, v, 8);
        }
        option(&o, 0, NULL, 0);
        idb(&f, 1, 0, &o);
        epb(&f, 0, cases[i].ts, frame, 4, 4);
        gdw_pcap *p = gdw_pcap_open_memory(f.p, f.n, NULL);
        gdw_pcap_record r;
        gdw_pcap_interface itf;
        bool good = gdw_pcap_next(p, &r, NULL) == GDW_PCAP_OK && r.has_time && r.seconds == cases[i].s && r.nanoseconds == cases[i].ns &&
                    gdw_pcap_get_interface(p, 0, &itf) && itf.units_per_second == cases[i].units && itf.offset_seconds == cases[i].tsoffset &&
                    r.time == (double)cases[i].s + cases[i].ns / 1e9;
        CHECK(good, "time case %zu: %lld.%09u, want %lld.%09u", i, (long long)r.seconds, r.nanoseconds, (long long)cases[i].s, cases[i].ns);
        ok += good;
        gdw_pcap_free(p);
        free(f.p), free(o.p);
    }
    /* classic pcap: a microsecond fraction past a second carries */
    blob p = pcap_header(0xA1B2C3D4u, 2, 4, 1);
    pcap_rec(&p, 10, 2500000, frame, 4, 4);
    run r = read_memory(p.p, p.n, NULL);
    CHECK(r.n == 1 && r.recs[0].r.seconds == 12 && r.recs[0].r.nanoseconds == 500000000, "a fraction of 2,500,000 us");
    run_free(&r), free(p.p);
    printf("time: %zu of %zu resolutions and offsets (10^0 to 10^-12, 2^-20 to 2^-63, if_tsoffset both ways, held at int64_t's ends), and a pcap "
           "fraction past a second\n",
           ok, n);
}

/* Files of version 2.0-2.2 wrote the lengths swapped, 2.3 either way; a big-endian nanosecond file. */
static void version_checks(void) {
    static const uint8_t frame[80] = {9};
    blob v22 = pcap_header(0xA1B2C3D4u, 2, 2, 1), v23 = pcap_header(0xA1B2C3D4u, 2, 3, 1);
    put32(&v23, 1), put32(&v23, 0), put32(&v23, 80), put32(&v23, 60), put(&v23, frame, 60); /* swapped */
    put32(&v23, 1), put32(&v23, 0), put32(&v23, 60), put32(&v23, 80), put(&v23, frame, 60); /* as it should be */
    put32(&v22, 1), put32(&v22, 0), put32(&v22, 80), put32(&v22, 60), put(&v22, frame, 60); /* swapped: 60 captured of 80 */
    run a = read_memory(v22.p, v22.n, NULL), b = read_memory(v23.p, v23.n, NULL);
    CHECK(a.end == GDW_PCAP_END && a.n == 1 && a.recs[0].r.caplen == 60 && a.recs[0].r.wirelen == 80, "pcap 2.2: lengths swapped");
    CHECK(b.end == GDW_PCAP_END && b.n == 2 && b.recs[0].r.caplen == 60 && b.recs[0].r.wirelen == 80 && b.recs[1].r.caplen == 60 && b.recs[1].r.wirelen == 80,
          "pcap 2.3: lengths either way");
    run_free(&a), run_free(&b);
    /* the link type's upper 16 bits (FCS length and its flag) are not the link type */
    blob fcs = pcap_header(0xA1B2C3D4u, 2, 4, 0x24000000u | 1u);
    pcap_rec(&fcs, 1, 0, frame, 60, 64);
    run c = read_memory(fcs.p, fcs.n, NULL);
    CHECK(c.n == 1 && c.recs[0].r.link == 1, "the FCS bits of the link-type field are masked: %d", c.n ? c.recs[0].r.link : -1);
    run_free(&c);
    /* big-endian nanoseconds */
    blob be = {0};
    put(&be, "\xa1\xb2\x3c\x4d\x00\x02\x00\x04\0\0\0\0\0\0\0\0\x00\x04\x00\x00\x00\x00\x00\x65", 24);
    put(&be, "\x00\x00\x00\x07\x3b\x9a\xc9\xff\x00\x00\x00\x04\x00\x00\x00\x05", 16), put(&be, frame, 4);
    gdw_pcap *p = gdw_pcap_open_memory(be.p, be.n, NULL);
    gdw_pcap_record r;
    gdw_pcap_interface itf;
    CHECK(gdw_pcap_next(p, &r, NULL) == GDW_PCAP_OK && gdw_pcap_get_format(p) == GDW_PCAP_FORMAT_PCAP_NSEC && r.seconds == 7 && r.nanoseconds == 999999999 &&
              r.link == 101 && r.caplen == 4 && r.wirelen == 5 && gdw_pcap_get_interface(p, 0, &itf) && itf.snaplen == 262144 && itf.units_per_second == 1000000000u,
          "a big-endian nanosecond pcap");
    CHECK(gdw_pcap_next(p, &r, NULL) == GDW_PCAP_END && gdw_pcap_next(p, &r, NULL) == GDW_PCAP_END, "END, and END again");
    gdw_pcap_free(p);
    printf("pcap versions: 2.2's swapped lengths, 2.3's either way, the FCS bits masked, a big-endian nanosecond file\n");
    free(v22.p), free(v23.p), free(fcs.p), free(be.p);
}

/* The obsolete Packet Block (type 2): a 16-bit interface and a drops count where the EPB has a 32-bit interface. */
static void packet_block_checks(void) {
    static const uint8_t frame[61] = {1, 2, 3};
    blob f = {0}, o = {0}, x = {0};
    shb(&f), idb(&f, 1, 0, NULL);
    option(&o, 9, "\x09", 1), option(&o, 0, NULL, 0);
    idb(&f, 101, 128, &o);
    put16(&x, 1), put16(&x, 3), put32(&x, 0x00000001u), put32(&x, 0x00000002u), put32(&x, 61), put32(&x, 1500), put(&x, frame, 61);
    for (int k = 0; k < 3; k++) put(&x, "", 1);
    put16(&x, 1), put16(&x, 5), put(&x, "hello\0\0\0", 8), put32(&x, 0); /* a comment, then opt_endofopt */
    size_t at = f.n;
    block(&f, 2, &x);
    run r = read_memory(f.p, f.n, NULL);
    uint64_t ts = (1ull << 32) | 2u;
    CHECK(r.end == GDW_PCAP_END && r.n == 1 && r.recs[0].r.interface == 1 && r.recs[0].r.link == 101 && r.recs[0].r.caplen == 61 && r.recs[0].r.wirelen == 1500 &&
              r.recs[0].r.seconds == (int64_t)(ts / 1000000000u) && r.recs[0].r.nanoseconds == ts % 1000000000u && r.recs[0].r.offset == at &&
              memcmp(r.recs[0].bytes, frame, 61) == 0,
          "a Packet Block");
    run_free(&r);
    f.p[at + 8] = 2; /* interface 2 of 2 */
    char want[160];
    snprintf(want, sizeof want, "a Packet Block at byte %zu names interface 2: its section has 2", at);
    r = expect_error("a Packet Block's unknown interface", &f, NULL, GDW_PCAP_ERR_MALFORMED, at, want), run_free(&r);
    printf("the obsolete Packet Block: its 16-bit interface, time, lengths and bytes; an interface its section lacks\n");
    free(f.p), free(o.p), free(x.p);
}

/* Memory: the buffer grows to the largest record seen (doubling, never past the cap); a block nobody reads is
 * skipped in the buffer there is, however large; what is allocated is freed; a failing allocator gives NOMEM. */
typedef struct counting {
    size_t live, peak, calls, fail_from;
} counting;
static void *c_malloc(void *ctx, size_t n) {
    counting *c = ctx;
    if (c->calls++ >= c->fail_from) return NULL;
    c->live += n;
    if (c->live > c->peak) c->peak = c->live;
    return malloc(n);
}
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)ctx, (void)p, (void)o, (void)n;
    abort(); /* the reader never reallocates */
}
static void c_free(void *ctx, void *p, size_t n) {
    counting *c = ctx;
    c->live -= n;
    free(p);
}

static void memory_checks(void) {
    /* one 1 MiB record among small ones */
    static uint8_t big[1u << 20];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7);
    blob p = pcap_header(0xA1B2C3D4u, 2, 4, 1);
    pcap_rec(&p, 1, 0, big, 60, 60);
    pcap_rec(&p, 2, 0, big, sizeof big, sizeof big);
    pcap_rec(&p, 3, 0, big, 60, 60);
    counting c = {0, 0, 0, SIZE_MAX};
    gdw_allocator al = {c_malloc, c_realloc, c_free, &c};
    gdw_pcap_options o = gdw_pcap_options_default();
    o.alloc = &al;
    run m = read_memory(p.p, p.n, &o);
    CHECK(m.end == GDW_PCAP_END && m.n == 3 && m.recs[1].r.caplen == sizeof big && memcmp(m.recs[1].bytes, big, sizeof big) == 0, "a 1 MiB record");
    CHECK(c.peak < 1024 && c.live == 0, "from memory, nothing but the reader is allocated (%zu at the peak), and it is freed (%zu left)", c.peak, c.live);
    c.peak = 0;
    run s = read_stream(p.p, p.n, 2, &o);
    char why[300];
    CHECK(same_run(&m, &s, why, sizeof why), "a 1 MiB record, streamed: %s", why);
    CHECK(s.max_buffer == sizeof big + 16, "the buffer grew to %zu for a record of %zu", s.max_buffer, sizeof big + 16);
    CHECK(c.peak <= s.max_buffer + 1024 + s.max_buffer / 2 + 65536 && c.live == 0, "streamed: %zu at the peak for a buffer of %zu; %zu left", c.peak, s.max_buffer, c.live);
    run_free(&m), run_free(&s);
    /* a custom block of 20 MiB (past the 16 MiB cap) between two packets: skipped, the buffer stays 64 KiB */
    blob f = {0};
    static const uint8_t frame[60] = {7};
    shb(&f), idb(&f, 1, 0, NULL), epb(&f, 0, 1, frame, 60, 60);
    size_t skip_at = f.n;
    uint32_t skip_len = 20u << 20;
    put32(&f, 0x40000BADu), put32(&f, skip_len);
    size_t body = skip_len - 12;
    uint8_t *zero = calloc(body, 1);
    put(&f, zero, body), put32(&f, skip_len);
    free(zero);
    epb(&f, 0, 2, frame, 60, 60);
    c.peak = 0;
    run k = read_stream(f.p, f.n, 0, &o);
    CHECK(k.end == GDW_PCAP_END && k.n == 2 && k.recs[1].r.offset == skip_at + skip_len && k.max_buffer == 64u << 10 && c.peak < (64u << 10) + 4096,
          "a 20 MiB block skipped: %zu records, buffer %zu, peak %zu", k.n, k.max_buffer, c.peak);
    run_free(&k);
    f.n = skip_at + 8 + 1000; /* the file ends inside it */
    char want[200], a[32];
    snprintf(want, sizeof want, "truncated file: it ends inside the pcapng block at byte %s: 1,008 of its 20,971,520 bytes", grouped(skip_at, a));
    run t = expect_error("ends inside a skipped block", &f, NULL, GDW_PCAP_ERR_TRUNCATED, skip_at, want);
    CHECK(t.n == 1, "ends inside a skipped block: the record before it");
    run_free(&t);
    /* every allocation failing in turn: NULL from open, or NOMEM from next; nothing leaks */
    size_t nomem = 0, fine = 0;
    for (size_t from = 0; from < 8; from++) {
        counting d = {0, 0, 0, from};
        gdw_allocator ad = {c_malloc, c_realloc, c_free, &d};
        gdw_pcap_options od = gdw_pcap_options_default();
        od.alloc = &ad;
        source src = {p.p, p.n, 0, 0, 1, SIZE_MAX, false};
        gdw_pcap *r = gdw_pcap_open_stream(source_read, &src, &od);
        run x = read_all(r);
        if (x.end == GDW_PCAP_ERR_NOMEM) nomem++;
        else fine += x.end == GDW_PCAP_END && x.n == 3;
        CHECK(d.live == 0, "failing from allocation %zu: %zu bytes left", from, d.live);
        CHECK(x.end == GDW_PCAP_END || x.end == GDW_PCAP_ERR_NOMEM, "failing from allocation %zu: %s", from, gdw_pcap_status_name(x.end));
        run_free(&x);
    }
    CHECK(nomem >= 2 && fine >= 1, "allocation failures: %zu NOMEM, %zu whole", nomem, fine);
    printf("memory: a 1 MiB record grows the stream's buffer to %s and no further, a 20 MiB block is skipped in 64 KiB, every byte "
           "allocated is freed, failing allocations give NOMEM (%zu) until the reading succeeds\n",
           "its size", nomem);
    free(p.p), free(f.p);
}

static void api_checks(void) {
    static const uint8_t frame[60] = {0};
    blob p = pcap_header(0xA1B2C3D4u, 2, 4, 1);
    pcap_rec(&p, 1, 0, frame, 60, 60);
    pcap_rec(&p, 2, 0, frame, 60, 60);
    /* read errors, after the first record */
    source s = {p.p, p.n, 0, 0, 1, 124, false};
    run r = read_all(gdw_pcap_open_stream(source_read, &s, NULL));
    CHECK(r.n == 1 && r.end == GDW_PCAP_ERR_READ && r.err.offset == 100 && strcmp(r.err.message, "reading the input failed after byte 124") == 0,
          "a read error: %zu records, %s at %llu \"%s\"", r.n, gdw_pcap_status_name(r.end), (unsigned long long)r.err.offset, r.err.message);
    run_free(&r);
    source o = {p.p, p.n, 0, 0, 1, SIZE_MAX, true};
    r = read_all(gdw_pcap_open_stream(source_read, &o, NULL));
    CHECK(r.n == 0 && r.end == GDW_PCAP_ERR_READ && strcmp(r.err.message, "the read callback gave 65537 bytes where 65536 were asked for") == 0, "a callback past its room: \"%s\"",
          r.err.message);
    run_free(&r);
    /* arguments */
    gdw_pcap_options tiny = gdw_pcap_options_default();
    tiny.max_record_bytes = 63;
    gdw_pcap_record rec;
    gdw_pcap_error err;
    CHECK(!gdw_pcap_open_memory(NULL, 4, NULL) && !gdw_pcap_open_stream(NULL, NULL, NULL) && !gdw_pcap_open_memory(p.p, p.n, &tiny), "invalid opens give NULL");
    CHECK(gdw_pcap_next(NULL, &rec, &err) == GDW_PCAP_ERR_INVALID_ARG && err.status == GDW_PCAP_ERR_INVALID_ARG && strcmp(err.message, "gdw_pcap_next without a reader") == 0,
          "next without a reader");
    gdw_pcap *q = gdw_pcap_open_memory(NULL, 0, NULL);
    CHECK(q && gdw_pcap_next(q, NULL, &err) == GDW_PCAP_ERR_INVALID_ARG && gdw_pcap_next(q, &rec, &err) == GDW_PCAP_ERR_NOT_CAPTURE, "next without a record, then an empty input");
    gdw_pcap_free(q);
    gdw_pcap_free(NULL);
    CHECK(gdw_pcap_get_format(NULL) == GDW_PCAP_FORMAT_UNKNOWN && gdw_pcap_interface_count(NULL) == 0 && !gdw_pcap_get_interface(NULL, 0, NULL) &&
              gdw_pcap_bytes_read(NULL) == 0 && gdw_pcap_buffer_bytes(NULL) == 0,
          "the getters take NULL");
    /* with a cap of 64 bytes, records of 76 are refused and the buffer is 64 bytes */
    tiny.max_record_bytes = 64;
    run t = read_stream(p.p, p.n, 0, &tiny);
    CHECK(t.n == 0 && t.end == GDW_PCAP_ERR_TOO_BIG && t.max_buffer == 64, "a 64-byte cap");
    run_free(&t);
    /* the status names: every code one, past them "?" */
    bool named = true;
    for (int i = GDW_PCAP_OK; i <= GDW_PCAP_ERR_INVALID_ARG; i++) named &= strcmp(gdw_pcap_status_name((gdw_pcap_status)i), "?") != 0;
    CHECK(named && strcmp(gdw_pcap_status_name(GDW_PCAP_ERR_TRUNCATED), "truncated") == 0 && strcmp(gdw_pcap_status_name((gdw_pcap_status)11), "?") == 0, "status names");
    printf("the API: read errors with their offsets, invalid arguments, NULL getters, a 64-byte cap, every status named\n");
    free(p.p);
}

/* ---- through the session library --------------------------------------------------------------------------- */

typedef struct digest {
    size_t messages, problems;
    uint64_t h;
} digest;

static void on_message(void *ctx, const gdw_message *m) {
    digest *d = ctx;
    d->messages++;
    for (size_t i = 0; i < m->len; i++) d->h = (d->h ^ m->bytes[i]) * 1099511628211ull;
    d->h = (d->h ^ (uint64_t)m->from) * 1099511628211ull;
    d->h = (d->h ^ (uint64_t)m->mp->command) * 1099511628211ull;
}

static void on_problem(void *ctx, const gdw_session_problem *p) {
    digest *d = ctx;
    d->problems++;
    for (const char *c = p->layer; *c; c++) d->h = (d->h ^ (uint8_t)*c) * 1099511628211ull;
    d->h = (d->h ^ p->frame) * 1099511628211ull;
}

/* The messages of a file's first `limit` records, each handed over with its own link type. */
static digest session_of(const char *path, size_t limit) {
    digest d = {0, 0, 14695981039346656037ull};
    blob f = load(path);
    gdw_session *s = gdw_session_new(NULL, on_message, on_problem, &d);
    gdw_pcap *p = gdw_pcap_open_memory(f.p, f.n, NULL);
    gdw_pcap_record r;
    for (size_t i = 0; i < limit && gdw_pcap_next(p, &r, NULL) == GDW_PCAP_OK; i++) gdw_session_frame(s, r.link, r.data, r.caplen, r.wirelen, r.time);
    gdw_session_finish(s);
    gdw_session_free(s);
    gdw_pcap_free(p);
    free(f.p);
    return d;
}

static void session_checks(void) {
    const char *pairs[2][2] = {{"godot3.6-enet-zlib.pcap", "godot3.6-enet-zlib.pcapng"}, {"godot4.6-enet.pcap", "mixed-links.pcapng"}};
    for (int i = 0; i < 2; i++) {
        const char *a = find_file(pairs[i][0]), *b = find_file(pairs[i][1]);
        CHECK(a && b, "%s and %s are among the arguments", pairs[i][0], pairs[i][1]);
        if (!a || !b) continue;
        size_t limit = i == 0 ? SIZE_MAX : 80; /* mixed-links.pcapng holds the session's first 80 frames */
        digest x = session_of(a, limit), y = session_of(b, limit);
        /* the first 80 frames end inside a fragmented packet: one problem at the end, in both */
        CHECK(x.messages > 10 && x.messages == y.messages && x.h == y.h && x.problems == (i ? 1u : 0u) && y.problems == x.problems,
              "%s: %zu messages, %zu problems; %s: %zu, %zu", pairs[i][0], x.messages, x.problems, pairs[i][1], y.messages, y.problems);
        printf("the session library on %s: the %zu messages of %s, the same bytes%s\n", pairs[i][1], y.messages, pairs[i][0],
               i ? " (its frames 41-80 as raw IP, LINKTYPE_RAW, on a second interface)" : "");
    }
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: pcap_test FILE...\n"); return 2; }
    for (int i = 1; i < argc && g_n_files < 256; i++) g_files[g_n_files++] = (named){argv[i], base_name(argv[i])};
    size_t files = 0;
    for (size_t i = 0; i < g_n_files; i++) {
        const char *n = g_files[i].name;
        if (!ends_with(n, ".pcap") && !ends_with(n, ".pcapng")) continue;
        char tsv[256];
        snprintf(tsv, sizeof tsv, "%s.tsv", n);
        const char *t = find_file(tsv);
        if (!t) continue;
        tshark_checks(g_files[i].path, t);
        files++;
    }
    CHECK(files >= 15, "%zu captures with tshark's expectations (want the 8 sessions and 7 made here)", files);
    static const char *const cut[] = {"godot3.6-enet-zlib.pcap", "mixed-links.pcapng", "two-sections.pcapng", "spb.pcapng"};
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        const char *p = find_file(cut[i]);
        CHECK(p != NULL, "%s is among the arguments", cut[i]);
        if (p) cut_checks(p);
    }
    not_capture_checks();
    malformed_checks();
    time_checks();
    version_checks();
    packet_block_checks();
    memory_checks();
    api_checks();
    session_checks();
    printf("%zu records of %zu files held against tshark's\n", g_records_vs_tshark, files);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}

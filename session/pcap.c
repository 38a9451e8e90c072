/* SPDX-License-Identifier: MIT
 * pcap.c — gdwire's own reader of capture files (gdwire_pcap.h), written from the formats' descriptions:
 * draft-ietf-opsawg-pcap (classic pcap) and draft-ietf-opsawg-pcapng (pcapng).
 *
 * Classic pcap: a 24-byte file header (magic, version 2.x, thiszone, sigfigs, snaplen, link type), then
 * records of a 16-byte header (seconds, the fraction in micro- or nanoseconds by the magic, the captured
 * and the original length) and the captured bytes. The magic's byte order is the file's. The link-type
 * field's upper 16 bits carry the FCS length and reserved bits: the link type is the low 16. Files of
 * version 2.0-2.2 wrote the two lengths the other way round, and 2.3 files either way; libpcap's documented
 * handling is followed (2.0-2.2: swapped; 2.3: swapped when the captured length passes the original).
 * thiszone is ignored, as every reader does (writers leave it 0).
 *
 * pcapng: blocks of [type, total length, body, total length again], each 4-byte aligned. A Section Header
 * Block (0x0A0D0D0A, a palindrome, so it is found whatever the byte order) starts a section; its byte-order
 * magic 0x1A2B3C4D says the section's order, and it resets the interfaces. Interface Description Blocks
 * (1) number the interfaces from 0 in their section; their options if_tsresol (9) and if_tsoffset (14) set
 * the time's unit and offset. Packets come in Enhanced Packet Blocks (6), Simple Packet Blocks (3: interface
 * 0, no time, the captured length is the least of the original length, the interface's snaplen and the
 * block's room) and the obsolete Packet Blocks (2). Every other block is skipped by its length.
 *
 * Every input byte is read through look() and take() (the one cursor); multi-byte fields are assembled from
 * bytes, never loaded through a cast pointer. Every length is checked against what holds it before any sum
 * that could wrap. */
#include "gdwire_pcap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCAP_FILE_HEADER 24u
#define PCAP_RECORD_HEADER 16u
#define BLOCK_FRAME 12u             /* type, total length, total length again */
#define STREAM_FIRST_BUFFER (64u << 10)
#define MIN_RECORD_CAP 64u          /* room for any header the reader must hold whole */

enum { BLOCK_SHB = 0x0A0D0D0Au, BLOCK_IDB = 1, BLOCK_PB = 2, BLOCK_SPB = 3, BLOCK_EPB = 6 };
enum { OPT_END = 0, OPT_IF_TSRESOL = 9, OPT_IF_TSOFFSET = 14 };
/* the two lengths of a classic pcap record, by the file's version (see the head of the file) */
enum { LENGTHS_AS_WRITTEN, LENGTHS_SWAPPED, LENGTHS_MAYBE_SWAPPED };

typedef struct iface {
    gdw_pcap_interface pub;
    uint8_t exponent;  /* units_per_second is 10^exponent, or 2^exponent when pow2 */
    bool pow2;
} iface;

struct gdw_pcap {
    size_t max_record;
    size_t max_interfaces;
    const gdw_allocator *alloc;
    /* the source: a caller's buffer, or a read callback and a window of its bytes */
    const uint8_t *mem;
    size_t mem_len;
    gdw_pcap_read_fn read;
    void *ctx;
    uint8_t *buf;
    size_t buf_cap, head, tail; /* the unread bytes pulled from read are buf[head .. tail) */
    bool eof;                   /* read said the input ended: it is not called again */
    uint64_t pos;               /* the file offset of the cursor: the next byte not taken */
    uint64_t pulled;            /* bytes read gave */
    /* what was read */
    gdw_pcap_format format;
    gdw_pcap_status done;       /* GDW_PCAP_OK while there is more; END or the error once it ended */
    gdw_pcap_error err;
    bool big_endian;            /* the file's order (pcap) or the current section's (pcapng) */
    int lengths;                /* pcap: LENGTHS_* */
    uint32_t ns_per_unit;       /* pcap: 1,000 (microseconds) or 1 (nanoseconds) */
    uint32_t section;
    iface *ifs;
    size_t n_ifs, cap_ifs;
    uint64_t records;
};

static const char *const k_status_name[] = {"ok",        "end",     "not_capture",         "unsupported", "truncated", "malformed",
                                            "too_big",   "too_many_interfaces", "read", "nomem",       "invalid_arg"};

const char *gdw_pcap_status_name(gdw_pcap_status s) {
    return (unsigned)s < sizeof k_status_name / sizeof *k_status_name ? k_status_name[s] : "?";
}

gdw_pcap_options gdw_pcap_options_default(void) {
    gdw_pcap_options o;
    memset(&o, 0, sizeof o);
    return o;
}

/* ---- memory ------------------------------------------------------------------------------------- */

static void *mem_alloc(const gdw_allocator *a, size_t n) { return a ? a->malloc_fn(a->ctx, n) : malloc(n); }

static void mem_free(const gdw_allocator *a, void *p, size_t n) {
    if (!p) return;
    if (a) a->free_fn(a->ctx, p, n);
    else free(p);
}

/* ---- messages ----------------------------------------------------------------------------------- */

/* 4096 as "4,096": offsets and lengths in messages are read by people */
static const char *grouped(uint64_t v, char out[32]) {
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = 0;
    return out;
}

/* Ends the reading with an error: every later gdw_pcap_next gives it again. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static gdw_pcap_status fail(gdw_pcap *r, gdw_pcap_status status, uint64_t offset, const char *fmt, ...) {
    r->done = status;
    r->err.status = status;
    r->err.offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err.message, sizeof r->err.message, fmt, ap);
    va_end(ap);
    return status;
}

/* ---- the cursor --------------------------------------------------------------------------------- */

static uint16_t rd16(const gdw_pcap *r, const uint8_t *p) {
    return r->big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t rd32(const gdw_pcap *r, const uint8_t *p) {
    return r->big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                         : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t rd64(const gdw_pcap *r, const uint8_t *p) {
    uint64_t a = rd32(r, p), b = rd32(r, p + 4);
    return r->big_endian ? a << 32 | b : b << 32 | a;
}

/* The stream's buffer made at least n bytes (n <= max_record: the callers check a record's size first): twice
 * what it was, or n if that is more, never past the cap. A new buffer takes only the unread bytes, so growing
 * costs what a compaction costs. */
static bool grow(gdw_pcap *r, size_t n) {
    /* at least doubled, so records growing a little at a time cost linear time; at most the cap or the record */
    size_t cap = r->buf_cap > r->max_record / 2 ? r->max_record : r->buf_cap * 2;
    if (cap < n) cap = n;
    uint8_t *b = mem_alloc(r->alloc, cap);
    if (!b) return false;
    size_t have = r->tail - r->head;
    memcpy(b, r->buf + r->head, have);
    mem_free(r->alloc, r->buf, r->buf_cap);
    r->buf = b, r->buf_cap = cap, r->head = 0, r->tail = have;
    return true;
}

/* look: make the next n bytes readable without taking them: *p points at them and *got says how many there
 * are (n, or fewer where the input ends first). False when reading failed or memory ran out (the reading has
 * then ended with that error). */
static bool look(gdw_pcap *r, size_t n, const uint8_t **p, size_t *got) {
    if (!r->read) {
        size_t left = r->mem_len - (size_t)r->pos;
        *p = r->mem + (size_t)r->pos;
        *got = left < n ? left : n;
        return true;
    }
    if (r->tail - r->head < n && !r->eof) {
        if (n > r->buf_cap && !grow(r, n)) {
            char a[32], b[32];
            fail(r, GDW_PCAP_ERR_NOMEM, r->pos, "out of memory for a record of %s bytes at byte %s", grouped(n, a), grouped(r->pos, b));
            return false;
        }
        if (r->buf_cap - r->head < n) { /* the record's start moves to the front; what is read next lands behind it */
            memmove(r->buf, r->buf + r->head, r->tail - r->head);
            r->tail -= r->head;
            r->head = 0;
        }
        while (r->tail - r->head < n && !r->eof) {
            size_t room = r->buf_cap - r->tail, k = r->read(r->ctx, r->buf + r->tail, room);
            if (k == 0) {
                r->eof = true;
            } else if (k > room) {
                char at[32];
                if (k == SIZE_MAX)
                    fail(r, GDW_PCAP_ERR_READ, r->pos, "reading the input failed after byte %s", grouped(r->pulled, at));
                else
                    fail(r, GDW_PCAP_ERR_READ, r->pos, "the read callback gave %zu bytes where %zu were asked for", k, room);
                return false;
            } else {
                r->tail += k;
                r->pulled += k;
            }
        }
    }
    size_t have = r->tail - r->head;
    *p = r->buf + r->head;
    *got = have < n ? have : n;
    return true;
}

static void take(gdw_pcap *r, size_t n) {
    r->pos += n;
    if (r->read) r->head += n;
}

/* skip: pass over n bytes nobody reads, holding none beyond the buffer there is; how many there were (fewer
 * than n where the input ends first), or false after a read error. */
static bool skip(gdw_pcap *r, uint64_t n, uint64_t *skipped) {
    *skipped = 0;
    while (*skipped < n) {
        size_t step = r->read ? r->buf_cap : SIZE_MAX, got;
        if (n - *skipped < step) step = (size_t)(n - *skipped);
        const uint8_t *p;
        if (!look(r, step, &p, &got)) return false;
        take(r, got);
        *skipped += got;
        if (got < step) break;
    }
    return true;
}

/* ---- time --------------------------------------------------------------------------------------- */

/* floor(frac * 10^9 / 2^e) for frac < 2^e, e <= 63, exactly: the product needs up to 94 bits, so it is made of
 * two 64-bit halves first. */
static uint32_t pow2_nanoseconds(uint64_t frac, unsigned e) {
    if (e == 0) return 0;
    uint64_t a = (frac >> 32) * 1000000000u, b = (frac & 0xFFFFFFFFu) * 1000000000u;
    uint64_t lo = a << 32, hi = a >> 32;
    lo += b;
    if (lo < b) hi++;
    return (uint32_t)(e == 64 ? hi : hi << (64 - e) | lo >> e);
}

static const uint64_t k_pow10[20] = {1u,
                                     10u,
                                     100u,
                                     1000u,
                                     10000u,
                                     100000u,
                                     1000000u,
                                     10000000u,
                                     100000000u,
                                     1000000000u,
                                     10000000000u,
                                     100000000000u,
                                     1000000000000u,
                                     10000000000000u,
                                     100000000000000u,
                                     1000000000000000u,
                                     10000000000000000u,
                                     100000000000000000u,
                                     1000000000000000000u,
                                     10000000000000000000u};

/* A pcapng timestamp (units since 1970 in the interface's resolution) and the interface's offset in seconds. */
static void set_time(const iface *f, uint64_t ts, gdw_pcap_record *rec) {
    uint64_t units = f->pub.units_per_second, whole = ts / units, frac = ts % units;
    uint32_t ns;
    if (f->pow2) ns = pow2_nanoseconds(frac, f->exponent);
    else if (f->exponent <= 9) ns = (uint32_t)(frac * k_pow10[9 - f->exponent]);
    else ns = (uint32_t)(frac / k_pow10[f->exponent - 9]);
    /* a forged if_tsoffset or 64-bit count could pass int64_t: the time is held at its ends */
    int64_t off = f->pub.offset_seconds, s;
    if (whole > (uint64_t)INT64_MAX) {
        /* whole + off with off < 0 is whole - |off| >= 2^63 + 1 - 2^63 > 0; |off| - 1 = -(off + 1) always fits */
        uint64_t sum = off >= 0 ? UINT64_MAX : whole - (uint64_t)(-(off + 1)) - 1u;
        s = sum > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)sum;
    } else {
        int64_t w = (int64_t)whole;
        s = off > 0 && w > INT64_MAX - off ? INT64_MAX : w + off; /* w >= 0: only a positive offset can pass */
    }
    rec->has_time = true;
    rec->seconds = s;
    rec->nanoseconds = ns;
    rec->time = (double)s + (double)ns / 1e9;
}

/* ---- opening ------------------------------------------------------------------------------------ */

static gdw_pcap *open_with(const gdw_pcap_options *opts) {
    gdw_pcap_options o = opts ? *opts : gdw_pcap_options_default();
    size_t max_record = o.max_record_bytes ? o.max_record_bytes : GDW_PCAP_DEFAULT_MAX_RECORD_BYTES;
    size_t max_ifs = o.max_interfaces ? o.max_interfaces : GDW_PCAP_DEFAULT_MAX_INTERFACES;
    if (max_record < MIN_RECORD_CAP || max_ifs > SIZE_MAX / sizeof(iface)) return NULL;
    if (o.alloc && (!o.alloc->malloc_fn || !o.alloc->free_fn)) return NULL;
    gdw_pcap *r = mem_alloc(o.alloc, sizeof *r);
    if (!r) return NULL;
    memset(r, 0, sizeof *r);
    r->max_record = max_record;
    r->max_interfaces = max_ifs;
    r->alloc = o.alloc;
    return r;
}

gdw_pcap *gdw_pcap_open_memory(const uint8_t *data, size_t len, const gdw_pcap_options *opts) {
    if (!data && len) return NULL;
    gdw_pcap *r = open_with(opts);
    if (!r) return NULL;
    static const uint8_t none[1];
    r->mem = data ? data : none;
    r->mem_len = len;
    return r;
}

gdw_pcap *gdw_pcap_open_stream(gdw_pcap_read_fn read, void *ctx, const gdw_pcap_options *opts) {
    if (!read) return NULL;
    gdw_pcap *r = open_with(opts);
    if (!r) return NULL;
    r->read = read;
    r->ctx = ctx;
    r->buf_cap = r->max_record < STREAM_FIRST_BUFFER ? r->max_record : STREAM_FIRST_BUFFER;
    r->buf = mem_alloc(r->alloc, r->buf_cap);
    if (!r->buf) {
        mem_free(r->alloc, r, sizeof *r);
        return NULL;
    }
    return r;
}

void gdw_pcap_free(gdw_pcap *r) {
    if (!r) return;
    mem_free(r->alloc, r->buf, r->buf_cap);
    mem_free(r->alloc, r->ifs, r->cap_ifs * sizeof *r->ifs);
    mem_free(r->alloc, r, sizeof *r);
}

/* ---- interfaces --------------------------------------------------------------------------------- */

static gdw_pcap_status add_interface(gdw_pcap *r, const iface *f, uint64_t offset) {
    if (r->n_ifs == r->max_interfaces) {
        char a[32], b[32];
        return fail(r, GDW_PCAP_ERR_TOO_MANY_INTERFACES, offset, "an Interface Description Block at byte %s: its section already has %s interfaces (max_interfaces)",
                    grouped(offset, a), grouped(r->max_interfaces, b));
    }
    if (r->n_ifs == r->cap_ifs) {
        size_t cap = r->cap_ifs ? r->cap_ifs * 2 : 4;
        if (cap > r->max_interfaces) cap = r->max_interfaces;
        iface *grown = mem_alloc(r->alloc, cap * sizeof *grown);
        if (!grown) return fail(r, GDW_PCAP_ERR_NOMEM, offset, "out of memory for %zu interfaces", cap);
        if (r->n_ifs) memcpy(grown, r->ifs, r->n_ifs * sizeof *grown);
        mem_free(r->alloc, r->ifs, r->cap_ifs * sizeof *r->ifs);
        r->ifs = grown, r->cap_ifs = cap;
    }
    r->ifs[r->n_ifs++] = *f;
    return GDW_PCAP_OK;
}

/* ---- the file's start --------------------------------------------------------------------------- */

static gdw_pcap_status truncated(gdw_pcap *r, uint64_t offset, const char *what, size_t got, uint64_t want) {
    char a[32], b[32], c[32];
    return fail(r, GDW_PCAP_ERR_TRUNCATED, offset, "truncated file: it ends inside the %s at byte %s: %s of its %s bytes", what, grouped(offset, a),
                grouped(got, b), grouped(want, c));
}

static gdw_pcap_status read_pcap_header(gdw_pcap *r, const uint8_t *p, size_t got, bool nanoseconds) {
    if (got < PCAP_FILE_HEADER) return truncated(r, 0, "pcap file header", got, PCAP_FILE_HEADER);
    unsigned major = rd16(r, p + 4), minor = rd16(r, p + 6);
    if (major != 2)
        return fail(r, GDW_PCAP_ERR_UNSUPPORTED, 4, "a pcap file of version %u.%u: only version 2 (2.0 to 2.4 and later 2.x) is read", major, minor);
    r->lengths = minor <= 2 ? LENGTHS_SWAPPED : minor == 3 ? LENGTHS_MAYBE_SWAPPED : LENGTHS_AS_WRITTEN;
    r->ns_per_unit = nanoseconds ? 1u : 1000u;
    iface f;
    memset(&f, 0, sizeof f);
    f.pub.snaplen = rd32(r, p + 16);
    f.pub.link = (int)(rd32(r, p + 20) & 0xFFFFu); /* the upper bits: the FCS length and reserved bits */
    f.pub.units_per_second = nanoseconds ? 1000000000u : 1000000u;
    f.exponent = nanoseconds ? 9 : 6;
    if (add_interface(r, &f, 0) != GDW_PCAP_OK) return r->done;
    take(r, PCAP_FILE_HEADER);
    r->format = nanoseconds ? GDW_PCAP_FORMAT_PCAP_NSEC : GDW_PCAP_FORMAT_PCAP;
    return GDW_PCAP_OK;
}

/* The file's first 4 bytes say what it is. */
static gdw_pcap_status read_start(gdw_pcap *r) {
    const uint8_t *p;
    size_t got;
    if (!look(r, PCAP_FILE_HEADER, &p, &got)) return r->done;
    if (got < 4) {
        if (got == 0) return fail(r, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: it is empty");
        return fail(r, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: it holds only %zu byte%s", got, got == 1 ? "" : "s");
    }
    uint32_t be = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    uint32_t le = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
    if (be == BLOCK_SHB) return GDW_PCAP_OK; /* the block loop reads the Section Header Block */
    for (int big = 0; big < 2; big++) {
        uint32_t m = big ? be : le;
        r->big_endian = big;
        if (m == 0xA1B2C3D4u) return read_pcap_header(r, p, got, false);
        if (m == 0xA1B23C4Du) return read_pcap_header(r, p, got, true);
        if (m == 0xA1B2CD34u)
            return fail(r, GDW_PCAP_ERR_UNSUPPORTED, 0, "a modified pcap file (Alexey Kuznetzov's, magic a1b2cd34) is not read: "
                                                        "editcap -F pcap writes it as a standard one");
    }
    r->big_endian = false;
    return fail(r, GDW_PCAP_ERR_NOT_CAPTURE, 0, "not a pcap or pcapng file: its first 4 bytes are %02x %02x %02x %02x%s", p[0], p[1], p[2], p[3],
                p[0] == 0x1f && p[1] == 0x8b ? " (a gzip file: decompress it first)" : "");
}

/* ---- classic pcap ------------------------------------------------------------------------------- */

static gdw_pcap_status pcap_record(gdw_pcap *r, gdw_pcap_record *rec) {
    uint64_t at = r->pos;
    const uint8_t *p;
    size_t got;
    if (!look(r, PCAP_RECORD_HEADER, &p, &got)) return r->done;
    if (got == 0) return r->done = GDW_PCAP_END;
    if (got < PCAP_RECORD_HEADER) return truncated(r, at, "record header", got, PCAP_RECORD_HEADER);
    uint32_t sec = rd32(r, p), frac = rd32(r, p + 4), incl = rd32(r, p + 8), orig = rd32(r, p + 12);
    if (r->lengths == LENGTHS_SWAPPED || (r->lengths == LENGTHS_MAYBE_SWAPPED && incl > orig)) {
        uint32_t t = incl;
        incl = orig, orig = t;
    }
    if (incl > r->max_record - PCAP_RECORD_HEADER) {
        char a[32], b[32], c[32];
        return fail(r, GDW_PCAP_ERR_TOO_BIG, at, "a pcap record at byte %s says it captured %s bytes: with its 16-byte header, past max_record_bytes (%s)",
                    grouped(at, a), grouped(incl, b), grouped(r->max_record, c));
    }
    size_t total = PCAP_RECORD_HEADER + (size_t)incl;
    if (!look(r, total, &p, &got)) return r->done;
    if (got < total) return truncated(r, at, "record", got, total);
    uint64_t ns = (uint64_t)frac * r->ns_per_unit; /* a fraction past a second (a broken writer) carries into the seconds */
    rec->data = p + PCAP_RECORD_HEADER;
    rec->caplen = incl;
    rec->wirelen = orig;
    rec->link = r->ifs[0].pub.link;
    rec->interface = 0;
    rec->section = 0;
    rec->has_time = true;
    rec->seconds = (int64_t)sec + (int64_t)(ns / 1000000000u);
    rec->nanoseconds = (uint32_t)(ns % 1000000000u);
    rec->time = (double)rec->seconds + (double)rec->nanoseconds / 1e9;
    rec->offset = at;
    take(r, total);
    return GDW_PCAP_OK;
}

/* ---- pcapng ------------------------------------------------------------------------------------- */

/* "a Section Header Block", "an Enhanced Packet Block"; block_name skips the article */
static const char *a_block(uint32_t type) {
    switch (type) {
    case BLOCK_SHB: return "a Section Header Block";
    case BLOCK_IDB: return "an Interface Description Block";
    case BLOCK_PB: return "a Packet Block";
    case BLOCK_SPB: return "a Simple Packet Block";
    case BLOCK_EPB: return "an Enhanced Packet Block";
    default: return "a pcapng block";
    }
}

static const char *block_name(uint32_t type) {
    const char *s = a_block(type);
    return s + (s[1] == ' ' ? 2 : 3);
}

/* An Interface Description Block's options: if_tsresol and if_tsoffset are read, the rest passed over. Each
 * option is [code, length, value padded to 4 bytes]; opt_endofopt or the block's end ends them. */
static gdw_pcap_status read_idb(gdw_pcap *r, const uint8_t *p, uint32_t len, uint64_t at) {
    iface f;
    memset(&f, 0, sizeof f);
    f.pub.link = rd16(r, p + 8);
    f.pub.snaplen = rd32(r, p + 12);
    f.pub.units_per_second = 1000000u;
    f.exponent = 6;
    size_t o = 16, end = len - 4u;
    char a[32], b[32];
    while (end - o >= 4) {
        unsigned code = rd16(r, p + o), olen = rd16(r, p + o + 2);
        if (code == OPT_END) break;
        size_t padded = ((size_t)olen + 3u) & ~(size_t)3u;
        if (padded > end - o - 4)
            return fail(r, GDW_PCAP_ERR_MALFORMED, at + o, "an option (code %u) of %u bytes at byte %s: past the end of its %s at byte %s", code, olen,
                        grouped(at + o, a), block_name(BLOCK_IDB), grouped(at, b));
        const uint8_t *v = p + o + 4;
        if (code == OPT_IF_TSRESOL) {
            if (olen != 1)
                return fail(r, GDW_PCAP_ERR_MALFORMED, at + o, "an if_tsresol option of %u bytes at byte %s: it has 1", olen, grouped(at + o, a));
            f.pow2 = (v[0] & 0x80u) != 0;
            f.exponent = v[0] & 0x7Fu;
            if (f.exponent > (f.pow2 ? 63u : 19u))
                return fail(r, GDW_PCAP_ERR_MALFORMED, at + o, "an if_tsresol of %s^-%u at byte %s: a second has more units than 64 bits count",
                            f.pow2 ? "2" : "10", f.exponent, grouped(at + o, a));
            f.pub.units_per_second = f.pow2 ? (uint64_t)1 << f.exponent : k_pow10[f.exponent];
        } else if (code == OPT_IF_TSOFFSET) {
            if (olen != 8)
                return fail(r, GDW_PCAP_ERR_MALFORMED, at + o, "an if_tsoffset option of %u bytes at byte %s: it has 8", olen, grouped(at + o, a));
            uint64_t u = rd64(r, v);
            /* two's complement, without an implementation-defined conversion */
            f.pub.offset_seconds = u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
        }
        o += 4 + padded;
    }
    return add_interface(r, &f, at);
}

static gdw_pcap_status read_shb(gdw_pcap *r, uint64_t at) {
    const uint8_t *p;
    size_t got;
    if (!look(r, 12, &p, &got)) return r->done;
    if (got < 12) {
        char a[32];
        return fail(r, GDW_PCAP_ERR_TRUNCATED, at, "truncated file: it ends inside the Section Header Block at byte %s, %zu bytes in, before its byte-order magic",
                    grouped(at, a), got);
    }
    if (memcmp(p + 8, "\x4d\x3c\x2b\x1a", 4) == 0) r->big_endian = false;
    else if (memcmp(p + 8, "\x1a\x2b\x3c\x4d", 4) == 0) r->big_endian = true;
    else {
        char a[32];
        return fail(r, GDW_PCAP_ERR_MALFORMED, at + 8, "a Section Header Block at byte %s whose byte-order magic is %02x %02x %02x %02x: neither order of 1a2b3c4d",
                    grouped(at, a), p[8], p[9], p[10], p[11]);
    }
    return GDW_PCAP_OK;
}

/* One pcapng block: a packet into *rec (GDW_PCAP_OK), a block taken with no record to give (NO_RECORD), or the
 * end or an error (a gdw_pcap_status). */
enum { NO_RECORD = 100 };

static int pcapng_block(gdw_pcap *r, gdw_pcap_record *rec) {
    uint64_t at = r->pos;
    const uint8_t *p;
    size_t got;
    char a[32], b[32], c[32];
    if (!look(r, 8, &p, &got)) return r->done;
    if (got == 0) return r->done = GDW_PCAP_END;
    if (got < 8) return truncated(r, at, "block header", got, 8);
    uint32_t type = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    if (type == BLOCK_SHB) { /* its own byte order, before its length can be read */
        if (read_shb(r, at) != GDW_PCAP_OK) return r->done;
        if (!look(r, 8, &p, &got)) return r->done;
    } else {
        type = rd32(r, p);
    }
    uint32_t len = rd32(r, p + 4);
    if (len < BLOCK_FRAME)
        return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s of %s bytes at byte %s: shorter than its 12-byte frame", a_block(type), grouped(len, a), grouped(at, b));
    if (len % 4)
        return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s of %s bytes at byte %s: not a multiple of 4", a_block(type), grouped(len, a), grouped(at, b));
    uint32_t least = type == BLOCK_SHB ? 28 : type == BLOCK_IDB ? 20 : type == BLOCK_SPB ? 16 : type == BLOCK_EPB || type == BLOCK_PB ? 32 : 12;
    if (len < least)
        return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s of %s bytes at byte %s: shorter than its %u-byte least", a_block(type), grouped(len, a), grouped(at, b),
                    least);
    if (least == 12) { /* a block nobody here reads: passed over whatever its size, its trailing length checked */
        take(r, 8);
        uint64_t skipped;
        if (!skip(r, len - BLOCK_FRAME, &skipped)) return r->done;
        if (!look(r, 4, &p, &got)) return r->done;
        if (skipped < len - BLOCK_FRAME || got < 4) return truncated(r, at, block_name(type), (size_t)(8 + skipped + got), len);
        uint32_t again = rd32(r, p);
        if (again != len)
            return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s at byte %s says %s bytes at its start and %s at its end", a_block(type), grouped(at, a),
                        grouped(len, b), grouped(again, c));
        take(r, 4);
        return NO_RECORD;
    }
    if (len > r->max_record)
        return fail(r, GDW_PCAP_ERR_TOO_BIG, at, "%s of %s bytes at byte %s: past max_record_bytes (%s)", a_block(type), grouped(len, a), grouped(at, b),
                    grouped(r->max_record, c));
    if (!look(r, len, &p, &got)) return r->done;
    if (got < len) return truncated(r, at, block_name(type), got, len);
    uint32_t again = rd32(r, p + len - 4);
    if (again != len)
        return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s at byte %s says %s bytes at its start and %s at its end", a_block(type), grouped(at, a),
                    grouped(len, b), grouped(again, c));
    switch (type) {
    case BLOCK_SHB: {
        unsigned major = rd16(r, p + 12), minor = rd16(r, p + 14);
        if (major != 1)
            return fail(r, GDW_PCAP_ERR_UNSUPPORTED, at + 12, "a pcapng section of version %u.%u at byte %s: only version 1 is read", major, minor, grouped(at, a));
        r->n_ifs = 0; /* a section numbers its interfaces anew */
        if (r->format == GDW_PCAP_FORMAT_PCAPNG) r->section++;
        r->format = GDW_PCAP_FORMAT_PCAPNG;
        take(r, len);
        return NO_RECORD;
    }
    case BLOCK_IDB:
        if (read_idb(r, p, len, at) != GDW_PCAP_OK) return r->done;
        take(r, len);
        return NO_RECORD;
    case BLOCK_SPB: {
        if (r->n_ifs == 0)
            return fail(r, GDW_PCAP_ERR_MALFORMED, at, "a Simple Packet Block at byte %s before any Interface Description Block of its section", grouped(at, a));
        const iface *f = &r->ifs[0];
        uint32_t orig = rd32(r, p + 8), cap = orig, room = len - 16;
        if (f->pub.snaplen && cap > f->pub.snaplen) cap = f->pub.snaplen;
        if (cap > room) cap = room;
        rec->data = p + 12;
        rec->caplen = cap;
        rec->wirelen = orig;
        rec->link = f->pub.link;
        rec->interface = 0;
        rec->has_time = false;
        rec->seconds = 0;
        rec->nanoseconds = 0;
        rec->time = 0;
        break;
    }
    default: { /* an Enhanced Packet Block or the obsolete Packet Block: the same fields, but a 16-bit interface */
        uint32_t id = type == BLOCK_EPB ? rd32(r, p + 8) : rd16(r, p + 8);
        if (id >= r->n_ifs)
            return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s at byte %s names interface %s: its section has %s", a_block(type), grouped(at, a), grouped(id, b),
                        grouped(r->n_ifs, c));
        uint32_t caplen = rd32(r, p + 20), room = len - 32;
        if (caplen > room)
            return fail(r, GDW_PCAP_ERR_MALFORMED, at, "%s at byte %s says it captured %s bytes: the block has room for %s", a_block(type), grouped(at, a),
                        grouped(caplen, b), grouped(room, c));
        const iface *f = &r->ifs[id];
        set_time(f, (uint64_t)rd32(r, p + 12) << 32 | rd32(r, p + 16), rec);
        rec->data = p + 28;
        rec->caplen = caplen;
        rec->wirelen = rd32(r, p + 24);
        rec->link = f->pub.link;
        rec->interface = id;
        break;
    }
    }
    rec->section = r->section;
    rec->offset = at;
    take(r, len);
    return GDW_PCAP_OK;
}

/* ---- the API ------------------------------------------------------------------------------------ */

gdw_pcap_status gdw_pcap_next(gdw_pcap *r, gdw_pcap_record *rec, gdw_pcap_error *err) {
    if (!r || !rec) {
        if (err) {
            err->status = GDW_PCAP_ERR_INVALID_ARG;
            err->offset = 0;
            snprintf(err->message, sizeof err->message, "gdw_pcap_next without %s", r ? "a record to fill" : "a reader");
        }
        return GDW_PCAP_ERR_INVALID_ARG;
    }
    gdw_pcap_status s = r->done;
    if (s == GDW_PCAP_OK && r->pos == 0 && r->format == GDW_PCAP_FORMAT_UNKNOWN) s = read_start(r);
    while (s == GDW_PCAP_OK) {
        gdw_pcap_record out;
        int got = r->format == GDW_PCAP_FORMAT_PCAP || r->format == GDW_PCAP_FORMAT_PCAP_NSEC ? (int)pcap_record(r, &out) : pcapng_block(r, &out);
        if (got == GDW_PCAP_OK) {
            out.number = ++r->records;
            *rec = out;
            return GDW_PCAP_OK;
        }
        s = got == NO_RECORD ? GDW_PCAP_OK : (gdw_pcap_status)got;
    }
    if (err && s != GDW_PCAP_END) *err = r->err;
    return s;
}

gdw_pcap_format gdw_pcap_get_format(const gdw_pcap *r) { return r ? r->format : GDW_PCAP_FORMAT_UNKNOWN; }

size_t gdw_pcap_interface_count(const gdw_pcap *r) { return r ? r->n_ifs : 0; }

bool gdw_pcap_get_interface(const gdw_pcap *r, size_t i, gdw_pcap_interface *out) {
    if (!r || !out || i >= r->n_ifs) return false;
    *out = r->ifs[i].pub;
    return true;
}

uint64_t gdw_pcap_bytes_read(const gdw_pcap *r) { return !r ? 0 : r->read ? r->pulled : r->pos; }

size_t gdw_pcap_buffer_bytes(const gdw_pcap *r) { return r && r->read ? r->buf_cap : 0; }

/* SPDX-License-Identifier: MIT */
/* Fuzz target `pcap`: the capture-file reader (session/gdwire_pcap.h) on hostile files. The input is
 *   byte 0      bits 0-1: max_record_bytes (64, 4,096, 65,536 or the default 16 MiB), bits 2-3: max_interfaces
 *               (1, 2, 8 or the default 1,024), bits 4-6: the stream's chunks (the read callback gives 1 to 2^k
 *               bytes a call, k = 0..7, each size taken from the file's own bytes), bit 7: reading fails
 *               halfway through the stream
 *   then the file (pcap, pcapng or anything).
 * The file is read from memory and streamed through the read callback. Checked: every record's bytes lie inside
 * the input (memory) and are the same bytes streamed; a record's captured length is within the cap; record
 * offsets increase and numbers count from 1; nanoseconds are under a second, a record without time has none; its
 * interface exists; the stream gives the records memory gives, then the same end (or, with bit 7, a read error
 * after a prefix of them); an error has a known code, an offset within the input and a message, and is given
 * again at the next call; what the reader allocates stays within twice the cap and the interface table, and is
 * all freed. ASan: nothing read past the input (a heap copy of exactly its size) or the stream's buffer.
 * Seeds: corpus/pcap/, cut from the real sessions of conformance/sessions/ and the pcapng files of
 * session/tests/data/ (tools/fuzz/pcap_seeds.py). */
#include <stdlib.h>
#include <string.h>

#include "fuzzers/fuzz.h"
#include "session/gdwire_pcap.h"

typedef struct counting {
    size_t live, peak;
} counting;

static void *c_malloc(void *ctx, size_t n) {
    counting *c = ctx;
    void *p = malloc(n);
    if (p) {
        c->live += n;
        if (c->live > c->peak) c->peak = c->live;
    }
    return p;
}
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)ctx, (void)p, (void)o, (void)n;
    abort(); /* the reader does not reallocate */
}
static void c_free(void *ctx, void *p, size_t n) {
    counting *c = ctx;
    c->live -= n;
    free(p);
}

typedef struct chunks {
    const uint8_t *p;
    size_t n, pos, calls, fail_at;
    unsigned mask;
} chunks;

static size_t chunk_read(void *ctx, uint8_t *buf, size_t want) {
    chunks *c = ctx;
    if (c->pos >= c->fail_at) return SIZE_MAX;
    size_t k = c->n - c->pos;
    if (k > want) k = want;
    size_t pick = c->n ? 1u + (c->p[(c->calls * 7u) % c->n] & c->mask) : 1u;
    c->calls++;
    if (k > pick) k = pick;
    if (c->fail_at < c->n && k > c->fail_at - c->pos) k = c->fail_at - c->pos;
    if (k) memcpy(buf, c->p + c->pos, k);
    c->pos += k;
    return k;
}

static void check_error(gdw_pcap *p, gdw_pcap_status st, const gdw_pcap_error *err, size_t n) {
    if (st == GDW_PCAP_END) return;
    FUZZ_CHECK(st >= GDW_PCAP_ERR_NOT_CAPTURE && st <= GDW_PCAP_ERR_NOMEM, "an unknown end %d", (int)st);
    FUZZ_CHECK(err->status == st && err->offset <= n, "%s at byte %llu of a %zu-byte input", gdw_pcap_status_name(st), (unsigned long long)err->offset, n);
    FUZZ_CHECK(err->message[0] && memchr(err->message, 0, sizeof err->message), "%s without a message", gdw_pcap_status_name(st));
    gdw_pcap_record again;
    gdw_pcap_error err2;
    FUZZ_CHECK(gdw_pcap_next(p, &again, &err2) == st && err2.offset == err->offset && strcmp(err2.message, err->message) == 0, "the error is not given again");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static const size_t caps[4] = {64, 4096, 65536, GDW_PCAP_DEFAULT_MAX_RECORD_BYTES};
    static const size_t ifaces[4] = {1, 2, 8, GDW_PCAP_DEFAULT_MAX_INTERFACES};
    uint8_t ctl = data[0];
    size_t n = size - 1, cap = caps[ctl & 3], max_ifs = ifaces[(ctl >> 2) & 3];
    uint8_t *file = malloc(n ? n : 1);
    if (!file) abort();
    if (n) memcpy(file, data + 1, n); /* a heap copy of exactly its size: a read past it is ASan's */

    counting mem = {0, 0};
    gdw_allocator al = {c_malloc, c_realloc, c_free, &mem};
    gdw_pcap_options o = gdw_pcap_options_default();
    o.max_record_bytes = cap, o.max_interfaces = max_ifs, o.alloc = &al;
    /* what the reader may hold: its buffer (twice the cap while it grows), the interface table, itself */
    size_t bound = 2 * cap + max_ifs * 64 + 1024;

    /* from memory */
    gdw_pcap *p = gdw_pcap_open_memory(file, n, &o);
    FUZZ_CHECK(p != NULL, "no memory reader");
    size_t count = 0, room = 64;
    gdw_pcap_record *recs = malloc(room * sizeof *recs);
    if (!recs) abort();
    gdw_pcap_record rec;
    gdw_pcap_error err;
    gdw_pcap_status st;
    uint64_t last = 0;
    while ((st = gdw_pcap_next(p, &rec, &err)) == GDW_PCAP_OK) {
        FUZZ_CHECK(rec.data >= file && rec.caplen <= n && (size_t)(rec.data - file) <= n - rec.caplen, "record %zu's %zu bytes lie outside the input", count + 1,
                   rec.caplen);
        FUZZ_CHECK(rec.caplen <= cap, "record %zu captured %zu bytes past the cap %zu", count + 1, rec.caplen, cap);
        FUZZ_CHECK(rec.number == count + 1 && (count == 0 || rec.offset > last) && rec.offset < n, "record %zu: number %llu, offset %llu after %llu", count + 1,
                   (unsigned long long)rec.number, (unsigned long long)rec.offset, (unsigned long long)last);
        FUZZ_CHECK(rec.nanoseconds < 1000000000u && (rec.has_time || (rec.seconds == 0 && rec.nanoseconds == 0)), "record %zu: time %lld.%u", count + 1,
                   (long long)rec.seconds, rec.nanoseconds);
        FUZZ_CHECK(rec.interface < gdw_pcap_interface_count(p) && rec.link >= 0 && rec.link <= 0xFFFF, "record %zu: interface %u of %zu, link %d", count + 1,
                   rec.interface, gdw_pcap_interface_count(p), rec.link);
        FUZZ_CHECK(gdw_pcap_get_format(p) != GDW_PCAP_FORMAT_UNKNOWN, "a record of no format");
        last = rec.offset;
        if (count == room) {
            room *= 2;
            recs = realloc(recs, room * sizeof *recs);
            if (!recs) abort();
        }
        recs[count++] = rec; /* its bytes point into the input: they stay valid */
    }
    check_error(p, st, &err, n);
    FUZZ_CHECK(mem.peak <= bound, "from memory, %zu bytes held (bound %zu)", mem.peak, bound);
    gdw_pcap_error mem_err = err;
    gdw_pcap_status mem_st = st;
    gdw_pcap_free(p);
    FUZZ_CHECK(mem.live == 0, "%zu bytes left after gdw_pcap_free", mem.live);

    /* streamed, in small chunks */
    mem.peak = 0;
    chunks c = {file, n, 0, 0, (ctl & 0x80) ? n / 2 : SIZE_MAX, (1u << ((ctl >> 4) & 7)) - 1u};
    p = gdw_pcap_open_stream(chunk_read, &c, &o);
    FUZZ_CHECK(p != NULL, "no stream reader");
    size_t k = 0;
    while ((st = gdw_pcap_next(p, &rec, &err)) == GDW_PCAP_OK) {
        FUZZ_CHECK(k < count, "streamed, record %zu past the %zu from memory", k + 1, count);
        const gdw_pcap_record *m = &recs[k++];
        FUZZ_CHECK(rec.caplen == m->caplen && rec.wirelen == m->wirelen && rec.link == m->link && rec.interface == m->interface && rec.section == m->section &&
                       rec.has_time == m->has_time && rec.seconds == m->seconds && rec.nanoseconds == m->nanoseconds && rec.offset == m->offset &&
                       rec.number == m->number && memcmp(rec.data, m->data, rec.caplen) == 0,
                   "streamed, record %zu differs from memory's", k);
        FUZZ_CHECK(rec.caplen <= gdw_pcap_buffer_bytes(p) && gdw_pcap_buffer_bytes(p) <= cap, "streamed, a buffer of %zu bytes (cap %zu)",
                   gdw_pcap_buffer_bytes(p), cap);
    }
    check_error(p, st, &err, n);
    if (c.fail_at == SIZE_MAX || st != GDW_PCAP_ERR_READ) {
        FUZZ_CHECK(k == count && st == mem_st && (st == GDW_PCAP_END || (err.offset == mem_err.offset && strcmp(err.message, mem_err.message) == 0)),
                   "streamed: %zu records then %s \"%s\"; from memory %zu then %s \"%s\"", k, gdw_pcap_status_name(st), st == GDW_PCAP_END ? "" : err.message,
                   count, gdw_pcap_status_name(mem_st), mem_st == GDW_PCAP_END ? "" : mem_err.message);
    }
    FUZZ_CHECK(gdw_pcap_bytes_read(p) <= n && gdw_pcap_buffer_bytes(p) <= cap, "streamed %llu of %zu bytes into %zu", (unsigned long long)gdw_pcap_bytes_read(p), n,
               gdw_pcap_buffer_bytes(p));
    FUZZ_CHECK(mem.peak <= bound, "streamed, %zu bytes held (bound %zu)", mem.peak, bound);
    gdw_pcap_free(p);
    FUZZ_CHECK(mem.live == 0, "streamed, %zu bytes left after gdw_pcap_free", mem.live);
    free(recs);
    free(file);
    return 0;
}

/* SPDX-License-Identifier: MIT
 * gdwire_pcap.h — capture files read by gdwire itself: classic pcap (either byte order, microsecond
 * or nanosecond timestamps) and pcapng (sections in either byte order, interfaces with their own
 * link types, time resolutions and offsets, Enhanced, Simple and the obsolete Packet Blocks). Read
 * from the formats' descriptions (draft-ietf-opsawg-pcap, draft-ietf-opsawg-pcapng); docs/capture.md
 * says what is read and what is not.
 *
 * One reader serves a caller's buffer (gdw_pcap_open_memory: the bindings' case; no byte is copied)
 * and a stream (gdw_pcap_open_stream: a read callback, so a file of any size is read in bounded
 * memory). Records come out one at a time (gdw_pcap_next), each with its link type, so a pcapng file
 * whose interfaces differ is handed over record by record as it is.
 *
 * Bounded: a record (a pcap record's header and data, a pcapng block the reader uses) larger than
 * max_record_bytes is an error, not an allocation; a stream's buffer grows to the largest record seen,
 * never past that cap; a section holds at most max_interfaces interfaces. Blocks the reader has no use
 * for are skipped by their length whatever their size, without being held. Time is linear in the
 * input. A reader is used by one thread at a time; two readers share nothing.
 *
 * Errors are values: a code, the byte of the file where the header, record, block or option that
 * failed starts, and a message that says what was found. Every whole record before an error is
 * delivered first, so a capture cut short by a kill gives what it holds, then GDW_PCAP_ERR_TRUNCATED.
 */
#ifndef GDWIRE_PCAP_H
#define GDWIRE_PCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gdw_pcap_status {
    GDW_PCAP_OK = 0,                 /* a record */
    GDW_PCAP_END = 1,                /* the file ended where a record could start: no more records */
    GDW_PCAP_ERR_NOT_CAPTURE = 2,    /* the first 4 bytes are not a pcap or pcapng magic (or there are fewer) */
    GDW_PCAP_ERR_UNSUPPORTED = 3,    /* a format version or variant that is not read (pcap 1.x, pcapng 2.x, ...) */
    GDW_PCAP_ERR_TRUNCATED = 4,      /* the input ends inside a header, record or block */
    GDW_PCAP_ERR_MALFORMED = 5,      /* a length, interface number or option the format rules out */
    GDW_PCAP_ERR_TOO_BIG = 6,        /* a record past max_record_bytes */
    GDW_PCAP_ERR_TOO_MANY_INTERFACES = 7, /* a section past max_interfaces */
    GDW_PCAP_ERR_READ = 8,           /* the read callback said it failed */
    GDW_PCAP_ERR_NOMEM = 9,          /* the allocator refused the stream's buffer or the interface table */
    GDW_PCAP_ERR_INVALID_ARG = 10    /* gdw_pcap_next without a reader or a record to fill */
} gdw_pcap_status;

/* gdw_pcap_status_name: "ok", "end", "not_capture", "unsupported", "truncated", "malformed", "too_big",
 * "too_many_interfaces", "read", "nomem", "invalid_arg"; "?" outside the enum. */
GDW_API const char *gdw_pcap_status_name(gdw_pcap_status s);

typedef enum gdw_pcap_format {
    GDW_PCAP_FORMAT_UNKNOWN = 0, /* the file's header is not read yet, or was not a capture's */
    GDW_PCAP_FORMAT_PCAP = 1,    /* classic pcap, microsecond timestamps (magic a1b2c3d4) */
    GDW_PCAP_FORMAT_PCAP_NSEC = 2, /* classic pcap, nanosecond timestamps (magic a1b23c4d) */
    GDW_PCAP_FORMAT_PCAPNG = 3
} gdw_pcap_format;

/* An error: the first one ends the reading, and every later gdw_pcap_next gives it again. */
typedef struct gdw_pcap_error {
    gdw_pcap_status status;
    uint64_t offset;    /* the byte of the file where what failed starts (at most the bytes read) */
    char message[200];  /* e.g. "truncated file: it ends inside the record at byte 4,096: 10 of its 58 bytes" */
} gdw_pcap_error;

/* A record. The pointers are valid until the next call on the reader (or, for a memory reader, as
 * long as the caller's buffer). */
typedef struct gdw_pcap_record {
    const uint8_t *data;   /* the captured bytes */
    size_t caplen;         /* how many were captured */
    size_t wirelen;        /* the packet's length on the wire, as the file says (a broken writer may say less than caplen) */
    int link;              /* LINKTYPE_* of its interface (the low 16 bits of the file's field: the FCS bits masked),
                              what gdw_session_frame takes */
    uint32_t interface;    /* its interface in its section (pcap: 0) */
    uint32_t section;      /* pcapng: its section, from 0 (interfaces are numbered anew in each); pcap: 0 */
    bool has_time;         /* false for a Simple Packet Block, which carries none (the time is then 0) */
    int64_t seconds;       /* the time: seconds since 1970 (pcapng: the interface's if_tsoffset added; held at
                              INT64_MIN / INT64_MAX if a forged offset would pass them) */
    uint32_t nanoseconds;  /* and nanoseconds, 0 .. 999,999,999 (finer resolutions are cut, not rounded) */
    double time;           /* seconds + nanoseconds / 1e9 */
    uint64_t offset;       /* the byte of the file where its record header or block starts */
    uint64_t number;       /* its number among the records, from 1 */
} gdw_pcap_record;

/* A pcapng interface (Interface Description Block), or the single one a pcap file's header describes. */
typedef struct gdw_pcap_interface {
    int link;                  /* LINKTYPE_* */
    uint32_t snaplen;          /* 0: no limit */
    uint64_t units_per_second; /* the timestamps' resolution (if_tsresol; 1,000,000 by default) */
    int64_t offset_seconds;    /* if_tsoffset (0 when absent) */
} gdw_pcap_interface;

typedef struct gdw_pcap_options {
    size_t max_record_bytes;   /* the most bytes one record may take in the file: a pcap record's 16-byte header and
                                  its data, a pcapng block whole. 0: 16 MiB; at least 64 */
    size_t max_interfaces;     /* per pcapng section; 0: 1024 */
    const gdw_allocator *alloc; /* NULL: the C library's */
} gdw_pcap_options;

#define GDW_PCAP_DEFAULT_MAX_RECORD_BYTES (16u << 20)
#define GDW_PCAP_DEFAULT_MAX_INTERFACES 1024u

/* gdw_pcap_options_default: zeroes, that is the defaults above. */
GDW_API gdw_pcap_options gdw_pcap_options_default(void);

/* The stream's source: copy up to n bytes into buf and return how many (fewer is fine: it is called
 * again), 0 at the end of the input (it is not called after that), SIZE_MAX when reading failed
 * (GDW_PCAP_ERR_READ). fread on a FILE fits, with ferror mapped to SIZE_MAX. */
typedef size_t (*gdw_pcap_read_fn)(void *ctx, uint8_t *buf, size_t n);

typedef struct gdw_pcap gdw_pcap;

/* gdw_pcap_open_memory: a reader over data[0..len), which must stay valid and unchanged while the reader
 * is used; records point into it. NULL when opts are invalid (max_record_bytes below 64), when data is
 * NULL with len > 0, or out of memory. Reads nothing yet: the first gdw_pcap_next reads the header. */
GDW_API gdw_pcap *gdw_pcap_open_memory(const uint8_t *data, size_t len, const gdw_pcap_options *opts);
/* gdw_pcap_open_stream: a reader that pulls the file through read(ctx, ...), holding at most
 * max_record_bytes of it (the buffer starts at 64 KiB or the cap, whichever is less). NULL when read is NULL,
 * opts are invalid, or out of memory. */
GDW_API gdw_pcap *gdw_pcap_open_stream(gdw_pcap_read_fn read, void *ctx, const gdw_pcap_options *opts);

/* gdw_pcap_next: the next record into *rec: GDW_PCAP_OK; GDW_PCAP_END when the file ends between records
 * (again at every later call); or an error, with err (may be NULL) filled, again at every later call. rec
 * is untouched unless the answer is GDW_PCAP_OK. NULL r or rec: GDW_PCAP_ERR_INVALID_ARG (the reader, if any,
 * is left as it was). */
GDW_API gdw_pcap_status gdw_pcap_next(gdw_pcap *r, gdw_pcap_record *rec, gdw_pcap_error *err);

/* gdw_pcap_get_format: what the file's header said; GDW_PCAP_FORMAT_UNKNOWN before the first gdw_pcap_next
 * and after a header that was not a capture's (a caller can tell "not a capture file at all" from
 * "a capture file that ends badly" by it). NULL: UNKNOWN. */
GDW_API gdw_pcap_format gdw_pcap_get_format(const gdw_pcap *r);
/* gdw_pcap_interface_count: the interfaces of the current section (a pcap file: 1 once its header is read). */
GDW_API size_t gdw_pcap_interface_count(const gdw_pcap *r);
/* gdw_pcap_get_interface: interface i of the current section into *out; false when there is none. */
GDW_API bool gdw_pcap_get_interface(const gdw_pcap *r, size_t i, gdw_pcap_interface *out);
/* gdw_pcap_bytes_read: how many bytes of the input the reader has taken in (a stream's: pulled from read). */
GDW_API uint64_t gdw_pcap_bytes_read(const gdw_pcap *r);
/* gdw_pcap_buffer_bytes: what the reader holds for the stream's bytes now (0 for a memory reader). */
GDW_API size_t gdw_pcap_buffer_bytes(const gdw_pcap *r);
/* gdw_pcap_free: NULL is a no-op. */
GDW_API void gdw_pcap_free(gdw_pcap *r);

#ifdef __cplusplus
}
#endif
#endif

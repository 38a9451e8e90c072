/* SPDX-License-Identifier: MIT */
/* input.c — where packets come from: files, directories and stdin; hex, base64 or raw bytes;
 * one packet per input or per line, or the engines' length-prefixed framings.
 *
 * Raw framed input is read frame by frame, so a capture through a pipe needs memory for its
 * largest frame only; a forged length prefix does not allocate more than the bytes that
 * actually arrive. Text input (hex, base64) is read whole, then split. A regular file is mapped
 * (mmap), not copied: the decoders read the page cache in place (a raw packet is decoded without
 * a copy of its bytes: borrow_input), and hex or base64 text is turned to bytes in the process's
 * private copy of the pages it writes. A file truncated by another process while it is read
 * ends the command with SIGBUS, as for any program that maps its input.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "cli/cli.h"

static const char *k_prog = "gdwire";

/* The length of the UTF-8 sequence at s (at most n bytes) when it is a well-formed character a
 * terminal prints (U+00A0 and up: no C1 control), else 0. */
/* A file name as text output shows it (issues 34 and 55), as gdw_text_show says: printable ASCII
 * and well-formed UTF-8 as they are; a control byte (ESC, BEL, a line break), a backslash or a
 * byte of broken UTF-8 as \xHH, as error paths show input text; a C1 control, a bidirectional
 * control (U+202E) or a line or paragraph separator as \uXXXX. So a name can neither drive the
 * terminal, reorder a line nor forge one. (JSON output escapes names its own way.) */
void shown_name(const char *name, char *out, size_t cap) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *s = (const uint8_t *)name;
    size_t n = strlen(name), o = 0;
    if (!cap) return;
    for (size_t i = 0; i < n;) {
        gdw_show how;
        uint32_t cp;
        size_t k = gdw_text_show(s + i, n - i, &how, &cp);
        if (how == GDW_SHOW_AS_IS && s[i] != '\\') {
            if (o + k >= cap) break;
            memcpy(out + o, s + i, k);
            o += k;
        } else if (how == GDW_SHOW_CODE_POINT) {
            if (o + 6 >= cap) break;
            o += (size_t)snprintf(out + o, cap - o, "\\u%04x", (unsigned)cp);
        } else {
            if (o + 4 >= cap) break;
            out[o++] = '\\', out[o++] = 'x', out[o++] = hex[s[i] >> 4], out[o++] = hex[s[i] & 15];
            k = 1;
        }
        i += k;
    }
    out[o] = 0;
}

/* shown_name into a buffer of its own, for one name in one message at a time. */
static const char *shown(const char *name) {
    static char buf[512];
    shown_name(name, buf, sizeof buf);
    return buf;
}

void packet_name(const packet *pk, char *out, size_t cap) {
    char shown[512];
    shown_name(pk->source, shown, sizeof shown);
    if (pk->frame == 0) snprintf(out, cap, "%s", shown);
    else snprintf(out, cap, "%s %s %ld", shown, pk->offset == (size_t)-1 ? "line" : "frame", pk->frame);
}

/* ---- reading ---------------------------------------------------------------------------------- */

typedef struct reader {
    FILE *f;             /* or memory: */
    const uint8_t *mem;
    size_t len, pos;
    size_t consumed;     /* bytes taken so far */
    bool io_error;
    uint8_t ahead[4];    /* bytes read ahead of f (a pipe's first word, looked at for a container's magic) */
    size_t n_ahead;
} reader;

static size_t rd_read(reader *r, uint8_t *dst, size_t n) {
    size_t k;
    if (r->n_ahead && n) { /* the bytes read ahead first */
        k = r->n_ahead < n ? r->n_ahead : n;
        memcpy(dst, r->ahead, k);
        memmove(r->ahead, r->ahead + k, r->n_ahead - k);
        r->n_ahead -= k;
        size_t more = rd_read(r, dst + k, n - k); /* counts its own bytes */
        r->consumed += k;
        return k + more;
    }
    if (r->f) {
        k = fread(dst, 1, n, r->f);
        if (k < n && ferror(r->f)) r->io_error = true;
    } else {
        k = r->len - r->pos < n ? r->len - r->pos : n;
        memcpy(dst, r->mem + r->pos, k);
        r->pos += k;
    }
    r->consumed += k;
    return k;
}

/* The whole of f into a malloc'ed buffer. */
static int slurp(FILE *f, const char *name, uint8_t **out, size_t *out_n) {
    size_t cap = 65536, n = 0;
    uint8_t *p = malloc(cap);
    while (p) {
        n += fread(p + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *q = cap > SIZE_MAX / 2 ? NULL : realloc(p, cap * 2);
        if (!q) { free(p); p = NULL; break; }
        p = q;
        cap *= 2;
    }
    if (!p) { fprintf(stderr, "%s: %s: out of memory\n", k_prog, shown(name)); return EXIT_USAGE; }
    if (ferror(f)) { free(p); fprintf(stderr, "%s: %s: read error: %s\n", k_prog, shown(name), strerror(errno)); return EXIT_USAGE; }
    *out = p;
    *out_n = n;
    return 0;
}

/* A regular file, mapped: raw bytes read-only and faulted in at once; text (which untext turns to
 * bytes in place) writable, private to this process. NULL for anything else (a pipe, a terminal,
 * an empty file), which slurp reads. */
static uint8_t *map_file(const opts *o, FILE *f, size_t *n) {
    struct stat sb;
    int fd = fileno(f);
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 || (uintmax_t)sb.st_size > SIZE_MAX / 2) return NULL;
    bool text = o->enc != ENC_RAW;
    void *p = mmap(NULL, (size_t)sb.st_size, text ? PROT_READ | PROT_WRITE : PROT_READ, text ? MAP_PRIVATE : MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) return NULL;
    *n = (size_t)sb.st_size;
    return p;
}

/* ---- text encodings ----------------------------------------------------------------------------- */

/* Hex or base64 text p[0..n) to bytes in place; whitespace ignored. where names the input. */
static int untext(const opts *o, const char *where, uint8_t *p, size_t *n) {
    if (o->enc == ENC_RAW) return 0; /* encode --lines: each line is a value's text */
    if (o->enc == ENC_DUMP) {
        size_t bad = 0, len = 0;
        const char *why = NULL;
        uint8_t *out = malloc(*n ? *n : 1); /* not in place: a failure shows the line as it was */
        if (!out) { fprintf(stderr, "%s: %s: out of memory\n", k_prog, shown(where)); return EXIT_USAGE; }
        if (gdw_dump_decode((const char *)p, *n, out, &len, &bad, &why) == GDW_OK) {
            memcpy(p, out, len);
            *n = len;
            free(out);
            return 0;
        }
        free(out);
        /* the line that is not bytes (an engine's banner, a log line), shown, and where in it */
        size_t line = 1, start = 0, end;
        for (size_t i = 0; i < bad && i < *n; i++)
            if (p[i] == '\n') line++, start = i + 1;
        for (end = start; end < *n && p[end] != '\n' && p[end] != '\r'; end++) {}
        char text[200], shown_line[820];
        size_t k = end - start < sizeof text - 1 ? end - start : sizeof text - 1;
        memcpy(text, p + start, k);
        text[k] = 0;
        shown_name(text, shown_line, sizeof shown_line);
        fprintf(stderr, "%s: %s: line %zu: \"%s%s\"\n  %s at column %zu; --dump reads Godot's print() of a PackedByteArray, "
                        "lists of numbers, xxd and hexdump -C lines: leave other lines out\n",
                k_prog, shown(where), line, shown_line, end - start > k ? "..." : "", why, bad - start + 1);
        return EXIT_USAGE;
    }
    if (o->enc == ENC_HEX) {
        size_t out = 0, bad = 0;
        if (gdw_hex_decode((const char *)p, *n, p, &out, &bad)) {
            int c = p[bad];
            if (gdw_hex_digit(c) >= 0) fprintf(stderr, "%s: %s: odd number of hex digits\n", k_prog, shown(where));
            else fprintf(stderr, "%s: %s: not hex at character %zu ('%c')\n", k_prog, shown(where), bad, c >= 32 && c < 127 ? c : '?');
            return EXIT_USAGE;
        }
        *n = out;
        return 0;
    }
    size_t out = 0, bad = 0;
    uint8_t *tmp = malloc(*n / 4 * 3 + 3);
    if (!tmp) { fprintf(stderr, "%s: %s: out of memory\n", k_prog, shown(where)); return EXIT_USAGE; }
    if (gdw_base64_decode((const char *)p, *n, tmp, &out, &bad)) {
        free(tmp);
        if (bad < *n) fprintf(stderr, "%s: %s: not base64 at character %zu ('%c')\n", k_prog, shown(where), bad, p[bad] >= 32 && p[bad] < 127 ? p[bad] : '?');
        else fprintf(stderr, "%s: %s: base64 text ends inside a group\n", k_prog, shown(where));
        return EXIT_USAGE;
    }
    memcpy(p, tmp, out);
    free(tmp);
    *n = out;
    return 0;
}

/* ---- framing ------------------------------------------------------------------------------------ */

/* The library's framing options for the command's (gdw_frame_read, gdw_frame_prefix). */
gdw_frame_options frame_options(const opts *o) {
    gdw_frame_options fo = gdw_frame_options_default(o->frame == FRAME_FILE ? GDW_FRAMING_FILE
                                                     : o->frame == FRAME_PACKET_STREAM ? GDW_FRAMING_PACKET_STREAM
                                                                                       : GDW_FRAMING_STREAM);
    fo.big_endian = o->big_endian;
    fo.max_payload = o->max_frame;
    return fo;
}

static int frame_error(const opts *o, const char *src, long frame, size_t at, const char *msg, run_stats *st) {
    fprintf(stderr, "%s: %s frame %ld at byte %zu: %s\n", k_prog, shown(src), frame, at, msg);
    if (o->json) {
        printf("{\"source\":");
        json_string(stdout, src);
        printf(",\"frame\":%ld,\"offset\":%zu,\"accepted\":false,\"frame_error\":", frame, at);
        json_string(stdout, msg);
        printf("}\n");
    }
    st->frame_errors++;
    st->rejected++;
    st->packets++;
    return EXIT_REJECTED;
}

static int worse(int a, int b) { return a > b ? a : b; }

/* A frame fails: when the whole input, read without --framing, is one packet some dialect reads to
 * its last byte, its first word was a type header, not a length: say so, once (input in memory
 * only; a pipe is not read twice). */
static void hint_unframed(const opts *o, const char *src, const reader *r, long frame) {
    static bool said;
    if (said) return;
    gdw_decode_options v = o->dec;
    v.trace = NULL;
    for (size_t i = 0; !r->f && r->len >= 8 && i < gdw_dialect_count(); i++) { /* a header and a word at least */
        const gdw_dialect *d = o->dialect ? o->dialect : gdw_dialect_at(i);
        size_t used = 0;
        if (gdw_validate(d, r->mem, r->len, &v, &used, NULL) == GDW_OK && used == r->len) {
            fprintf(stderr, "%s %s: %s: without --framing the whole input is one %s packet: its first word is a type header, not a length\n",
                    k_prog, o->verb, shown(src), gdw_dialect_name(d));
            said = true;
            return;
        }
        if (o->dialect) break;
    }
    if (frame == 1 && !o->resync) { /* the very first prefix is not one: the stream may start inside a frame (issue 56) */
        fprintf(stderr, "%s %s: %s: the first length prefix is not one; a capture that starts inside a frame? --resync skips to the next offset where a frame reads\n",
                k_prog, o->verb, shown(src));
        said = true;
    }
}

/* A failed write on stdout (a closed pipe with SIGPIPE ignored, a full disk) ends the run at
 * the packet that met it, not at exit: an endless input must not be read on into the void. */
static bool stdout_failed(void) {
    static bool said;
    if (!ferror(stdout)) return false;
    if (!said) fprintf(stderr, "%s: write error on stdout: stopping\n", k_prog);
    said = true;
    return true;
}

/* Split what r delivers into frames, one call of fn each. */
static int split_frames(const opts *o, const char *src, reader *r, packet_fn fn, void *ctx, run_stats *st) {
    uint8_t *buf = NULL;
    size_t cap = 0;
    int rc = 0;
    for (long frame = 1;; frame++) {
        uint8_t pre[4];
        size_t at = r->consumed;
        size_t k = rd_read(r, pre, 4);
        if (k == 0) break;
        char msg[160];
        if (k < 4) {
            snprintf(msg, sizeof msg, "truncated length prefix: %zu of 4 bytes", k);
            rc = worse(rc, frame_error(o, src, frame, at, msg, st));
            hint_unframed(o, src, r, frame);
            break;
        }
        gdw_frame_options fo = frame_options(o);
        size_t len = 0, whole = 0;
        gdw_status fs = gdw_frame_read(&fo, pre, 4, &len, &whole, NULL); /* the prefix alone: TRUNCATED when it is good */
        if (fs == GDW_ERR_BAD_LENGTH && o->frame == FRAME_STREAM && (int32_t)(uint32_t)len < 0) {
            /* StreamPeer.get_var reads a signed length; the engine fails, and the stream is lost */
            snprintf(msg, sizeof msg, "negative length prefix %d (StreamPeer.get_var fails here)", (int)(int32_t)(uint32_t)len);
            rc = worse(rc, frame_error(o, src, frame, at, msg, st));
            hint_unframed(o, src, r, frame);
            break;
        }
        if (fs == GDW_ERR_BAD_LENGTH) {
            /* A default PacketPeerStream never delivers it: its ring buffer holds 2^16 - 1 bytes,
             * prefix included (gdw_frame_read); for stream and file, gdwire's own bound. */
            snprintf(msg, sizeof msg, "frame of %zu bytes is over the cap of %llu bytes (--max-frame)%s", len,
                     (unsigned long long)(o->max_frame ? o->max_frame : fo.framing == GDW_FRAMING_PACKET_STREAM ? GDW_FRAME_MAX_PACKET_STREAM : GDW_FRAME_MAX_DEFAULT),
                     o->frame == FRAME_PACKET_STREAM && !o->max_frame ? ": a default PacketPeerStream never delivers it" : "");
            rc = worse(rc, frame_error(o, src, frame, at, msg, st));
            hint_unframed(o, src, r, frame);
            break;
        }
        /* grow as bytes arrive, so a forged length costs only what is there */
        size_t got = 0;
        while (got < len) {
            size_t want = len - got < 1048576 ? len - got : 1048576;
            if (got + want > cap) {
                size_t nc = cap ? cap : 4096;
                while (nc < got + want) nc *= 2;
                uint8_t *q = realloc(buf, nc);
                if (!q) { free(buf); fprintf(stderr, "%s: %s: out of memory\n", k_prog, shown(src)); return EXIT_USAGE; }
                buf = q;
                cap = nc;
            }
            size_t n = rd_read(r, buf + got, want);
            got += n;
            if (n < want) break;
        }
        if (r->io_error) { free(buf); fprintf(stderr, "%s: %s: read error: %s\n", k_prog, shown(src), strerror(errno)); return EXIT_USAGE; }
        if (got < len) {
            snprintf(msg, sizeof msg, "truncated frame: the prefix says %zu bytes, %zu follow", len, got);
            rc = worse(rc, frame_error(o, src, frame, at, msg, st));
            hint_unframed(o, src, r, frame);
            break;
        }
        packet pk = {src, frame, at + 4, buf ? buf : (const uint8_t *)"", len};
        int r2 = fn(ctx, &pk);
        st->packets++;
        st->bytes += len;
        if (r2 == EXIT_ACCEPTED) st->accepted++;
        else if (r2 == EXIT_REJECTED) st->rejected++;
        rc = worse(rc, r2);
        progress(st, false);
        if (o->flush_each) fflush(stdout);
        if (r2 == EXIT_USAGE) break;
        if (stdout_failed()) { rc = EXIT_USAGE; break; }
    }
    free(buf);
    return rc;
}

/* --resync: a frame at p[0..n) that the reader takes: a good prefix, and a payload that one dialect
 * (the verb's, or any for check) reads to its last byte. Its payload length, or -1. */
static long long frame_parses(const opts *o, const uint8_t *p, size_t n) {
    gdw_frame_options fo = frame_options(o);
    size_t len = 0, whole = 0;
    if (gdw_frame_read(&fo, p, n, &len, &whole, NULL) != GDW_OK || !len) return -1;
    gdw_decode_options v = o->dec;
    v.trace = NULL;
    for (size_t i = 0; i < gdw_dialect_count(); i++) {
        const gdw_dialect *d = o->dialect ? o->dialect : o->from ? o->from : gdw_dialect_at(i);
        size_t used = 0;
        if (gdw_validate(d, p + GDW_FRAME_PREFIX, len, &v, &used, NULL) == GDW_OK && used == len) return (long long)len;
        if (o->dialect || o->from) break;
    }
    return -1;
}

/* --framing with --resync over input in memory: each frame as split_frames gives it, but where no
 * frame parses, the bytes up to the next offset where one does are skipped and reported (a capture
 * that starts mid-frame, a frame damaged on the way); bytes after the last frame that parses are
 * one report too. */
static int split_frames_resync(const opts *o, const char *src, const uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st) {
    int rc = 0;
    long frame = 0;
    for (size_t at = 0; at < n;) {
        size_t from = at;
        long long len;
        while (at < n && (len = frame_parses(o, p + at, n - at)) < 0) at++;
        if (at > from) {
            fprintf(stderr, "%s: %s: skipped %zu bytes at byte %zu%s (--resync)\n", k_prog, shown(src), at - from, from,
                    at < n ? ": no frame parses there" : ": no frame parses after them");
            st->skipped += at - from;
            st->skips++;
            rc = worse(rc, EXIT_REJECTED);
        }
        if (at >= n) break;
        packet pk = {src, ++frame, at + GDW_FRAME_PREFIX, p + at + GDW_FRAME_PREFIX, (size_t)len};
        int r2 = fn(ctx, &pk);
        st->packets++;
        st->bytes += (size_t)len;
        if (r2 == EXIT_ACCEPTED) st->accepted++;
        else if (r2 == EXIT_REJECTED) st->rejected++;
        rc = worse(rc, r2);
        progress(st, false);
        if (o->flush_each) fflush(stdout);
        if (r2 == EXIT_USAGE || stdout_failed()) return EXIT_USAGE;
        at += GDW_FRAME_PREFIX + (size_t)len;
    }
    return rc;
}

int split_frames_memory(const opts *o, const char *src, const uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st) {
    if (o->resync) return split_frames_resync(o, src, p, n, fn, ctx, st);
    reader r = {NULL, p, n, 0, 0, false, {0}, 0};
    return split_frames(o, src, &r, fn, ctx, st);
}

static int one_packet(const opts *o, packet_fn fn, void *ctx, run_stats *st, const packet *pk) {
    int r = fn(ctx, pk);
    st->packets++;
    st->bytes += pk->n;
    if (r == EXIT_ACCEPTED) st->accepted++;
    else if (r == EXIT_REJECTED) st->rejected++;
    progress(st, false);
    if (o->flush_each) fflush(stdout);
    return stdout_failed() ? EXIT_USAGE : r;
}

/* Line `line` of src, p[0..n) without its newline: skipped when blank or a '#' comment, else one
 * packet (its text decoded in place). Returns the packet's status, 0 for a skipped line; *stop when
 * the packet's own handling failed for good (I/O, memory): a line that is not hex is reported and
 * the next one read. */
static int one_line(const opts *o, const char *src, long line, uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st,
                    bool *stop) {
    size_t a = 0, b = n;
    while (a < b && (p[a] == ' ' || p[a] == '\t' || p[a] == '\r')) a++;
    while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t' || p[b - 1] == '\r')) b--;
    if (a == b || p[a] == '#') return 0;
    char where[512];
    snprintf(where, sizeof where, "%s line %ld", src, line);
    size_t len = b - a;
    int r = untext(o, where, p + a, &len);
    if (r) { st->rejected++; st->packets++; return r; }
    packet pk = {src, line, (size_t)-1, p + a, len};
    r = one_packet(o, fn, ctx, st, &pk);
    *stop = r == EXIT_USAGE;
    return r;
}

/* Every non-empty line (not starting with '#') of text p[0..n) as one packet. */
static int split_lines(const opts *o, const char *src, uint8_t *p, size_t n, packet_fn fn, void *ctx, run_stats *st) {
    int rc = 0;
    long line = 0;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && p[end] != '\n') end++;
        bool stop = false;
        rc = worse(rc, one_line(o, src, ++line, p + i, end - i, fn, ctx, st, &stop));
        i = end + 1;
        if (stop) break;
    }
    return rc;
}

/* The same, as lines arrive on f (a pipe, a terminal): each line is answered before the next is
 * read, so one process can serve a whole session. A bad line is reported and the next one read. */
static int split_lines_stream(const opts *o, const char *src, FILE *f, packet_fn fn, void *ctx, run_stats *st) {
    int rc = 0;
    long line = 0;
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&buf, &cap, f)) >= 0) {
        size_t n = (size_t)got;
        if (n && buf[n - 1] == '\n') n--;
        bool stop = false;
        rc = worse(rc, one_line(o, src, ++line, (uint8_t *)buf, n, fn, ctx, st, &stop));
        if (stop) break;
    }
    if (ferror(f)) { fprintf(stderr, "%s: %s: read error: %s\n", k_prog, shown(src), strerror(errno)); rc = EXIT_USAGE; }
    free(buf);
    return rc;
}

static int do_source(const opts *o, const char *path, packet_fn fn, void *ctx, run_stats *st) {
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) { fprintf(stderr, "%s: cannot open %s: %s\n", k_prog, shown(path), strerror(errno)); return EXIT_USAGE; }
    int rc;
    size_t mapped_n = 0;
    uint8_t *mapped = is_stdin ? NULL : map_file(o, f, &mapped_n);
    if (o->enc == ENC_RAW && o->frame == FRAME_FILE && mapped) { /* a FileAccess file: maybe compressed or encrypted (container.c) */
        rc = container_source(o, path, mapped, mapped_n, fn, ctx, st);
    } else if (o->enc == ENC_RAW && o->frame == FRAME_FILE) {
        /* a pipe: its first word says whether it is a container (read whole: a container is opened whole) or plain
         * frames (read frame by frame in bounded memory, as before) */
        reader r = {f, NULL, 0, 0, 0, false, {0}, 0};
        r.n_ahead = fread(r.ahead, 1, sizeof r.ahead, f);
        if (container_magic(r.ahead, r.n_ahead) || (o->container && o->to)) {
            uint8_t *rest = NULL, *p;
            size_t n_rest = 0;
            rc = slurp(f, path, &rest, &n_rest);
            p = rc ? NULL : malloc(r.n_ahead + n_rest + 1);
            if (!rc && !p) { fprintf(stderr, "%s: %s: out of memory\n", k_prog, shown(path)); rc = EXIT_USAGE; }
            if (!rc) {
                memcpy(p, r.ahead, r.n_ahead);
                memcpy(p + r.n_ahead, rest, n_rest);
                rc = container_source(o, path, p, r.n_ahead + n_rest, fn, ctx, st);
            }
            free(p);
            free(rest);
        } else {
            rc = o->resync ? 0 : split_frames(o, path, &r, fn, ctx, st);
            if (o->resync) { /* resync looks ahead: the whole input in memory */
                uint8_t *rest = NULL, *p = NULL;
                size_t n_rest = 0;
                rc = slurp(f, path, &rest, &n_rest);
                if (!rc && (p = malloc(r.n_ahead + n_rest + 1))) {
                    memcpy(p, r.ahead, r.n_ahead);
                    memcpy(p + r.n_ahead, rest, n_rest);
                    rc = split_frames_resync(o, path, p, r.n_ahead + n_rest, fn, ctx, st);
                } else if (!rc) rc = EXIT_USAGE;
                free(p);
                free(rest);
            }
        }
    } else if (o->enc == ENC_RAW && o->frame != FRAME_NONE && o->resync) {
        uint8_t *p = mapped;
        size_t n = mapped_n;
        rc = mapped ? 0 : slurp(f, path, &p, &n); /* resync looks ahead: the whole input in memory */
        if (!rc) rc = split_frames_resync(o, path, p, n, fn, ctx, st);
        if (!mapped) free(p);
    } else if (o->enc == ENC_RAW && o->frame != FRAME_NONE) {
        reader r = {mapped ? NULL : f, mapped, mapped_n, 0, 0, false, {0}, 0};
        rc = split_frames(o, path, &r, fn, ctx, st);
    } else {
        uint8_t *p = mapped;
        size_t n = mapped_n;
        if (o->lines && !mapped) {
            rc = split_lines_stream(o, path, f, fn, ctx, st);
            if (!is_stdin) fclose(f);
            return rc;
        }
        rc = mapped ? 0 : slurp(f, path, &p, &n);
        if (!rc) {
            if (o->lines) rc = split_lines(o, path, p, n, fn, ctx, st);
            else if (o->enc != ENC_RAW && (rc = untext(o, path, p, &n))) { /* reported */ }
            else if (o->frame == FRAME_FILE) rc = container_source(o, path, p, n, fn, ctx, st);
            else if (o->frame != FRAME_NONE && o->resync) rc = split_frames_resync(o, path, p, n, fn, ctx, st);
            else if (o->frame != FRAME_NONE) {
                reader r = {NULL, p, n, 0, 0, false, {0}, 0};
                rc = split_frames(o, path, &r, fn, ctx, st);
            } else {
                packet pk = {path, 0, 0, p, n};
                rc = one_packet(o, fn, ctx, st, &pk);
            }
            if (!mapped) free(p);
        }
    }
    if (mapped) munmap(mapped, mapped_n);
    if (!is_stdin) fclose(f);
    return rc;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* What a run has met, by device and inode (an open-addressing set): a directory reached again
 * (a symlink loop, or two links to one directory) is not walked again, and a file reached again
 * through a link inside a walk is not read again; each skip is said on stderr. A file named on
 * the command line is always read. */
typedef struct seen_set {
    struct { dev_t dev; ino_t ino; bool used; } *slot;
    size_t n, cap;
} seen_set;

/* true when (dev, ino) was there already; else adds it (false; also when memory is short). */
static bool seen_before(seen_set *s, dev_t dev, ino_t ino) {
    if (2 * (s->n + 1) > s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 256;
        seen_set t = {calloc(nc, sizeof *t.slot), 0, nc};
        if (!t.slot) return false;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i].used) seen_before(&t, s->slot[i].dev, s->slot[i].ino);
        free(s->slot);
        *s = t;
    }
    size_t h = ((size_t)ino * 0x9E3779B97F4A7C15ull ^ (size_t)dev) & (s->cap - 1);
    for (; s->slot[h].used; h = (h + 1) & (s->cap - 1))
        if (s->slot[h].dev == dev && s->slot[h].ino == ino) return true;
    s->slot[h].dev = dev;
    s->slot[h].ino = ino;
    s->slot[h].used = true;
    s->n++;
    return false;
}

typedef struct walk {
    const opts *o;
    packet_fn fn;
    void *ctx;
    run_stats *st;
    seen_set seen;
} walk;

/* A file, or every file under a directory in name order. in_walk: found inside a directory. */
static int do_path(walk *w, const char *path, bool in_walk, int depth) {
    struct stat sb;
    if (strcmp(path, "-") == 0 || stat(path, &sb) != 0) return do_source(w->o, path, w->fn, w->ctx, w->st);
    if (!S_ISDIR(sb.st_mode)) {
        if (seen_before(&w->seen, sb.st_dev, sb.st_ino) && in_walk) {
            fprintf(stderr, "%s: skipped %s: a link to a file already read\n", k_prog, shown(path));
            return 0;
        }
        return do_source(w->o, path, w->fn, w->ctx, w->st);
    }
    if (seen_before(&w->seen, sb.st_dev, sb.st_ino)) {
        fprintf(stderr, "%s: skipped %s: a directory already walked (a symlink loop, or a second link to it)\n", k_prog, shown(path));
        return 0;
    }
    if (depth > 64) { fprintf(stderr, "%s: %s: directories nested too deeply\n", k_prog, shown(path)); return EXIT_USAGE; }
    DIR *dir = opendir(path);
    if (!dir) { fprintf(stderr, "%s: cannot open directory %s: %s\n", k_prog, shown(path), strerror(errno)); return EXIT_USAGE; }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(dir))) {
        if (de->d_name[0] == '.') continue; /* ., .., hidden files */
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **q = realloc(names, cap * sizeof *q);
            if (!q) { rc = EXIT_USAGE; break; }
            names = q;
        }
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) { rc = EXIT_USAGE; break; }
        snprintf(names[n], len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
        n++;
    }
    closedir(dir);
    if (rc) fprintf(stderr, "%s: %s: out of memory listing the directory\n", k_prog, shown(path));
    if (n) qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        if (!stdout_failed()) rc = worse(rc, do_path(w, names[i], true, depth + 1));
        free(names[i]);
    }
    free(names);
    return rc;
}

bool single_packet_input(const opts *o) {
    struct stat sb;
    if (o->n_inputs != 1 || o->frame != FRAME_NONE || o->lines) return false;
    return strcmp(o->inputs[0], "-") == 0 || stat(o->inputs[0], &sb) != 0 || !S_ISDIR(sb.st_mode);
}

int for_each_packet(const opts *o, packet_fn fn, void *ctx, run_stats *st) {
    walk w = {o, fn, ctx, st, {NULL, 0, 0}};
    int rc = 0;
    for (int i = 0; i < o->n_inputs && !stdout_failed(); i++) rc = worse(rc, do_path(&w, o->inputs[i], false, 0));
    free(w.seen.slot);
    progress(st, true);
    return stdout_failed() ? EXIT_USAGE : rc;
}

/* ---- output ------------------------------------------------------------------------------------- */

int write_packet(const opts *o, const uint8_t *p, size_t n) {
    uint8_t pre[4];
    size_t np = 0;
    if (o->frame != FRAME_NONE) {
        gdw_frame_options fo = frame_options(o);
        fo.max_payload = UINT32_MAX; /* write what the encoder made; --max-frame bounds reading */
        if (gdw_frame_prefix(&fo, n, pre) != GDW_OK) {
            fprintf(stderr, "%s: a packet of %zu bytes does not fit a 32-bit length prefix%s\n", k_prog, n,
                    o->frame == FRAME_STREAM ? " read signed (StreamPeer.get_var)" : "");
            return EXIT_USAGE;
        }
        np = 4;
    }
    if (o->enc == ENC_RAW) { /* into the container convert is making: never past it to stdout, not even on a failure */
        int taken = sink_take(pre, np, p, n);
        if (taken < 0) { fprintf(stderr, "%s: out of memory\n", k_prog); return EXIT_USAGE; }
        if (taken) return 0;
    }
    if (o->enc == ENC_RAW) {
        if (fwrite(pre, 1, np, stdout) != np || fwrite(p, 1, n, stdout) != n) {
            fprintf(stderr, "%s: write error: %s\n", k_prog, strerror(errno));
            return EXIT_USAGE;
        }
        return 0;
    }
    uint8_t *all = malloc(np + n + 1);
    if (!all) { fprintf(stderr, "%s: out of memory\n", k_prog); return EXIT_USAGE; }
    memcpy(all, pre, np);
    if (n) memcpy(all + np, p, n);
    size_t total = np + n;
    if (o->enc == ENC_HEX) {
        for (size_t i = 0; i < total; i++) printf("%02x%s", all[i], (i % 4 == 3 && i + 1 < total) ? " " : "");
        printf("\n");
    } else if (o->enc == ENC_DUMP) { /* as Godot prints a PackedByteArray */
        printf("[");
        for (size_t i = 0; i < total; i++) printf("%s%u", i ? ", " : "", all[i]);
        printf("]\n");
    } else {
        size_t need = gdw_base64_encode(all, total, NULL, 0);
        char *t = malloc(need + 1);
        if (!t) { free(all); fprintf(stderr, "%s: out of memory\n", k_prog); return EXIT_USAGE; }
        gdw_base64_encode(all, total, t, need + 1);
        printf("%s\n", t);
        free(t);
    }
    free(all);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* output.c — terminal colour and progress, and the JSON pieces the verbs share. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

/* ---- colour ---------------------------------------------------------------------------------- */

static bool g_color, g_progress;

/* Colour on stdout only when it is a terminal (or --color), never with --no-color or NO_COLOR.
 * Progress on stderr only when it is a terminal. */
void term_setup(const opts *o) {
    const char *nc = getenv("NO_COLOR");
    g_color = o->color == 1 || (o->color == -1 && isatty(STDOUT_FILENO) && !(nc && nc[0]));
    g_progress = isatty(STDERR_FILENO) != 0;
}

const char *c_ok(void) { return g_color ? "\033[32m" : ""; }
const char *c_bad(void) { return g_color ? "\033[31m" : ""; }
const char *c_dim(void) { return g_color ? "\033[2m" : ""; }
const char *c_bold(void) { return g_color ? "\033[1m" : ""; }
const char *c_off(void) { return g_color ? "\033[0m" : ""; }

/* ---- progress ------------------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* After the first second, a line on stderr at most four times a second; cleared when done. */
void progress(const run_stats *st, bool done) {
    static double start, last;
    static bool shown;
    if (!g_progress) return;
    double t = now();
    if (start == 0) start = t;
    if (done) {
        if (shown) fprintf(stderr, "\r\033[K");
        return;
    }
    if (t - start < 1.0 || t - last < 0.25) return;
    last = t;
    shown = true;
    fprintf(stderr, "\r\033[K%zu packets, %.1f MB, %zu rejected, %.0f s", st->packets, st->bytes / 1e6, st->rejected, t - start);
    fflush(stderr);
}

/* ---- JSON ------------------------------------------------------------------------------------ */

/* Length of the well-formed UTF-8 sequence at p (RFC 3629), 0 if there is none. */
static size_t utf8_seq(const uint8_t *p, size_t n) {
    uint8_t c = p[0];
    size_t len = (c >= 0xC2 && c <= 0xDF) ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
    if (!len || len > n) return 0;
    for (size_t k = 1; k < len; k++) if ((p[k] & 0xC0) != 0x80) return 0;
    uint32_t cp = (uint32_t)(c & (0x7F >> len));
    for (size_t k = 1; k < len; k++) cp = (cp << 6) | (p[k] & 0x3Fu);
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
    return len;
}

/* Bytes as a JSON string: a byte that is not part of valid UTF-8 becomes U+FFFD (file names). */
void json_bytes_string(FILE *f, const uint8_t *p, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        size_t k;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7F) fprintf(f, "\\u%04x", c);
        else if (c < 0x80) fputc(c, f);
        else if ((k = utf8_seq(p + i, n - i))) { fwrite(p + i, 1, k, f); i += k - 1; }
        else fputs("\\ufffd", f);
    }
    fputc('"', f);
}

void json_string(FILE *f, const char *s) { json_bytes_string(f, (const uint8_t *)s, strlen(s)); }

void json_error(FILE *f, const gdw_error *e) {
    fprintf(f, "{\"code\":\"%s\",\"offset\":%zu,\"value_offset\":%zu,\"path\":", gdw_status_name(e->code), e->offset, e->value_offset);
    json_string(f, e->path);
    fprintf(f, ",\"message\":");
    json_string(f, e->message ? e->message : "");
    if (e->engine_error != GDW_ENGINE_NONE) fprintf(f, ",\"engine_error\":\"%s\"", gdw_engine_error_name(e->engine_error));
    else fprintf(f, ",\"engine_error\":null");
    fputc('}', f);
}

void json_packet_fields(FILE *f, const packet *pk) {
    fprintf(f, "\"source\":");
    json_string(f, pk->source);
    if (pk->frame == 0) fprintf(f, ",\"frame\":null");
    else fprintf(f, ",\"%s\":%ld", pk->offset == (size_t)-1 ? "line" : "frame", pk->frame);
    if (pk->offset != (size_t)-1) fprintf(f, ",\"offset\":%zu", pk->offset);
    fprintf(f, ",\"bytes\":%zu", pk->n);
}

char *json_value_alloc(const opts *o, const gdw_value *v) {
    return o->json_plain ? gdw_json_print_plain_alloc(v, o->json_plain, NULL, NULL) : gdw_json_print_alloc(v, NULL, NULL);
}

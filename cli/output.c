/* SPDX-License-Identifier: MIT */
/* output.c — terminal colour and progress, and the JSON pieces the verbs share. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fopencookie (--pretty) */
#endif
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
    fprintf(stderr, "\r\033[K%zu packet%s, %.1f MB, %zu rejected, %.0f s", st->packets, plural(st->packets), st->bytes / 1e6, st->rejected, t - start);
    fflush(stderr);
}

/* ---- JSON ------------------------------------------------------------------------------------ */

/* Length of the well-formed UTF-8 sequence at p (RFC 3629), 0 if there is none. */
/* Bytes as a JSON string, as gdw_text_show says: a control, and a character that drives or
 * reorders a terminal, as \uXXXX; a byte that is not part of valid UTF-8 becomes U+FFFD (file
 * names). */
void write_hex(FILE *f, const uint8_t *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    char buf[4096];
    while (n) {
        size_t k = n < sizeof buf / 2 ? n : sizeof buf / 2;
        for (size_t i = 0; i < k; i++) buf[2 * i] = digits[p[i] >> 4], buf[2 * i + 1] = digits[p[i] & 15];
        fwrite(buf, 1, 2 * k, f);
        p += k, n -= k;
    }
}

void json_bytes_string(FILE *f, const uint8_t *p, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        size_t run = i; /* printable ASCII, in one write */
        while (run < n && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' && p[run] != '\\') run++;
        if (run > i) {
            fwrite(p + i, 1, run - i, f);
            i = run;
            continue;
        }
        uint8_t c = p[i];
        gdw_show how;
        uint32_t cp;
        size_t k = gdw_text_show(p + i, n - i, &how, &cp);
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (how == GDW_SHOW_AS_IS) fwrite(p + i, 1, k, f);
        else if (how == GDW_SHOW_CODE_POINT || c < 0x80) fprintf(f, "\\u%04x", (unsigned)cp);
        else fputs("\\ufffd", f);
        i += k;
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

/* ---- --pretty: the output re-indented as it is written ---------------------------------------- */

/* A filter on stdout (fopencookie): every value's lists and dictionaries ([ ] and { }, text form or
 * JSON) open onto lines of their own, two spaces a level; constructor arguments ( ), type subscripts
 * (Array[int]) and empty containers stay on their line, and a newline of the output ends a record.
 * Whitespace only: what is printed reads back the same. */
typedef struct pretty {
    int fd;
    int depth;          /* lists open */
    int inline_depth;   /* ( ) and type subscripts open: no breaks inside */
    bool in_string, escape;
    char pending;       /* an opener waiting to see whether its list is empty */
    char prev;          /* the last character written that is not a space */
    bool skip_space;    /* after a break: the spaces the one-line form had */
    uint8_t kind[4096]; /* per open bracket: 1 a list, 0 inline */
    int n_open;
    char out[8192];
    size_t n;
} pretty;

static void pr_flush(pretty *p) {
    size_t at = 0;
    while (at < p->n) {
        ssize_t w = write(p->fd, p->out + at, p->n - at);
        if (w <= 0) break;
        at += (size_t)w;
    }
    p->n = 0;
}
static void pr_put(pretty *p, char c) { if (p->n == sizeof p->out) pr_flush(p); p->out[p->n++] = c; }
static void pr_break(pretty *p, int depth) { pr_put(p, '\n'); for (int i = 0; i < depth; i++) { pr_put(p, ' '); pr_put(p, ' '); } }

static bool ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

static void pr_char(pretty *p, char c) {
    if (p->in_string) {
        pr_put(p, c);
        if (p->escape) p->escape = false;
        else if (c == '\\') p->escape = true;
        else if (c == '"') p->in_string = false;
        p->prev = c;
        return;
    }
    if (p->pending) { /* an opened list: empty, or its first item on the next line */
        char open = p->pending;
        p->pending = 0;
        if ((open == '[' && c == ']') || (open == '{' && c == '}')) { pr_put(p, c); p->depth--; p->n_open--; p->prev = c; return; }
        pr_break(p, p->depth);
        p->skip_space = true;
    }
    if (p->skip_space && c == ' ') return;
    p->skip_space = false;
    if (c == '\n') { pr_put(p, c); p->depth = p->inline_depth = p->n_open = 0; p->prev = 0; return; }
    if (c == '"') { p->in_string = true; pr_put(p, c); p->prev = c; return; }
    if (c == '[' || c == '{' || c == '(') {
        bool list = c != '(' && p->inline_depth == 0 && !(c == '[' && (ident_char(p->prev) || p->prev == ']'));
        if (p->n_open < (int)sizeof p->kind) p->kind[p->n_open] = list;
        p->n_open++;
        pr_put(p, c);
        if (list) { p->depth++; p->pending = c; }
        else p->inline_depth++;
        p->prev = c;
        return;
    }
    if (c == ']' || c == '}' || c == ')') {
        bool list = p->n_open > 0 && p->n_open <= (int)sizeof p->kind ? p->kind[p->n_open - 1] : false;
        if (p->n_open) p->n_open--;
        if (list) { p->depth--; pr_break(p, p->depth); }
        else if (p->inline_depth) p->inline_depth--;
        pr_put(p, c);
        p->prev = c;
        return;
    }
    if (c == ',' && p->depth && !p->inline_depth) { pr_put(p, c); pr_break(p, p->depth); p->skip_space = true; p->prev = c; return; }
    pr_put(p, c);
    if (c != ' ') p->prev = c;
}

static ssize_t pr_write(void *cookie, const char *buf, size_t size) {
    pretty *p = (pretty *)cookie;
    for (size_t i = 0; i < size; i++) pr_char(p, buf[i]);
    pr_flush(p);
    return (ssize_t)size;
}

static int pr_close(void *cookie) {
    pretty *p = (pretty *)cookie;
    pr_flush(p);
    int rc = close(p->fd); /* the dup of stdout's descriptor */
    free(p);
    return rc;
}

FILE *pretty_stdout(void) {
    pretty *p = (pretty *)calloc(1, sizeof *p);
    if (!p) return NULL;
    fflush(stdout);
    p->fd = dup(STDOUT_FILENO);
    cookie_io_functions_t io = {NULL, pr_write, NULL, pr_close};
    FILE *f = fopencookie(p, "w", io);
    if (!f) { free(p); return NULL; }
    return f;
}

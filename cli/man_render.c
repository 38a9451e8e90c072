/* SPDX-License-Identifier: MIT */
/* man_render.c — shows the built-in manual page (docs/gdwire.1) as plain text, laid out as man(1)
 * lays it out: text is filled into lines of at most WIDTH columns until a break (.br, .PP, .TP, .SH,
 * a blank line); .nf/.fi keep lines as they are. The requests the page uses: .TH .SH .SS .PP .P .LP
 * .TP .IP .RS .RE .br .nf .fi .EX .EE .B .I .R .BI .BR .IB .IR .RB .RI; the font escapes \fB \fI \fR
 * \fP, \- \(em \e \\ \&. */
#include <string.h>

#include "cli/cli.h"

#define WIDTH 80

typedef struct page {
    FILE *f;
    char line[4 * WIDTH]; /* the output line being filled */
    size_t len;           /* bytes in it */
    size_t col;           /* its width in columns (UTF-8 continuation bytes take none) */
    bool space_due;       /* a word separator before the next word */
    int indent, base;
} page;

static void flush(page *p) {
    if (p->len) {
        fprintf(p->f, "%*s%.*s\n", p->indent, "", (int)p->len, p->line);
        p->len = p->col = 0;
    }
    p->space_due = false;
}

static size_t columns(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* One word into the filled line; a word longer than the line goes on a line of its own. */
static void word(page *p, const char *w, size_t n) {
    size_t wc = columns(w, n);
    bool sep = p->space_due && p->len;
    if (p->len && (size_t)p->indent + p->col + sep + wc > WIDTH) { flush(p); sep = false; }
    if (p->len + sep + n >= sizeof p->line) { flush(p); sep = false; }
    if (n >= sizeof p->line) n = sizeof p->line - 1;
    if (sep) { p->line[p->len++] = ' '; p->col++; }
    memcpy(p->line + p->len, w, n);
    p->len += n;
    p->col += wc;
    p->space_due = false;
}

/* Text with font escapes removed and character escapes resolved, into out (returns its length). */
static size_t unescape(const char *s, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        if (s[i] != '\\' || i + 1 >= n) { out[o++] = s[i]; continue; }
        char e = s[++i];
        if (e == 'f' && i + 1 < n) { i++; continue; } /* \fB \fI \fR \fP */
        if (e == '-') out[o++] = '-';
        else if (e == '(' && i + 2 < n) { if (s[i + 1] == 'e' && s[i + 2] == 'm') { out[o++] = '-'; out[o++] = '-'; } i += 2; }
        else if (e == 'e' || e == '\\') out[o++] = '\\';
        else if (e == '&') { /* zero-width */ }
        else out[o++] = e;
    }
    return o;
}

/* Filled text: its words one by one. The first joins the word before unless a space is due (the
 * end of a source line, a space in the text). */
static void text(page *p, const char *s, size_t n) {
    char buf[4096];
    size_t m = unescape(s, n, buf, sizeof buf);
    size_t i = 0;
    while (i < m) {
        while (i < m && buf[i] == ' ') { i++; p->space_due = true; }
        size_t start = i;
        while (i < m && buf[i] != ' ') i++;
        if (i > start) word(p, buf + start, i - start);
    }
}

/* .B a b c: the words with spaces; .BR a b (two fonts alternating): the arguments joined. */
static void words(page *p, const char *args, size_t n, bool alternate) {
    bool first = true;
    size_t i = 0;
    while (i < n) {
        while (i < n && args[i] == ' ') i++;
        if (i >= n) break;
        size_t start = i, end;
        if (args[i] == '"') { start = ++i; while (i < n && args[i] != '"') i++; end = i; if (i < n) i++; }
        else { while (i < n && args[i] != ' ') i++; end = i; }
        if (!alternate && !first) p->space_due = true;
        text(p, args + start, end - start);
        first = false;
    }
    p->space_due = true;
}

void man_render(FILE *f, const char *roff) {
    page pg = {.f = f, .len = 0, .col = 0, .space_due = false, .indent = 0, .base = 0};
    page *p = &pg;
    bool nofill = false, tag_pending = false;
    const char *s = roff;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const char *line = s;
        s = nl ? nl + 1 : s + n;
        if (n >= 3 && line[0] == '.' && line[1] == '\\' && line[2] == '"') continue; /* comment */
        if (n && line[0] == '.') {
            char req[4] = {0};
            size_t k = 1;
            while (k < n && k < 4 && line[k] != ' ') { req[k - 1] = line[k]; k++; }
            const char *args = line + k;
            size_t an = n - k;
            if (strcmp(req, "TH") == 0) { fprintf(f, "GDWIRE(1)\n"); continue; }
            if (strcmp(req, "SH") == 0 || strcmp(req, "SS") == 0) {
                flush(p);
                fputc('\n', f);
                p->indent = req[1] == 'H' ? 0 : 3;
                words(p, args, an, false);
                flush(p);
                p->indent = p->base = 7;
                continue;
            }
            if (strcmp(req, "PP") == 0 || strcmp(req, "P") == 0 || strcmp(req, "LP") == 0) { flush(p); fputc('\n', f); p->indent = p->base; continue; }
            if (strcmp(req, "TP") == 0) { flush(p); fputc('\n', f); p->indent = p->base; tag_pending = true; continue; }
            if (strcmp(req, "IP") == 0) { flush(p); fputc('\n', f); p->indent = p->base + 4; continue; }
            if (strcmp(req, "RS") == 0) { flush(p); p->base += 4; p->indent = p->base; continue; }
            if (strcmp(req, "RE") == 0) { flush(p); p->base = p->base >= 11 ? p->base - 4 : 7; p->indent = p->base; continue; }
            if (strcmp(req, "br") == 0) { flush(p); continue; }
            if (strcmp(req, "nf") == 0 || strcmp(req, "EX") == 0) { flush(p); nofill = true; continue; }
            if (strcmp(req, "fi") == 0 || strcmp(req, "EE") == 0) { nofill = false; continue; }
            if (req[0] == 'B' || req[0] == 'I' || req[0] == 'R') {
                words(p, args, an, req[1] != 0);
            } else {
                continue; /* other requests: nothing to show */
            }
        } else if (nofill) {
            char buf[4096];
            size_t m = unescape(line, n, buf, sizeof buf);
            fprintf(f, "%*s%.*s\n", p->indent, "", (int)m, buf);
            continue;
        } else if (n == 0) {
            flush(p);
            fputc('\n', f);
            continue;
        } else {
            text(p, line, n);
            p->space_due = true;
        }
        if (tag_pending) { /* the tag of a .TP paragraph is its own line; the body is indented */
            tag_pending = false;
            flush(p);
            p->indent = p->base + 4;
        }
    }
    flush(p);
}

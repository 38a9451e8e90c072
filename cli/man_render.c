/* man_render.c — shows the built-in manual page (docs/gdwire.1) as plain text: the few
 * requests the page uses (.TH .SH .SS .PP .TP .IP .RS .RE .nf .fi .B .I .BR .IR .RB) and the
 * font escapes \fB \fI \fR \fP, \- and \(em. */
#include <string.h>

#include "cli/cli.h"

/* Text of a line with font escapes removed and character escapes resolved. */
static void put_text(FILE *f, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 >= n) { fputc(s[i], f); continue; }
        char e = s[++i];
        if (e == 'f' && i + 1 < n) { i++; continue; }           /* \fB \fI \fR \fP */
        if (e == '-') fputc('-', f);
        else if (e == '(' && i + 2 < n) { if (s[i + 1] == 'e' && s[i + 2] == 'm') fputs("--", f); i += 2; }
        else if (e == 'e' || e == '\\') fputc('\\', f);
        else if (e == '&') { /* zero-width */ }
        else fputc(e, f);
    }
}

/* .B a b c / .BR a b: the words, joined (alternating macros join without spaces). */
static void put_words(FILE *f, const char *args, size_t n, bool alternate) {
    bool first = true;
    size_t i = 0;
    while (i < n) {
        while (i < n && args[i] == ' ') i++;
        if (i >= n) break;
        size_t start = i, end;
        if (args[i] == '"') { start = ++i; while (i < n && args[i] != '"') i++; end = i; if (i < n) i++; }
        else { while (i < n && args[i] != ' ') i++; end = i; }
        if (!first && !alternate) fputc(' ', f);
        put_text(f, args + start, end - start);
        first = false;
    }
}

void man_render(FILE *f, const char *roff) {
    int indent = 0, base = 0;
    bool nofill = false, tag_pending = false;
    const char *p = roff;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *line = p;
        p = nl ? nl + 1 : p + n;
        if (n >= 3 && line[0] == '.' && line[1] == '\\' && line[2] == '"') continue; /* comment */
        if (n && line[0] == '.') {
            char req[4] = {0};
            size_t k = 1;
            while (k < n && k < 4 && line[k] != ' ') { req[k - 1] = line[k]; k++; }
            const char *args = line + k;
            size_t an = n - k;
            if (strcmp(req, "TH") == 0) { fprintf(f, "GDWIRE(1)\n\n"); continue; }
            if (strcmp(req, "SH") == 0) { fputc('\n', f); put_words(f, args, an, false); fputc('\n', f); indent = base = 7; continue; }
            if (strcmp(req, "SS") == 0) { fprintf(f, "\n   "); put_words(f, args, an, false); fputc('\n', f); indent = base; continue; }
            if (strcmp(req, "PP") == 0 || strcmp(req, "P") == 0 || strcmp(req, "LP") == 0) { fputc('\n', f); indent = base; continue; }
            if (strcmp(req, "TP") == 0) { fputc('\n', f); indent = base; tag_pending = true; continue; }
            if (strcmp(req, "IP") == 0) { fputc('\n', f); indent = base + 4; continue; }
            if (strcmp(req, "RS") == 0) { base += 4; indent = base; continue; }
            if (strcmp(req, "RE") == 0) { base = base >= 11 ? base - 4 : 7; indent = base; continue; }
            if (strcmp(req, "nf") == 0 || strcmp(req, "EX") == 0) { nofill = true; continue; }
            if (strcmp(req, "fi") == 0 || strcmp(req, "EE") == 0) { nofill = false; continue; }
            if (req[0] == 'B' || req[0] == 'I' || req[0] == 'R') {
                fprintf(f, "%*s", indent, "");
                put_words(f, args, an, req[1] != 0);
                fputc('\n', f);
                if (tag_pending) { tag_pending = false; indent = base + 4; }
                continue;
            }
            continue; /* other requests: nothing to show */
        }
        fprintf(f, "%*s", indent, "");
        put_text(f, line, n);
        fputc('\n', f);
        if (tag_pending) { tag_pending = false; indent = base + 4; }
        (void)nofill;
    }
}

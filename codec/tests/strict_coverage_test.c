/* SPDX-License-Identifier: MIT */
/* strict_coverage_test — every strict-only rule of the decoder (each STRICT_CHECK in
 * codec/wire/decode.c) refuses some conformance vector in strict mode, in some row: a rule no
 * vector reaches is a rule no vector states (issue 32). The codec is built for this test with
 * GDW_STRICT_COVERAGE, under which a rule that refuses reports its line
 * (gdw_strict_rule_refused). Arguments: the conformance packets (runner --export: id, hex,
 * objects) and the decoder's source, whose STRICT_CHECK lines are the rules. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire_check.h"

#define MAX_LINES 4096
static unsigned char g_refused[MAX_LINES];

void gdw_strict_rule_refused(unsigned line);
void gdw_strict_rule_refused(unsigned line) {
    if (line < MAX_LINES) g_refused[line] = 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: strict_coverage_test PACKETS.tsv DECODE.c\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0, packets = 0, refusals = 0;
    while (getline(&line, &cap, f) > 0) {
        char *hex = strchr(line, '\t'), *objects = hex ? strchr(hex + 1, '\t') : NULL;
        if (!objects) continue;
        size_t nhex = (size_t)(objects - hex - 1), n = 0;
        unsigned char *buf = malloc(nhex / 2 + 1);
        if (!buf || gdw_hex_decode(hex + 1, nhex, buf, &n, NULL)) {
            fprintf(stderr, "bad hex in %s\n", argv[1]);
            return 2;
        }
        packets++;
        for (size_t i = 0; i < gdw_row_count(); i++) {
            gdw_decode_options o = gdw_decode_options_default();
            o.mode = GDW_MODE_STRICT;
            o.allow_objects = objects[1] == '1';
            refusals += gdw_validate(gdw_row_at(i), buf, n, &o, NULL, NULL) != GDW_OK;
        }
        free(buf);
    }
    fclose(f);
    FILE *src = fopen(argv[2], "r");
    if (!src) {
        perror(argv[2]);
        return 2;
    }
    unsigned lineno = 0, rules = 0, reached = 0, failed = 0;
    /* the call being read: from its name's line to the line of its closing parenthesis. __LINE__
     * in a call written over several lines is the first of them in gcc and the last in clang
     * (the ASan and TSan builds): a rule is reached when a refusal names a line of its own call,
     * never its neighbour's */
    unsigned start = 0, depth = 0;
    char first[160] = "";
    while (getline(&line, &cap, src) > 0) {
        lineno++;
        const char *from = line;
        if (!depth) {
            /* a call, however clang-format breaks it; not the macro's definition nor a comment */
            const char *at = strstr(line, "STRICT_CHECK(");
            const char *text = line + strspn(line, " \t");
            if (!at || strstr(line, "#define") || *text == '*' || !strncmp(text, "/*", 2)) continue;
            rules++;
            start = lineno;
            snprintf(first, sizeof first, "%s", text);
            from = at + strlen("STRICT_CHECK");
        }
        bool in_string = false;
        for (const char *q = from; *q; q++) {
            if (in_string) {
                if (*q == '\\' && q[1]) q++;
                else if (*q == '"') in_string = false;
            } else if (*q == '"') in_string = true;
            else if (*q == '(') depth++;
            else if (*q == ')' && depth && --depth == 0) break;
        }
        if (depth) continue; /* the call goes on */
        bool hit = false;
        for (unsigned k = start; k <= lineno && k < MAX_LINES; k++) hit |= g_refused[k] != 0;
        if (hit) reached++;
        else {
            failed++;
            printf("FAIL: %s:%u: no conformance vector reaches this strict rule: %s", argv[2],
                   start, first);
        }
    }
    fclose(src);
    free(line);
    printf("%zu packets in %zu rows in strict mode, %zu refused; %u strict rules, %u reached by a "
           "vector\n",
           packets, gdw_row_count(), refusals, rules, reached);
    if (rules < 20) {
        printf("FAIL: only %u STRICT_CHECK rules found in %s\n", rules, argv[2]);
        failed++;
    }
    printf("%u passed, %u failed\n", reached + (rules >= 20), failed);
    return failed ? 1 : 0;
}

/* SPDX-License-Identifier: MIT */
/* text_show_test — the one rule by which every text output shows text (gdw_text_show, issue 55):
 * every code point U+0001-U+10FFFF as UTF-8, and every byte that starts no well-formed character,
 * is classified as docs/text-format.md says; and a string holding each character that is escaped
 * as a code point prints in the text form and in JSON as \uXXXX, with none of its bytes raw, and
 * reads back from the text form to the same bytes. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>

#include "gdwire.h"

static unsigned long g_pass, g_fail;

#define CHECK(cond, ...) \
    do { \
        if (cond) g_pass++; \
        else if (g_fail++ < 20) printf("FAIL: " __VA_ARGS__), printf("\n"); \
    } while (0)

static size_t utf8(uint32_t u, uint8_t *b) {
    if (u < 0x80) return b[0] = (uint8_t)u, 1;
    if (u < 0x800) return b[0] = (uint8_t)(0xC0 | u >> 6), b[1] = (uint8_t)(0x80 | (u & 0x3F)), 2;
    if (u < 0x10000)
        return b[0] = (uint8_t)(0xE0 | u >> 12), b[1] = (uint8_t)(0x80 | ((u >> 6) & 0x3F)),
               b[2] = (uint8_t)(0x80 | (u & 0x3F)), 3;
    b[0] = (uint8_t)(0xF0 | u >> 18), b[1] = (uint8_t)(0x80 | ((u >> 12) & 0x3F)),
    b[2] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
    b[3] = (uint8_t)(0x80 | (u & 0x3F));
    return 4;
}

/* What docs/text-format.md says is escaped as a code point: C1, Bidi_Control, U+2028, U+2029. */
static int escaped_as_code_point(uint32_t u) {
    return (u >= 0x80 && u <= 0x9F) || u == 0x061C || u == 0x200E || u == 0x200F ||
           (u >= 0x202A && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069) || u == 0x2028 ||
           u == 0x2029;
}

int main(void) {
    uint8_t b[8];
    unsigned long as_code_point = 0;
    for (uint32_t u = 1; u <= 0x10FFFF; u++) {
        if (u >= 0xD800 && u <= 0xDFFF) continue;
        size_t n = utf8(u, b);
        gdw_show how;
        uint32_t cp = 0;
        size_t k = gdw_text_show(b, n, &how, &cp);
        gdw_show want = u < 0x20 || u == 0x7F      ? GDW_SHOW_BYTE
                        : escaped_as_code_point(u) ? GDW_SHOW_CODE_POINT
                                                   : GDW_SHOW_AS_IS;
        CHECK(k == n && how == want && cp == u,
              "U+%04X: %zu bytes, shown %d (want %zu bytes, %d), code point %04X", u, k, how, n,
              want, cp);
        as_code_point += how == GDW_SHOW_CODE_POINT;
        if (how != GDW_SHOW_CODE_POINT || u < 0x80) continue;
        /* "a<it>b" in the text form and in JSON: \uXXXX, none of its bytes raw; and back */
        char text[64], want_esc[16], json[128];
        snprintf(text, sizeof text, "\"a\\u%04xb\"", (unsigned)u);
        snprintf(want_esc, sizeof want_esc, "\\u%04x", (unsigned)u);
        gdw_doc *doc = NULL;
        gdw_error err;
        CHECK(gdw_text_parse(text, strlen(text), NULL, &doc, &err) == GDW_OK,
              "U+%04X: %s does not parse", u, text);
        if (!doc) continue;
        const gdw_value *v = gdw_doc_root(doc);
        uint8_t bytes[8];
        bytes[0] = 'a';
        memcpy(bytes + 1, b, n);
        bytes[1 + n] = 'b';
        CHECK(v->len == n + 2 && memcmp(v->u.bytes, bytes, n + 2) == 0,
              "U+%04X: %s reads as other bytes", u, text);
        char printed[64];
        gdw_text_print(v, printed, sizeof printed);
        CHECK(strcmp(printed, text) == 0, "U+%04X: printed %s, not %s", u, printed, text);
        gdw_json_print(v, json, sizeof json);
        CHECK(strstr(json, want_esc) && !memmem(json, strlen(json), b, n), "U+%04X: JSON %s", u,
              json);
        gdw_doc_free(doc);
    }
    CHECK(as_code_point == 32 + 1 + 2 + 5 + 4 + 2, "%lu characters escaped as code points, not 46",
          as_code_point);
    /* a byte that starts no well-formed character: one byte, escaped as a byte */
    static const uint8_t bad[][4] = {{0x80},
                                     {0xC0, 0x80},
                                     {0xC1, 0xBF},
                                     {0xE0, 0x80, 0x80},
                                     {0xED, 0xA0, 0x80},
                                     {0xF4, 0x90, 0x80, 0x80},
                                     {0xF5, 0x80, 0x80, 0x80},
                                     {0xFF},
                                     {0xE2, 0x80}};
    static const size_t bad_len[] = {1, 2, 2, 3, 3, 4, 4, 1, 2};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gdw_show how;
        uint32_t cp;
        size_t k = gdw_text_show(bad[i], bad_len[i], &how, &cp);
        CHECK(k == 1 && how == GDW_SHOW_BYTE && cp == bad[i][0],
              "bad UTF-8 %zu: %zu bytes, shown %d", i, k, how);
    }
    /* the text form's \u: no surrogate, no NUL, four digits */
    static const char *const refused[] = {"\"\\ud800\"", "\"\\u0000\"", "\"\\u12\"", "\"\\u12g4\""};
    for (size_t i = 0; i < 4; i++) {
        gdw_doc *doc = NULL;
        gdw_error err;
        CHECK(gdw_text_parse(refused[i], strlen(refused[i]), NULL, &doc, &err) == GDW_ERR_SYNTAX,
              "%s parses", refused[i]);
        gdw_doc_free(doc);
    }
    printf("%lu passed, %lu failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

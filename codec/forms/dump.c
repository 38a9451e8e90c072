/* SPDX-License-Identifier: MIT */
/* dump.c — byte values as people paste them: Godot's print() of a PackedByteArray ([27, 0, 0, 0]),
 * decimal or 0x lists, xxd and hexdump -C / od dumps. `gdwire --dump`, the npm package and the page
 * (web/) read them here. */
#include <string.h>

#include "codec/forms/forms.h"

static bool is_hexc(uint8_t c) { return gdw_hex_digit(c) >= 0; }

/* A line that starts with an offset of 7 or more hex digits then ":" (xxd) or two spaces (hexdump
 * -C; od -A x -t x1z), or is that offset alone (hexdump's last line): the offset's length, else 0.
 * */
static size_t dump_offset(const uint8_t *p, size_t n, bool *xxd) {
    size_t k = 0;
    while (k < n && is_hexc(p[k])) k++;
    if (k < 7) return 0;
    *xxd = k < n && p[k] == ':';
    if (*xxd || k == n || (k + 1 < n && p[k] == ' ' && p[k + 1] == ' ')) return k;
    return 0;
}

static const char *undump(const uint8_t *p, size_t len, uint8_t *o, size_t *n, size_t *bad_at) {
    size_t out = 0;
    size_t last_line = 0, last_len = 0; /* hexdump's "*": the line before repeats */
    bool pending_repeat = false;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && p[end] != '\n') end++;
        const uint8_t *l = p + i;
        size_t ln = end - i;
        while (ln && (l[ln - 1] == '\r' || l[ln - 1] == ' ' || l[ln - 1] == '\t')) ln--;
        bool xxd = false;
        size_t off = dump_offset(l, ln, &xxd), k = off;
        size_t line_start = out;
        if (ln == 1 && l[0] == '*') {
            pending_repeat = true;
            i = end + 1;
            continue;
        }
        if (off) {
            /* the offset says where this line's bytes go: a "*" before it repeated the last line up
             * to there */
            unsigned long long at = 0;
            for (size_t q = 0; q < off; q++)
                at = at * 16 + (unsigned)(l[q] <= '9' ? l[q] - '0' : (l[q] | 32) - 'a' + 10);
            if (pending_repeat && last_len) {
                while (out + last_len <= at) {
                    /* read in place: the bytes may not outgrow the text read so far */
                    if (out + last_len > i) {
                        *bad_at = i;
                        return "hexdump's '*' repeats more bytes than its text holds: dump with "
                               "hexdump -v -C";
                    }
                    memmove(o + out, o + last_line, last_len);
                    out += last_len;
                }
                line_start = out;
            }
            pending_repeat = false;
            if (xxd) {
                k++; /* ':'; then groups of hex digits up to two spaces (the text column) */
                while (k < ln) {
                    while (k < ln && l[k] == ' ') {
                        if (k + 1 < ln && l[k + 1] == ' ') {
                            k = ln;
                            break;
                        }
                        k++;
                    }
                    if (k >= ln) break;
                    if (!is_hexc(l[k])) break;
                    while (k + 1 < ln && is_hexc(l[k]) && is_hexc(l[k + 1])) {
                        o[out++] = (uint8_t)((gdw_hex_digit(l[k]) << 4) | gdw_hex_digit(l[k + 1]));
                        k += 2;
                    }
                    if (k < ln && is_hexc(l[k])) {
                        *bad_at = i + k;
                        return "odd hex digits in an xxd line";
                    }
                }
            } else {
                /* hexdump -C: bytes "1b 00" up to the "|text|" column */
                while (k < ln && l[k] != '|') {
                    if (l[k] == ' ') {
                        k++;
                        continue;
                    }
                    if (k + 1 < ln && is_hexc(l[k]) && is_hexc(l[k + 1]) &&
                        (k + 2 >= ln || l[k + 2] == ' ')) {
                        o[out++] = (uint8_t)((gdw_hex_digit(l[k]) << 4) | gdw_hex_digit(l[k + 1]));
                        k += 2;
                        continue;
                    }
                    *bad_at = i + k;
                    return "not a byte of a hexdump -C line";
                }
            }
        } else {
            /* a list: decimal 0-255 or 0xNN, separated by commas, spaces, brackets or braces */
            while (k < ln) {
                uint8_t c = l[k];
                if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '[' || c == ']' ||
                    c == '{' || c == '}' || c == '(' || c == ')') {
                    k++;
                    continue;
                }
                unsigned v = 0, digits = 0;
                if (c == '0' && k + 1 < ln && (l[k + 1] == 'x' || l[k + 1] == 'X')) {
                    k += 2;
                    while (k < ln && is_hexc(l[k]) && digits < 3) {
                        v = v * 16 + (unsigned)gdw_hex_digit(l[k]);
                        k++;
                        digits++;
                    }
                } else {
                    while (k < ln && l[k] >= '0' && l[k] <= '9' && digits < 4) {
                        v = v * 10 + (unsigned)(l[k] - '0');
                        k++;
                        digits++;
                    }
                }
                bool sep = k >= ln || l[k] == ' ' || l[k] == '\t' || l[k] == ',' || l[k] == ';' ||
                           l[k] == ']' || l[k] == '}' || l[k] == ')';
                if (!digits || v > 255 || !sep) {
                    *bad_at = i + k;
                    return "expected a byte value (0-255 or 0x00-0xff)";
                }
                o[out++] = (uint8_t)v;
            }
        }
        if (out > line_start) {
            last_line = line_start;
            last_len = out - line_start;
        }
        i = end + 1;
    }
    *n = out;
    return NULL;
}


gdw_status gdw_dump_decode(const char *in, size_t n, uint8_t *out, size_t *out_len, size_t *bad_at,
                           const char **why) {
    if (!out || !out_len || (!in && n > 0)) return GDW_ERR_INVALID_ARG;
    size_t bad = 0;
    const char *w = undump((const uint8_t *)in, n, out, out_len, &bad);
    if (why) *why = w;
    if (!w) return GDW_OK;
    if (bad_at) *bad_at = bad;
    return GDW_ERR_SYNTAX;
}

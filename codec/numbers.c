/* SPDX-License-Identifier: MIT */
/* numbers.c — the numbers of the text form and the JSON form, read one way: a real to its exact
 * bits at a width (f32 rounded once, from the decimal, never through a double), an integer to a
 * range, and the width a real gets when the input names none. Both readers call these; neither
 * has number rules of its own beyond the span of its token. */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>

#include "codec/internal.h"

#define NUMBER_MAX_CHARS 512 /* JSON numbers may be 400 characters (json_parse.c) */

/* The token as a NUL-terminated string in tok (cap bytes); false if it does not fit. */
static bool token(const char *s, size_t n, char *tok, size_t cap) {
    if (n == 0 || n >= cap) return false;
    memcpy(tok, s, n);
    tok[n] = 0;
    return true;
}

/* Both forms write the decimal point as '.'; strtod reads the C library's current LC_NUMERIC one
 * (',' in de_DE, say, when the host program called setlocale). So the token's '.' becomes that
 * point before strtod sees it: a number reads the same in every locale (codec/tests/locale_test). */
static void point_to_locale(char *tok, size_t cap) {
    const struct lconv *lc = localeconv();
    const char *dp = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point : ".";
    char *d = strchr(tok, '.');
    size_t dl = strlen(dp);
    if (!d || (dl == 1 && dp[0] == '.') || strlen(tok) + dl >= cap) return;
    memmove(d + dl, d + 1, strlen(d + 1) + 1);
    memcpy(d, dp, dl);
}

const char *gdw_number_real(const char *s, size_t n, unsigned width, uint64_t *bits) {
    char tok[NUMBER_MAX_CHARS + 8];
    if (!token(s, n, tok, NUMBER_MAX_CHARS + 1)) return "expected a number";
    bool neg = tok[0] == '-';
    const char *body = (tok[0] == '-' || tok[0] == '+') ? tok + 1 : tok;
    if (strncmp(body, "nan", 3) == 0) {
        if (body[3] == '(') {
            /* exactly nan(0xHEX...) as gdw_real_text writes it: no spaces, no sign inside, at
             * most 16 (8 for f32) digits; a '-' before "nan" sets the sign bit */
            const char *h = body + 4;
            size_t nd = 0;
            uint64_t b = 0;
            bool ok = h[0] == '0' && (h[1] == 'x' || h[1] == 'X');
            for (h += 2; ok && isxdigit((unsigned char)*h); h++, nd++)
                b = (b << 4) | (uint64_t)(isdigit((unsigned char)*h) ? *h - '0' : (tolower((unsigned char)*h) - 'a' + 10));
            if (!ok || nd == 0 || nd > (width == 4 ? 8u : 16u) || h[0] != ')' || h[1])
                return "bad NaN payload (nan(0x...) with up to 16 hex digits, 8 for f32)";
            if (neg) b |= width == 8 ? 1ull << 63 : 1ull << 31;
            if (width == 8 ? !isnan(bits_to_f64(b)) : !isnan(bits_to_f32((uint32_t)b))) return "NaN payload is not a NaN";
            *bits = b;
        } else if (!body[3]) {
            *bits = width == 8 ? 0x7ff8000000000000ull | (neg ? 1ull << 63 : 0) : 0x7fc00000u | (neg ? 1u << 31 : 0);
        } else return "bad NaN";
        return NULL;
    }
    if (strncmp(body, "0x", 2) == 0 || strncmp(body, "0X", 2) == 0) return "bad number";
    point_to_locale(tok, sizeof tok);
    char *end;
    if (width == 4) *bits = f32_to_bits(strtof(tok, &end));
    else *bits = f64_to_bits(strtod(tok, &end));
    return *end ? "bad number" : NULL;
}

unsigned gdw_number_natural_width(uint64_t *bits) {
    if (gdw_f64_fits_f32(*bits) && !isnan(bits_to_f64(*bits))) {
        *bits = f32_to_bits((float)bits_to_f64(*bits));
        return 4;
    }
    return 8;
}

const char *gdw_number_i64(const char *s, size_t n, int64_t *out) {
    char tok[48];
    if (!token(s, n, tok, 41)) return "expected an integer";
    char *end;
    errno = 0;
    long long v = strtoll(tok, &end, 10);
    if (*end || errno) return "bad integer";
    *out = v;
    return NULL;
}

const char *gdw_number_u64(const char *s, size_t n, uint64_t *out) {
    char tok[48];
    if (!token(s, n, tok, 41) || tok[0] == '-') return "expected an unsigned integer";
    char *end;
    errno = 0;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end || errno) return "bad integer";
    *out = v;
    return NULL;
}

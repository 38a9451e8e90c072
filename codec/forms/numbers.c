/* SPDX-License-Identifier: MIT */
/* numbers.c — the numbers of the text form and the JSON form, read one way: a real to its exact
 * bits at a width (f32 rounded once, from the decimal, never through a double), an integer to a
 * range, and the width a real gets when the input names none. Both readers call these; neither
 * has number rules of its own beyond the span of its token. */
/* strtod_l, strtof_l and newlocale: POSIX 2008 and the GNU / BSD C libraries (xlocale.h on
 * Apple's), _strtod_l on Windows. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1
#endif
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

#include "codec/forms/forms.h"

#define NUMBER_MAX_CHARS 512 /* JSON numbers may be 400 characters (json_parse.c) */

/* The token as a NUL-terminated string in tok (cap bytes); false if it does not fit. */
static bool token(const char *s, size_t n, char *tok, size_t cap) {
    if (n == 0 || n >= cap) return false;
    memcpy(tok, s, n);
    tok[n] = 0;
    return true;
}

/* Both forms write the decimal point as '.', whatever LC_NUMERIC the host program set (',' in
 * de_DE, say): reals are read with strtod_l / strtof_l in a "C" locale object made once, so a
 * number reads the same in every locale (codec/tests/locale_test) and no call touches the global
 * locale (localeconv and setlocale are not thread-safe; codec/tests/threads_test runs under TSan).
 * */
#if defined(_WIN32)
typedef _locale_t c_locale;
static c_locale make_c_locale(void) { return _create_locale(LC_NUMERIC, "C"); }
static void drop_c_locale(c_locale l) { _free_locale(l); }
#define STRTOD_C(s, e, l) _strtod_l(s, e, l)
#define STRTOF_C(s, e, l) _strtof_l(s, e, l)
#else
typedef locale_t c_locale;
static c_locale make_c_locale(void) { return newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }
static void drop_c_locale(c_locale l) { freelocale(l); }
#define STRTOD_C(s, e, l) strtod_l(s, e, l)
#define STRTOF_C(s, e, l) strtof_l(s, e, l)
#endif

/* The "C" locale, made by the first call that needs it; a thread that loses the race to store
 * its own frees it. NULL only if the C library cannot make one. Never freed: one per process.
 * The compilers' atomic builtins, not <stdatomic.h>: the amalgamation also compiles as C99 and
 * as C++. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <windows.h>
#define LOAD_ACQUIRE(p) \
    ((c_locale)InterlockedCompareExchangePointer((void *volatile *)(p), NULL, NULL))
#define PUBLISH(p, expected, made) \
    (InterlockedCompareExchangePointer((void *volatile *)(p), (made), NULL) == NULL)
#else
#define LOAD_ACQUIRE(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define PUBLISH(p, expected, made) \
    __atomic_compare_exchange_n(p, expected, made, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
#endif
static c_locale the_c_locale(void) {
    static c_locale shared;
    c_locale l = LOAD_ACQUIRE(&shared);
    if (l) return l;
    c_locale made = make_c_locale(), expected = (c_locale)0;
    if (!made) return (c_locale)0;
    if (PUBLISH(&shared, &expected, made)) return made;
    drop_c_locale(made);
    return LOAD_ACQUIRE(&shared);
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
            for (h += 2; ok && gdw_hex_digit((unsigned char)*h) >= 0; h++, nd++)
                b = (b << 4) | (uint64_t)gdw_hex_digit((unsigned char)*h);
            if (!ok || nd == 0 || nd > (width == 4 ? 8u : 16u) || h[0] != ')' || h[1])
                return "bad NaN payload (nan(0x...) with up to 16 hex digits, 8 for f32)";
            if (neg) b |= width == 8 ? 1ull << 63 : 1ull << 31;
            if (width == 8 ? !isnan(bits_to_f64(b)) : !isnan(bits_to_f32((uint32_t)b)))
                return "NaN payload is not a NaN";
            *bits = b;
        } else if (!body[3]) {
            *bits = width == 8 ? 0x7ff8000000000000ull | (neg ? 1ull << 63 : 0)
                               : 0x7fc00000u | (neg ? 1u << 31 : 0);
        } else return "bad NaN";
        return NULL;
    }
    if (strncmp(body, "0x", 2) == 0 || strncmp(body, "0X", 2) == 0) return "bad number";
    c_locale c = the_c_locale();
    if (!c) return "no C locale to read numbers in";
    char *end;
    if (width == 4) *bits = f32_to_bits(STRTOF_C(tok, &end, c));
    else *bits = f64_to_bits(STRTOD_C(tok, &end, c));
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

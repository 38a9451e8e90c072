/* SPDX-License-Identifier: MIT */
/* utf8.c — the string checks of each engine generation (see docs/dialects.md). */
#include <string.h>

#include "codec/value/value.h"

/* The length of the Godot 3 form a lead byte starts (1-6), 0 for a byte no form starts with. */
static size_t godot3_form_len(uint8_t c) {
    return (c & 0x80) == 0      ? 1
           : (c & 0xE0) == 0xC0 ? 2
           : (c & 0xF0) == 0xE0 ? 3
           : (c & 0xF8) == 0xF0 ? 4
           : (c & 0xFC) == 0xF8 ? 5
           : (c & 0xFE) == 0xFC ? 6
                                : 0;
}

/* Godot 3 String::parse_utf8, as a verdict: scan until the end; lead bytes of 1-6 byte
 * forms, 0xC0/0xC1 leads and a few 3+ byte overlongs rejected, surrogates and code points
 * above U+10FFFF accepted. The caller has already cut the input at its first NUL. */
static size_t check_godot3(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = p[i];
        size_t len = godot3_form_len(c);
        if (len == 0) return i;
        if (len == 2 && (c & 0x1E) == 0) return i;
        if (len > n - i) return i; /* sequence cut short */
        uint32_t uc = len == 1 ? c : (uint32_t)((0xFFu >> (len + 1)) & c);
        for (size_t k = 1; k < len; k++) {
            uint8_t b = p[i + k];
            if ((b & 0xC0) != 0x80) return i + k;
            /* the engine's only 3+ byte overlong test */
            if (uc == 0 && k == 2 && ((b & 0x7F) >> (7 - len)) == 0) return i + k;
            uc = (uc << 6) | (b & 0x3F);
        }
        i += len;
    }
    return (size_t)-1;
}

/* RFC 3629. */
static size_t check_strict(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t min, uc;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            min = 0x80;
            uc = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            min = 0x800;
            uc = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            min = 0x10000;
            uc = c & 0x07;
        } else return i;
        if (len > n - i) return i;
        for (size_t k = 1; k < len; k++) {
            uint8_t b = p[i + k];
            if ((b & 0xC0) != 0x80) return i + k;
            uc = (uc << 6) | (b & 0x3F);
        }
        if (uc < min || uc > 0x10FFFF || (uc >= 0xD800 && uc <= 0xDFFF)) return i;
        i += len;
    }
    return (size_t)-1;
}

size_t gdw_text_show(const uint8_t *p, size_t n, gdw_show *how, uint32_t *cp) {
    uint8_t c = p[0];
    *cp = c;
    if (c < 0x80) {
        *how = c < 0x20 || c == 0x7F ? GDW_SHOW_BYTE : GDW_SHOW_AS_IS;
        return 1;
    }
    size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                 : (c & 0xF0) == 0xE0     ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4
                                          : 0;
    if (!len || len > n || check_strict(p, len) != (size_t)-1) {
        *how = GDW_SHOW_BYTE;
        return 1;
    }
    uint32_t u = c & (0x7Fu >> len);
    for (size_t k = 1; k < len; k++) u = u << 6 | (p[k] & 0x3Fu);
    *cp = u;
    bool acts = u <= 0x9F || u == 0x061C || u == 0x200E || u == 0x200F ||
                (u >= 0x202A && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069) || u == 0x2028 ||
                u == 0x2029;
    *how = acts ? GDW_SHOW_CODE_POINT : GDW_SHOW_AS_IS;
    return len;
}

size_t gdw_utf8_check(const uint8_t *p, size_t n, unsigned rule) {
    switch (rule) {
    case GDW_UTF8_GODOT3: return check_godot3(p, n);
    case GDW_UTF8_STRICT: return check_strict(p, n);
    default: return (size_t)-1;
    }
}

/* ---- what the engine's String holds (engine-exact values) --------------------------------- */

/* One code point of a sequence the Godot 3 rule accepted, and its length in bytes. */
static uint32_t godot3_code_point(const uint8_t *p, size_t n, size_t *len) {
    uint8_t c = p[0];
    size_t k = godot3_form_len(c);
    if (k == 0 || k > n) k = 1; /* not reached for an accepted string */
    uint32_t uc = k == 1 ? c : (uint32_t)((0xFFu >> (k + 1)) & c);
    for (size_t i = 1; i < k; i++) uc = (uc << 6) | (p[i] & 0x3F);
    *len = k;
    return uc;
}

/* String::utf8() of one code point: the shortest form, up to 6 bytes for code points above
 * U+1FFFFF (3.x keeps them in its 32-bit wchar_t). */
static size_t put_code_point(uint32_t uc, uint8_t *out) {
    static const uint32_t limit[] = {0x80, 0x800, 0x10000, 0x200000, 0x4000000};
    size_t k = 1;
    while (k < 6 && uc >= limit[k - 1]) k++;
    if (k == 1) {
        out[0] = (uint8_t)uc;
        return 1;
    }
    for (size_t i = k - 1; i > 0; i--) {
        out[i] = (uint8_t)(0x80 | (uc & 0x3F));
        uc >>= 6;
    }
    out[0] = (uint8_t)((0xFF00u >> k) | uc);
    return k;
}

static bool is_high_surrogate(uint32_t uc) { return uc >= 0xD800 && uc <= 0xDBFF; }
static bool is_low_surrogate(uint32_t uc) { return uc >= 0xDC00 && uc <= 0xDFFF; }

size_t gdw_ascii_prefix(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n && p[i] < 0x80) i++;
    return i;
}

size_t gdw_utf8_engine_value(const uint8_t *p, size_t n, unsigned value_rule, uint8_t *out) {
    if (value_rule == GDW_UTF8_VALUE_BYTES) return (size_t)-1;
    size_t i = gdw_ascii_prefix(p, n);
    if (i == n) return (size_t)-1; /* ASCII: every rule keeps it */
    bool pair = value_rule == GDW_UTF8_VALUE_GODOT35, changed = false;
    size_t w = i;
    if (out) memcpy(out, p, i);
    while (i < n) {
        size_t len, len2;
        uint32_t uc = godot3_code_point(p + i, n - i, &len);
        if (pair && (is_high_surrogate(uc) || is_low_surrogate(uc))) {
            uint32_t lo = is_high_surrogate(uc) && i + len < n
                              ? godot3_code_point(p + i + len, n - i - len, &len2)
                              : 0;
            if (is_low_surrogate(lo)) {
                uc = 0x10000 + ((uc - 0xD800) << 10) + (lo - 0xDC00);
                len += len2;
            } else {
                uc = ' ';
            }
        }
        uint8_t form[6];
        size_t k = put_code_point(uc, form);
        if (k != len || memcmp(form, p + i, k) != 0) changed = true;
        if (out) memcpy(out + w, form, k);
        w += k;
        i += len;
    }
    return changed ? w : (size_t)-1;
}

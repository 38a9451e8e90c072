/* utf8.c — the string checks of each engine generation (see docs/dialects.md). */
#include "codec/internal.h"

/* Godot 3 String::parse_utf8, as a verdict: scan until the end; lead bytes of 1-6 byte
 * forms, 0xC0/0xC1 leads and a few 3+ byte overlongs rejected, surrogates and code points
 * above U+10FFFF accepted. The caller has already cut the input at its first NUL. */
static size_t check_godot3(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = p[i];
        size_t len;
        if ((c & 0x80) == 0) len = 1;
        else if ((c & 0xE0) == 0xC0) len = 2;
        else if ((c & 0xF0) == 0xE0) len = 3;
        else if ((c & 0xF8) == 0xF0) len = 4;
        else if ((c & 0xFC) == 0xF8) len = 5;
        else if ((c & 0xFE) == 0xFC) len = 6;
        else return i;
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
        if (c < 0x80) { i++; continue; }
        size_t len;
        uint32_t min, uc;
        if (c >= 0xC2 && c <= 0xDF) { len = 2; min = 0x80; uc = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { len = 3; min = 0x800; uc = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; min = 0x10000; uc = c & 0x07; }
        else return i;
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

size_t gdw_utf8_check(const uint8_t *p, size_t n, unsigned rule) {
    switch (rule) {
    case GDW_UTF8_GODOT3: return check_godot3(p, n);
    case GDW_UTF8_STRICT: return check_strict(p, n);
    default: return (size_t)-1;
    }
}

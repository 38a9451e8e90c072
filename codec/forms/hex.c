/* SPDX-License-Identifier: MIT */
/* hex.c — hex text: packets as the command, the vectors, the testee protocol and the tests write
 * them. The one reader of a hex digit, gdw_hex_digit, is value/'s (value/path.c), below every
 * reader of one. */
#include "codec/forms/forms.h"

gdw_status gdw_hex_decode(const char *in, size_t n, uint8_t *out, size_t *out_len, size_t *bad_at) {
    if ((!in && n) || !out || !out_len) return GDW_ERR_INVALID_ARG;
    size_t i = 0, o = 0, odd_at = 0;
    int hi = -1;
    if (n >= 2 && in[0] == '0' && (in[1] == 'x' || in[1] == 'X')) i = 2;
    for (; i < n; i++) {
        int c = (unsigned char)in[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        int v = gdw_hex_digit(c);
        if (v < 0) {
            if (bad_at) *bad_at = i;
            return GDW_ERR_SYNTAX;
        }
        if (hi < 0) {
            hi = v;
            odd_at = i;
        } else {
            out[o++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        if (bad_at) *bad_at = odd_at;
        return GDW_ERR_SYNTAX;
    }
    *out_len = o;
    return GDW_OK;
}

/* SPDX-License-Identifier: MIT */
/* base64.c — RFC 4648 base64 with padding, as Godot's Marshalls.variant_to_base64 writes it. */
#include "codec/forms/forms.h"

static const char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t gdw_base64_encode(const uint8_t *in, size_t n, char *out, size_t cap) {
    if (!out) cap = 0;
    if (!in) n = 0;
    size_t need = (n + 2) / 3 * 4, o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t w = (uint32_t)in[i] << 16;
        if (i + 1 < n) w |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n) w |= in[i + 2];
        char q[4] = {k_alphabet[(w >> 18) & 63], k_alphabet[(w >> 12) & 63],
                     i + 1 < n ? k_alphabet[(w >> 6) & 63] : '=',
                     i + 2 < n ? k_alphabet[w & 63] : '='};
        for (int k = 0; k < 4; k++, o++)
            if (o + 1 < cap) out[o] = q[k];
    }
    if (cap) out[o < cap ? o : cap - 1] = 0;
    return need;
}

static int b64val(uint8_t c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62; /* '-' and '_': the URL-safe alphabet */
    if (c == '/' || c == '_') return 63;
    return -1;
}

gdw_status gdw_base64_decode(const char *in, size_t n, uint8_t *out, size_t *out_len,
                             size_t *bad_at) {
    if ((!in && n) || !out || !out_len) return GDW_ERR_INVALID_ARG;
    uint32_t acc = 0;
    unsigned bits = 0, pad = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)in[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            pad++;
            continue;
        }
        int v = b64val(c);
        if (v < 0 || pad) {
            if (bad_at) *bad_at = i;
            return GDW_ERR_SYNTAX;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    /* leftover bits must be the zero fill of a final group; padding at most 2 */
    if (bits >= 6 || pad > 2 || (acc & ((1u << bits) - 1u)) != 0) {
        if (bad_at) *bad_at = n;
        return GDW_ERR_SYNTAX;
    }
    *out_len = o;
    return GDW_OK;
}

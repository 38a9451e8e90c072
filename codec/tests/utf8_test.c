/* SPDX-License-Identifier: MIT */
/* utf8_test — text valid under the strict rule (RFC 3629) is valid under every dialect's rule.
 * gdw_check's one-pass strict verdict (decode.c) relies on it to check a string once: every
 * sequence of 1 to 3 bytes, and 2,000,000 random 4-8 byte strings weighted to lead and
 * continuation bytes. */
#include <stdio.h>
#include <stdlib.h>

#include "codec/api.h"

static unsigned long g_pass, g_fail;

static void one(const uint8_t *b, size_t len) {
    if (gdw_utf8_check(b, len, GDW_UTF8_STRICT) != (size_t)-1) {
        g_pass++;
        return;
    }
    static const unsigned rules[] = {GDW_UTF8_UNCHECKED, GDW_UTF8_GODOT3};
    for (size_t r = 0; r < 2; r++) {
        if (gdw_utf8_check(b, len, rules[r]) == (size_t)-1) {
            g_pass++;
            continue;
        }
        if (g_fail++ < 10) {
            printf("FAIL: strict-valid, rejected by rule %u:", rules[r]);
            for (size_t i = 0; i < len; i++) printf(" %02x", b[i]);
            printf("\n");
        }
    }
}

int main(void) {
    uint8_t b[8];
    for (unsigned len = 1; len <= 3; len++)
        for (unsigned long v = 0; v < (1ul << (8 * len)); v++) {
            for (unsigned i = 0; i < len; i++) b[i] = (uint8_t)(v >> (8 * i));
            one(b, len);
        }
    uint64_t x = 88172645463325252ull; /* xorshift: the same strings on every run */
    for (unsigned long k = 0; k < 2000000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned len = 4 + (unsigned)(x % 5);
        for (unsigned i = 0; i < len; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            unsigned r = (unsigned)(x >> 8);
            b[i] = (r & 3) == 0   ? (uint8_t)(0xF0 | (r >> 2) % 8)
                   : (r & 3) == 1 ? (uint8_t)(0x80 | (r >> 2) % 64)
                   : (r & 3) == 2 ? (uint8_t)(0xE0 | (r >> 2) % 16)
                                  : (uint8_t)(r >> 2);
        }
        one(b, len);
    }
    printf("%lu passed, %lu failed\n", g_pass, g_fail);
    return g_fail != 0;
}

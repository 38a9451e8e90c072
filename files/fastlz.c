/* SPDX-License-Identifier: MIT
 * fastlz.c — FastLZ blocks, gdwire's own reader and writer, from the format (moved from session/compress.c so the
 * session library's ENet datagrams and the file containers share one definition).
 *
 * A block is instructions: a literal run (ctrl 0-31: ctrl + 1 bytes follow) or a match (ctrl's top 3 bits: its
 * length - 2, 7 meaning a length byte follows (level 2: bytes while 255); its low 5 bits and the next byte: the
 * distance - 1; level 2's distance 0x1FFF + 1 says a 16-bit far distance follows, plus 8191). The first byte's
 * top 3 bits give the level (0: level 1, 1: level 2), and it is a literal run. Every read and copy is bounded: a
 * block that reads past its end, copies from before the output's start or past cap is refused (0), as the
 * engine's safe decoder refuses it. One difference: a block whose last byte is a match's control byte makes
 * fastlz.c read one byte past the block (its code byte), and accept or refuse by what lies there; gdwire refuses
 * it. */
#include "fastlz.h"

#include <string.h>

size_t gdw_fastlz_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    if (!in || !out || n == 0) return 0;
    size_t ip = 0, op = 0;
    uint8_t first = in[ip++];
    unsigned level = (first >> 5) + 1u;
    if (level > 2) return 0;
    unsigned ctrl = first & 31u; /* the first instruction is a literal run */
    for (;;) {
        if (ctrl >= 32) {
            size_t len = (ctrl >> 5) - 1u, dist = (size_t)(ctrl & 31u) << 8;
            if (len == 6) {
                uint8_t more;
                do {
                    if (ip >= n) return 0;
                    more = in[ip++];
                    len += more;
                } while (level == 2 && more == 255);
            }
            if (ip >= n) return 0;
            uint8_t code = in[ip++];
            dist += code + 1u;
            if (level == 2 && code == 255 && dist == (31u << 8) + 256u) { /* a far match: 16 bits more */
                if (n - ip < 3) return 0; /* fastlz.c wants ip < ip_bound here: a byte past the two */
                size_t far = (size_t)in[ip] << 8 | in[ip + 1];
                ip += 2;
                dist = far + 8191u + 1u;
            }
            len += 3;
            if (dist > op || len > cap - op) return 0;
            for (size_t k = 0; k < len; k++) out[op + k] = out[op + k - dist]; /* may overlap: byte by byte */
            op += len;
        } else {
            size_t run = ctrl + 1u;
            if (run > cap - op || run > n - ip) return 0;
            memcpy(out + op, in + ip, run);
            ip += run;
            op += run;
        }
        /* level 1 stops with fewer than 2 bytes left, level 2 with none (fastlz.c's ip_bound and ip_limit) */
        if (level == 1 ? n - ip < 2 : n == ip) break;
        ctrl = in[ip++];
    }
    return op;
}

size_t gdw_fastlz_compress(const uint8_t *in, size_t n, uint8_t *out) {
    size_t op = 0;
    for (size_t ip = 0; ip < n;) {
        size_t run = n - ip < 32 ? n - ip : 32;
        out[op++] = (uint8_t)(run - 1); /* level 1: the first byte's top 3 bits are 0 */
        memcpy(out + op, in + ip, run);
        op += run;
        ip += run;
    }
    return op;
}

/* SPDX-License-Identifier: MIT */
/* session_read FILE.pcap — the session library alone on a capture (bench/capture_bench.py's row "the library"):
 * every frame through gdw_session_frame, every message and Variant decoded, nothing printed but the counts. It reads
 * classic pcap (either byte order, micro- or nanosecond) from memory, the file read whole first, so that the time is
 * the library's. What `gdwire capture --json` adds on top is printing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/gdwire_session.h"

static unsigned long long g_messages, g_values;

static void on_message(void *ctx, const gdw_message *m) {
    (void)ctx;
    g_messages++;
    g_values += m->mp->value_count;
}

static uint32_t u32(const unsigned char *p, int swap) {
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: session_read FILE.pcap\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(n > 0 ? (size_t)n : 1);
    if (!d || n < 24 || fread(d, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "session_read: %s: not read\n", argv[1]);
        return 2;
    }
    fclose(f);
    uint32_t magic = u32(d, 0);
    int swap = magic == 0xd4c3b2a1u || magic == 0x4d3cb2a1u;
    if (!swap && magic != 0xa1b2c3d4u && magic != 0xa1b23c4du) {
        fprintf(stderr, "session_read: %s: not a classic pcap file\n", argv[1]);
        return 2;
    }
    int link = (int)(u32(d + 20, swap) & 0xFFFF);
    gdw_session *s = gdw_session_new(NULL, on_message, NULL, NULL);
    size_t pos = 24;
    while (pos + 16 <= (size_t)n) {
        uint32_t caplen = u32(d + pos + 8, swap), wirelen = u32(d + pos + 12, swap);
        if (caplen > (size_t)n - pos - 16) break;
        gdw_session_frame(s, link, d + pos + 16, caplen, wirelen, 0);
        pos += 16 + (size_t)caplen;
    }
    gdw_session_finish(s);
    gdw_session_stats st = gdw_session_get_stats(s);
    gdw_session_free(s);
    free(d);
    printf("%llu frames, %llu messages, %llu values\n", (unsigned long long)st.frames, g_messages, g_values);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* digest.c — the digest's calls (gdw_digest, gdwire.h): a node at a time (digest.h's digest_node,
 * which a decode runs inline as it makes its nodes) or a whole tree. */
#include "codec/value/digest.h"

/* ---- digests (gdw_digest, gdwire.h): node_equal's comparisons, as 128 bits ------------------- */

void gdw_digest_init(gdw_digest *g, uint64_t key0, uint64_t key1, const uint8_t *packet,
                     size_t packet_len) {
    if (!g) return;
    g->key[0] = key0;
    g->key[1] = key1 ^ 0xA0761D6478BD642Fu; /* two lanes, even for one key given twice */
    g->h[0] = key1;
    g->h[1] = key0;
    g->packet = packet;
    g->packet_len = packet ? packet_len : 0;
}

/* Every field node_equal (widen false) compares, and nothing else: equal nodes add the same words
 * (digest.h). */
void gdw_digest_node(gdw_digest *g, const gdw_value *v) {
    if (g) digest_node(g, v);
}

static gdw_visit_answer digest_at(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                  const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev, (void)parent, (void)slot, (void)depth;
    gdw_digest_node((gdw_digest *)ctx, v);
    return GDW_VISIT_GO;
}

bool gdw_digest_tree(gdw_digest *g, const gdw_value *root) {
    if (!g || !root) return false;
    return gdw_visit(root, GDW_VISIT_PRE, digest_at, g);
}

/* SPDX-License-Identifier: MIT
 * link.c — a captured frame: its link layer (libpcap's LINKTYPE_* numbers), then IPv4 (RFC 791) or IPv6 (RFC 8200,
 * its hop-by-hop, routing and destination option headers walked), then a UDP datagram (RFC 768) to enet.c or a
 * TCP segment to tcp.c. A field the capture cut is a problem with its byte in the frame. IP fragments (IPv4's
 * flags and offset, IPv6's fragment header) are put back together, under the reassembly caps, by their
 * addresses, protocol and identification (RFC 791; RFC 8200 4.5 keys IPv6 on addresses and identification, and takes
 * what follows from the fragment at offset 0): a datagram completes when every 8-byte unit below the last
 * fragment's end came, and none past it; a fragment that overlaps one already held with other bytes drops its
 * datagram (RFC 5722), as Linux does for IPv6; a datagram waits 60 seconds at most; only UDP and TCP are put back
 * together, charged to their own cap (--max-ip-fragment-bytes) at what their buffers cost so far. Godot's ENet keeps its datagrams under the path's MTU (ENET_HOST_DEFAULT_MTU 1392), but a host with
 * a larger MTU, or a tunnel, fragments them. */
#include "session.h"

#include <string.h>

enum { ETHERTYPE_IPV4 = 0x0800, ETHERTYPE_IPV6 = 0x86DD, ETHERTYPE_VLAN = 0x8100, ETHERTYPE_QINQ = 0x88A8 };
enum { IP_PROTO_TCP = 6, IP_PROTO_UDP = 17, IP6_HOP_BY_HOP = 0, IP6_ROUTING = 43, IP6_FRAGMENT = 44, IP6_DEST_OPTIONS = 60 };

/* The ethertype of an address family a loopback header gives (AF_INET 2; AF_INET6 10 on Linux, 24, 28 and 30 on
 * the BSDs and macOS), 0 for another. */
static unsigned family_ethertype(uint32_t family) {
    if (family == 2) return ETHERTYPE_IPV4;
    return family == 24 || family == 28 || family == 30 || family == 10 ? ETHERTYPE_IPV6 : 0;
}

/* The link layer of a frame of link type `link`: r is left at its payload and *ethertype says what that is (0: not
 * IP). false when the frame is cut inside it or the type is not read (said). */
static bool link_layer(gdw_session *s, int link, reader *r, unsigned *ethertype) {
    static const struct {
        int link;
        size_t size, ethertype_at;
        const char *name;
    } k_fixed[] = {
        {GDW_LINK_ETHERNET, 14, 12, "an Ethernet frame"},
        {GDW_LINK_LINUX_SLL, 16, 14, "a Linux cooked (SLL) frame"},
        {GDW_LINK_LINUX_SLL2, 20, 0, "a Linux cooked (SLL2) frame"},
    };
    for (size_t i = 0; i < sizeof k_fixed / sizeof *k_fixed; i++) {
        if (k_fixed[i].link != link) continue;
        uint16_t et;
        if (!rd_be16_at(r, k_fixed[i].ethertype_at, &et) || !rd_skip(r, k_fixed[i].size)) {
            problem(s, NULL, "link", r->len, "%s cut at %zu bytes", k_fixed[i].name, r->len);
            return false;
        }
        if (link == GDW_LINK_ETHERNET) /* VLAN tags: a tag's ethertype is after its 2-byte tag control */
            while ((et == ETHERTYPE_VLAN || et == ETHERTYPE_QINQ) && rd_left(r) >= 4) rd_skip(r, 2), rd_be16(r, &et);
        *ethertype = et;
        return true;
    }
    switch (link) {
    case GDW_LINK_NULL:
    case GDW_LINK_LOOP: {
        /* the family: in the capturing host's order (NULL; a value past 16 bits was written big-endian), or in
         * network order (LOOP) */
        reader at = *r;
        uint32_t family;
        if (!rd_skip(r, 4)) {
            problem(s, NULL, "link", r->len, "a loopback frame cut at %zu bytes", r->len);
            return false;
        }
        if (link == GDW_LINK_LOOP || (rd_le32(&at, &family), family > 0xFFFF)) rd_be32_at(&at, 0, &family);
        *ethertype = family_ethertype(family);
        return true;
    }
    case GDW_LINK_RAW:
    case GDW_LINK_DLT_RAW:
    case GDW_LINK_DLT_RAW_OPENBSD:
    case GDW_LINK_IPV4:
    case GDW_LINK_IPV6: {
        uint8_t v;
        if (!rd_peek_u8(r, &v)) return false;
        *ethertype = (v >> 4) == 4 ? ETHERTYPE_IPV4 : (v >> 4) == 6 ? ETHERTYPE_IPV6 : 0;
        return true;
    }
    default:
        problem(s, NULL, "link", 0, "link type %d is not read (Ethernet, Linux cooked SLL/SLL2, loopback and raw IP are)", link);
        return false;
    }
}

/* An IP packet's header (r: a view of the packet, at its start): its addresses, the protocol of its payload and the
 * length its header gives that payload; r is left at the payload. false when it is not read (said where the
 * capture's bytes say why). */
typedef struct ip_packet {
    const uint8_t *src, *dst;
    size_t alen;
    unsigned proto;
    size_t payload_len; /* what the IP header says follows it */
    bool fragment;      /* a fragment: where its bytes go (offset), whether more follow, and its datagram's id */
    bool more;
    size_t offset;
    uint32_t id;
} ip_packet;

static bool ipv4(gdw_session *s, reader *r, ip_packet *ip) {
    reader h = *r;
    uint8_t vihl = 0, proto = 0;
    uint16_t total = 0, frag = 0;
    if (rd_left(r) < 20) {
        problem(s, NULL, "ip", rd_at(r), "an IPv4 header cut at %zu bytes", rd_left(r));
        return false;
    }
    rd_u8(&h, &vihl);
    size_t hlen = (size_t)(vihl & 15) * 4;
    if ((vihl >> 4) != 4 || hlen < 20 || hlen > rd_left(r)) {
        problem(s, NULL, "ip", rd_at(r), "not an IPv4 header");
        return false;
    }
    rd_be16_at(r, 2, &total), rd_be16_at(r, 6, &frag), rd_u8_at(r, 9, &proto);
    if (total < hlen) {
        problem(s, NULL, "ip", rd_at(r) + 2, "an IPv4 total length shorter than its header");
        return false;
    }
    uint16_t id = 0;
    rd_be16_at(r, 4, &id);
    ip->fragment = (frag & 0x3FFF) != 0; /* more fragments, or an offset */
    ip->more = frag & 0x2000, ip->offset = (size_t)(frag & 0x1FFF) * 8, ip->id = id;
    rd_skip(&h, 11), rd_bytes(&h, 4, &ip->src), rd_bytes(&h, 4, &ip->dst);
    ip->alen = 4, ip->proto = proto, ip->payload_len = (size_t)total - hlen;
    rd_skip(r, hlen);
    return true;
}

/* IPv6's hop-by-hop, routing and destination options headers, walked: *next is left at the header after them and
 * *left at the bytes after them. false when one does not fit. */
static bool ipv6_extensions(reader *r, uint8_t *next, size_t *left) {
    while (*next == IP6_HOP_BY_HOP || *next == IP6_ROUTING || *next == IP6_DEST_OPTIONS) {
        uint8_t following = 0, units = 0;
        if (!rd_u8_at(r, r->pos, &following) || !rd_u8_at(r, r->pos + 1, &units)) return false;
        size_t ext = ((size_t)units + 1) * 8;
        if (ext > *left || !rd_skip(r, ext)) return false;
        *next = following, *left -= ext;
    }
    return true;
}

static bool ipv6(gdw_session *s, reader *r, ip_packet *ip) {
    size_t at = rd_at(r);
    uint16_t payload_len = 0;
    uint8_t next = 0;
    if (rd_left(r) < 40) {
        problem(s, NULL, "ip", at, "an IPv6 header cut at %zu bytes", rd_left(r));
        return false;
    }
    rd_be16_at(r, 4, &payload_len), rd_u8_at(r, 6, &next);
    rd_skip(r, 8), rd_bytes(r, 16, &ip->src), rd_bytes(r, 16, &ip->dst);
    size_t left = payload_len;
    if (!ipv6_extensions(r, &next, &left)) return false;
    if (next == IP6_FRAGMENT) { /* next header, reserved, offset (13 bits) and M, identification */
        uint8_t following = 0;
        uint16_t where = 0;
        uint32_t id = 0;
        if (left < 8 || !rd_u8(r, &following) || !rd_skip(r, 1) || !rd_be16(r, &where) || !rd_be32(r, &id)) {
            problem(s, NULL, "ip", at, "an IPv6 fragment header cut short");
            return false;
        }
        ip->fragment = true, ip->more = where & 1, ip->offset = (size_t)(where >> 3) * 8, ip->id = id;
        next = following, left -= 8;
    }
    ip->alen = 16, ip->proto = next, ip->payload_len = left;
    return true;
}

/* ---- IP fragments ------------------------------------------------------------------------ */

static void transport_in(gdw_session *s, const ip_packet *ipp, reader r, size_t wirelen);

#define IP_MAX_PAYLOAD 65535u /* an IPv4 total length, or an IPv6 payload length (no jumbograms) */
#define IP_UNITS ((IP_MAX_PAYLOAD + 7) / 8)
#define IP_GROW 2048u         /* a datagram's buffer grows to its furthest byte so far, in steps of this */
#define IP_TIMEOUT 60.0       /* seconds a datagram waits for its fragments (RFC 8200 4.5; RFC 791's timer) */

/* A datagram being put back together: found through the session's index by its key (RFC 791: addresses, protocol
 * and identification; RFC 8200: addresses and identification). Charged, at what its buffer costs so far, to the IP
 * kind of the book, in no flow (a fragment past the first has no ports). */
typedef struct ip_fragments {
    holder h;
    uint8_t src[16], dst[16];
    uint8_t alen;
    uint8_t key_proto;   /* IPv4's protocol field (part of the key); 0 for IPv6 */
    int proto;           /* the payload's protocol, from the fragment at offset 0; -1 before it came */
    uint32_t id;
    size_t end;          /* the last fragment's end, when it came (more == false); 0 before */
    size_t units_have;   /* 8-byte units received below the end (all of them while it is unknown) */
    uint8_t *data;       /* cap bytes */
    size_t cap;
    uint8_t have[(IP_UNITS + 7) / 8];
    uint64_t first_frame;
    double first_time;
} ip_fragments;

typedef struct ip_key {
    const uint8_t *src, *dst;
    size_t alen;
    unsigned proto;
    uint32_t id;
} ip_key;

static uint64_t ip_key_hash(const uint8_t *src, const uint8_t *dst, size_t alen, unsigned proto, uint32_t id) {
    uint64_t h = (uint64_t)id << 8 | proto;
    for (size_t i = 0; i < alen; i++) h = index_mix(h, (uint64_t)src[i] << 8 | dst[i]);
    return h;
}

static uint64_t ip_fragments_hash(const void *item) {
    const ip_fragments *x = item;
    return ip_key_hash(x->src, x->dst, x->alen, x->key_proto, x->id);
}

static bool ip_fragments_is(const void *item, const void *key) {
    const ip_fragments *x = item;
    const ip_key *k = key;
    return x->alen == k->alen && x->key_proto == k->proto && x->id == k->id && !memcmp(x->src, k->src, k->alen) &&
           !memcmp(x->dst, k->dst, k->alen);
}

static size_t ip_fragments_cost(size_t cap) { return indexed_cost(sizeof(ip_fragments)) + (cap ? hold_cost(cap) : 0); }

/* Frees x, which is out of the index and the book or in both. */
static void ip_fragments_release(gdw_session *s, ip_fragments *x) {
    gdw_session_release(s->opts.alloc, x->data, x->cap);
    gdw_session_release(s->opts.alloc, x, sizeof *x);
}

void link_fragments_free(gdw_session *s, holder *h) {
    ip_fragments *x = HOLDER_OF(ip_fragments, h);
    index_remove(&s->ip_fragments, x);
    hold_remove(&s->book, &x->h);
    ip_fragments_release(s, x);
}

void link_fragments_drop(gdw_session *s, holder *h, const char *said) {
    ip_fragments *x = HOLDER_OF(ip_fragments, h);
    if (said)
        problem(s, NULL, "ip", 0, "IP fragments past %s: the datagram first seen in frame %llu (%zu bytes of it) is dropped", said,
                (unsigned long long)x->first_frame, x->units_have * 8);
    link_fragments_free(s, h);
}

void link_session_init(gdw_session *s) { s->ip_fragments.hash = ip_fragments_hash; }

void link_finish(gdw_session *s) {
    uint64_t open = 0;
    while (s->book.list[HOLD_IP].head) {
        ip_fragments *x = HOLDER_OF(ip_fragments, s->book.list[HOLD_IP].head);
        if (!open++)
            problem(s, NULL, "ip", 0, "an IP datagram first seen in frame %llu never completed: %zu bytes of its fragments came",
                    (unsigned long long)x->first_frame, x->units_have * 8);
        link_fragments_free(s, &x->h);
    }
    if (open > 1) problem(s, NULL, "ip", 0, "%llu more IP datagrams never completed", (unsigned long long)(open - 1));
}

/* Datagrams whose first fragment came more than IP_TIMEOUT seconds ago are given up (the oldest touched first: a
 * datagram still receiving fragments stays at the back). Said once a session; their count comes at the end with
 * the others never completed. */
static void ip_fragments_expire(gdw_session *s) {
    while (s->book.list[HOLD_IP].head) {
        ip_fragments *x = HOLDER_OF(ip_fragments, s->book.list[HOLD_IP].head);
        if (!(s->time - x->first_time > IP_TIMEOUT)) break;
        if (!s->ip_expired_said++)
            problem(s, NULL, "ip", 0, "an IP datagram first seen in frame %llu is given up after %.0f seconds without its other fragments",
                    (unsigned long long)x->first_frame, IP_TIMEOUT);
        link_fragments_free(s, &x->h);
    }
}

/* x's buffer holds `need` bytes, room made in the book first; false when the cap refuses it (x is dropped, said). */
static bool ip_fragments_room(gdw_session *s, ip_fragments *x, size_t need) {
    if (need <= x->cap) return true;
    size_t cap = (need + IP_GROW - 1) / IP_GROW * IP_GROW;
    if (cap > IP_MAX_PAYLOAD) cap = IP_MAX_PAYLOAD;
    size_t more = ip_fragments_cost(cap) - x->h.bytes;
    uint8_t *data = NULL;
    if (!hold_room(&s->book, NULL, HOLD_IP, more, &x->h) || !(data = gdw_session_alloc(s->opts.alloc, cap))) {
        problem(s, NULL, "ip", 0, "an IP datagram of %zu bytes or more does not fit the IP fragments' limit (%zu bytes, --max-ip-fragment-bytes): dropped",
                need, s->book.cap[HOLD_IP].total);
        link_fragments_free(s, &x->h);
        return false;
    }
    if (x->cap) memcpy(data, x->data, x->cap);
    gdw_session_release(s->opts.alloc, x->data, x->cap);
    x->data = data, x->cap = cap;
    hold_resize(&s->book, &x->h, ip_fragments_cost(cap));
    return true;
}

static bool unit_held(const ip_fragments *x, size_t u) { return (x->have[u / 8] >> (u % 8)) & 1; }

/* One fragment (r: its bytes after the IP header and the fragment header), kept with its datagram's others; the
 * datagram, when whole, goes on as if it had come in one frame. Only UDP and TCP are put back together. */
static void fragment_in(gdw_session *s, const ip_packet *ip, reader r, size_t wirelen) {
    size_t at = rd_at(&r), n = ip->payload_len;
    bool ipv6 = ip->alen == 16;
    /* (an IPv6 fragment's own next header may be an option header before UDP or TCP) */
    bool ours = ip->proto == IP_PROTO_UDP || ip->proto == IP_PROTO_TCP ||
                (ipv6 && (ip->proto == IP6_HOP_BY_HOP || ip->proto == IP6_ROUTING || ip->proto == IP6_DEST_OPTIONS));
    if (!ours) return;
    if (rd_left(&r) < n) {
        problem(s, NULL, "ip", at + rd_left(&r), "an IP fragment cut by the capture's snapshot length: %zu of %zu bytes captured: its datagram is lost",
                rd_left(&r), n);
        return;
    }
    if (!ip->more && !ip->offset) { /* an atomic fragment (RFC 6946): a datagram of its own */
        ip_packet whole = *ip;
        whole.fragment = false;
        transport_in(s, &whole, r, wirelen);
        return;
    }
    if (ip->offset + n > IP_MAX_PAYLOAD || (ip->more && (n % 8 || !n))) {
        problem(s, NULL, "ip", at, "an IP fragment that cannot be: %zu bytes at %zu%s", n, ip->offset, ip->more ? ", more to come" : "");
        return;
    }
    ip_fragments_expire(s);
    unsigned key_proto = ipv6 ? 0 : ip->proto;
    ip_key key = {ip->src, ip->dst, ip->alen, key_proto, ip->id};
    uint64_t hash = ip_key_hash(ip->src, ip->dst, ip->alen, key_proto, ip->id);
    ip_fragments *x = index_find(&s->ip_fragments, hash, ip_fragments_is, &key);
    if (!x) {
        size_t cost = ip_fragments_cost(0);
        if (!hold_room(&s->book, NULL, HOLD_IP, cost, NULL)) return;
        if (!(x = gdw_session_alloc(s->opts.alloc, sizeof *x))) return;
        memset(x, 0, sizeof *x);
        memcpy(x->src, ip->src, ip->alen), memcpy(x->dst, ip->dst, ip->alen);
        x->alen = (uint8_t)ip->alen, x->key_proto = (uint8_t)key_proto, x->proto = -1, x->id = ip->id;
        x->first_frame = s->frame, x->first_time = s->time;
        if (!index_insert(&s->ip_fragments, x)) {
            ip_fragments_release(s, x);
            return;
        }
        hold_add(&s->book, NULL, &x->h, HOLD_IP, HELD_IP_FRAGMENTS, cost);
    }
    hold_touch(&s->book, &x->h);
    size_t first = ip->offset / 8, last = (ip->offset + n + 7) / 8; /* units [first, last) */
    bool overlap = false, all_had = true;
    for (size_t u = first; u < last; u++) {
        bool had = unit_held(x, u);
        overlap |= had, all_had &= had;
    }
    if (overlap) {
        if (all_had && n && ip->offset + n <= x->cap && !memcmp(x->data + ip->offset, rd_here(&r), n)) return; /* the same fragment again */
        problem(s, NULL, "ip", at, "an IP fragment of %zu bytes at %zu overlaps one already held: its datagram is dropped (RFC 5722)", n, ip->offset);
        link_fragments_free(s, &x->h);
        return;
    }
    if (!ip->more) {
        /* the end: a second one, or units already held past it, make the datagram one that cannot be */
        bool past = false;
        for (size_t u = last; u < IP_UNITS && !past; u++) past = unit_held(x, u);
        if (x->end || past) {
            problem(s, NULL, "ip", at, "the last fragment of an IP datagram ends at %zu, where %s: the datagram is dropped", ip->offset + n,
                    x->end ? "another last fragment ended it" : "fragments past it were held");
            link_fragments_free(s, &x->h);
            return;
        }
        x->end = ip->offset + n;
    } else if (x->end && ip->offset + n > x->end) {
        problem(s, NULL, "ip", at, "an IP fragment past its datagram's end (%zu): the datagram is dropped", x->end);
        link_fragments_free(s, &x->h);
        return;
    }
    if (!ip_fragments_room(s, x, ip->offset + n)) return;
    if (n) memcpy(x->data + ip->offset, rd_here(&r), n);
    for (size_t u = first; u < last; u++) x->have[u / 8] |= (uint8_t)(1u << (u % 8));
    x->units_have += last - first;
    if (!ip->offset) x->proto = (int)ip->proto; /* RFC 8200: the fragment at offset 0 says what follows */
    if (!x->end || x->units_have < (x->end + 7) / 8 || x->proto < 0) return;
    /* whole (every unit below the end, and none past it: each was refused): out of the index and the book before
     * it goes on (a layer above may make room in the book, which must not find it), freed after */
    index_remove(&s->ip_fragments, x);
    hold_remove(&s->book, &x->h);
    ip_packet whole = *ip;
    reader payload = rd_view(x->data, x->end, 0);
    uint8_t next = (uint8_t)x->proto;
    size_t left = x->end;
    if (ipv6 && !ipv6_extensions(&payload, &next, &left)) next = 0xFF; /* options after the fragment header */
    whole.fragment = false, whole.proto = next, whole.payload_len = left;
    transport_in(s, &whole, rd_rest(&payload), wirelen);
    ip_fragments_release(s, x);
}

void gdw_session_frame(gdw_session *s, int link, const uint8_t *data, size_t caplen, size_t wirelen, double time) {
    if (!s || (!data && caplen)) return;
    s->frame++;
    s->stats.frames++;
    s->time = time;
    reader r = rd_view(data, caplen, 0);
    unsigned ethertype = 0;
    if (!link_layer(s, link, &r, &ethertype)) return;
    ip_packet ip = {0};
    r = rd_rest(&r); /* the IP packet: its header's fields at their offsets in it */
    if (ethertype == ETHERTYPE_IPV4) {
        if (!ipv4(s, &r, &ip)) return;
    } else if (ethertype == ETHERTYPE_IPV6) {
        if (!ipv6(s, &r, &ip)) return;
    } else {
        return; /* ARP and the like */
    }
    if (ip.fragment) {
        fragment_in(s, &ip, r, wirelen);
        return;
    }
    transport_in(s, &ip, r, wirelen);
}

/* An IP datagram's payload (r: its bytes as captured; ip->payload_len: as its header says). */
static void transport_in(gdw_session *s, const ip_packet *ipp, reader r, size_t wirelen) {
    ip_packet ip = *ipp;
    size_t at = rd_at(&r), have = rd_left(&r);
    if (ip.proto == IP_PROTO_TCP) {
        if (have < ip.payload_len)
            problem(s, NULL, "tcp", at + have, "a TCP segment cut by the capture's snapshot length: %zu of %zu bytes captured: its stream is cut",
                    have, ip.payload_len);
        s->stats.tcp_segments++;
        reader seg;
        rd_child(&r, have < ip.payload_len ? have : ip.payload_len, &seg);
        tcp_segment_in(s, ip.src, ip.dst, ip.alen, seg);
        return;
    }
    if (ip.proto != IP_PROTO_UDP) return;
    uint16_t sport = 0, dport = 0, ulen = 0;
    if (have < 8) {
        problem(s, NULL, "udp", at, "a UDP header cut at %zu bytes by the capture's snapshot length", have);
        return;
    }
    rd_be16(&r, &sport), rd_be16(&r, &dport), rd_be16(&r, &ulen), rd_skip(&r, 2);
    if (ulen < 8 || ulen > ip.payload_len) {
        problem(s, NULL, "udp", at + 4, "a UDP length of %u where the IP packet holds %zu", ulen, ip.payload_len);
        return;
    }
    const uint8_t *payload;
    if (!rd_bytes(&r, (size_t)ulen - 8, &payload)) {
        problem(s, NULL, "udp", at + have,
                "a UDP datagram cut by the capture's snapshot length: %zu of its %u bytes captured (frame of %zu bytes): skipped", have, ulen,
                wirelen);
        return;
    }
    udp_datagram_in(s, ip.src, ip.alen, sport, ip.dst, dport, payload, (size_t)ulen - 8);
}

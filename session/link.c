/* SPDX-License-Identifier: MIT
 * link.c — a captured frame: its link layer (libpcap's LINKTYPE_* numbers), then IPv4 (RFC 791) or IPv6 (RFC 8200,
 * its hop-by-hop, routing and destination option headers walked), then a UDP datagram (RFC 768) to enet.c or a
 * TCP segment to tcp.c. A field the capture cut is a problem with its byte in the frame. IP fragments are not
 * reassembled: Godot's ENet keeps its datagrams under the path's MTU (ENET_HOST_DEFAULT_MTU 1392), so a fragment is
 * said and skipped. */
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
    if ((frag & 0x3FFF) != 0) { /* more fragments, or an offset */
        if (proto == IP_PROTO_UDP) problem(s, NULL, "ip", rd_at(r) + 6, "a fragment of an IPv4 datagram: IP fragments are not reassembled");
        return false;
    }
    rd_skip(&h, 11), rd_bytes(&h, 4, &ip->src), rd_bytes(&h, 4, &ip->dst);
    ip->alen = 4, ip->proto = proto, ip->payload_len = (size_t)total - hlen;
    rd_skip(r, hlen);
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
    while (next == IP6_HOP_BY_HOP || next == IP6_ROUTING || next == IP6_DEST_OPTIONS) {
        uint8_t following = 0, units = 0;
        if (!rd_u8_at(r, r->pos, &following) || !rd_u8_at(r, r->pos + 1, &units)) return false;
        size_t ext = ((size_t)units + 1) * 8;
        if (ext > left || !rd_skip(r, ext)) return false;
        next = following, left -= ext;
    }
    if (next == IP6_FRAGMENT) {
        problem(s, NULL, "ip", at, "a fragment of an IPv6 datagram: IP fragments are not reassembled");
        return false;
    }
    ip->alen = 16, ip->proto = next, ip->payload_len = left;
    return true;
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
    gdw_session_udp(s, ip.src, ip.alen, sport, ip.dst, dport, payload, (size_t)ulen - 8, time);
}

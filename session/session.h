/* SPDX-License-Identifier: MIT
 * session.h — what the files of session/ share. A session is layers, one file each, each handing the next
 * a bounded view (reader.h) of its payload:
 *
 *   link.c         a frame: link layer, IPv4 / IPv6, then a UDP datagram (enet.c) or a TCP segment (tcp.c)
 *   tcp.c          a flow's two TCP streams, put back in order (gaps wait, overlaps drop), to websocket.c or
 *                  stream.c by the flow's first bytes
 *   websocket.c    the upgrade, frames, masking, messages, to godot.c
 *   stream.c       put_var and PacketPeerStream frames (a length, then a Variant), to godot.c
 *   enet.c         a datagram: its commands (a table), compressed blocks (compress.c), retransmits, fragments,
 *                  to godot.c
 *   godot.c        which engine generation a flow speaks (a table), its transport header, peers, path caches
 *                  and relays, to multiplayer.c's parse, then the caller's on_message
 *   multiplayer.c  one packet's command (a table per generation) and its Variants (the codec)
 *   session.c      the core: the lifecycle, options, flows, caps (hold.h), stats and problems
 */
#ifndef GDWIRE_SESSION_INTERNAL_H
#define GDWIRE_SESSION_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "gdwire_session.h"
#include "hold.h"
#include "index.h"
#include "reader.h"

/* The multiplayer layer a dialect's engines speak (the dialect table's rule "multiplayer"). */
static inline gdw_multiplayer gdw_session_layer(const gdw_dialect *d) {
    int r = gdw_dialect_rule(d, GDW_RULE_MULTIPLAYER);
    return r < 0 ? GDW_MULTIPLAYER_NONE : (gdw_multiplayer)r;
}

/* gdw_godot_dialect_of (gdwire_session.h, session.c): the dialect a flow of a layer is read in when the caller names none. */

static inline void *gdw_session_alloc(const gdw_allocator *a, size_t n) {
    return a ? a->malloc_fn(a->ctx, n) : malloc(n);
}

static inline void gdw_session_release(const gdw_allocator *a, void *p, size_t n) {
    if (!p) return;
    if (a) a->free_fn(a->ctx, p, n);
    else free(p);
}

/* multiplayer.c */
void gdw_mp_parsed_clear(gdw_mp_parsed *p);

/* ---- what a session holds (hold.h): each structure that holds memory is a holder of one type ------------- */

enum { HELD_FRAGMENT_SET, HELD_WINDOW, HELD_PATH, HELD_TCP_DIR, HELD_FLOW, HELD_IP_FRAGMENTS, HELD_TYPES };

/* the structure of a holder: each names its holder h */
#define HOLDER_OF(type, ptr) ((type *)(void *)((char *)(ptr) - offsetof(type, h)))

/* What an item of `size` bytes costs, with its slots in an index. */
static inline size_t indexed_cost(size_t size) { return hold_cost(size) + INDEX_SLOT_COST; }

struct gdw_session;
struct tcp_side;

/* A flow: two endpoints, UDP (ENet) or TCP (WebSocket). */
typedef struct flow {
    uint8_t addr[2][16]; /* [0] the client (CONNECT's sender) when known, else the first sender */
    uint16_t port[2];
    uint8_t addr_len;
    unsigned number;
    unsigned group; /* the number of the first flow to this server endpoint (flow_group) */
    bool connect_seen;
    uint64_t compressed; /* compressed datagrams skipped (the first is reported, the count at the end) */
    gdw_enet_side_compression compression[2]; /* per side: the compression its datagrams are found in (gdw_enet_inflate) */
    bool switched_said;     /* a side's datagrams stopped fitting its compression: said once */
    int64_t client_id; /* the Godot peer id CONNECT carried; 0 unknown */
    const gdw_dialect *dialect; /* the options', or detected at the flow's first packet (godot.c) */
    bool swapped;           /* the two ends were swapped: direction dir is sent by side dir ^ swapped */
    hold_flow hold;         /* what the flow holds, by kind (hold.h) */
    holder h;               /* the flow itself */
    uint8_t proto;          /* 17 UDP (ENet), 6 TCP (WebSocket) */
    struct tcp_side *tcp;   /* TCP flows: the two directions' streams */
    char text[128];
} flow;

/* The side of flow f that sends in direction dir (dir 0: the side taken for the client now). */
static inline uint8_t side_of(const flow *f, int dir) { return (uint8_t)(dir ^ f->swapped); }
static inline const char *side_name(int side) { return side ? "server's" : "client's"; }

struct gdw_session {
    gdw_session_options opts;
    gdw_message_fn on_message;
    gdw_problem_fn on_problem;
    void *ctx;
    gdw_session_stats stats;
    flow **flows; /* hash table of flows, open addressing */
    size_t flow_cap;
    flow **flow_list; /* by number */
    hold_book book;   /* every byte held because of the capture, by kind, in total and per flow */
    ptr_index fragments, windows, paths; /* open fragmented packets, retransmit windows, path-cache entries */
    ptr_index ip_fragments;               /* IP datagrams being put back together from their fragments */
    uint64_t evictions[HOLD_KINDS][2];    /* state dropped by each kind's cap in all flows [0] and one flow [1] */
    uint64_t frame;
    double time;
    uint64_t ip_expired_said; /* IP datagrams given up by the timeout: the first is said */
    gdw_mp_parsed parsed; /* reused: one message at a time */
};

/* ---- session.c: problems, flows ----------------------------------------------------------------------- */

void problem(gdw_session *s, const flow *f, const char *layer, size_t offset, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The flow of these endpoints (*dir: 0 when src is its endpoint 0), or NULL. */
flow *flow_find(const gdw_session *s, uint8_t proto, const uint8_t *src, uint16_t sport, const uint8_t *dst, uint16_t dport, size_t alen,
                int *dir);
/* A new flow from src to dst (src taken for the client until the protocol says otherwise); NULL, reported, past
 * max_flows. */
flow *flow_new(gdw_session *s, uint8_t proto, const uint8_t *src, uint16_t sport, const uint8_t *dst, uint16_t dport, size_t alen);
/* The peers of one server share one id space for their path caches: the number of the first flow to f's server
 * endpoint. */
unsigned flow_group(const gdw_session *s, const flow *f);
/* The client turned out to be endpoint 1: the ends swap (what each side sent stays its own: side_of). */
void flow_swap_ends(gdw_session *s, flow *f);

/* What each type of holder does when a cap drops it (`said`: the cap, when the drop is to be said; NULL when it is
 * only counted) and when its session ends. */
typedef struct held_rule {
    void (*drop)(gdw_session *s, holder *h, const char *said);
    void (*free)(gdw_session *s, holder *h);
} held_rule;

/* ---- the layers' entries ----------------------------------------------------------------------------- */

/* link.c */
void link_session_init(gdw_session *s); /* its index's hash function */
void link_finish(gdw_session *s);       /* the capture ended: datagrams whose fragments never all came are said */
void link_fragments_drop(gdw_session *s, holder *h, const char *said);
void link_fragments_free(gdw_session *s, holder *h);

/* tcp.c */
void tcp_segment_in(gdw_session *s, const uint8_t *src, const uint8_t *dst, size_t alen, reader seg);
void tcp_flow_finish(gdw_session *s, flow *f); /* the capture ended: what waits is said, then freed */
void tcp_flow_free(gdw_session *s, flow *f);
void tcp_dir_drop(gdw_session *s, holder *h, const char *said);
void tcp_dir_free_held(gdw_session *s, holder *h);
/* The flow is not read further, said once (why). */
void tcp_off(gdw_session *s, flow *f, const char *why);

enum { STREAM_HANDSHAKE, STREAM_FRAMES, STREAM_OFF };

typedef struct tcp_segment {
    struct tcp_segment *next;
    uint32_t seq;
    size_t len;
    uint8_t data[];
} tcp_segment;

/* One direction of a TCP flow: its stream, and the message the layer above assembles from it. */
typedef struct tcp_dir {
    holder h;               /* its buffers and waiting segments, charged as reassembly (hold.h) */
    flow *f;
    uint8_t dir;
    bool have_seq;
    uint32_t next;          /* the sequence number of the stream's next byte */
    uint8_t *buf;           /* stream bytes not yet parsed */
    size_t len, cap;
    tcp_segment *ahead;     /* segments past a gap, in no order */
    size_t ahead_bytes, ahead_count, ahead_cost;
    int state;              /* STREAM_*: the layer above's, STREAM_OFF when nothing more is read */
    uint8_t *msg;           /* a message of the layer above being assembled from its frames */
    size_t msg_len, msg_cap;
    int msg_opcode;
} tcp_dir;

/* What a TCP flow carries, found at its first bytes (tcp.c). */
enum { FRAMING_UNKNOWN, FRAMING_WEBSOCKET, FRAMING_PUT_VAR };

typedef struct tcp_side {
    tcp_dir d[2];
    bool id_seen, reported_off;
    uint8_t framing;
    uint64_t stream_dialects; /* put_var flows: bit i, dialect i of the table, reads every frame so far whole */
    bool stream_started;      /* put_var flows: the first frame was a whole Variant */
    unsigned stream_frames;   /* put_var flows: frames the candidates were narrowed by */
} tcp_side;

/* d's message buffer holds `need` bytes (msg_len kept); false when memory or the caps refuse it (then d is
 * dropped, said). */
bool tcp_msg_room(gdw_session *s, tcp_dir *d, size_t need);
/* d's message buffer is let go until the next message. */
void tcp_msg_release(gdw_session *s, tcp_dir *d);

/* websocket.c: what a direction's stream holds, p[0..n), parsed: the bytes it took (the rest waits for more) */
size_t ws_consume(gdw_session *s, flow *f, int dir, uint8_t *p, size_t n);
/* What a direction left waiting at the end is no lost message (a control frame's head). */
bool ws_waiting_is_harmless(const tcp_dir *d);

/* stream.c: put_var frames (a 4-byte little-endian length, then a Variant), as ws_consume */
size_t putvar_consume(gdw_session *s, flow *f, int dir, uint8_t *p, size_t n);

/* enet.c */
/* A UDP datagram of a frame (gdw_session_udp, for a caller's own datagrams, counts each as a frame first). */
void udp_datagram_in(gdw_session *s, const uint8_t *src, size_t alen, uint16_t sport, const uint8_t *dst, uint16_t dport,
                     const uint8_t *payload, size_t len);
void enet_session_init(gdw_session *s); /* its indexes' hash functions */
void enet_flow_finish(gdw_session *s, flow *f);
void enet_fragment_drop(gdw_session *s, holder *h, const char *said);
void enet_fragment_free(gdw_session *s, holder *h);
void enet_window_drop(gdw_session *s, holder *h, const char *said);
void enet_window_free(gdw_session *s, holder *h);
/* Is this datagram ENet as Godot's hosts send it? Its commands walk to its end exactly. */
bool enet_looks_like(const uint8_t *d, size_t len);

/* godot.c */
void godot_session_init(gdw_session *s);
/* A packet ENet delivered on enet_channel, in a mode ("reliable", ...), sent in direction dir. */
void godot_enet_packet(gdw_session *s, flow *f, int dir, unsigned enet_channel, const char *mode, reader pkt);
/* A whole binary WebSocket message sent in direction dir. */
void godot_ws_message(gdw_session *s, flow *f, int dir, reader msg);
/* One value of a put_var flow, sent in direction dir: a message of its own (GDW_MP_VAR). */
void godot_stream_value(gdw_session *s, flow *f, int dir, reader value);
void godot_path_drop(gdw_session *s, holder *h, const char *said);
void godot_path_free(gdw_session *s, holder *h);

#endif

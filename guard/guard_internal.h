/* SPDX-License-Identifier: MIT
 * guard_internal.h — what decide.c and policy.c share: the guard's and a peer's state, the generation table's row. */
#ifndef GDWIRE_GUARD_INTERNAL_H
#define GDWIRE_GUARD_INTERNAL_H

#include "guard/guard.h"

/* What differs between engine generations on ENet (decide.c k_generations). */
typedef struct generation {
    gdw_multiplayer layer;
    const char *name;
    size_t transport_header;  /* Godot 3: 8 (source, target); Godot 4: 0 */
    int config_channel;       /* the server's configuration channel, which a client never sends on; -1 none */
    unsigned system_channels; /* ENet channels below the first game transfer channel */
    unsigned channel_offset;  /* transfer channel = ENet channel - channel_offset, from system_channels on */
    uint8_t harmless[4];      /* the whole packet the engine drops, silently where it can (after Godot 3's header) */
    size_t harmless_len;
    uint8_t harmless_head[4]; /* the first bytes of a longer message (a fragmented head) the engine refuses at them */
    size_t harmless_head_len;
} generation;

const generation *generation_of(const gdw_dialect *d);

struct gdw_guard {
    gdw_guard_policy pol;
    const generation *gen;
    gdw_decode_options dec;
    bool conversions; /* the conversion rule applies (policy and the row: gdw_guard_new) */
    gdw_guard_log_fn log;
    void *log_ctx;
    gdw_decompress_fn range;
    void *range_ctx;
    gdw_guard_method_fn method;
    void *method_ctx;
    gdw_guard_counters c;
    gdw_mp_parsed mp[2]; /* a packet and a relay's inner packet: storage kept from packet to packet */
};

enum { V_PASSED = 0, V_REPLACED = 1, V_HELD = 2 };
#define RECENT 256 /* reliable commands remembered per peer (a direct-mapped table), to answer their retransmits alike */

typedef struct recent {
    uint8_t used, channel, verdict;
    uint16_t seq;
    uint32_t hash;
} recent;

/* The head (fragment 0) of a fragmented message, held until the message is judged: its command (bytes[0..len)), and
 * the datagram it came in (bytes[len..len + dgram_len)) when that held nothing else to forward, so that an honest
 * head goes on byte for byte. */
typedef struct held_head {
    struct held_head *next;
    uint8_t channel;
    bool reliable;
    uint16_t start_seq;
    size_t len, fixed, dgram_len; /* the command's length and fixed part; the datagram's length (0: not kept) */
    uint8_t hdr[4];               /* the datagram's header, compression flag cleared (a neutralised head goes alone) */
    size_t hdr_len;
    uint8_t bytes[];
} held_head;

struct gdw_guard_peer {
    gdw_guard *g;
    int64_t godot_id;
    bool verified, cut, range_found;
    bool server_side;               /* this state judges the server's datagrams to the client (policy server.judge) */
    struct gdw_guard_peer *toward_client; /* that state, for this client's server (made when first needed) */
    uint16_t server_peer_id;
    uint8_t session;
    gdw_enet_compression compression;
    gdw_enet_reassembly *frag;
    gdw_mp_paths *paths;
    held_head *held;
    size_t held_bytes;
    recent rec[RECENT];
    double msg_tokens, byte_tokens, last;
    unsigned violations;
};

/* One message being judged: what the log says of it. */
typedef struct msg_ctx {
    unsigned kind, enet_channel, channel;
    bool reliable;
    const char *mode;
    const gdw_mp_parsed *mp;
    const char *node;
} msg_ctx;

/* One datagram being judged. */
typedef struct judge {
    gdw_guard *g;
    gdw_guard_peer *p;
    gdw_guard_emit_fn emit;
    void *ctx;
    double now;
    unsigned actions, commands_in, sends;
    bool to_server; /* where the judged datagram goes: the server (a client's), or the client (the server's) */
    bool header_only; /* the datagram had no command (forwarded as it came) */
    held_head *just_held; /* a head this datagram gave, held (it may be kept as the whole datagram) */
    uint8_t hdr_bytes[4];
    size_t hdr_len;
    uint8_t out[GDW_ENET_MAXIMUM_MTU];
    size_t out_len;
    uint8_t plain[GDW_ENET_MAXIMUM_MTU];
} judge;

#endif

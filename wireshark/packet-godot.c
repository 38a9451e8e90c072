/* SPDX-License-Identifier: GPL-2.0-or-later
 * packet-godot.c — a Wireshark epan plugin for Godot's multiplayer traffic: ENet over UDP (its header, commands,
 * channels, sequence numbers, compressed datagrams, fragments put back together with Wireshark's reassembly), the
 * WebSocket messages Wireshark's own dissector hands over, Godot 4's SceneMultiplayer and Godot 3's MultiplayerAPI
 * (the Godot 3 header, relays, the path cache), and each Variant as a subtree.
 *
 * It reads with gdwire's layers one at a time (session/gdwire_session.h: gdw_enet_read_header,
 * gdw_enet_commands_next, gdw_enet_inflate, gdw_godot_enet_packet, gdw_godot_ws_message, gdw_mp_parse, gdw_mp_paths,
 * gdw_mp_message_text; codec/gdwire.h for the values); no gdw_session. What a frame's reading depends on from earlier frames (the flow's sides and Godot peer ids, its
 * dialect, each side's compression, which reliable commands are retransmits, each message's node path from the
 * path cache) is found on the first pass, in capture order, and kept per frame (p_add_proto_data), so a frame
 * dissected again, or out of order, or by `tshark -2`, shows the same tree.
 *
 * The Godot layer's rules are those of session/godot.c (its head names the engine sources): wireshark/README.md.
 * The fields are a contract: wireshark/README.md lists every one. */
#define WS_BUILD_DLL
#include <wireshark.h>

#include <epan/address_types.h>
#include <epan/conversation.h>
#include <epan/dissectors/packet-tcp.h>
#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto.h>
#include <epan/proto_data.h>
#include <epan/reassemble.h>
#include <epan/to_str.h>
#include <ws_version.h>
#include <wsutil/report_message.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire.h"
#include "project/gdwire_project.h"
#include "session/gdwire_session.h"

#ifndef GODOT_PLUGIN_VERSION
#define GODOT_PLUGIN_VERSION "0.1.0"
#endif

WS_DLL_PUBLIC_DEF const gchar plugin_version[] = GODOT_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;
WS_DLL_PUBLIC void plugin_register(void);

#define TREE_DEPTH 8      /* levels of a value's children the tree shows */
#define TREE_CHILDREN 256 /* children of one value the tree shows */
#define ENET_NO_PEER 0xFFF

static int proto_enet = -1, proto_godot = -1;

/* ---- fields ---------------------------------------------------------------------------------------------- */

static int hf_enet_peer_id = -1, hf_enet_session_id = -1, hf_enet_compressed = -1, hf_enet_sent_time = -1;
static int hf_enet_compression = -1, hf_enet_command = -1, hf_enet_acknowledge = -1, hf_enet_unsequenced = -1;
static int hf_enet_channel = -1, hf_enet_reliable_seq = -1, hf_enet_unreliable_seq = -1, hf_enet_data_length = -1;
static int hf_enet_connect_data = -1, hf_enet_retransmit = -1, hf_enet_data = -1;
static int hf_enet_frag_start_seq = -1, hf_enet_frag_count = -1, hf_enet_frag_number = -1, hf_enet_frag_total = -1,
           hf_enet_frag_offset = -1;
static int hf_enet_fragments = -1, hf_enet_fragment = -1, hf_enet_fragment_overlap = -1, hf_enet_fragment_overlap_conflicts = -1,
           hf_enet_fragment_multiple_tails = -1, hf_enet_fragment_too_long = -1, hf_enet_fragment_error = -1,
           hf_enet_fragment_count = -1, hf_enet_reassembled_in = -1, hf_enet_reassembled_length = -1;

static int hf_godot_dialect = -1, hf_godot_transport = -1, hf_godot_command = -1, hf_godot_from = -1, hf_godot_to = -1;
static int hf_godot_relayed = -1, hf_godot_channel = -1, hf_godot_mode = -1, hf_godot_header_source = -1, hf_godot_header_target = -1;
static int hf_godot_ws_type = -1, hf_godot_client_id = -1, hf_godot_frame_length = -1;
static int hf_godot_node_path = -1, hf_godot_node_id = -1, hf_godot_inline_path = -1, hf_godot_method_id = -1, hf_godot_method = -1;
static int hf_godot_md5 = -1, hf_godot_checksum_valid = -1, hf_godot_net_id = -1, hf_godot_scene_id = -1, hf_godot_name = -1;
static int hf_godot_sync_time = -1, hf_godot_peer = -1, hf_godot_payload = -1;
static int hf_godot_variant = -1, hf_godot_variant_label = -1, hf_godot_variant_index = -1, hf_godot_variant_type = -1,
           hf_godot_variant_encoding = -1, hf_godot_variant_net_id = -1, hf_godot_variant_props = -1, hf_godot_arg = -1,
           hf_godot_variant_item = -1;

static gint ett_enet = -1, ett_enet_command = -1, ett_enet_fragment = -1, ett_enet_fragments = -1;
static gint ett_godot = -1, ett_godot_variant = -1;

static expert_field ei_enet_commands = EI_INIT, ei_enet_compressed = EI_INIT, ei_enet_fragment = EI_INIT, ei_enet_retransmit = EI_INIT,
                    ei_enet_connect = EI_INIT, ei_godot_parse = EI_INIT, ei_godot_value = EI_INIT, ei_godot_path = EI_INIT,
                    ei_godot_header = EI_INIT;

static const fragment_items enet_frag_items = {
    &ett_enet_fragment, &ett_enet_fragments, &hf_enet_fragments, &hf_enet_fragment, &hf_enet_fragment_overlap,
    &hf_enet_fragment_overlap_conflicts, &hf_enet_fragment_multiple_tails, &hf_enet_fragment_too_long, &hf_enet_fragment_error,
    &hf_enet_fragment_count, &hf_enet_reassembled_in, &hf_enet_reassembled_length, NULL, "ENet fragments"};

static reassembly_table enet_reassembly;

/* ---- preferences --------------------------------------------------------------------------------------- */

static range_t *pref_ports;           /* "Decode As" ports, also the plain dissector's table entries */
static gboolean pref_heuristic = TRUE;
static const char *pref_names = "";    /* gdwire capture --names' file */
static const char *pref_manifest = ""; /* gdwire rpc --json's manifest */
static const char *pref_dialect = "";  /* a dialect to force (gdwire dialects), "" detected */
static guint pref_max_packet = 32u << 20;
static guint pref_max_paths = 65536;
static guint pref_max_path_bytes = 16u << 20;
static const gdw_dialect *forced_dialect;

/* ---- method names (--names, --project: docs/capture.md) ---------------------------------------------------- */

typedef struct name_entry {
    char *path;
    int id;
    char *name;
} name_entry;
static GArray *names; /* of name_entry */

static void names_clear(void) {
    if (!names) return;
    for (guint i = 0; i < names->len; i++) {
        name_entry *e = &g_array_index(names, name_entry, i);
        g_free(e->path), g_free(e->name);
    }
    g_array_set_size(names, 0);
}

static void names_add(const char *path, int id, const char *name) {
    name_entry e = {g_strdup(path), id, g_strdup(name)};
    g_array_append_val(names, e);
}

/* "rpc<TAB>node path<TAB>method id<TAB>name" lines, as tools/capture/gdwire_names.gd writes them. */
static void names_load_tsv(const char *file) {
    FILE *f = fopen(file, "r");
    if (!f) {
        report_failure("Godot: the names file %s: %s", file, g_strerror(errno));
        return;
    }
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        char **parts = g_strsplit(line, "\t", 4);
        char *end = NULL;
        long id = parts[0] && parts[1] && parts[2] && parts[3] ? strtol(parts[2], &end, 10) : -1;
        if (g_strv_length(parts) != 4 || strcmp(parts[0], "rpc") != 0 || !end || *end || id < 0 || id > 65535 || !parts[3][0])
            report_failure("Godot: the names file %s line %u: want \"rpc<TAB>node path<TAB>method id<TAB>name\"", file, lineno);
        else
            names_add(parts[1], (int)id, parts[3]);
        g_strfreev(parts);
    }
    fclose(f);
}

static void names_load_manifest(const char *file) {
    gchar *json = NULL;
    gsize len = 0;
    GError *gerr = NULL;
    if (!g_file_get_contents(file, &json, &len, &gerr)) {
        report_failure("Godot: the manifest %s: %s", file, gerr->message);
        g_error_free(gerr);
        return;
    }
    gdw_rpc_manifest *m = NULL;
    char why[256];
    if (gdw_rpc_manifest_parse(json, len, &m, why, sizeof why) != GDW_PROJECT_OK) {
        report_failure("Godot: the manifest %s: %s", file, why);
    } else {
        for (size_t i = 0; i < m->n_nodes; i++)
            for (size_t k = 0; k < m->nodes[i].n_rpcs; k++) names_add(m->nodes[i].path, m->nodes[i].rpcs[k].id, m->nodes[i].rpcs[k].name);
        gdw_rpc_manifest_free(m);
    }
    g_free(json);
}

/* The name of method id on the node at path: an entry for that path, or "*" (every node). */
static const char *names_find(const char *path, int id) {
    for (guint i = 0; names && i < names->len; i++) {
        const name_entry *e = &g_array_index(names, name_entry, i);
        if (e->id == id && (strcmp(e->path, "*") == 0 || (path && gdw_rpc_path_match(e->path, path)))) return e->name;
    }
    return NULL;
}

/* ---- the range coder (Godot 3.4+'s default), from libenet as gdwire capture loads it -------------------- */

static struct {
    gboolean tried;
    void *ctx;
    size_t (*decompress)(void *, const uint8_t *, size_t, uint8_t *, size_t);
} range_coder;

static gboolean range_coder_load(void) {
    if (range_coder.tried) return range_coder.ctx != NULL;
    range_coder.tried = TRUE;
    void *h = dlopen("libenet.so.7", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libenet.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) return FALSE;
    void *(*create)(void) = NULL;
    *(void **)&create = dlsym(h, "enet_range_coder_create");
    *(void **)&range_coder.decompress = dlsym(h, "enet_range_coder_decompress");
    if (create && range_coder.decompress) range_coder.ctx = create();
    return range_coder.ctx != NULL;
}

/* The range coder as a gdw_decompress_fn: libenet's, loaded when first tried. */
static size_t range_decompress(void *ctx _U_, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    return range_coder_load() ? range_coder.decompress(range_coder.ctx, in, n, out, cap) : 0;
}

/* A block again with the compression the first pass found it in. */
static size_t inflate_with(gdw_enet_compression c, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    if (c == GDW_ENET_COMPRESS_RANGE_CODER) return range_decompress(NULL, in, n, out, cap);
    return gdw_enet_decompress(c, in, n, out, cap);
}

/* ---- state: flows (first pass) and frames (kept) -------------------------------------------------------- */

/* A server endpoint: its peers share path-cache ids (one gdw_mp_paths) and speak one engine's dialect. */
typedef struct server_group {
    gdw_mp_paths *paths;
    const gdw_dialect *dialect;
} server_group;

/* One ENet connection (a UDP conversation) or one WebSocket connection (a TCP conversation), as the first pass
 * reads it in capture order. */
typedef struct godot_flow {
    address client;   /* side 0: the client (the CONNECT's sender; for WebSocket, the side the first message went to) */
    guint32 client_port;
    gboolean sides_known, connect_seen, ws_id_seen;
    gint32 client_id; /* the client's Godot peer id; 0 unknown */
    const gdw_dialect *dialect;
    gdw_enet_side_compression compression[2]; /* each side's, as gdw_enet_inflate finds it */
    gdw_enet_seen *windows[2][256]; /* each direction's and channel's reliable sequence numbers seen (made when used) */
    server_group *group;
    gboolean putvar, stream_started, stream_off; /* plain TCP: put_var frames (and whether its first frame came) */
    guint64 stream_dialects;  /* the dialects still reading every frame whole (bit i: gdw_dialect_at(i)) */
    guint stream_frames;
} godot_flow;

/* What a frame's dissection needs from the frames before it, found on the first pass (kept small: one a frame). */
typedef struct frame_state {
    const gdw_dialect *dialect; /* the flow's, once its first Godot packet came */
    const char *path0;          /* each message's node path from the sender's path cache (interned; NULL unknown), */
    const char **paths;         /* the first's here, the others' in paths[0 .. n_msgs - 1), in delivery order */
    uint8_t *retx;              /* per command: a retransmit (NULL: none was) */
    gint32 client_id;           /* the flow's client's Godot peer id then (0: unknown) */
    guint16 n_msgs, n_retx;
    uint8_t dir;                /* 0: sent by the client side, 1: by the server */
    uint8_t compression;        /* the compression its block was read with (0: none) */
    uint8_t ws_id;              /* WebSocket: the client's peer id; plain TCP: a frame not read */
} frame_state;

/* Per-dissection context of one frame. */
typedef struct dctx {
    packet_info *pinfo;
    godot_flow *flow;
    frame_state *fs;
    gboolean first;        /* the first pass: state is built; else it is read */
    guint msg_index;
    guint messages;
    const char *transport;
} dctx;

static wmem_map_t *server_groups; /* "address:port" -> server_group, file scope */
static wmem_map_t *interned;      /* node paths, one copy each, file scope */
static GPtrArray *group_list;     /* every server_group, freed with the file */

static void groups_init(void) {
    server_groups = wmem_map_new(wmem_file_scope(), g_str_hash, g_str_equal);
    interned = wmem_map_new(wmem_file_scope(), g_str_hash, g_str_equal);
    group_list = g_ptr_array_new();
}

static void groups_cleanup(void) {
    for (guint i = 0; group_list && i < group_list->len; i++) {
        server_group *g = g_ptr_array_index(group_list, i);
        gdw_mp_paths_free(g->paths);
        g_free(g);
    }
    if (group_list) g_ptr_array_free(group_list, TRUE);
    group_list = NULL;
    server_groups = NULL;
    interned = NULL;
}

static const char *intern(const char *path) {
    if (!path) return NULL;
    char *kept = wmem_map_lookup(interned, path);
    if (!kept) {
        kept = wmem_strdup(wmem_file_scope(), path);
        wmem_map_insert(interned, kept, kept);
    }
    return kept;
}

static server_group *group_of(const address *a, guint32 port) {
    char *addr = address_to_str(NULL, a);
    char *key = wmem_strdup_printf(wmem_file_scope(), "%s:%u", addr, port);
    wmem_free(NULL, addr);
    server_group *g = wmem_map_lookup(server_groups, key);
    if (g) return g;
    g = g_new0(server_group, 1);
    gdw_mp_paths_options o = {pref_max_paths, pref_max_path_bytes, NULL};
    g->paths = gdw_mp_paths_new(&o);
    g_ptr_array_add(group_list, g);
    wmem_map_insert(server_groups, key, g);
    return g;
}

static godot_flow *flow_get(packet_info *pinfo, int proto, gboolean create) {
    conversation_t *conv = create ? find_or_create_conversation(pinfo) : find_conversation_pinfo(pinfo, 0);
    if (!conv) return NULL;
    godot_flow *f = conversation_get_proto_data(conv, proto);
    if (!f && create) {
        f = wmem_new0(wmem_file_scope(), godot_flow);
        conversation_add_proto_data(conv, proto, f);
    }
    return f;
}

/* The flow's client is src: side 0 from now on. */
static void flow_set_client(godot_flow *f, const address *a, guint32 port) {
    free_address_wmem(wmem_file_scope(), &f->client);
    copy_address_wmem(wmem_file_scope(), &f->client, a);
    f->client_port = port;
    f->sides_known = TRUE;
}

static int flow_dir(const godot_flow *f, packet_info *pinfo) {
    return addresses_equal(&f->client, &pinfo->src) && f->client_port == pinfo->srcport ? 0 : 1;
}

static server_group *flow_group(godot_flow *f, packet_info *pinfo) {
    if (!f->group) {
        int dir = flow_dir(f, pinfo);
        f->group = dir == 0 ? group_of(&pinfo->dst, pinfo->destport) : group_of(&pinfo->src, pinfo->srcport);
    }
    return f->group;
}

static frame_state *frame_state_new(packet_info *pinfo, int proto) {
    frame_state *fs = wmem_new0(wmem_file_scope(), frame_state);
    p_add_proto_data(wmem_file_scope(), pinfo, proto, 0, fs);
    return fs;
}

/* ---- retransmits (ENet drops a reliable command it has seen: gdw_enet_seen_before) ------------------------ */

static gboolean seen_before(godot_flow *f, int dir, unsigned channel, uint16_t seq) {
    gdw_enet_seen **w = &f->windows[dir][channel & 0xFF];
    if (!*w) *w = wmem_new0(wmem_file_scope(), gdw_enet_seen);
    return gdw_enet_seen_before(*w, seq);
}

/* ---- text as gdwire capture's line shows it (gdw_mp_message_text) ---------------------------------------- */

static void peer_text(wmem_strbuf_t *out, gint64 id) {
    if (id == 0) wmem_strbuf_append(out, "?");
    else wmem_strbuf_append_printf(out, "%" G_GINT64_FORMAT, id);
}

static void line_put(void *ctx, const char *s, size_t n) { wmem_strbuf_append_len(ctx, s, n); }

static const char *line_method_name(void *ctx _U_, const char *path, int id) { return names_find(path, id); }

/* The command and what it carries, as gdwire capture's line prints them. */
static char *message_line(const gdw_mp_parsed *p, const char *path) {
    wmem_strbuf_t *s = wmem_strbuf_new(wmem_packet_scope(), "");
    gdw_mp_text_out out = {line_put, line_method_name, NULL, NULL, s};
    gdw_mp_message_text(p, path, &out);
    return wmem_strbuf_finalize(s);
}

/* ---- one multiplayer packet ------------------------------------------------------------------------------ */

/* Whether the tree is shown (not only primed for a filter's fields): the costly text is made only then. */
static gboolean tree_shown(proto_tree *t) { return t && PTREE_DATA(t)->visible; }

/* A value's children (gdw_children), as items under it: their types and text, bounded in depth and count. */
static void add_children(proto_tree *tree, tvbuff_t *tvb, const gdw_mp_value *mv, const gdw_value *v, int depth) {
    const gdw_value *items;
    size_t n = gdw_children(v, &items);
    if (!n || depth >= TREE_DEPTH) return;
    for (size_t i = 0; i < n && i < TREE_CHILDREN; i++) {
        char head[GDW_MP_TEXT_HEAD + 2];
        gdw_text_print_head(&items[i], head, sizeof head);
        const char *role = v->type == GDW_DICTIONARY || v->type == GDW_OBJECT ? (i % 2 ? "value" : "key") : "item";
        proto_item *it = proto_tree_add_string_format(tree, hf_godot_variant_item, tvb, (gint)mv->offset, (gint)mv->length, head,
                                                      "%s %zu: %s %s", role, v->type == GDW_ARRAY ? i : i / 2,
                                                      gdw_type_name((gdw_type)items[i].type), head);
        proto_item_set_generated(it);
        proto_tree *sub = proto_item_add_subtree(it, ett_godot_variant);
        add_children(sub, tvb, mv, &items[i], depth + 1);
    }
    if (n > TREE_CHILDREN) proto_tree_add_expert_format(tree, NULL, &ei_godot_value, tvb, (gint)mv->offset, (gint)mv->length,
                                                        "%zu more children not shown", n - TREE_CHILDREN);
}

static void add_values(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, const gdw_mp_parsed *p) {
    if (!tree) return;
    gboolean shown = tree_shown(tree), texts = shown || proto_field_is_referenced(tree, hf_godot_arg);
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        gint off = (gint)v->offset, len = (gint)v->length;
        const char *type = v->status == GDW_OK ? gdw_type_name((gdw_type)v->value->type) : "?";
        proto_item *vi = proto_tree_add_none_format(tree, hf_godot_variant, tvb, off, len, "%s %u: %s", v->label, v->index, type);
        proto_tree *vt = proto_item_add_subtree(vi, ett_godot_variant);
        proto_tree_add_string(vt, hf_godot_variant_label, tvb, off, len, v->label);
        proto_tree_add_uint(vt, hf_godot_variant_index, tvb, off, len, v->index);
        if (p->command == GDW_MP_SYNC || p->command == GDW_MP_DELTA) proto_tree_add_uint(vt, hf_godot_variant_net_id, tvb, off, len, v->net_id);
        if (p->command == GDW_MP_DELTA) proto_tree_add_uint64(vt, hf_godot_variant_props, tvb, off, len, v->indexes);
        proto_tree_add_string(vt, hf_godot_variant_encoding, tvb, off, len, gdw_mp_encoding_name(v->encoding));
        if (v->status != GDW_OK) {
            expert_add_info_format(pinfo, vi, &ei_godot_value, "%s %s %u does not decode: %s (%s, at byte %zu of the value)",
                                   gdw_mp_command_name(p->command), v->label, v->index, v->error.message, gdw_status_name(v->status),
                                   v->error.offset);
            continue;
        }
        proto_tree_add_string(vt, hf_godot_variant_type, tvb, off, len, type);
        if (texts) {
            char *text = gdw_text_print_alloc(v->value, NULL, NULL);
            proto_tree_add_string(vt, hf_godot_arg, tvb, off, len, text ? text : "");
            gdw_text_free(NULL, text);
        }
        if (!shown) continue;
        char head[GDW_MP_TEXT_HEAD + 2];
        size_t n = gdw_text_print_head(v->value, head, sizeof head);
        proto_item_append_text(vi, n <= GDW_MP_TEXT_HEAD ? " %s" : " %s...", head);
        add_children(vt, tvb, v, v->value, 0);
    }
}

static void add_command_fields(proto_tree *t, tvbuff_t *tvb, const gdw_mp_parsed *p, const char *path) {
    gint all = (gint)tvb_reported_length(tvb);
    if (path) proto_item_set_generated(proto_tree_add_string(t, hf_godot_node_path, tvb, 0, all, path));
    switch (p->command) {
    case GDW_MP_RPC:
    case GDW_MP_RSET:
        proto_tree_add_int64(t, hf_godot_node_id, tvb, 0, 1, p->as.rpc.node_id);
        proto_tree_add_boolean(t, hf_godot_inline_path, tvb, 0, 1, p->as.rpc.path != NULL);
        if (p->as.rpc.method) {
            proto_tree_add_string(t, hf_godot_method, tvb, (gint)((const uint8_t *)p->as.rpc.method - tvb_get_ptr(tvb, 0, all)),
                                  (gint)p->as.rpc.method_len, wmem_strndup(wmem_packet_scope(), p->as.rpc.method, p->as.rpc.method_len));
        } else {
            proto_tree_add_int(t, hf_godot_method_id, tvb, 0, 1, p->as.rpc.method_id);
            const char *name = names_find(path, p->as.rpc.method_id);
            if (name) proto_item_set_generated(proto_tree_add_string(t, hf_godot_method, tvb, 0, 1, name));
        }
        break;
    case GDW_MP_SIMPLIFY_PATH:
    case GDW_MP_CONFIRM_PATH:
        proto_tree_add_int64(t, hf_godot_node_id, tvb, 0, 1, p->as.path.node_id);
        if (p->as.path.md5[0]) proto_tree_add_string(t, hf_godot_md5, tvb, 0, all, p->as.path.md5);
        if (p->as.path.checksum_valid >= 0) proto_tree_add_boolean(t, hf_godot_checksum_valid, tvb, 0, all, p->as.path.checksum_valid);
        break;
    case GDW_MP_SPAWN:
        proto_tree_add_int64(t, hf_godot_node_id, tvb, 0, 1, p->as.spawn.spawner_id);
        proto_tree_add_int64(t, hf_godot_net_id, tvb, 0, 1, p->as.spawn.net_id);
        proto_tree_add_int(t, hf_godot_scene_id, tvb, 0, 1, p->as.spawn.scene_id);
        proto_tree_add_string(t, hf_godot_name, tvb, 0, all, wmem_strndup(wmem_packet_scope(), p->as.spawn.name, p->as.spawn.name_len));
        break;
    case GDW_MP_DESPAWN: proto_tree_add_int64(t, hf_godot_net_id, tvb, 0, all, p->as.despawn.net_id); break;
    case GDW_MP_SYNC: proto_tree_add_uint(t, hf_godot_sync_time, tvb, 0, all, p->as.sync.time); break;
    case GDW_MP_SYS_ADD_PEER:
    case GDW_MP_SYS_DEL_PEER: proto_tree_add_int64(t, hf_godot_peer, tvb, 0, all, p->as.sys.peer); break;
    case GDW_MP_RAW:
        proto_tree_add_bytes_with_length(t, hf_godot_payload, tvb, all - (gint)p->as.raw.payload_len, (gint)p->as.raw.payload_len,
                                         p->as.raw.payload, (gint)p->as.raw.payload_len);
        break;
    case GDW_MP_SYS_AUTH:
        proto_tree_add_bytes_with_length(t, hf_godot_payload, tvb, all - (gint)p->as.sys.payload_len, (gint)p->as.sys.payload_len,
                                         p->as.sys.payload, (gint)p->as.sys.payload_len);
        break;
    default: break;
    }
}

/* The next message's node path: its slot made on the first pass (which fills it), read back after. */
static const char **next_path(dctx *c) {
    frame_state *fs = c->fs;
    guint i = c->msg_index;
    if (c->first && i == fs->n_msgs && fs->n_msgs < G_MAXUINT16) {
        if (i) fs->paths = wmem_realloc(wmem_file_scope(), fs->paths, i * sizeof *fs->paths);
        fs->n_msgs++;
    }
    if (i >= fs->n_msgs) return NULL;
    c->msg_index++;
    return i == 0 ? &fs->path0 : &fs->paths[i - 1];
}

typedef struct delivery {
    int dir;
    unsigned channel; /* Godot's transfer channel */
    const char *mode;
} delivery;

static void show_message(dctx *c, proto_tree *tree, tvbuff_t *tvb, const delivery *dv, const gdw_mp_parsed *p, const gdw_dialect *d,
                         gint64 from, gint64 to, const char *path, gboolean relayed, proto_item **out) {
    proto_item *ti = proto_tree_add_item(tree, proto_godot, tvb, 0, -1, ENC_NA);
    proto_tree *t = proto_item_add_subtree(ti, ett_godot);
    proto_item_set_generated(proto_tree_add_string(t, hf_godot_dialect, tvb, 0, 0, gdw_dialect_name(d)));
    proto_item_set_generated(proto_tree_add_string(t, hf_godot_transport, tvb, 0, 0, c->transport));
    proto_item_set_generated(proto_tree_add_int64(t, hf_godot_from, tvb, 0, 0, from));
    proto_item_set_generated(proto_tree_add_int64(t, hf_godot_to, tvb, 0, 0, to));
    if (relayed) proto_item_set_generated(proto_tree_add_boolean(t, hf_godot_relayed, tvb, 0, 0, TRUE)); /* present only when true */
    proto_item_set_generated(proto_tree_add_uint(t, hf_godot_channel, tvb, 0, 0, dv->channel));
    proto_item_set_generated(proto_tree_add_string(t, hf_godot_mode, tvb, 0, 0, dv->mode));
    proto_tree_add_string(t, hf_godot_command, tvb, 0, 1, gdw_mp_command_name(p->command));
    add_command_fields(t, tvb, p, path);
    add_values(t, c->pinfo, tvb, p);
    char *line = message_line(p, path);
    wmem_strbuf_t *head = wmem_strbuf_new(wmem_packet_scope(), "");
    peer_text(head, from);
    wmem_strbuf_append(head, " -> ");
    if (to == 0 && relayed) wmem_strbuf_append(head, "all");
    else peer_text(head, to);
    proto_item_append_text(ti, ", %s%s: %s", wmem_strbuf_get_str(head), relayed ? " (relayed)" : "", line);
    col_set_str(c->pinfo->cinfo, COL_PROTOCOL, "Godot");
    /* the frame's messages, ' | ' between them, replace what the layers below wrote: a frame may carry several
     * WebSocket messages or put_var frames, each dissected on its own, with the WebSocket dissector's text between */
    wmem_strbuf_t *info = p_get_proto_data(c->pinfo->pool, c->pinfo, proto_godot, 2);
    if (!info) {
        info = wmem_strbuf_new(c->pinfo->pool, "");
        p_add_proto_data(c->pinfo->pool, c->pinfo, proto_godot, 2, info);
    } else {
        wmem_strbuf_append(info, " | ");
    }
    wmem_strbuf_append(info, line);
    c->messages++;
    col_clear_fence(c->pinfo->cinfo, COL_INFO); /* tcp_dissect_pdus fences each PDU's text */
    col_clear(c->pinfo->cinfo, COL_INFO);
    col_add_str(c->pinfo->cinfo, COL_INFO, wmem_strbuf_get_str(info));
    if (out) *out = ti;
}

/* The parses, kept from packet to packet (their storage allocated once): [0] a packet, [1] one inside a relay. */
static gdw_mp_parsed parsers[2];

/* One multiplayer packet from `from` to `to` (relayed: it came inside a SYS relay or, in Godot 3, a server passed
 * it on), parsed and shown, a relay's inner packet after it. */
static void deliver(dctx *c, proto_tree *tree, tvbuff_t *tvb, const delivery *dv, const gdw_dialect *d, gint64 from, gint64 to,
                    gboolean relayed) {
    guint len = tvb_reported_length(tvb);
    if (tvb_captured_length(tvb) < len) return; /* cut by the snapshot length */
    const uint8_t *bytes = len ? tvb_get_ptr(tvb, 0, len) : (const uint8_t *)"";
    gdw_mp_parsed *pp = &parsers[relayed ? 1 : 0];
    gdw_error err;
    gdw_status st = gdw_mp_parse_into(bytes, len, d, NULL, pp, &err);
    if (st != GDW_OK) {
        proto_item *ti = proto_tree_add_item(tree, proto_godot, tvb, 0, -1, ENC_NA);
        expert_add_info_format(c->pinfo, ti, &ei_godot_parse, "%s (%s at byte %zu; a %u-byte packet from peer %" G_GINT64_FORMAT "%s)",
                               err.message, gdw_status_name(st), err.offset, len, from, relayed ? ", relayed" : "");
        return;
    }
    if (pp->command == GDW_MP_SYS_RELAY) {
        proto_item *ti = proto_tree_add_item(tree, proto_godot, tvb, 0, -1, ENC_NA);
        proto_tree *t = proto_item_add_subtree(ti, ett_godot);
        proto_item_append_text(ti, ", sys relay (peer %" G_GINT64_FORMAT ")", pp->as.sys.peer);
        proto_tree_add_int64(t, hf_godot_peer, tvb, 0, (gint)(len - pp->as.sys.payload_len), pp->as.sys.peer);
        if (relayed) {
            expert_add_info_format(c->pinfo, ti, &ei_godot_parse, "a relay inside a relay (peer %" G_GINT64_FORMAT "): the engines never send one", from);
        } else {
            gint at = (gint)(pp->as.sys.payload - bytes);
            tvbuff_t *inner = tvb_new_subset_length(tvb, at, (gint)pp->as.sys.payload_len);
            gint64 peer = pp->as.sys.peer; /* client to server: the destination; server to client: the source */
            if (dv->dir == 0) deliver(c, t, inner, dv, d, from, peer, TRUE);
            else deliver(c, t, inner, dv, d, peer, to, TRUE);
        }
        return;
    }
    const char **path = next_path(c);
    if (!path) return;
    if (c->first) {
        server_group *g = c->flow->group;
        *path = intern(g ? gdw_mp_paths_apply(g->paths, from, pp) : NULL);
    }
    proto_item *ti = NULL;
    show_message(c, tree, tvb, dv, pp, d, from, to, *path, relayed, &ti);
    if (!*path && (pp->command == GDW_MP_RPC || pp->command == GDW_MP_RSET))
        expert_add_info_format(c->pinfo, ti, &ei_godot_path, "%s to path-cache id %" G_GINT64_FORMAT " of peer %" G_GINT64_FORMAT
                               ": no SIMPLIFY_PATH for it was seen", gdw_mp_command_name(pp->command), pp->as.rpc.node_id, from);
}

/* A peer added or removed, as Godot 3's server says it: a message of its own, from the server. */
static void deliver_peer(dctx *c, proto_tree *tree, tvbuff_t *tvb, const delivery *dv, const gdw_dialect *d, gdw_mp_command cmd, gint32 peer,
                         gint64 to) {
    if (!next_path(c)) return;
    gdw_mp_parsed p;
    memset(&p, 0, sizeof p);
    p.command = cmd;
    p.as.sys.peer = peer;
    p.as.path.checksum_valid = -1;
    show_message(c, tree, tvb, dv, &p, d, 1, to, NULL, FALSE, NULL);
}

/* ---- the Godot layer (session/godot.c's rules: gdw_godot_*) ---------------------------------------------- */

/* A packet's bytes for the layers (an empty one's: an empty buffer, never NULL). */
static const uint8_t *tvb_bytes(tvbuff_t *tvb, guint *len) {
    *len = tvb_captured_length(tvb);
    return *len ? tvb_get_ptr(tvb, 0, (gint)*len) : (const uint8_t *)"";
}

/* What the Godot layer made of a packet, shown: its Godot 3 header's fields, then the message, the peer added or
 * removed, the client's id, or why it is not read. */
static void godot_packet(dctx *c, proto_tree *tree, tvbuff_t *pkt, int dir, const char *mode, const gdw_dialect *d, const gdw_godot_packet *gp) {
    delivery dv = {dir, gp->channel, mode};
    if (gp->header) {
        gint at = gp->ws_type >= 0 ? 1 : 0;
        if (gp->ws_type >= 0) proto_tree_add_item(tree, hf_godot_ws_type, pkt, 0, 1, ENC_NA);
        proto_tree_add_item(tree, hf_godot_header_source, pkt, at, 4, ENC_LITTLE_ENDIAN);
        proto_tree_add_item(tree, hf_godot_header_target, pkt, at + 4, 4, ENC_LITTLE_ENDIAN);
    }
    switch (gp->kind) {
    case GDW_GODOT_PACKET: deliver(c, tree, tvb_new_subset_remaining(pkt, (gint)gp->body), &dv, d, gp->from, gp->to, gp->relayed); break;
    case GDW_GODOT_PEER: deliver_peer(c, tree, pkt, &dv, d, gp->command, gp->peer, gp->to); break;
    case GDW_GODOT_CLIENT_ID: {
        if (c->first) c->flow->client_id = gp->peer;
        proto_item *ti = proto_tree_add_item(tree, proto_godot, pkt, 0, -1, ENC_NA);
        proto_item_append_text(ti, ", the client's peer id %d", gp->peer);
        break;
    }
    case GDW_GODOT_NOT_READ: {
        proto_item *ti = proto_tree_add_item(tree, proto_godot, pkt, 0, -1, ENC_NA);
        expert_add_info_format(c->pinfo, ti, &ei_godot_header, "%s", gp->why);
        break;
    }
    }
}

static void godot_enet_packet(dctx *c, proto_tree *tree, tvbuff_t *pkt, int dir, unsigned enet_channel, const char *mode) {
    godot_flow *f = c->flow;
    guint len;
    const uint8_t *bytes = tvb_bytes(pkt, &len);
    if (c->first) {
        server_group *grp = flow_group(f, c->pinfo);
        if (!f->dialect && forced_dialect) f->dialect = forced_dialect;
        if (!f->dialect && grp->dialect) f->dialect = grp->dialect;
        if (!f->dialect) f->dialect = gdw_godot_dialect_of(gdw_godot_detect_enet(dir, enet_channel, f->client_id, bytes, len));
        if (!grp->dialect) grp->dialect = f->dialect;
        c->fs->dialect = f->dialect;
        c->fs->client_id = f->client_id;
    }
    gdw_godot_packet gp;
    gdw_godot_enet_packet(c->fs->dialect, dir, enet_channel, c->fs->client_id, bytes, len, &gp);
    godot_packet(c, tree, pkt, dir, mode, c->fs->dialect, &gp);
}

/* ---- ENet ---------------------------------------------------------------------------------------------- */

static const value_string enet_command_vals[] = {
    {1, "acknowledge"}, {2, "connect"}, {3, "verify_connect"}, {4, "disconnect"}, {5, "ping"}, {6, "send_reliable"},
    {7, "send_unreliable"}, {8, "send_fragment"}, {9, "send_unsequenced"}, {10, "bandwidth_limit"}, {11, "throttle_configure"},
    {12, "send_unreliable_fragment"}, {0, NULL}};

static const value_string enet_compression_vals[] = {
    {0, "none"}, {1, "range_coder"}, {2, "fastlz"}, {3, "zlib"}, {4, "zstd"}, {0, NULL}};

static gboolean commands_whole(const uint8_t *d, size_t len) {
    gdw_enet_commands it;
    gdw_enet_command cmd;
    gdw_enet_commands_begin(&it, d, len, 0);
    int rc;
    while ((rc = gdw_enet_commands_next(&it, &cmd, NULL)) == 1) {}
    return rc == 0;
}

/* The bytes are ENet: a header, then commands that walk to the end (or a compressed block). */
static gboolean enet_looks_like(tvbuff_t *tvb) {
    guint len = tvb_captured_length(tvb);
    if (len < 4 || len != tvb_reported_length(tvb)) return FALSE;
    const uint8_t *d = tvb_get_ptr(tvb, 0, len);
    gdw_enet_header h;
    if (gdw_enet_read_header(d, len, &h, NULL) != GDW_OK) return FALSE;
    if (h.compressed) return h.size < len;
    return h.size < len && commands_whole(d + h.size, len - h.size);
}

static void add_fragment(dctx *c, proto_tree *ct, tvbuff_t *ctvb, const gdw_enet_command *cmd, gint data_at, int dir) {
    gboolean reliable = cmd->kind == GDW_ENET_SEND_FRAGMENT;
    guint32 count = cmd->fragment.count, number = cmd->fragment.number, total = cmd->fragment.total, off = cmd->fragment.offset;
    if (count == 0 || number >= count || count > (1u << 20) || off >= total || cmd->data_len > total - off) {
        expert_add_info_format(c->pinfo, proto_tree_get_parent(ct), &ei_enet_fragment, "a fragment that cannot be: number %u of %u, %zu bytes at %u of %u",
                               number, count, cmd->data_len, off, total);
        return;
    }
    if (total > pref_max_packet) {
        expert_add_info_format(c->pinfo, proto_tree_get_parent(ct), &ei_enet_fragment,
                               "a fragmented packet of %u bytes, over the limit of %u (the max_packet preference): dropped", total, pref_max_packet);
        return;
    }
    /* one packet: its channel, kind and start sequence number (and, unreliable, the reliable one it rides with) */
    guint32 id = reliable ? (guint32)cmd->fragment.start_seq | (guint32)cmd->channel << 16 | 1u << 24
                          : ((guint32)cmd->fragment.start_seq | (guint32)cmd->reliable_seq << 16) ^ ((guint32)cmd->channel << 25 | 1u << 24);
    gboolean save = c->pinfo->fragmented;
    c->pinfo->fragmented = TRUE;
    fragment_head *fh = fragment_add_check(&enet_reassembly, ctvb, data_at, c->pinfo, id, NULL, off, (guint32)cmd->data_len,
                                           off + cmd->data_len < total);
    c->pinfo->fragmented = save;
    if (!fh || !fh->reassembled_in) return;
    if (fh->reassembled_in != c->pinfo->num) {
        proto_tree_add_uint(ct, hf_enet_reassembled_in, ctvb, 0, 0, fh->reassembled_in);
        return;
    }
    tvbuff_t *whole = process_reassembled_data(ctvb, data_at, c->pinfo, "Reassembled ENet packet", fh, &enet_frag_items, NULL, ct);
    if (whole && tvb_reported_length(whole) == total)
        godot_enet_packet(c, ct, whole, dir, cmd->channel, reliable ? "reliable" : "unreliable");
}

static int dissect_enet(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_) {
    guint len = tvb_captured_length(tvb);
    if (len < 2) return 0;
    const uint8_t *d = tvb_get_ptr(tvb, 0, len);
    gdw_enet_header h;
    if (gdw_enet_read_header(d, len, &h, NULL) != GDW_OK) return 0;
    col_set_str(pinfo->cinfo, COL_PROTOCOL, "ENet");
    col_clear(pinfo->cinfo, COL_INFO);

    dctx c = {pinfo, NULL, NULL, !PINFO_FD_VISITED(pinfo), 0, 0, "enet"};
    c.flow = flow_get(pinfo, proto_enet, TRUE);
    c.fs = p_get_proto_data(wmem_file_scope(), pinfo, proto_enet, 0);
    if (c.fs) c.first = FALSE;
    else if (!c.first) return len; /* a frame the first pass did not read as ENet */
    else c.fs = frame_state_new(pinfo, proto_enet);
    godot_flow *f = c.flow;

    int dir;
    if (c.first) {
        /* sides: the first datagram's sender is the client, until a CONNECT from the other side says otherwise */
        if (!f->sides_known) flow_set_client(f, &pinfo->src, pinfo->srcport);
        dir = flow_dir(f, pinfo);
        if (dir == 1 && !f->connect_seen && !h.compressed && h.peer_id == ENET_NO_PEER && len > h.size && (d[h.size] & 0x0F) == GDW_ENET_CONNECT) {
            flow_set_client(f, &pinfo->src, pinfo->srcport);
            dir = 0;
        }
        c.fs->dir = (uint8_t)dir;
    } else {
        dir = c.fs->dir;
    }

    proto_item *ei = proto_tree_add_item(tree, proto_enet, tvb, 0, -1, ENC_NA);
    proto_tree *et = proto_item_add_subtree(ei, ett_enet);
    proto_tree_add_uint(et, hf_enet_peer_id, tvb, 0, 2, h.peer_id);
    proto_tree_add_uint(et, hf_enet_session_id, tvb, 0, 2, h.session_id);
    proto_tree_add_boolean(et, hf_enet_compressed, tvb, 0, 2, h.compressed);
    if (h.has_sent_time) proto_tree_add_uint(et, hf_enet_sent_time, tvb, 2, 2, h.sent_time);
    proto_item_append_text(ei, ", peer %u, %s", h.peer_id, dir == 0 ? "client to server" : "server to client");

    tvbuff_t *ctvb = tvb;
    gint base = (gint)h.size;
    if (h.compressed) {
        uint8_t *plain = wmem_alloc(pinfo->pool, GDW_ENET_MAXIMUM_MTU);
        size_t cap = GDW_ENET_MAXIMUM_MTU - h.size, n = 0;
        gdw_enet_compression cm;
        if (c.first) {
            cm = GDW_ENET_COMPRESS_NONE;
            if (len > h.size) n = gdw_enet_inflate(&f->compression[dir], range_decompress, NULL, d + h.size, len - h.size, plain, cap, &cm);
            c.fs->compression = (uint8_t)cm;
        } else {
            cm = (gdw_enet_compression)c.fs->compression;
            if (cm) n = inflate_with(cm, d + h.size, len - h.size, plain, cap);
        }
        proto_item *ci = proto_tree_add_uint(et, hf_enet_compression, tvb, base, (gint)(len - h.size), cm);
        proto_item_set_generated(ci);
        if (!n) {
            expert_add_info_format(pinfo, ci, &ei_enet_compressed, "a compressed ENet datagram that none of zstd, zlib, fastlz%s reads as ENet commands",
                                   range_coder_load() ? ", range_coder" : " (not loaded: range_coder, from libenet.so.7)");
            col_set_str(pinfo->cinfo, COL_INFO, "ENet compressed datagram, not read");
            return len;
        }
        uint8_t *kept = wmem_memdup(pinfo->pool, plain, n);
        ctvb = tvb_new_child_real_data(tvb, kept, (guint)n, (gint)n);
        add_new_data_source(pinfo, ctvb, "Decompressed ENet");
        base = 0;
    }

    guint clen = tvb_captured_length(ctvb);
    const uint8_t *cd = tvb_get_ptr(ctvb, base, clen - (guint)base);
    gdw_enet_commands it;
    gdw_enet_command cmd;
    gdw_error err;
    int rc;
    guint index = 0;
    wmem_strbuf_t *kinds = wmem_strbuf_new(pinfo->pool, "ENet");
    gdw_enet_commands_begin(&it, cd, clen - (guint)base, (size_t)base);
    while ((rc = gdw_enet_commands_next(&it, &cmd, &err)) == 1) {
        gint at = (gint)cmd.offset;
        gint size = (gint)(cmd.fields_len + cmd.data_len);
        proto_item *ci = proto_tree_add_uint_format(et, hf_enet_command, ctvb, at, 1, cmd.kind, "Command: %s",
                                                    gdw_enet_command_name(cmd.kind));
        proto_item_set_len(ci, size);
        proto_tree *ct = proto_item_add_subtree(ci, ett_enet_command);
        proto_tree_add_boolean(ct, hf_enet_acknowledge, ctvb, at, 1, cmd.acknowledge);
        proto_tree_add_boolean(ct, hf_enet_unsequenced, ctvb, at, 1, cmd.unsequenced);
        proto_tree_add_uint(ct, hf_enet_channel, ctvb, at + 1, 1, cmd.channel);
        proto_tree_add_uint(ct, hf_enet_reliable_seq, ctvb, at + 2, 2, cmd.reliable_seq);
        wmem_strbuf_append_printf(kinds, "%s %s", index ? "," : ":", gdw_enet_command_name(cmd.kind));
        if (cmd.kind == GDW_ENET_SEND_UNRELIABLE || cmd.kind == GDW_ENET_SEND_UNRELIABLE_FRAGMENT || cmd.kind == GDW_ENET_SEND_UNSEQUENCED)
            proto_tree_add_uint(ct, hf_enet_unreliable_seq, ctvb, at + 4, 2, cmd.unreliable_seq);
        if (cmd.kind == GDW_ENET_CONNECT) proto_tree_add_uint(ct, hf_enet_connect_data, ctvb, at + (gint)cmd.fields_len - 4, 4, cmd.connect_data);
        if (cmd.kind == GDW_ENET_SEND_FRAGMENT || cmd.kind == GDW_ENET_SEND_UNRELIABLE_FRAGMENT) {
            proto_tree_add_uint(ct, hf_enet_frag_start_seq, ctvb, at + 4, 2, cmd.fragment.start_seq);
            proto_tree_add_uint(ct, hf_enet_frag_count, ctvb, at + 8, 4, cmd.fragment.count);
            proto_tree_add_uint(ct, hf_enet_frag_number, ctvb, at + 12, 4, cmd.fragment.number);
            proto_tree_add_uint(ct, hf_enet_frag_total, ctvb, at + 16, 4, cmd.fragment.total);
            proto_tree_add_uint(ct, hf_enet_frag_offset, ctvb, at + 20, 4, cmd.fragment.offset);
        }
        if (cmd.data) {
            proto_tree_add_uint(ct, hf_enet_data_length, ctvb, at + (gint)cmd.fields_len - 2, 2, (guint32)cmd.data_len);
            proto_tree_add_item(ct, hf_enet_data, ctvb, at + (gint)cmd.fields_len, (gint)cmd.data_len, ENC_NA);
        }

        /* the first pass's verdicts: a retransmit (ENet drops a reliable command it has seen), the CONNECT's peer id */
        gboolean reliable = cmd.acknowledge || cmd.kind == GDW_ENET_SEND_RELIABLE || cmd.kind == GDW_ENET_SEND_FRAGMENT;
        gboolean retx;
        if (c.first) {
            retx = FALSE;
            if (cmd.kind == GDW_ENET_CONNECT) {
                if (f->connect_seen && dir == 0 && (gint32)cmd.connect_data == f->client_id) retx = TRUE;
                else if (h.peer_id != ENET_NO_PEER || cmd.channel != 0xFF || dir != 0 || f->connect_seen)
                    expert_add_info_format(pinfo, ci, &ei_enet_connect, "a CONNECT %s: ignored",
                                           f->connect_seen ? "on a flow already connected" : dir != 0 ? "from the server's side" : "with a peer id or channel a new peer does not send");
                else
                    f->connect_seen = TRUE, f->client_id = (gint32)cmd.connect_data;
            } else if (reliable) {
                retx = seen_before(f, dir, cmd.channel, cmd.reliable_seq);
            }
            if (retx) {
                if (c.fs->n_retx <= index && index < G_MAXUINT16) {
                    guint n = MIN(MAX(index + 1, c.fs->n_retx * 2u), G_MAXUINT16);
                    uint8_t *grown = wmem_alloc0(wmem_file_scope(), n);
                    if (c.fs->retx) memcpy(grown, c.fs->retx, c.fs->n_retx);
                    c.fs->retx = grown, c.fs->n_retx = n;
                }
                if (index < c.fs->n_retx) c.fs->retx[index] = 1;
            }
        } else {
            retx = index < c.fs->n_retx && c.fs->retx[index];
        }
        index++;
        proto_item *ri = proto_tree_add_boolean(ct, hf_enet_retransmit, ctvb, at, size, retx);
        proto_item_set_generated(ri);
        if (retx) {
            expert_add_info(pinfo, ri, &ei_enet_retransmit);
            continue;
        }
        switch (cmd.kind) {
        case GDW_ENET_SEND_RELIABLE:
        case GDW_ENET_SEND_UNRELIABLE:
        case GDW_ENET_SEND_UNSEQUENCED: {
            const char *mode = cmd.kind == GDW_ENET_SEND_RELIABLE ? "reliable" : cmd.kind == GDW_ENET_SEND_UNRELIABLE ? "unreliable_ordered" : "unreliable";
            tvbuff_t *pkt = tvb_new_subset_length(ctvb, at + (gint)cmd.fields_len, (gint)cmd.data_len);
            godot_enet_packet(&c, ct, pkt, dir, cmd.channel, mode);
            break;
        }
        case GDW_ENET_SEND_FRAGMENT:
        case GDW_ENET_SEND_UNRELIABLE_FRAGMENT: add_fragment(&c, ct, ctvb, &cmd, at + (gint)cmd.fields_len, dir); break;
        default: break;
        }
    }
    if (rc < 0) {
        static const char *const why[] = {"", "an ENet command header cut short", "not an ENet command", "an ENet command's fixed part cut short",
                                          "an ENet command's data cut short"};
        expert_add_info_format(pinfo, ei, &ei_enet_commands, "%s (byte %zu of the %s datagram, kind %u, %zu bytes needed, %zu left)",
                               why[it.why <= 4 ? it.why : 0], err.offset, h.compressed ? "decompressed" : "", it.kind, it.need, it.left);
    }
    if (!c.messages) col_set_str(pinfo->cinfo, COL_INFO, wmem_strbuf_get_str(kinds));
    return len;
}

static gboolean dissect_enet_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data) {
    /* a verified ENet header: a Godot ENet CONNECT, or a datagram of a flow already read, or whole commands */
    if (!pref_heuristic || !enet_looks_like(tvb)) return FALSE;
    guint len = tvb_captured_length(tvb);
    const uint8_t *d = tvb_get_ptr(tvb, 0, len);
    gdw_enet_header h;
    gdw_enet_read_header(d, len, &h, NULL);
    godot_flow *f = flow_get(pinfo, proto_enet, FALSE);
    gboolean connect = !h.compressed && h.peer_id == ENET_NO_PEER && (d[h.size] & 0x0F) == GDW_ENET_CONNECT;
    /* a flow's first datagram must be a CONNECT, or whole commands with a sent time (every ENet datagram but an
     * acknowledgement-free one has it) */
    if (!f && !connect && !(h.has_sent_time && !h.compressed)) return FALSE;
    if (!f) {
        conversation_t *conv = find_or_create_conversation(pinfo);
        conversation_set_dissector(conv, find_dissector("enet"));
    }
    return dissect_enet(tvb, pinfo, tree, data) > 0;
}

/* ---- WebSocket ------------------------------------------------------------------------------------------ */

/* The frame state of this WebSocket message: a frame may carry several, each keyed by its place in the frame. */
static guint32 ws_message_key(packet_info *pinfo) {
    guint *seen = p_get_proto_data(pinfo->pool, pinfo, proto_godot, 1);
    if (!seen) {
        seen = wmem_new0(pinfo->pool, guint);
        p_add_proto_data(pinfo->pool, pinfo, proto_godot, 1, seen);
    }
    return 0x10000u + (*seen)++;
}

static gboolean dissect_godot_ws(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_) {
    guint len = tvb_reported_length(tvb), caplen;
    if (tvb_captured_length(tvb) < len) return FALSE;
    const uint8_t *bytes = tvb_bytes(tvb, &caplen);
    guint32 key = ws_message_key(pinfo);
    frame_state *fs = p_get_proto_data(wmem_file_scope(), pinfo, proto_godot, key);
    godot_flow *f = flow_get(pinfo, proto_godot, FALSE);
    if (f && f->putvar) return FALSE;
    gboolean created = FALSE;
    if (!fs) {
        if (PINFO_FD_VISITED(pinfo)) return FALSE;
        if (!f) {
            /* the server's first binary message tells the client its id (gdw_godot_ws_client_id) */
            gint32 id;
            gdw_multiplayer layer;
            if (!pref_heuristic || !gdw_godot_ws_client_id(bytes, len, &id, &layer)) return FALSE;
            f = flow_get(pinfo, proto_godot, TRUE);
            flow_set_client(f, &pinfo->dst, pinfo->destport);
            f->dialect = forced_dialect ? forced_dialect : gdw_godot_dialect_of(layer);
            f->client_id = id;
        }
        fs = wmem_new0(wmem_file_scope(), frame_state);
        p_add_proto_data(wmem_file_scope(), pinfo, proto_godot, key, fs);
        fs->ws_id = !f->ws_id_seen;
        f->ws_id_seen = TRUE;
        created = TRUE;
        fs->dir = (uint8_t)flow_dir(f, pinfo);
        fs->dialect = f->dialect;
        fs->client_id = f->client_id;
        flow_group(f, pinfo);
    }
    dctx c = {pinfo, f, fs, created, 0, 0, "websocket"};
    if (fs->ws_id) {
        proto_item *ti = proto_tree_add_item(tree, proto_godot, tvb, 0, -1, ENC_NA);
        proto_tree *t = proto_item_add_subtree(ti, ett_godot);
        gint at = (gint)len - 4; /* the id ends the message: after Godot 3's header, or alone */
        gint32 id = (gint32)tvb_get_letohl(tvb, at);
        if (at) proto_tree_add_item(t, hf_godot_ws_type, tvb, 0, 1, ENC_NA);
        proto_tree_add_item(t, hf_godot_client_id, tvb, at, 4, ENC_LITTLE_ENDIAN);
        proto_item_append_text(ti, ", the client's peer id %d", id);
        col_set_str(pinfo->cinfo, COL_PROTOCOL, "Godot");
        col_add_fstr(pinfo->cinfo, COL_INFO, "the client's peer id %d", id);
        return TRUE;
    }
    gdw_godot_packet gp;
    gdw_godot_ws_message(fs->dialect, fs->dir, fs->client_id, bytes, len, &gp);
    godot_packet(&c, tree, tvb, fs->dir, "reliable", fs->dialect, &gp);
    return TRUE;
}

/* ---- plain TCP: put_var frames (session/stream.c's rules) ------------------------------------------------ */

static dissector_handle_t putvar_handle;

static guint64 all_dialects(void) {
    size_t n = gdw_dialect_count();
    return n >= 64 ? ~(guint64)0 : (((guint64)1 << n) - 1);
}

/* The dialect a frame's value is read in, the flow's candidates narrowed by it (first pass). FALSE: the flow's
 * first frame is no whole Variant. */
static gboolean stream_dialect(godot_flow *f, const uint8_t *value, size_t len) {
    if (forced_dialect) {
        f->dialect = forced_dialect, f->stream_started = TRUE;
        return TRUE;
    }
    if (!f->stream_started) f->stream_dialects = all_dialects();
    if (f->stream_started && ((f->stream_dialects & (f->stream_dialects - 1)) == 0 || f->stream_frames >= GDW_STREAM_NARROW_FRAMES)) return TRUE;
    const gdw_dialect *first;
    guint64 whole = gdw_stream_readers(value, len, f->stream_dialects, NULL, NULL, &first);
    f->stream_frames++;
    if (!whole) return f->stream_started;
    f->stream_dialects = whole, f->stream_started = TRUE;
    f->dialect = first;
    return TRUE;
}

static guint putvar_pdu_len(packet_info *pinfo _U_, tvbuff_t *tvb, int offset, void *data _U_) {
    guint32 len = tvb_get_letohl(tvb, offset);
    if (len > pref_max_packet) return (guint)tvb_reported_length_remaining(tvb, offset); /* not read: the rest is skipped */
    return len + 4;
}

static int dissect_putvar_pdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data) {
    godot_flow *f = data;
    guint32 key = ws_message_key(pinfo);
    frame_state *fs = p_get_proto_data(wmem_file_scope(), pinfo, proto_godot, key);
    gboolean first = !fs && !PINFO_FD_VISITED(pinfo);
    guint len = tvb_reported_length(tvb);
    if (!fs && !first) return (int)len;
    guint32 vlen = tvb_get_letohl(tvb, 0);
    /* the value's bytes (an empty frame's: an empty buffer, never NULL, which the codec's readers do not take) */
    const uint8_t *vbytes = vlen + 4 == len ? tvb_get_ptr(tvb, 4, (gint)vlen) : NULL;
    if (!vbytes || !vlen) vbytes = (const uint8_t *)"";
    if (first) {
        fs = wmem_new0(wmem_file_scope(), frame_state);
        p_add_proto_data(wmem_file_scope(), pinfo, proto_godot, key, fs);
        fs->ws_id = f->stream_off || vlen > pref_max_packet || vlen + 4 != len ||
                    !stream_dialect(f, vbytes, vlen); /* ws_id here: the frame is not read */
        if (fs->ws_id) f->stream_off = TRUE;
        fs->dialect = f->dialect;
    }
    proto_tree_add_item(tree, hf_godot_frame_length, tvb, 0, 4, ENC_LITTLE_ENDIAN);
    if (fs->ws_id) {
        proto_item *ti = proto_tree_add_item(tree, proto_godot, tvb, 0, -1, ENC_NA);
        expert_add_info_format(pinfo, ti, &ei_godot_header, "a put_var frame past the flow's end: a length over the max_packet preference, or a "
                               "first frame that is no whole Variant; the rest of the flow is not read");
        return (int)len;
    }
    tvbuff_t *value = tvb_new_subset_length(tvb, 4, (gint)vlen);
    gdw_mp_parsed p;
    memset(&p, 0, sizeof p);
    if (gdw_mp_parse_var(vbytes, vlen, fs->dialect, NULL, &p) == GDW_OK) {
        dctx c = {pinfo, f, fs, first, 0, 0, "tcp"};
        delivery dv = {0, 0, "reliable"};
        proto_item *ti = NULL;
        show_message(&c, tree, value, &dv, &p, fs->dialect, 0, 0, NULL, FALSE, &ti);
        const gdw_mp_value *v = &p.values[0];
        if (v->status == GDW_OK && v->length < vlen)
            expert_add_info_format(pinfo, ti, &ei_godot_value, "a put_var frame of %u bytes whose value takes %zu: the engine's get_var ignores the other %zu",
                                   vlen, v->length, vlen - v->length);
    }
    gdw_mp_parsed_free(&p);
    return (int)len;
}

static int dissect_putvar(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_) {
    godot_flow *f = flow_get(pinfo, proto_godot, FALSE);
    if (!f || !f->putvar) return 0;
    tcp_dissect_pdus(tvb, pinfo, tree, TRUE, 4, putvar_pdu_len, dissect_putvar_pdu, f);
    return (int)tvb_captured_length(tvb);
}

/* A TCP flow whose first data is a 4-byte length, then exactly one whole Variant (not an HTTP request or answer). */
static gboolean dissect_putvar_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data) {
    struct tcpinfo *ti = data;
    guint n = tvb_captured_length(tvb);
    if (!pref_heuristic || !ti || ti->seq != 1 || flow_get(pinfo, proto_godot, FALSE)) return FALSE;
    if (tvb_memeql(tvb, 0, (const guint8 *)"GET ", 4) == 0 || tvb_memeql(tvb, 0, (const guint8 *)"HTTP", 4) == 0) return FALSE;
    if (n < 4) return FALSE;
    guint32 len = tvb_get_letohl(tvb, 0);
    if (len == 0 || len > pref_max_packet) return FALSE;
    if (len + 4 > n) {
        /* the first frame in several segments (the engine writes its length first): put together, then tried again */
        if (len > 65536 || !pinfo->can_desegment) return FALSE;
        pinfo->desegment_offset = 0;
        pinfo->desegment_len = len + 4 - n;
        return TRUE;
    }
    const gdw_dialect *first;
    if (!gdw_stream_readers(tvb_get_ptr(tvb, 4, (gint)len), len, all_dialects(), NULL, NULL, &first)) return FALSE;
    godot_flow *f = flow_get(pinfo, proto_godot, TRUE);
    f->putvar = TRUE;
    conversation_set_dissector(find_or_create_conversation(pinfo), putvar_handle);
    return dissect_putvar(tvb, pinfo, tree, data) > 0;
}

/* ---- registration --------------------------------------------------------------------------------------- */

static void godot_prefs_apply(void) {
    forced_dialect = pref_dialect && pref_dialect[0] ? gdw_dialect_find(pref_dialect) : NULL;
    if (pref_dialect && pref_dialect[0] && (!forced_dialect || gdw_dialect_rule(forced_dialect, GDW_RULE_MULTIPLAYER) == GDW_MULTIPLAYER_NONE)) {
        report_failure("Godot: the dialect '%s' is unknown or its multiplayer layer is not read (godot4, godot4.3, godot4-double, godot3, godot3@3.2 are)",
                       pref_dialect);
        forced_dialect = NULL;
    }
    if (!names) names = g_array_new(FALSE, TRUE, sizeof(name_entry));
    names_clear();
    if (pref_names && pref_names[0]) names_load_tsv(pref_names);
    if (pref_manifest && pref_manifest[0]) names_load_manifest(pref_manifest);
}

static void godot_shutdown(void) {
    gdw_mp_parsed_free(&parsers[0]);
    gdw_mp_parsed_free(&parsers[1]);
    names_clear();
    if (names) g_array_free(names, TRUE);
    names = NULL;
}

static void proto_register_godot(void) {
    static hf_register_info hf_enet[] = {
        {&hf_enet_peer_id, {"Peer id", "enet.peer_id", FT_UINT16, BASE_DEC, NULL, 0, "The receiving peer's id (0xFFF: none yet)", HFILL}},
        {&hf_enet_session_id, {"Session id", "enet.session_id", FT_UINT8, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_compressed, {"Compressed", "enet.compressed", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_sent_time, {"Sent time", "enet.sent_time", FT_UINT16, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_compression, {"Compression", "enet.compression", FT_UINT8, BASE_DEC, VALS(enet_compression_vals), 0,
                                "How this side's compressed datagrams were found to be compressed", HFILL}},
        {&hf_enet_command, {"Command", "enet.command", FT_UINT8, BASE_DEC, VALS(enet_command_vals), 0, NULL, HFILL}},
        {&hf_enet_acknowledge, {"Acknowledge", "enet.acknowledge", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_unsequenced, {"Unsequenced", "enet.unsequenced", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_channel, {"Channel", "enet.channel", FT_UINT8, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_reliable_seq, {"Reliable sequence number", "enet.reliable_seq", FT_UINT16, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_unreliable_seq, {"Unreliable sequence number", "enet.unreliable_seq", FT_UINT16, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_data_length, {"Data length", "enet.data_length", FT_UINT16, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_data, {"Data", "enet.data", FT_BYTES, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_connect_data, {"Connect data (Godot peer id)", "enet.connect_data", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_retransmit, {"Retransmit", "enet.retransmit", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_frag_start_seq, {"Fragment start sequence number", "enet.frag.start_seq", FT_UINT16, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_frag_count, {"Fragment count", "enet.frag.count", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_frag_number, {"Fragment number", "enet.frag.number", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_frag_total, {"Total length", "enet.frag.total", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_frag_offset, {"Fragment offset", "enet.frag.offset", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragments, {"Fragments", "enet.fragments", FT_NONE, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment, {"Fragment", "enet.fragment", FT_FRAMENUM, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment_overlap, {"Fragment overlap", "enet.fragment.overlap", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment_overlap_conflicts, {"Conflicting data in fragment overlap", "enet.fragment.overlap.conflicts", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment_multiple_tails, {"Multiple tail fragments found", "enet.fragment.multipletails", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment_too_long, {"Fragment too long", "enet.fragment.toolongfragment", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment_error, {"Defragmentation error", "enet.fragment.error", FT_FRAMENUM, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_fragment_count, {"Fragment count", "enet.fragment.count", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_enet_reassembled_in, {"Reassembled in", "enet.reassembled.in", FT_FRAMENUM, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_enet_reassembled_length, {"Reassembled length", "enet.reassembled.length", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
    };
    static hf_register_info hf_godot[] = {
        {&hf_godot_dialect, {"Dialect", "godot.dialect", FT_STRING, BASE_NONE, NULL, 0, "gdwire's name of the flow's wire format", HFILL}},
        {&hf_godot_transport, {"Transport", "godot.transport", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_command, {"Command", "godot.command", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_from, {"From peer", "godot.peer.from", FT_INT64, BASE_DEC, NULL, 0, "Godot peer id (1: the server; 0: unknown)", HFILL}},
        {&hf_godot_to, {"To peer", "godot.peer.to", FT_INT64, BASE_DEC, NULL, 0, "Godot peer id (0: everyone, -N: everyone but N)", HFILL}},
        {&hf_godot_relayed, {"Relayed", "godot.relayed", FT_BOOLEAN, BASE_NONE, NULL, 0, "It travelled through the server", HFILL}},
        {&hf_godot_channel, {"Transfer channel", "godot.channel", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_mode, {"Transfer mode", "godot.mode", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_header_source, {"Header source", "godot.header.source", FT_INT32, BASE_DEC, NULL, 0, "Godot 3's header: the sender", HFILL}},
        {&hf_godot_header_target, {"Header target", "godot.header.target", FT_INT32, BASE_DEC, NULL, 0, "Godot 3's header: 0 everyone, -N everyone but N", HFILL}},
        {&hf_godot_ws_type, {"WebSocket message type", "godot.ws.type", FT_UINT8, BASE_DEC, NULL, 0, "Godot 3: 0 packet, 1 peer added, 2 removed, 3 the id", HFILL}},
        {&hf_godot_frame_length, {"put_var frame length", "godot.frame_length", FT_UINT32, BASE_DEC, NULL, 0, "Plain TCP: the value's bytes that follow", HFILL}},
        {&hf_godot_client_id, {"Client's peer id", "godot.client_id", FT_INT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_node_path, {"Node path", "godot.node_path", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_node_id, {"Node id", "godot.node_id", FT_INT64, BASE_DEC, NULL, 0, "The path-cache id (-1: the path is inline)", HFILL}},
        {&hf_godot_inline_path, {"Inline path", "godot.inline_path", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_method_id, {"Method id", "godot.method_id", FT_INT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_method, {"Method", "godot.method", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_md5, {"RPC list MD5", "godot.md5", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_checksum_valid, {"Checksum valid", "godot.checksum_valid", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_net_id, {"Net id", "godot.net_id", FT_INT64, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_scene_id, {"Scene id", "godot.scene_id", FT_INT32, BASE_DEC, NULL, 0, "255: a custom spawn", HFILL}},
        {&hf_godot_name, {"Node name", "godot.name", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_sync_time, {"Sync time", "godot.sync_time", FT_UINT16, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_peer, {"Peer", "godot.peer", FT_INT64, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_payload, {"Payload", "godot.payload", FT_BYTES, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant, {"Variant", "godot.variant", FT_NONE, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant_label, {"Label", "godot.variant.label", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant_index, {"Index", "godot.variant.index", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant_type, {"Type", "godot.variant.type", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant_encoding, {"Encoding", "godot.variant.encoding", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant_net_id, {"Synchronizer net id", "godot.variant.net_id", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL}},
        {&hf_godot_variant_props, {"Properties sent (mask)", "godot.variant.props", FT_UINT64, BASE_HEX, NULL, 0, NULL, HFILL}},
        {&hf_godot_arg, {"Value", "godot.arg", FT_STRING, BASE_NONE, NULL, 0, "The value's canonical text (gdwire's)", HFILL}},
        {&hf_godot_variant_item, {"Item", "godot.variant.item", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL}},
    };
    static gint *ett[] = {&ett_enet, &ett_enet_command, &ett_enet_fragment, &ett_enet_fragments, &ett_godot, &ett_godot_variant};
    static ei_register_info ei_enet[] = {
        {&ei_enet_commands, {"enet.commands.bad", PI_MALFORMED, PI_ERROR, "The rest of the datagram is not whole ENet commands", EXPFILL}},
        {&ei_enet_compressed, {"enet.compressed.unread", PI_UNDECODED, PI_WARN, "A compressed datagram not read", EXPFILL}},
        {&ei_enet_fragment, {"enet.fragment.bad", PI_MALFORMED, PI_ERROR, "A fragment that cannot be", EXPFILL}},
        {&ei_enet_retransmit, {"enet.retransmit.seen", PI_SEQUENCE, PI_NOTE, "A reliable command seen before: ENet drops it", EXPFILL}},
        {&ei_enet_connect, {"enet.connect.ignored", PI_PROTOCOL, PI_WARN, "A CONNECT ENet ignores", EXPFILL}},
    };
    static ei_register_info ei_godot[] = {
        {&ei_godot_parse, {"godot.parse", PI_MALFORMED, PI_ERROR, "A multiplayer packet that does not parse", EXPFILL}},
        {&ei_godot_value, {"godot.variant.bad", PI_MALFORMED, PI_WARN, "A value that does not decode", EXPFILL}},
        {&ei_godot_path, {"godot.node_path.unknown", PI_SEQUENCE, PI_NOTE, "A path-cache id no SIMPLIFY_PATH named", EXPFILL}},
        {&ei_godot_header, {"godot.header.bad", PI_MALFORMED, PI_ERROR, "A transport header of Godot's that is not one", EXPFILL}},
    };
    proto_enet = proto_register_protocol("ENet (Godot)", "ENet", "enet");
    proto_godot = proto_register_protocol("Godot multiplayer", "Godot", "godot");
    proto_register_field_array(proto_enet, hf_enet, array_length(hf_enet));
    proto_register_field_array(proto_godot, hf_godot, array_length(hf_godot));
    proto_register_subtree_array(ett, array_length(ett));
    expert_register_field_array(expert_register_protocol(proto_enet), ei_enet, array_length(ei_enet));
    expert_register_field_array(expert_register_protocol(proto_godot), ei_godot, array_length(ei_godot));
    register_dissector("enet", dissect_enet, proto_enet);
    putvar_handle = register_dissector("godot.putvar", dissect_putvar, proto_godot);
    reassembly_table_register(&enet_reassembly, &addresses_ports_reassembly_table_functions);
    register_init_routine(groups_init);
    register_cleanup_routine(groups_cleanup);
    register_shutdown_routine(godot_shutdown);

    module_t *m = prefs_register_protocol(proto_godot, godot_prefs_apply);
    prefs_register_bool_preference(m, "heuristic", "Find Godot traffic by itself",
                                   "Try every UDP datagram for ENet (a Godot CONNECT, or a verified header) and every WebSocket flow for "
                                   "Godot's first message (the client's peer id)", &pref_heuristic);
    prefs_register_filename_preference(m, "names_file", "Method names file",
                                       "gdwire capture --names' file: rpc<TAB>node path<TAB>method id<TAB>name lines "
                                       "(tools/capture/gdwire_names.gd writes it)", &pref_names, FALSE);
    prefs_register_filename_preference(m, "manifest", "Project manifest", "An RPC manifest saved with gdwire rpc --json (docs/rpc-manifest.md)",
                                       &pref_manifest, FALSE);
    prefs_register_string_preference(m, "dialect", "Dialect to force", "A gdwire dialect name (godot4, godot4.3, godot3, godot3@3.2, ...); empty: detected per flow",
                                     &pref_dialect);
    range_convert_str(wmem_epan_scope(), &pref_ports, "", 65535);
    prefs_register_range_preference(m, "udp.ports", "ENet UDP ports", "UDP ports always read as ENet (besides the heuristic and Decode As)",
                                    &pref_ports, 65535);
    prefs_register_uint_preference(m, "max_packet", "Largest reassembled packet (bytes)", "ENet's own limit is 32 MiB (gdwire capture --max-packet)",
                                   10, &pref_max_packet);
    prefs_register_uint_preference(m, "max_paths", "Path-cache entries per server", "gdwire capture --max-paths", 10, &pref_max_paths);
    prefs_register_uint_preference(m, "max_path_bytes", "Path-cache bytes per server", "gdwire capture --max-path-bytes", 10, &pref_max_path_bytes);
}

static void proto_reg_handoff_godot(void) {
    static gboolean done;
    static range_t *ports_now;
    dissector_handle_t enet = find_dissector("enet");
    if (!done) {
        dissector_add_for_decode_as("udp.port", enet);
        heur_dissector_add("udp", dissect_enet_heur, "ENet over UDP (Godot)", "enet_udp", proto_enet, HEURISTIC_ENABLE);
        heur_dissector_add("tcp", dissect_putvar_heur, "Godot put_var frames over TCP", "godot_putvar", proto_godot, HEURISTIC_ENABLE);
        heur_dissector_add("ws", dissect_godot_ws, "Godot over WebSocket", "godot_ws", proto_godot, HEURISTIC_ENABLE);
        done = TRUE;
    } else if (ports_now) {
        dissector_delete_uint_range("udp.port", ports_now, enet);
        wmem_free(wmem_epan_scope(), ports_now);
    }
    ports_now = range_copy(wmem_epan_scope(), pref_ports);
    dissector_add_uint_range("udp.port", ports_now, enet);
    godot_prefs_apply();
}

void plugin_register(void) {
    static proto_plugin plug;
    plug.register_protoinfo = proto_register_godot;
    plug.register_handoff = proto_reg_handoff_godot;
    proto_register_plugin(&plug);
}

/* SPDX-License-Identifier: MIT
 * message_text.c — a parsed message's one line of text (gdw_mp_message_text): the line `gdwire capture` prints
 * after a message's peers and channel, and the Wireshark plugin's Info column. One definition for both. */
#include "gdwire_session.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void put_s(const gdw_mp_text_out *o, const char *s) { o->put(o->ctx, s, strlen(s)); }

/* Numbers and short fixed words only: a value's text and text off the wire go through put_s and put_shown. */
static void put_f(const gdw_mp_text_out *o, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) o->put(o->ctx, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* Text off the wire (a node path, a name, an MD5) or a caller's name, what a terminal would act on escaped as
 * gdw_text_show says: \uXXXX for a code point, \xHH for a byte that is not UTF-8, and a backslash as \x5c. */
static void put_shown(const gdw_mp_text_out *o, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; s && i < n;) {
        gdw_show how;
        uint32_t cp;
        size_t k = gdw_text_show(p + i, n - i, &how, &cp);
        if (how == GDW_SHOW_AS_IS && p[i] != '\\' && k) {
            o->put(o->ctx, s + i, k);
        } else if (how == GDW_SHOW_CODE_POINT && k) {
            put_f(o, "\\u%04x", (unsigned)cp);
        } else {
            char e[4] = {'\\', 'x', hex[p[i] >> 4], hex[p[i] & 15]};
            o->put(o->ctx, e, 4);
            k = 1;
        }
        i += k;
    }
}

static void put_shown_z(const gdw_mp_text_out *o, const char *s) { put_shown(o, s, s ? strlen(s) : 0); }

static void put_path(const gdw_mp_text_out *o, const char *path) {
    if (path) put_shown_z(o, path);
    else put_s(o, "(path unknown)");
}

/* The first 32 bytes of a RAW's or an AUTH's payload in hex, "..." when there are more. */
static void put_payload(const gdw_mp_text_out *o, const uint8_t *p, size_t n) {
    put_f(o, " %zu bytes ", n);
    for (size_t i = 0; i < n && i < 32; i++) put_f(o, "%02x", p[i]);
    if (n > 32) put_s(o, "...");
}

/* The command's own fields. */
static void put_command(const gdw_mp_parsed *p, const char *path, const gdw_mp_text_out *o) {
    switch (p->command) {
    case GDW_MP_RSET:
    case GDW_MP_RPC:
        put_s(o, " ");
        put_path(o, path);
        if (p->as.rpc.path) put_s(o, " (inline)");
        if (p->as.rpc.method) { /* Godot 3: the name travels */
            put_s(o, " ");
            put_shown(o, p->as.rpc.method, p->as.rpc.method_len);
        } else {
            const char *name = o->method_name ? o->method_name(o->ctx, path, p->as.rpc.method_id) : NULL;
            put_f(o, " method %d", p->as.rpc.method_id);
            if (name) put_s(o, " "), put_shown_z(o, name);
        }
        break;
    case GDW_MP_SIMPLIFY_PATH:
        put_f(o, " %lld = ", (long long)p->as.path.node_id);
        put_shown(o, p->as.path.path, p->as.path.path_len);
        if (p->as.path.md5[0]) put_s(o, ", rpc md5 "), put_shown_z(o, p->as.path.md5); /* Godot 4 only */
        break;
    case GDW_MP_CONFIRM_PATH:
        if (p->as.path.path) put_s(o, " "), put_shown(o, p->as.path.path, p->as.path.path_len); /* Godot 3 confirms the path */
        else put_f(o, " %lld, %s", (long long)p->as.path.node_id, p->as.path.checksum_valid ? "methods match" : "methods differ");
        break;
    case GDW_MP_SPAWN:
        put_f(o, " net %lld \"", (long long)p->as.spawn.net_id);
        put_shown(o, p->as.spawn.name, p->as.spawn.name_len);
        put_s(o, "\" by spawner ");
        put_path(o, path);
        put_s(o, p->as.spawn.scene_id == 255 ? ", custom" : ", scene");
        if (p->as.spawn.scene_id != 255) put_f(o, " %d", p->as.spawn.scene_id);
        break;
    case GDW_MP_DESPAWN: put_f(o, " net %lld", (long long)p->as.despawn.net_id); break;
    case GDW_MP_SYNC: put_f(o, " time %u", p->as.sync.time); break;
    case GDW_MP_SYS_ADD_PEER:
    case GDW_MP_SYS_DEL_PEER: put_f(o, " %lld", (long long)p->as.sys.peer); break;
    case GDW_MP_RAW: put_payload(o, p->as.raw.payload, p->as.raw.payload_len); break;
    case GDW_MP_SYS_AUTH: put_payload(o, p->as.sys.payload, p->as.sys.payload_len); break;
    default: break;
    }
}

void gdw_mp_message_text(const gdw_mp_parsed *p, const char *path, const gdw_mp_text_out *o) {
    if (!p || !o || !o->put) return;
    put_s(o, gdw_mp_command_name(p->command));
    put_command(p, path, o);
    if (o->after_command) o->after_command(o->ctx, p, path);
    /* the values, in groups: a label (and a SYNC's synchronizer, a delta's properties) opens one */
    uint32_t net = UINT32_MAX;
    const char *label = NULL;
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        if (!label || strcmp(label, v->label) != 0 || net != v->net_id) {
            if (label) put_s(o, ")");
            if (p->command == GDW_MP_SYNC || p->command == GDW_MP_DELTA) put_f(o, " net %u", v->net_id);
            if (p->command == GDW_MP_DELTA) put_f(o, " props 0x%llx", (unsigned long long)v->indexes);
            if (strcmp(v->label, "arg") != 0 && strcmp(v->label, "state") != 0) put_s(o, " "), put_s(o, v->label);
            put_s(o, " (");
            label = v->label, net = v->net_id;
        } else {
            put_s(o, ", ");
        }
        if (v->status != GDW_OK) {
            put_f(o, "<%s at byte %zu: ", gdw_status_name(v->status), v->offset + v->error.offset);
            put_s(o, v->error.message ? v->error.message : "");
            put_s(o, ">");
            continue;
        }
        /* one line a message: a long value shows its start and its size */
        char head[GDW_MP_TEXT_HEAD + 2];
        size_t n = gdw_text_print_head(v->value, head, sizeof head);
        if (n <= GDW_MP_TEXT_HEAD) {
            put_s(o, head);
        } else {
            o->put(o->ctx, head, GDW_MP_TEXT_HEAD);
            put_f(o, "... (%zu bytes)", v->length);
        }
        if (o->after_value) o->after_value(o->ctx, p, v);
    }
    if (label) put_s(o, ")");
    else if (p->command == GDW_MP_RPC) put_s(o, " ()");
}

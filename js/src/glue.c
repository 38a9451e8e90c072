/* SPDX-License-Identifier: MIT */
/* glue.c — what the JavaScript layer (js/src/: wasm.js loads it, read.js, write.js, check.js and session.js read it) needs from the C library beyond its public calls,
 * compiled with it to WebAssembly (js/build.sh): the byte layout of the value structs the layer reads
 * straight from the WebAssembly memory (gdw_value and the records it points to, from codec/gdwire.h), so
 * the layer takes offsets from the compiler instead of hard-coding them, and one-call decode / check
 * entry points that return their results in a small record; and sessions (session/gdwire_session.h) and the
 * capture-file reader (session/gdwire_pcap.h), whose events the layer reads during the feed (gdwjs_session_event). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "codec/gdwire_check.h"
#include "session/gdwire_pcap.h"
#include "project/gdwire_project.h"
#include "session/gdwire_session.h"

#include <arpa/inet.h>

#define EXPORT __attribute__((used, visibility("default")))

/* The layout, as pairs the layer checks by name (wasm.js LAYOUT_NAMES). */
EXPORT void gdwjs_layout(uint32_t *out) {
    uint32_t k[] = {
        sizeof(gdw_value), offsetof(gdw_value, type), offsetof(gdw_value, width), offsetof(gdw_value, flags),
        offsetof(gdw_value, len), offsetof(gdw_value, u),
        sizeof(gdw_str), offsetof(gdw_str, ptr), offsetof(gdw_str, len),
        sizeof(gdw_typedesc), offsetof(gdw_typedesc, kind), offsetof(gdw_typedesc, builtin), offsetof(gdw_typedesc, id_only),
        offsetof(gdw_typedesc, wire_id), offsetof(gdw_typedesc, name),
        offsetof(gdw_container, key), offsetof(gdw_container, elem), offsetof(gdw_container, items),
        offsetof(gdw_nodepath, name_count), offsetof(gdw_nodepath, subname_count), offsetof(gdw_nodepath, flags),
        offsetof(gdw_nodepath, parts),
        offsetof(gdw_object, class_name), offsetof(gdw_object, props),
        offsetof(gdw_signal, name), offsetof(gdw_signal, object_id),
        offsetof(gdw_image, format), offsetof(gdw_image, mipmaps), offsetof(gdw_image, width), offsetof(gdw_image, height),
        offsetof(gdw_image, data),
        offsetof(gdw_input_event, type), offsetof(gdw_input_event, device), offsetof(gdw_input_event, llen),
        offsetof(gdw_input_event, extra_count), offsetof(gdw_input_event, extra),
        offsetof(gdw_error, code), offsetof(gdw_error, offset), offsetof(gdw_error, value_offset),
        offsetof(gdw_error, engine_error), offsetof(gdw_error, message), offsetof(gdw_error, path), sizeof(gdw_error),
        GDW_TYPE_COUNT,
        /* what the layer takes from the library instead of restating it (wasm.js): the value flags, the depth limit,
         * the session caps' limits, the type descriptors' kinds, the framings' default bound */
        GDW_VF_INT64_WIRE, GDW_VF_SHARED, GDW_VF_OBJECT_ID, GDW_VF_OBJECT_NULL, GDW_VF_RID_ID, GDW_VF_TYPED, GDW_VF_APPROXIMATE,
        GDW_HARD_MAX_DEPTH, GDW_SESSION_MAX_FLOWS_LIMIT, GDW_SESSION_MAX_CACHED_PATHS_LIMIT,
        GDW_DESC_NONE, GDW_DESC_BUILTIN, GDW_DESC_CLASS, GDW_DESC_SCRIPT, GDW_FRAME_MAX_DEFAULT,
    };
    memcpy(out, k, sizeof k);
}

/* One decode: the document (free with gdw_doc_free), or NULL and the error in *err; *consumed the bytes
 * the value used. mode: gdw_mode; the input is borrowed (it must outlive the document). */
EXPORT gdw_doc *gdwjs_decode(const gdw_dialect *d, const uint8_t *buf, size_t len, int mode, int allow_objects, unsigned max_depth,
                             size_t *consumed, gdw_error *err) {
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = (gdw_mode)mode;
    o.allow_objects = allow_objects != 0;
    o.max_depth = max_depth;
    o.borrow_input = true;
    gdw_doc *doc = NULL;
    if (gdw_decode(d, buf, len, &o, NULL, &doc, consumed, err) != GDW_OK) return NULL;
    return doc;
}

/* One encode of the value a builder holds (gdw_build_*: the layer builds it call by call): the bytes (free
 * with free) and their length in *out_len, or NULL and the error in *err. The builder is empty after. */
EXPORT uint8_t *gdwjs_build_encode(gdw_builder *b, const gdw_dialect *d, int lossy, size_t *out_len, gdw_error *err) {
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy != 0;
    eo.keep_float_width = true;
    uint8_t *out = NULL;
    if (gdw_build_encode(b, d, &eo, NULL, &out, out_len, err) != GDW_OK) return NULL;
    return out;
}

/* A value given as the JSON form, added to the builder as one value (a type the layer does not build call
 * by call): GDW_OK, or the parse's error in *err. */
EXPORT int gdwjs_build_json(gdw_builder *b, const char *json, size_t len, gdw_error *err) {
    gdw_doc *doc = NULL;
    gdw_status s = gdw_json_parse(json, len, NULL, &doc, err);
    if (s == GDW_OK) gdw_build_value(b, gdw_doc_root(doc)); /* a failure is the builder's, reported when it encodes */
    gdw_doc_free(doc);
    return (int)s;
}

/* check: the library's whole answer (gdw_check_report_make: its ranking, reasons and sentence, as `gdwire check` prints
 * them). Every dialect's verdict into rows of 10 words (check.js CHECK_ROW): dialect row pointer, status, consumed,
 * strict (reencodes_same), engine_exact, rank, misread-looking reals, reading (gdw_reading), first, short_by; the error
 * records into errs, each row's reason into reasons (CHECK_REASON bytes a row, NUL-terminated), the summary and
 * the framing text and the script call into text (CHECK_TEXT bytes: the summary, then from CHECK_SUMMARY the framing, from CHECK_SCRIPT the script call), the named first
 * choice's index into *best and the bytes in front of the value the rows read into *skip. Returns the rows, 0 when
 * out of memory or cap is too small. */
#define CHECK_REASON 256
#define CHECK_SUMMARY 640
#define CHECK_SCRIPT (CHECK_SUMMARY + 80)
#define CHECK_TEXT (CHECK_SCRIPT + 384)
EXPORT size_t gdwjs_check(const uint8_t *buf, size_t len, int allow_objects, uint32_t *rows, gdw_error *errs, char *reasons, char *text, size_t cap,
                          uint32_t *best, uint32_t *skip) {
    size_t n = gdw_dialect_count();
    if (n > cap) return 0;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = allow_objects != 0;
    gdw_check_report *rep = gdw_check_report_make(buf, len, &o, NULL);
    if (!rep) return 0;
    *best = (uint32_t)rep->best;
    *skip = (uint32_t)rep->skip;
    for (size_t i = 0; i < n; i++) {
        const gdw_check_row *row = &rep->rows[i];
        const gdw_check_result *r = &row->result;
        uint32_t *w = rows + 10 * i;
        w[0] = (uint32_t)(uintptr_t)r->dialect;
        w[1] = (uint32_t)r->status;
        w[2] = (uint32_t)r->consumed;
        w[3] = r->status == GDW_OK && r->reencodes_same;
        w[4] = r->status == GDW_OK && r->engine_exact;
        w[5] = (uint32_t)row->rank;
        w[6] = r->status == GDW_OK ? (uint32_t)row->misread : 0;
        w[7] = (uint32_t)row->reading;
        w[8] = row->first;
        w[9] = r->status == GDW_OK ? 0 : (uint32_t)r->err.short_by;
        errs[i] = r->err;
        snprintf(reasons + CHECK_REASON * i, CHECK_REASON, "%s", row->reason);
    }
    snprintf(text, CHECK_SUMMARY, "%s", rep->summary);
    gdw_check_framing_text(buf, len, rep->skip, text + CHECK_SUMMARY, CHECK_SCRIPT - CHECK_SUMMARY);
    snprintf(text + CHECK_SCRIPT, CHECK_TEXT - CHECK_SCRIPT, "%s", rep->script);
    gdw_check_report_free(rep);
    return n;
}

/* ---- explain, the text forms and pasted input (the page, web/, and read.js explain / toText) -------------- */

/* explain's fields, as rows of EXPLAIN_ROW words (read.js EXPLAIN_ROW): offset, size, depth, type, the field's
 * name (a C string of the library's), and the offsets in the text pool of what its bytes say
 * (gdw_trace_field_text) and of its path; at most max_rows rows, the rest counted in omitted. */
enum { EXPLAIN_ROW = 7 };
typedef struct gdwjs_explain_run {
    const uint8_t *buf;
    uint32_t *rows;
    size_t n, cap, max_rows, omitted;
    char *pool;
    size_t pool_len, pool_cap;
    int nomem;
} gdwjs_explain_run;

static size_t pool_add(gdwjs_explain_run *x, const char *s, size_t len) {
    if (x->pool_len + len + 1 > x->pool_cap) {
        size_t cap = x->pool_cap ? x->pool_cap * 2 : 4096;
        while (cap < x->pool_len + len + 1) cap *= 2;
        char *p = (char *)realloc(x->pool, cap);
        if (!p) { x->nomem = 1; return 0; }
        x->pool = p;
        x->pool_cap = cap;
    }
    size_t at = x->pool_len;
    memcpy(x->pool + at, s, len);
    x->pool[at + len] = 0;
    x->pool_len += len + 1;
    return at;
}

static void explain_field(void *ctx, const gdw_trace_event *ev) {
    gdwjs_explain_run *x = (gdwjs_explain_run *)ctx;
    if (x->nomem) return;
    if (x->n >= x->max_rows) { x->omitted++; return; }
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 256;
        uint32_t *r = (uint32_t *)realloc(x->rows, cap * EXPLAIN_ROW * sizeof *r);
        if (!r) { x->nomem = 1; return; }
        x->rows = r;
        x->cap = cap;
    }
    char text[640];
    size_t len = gdw_trace_field_text(ev, x->buf, text, sizeof text);
    const char *path = ev->path ? ev->path : "";
    uint32_t *r = x->rows + EXPLAIN_ROW * x->n;
    r[0] = (uint32_t)ev->offset;
    r[1] = (uint32_t)ev->size;
    r[2] = ev->depth;
    r[3] = (uint32_t)ev->type;
    r[4] = (uint32_t)(uintptr_t)ev->field;
    r[5] = (uint32_t)pool_add(x, text, len);
    r[6] = (uint32_t)pool_add(x, path, strlen(path));
    x->n++;
}

/* One traced validation of buf (what `gdwire explain` prints): its status (the error in *err), and in out[0..5)
 * the rows, their count, the pool, the rows omitted and the bytes consumed. Free out[0] and out[2]. */
EXPORT int gdwjs_explain(const gdw_dialect *d, const uint8_t *buf, size_t len, int mode, int allow_objects, unsigned max_depth,
                         size_t max_rows, uint32_t *out, gdw_error *err) {
    gdwjs_explain_run x;
    memset(&x, 0, sizeof x);
    x.buf = buf;
    x.max_rows = max_rows;
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = (gdw_mode)mode;
    o.allow_objects = allow_objects != 0;
    o.max_depth = max_depth;
    o.trace = explain_field;
    o.trace_ctx = &x;
    size_t used = 0;
    gdw_status s = gdw_validate(d, buf, len, &o, &used, err);
    if (x.nomem) {
        free(x.rows);
        free(x.pool);
        memset(out, 0, 5 * sizeof *out);
        if (err) { memset(err, 0, sizeof *err); err->code = GDW_ERR_NOMEM; err->message = gdw_strerror(GDW_ERR_NOMEM); }
        return GDW_ERR_NOMEM;
    }
    out[0] = (uint32_t)(uintptr_t)x.rows;
    out[1] = (uint32_t)x.n;
    out[2] = (uint32_t)(uintptr_t)x.pool;
    out[3] = (uint32_t)x.omitted;
    out[4] = (uint32_t)used;
    return (int)s;
}

/* A decoded document's canonical text (which 0) or JSON form (which 1), NUL-terminated (free with free), its
 * length in *len; NULL when the memory runs out. */
EXPORT char *gdwjs_doc_text(const gdw_doc *doc, int which, size_t *len) {
    const gdw_value *v = gdw_doc_root(doc);
    return which ? gdw_json_print_alloc(v, NULL, len) : gdw_text_print_alloc(v, NULL, len);
}

/* A value given in the canonical text form (which 0) or the JSON form (which 1), encoded in d: the bytes (free
 * with free) and their length in *out_len, or NULL and the error in *err (a syntax error's offset is the text's). */
typedef struct gdwjs_narrowings { gdw_error *to; size_t cap, n; } gdwjs_narrowings;
static void note_narrowing(void *ctx, const gdw_error *e) {
    gdwjs_narrowings *w = (gdwjs_narrowings *)ctx;
    if (w->n < w->cap) w->to[w->n] = *e;
    w->n++;
}
/* With lossy, each place narrowed is a record in warnings[0..cap) (more are counted in *n_warnings). */
EXPORT uint8_t *gdwjs_text_encode(const gdw_dialect *d, const char *text, size_t len, int which, int lossy, size_t *out_len,
                                  gdw_error *err, gdw_error *warnings, size_t cap, size_t *n_warnings) {
    gdwjs_narrowings w = {warnings, cap, 0};
    *n_warnings = 0;
    gdw_doc *doc = NULL;
    gdw_status s = which ? gdw_json_parse(text, len, NULL, &doc, err) : gdw_text_parse(text, len, NULL, &doc, err);
    if (s != GDW_OK) return NULL;
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy != 0;
    eo.lossy_report = note_narrowing;
    eo.lossy_ctx = &w;
    uint8_t *out = NULL;
    s = gdw_encode_alloc(d, gdw_doc_root(doc), &eo, NULL, &out, out_len, err);
    gdw_doc_free(doc);
    *n_warnings = w.n;
    return s == GDW_OK ? out : NULL;
}

/* Pasted text to bytes, in place: hex (which 0), base64 (1) or byte values as people paste them (2). GDW_OK and
 * the length in *out_len, or the status, the offset in *bad_at and (for a dump) the reason in *why. */
EXPORT int gdwjs_untext(char *text, size_t len, int which, size_t *out_len, size_t *bad_at, const char **why) {
    *why = NULL;
    if (which == 0) return (int)gdw_hex_decode(text, len, (uint8_t *)text, out_len, bad_at);
    if (which == 2) return (int)gdw_dump_decode(text, len, (uint8_t *)text, out_len, bad_at, why);
    /* base64 grows nothing: n / 4 * 3 + 3 bytes may pass the text's end by up to 3, so decode to a copy */
    uint8_t *tmp = (uint8_t *)malloc(len / 4 * 3 + 3);
    if (!tmp) return GDW_ERR_NOMEM;
    gdw_status s = gdw_base64_decode(text, len, tmp, out_len, bad_at);
    if (s == GDW_OK) memcpy(text, tmp, *out_len);
    free(tmp);
    return (int)s;
}

/* ---- sessions and capture files (session/gdwire_session.h, session/gdwire_pcap.h; session.js Session, readCapture) -- */

/* The host's function (wasm.js imports.env.gdwjs_session_event, for session.js): called during a feed with each event as a record of
 * EV_SLOTS 64-bit words. A message's trees live only during the call (the session frees them after it), so the layer
 * reads the event there, as the Python extension builds its objects in the library's callback. */
__attribute__((import_module("env"), import_name("gdwjs_session_event"))) void gdwjs_session_event(const int64_t *rec);

/* The slots of an event record (session.js EV): a message's, then a problem's (which reuse the first ones) */
enum {
    EV_KIND, EV_FRAME, EV_FLOW, EV_TRANSPORT, EV_DIALECT, EV_FROM, EV_TO, EV_RELAYED, EV_CHANNEL, EV_MODE, EV_COMMAND, EV_PATH,
    EV_BYTES, EV_LEN, EV_VALUE_COUNT, EV_VALUES,
    /* the command's fields, as gdw_mp_parsed holds them (session.js picks those of the command) */
    EV_NODE_ID, EV_INLINE_PATH, EV_INLINE_LEN, EV_METHOD_ID, EV_METHOD, EV_METHOD_LEN, EV_MD5, EV_CHECKSUM, EV_NET_ID,
    EV_SCENE_ID, EV_NAME, EV_NAME_LEN, EV_SYNC_TIME, EV_PEER, EV_PAYLOAD, EV_PAYLOAD_LEN,
    EV_TIME, /* a double's bits */
    /* with a project (gdwjs_session_project): what gdw_rpc_annotate says of the message; EV_PROJECT 0 when nothing */
    EV_PROJECT, EV_PROJECT_METHOD, EV_ARGS_FIT, EV_REFUSED, EV_PROJECT_MD5,
    EV_SLOTS
};
enum { PR_LAYER = EV_TRANSPORT, PR_OFFSET, PR_MESSAGE };
/* A value's row: label, index, net id, indexes, offset, length, the gdw_value (0 when it did not decode), status,
 * the gdw_error, encoding (session.js VAL_SLOTS) */
enum { VAL_SLOTS = 10 };

typedef struct gdwjs_session {
    gdw_session *s;
    gdw_rpc_manifest *manifest; /* gdwjs_session_project: every message read against it */
    gdw_rpc_annotator *annotator;
    int64_t rec[EV_SLOTS];
    int64_t *vals; /* value rows, grown to the largest message */
    size_t cap;
} gdwjs_session;

static int64_t ptr_slot(const void *p) { return (int64_t)(uintptr_t)p; }

static void ev_time(gdwjs_session *w, double t) { memcpy(&w->rec[EV_TIME], &t, sizeof t); }

static void js_message(void *ctx, const gdw_message *m) {
    gdwjs_session *w = (gdwjs_session *)ctx;
    const gdw_mp_parsed *p = m->mp;
    int64_t *r = w->rec;
    memset(r, 0, sizeof w->rec);
    r[EV_KIND] = 0;
    r[EV_FRAME] = (int64_t)m->frame;
    r[EV_FLOW] = m->flow;
    r[EV_TRANSPORT] = ptr_slot(m->transport);
    r[EV_DIALECT] = ptr_slot(m->dialect);
    r[EV_FROM] = m->from;
    r[EV_TO] = m->to;
    r[EV_RELAYED] = m->relayed;
    r[EV_CHANNEL] = m->channel;
    r[EV_MODE] = ptr_slot(m->mode);
    r[EV_COMMAND] = p->command;
    r[EV_PATH] = ptr_slot(m->path);
    r[EV_BYTES] = ptr_slot(m->bytes);
    r[EV_LEN] = (int64_t)m->len;
    ev_time(w, m->time);
    switch (p->command) {
    case GDW_MP_RPC:
    case GDW_MP_RSET:
        r[EV_NODE_ID] = p->as.rpc.node_id;
        r[EV_INLINE_PATH] = ptr_slot(p->as.rpc.path), r[EV_INLINE_LEN] = (int64_t)p->as.rpc.path_len;
        r[EV_METHOD_ID] = p->as.rpc.method_id;
        r[EV_METHOD] = ptr_slot(p->as.rpc.method), r[EV_METHOD_LEN] = (int64_t)p->as.rpc.method_len;
        break;
    case GDW_MP_SIMPLIFY_PATH:
    case GDW_MP_CONFIRM_PATH:
        r[EV_NODE_ID] = p->as.path.node_id;
        r[EV_INLINE_PATH] = ptr_slot(p->as.path.path), r[EV_INLINE_LEN] = (int64_t)p->as.path.path_len;
        r[EV_MD5] = p->as.path.md5[0] ? ptr_slot(p->as.path.md5) : 0;
        r[EV_CHECKSUM] = p->as.path.checksum_valid;
        break;
    case GDW_MP_SPAWN:
        r[EV_NODE_ID] = p->as.spawn.spawner_id;
        r[EV_NET_ID] = p->as.spawn.net_id;
        r[EV_SCENE_ID] = p->as.spawn.scene_id;
        r[EV_NAME] = ptr_slot(p->as.spawn.name), r[EV_NAME_LEN] = (int64_t)p->as.spawn.name_len;
        break;
    case GDW_MP_DESPAWN: r[EV_NET_ID] = p->as.despawn.net_id; break;
    case GDW_MP_SYNC: r[EV_SYNC_TIME] = p->as.sync.time; break;
    case GDW_MP_SYS_ADD_PEER:
    case GDW_MP_SYS_DEL_PEER:
    case GDW_MP_SYS_AUTH:
    case GDW_MP_SYS_RELAY:
        r[EV_PEER] = p->as.sys.peer;
        r[EV_PAYLOAD] = ptr_slot(p->as.sys.payload), r[EV_PAYLOAD_LEN] = (int64_t)p->as.sys.payload_len;
        break;
    case GDW_MP_RAW: r[EV_PAYLOAD] = ptr_slot(p->as.raw.payload), r[EV_PAYLOAD_LEN] = (int64_t)p->as.raw.payload_len; break;
    default: break;
    }
    if (p->value_count > w->cap) {
        int64_t *v = (int64_t *)realloc(w->vals, p->value_count * VAL_SLOTS * sizeof *v);
        if (!v) {
            r[EV_VALUE_COUNT] = -1; /* the layer says the memory ran out */
            gdwjs_session_event(r);
            return;
        }
        w->vals = v, w->cap = p->value_count;
    }
    for (size_t i = 0; i < p->value_count; i++) {
        const gdw_mp_value *v = &p->values[i];
        int64_t *row = w->vals + VAL_SLOTS * i;
        row[0] = ptr_slot(v->label);
        row[1] = v->index;
        row[2] = v->net_id;
        row[3] = (int64_t)v->indexes;
        row[4] = (int64_t)v->offset;
        row[5] = (int64_t)v->length;
        row[6] = v->status == GDW_OK ? ptr_slot(v->value) : 0;
        row[7] = v->status;
        row[8] = ptr_slot(&v->error);
        row[9] = v->encoding;
    }
    r[EV_VALUE_COUNT] = (int64_t)p->value_count;
    r[EV_VALUES] = ptr_slot(w->vals);
    gdw_rpc_call c;
    if (w->annotator && gdw_rpc_annotate(w->annotator, m, &c)) { /* as capture --project --json says it (session.js) */
        bool simplify = p->command == GDW_MP_SIMPLIFY_PATH;
        r[EV_PROJECT] = simplify ? c.md5_differs : c.method != NULL;
        r[EV_PROJECT_METHOD] = c.method ? ptr_slot(c.method->name) : 0;
        r[EV_ARGS_FIT] = !c.fit.known ? -1 : c.fit.fits;
        r[EV_REFUSED] = c.fit.known && !c.fit.fits ? ptr_slot(c.fit.reason) : 0;
        r[EV_PROJECT_MD5] = simplify && c.md5_differs ? ptr_slot(c.node->md5) : 0;
    }
    gdwjs_session_event(r);
}

static void js_problem(void *ctx, const gdw_session_problem *p) {
    gdwjs_session *w = (gdwjs_session *)ctx;
    int64_t *r = w->rec;
    memset(r, 0, sizeof w->rec);
    r[EV_KIND] = 1;
    r[EV_FRAME] = (int64_t)p->frame;
    r[EV_FLOW] = p->flow;
    r[PR_LAYER] = ptr_slot(p->layer);
    r[PR_OFFSET] = (int64_t)p->offset;
    r[PR_MESSAGE] = ptr_slot(p->message);
    ev_time(w, p->time);
    gdwjs_session_event(r);
}

/* A session: d the dialect (NULL: detected per flow), caps[0..10) the max_* options in gdw_session_options' order
 * (0: the library's default). NULL when out of memory or the caps are past what the library takes. */
EXPORT gdwjs_session *gdwjs_session_new(const gdw_dialect *d, int mode, int allow_objects, const uint32_t *caps) {
    gdw_session_options o = gdw_session_options_default();
    o.dialect = d;
    o.decode.mode = (gdw_mode)mode;
    o.decode.allow_objects = allow_objects != 0;
    size_t *c[] = {&o.max_open_fragment_bytes, &o.max_flow_fragment_bytes, &o.max_packet_bytes, &o.max_flows, &o.max_cached_paths,
                   &o.max_window_bytes, &o.max_flow_window_bytes, &o.max_path_bytes, &o.max_flow_path_bytes, &o.max_ip_fragment_bytes};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        if (caps[i]) *c[i] = caps[i];
    gdwjs_session *w = (gdwjs_session *)calloc(1, sizeof *w);
    if (!w) return NULL;
    if (!(w->s = gdw_session_new(&o, js_message, js_problem, w))) {
        free(w);
        return NULL;
    }
    return w;
}

/* The defaults of the caps above into out[0..10) and whether Objects decode (out[10]). */
EXPORT void gdwjs_session_defaults(uint32_t *out) {
    gdw_session_options o = gdw_session_options_default();
    size_t c[] = {o.max_open_fragment_bytes, o.max_flow_fragment_bytes, o.max_packet_bytes, o.max_flows, o.max_cached_paths,
                  o.max_window_bytes, o.max_flow_window_bytes, o.max_path_bytes, o.max_flow_path_bytes, o.max_ip_fragment_bytes};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) out[i] = (uint32_t)c[i];
    out[10] = o.decode.allow_objects;
}

/* The multiplayer layer a session reads in dialect d (gdw_multiplayer): 0 when its engines' is not read. */
EXPORT int gdwjs_session_layer(const gdw_dialect *d) { return gdw_dialect_rule(d, GDW_RULE_MULTIPLAYER); }

EXPORT gdw_session *gdwjs_session_inner(gdwjs_session *w) { return w->s; }

/* A manifest for the session, as JSON (the wasm has no files: a folder is read with `gdwire rpc --json`): 0, or the
 * gdw_project_status with the reason in err (err_cap bytes). Replaces one given before. */
EXPORT int gdwjs_session_project(gdwjs_session *w, const char *json, size_t len, char *err, size_t err_cap) {
    gdw_rpc_manifest *m = NULL;
    gdw_project_status st = gdw_rpc_manifest_parse(json, len, &m, err, err_cap);
    if (st != GDW_PROJECT_OK) return (int)st;
    gdw_rpc_annotator *a = gdw_rpc_annotator_new(m);
    if (!a) {
        gdw_rpc_manifest_free(m);
        snprintf(err, err_cap, "out of memory");
        return GDW_PROJECT_NOMEM;
    }
    gdw_rpc_annotator_free(w->annotator);
    gdw_rpc_manifest_free(w->manifest);
    w->manifest = m, w->annotator = a;
    return 0;
}

EXPORT void gdwjs_session_free(gdwjs_session *w) {
    if (!w) return;
    gdw_rpc_annotator_free(w->annotator);
    gdw_rpc_manifest_free(w->manifest);
    gdw_session_free(w->s);
    free(w->vals);
    free(w);
}

/* A UDP payload: the addresses are 4 or 16 bytes each (alen). */
EXPORT void gdwjs_session_udp(gdwjs_session *w, const uint8_t *src, const uint8_t *dst, size_t alen, unsigned sport, unsigned dport,
                              const uint8_t *payload, size_t len, double time) {
    gdw_session_udp(w->s, src, alen, (uint16_t)sport, dst, (uint16_t)dport, payload, len, time);
}

/* The stats into out: STATS_WORDS doubles in gdw_session_stats' order, then by_command (GDW_MP_COMMAND_COUNT of them);
 * returns how many were written. */
EXPORT size_t gdwjs_session_stats(const gdwjs_session *w, double *out) {
    gdw_session_stats st = gdw_session_get_stats(w->s);
    double v[] = {(double)st.frames, (double)st.udp_datagrams, (double)st.enet_datagrams, (double)st.tcp_segments, (double)st.messages,
                  (double)st.retransmits, (double)st.problems, (double)st.fragments_completed, (double)st.fragments_dropped,
                  (double)st.decompressed, (double)st.states_dropped, (double)st.message_bytes, (double)st.open_fragment_bytes,
                  (double)st.peak_fragment_bytes, (double)st.window_bytes, (double)st.path_bytes, (double)st.held_bytes,
                  (double)st.peak_held_bytes, (double)st.flows};
    size_t n = sizeof v / sizeof *v;
    memcpy(out, v, sizeof v);
    for (int c = 0; c < GDW_MP_COMMAND_COUNT; c++) out[n + (size_t)c] = (double)st.by_command[c];
    return n + GDW_MP_COMMAND_COUNT;
}

/* A text address (IPv4 or IPv6, as inet_pton reads it) into out[0..16): 4 or 16, 0 when it is neither. */
EXPORT int gdwjs_parse_address(const char *text, uint8_t *out) {
    if (inet_pton(AF_INET, text, out) == 1) return 4;
    if (inet_pton(AF_INET6, text, out) == 1) return 16;
    return 0;
}

/* A capture file's reader over the layer's copy of it, and the record or error of its last step. */
typedef struct gdwjs_pcap {
    gdw_pcap *r;
    gdw_pcap_record rec;
    gdw_pcap_error err;
} gdwjs_pcap;

EXPORT gdwjs_pcap *gdwjs_pcap_open(const uint8_t *data, size_t len, size_t max_record_bytes) {
    gdw_pcap_options o = gdw_pcap_options_default();
    o.max_record_bytes = max_record_bytes;
    gdwjs_pcap *w = (gdwjs_pcap *)calloc(1, sizeof *w);
    if (!w) return NULL;
    if (!(w->r = gdw_pcap_open_memory(data, len, &o))) {
        free(w);
        return NULL;
    }
    return w;
}

/* The next record: GDW_PCAP_OK and out[0..10) its data, caplen, wirelen, link, interface, section, has_time, number,
 * offset (doubles), out[9] its time; else the status, and for an error out[0] its offset and out[1] its message. */
EXPORT int gdwjs_pcap_next(gdwjs_pcap *w, double *out) {
    gdw_pcap_status s = gdw_pcap_next(w->r, &w->rec, &w->err);
    if (s == GDW_PCAP_OK) {
        const gdw_pcap_record *r = &w->rec;
        double v[] = {(double)(uintptr_t)r->data, (double)r->caplen, (double)r->wirelen, (double)r->link, (double)r->interface,
                      (double)r->section, (double)r->has_time, (double)r->number, (double)r->offset, r->time};
        memcpy(out, v, sizeof v);
    } else if (s != GDW_PCAP_END) {
        out[0] = (double)w->err.offset;
        out[1] = (double)(uintptr_t)w->err.message;
    }
    return (int)s;
}

EXPORT void gdwjs_pcap_free(gdwjs_pcap *w) {
    if (!w) return;
    gdw_pcap_free(w->r);
    free(w);
}

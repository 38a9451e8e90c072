/* SPDX-License-Identifier: MIT */
/* decode.c — `gdwire decode` (text, JSON, --noout) and `gdwire explain` / `decode --wire`. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void print_decode_error(FILE *f, const packet *pk, const gdw_error *e) {
    char name[600];
    packet_name(pk, name, sizeof name);
    fprintf(f, "%s: %s at byte %zu", name, gdw_status_name(e->code), e->offset);
    if (pk->frame && pk->offset != (size_t)-1) fprintf(f, " (input byte %zu)", pk->offset + e->offset);
    if (e->path[0]) fprintf(f, " in %s", e->path);
    fprintf(f, ": %s", e->message);
    if (e->engine_error != GDW_ENGINE_NONE) fprintf(f, " (engine: %s)", gdw_engine_error_name(e->engine_error));
    fputc('\n', f);
}

const opts *resolve_auto(const opts *o, const packet *pk, opts *tmp) {
    if (!o->auto_dialect) return o;
    *tmp = *o;
    tmp->dialect = best_dialect_for(o, pk);
    char name[600];
    packet_name(pk, name, sizeof name);
    if (!tmp->dialect) { fprintf(stderr, "%s: -d auto: no dialect accepts this packet ('gdwire check' says why)\n", name); return NULL; }
    tmp->dec.allow_objects = objects_allowed(o, tmp->dialect);
    static const gdw_dialect *said; /* say it when it changes, not for every frame of a capture */
    if (!o->json && tmp->dialect != said) fprintf(stderr, "%s: -d auto: %s\n", name, gdw_dialect_name(tmp->dialect));
    said = tmp->dialect;
    return tmp;
}

typedef struct decode_run {
    const opts *o;
    bool prefix; /* several packets: name each output line */
} decode_run;

static int decode_packet_with(decode_run *r, const packet *pk, const gdw_allocator *alloc) {
    opts tmp;
    const opts *o = resolve_auto(r->o, pk, &tmp);
    if (!o) return EXIT_REJECTED;
    gdw_doc *doc = NULL;
    gdw_error err;
    size_t used = 0;
    gdw_decode_options dec = o->dec;
    dec.borrow_input = true; /* the packet outlives the document here */
    dec.watch_engine = !o->json && o->dec.mode == GDW_MODE_COMPATIBLE; /* the note below, without a second decode where it has nothing to say */
    /* --noout shows no value: a validation that watches for what the engine holds otherwise gives the
     * verdict, the error and whether a note is due, in one walk that builds nothing (gdw_validate_watched);
     * an engine-exact run decodes, as the engine pass works on the tree */
    bool tree = !o->noout || o->dec.mode == GDW_MODE_ENGINE_EXACT, engine_same = false;
    gdw_status s = tree ? gdw_decode(o->dialect, pk->p, pk->n, &dec, alloc, &doc, &used, &err)
                        : gdw_validate_watched(o->dialect, pk->p, pk->n, &dec, &used, &err, &engine_same);
    const gdw_value *shown = gdw_doc_root(doc); /* the whole value, or what --select names */
    if (!s && o->select) {
        size_t bad = 0;
        shown = gdw_path_get(shown, o->select, strlen(o->select), &bad);
        if (!shown) {
            char name[600];
            packet_name(pk, name, sizeof name);
            char all[512], rest[512]; /* the argument as text output shows any text (issue 55) */
            shown_name(o->select, all, sizeof all);
            shown_name(o->select + bad, rest, sizeof rest);
            fprintf(stderr, "%s: --select %s: nothing there (from character %zu: '%s')\n", name, all, bad, rest);
            gdw_doc_free(doc);
            return EXIT_REJECTED;
        }
    }
    if (o->json) {
        printf("{");
        json_packet_fields(stdout, pk);
        printf(",\"dialect\":\"%s\",\"mode\":\"%s\",\"accepted\":%s", gdw_dialect_name(o->dialect), gdw_mode_name(o->dec.mode), s ? "false" : "true");
        if (o->json_plain) printf(",\"json\":\"plain\"");
        if (s) { printf(",\"error\":"); json_error(stdout, &err); }
        else {
            char *j = json_value_alloc(o, shown), *t = gdw_text_print_alloc(shown, NULL, NULL);
            if (o->select) { printf(",\"select\":"); json_string(stdout, o->select); }
            printf(",\"consumed\":%zu,\"trailing\":%zu,\"value\":%s,\"text\":", used, pk->n - used, j ? j : "null");
            json_string(stdout, t ? t : "");
            char apath[GDW_PATH_MAX];
            const char *why = NULL;
            size_t approx = gdw_doc_approximate(doc, apath, &why);
            if (o->dec.mode == GDW_MODE_ENGINE_EXACT) { /* values the engine holds otherwise, kept as written */
                printf(",\"approximate\":");
                if (!approx) printf("null");
                else {
                    printf("{\"count\":%zu,\"path\":", approx);
                    json_string(stdout, apath);
                    printf(",\"why\":");
                    json_string(stdout, why);
                    printf("}");
                }
                /* conversions the engine's C++ leaves undefined: the value held is the x86-64 build's */
                printf(",\"undefined_conversions\":%zu", gdw_doc_undefined_conversions(doc));
            }
            free(j);
            free(t);
        }
        printf("}\n");
    }
    if (s) {
        print_decode_error(stderr, pk, &err);
        hint_raw_text(o, pk);
        return s == GDW_ERR_NOMEM ? EXIT_USAGE : EXIT_REJECTED;
    }
    if (!o->json && !o->noout) {
        char *text = gdw_text_print_alloc(shown, NULL, NULL);
        if (!text) { fprintf(stderr, "gdwire: out of memory\n"); gdw_doc_free(doc); return EXIT_USAGE; }
        if (r->prefix) {
            char name[600];
            packet_name(pk, name, sizeof name);
            printf("%s%s:%s %s\n", c_dim(), name, c_off(), text);
        } else printf("%s\n", text);
        free(text);
    }
    char held[1000];
    /* the note: from the tree, or, after a watching validation, from decodes of its own where it found that
     * the engine may hold another value (engine_value_note without a tree) */
    if (!o->json && o->dec.mode != GDW_MODE_STRICT && (tree || !engine_same) && engine_value_note(o->dialect, pk, &dec, doc, NULL, alloc, held, sizeof held)) {
        char name[600];
        packet_name(pk, name, sizeof name);
        fprintf(stderr, "%s: note: %s\n", name, held);
    }
    if (used < pk->n && !o->json && o->dec.mode != GDW_MODE_STRICT) {
        char name[600];
        packet_name(pk, name, sizeof name);
        fprintf(stderr, "%s: note: %zu trailing bytes after the value (ignored, as the engines do)\n", name, pk->n - used);
        hint_raw_text(o, pk); /* framed packets read raw leave most of the input */
    }
    gdw_doc_free(doc);
    return EXIT_ACCEPTED;
}

static int decode_packet(void *ctx, const packet *pk) {
    int rc = decode_packet_with(ctx, pk, region_for(pk->n));
    region_reset(); /* every document of the packet is freed */
    return rc;
}

/* ---- explain -------------------------------------------------------------------------------- */

typedef struct explain_run {
    const packet *pk;
    size_t base;        /* where the packet starts in the input: a frame's offsets are the file's */
    bool json;          /* explain --json: the rows as JSON objects */
    size_t rows;
    size_t shown_to;    /* bytes covered by the rows printed so far */
    bool failed;
    gdw_error err;
    bool marked;
} explain_run;

/* The value part of a row: what the field's bytes say (the library's words, which js/ and web/ show too). */
static void field_value(const explain_run *x, const gdw_trace_event *ev, char *out, size_t cap) {
    gdw_trace_field_text(ev, x->pk->p, out, cap);
}

static void print_bytes_cell(const uint8_t *p, size_t n) {
    char cell[64] = "";  /* a field of no bytes (an empty string's text) shows an empty cell */
    size_t k = 0;
    for (size_t i = 0; i < n && i < 8; i++) k += (size_t)snprintf(cell + k, sizeof cell - k, "%02x%s", p[i], i + 1 < n && i < 7 ? " " : "");
    if (n > 8) k += (size_t)snprintf(cell + k, sizeof cell - k, " ..");
    printf("%-26s", cell);
}

static void mark_error(explain_run *x) {
    if (!x->failed || x->marked) return;
    x->marked = true;
    printf("%s%8zu  %-26s  ^^ %s: %s%s%s%s\n", c_bad(), x->base + x->err.offset, "", gdw_status_name(x->err.code), x->err.message,
           x->err.path[0] ? " in " : "", x->err.path, c_off());
}

/* explain --json: one field as {"offset", "size", "depth", "field", "value", "path"}. */
static void explain_row_json(explain_run *x, const gdw_trace_event *ev) {
    char val[640];
    field_value(x, ev, val, sizeof val);
    printf("%s{\"offset\":%zu,\"size\":%zu,\"depth\":%u,\"field\":", x->rows++ ? "," : "", x->base + ev->offset, ev->size, (unsigned)ev->depth);
    json_string(stdout, ev->field);
    printf(",\"value\":");
    json_string(stdout, val);
    printf(",\"path\":");
    json_string(stdout, ev->path ? ev->path : "");
    printf("}");
}

static void explain_row(void *ctx, const gdw_trace_event *ev) {
    explain_run *x = ctx;
    if (x->json) { explain_row_json(x, ev); return; }
    if (x->failed && !x->marked && ev->offset > x->err.offset) mark_error(x);
    char val[640];
    field_value(x, ev, val, sizeof val);
    bool failing = x->failed && !x->marked && x->err.offset >= ev->offset && x->err.offset < ev->offset + (ev->size ? ev->size : 1);
    printf("%s%8zu  ", failing ? c_bad() : "", x->base + ev->offset);
    print_bytes_cell(x->pk->p + ev->offset, ev->size);
    printf("  %*s%-*s %s%s\n", (int)(2 * ev->depth), "", 14, ev->field, val, failing ? c_off() : "");
    if (failing) mark_error(x);
    if (ev->offset + ev->size > x->shown_to) x->shown_to = ev->offset + ev->size;
}

/* explain --json: {packet fields, "dialect", "mode", "fields": [...], "accepted", then "consumed" and
 * "trailing", or "error"} on one line ($defs/explain). */
static int explain_packet_json(const opts *o, const packet *pk, explain_run *x) {
    x->json = true;
    if (pk->frame && pk->offset != (size_t)-1 && o->frame != FRAME_NONE) x->base = pk->offset;
    printf("{");
    json_packet_fields(stdout, pk);
    printf(",\"dialect\":\"%s\",\"mode\":\"%s\",\"fields\":[", gdw_dialect_name(o->dialect), gdw_mode_name(o->dec.mode));
    size_t used = 0;
    gdw_status s = gdw_validate(o->dialect, pk->p, pk->n, &o->dec, &used, &x->err);
    gdw_decode_options t = o->dec;
    t.trace = explain_row;
    t.trace_ctx = x;
    gdw_validate(o->dialect, pk->p, pk->n, &t, NULL, NULL);
    printf("],\"accepted\":%s", s ? "false" : "true");
    if (s) { printf(",\"error\":"); json_error(stdout, &x->err); }
    else printf(",\"consumed\":%zu,\"trailing\":%zu", used, pk->n - used);
    printf("}\n");
    return s ? EXIT_REJECTED : EXIT_ACCEPTED;
}

static int explain_packet(void *ctx, const packet *pk) {
    opts tmp;
    const opts *o = resolve_auto((const opts *)ctx, pk, &tmp);
    if (!o) return EXIT_REJECTED;
    char name[600];
    packet_name(pk, name, sizeof name);
    explain_run x;
    memset(&x, 0, sizeof x);
    x.pk = pk;
    if (o->json) return explain_packet_json(o, pk, &x);
    printf("%s%s%s: %zu bytes as %s, mode %s\n", c_bold(), name, c_off(), pk->n, gdw_dialect_name(o->dialect), gdw_mode_name(o->dec.mode));
    printf("%8s  %-26s  %-14s %s\n", "offset", "bytes", "field", "value");
    if (pk->frame && pk->offset != (size_t)-1 && pk->offset >= GDW_FRAME_PREFIX && o->frame != FRAME_NONE) {
        /* a frame: its length prefix first, and every offset the input's */
        x.base = pk->offset;
        uint8_t pre[GDW_FRAME_PREFIX];
        gdw_frame_options fo = frame_options(o);
        fo.max_payload = UINT32_MAX;
        if (gdw_frame_prefix(&fo, pk->n, pre) == GDW_OK) {
            printf("%8zu  ", pk->offset - GDW_FRAME_PREFIX);
            print_bytes_cell(pre, GDW_FRAME_PREFIX);
            printf("  %-14s %zu bytes follow (%s)\n", "frame length", pk->n,
                   o->frame == FRAME_FILE ? "FileAccess.store_var" : o->frame == FRAME_PACKET_STREAM ? "PacketPeerStream" : "StreamPeer.put_var");
        }
    }
    /* first the verdict, then the walk again with the rows, marking the failing byte */
    size_t used = 0;
    gdw_status s = gdw_validate(o->dialect, pk->p, pk->n, &o->dec, &used, &x.err);
    x.failed = s != GDW_OK;
    gdw_decode_options t = o->dec;
    t.trace = explain_row;
    t.trace_ctx = &x;
    gdw_validate(o->dialect, pk->p, pk->n, &t, NULL, NULL);
    if (x.failed) {
        mark_error(&x);
        printf("%srejected%s: %s at byte %zu: %s\n", c_bad(), c_off(), gdw_status_name(x.err.code), x.base + x.err.offset, x.err.message);
        hint_raw_text(o, pk);
        return EXIT_REJECTED;
    }
    if (used < pk->n) {
        hint_raw_text(o, pk);
        printf("%8zu  ", x.base + used);
        print_bytes_cell(pk->p + used, pk->n - used);
        printf("  %-14s %zu bytes after the value\n", "trailing", pk->n - used);
    }
    printf("%saccepted%s: %zu bytes\n", c_ok(), c_off(), used);
    return EXIT_ACCEPTED;
}

int cmd_explain(const opts *o) {
    run_stats st = {0};
    return for_each_packet(o, explain_packet, (void *)o, &st);
}

int cmd_decode(const opts *o) {
    if (o->wire) return cmd_explain(o);
    decode_run r = {o, !single_packet_input(o)};
    run_stats st = {0};
    int rc = for_each_packet(o, decode_packet, &r, &st);
    if (r.prefix && !o->json)
        fprintf(stderr, "%zu packet%s, %zu byte%s: %zu decoded, %zu rejected%s\n", st.packets, plural(st.packets), st.bytes, plural(st.bytes),
                st.accepted, st.rejected,
                st.skips ? " (and bytes skipped: --resync)" : "");
    return rc;
}

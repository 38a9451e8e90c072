/* SPDX-License-Identifier: MIT */
/* same_output: everything the decoder says of each input, as text, for bench/same_output.sh to compare
 * between two builds of the library (docs/performance.md "Same output"). Reads file names, one a line, on
 * stdin; for each file, whole and without its first two bytes, in every row of the table (gdw_row_at), in
 * each of the three modes, with and without borrow_input, it writes:
 *   - gdw_decode (watch_engine, a digest, on_node): status, consumed, the error record (offset, value
 *     offset, engine error, short_by, path, message), and for a tree gdw_doc_engine_same, the approximate
 *     count with the first place and why, the digest, the on_node events (count and a hash of type, length
 *     and depth) and the printed tree;
 *   - gdw_validate and gdw_validate_watched: status, consumed, the error record, engine_same;
 *   - copying only: a cut decode (keep_nodes 3, watching): status, consumed, gdw_doc_cut, engine_same,
 *     the digest and the head of its text.
 * Each file's lines follow a line "== NAME (N bytes)". Only the public API (gdwire.h, and gdwire_check.h for the
 * table's rows where a revision has it): the same program builds against any revision that has them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include("gdwire_check.h")
#include "gdwire_check.h" /* gdw_row_count, gdw_row_at: in gdwire.h before issue 58 */
#endif
#endif
#include "gdwire.h"

typedef struct {
    uint64_t count, hash;
} nodes_seen;

static void on_node(void *ctx, const gdw_value *v, unsigned depth) {
    nodes_seen *s = ctx;
    s->count++;
    uint64_t x = ((uint64_t)v->type << 56) ^ ((uint64_t)depth << 32) ^ v->len;
    s->hash = (s->hash ^ x) * 0x100000001b3ull;
}

static void put_error(FILE *o, gdw_status s, size_t consumed, const gdw_error *e) {
    fprintf(o, " %s consumed=%zu", gdw_status_name(s), s == GDW_OK ? consumed : 0);
    if (s != GDW_OK)
        fprintf(o, " offset=%zu value_offset=%zu engine=%d short_by=%zu path=%s message=%s", e->offset, e->value_offset,
                (int)e->engine_error, e->short_by, e->path, e->message ? e->message : "(null)");
}

static void put_text(FILE *o, const gdw_value *root, size_t head) {
    size_t n = 0;
    char *t = NULL;
    if (head) {
        t = malloc(head + 1);
        if (t) n = gdw_text_print_head(root, t, head + 1);
    } else {
        t = gdw_text_print_alloc(root, NULL, &n);
    }
    if (!t) {
        fputs(" text=(nomem)\n", o);
        return;
    }
    fprintf(o, " text(%zu)=", n);
    fwrite(t, 1, n < head || !head ? n : head, o);
    fputc('\n', o);
    if (head) free(t);
    else gdw_text_free(NULL, t);
}

static void one(FILE *o, const char *name, unsigned skip, const gdw_dialect *d, gdw_mode mode, bool borrow,
                const uint8_t *buf, size_t len) {
    (void)name;
    char tag[128];
    snprintf(tag, sizeof tag, "+%u %s %s %s", skip, gdw_dialect_name(d), gdw_mode_name(mode), borrow ? "borrow" : "copy");

    gdw_decode_options opts = gdw_decode_options_default();
    opts.mode = mode;
    opts.borrow_input = borrow;
    opts.watch_engine = true;
    gdw_digest g;
    gdw_digest_init(&g, 0x0123456789abcdefull, 0xfedcba9876543210ull, buf, len);
    nodes_seen seen = {0, 0xcbf29ce484222325ull};
#ifdef GDW_HAS_DECODE_EVENTS
    gdw_decode_events events = {.digest = &g, .on_node = on_node, .on_node_ctx = &seen};
    opts.events = &events;
#else
    opts.digest = &g;
    opts.on_node = on_node;
    opts.on_node_ctx = &seen;
#endif

    gdw_doc *doc = NULL;
    size_t consumed = 0;
    gdw_error err;
    memset(&err, 0, sizeof err);
    gdw_status s = gdw_decode(d, buf, len, &opts, NULL, &doc, &consumed, &err);
    fprintf(o, "%s decode", tag);
    put_error(o, s, consumed, &err);
    if (s == GDW_OK && doc) {
        char path[GDW_PATH_MAX];
        const char *why = NULL;
        path[0] = 0;
        size_t approx = gdw_doc_approximate(doc, path, &why);
        fprintf(o, " engine_same=%d approximate=%zu", (int)gdw_doc_engine_same(doc), approx);
        if (approx) fprintf(o, " at=%s why=%s", path, why ? why : "(null)");
        fprintf(o, " digest=%016" PRIx64 "%016" PRIx64 " nodes=%" PRIu64 " nodes_hash=%016" PRIx64, g.h[0], g.h[1],
                seen.count, seen.hash);
        put_text(o, gdw_doc_root(doc), 0);
    } else {
        fprintf(o, " nodes=%" PRIu64 "\n", seen.count);
    }
    gdw_doc_free(doc);

    gdw_decode_options plain = gdw_decode_options_default();
    plain.mode = mode;
    plain.borrow_input = borrow;
    memset(&err, 0, sizeof err);
    consumed = 0;
    s = gdw_validate(d, buf, len, &plain, &consumed, &err);
    fprintf(o, "%s validate", tag);
    put_error(o, s, consumed, &err);
    fputc('\n', o);

    plain.watch_engine = true;
    memset(&err, 0, sizeof err);
    consumed = 0;
    bool same = false;
    s = gdw_validate_watched(d, buf, len, &plain, &consumed, &err, &same);
    fprintf(o, "%s watched", tag);
    put_error(o, s, consumed, &err);
    fprintf(o, " engine_same=%d\n", (int)same);

    if (borrow) return;
    gdw_decode_options cut = gdw_decode_options_default();
    cut.mode = mode;
    cut.watch_engine = true;
    cut.keep_nodes = 3;
    gdw_digest_init(&g, 1, 2, buf, len);
#ifdef GDW_HAS_DECODE_EVENTS
    gdw_decode_events cut_events = {.digest = &g};
    cut.events = &cut_events;
#else
    cut.digest = &g;
#endif
    doc = NULL;
    memset(&err, 0, sizeof err);
    consumed = 0;
    s = gdw_decode(d, buf, len, &cut, NULL, &doc, &consumed, &err);
    fprintf(o, "%s cut", tag);
    put_error(o, s, consumed, &err);
    if (s == GDW_OK && doc) {
        fprintf(o, " cut=%d engine_same=%d digest=%016" PRIx64 "%016" PRIx64, (int)gdw_doc_cut(doc),
                (int)gdw_doc_engine_same(doc), g.h[0], g.h[1]);
        put_text(o, gdw_doc_root(doc), 200);
    } else {
        fputc('\n', o);
    }
    gdw_doc_free(doc);
}

int main(void) {
    char name[4096];
    size_t files = 0;
    static const gdw_mode modes[] = {GDW_MODE_COMPATIBLE, GDW_MODE_STRICT, GDW_MODE_ENGINE_EXACT};
    while (fgets(name, sizeof name, stdin)) {
        name[strcspn(name, "\n")] = 0;
        if (!name[0]) continue;
        FILE *f = fopen(name, "rb");
        if (!f) {
            fprintf(stderr, "same_output: cannot open %s\n", name);
            return 2;
        }
        size_t cap = 1 << 16, len = 0;
        uint8_t *buf = malloc(cap);
        for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
            len += got;
            if (len == cap) {
                uint8_t *more = realloc(buf, cap * 2);
                if (!more) { free(buf); buf = NULL; break; }
                buf = more;
                cap *= 2;
            }
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "same_output: out of memory reading %s\n", name);
            return 2;
        }
        files++;
        printf("== %s (%zu bytes)\n", name, len);
        for (unsigned skip = 0; skip <= 2; skip += 2) {
            if (skip > len) break;
            for (size_t r = 0; r < gdw_row_count(); r++)
                for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
                    for (int borrow = 0; borrow <= 1; borrow++)
                        one(stdout, name, skip, gdw_row_at(r), modes[m], borrow, buf + skip, len - skip);
        }
        free(buf);
    }
    fprintf(stderr, "same_output: %zu files, %zu rows\n", files, gdw_row_count());
    return ferror(stdout) ? 2 : 0;
}

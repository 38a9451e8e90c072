/* SPDX-License-Identifier: MIT */
/* engine_note.c — where the value an engine release holds differs from the value the bytes
 * spell (engine-exact mode against compatible mode: Godot 3 strings after its UTF-8 decoder,
 * Dictionary keys merged, typed Array elements converted or dropped; codec/engine/settle.c).
 * `decode` and `check` print it, so that a user filtering packets sees what the engine will see. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* v's text in out[0..cap), cut with "..." when longer: printed only as far as shown (gdw_text_print_head,
 * one character more than out holds, to tell "longer" from "exactly full"), so a differing Dictionary
 * of a million entries costs what its first characters do. */
#define SHORT_TEXT_MAX 128
static void short_text(const gdw_value *v, char *out, size_t cap) {
    char t[SHORT_TEXT_MAX + 1];
    if (cap > SHORT_TEXT_MAX) cap = SHORT_TEXT_MAX;
    size_t n = gdw_text_print_head(v, t, cap + 1); /* below cap: the whole text's length */
    size_t keep = n < cap - 1 ? n : cap - 1;
    memcpy(out, t, keep);
    out[keep] = 0;
    if (n >= cap && cap > 4) memcpy(out + cap - 4, "...", 4);
}

bool engine_value_note(const gdw_dialect *d, const packet *pk, const gdw_decode_options *dec, const gdw_doc *have_doc,
                       const gdw_doc *held_doc, const gdw_allocator *alloc, char *out, size_t cap) {
    const gdw_value *have = gdw_doc_root(have_doc);
    out[0] = 0;
    /* a compatible or strict decode that watched (dec->watch_engine) met nothing the engine reads
     * or holds otherwise: no second decode */
    if (dec->mode != GDW_MODE_ENGINE_EXACT && gdw_doc_engine_same(have_doc)) return false;
    if (gdw_doc_cut(have_doc)) have = NULL; /* its first nodes only (check's): both sides are decoded whole */
    /* `have` is the value already decoded in dec->mode: only the other side is decoded here
     * (both, when dec->mode is strict) */
    gdw_decode_options o = *dec;
    o.borrow_input = true;
    gdw_doc *docs[2] = {NULL, NULL};
    const gdw_value *side[2] = {dec->mode == GDW_MODE_COMPATIBLE ? have : NULL,
                                dec->mode == GDW_MODE_ENGINE_EXACT ? have : held_doc ? gdw_doc_root(held_doc) : NULL};
    static const gdw_mode k_side_mode[2] = {GDW_MODE_COMPATIBLE, GDW_MODE_ENGINE_EXACT};
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++) {
        if (side[k]) continue;
        o.mode = k_side_mode[k];
        ok = gdw_decode(d, pk->p, pk->n, &o, alloc, &docs[k], NULL, NULL) == GDW_OK;
        side[k] = gdw_doc_root(docs[k]);
    }
    const gdw_value *as_written = side[0], *held = side[1];
    if (!ok) { gdw_doc_free(docs[0]); gdw_doc_free(docs[1]); return false; }
    gdw_difference at; /* one walk, however deep the difference (issue 34) */
    bool differs = gdw_value_diff(as_written, held, &at);
    const char *path = at.path;
    size_t n = 0;
    out[0] = 0;
    if (differs) {
        char ta[96], tb[96];
        short_text(at.a, ta, sizeof ta);
        short_text(at.b, tb, sizeof tb);
        const char *rel = gdw_dialect_release(d);
        int k = snprintf(out, cap, "the engine (%s%s%s) holds another value than the bytes spell%s%s: the bytes say %s, the engine holds %s",
                         gdw_dialect_name(d), rel[0] ? ", release " : "", rel, path[0] ? " at " : "", path, ta, tb);
        n = k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap - 1;
    }
    const gdw_doc *held_d = dec->mode == GDW_MODE_ENGINE_EXACT ? have_doc : held_doc ? held_doc : docs[1];
    /* values the engine converts in a way gdwire does not compute: kept as written, marked */
    char apath[GDW_PATH_MAX];
    const char *why = NULL;
    size_t approx = gdw_doc_approximate(held_d, apath, &why);
    if (approx && n + 1 < cap) {
        int k = snprintf(out + n, cap - n, "%s%zu value%s not the engine's (kept as written, not computed by gdwire); the first at %s: %s",
                         n ? "; " : "", approx, approx == 1 ? " is" : "s are", apath[0] ? apath : "the top", why);
        n = k < 0 ? n : n + (size_t)k < cap ? n + (size_t)k : cap - 1;
    }
    /* conversions the engine's C++ leaves undefined (engine finding 7): the value held is x86-64's */
    size_t undefined = gdw_doc_undefined_conversions(held_d);
    if (undefined && n + 1 < cap)
        snprintf(out + n, cap - n, "%s%zu conversion%s undefined in the engine's C++: the value it holds depends on the CPU "
                 "(gdwire holds the x86-64 build's; docs/engine-findings.md, finding 7)",
                 n ? "; " : "", undefined, undefined == 1 ? " is" : "s are");
    gdw_doc_free(docs[0]);
    gdw_doc_free(docs[1]);
    return differs || approx || undefined;
}

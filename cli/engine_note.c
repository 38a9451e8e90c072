/* SPDX-License-Identifier: MIT */
/* engine_note.c — where the value an engine release holds differs from the value the bytes
 * spell (engine-exact mode against compatible mode: Godot 3 strings after its UTF-8 decoder,
 * Dictionary keys merged, typed Array elements converted or dropped; codec/engine_value.c).
 * `decode` and `check` print it, so that a user filtering packets sees what the engine will see. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* The first place where a and b differ, as an error path ("[0]", "{#1 key}", "{#1}"). */
static bool first_difference(const gdw_value *a, const gdw_value *b, char *path, size_t cap, const gdw_value **da,
                             const gdw_value **db) {
    for (;;) {
        if (gdw_value_equal(a, b)) return false;
        const gdw_value *ia = gdw_items(a), *ib = gdw_items(b);
        bool dict = a->type == GDW_DICTIONARY;
        if (a->type != b->type || a->len != b->len || !ia || !ib || (a->type != GDW_ARRAY && !dict) ||
            !gdw_typedesc_equal(gdw_container_of(a) ? &gdw_container_of(a)->elem : &(gdw_typedesc){0},
                                gdw_container_of(b) ? &gdw_container_of(b)->elem : &(gdw_typedesc){0})) {
            *da = a;
            *db = b;
            return true;
        }
        size_t k = 0, n = (size_t)a->len * (dict ? 2 : 1);
        while (k < n && gdw_value_equal(&ia[k], &ib[k])) k++;
        if (k == n) { *da = a; *db = b; return true; } /* flags or container type */
        size_t used = strlen(path);
        if (dict) snprintf(path + used, cap - used, k % 2 ? "{#%zu}" : "{#%zu key}", k / 2);
        else snprintf(path + used, cap - used, "[%zu]", k);
        a = &ia[k];
        b = &ib[k];
    }
}

static void short_text(const gdw_value *v, char *out, size_t cap) {
    size_t need = gdw_text_print(v, out, cap);
    if (need >= cap && cap > 4) memcpy(out + cap - 4, "...", 4);
}

bool engine_value_note(const gdw_dialect *d, const packet *pk, const gdw_decode_options *dec, const gdw_value *have, char *out,
                       size_t cap) {
    /* `have` is the value already decoded in dec->mode: only the other side is decoded here
     * (both, when dec->mode is strict) */
    gdw_decode_options o = *dec;
    o.borrow_input = true;
    gdw_doc *docs[2] = {NULL, NULL};
    const gdw_value *side[2] = {dec->mode == GDW_MODE_COMPATIBLE ? have : NULL, dec->mode == GDW_MODE_ENGINE_EXACT ? have : NULL};
    static const gdw_mode k_side_mode[2] = {GDW_MODE_COMPATIBLE, GDW_MODE_ENGINE_EXACT};
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++) {
        if (side[k]) continue;
        o.mode = k_side_mode[k];
        ok = gdw_decode(d, pk->p, pk->n, &o, NULL, &docs[k], NULL, NULL) == GDW_OK;
        side[k] = gdw_doc_root(docs[k]);
    }
    const gdw_value *as_written = side[0], *held = side[1];
    if (!ok) { gdw_doc_free(docs[0]); gdw_doc_free(docs[1]); return false; }
    char path[256] = "";
    const gdw_value *a = NULL, *b = NULL;
    bool differs = first_difference(as_written, held, path, sizeof path, &a, &b);
    if (differs) {
        char ta[96], tb[96];
        short_text(a, ta, sizeof ta);
        short_text(b, tb, sizeof tb);
        const char *rel = gdw_dialect_release(d);
        snprintf(out, cap, "the engine (%s%s%s) holds another value than the bytes spell%s%s: the bytes say %s, the engine holds %s",
                 gdw_dialect_name(d), rel[0] ? ", release " : "", rel, path[0] ? " at " : "", path, ta, tb);
    }
    gdw_doc_free(docs[0]);
    gdw_doc_free(docs[1]);
    return differs;
}

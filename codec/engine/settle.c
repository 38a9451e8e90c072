/* SPDX-License-Identifier: MIT */
/* engine/settle.c — engine-exact mode, the pass (keys.c and typed.c are its steps): the value the
 * engine ends up holding, where that is not the value as written.
 *
 * A Godot 4 engine builds its Arrays and Dictionaries through their own setters, so what it
 * holds after decode_variant can differ from the bytes:
 *   - a container typed by Object, a class or a script, decoded without objects allowed, is typed
 *     by the class EncodedObjectAsID (core/io/marshalls.cpp _decode_container_type);
 *   - element type Nil means untyped;
 *   - a typed Array's elements and a typed Dictionary's keys go through ContainerTypeValidate:
 *     a value of the element type is kept, one the engine converts strictly is converted, any
 *     other is dropped with an error (Dictionary values are not checked);
 *   - `dict[key] = value`: keys the engine's HashMap finds equal are one entry, at the first one's
 *     place, holding the last value.
 * Measured on Godot 4.6.3 (docs/dialects/godot4.md, "What the engine holds"). A Godot 3 engine
 * merges keys the same way (its own equality rules) and its UTF-8 decoder turns each accepted
 * form into the code point it stands for (utf8_value: overlong forms become the character; 3.5+
 * also pairs surrogates), measured on 3.2.3 and 3.6.2 (docs/dialects/godot3.md). The dialect asks
 * for these with typed_rule and merge_dict_keys; this pass runs after a successful decode, children
 * before their container, so nested keys are settled before their container's keys are compared.
 * Every walk here (settle, key_equal, key_hash) keeps its own stack of frames: none recurses.
 */
#include <math.h>
#include <stdlib.h>

#include "codec/engine/pass.h"

/* ---- strings ------------------------------------------------------------------------------ */

/* A string as the engine's UTF-8 decoder leaves it (dialect field utf8_value: read for text that is
 * not ASCII, which every rule keeps). */
static gdw_status settle_str(settle_ctx *c, const uint8_t **p, uint32_t *len) {
    if (gdw_ascii_prefix(*p, *len) == *len) return GDW_OK;
    unsigned rule = RULE(c, GDW_RULE_UTF8_VALUE);
    size_t n = gdw_utf8_engine_value(*p, *len, rule, NULL);
    if (n == (size_t)-1) return GDW_OK;
    uint8_t *out = (uint8_t *)gdw_arena_alloc(c->doc, *len);
    if (!out) return GDW_ERR_NOMEM;
    gdw_utf8_engine_value(*p, *len, rule, out);
    *p = out;
    *len = (uint32_t)n;
    return GDW_OK;
}

static gdw_status settle_strs(settle_ctx *c, gdw_str *s, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        gdw_status st = settle_str(c, &s[i].ptr, &s[i].len);
        if (st) return st;
    }
    return GDW_OK;
}

/* ---- the walk ----------------------------------------------------------------------------- */

/* A value's own strings (String, StringName, NodePath parts, PackedStringArray entries, an
 * Object's class name); its children are the walk's. */
static gdw_status settle_own(settle_ctx *c, gdw_value *v) {
    switch (v->type) {
    case GDW_STRING:
    case GDW_STRING_NAME: return settle_str(c, &v->u.bytes, &v->len);
    case GDW_NODE_PATH: {
        gdw_nodepath *np = (gdw_nodepath *)v->u.ext;
        return np ? settle_strs(c, np->parts, (uint64_t)np->name_count + np->subname_count)
                  : GDW_OK;
    }
    case GDW_PACKED_STRING_ARRAY:
        return v->u.ext ? settle_strs(c, (gdw_str *)v->u.ext, v->len) : GDW_OK;
    case GDW_OBJECT: {
        if (v->flags & (GDW_VF_OBJECT_ID | GDW_VF_OBJECT_NULL) || !v->u.ext) return GDW_OK;
        gdw_object *o = (gdw_object *)v->u.ext;
        return settle_str(c, &o->class_name.ptr, &o->class_name.len);
    }
    default: return GDW_OK;
    }
}

/* What settles inside v: an Array's items, a Dictionary's keys and values, an Object's property
 * names and values (the last for their strings only). */
static size_t settle_items(settle_ctx *c, gdw_value *v, gdw_value **items) {
    *items = NULL;
    if (!gdw_kind_has_children(v) || (v->type == GDW_OBJECT && !RULE(c, GDW_RULE_UTF8_VALUE)))
        return 0;
    const gdw_value *it;
    size_t n = gdw_children(v, &it);
    *items = (gdw_value *)it; /* the document's own items: settling writes them in place */
    return n;
}

/* An Array or Dictionary once its items are settled: typed conversion, then merged keys. */
static gdw_status settle_container(settle_ctx *c, gdw_value *v) {
    if ((v->type == GDW_TYPED_ARRAY || v->type == GDW_PACKED_TYPED_ARRAY) &&
        RULE(c, GDW_RULE_TYPED_RULE) == GDW_TYPED_SAME_TYPE) {
        gdw_container *ct = (gdw_container *)v->u.ext;
        return ct ? gdw_engine_keep_same_type(c, v, ct) : GDW_OK;
    }
    if (v->type != GDW_ARRAY && v->type != GDW_DICTIONARY) return GDW_OK;
    bool dict = v->type == GDW_DICTIONARY;
    gdw_value *items = (gdw_value *)gdw_items(v);
    if ((v->flags & GDW_VF_TYPED) && (RULE(c, GDW_RULE_TYPED_RULE) == GDW_TYPED_CONVERT ||
                                      RULE(c, GDW_RULE_TYPED_RULE) == GDW_TYPED_VALIDATE)) {
        gdw_container *ct = (gdw_container *)v->u.ext;
        unsigned key = dict ? gdw_engine_settle_desc(c, &ct->key) : (unsigned)GDW_NIL,
                 elem = gdw_engine_settle_desc(c, &ct->elem);
        gdw_status s = dict ? gdw_engine_validate_items(c, key, v, items, &v->len, 2)
                            : gdw_engine_validate_items(c, elem, v, items, &v->len, 1);
        if (s) return s;
        if (ct->elem.kind == GDW_DESC_NONE && (!dict || ct->key.kind == GDW_DESC_NONE)) {
            v->flags &= (uint16_t)~GDW_VF_TYPED;
            v->u.items = items;
        }
    }
    if (!dict) return GDW_OK;
    for (uint32_t i = 0; i < v->len; i++) /* the rule read where a StringName key makes it matter */
        if (items[2 * i].type == GDW_STRING_NAME && RULE(c, GDW_RULE_KEYS_NAME_TO_STRING))
            items[2 * i].type = GDW_STRING;
    /* fewer than two keys: none to merge, the rule read where a second key makes it matter */
    if (v->len > 1 && RULE(c, GDW_RULE_MERGE_DICT_KEYS)) return gdw_engine_merge_keys(c, v);
    return GDW_OK;
}

/* The path of the value the pass is at, as gdw_error.path writes it: the current item of each of
 * the walk's first `open` containers (frames[0 .. open)) on the way down to it. */
void gdw_engine_path(const settle_ctx *c, unsigned open, char *path) {
    size_t n = 0;
    path[0] = 0;
    for (unsigned i = 0; i < open; i++)
        gdw_path_child(path, &n, c->frames[i].v, (uint32_t)(c->frames[i].next - 1));
}

/* The whole tree, children before their container, without recursion (decoded trees are at most
 * GDW_HARD_MAX_DEPTH deep). A failure leaves in *open the containers on the way down to the value
 * that failed (gdw_engine_path). */
static gdw_status settle(settle_ctx *c, gdw_value *root, settle_frame *f, unsigned *open) {
    *open = 0;
    gdw_status s = settle_own(c, root);
    if (s) return s;
    f[0].v = root;
    f[0].n = settle_items(c, root, &f[0].items);
    f[0].next = 0;
    unsigned sp = 1;
    while (sp) {
        unsigned t = sp - 1;
        if (f[t].next == f[t].n) {
            sp--;
            c->depth = t; /* the containers above this one: f[0..t) */
            if ((s = settle_container(c, f[t].v))) return *open = t, s;
            continue;
        }
        gdw_value *x = &f[t].items[f[t].next++];
        if ((s = settle_own(c, x))) return *open = sp, s;
        if (sp > GDW_WALK_MAX_DEPTH) return *open = sp, GDW_ERR_DEPTH;
        f[sp].v = x;
        f[sp].n = settle_items(c, x, &f[sp].items);
        f[sp].next = 0;
        sp++;
    }
    return GDW_OK;
}

/* The pass done (settled): engine-exact mode's events (options.events: the digest and on_node), of
 * the tree it returns: each value in pre-order added to the digest (as gdw_digest_tree) and passed
 * to on_node (not an Object's property name), in one walk once the pass is done. The pass itself
 * settles children before their container, and a container's step (merged keys, dropped elements)
 * changes which of its settled children the tree keeps: which nodes the tree holds, and in what
 * order, is known only once the root is settled. */
static gdw_visit_answer pass_node(void *ctx, gdw_visit_event ev, const gdw_value *v,
                                  const gdw_value *parent, size_t slot, unsigned depth) {
    (void)ev;
    const gdw_decode_events *e = (const gdw_decode_events *)ctx;
    if (e->digest) gdw_digest_node(e->digest, v);
    if (e->on_node && !(parent && parent->type == GDW_OBJECT && slot % 2 == 0))
        e->on_node(e->on_node_ctx, v, depth);
    return GDW_VISIT_GO;
}

static gdw_status settled(const gdw_doc *doc, const gdw_decode_options *opts) {
    if (opts && opts->events && (opts->events->digest || opts->events->on_node))
        gdw_visit(gdw_doc_root(doc), GDW_VISIT_PRE, pass_node, (void *)opts->events);
    return GDW_OK;
}

/* The test-only hook: a program that defines gdw_engine_settle_counted
 * (codec/tests/engine_value_test.c, the decode fuzz target) is told each pass's key-merging work;
 * in any other the reference is weak and resolves to nothing, so the library keeps no diagnostic
 * state of its own (codec/tests/no_state_test.sh). */
/* ELF only: an undefined weak reference resolves to NULL there; Apple's linker and PE want it
 * defined at link time. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__ELF__) && !defined(__EMSCRIPTEN__)
#ifdef __cplusplus
extern "C"
#endif
    void
    gdw_engine_settle_counted(uint64_t keys, uint64_t probes, uint64_t hashed, uint64_t compared)
        __attribute__((weak));
#define SETTLE_COUNTED(n) \
    (gdw_engine_settle_counted \
         ? gdw_engine_settle_counted((n).keys, (n).probes, (n).hashed, (n).compared) \
         : (void)0)
#else
#define SETTLE_COUNTED(n) ((void)(n))
#endif

gdw_status gdw_engine_settle(const gdw_dialect *d, gdw_doc *doc, const gdw_decode_options *opts,
                             size_t consumed, gdw_error *err, uint64_t *rules_read) {
    /* a row whose pass changes nothing: no walk (a pass whose reads are asked walks, and reads each
     * rule where a value makes it matter) */
    if (!rules_read && !gdw_row_rule(d, GDW_RULE_TYPED_RULE) &&
        !gdw_row_rule(d, GDW_RULE_MERGE_DICT_KEYS) && !gdw_row_rule(d, GDW_RULE_UTF8_VALUE))
        return settled(doc, opts);
    settle_ctx c;
    memset(&c, 0, sizeof c);
    c.row = d;
    c.doc = doc;
    c.objects = opts && opts->allow_objects;
    c.opts = opts;
    c.consumed = consumed;
    c.err = err;
    /* the seed: this call's stack and the document's addresses, which differ from run to run
     * under address-space randomisation, and are not on the wire */
    c.seed = gdw_engine_key_seed(&c, doc);
    /* the walk's open containers: about 33 KiB of stack */
    settle_frame frames[GDW_WALK_MAX_DEPTH + 1];
    c.frames = frames;
    unsigned open = 0;
    gdw_status s = settle(&c, &doc->root, frames, &open);
    if (rules_read) *rules_read |= c.read.rules;
    if (c.memo) doc->alloc.free_fn(doc->alloc.ctx, c.memo, c.memo_cap * sizeof *c.memo);
    SETTLE_COUNTED(c.counts);
    doc->approximate = c.approximate;
    doc->undefined_conversions = c.undefined > UINT32_MAX ? UINT32_MAX : (uint32_t)c.undefined;
    char path[GDW_PATH_MAX];
    /* at the pass's offset (the value's end, where its events point) and the value it was at */
    if (s != GDW_OK) {
        gdw_engine_path(&c, open, path);
        if (gdw_error_set(err, s, consumed, consumed, GDW_ENGINE_NONE, NULL))
            memcpy(err->path, path, sizeof path);
        return s;
    }
    /* fail_if_approximate: of the tree returned, at the first marked value in it
     * (gdw_doc_approximate's place) */
    const char *why = NULL;
    if (opts && opts->fail_if_approximate && c.approximate &&
        gdw_doc_approximate(doc, path, &why)) {
        if (gdw_error_set(err, GDW_ERR_LOSSY, consumed, consumed, GDW_ENGINE_NONE, why)) {
            memcpy(err->path, path, sizeof path);
        }
        return GDW_ERR_LOSSY;
    }
    return settled(doc, opts);
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target `decode`: any bytes in any dialect and mode. If the packet is accepted, its
 * value is re-encoded in the same dialect, decoded again and re-encoded again: the second
 * value must equal the first (as numbers: a double-precision dialect writes an f32 it read
 * as f64, gdw_value_same_numbers) and the second encoding must equal the first, byte for
 * byte; if strict mode accepts the packet, it accepts gdwire's encoding of it, and that encoding
 * is the packet itself (what gdw_check relies on); in engine-exact mode, the engine's value written
 * back reads back as itself. With byte 1
 * bit 3 set, the packet is decoded under memory pressure instead (decode_under_pressure). */
#include "fuzzers/fuzz.h"

/* The library tells a program that defines this hook each engine pass's key-merging work (codec/engine/settle.c:
 * keys seen, hash-table probes, key nodes hashed and compared); it keeps no record of its own. The target's record
 * of the last pass, cleared before the decode it judges (one input at a time on its thread). */
void gdw_engine_settle_counted(uint64_t keys, uint64_t probes, uint64_t hashed, uint64_t compared);
static struct { uint64_t keys, probes, hashed, compared; } g_settle;
void gdw_engine_settle_counted(uint64_t keys, uint64_t probes, uint64_t hashed, uint64_t compared) {
    g_settle.keys = keys, g_settle.probes = probes, g_settle.hashed = hashed, g_settle.compared = compared;
}

/* After an engine-exact decode: merging Dictionary keys took a small constant of work per key and
 * per input byte, whatever the keys (issue 34: keys alike in their low bits, String and StringName
 * twins, nested keys hashed afresh at every level made it quadratic). */
static void check_key_work(size_t len) {
    FUZZ_CHECK(g_settle.probes <= 4 * g_settle.keys + 16, "%llu probes for %llu Dictionary keys", (unsigned long long)g_settle.probes,
               (unsigned long long)g_settle.keys);
    FUZZ_CHECK(g_settle.hashed + g_settle.compared <= 64 * (uint64_t)len + 64, "%llu nodes hashed and %llu compared merging the keys of %zu input bytes",
               (unsigned long long)g_settle.hashed, (unsigned long long)g_settle.compared, len);
}

/* An allocator that fails from the n-th allocation on (byte 1 bit 3 turns it on, bits 4-7
 * choose n): a decode under memory pressure returns OK or NOMEM, frees what it took (the
 * leak checker sees the rest) and never returns a document with NOMEM. */
typedef struct failing { unsigned left; } failing;
static void *f_malloc(void *ctx, size_t n) {
    failing *f = ctx;
    if (f->left == 0) return NULL;
    f->left--;
    return malloc(n);
}
static void *f_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)o;
    failing *f = ctx;
    if (f->left == 0) return NULL;
    f->left--;
    return realloc(p, n);
}
static void f_free(void *ctx, void *p, size_t n) { (void)ctx, (void)n; free(p); }

static void decode_under_pressure(const fuzz_input *in) {
    failing f = {in->extra >> 1};
    gdw_allocator a = {f_malloc, f_realloc, f_free, &f};
    gdw_doc *doc = NULL;
    gdw_error err;
    gdw_status s = gdw_decode(in->dialect, in->packet, in->len, &in->opt, &a, &doc, NULL, &err);
    if (s == GDW_OK) {
        fuzz_check_doc(doc, in->len, in->opt.mode);
        gdw_doc_free(doc);
        return;
    }
    FUZZ_CHECK(doc == NULL, "a failed decode under memory pressure returned a document");
    fuzz_check_error(s, &err, in->len);
    /* with memory, the same input gets the same verdict unless memory was what failed */
    if (s != GDW_ERR_NOMEM) {
        gdw_status s2 = gdw_validate(in->dialect, in->packet, in->len, &in->opt, NULL, &err);
        FUZZ_CHECK(s2 == s, "%s under memory pressure, %s without", gdw_status_name(s), gdw_status_name(s2));
    }
}

/* a null Object: the engines write it as Nil, so next to a Nil key it becomes the same key when
 * read again (the engine's own var_to_bytes / bytes_to_var does the same) */
static bool is_null_object(const gdw_value *v) { return v->type == GDW_OBJECT && (v->flags & GDW_VF_OBJECT_NULL); }

/* The flags words of NodePaths without names or subnames, found on the wire by a trace: the only
 * bytes where gdwire's encoding may differ from a packet strict mode accepts (see below). */
typedef struct bare_flags {
    size_t at[64];
    size_t n;
    int overflow;             /* more than fit: the check below then cannot be made exactly */
    int64_t names, subnames;  /* the counts of the NodePath being read */
} bare_flags;

static void collect_bare_flags(void *ctx, const gdw_trace_event *ev) {
    bare_flags *b = (bare_flags *)ctx;
    if (!strcmp(ev->field, "name count")) b->names = ev->number & 0x7FFFFFFF;
    else if (!strcmp(ev->field, "subname count")) b->subnames = ev->number;
    else if (!strcmp(ev->field, "flags") && ev->type == GDW_NODE_PATH && b->names == 0 && b->subnames == 0) {
        if (b->n < sizeof b->at / sizeof b->at[0]) b->at[b->n++] = ev->offset;
        else b->overflow = 1;
    }
}

/* a and b (n bytes each) differ only inside the listed 4-byte words */
static int differ_only_at(const uint8_t *a, const uint8_t *b, size_t n, const bare_flags *f) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] == b[i]) continue;
        int inside = 0;
        for (size_t k = 0; k < f->n && !inside; k++) inside = i >= f->at[k] && i < f->at[k] + 4;
        if (!inside) return 0;
    }
    return 1;
}

/* gdw_doc_engine_same's claim: engine-exact mode accepts the packet, reads as many bytes and
 * holds this very tree, bit for bit (its exact text) */
static void check_engine_same(const fuzz_input *in, const gdw_doc *doc, size_t used) {
    gdw_decode_options eo = in->opt;
    eo.mode = GDW_MODE_ENGINE_EXACT;
    gdw_doc *exact = NULL;
    size_t eused = 0;
    gdw_error err;
    gdw_status s = gdw_decode(in->dialect, in->packet, in->len, &eo, NULL, &exact, &eused, &err);
    FUZZ_CHECK(s == GDW_OK && eused == used, "%s: gdw_doc_engine_same, but engine-exact mode says %s, %zu bytes (not %zu)",
               gdw_dialect_name(in->dialect), gdw_status_name(s), eused, used);
    char *a = gdw_text_print_alloc(gdw_doc_root(doc), NULL, NULL), *b = gdw_text_print_alloc(gdw_doc_root(exact), NULL, NULL);
    FUZZ_CHECK(a && b, "out of memory");
    if (strcmp(a, b) != 0) {
        fuzz_print_value("decoded", gdw_doc_root(doc));
        fuzz_print_value("engine-exact", gdw_doc_root(exact));
        FUZZ_CHECK(0, "%s: gdw_doc_engine_same, but engine-exact mode holds another tree", gdw_dialect_name(in->dialect));
    }
    free(a);
    free(b);
    gdw_doc_free(exact);
}

/* Error paths read back (gdw_path_get): the path gdw_path_push writes for each child of the top
 * value names that child, unless a key is shown shortened or a String key comes twice (then the
 * first is found); and the input's own bytes as a path find something or nothing, safely. */
static void check_paths(const gdw_value *root, const uint8_t *data, size_t size) {
    const gdw_value *items;
    size_t n = gdw_children(root, &items);
    bool pairs = root->type == GDW_DICTIONARY || root->type == GDW_OBJECT;
    for (size_t slot = 0; slot < n && slot < 8; slot++) {
        char path[GDW_PATH_MAX] = "";
        size_t len = 0, bad = 0;
        gdw_path_push(path, &len, root, slot);
        const gdw_value *got = gdw_path_get(root, path, len, &bad);
        bool shortened = false, twice = false;
        if (pairs && slot % 2) {
            const gdw_value *k = &items[slot - 1];
            bool text = k->type == GDW_STRING || k->type == GDW_STRING_NAME;
            shortened = text && k->len > 24; /* shown with "...": the path names no key exactly */
            for (size_t j = 0; text && j + 1 < slot && !twice; j += 2)
                twice = (items[j].type == GDW_STRING || items[j].type == GDW_STRING_NAME) && items[j].len == k->len &&
                        (k->len == 0 || memcmp(items[j].u.bytes, k->u.bytes, k->len) == 0);
        }
        FUZZ_CHECK(got == &items[slot] || shortened || (twice && got != NULL), "gdw_path_get(%s) does not find child %zu (%s at %zu)", path,
                   slot, got ? "another value" : "nothing", bad);
    }
    (void)gdw_path_get(root, (const char *)data, size < 200 ? size : 200, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    if (in.extra & 1u) {
        decode_under_pressure(&in);
        return 0;
    }
    const gdw_dialect *d = in.dialect;
    in.opt.watch_engine = (in.extra & 2u) != 0; /* byte 1 bit 4: gdw_doc_engine_same is found, and checked */
    gdw_doc *doc = NULL;
    size_t used = 0;
    gdw_error err;
    memset(&g_settle, 0, sizeof g_settle);
    gdw_status s0 = gdw_decode(d, in.packet, in.len, &in.opt, NULL, &doc, &used, &err);
    if (s0 != GDW_OK) {
        FUZZ_CHECK(doc == NULL, "a failed decode returned a document");
        fuzz_check_error(s0, &err, in.len);
        return 0;
    }
    FUZZ_CHECK(used <= in.len, "consumed %zu of %zu", used, in.len);
    fuzz_check_doc(doc, in.len, in.opt.mode);
    if (in.opt.mode == GDW_MODE_ENGINE_EXACT) check_key_work(in.len);
    if (in.opt.mode != GDW_MODE_ENGINE_EXACT && gdw_doc_engine_same(doc)) check_engine_same(&in, doc, used);
    const gdw_value *v1 = gdw_doc_root(doc);
    check_paths(v1, data, size);
    uint8_t *e1 = NULL, *e2 = NULL;
    size_t n1 = 0, n2 = 0;
    gdw_status s = fuzz_encode(d, v1, &e1, &n1);
    if (s != GDW_OK) {
        FUZZ_CHECK(fuzz_encode_refusal_allowed(s), "%s: re-encoding a decoded value failed: %s", gdw_dialect_name(d), gdw_status_name(s));
        gdw_doc_free(doc);
        return 0;
    }
    /* gdw_check takes strict acceptance for "the dialect's encoder writes exactly these bytes":
     * so whatever strict mode accepts, gdwire's encoder must write back byte for byte. (The
     * converse has exceptions where gdwire keeps what the engine would normalise and writes it
     * back as it came: strings that are not strict UTF-8, a Godot 2 InputEvent length word that
     * does not match its type, a Pandemonium 5 element type id with no type.) Not in
     * engine-exact mode, whose values carry the engines' read defects. */
    if (in.opt.mode != GDW_MODE_ENGINE_EXACT) {
        gdw_decode_options so = in.opt;
        so.mode = GDW_MODE_STRICT;
        so.allow_trailing = true;
        size_t sused = 0;
        bool strict_ok = gdw_validate(d, in.packet, in.len, &so, &sused, &err) == GDW_OK && sused == used;
        bool same = n1 == used && memcmp(e1, in.packet, used) == 0;
        if (strict_ok && !same) {
            /* the engines write NodePath("/") with the absolute flag but read it back as the
             * empty path (fuzz_values_match): strict accepts the engine's bytes and gdwire writes
             * flags 0. Only those flags words may differ, found on the wire (compatible mode
             * drops the flag from the value, so the tree cannot tell). */
            bare_flags bf;
            memset(&bf, 0, sizeof bf);
            gdw_decode_options to = so;
            to.trace = collect_bare_flags;
            to.trace_ctx = &bf;
            FUZZ_CHECK(gdw_validate(d, in.packet, in.len, &to, NULL, &err) == GDW_OK, "%s: strict validation with a trace differs", gdw_dialect_name(d));
            FUZZ_CHECK(n1 == used && bf.n > 0 && !bf.overflow && differ_only_at(e1, in.packet, used, &bf),
                       "%s (%s mode): strict accepts the packet, but gdwire's encoder writes other bytes (beyond %zu bare NodePath flags words)",
                       gdw_dialect_name(d), gdw_mode_name(in.opt.mode), bf.n);
        }
    }
    gdw_decode_options o2 = in.opt;
    o2.mode = GDW_MODE_COMPATIBLE;
    o2.allow_objects |= gdw_dialect_objects_by_default(d); /* 3.0/3.1 write a null Object in full */
    gdw_doc *doc2 = NULL;
    size_t used2 = 0;
    s = gdw_decode(d, e1, n1, &o2, NULL, &doc2, &used2, &err);
    FUZZ_CHECK(s == GDW_OK, "%s: gdwire's own encoding is rejected: %s at %zu", gdw_dialect_name(d), gdw_status_name(s), err.offset);
    FUZZ_CHECK(used2 == n1, "%s: own encoding of %zu bytes consumed as %zu", gdw_dialect_name(d), n1, used2);
    const gdw_value *v2 = gdw_doc_root(doc2);
    if (!fuzz_values_match(v1, v2)) {
        fuzz_print_value("first", v1);
        fuzz_print_value("second", v2);
        FUZZ_CHECK(0, "%s: value changed through encode/decode", gdw_dialect_name(d));
    }
    s = fuzz_encode(d, v2, &e2, &n2);
    FUZZ_CHECK(s == GDW_OK && n2 == n1 && memcmp(e1, e2, n1) == 0, "%s: second encoding differs", gdw_dialect_name(d));
    /* engine-exact mode holds the engine's value (codec/engine/settle.c): what the engine holds,
     * written back, is read back as that same value (settling twice changes nothing) */
    /* (not where the engine's own decoder cannot read back what its encoder wrote: a Vector4 under
     * defect_vec4_advance_12 shifts what follows it, so the value may even be rejected) */
    if (in.opt.mode == GDW_MODE_ENGINE_EXACT && !(gdw_dialect_rule(d, GDW_RULE_DEFECT_VEC4_ADVANCE_12) && fuzz_any(v1, fuzz_is_vector4))) {
        gdw_decode_options o3 = in.opt;
        o3.allow_objects |= gdw_dialect_objects_by_default(d);
        gdw_doc *doc3 = NULL;
        s = gdw_decode(d, e1, n1, &o3, NULL, &doc3, NULL, &err);
        if (s != GDW_ERR_ENGINE_DEFECT) {
            FUZZ_CHECK(s == GDW_OK, "%s: engine-exact rejects the engine value it held: %s at %zu", gdw_dialect_name(d), gdw_status_name(s),
                       err.offset);
            if (!fuzz_values_match(v1, gdw_doc_root(doc3)) && !fuzz_any(v1, is_null_object)) {
                fuzz_print_value("held", v1);
                fuzz_print_value("held after writing it back", gdw_doc_root(doc3));
                FUZZ_CHECK(0, "%s: the engine value is not stable", gdw_dialect_name(d));
            }
        }
        gdw_doc_free(doc3);
    }
    /* a canonical packet's value encodes canonically (a non-canonical one may keep fields the
     * engine's encoder never writes, e.g. an InputEvent length word that does not match its type) */
    o2.mode = GDW_MODE_STRICT;
    o2.allow_trailing = true;
    if (gdw_validate(d, in.packet, in.len, &o2, NULL, &err) == GDW_OK) {
        s = gdw_validate(d, e1, n1, &o2, NULL, &err);
        FUZZ_CHECK(s == GDW_OK, "%s: strict mode accepts the packet but rejects gdwire's encoding of it: %s at %zu", gdw_dialect_name(d),
                   gdw_status_name(s), err.offset);
    }
    free(e1);
    free(e2);
    gdw_doc_free(doc);
    gdw_doc_free(doc2);
    return 0;
}

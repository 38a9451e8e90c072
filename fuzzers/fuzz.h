/* SPDX-License-Identifier: MIT */
/* fuzz.h — what the gdwire fuzz targets share: how the first bytes of an input choose the
 * dialect and mode, and the checks every target makes. A failed check prints what broke and
 * calls abort(), which every fuzzing engine reports as a crash.
 *
 * Input layout for the byte-level targets (decode, validate_vs_decode, strict_implies_compatible,
 * translate, readers):  byte 0  the dialect or engine release whose fuzz_id it is (dialects.h; 0-12 the
 *                      dialects, 13-16 the releases); a byte past the last id folds onto the
 *                      ids by modulo, but committed corpora hold exact ids only (replay_test
 *                      checks), so a new row, which takes the next id, changes none of them
 *              byte 1  bits 0-1 mode (0 compatible, 1 strict, 2 engine-exact, 3 compatible),
 *                      bit 2 allow full Objects, bits 3-7 target-specific
 *              byte 2… the packet
 * An input shorter than 2 bytes is ignored. */
#ifndef GDWIRE_FUZZ_H
#define GDWIRE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/gdwire_check.h"

typedef struct fuzz_input {
    const gdw_dialect *dialect;
    gdw_decode_options opt;
    unsigned extra;       /* byte 1 bits 3-7 */
    const uint8_t *packet;
    size_t len;
} fuzz_input;

/* Every row has a fuzz id (the dialects and the engine releases); the ids are 0 .. rows-1. */
static inline size_t fuzz_id_count(void) { return gdw_row_count(); }
/* The row byte 0 names (see above). */
static inline const gdw_dialect *fuzz_dialect(uint8_t byte0) {
    size_t n = gdw_row_count(), id = byte0 < n ? byte0 : byte0 % n;
    for (size_t i = 0; i < n; i++)
        if (gdw_dialect_fuzz_id(gdw_row_at(i)) == id) return gdw_row_at(i);
    abort(); /* the ids are not 0 .. count-1: codec:table_test says so too */
}

static inline int fuzz_split(const uint8_t *data, size_t size, fuzz_input *in) {
    if (size < 2) return 0;
    in->dialect = fuzz_dialect(data[0]);
    in->opt = gdw_decode_options_default();
    unsigned m = data[1] & 3u;
    in->opt.mode = m == 3 ? GDW_MODE_COMPATIBLE : (gdw_mode)m;
    in->opt.allow_objects = (data[1] & 4u) != 0;
    in->extra = data[1] >> 3;
    in->packet = data + 2;
    in->len = size - 2;
    return 1;
}

#define FUZZ_CHECK(cond, ...)                                                            \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "gdwire fuzz check failed: %s (%s:%d)\n  ", #cond, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* Encode v in d; checks that the sizing pass equals the bytes written. Returns the status;
 * on success *out (malloc'ed) and *len. */
static inline gdw_status fuzz_encode(const gdw_dialect *d, const gdw_value *v, uint8_t **out, size_t *len) {
    size_t need = 0, written = 0;
    gdw_error err;
    gdw_status s = gdw_encode(d, v, NULL, NULL, 0, &need, &err);
    if (s != GDW_OK && s != GDW_ERR_TRUNCATED) return s;
    uint8_t *buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL, "out of memory");
    s = gdw_encode(d, v, NULL, buf, need, &written, &err);
    FUZZ_CHECK(s == GDW_OK, "%s: sizing said %zu bytes, encoding failed with %s", gdw_dialect_name(d), need, gdw_status_name(s));
    FUZZ_CHECK(written == need, "%s: sizing pass %zu bytes, wrote %zu", gdw_dialect_name(d), need, written);
    *out = buf;
    *len = written;
    return GDW_OK;
}

/* The encoder refuses values a dialect cannot hold exactly; nothing else may fail. The one
 * place that lists the mappings gdwire does not perform silently (docs/fuzzing.md). */
static inline int fuzz_encode_refusal_allowed(gdw_status s) {
    return s == GDW_ERR_UNSUPPORTED_TYPE || /* the type does not exist in the dialect */
           s == GDW_ERR_LOSSY;              /* i64 into Godot 2's i32, f64 into an f32-only field */
}

/* After an encode and decode (in the same dialect, or another): `back` equals
 * `from` as numbers (gdw_value_same_numbers), except for the mappings every engine performs
 * on its own: listed here, and nowhere else.
 *   - Object(null) is written as NIL by dialects without a null-Object form (Godot 3, Godot 4,
 *     Pandemonium: var2bytes of a null Object writes NIL), so it comes back as null.
 *   - A NodePath with no names and no subnames reads back as the empty path, whatever its
 *     flags: `NodePath("/")` is written with the absolute flag and read as `NodePath("")` by
 *     every engine (measured on Godot 3.2.3; docs/dialects.md).
 *   - A typed container whose types are all Variant (`Dictionary[Variant, Variant]`) is an
 *     untyped container: the engines write it without a type header, so it comes back untyped. */
static inline int fuzz_str_same(gdw_str x, gdw_str y) {
    return x.len == y.len && (x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0);
}

static inline const gdw_container *fuzz_typed(const gdw_value *v) { /* NULL if untyped or all Variant */
    const gdw_container *c = gdw_container_of(v);
    return c && (c->key.kind != GDW_DESC_NONE || c->elem.kind != GDW_DESC_NONE) ? c : NULL;
}

static inline int fuzz_values_match(const gdw_value *from, const gdw_value *back) {
    if (gdw_value_same_numbers(from, back)) return 1;
    if (from->type == GDW_OBJECT && (from->flags & GDW_VF_OBJECT_NULL) && back->type == GDW_NIL) return 1;
    if (from->type == GDW_NODE_PATH && back->type == GDW_NODE_PATH) {
        const gdw_nodepath *x = from->u.ext, *y = back->u.ext;
        if (x && y && x->name_count + x->subname_count == 0 && y->name_count + y->subname_count == 0 && y->flags == 0) return 1;
    }
    /* GDW_VF_APPROXIMATE marks an engine-exact value kept as written, which equality and encoding
     * ignore (a read back cannot carry it: found by the campaign of 2026-11-24,
     * corpus/regressions/decode/check-e363882fd5) */
    uint16_t ignore = (uint16_t)(GDW_VF_APPROXIMATE | (from->type == GDW_ARRAY || from->type == GDW_DICTIONARY ? GDW_VF_TYPED : 0));
    if (from->type != back->type || from->len != back->len || (from->flags & ~ignore) != (back->flags & ~ignore)) return 0;
    const gdw_value *a, *b;
    if (from->type == GDW_OBJECT) { /* a full Object: class, then name/value pairs */
        const gdw_object *x = from->u.ext, *y = back->u.ext;
        if (!x || !y || !fuzz_str_same(x->class_name, y->class_name)) return 0;
    } else if (from->type == GDW_ARRAY || from->type == GDW_DICTIONARY || from->type == GDW_TYPED_ARRAY ||
               from->type == GDW_PACKED_TYPED_ARRAY) {
        const gdw_container *x = fuzz_typed(from), *y = fuzz_typed(back);
        if ((x == NULL) != (y == NULL)) return 0;
        if (x && (!gdw_typedesc_equal(&x->key, &y->key) || !gdw_typedesc_equal(&x->elem, &y->elem))) return 0;
    } else return 0;
    size_t n = gdw_children(from, &a);
    if (gdw_children(back, &b) != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (!fuzz_values_match(&a[i], &b[i])) return 0;
    return 1;
}

/* A failed call's report: a known status with a name that reads back, a message, an engine
 * error class with a name, an offset inside the input. */
static inline void fuzz_check_error(gdw_status s, const gdw_error *err, size_t len) {
    const char *name = gdw_status_name(s);
    FUZZ_CHECK(strcmp(name, "UNKNOWN") != 0 && gdw_status_from_name(name) == (int)s, "status %d has no name", (int)s);
    FUZZ_CHECK(strcmp(gdw_strerror(s), "unknown status") != 0, "status %s has no description", name);
    FUZZ_CHECK(err->code == s && err->message != NULL, "%s: the error report is not filled in", name);
    FUZZ_CHECK(strcmp(gdw_engine_error_name(err->engine_error), "?") != 0, "%s: engine error %d has no name", name, (int)err->engine_error);
    FUZZ_CHECK(err->offset <= len && err->value_offset <= err->offset, "%s: offsets %zu/%zu outside the input (%zu)", name, err->value_offset,
               err->offset, len);
}

/* Whether v or a value anywhere inside it satisfies is (gdw_visit, stopped at the first). */
typedef struct fuzz_any_ctx { bool (*is)(const gdw_value *); bool found; } fuzz_any_ctx;
static inline gdw_visit_answer fuzz_any_at(void *ctx, gdw_visit_event ev, const gdw_value *v, const gdw_value *parent, size_t slot,
                                           unsigned depth) {
    (void)ev, (void)parent, (void)slot, (void)depth;
    fuzz_any_ctx *c = (fuzz_any_ctx *)ctx;
    return (c->found = c->is(v)) ? GDW_VISIT_STOP : GDW_VISIT_GO;
}
static inline bool fuzz_any(const gdw_value *v, bool (*is)(const gdw_value *)) {
    fuzz_any_ctx c = {is, false};
    gdw_visit(v, GDW_VISIT_PRE, fuzz_any_at, &c);
    return c.found;
}

/* A Vector4 or Vector4i, which a dialect with defect_vec4_advance_12 (Pandemonium) reads as its
 * engine does: all four components, then on by 12 bytes, so in engine-exact mode a packet holding
 * one is consumed short and its value, written back, does not read back as itself (the engine's
 * own round trip does not either: tools/engines/pandemonium-4.9-packets.tsv). */
static inline bool fuzz_is_vector4(const gdw_value *v) { return v->type == GDW_VECTOR4 || v->type == GDW_VECTOR4I; }

/* A NodePath without parts (the empty path, or NodePath("/") where the dialect keeps it):
 * the engines without nodepath_bare_absolute write "/" with the absolute flag but read it back
 * as the empty path (fuzz_values_match maps the two). */
static inline bool fuzz_is_bare_nodepath(const gdw_value *v) {
    const gdw_nodepath *np = v->type == GDW_NODE_PATH ? v->u.ext : NULL;
    return np && np->name_count + np->subname_count == 0;
}

/* Every component accessor on every value of a decoded tree (reads each one: ASan sees any
 * read past the document), and the document stays within its documented heap bound. */
static inline gdw_visit_answer fuzz_components_at(void *ctx, gdw_visit_event ev, const gdw_value *v, const gdw_value *parent, size_t slot,
                                                  unsigned depth) {
    (void)ctx, (void)ev, (void)parent, (void)slot, (void)depth;
    size_t n = gdw_type_components((gdw_type)v->type);
    int packed = v->type >= GDW_PACKED_BYTE_ARRAY && v->type <= GDW_PACKED_COLOR_ARRAY;
    size_t total = packed ? (size_t)v->len * (v->type == GDW_PACKED_BYTE_ARRAY ? 1 : n) : n;
    if (v->type == GDW_FLOAT) total = 1;
    volatile double sink = 0;
    for (size_t i = 0; i < total; i++)
        sink += gdw_type_has_reals((gdw_type)v->type) ? gdw_value_real(v, i) : (double)gdw_value_int_at(v, i);
    /* the bulk reader reads the same components as the one-at-a-time one */
    double bulk[16];
    for (size_t from = 0, got; (got = gdw_value_reals(v, from, 16, bulk)) > 0; from += got)
        for (size_t i = 0; i < got; i++) {
            double one = gdw_value_real(v, from + i);
            FUZZ_CHECK(memcmp(&one, &bulk[i], sizeof one) == 0, "gdw_value_reals disagrees with gdw_value_real at component %zu", from + i);
        }
    (void)sink;
    return GDW_VISIT_GO;
}
static inline void fuzz_walk_components(const gdw_value *v) { gdw_visit(v, GDW_VISIT_PRE, fuzz_components_at, NULL); }

/* ... in the bound of the mode it was decoded in (engine-exact builds the engine's values too:
 * its bound is larger; issue 32 found the engine-exact bound asserted as compatible's) */
static inline void fuzz_check_doc(const gdw_doc *doc, size_t len, gdw_mode mode) {
    fuzz_walk_components(gdw_doc_root(doc));
    gdw_decode_options o = gdw_decode_options_default();
    o.mode = mode;
    size_t bound = gdw_decode_heap_bound(len, &o);
    FUZZ_CHECK(gdw_doc_heap_bytes(doc) <= bound, "document holds %zu heap bytes, the %s bound for %zu input bytes is %zu",
               gdw_doc_heap_bytes(doc), gdw_mode_name(mode), len, bound);
}

static inline void fuzz_print_value(const char *what, const gdw_value *v) {
    char *t = gdw_text_print_alloc(v, NULL, NULL);
    fprintf(stderr, "  %s: %.2000s\n", what, t ? t : "(out of memory)");
    free(t);
}

/* The JSON form (or plain JSON: docs/json.md, what JSON cannot say wrapped) of v reads back equal; then,
 * damaged (one byte changed, or the text cut there, as data's first and last bytes say), it parses or
 * fails cleanly. text names v in a message (NULL: none). */
static inline void fuzz_check_json(const gdw_value *v, bool plain, const char *text, const uint8_t *data, size_t size) {
    char *json = plain ? gdw_json_print_plain_alloc(v, 0, NULL, NULL) : gdw_json_print_alloc(v, NULL, NULL);
    FUZZ_CHECK(json != NULL, "out of memory");
    gdw_status (*parse_json)(const char *, size_t, const gdw_allocator *, gdw_doc **, gdw_error *) = plain ? gdw_json_parse_plain : gdw_json_parse;
    gdw_doc *again = NULL;
    gdw_error err;
    size_t jlen = strlen(json);
    gdw_status s = parse_json(json, jlen, NULL, &again, &err);
    FUZZ_CHECK(s == GDW_OK && gdw_value_equal(v, gdw_doc_root(again)), "%s round trip fails: %s at %zu (%s)\n  text: %.2000s\n  json: %.2000s",
               plain ? "plain JSON" : "JSON", gdw_status_name(s), err.offset, s ? err.message : "values differ", text ? text : "-", json);
    gdw_doc_free(again);
    if (jlen && size && (data[size - 1] & 2u)) {
        static const char k_jdamage[] = "\"\\{}[],:0-.eE\x80 $";
        size_t at = data[size - 1] % jlen;
        json[at] = k_jdamage[data[0] % (sizeof k_jdamage - 1)];
        size_t cut = data[size - 1] & 1 ? jlen : at;
        gdw_doc *bad = NULL;
        s = parse_json(json, cut, NULL, &bad, &err);
        if (s != GDW_OK) {
            FUZZ_CHECK(bad == NULL, "a failed JSON parse returned a document");
            FUZZ_CHECK(s == GDW_ERR_SYNTAX || s == GDW_ERR_DEPTH, "damaged JSON: %s", gdw_status_name(s));
            fuzz_check_error(s, &err, cut);
        }
        gdw_doc_free(bad);
    }
    free(json);
}


/* The next record of a record stream (the capture and guard targets): byte K, a u16 LE length, that many bytes (cut
 * at the input's end). false at the end: fewer than 3 bytes left. */
static inline bool fuzz_next_record(const uint8_t *data, size_t size, size_t *pos, uint8_t *k, const uint8_t **rec, size_t *n) {
    if (size - *pos < 3) return false;
    *k = data[*pos];
    *n = (size_t)data[*pos + 1] | (size_t)data[*pos + 2] << 8;
    *pos += 3;
    if (*n > size - *pos) *n = size - *pos;
    *rec = data + *pos;
    *pos += *n;
    return true;
}

#endif

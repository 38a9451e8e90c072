/* SPDX-License-Identifier: MIT */
/* value.h — the value wing, what codec/value/ shares with the rest of the library: type facts, the
 * document and its arena, little-endian words and reals, UTF-8, error paths, the tree builder's
 * internals, the walks. It depends on the public header and the dialect table only. */
#ifndef GDWIRE_VALUE_H
#define GDWIRE_VALUE_H

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "codec/gdwire.h"
#include "codec/table/dialects.h"

/* The one writer of an error record, for every call that reports one: *err (NULL: nothing) says
 * code at byte offset, in the value whose header is at value_offset, the engine's error ee and msg
 * (NULL: gdw_strerror(code)), with an empty path (the caller writes one after) and no short_by;
 * returned for the caller's further fields.
 * gdw_error_clear: the call succeeded. */
static inline gdw_error *gdw_error_set(gdw_error *err, gdw_status code, size_t offset,
                                       size_t value_offset, gdw_engine_error ee, const char *msg) {
    if (!err) return NULL;
    /* every field, one by one: a walk's failure costs no clearing of the path's 160 bytes */
    err->code = code;
    err->offset = offset;
    err->value_offset = value_offset;
    err->engine_error = ee;
    err->message = msg ? msg : gdw_strerror(code);
    err->path[0] = 0;
    err->short_by = 0;
    return err;
}
static inline void gdw_error_clear(gdw_error *err) {
    gdw_error_set(err, GDW_OK, 0, 0, GDW_ENGINE_OK, NULL);
}

#define GDW_FLAG16 0x00010000u

/* TRY: return the status of x when it is not GDW_OK (the parsers' one way to pass a failure up). */
#define TRY(x) \
    do { \
        gdw_status st_ = (x); \
        if (st_) return st_; \
    } while (0)

/* ---- Type facts (dialect independent) ------------------------------------------------ */

/* How a type's payload is laid out; the decoder and encoder switch on this, never on a dialect. */
typedef enum gdw_kind {
    K_NIL,
    K_BOOL,
    K_INT,
    K_FLOAT,
    K_STR,
    K_FIXED,
    K_NODEPATH,
    K_RID,
    K_OBJECT,
    K_CALLABLE,
    K_SIGNAL,
    K_DICT,
    K_ARRAY,
    K_TYPED_ARRAY,
    K_PACKED,
    K_PACKED_BYTES,
    K_PACKED_STRINGS,
    K_IMAGE,
    K_INPUT_EVENT
} gdw_kind;

/* Component class of K_FIXED / K_PACKED types. */
typedef enum gdw_comp {
    C_NONE,
    C_REAL /* real_t: width from the dialect */,
    C_F32,
    C_F64,
    C_I32,
    C_I64
} gdw_comp;

typedef struct gdw_type_info {
    uint8_t type; /* gdw_type: the row's own index (a C++ build cannot name it with [GDW_X] =) */
    const char *name;
    uint8_t kind;  /* gdw_kind */
    uint8_t comp;  /* gdw_comp */
    uint8_t ncomp; /* components per value / per element */
} gdw_type_info;

extern const gdw_type_info gdw_types[GDW_TYPE_COUNT];

static inline const gdw_type_info *type_info(unsigned t) { return &gdw_types[t]; }

/* The flags equality compares (node_equal, and the digest: digest.h). RID_ID is not compared: RID()
 * and RID(0) are both the empty RID. INT64_WIRE only says how an int came, not what it is. */
#define GDW_VF_COMPARED (GDW_VF_SHARED | GDW_VF_OBJECT_ID | GDW_VF_OBJECT_NULL | GDW_VF_TYPED)

/* Type t (< GDW_TYPE_COUNT) holds reals (width 4 or 8): gdw_type_has_reals's one definition. */
static inline bool type_has_reals(unsigned t) {
    unsigned c = gdw_types[t].comp;
    return t == GDW_FLOAT || c == C_REAL || c == C_F32 || c == C_F64;
}

/* v's type is one that can have children (gdw_children says which, and where they are): a cheap
 * test before the call, for walks that meet mostly scalars. */
static inline bool gdw_kind_has_children(const gdw_value *v) {
    if (v->type >= GDW_TYPE_COUNT || !v->len) return false;
    unsigned k = type_info(v->type)->kind;
    return k == K_ARRAY || k == K_DICT || k == K_TYPED_ARRAY || k == K_OBJECT;
}

/* A byte string from a pointer and length, and a String-kind value's bytes (C++ has no compound
 * literals, and the amalgamation compiles as C++ too). */
static inline gdw_str str_make(const void *p, size_t n) {
    gdw_str s;
    s.ptr = (const uint8_t *)p;
    s.len = (uint32_t)n;
    return s;
}
static inline gdw_str str_of(const gdw_value *v) { return str_make(v->u.bytes, v->len); }
/* The same bytes. */
static inline bool str_same(gdw_str a, gdw_str b) {
    return a.len == b.len && (a.len == 0 || a.ptr == b.ptr || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* ---- Dictionary keys the engine may find equal ----------------------------------------------
 * The one definition the walk's watch (wire/decode.c keys_kept: a tree whose keys no engine could
 * merge goes without the engine pass) and the engine's merge (engine/keys.c same_node, the exact
 * comparator of a Dictionary's own keys) both read. A plain key is Nil, bool, int, float, String or
 * StringName. Two plain keys may be equal when some row's Dictionary could take them as one: a
 * String and a StringName of the same text alike (Godot 4's StringLikeVariantComparator), numbers
 * by value (-0 as 0, every NaN alike: Variant::hash_compare's). The row's exact comparator is this
 * with one rule more: a String and a StringName are one key only where keys_string_like holds
 * (same_node); so "may be equal" is broader, and keys it finds apart are apart in every row. */
static inline bool gdw_key_string_like(unsigned t) {
    return t == GDW_STRING || t == GDW_STRING_NAME;
}
static inline bool gdw_key_plain(const gdw_value *k) {
    return gdw_key_string_like(k->type) || k->type == GDW_NIL || k->type == GDW_BOOL ||
           k->type == GDW_INT || k->type == GDW_FLOAT;
}
static inline bool gdw_plain_keys_may_equal(const gdw_value *a, const gdw_value *b) {
    bool sa = gdw_key_string_like(a->type), sb = gdw_key_string_like(b->type);
    if (sa != sb) return false;
    if (sa)
        return a->len == b->len && (a->len == 0 || (a->u.bytes[0] == b->u.bytes[0] &&
                                                    memcmp(a->u.bytes, b->u.bytes, a->len) == 0));
    if (a->type != b->type) return false;
    if (a->type == GDW_FLOAT) {
        double x = gdw_value_real(a, 0), y = gdw_value_real(b, 0);
        return x == y || (isnan(x) && isnan(y));
    }
    return a->type == GDW_NIL || a->u.i == b->u.i;
}

/* Bytes per component of class comp, under the real mode real_mode (gdw_real_mode, the row's
 * REAL_MODE rule), of a value whose header is hdr. */
static inline unsigned comp_width_decode(unsigned real_mode, unsigned comp, uint32_t hdr) {
    switch (comp) {
    case C_REAL:
        if (real_mode == GDW_REALS_F64) return 8;
        if (real_mode == GDW_REALS_FLAG64) return (hdr & GDW_FLAG16) ? 8 : 4;
        return 4;
    case C_F64:
    case C_I64: return 8;
    case C_F32:
    case C_I32: return 4;
    default: return 0;
    }
}

/* Bytes per component the dialect's encoder writes. */
static inline unsigned comp_width_encode(const gdw_dialect *d, unsigned comp) {
    if (comp == C_REAL) {
        int mode = gdw_row_rule(d, GDW_RULE_REAL_MODE);
        if (mode == GDW_REALS_F64) return 8;
        if (mode == GDW_REALS_FLAG64) return gdw_row_rule(d, GDW_RULE_ENCODE_MATH_F64) ? 8 : 4;
        return 4;
    }
    return comp_width_decode(0, comp, 0);
}

/* Header bits other than the type byte that carry meaning for type t: gdw_flags_rule(t) is the rule
 * that decides them (GDW_RULE_COUNT: none does), gdw_flags_meaning(t, v) the bits where that rule's
 * value is v (the decoder reads the rule through its noting RULE). */
static inline gdw_rule gdw_flags_rule(unsigned t) {
    const gdw_type_info *ti = type_info(t);
    switch (ti->kind) {
    case K_INT:
    case K_FLOAT: return GDW_RULE_ENGINE_HEADER_WHOLE;
    case K_OBJECT: return GDW_RULE_OBJECT_HEADER_ONLY;
    case K_ARRAY: return GDW_RULE_TYPED_ARRAY_BITS;
    case K_DICT: return GDW_RULE_TYPED_DICT_BITS;
    case K_FIXED:
    case K_PACKED: return ti->comp == C_REAL ? GDW_RULE_REAL_MODE : GDW_RULE_COUNT;
    default: return GDW_RULE_COUNT;
    }
}

static inline uint32_t gdw_flags_meaning(unsigned t, int rule_value) {
    switch (type_info(t)->kind) {
    /* engine_header_whole: no flag bits at all */
    case K_INT:
    case K_FLOAT: return rule_value ? 0 : GDW_FLAG16;
    /* object_header_only: no payload, no id */
    case K_OBJECT: return rule_value ? 0 : GDW_FLAG16;
    case K_ARRAY: return rule_value ? 0x30000u : 0; /* typed_array_bits */
    case K_DICT: return rule_value ? 0xF0000u : 0;  /* typed_dict_bits */
    case K_TYPED_ARRAY: return GDW_FLAG16;
    /* real_mode (0 where no reals) */
    case K_FIXED:
    case K_PACKED: return rule_value == GDW_REALS_FLAG64 ? GDW_FLAG16 : 0;
    default: return 0;
    }
}

/* ---- Arena (arena.h) ---------------------------------------------------------------------- */

#include "codec/value/arena.h"

/* ---- Little-endian words and the decoder's hints ----------------------------------------- */

/* A branch that is all but never taken (a read past the end): the compiler lays it out of line. */
/* GDW_ALWAYS_INLINE: a small helper of the decoder's hot path that the compiler must not call
 * (bench/budget_test notices one called instead: docs/performance.md, "Why it is fast"). */
#if defined(__GNUC__) || defined(__clang__)
#define GDW_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define GDW_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GDW_UNLIKELY(x) (x)
#define GDW_ALWAYS_INLINE inline
#endif

static inline uint32_t rd_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t rd_u64le(const uint8_t *p) {
    return (uint64_t)rd_u32le(p) | ((uint64_t)rd_u32le(p + 4) << 32);
}
static inline void wr_u32le(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void wr_u64le(uint8_t *p, uint64_t v) {
    wr_u32le(p, (uint32_t)v);
    wr_u32le(p + 4, (uint32_t)(v >> 32));
}


/* ---- Reals ------------------------------------------------------------------------------ */

static inline float bits_to_f32(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static inline uint32_t f32_to_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static inline double bits_to_f64(uint64_t b) {
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static inline uint64_t f64_to_bits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Value of a real stored with width w (4 or 8) as raw little-endian bytes at p. */
static inline double real_at(const uint8_t *p, unsigned w) {
    return w == 8 ? bits_to_f64(rd_u64le(p)) : (double)bits_to_f32(rd_u32le(p));
}

/* true if the f64 value x survives a trip through f32 bit for bit (NaN payloads included). */
bool gdw_f64_fits_f32(uint64_t bits);
/* Godot 2 InputEvent: whether an event of this type carries n value words after its length word
 * (KEY 2; MOUSE_BUTTON, JOYSTICK_BUTTON, SCREEN_TOUCH 1; JOYSTICK_MOTION 1 or 2; others 0). */
bool gdw_input_event_words_ok(uint32_t type, uint32_t n);
/* Godot 2 Image: the formats the engine reads (Image::FORMAT_MAX); an empty Image is not checked.
 * */
#define GDW_IMAGE_FORMATS 23u

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* gdw_utf8_check: returns the index of the first offending byte, or (size_t)-1 if p[0..n)
 * is acceptable under rule. */
size_t gdw_utf8_check(const uint8_t *p, size_t n, unsigned rule);
/* gdw_ascii_prefix: how many of p[0..n) lead before the first byte that is not ASCII (n: all ASCII,
 * which every engine's UTF-8 rule keeps as it is). */
size_t gdw_ascii_prefix(const uint8_t *p, size_t n);
/* gdw_plain_ascii: p[0..n) holds only bytes 0x01-0x7F: text every rule reads and keeps as it is,
 * with no NUL to end it (the decoder's plain strings, the encoder's text that needs no check). A
 * word at a time: a byte >= 0x80 or a zero byte sets a top bit of w | (w - 0x01...01) (with no top
 * bit in w, only a zero byte borrows). The last word overlaps the previous one rather than going
 * byte by byte. */
static GDW_ALWAYS_INLINE bool gdw_ascii_word64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return !((w | (w - 0x0101010101010101ull)) & 0x8080808080808080ull);
}
static GDW_ALWAYS_INLINE bool gdw_ascii_word32(const uint8_t *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return !((w | (w - 0x01010101u)) & 0x80808080u);
}
static GDW_ALWAYS_INLINE bool gdw_plain_ascii(const uint8_t *p, size_t n) {
    if (n >= 8) {
        for (size_t i = 0; i + 8 <= n; i += 8)
            if (!gdw_ascii_word64(p + i)) return false;
        return (n % 8) == 0 || gdw_ascii_word64(p + n - 8);
    }
    if (n >= 4) return gdw_ascii_word32(p) && gdw_ascii_word32(p + n - 4);
    for (size_t i = 0; i < n; i++)
        if (p[i] == 0 || p[i] >= 0x80) return false;
    return true;
}
/* gdw_utf8_engine_value: a string the Godot 3 rule accepted, as the engine's String holds it under
 * value_rule (gdw_utf8_value) and String::utf8() writes it back. Returns (size_t)-1 when that is
 * the same bytes; else writes the new form to out (when not NULL: room for n bytes, it is never
 * longer) and returns its length. */
size_t gdw_utf8_engine_value(const uint8_t *p, size_t n, unsigned value_rule, uint8_t *out);

/* ---- Error paths (path.c): the one writer of gdw_error.path -------------------------------- */

#define GDW_PATH_KEY_SHOWN 24 /* bytes of a key or name a path shows; "..." marks the rest */

typedef enum gdw_path_in { GDW_PATH_IN_ARRAY, GDW_PATH_IN_DICT, GDW_PATH_IN_OBJECT } gdw_path_in;

/* Each appends to buf (GDW_PATH_MAX bytes, *n used), stops at GDW_PATH_MAX - 1, keeps the NUL. */
void gdw_path_put(char *buf, size_t *n, const char *s, size_t len); /* literal */
void gdw_path_uint(char *buf, size_t *n, const char *before, uint32_t v, const char *after);
/* escaped input text */
void gdw_path_text(char *buf, size_t *n, const uint8_t *p, size_t len, bool quoted);
/* One step down: slot of a container (for dictionaries and objects, even slots are keys/names
 * and odd slots values); key: the text of the slot's key when it is a string, else NULL. */
void gdw_path_step(char *buf, size_t *n, gdw_path_in in, uint32_t slot, const uint8_t *key,
                   size_t key_len);
/* The step to child `slot` of parent (its children as gdw_children gives them): how the parent
 * holds it, and for a Dictionary value or Object property the key text where it is a string. */
void gdw_path_child(char *buf, size_t *n, const gdw_value *parent, uint32_t slot);

/* ---- The tree builder (build.c): what the text and JSON readers build with ------------------- */

/* gdw_builder_doc: the document being built (made at the first call); NULL after a failure. */
gdw_doc *gdw_builder_doc(gdw_builder *b);
/* gdw_build_alloc: n bytes in that document; NULL (the builder failed with NOMEM) on failure. */
void *gdw_build_alloc(gdw_builder *b, size_t n);
/* gdw_build_fail: record the first failure (its path: where the next value goes); returns it. */
gdw_status gdw_build_fail(gdw_builder *b, gdw_status code, const char *message);
/* gdw_build_blame: the builder's failure as a reader of text reports it: a broken rule of a value
 * (INVALID_ARG) is the input's fault, GDW_ERR_SYNTAX; NOMEM, DEPTH and TOO_LARGE stay. */
gdw_status gdw_build_blame(const gdw_builder *b, const char **message);
/* gdw_build_put: a finished value whose bytes are already in the document, as the next value. */
gdw_status gdw_build_put(gdw_builder *b, const gdw_value *v);
/* gdw_build_open: open a container: head gives type and flags, ext the gdw_container (typed) or
 * gdw_object (full Object) its items go into at gdw_build_end, else NULL. */
gdw_status gdw_build_open(gdw_builder *b, const gdw_value *head, void *ext);
size_t gdw_builder_depth(const gdw_builder *b); /* containers open */
/* gdw_builder_top: the innermost open container's head (*top); whether it has an extra part (an
 * Object, a typed container) . Only with a container open. */
bool gdw_builder_top(const gdw_builder *b, const gdw_value **top);
size_t gdw_builder_open_count(const gdw_builder *b); /* values in the innermost one so far */
/* gdw_build_components: a math type or packed array of type t whose n components are already in
 * the document at bytes (little-endian, gdw_comp_bytes(t, width) each; width 4 or 8 for reals,
 * ignored for integer types): the count checked as for every way of building one. */
gdw_status gdw_build_components(gdw_builder *b, gdw_type t, const uint8_t *bytes, size_t n,
                                unsigned width);
/* gdw_descs_refused: NULL, or why the element types of a typed container of kind (K_DICT, K_ARRAY,
 * K_TYPED_ARRAY) break the rules every way of building one holds (gdw_build_open checks them; a
 * reader may too, earlier, to point at the element type). ct NULL: untyped. */
const char *gdw_descs_refused(unsigned kind, const gdw_container *ct);
/* Bytes per component of a value of a math or packed type ti whose reals have width w. */
unsigned gdw_comp_bytes(const gdw_type_info *ti, unsigned w);

/* ---- Tree walk (walk.c): depth first, no recursion ----------------------------------------- */

#define GDW_WALK_MAX_DEPTH (GDW_HARD_MAX_DEPTH + 1) /* a decoded tree is at most this deep */

/* The chain of a depth-first pair walk (gdw_walk_pair; equal.c): the a-side nodes it is inside,
 * each with its slot in its parent. At each pair the walk pops it to the pair's parent
 * (gdw_chain_pop_to) and, to go below the pair, pushes it (gdw_chain_push); the path of a pair is
 * the chain's steps and its own (gdw_chain_path). gdw_value_diff's and gdw_doc_approximate's
 * (approximate.c); gdw_pair_children is their walks' children (gdw_children). */
typedef struct gdw_chain {
    struct {
        const gdw_value *node, *parent;
        uint32_t slot;
    } at[GDW_WALK_MAX_DEPTH + 2];
    unsigned depth;
} gdw_chain;
void gdw_chain_pop_to(gdw_chain *ch, const gdw_value *parent);
void gdw_chain_push(gdw_chain *ch, const gdw_value *x, const gdw_value *parent, size_t slot);
void gdw_chain_path(const gdw_chain *ch, const gdw_value *parent, uint32_t slot, char *path);
size_t gdw_pair_children(void *ctx, const gdw_value *v, const gdw_value **items);

/* What a walk calls: enter before a value's children (a scalar: its whole text), before ahead
 * of child `slot` of container parent, leave after the children; parent is NULL at the top.
 * too_deep instead of enter/leave for a value below GDW_WALK_MAX_DEPTH levels. */
typedef struct gdw_walk_visitor {
    void (*enter)(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot);
    /* NULL: nothing to do there */
    void (*before)(void *ctx, const gdw_value *parent, uint32_t slot);
    void (*leave)(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot);
    void (*too_deep)(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot);
    void *ctx;
    /* NULL, or true to stop the walk where it is (a printer that is full) */
    bool (*done)(void *ctx);
    /* NULL, or true (asked after enter) to leave out v's children */
    bool (*skip)(void *ctx, const gdw_value *v);
} gdw_walk_visitor;

void gdw_walk(const gdw_value *root, const gdw_walk_visitor *w);
/* A container or a full Object: a printer opens it in enter and closes it in leave. */
bool gdw_walk_opens(const gdw_value *v);

/* gdw_walk_pair: two trees in step, depth first, without recursion. compare judges each pair of
 * nodes (the roots first, parent NULL; else the a-side parent and the slot): differ (the walk
 * answers false), the same with nothing below to compare, or the same so far: then children gives
 * each side's items (the counts must match). Deeper than GDW_WALK_MAX_DEPTH: false. */
enum { GDW_PAIR_DIFFER, GDW_PAIR_SAME, GDW_PAIR_DESCEND };
typedef int (*gdw_pair_fn)(void *ctx, const gdw_value *a, const gdw_value *b,
                           const gdw_value *parent, size_t slot);
typedef size_t (*gdw_children_fn)(void *ctx, const gdw_value *v, const gdw_value **items);
bool gdw_walk_pair(const gdw_value *a, const gdw_value *b, gdw_pair_fn compare,
                   gdw_children_fn children, void *ctx);


/* gdw_nodepath_split_text (nodepath.c): a NodePath's text p[0..n) split into names (between '/'s,
 * up to the first ':'; a leading '/' makes it absolute) and subnames (between ':'s after it), the
 * one skeleton of the text form's, Godot 2's and Godot 4's readers; each says its rules. Writes the
 * counts and flags to *out and the parts, names then subnames, pointing into p, to parts (NULL:
 * count only; else room for out->names + out->subnames of a counting call). Returns false, for
 * strict rules only, with out->bad_at and why. */
typedef struct gdw_nodepath_rules {
    /* the text form: an empty name or subname is an error. Else (the engines) empty names are
     * skipped, an empty subname before the last empties the whole path and an empty last one is
     * skipped */
    bool strict;
    bool last_is_property; /* Godot 2: the last subname is the property (flag bit 1) */
    /* Godot 2: a path of no parts has no flags, and subnames with no name, absolute flag or
     * property make no path */
    bool godot2_bare;
} gdw_nodepath_rules;
typedef struct gdw_nodepath_split {
    uint32_t names, subnames, flags;
    size_t bad_at;
    const char *why;
} gdw_nodepath_split;
bool gdw_nodepath_split_text(const uint8_t *p, size_t n, const gdw_nodepath_rules *r,
                             gdw_str *parts, gdw_nodepath_split *out);
/* np holds the split path: its counts, flags and parts. */
static inline void gdw_nodepath_of_split(gdw_nodepath *np, const gdw_nodepath_split *sp,
                                         gdw_str *parts) {
    np->name_count = sp->names;
    np->subname_count = sp->subnames;
    np->flags = sp->flags;
    np->parts = parts;
}

/* gdw_approximate_why: why a value of type have entering a container of element type want is
 * kept as written and marked GDW_VF_APPROXIMATE: what the engine makes of it that gdwire does not
 * compute (the reason gdw_doc_approximate gives; the engine pass reports it too). */
const char *gdw_approximate_why(unsigned want, unsigned have);
/* gdw_undefined_conversion_why: what the engine does where a value entering a container of element
 * type want is converted by a conversion its C++ leaves undefined (the engine pass's trace note;
 * gdw_doc_undefined_conversions). */
const char *gdw_undefined_conversion_why(unsigned want);

#endif

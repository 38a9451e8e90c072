/* SPDX-License-Identifier: MIT */
/* internal.h — shared by the codec's own files only: type facts, arena, cursor, UTF-8. */
#ifndef GDWIRE_INTERNAL_H
#define GDWIRE_INTERNAL_H

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "codec/gdwire.h"
#include "dialects/dialects.h"

#define GDW_FLAG16 0x00010000u

/* TRY: return the status of x when it is not GDW_OK (the parsers' one way to pass a failure up). */
#define TRY(x) do { gdw_status st_ = (x); if (st_) return st_; } while (0)

/* ---- Type facts (dialect independent) ------------------------------------------------ */

/* How a type's payload is laid out; the decoder and encoder switch on this, never on a dialect. */
typedef enum gdw_kind {
    K_NIL, K_BOOL, K_INT, K_FLOAT, K_STR, K_FIXED, K_NODEPATH, K_RID, K_OBJECT, K_CALLABLE,
    K_SIGNAL, K_DICT, K_ARRAY, K_TYPED_ARRAY, K_PACKED, K_PACKED_BYTES, K_PACKED_STRINGS,
    K_IMAGE, K_INPUT_EVENT
} gdw_kind;

/* Component class of K_FIXED / K_PACKED types. */
typedef enum gdw_comp {
    C_NONE, C_REAL /* real_t: width from the dialect */, C_F32, C_F64, C_I32, C_I64
} gdw_comp;

typedef struct gdw_type_info {
    uint8_t type;  /* gdw_type: the row's own index (a C++ build cannot name it with [GDW_X] =) */
    const char *name;
    uint8_t kind;  /* gdw_kind */
    uint8_t comp;  /* gdw_comp */
    uint8_t ncomp; /* components per value / per element */
} gdw_type_info;

extern const gdw_type_info gdw_types[GDW_TYPE_COUNT];

static inline const gdw_type_info *type_info(unsigned t) { return &gdw_types[t]; }

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

/* Bytes per component of class comp in dialect d for a value whose header is hdr. */
static inline unsigned comp_width_decode(const gdw_dialect *d, unsigned comp, uint32_t hdr) {
    switch (comp) {
    case C_REAL:
        if (d->real_mode == GDW_REALS_F64) return 8;
        if (d->real_mode == GDW_REALS_FLAG64) return (hdr & GDW_FLAG16) ? 8 : 4;
        return 4;
    case C_F64: case C_I64: return 8;
    case C_F32: case C_I32: return 4;
    default: return 0;
    }
}

/* Bytes per component the dialect's encoder writes. */
static inline unsigned comp_width_encode(const gdw_dialect *d, unsigned comp) {
    if (comp == C_REAL) {
        if (d->real_mode == GDW_REALS_F64) return 8;
        if (d->real_mode == GDW_REALS_FLAG64) return d->encode_math_f64 ? 8 : 4;
        return 4;
    }
    return comp_width_decode(d, comp, 0);
}

/* Header bits other than the type byte that carry meaning for type t in dialect d. */
uint32_t gdw_meaningful_flags(const gdw_dialect *d, unsigned t);

/* ---- Arena ------------------------------------------------------------------------------ */

typedef struct gdw_chunk gdw_chunk;

/* The work one gdw_engine_settle did on Dictionary keys: keys put in merge tables, slots probed,
 * nodes hashed (a packed array's components and a string's 8-byte words count too) and node
 * pairs compared. Linear in the input whatever the keys (engine_value.c, "the table of keys");
 * fuzzers/decode and codec:engine_value_test hold it to that. A diagnostic kept per thread (the
 * one piece of state the library keeps: gdwire.h says so), so that documents stay as small as
 * the heap-limit vectors measure them. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define GDW_THREAD_LOCAL thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define GDW_THREAD_LOCAL _Thread_local
#elif defined(__GNUC__) || defined(__clang__)
#define GDW_THREAD_LOCAL __thread
#else
#define GDW_THREAD_LOCAL /* no thread-local storage: threads share the diagnostic */
#endif

struct gdw_doc {
    gdw_allocator alloc;
    gdw_chunk *chunks;     /* small allocations are bumped from the first chunk */
    size_t heap_bytes;     /* everything held, chunk headers included */
    gdw_value root;
    size_t approximate;    /* engine-exact: values marked GDW_VF_APPROXIMATE when the tree was made */
};

const gdw_allocator *gdw_default_allocator(void);
gdw_doc *gdw_doc_new(const gdw_allocator *alloc);
/* gdw_arena_alloc: 8-byte aligned, uninitialised; NULL on failure. n == 0 gives a valid pointer. */
void *gdw_arena_alloc(gdw_doc *doc, size_t n);
/* gdw_arena_dup: copy n bytes; NULL on failure. */
void *gdw_arena_dup(gdw_doc *doc, const void *src, size_t n);

/* ---- Cursor: every input read goes through these, and each checks itself --------------------
 * In the spirit of BoringSSL's CBS: a read that would pass the end reads nothing, moves nothing
 * and returns false, and the decoder turns false into its error report (offset, message, engine
 * error). Nothing reads the input without a check of its own, so a check the decoder forgot is
 * a wrong verdict at worst, never a read out of bounds. Invariant: pos <= len. */

/* A branch that is all but never taken (a read past the end): the compiler lays it out of line. */
/* GDW_ALWAYS_INLINE: a small helper of the decoder's hot path that the compiler must not call
 * (bench/budget_test notices when one is called instead: 7 % on nested containers). */
#if defined(__GNUC__) || defined(__clang__)
#define GDW_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define GDW_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define GDW_UNLIKELY(x) (x)
#define GDW_ALWAYS_INLINE inline
#endif

typedef struct gdw_cursor {
    const uint8_t *base;
    size_t len;
    size_t pos;
} gdw_cursor;

static inline size_t cur_left(const gdw_cursor *c) { return c->len - c->pos; }
static inline bool cur_has(const gdw_cursor *c, size_t n) { return n <= c->len - c->pos; }

static inline uint32_t rd_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t rd_u64le(const uint8_t *p) {
    return (uint64_t)rd_u32le(p) | ((uint64_t)rd_u32le(p + 4) << 32);
}
static inline void wr_u32le(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void wr_u64le(uint8_t *p, uint64_t v) {
    wr_u32le(p, (uint32_t)v); wr_u32le(p + 4, (uint32_t)(v >> 32));
}

/* The next 4 or 8 bytes as a little-endian word, or n bytes (a pointer into the input). */
static inline bool cur_u32(gdw_cursor *c, uint32_t *out) {
    if (!cur_has(c, 4)) return false;
    *out = rd_u32le(c->base + c->pos);
    c->pos += 4;
    return true;
}
static inline bool cur_u64(gdw_cursor *c, uint64_t *out) {
    if (!cur_has(c, 8)) return false;
    *out = rd_u64le(c->base + c->pos);
    c->pos += 8;
    return true;
}
static inline bool cur_bytes(gdw_cursor *c, size_t n, const uint8_t **out) {
    if (!cur_has(c, n)) return false;
    *out = c->base + c->pos;
    c->pos += n;
    return true;
}
/* Looking ahead without moving: the word or n bytes that start `ahead` bytes after pos. */
static inline bool cur_peek_u32(const gdw_cursor *c, size_t ahead, uint32_t *out) {
    if (ahead > cur_left(c) || !(4 <= cur_left(c) - ahead)) return false;
    *out = rd_u32le(c->base + c->pos + ahead);
    return true;
}
static inline bool cur_peek_bytes(const gdw_cursor *c, size_t ahead, size_t n, const uint8_t **out) {
    if (ahead > cur_left(c) || n > cur_left(c) - ahead) return false;
    *out = c->base + c->pos + ahead;
    return true;
}
static inline bool cur_skip(gdw_cursor *c, size_t n) {
    if (!cur_has(c, n)) return false;
    c->pos += n;
    return true;
}
/* Bytes already read, again (a dictionary key for an error's path): [off, off + n) before pos. */
static inline bool cur_behind(const gdw_cursor *c, size_t off, size_t n, const uint8_t **out) {
    if (off > c->pos || n > c->pos - off) return false;
    *out = c->base + off;
    return true;
}

/* ---- Reals ------------------------------------------------------------------------------ */

static inline float bits_to_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t f32_to_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double bits_to_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint64_t f64_to_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* Value of a real stored with width w (4 or 8) as raw little-endian bytes at p. */
static inline double real_at(const uint8_t *p, unsigned w) {
    return w == 8 ? bits_to_f64(rd_u64le(p)) : (double)bits_to_f32(rd_u32le(p));
}

/* true if the f64 value x survives a trip through f32 bit for bit (NaN payloads included). */
bool gdw_f64_fits_f32(uint64_t bits);
/* Godot 2 InputEvent: whether an event of this type carries n value words after its length word
 * (KEY 2; MOUSE_BUTTON, JOYSTICK_BUTTON, SCREEN_TOUCH 1; JOYSTICK_MOTION 1 or 2; others 0). */
bool gdw_input_event_words_ok(uint32_t type, uint32_t n);
/* Godot 2 Image: the formats the engine reads (Image::FORMAT_MAX); an empty Image is not checked. */
#define GDW_IMAGE_FORMATS 23u

/* gdw_decode_shadowed: gdw_decode, and in compatible mode with shadow not NULL, whether strict mode
 * accepts the consumed bytes (*canonical; else *shadow says where strict mode fails) and whether
 * engine-exact mode reads them the same way (*engine_same, when not NULL: then it gives the same
 * verdict and length), found in the same walk: one pass for gdw_check instead of three. */
gdw_status gdw_decode_shadowed(const gdw_dialect *d, const uint8_t *buf, size_t len, const gdw_decode_options *opts,
                               const gdw_allocator *alloc, gdw_doc **out_doc, size_t *consumed, gdw_error *err,
                               gdw_error *shadow, bool *canonical, bool *engine_same);

/* gdw_engine_settle (engine_value.c): in engine-exact mode, turn a decoded tree into the value the
 * engine holds (typed containers converted, Dictionary keys merged) where the dialect asks. opts
 * gives allow_objects, the trace and fail_if_approximate (NULL: none); consumed is the value's
 * length (the offset its events and errors name); err is filled on a LOSSY failure. */
gdw_status gdw_engine_settle(const gdw_dialect *d, gdw_doc *doc, const gdw_decode_options *opts, size_t consumed, gdw_error *err);
/* What a value of type have entering a container of element type want becomes where gdwire keeps
 * it as written (GDW_VF_APPROXIMATE): the reason gdw_doc_approximate gives (engine_value.c). */
const char *gdw_engine_approximate_why(unsigned want, unsigned have);

/* The conversions the engine computes (engine_typed.c). real_width is the dialect's real_t (4 or
 * 8). Color(String) of UTF-8 text: false where the engine's result is not known (text that is not
 * UTF-8; a letter String::to_upper may map into ASCII). Quaternion(Basis): false where the basis is
 * not a rotation (debug builds then hold Quaternion(), release builds the formula). */
float gdw_engine_hex_channel(uint32_t hex, unsigned k);
bool gdw_engine_color_from_text(const uint8_t *p, size_t n, float rgba[4]);
void gdw_engine_basis_from_quaternion(const double q[4], unsigned real_width, double m[9]);
bool gdw_engine_quaternion_from_basis(const double m[9], unsigned real_width, double q[4]);

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* gdw_utf8_check: returns the index of the first offending byte, or (size_t)-1 if p[0..n)
 * is acceptable under rule. */
size_t gdw_utf8_check(const uint8_t *p, size_t n, unsigned rule);
/* gdw_utf8_engine_value: a string the Godot 3 rule accepted, as the engine's String holds it under
 * value_rule (gdw_utf8_value) and String::utf8() writes it back. Returns (size_t)-1 when that is
 * the same bytes; else writes the new form to out (when not NULL: room for n bytes, it is never
 * longer) and returns its length. */
size_t gdw_utf8_engine_value(const uint8_t *p, size_t n, unsigned value_rule, uint8_t *out);

/* ---- Error paths (path.c): the one writer of gdw_error.path -------------------------------- */

#define GDW_PATH_KEY_SHOWN 24 /* bytes of a key or name a path shows; "..." marks the rest */

typedef enum gdw_path_in { GDW_PATH_IN_ARRAY, GDW_PATH_IN_DICT, GDW_PATH_IN_OBJECT } gdw_path_in;

/* Each appends to buf (GDW_PATH_MAX bytes, *n used), stops at GDW_PATH_MAX - 1, keeps the NUL. */
void gdw_path_put(char *buf, size_t *n, const char *s, size_t len);                  /* literal */
void gdw_path_uint(char *buf, size_t *n, const char *before, uint32_t v, const char *after);
void gdw_path_text(char *buf, size_t *n, const uint8_t *p, size_t len, bool quoted);  /* escaped input text */
/* One step down: slot of a container (for dictionaries and objects, even slots are keys/names
 * and odd slots values); key: the text of the slot's key when it is a string, else NULL. */
void gdw_path_step(char *buf, size_t *n, gdw_path_in in, uint32_t slot, const uint8_t *key, size_t key_len);
/* The step to child `slot` of parent (its children as gdw_children gives them): how the parent
 * holds it, and for a Dictionary value or Object property the key text where it is a string. */
void gdw_path_child(char *buf, size_t *n, const gdw_value *parent, uint32_t slot);

/* ---- Numbers of the text and JSON forms (numbers.c) ---------------------------------------- */

/* Each reads the token s[0..n) whole and returns NULL, or why not (a message for gdw_error). */
const char *gdw_number_real(const char *s, size_t n, unsigned width, uint64_t *bits); /* width 4 or 8 */
const char *gdw_number_i64(const char *s, size_t n, int64_t *out);
const char *gdw_number_u64(const char *s, size_t n, uint64_t *out);
/* The width a real read at width 8 gets when its input names none: 4 (bits narrowed) when f32
 * holds it bit for bit and it is not a NaN, else 8. The encoders choose the same. */
unsigned gdw_number_natural_width(uint64_t *bits);

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
size_t gdw_builder_depth(const gdw_builder *b);      /* containers open */
/* gdw_builder_top: the innermost open container's head (*top); whether it has an extra part (an
 * Object, a typed container) . Only with a container open. */
bool gdw_builder_top(const gdw_builder *b, const gdw_value **top);
size_t gdw_builder_open_count(const gdw_builder *b); /* values in the innermost one so far */
/* gdw_build_components: a math type or packed array of type t whose n components are already in
 * the document at bytes (little-endian, gdw_comp_bytes(t, width) each; width 4 or 8 for reals,
 * ignored for integer types): the count checked as for every way of building one. */
gdw_status gdw_build_components(gdw_builder *b, gdw_type t, const uint8_t *bytes, size_t n, unsigned width);
/* gdw_descs_refused: NULL, or why the element types of a typed container of kind (K_DICT, K_ARRAY,
 * K_TYPED_ARRAY) break the rules every way of building one holds (gdw_build_open checks them; a
 * reader may too, earlier, to point at the element type). ct NULL: untyped. */
const char *gdw_descs_refused(unsigned kind, const gdw_container *ct);
/* Bytes per component of a value of a math or packed type ti whose reals have width w. */
unsigned gdw_comp_bytes(const gdw_type_info *ti, unsigned w);

/* ---- Tree walk (walk.c): depth first, no recursion ----------------------------------------- */

#define GDW_WALK_MAX_DEPTH (GDW_HARD_MAX_DEPTH + 1) /* a decoded tree is at most this deep */

/* What a walk calls: enter before a value's children (a scalar: its whole text), before ahead
 * of child `slot` of container parent, leave after the children; parent is NULL at the top.
 * too_deep instead of enter/leave for a value below GDW_WALK_MAX_DEPTH levels. */
typedef struct gdw_walk_visitor {
    void (*enter)(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot);
    void (*before)(void *ctx, const gdw_value *parent, uint32_t slot); /* NULL: nothing to do there */
    void (*leave)(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot);
    void (*too_deep)(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot);
    void *ctx;
    bool (*done)(void *ctx); /* NULL, or true to stop the walk where it is (a printer that is full) */
    bool (*skip)(void *ctx, const gdw_value *v); /* NULL, or true (asked after enter) to leave out v's children */
} gdw_walk_visitor;

void gdw_walk(const gdw_value *root, const gdw_walk_visitor *w);
/* A container or a full Object: a printer opens it in enter and closes it in leave. */
bool gdw_walk_opens(const gdw_value *v);

/* gdw_walk_pair: two trees in step, depth first, without recursion. compare judges each pair of
 * nodes (the roots first, parent NULL; else the a-side parent and the slot): differ (the walk
 * answers false), the same with nothing below to compare, or the same so far: then children gives
 * each side's items (the counts must match). Deeper than GDW_WALK_MAX_DEPTH: false. */
enum { GDW_PAIR_DIFFER, GDW_PAIR_SAME, GDW_PAIR_DESCEND };
typedef int (*gdw_pair_fn)(void *ctx, const gdw_value *a, const gdw_value *b, const gdw_value *parent, size_t slot);
typedef size_t (*gdw_children_fn)(void *ctx, const gdw_value *v, const gdw_value **items);
bool gdw_walk_pair(const gdw_value *a, const gdw_value *b, gdw_pair_fn compare, gdw_children_fn children, void *ctx);

/* ---- Text output (text_print.c, json_print.c): snprintf-like, counts what does not fit -------- */

typedef struct sbuf {
    char *buf;
    size_t cap;
    size_t len;
    bool head; /* stop once full (gdw_text_print_head): the walk and long loops ask sb_done */
} sbuf;

static inline bool sb_done(const sbuf *s) { return s->head && s->len >= s->cap; }
static inline bool sb_done_ctx(void *ctx) { return sb_done((const sbuf *)ctx); }

static inline void sb_put(sbuf *s, const char *p, size_t n) {
    if (s->len < s->cap) {
        size_t room = s->cap - s->len;
        memcpy(s->buf + s->len, p, n < room ? n : room);
    }
    s->len += n;
}
static inline void sb_str(sbuf *s, const char *p) { sb_put(s, p, strlen(p)); }
static inline void sb_fmt(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void sb_fmt(sbuf *s, const char *fmt, ...) {
    char tmp[256]; /* every caller's longest output (an Image header, 4 x u32) fits */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    assert(n >= 0 && (size_t)n < sizeof tmp);
    if (n > 0) sb_put(s, tmp, (size_t)n);
}


/* gdw_print_with: run print into out[0..cap) NUL-terminated, snprintf-like (the length the whole
 * text needs); gdw_print_alloc_with: the same into memory from alloc (NULL: the default), its length in *len (NULL on OOM). The text and
 * JSON printers are both called this way. */
size_t gdw_print_with(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v, char *out, size_t cap);
char *gdw_print_alloc_with(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v, const gdw_allocator *alloc, size_t *len);
/* gdw_print_components: the n components of a math value or packed array, separated by sep;
 * integers in decimal, reals through real (the text form's or the JSON form's writer). */
void gdw_print_components(sbuf *s, const gdw_value *v, size_t n, const char *sep, void (*real)(sbuf *s, uint64_t bits, unsigned width));

#endif

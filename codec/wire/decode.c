/* SPDX-License-Identifier: MIT */
/* decode.c — the decoder and the validator: one walker for every dialect and mode.
 *
 * Bytes are read only through the cursor (wire/wire.h). Containers are walked with an
 * explicit stack of frames, never by recursion, so hostile nesting cannot overflow the C
 * stack. A value is built only when the walker has a destination for it: gdw_validate
 * starts with none and so allocates nothing; gdw_decode also runs without a destination
 * under a container whose count the remaining input cannot hold (the walk is then sure to
 * fail, and only its failure point is wanted).
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "codec/value/digest.h"
#include "codec/wire/walk.h"


/* The walk's mode: every flag below is set by set_mode, from the options' mode, the dialect, a
 * shadow and a trace, and by nothing else (strict_checks and shadow_hit then change as a shadow
 * finds its violation). The runs that occur, and what each flag is in them:
 *
 *   run                      strict exact compat strict_checks shadow lenient       skips_leaves
 *   compatible               -      -     yes    -             -      dialect's (1) no trace
 *   compatible + shadow (2)  -      -     yes    yes(3)        yes    dialect's (1) -
 *   strict                   yes    -     -      yes           -      -             -
 *   engine-exact             -      yes   -      -             -      -             -
 *
 * (1) lenient_strings: no UTF-8 check, padding may be missing (Godot 2 before 2.1.5).
 * (2) gdw_decode_shadowed (gdw_check): compatible verdict and value, and on the way the first
 *     place strict mode would refuse (*shadow), and whether engine-exact mode reads the bytes
 *     the same way (engine_reads_otherwise), so one walk gives all three verdicts.
 * (3) until the first violation is found, then no (nothing more to look for).
 * mode_holds() states the table as invariants; init_ctx asserts them.
 *
 * So every rule is of one of three kinds, each written one way:
 *   STRICT_CHECK(c, cond, ...)   bytes the dialect's encoder never writes: strict mode fails,
 *                                a shadow records the first, other runs skip the test;
 *   engine_way(c, quirk)         the engine reads these bytes otherwise than compatible mode
 *   + engine_reads_otherwise     (its quirks: a verdict or a length changes): engine-exact mode
 *                                takes the engine's way (engine_way, a pure question), and a
 *                                shadow notes that it would differ (the statement beside it);
 *   engine_value(c, quirk)       the engine holds another value from the same bytes (engine-exact
 *   + engine_holds_otherwise     only; the verdict and length are compatible mode's), and a
 *                                decode into a tree notes that the engine's value may differ
 *                                (gdw_doc_engine_same; the pass after the walk makes it there,
 *                                codec/engine: strings its UTF-8 decoder changes, typed
 *                                containers, Dictionary keys it may find equal);
 * and every other check (fail) holds in every mode. */
typedef struct dctx {
    /* read only through RULE, STRICT_RULE, id_in_table and type_at (below), which note what they
     * read */
    const gdw_dialect *row;
    /* the rules and type ids of the row this walk has read (gdw_check_dialect_read); in
     * read.strict_rules those read only for a strict check (STRICT_RULE) */
    gdw_rules_read read;
    gdw_cursor cur;
    uint8_t mode;       /* the options' gdw_mode: strict(c), exact(c), compat(c) ask it */
    bool strict_checks; /* strict checks are evaluated: strict mode, or a shadow still looking */
    gdw_error *shadow;  /* compatible mode with a shadow: the first strict violation goes here */
    bool shadow_hit;
    /* an engine_reads_otherwise place was met: engine-exact mode would read these bytes otherwise
     * (its verdict needs its own walk) */
    bool engine_differs;
    /* an engine_holds_otherwise place was met: the engine may hold another value than this walk's
     * (gdw_doc_engine_same) */
    bool engine_holds_other;
    /* a decode into a tree, not engine-exact, in a dialect whose engine pass changes values (a walk
     * noting its reads: in every dialect): the walk looks for the places engine_holds_otherwise
     * records (WATCHING). Each watched rule is read, and so noted, only where a value makes it
     * matter (see gdw_wire_decode) */
    bool watch_values;
    bool allow_objects;
    bool borrow; /* strings and packed data point into the input (borrow_input) */
    unsigned max_depth;
    gdw_doc *doc; /* arena, NULL when validating */
    gdw_error *err;
    frame *stack;
    unsigned sp;
    /* child slots the open containers announced and the walk has not begun: each needs 4 input
     * bytes or more (see room_for) */
    uint64_t pending;
    size_t value_off; /* header of the value being read */
    size_t str_off;   /* span of the last string content read (for error paths) */
    uint32_t str_len;
    gdw_trace_fn trace; /* options.trace, or NULL */
    void *trace_ctx;
    unsigned tr_type; /* type of the value being read, for trace events */
    /* compatible mode, no shadow, no trace: values without a destination may be skipped by
     * skip_leaf / skip_entry (below) */
    bool skips_leaves;
    /* skips_leaves, and no keys kept (keys, below): leaf_run may read the leaves in a container */
    bool leaf_runs;
    /* A watching validation (gdw_validate_watched) judges a Dictionary's keys as a decode does
     * (keys_kept), without a tree: it reads each key it must judge into key_scratch and keeps it on
     * a stack, keys[0..nkeys) (a Dictionary's own keys start at its frame's key_start); when the
     * stack is full it takes the keys as ones the engine may merge. */
    gdw_value key_scratch;
    gdw_value *keys;
    uint32_t nkeys, keys_cap;
    /* keys_kept is asked: the row's engine may change keys (keys_may_change), or the walk notes its
     * reads (keys_kept reads those rules only where the keys make them matter) */
    bool keys_judged;
    /* a decode into a tree with a digest (options.events): each node is added once it is made
     * (walk), so in the tree's pre-order, which is the wire's order */
    gdw_digest *digest;
    /* room_for refused a destination its storage: the walk is sure to fail, and the nodes made
     * since may be incomplete (a NodePath's count without its parts): not digested */
    bool sure_to_fail;
    /* a decode into a tree with on_node (options.events): each value once it is made (walk) */
    gdw_node_fn on_node;
    void *on_node_ctx;
    gdw_value *root; /* the tree's root (doc->root), NULL validating */
    gdw_cut cut;     /* the cut tree (options.keep_nodes; wire/walk.h, cut.c) */
} dctx;


static inline bool strict(const dctx *c) { return c->mode == GDW_MODE_STRICT; }
static inline bool exact(const dctx *c) { return c->mode == GDW_MODE_ENGINE_EXACT; }
static inline bool compat(const dctx *c) { return c->mode == GDW_MODE_COMPATIBLE; }

/* ---- the row's rules --------------------------------------------------------------------
 * The walk reads its row (its rules and its type table) only through these, and each notes what it
 * read in c->read: a walk's every step follows from the input, the options and what it read of the
 * row, so a row that agrees on all of that walks alike (gdw_dialects_read_alike,
 * gdw_check_dialect_read). Where a rule matters only for some input, the input is tested first, so
 * that the rule is read only there (a Dictionary header's typed bits only when they are set, the
 * whole-header rule only for a header with flag bits or an unknown id): a rule is then noted by
 * where it is read, not by what stands beside it. Rules are read through RULE (table/dialects.h),
 * the one way the walk and the engine pass note them, in every walk (a note is one OR, at a site
 * the input reaches rarely); only the type table's entries, read for every value, are noted only in
 * a walk whose reads are asked for (walk_noting's `notes_reads`). */
/* RULE and STRICT_RULE (table/dialects.h) note what they read; the string reader's facts at a place
 * are its one rule's (STRING_READER names the combination) */
#define STRINGS(c, field) ((void)RULE(c, GDW_RULE_STRING_READER), gdw_strings_of((c)->row)->field)
/* each site reads the rule of its own that decides (gdw_wire_decode) */
#define WATCHING(c) ((c)->watch_values)
/* watching strings: the engine's UTF-8 decoder changes some text (utf8_value), read only where it
 * is asked */
#define WATCHING_STRINGS(c) \
    ((c)->watch_values && RULE(c, GDW_RULE_UTF8_VALUE) != GDW_UTF8_VALUE_BYTES)
#define KEYS_JUDGED(c) ((c)->keys_judged)

static GDW_ALWAYS_INLINE void note_id(dctx *c, uint32_t id) {
    c->read.type_ids |= (uint64_t)1 << (id < 63 ? id : 63);
}
/* Wire id `id` is in the row's table. */
static GDW_ALWAYS_INLINE bool id_in_table(dctx *c, uint32_t id) {
    note_id(c, id);
    return id < c->row->type_count;
}
/* Its type (id_in_table first: it noted the entry). */
static GDW_ALWAYS_INLINE unsigned type_at(const dctx *c, uint32_t id) { return c->row->types[id]; }
/* The type of wire id `id`, GDW_TYPE_COUNT when the table has none. */
static GDW_ALWAYS_INLINE unsigned type_or_none(dctx *c, uint32_t id) {
    return id_in_table(c, id) ? type_at(c, id) : (unsigned)GDW_TYPE_COUNT;
}
/* Compatible mode reads strings leniently (no UTF-8 check, padding may be missing: 2.x before
 * 2.1.5). */
static GDW_ALWAYS_INLINE bool lenient(dctx *c) {
    return compat(c) && RULE(c, GDW_RULE_LENIENT_STRINGS);
}
/* Bytes per component of class comp in a value whose header is hdr (comp_width_decode: the real
 * mode for reals). */
static GDW_ALWAYS_INLINE unsigned comp_width(dctx *c, unsigned comp, uint32_t hdr) {
    return comp_width_decode(comp == C_REAL ? (unsigned)RULE(c, GDW_RULE_REAL_MODE) : 0u, comp,
                             hdr);
}

/* Header bits other than the type byte that carry meaning for type t in the row (a strict check:
 * the rule that says so noted as one). */
static unsigned meaningful_flags(dctx *c, unsigned t) {
    gdw_rule r = gdw_flags_rule(t);
    return r == GDW_RULE_COUNT ? gdw_flags_meaning(t, 0) : gdw_flags_meaning(t, STRICT_RULE(c, r));
}

/* ---- errors ------------------------------------------------------------------------------ */

/* The dictionary key read at off (a whole value, already read): when it is a String or
 * StringName, its content as the engine sees it (after a BOM, before the first NUL). */
static bool string_key(dctx *c, size_t off, const uint8_t **key, uint32_t *key_len) {
    const uint8_t *head, *p;
    if (!cur_behind(&c->cur, off, 8, &head)) return false;
    unsigned wire = head[0];
    if (!id_in_table(c, wire) || type_info(type_at(c, wire))->kind != K_STR) return false;
    size_t len = rd_u32le(head + 4), skip = 0;
    if (!cur_behind(&c->cur, off + 8, len, &p)) return false;
    if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) skip = 3;
    /* a path shows 24 bytes of a key: looking at 25 says whether there are more, so a long key
     * costs the same as a short one each time a path is built (once per traced header) */
    size_t look = len - skip < 25 ? len - skip : 25;
    const uint8_t *nul = look ? (const uint8_t *)memchr(p + skip, 0, look) : NULL;
    *key = p + skip;
    *key_len = (uint32_t)(nul ? (size_t)(nul - p) - skip : len - skip);
    return true;
}

static void build_path(dctx *c, char *buf) {
    size_t n = 0;
    buf[0] = 0;
    /* a full path stops the walk up */
    for (unsigned i = 0; i < c->sp && n < GDW_PATH_MAX - 1; i++) {
        const frame *f = &c->stack[i];
        if (f->next == 0) continue; /* failed in the container's own header */
        uint32_t slot = f->next - 1;
        const uint8_t *key = NULL;
        uint32_t key_len = 0;
        if (f->kind == FR_ARRAY) gdw_path_step(buf, &n, GDW_PATH_IN_ARRAY, slot, NULL, 0);
        else if (f->kind == FR_DICT) {
            if (slot % 2 == 1 && !string_key(c, f->key_off, &key, &key_len)) key = NULL;
            gdw_path_step(buf, &n, GDW_PATH_IN_DICT, slot, key, key_len);
        } else { /* an Object: key_off is the name's only once the name is read (odd slots) */
            if (slot % 2 == 1 && cur_behind(&c->cur, f->key_off, f->key_len, &key))
                key_len = f->key_len;
            gdw_path_step(buf, &n, GDW_PATH_IN_OBJECT, slot, key, key_len);
        }
    }
}

/* ---- tracing (gdw_decode_options.trace) ------------------------------------------------- */

static void __attribute__((noinline))
trace_emit(dctx *c, size_t off, size_t size, const char *field, int64_t number) {
    char path[GDW_PATH_MAX];
    gdw_trace_event ev = {off, size, c->sp, (gdw_type)c->tr_type, field, number, NULL, NULL};
    if (field[0] == 'h' && strcmp(field, "header") == 0) {
        build_path(c, path);
        ev.path = path;
    }
    c->trace(c->trace_ctx, &ev);
}

#define TRACE(c, off, size, field, number) \
    do { \
        if ((c)->trace) trace_emit((c), (off), (size), (field), (int64_t)(number)); \
    } while (0)

static void fill_error(dctx *c, gdw_error *e, gdw_status code, size_t off, gdw_engine_error ee,
                       const char *msg) {
    build_path(c, gdw_error_set(e, code, off, c->value_off, ee, msg)->path);
}

static gdw_status fail(dctx *c, gdw_status code, size_t off, gdw_engine_error ee, const char *msg) {
    if (c->err) fill_error(c, c->err, code, off, ee, msg);
    return code;
}

/* The input ends inside a value: a read of `want` bytes at the cursor found fewer. The error says
 * how many more the value needs at least (gdw_error.short_by): what tells a cut packet from bytes
 * misread (gdw_check_rank). */
static gdw_status fail_short(dctx *c, size_t off, size_t want, gdw_engine_error ee,
                             const char *msg) {
    if (c->err) {
        fill_error(c, c->err, GDW_ERR_TRUNCATED, off, ee, msg);
        size_t left = cur_left(&c->cur);
        c->err->short_by = want > left ? want - left : 0;
    }
    return GDW_ERR_TRUNCATED;
}

/* Bytes the dialect's encoder never writes. Strict mode fails here; a compatible decode with a
 * shadow (gdw_check) records the first such place as strict mode would report it, and goes on
 * reading as the engine does. Callers test c->strict_checks first, so other decodes pay one branch.
 * */
static gdw_status violation_ee(dctx *c, gdw_status code, size_t off, gdw_engine_error ee,
                               const char *msg) {
    if (strict(c)) return fail(c, code, off, ee, msg);
    if (c->shadow && !c->shadow_hit) {
        c->shadow_hit = true;
        fill_error(c, c->shadow, code, off, ee, msg);
    }
    c->strict_checks = false; /* found: the rest of the walk needs no strict checks */
    return GDW_OK;
}
static gdw_status violation(dctx *c, gdw_status code, size_t off, const char *msg) {
    return violation_ee(c, code, off, GDW_ENGINE_NONE, msg);
}

/* A place where the engine reads the bytes otherwise than compatible mode does (quirk: the
 * engine's own reading applies here). Two steps, each one thing: engine_way answers whether this
 * walk takes the engine's reading (engine-exact mode does), and engine_reads_otherwise records,
 * for a shadow, that the engine's verdict may differ (gdw_check then asks engine-exact mode
 * itself). A site computes its quirk once and does both. */
static inline bool engine_way(const dctx *c, bool quirk) { return exact(c) && quirk; }
static inline void engine_reads_otherwise(dctx *c, bool quirk) {
    if (quirk) c->engine_differs = true;
}

/* A place where the engine holds another value from the same bytes, read the same way, or may
 * (its pass decides): engine_value answers whether this walk makes the engine's value itself
 * (engine-exact mode does), engine_holds_otherwise records that the value may differ. */
static inline bool engine_value(const dctx *c, bool quirk) { return exact(c) && quirk; }
static inline void engine_holds_otherwise(dctx *c, bool quirk) {
    if (quirk) c->engine_holds_other = true;
}

/* A strict-only rule: the bytes are not what the dialect's encoder writes (see violation). Built
 * with GDW_STRICT_COVERAGE (codec:strict_coverage_test only), each rule that refuses bytes in
 * strict mode says so by its line: the test holds every rule to a conformance vector that
 * reaches it. */
#ifdef GDW_STRICT_COVERAGE
void gdw_strict_rule_refused(unsigned line);
#define STRICT_REFUSED(c) \
    do { \
        if (strict(c)) gdw_strict_rule_refused(__LINE__); \
    } while (0)
#else
#define STRICT_REFUSED(c) ((void)0)
#endif
#define STRICT_CHECK(c, cond, code, off, msg) \
    do { \
        if ((c)->strict_checks && (cond)) { \
            STRICT_REFUSED(c); \
            gdw_status s_ = violation((c), (code), (off), (msg)); \
            if (s_) return s_; \
        } \
    } while (0)

#define NEED(c, n, ee, msg) \
    do { \
        if (GDW_UNLIKELY(!cur_has(&(c)->cur, (n)))) \
            return fail_short((c), (c)->cur.pos, (n), (ee), (msg)); \
    } while (0)

/* Reads through the cursor (each checks itself, wire/wire.h) that report their own truncation at
 * the read: the next word into x, or the next n bytes into p. After a NEED for a group of words
 * (whose error names the group's start) they cannot fail, and say so in the same words. */
#define READ_U32(c, x, ee, msg) \
    do { \
        if (GDW_UNLIKELY(!cur_u32(&(c)->cur, &(x)))) \
            return fail_short((c), (c)->cur.pos, 4, (ee), (msg)); \
    } while (0)
#define READ_U64(c, x, ee, msg) \
    do { \
        if (GDW_UNLIKELY(!cur_u64(&(c)->cur, &(x)))) \
            return fail_short((c), (c)->cur.pos, 8, (ee), (msg)); \
    } while (0)
#define READ_BYTES(c, p, n, ee, msg) \
    do { \
        if (GDW_UNLIKELY(!cur_bytes(&(c)->cur, (n), &(p)))) \
            return fail_short((c), (c)->cur.pos, (n), (ee), (msg)); \
    } while (0)

/* A signed 32-bit count or length word (strings, arrays, properties): *n, read at *off and traced
 * as `field`; a missing word is `missing`. */
static inline gdw_status read_i32(dctx *c, int32_t *n, size_t *off, const char *field,
                                  const char *missing) {
    *off = c->cur.pos;
    uint32_t x;
    READ_U32(c, x, GDW_ENGINE_ERR_INVALID_DATA, missing);
    *n = (int32_t)x;
    TRACE(c, *off, 4, field, *n);
    return GDW_OK;
}

/* A negative count the engine reads as no items: its loop does not run. Strict mode refuses it. */
static gdw_status negative_as_none(dctx *c, int32_t *n, size_t off, const char *msg) {
    if (*n >= 0) return GDW_OK;
    STRICT_CHECK(c, true, GDW_ERR_BAD_COUNT, off, msg);
    *n = 0;
    return GDW_OK;
}

static gdw_status nomem(dctx *c) {
    return fail(c, GDW_ERR_NOMEM, c->cur.pos, GDW_ENGINE_NONE, "out of memory");
}

/* Every allocation of a walk (its tree's storage) comes through these: a cutting walk past its cut
 * releases what was allocated for a node once it is made (gdw_cut_release). */
static GDW_ALWAYS_INLINE void *alloc(dctx *c, size_t n) {
    c->cut.allocated = true;
    return gdw_arena_alloc(c->doc, n);
}
static void *alloc_dup(dctx *c, const void *p, size_t n) {
    c->cut.allocated = true;
    return gdw_arena_dup(c->doc, p, n);
}

/* Bytes of the input the tree keeps: a copy in the arena, or the input itself (borrow_input). */
static GDW_ALWAYS_INLINE const uint8_t *keep(dctx *c, const uint8_t *p, size_t n) {
    static const uint8_t k_empty[1] = {0};
    return c->borrow ? p : n == 0 ? k_empty : (const uint8_t *)alloc_dup(c, p, n);
}

/* keep for a string whose padding is in the input too: short ones (padded to 32 bytes or less) are
 * copied with their padding (the arena rounds n up to 8, at least padded, so the copy fits), by two
 * fixed-size copies that may overlap: neither a call nor a loop whose exit follows the length */
static GDW_ALWAYS_INLINE const uint8_t *keep_padded(dctx *c, const uint8_t *p, size_t n,
                                                    size_t padded) {
    if (c->borrow || n == 0 || padded > 32) return keep(c, p, n);
    uint8_t *q = (uint8_t *)alloc(c, n);
    if (!q) return NULL;
    /* padded: 4 to 32, a multiple of 4 */
    if (padded >= 16) {
        memcpy(q, p, 16);
        memcpy(q + padded - 16, p + padded - 16, 16);
    } else if (padded >= 8) {
        memcpy(q, p, 8);
        memcpy(q + padded - 8, p + padded - 8, 8);
    } else memcpy(q, p, 4);
    return q;
}

/* ---- strings ----------------------------------------------------------------------------- */

/* Where a string is read (gdw_strings_facts's places): a String value and every other string
 * (class and property names), a NodePath part, a string array entry. */
enum {
    STR_PLAIN = GDW_STR_VALUE,
    STR_PATH_PART = GDW_STR_PATH_PART,
    STR_ARRAY_ENTRY = GDW_STR_ARRAY_ENTRY
};


/* A string's parts, each rule in one function: its bytes and padding on the wire
 * (string_bytes), what the engine sees of them (string_content: the ASCII fast path, a BOM, a
 * NUL), their UTF-8 (string_utf8), and the padding's zeros (string_padding). read_string reads
 * one string through the four. */
typedef struct wire_string {
    const uint8_t *p; /* the len bytes, in the input */
    size_t start, len, pad, have_pad;
    size_t skip, vis; /* the engine sees p[skip, vis): after a BOM, before the first NUL */
    /* the fast path held: ASCII without a NUL (an array entry: before its last byte) */
    bool ascii;
} wire_string;

static gdw_status string_bytes(dctx *c, wire_string *ws, int use) {
    size_t len_off;
    int32_t n = 0;
    /* how this engine checks the string against the bytes left, where it is read (read from the row
     * only where the string does not fit) */
#define PAST_END ((gdw_engine_error)STRINGS(c, past_end_error[use]))
    gdw_status s = read_i32(c, &n, &len_off, "length", "string length missing");
    if (s) return s;
    if (n < 0) return fail(c, GDW_ERR_BAD_LENGTH, len_off, PAST_END, "negative string length");
    size_t len = (size_t)n, pad = (4 - len % 4) % 4;
    if (!cur_has(&c->cur, len))
        return fail_short(c, len_off, len, PAST_END, "string runs past the end");
    if (!cur_has(&c->cur, len + pad)) {
        gdw_engine_error past_end = PAST_END;
        /* the padding may be missing where the engine steps over it unchecked (its count of bytes
         * left goes below zero: any further read fails, as it does here at the end of the input),
         * and in compatible mode where the dialect's strings are lenient */
        bool pad_unchecked = STRINGS(c, padding_unchecked[use]);
        bool engine_skips = pad_unchecked, compat_skips = pad_unchecked || lenient(c);
        if (!(exact(c) ? engine_skips : compat_skips))
            return fail_short(c, c->cur.pos + len, len + pad, past_end, "string padding missing");
        engine_reads_otherwise(c, !engine_skips); /* the engine wants its padding */
        s = c->strict_checks ? violation_ee(c, GDW_ERR_TRUNCATED, c->cur.pos + len, past_end,
                                            "string padding missing")
                             : GDW_OK;
        if (s) return s;
    }
    ws->start = c->cur.pos;
    ws->len = len;
    ws->pad = pad;
    ws->have_pad = cur_left(&c->cur) - len < pad ? cur_left(&c->cur) - len : pad; /* len is there */
    /* cannot fail: len + have_pad are there */
    READ_BYTES(c, ws->p, len + ws->have_pad, PAST_END, "string runs past the end");
#undef PAST_END
    TRACE(c, ws->start, len, "bytes", len);
    if (ws->have_pad) TRACE(c, ws->start + len, ws->have_pad, "padding", pad);
    return GDW_OK;
}

static gdw_status string_content(dctx *c, wire_string *ws, int use) {
    const uint8_t *p = ws->p;
    size_t len = ws->len;
    ws->skip = 0;
    ws->vis = len;
    /* The common case first: ASCII without a NUL (a string array entry: before its final NUL)
     * has no BOM, no NUL inside, and is valid UTF-8 under every rule. */
    size_t body = (use == STR_ARRAY_ENTRY && len && p[len - 1] == 0) ? len - 1 : len;
    ws->ascii = gdw_plain_ascii(p, body);
    const uint8_t *nul;
    if (ws->ascii) {
        nul = body < len ? p + body : NULL;
    } else {
        if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
            STRICT_CHECK(c, true, GDW_ERR_NON_CANONICAL, ws->start,
                         "string starts with a byte order mark");
            ws->skip = 3;
        }
        nul = len > ws->skip ? (const uint8_t *)memchr(p + ws->skip, 0, len - ws->skip) : NULL;
    }
    if (nul) ws->vis = (size_t)(nul - p);
    if (use == STR_ARRAY_ENTRY) {
        /* canonical entries are "bytes NUL" with no NUL before the last byte */
        STRICT_CHECK(c, len == 0 || p[len - 1] != 0 || ws->vis != len - 1, GDW_ERR_NON_CANONICAL,
                     ws->start, "string array entry is not NUL-terminated exactly once");
    } else {
        STRICT_CHECK(c, nul != NULL, GDW_ERR_NON_CANONICAL, (size_t)(ws->start + (nul - p)),
                     "NUL byte inside a string");
    }
    return GDW_OK;
}

/* The visible bytes under the rule the engine applies (none for lenient strings), and, while
 * strict checks are evaluated, under strict mode's rule too. */
static gdw_status string_utf8(dctx *c, wire_string *ws) {
    if (ws->ascii) return GDW_OK;
    /* lenient strings go unchecked; the engine itself applies its rule to them (engine-exact
     * mode is never lenient): noted for any text that is not plain ASCII */
    bool lax = lenient(c);
    engine_reads_otherwise(c, lax);
    unsigned rule = lax         ? (unsigned)GDW_UTF8_UNCHECKED
                    : strict(c) ? (unsigned)GDW_UTF8_STRICT
                                : (unsigned)RULE(c, GDW_RULE_UTF8_RULE);
    const uint8_t *text = ws->p + ws->skip;
    size_t n = ws->vis - ws->skip, at = ws->start + ws->skip, bad = (size_t)-1,
           strict_bad = (size_t)-1;
    /* a shadow holds the string to strict mode's rule as well, and so does a walk watching for
     * values the engine's UTF-8 decoder changes: it keeps text that is valid under the strict
     * rule as it is (shortest forms, no surrogates). Text valid under the strict rule is valid
     * under every dialect's rule (utf8_test), so one pass usually answers both */
    bool also_strict = (c->strict_checks || WATCHING(c)) && rule != GDW_UTF8_STRICT;
    if (also_strict) strict_bad = gdw_utf8_check(text, n, GDW_UTF8_STRICT);
    if (!also_strict || strict_bad != (size_t)-1) bad = gdw_utf8_check(text, n, rule);
    if (bad != (size_t)-1 && !strict(c) && STRINGS(c, bad_utf8_empty)) {
        /* the engine ignores its decoder's failure and holds the empty string */
        gdw_status s = c->strict_checks ? violation_ee(c, GDW_ERR_BAD_UTF8, at + bad,
                                                       GDW_ENGINE_ERR_INVALID_DATA, "invalid UTF-8")
                                        : GDW_OK;
        if (s) return s;
        ws->vis = ws->skip;
        return GDW_OK;
    }
    if (bad != (size_t)-1)
        return fail(c, GDW_ERR_BAD_UTF8, at + bad, GDW_ENGINE_ERR_INVALID_DATA, "invalid UTF-8");
    /* the rule read only where it matters */
    engine_holds_otherwise(c, strict_bad != (size_t)-1 && WATCHING_STRINGS(c));
    if (strict_bad != (size_t)-1 && c->strict_checks)
        return violation_ee(c, GDW_ERR_BAD_UTF8, at + strict_bad, GDW_ENGINE_ERR_INVALID_DATA,
                            "invalid UTF-8");
    return GDW_OK;
}

static gdw_status string_padding(dctx *c, const wire_string *ws) {
    /* padding that is missing was refused where it went missing (string_bytes: in strict mode a
     * violation is an error, and a shadow that records it stops looking) */
    if (!c->strict_checks) return GDW_OK;
    assert(ws->have_pad == ws->pad);
    for (size_t i = 0; i < ws->have_pad && c->strict_checks; i++)
        STRICT_CHECK(c, ws->p[ws->len + i] != 0, GDW_ERR_NONZERO_PADDING, ws->start + ws->len + i,
                     "non-zero string padding");
    return GDW_OK;
}

/* Read one length-prefixed, padded string. *out receives the engine-visible content (after
 * a BOM, before the first NUL); out may be NULL. */
static gdw_status read_string(dctx *c, gdw_str *out, int use) {
    /* every field is string_bytes's; gcc -O1 cannot see that (-Wmaybe-uninitialized) */
    wire_string ws = {0};
    gdw_status s;
    if ((s = string_bytes(c, &ws, use)) || (s = string_content(c, &ws, use)) ||
        (s = string_utf8(c, &ws)) || (s = string_padding(c, &ws)))
        return s;
    c->str_off = ws.start + ws.skip;
    c->str_len = (uint32_t)(ws.vis - ws.skip);
    if (out) {
        out->len = (uint32_t)(ws.vis - ws.skip);
        out->ptr = keep(c, ws.p + ws.skip, ws.vis - ws.skip);
        if (!out->ptr) return nomem(c);
    }
    return GDW_OK;
}

/* Check that bytes [from, from+n) of the input are zero (strict padding). */
static gdw_status zero_pad(dctx *c, size_t from, size_t n) {
    const uint8_t *pad;
    if (!c->strict_checks || !cur_behind(&c->cur, from, n, &pad)) return GDW_OK;
    for (size_t i = 0; i < n && c->strict_checks; i++)
        STRICT_CHECK(c, pad[i] != 0, GDW_ERR_NONZERO_PADDING, from + i, "non-zero padding");
    return GDW_OK;
}

/* ---- containers -------------------------------------------------------------------------- */

/* The heap bound rests on this test (docs/library.md, "Heap bound"). Every child slot of a
 * container, NodePath part and string array entry begins with a 4-byte word of its own, so n
 * new ones fit only if the input left holds 4 bytes for each of them and for every slot the
 * open containers still wait for. Storage is reserved only when they fit; when they do not, the
 * input cannot be complete and the walk fails before it needs the storage. So the storage ever
 * reserved is at most one 16-byte node per 4 input bytes, at every nesting depth together. */
static bool room_for(dctx *c, uint64_t n) {
    bool room = (c->pending + n) * 4 <= cur_left(&c->cur);
    /* a destination left without its storage: the walk will fail */
    if (!room) c->sure_to_fail = true;
    return room;
}

/* Open a container of `slots` child values (storage only if room_for them). */
/* keys_kept judges the keys of a Dictionary of at most this many, others by their count */
#define KEYS_KEPT_MAX 64

/* Open a container of `slots` child values (storage only if room_for them). A cutting walk stores
 * only what its tree may keep: in a kept container at most keep_left slots, or all of a Dictionary
 * whose keys keys_kept will read; in one past the cut none (its children are made into `discarded`,
 * a watched Dictionary's keys kept on the keys stack as a watching validation keeps them). */
static GDW_ALWAYS_INLINE gdw_status open_frame(dctx *c, gdw_value *dst, int kind, uint32_t slots,
                                               gdw_value **items_out) {
    gdw_value *items = NULL;
    uint32_t stored = 0;
    if (dst && slots > 0 && room_for(c, slots)) {
        stored = c->cut.on ? gdw_cut_stored(&c->cut, kind, slots, 2 * KEYS_KEPT_MAX) : slots;
        if (stored && !(items = (gdw_value *)alloc(c, (size_t)stored * sizeof(gdw_value))))
            return nomem(c);
    }
    if (items_out) *items_out = items;
    if (slots == 0) return GDW_OK;
    frame *f = &c->stack[c->sp++];
    c->pending += slots;
    f->kind = (uint8_t)kind;
    f->kept = c->cut.kept;
    f->slots = slots;
    f->next = 0;
    f->stored = stored;
    f->items = items;
    f->key_start = c->nkeys;
    return GDW_OK;
}

static gdw_status read_typedesc(dctx *c, unsigned kind, gdw_typedesc *td) {
    if (kind == GDW_DESC_NONE) {
        if (td) memset(td, 0, sizeof *td);
        return GDW_OK;
    }
    gdw_typedesc tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.kind = (uint8_t)kind;
    if (kind == GDW_DESC_BUILTIN) {
        size_t off = c->cur.pos;
        uint32_t id;
        READ_U32(c, id, GDW_ENGINE_ERR_INVALID_DATA, "type descriptor missing");
        TRACE(c, off, 4, "element type", id);
        if (!id_in_table(c, id))
            return fail(c, GDW_ERR_BAD_VALUE, off, GDW_ENGINE_ERR_INVALID_DATA,
                        "container element type out of range");
        tmp.wire_id = id;
        tmp.builtin = (uint8_t)type_at(c, id);
    } else if (kind == GDW_DESC_CLASS || kind == GDW_DESC_SCRIPT) {
        gdw_status s = read_string(c, td ? &tmp.name : NULL, STR_PLAIN);
        if (s) return s;
    }
    if (td) *td = tmp;
    return GDW_OK;
}

/* ---- the fast path of values without a destination --------------------------------------

 * Validation (and a decode under a container its input cannot fill) only needs to know that a
 * value is well formed. In compatible mode the common leaves have nothing to check beyond their
 * size: Nil, bool, int, float, and a string whose bytes are ASCII without a NUL. These two
 * functions step over such a value and return true, or return false having read nothing: the
 * general reader then reads it, with every check and the exact error report. So the verdict,
 * offsets and paths are the general reader's by construction; validate_vs_decode compares them
 * with a decode (which never takes this path) on every fuzz input. */
/* A string's length word `ahead` bytes on, and its bytes and padding there, ASCII without a NUL:
 * the one form every rule reads as written (no BOM, no NUL, valid UTF-8 under every dialect's rule,
 * the value the engine holds). Reads nothing; false: the general reader decides. */
static GDW_ALWAYS_INLINE bool plain_string_at(const gdw_cursor *cur, size_t ahead, uint32_t *len32,
                                              size_t *padded, const uint8_t **body) {
    if (!cur_peek_u32(cur, ahead, len32) || (int32_t)*len32 < 0) return false;
    size_t len = *len32;
    *padded = len + (4 - len % 4) % 4; /* len < 2^31: no overflow */
    return cur_peek_bytes(cur, ahead + 4, *padded, body) && gdw_plain_ascii(*body, len);
}

/* C and C++ (amalgamation_test) */
typedef char leaf_at_takes_the_scalar_kinds_as_the_first_four
    [K_NIL == 0 && K_BOOL == 1 && K_INT == 2 && K_FLOAT == 3 ? 1 : -1];
/* What leaf_at reads of the row, read without a note (a fast walk's reads are never asked for,
 * above), and held apart so that a run of leaves (leaf_run) keeps it in registers. */
typedef struct leaf_row {
    const uint8_t *types;
    unsigned type_count;
    bool header_whole;
} leaf_row;
static GDW_ALWAYS_INLINE leaf_row leaf_row_of(const gdw_dialect *d) {
    leaf_row r = {d->types, d->type_count, gdw_row_rule(d, GDW_RULE_ENGINE_HEADER_WHOLE) != 0};
    return r;
}

/* A leaf a fast walk reads without read_value (leaf_at): its n bytes (header included, all in the
 * input), type and kind, header, and a string's length (its content starts 8 bytes in; 0 for the
 * other kinds). */
typedef struct leaf {
    const uint8_t *bytes;
    size_t n;
    unsigned type, kind;
    uint32_t hdr, text_len;
} leaf;

/* The value at the cursor, when it is a leaf whose reading checks nothing in compatible mode: nil,
 * bool, int, float, a Callable's header, a string that is ASCII without a NUL (a validation skips
 * them, a decode makes their nodes with make_leaf). False for any other, which read_value reads
 * with every check and the exact error report. Reads nothing past the input; moves nothing. */
static GDW_ALWAYS_INLINE bool leaf_at(const gdw_cursor *cur, leaf_row r, leaf *l) {
    uint32_t hdr, len32;
    size_t n;
    /* the header and the word after it: every leaf but a nil or Callable at the input's end, which
     * read_value reads */
    const uint8_t *head;
    if (!cur_peek_bytes(cur, 0, 8, &head)) return false;
    hdr = rd_u32le(head);
    unsigned wire = hdr & 0xFFu;
    if (wire >= r.type_count) return false;
    /* read_value notes that the engine refuses it */
    if ((hdr & ~0xFFu) && r.header_whole) return false;
    /* the kinds most common first, as comparisons: how gcc lowers a switch here changes with the
     * code around it (docs/performance.md, "Why it is fast") */
    unsigned t = r.types[wire], kind = type_info(t)->kind;
    if (kind == K_STR) {
        const uint8_t *body;
        size_t padded;
        if (!plain_string_at(cur, 4, &len32, &padded, &body)) return false;
        n = 8 + padded;
    } else if (kind <= K_FLOAT) { /* Nil, bool, int, float (static_assert above) */
        len32 = 0;
        n = kind == K_NIL ? 4 : kind == K_BOOL || !(hdr & GDW_FLAG16) ? 8 : 12;
    } else if (kind == K_CALLABLE) {
        len32 = 0;
        n = 4;
    } else {
        return false;
    }
    if (n > 8 && !cur_has(cur, n)) return false; /* a string's bytes are there (body) */
    l->text_len = len32;
    l->n = n;
    l->type = t;
    l->kind = kind;
    l->hdr = hdr;
    l->bytes = head;
    return true;
}

/* A fast walk's leaf without a destination (leaf_at), stepped over as read_value would read it. */
static GDW_ALWAYS_INLINE bool skip_leaf(dctx *c) {
    leaf l;
    if (!leaf_at(&c->cur, leaf_row_of(c->row), &l)) return false;
    c->value_off = c->cur.pos; /* as read_value would: errors after this value report it */
    if (l.kind == K_STR) {
        c->str_off = c->cur.pos + 8;
        c->str_len = l.text_len;
    }
    return cur_skip(&c->cur, l.n);
}

/* The pad (0 to 3) bytes that end at `end` are zero: the high bytes of the word before `end`, which
 * the caller has read (a string's padded bytes, or a string array entry with its length word). */
static GDW_ALWAYS_INLINE bool zero_padding(const uint8_t *end, size_t pad) {
    return pad == 0 || rd_u32le(end - 4) >> (8 * (4 - pad)) == 0;
}

/* One PackedStringArray entry (length, bytes, padding) that is ASCII up to a final NUL (a
 * validation's fast path: it keeps nothing). Not plain_entry below with its outputs unused: its
 * strict test costs a validation (docs/performance.md, "Why it is fast"). */
static inline bool skip_entry(dctx *c) {
    uint32_t len32;
    const uint8_t *p;
    if (!cur_peek_u32(&c->cur, 0, &len32) || (int32_t)len32 < 0) return false;
    size_t l = len32, n = 4 + l + (4 - l % 4) % 4; /* l < 2^31: no overflow */
    if (!cur_peek_bytes(&c->cur, 0, n, &p)) return false;
    size_t body = (l && p[4 + l - 1] == 0) ? l - 1 : l;
    if (!gdw_plain_ascii(p + 4, body)) return false;
    return cur_skip(&c->cur, n);
}

/* The same for an entry a decode keeps, stepped over;
 * *text and *text_len: what the engine sees of it (before the NUL). Where strict checks are
 * evaluated, only an entry they pass: "bytes NUL" with zero padding. Reads nothing and returns
 * false otherwise: read_string decides, with every check and the exact error report. */
static GDW_ALWAYS_INLINE bool plain_entry(dctx *c, const uint8_t **text, size_t *text_len) {
    uint32_t len32;
    const uint8_t *p;
    if (!cur_peek_u32(&c->cur, 0, &len32) || (int32_t)len32 < 0) return false;
    size_t l = len32, n = 4 + l + (4 - l % 4) % 4; /* l < 2^31: no overflow */
    if (!cur_peek_bytes(&c->cur, 0, n, &p)) return false;
    bool nul_ended = l && p[4 + l - 1] == 0;
    size_t body = nul_ended ? l - 1 : l;
    if (!gdw_plain_ascii(p + 4, body)) return false;
    if (c->strict_checks && !(nul_ended && zero_padding(p + n, n - 4 - l))) return false;
    *text = p + 4;
    *text_len = body;
    return cur_skip(&c->cur, n);
}

/* ---- one value --------------------------------------------------------------------------- */

/* How a node holds a leaf, for read_value and make_leaf alike. */
static GDW_ALWAYS_INLINE void node_of_type(gdw_value *dst, unsigned t) {
    memset(dst, 0, sizeof *dst);
    dst->type = (uint8_t)t;
}
static GDW_ALWAYS_INLINE void node_bool(gdw_value *dst, uint32_t v) { dst->u.i = v != 0; }
static GDW_ALWAYS_INLINE void node_int(gdw_value *dst, int64_t v, bool wide) {
    dst->u.i = v;
    if (wide) dst->flags |= GDW_VF_INT64_WIRE;
}
static GDW_ALWAYS_INLINE void node_float(gdw_value *dst, uint64_t bits, bool wide) {
    dst->u.bits = bits;
    dst->width = wide ? 8 : 4;
}
static GDW_ALWAYS_INLINE bool node_text(dctx *c, gdw_value *dst, const uint8_t *body, uint32_t len,
                                        size_t padded) {
    dst->len = len;
    dst->u.bytes = keep_padded(c, body, len, padded);
    return dst->u.bytes != NULL;
}

/* The node of a leaf (leaf_at), as read_value makes it in a fast walk. False: out of memory. */
static GDW_ALWAYS_INLINE bool make_leaf(dctx *c, gdw_value *dst, const leaf *l) {
    node_of_type(dst, l->type);
    bool wide = (l->hdr & GDW_FLAG16) != 0;
    const uint8_t *p = l->bytes + 4; /* after the header; leaf_at has l->n bytes in the input */
    if (l->kind == K_STR) return node_text(c, dst, p + 4, l->text_len, l->n - 8);
    if (l->kind == K_INT)
        node_int(dst, wide ? (int64_t)rd_u64le(p) : (int64_t)(int32_t)rd_u32le(p), wide);
    else if (l->kind == K_FLOAT) node_float(dst, wide ? rd_u64le(p) : rd_u32le(p), wide);
    else if (l->kind == K_BOOL) node_bool(dst, rd_u32le(p));
    return true;
}

static GDW_ALWAYS_INLINE gdw_status read_value(dctx *c, gdw_value *dst, unsigned depth,
                                               const bool notes_reads);

/* Strict: Godot 4 writes bit 16 on real-based types exactly in double builds. */
static gdw_status check_real_width(dctx *c, const gdw_type_info *ti, unsigned w) {
    STRICT_CHECK(c,
                 ti->comp == C_REAL && STRICT_RULE(c, GDW_RULE_REAL_MODE) == GDW_REALS_FLAG64 &&
                     (w == 8) != STRICT_RULE(c, GDW_RULE_ENCODE_MATH_F64),
                 GDW_ERR_NON_CANONICAL, c->value_off,
                 w == 8 ? "64-bit reals in a single-precision dialect"
                        : "32-bit reals in a double-precision dialect");
    return GDW_OK;
}

/* Engine-exact in a single-precision build that reads 64-bit math components into its float
 * real_t (narrow_math_f64): the N doubles at P become N floats, as the engine's C++ assignment
 * narrows them (round to nearest, overflow to inf, NaN stays NaN). Returns the new bytes. */
static const uint8_t *narrow_reals(dctx *c, const uint8_t *p, size_t n) {
    uint8_t *q = (uint8_t *)alloc(c, n * 4);
    if (!q) return NULL;
    for (size_t i = 0; i < n; i++) { /* stored little-endian, as on the wire */
        uint32_t b = f32_to_bits((float)bits_to_f64(rd_u64le(p + 8 * i)));
        q[4 * i] = (uint8_t)b, q[4 * i + 1] = (uint8_t)(b >> 8), q[4 * i + 2] = (uint8_t)(b >> 16),
              q[4 * i + 3] = (uint8_t)(b >> 24);
    }
    return q;
}

static bool narrows(dctx *c, const gdw_type_info *ti, unsigned w) {
    bool quirk = ti->comp == C_REAL && w == 8 && RULE(c, GDW_RULE_NARROW_MATH_F64);
    engine_holds_otherwise(c, quirk);
    return engine_value(c, quirk);
}

static gdw_status read_fixed(dctx *c, gdw_value *dst, unsigned t, uint32_t hdr) {
    const gdw_type_info *ti = type_info(t);
    unsigned w = comp_width(c, ti->comp, hdr);
    size_t size = (size_t)ti->ncomp * w;
    gdw_status s = check_real_width(c, ti, w);
    if (s) return s;
    bool short_projection = t == GDW_PROJECTION && !cur_has(&c->cur, 248) &&
                            RULE(c, GDW_RULE_DEFECT_PROJECTION_248);
    engine_reads_otherwise(c, short_projection);
    if (engine_way(c, short_projection))
        return fail(c, GDW_ERR_ENGINE_DEFECT, c->cur.pos, GDW_ENGINE_ERR_INVALID_DATA,
                    "Pandemonium's Projection decoder wants 248 bytes left");
    size_t at = c->cur.pos;
    const uint8_t *p;
    READ_BYTES(c, p, size, GDW_ENGINE_ERR_INVALID_DATA, "value runs past the end");
    TRACE(c, at, size, "components", w ? w : 4);
    /* the engine reads all four components, then moves on by three */
    bool advance_12 = (t == GDW_VECTOR4 || t == GDW_VECTOR4I) &&
                      RULE(c, GDW_RULE_DEFECT_VEC4_ADVANCE_12);
    engine_reads_otherwise(c, advance_12);
    if (engine_way(c, advance_12)) c->cur.pos = at + 12;
    /* a watching validation notes it as a decode does */
    if (!dst && WATCHING(c)) narrows(c, ti, w);
    if (dst) {
        bool narrow = narrows(c, ti, w);
        dst->width = (uint8_t)(ti->comp == C_I32 ? 0 : narrow ? 4 : w);
        dst->len = ti->ncomp;
        dst->u.bytes = narrow ? narrow_reals(c, p, ti->ncomp) : keep(c, p, size);
        if (!dst->u.bytes) return nomem(c);
    }
    return GDW_OK;
}

static gdw_status read_packed(dctx *c, gdw_value *dst, unsigned t, uint32_t hdr) {
    const gdw_type_info *ti = type_info(t);
    size_t count_off;
    int32_t count = 0;
    gdw_status s = read_i32(c, &count, &count_off, "count", "array count missing");
    if (s) return s;
    if (count < 0)
        return fail(c, GDW_ERR_BAD_COUNT, count_off, GDW_ENGINE_ERR_INVALID_DATA,
                    "negative array count");
    unsigned w = comp_width(c, ti->comp, hdr);
    s = check_real_width(c, ti, w);
    if (s) return s;
    uint64_t elem = (uint64_t)ti->ncomp * w;
    uint64_t size = (uint64_t)count * elem;
    if (size > INT32_MAX)
        return fail(c, GDW_ERR_BAD_COUNT, count_off, GDW_ENGINE_ERR_INVALID_DATA,
                    "array size overflows");
    if (!cur_has(&c->cur, (size_t)size))
        return fail_short(c, count_off, (size_t)size, GDW_ENGINE_ERR_INVALID_DATA,
                          "array runs past the end");
    TRACE(c, c->cur.pos, (size_t)size, "elements", w ? w : 4);
    const uint8_t *p;
    READ_BYTES(c, p, (size_t)size, GDW_ENGINE_ERR_INVALID_DATA, "array runs past the end");
    /* Pandemonium's Vector4 pool arrays: the engine reads w from the z slot */
    bool vec4_w = ti->ncomp == 4 &&
                  (t == GDW_PACKED_VECTOR4_ARRAY || t == GDW_PACKED_VECTOR4I_ARRAY) &&
                  RULE(c, GDW_RULE_DEFECT_VEC4_POOL_W);
    /* a watching validation notes what a decode does */
    if (!dst && WATCHING(c) && !narrows(c, ti, w)) engine_holds_otherwise(c, vec4_w);
    if (dst && narrows(c, ti, w)) {
        dst->width = 4;
        dst->len = (uint32_t)count;
        dst->u.bytes = narrow_reals(c, p, (size_t)count * ti->ncomp);
        if (!dst->u.bytes) return nomem(c);
    } else if (dst) {
        dst->width = (uint8_t)((ti->comp == C_I32 || ti->comp == C_I64) ? 0 : w);
        dst->len = (uint32_t)count;
        engine_holds_otherwise(c, vec4_w);
        if (engine_value(c, vec4_w)) {
            /* changed below: always a copy */
            uint8_t *q = (uint8_t *)alloc_dup(c, p, (size_t)size);
            if (!q) return nomem(c);
            /* the engine reads w from the z slot */
            for (int32_t i = 0; i < count; i++)
                memcpy(q + (size_t)i * elem + 3 * w, q + (size_t)i * elem + 2 * w, w);
            dst->u.bytes = q;
        } else {
            dst->u.bytes = keep(c, p, (size_t)size);
            if (!dst->u.bytes) return nomem(c);
        }
    }
    return GDW_OK;
}

static gdw_status read_packed_bytes(dctx *c, gdw_value *dst, size_t len) {
    size_t pad = (4 - len % 4) % 4;
    size_t off = c->cur.pos;
    const uint8_t *p;
    READ_BYTES(c, p, len, GDW_ENGINE_ERR_INVALID_DATA, "bytes run past the end");
    TRACE(c, off, len, "bytes", len);
    size_t have = cur_left(&c->cur) < pad ? cur_left(&c->cur) : pad;
    size_t pad_off = c->cur.pos;
    if (have) TRACE(c, pad_off, have, "padding", pad);
    cur_skip(&c->cur, have); /* have <= what is left */
    if (c->strict_checks) {
        STRICT_CHECK(c, have < pad, GDW_ERR_TRUNCATED, pad_off, "padding missing");
        gdw_status s = zero_pad(c, pad_off, have);
        if (s) return s;
    }
    if (dst) {
        dst->len = (uint32_t)len;
        dst->u.bytes = keep(c, p, len);
        if (!dst->u.bytes) return nomem(c);
    }
    return GDW_OK;
}

/* Godot 2.0-2.1.4 read a NodePath whose first word lacks bit 31 as its old format: that word is
 * the length of a path string that follows, without padding (`10000000 01000000 61000000` is
 * NodePath("a"), 9 bytes), and NodePath(String) parses it (godotengine/godot @1f363a71, 2.x,
 * core/path_db.cpp NodePath::NodePath(const String &)): absolute after a leading '/'; names
 * between '/'s, empty ones skipped; after the first ':', each ':'-ended part a subname (an empty
 * one makes the whole path empty) and the last part the property (bit 1, "last subname is the
 * property", when not empty). Compatible mode only. */
static gdw_status read_old_nodepath(dctx *c, gdw_value *dst, uint32_t len) {
    size_t off = c->cur.pos;
    uint32_t word;
    /* len, read ahead by the caller */
    READ_U32(c, word, GDW_ENGINE_ERR_INVALID_DATA, "NodePath truncated");
    TRACE(c, off, 4, "old path length", len);
    if (!cur_has(&c->cur, len))
        return fail_short(c, off, len, GDW_ENGINE_ERR_INVALID_DATA,
                          "NodePath string runs past the end");
    const uint8_t *p;
    READ_BYTES(c, p, len, GDW_ENGINE_ERR_INVALID_DATA, "NodePath string runs past the end");
    TRACE(c, off + 4, len, "old path", len);
    if (!dst) return GDW_OK;
    /* the engine's String stops at a NUL */
    const uint8_t *nul = (const uint8_t *)memchr(p, 0, len);
    size_t n = nul ? (size_t)(nul - p) : len;
    /* parse_utf8 leaves the String empty when the bytes are not UTF-8 under its rule, and the
     * path is then the empty one (measured on 3.0-stable: 0f000000 01000000 ff... reads as
     * NodePath()) */
    if (gdw_utf8_check(p, n, RULE(c, GDW_RULE_UTF8_RULE)) != (size_t)-1) n = 0;
    static const gdw_nodepath_rules k_godot2_rules = {
        .strict = false, .last_is_property = true, .godot2_bare = true};
    gdw_nodepath_split sp;
    gdw_nodepath_split_text(p, n, &k_godot2_rules, NULL, &sp);
    uint32_t total = sp.names + sp.subnames;
    gdw_str *parts = total ? (gdw_str *)alloc(c, (size_t)total * sizeof(gdw_str)) : NULL;
    if (total && !parts) return nomem(c);
    gdw_nodepath_split_text(p, n, &k_godot2_rules, parts, &sp);
    /* the parts point into the input: kept unless it is borrowed */
    for (uint32_t i = 0; i < total; i++)
        if (!(parts[i].ptr = keep(c, parts[i].ptr, parts[i].len)) && parts[i].len) return nomem(c);
    gdw_nodepath *np = (gdw_nodepath *)alloc(c, sizeof *np);
    if (!np) return nomem(c);
    gdw_nodepath_of_split(np, &sp, parts);
    dst->u.ext = np;
    return GDW_OK;
}

static gdw_status read_nodepath(dctx *c, gdw_value *dst) {
    size_t off = c->cur.pos;
    uint32_t w0;
    if (!cur_peek_u32(&c->cur, 0, &w0))
        return fail_short(c, off, 4, GDW_ENGINE_ERR_INVALID_DATA, "NodePath truncated");
    TRACE(c, off, 4, "name count", w0);
    if (!(w0 & 0x80000000u)) {
        /* compatible mode reads it where any release of the dialect did; engine-exact mode where
         * the release the row models does */
        bool engine_reads = STRINGS(c, reads_old_nodepath),
             compat_reads = RULE(c, GDW_RULE_NODEPATH_OLD_STRING);
        engine_reads_otherwise(c, compat_reads && !engine_reads);
        if (!(exact(c) ? engine_reads : compat_reads))
            return fail(c, GDW_ERR_BAD_NODEPATH, off, GDW_ENGINE_ERR_INVALID_DATA,
                        "NodePath in the old string format");
        STRICT_CHECK(
            c, true, GDW_ERR_BAD_NODEPATH, off,
            "NodePath in the old string format (read by Godot 2.0-2.1.4 and 3.0.0-3.0.5 only)");
        return read_old_nodepath(c, dst, w0);
    }
    NEED(c, 12, GDW_ENGINE_ERR_INVALID_DATA, "NodePath truncated");
    uint32_t names = w0 & 0x7FFFFFFFu, subs, flags;
    READ_U32(c, w0, GDW_ENGINE_ERR_INVALID_DATA, "NodePath truncated");
    READ_U32(c, subs, GDW_ENGINE_ERR_INVALID_DATA, "NodePath truncated");
    READ_U32(c, flags, GDW_ENGINE_ERR_INVALID_DATA, "NodePath truncated");
    TRACE(c, off + 4, 4, "subname count", subs);
    TRACE(c, off + 8, 4, "flags", flags);
    bool property_bit = RULE(c, GDW_RULE_NODEPATH_PROPERTY_BIT);
    uint32_t known = 1u | (property_bit ? 2u : 0u);
    STRICT_CHECK(c, (flags & ~known) != 0, GDW_ERR_BAD_FLAGS, off + 8,
                 "NodePath flags the encoder never writes");
    uint64_t total = (uint64_t)names + subs + ((flags & 2u) ? 1 : 0);
    /* Every engine adds the two counts in a uint32_t (core/io/marshalls.cpp, 2.x to 4.x):
     * one name and ffffffff subnames is a NodePath of no parts that consumes only its header;
     * engine-exact mode reads what the engine reads (measured on Godot 4.6.3). */
    engine_reads_otherwise(c, total > UINT32_MAX);
    if (engine_way(c, total > UINT32_MAX)) {
        total &= UINT32_MAX;
        if (names > total) names = (uint32_t)total;
        /* a wrapped count never reaches the property slot: Godot 2 takes every part it reads as
         * a name (`i<namecount`) and leaves the property empty, that is, none (godotengine/godot
         * 2.1 core/io/marshalls.cpp decode_variant, NODE_PATH: `int total=namecount+subnamecount;
         * if (flags&2) total++;` ... `else prop=str;`). Found by the campaign of 2026-11-23
         * (corpus/regressions/decode/), where the flag kept made a value no encoder can write. */
        flags &= ~2u;
    }
    /* Godot 2, 3 and 4.0-4.2 build a path without parts as the empty NodePath, dropping the
     * absolute flag, although their encoder writes it for NodePath("/") (checked against Godot
     * 3.2.3 and a 4.2 build; 4.2 core/string/node_path.cpp:345-348 returns before it stores the
     * flag): the value is the empty path, and it re-encodes with flags 0. Godot 4.3 and later keep
     * it: the constructor returns the empty path only when not absolute, and 4.6.3 and 4.3-stable
     * read their own 16000000 00000080 00000000 01000000 back as NodePath("/"). */
    if (total == 0 && (flags & 1u) && !RULE(c, GDW_RULE_NODEPATH_BARE_ABSOLUTE)) flags &= ~1u;
    gdw_str *parts = NULL;
    if (dst && room_for(c, total)) {
        parts = (gdw_str *)alloc(c, (size_t)total * sizeof(gdw_str) + 1);
        if (!parts) return nomem(c);
    }
    for (uint64_t i = 0; i < total; i++) {
        gdw_status s = read_string(c, parts ? &parts[i] : NULL, STR_PATH_PART);
        if (s) return s;
    }
    if (dst) {
        gdw_nodepath *np = (gdw_nodepath *)alloc(c, sizeof *np);
        if (!np) return nomem(c);
        np->name_count = names;
        np->subname_count = (uint32_t)(total - names);
        np->flags = flags & (property_bit ? 3u : 1u);
        np->parts = parts;
        dst->u.ext = np;
    }
    return GDW_OK;
}

static gdw_status read_object(dctx *c, gdw_value *dst, uint32_t hdr) {
    if (RULE(c, GDW_RULE_OBJECT_HEADER_ONLY)) {
        if (dst) dst->flags |= GDW_VF_OBJECT_NULL;
        return GDW_OK;
    }
    if (hdr & GDW_FLAG16) {
        size_t off = c->cur.pos;
        uint64_t id;
        READ_U64(c, id, GDW_ENGINE_ERR_INVALID_DATA, "object id truncated");
        TRACE(c, off, 8, "object id", id);
        STRICT_CHECK(c, id == 0, GDW_ERR_NON_CANONICAL, off,
                     "null object as id 0 (the encoder writes Nil)");
        if (dst) {
            if (id == 0) dst->flags |= GDW_VF_OBJECT_NULL;
            else {
                dst->flags |= GDW_VF_OBJECT_ID;
                dst->u.i = (int64_t)id;
            }
        }
        return GDW_OK;
    }
    if (!c->allow_objects)
        return fail(c, GDW_ERR_OBJECTS_DISALLOWED, c->value_off, GDW_ENGINE_ERR_UNAUTHORIZED,
                    "full object and objects are not allowed");
    gdw_str cls = {NULL, 0};
    size_t cls_off = c->cur.pos;
    gdw_status s = read_string(c, dst ? &cls : NULL, STR_PLAIN);
    if (s) return s;
    if (c->str_len == 0) {
        STRICT_CHECK(c, !STRICT_RULE(c, GDW_RULE_NULL_OBJECT_AS_CLASS), GDW_ERR_NON_CANONICAL,
                     cls_off, "null object as empty class (the encoder writes Nil)");
        if (dst) dst->flags |= GDW_VF_OBJECT_NULL;
        return GDW_OK;
    }
    size_t count_off;
    int32_t count = 0;
    if ((s = read_i32(c, &count, &count_off, "property count", "property count missing")) ||
        (s = negative_as_none(c, &count, count_off, "negative property count")))
        return s;
    gdw_object *obj = NULL;
    if (dst) {
        obj = (gdw_object *)alloc(c, sizeof *obj);
        if (!obj) return nomem(c);
        obj->class_name = cls;
        obj->props = NULL;
        dst->u.ext = obj;
        dst->len = (uint32_t)count;
    }
    return open_frame(c, dst, FR_OBJECT, (uint32_t)count * 2u, obj ? &obj->props : NULL);
}

/* A word whose bit 31 the engine masks off (a container count, an element type): the word in
 * *raw, bits 0-30 in *low, its offset in *off, traced as field. What bit 31 means is the caller's.
 * */
static GDW_ALWAYS_INLINE gdw_status read_masked_u32(dctx *c, size_t *off, uint32_t *raw,
                                                    uint32_t *low, const char *field,
                                                    const char *missing) {
    *off = c->cur.pos;
    READ_U32(c, *raw, GDW_ENGINE_ERR_INVALID_DATA, missing);
    *low = *raw & 0x7FFFFFFFu;
    TRACE(c, *off, 4, field, *raw);
    return GDW_OK;
}

static GDW_ALWAYS_INLINE gdw_status read_container(dctx *c, gdw_value *dst, unsigned t,
                                                   uint32_t hdr) {
    const gdw_type_info *ti = type_info(t);
    bool is_dict = ti->kind == K_DICT;
    unsigned key_kind = 0, elem_kind = 0;
    /* the typed bits (read from the row only where the header has them set: else no kinds either
     * way) */
    if (is_dict && (hdr & 0xF0000u) && RULE(c, GDW_RULE_TYPED_DICT_BITS)) {
        key_kind = (hdr >> 16) & 3u;
        elem_kind = (hdr >> 18) & 3u;
    }
    if (!is_dict && (hdr & 0x30000u) && RULE(c, GDW_RULE_TYPED_ARRAY_BITS))
        elem_kind = (hdr >> 16) & 3u;
    gdw_container *ct = NULL;
    if (key_kind || elem_kind) /* its elements are validated */
        engine_holds_otherwise(c,
                               WATCHING(c) && RULE(c, GDW_RULE_TYPED_RULE) != GDW_TYPED_AS_WRITTEN);
    if ((key_kind || elem_kind) && dst) {
        ct = (gdw_container *)alloc(c, sizeof *ct);
        if (!ct) return nomem(c);
        memset(ct, 0, sizeof *ct);
        dst->flags |= GDW_VF_TYPED;
        dst->u.ext = ct;
    }
    gdw_status s;
    /* the descriptors (an untyped container has none, and ct stays NULL) */
    if (key_kind || elem_kind) {
        if (is_dict && (s = read_typedesc(c, key_kind, ct ? &ct->key : NULL))) return s;
        if ((s = read_typedesc(c, elem_kind, ct ? &ct->elem : NULL))) return s;
    }
    size_t count_off;
    uint32_t raw = 0, n = 0;
    if ((s = read_masked_u32(c, &count_off, &raw, &n, "count", "container count missing")))
        return s;
    if (raw & 0x80000000u) {
        if (RULE(c, GDW_RULE_CONTAINER_SHARED_BIT)) {
            if (dst) dst->flags |= GDW_VF_SHARED;
        } else
            STRICT_CHECK(c, true, GDW_ERR_NON_CANONICAL, count_off,
                         "container count has bit 31 set");
    }
    if (dst) dst->len = n;
    gdw_value **items = !dst ? NULL : ct ? &ct->items : &dst->u.items;
    if (dst && !ct) dst->u.items = NULL;
    return open_frame(c, dst, is_dict ? FR_DICT : FR_ARRAY, is_dict ? n * 2u : n, items);
}

/* Pandemonium 5 TYPED_ARRAY / PACKED_TYPED_ARRAY. */
static gdw_status read_p4_typed_array(dctx *c, gdw_value *dst, uint32_t hdr) {
    NEED(c, 8, GDW_ENGINE_ERR_INVALID_DATA, "typed array truncated");
    size_t off;
    uint32_t raw = 0, id = 0;
    gdw_status s = read_masked_u32(c, &off, &raw, &id, "element type", "typed array truncated");
    if (s) return s;
    STRICT_CHECK(c, (raw & 0x80000000u), GDW_ERR_NON_CANONICAL, off, "element type has bit 31 set");
    unsigned builtin = type_or_none(c, id);
    STRICT_CHECK(c, builtin == GDW_TYPE_COUNT, GDW_ERR_BAD_VALUE, off, "element type out of range");
    bool id_only = (hdr & GDW_FLAG16) != 0;
    STRICT_CHECK(c, id_only && builtin != GDW_OBJECT, GDW_ERR_BAD_FLAGS, c->value_off,
                 "bit 16 on a typed array of non-objects");
    gdw_container *ct = NULL;
    if (dst) {
        ct = (gdw_container *)alloc(c, sizeof *ct);
        if (!ct) return nomem(c);
        memset(ct, 0, sizeof *ct);
        ct->elem.kind = GDW_DESC_BUILTIN;
        ct->elem.builtin = (uint8_t)builtin;
        ct->elem.wire_id = id;
        /* the bit means nothing on other element types */
        ct->elem.id_only = id_only && builtin == GDW_OBJECT;
        dst->flags |= GDW_VF_TYPED;
        dst->u.ext = ct;
    }
    engine_holds_otherwise(c, WATCHING(c) && RULE(c, GDW_RULE_TYPED_RULE) != GDW_TYPED_AS_WRITTEN);
    if (builtin == GDW_OBJECT && !id_only) {
        /* the class name, as a whole StringName Variant */
        size_t noff = c->cur.pos;
        uint32_t nh;
        READ_U32(c, nh, GDW_ENGINE_ERR_INVALID_DATA, "class name missing");
        TRACE(c, noff, 4, "class header", nh);
        unsigned nt = type_or_none(c, nh & 0xFFu);
        if (nt != GDW_STRING_NAME)
            return fail(c, GDW_ERR_BAD_VALUE, noff, GDW_ENGINE_ERR_INVALID_DATA,
                        "typed array class name is not a StringName");
        STRICT_CHECK(c, (nh & ~0xFFu), GDW_ERR_BAD_FLAGS, noff, "flag bits on the class name");
        s = read_string(c, ct ? &ct->elem.name : NULL, STR_PLAIN);
        if (s) return s;
        if (ct) ct->elem.kind = GDW_DESC_CLASS;
    }
    /* The engine reads this count without checking the length (over-read); we stop. */
    size_t count_off;
    uint32_t rawn = 0, n = 0;
    if ((s = read_masked_u32(c, &count_off, &rawn, &n, "count", "typed array count missing")))
        return s;
    STRICT_CHECK(c, (rawn & 0x80000000u), GDW_ERR_NON_CANONICAL, count_off, "count has bit 31 set");
    if (dst) dst->len = n;
    return open_frame(c, dst, FR_ARRAY, n, ct ? &ct->items : NULL);
}

static gdw_status read_packed_strings(dctx *c, gdw_value *dst) {
    size_t off;
    int32_t count = 0;
    gdw_status s;
    if ((s = read_i32(c, &count, &off, "count", "array count missing")) ||
        (s = negative_as_none(c, &count, off, "negative string array count")))
        return s;
    gdw_str *strs = NULL;
    if (dst && room_for(c, (uint64_t)count)) {
        strs = (gdw_str *)alloc(c, (size_t)count * sizeof(gdw_str) + 1);
        if (!strs) return nomem(c);
    }
    if (!strs) { /* a validation (or no room: the walk fails) */
        for (int32_t i = 0; i < count; i++)
            if (!(c->skips_leaves && skip_entry(c)) && (s = read_string(c, NULL, STR_ARRAY_ENTRY)))
                return s;
    } else {
        for (int32_t i = 0; i < count; i++) {
            const uint8_t *text;
            size_t text_len;
            /* what read_string would make of it, and no more */
            if (!c->trace && plain_entry(c, &text, &text_len)) {
                strs[i].len = (uint32_t)text_len;
                if (!(strs[i].ptr = keep(c, text, text_len))) return nomem(c);
            } else if ((s = read_string(c, &strs[i], STR_ARRAY_ENTRY))) {
                return s;
            }
        }
    }
    if (dst) {
        dst->len = (uint32_t)count;
        dst->u.ext = strs;
    }
    return GDW_OK;
}

static gdw_status read_image(dctx *c, gdw_value *dst) {
    NEED(c, 20, GDW_ENGINE_ERR_INVALID_DATA, "Image header truncated");
    size_t off = c->cur.pos, len_off = off + 16;
    uint32_t fmt, mip, wdt, hgt, len32;
    READ_U32(c, fmt, GDW_ENGINE_ERR_INVALID_DATA, "Image header truncated");
    READ_U32(c, mip, GDW_ENGINE_ERR_INVALID_DATA, "Image header truncated");
    READ_U32(c, wdt, GDW_ENGINE_ERR_INVALID_DATA, "Image header truncated");
    READ_U32(c, hgt, GDW_ENGINE_ERR_INVALID_DATA, "Image header truncated");
    READ_U32(c, len32, GDW_ENGINE_ERR_INVALID_DATA, "Image header truncated");
    int32_t datalen = (int32_t)len32;
    TRACE(c, off, 4, "format", fmt);
    TRACE(c, off + 4, 4, "mipmaps", mip);
    TRACE(c, off + 8, 4, "width", wdt);
    TRACE(c, off + 12, 4, "height", hgt);
    TRACE(c, len_off, 4, "data length", datalen);
    /* the format is range-checked before the data length is read, so even an Image without data
     * needs a valid format (godotengine/godot 2.0-stable and 2.1 core/io/marshalls.cpp, Image case:
     * ERR_FAIL_INDEX_V(fmt, Image::FORMAT_MAX) first) */
    if (fmt >= GDW_IMAGE_FORMATS)
        return fail(c, GDW_ERR_BAD_VALUE, off, GDW_ENGINE_ERR_INVALID_DATA,
                    "Image format out of range");
    if (datalen < 0)
        return fail(c, GDW_ERR_BAD_LENGTH, len_off, GDW_ENGINE_ERR_INVALID_DATA,
                    "negative Image data length");
    STRICT_CHECK(c, datalen == 0 && (fmt | mip | wdt | hgt), GDW_ERR_NON_CANONICAL, off,
                 "empty Image with non-zero fields");
    if (!cur_has(&c->cur, (size_t)datalen))
        return fail_short(c, len_off, (size_t)datalen, GDW_ENGINE_ERR_INVALID_DATA,
                          "Image data runs past the end");
    gdw_value tmp;
    gdw_status s = read_packed_bytes(c, dst ? &tmp : NULL, (size_t)datalen);
    if (s) return s;
    /* An Image without data is the empty Image whatever its other fields say: the engine builds one
     * only `if (datalen>0)` (2.0-stable and 2.1 core/io/marshalls.cpp, Image case), and writes the
     * empty one back as zeros (measured on 2.0-stable) */
    bool empty_held = datalen == 0 && (fmt | mip | wdt | hgt);
    engine_holds_otherwise(c, empty_held);
    if (engine_value(c, empty_held)) fmt = mip = wdt = hgt = 0;
    if (dst) {
        gdw_image *im = (gdw_image *)alloc(c, sizeof *im);
        if (!im) return nomem(c);
        im->format = fmt;
        im->mipmaps = mip;
        im->width = wdt;
        im->height = hgt;
        im->data.ptr = tmp.u.bytes;
        im->data.len = tmp.len;
        dst->u.ext = im;
    }
    return GDW_OK;
}

static gdw_status read_input_event(dctx *c, gdw_value *dst) {
    NEED(c, 12, GDW_ENGINE_ERR_INVALID_DATA, "InputEvent truncated");
    size_t llen_off = c->cur.pos + 8;
    uint32_t type, device, llen;
    READ_U32(c, type, GDW_ENGINE_ERR_INVALID_DATA, "InputEvent truncated");
    READ_U32(c, device, GDW_ENGINE_ERR_INVALID_DATA, "InputEvent truncated");
    READ_U32(c, llen, GDW_ENGINE_ERR_INVALID_DATA, "InputEvent truncated");
    TRACE(c, llen_off - 8, 4, "event type", type);
    TRACE(c, llen_off - 4, 4, "device", device);
    TRACE(c, llen_off, 4, "length", llen);
    uint32_t extra;
    switch (type) {
    case 1: extra = 2; break; /* KEY: modifiers, scancode */
    case 3:
    case 5:
    case 6:
        extra = 1;
        break; /* MOUSE_BUTTON, JOYSTICK_BUTTON, SCREEN_TOUCH */
    /* JOYSTICK_MOTION: axis [, f32 value in 2.1-era code] */
    case 4: {
        bool axis_value = RULE(c, GDW_RULE_JOYSTICK_AXIS_VALUE);
        engine_reads_otherwise(c, axis_value != (llen >= 20));
        extra = (engine_way(c, axis_value != (llen >= 20)) ? axis_value : llen >= 20) ? 2 : 1;
    } break;
    default: extra = 0;
    }
    STRICT_CHECK(c, llen != 12 + 4 * extra, GDW_ERR_NON_CANONICAL, llen_off,
                 "InputEvent length word differs from its type");
    NEED(c, 4 * extra, GDW_ENGINE_ERR_INVALID_DATA, "InputEvent truncated");
    gdw_input_event ev = {type, device, llen, extra, {0, 0}};
    for (uint32_t i = 0; i < extra; i++) {
        size_t woff = c->cur.pos;
        READ_U32(c, ev.extra[i], GDW_ENGINE_ERR_INVALID_DATA, "InputEvent truncated");
        TRACE(c, woff, 4, "word", ev.extra[i]);
    }
    /* What the engine holds (every 2.x, core/io/marshalls.cpp, INPUT_EVENT): not the length word,
     * which its encoder writes as 12 + 4 per value word, and of a KEY's modifiers only the four
     * flags it keeps (GDW_KEY_MODIFIER_FLAGS).
     * Measured on 2.0-stable: 13000000 08000000 00000000 01000000 is written back with 0c000000. */
    const uint32_t k_key_mods = GDW_KEY_MODIFIER_FLAGS;
    STRICT_CHECK(
        c, type == 1 && (ev.extra[0] & ~k_key_mods), GDW_ERR_NON_CANONICAL, llen_off + 4,
        "KEY modifiers other than shift, alt, meta and ctrl (the engine keeps only those)");
    bool held_other = llen != 12 + 4 * extra || (type == 1 && (ev.extra[0] & ~k_key_mods));
    engine_holds_otherwise(c, held_other);
    if (engine_value(c, held_other)) {
        ev.llen = 12 + 4 * extra;
        if (type == 1) ev.extra[0] &= k_key_mods;
    }
    if (dst) {
        gdw_input_event *e = (gdw_input_event *)alloc_dup(c, &ev, sizeof ev);
        if (!e) return nomem(c);
        dst->u.ext = e;
    }
    return GDW_OK;
}

/* notes_reads: the walk's reads are asked for (walk_noting); a constant in each copy of the walk */
static GDW_ALWAYS_INLINE gdw_status read_value(dctx *c, gdw_value *dst, unsigned depth,
                                               const bool notes_reads) {
    c->value_off = c->cur.pos;
    if (depth > c->max_depth)
        return fail(c, GDW_ERR_DEPTH, c->cur.pos, GDW_ENGINE_ERR_OUT_OF_MEMORY,
                    "nesting deeper than the depth limit");
    uint32_t hdr;
    READ_U32(c, hdr, GDW_ENGINE_ERR_INVALID_DATA, "value header missing");
    /* once (again after the trace's call): the stores into dst below could be to it, for all the
     * compiler knows */
    const gdw_dialect *row = c->row;
    unsigned wire = hdr & 0xFFu;
    /* id_in_table's note, where the walk's reads are asked for */
    if (notes_reads) note_id(c, wire);
    bool known = wire < row->type_count;
    if (c->trace) {
        c->tr_type = known ? row->types[wire] : (unsigned)GDW_TYPE_COUNT;
        trace_emit(c, c->value_off, 4, "header", hdr);
        row = c->row;
    }
    if (hdr > 0xFFu || !known) {
        /* flag bits or an id the table lacks: where the engine wants the whole header a type id, it
         * is none (the row's type count is below 256), the rule read only here; and strict mode
         * wants only the flag bits the dialect's encoder writes */
        if (RULE(c, GDW_RULE_ENGINE_HEADER_WHOLE)) {
            engine_reads_otherwise(c, true);
            if (engine_way(c, true))
                return fail(c, GDW_ERR_UNKNOWN_TYPE, c->value_off, GDW_ENGINE_ERR_INVALID_DATA,
                            "header is not a type id of this engine");
        }
        if (!known)
            return fail(c, GDW_ERR_UNKNOWN_TYPE, c->value_off, GDW_ENGINE_ERR_INVALID_DATA,
                        "type id is not in this dialect");
        STRICT_CHECK(c, (hdr & ~0xFFu & ~meaningful_flags(c, row->types[wire])) != 0,
                     GDW_ERR_BAD_FLAGS, c->value_off, "header bits the dialect never writes");
    }
    unsigned t = row->types[wire]; /* type_at: `known` noted the entry */
    if (dst) node_of_type(dst, t);
    /* the kinds most common first, as comparisons: the switch's jump table had one indirect branch
     * for every kind, which a Dictionary's mixed kinds kept mispredicting (docs/performance.md,
     * "Why it is fast"); the switch below still names every kind */
    unsigned kind = type_info(t)->kind;
    if (kind == K_STR) goto k_str;
    if (kind == K_INT) goto k_int;
    if (kind == K_FLOAT) goto k_float;
    if (kind == K_BOOL) goto k_bool;
    if (kind == K_NIL) return GDW_OK;
    if (kind == K_DICT || kind == K_ARRAY) return read_container(c, dst, t, hdr);
    switch (kind) {
    case K_NIL:
    case K_CALLABLE: return GDW_OK;
    case K_BOOL:
    k_bool : {
        uint32_t v;
        READ_U32(c, v, GDW_ENGINE_ERR_INVALID_DATA, "bool truncated");
        TRACE(c, c->cur.pos - 4, 4, "value", v);
        STRICT_CHECK(c, v > 1, GDW_ERR_NON_CANONICAL, c->cur.pos - 4, "bool is neither 0 nor 1");
        if (dst) node_bool(dst, v);
        return GDW_OK;
    }
    case K_INT:
    k_int : {
        bool wide = (hdr & GDW_FLAG16) != 0;
        int64_t v;
        if (wide) {
            uint64_t x;
            READ_U64(c, x, GDW_ENGINE_ERR_INVALID_DATA, "int truncated");
            v = (int64_t)x;
        } else {
            uint32_t x;
            READ_U32(c, x, GDW_ENGINE_ERR_INVALID_DATA, "int truncated");
            v = (int32_t)x;
        }
        TRACE(c, c->cur.pos - (wide ? 8 : 4), wide ? 8 : 4, "value", v);
        if (c->strict_checks) {
            unsigned enc = STRICT_RULE(c, GDW_RULE_INT_ENCODING);
            bool want = enc == GDW_INT_ALWAYS64 ||
                        (enc == GDW_INT_MINIMAL && (v > INT32_MAX || v < INT32_MIN));
            STRICT_CHECK(c, want != wide, GDW_ERR_NON_CANONICAL, c->value_off,
                         wide ? "64-bit int where the encoder writes 32 bits"
                              : "32-bit int where the encoder writes 64 bits");
        }
        if (dst) node_int(dst, v, wide);
        return GDW_OK;
    }
    case K_FLOAT:
    k_float : {
        bool wide = (hdr & GDW_FLAG16) != 0;
        uint64_t bits;
        if (wide) READ_U64(c, bits, GDW_ENGINE_ERR_INVALID_DATA, "float truncated");
        else {
            uint32_t x;
            READ_U32(c, x, GDW_ENGINE_ERR_INVALID_DATA, "float truncated");
            bits = x;
        }
        TRACE(c, c->cur.pos - (wide ? 8 : 4), wide ? 8 : 4, "value", bits);
        /* every strict rule below is about a 64-bit float or a NaN: for a 32-bit number none reads
         * the row */
        bool checked = c->strict_checks && (wide || isnan(bits_to_f32((uint32_t)bits)));
        bool f32_only = checked && STRICT_RULE(c, GDW_RULE_FLOAT_ENCODE_F32_ONLY);
        if (checked && f32_only) /* every float is f32, a NaN quiet (encode.c) */
            STRICT_CHECK(c, !wide && isnan(bits_to_f32((uint32_t)bits)) && !(bits & 0x00400000u),
                         GDW_ERR_NON_CANONICAL, c->value_off,
                         "signalling NaN (the encoder writes it quiet)");
        if (checked && !f32_only) {
            bool nan = wide ? isnan(bits_to_f64(bits)) : isnan(bits_to_f32((uint32_t)bits));
            STRICT_CHECK(c, wide && !nan && gdw_f64_fits_f32(bits), GDW_ERR_NON_CANONICAL,
                         c->value_off, "64-bit float that fits 32 bits");
            /* NaN is written as a quiet f32 (-ffast-math builds) */
            if (STRICT_RULE(c, GDW_RULE_FLOAT_NAN_F32)) {
                STRICT_CHECK(c, wide && nan, GDW_ERR_NON_CANONICAL, c->value_off,
                             "64-bit NaN (the encoder writes NaN as 32-bit)");
                STRICT_CHECK(c, !wide && nan && !(bits & 0x00400000u), GDW_ERR_NON_CANONICAL,
                             c->value_off, "signalling NaN (the encoder writes it quiet)");
            } else {
                STRICT_CHECK(c, !wide && nan, GDW_ERR_NON_CANONICAL, c->value_off,
                             "32-bit NaN (the encoder writes NaN as 64-bit)");
            }
        }
        if (dst) node_float(dst, bits, wide);
        return GDW_OK;
    }
    case K_STR:
    k_str : {
        /* the common case of a decode inline: a plain string (plain_string_at) where no strict
         * rule is evaluated (its padding's zeros) and no trace wants its fields (a validation
         * has skip_leaf) */
        uint32_t len32;
        size_t padded;
        const uint8_t *body;
        if (dst && !c->trace && plain_string_at(&c->cur, 0, &len32, &padded, &body) &&
            (!c->strict_checks || zero_padding(body + padded, padded - len32))) {
            c->str_off = c->cur.pos + 4;
            c->str_len = len32;
            cur_skip(&c->cur, 4 + padded);
            return node_text(c, dst, body, len32, padded) ? GDW_OK : nomem(c);
        }
        gdw_str s = {NULL, 0};
        gdw_status st = read_string(c, dst ? &s : NULL, STR_PLAIN);
        if (st) return st;
        if (dst) {
            dst->len = s.len;
            dst->u.bytes = s.ptr;
        }
        return GDW_OK;
    }
    case K_FIXED: return read_fixed(c, dst, t, hdr);
    case K_NODEPATH: return read_nodepath(c, dst);
    case K_RID:
        if (RULE(c, GDW_RULE_RID_HAS_ID)) {
            uint64_t id;
            READ_U64(c, id, GDW_ENGINE_ERR_INVALID_DATA, "RID truncated");
            TRACE(c, c->cur.pos - 8, 8, "id", id);
            if (dst) {
                dst->u.i = (int64_t)id;
                dst->flags |= GDW_VF_RID_ID;
            }
        }
        return GDW_OK;
    case K_OBJECT: return read_object(c, dst, hdr);
    case K_SIGNAL: {
        gdw_str name = {NULL, 0};
        gdw_status st = read_string(c, dst ? &name : NULL, STR_PLAIN);
        if (st) return st;
        uint64_t id;
        READ_U64(c, id, GDW_ENGINE_ERR_INVALID_DATA, "Signal object id truncated");
        TRACE(c, c->cur.pos - 8, 8, "object id", id);
        if (dst) {
            gdw_signal *sg = (gdw_signal *)alloc(c, sizeof *sg);
            if (!sg) return nomem(c);
            sg->name = name;
            sg->object_id = id;
            dst->u.ext = sg;
        }
        return GDW_OK;
    }
    case K_DICT:
    case K_ARRAY: return read_container(c, dst, t, hdr);
    case K_TYPED_ARRAY: return read_p4_typed_array(c, dst, hdr);
    case K_PACKED: return read_packed(c, dst, t, hdr);
    case K_PACKED_BYTES: {
        size_t off;
        int32_t count = 0;
        gdw_status st = read_i32(c, &count, &off, "count", "array count missing");
        if (st) return st;
        if (count < 0)
            return fail(c, GDW_ERR_BAD_COUNT, off, GDW_ENGINE_ERR_INVALID_DATA,
                        "negative array count");
        if (!cur_has(&c->cur, (size_t)count))
            return fail_short(c, off, (size_t)count, GDW_ENGINE_ERR_INVALID_DATA,
                              "array runs past the end");
        return read_packed_bytes(c, dst, (size_t)count);
    }
    case K_PACKED_STRINGS: return read_packed_strings(c, dst);
    case K_IMAGE: return read_image(c, dst);
    case K_INPUT_EVENT: return read_input_event(c, dst);
    }
    return fail(c, GDW_ERR_UNKNOWN_TYPE, c->value_off, GDW_ENGINE_ERR_INVALID_DATA,
                "type has no reader");
}

/* ---- Dictionary keys the engine keeps as they are ---------------------------------------- */

/* Keys keys_kept can judge are the plain keys (gdw_key_plain); which of them may be equal is the
 * one definition the engine's merge builds on (gdw_plain_keys_may_equal, value/value.h). */

/* A word keys gdw_plain_keys_may_equal finds equal share, made in a few instructions: a string's
 * length, first and last byte; a number's value. */
static inline uint64_t plain_key_sig(const gdw_value *k) {
    if (gdw_key_string_like(k->type))
        return k->len ? (uint64_t)k->len | (uint64_t)k->u.bytes[0] << 32 |
                            (uint64_t)k->u.bytes[k->len - 1] << 40
                      : 0;
    if (k->type == GDW_FLOAT) {
        double r = gdw_value_real(k, 0);
        return isnan(r) ? 1 : r == 0 ? 0 : f64_to_bits(r);
    }
    return (uint64_t)k->u.i;
}

/* A hash keys gdw_plain_keys_may_equal finds equal share. */
static uint64_t plain_key_hash(const gdw_value *k) {
    if (gdw_key_string_like(k->type)) {
        uint64_t x = 0xcbf29ce484222325u;
        for (uint32_t i = 0; i < k->len; i++) x = (x ^ k->u.bytes[i]) * 0x100000001b3u;
        return x;
    }
    if (k->type == GDW_FLOAT) {
        double r = gdw_value_real(k, 0);
        return isnan(r) ? 1 : r == 0 ? 0 : f64_to_bits(r) * 0x9E3779B97F4A7C15u;
    }
    return (uint64_t)k->u.i * 0x9E3779B97F4A7C15u + k->type;
}

/* The n keys of a Dictionary just read (items[0], items[stride], ...: a tree's items, key and value
 * alternating, stride 2; a watching validation's kept keys, stride 1) are ones the engine's
 * Dictionary keeps as they are: plain keys no two of which it could find equal, and no StringName
 * key where the engine makes Strings of them (keys_name_to_string). Cheap, and conservative:
 * false sends the tree to the engine pass (codec/engine/keys.c), which decides. A few keys are
 * compared pairwise, up to KEYS_KEPT_MAX through a table on the stack; larger Dictionaries go to
 * the pass. */
#define KEYS_PAIRWISE 8
#define MERGES(c) RULE(c, GDW_RULE_MERGE_DICT_KEYS)
#define NAMES_TO_STRINGS(c) RULE(c, GDW_RULE_KEYS_NAME_TO_STRING)
/* The engine's Dictionary may change keys at all: it merges keys it finds equal, or makes Strings
 * of StringName keys. Read where keys the walk did not judge one by one make it matter. */
static inline bool keys_may_change(dctx *c) { return MERGES(c) || NAMES_TO_STRINGS(c); }
/* Two of the keys are ones the engine could find equal. */
static bool plain_keys_collide(const gdw_value *items, size_t stride, uint32_t n) {
    if (n <= KEYS_PAIRWISE) {
        uint64_t sig[KEYS_PAIRWISE];
        for (uint32_t i = 0; i < n; i++) sig[i] = plain_key_sig(&items[stride * i]);
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t j = 0; j < i; j++)
                if (sig[i] == sig[j] &&
                    gdw_plain_keys_may_equal(&items[stride * i], &items[stride * j]))
                    return true;
        return false;
    }
    uint8_t slot[2 * KEYS_KEPT_MAX]; /* key index + 1, 0: empty */
    memset(slot, 0, sizeof slot);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t h = plain_key_hash(&items[stride * i]);
        for (size_t j = (size_t)(h ^ h >> 29) % (2 * KEYS_KEPT_MAX);;
             j = (j + 1) % (2 * KEYS_KEPT_MAX)) {
            if (!slot[j]) {
                slot[j] = (uint8_t)(i + 1);
                break;
            }
            if (gdw_plain_keys_may_equal(&items[stride * (slot[j] - 1)], &items[stride * i]))
                return true;
        }
    }
    return false;
}
/* The rules are read only where a key makes them matter (a StringName, a key that is not plain, two
 * keys that collide): a walk noting its reads then agrees with a row that differs in them where no
 * key here reaches them. */
static __attribute__((noinline)) bool keys_kept(dctx *c, const gdw_value *items, size_t stride,
                                                uint32_t n) {
    if (n > KEYS_KEPT_MAX) return !keys_may_change(c);
    for (uint32_t i = 0; i < n; i++) {
        const gdw_value *k = &items[stride * i];
        if ((k->type == GDW_STRING_NAME && NAMES_TO_STRINGS(c)) || (!gdw_key_plain(k) && MERGES(c)))
            return false;
    }
    return n < 2 || !plain_keys_collide(items, stride, n) || !MERGES(c);
}

/* ---- the walk ---------------------------------------------------------------------------- */

/* A watching validation keeps a key it must judge (the stack full: the keys are taken as ones the
 * engine may merge wherever its rules let it change keys at all, keys_may_change, and nothing more
 * is kept). */
static __attribute__((noinline)) void keep_key_value(dctx *c, const gdw_value *k) {
    if (c->nkeys == c->keys_cap) {
        engine_holds_otherwise(c, keys_may_change(c));
        return;
    }
    c->keys[c->nkeys++] = *k;
}

/* A watching validation at a Dictionary key it must judge: a key keys_kept can read (Nil, bool,
 * int, float, String, StringName) is read into key_scratch (returned: the walk's destination) and
 * kept after; any other is kept now by its type alone (never a plain key; its own Dictionary keys
 * come after it). */
static __attribute__((noinline)) gdw_value *watch_key(dctx *c) {
    uint32_t hdr;
    /* read_value fails there */
    if (!cur_peek_u32(&c->cur, 0, &hdr) || !id_in_table(c, hdr & 0xFFu)) return NULL;
    unsigned t = type_at(c, hdr & 0xFFu), k = type_info(t)->kind;
    if (k == K_NIL || k == K_BOOL || k == K_INT || k == K_FLOAT || k == K_STR)
        return &c->key_scratch;
    gdw_value other;
    memset(&other, 0, sizeof other);
    other.type = (uint8_t)t;
    keep_key_value(c, &other);
    return NULL;
}

/* A watching validation at a Dictionary key that is a string in skip_leaf's plain form: stepped
 * over and kept as read_value would read it (the bytes as written, in the input), without the
 * general reader or a call. False, having read nothing: watch_key and read_value take the key. */
static GDW_ALWAYS_INLINE bool skip_string_key(dctx *c) {
    uint32_t hdr;
    if (!cur_peek_u32(&c->cur, 0, &hdr) || !id_in_table(c, hdr & 0xFFu) || c->nkeys == c->keys_cap)
        return false;
    unsigned t = type_at(c, hdr & 0xFFu);
    if (type_info(t)->kind != K_STR || !skip_leaf(c)) return false;
    gdw_value *k = &c->keys[c->nkeys++];
    memset(k, 0, sizeof *k);
    k->type = (uint8_t)t;
    k->len = c->str_len;
    k->u.bytes = c->cur.base + c->str_off;
    return true;
}

/* A leaf run's string whose copy found no memory (c->cur at it, n its bytes): it fails as the slot
 * loop and read_value fail it, with the same offsets and path (an allocation that fails is
 * reported, never tried again). */
static __attribute__((noinline, cold)) gdw_status leaf_without_memory(dctx *c, frame *f, size_t n) {
    /* the slot begun: the run has set the key's offset for a value's path (a key's own path needs
     * none) */
    f->next++;
    c->pending--;
    c->value_off = c->cur.pos;
    cur_skip(&c->cur, n);
    return nomem(c);
}

/* A fast walk in a container, from its next slot: the leaves leaf_at finds, one after another,
 * without read_value and the slot loop between them: made into the container's items (making: a
 * decode, whose slots all have one) or stepped over (a validation's have none). What the slot loop
 * would have done for each is done once at the end: the slots begun (f->next, c->pending), the
 * offset of the last Dictionary key (f->key_off) and of the last value (c->value_off). Stops at the
 * first value read_value reads. Not for an Object (its property names are bare strings), nor where
 * each node is seen (node_made) or keys are kept (c->keys). */
static GDW_ALWAYS_INLINE gdw_status leaf_run(dctx *c, frame *f, const bool making) {
    const leaf_row r = leaf_row_of(c->row);
    const uint32_t slots = f->slots;
    gdw_cursor cur = c->cur; /* a copy the loop keeps in registers */
    uint32_t next = f->next;
    size_t last = 0;      /* where the last leaf began */
    size_t no_memory = 0; /* the bytes of a leaf whose node found none */
    leaf l;
    while (next < slots && leaf_at(&cur, r, &l)) {
        size_t at = cur.pos;
        cur_skip(&cur, l.n);
        if (making && !make_leaf(c, &f->items[next], &l)) {
            cur.pos = at;
            no_memory = l.n;
            break;
        }
        last = at;
        next++;
    }
    if (next != f->next) {
        /* stopped at a value whose key it read */
        if (f->kind == FR_DICT && next % 2 == 1) f->key_off = last;
        c->value_off = last;
        c->cur = cur;
        c->pending -= next - f->next;
        f->next = next;
    }
    return making && no_memory ? leaf_without_memory(c, f, no_memory) : GDW_OK;
}

/* What a walk does at each node it makes (calls_node_made, below): adds it to the digest, passes it
 * on (a value, not an Object's property name) and, cutting, counts it if the tree keeps it (the
 * last one it keeps cuts). */
static GDW_ALWAYS_INLINE gdw_status node_made(dctx *c, const gdw_value *v, unsigned depth,
                                              bool value) {
    if (!c->sure_to_fail) {
        if (c->digest) digest_node_fast(c->digest, v);
        if (value && c->on_node) c->on_node(c->on_node_ctx, v, depth);
    }
    if (c->cut.kept && --c->cut.keep_left == 0 &&
        !gdw_cut_here(&c->cut, c->doc, c->stack, c->sp, c->root, c->cur.pos))
        return nomem(c); /* kept: cutting */
    return GDW_OK;
}

/* The walk, in copies (walk below): `calls_node_made` (a digest, on_node or a cut: node_made) and
 * `notes_reads` are constants in each, so the copy without them is the loop as it was, with nothing
 * kept live across read_value (inlined into each). */
static GDW_ALWAYS_INLINE gdw_status walk_as(dctx *c, gdw_value *root, const bool calls_node_made,
                                            const bool notes_reads) {
    gdw_value *dst = root;
    bool key_to_keep = false; /* dst is a watching walk's key_scratch (watch_key) */
    if (calls_node_made) c->cut.kept = c->cut.on;
    for (;;) {
        /* a run of leaves (leaf_run) is tried where leaves are likely next: after one (skip_leaf),
         * and at a container's first child; not after a value read_value read, which may be a
         * string that is not plain, whose siblings leaf_at would read in vain (docs/performance.md,
         * "Why it is fast") */
        bool run = true;
        if (!(dst == NULL && c->skips_leaves && c->sp <= c->max_depth && skip_leaf(c))) {
            unsigned depth = c->sp;
            gdw_status s = read_value(c, dst, depth, notes_reads);
            if (s) return s;
            /* made whole: its children (if any) come next */
            if (calls_node_made && dst && (s = node_made(c, dst, depth, true))) return s;
            if (key_to_keep) keep_key_value(c, &c->key_scratch); /* a watching walk's key */
            if (calls_node_made) gdw_cut_release(&c->cut, c->doc);
            run = c->sp > depth; /* it opened a container */
        }
        /* in a container, at a depth leaves may be */
        if (!calls_node_made && run && c->leaf_runs && c->sp - 1u < c->max_depth) {
            /* the leaves that come next, two or more (one the slot loop reads as fast) */
            frame *f = &c->stack[c->sp - 1];
            if (f->slots - f->next >= 2 && f->kind != FR_OBJECT) {
                /* stored: every slot (no cut) */
                gdw_status s = f->stored ? leaf_run(c, f, true) : leaf_run(c, f, false);
                if (s) return s;
            }
        }
        key_to_keep = false;
        /* the next slot to fill */
        for (;;) {
            if (c->sp == 0) return GDW_OK;
            frame *f = &c->stack[c->sp - 1];
            if (f->next == f->slots) {
                if (f->kind == FR_DICT && WATCHING(c) && !c->engine_holds_other) {
                    uint32_t n = f->slots / 2;
                    /* stored whole where it is read */
                    if (f->items) engine_holds_otherwise(c, !keys_kept(c, f->items, 2, n));
                    /* the keys kept on the stack (keys_kept reads none past KEYS_KEPT_MAX) */
                    else if (c->keys && KEYS_JUDGED(c))
                        engine_holds_otherwise(c,
                                               n <= KEYS_KEPT_MAX && c->nkeys - f->key_start != n
                                                   ? keys_may_change(c)
                                                   : !keys_kept(c, c->keys + f->key_start, 1, n));
                }
                c->nkeys = f->key_start;
                c->sp--;
                continue;
            }
            uint32_t slot = f->next++;
            c->pending--;
            dst = slot < f->stored ? &f->items[slot] : calls_node_made ? c->cut.no_slot_dst : NULL;
            if (calls_node_made) c->cut.kept = f->kept && slot < f->stored && c->cut.keep_left > 0;
            /* a key: an Object's property name, or a Dictionary's */
            if (f->kind != FR_ARRAY && slot % 2 == 0) {
                if (f->kind == FR_OBJECT) {
                    /* property name: a bare string, not a Variant */
                    gdw_str name = {NULL, 0};
                    gdw_status s = read_string(c, dst ? &name : NULL, STR_PLAIN);
                    if (s) return s;
                    if (dst) {
                        memset(dst, 0, sizeof *dst);
                        dst->type = GDW_STRING;
                        dst->len = name.len;
                        dst->u.bytes = name.ptr;
                        if (calls_node_made && (s = node_made(c, dst, c->sp, false))) return s;
                    }
                    if (calls_node_made) gdw_cut_release(&c->cut, c->doc);
                    f->key_off = c->str_off;
                    f->key_len = c->str_len;
                    continue;
                }
                /* a dictionary key's offset, for the paths of errors in its value (read only then)
                 * */
                f->key_off = c->cur.pos;
                if (c->keys && !f->items && !c->engine_holds_other &&
                    f->slots / 2 <= KEYS_KEPT_MAX && KEYS_JUDGED(c)) {
                    /* a cutting walk makes every key (into key_scratch, not `discarded`) */
                    if (dst) key_to_keep = true, dst = &c->key_scratch;
                    /* read and kept: its value is next */
                    else if (c->skips_leaves && c->sp <= c->max_depth && skip_string_key(c))
                        continue;
                    else key_to_keep = (dst = watch_key(c)) != NULL;
                }
            }
            break;
        }
    }
}

static __attribute__((noinline)) gdw_status walk_calling_node_made(dctx *c, gdw_value *root) {
    return walk_as(c, root, true, false);
}
static inline gdw_status walk(dctx *c, gdw_value *root) { return walk_as(c, root, false, false); }
/* A walk whose reads of the row are asked for (gdw_shadow_report.read): gdw_check's. */
static __attribute__((noinline)) gdw_status walk_noting(dctx *c, gdw_value *root) {
    return c->digest || c->on_node || c->cut.on ? walk_as(c, root, true, true)
                                                : walk_as(c, root, false, true);
}

#ifndef NDEBUG
/* The table above, as invariants that hold at the start of a walk. */
static bool mode_holds(const dctx *c) {
    return strict(c) + exact(c) + compat(c) == 1 &&
           c->strict_checks == (strict(c) || c->shadow != NULL) && (!c->shadow || compat(c)) &&
           c->skips_leaves == (compat(c) && !c->shadow && !c->trace) && !c->shadow_hit &&
           !c->engine_differs && !c->engine_holds_other;
}
#endif

/* The walk's mode (the table above): its one definition. */
static void set_mode(dctx *c, gdw_mode mode, gdw_error *shadow, bool traced) {
    c->mode = (uint8_t)mode;
    c->shadow = compat(c) ? shadow : NULL;
    c->strict_checks = strict(c) || c->shadow;
    c->skips_leaves = compat(c) && !c->shadow && !traced;
}

static void init_ctx(dctx *c, const gdw_dialect *d, const uint8_t *buf, size_t len,
                     const gdw_decode_options *o, gdw_error *err, frame *stack, gdw_error *shadow) {
    memset(c, 0, sizeof *c);
    c->row = d;
    c->cur.base = buf;
    c->cur.len = len;
    c->trace = o->trace;
    c->trace_ctx = o->trace_ctx;
    set_mode(c, o->mode, shadow, c->trace != NULL);
    assert(mode_holds(c));
    c->allow_objects = o->allow_objects;
    c->borrow = o->borrow_input;
    c->max_depth = o->max_depth == 0 ? GDW_DEFAULT_MAX_DEPTH : o->max_depth;
    if (c->max_depth > GDW_HARD_MAX_DEPTH) c->max_depth = GDW_HARD_MAX_DEPTH;
    c->err = err;
    c->stack = stack;
}

gdw_decode_options gdw_decode_options_default(void) {
    gdw_decode_options o;
    memset(&o, 0, sizeof o);
    o.mode = GDW_MODE_COMPATIBLE;
    o.max_depth = GDW_DEFAULT_MAX_DEPTH;
    return o;
}

static gdw_status check_args(const gdw_dialect *d, const uint8_t *buf, size_t len,
                             const gdw_decode_options *o, gdw_error *err) {
    const char *msg = NULL;
    gdw_status code = GDW_ERR_INVALID_ARG;
    if (!d) msg = "no dialect";
    else if (!buf && len) msg = "NULL buffer with a non-zero length";
    else if ((unsigned)o->mode > GDW_MODE_ENGINE_EXACT) msg = "unknown mode";
    else if (o->max_size && len > o->max_size) {
        code = GDW_ERR_TOO_LARGE;
        msg = "input larger than max_size";
    }
    if (!msg) return GDW_OK;
    gdw_error_set(err, code, code == GDW_ERR_TOO_LARGE ? o->max_size : 0, 0, GDW_ENGINE_NONE, msg);
    return code;
}

/* The shared body of decode and validate; doc == NULL validates. The report: canonical when no
 * strict violation was met, engine_same when no engine_reads_otherwise place was. */
gdw_status gdw_wire_decode(const gdw_dialect *d, const uint8_t *buf, size_t len,
                           const gdw_decode_options *opts, gdw_doc *doc, size_t *consumed,
                           gdw_error *err, gdw_shadow_report *report) {
    gdw_value *root = doc ? &doc->root : NULL;
    gdw_decode_options o = opts ? *opts : gdw_decode_options_default();
    gdw_status s = check_args(d, buf, len, &o, err);
    if (s) return s;
    frame stack[GDW_HARD_MAX_DEPTH + 1];
    dctx c;
    init_ctx(&c, d, buf ? buf : (const uint8_t *)"", len, &o, err, stack,
             report ? report->strict_err : NULL);
    c.doc = doc;
    /* engine-exact mode: the digest and on_node are of the tree its pass makes, which emits them
     * (gdw_decode) */
    /* the walk gives the tree's events where it makes the tree returned (engine-exact mode's pass
     * gives its own) */
    const gdw_decode_events *events = doc && !exact(&c) ? o.events : NULL;
    c.digest = events ? events->digest : NULL;
    c.on_node = events ? events->on_node : NULL;
    c.on_node_ctx = events ? events->on_node_ctx : NULL;
    if (doc && o.keep_nodes && !exact(&c)) gdw_cut_start(&c.cut, o.keep_nodes);
    /* a cut tree points into the input (gdw_decode_options.keep_nodes) */
    c.borrow = c.borrow || c.cut.on;
    c.root = root;
    bool watched = !doc && report && report->watched; /* gdw_validate_watched */
    /* Watching for what the engine pass (gdw_engine_settle) changes. A walk noting its reads
     * (gdw_check's) watches in every row, and each watched rule is read where a value makes it
     * matter: keys that are not plain or may be equal (keys_kept), text strict mode's rule refuses
     * (string_utf8), a typed container, 64-bit reals (narrows); rows differing only in rules no
     * value of the packet reaches then read it alike (a Godot 3 packet's godot3 and
     * pandemonium-legacy rows, which differ in merging keys). Another walk watches only in a row
     * where one of these rules changes something (so a Godot 2 row watches nothing); whatever it
     * reads is not asked for. The answers are the same. */
    const bool notes = report && report->read;
    if ((doc || watched) && o.watch_engine && !exact(&c)) {
        static const gdw_rule k_watch[4] = {GDW_RULE_MERGE_DICT_KEYS, GDW_RULE_KEYS_NAME_TO_STRING,
                                            GDW_RULE_TYPED_RULE, GDW_RULE_UTF8_VALUE};
        /* the value that changes nothing */
        static const int k_unchanged[4] = {0, 0, GDW_TYPED_AS_WRITTEN, GDW_UTF8_VALUE_BYTES};
        for (size_t i = 0; i < 4 && !c.watch_values; i++)
            c.watch_values = notes || gdw_row_rule(d, k_watch[i]) != k_unchanged[i];
    }
    /* a watching validation's Dictionary keys (4 KiB; more open at once: taken as mergeable) */
    gdw_value keys[256];
    /* a cutting walk past the cut keeps keys as a validation does */
    if ((watched || c.cut.on) && c.watch_values) {
        c.keys = keys;
        c.keys_cap = sizeof keys / sizeof keys[0];
        c.keys_judged = notes || gdw_row_rule(d, GDW_RULE_MERGE_DICT_KEYS) ||
                        gdw_row_rule(d, GDW_RULE_KEYS_NAME_TO_STRING);
        c.borrow = true; /* a key read into key_scratch points into the input: nothing is copied */
    }
    c.leaf_runs = c.skips_leaves && !c.keys;
    s = notes                               ? walk_noting(&c, root)
        : c.digest || c.on_node || c.cut.on ? walk_calling_node_made(&c, root)
                                            : walk(&c, root);
    if (report && report->read) {
        assert(!c.skips_leaves); /* a fast walk notes nothing */
        /* outside compatible mode the strict checks are the walk's verdict: the rules they read are
         * its answer's */
        report->read->rules |= c.read.rules | (compat(&c) ? 0 : c.read.strict_rules);
        report->read->strict_rules |= compat(&c) ? c.read.strict_rules : 0;
        report->read->type_ids |= c.read.type_ids;
    }
    if (s) return s;
    if (c.cut.past) {
        gdw_cut_done(&c.cut);
        /* a node was read past the cut (each takes a byte or more) */
        doc->cut = c.cur.pos > c.cut.pos;
    }
    bool value_same = exact(&c) || (o.watch_engine && !c.engine_differs && !c.engine_holds_other);
    if (doc) doc->engine_same = value_same;
    if (report) {
        report->canonical = c.shadow && !c.shadow_hit;
        report->engine_same = c.shadow && !c.engine_differs;
        report->value_same = value_same;
    }
    if (strict(&c) && !o.allow_trailing && c.cur.pos < len) {
        c.value_off = c.cur.pos;
        return fail(&c, GDW_ERR_TRAILING_BYTES, c.cur.pos, GDW_ENGINE_NONE,
                    "bytes follow the value");
    }
    if (consumed) *consumed = c.cur.pos;
    gdw_error_clear(err);
    return GDW_OK;
}

gdw_status gdw_validate(const gdw_dialect *d, const uint8_t *buf, size_t len,
                        const gdw_decode_options *opts, size_t *consumed, gdw_error *err) {
    return gdw_wire_decode(d, buf, len, opts, NULL, consumed, err, NULL);
}

gdw_status gdw_validate_watched(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                const gdw_decode_options *opts, size_t *consumed, gdw_error *err,
                                bool *engine_same) {
    gdw_shadow_report r = {.strict_err = NULL,
                           .canonical = false,
                           .engine_same = false,
                           .watched = true,
                           .value_same = false,
                           .read = NULL};
    gdw_status s = gdw_wire_decode(d, buf, len, opts, NULL, consumed, err, &r);
    if (engine_same) *engine_same = s == GDW_OK && r.value_same;
    return s;
}

/* Each input byte can cause at most 5 bytes of arena use (a 16-byte value per 4-byte
 * element, a 56-byte descriptor block per 12-byte typed header, copied strings and arrays
 * once); chunks waste at most a quarter of themselves, plus fixed headers. */
/* The proof is in docs/library.md, "Heap bound"; codec/tests/heap_bound_test holds it to
 * adversarial packets. Engine-exact mode adds what the engine's own conversions build
 * (codec/engine/settle.c: a packed array element becomes an Array, 16 bytes an element). */
size_t gdw_decode_heap_bound(size_t len, const gdw_decode_options *opts) {
    gdw_mode mode = opts ? opts->mode : GDW_MODE_COMPATIBLE;
    size_t per = mode == GDW_MODE_ENGINE_EXACT ? 24 : 7;
    if (len > (SIZE_MAX - 16384) / per) return SIZE_MAX;
    return len * per + 16384;
}

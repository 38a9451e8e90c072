/* SPDX-License-Identifier: MIT */
/* engine/keys.c — Dictionary keys as the engine's HashMap sees them: equality (Variant::
 * hash_compare, and Godot 4's StringLikeVariantComparator at the top), a keyed hash with
 * remembered parts, and the merge of keys found equal (engine/settle.c runs it on each Dictionary
 * once its items are settled). Every walk keeps its own stack of frames: none recurses. */
#include <math.h>
#include <stdlib.h>

#include "codec/engine/pass.h"

/* ---- equality as the engine's Dictionary sees it ------------------------------------------ */

/* Variant::hash_compare with semantic comparison (a Dictionary's own keys: NaN equals NaN) or
 * without it (Godot 4: elements of Arrays and values of Dictionaries compared as keys, where NaN
 * never equals; Godot 3 compares those semantically too: the dialect's keys_nested_nan_equal). */
static bool same_real(double a, double b, bool semantic) {
    return a == b || (semantic && isnan(a) && isnan(b));
}

/* Pandemonium 5's TypedArray and PackedTypedArray: Arrays of one element type. */
static bool p5_typed(unsigned t) { return t == GDW_TYPED_ARRAY || t == GDW_PACKED_TYPED_ARRAY; }

/* What a Pandemonium 5 typed array's hash_compare compares before its items: its variant type
 * (the wire's id, bit 31 masked) and, for Object elements, its class name, which the decoder sets
 * to "EncodedObjectAsID" when the class is omitted (header bit 16) (Relintai/pandemonium_engine
 * v5.2.0 core/variant/variant.cpp Variant::hash_compare, TYPED_ARRAY and PACKED_TYPED_ARRAY;
 * core/io/marshalls.cpp decode_variant, TYPED_ARRAY). */
static gdw_str p5_class_name(const gdw_typedesc *t) {
    return t->id_only ? gdw_engine_encoded_object_as_id : t->name;
}
static const gdw_typedesc *p5_elem(const gdw_value *v) {
    const gdw_container *ct = gdw_container_of(v);
    return ct ? &ct->elem : NULL;
}
static bool p5_same_elem(const gdw_value *a, const gdw_value *b) {
    const gdw_typedesc *x = p5_elem(a), *y = p5_elem(b);
    if (!x || !y) return x == y;
    if (x->wire_id != y->wire_id) return false;
    return x->builtin != GDW_OBJECT || str_same(p5_class_name(x), p5_class_name(y));
}

/* How a pair of values is compared: as a Dictionary's own keys (KEY_TOP: String and StringName
 * alike where the dialect says so, NaN equals NaN), semantically (NaN equals NaN) or not. */
enum { CMP_PLAIN, CMP_SEMANTIC, CMP_KEY_TOP };

/* One pair of nodes; for an Array or a Dictionary only what is not its items (the walk in
 * key_equal compares those). */
static bool same_node(settle_ctx *c, const gdw_value *a, const gdw_value *b, int how) {
    /* a Dictionary's own plain keys: the keys the engine may find equal (gdw_plain_keys_may_equal,
     * the walk's definition too), and of one type, or a String and a StringName where the row takes
     * them alike */
    if (how == CMP_KEY_TOP && gdw_key_plain(a) && gdw_key_plain(b)) {
        bool alike = gdw_key_string_like(a->type) && gdw_key_string_like(b->type) &&
                     RULE(c, GDW_RULE_KEYS_STRING_LIKE);
        return (alike || a->type == b->type) && gdw_plain_keys_may_equal(a, b);
    }
    bool semantic = how != CMP_PLAIN;
    if (a->type != b->type) return false;
    switch (a->type) {
    case GDW_NIL:
    case GDW_CALLABLE: return true;
    case GDW_BOOL:
    case GDW_INT: return a->u.i == b->u.i;
    case GDW_FLOAT: {
        double x = gdw_value_real(a, 0);
        double y = gdw_value_real(b, 0);
        return same_real(x, y, semantic);
    }
    case GDW_STRING:
    case GDW_STRING_NAME: return str_same(str_of(a), str_of(b));
    case GDW_RID: return a->u.i == b->u.i;
    case GDW_OBJECT:
        /* each decoded object is an instance of its own: only two null Objects are equal */
        return (a->flags & GDW_VF_OBJECT_NULL) && (b->flags & GDW_VF_OBJECT_NULL);
    case GDW_SIGNAL: {
        const gdw_signal *x = (const gdw_signal *)a->u.ext, *y = (const gdw_signal *)b->u.ext;
        return x->object_id == y->object_id && str_same(x->name, y->name);
    }
    case GDW_NODE_PATH: {
        const gdw_nodepath *x = (const gdw_nodepath *)a->u.ext, *y = (const gdw_nodepath *)b->u.ext;
        if (x->name_count != y->name_count || x->subname_count != y->subname_count ||
            (x->flags & 1) != (y->flags & 1))
            return false;
        for (uint32_t i = 0; i < x->name_count + x->subname_count; i++)
            if (!str_same(x->parts[i], y->parts[i])) return false;
        return true;
    }
    case GDW_ARRAY: return a->len == b->len;
    case GDW_TYPED_ARRAY:
    case GDW_PACKED_TYPED_ARRAY: return a->len == b->len && p5_same_elem(a, b);
    case GDW_DICTIONARY:
        /* Godot 3 compares Dictionaries by instance (each decoded one is its own); Godot 4
         * hashes one in its order, then looks each key up in the other */
        return a->len == b->len && !RULE(c, GDW_RULE_KEYS_DICTS_BY_IDENTITY);
    /* by its bytes: PackedByteArray([1]) twice is one key (Godot 3.6.2 and 4.6.3) */
    case GDW_PACKED_BYTE_ARRAY:
        return a->len == b->len && (a->len == 0 || a->u.bytes == b->u.bytes ||
                                    memcmp(a->u.bytes, b->u.bytes, a->len) == 0);
    case GDW_PACKED_STRING_ARRAY: {
        if (a->len != b->len) return false;
        const gdw_str *x = (const gdw_str *)a->u.ext, *y = (const gdw_str *)b->u.ext;
        for (uint32_t i = 0; i < a->len; i++)
            if (!str_same(x[i], y[i])) return false;
        return true;
    }
    default: break;
    }
    size_t n = gdw_type_components((gdw_type)a->type);
    if (!n) return false; /* a type a Godot 4 tree does not hold */
    n *= (a->type >= GDW_PACKED_BYTE_ARRAY) ? a->len : 1;
    if (a->type >= GDW_PACKED_BYTE_ARRAY && a->len != b->len) return false;
    bool reals = gdw_type_has_reals((gdw_type)a->type);
    for (size_t i = 0; i < n; i++) {
        if (reals ? !same_real(gdw_value_real(a, i), gdw_value_real(b, i), semantic)
                  : gdw_value_int_at(a, i) != gdw_value_int_at(b, i))
            return false;
    }
    return true;
}

/* The items a key comparison or hash descends into: an Array's, a Dictionary's keys and values
 * (a Dictionary compared by identity has none to look at). */
static size_t key_items(settle_ctx *c, const gdw_value *v, const gdw_value **items) {
    *items = NULL;
    if (v->type == GDW_ARRAY || p5_typed(v->type) ||
        (v->type == GDW_DICTIONARY && !RULE(c, GDW_RULE_KEYS_DICTS_BY_IDENTITY)))
        return gdw_children(v, items);
    return 0;
}

/* How child i of container v is compared: Array elements semantically where the dialect says
 * so (keys_nested_nan_equal), a Dictionary's keys as keys, its values plainly. */
static int child_cmp(settle_ctx *c, const gdw_value *v, size_t i) {
    if (v->type == GDW_ARRAY || p5_typed(v->type))
        return RULE(c, GDW_RULE_KEYS_NESTED_NAN_EQUAL) ? CMP_SEMANTIC : CMP_PLAIN;
    return i % 2 == 0 ? CMP_KEY_TOP : CMP_PLAIN;
}

/* Two keys of one Dictionary are one key (Variant::hash_compare, and at the top a Godot 4
 * comparator that also takes a String and a StringName with the same text as equal:
 * StringLikeVariantComparator, keys_string_like). The two trees are walked in step
 * (gdw_walk_pair); decoded keys are at most GDW_HARD_MAX_DEPTH deep. */
typedef struct key_cmp {
    settle_ctx *c;
    bool top;
} key_cmp;

static int key_pair(void *ctx, const gdw_value *x, const gdw_value *y, const gdw_value *parent,
                    size_t slot) {
    const key_cmp *k = (const key_cmp *)ctx;
    int how = parent ? child_cmp(k->c, parent, slot) : k->top ? CMP_KEY_TOP : CMP_PLAIN;
    k->c->counts.compared++;
    if (!same_node(k->c, x, y, how)) return GDW_PAIR_DIFFER;
    if (how == CMP_KEY_TOP && gdw_key_string_like(x->type) && gdw_key_string_like(y->type) &&
        RULE(k->c, GDW_RULE_KEYS_STRING_LIKE))
        return GDW_PAIR_SAME;
    return GDW_PAIR_DESCEND;
}
static size_t key_pair_items(void *ctx, const gdw_value *v, const gdw_value **items) {
    return key_items(((const key_cmp *)ctx)->c, v, items);
}

static bool key_equal(settle_ctx *c, const gdw_value *a, const gdw_value *b, bool top) {
    key_cmp k = {c, top};
    return gdw_walk_pair(a, b, key_pair, key_pair_items, &k);
}

/* ---- the table of keys -------------------------------------------------------------------
 * A hash that keys the engine finds equal share (reals by value, -0 as 0, every NaN alike where
 * NaN equals NaN; a Dictionary's own String and StringName keys alike where the dialect says
 * so): a bucket only, key_equal decides. Every bit of every part of a key goes through a full
 * 64-bit finaliser (MurmurHash3's fmix64) keyed by a per-call seed, so keys that differ only in
 * their high bits (1.0, 2.0, ...; ints i << 16) or that an attacker shaped for a fixed hash do not
 * share a slot. A value that can equal no other key (a NaN where NaN never equals, a decoded
 * object, a Godot 3 Dictionary) hashes by its own address.
 *
 * Linear whatever the keys:
 *   - each slot of the table keeps the upper half of its key's hash, so a probe compares two
 *     keys only when 32 more bits agree: key_equal runs about once per key that has an equal;
 *   - a key's hash costs its size, and a container inside a key (or a packed array) whose hash
 *     took HASH_MEMO_STEPS or more is remembered by its items' address, so a Dictionary nested
 *     in the keys of 1,000 enclosing ones is hashed once, not 1,000 times;
 *   - a key that equals an earlier one is merged away, so a node is compared as the later of two
 *     equal keys at most once.
 * c->counts records the work (probes, nodes hashed, nodes compared); fuzzers/decode checks it. */
#define HASH_MEMO_STEPS 16

static uint64_t fmix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 33);
}

static uint64_t mix(uint64_t h, uint64_t x) { return fmix64(h ^ (x + 0x9E3779B97F4A7C15ull)); }

static uint64_t unique(const settle_ctx *c, const void *p) {
    return mix(c->seed ^ 0x5151515151515151ull, (uint64_t)(uintptr_t)p);
}

static uint64_t real_hash(const settle_ctx *c, double x, bool semantic, const void *self) {
    if (x == 0) return 0;
    if (isnan(x)) return semantic ? 1 : unique(c, self);
    return f64_to_bits(x);
}

static uint64_t bytes_hash(uint64_t h, gdw_str s) {
    uint32_t i = 0;
    for (; i + 8 <= s.len; i += 8) h = mix(h, rd_u64le(s.ptr + i));
    uint64_t tail = 0;
    for (uint32_t k = 0; i + k < s.len; k++) tail |= (uint64_t)s.ptr[i + k] << (8 * k);
    return mix(mix(h, tail), s.len);
}

/* The hash of a leaf, or the start of a container's (key_hash mixes in its items, then its
 * length); how: the comparison it stands in (same_node). */
static uint64_t node_hash(settle_ctx *c, const gdw_value *v, int how) {
    bool semantic = how != CMP_PLAIN;
    /* same_node's rule */
    bool as_string = how == CMP_KEY_TOP && gdw_key_string_like(v->type) &&
                     RULE(c, GDW_RULE_KEYS_STRING_LIKE);
    uint64_t h = mix(c->seed, as_string ? (unsigned)GDW_STRING : v->type);
    c->counts.hashed++;
    switch (v->type) {
    case GDW_NIL:
    case GDW_CALLABLE: return h;
    case GDW_BOOL:
    case GDW_INT:
    case GDW_RID: return mix(h, (uint64_t)v->u.i);
    case GDW_FLOAT: return mix(h, real_hash(c, gdw_value_real(v, 0), semantic, v));
    case GDW_STRING:
    case GDW_STRING_NAME: c->counts.hashed += v->len / 8; return bytes_hash(h, str_of(v));
    case GDW_OBJECT: return (v->flags & GDW_VF_OBJECT_NULL) ? h : unique(c, v);
    case GDW_SIGNAL: {
        const gdw_signal *g = (const gdw_signal *)v->u.ext;
        return bytes_hash(mix(h, g->object_id), g->name);
    }
    case GDW_NODE_PATH: {
        const gdw_nodepath *np = (const gdw_nodepath *)v->u.ext;
        h = mix(mix(mix(h, np->name_count), np->subname_count), np->flags & 1);
        for (uint32_t i = 0; i < np->name_count + np->subname_count; i++)
            h = bytes_hash(h, np->parts[i]);
        return h;
    }
    case GDW_PACKED_STRING_ARRAY: {
        const gdw_str *x = (const gdw_str *)v->u.ext;
        for (uint32_t i = 0; i < v->len; i++) h = bytes_hash(h, x[i]);
        c->counts.hashed += v->len;
        return mix(h, v->len);
    }
    case GDW_PACKED_BYTE_ARRAY: {
        gdw_str bytes = {v->u.bytes, v->len};
        c->counts.hashed += v->len / 8;
        return bytes_hash(h, bytes);
    }
    case GDW_ARRAY: return h;
    case GDW_TYPED_ARRAY:
    case GDW_PACKED_TYPED_ARRAY: {
        const gdw_typedesc *t = p5_elem(v);
        if (!t) return h;
        h = mix(h, t->wire_id);
        return t->builtin == GDW_OBJECT ? bytes_hash(h, p5_class_name(t)) : h;
    }
    case GDW_DICTIONARY: return RULE(c, GDW_RULE_KEYS_DICTS_BY_IDENTITY) ? unique(c, v) : h;
    default: break;
    }
    size_t n = gdw_type_components((gdw_type)v->type);
    /* a type same_node finds equal to nothing (not in these dialects' trees) */
    if (!n) return unique(c, v);
    if (v->type >= GDW_PACKED_BYTE_ARRAY) n *= v->len;
    bool reals = gdw_type_has_reals((gdw_type)v->type);
    for (size_t i = 0; i < n; i++)
        h = mix(h, reals ? real_hash(c, gdw_value_real(v, i), semantic, v)
                         : (uint64_t)gdw_value_int_at(v, i));
    c->counts.hashed += n;
    return mix(h, v->len);
}

/* The memo: hashes already worked out, by the address of what they cover (a container's items,
 * or a packed array's data, with the comparison's semantic bit). Stays valid through the whole
 * settle: a container is hashed only once it and everything in it are settled, and a merge moves
 * value structs, never the items they point at. Out of memory, nothing is remembered. */
static uintptr_t memo_key(const gdw_value *v, int how) {
    const void *p = (v->type == GDW_ARRAY || v->type == GDW_DICTIONARY || p5_typed(v->type))
                        ? (const void *)gdw_items(v)
                    : (v->type >= GDW_PACKED_BYTE_ARRAY && v->type < GDW_TYPE_COUNT && v->len)
                        ? v->u.ext
                        : NULL;
    return p ? ((uintptr_t)p << 1) | (uintptr_t)(how != CMP_PLAIN) : 0;
}

/* The slot of key in a memo table of cap (a power of two) slots: its own, or the empty one where
 * it would go (linear probing; the table is at most half full). */
static size_t memo_slot(const hash_memo *m, size_t cap, uint64_t seed, uintptr_t key) {
    size_t at = fmix64(key ^ seed) & (cap - 1);
    while (m[at].key && m[at].key != key) at = (at + 1) & (cap - 1);
    return at;
}

static bool memo_find(const settle_ctx *c, uintptr_t key, uint64_t *h) {
    if (!key || !c->memo_cap) return false;
    const hash_memo *e = &c->memo[memo_slot(c->memo, c->memo_cap, c->seed, key)];
    if (e->key != key) return false;
    *h = e->h;
    return true;
}

static void memo_put(settle_ctx *c, uintptr_t key, uint64_t h) {
    const gdw_allocator *a = &c->doc->alloc;
    if (2 * (c->memo_n + 1) > c->memo_cap) {
        size_t cap = c->memo_cap ? 2 * c->memo_cap : 64;
        hash_memo *m = (hash_memo *)a->malloc_fn(a->ctx, cap * sizeof *m);
        if (!m) return;
        memset(m, 0, cap * sizeof *m);
        for (size_t i = 0; i < c->memo_cap; i++)
            if (c->memo[i].key) m[memo_slot(m, cap, c->seed, c->memo[i].key)] = c->memo[i];
        if (c->memo) a->free_fn(a->ctx, c->memo, c->memo_cap * sizeof *c->memo);
        c->memo = m;
        c->memo_cap = cap;
    }
    hash_memo *e = &c->memo[memo_slot(c->memo, c->memo_cap, c->seed, key)];
    e->key = key;
    e->h = h;
    c->memo_n++;
}

static bool container_hashed(settle_ctx *c, const gdw_value *v) {
    return v->type == GDW_ARRAY || p5_typed(v->type) ||
           (v->type == GDW_DICTIONARY && !RULE(c, GDW_RULE_KEYS_DICTS_BY_IDENTITY));
}

/* A value's hash as a key (how: CMP_KEY_TOP) or inside one: its node, then each item's hash in
 * order, then its length. The tree is walked without recursion, children finished before their
 * container; remembered hashes are taken as they are. */
static uint64_t key_hash(settle_ctx *c, const gdw_value *v, int how) {
    struct {
        const gdw_value *v, *items;
        size_t n, next;
        uint64_t h, steps;
        uintptr_t memo;
    } f[GDW_WALK_MAX_DEPTH + 1];
    unsigned sp = 0;
    uint64_t done = 0;
    for (;;) {
        /* v (in the comparison how) is next: a remembered hash, a leaf, or a frame to open */
        uintptr_t mk = memo_key(v, how);
        uint64_t before = c->counts.hashed;
        if (!memo_find(c, mk, &done)) {
            done = node_hash(c, v, how);
            const gdw_value *items;
            size_t n = sp > GDW_WALK_MAX_DEPTH ? 0 : key_items(c, v, &items);
            if (n) {
                f[sp].v = v;
                f[sp].items = items;
                f[sp].n = n;
                f[sp].next = 0;
                f[sp].h = done;
                f[sp].steps = before;
                f[sp].memo = mk;
                sp++;
            } else {
                if (container_hashed(c, v)) done = mix(done, v->len);
                if (mk && c->counts.hashed - before >= HASH_MEMO_STEPS) memo_put(c, mk, done);
            }
        }
        /* fold finished values into their containers; descend into the next item */
        for (;;) {
            if (sp == 0) return done;
            unsigned t = sp - 1;
            if (f[t].next) f[t].h = mix(f[t].h, done); /* the item just finished */
            if (f[t].next < f[t].n) {
                size_t i = f[t].next++;
                how = child_cmp(c, f[t].v, i);
                v = &f[t].items[i];
                break;
            }
            done = mix(f[t].h, f[t].v->len);
            if (f[t].memo && c->counts.hashed - f[t].steps >= HASH_MEMO_STEPS)
                memo_put(c, f[t].memo, done);
            sp--;
        }
    }
}

/* a slot's upper half: its key's hash there; lower: the pair */
#define SLOT_TAG 0xFFFFFFFF00000000ull

/* Keys the engine finds equal become one entry: the first one's key and place, the last value.
 * An open-addressing table (temporary, from the document's allocator) of slots, each the index of
 * a kept pair below the upper half of its key's hash. */
gdw_status gdw_engine_merge_keys(settle_ctx *c, gdw_value *dict) {
    uint32_t n = dict->len;
    if (n < 2) return GDW_OK;
    gdw_value *items = (gdw_value *)gdw_items(dict);
    size_t cap = 4;
    while (cap < (size_t)n + n / 2) cap *= 2;
    const gdw_allocator *a = &c->doc->alloc;
    uint64_t *slot = (uint64_t *)a->malloc_fn(a->ctx, cap * sizeof *slot);
    if (!slot) return GDW_ERR_NOMEM;
    memset(slot, 0xFF, cap * sizeof *slot);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        gdw_value *k = &items[2 * i];
        uint64_t h = fmix64(key_hash(c, k, CMP_KEY_TOP));
        uint64_t tag = h & SLOT_TAG;
        c->counts.keys++;
        for (size_t at = h & (cap - 1);; at = (at + 1) & (cap - 1)) {
            c->counts.probes++;
            uint64_t e = slot[at];
            if (e == UINT64_MAX) {
                slot[at] = tag | kept;
                if (kept != i) {
                    items[2 * kept] = items[2 * i];
                    items[2 * kept + 1] = items[2 * i + 1];
                }
                kept++;
                break;
            }
            uint32_t j = (uint32_t)e;
            if ((e & SLOT_TAG) == tag && key_equal(c, &items[2 * j], k, true)) {
                items[2 * j + 1] = items[2 * i + 1];
                break;
            }
        }
    }
    a->free_fn(a->ctx, slot, cap * sizeof *slot);
    dict->len = kept;
    return GDW_OK;
}

uint64_t gdw_engine_key_seed(const void *a, const void *b) {
    return fmix64((uint64_t)(uintptr_t)a ^ fmix64((uint64_t)(uintptr_t)b ^ 0x243F6A8885A308D3ull));
}

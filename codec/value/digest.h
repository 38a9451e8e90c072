/* SPDX-License-Identifier: MIT */
/* digest.h — the digest of one node (gdw_digest, gdwire.h), inline: gdw_digest_node and
 * gdw_digest_tree (digest.c) and a decode's own digest (wire/decode.c, gdw_decode_events.digest)
 * add nodes through it, so a decode digests as it makes the nodes without a call a node. */
#ifndef GDWIRE_VALUE_DIGEST_H
#define GDWIRE_VALUE_DIGEST_H

/* gdw_digest */
#include "codec/gdwire_check.h"
#include "codec/value/value.h"

/* The 64x64->128 multiply folded to 64 bits: each lane takes every word through its own key. */
static inline uint64_t dg_fold(uint64_t a, uint64_t b) {
#ifdef __SIZEOF_INT128__
    __uint128_t p = (__uint128_t)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
    uint64_t ah = a >> 32, al = a & 0xFFFFFFFFu, bh = b >> 32, bl = b & 0xFFFFFFFFu;
    uint64_t hh = ah * bh, hl = ah * bl, lh = al * bh, ll = al * bl;
    uint64_t mid = (ll >> 32) + (hl & 0xFFFFFFFFu) + (lh & 0xFFFFFFFFu);
    uint64_t lo = (ll & 0xFFFFFFFFu) | mid << 32, hi = hh + (hl >> 32) + (lh >> 32) + (mid >> 32);
    return lo ^ hi;
#endif
}

static inline void dg_word(gdw_digest *g, uint64_t w) {
    g->h[0] = dg_fold(g->h[0] ^ w ^ g->key[0], 0x9E3779B97F4A7C15u ^ g->key[1]);
    g->h[1] = dg_fold(g->h[1] ^ w ^ g->key[1], 0xD6E8FEB86659FD93u ^ g->key[0]);
}

/* Two words in one step of each lane (each lane multiplies one word by the other, both keyed): a
 * node's head and its value cost one multiply a lane, not two. A word the key turns to zero would
 * cancel a lane's state; the key is secret and the other lane pairs the words the other way round.
 * */
static inline void dg_pair(gdw_digest *g, uint64_t a, uint64_t b) {
    uint64_t ka = a ^ g->key[0], kb = b ^ g->key[1];
    g->h[0] = dg_fold(g->h[0] ^ ka, kb ^ 0x9E3779B97F4A7C15u);
    g->h[1] = dg_fold(g->h[1] ^ kb, ka ^ 0xD6E8FEB86659FD93u);
}

/* Bytes, in the step of `lead` (a word that fixes n: the node's head, which holds its length, or
 * the length itself): by their place when they lie inside the packet (two decodes of it share
 * them), else read, 16 bytes a step. A place has bit 63 set; read bytes follow a 0. */
static inline bool dg_inside(const gdw_digest *g, const uint8_t *p, size_t n) {
    return n && g->packet && p >= g->packet && n <= g->packet_len &&
           (size_t)(p - g->packet) <= g->packet_len - n;
}

/* A string inside a packet under 2 GiB as one word: bit 63, its length, its place. */
static inline uint64_t dg_entry_word(const gdw_digest *g, gdw_str s) {
    return (uint64_t)1 << 63 | (uint64_t)s.len << 32 | (uint64_t)(s.ptr - g->packet);
}

static inline void dg_bytes_after(gdw_digest *g, uint64_t lead, const uint8_t *p, size_t n) {
    if (dg_inside(g, p, n)) {
        dg_pair(g, lead, (uint64_t)(p - g->packet) | (uint64_t)1 << 63);
        return;
    }
    dg_pair(g, lead, 0);
    if (n == 0) return;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) dg_pair(g, rd_u64le(p + i), rd_u64le(p + i + 8));
    uint64_t tail[2] = {0, 0};
    for (size_t k = 0; i + k < n; k++) tail[k / 8] |= (uint64_t)p[i + k] << (8 * (k % 8));
    dg_pair(g, tail[0], tail[1]);
}

static inline void dg_str(gdw_digest *g, gdw_str s) {
    dg_bytes_after(g, s.len, (const uint8_t *)s.ptr, s.len);
}

/* as gdw_typedesc_equal compares */
static inline void dg_typedesc(gdw_digest *g, const gdw_typedesc *t) {
    dg_word(g, (uint64_t)t->kind | (uint64_t)t->id_only << 8);
    if (t->kind == GDW_DESC_BUILTIN)
        dg_word(g, (uint64_t)t->builtin |
                       (t->builtin == GDW_TYPE_COUNT ? (uint64_t)t->wire_id << 8 : 0));
    else if (t->kind == GDW_DESC_CLASS || t->kind == GDW_DESC_SCRIPT) dg_str(g, t->name);
}

/* Every field node_equal (widen false) compares, and nothing else: equal nodes add the same words.
 * */
static inline void digest_node(gdw_digest *g, const gdw_value *v) {
    if (!v) {
        dg_word(g, 0xFFFFFFFFFFFFFFFFu);
        return;
    }
    /* equal only to itself */
    if (v->type >= GDW_TYPE_COUNT) {
        dg_word(g, (uint64_t)(uintptr_t)v);
        return;
    }
    const gdw_type_info *ti = type_info(v->type);
    uint64_t head = (uint64_t)v->type | (uint64_t)(v->flags & GDW_VF_COMPARED) << 8 |
                    (uint64_t)v->len << 32;
    if (type_has_reals(v->type)) head |= (uint64_t)v->width << 24;
    /* the head (type, flags, width, length) goes in one step with the node's first word; what
     * follows it is fixed by the head */
    switch (ti->kind) {
    case K_NIL:
    case K_CALLABLE: dg_pair(g, head, 0); return;
    case K_BOOL:
    case K_INT:
    case K_RID: dg_pair(g, head, (uint64_t)v->u.i); return;
    case K_FLOAT: dg_pair(g, head, v->u.bits); return;
    case K_STR:
    case K_PACKED_BYTES: dg_bytes_after(g, head, v->u.bytes, v->len); return;
    case K_FIXED:
    case K_PACKED: {
        size_t w = ti->comp == C_I32 ? 4 : ti->comp == C_I64 ? 8 : v->width;
        dg_bytes_after(g, head, v->u.bytes,
                       (size_t)ti->ncomp * w * (ti->kind == K_PACKED ? v->len : 1));
        return;
    }
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: {
        /* how many nodes below are its own, from its length (as gdw_children counts them where the
         * items are there: a cutting decode digests a container past its cut, whose items are not
         * kept) */
        const gdw_container *ct = gdw_container_of(v);
        dg_pair(g, head, (uint64_t)(ct != NULL) | (uint64_t)v->len << (ti->kind == K_DICT ? 2 : 1));
        if (ct) {
            dg_typedesc(g, &ct->key);
            dg_typedesc(g, &ct->elem);
        }
        return;
    }
    default: break;
    }
    dg_word(g, head);
    switch (ti->kind) {
    case K_PACKED_STRINGS: {
        /* two entries a step where both lie inside a packet under 2 GiB: each as one word, bit 63
         * set (a dg_str step's first word, a length, has it clear), its length above its place */
        const gdw_str *x = (const gdw_str *)v->u.ext;
        uint32_t i = 0;
        if (g->packet_len < ((size_t)1 << 31))
            for (; i + 1 < v->len && dg_inside(g, x[i].ptr, x[i].len) &&
                   dg_inside(g, x[i + 1].ptr, x[i + 1].len);
                 i += 2)
                dg_pair(g, dg_entry_word(g, x[i]), dg_entry_word(g, x[i + 1]));
        for (; i < v->len; i++) dg_str(g, x[i]);
        return;
    }
    case K_NODEPATH: {
        const gdw_nodepath *x = (const gdw_nodepath *)v->u.ext;
        dg_word(g, (uint64_t)x->name_count | (uint64_t)x->subname_count << 32);
        dg_word(g, x->flags);
        for (uint32_t i = 0; i < x->name_count + x->subname_count; i++) dg_str(g, x->parts[i]);
        return;
    }
    case K_OBJECT:
        if (v->flags & GDW_VF_OBJECT_NULL) return;
        if (v->flags & GDW_VF_OBJECT_ID) {
            dg_word(g, (uint64_t)v->u.i);
            return;
        }
        dg_str(g, ((const gdw_object *)v->u.ext)->class_name);
        /* how many nodes below are its own: the pre-order is one tree */
        dg_word(g, 2 * (uint64_t)v->len);
        return;
    case K_SIGNAL: {
        const gdw_signal *x = (const gdw_signal *)v->u.ext;
        dg_str(g, x->name);
        dg_word(g, x->object_id);
        return;
    }
    case K_IMAGE: {
        const gdw_image *x = (const gdw_image *)v->u.ext;
        dg_word(g, (uint64_t)x->format | (uint64_t)x->mipmaps << 32);
        dg_word(g, (uint64_t)x->width | (uint64_t)x->height << 32);
        dg_str(g, x->data);
        return;
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *x = (const gdw_input_event *)v->u.ext;
        dg_word(g, (uint64_t)x->type | (uint64_t)x->device << 32);
        dg_word(g, (uint64_t)x->llen | (uint64_t)x->extra_count << 32);
        for (uint32_t i = 0; i < x->extra_count && i < 2; i++) dg_word(g, x->extra[i]);
        return;
    }
    }
}

/* digest_node for the nodes most trees are made of, inline (a decode digests each node as it makes
 * it: the call and the general head cost more than these nodes' one step), the others through
 * digest_node. The same words as digest_node: none of these types has reals but float, whose head
 * carries its width. */
static GDW_ALWAYS_INLINE void digest_node_fast(gdw_digest *g, const gdw_value *v) {
    if (v->type < GDW_TYPE_COUNT) {
        uint64_t head = (uint64_t)v->type | (uint64_t)(v->flags & GDW_VF_COMPARED) << 8 |
                        (uint64_t)v->len << 32;
        switch (type_info(v->type)->kind) {
        case K_NIL:
        case K_CALLABLE: dg_pair(g, head, 0); return;
        case K_BOOL:
        case K_INT:
        case K_RID: dg_pair(g, head, (uint64_t)v->u.i); return;
        case K_FLOAT: dg_pair(g, head | (uint64_t)v->width << 24, v->u.bits); return;
        case K_STR: dg_bytes_after(g, head, v->u.bytes, v->len); return;
        default: break;
        }
    }
    digest_node(g, v);
}

#endif

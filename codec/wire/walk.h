/* SPDX-License-Identifier: MIT */
/* walk.h — what the decoder's walk (decode.c) shares with the cut tree (cut.c): the walk's open
 * containers (frames) and the state of a cut (gdw_decode_options.keep_nodes). Only codec/wire/
 * includes it; the rest of the library sees wire.h. */
#ifndef GDWIRE_WIRE_WALK_H
#define GDWIRE_WIRE_WALK_H

#include "codec/wire/wire.h"

enum { FR_ARRAY, FR_DICT, FR_OBJECT };

typedef struct frame {
    uint8_t kind;
    bool kept;      /* a cutting walk (gdw_cut.on): the container is a node the tree keeps */
    uint32_t slots; /* array: n; dictionary and object: 2n */
    uint32_t next;  /* next slot to read */
    /* slots items has room for: slots or 0, or fewer in a cutting walk (open_frame) */
    uint32_t stored;
    gdw_value *items; /* destination slots, or NULL */
    /* dictionary: offset of the last key's value; object: the last name's content */
    size_t key_off;
    uint32_t key_len;   /* object: the last name's length */
    uint32_t key_start; /* a watching validation's Dictionary: where its keys start in dctx.keys */
} frame;

/* A container open at the cut: the children it keeps, and the place of the value of a pair whose
 * key (or a node inside it) was the last node kept: null there, as no value of it is kept (a stored
 * slot: gdw_cut_stored). */
typedef struct gdw_cut_fix {
    gdw_value *node, *null_value;
    uint32_t len;
} gdw_cut_fix;

/* A cutting walk (options.keep_nodes, a decode into a tree): the first keep_left nodes made where
 * the tree keeps them (kept: the root, or a kept container's stored slot) are the tree; the node
 * that takes the last (gdw_cut_here) fixes the open containers' lengths to what they keep, and
 * after it every node is made into a slot no one keeps (a stored one past the length, or
 * `discarded`) and its storage released (to mark) once it is made, digested and passed on
 * (gdw_cut_release). */
typedef struct gdw_cut {
    bool on;        /* the walk cuts its tree */
    bool kept;      /* the node being made is one the tree keeps */
    bool past;      /* the last node kept was made */
    bool allocated; /* the walk allocated since mark was taken or released to */
    size_t keep_left;
    gdw_value discarded; /* the destination of a node past the cut that has no stored slot */
    /* a slot's destination where its container stores none: &discarded cutting, else NULL */
    gdw_value *no_slot_dst;
    gdw_arena_mark mark;
    /* where the input was at the cut: a node read past it is one the tree does not keep */
    size_t pos;
    /* the open containers' lengths at the cut, written when the walk is done */
    gdw_cut_fix *fix;
    unsigned fixes;
} gdw_cut;

static inline void gdw_cut_start(gdw_cut *k, size_t keep_nodes) {
    k->on = true;
    k->keep_left = keep_nodes;
    k->no_slot_dst = &k->discarded;
}

/* The slots a container of `slots` children stores in a cutting walk: what its tree may keep, in a
 * kept container at most keep_left slots (and a pair's value slot, for gdw_cut_here), or all of one
 * whose keys are judged (`judged_up_to` slots or fewer); in one past the cut none (its children are
 * made into `discarded`). */
static inline uint32_t gdw_cut_stored(const gdw_cut *k, int kind, uint32_t slots,
                                      uint32_t judged_up_to) {
    if (!k->kept) return 0;
    if (slots <= judged_up_to || k->keep_left >= slots) return slots;
    uint32_t stored = (uint32_t)k->keep_left + 1;
    return kind != FR_ARRAY ? stored + (stored & 1u) : stored;
}

/* The walk made the last node its tree keeps: each open container (stack[0 .. open), each kept, as
 * the node's ancestors; root the tree's) keeps the children begun so far; the lengths are written
 * once the walk is done (gdw_cut_done), as the walk goes on making nodes into the slots past them.
 * From now on everything made is released once made (a cutting walk borrows the input: a key kept
 * on the keys stack points into it). false: no memory. */
bool gdw_cut_here(gdw_cut *k, gdw_doc *doc, const frame *stack, unsigned open, gdw_value *root,
                  size_t pos);
void gdw_cut_done(const gdw_cut *k);

/* A cutting walk past its cut, a node made: what was allocated for it is released. */
static GDW_ALWAYS_INLINE void gdw_cut_release(gdw_cut *k, gdw_doc *doc) {
    if (k->allocated && k->past) {
        gdw_arena_release(doc, &k->mark);
        k->allocated = false;
    }
}

#endif

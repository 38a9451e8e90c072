/* SPDX-License-Identifier: MIT */
/* approximate.c — values the engine pass kept as written where the engine computes another
 * (GDW_VF_APPROXIMATE): why (gdw_approximate_why), how many and the first one's path
 * (gdw_doc_approximate). */
#include "codec/value/value.h"

const char *gdw_approximate_why(unsigned want, unsigned have) {
    if (want == GDW_COLOR && have == GDW_STRING)
        return "the engine makes a Color of this String (Color(String)), which gdwire does not "
               "compute for text that is not UTF-8 "
               "or holds U+0131 or U+017F (String::to_upper may map them into a colour name)";
    if (want == GDW_QUATERNION && have == GDW_BASIS)
        return "the engine makes a Quaternion of this Basis, which is not a rotation: a debug "
               "build holds Quaternion() "
               "(MATH_CHECKS), a release build computes Basis::get_quaternion";
    if (want == GDW_PACKED_STRING_ARRAY && have == GDW_ARRAY)
        return "the engine makes a PackedStringArray of this Array, each element's text "
               "(String(Variant)); gdwire does not "
               "write the text of a float, a math type, a container or an object as the engine "
               "does";
    if (want >= GDW_PACKED_BYTE_ARRAY && want <= GDW_PACKED_COLOR_ARRAY && have == GDW_ARRAY)
        return "the engine makes a packed array of this Array, converting each element; gdwire "
               "does not compute one of them";
    return "the engine converts this value to the container's element type; gdwire does not "
           "compute the conversion";
}

const char *gdw_undefined_conversion_why(unsigned want) {
    if (want == GDW_BASIS || want == GDW_TRANSFORM3D)
        return "the engine makes a Basis of a Quaternion of length 0 and divides by that length "
               "(undefined in C++; IEEE gives infinities and NaNs) (engine finding 7)";
    if (want == GDW_PACKED_BYTE_ARRAY)
        return "the engine converts a float outside 0..255, an infinity or a NaN to a byte, which "
               "C++ leaves undefined: its x86-64 build holds the low byte of a 32-bit conversion "
               "(0 past int's range; what gdwire holds), an ARM64 build another (engine finding 7)";
    return "the engine converts a float out of the integer's range, an infinity or a NaN to an "
           "integer, which C++ leaves undefined: its x86-64 build holds the most negative integer "
           "(what gdwire holds), an ARM64 build saturates (engine finding 7)";
}

size_t gdw_doc_undefined_conversions(const gdw_doc *doc) {
    return doc ? doc->undefined_conversions : 0;
}

/* gdw_doc_approximate: the same chain as gdw_value_diff, over the tree paired with itself: every
 * node is descended into, and the marked ones counted; the first one's path is the chain. */
typedef struct approx_walk {
    gdw_chain chain;
    size_t count;
    const gdw_value *first_parent;
    uint32_t first_slot;
    char *path;
} approx_walk;

static int approx_pair(void *ctx, const gdw_value *x, const gdw_value *y, const gdw_value *parent,
                       size_t slot) {
    approx_walk *a = (approx_walk *)ctx;
    (void)y;
    gdw_chain_pop_to(&a->chain, parent);
    if ((x->flags & GDW_VF_APPROXIMATE) && !a->count++) {
        a->first_parent = parent;
        a->first_slot = (uint32_t)slot;
        if (a->path) gdw_chain_path(&a->chain, parent, (uint32_t)slot, a->path);
    }
    gdw_chain_push(&a->chain, x, parent, slot);
    return GDW_PAIR_DESCEND;
}

/* The element type a container's item `slot` was to have: a typed Array's element type, a typed
 * Dictionary's key type (its keys are what the engine converts). */
static unsigned slot_type(const gdw_value *parent, uint32_t slot) {
    const gdw_container *ct = parent ? gdw_container_of(parent) : NULL;
    if (!ct) return GDW_NIL;
    const gdw_typedesc *td = parent->type == GDW_DICTIONARY && slot % 2 == 0 ? &ct->key : &ct->elem;
    return td->kind == GDW_DESC_BUILTIN ? td->builtin : (unsigned)GDW_NIL;
}

size_t gdw_doc_approximate(const gdw_doc *doc, char *path, const char **why) {
    if (path) path[0] = 0;
    if (why) *why = NULL;
    if (!doc || !doc->approximate) return 0;
    approx_walk a; /* about 25 KiB of stack, as gdw_value_diff */
    a.chain.depth = 0;
    a.count = 0;
    a.first_parent = NULL;
    a.first_slot = 0;
    a.path = path;
    gdw_walk_pair(&doc->root, &doc->root, approx_pair, gdw_pair_children, &a);
    if (a.count && why) {
        const gdw_value *items, *first = &doc->root;
        if (a.first_parent && gdw_children(a.first_parent, &items) > a.first_slot)
            first = &items[a.first_slot];
        *why = gdw_approximate_why(slot_type(a.first_parent, a.first_slot), first->type);
    }
    return a.count;
}

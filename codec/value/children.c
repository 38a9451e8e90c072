/* SPDX-License-Identifier: MIT */
/* children.c — gdw_children, the one definition of a value's children (gdwire.h). Every walk of
 * a tree goes through it: the printers and gdw_visit (walk.c), the encoder, the converter, the
 * engine's key equality and settling, the builder's copy, the comparisons, the command and the
 * fuzz targets. It lives alone in its file so that a test can stand in for it at link time
 * (codec/tests/children_test.c, -Wl,--wrap=gdw_children) and prove that nothing else knows where
 * a container keeps its items. */
#include "codec/value/value.h"

size_t gdw_children(const gdw_value *v, const gdw_value **items) {
    const gdw_value *none = NULL;
    if (!items) items = &none;
    *items = NULL;
    if (!v || v->len == 0) return 0;
    /* the common case first */
    if (v->type == GDW_ARRAY && !(v->flags & GDW_VF_TYPED))
        return (*items = v->u.items) ? v->len : 0;
    if (v->type >= GDW_TYPE_COUNT) return 0;
    switch (type_info(v->type)->kind) {
    case K_ARRAY:
    case K_DICT:
    case K_TYPED_ARRAY: {
        /* a typed container (GDW_VF_TYPED; Pandemonium's TypedArray always) keeps its items beside
         * its element types, in the container the value points at */
        unsigned kind = type_info(v->type)->kind;
        const gdw_container *ct = (v->flags & GDW_VF_TYPED) ? (const gdw_container *)v->u.ext
                                                            : NULL;
        *items = ct                                                   ? ct->items
                 : (v->flags & GDW_VF_TYPED) || kind == K_TYPED_ARRAY ? NULL
                                                                      : v->u.items;
        if (!*items) return 0;
        return kind == K_DICT ? 2 * (size_t)v->len : v->len;
    }
    case K_OBJECT: {
        if (v->flags & (GDW_VF_OBJECT_NULL | GDW_VF_OBJECT_ID)) return 0;
        const gdw_object *o = (const gdw_object *)v->u.ext;
        *items = o ? o->props : NULL;
        return *items ? 2 * (size_t)v->len : 0;
    }
    default: return 0;
    }
}

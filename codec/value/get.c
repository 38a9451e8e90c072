/* SPDX-License-Identifier: MIT */
/* get.c — typed getters over a value tree (docs/library.md "Reading and building values"): each
 * checks the type and the range asked for, and says no rather than guess. */
#include "codec/value/value.h"

bool gdw_get_bool(const gdw_value *v, bool *out) {
    if (!v || v->type != GDW_BOOL || !out) return false;
    *out = v->u.i != 0;
    return true;
}

bool gdw_get_int(const gdw_value *v, int64_t *out) {
    return gdw_get_int_in(v, INT64_MIN, INT64_MAX, out);
}

bool gdw_get_int_in(const gdw_value *v, int64_t min, int64_t max, int64_t *out) {
    if (!v || v->type != GDW_INT || !out || v->u.i < min || v->u.i > max) return false;
    *out = v->u.i;
    return true;
}

bool gdw_get_float(const gdw_value *v, double *out) {
    if (!v || v->type != GDW_FLOAT || !out || (v->width != 4 && v->width != 8)) return false;
    *out = gdw_value_real(v, 0);
    return true;
}

bool gdw_get_string(const gdw_value *v, const char **s, size_t *len) {
    if (!v || (v->type != GDW_STRING && v->type != GDW_STRING_NAME) || !s || !len) return false;
    *s = v->len ? (const char *)v->u.bytes : "";
    *len = v->len;
    return true;
}

bool gdw_get_components(const gdw_value *v, gdw_type t, double *out, size_t n) {
    if (!v || !out || (unsigned)t >= GDW_TYPE_COUNT || v->type != t) return false;
    const gdw_type_info *ti = type_info((unsigned)t);
    if (ti->kind != K_FIXED || n != ti->ncomp || !v->u.bytes) return false;
    bool reals = gdw_type_has_reals(t);
    if (reals && v->width != 4 && v->width != 8) return false;
    for (size_t i = 0; i < n; i++)
        out[i] = reals ? gdw_value_real(v, i) : (double)gdw_value_int_at(v, i);
    return true;
}

size_t gdw_count(const gdw_value *v) {
    if (!v || v->type >= GDW_TYPE_COUNT) return 0;
    switch (type_info(v->type)->kind) {
    case K_STR:
    case K_ARRAY:
    case K_TYPED_ARRAY:
    case K_DICT:
    case K_PACKED:
    case K_PACKED_BYTES:
    case K_PACKED_STRINGS: return v->len;
    case K_OBJECT: return (v->flags & (GDW_VF_OBJECT_ID | GDW_VF_OBJECT_NULL)) ? 0 : v->len;
    default: return 0;
    }
}

const gdw_value *gdw_array_get(const gdw_value *a, size_t i) {
    if (!a || a->type >= GDW_TYPE_COUNT || i >= a->len) return NULL;
    unsigned kind = type_info(a->type)->kind;
    if (kind != K_ARRAY && kind != K_TYPED_ARRAY) return NULL;
    const gdw_value *items = gdw_items(a);
    return items ? &items[i] : NULL;
}

static const gdw_value *pair_at(const gdw_value *d, size_t i, size_t which) {
    if (!d || d->type != GDW_DICTIONARY || i >= d->len) return NULL;
    const gdw_value *items = gdw_items(d);
    return items ? &items[2 * i + which] : NULL;
}

const gdw_value *gdw_dict_key_at(const gdw_value *d, size_t i) { return pair_at(d, i, 0); }
const gdw_value *gdw_dict_value_at(const gdw_value *d, size_t i) { return pair_at(d, i, 1); }

const gdw_value *gdw_dict_get(const gdw_value *d, const char *key, size_t len) {
    if (!key && len) return NULL;
    for (size_t i = 0; d && d->type == GDW_DICTIONARY && i < d->len; i++) {
        const gdw_value *k = pair_at(d, i, 0);
        if (!k) return NULL;
        if ((k->type == GDW_STRING || k->type == GDW_STRING_NAME) && k->len == len &&
            (len == 0 || memcmp(k->u.bytes, key, len) == 0))
            return pair_at(d, i, 1);
    }
    return NULL;
}

bool gdw_get_number(const gdw_value *v, double *out) {
    if (!v || !out) return false;
    if (v->type == GDW_INT) {
        *out = (double)v->u.i;
        return true;
    }
    return gdw_get_float(v, out);
}

const gdw_value *gdw_dict_getc(const gdw_value *d, const char *key) {
    return key ? gdw_dict_get(d, key, strlen(key)) : NULL;
}

const gdw_value *gdw_dict_get_int(const gdw_value *d, int64_t key) {
    for (size_t i = 0; d && d->type == GDW_DICTIONARY && i < d->len; i++) {
        const gdw_value *k = pair_at(d, i, 0);
        if (!k) return NULL;
        if (k->type == GDW_INT && k->u.i == key) return pair_at(d, i, 1);
    }
    return NULL;
}

bool gdw_packed_bytes(const gdw_value *v, const uint8_t **p, size_t *n) {
    if (!v || !p || !n || v->type >= GDW_TYPE_COUNT || type_info(v->type)->kind != K_PACKED_BYTES)
        return false;
    *p = v->len ? v->u.bytes : (const uint8_t *)"";
    *n = v->len;
    return true;
}

bool gdw_packed_string_at(const gdw_value *v, size_t i, const char **s, size_t *len) {
    if (!v || !s || !len || v->type >= GDW_TYPE_COUNT ||
        type_info(v->type)->kind != K_PACKED_STRINGS || i >= v->len || !v->u.ext)
        return false;
    const gdw_str *e = &((const gdw_str *)v->u.ext)[i];
    *s = e->len ? (const char *)e->ptr : "";
    *len = e->len;
    return true;
}

bool gdw_packed_at(const gdw_value *v, size_t i, double *out, size_t n) {
    if (!v || !out || v->type >= GDW_TYPE_COUNT || i >= v->len) return false;
    const gdw_type_info *ti = type_info(v->type);
    if (ti->kind != K_PACKED || n != ti->ncomp || !v->u.bytes) return false;
    bool reals = gdw_type_has_reals((gdw_type)v->type);
    if (reals && v->width != 4 && v->width != 8) return false;
    for (size_t c = 0; c < n; c++)
        out[c] = reals ? gdw_value_real(v, i * n + c) : (double)gdw_value_int_at(v, i * n + c);
    return true;
}

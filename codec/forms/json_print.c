/* SPDX-License-Identifier: MIT */
/* json_print.c — the JSON form of values (docs/json.md; schema docs/gdwire.schema.json).
 *
 * Every value is an object with a "type" member, the canonical type name. The form holds the
 * same information as the canonical text: gdw_json_parse reads it back to an equal value.
 */
#include <inttypes.h>
#include <math.h>

#include "codec/forms/forms.h"

/* ---- strings ----------------------------------------------------------------------------- */

static bool is_utf8(const uint8_t *p, size_t n) {
    return gdw_utf8_check(p, n, GDW_UTF8_STRICT) == (size_t)-1;
}

static void json_quoted_utf8(sbuf *s, const uint8_t *p, size_t n) {
    sb_put(s, "\"", 1);
    size_t run = 0; /* bytes copied as they are, in one put */
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F && c < 0xC2) continue;
        /* a character a terminal acts on or that reorders text: \uXXXX (gdw_text_show) */
        if (c >= 0xC2) {
            gdw_show how;
            uint32_t cp;
            size_t len = gdw_text_show(p + i, n - i, &how, &cp);
            if (how != GDW_SHOW_CODE_POINT) {
                i += len - 1;
                continue;
            }
            sb_put(s, (const char *)p + run, i - run);
            sb_fmt(s, "\\u%04x", (unsigned)cp);
            i += len - 1;
            run = i + 1;
            continue;
        }
        sb_put(s, (const char *)p + run, i - run);
        run = i + 1;
        if (c == '"') sb_str(s, "\\\"");
        else if (c == '\\') sb_str(s, "\\\\");
        else if (c == '\n') sb_str(s, "\\n");
        else if (c == '\t') sb_str(s, "\\t");
        else if (c == '\r') sb_str(s, "\\r");
        else sb_fmt(s, "\\u%04x", c);
    }
    sb_put(s, (const char *)p + run, n - run);
    sb_put(s, "\"", 1);
}

static void json_base64(sbuf *s, const uint8_t *p, size_t n) {
    sb_put(s, "\"", 1);
    /* in slices, so the stack buffer stays small */
    char tmp[1025];
    for (size_t i = 0; i < n; i += 768) {
        size_t k = n - i < 768 ? n - i : 768;
        size_t w = gdw_base64_encode(p + i, k, tmp, sizeof tmp);
        sb_put(s, tmp, w);
    }
    sb_put(s, "\"", 1);
}

/* A byte string: a JSON string when it is UTF-8, else {"base64": "..."}. */
static void json_bytes(sbuf *s, gdw_str g) {
    if (is_utf8(g.ptr, g.len)) {
        json_quoted_utf8(s, g.ptr, g.len);
        return;
    }
    sb_str(s, "{\"base64\":");
    json_base64(s, g.ptr, g.len);
    sb_str(s, "}");
}

/* "value": "..." or "base64": "..." inside a value object. */
static void json_string_member(sbuf *s, gdw_str g) {
    if (is_utf8(g.ptr, g.len)) {
        sb_str(s, ",\"value\":");
        json_quoted_utf8(s, g.ptr, g.len);
    } else {
        sb_str(s, ",\"base64\":");
        json_base64(s, g.ptr, g.len);
    }
}

/* ---- numbers ----------------------------------------------------------------------------- */

/* A real: a JSON number when finite, else the text form's word in a string ("nan", "-inf",
 * "nan(0x7ff8000000000001)"). */
static void json_real(sbuf *s, uint64_t bits, unsigned width) {
    char tmp[48];
    double x = width == 8 ? bits_to_f64(bits) : (double)bits_to_f32((uint32_t)bits);
    gdw_real_text(tmp, sizeof tmp, bits, width);
    if (isnan(x) || isinf(x)) sb_fmt(s, "\"%s\"", tmp);
    else sb_str(s, tmp);
}

static void json_components(sbuf *s, const gdw_value *v, size_t n) {
    sb_str(s, "[");
    gdw_print_components(s, v, n, ",", json_real);
    sb_str(s, "]");
}

/* ---- values ------------------------------------------------------------------------------ */

static void json_value(sbuf *s, const gdw_value *v);

static void json_desc(sbuf *s, const gdw_typedesc *td) {
    switch (td->kind) {
    case GDW_DESC_NONE: sb_str(s, "\"Variant\""); break;
    case GDW_DESC_BUILTIN:
        if (td->id_only) sb_str(s, "\"ObjectID\"");
        else if (td->builtin >= GDW_TYPE_COUNT) sb_fmt(s, "{\"wire_id\":%" PRIu32 "}", td->wire_id);
        else sb_fmt(s, "\"%s\"", gdw_type_name((gdw_type)td->builtin));
        break;
    case GDW_DESC_CLASS:
        sb_str(s, "{\"class\":");
        json_bytes(s, td->name);
        sb_str(s, "}");
        break;
    case GDW_DESC_SCRIPT:
        sb_str(s, "{\"script\":");
        json_bytes(s, td->name);
        sb_str(s, "}");
        break;
    }
}

static void json_parts(sbuf *s, const gdw_str *parts, uint32_t n) {
    sb_str(s, "[");
    for (uint32_t i = 0; i < n; i++) {
        if (i) sb_str(s, ",");
        json_bytes(s, parts[i]);
    }
    sb_str(s, "]");
}

/* An Object's property name: a JSON string (or {"base64": ...}), not a value object. */
static bool is_property_name(const gdw_value *parent, uint32_t slot) {
    return parent && parent->type == GDW_OBJECT && slot % 2 == 0;
}

/* Everything of a value up to its items (containers, full Objects) or the whole of it; the walk
 * (walk.c) writes the items, json_leave closes. */
static void json_enter(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    sbuf *s = (sbuf *)ctx;
    if (is_property_name(parent, slot)) {
        json_bytes(s, str_of(v));
        return;
    }
    if (v->type >= GDW_TYPE_COUNT) {
        sb_str(s, "null");
        return;
    }
    const gdw_type_info *ti = type_info(v->type);
    sb_fmt(s, "{\"type\":\"%s\"", ti->name);
    switch (ti->kind) {
    case K_NIL:
    case K_CALLABLE: break;
    case K_BOOL: sb_str(s, v->u.i ? ",\"value\":true" : ",\"value\":false"); break;
    case K_INT: sb_fmt(s, ",\"value\":%" PRId64, v->u.i); break;
    case K_FLOAT: {
        unsigned w = v->width == 8 ? 8 : 4;
        sb_fmt(s, ",\"width\":%u,\"value\":", w);
        json_real(s, v->u.bits, w);
        break;
    }
    case K_STR: json_string_member(s, str_of(v)); break;
    case K_FIXED:
    case K_PACKED: {
        if (ti->comp == C_REAL || ti->comp == C_F32 || ti->comp == C_F64)
            sb_fmt(s, ",\"width\":%u", v->width == 8 ? 8u : 4u);
        sb_str(s, ",\"value\":");
        json_components(s, v, ti->kind == K_FIXED ? ti->ncomp : (size_t)v->len * ti->ncomp);
        break;
    }
    case K_PACKED_BYTES:
        sb_str(s, ",\"base64\":");
        json_base64(s, v->u.bytes, v->len);
        break;
    case K_PACKED_STRINGS:
        sb_str(s, ",\"value\":");
        json_parts(s, (const gdw_str *)v->u.ext, v->len);
        break;
    case K_NODEPATH: {
        const gdw_nodepath *np = (const gdw_nodepath *)v->u.ext;
        sb_str(s, ",\"names\":");
        json_parts(s, np->parts, np->name_count);
        sb_str(s, ",\"subnames\":");
        json_parts(s, np->subname_count ? np->parts + np->name_count : NULL, np->subname_count);
        sb_fmt(s, ",\"absolute\":%s", (np->flags & 1u) ? "true" : "false");
        if (np->flags & 2u) sb_str(s, ",\"property\":true");
        break;
    }
    case K_RID:
        if (v->flags & GDW_VF_RID_ID) sb_fmt(s, ",\"id\":%" PRIu64, (uint64_t)v->u.i);
        break;
    case K_OBJECT:
        if (v->flags & GDW_VF_OBJECT_NULL) sb_str(s, ",\"null\":true");
        else if (v->flags & GDW_VF_OBJECT_ID) sb_fmt(s, ",\"id\":%" PRIu64, (uint64_t)v->u.i);
        else {
            const gdw_object *o = (const gdw_object *)v->u.ext;
            sb_str(s, ",\"class\":");
            json_bytes(s, o->class_name);
            sb_str(s, ",\"properties\":[");
            return; /* [name, value] pairs, then json_leave */
        }
        break;
    case K_SIGNAL: {
        const gdw_signal *sg = (const gdw_signal *)v->u.ext;
        sb_str(s, ",\"name\":");
        json_bytes(s, sg->name);
        sb_fmt(s, ",\"object_id\":%" PRIu64, sg->object_id);
        break;
    }
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: {
        const gdw_container *ct = gdw_container_of(v);
        bool dict = ti->kind == K_DICT;
        if (v->flags & GDW_VF_SHARED) sb_str(s, ",\"shared\":true");
        if (ct && dict) {
            sb_str(s, ",\"key_type\":");
            json_desc(s, &ct->key);
            sb_str(s, ",\"value_type\":");
            json_desc(s, &ct->elem);
        } else if (ct) {
            sb_str(s, ",\"element_type\":");
            json_desc(s, &ct->elem);
        }
        sb_str(s, ",\"value\":[");
        return; /* items or [key, value] pairs, then json_leave */
    }
    case K_IMAGE: {
        const gdw_image *im = (const gdw_image *)v->u.ext;
        sb_fmt(s,
               ",\"format\":%" PRIu32 ",\"mipmaps\":%" PRIu32 ",\"width\":%" PRIu32
               ",\"height\":%" PRIu32 ",\"data\":",
               im->format, im->mipmaps, im->width, im->height);
        json_base64(s, im->data.ptr, im->data.len);
        break;
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *ev = (const gdw_input_event *)v->u.ext;
        sb_fmt(s,
               ",\"event_type\":%" PRIu32 ",\"device\":%" PRIu32 ",\"length\":%" PRIu32
               ",\"extra\":[",
               ev->type, ev->device, ev->llen);
        for (uint32_t i = 0; i < ev->extra_count; i++)
            sb_fmt(s, i ? ",%" PRIu32 : "%" PRIu32, ev->extra[i]);
        sb_str(s, "]");
        break;
    }
    }
    sb_str(s, "}");
}

static bool pairs(const gdw_value *v) { return v->type == GDW_DICTIONARY || v->type == GDW_OBJECT; }

/* Items "a,b"; pairs "[k,v],[k,v]". */
static void json_before(void *ctx, const gdw_value *parent, uint32_t slot) {
    sbuf *s = (sbuf *)ctx;
    if (!pairs(parent)) {
        if (slot) sb_str(s, ",");
    } else if (slot % 2 == 1) sb_str(s, ",");
    else sb_str(s, slot ? "],[" : "[");
}

static void json_leave(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    sbuf *s = (sbuf *)ctx;
    /* else closed by json_enter */
    if (is_property_name(parent, slot) || !gdw_walk_opens(v)) return;
    const gdw_value *items;
    sb_str(s, pairs(v) && gdw_children(v, &items) ? "]]}" : "]}");
}

static void json_too_deep(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)v, (void)parent, (void)slot;
    sb_str((sbuf *)ctx, "null");
}

static void json_value(sbuf *s, const gdw_value *v) {
    gdw_walk_visitor w = {json_enter, json_before, json_leave, json_too_deep, s, sb_done_ctx, NULL};
    gdw_walk(v, &w);
}

static void json_root(sbuf *s, const gdw_value *v) {
    if (!v) sb_str(s, "null");
    else json_value(s, v);
}

size_t gdw_json_print(const gdw_value *v, char *out, size_t cap) {
    return gdw_print_with(json_root, v, out, cap);
}
char *gdw_json_print_alloc(const gdw_value *v, const gdw_allocator *alloc, size_t *len) {
    return gdw_print_alloc_with(json_root, v, alloc, len);
}

/* ---- plain JSON (docs/json.md "Plain JSON") ------------------------------------------------ */

/* What JSON says as it is: null, a bool, an int (a number), a float that is finite and has the
 * width the encoders choose for it (a number with a fraction or an exponent), a UTF-8 String, an
 * untyped Array, and an untyped Dictionary whose keys are distinct UTF-8 Strings, none "$gdwire".
 * Every other value is written {"$gdwire": <its JSON form>}, which gdw_json_parse_plain reads back
 * exactly. */
#define PLAIN_WRAP "$gdwire"

typedef struct plain_ctx {
    sbuf *s;
    unsigned flags;
    bool last_wrapped; /* the value entered last was wrapped: its leave follows at once */
    size_t depth;      /* plain containers open */
    const gdw_value *open[GDW_WALK_MAX_DEPTH + 2];
} plain_ctx;

static bool plain_dict_key(const gdw_value *k) {
    return k->type == GDW_STRING && is_utf8(k->u.bytes, k->len) &&
           !(k->len == sizeof PLAIN_WRAP - 1 && memcmp(k->u.bytes, PLAIN_WRAP, k->len) == 0);
}

static bool plain_same_key(const gdw_value *a, const gdw_value *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->u.bytes, b->u.bytes, a->len) == 0);
}

/* No two keys alike: pairwise for a few, else a table of key hashes (from the default allocator;
 * without memory the Dictionary is wrapped, which is exact too). */
static bool plain_distinct_keys(const gdw_value *items, uint32_t n) {
    if (n <= 16) {
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t k = 0; k < i; k++)
                if (plain_same_key(&items[2 * i], &items[2 * k])) return false;
        return true;
    }
    size_t cap = 32;
    while (cap < 2 * (size_t)n) cap *= 2;
    const gdw_allocator *a = gdw_default_allocator();
    /* pair index + 1; 0 empty */
    uint32_t *slot = (uint32_t *)a->malloc_fn(a->ctx, cap * sizeof *slot);
    if (!slot) return false;
    memset(slot, 0, cap * sizeof *slot);
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        const gdw_value *k = &items[2 * i];
        uint64_t h = 1469598103934665603ull;
        for (uint32_t b = 0; b < k->len; b++) h = (h ^ k->u.bytes[b]) * 1099511628211ull;
        size_t p = (size_t)(h ^ (h >> 29)) & (cap - 1);
        for (; slot[p]; p = (p + 1) & (cap - 1))
            if (plain_same_key(&items[2 * (slot[p] - 1)], k)) {
                ok = false;
                break;
            }
        slot[p] = i + 1;
    }
    a->free_fn(a->ctx, slot, cap * sizeof *slot);
    return ok;
}

static bool plain_as_is(const gdw_value *v) {
    switch (v->type) {
    case GDW_NIL:
    case GDW_BOOL:
    case GDW_INT: return true;
    case GDW_FLOAT: {
        if (v->width != 4 && v->width != 8) return false;
        double x = gdw_value_real(v, 0);
        uint64_t bits = f64_to_bits(x);
        return isfinite(x) && gdw_number_natural_width(&bits) == v->width;
    }
    case GDW_STRING: return is_utf8(v->u.bytes, v->len);
    case GDW_ARRAY: return !(v->flags & (GDW_VF_TYPED | GDW_VF_SHARED));
    case GDW_DICTIONARY: {
        if (v->flags & (GDW_VF_TYPED | GDW_VF_SHARED)) return false;
        const gdw_value *items;
        uint32_t n = (uint32_t)(gdw_children(v, &items) / 2);
        for (uint32_t i = 0; i < n; i++)
            if (!plain_dict_key(&items[2 * i])) return false;
        return plain_distinct_keys(items, n);
    }
    default: return false;
    }
}

static void plain_enter(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)parent, (void)slot;
    plain_ctx *p = (plain_ctx *)ctx;
    sbuf *s = p->s;
    p->last_wrapped = v->type >= GDW_TYPE_COUNT || !plain_as_is(v);
    if (p->last_wrapped) {
        sb_str(s, "{\"" PLAIN_WRAP "\":");
        json_value(s, v);
        return; /* children left out (plain_skip); plain_leave closes */
    }
    switch (v->type) {
    case GDW_NIL: sb_str(s, "null"); break;
    case GDW_BOOL: sb_str(s, v->u.i ? "true" : "false"); break;
    case GDW_INT: {
        bool quoted = (p->flags & GDW_JSON_BIG_INTS_AS_STRINGS) &&
                      (v->u.i > (INT64_C(1) << 53) || v->u.i < -(INT64_C(1) << 53));
        sb_fmt(s, quoted ? "\"%" PRId64 "\"" : "%" PRId64, v->u.i);
        break;
    }
    case GDW_FLOAT: {
        char tmp[48];
        /* the value's shortest double text */
        gdw_real_text(tmp, sizeof tmp, f64_to_bits(gdw_value_real(v, 0)), 8);
        sb_str(s, tmp);
        break;
    }
    case GDW_STRING: json_quoted_utf8(s, v->u.bytes, v->len); break;
    case GDW_ARRAY:
    case GDW_DICTIONARY:
        sb_str(s, v->type == GDW_ARRAY ? "[" : "{");
        if (gdw_walk_opens(v) && p->depth < sizeof p->open / sizeof p->open[0])
            p->open[p->depth++] = v;
        /* no room (never: the walk stops deeper) */
        else sb_str(s, v->type == GDW_ARRAY ? "]" : "}");
        break;
    }
}

static bool plain_skip(void *ctx, const gdw_value *v) {
    (void)v;
    return ((const plain_ctx *)ctx)->last_wrapped;
}

static void plain_before(void *ctx, const gdw_value *parent, uint32_t slot) {
    sbuf *s = ((plain_ctx *)ctx)->s;
    if (parent->type == GDW_DICTIONARY) sb_str(s, slot % 2 ? ":" : slot ? "," : "");
    else if (slot) sb_str(s, ",");
}

static void plain_leave(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)parent, (void)slot;
    plain_ctx *p = (plain_ctx *)ctx;
    if (p->depth && p->open[p->depth - 1] == v) {
        p->depth--;
        sb_str(p->s, v->type == GDW_DICTIONARY ? "}" : "]");
        p->last_wrapped = false;
        return;
    }
    if (p->last_wrapped) sb_str(p->s, "}");
    p->last_wrapped = false;
}

static void plain_too_deep(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)v, (void)parent, (void)slot;
    sb_str(((plain_ctx *)ctx)->s, "null");
}

static bool plain_done(void *ctx) { return sb_done(((const plain_ctx *)ctx)->s); }

static void plain_root(sbuf *s, const gdw_value *v, unsigned flags) {
    if (!v) {
        sb_str(s, "null");
        return;
    }
    plain_ctx p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.flags = flags;
    gdw_walk_visitor w = {plain_enter, plain_before, plain_leave, plain_too_deep,
                          &p,          plain_done,   plain_skip};
    gdw_walk(v, &w);
}
static void plain_root_numbers(sbuf *s, const gdw_value *v) { plain_root(s, v, 0); }
static void plain_root_big_strings(sbuf *s, const gdw_value *v) {
    plain_root(s, v, GDW_JSON_BIG_INTS_AS_STRINGS);
}

size_t gdw_json_print_plain(const gdw_value *v, unsigned flags, char *out, size_t cap) {
    return gdw_print_with((flags & GDW_JSON_BIG_INTS_AS_STRINGS) ? plain_root_big_strings
                                                                 : plain_root_numbers,
                          v, out, cap);
}
char *gdw_json_print_plain_alloc(const gdw_value *v, unsigned flags, const gdw_allocator *alloc,
                                 size_t *len) {
    return gdw_print_alloc_with((flags & GDW_JSON_BIG_INTS_AS_STRINGS) ? plain_root_big_strings
                                                                       : plain_root_numbers,
                                v, alloc, len);
}

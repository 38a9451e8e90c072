/* SPDX-License-Identifier: MIT */
/* text_print.c — the canonical text form of values (grammar: docs/text-format.md).
 *
 * Every value of every dialect prints exactly: 64-bit ints, reals bit for bit (-0.0, NaN
 * payloads, f32 vs f64 width), arbitrary string bytes. gdw_text_parse reads it back to an
 * equal value.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "codec/forms/forms.h"

/* ---- numbers ----------------------------------------------------------------------------- */

/* Shortest decimal that reads back (strtod for width 8, strtof for width 4) to the same bits:
 * the fewest significant digits that do, written plainly where the decimal exponent is in
 * -4..15 (10.0, 0.001, 1234567.0) and in exponent form elsewhere (1e+16, 1.5e-07), as Python's
 * repr does; always with a '.' or an exponent, so that it reads as a real. */
static void shortest(char *out, size_t cap, double x, unsigned width) {
    char e[48];
    for (int p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, x);
        if (width == 4 ? strtof(e, NULL) == (float)x : strtod(e, NULL) == x) break;
    }
    /* e is [-]D[.DDD]e(+|-)XX: take its sign, digits and exponent */
    const char *q = e;
    bool neg = *q == '-';
    if (neg) q++;
    char digits[24];
    size_t nd = 0;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9' && nd < sizeof digits - 1) digits[nd++] = *q;
    int exp = *q == 'e' ? atoi(q + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = 0;
    char buf[64];
    size_t n = 0;
    if (neg) buf[n++] = '-';
    if (exp >= 16 || exp < -4) {
        buf[n++] = digits[0];
        if (nd > 1) {
            buf[n++] = '.';
            memcpy(buf + n, digits + 1, nd - 1);
            n += nd - 1;
        }
        n += (size_t)snprintf(buf + n, sizeof buf - n, "e%c%02d", exp < 0 ? '-' : '+',
                              exp < 0 ? -exp : exp);
    } else if (exp >= 0) {
        for (int i = 0; i <= exp; i++) buf[n++] = (size_t)i < nd ? digits[i] : '0';
        buf[n++] = '.';
        if ((size_t)exp + 1 < nd) {
            memcpy(buf + n, digits + exp + 1, nd - (size_t)exp - 1);
            n += nd - (size_t)exp - 1;
        } else buf[n++] = '0';
    } else {
        buf[n++] = '0';
        buf[n++] = '.';
        for (int i = 0; i < -exp - 1; i++) buf[n++] = '0';
        memcpy(buf + n, digits, nd);
        n += nd;
    }
    buf[n] = 0;
    snprintf(out, cap, "%s", buf);
}

/* A real component of width 4 or 8 given by its bits, without any width marker. */
void gdw_real_text(char *out, size_t cap, uint64_t bits, unsigned width) {
    if (!out || !cap) return;
    bool neg = width == 8 ? (bits >> 63) != 0 : ((bits >> 31) & 1) != 0;
    double x = width == 8 ? bits_to_f64(bits) : (double)bits_to_f32((uint32_t)bits);
    if (isnan(x)) {
        uint64_t quiet = width == 8 ? 0x7ff8000000000000ull : 0x7fc00000ull;
        uint64_t sign = width == 8 ? 0x8000000000000000ull : 0x80000000ull;
        if (bits == quiet) snprintf(out, cap, "nan");
        else if (bits == (quiet | sign)) snprintf(out, cap, "-nan");
        else if (width == 8) snprintf(out, cap, "nan(0x%016" PRIx64 ")", bits);
        else snprintf(out, cap, "nan(0x%08" PRIx32 ")", (uint32_t)bits);
        return;
    }
    if (isinf(x)) {
        snprintf(out, cap, neg ? "-inf" : "inf");
        return;
    }
    shortest(out, cap, x, width);
}

static void print_real_bits(sbuf *s, uint64_t bits, unsigned width) {
    char tmp[48];
    gdw_real_text(tmp, sizeof tmp, bits, width);
    sb_str(s, tmp);
}

/* A FLOAT value: width marker only where the width is not the one the encoders choose. */
static void print_float(sbuf *s, const gdw_value *v) {
    unsigned w = v->width == 8 ? 8 : 4;
    double x = w == 8 ? bits_to_f64(v->u.bits) : (double)bits_to_f32((uint32_t)v->u.bits);
    unsigned canonical = (!isnan(x) && (double)(float)x == x) ? 4 : 8;
    if (w != canonical) sb_str(s, w == 8 ? "f64:" : "f32:");
    if (w == 4 && !isnan(x) && !isinf(x)) {
        /* print the exact double value, so that reading it back picks f32 by exactness */
        char tmp[48];
        shortest(tmp, sizeof tmp, x, 8);
        sb_str(s, tmp);
        return;
    }
    print_real_bits(s, v->u.bits, w);
}

/* ---- strings ----------------------------------------------------------------------------- */

/* String bytes as they stand between quotes, as gdw_text_show says: escapes for '"', '\\', a
 * control or a byte that is not part of well-formed UTF-8 (\xHH, or \n \t \r), and a character
 * that drives or reorders a terminal (\uXXXX). */
static void print_escaped(sbuf *s, const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n && !sb_done(s)) {
        size_t run = i; /* printable ASCII, in one put */
        while (run < n && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' && p[run] != '\\') run++;
        if (run > i) {
            sb_put(s, (const char *)p + i, run - i);
            i = run;
            continue;
        }
        gdw_show how;
        uint32_t cp;
        size_t len = gdw_text_show(p + i, n - i, &how, &cp);
        uint8_t c = p[i];
        if (how == GDW_SHOW_CODE_POINT) sb_fmt(s, "\\u%04x", (unsigned)cp);
        else if (how == GDW_SHOW_BYTE && c == '\n') sb_str(s, "\\n");
        else if (how == GDW_SHOW_BYTE && c == '\t') sb_str(s, "\\t");
        else if (how == GDW_SHOW_BYTE && c == '\r') sb_str(s, "\\r");
        else if (how == GDW_SHOW_BYTE) sb_fmt(s, "\\x%02x", c);
        else if (c == '"') sb_str(s, "\\\"");
        else if (c == '\\') sb_str(s, "\\\\");
        else sb_put(s, (const char *)p + i, len);
        i += len;
    }
}

static void print_quoted(sbuf *s, const uint8_t *p, size_t n) {
    sb_put(s, "\"", 1);
    print_escaped(s, p, n);
    sb_put(s, "\"", 1);
}

static void print_gstr(sbuf *s, gdw_str g) { print_quoted(s, g.ptr, g.len); }

/* ---- values ------------------------------------------------------------------------------ */

static void print_value(sbuf *s, const gdw_value *v);

void gdw_print_components(sbuf *s, const gdw_value *v, size_t n, const char *sep,
                          void (*real)(sbuf *s, uint64_t bits, unsigned width)) {
    const gdw_type_info *ti = type_info(v->type);
    for (size_t i = 0; i < n && !sb_done(s); i++) {
        if (i) sb_str(s, sep);
        if (ti->comp == C_I32) sb_fmt(s, "%" PRId32, (int32_t)rd_u32le(v->u.bytes + 4 * i));
        else if (ti->comp == C_I64) sb_fmt(s, "%" PRId64, (int64_t)rd_u64le(v->u.bytes + 8 * i));
        else if (v->width == 8) real(s, rd_u64le(v->u.bytes + 8 * i), 8);
        else real(s, rd_u32le(v->u.bytes + 4 * i), 4);
    }
}

static void print_components(sbuf *s, const gdw_value *v, size_t n) {
    gdw_print_components(s, v, n, ", ", print_real_bits);
}

static void print_desc(sbuf *s, const gdw_typedesc *td) {
    switch (td->kind) {
    case GDW_DESC_NONE: sb_str(s, "Variant"); break;
    case GDW_DESC_BUILTIN:
        if (td->id_only) sb_str(s, "ObjectID");
        else if (td->builtin >= GDW_TYPE_COUNT) sb_fmt(s, "#%" PRIu32, td->wire_id);
        else sb_str(s, gdw_type_name((gdw_type)td->builtin));
        break;
    case GDW_DESC_CLASS: print_gstr(s, td->name); break;
    case GDW_DESC_SCRIPT:
        sb_str(s, "script(");
        print_gstr(s, td->name);
        sb_str(s, ")");
        break;
    }
}

static bool nodepath_simple(const gdw_nodepath *np) {
    if (np->flags & ~1u) return false;
    for (uint64_t i = 0; i < (uint64_t)np->name_count + np->subname_count; i++) {
        gdw_str g = np->parts[i];
        if (g.len == 0 || memchr(g.ptr, '/', g.len) || memchr(g.ptr, ':', g.len)) return false;
    }
    return true;
}

static void print_nodepath(sbuf *s, const gdw_nodepath *np) {
    uint32_t total = np->name_count + np->subname_count;
    if (nodepath_simple(np)) {
        /* ^"/names/joined:sub:names" — the engines' own path syntax */
        sb_str(s, "^\"");
        if (np->flags & 1u) sb_str(s, "/");
        for (uint32_t i = 0; i < total; i++) {
            if (i > 0) sb_str(s, i < np->name_count ? "/" : ":");
            else if (np->name_count == 0) sb_str(s, ":");
            print_escaped(s, np->parts[i].ptr, np->parts[i].len);
        }
        sb_str(s, "\"");
        return;
    }
    sb_str(s, "NodePath([");
    for (uint32_t i = 0; i < np->name_count; i++) {
        if (i) sb_str(s, ", ");
        print_gstr(s, np->parts[i]);
    }
    sb_str(s, "], [");
    for (uint32_t i = 0; i < np->subname_count; i++) {
        if (i) sb_str(s, ", ");
        print_gstr(s, np->parts[np->name_count + i]);
    }
    sb_fmt(s, "], %" PRIu32 ")", np->flags);
}

static void text_enter(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    sbuf *s = (sbuf *)ctx;
    (void)parent, (void)slot;
    if (v->type >= GDW_TYPE_COUNT) {
        sb_str(s, "<invalid>");
        return;
    }
    const gdw_type_info *ti = type_info(v->type);
    switch (ti->kind) {
    case K_NIL: sb_str(s, "null"); return;
    case K_CALLABLE: sb_str(s, "Callable()"); return;
    case K_BOOL: sb_str(s, v->u.i ? "true" : "false"); return;
    case K_INT: sb_fmt(s, "%" PRId64, v->u.i); return;
    case K_FLOAT: print_float(s, v); return;
    case K_STR:
        if (v->type == GDW_STRING_NAME) sb_str(s, "&");
        print_quoted(s, v->u.bytes, v->len);
        return;
    case K_FIXED:
        if (v->width == 8 && ti->comp == C_REAL) sb_str(s, "f64:");
        sb_str(s, ti->name);
        sb_str(s, "(");
        print_components(s, v, ti->ncomp);
        sb_str(s, ")");
        return;
    case K_PACKED:
        if (v->width == 8 && ti->comp == C_REAL) sb_str(s, "f64:");
        sb_str(s, ti->name);
        sb_str(s, "(");
        print_components(s, v, (size_t)v->len * ti->ncomp);
        sb_str(s, ")");
        return;
    case K_PACKED_BYTES:
        sb_str(s, "PackedByteArray(");
        for (uint32_t i = 0; i < v->len && !sb_done(s); i++)
            sb_fmt(s, i ? ", %u" : "%u", v->u.bytes[i]);
        sb_str(s, ")");
        return;
    case K_PACKED_STRINGS: {
        const gdw_str *strs = (const gdw_str *)v->u.ext;
        sb_str(s, "PackedStringArray(");
        for (uint32_t i = 0; i < v->len && !sb_done(s); i++) {
            if (i) sb_str(s, ", ");
            print_gstr(s, strs[i]);
        }
        sb_str(s, ")");
        return;
    }
    case K_NODEPATH: print_nodepath(s, (const gdw_nodepath *)v->u.ext); return;
    case K_RID:
        if (v->flags & GDW_VF_RID_ID) sb_fmt(s, "RID(%" PRIu64 ")", (uint64_t)v->u.i);
        else sb_str(s, "RID()");
        return;
    case K_OBJECT: {
        if (v->flags & GDW_VF_OBJECT_NULL) {
            sb_str(s, "Object(null)");
            return;
        }
        if (v->flags & GDW_VF_OBJECT_ID) {
            sb_fmt(s, "ObjectID(%" PRIu64 ")", (uint64_t)v->u.i);
            return;
        }
        const gdw_object *o = (const gdw_object *)v->u.ext;
        sb_str(s, "Object(");
        print_gstr(s, o->class_name);
        sb_str(s, ", {");
        return; /* the properties, then text_leave */
    }
    case K_SIGNAL: {
        const gdw_signal *sg = (const gdw_signal *)v->u.ext;
        sb_str(s, "Signal(");
        print_gstr(s, sg->name);
        sb_fmt(s, ", %" PRIu64 ")", sg->object_id);
        return;
    }
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: {
        const gdw_container *ct = gdw_container_of(v);
        bool dict = ti->kind == K_DICT;
        if (v->flags & GDW_VF_SHARED) sb_str(s, "shared:");
        if (ct) {
            sb_str(s, ti->name);
            sb_str(s, "[");
            if (dict) {
                print_desc(s, &ct->key);
                sb_str(s, ", ");
            }
            print_desc(s, &ct->elem);
            sb_str(s, "](");
        }
        sb_str(s, dict ? "{" : "[");
        return; /* the items, then text_leave */
    }
    case K_IMAGE: {
        const gdw_image *im = (const gdw_image *)v->u.ext;
        sb_fmt(s, "Image(%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", PackedByteArray(",
               im->format, im->mipmaps, im->width, im->height);
        for (uint32_t i = 0; i < im->data.len; i++) sb_fmt(s, i ? ", %u" : "%u", im->data.ptr[i]);
        sb_str(s, "))");
        return;
    }
    case K_INPUT_EVENT: {
        const gdw_input_event *ev = (const gdw_input_event *)v->u.ext;
        sb_fmt(s, "InputEvent(%" PRIu32 ", %" PRIu32 ", %" PRIu32, ev->type, ev->device, ev->llen);
        for (uint32_t i = 0; i < ev->extra_count; i++) sb_fmt(s, ", %" PRIu32, ev->extra[i]);
        sb_str(s, ")");
        return;
    }
    }
}

/* Between children: "key: value, key: value" for pairs, "a, b" for items. */
static void text_before(void *ctx, const gdw_value *parent, uint32_t slot) {
    sbuf *s = (sbuf *)ctx;
    bool pairs = parent->type == GDW_DICTIONARY || parent->type == GDW_OBJECT;
    if (pairs && slot % 2 == 1) sb_str(s, ": ");
    else if (slot > 0) sb_str(s, ", ");
}

static void text_leave(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    sbuf *s = (sbuf *)ctx;
    (void)parent, (void)slot;
    if (!gdw_walk_opens(v)) return;
    if (v->type == GDW_OBJECT) {
        sb_str(s, "})");
        return;
    }
    sb_str(s, v->type == GDW_DICTIONARY ? "}" : "]");
    if (gdw_container_of(v)) sb_str(s, ")");
}

static void text_too_deep(void *ctx, const gdw_value *v, const gdw_value *parent, uint32_t slot) {
    (void)v, (void)parent, (void)slot;
    sb_str((sbuf *)ctx, "<too deep>");
}

static void print_value(sbuf *s, const gdw_value *v) {
    gdw_walk_visitor w = {text_enter, text_before, text_leave, text_too_deep, s, sb_done_ctx, NULL};
    gdw_walk(v, &w);
}

static size_t print_into(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v, char *out,
                         size_t cap, bool head) {
    if (!out) cap = 0; /* NULL out: only the length, as snprintf(NULL, 0, ...) */
    sbuf s = {out, cap ? cap - 1 : 0, 0, head};
    print(&s, v);
    if (cap) out[s.len < cap - 1 ? s.len : cap - 1] = 0;
    return s.len;
}

size_t gdw_print_with(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v, char *out,
                      size_t cap) {
    return print_into(print, v, out, cap, false);
}

char *gdw_print_alloc_with(void (*print)(sbuf *s, const gdw_value *v), const gdw_value *v,
                           const gdw_allocator *alloc, size_t *len) {
    if (len) *len = 0;
    if (!alloc) alloc = gdw_default_allocator();
    size_t n = gdw_print_with(print, v, NULL, 0);
    if (n == SIZE_MAX) return NULL;
    char *p = (char *)alloc->malloc_fn(alloc->ctx, n + 1);
    if (!p) return NULL;
    gdw_print_with(print, v, p, n + 1);
    if (len) *len = n;
    return p;
}

void gdw_text_free(const gdw_allocator *alloc, char *text) {
    if (!text) return;
    if (!alloc) alloc = gdw_default_allocator();
    alloc->free_fn(alloc->ctx, text, strlen(text) + 1);
}

static void text_root(sbuf *s, const gdw_value *v) {
    if (!v) sb_str(s, "<null>");
    else print_value(s, v);
}

size_t gdw_text_print(const gdw_value *v, char *out, size_t cap) {
    return gdw_print_with(text_root, v, out, cap);
}
size_t gdw_text_print_head(const gdw_value *v, char *out, size_t cap) {
    return print_into(text_root, v, out, cap, true);
}
char *gdw_text_print_alloc(const gdw_value *v, const gdw_allocator *alloc, size_t *len) {
    return gdw_print_alloc_with(text_root, v, alloc, len);
}

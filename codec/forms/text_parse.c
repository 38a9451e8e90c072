/* SPDX-License-Identifier: MIT */
/* text_parse.c — reads the canonical text form (docs/text-format.md) into a value tree.
 * A value at a time, through the tree builder (build.c): an opened list ([ ], { }, an Object's or
 * a typed container's items) is an open container of the builder, not a C call, so the C stack
 * stays flat at any nesting (bounded as the builder bounds it, GDW_WALK_MAX_DEPTH). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include <stddef.h>

#include "codec/forms/forms.h"

typedef struct pctx {
    const char *s;
    size_t n, pos;
    gdw_builder *b;
    gdw_error *err;
    /* what closes each list open in the builder: ']' or '}', or ')' for an Object in the form
     * Godot's var_to_str writes, Object(Node,"name":value), whose properties the ')' ends */
    char closers[GDW_HARD_MAX_DEPTH + 8];
    size_t n_closers;
} pctx;

static gdw_status perr(pctx *p, gdw_status code, const char *msg) {
    gdw_error_set(p->err, code, p->pos, p->pos, GDW_ENGINE_NONE, msg);
    return code;
}


static void ws(pctx *p) {
    while (p->pos < p->n && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
                             p->s[p->pos] == '\r'))
        p->pos++;
}
static bool peek(pctx *p, char c) {
    ws(p);
    return p->pos < p->n && p->s[p->pos] == c;
}
static bool eat(pctx *p, char c) {
    if (peek(p, c)) {
        p->pos++;
        return true;
    }
    return false;
}
static bool eat_word(pctx *p, const char *w) {
    ws(p);
    size_t k = strlen(w);
    if (p->n - p->pos >= k && memcmp(p->s + p->pos, w, k) == 0) {
        /* a word must not run on into an identifier */
        char nx = p->pos + k < p->n ? p->s[p->pos + k] : 0;
        bool ident = (nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') ||
                     (nx >= '0' && nx <= '9') || nx == '_';
        bool wident = (w[k - 1] >= 'a' && w[k - 1] <= 'z') || (w[k - 1] >= 'A' && w[k - 1] <= 'Z');
        if (wident && ident) return false;
        p->pos += k;
        return true;
    }
    return false;
}
static gdw_status expect(pctx *p, char c) {
    if (!eat(p, c)) {
        switch (c) {
        case '(': return perr(p, GDW_ERR_SYNTAX, "expected '('");
        case ')': return perr(p, GDW_ERR_SYNTAX, "expected ')'");
        case '[': return perr(p, GDW_ERR_SYNTAX, "expected '['");
        case ']': return perr(p, GDW_ERR_SYNTAX, "expected ']'");
        case '{': return perr(p, GDW_ERR_SYNTAX, "expected '{'");
        case '}': return perr(p, GDW_ERR_SYNTAX, "expected '}'");
        case ',': return perr(p, GDW_ERR_SYNTAX, "expected ','");
        case ':': return perr(p, GDW_ERR_SYNTAX, "expected ':'");
        default: return perr(p, GDW_ERR_SYNTAX, "unexpected character");
        }
    }
    return GDW_OK;
}

static void *palloc(pctx *p, size_t n) { return gdw_build_alloc(p->b, n); }

/* ---- growable lists in the arena ----------------------------------------------------------- */

typedef struct vec {
    uint8_t *data;
    size_t len, cap, elem;
} vec;

static gdw_status vec_push(pctx *p, vec *v, const void *x) {
    if (v->len == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 8;
        uint8_t *nd = (uint8_t *)palloc(p, nc * v->elem);
        if (!nd) return perr(p, GDW_ERR_NOMEM, "out of memory");
        if (v->len) memcpy(nd, v->data, v->len * v->elem);
        v->data = nd;
        v->cap = nc;
    }
    memcpy(v->data + v->len * v->elem, x, v->elem);
    v->len++;
    return GDW_OK;
}

/* ---- scalars ------------------------------------------------------------------------------- */

static gdw_status parse_quoted(pctx *p, gdw_str *out) {
    if (!eat(p, '"')) return perr(p, GDW_ERR_SYNTAX, "expected a string");
    vec v = {NULL, 0, 0, 1};
    for (;;) {
        if (p->pos >= p->n) return perr(p, GDW_ERR_SYNTAX, "unterminated string");
        uint8_t c = (uint8_t)p->s[p->pos++];
        if (c == '"') break;
        if (c == '\\') {
            if (p->pos >= p->n) return perr(p, GDW_ERR_SYNTAX, "unterminated escape");
            char e = p->s[p->pos++];
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '0': c = 0; break;
            case '"': c = '"'; break;
            case '\\': c = '\\'; break;
            case 'x': {
                int h = p->pos + 1 < p->n ? gdw_hex_digit((unsigned char)p->s[p->pos]) : -1,
                    l = h >= 0 ? gdw_hex_digit((unsigned char)p->s[p->pos + 1]) : -1;
                if (h < 0 || l < 0) return perr(p, GDW_ERR_SYNTAX, "\\x needs two hex digits");
                c = (uint8_t)(h * 16 + l);
                p->pos += 2;
                break;
            }
            /* a character by its code point, as UTF-8: U+0001-U+FFFF but the surrogates */
            case 'u': {
                uint32_t u = 0;
                for (int k = 0; k < 4; k++) {
                    int d = p->pos < p->n ? gdw_hex_digit((unsigned char)p->s[p->pos]) : -1;
                    if (d < 0) return perr(p, GDW_ERR_SYNTAX, "\\u needs four hex digits");
                    u = u << 4 | (uint32_t)d;
                    p->pos++;
                }
                if (u == 0 || (u >= 0xD800 && u <= 0xDFFF))
                    return perr(p, GDW_ERR_SYNTAX,
                                "\\u names no character (\\0 and \\x write bytes)");
                uint8_t utf8[3];
                size_t k = u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
                if (k == 1) utf8[0] = (uint8_t)u;
                else if (k == 2)
                    utf8[0] = (uint8_t)(0xC0 | u >> 6), utf8[1] = (uint8_t)(0x80 | (u & 0x3F));
                else
                    utf8[0] = (uint8_t)(0xE0 | u >> 12),
                    utf8[1] = (uint8_t)(0x80 | ((u >> 6) & 0x3F)),
                    utf8[2] = (uint8_t)(0x80 | (u & 0x3F));
                for (size_t b = 0; b + 1 < k; b++) TRY(vec_push(p, &v, &utf8[b]));
                c = utf8[k - 1];
                break;
            }
            default: p->pos--; return perr(p, GDW_ERR_SYNTAX, "unknown escape");
            }
        }
        TRY(vec_push(p, &v, &c));
    }
    out->ptr = v.data ? v.data : (const uint8_t *)"";
    out->len = (uint32_t)v.len;
    return GDW_OK;
}

/* The span of a number-like token: [-+]digits . e etc., or inf/nan forms. */
static size_t number_span(pctx *p) {
    ws(p);
    size_t i = p->pos;
    if (i < p->n && (p->s[i] == '-' || p->s[i] == '+')) i++;
    /* Godot's var_to_str for -inf */
    if (i == p->pos && p->n - i >= 7 && memcmp(p->s + i, "inf_neg", 7) == 0) return 7;
    if (p->n - i >= 3 && (memcmp(p->s + i, "inf", 3) == 0)) return i + 3 - p->pos;
    if (p->n - i >= 3 && memcmp(p->s + i, "nan", 3) == 0) {
        i += 3;
        if (i < p->n && p->s[i] == '(') {
            while (i < p->n && p->s[i] != ')') i++;
            if (i < p->n) i++;
        }
        return i - p->pos;
    }
    while (i < p->n) {
        char c = p->s[i];
        if ((c >= '0' && c <= '9') || c == '.' || c == 'x' || c == 'X' || (c >= 'a' && c <= 'f') ||
            (c >= 'A' && c <= 'F'))
            i++;
        else if ((c == '-' || c == '+') && (p->s[i - 1] == 'e' || p->s[i - 1] == 'E')) i++;
        else break;
    }
    return i - p->pos;
}

/* Numbers: the token's span here, its reading in numbers.c (shared with the JSON reader). */
static gdw_status number(pctx *p, const char *why, size_t n) {
    if (why) return perr(p, GDW_ERR_SYNTAX, why);
    p->pos += n;
    return GDW_OK;
}

/* A real of width 4 or 8 as raw bits. */
static gdw_status parse_real(pctx *p, unsigned width, uint64_t *bits) {
    size_t n = number_span(p);
    bool inf_neg = n == 7 && memcmp(p->s + p->pos, "inf_neg", 7) == 0;
    return number(
        p, gdw_number_real(inf_neg ? "-inf" : p->s + p->pos, inf_neg ? 4 : n, width, bits), n);
}

static gdw_status parse_i64(pctx *p, int64_t *out) {
    size_t n = number_span(p);
    return number(p, gdw_number_i64(p->s + p->pos, n, out), n);
}

static gdw_status parse_u64(pctx *p, uint64_t *out) {
    size_t n = number_span(p);
    return number(p, gdw_number_u64(p->s + p->pos, n, out), n);
}

static gdw_status parse_u32(pctx *p, uint32_t *out) {
    uint64_t v;
    TRY(parse_u64(p, &v));
    if (v > 0xFFFFFFFFu) return perr(p, GDW_ERR_SYNTAX, "integer does not fit 32 bits");
    *out = (uint32_t)v;
    return GDW_OK;
}

/* ---- values ------------------------------------------------------------------------------ */

/* What parse_value says of a container it has started ('[' or '{' read): its extra part (the
 * gdw_object or typed gdw_container its items go into) and the Godot 2 shared mark. parse_tree
 * opens it in the builder. */
typedef struct plist {
    void *ext;
    bool shared, open;
    bool added; /* the value went to the builder already (math types, packed arrays) */
} plist;

static gdw_status push_closer(pctx *p, char c) {
    if (p->n_closers >= sizeof p->closers)
        return perr(p, GDW_ERR_DEPTH, "nesting deeper than the depth limit");
    p->closers[p->n_closers++] = c;
    return GDW_OK;
}

static gdw_status open_list(pctx *p, plist *l, bool dict, void *ext) {
    TRY(expect(p, dict ? '{' : '['));
    l->ext = ext;
    l->open = true;
    return push_closer(p, dict ? '}' : ']');
}

static gdw_status parse_desc(pctx *p, gdw_typedesc *td) {
    memset(td, 0, sizeof *td);
    ws(p);
    if (peek(p, '"')) {
        td->kind = GDW_DESC_CLASS;
        return parse_quoted(p, &td->name);
    }
    if (eat_word(p, "script")) {
        td->kind = GDW_DESC_SCRIPT;
        TRY(expect(p, '('));
        TRY(parse_quoted(p, &td->name));
        return expect(p, ')');
    }
    if (eat(p, '#')) {
        td->kind = GDW_DESC_BUILTIN;
        td->builtin = GDW_TYPE_COUNT;
        return parse_u32(p, &td->wire_id);
    }
    if (eat_word(p, "Variant")) return GDW_OK;
    if (eat_word(p, "ObjectID")) {
        td->kind = GDW_DESC_BUILTIN;
        td->builtin = GDW_OBJECT;
        td->id_only = 1;
        return GDW_OK;
    }
    size_t st = p->pos;
    while (p->pos < p->n && ((p->s[p->pos] >= 'a' && p->s[p->pos] <= 'z') ||
                             (p->s[p->pos] >= 'A' && p->s[p->pos] <= 'Z') ||
                             (p->s[p->pos] >= '0' && p->s[p->pos] <= '9')))
        p->pos++;
    int t = gdw_type_from_name(p->s + st, p->pos - st);
    if (t < 0 && p->pos > st && p->s[st] >= 'A' && p->s[st] <= 'Z') {
        /* a class name as Godot's var_to_str writes it, bare: Array[Node]; gdwire writes
         * Array["Node"] */
        while (p->pos < p->n && p->s[p->pos] == '_') p->pos++;
        while (p->pos < p->n &&
               ((p->s[p->pos] >= 'a' && p->s[p->pos] <= 'z') ||
                (p->s[p->pos] >= 'A' && p->s[p->pos] <= 'Z') ||
                (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') || p->s[p->pos] == '_'))
            p->pos++;
        uint8_t *name = (uint8_t *)palloc(p, p->pos - st + 1); /* the document's own copy */
        if (!name) return perr(p, GDW_ERR_NOMEM, "out of memory");
        memcpy(name, p->s + st, p->pos - st);
        td->kind = GDW_DESC_CLASS;
        td->name.ptr = name;
        td->name.len = (uint32_t)(p->pos - st);
        return GDW_OK;
    }
    if (t < 0) {
        p->pos = st;
        return perr(p, GDW_ERR_SYNTAX, "unknown element type");
    }
    td->kind = GDW_DESC_BUILTIN;
    td->builtin = (uint8_t)t;
    return GDW_OK;
}

/* The builder's failure (a rule of the value, NOMEM, DEPTH) as the text parser's, at the current
 * offset; a broken rule is the text's fault: GDW_ERR_SYNTAX. */
static gdw_status built(pctx *p, gdw_status s) {
    if (!s) return GDW_OK;
    const char *msg;
    s = gdw_build_blame(p->b, &msg);
    return perr(p, s, msg);
}

/* "(1, 2, ...)" after a math type's or packed array's name, into the builder (its count checked
 * there, as for every way of building one). */
static gdw_status parse_components(pctx *p, gdw_type t, const gdw_type_info *ti, unsigned width,
                                   plist *l) {
    unsigned cw = gdw_comp_bytes(ti, width ? width : 4);
    vec bytes = {NULL, 0, 0, cw};
    TRY(expect(p, '('));
    if (!eat(p, ')')) {
        for (;;) {
            uint8_t b[8];
            if (ti->comp == C_I32 || ti->comp == C_I64) {
                /* parse_i64 sets it where it succeeds; gcc -O3 on the amalgamation cannot see that
                 * */
                int64_t x = 0;
                TRY(parse_i64(p, &x));
                if (ti->comp == C_I32) {
                    if (x < INT32_MIN || x > INT32_MAX)
                        return perr(p, GDW_ERR_SYNTAX, "integer does not fit 32 bits");
                    wr_u32le(b, (uint32_t)x);
                } else wr_u64le(b, (uint64_t)x);
            } else {
                uint64_t bits;
                TRY(parse_real(p, cw, &bits));
                if (cw == 4) wr_u32le(b, (uint32_t)bits);
                else wr_u64le(b, bits);
            }
            TRY(vec_push(p, &bytes, b));
            if (eat(p, ')')) break;
            TRY(expect(p, ','));
        }
    }
    const uint8_t *data = bytes.data ? bytes.data : (const uint8_t *)palloc(p, 8);
    if (!data) return perr(p, GDW_ERR_NOMEM, "out of memory");
    l->added = true;
    return built(p, gdw_build_components(p->b, t, data, bytes.len, cw));
}

/* "(1, 2, 3)" after a PackedByteArray name. */
static gdw_status parse_byte_list(pctx *p, gdw_str *out) {
    vec bytes = {NULL, 0, 0, 1};
    TRY(expect(p, '('));
    if (!eat(p, ')')) {
        for (;;) {
            uint32_t x;
            TRY(parse_u32(p, &x));
            if (x > 255) return perr(p, GDW_ERR_SYNTAX, "byte above 255");
            uint8_t b = (uint8_t)x;
            TRY(vec_push(p, &bytes, &b));
            if (eat(p, ')')) break;
            TRY(expect(p, ','));
        }
    }
    out->ptr = bytes.data ? bytes.data : (const uint8_t *)"";
    out->len = (uint32_t)bytes.len;
    return GDW_OK;
}

static gdw_status parse_bytes(pctx *p, gdw_str *out) {
    if (!eat_word(p, "PackedByteArray")) return perr(p, GDW_ERR_SYNTAX, "expected PackedByteArray");
    return parse_byte_list(p, out);
}

static gdw_status parse_string_list(pctx *p, char close, vec *out) {
    if (!eat(p, close)) {
        for (;;) {
            gdw_str g;
            TRY(parse_quoted(p, &g));
            TRY(vec_push(p, out, &g));
            if (eat(p, close)) break;
            TRY(expect(p, ','));
        }
    }
    return GDW_OK;
}

/* ^"/a/b:c": the text split as the text form's rules say (every part named,
 * gdw_nodepath_split_text) */
static gdw_status parse_nodepath_simple(pctx *p, gdw_value *v) {
    static const gdw_nodepath_rules k_text_rules = {
        .strict = true, .last_is_property = false, .godot2_bare = false};
    gdw_str whole;
    TRY(parse_quoted(p, &whole));
    gdw_nodepath_split sp;
    if (!gdw_nodepath_split_text(whole.ptr, whole.len, &k_text_rules, NULL, &sp))
        return perr(p, GDW_ERR_SYNTAX, sp.why);
    gdw_nodepath *np = (gdw_nodepath *)palloc(p, sizeof *np);
    size_t count = (size_t)sp.names + sp.subnames;
    gdw_str *parts = count ? (gdw_str *)palloc(p, count * sizeof *parts) : NULL;
    if (!np || (count && !parts)) return perr(p, GDW_ERR_NOMEM, "out of memory");
    gdw_nodepath_split_text(whole.ptr, whole.len, &k_text_rules, parts, &sp);
    gdw_nodepath_of_split(np, &sp, parts);
    v->u.ext = np;
    return GDW_OK;
}

static gdw_status parse_constructor(pctx *p, gdw_value *v, int t, unsigned width, plist *l) {
    const gdw_type_info *ti = type_info((unsigned)t);
    v->type = (uint8_t)t;
    if (width == 8 && ti->comp != C_REAL)
        return perr(p, GDW_ERR_SYNTAX, "f64: applies to real-based types only");
    switch (ti->kind) {
    case K_FIXED:
    case K_PACKED: return parse_components(p, (gdw_type)t, ti, width, l);
    case K_PACKED_BYTES: {
        gdw_str g;
        TRY(parse_byte_list(p, &g));
        v->len = g.len;
        v->u.bytes = g.ptr;
        return GDW_OK;
    }
    case K_PACKED_STRINGS: {
        vec strs = {NULL, 0, 0, sizeof(gdw_str)};
        TRY(expect(p, '('));
        TRY(parse_string_list(p, ')', &strs));
        v->len = (uint32_t)strs.len;
        v->u.ext = strs.data;
        return GDW_OK;
    }
    case K_NODEPATH: {
        TRY(expect(p, '('));
        /* NodePath("/root/a:b"), as Godot's var_to_str writes it: ^"/root/a:b" */
        if (peek(p, '"')) {
            TRY(parse_nodepath_simple(p, v));
            return expect(p, ')');
        }
        gdw_nodepath *np = (gdw_nodepath *)palloc(p, sizeof *np);
        if (!np) return perr(p, GDW_ERR_NOMEM, "out of memory");
        vec parts = {NULL, 0, 0, sizeof(gdw_str)};
        TRY(expect(p, '['));
        TRY(parse_string_list(p, ']', &parts));
        np->name_count = (uint32_t)parts.len;
        TRY(expect(p, ','));
        TRY(expect(p, '['));
        TRY(parse_string_list(p, ']', &parts));
        np->subname_count = (uint32_t)parts.len - np->name_count;
        TRY(expect(p, ','));
        TRY(parse_u32(p, &np->flags)); /* its rule: the builder's */
        np->parts = (gdw_str *)parts.data;
        v->u.ext = np;
        return expect(p, ')');
    }
    case K_RID:
        TRY(expect(p, '('));
        if (!eat(p, ')')) {
            uint64_t id;
            TRY(parse_u64(p, &id));
            v->u.i = (int64_t)id;
            v->flags |= GDW_VF_RID_ID;
            TRY(expect(p, ')'));
        }
        return GDW_OK;
    case K_CALLABLE: TRY(expect(p, '(')); return expect(p, ')');
    case K_OBJECT: {
        TRY(expect(p, '('));
        if (eat_word(p, "null")) {
            v->flags |= GDW_VF_OBJECT_NULL;
            return expect(p, ')');
        }
        gdw_object *o = (gdw_object *)palloc(p, sizeof *o);
        if (!o) return perr(p, GDW_ERR_NOMEM, "out of memory");
        ws(p);
        if (p->pos < p->n &&
            ((p->s[p->pos] >= 'A' && p->s[p->pos] <= 'Z') ||
             (p->s[p->pos] >= 'a' && p->s[p->pos] <= 'z') || p->s[p->pos] == '_')) {
            /* Godot's var_to_str: Object(Node,"name":value,...), the class bare, the properties up
             * to ')' */
            size_t st = p->pos;
            while (p->pos < p->n &&
                   ((p->s[p->pos] >= 'A' && p->s[p->pos] <= 'Z') ||
                    (p->s[p->pos] >= 'a' && p->s[p->pos] <= 'z') ||
                    (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') || p->s[p->pos] == '_'))
                p->pos++;
            uint8_t *name = (uint8_t *)palloc(p, p->pos - st + 1); /* the document's own copy */
            if (!name) return perr(p, GDW_ERR_NOMEM, "out of memory");
            memcpy(name, p->s + st, p->pos - st);
            o->class_name = str_make(name, p->pos - st);
            if (!peek(p, ')')) TRY(expect(p, ','));
            l->ext = o;
            l->open = true;
            return push_closer(p, ')');
        }
        TRY(parse_quoted(p, &o->class_name));
        TRY(expect(p, ','));
        return open_list(p, l, true, o); /* the properties: parse_tree */
    }
    case K_SIGNAL: {
        gdw_signal *sg = (gdw_signal *)palloc(p, sizeof *sg);
        if (!sg) return perr(p, GDW_ERR_NOMEM, "out of memory");
        TRY(expect(p, '('));
        memset(sg, 0, sizeof *sg);
        v->u.ext = sg;
        /* Signal(): the null Signal, as Godot's var_to_str writes it */
        if (eat(p, ')')) return GDW_OK;
        TRY(parse_quoted(p, &sg->name));
        TRY(expect(p, ','));
        TRY(parse_u64(p, &sg->object_id));
        return expect(p, ')');
    }
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: {
        bool dict = ti->kind == K_DICT;
        gdw_container *ct = (gdw_container *)palloc(p, sizeof *ct);
        if (!ct) return perr(p, GDW_ERR_NOMEM, "out of memory");
        memset(ct, 0, sizeof *ct);
        TRY(expect(p, '['));
        /* each element type checked as it is read, to point at it (the rules: build.c's) */
        for (int k = dict ? 0 : 1; k < 2; k++) {
            size_t desc_at = p->pos;
            TRY(parse_desc(p, k ? &ct->elem : &ct->key));
            const char *why = gdw_descs_refused(ti->kind, ct);
            if (why) {
                p->pos = desc_at;
                ws(p);
                return perr(p, GDW_ERR_SYNTAX, why);
            }
            if (!k) TRY(expect(p, ','));
        }
        TRY(expect(p, ']'));
        TRY(expect(p, '('));
        return open_list(p, l, dict, ct); /* the items: parse_tree */
    }
    case K_IMAGE: {
        gdw_image *im = (gdw_image *)palloc(p, sizeof *im);
        if (!im) return perr(p, GDW_ERR_NOMEM, "out of memory");
        TRY(expect(p, '('));
        TRY(parse_u32(p, &im->format));
        TRY(expect(p, ','));
        TRY(parse_u32(p, &im->mipmaps));
        TRY(expect(p, ','));
        TRY(parse_u32(p, &im->width));
        TRY(expect(p, ','));
        TRY(parse_u32(p, &im->height));
        TRY(expect(p, ','));
        TRY(parse_bytes(p, &im->data));
        v->u.ext = im;
        return expect(p, ')');
    }
    case K_INPUT_EVENT: {
        gdw_input_event *ev = (gdw_input_event *)palloc(p, sizeof *ev);
        if (!ev) return perr(p, GDW_ERR_NOMEM, "out of memory");
        memset(ev, 0, sizeof *ev);
        TRY(expect(p, '('));
        TRY(parse_u32(p, &ev->type));
        TRY(expect(p, ','));
        TRY(parse_u32(p, &ev->device));
        TRY(expect(p, ','));
        TRY(parse_u32(p, &ev->llen));
        while (eat(p, ',')) {
            if (ev->extra_count == 2)
                return perr(p, GDW_ERR_SYNTAX, "InputEvent has at most two extra words");
            TRY(parse_u32(p, &ev->extra[ev->extra_count++]));
        }
        v->u.ext = ev;
        return expect(p, ')');
    }
    default: return perr(p, GDW_ERR_SYNTAX, "this type has no constructor form");
    }
}

/* One value into v; a container's list is opened in l (l->open) for parse_tree to fill. */
static gdw_status parse_value(pctx *p, gdw_value *v, plist *l) {
    memset(v, 0, sizeof *v);
    l->open = false;
    l->shared = false;
    l->added = false;
    ws(p);
    if (p->pos >= p->n) return perr(p, GDW_ERR_SYNTAX, "expected a value");
    unsigned width = 0;
    if (eat_word(p, "f32:")) width = 4;
    else if (eat_word(p, "f64:")) width = 8;
    else if (eat_word(p, "shared:")) {
        if (!peek(p, '[') && !peek(p, '{'))
            return perr(p, GDW_ERR_SYNTAX, "shared: applies to [ ] and { }");
        TRY(parse_value(p, v, l)); /* one level only: '[' or '{' follows */
        l->shared = true;
        return GDW_OK;
    }
    ws(p);
    char c = p->pos < p->n ? p->s[p->pos] : 0;
    if (!width) {
        if (eat_word(p, "null")) {
            v->type = GDW_NIL;
            return GDW_OK;
        }
        if (eat_word(p, "true")) {
            v->type = GDW_BOOL;
            v->u.i = 1;
            return GDW_OK;
        }
        if (eat_word(p, "false")) {
            v->type = GDW_BOOL;
            return GDW_OK;
        }
        if (c == '"' || c == '&') {
            v->type = c == '&' ? GDW_STRING_NAME : GDW_STRING;
            if (c == '&') p->pos++;
            gdw_str g;
            TRY(parse_quoted(p, &g));
            v->len = g.len;
            v->u.bytes = g.ptr;
            return GDW_OK;
        }
        if (c == '^') {
            p->pos++;
            v->type = GDW_NODE_PATH;
            return parse_nodepath_simple(p, v);
        }
        if (c == '[') {
            v->type = GDW_ARRAY;
            return open_list(p, l, false, NULL);
        }
        if (c == '{') {
            v->type = GDW_DICTIONARY;
            return open_list(p, l, true, NULL);
        }
    }
    if (c == '-' || c == '+' || (c >= '0' && c <= '9') ||
        (p->n - p->pos >= 3 &&
         (memcmp(p->s + p->pos, "inf", 3) == 0 || memcmp(p->s + p->pos, "nan", 3) == 0))) {
        size_t n = number_span(p);
        bool is_real = false;
        for (size_t i = 0; i < n; i++) {
            char d = p->s[p->pos + i];
            if (d == '.' || d == 'e' || d == 'E' || d == 'n' || d == 'i') is_real = true;
        }
        if (!is_real && !width) {
            v->type = GDW_INT;
            return parse_i64(p, &v->u.i);
        }
        v->type = GDW_FLOAT;
        if (width) {
            v->width = (uint8_t)width;
            return parse_real(p, width, &v->u.bits);
        }
        /* no marker: the width the encoders choose (f32 iff exact; NaN is f64) */
        uint64_t bits;
        TRY(parse_real(p, 8, &bits));
        v->width = (uint8_t)gdw_number_natural_width(&bits);
        v->u.bits = bits;
        return GDW_OK;
    }
    if (c == 'O' && eat_word(p, "ObjectID")) {
        v->type = GDW_OBJECT;
        v->flags |= GDW_VF_OBJECT_ID;
        uint64_t id;
        TRY(expect(p, '('));
        TRY(parse_u64(p, &id));
        v->u.i = (int64_t)id; /* 0 is Object(null): the builder's rule */
        return expect(p, ')');
    }
    size_t st = p->pos;
    while (p->pos < p->n && ((p->s[p->pos] >= 'a' && p->s[p->pos] <= 'z') ||
                             (p->s[p->pos] >= 'A' && p->s[p->pos] <= 'Z') ||
                             (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') || p->s[p->pos] == '_'))
        p->pos++;
    int t = gdw_type_from_name(p->s + st, p->pos - st);
    if (t < 0 || t == GDW_NIL || t == GDW_BOOL || t == GDW_INT || t == GDW_FLOAT ||
        t == GDW_STRING || t == GDW_STRING_NAME) {
        p->pos = st;
        return perr(p, GDW_ERR_SYNTAX, "unknown value");
    }
    return parse_constructor(p, v, t, width, l);
}


/* The innermost open list's close: '}' for a Dictionary's or an Object's, else ']'; an Object's
 * and a typed container's constructor then closes with ')'. */
static gdw_status close_list(pctx *p) {
    const gdw_value *top;
    bool ext = gdw_builder_top(p->b, &top);
    char closer = p->n_closers ? p->closers[--p->n_closers] : ']';
    TRY(built(p, gdw_build_end(p->b)));
    return ext && closer != ')' ? expect(p, ')') : GDW_OK; /* a constructor's ')' after its list */
}

static char close_char(pctx *p) { return p->n_closers ? p->closers[p->n_closers - 1] : ']'; }

/* The whole text's value: values one at a time into the builder, which holds the open lists. */
static gdw_status parse_tree(pctx *p) {
    gdw_value x;
    plist l;
    for (;;) {
        TRY(parse_value(p, &x, &l));
        const gdw_value *top;
        if (l.open) {
            if (l.shared) x.flags |= GDW_VF_SHARED;
            TRY(built(p, gdw_build_open(p->b, &x, l.ext)));
            if (!eat(p, close_char(p))) continue; /* its first item next */
            TRY(close_list(p));
        } else if (!l.added) {
            TRY(built(p, gdw_build_put(p->b, &x)));
        }
        /* a value is complete: after it a ':' (a key), a ',' or the close of its list */
        while (gdw_builder_depth(p->b)) {
            gdw_builder_top(p->b, &top);
            bool pairs = top->type == GDW_DICTIONARY || top->type == GDW_OBJECT;
            if (pairs && gdw_builder_open_count(p->b) % 2) {
                TRY(expect(p, ':'));
                break;
            }
            if (!eat(p, close_char(p))) {
                TRY(expect(p, ','));
                break;
            }
            TRY(close_list(p));
        }
        if (!gdw_builder_depth(p->b)) return GDW_OK;
    }
}

gdw_status gdw_text_parse(const char *text, size_t len, const gdw_allocator *alloc,
                          gdw_doc **out_doc, gdw_error *err) {
    pctx p;
    memset(&p, 0, offsetof(pctx, closers)); /* the closers are written before they are read */
    p.s = text;
    p.n = len;
    p.err = err;
    p.n_closers = 0;
    if (!out_doc || (!text && len)) return perr(&p, GDW_ERR_INVALID_ARG, "NULL argument");
    *out_doc = NULL;
    p.b = gdw_builder_new(alloc);
    if (!p.b) return perr(&p, GDW_ERR_NOMEM, "out of memory");
    gdw_status s = parse_tree(&p);
    if (!s) {
        ws(&p);
        if (p.pos != p.n) s = perr(&p, GDW_ERR_SYNTAX, "text after the value");
    }
    if (!s) s = built(&p, gdw_build_finish(p.b, out_doc, NULL));
    gdw_builder_free(p.b);
    if (s) return s;
    gdw_error_clear(err);
    return GDW_OK;
}

/* SPDX-License-Identifier: MIT */
/* json_parse.c — reads the JSON form (docs/json.md) into a value tree.
 *
 * Two steps: the JSON text is parsed into a small tree of JSON nodes (a scratch arena), then
 * each value object is written out as canonical text and read by gdw_text_parse. The JSON form
 * is thus one more syntax for the canonical text: both accept exactly the same values, with
 * the same checks. Errors carry the byte offset in the JSON and the JSON path of the member.
 *
 * Bounded: neither step recurses (open lists and open values are frames on explicit stacks),
 * every allocation goes through the caller's allocator, node arrays are allocated at their exact
 * size when their list closes, and a string without escapes points into the JSON text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "codec/internal.h"

enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jnode {
    uint8_t kind;
    uint32_t n;            /* J_ARR: items; J_OBJ: members */
    size_t off;            /* where the node starts in the JSON text */
    union {
        gdw_str str;       /* J_STR: decoded bytes; J_NUM: the number's text */
        struct {
            struct jnode *items; /* J_ARR items, J_OBJ member values */
            gdw_str *keys;       /* J_OBJ member names */
        } l;
    } u;
} jnode;

#define JSON_MAX_DEPTH (4u * (GDW_HARD_MAX_DEPTH + 2u))

typedef struct jctx {
    const char *s;
    size_t n, pos;
    gdw_doc *scratch;      /* JSON nodes, decoded strings */
    gdw_error *err;
    const gdw_allocator *alloc; /* the caller's: every buffer below */
    /* the canonical text being written, growable */
    char *out;
    size_t out_len, out_cap;
    bool oom;
    /* (text offset, JSON offset) of each value written, to map text errors back */
    size_t *map;
    size_t map_len, map_cap;
    char path[GDW_PATH_MAX];
    size_t path_len;
} jctx;

static gdw_status jerr(jctx *j, size_t off, gdw_status code, const char *msg) {
    if (j->err) {
        memset(j->err, 0, sizeof *j->err);
        j->err->code = code;
        j->err->offset = off;
        j->err->value_offset = off;
        j->err->engine_error = GDW_ENGINE_NONE;
        j->err->message = msg;
        memcpy(j->err->path, j->path, sizeof j->path);
    }
    return code;
}


/* ---- step 1: JSON text to nodes ------------------------------------------------------------ */

static void jws(jctx *j) {
    while (j->pos < j->n && (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' || j->s[j->pos] == '\n' || j->s[j->pos] == '\r')) j->pos++;
}

/* A growable buffer from the caller's allocator (the text being written, the offset map, the
 * pending nodes of open lists). */
static bool jgrow(jctx *j, void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 64;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem) return false;
        nc *= 2;
    }
    const gdw_allocator *a = j->alloc;
    void *q = *p ? a->realloc_fn(a->ctx, *p, *cap * elem, nc * elem) : a->malloc_fn(a->ctx, nc * elem);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

static void release(jctx *j, void *p, size_t cap, size_t elem) {
    if (p) j->alloc->free_fn(j->alloc->ctx, p, cap * elem);
}

static int hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A JSON string: without escapes, the bytes of the JSON text itself; with them, decoded into an
 * arena buffer of the raw length (the decoded text is never longer). */
static gdw_status parse_jstring(jctx *j, gdw_str *out) {
    size_t start = ++j->pos; /* after the opening quote */
    bool escaped = false;
    for (;; j->pos++) {
        if (j->pos >= j->n) return jerr(j, j->pos, GDW_ERR_SYNTAX, "unterminated JSON string");
        uint8_t c = (uint8_t)j->s[j->pos];
        if (c == '"') break;
        if (c < 0x20) return jerr(j, j->pos, GDW_ERR_SYNTAX, "control character in JSON string");
        if (c == '\\') {
            escaped = true;
            if (j->pos + 1 >= j->n) return jerr(j, j->pos, GDW_ERR_SYNTAX, "unterminated escape");
            j->pos++;
        }
    }
    size_t end = j->pos++;
    if (end - start > UINT32_MAX) return jerr(j, start, GDW_ERR_TOO_LARGE, "JSON string longer than 4 GiB");
    if (!escaped) {
        out->ptr = (const uint8_t *)j->s + start;
        out->len = (uint32_t)(end - start);
    } else {
        uint8_t *o = (uint8_t *)gdw_arena_alloc(j->scratch, end - start);
        if (!o) return jerr(j, start, GDW_ERR_NOMEM, "out of memory");
        size_t k = 0;
        for (size_t i = start; i < end;) {
            char c = j->s[i];
            if (c != '\\') { o[k++] = (uint8_t)c; i++; continue; }
            char e = j->s[i + 1];
            i += 2;
            switch (e) {
            case '"': o[k++] = '"'; break;
            case '\\': o[k++] = '\\'; break;
            case '/': o[k++] = '/'; break;
            case 'b': o[k++] = '\b'; break;
            case 'f': o[k++] = '\f'; break;
            case 'n': o[k++] = '\n'; break;
            case 'r': o[k++] = '\r'; break;
            case 't': o[k++] = '\t'; break;
            case 'u': {
                int u = i + 4 <= end ? hex4(j->s + i) : -1;
                if (u < 0) return jerr(j, i - 2, GDW_ERR_SYNTAX, "\\u needs four hex digits");
                i += 4;
                uint32_t cp = (uint32_t)u;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    int lo = (i + 6 <= end && j->s[i] == '\\' && j->s[i + 1] == 'u') ? hex4(j->s + i + 2) : -1;
                    if (lo < 0xDC00 || lo > 0xDFFF) return jerr(j, i - 6, GDW_ERR_SYNTAX, "lone UTF-16 surrogate (use {\"base64\": ...} for bytes that are not UTF-8)");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                    i += 6;
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return jerr(j, i - 6, GDW_ERR_SYNTAX, "lone UTF-16 surrogate (use {\"base64\": ...} for bytes that are not UTF-8)");
                }
                /* 6 escaped characters are at least 1 byte; 12 (a pair) are 4: never longer */
                if (cp < 0x80) o[k++] = (uint8_t)cp;
                else if (cp < 0x800) { o[k++] = (uint8_t)(0xC0 | (cp >> 6)); o[k++] = (uint8_t)(0x80 | (cp & 63)); }
                else if (cp < 0x10000) { o[k++] = (uint8_t)(0xE0 | (cp >> 12)); o[k++] = (uint8_t)(0x80 | ((cp >> 6) & 63)); o[k++] = (uint8_t)(0x80 | (cp & 63)); }
                else { o[k++] = (uint8_t)(0xF0 | (cp >> 18)); o[k++] = (uint8_t)(0x80 | ((cp >> 12) & 63)); o[k++] = (uint8_t)(0x80 | ((cp >> 6) & 63)); o[k++] = (uint8_t)(0x80 | (cp & 63)); }
                break;
            }
            default: return jerr(j, i - 2, GDW_ERR_SYNTAX, "unknown escape in JSON string");
            }
        }
        out->ptr = o;
        out->len = (uint32_t)k;
    }
    size_t bad = gdw_utf8_check(out->len ? out->ptr : (const uint8_t *)"", out->len, GDW_UTF8_STRICT);
    if (bad != (size_t)-1) return jerr(j, start + (escaped ? 0 : bad), GDW_ERR_SYNTAX, "JSON string is not UTF-8");
    if (!out->len) out->ptr = (const uint8_t *)"";
    return GDW_OK;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static gdw_status parse_jnumber(jctx *j, jnode *nd) {
    size_t i = j->pos;
    if (i < j->n && j->s[i] == '-') i++;
    if (i >= j->n || !is_digit(j->s[i])) return jerr(j, j->pos, GDW_ERR_SYNTAX, "bad JSON number");
    if (j->s[i] == '0') i++;
    else while (i < j->n && is_digit(j->s[i])) i++;
    if (i < j->n && j->s[i] == '.') {
        i++;
        if (i >= j->n || !is_digit(j->s[i])) return jerr(j, j->pos, GDW_ERR_SYNTAX, "bad JSON number");
        while (i < j->n && is_digit(j->s[i])) i++;
    }
    if (i < j->n && (j->s[i] == 'e' || j->s[i] == 'E')) {
        i++;
        if (i < j->n && (j->s[i] == '+' || j->s[i] == '-')) i++;
        if (i >= j->n || !is_digit(j->s[i])) return jerr(j, j->pos, GDW_ERR_SYNTAX, "bad JSON number");
        while (i < j->n && is_digit(j->s[i])) i++;
    }
    if (i - j->pos > 400) return jerr(j, j->pos, GDW_ERR_SYNTAX, "JSON number too long");
    nd->kind = J_NUM;
    nd->u.str.ptr = (const uint8_t *)j->s + j->pos;
    nd->u.str.len = (uint32_t)(i - j->pos);
    j->pos = i;
    return GDW_OK;
}

/* A scalar (string, number, true, false, null) into nd, or the start of a list: '[' or '{' read,
 * nd->kind J_ARR or J_OBJ with no items yet (parse_json collects them). */
static gdw_status parse_jvalue(jctx *j, jnode *nd) {
    jws(j);
    memset(nd, 0, sizeof *nd);
    nd->off = j->pos;
    if (j->pos >= j->n) return jerr(j, j->pos, GDW_ERR_SYNTAX, "expected a JSON value");
    char c = j->s[j->pos];
    if (c == '{' || c == '[') { nd->kind = c == '{' ? J_OBJ : J_ARR; j->pos++; return GDW_OK; }
    if (c == '"') { nd->kind = J_STR; return parse_jstring(j, &nd->u.str); }
    if (c == '-' || is_digit(c)) return parse_jnumber(j, nd);
    static const struct { const char *w; uint8_t k; } words[] = {{"null", J_NULL}, {"true", J_TRUE}, {"false", J_FALSE}};
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(words[i].w);
        if (j->n - j->pos >= k && memcmp(j->s + j->pos, words[i].w, k) == 0) { j->pos += k; nd->kind = words[i].k; return GDW_OK; }
    }
    return jerr(j, j->pos, GDW_ERR_SYNTAX, "expected a JSON value");
}

/* Pass 1: how many items (or members) each list has, in the order the lists open, so that pass 2
 * allocates every item array at its size when its list opens, and keeps nothing pending. A plain
 * tokenizer: strings skipped to their closing quote, everything else one character at a time.
 * On text that is not JSON the counts may be wrong; pass 2 finds the error (and never writes past
 * a count). Returns false when out of memory. */
static bool count_items(jctx *j, uint32_t **counts, size_t *n_counts, size_t *cap_counts) {
    size_t *open = NULL, cap_open = 0, sp = 0; /* the open lists' indexes into counts */
    bool *seen = NULL;                          /* per open list: a value seen since its start */
    size_t cap_seen = 0;
    bool ok = true;
    for (size_t i = 0; i < j->n && ok; i++) {
        char c = j->s[i];
        if (c == '"') {
            for (i++; i < j->n && j->s[i] != '"'; i++)
                if (j->s[i] == '\\') i++;
            if (sp && !seen[sp - 1]) { seen[sp - 1] = true; (*counts)[open[sp - 1]]++; }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        if (c == ']' || c == '}') { if (sp) sp--; continue; }
        if (c == ',') { if (sp) seen[sp - 1] = false; continue; }
        if (c == ':') continue;
        /* a value starts (or goes on) here */
        if (sp && !seen[sp - 1]) { seen[sp - 1] = true; (*counts)[open[sp - 1]]++; }
        if (c == '[' || c == '{') {
            if (sp >= JSON_MAX_DEPTH) break; /* pass 2 says so */
            ok = jgrow(j, (void **)counts, cap_counts, *n_counts + 1, sizeof **counts) &&
                 jgrow(j, (void **)&open, &cap_open, sp + 1, sizeof *open) && jgrow(j, (void **)&seen, &cap_seen, sp + 1, sizeof *seen);
            if (!ok) break;
            (*counts)[*n_counts] = 0;
            open[sp] = (*n_counts)++;
            seen[sp++] = false;
        }
    }
    release(j, open, cap_open, sizeof *open);
    release(j, seen, cap_seen, sizeof *seen);
    return ok;
}

/* An open list being filled: its node, with its items (and names) allocated at their count. */
typedef struct jopen {
    jnode node;
    uint32_t filled;
    gdw_str key; /* its member name in the object it is a value of */
} jopen;

/* The JSON text's one value into root, without recursion: open lists are a stack (the caller's
 * allocator), bounded by JSON_MAX_DEPTH. */
static gdw_status parse_json(jctx *j, jnode *root) {
    uint32_t *counts = NULL;
    size_t n_counts = 0, cap_counts = 0, next_list = 0;
    jopen *open = NULL;
    size_t n_open = 0, cap_open = 0;
    gdw_status s = GDW_OK;
    jnode x;
    if (!count_items(j, &counts, &n_counts, &cap_counts)) { s = jerr(j, 0, GDW_ERR_NOMEM, "out of memory"); goto out; }
    for (;;) {
        gdw_str key = {NULL, 0};
        /* a member name first, inside an object */
        if (n_open && open[n_open - 1].node.kind == J_OBJ) {
            jws(j);
            if (j->pos >= j->n || j->s[j->pos] != '"') { s = jerr(j, j->pos, GDW_ERR_SYNTAX, "expected a member name"); break; }
            if ((s = parse_jstring(j, &key))) break;
            jws(j);
            if (j->pos >= j->n || j->s[j->pos] != ':') { s = jerr(j, j->pos, GDW_ERR_SYNTAX, "expected ':'"); break; }
            j->pos++;
        }
        if ((s = parse_jvalue(j, &x))) break;
        bool done = true;
        if (x.kind == J_ARR || x.kind == J_OBJ) {
            if (n_open >= JSON_MAX_DEPTH) { s = jerr(j, x.off, GDW_ERR_DEPTH, "JSON nested too deeply"); break; }
            if (!jgrow(j, (void **)&open, &cap_open, n_open + 1, sizeof *open)) { s = jerr(j, j->pos, GDW_ERR_NOMEM, "out of memory"); break; }
            uint32_t n = next_list < n_counts ? counts[next_list] : 0;
            next_list++;
            x.n = n;
            x.u.l.items = n ? (struct jnode *)gdw_arena_alloc(j->scratch, (size_t)n * sizeof *x.u.l.items) : NULL;
            x.u.l.keys = n && x.kind == J_OBJ ? (gdw_str *)gdw_arena_alloc(j->scratch, (size_t)n * sizeof *x.u.l.keys) : NULL;
            if (n && (!x.u.l.items || (x.kind == J_OBJ && !x.u.l.keys))) { s = jerr(j, x.off, GDW_ERR_NOMEM, "out of memory"); break; }
            open[n_open].node = x;
            open[n_open].filled = 0;
            open[n_open++].key = key;
            jws(j);
            char close = x.kind == J_OBJ ? '}' : ']';
            if (j->pos < j->n && j->s[j->pos] == close) {
                j->pos++;
                x = open[--n_open].node;
                x.n = 0;
            } else done = false; /* its first item next */
        }
        /* x is complete: into its list, and close every list that ends with it */
        while (done) {
            if (!n_open) { *root = x; goto out; }
            jopen *top = &open[n_open - 1];
            bool obj = top->node.kind == J_OBJ;
            if (top->filled >= top->node.n) { s = jerr(j, x.off, GDW_ERR_SYNTAX, obj ? "expected ',' or '}'" : "expected ',' or ']'"); goto out; }
            top->node.u.l.items[top->filled] = x;
            if (obj) top->node.u.l.keys[top->filled] = key;
            top->filled++;
            jws(j);
            if (j->pos < j->n && j->s[j->pos] == (obj ? '}' : ']')) {
                j->pos++;
                x = open[--n_open].node;
                x.n = open[n_open].filled;
                key = open[n_open].key;
                continue;
            }
            if (j->pos >= j->n || j->s[j->pos] != ',') { s = jerr(j, j->pos, GDW_ERR_SYNTAX, obj ? "expected ',' or '}'" : "expected ',' or ']'"); goto out; }
            j->pos++;
            break;
        }
    }
out:
    release(j, counts, cap_counts, sizeof *counts);
    release(j, open, cap_open, sizeof *open);
    return s;
}

/* ---- step 2: value objects to canonical text ---------------------------------------------- */

static void out_put(jctx *j, const char *p, size_t n) {
    if (j->oom) return;
    if (!jgrow(j, (void **)&j->out, &j->out_cap, j->out_len + n, 1)) { j->oom = true; return; }
    memcpy(j->out + j->out_len, p, n);
    j->out_len += n;
}
static void out_str(jctx *j, const char *p) { out_put(j, p, strlen(p)); }

/* (text offset, JSON offset) of each value written, to map the text parser's errors back. */
static void mark(jctx *j, size_t json_off) {
    if (j->oom) return;
    if (!jgrow(j, (void **)&j->map, &j->map_cap, j->map_len + 2, sizeof *j->map)) { j->oom = true; return; }
    j->map[j->map_len++] = j->out_len;
    j->map[j->map_len++] = json_off;
}

/* JSON path bookkeeping (path.c): push ".name" (escaped) or "[i]", pop back to a saved length. */
static size_t path_member_text(jctx *j, const uint8_t *name, size_t len) {
    size_t saved = j->path_len;
    gdw_path_put(j->path, &j->path_len, ".", 1);
    gdw_path_text(j->path, &j->path_len, name, len, false);
    return saved;
}
static size_t path_member(jctx *j, const char *name) { return path_member_text(j, (const uint8_t *)name, strlen(name)); }
static size_t path_index(jctx *j, unsigned idx) {
    size_t saved = j->path_len;
    gdw_path_uint(j->path, &j->path_len, "[", idx, "]");
    return saved;
}
static void jpath_pop(jctx *j, size_t saved) { j->path_len = saved; j->path[saved] = 0; }

static bool key_is(gdw_str k, const char *name) { return k.len == strlen(name) && memcmp(k.ptr, name, k.len) == 0; }

static const jnode *member(const jnode *obj, const char *name) {
    for (uint32_t i = 0; i < obj->n; i++) if (key_is(obj->u.l.keys[i], name)) return &obj->u.l.items[i];
    return NULL;
}

/* Every member of obj must be in the NULL-terminated list allowed. */
static gdw_status only_members(jctx *j, const jnode *obj, const char *const *allowed) {
    for (uint32_t i = 0; i < obj->n; i++) {
        bool ok = false;
        for (size_t k = 0; allowed[k]; k++) if (key_is(obj->u.l.keys[i], allowed[k])) ok = true;
        for (uint32_t m = 0; m < i; m++)
            if (obj->u.l.keys[m].len == obj->u.l.keys[i].len && memcmp(obj->u.l.keys[m].ptr, obj->u.l.keys[i].ptr, obj->u.l.keys[i].len) == 0) ok = false;
        if (!ok) {
            size_t sv = path_member_text(j, (const uint8_t *)obj->u.l.keys[i].ptr, obj->u.l.keys[i].len);
            gdw_status s = jerr(j, obj->u.l.items[i].off, GDW_ERR_SYNTAX, "unknown or repeated member for this type");
            jpath_pop(j, sv);
            return s;
        }
    }
    return GDW_OK;
}

static gdw_status need(jctx *j, const jnode *obj, const char *name, int kind, const jnode **out) {
    const jnode *m = member(obj, name);
    if (!m) {
        size_t sv = path_member(j, name);
        gdw_status s = jerr(j, obj->off, GDW_ERR_SYNTAX, "member missing");
        jpath_pop(j, sv);
        return s;
    }
    if (kind >= 0 && m->kind != kind && !(kind == J_TRUE && m->kind == J_FALSE)) {
        size_t sv = path_member(j, name);
        gdw_status s = jerr(j, m->off, GDW_ERR_SYNTAX,
                            kind == J_NUM ? "expected a number" : kind == J_STR ? "expected a string" : kind == J_ARR ? "expected an array"
                            : kind == J_OBJ ? "expected an object" : "expected true or false");
        jpath_pop(j, sv);
        return s;
    }
    *out = m;
    return GDW_OK;
}

/* Bytes as a quoted text-form string: every byte outside printable ASCII as \xHH. */
static void out_quoted(jctx *j, gdw_str g) {
    out_put(j, "\"", 1);
    for (uint32_t i = 0; i < g.len; i++) {
        uint8_t c = g.ptr[i];
        char tmp[5];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') out_put(j, (const char *)&c, 1);
        else { snprintf(tmp, sizeof tmp, "\\x%02x", c); out_put(j, tmp, 4); }
    }
    out_put(j, "\"", 1);
}

/* base64 text to bytes in the scratch arena; off is where the JSON string starts. */
static gdw_status unbase64(jctx *j, const jnode *b, gdw_str *out) {
    uint8_t *buf = (uint8_t *)gdw_arena_alloc(j->scratch, b->u.str.len / 4 * 3 + 3);
    size_t n = 0, bad = 0;
    if (!buf) return jerr(j, b->off, GDW_ERR_NOMEM, "out of memory");
    if (gdw_base64_decode((const char *)b->u.str.ptr, b->u.str.len, buf, &n, &bad))
        return jerr(j, b->off + 1 + bad, GDW_ERR_SYNTAX, "bad base64");
    out->ptr = buf;
    out->len = (uint32_t)n;
    return GDW_OK;
}

/* A JSON string or {"base64": "..."}, as bytes. */
static gdw_status get_bytes(jctx *j, const jnode *nd, gdw_str *out) {
    if (nd->kind == J_STR) { *out = nd->u.str; return GDW_OK; }
    if (nd->kind == J_OBJ && nd->n == 1 && key_is(nd->u.l.keys[0], "base64") && nd->u.l.items[0].kind == J_STR)
        return unbase64(j, &nd->u.l.items[0], out);
    return jerr(j, nd->off, GDW_ERR_SYNTAX, "expected a string or {\"base64\": \"...\"}");
}

static gdw_status out_bytes(jctx *j, const jnode *nd) {
    gdw_str g;
    TRY(get_bytes(j, nd, &g));
    out_quoted(j, g);
    return GDW_OK;
}

/* An integer member: a JSON number without fraction or exponent, within [lo, hi]. */
static gdw_status get_int(jctx *j, const jnode *nd, int64_t lo, uint64_t hi, char *text, size_t cap) {
    if (nd->kind != J_NUM || memchr(nd->u.str.ptr, '.', nd->u.str.len) || memchr(nd->u.str.ptr, 'e', nd->u.str.len) ||
        memchr(nd->u.str.ptr, 'E', nd->u.str.len) || nd->u.str.len >= cap)
        return jerr(j, nd->off, GDW_ERR_SYNTAX, "expected an integer");
    memcpy(text, nd->u.str.ptr, nd->u.str.len);
    text[nd->u.str.len] = 0;
    bool ok;
    if (text[0] == '-') {
        char *end;
        errno = 0;
        long long v = strtoll(text, &end, 10);
        ok = !errno && v >= lo;
    } else {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(text, &end, 10);
        ok = !errno && v <= hi;
    }
    if (!ok) return jerr(j, nd->off, GDW_ERR_SYNTAX, "integer out of range");
    return GDW_OK;
}

static gdw_status out_int(jctx *j, const jnode *nd, int64_t lo, uint64_t hi) {
    char text[48];
    TRY(get_int(j, nd, lo, hi, text, sizeof text));
    out_str(j, text);
    return GDW_OK;
}

/* A real: a JSON number, or one of the text form's words in a string. */
static gdw_status out_real(jctx *j, const jnode *nd) {
    if (nd->kind == J_NUM) {
        out_put(j, (const char *)nd->u.str.ptr, nd->u.str.len);
        /* a JSON number without '.' or exponent (5, -0, 30 digits) is still a real here: the text
         * form would read it as an int, so it gets its ".0" */
        if (!memchr(nd->u.str.ptr, '.', nd->u.str.len) && !memchr(nd->u.str.ptr, 'e', nd->u.str.len) && !memchr(nd->u.str.ptr, 'E', nd->u.str.len))
            out_str(j, ".0");
        return GDW_OK;
    }
    if (nd->kind == J_STR) {
        const char *w = (const char *)nd->u.str.ptr;
        size_t n = nd->u.str.len;
        bool ok = (n == 3 && memcmp(w, "nan", 3) == 0) || (n == 4 && memcmp(w, "-nan", 4) == 0) ||
                  (n == 3 && memcmp(w, "inf", 3) == 0) || (n == 4 && memcmp(w, "-inf", 4) == 0);
        size_t b = (n > 0 && w[0] == '-') ? 1 : 0;
        if (!ok && n > b + 7 && n < b + 24 && memcmp(w + b, "nan(0x", 6) == 0 && w[n - 1] == ')') {
            ok = true;
            for (size_t i = b + 6; i < n - 1; i++) if (!strchr("0123456789abcdefABCDEF", w[i])) ok = false;
        }
        if (ok) { out_put(j, w, n); return GDW_OK; }
    }
    return jerr(j, nd->off, GDW_ERR_SYNTAX, "expected a number, or \"nan\", \"-nan\", \"inf\", \"-inf\", \"nan(0x...)\"");
}

/* A "width" member: 4 or 8; *w stays 0 when absent. */
static gdw_status get_width(jctx *j, const jnode *obj, unsigned *w) {
    const jnode *m = member(obj, "width");
    *w = 0;
    if (!m) return GDW_OK;
    if (m->kind == J_NUM && m->u.str.len == 1 && (m->u.str.ptr[0] == '4' || m->u.str.ptr[0] == '8')) { *w = m->u.str.ptr[0] - '0'; return GDW_OK; }
    size_t sv = path_member(j, "width");
    gdw_status s = jerr(j, m->off, GDW_ERR_SYNTAX, "width is 4 or 8");
    jpath_pop(j, sv);
    return s;
}

static bool ident_ok(gdw_str g) {
    if (g.len == 0 || g.len > 64) return false;
    for (uint32_t i = 0; i < g.len; i++) {
        uint8_t c = g.ptr[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

/* A container element type: "Variant", a builtin name, "ObjectID", {"class"}, {"script"}, {"wire_id"}. */
static gdw_status out_desc(jctx *j, const jnode *nd) {
    if (nd->kind == J_STR) {
        if (!ident_ok(nd->u.str)) return jerr(j, nd->off, GDW_ERR_SYNTAX, "not a type name");
        out_put(j, (const char *)nd->u.str.ptr, nd->u.str.len);
        return GDW_OK;
    }
    if (nd->kind == J_OBJ && nd->n == 1) {
        if (key_is(nd->u.l.keys[0], "class")) return out_bytes(j, &nd->u.l.items[0]);
        if (key_is(nd->u.l.keys[0], "script")) { out_str(j, "script("); TRY(out_bytes(j, &nd->u.l.items[0])); out_str(j, ")"); return GDW_OK; }
        if (key_is(nd->u.l.keys[0], "wire_id")) { out_str(j, "#"); return out_int(j, &nd->u.l.items[0], 0, UINT32_MAX); }
    }
    return jerr(j, nd->off, GDW_ERR_SYNTAX, "expected a type name, {\"class\": ...}, {\"script\": ...} or {\"wire_id\": N}");
}

/* A list of value objects being written (out_tree's stack, no recursion): Array items, or
 * Dictionary [key, value] / Object [name, value] pairs. */
enum { LIST_VALUES, LIST_PAIRS, LIST_PROPERTIES };
typedef struct jlist {
    const jnode *list;
    uint32_t i;            /* the next item */
    uint8_t shape;
    bool value_next;       /* pairs: the key is written, its value next */
    unsigned depth;        /* of the container */
    const char *close;     /* written after the last item */
    size_t path_outer, path_inner; /* the path before and after the member's name */
} jlist;


/* A JSON array of items, each written by fn, separated by ", ". */
typedef gdw_status (*item_fn)(jctx *j, const jnode *nd, unsigned depth);

static gdw_status out_list(jctx *j, const jnode *arr, const char *name, item_fn fn, unsigned depth) {
    size_t sv = path_member(j, name);
    for (uint32_t i = 0; i < arr->n; i++) {
        if (i) out_str(j, ", ");
        size_t si = path_index(j, i);
        TRY(fn(j, &arr->u.l.items[i], depth));
        jpath_pop(j, si);
    }
    jpath_pop(j, sv);
    return GDW_OK;
}

static gdw_status item_real(jctx *j, const jnode *nd, unsigned depth) { (void)depth; return out_real(j, nd); }
static gdw_status item_int(jctx *j, const jnode *nd, unsigned depth) { (void)depth; return out_int(j, nd, INT64_MIN, INT64_MAX); }
static gdw_status item_byte(jctx *j, const jnode *nd, unsigned depth) { (void)depth; return out_int(j, nd, 0, 255); }
static gdw_status item_u32(jctx *j, const jnode *nd, unsigned depth) { (void)depth; return out_int(j, nd, 0, UINT32_MAX); }
static gdw_status item_bytes(jctx *j, const jnode *nd, unsigned depth) { (void)depth; return out_bytes(j, nd); }

static gdw_status out_member_list(jctx *j, const jnode *obj, const char *name, item_fn fn, unsigned depth) {
    const jnode *m;
    TRY(need(j, obj, name, J_ARR, &m));
    return out_list(j, m, name, fn, depth);
}

#define ALLOWED(...) do { static const char *const k_allowed_[] = {"type", __VA_ARGS__, NULL}; TRY(only_members(j, nd, k_allowed_)); } while (0)

/* Items of member `name` of nd, written by out_tree into frame l; `close` after them. */
static gdw_status open_jlist(jctx *j, const jnode *nd, const char *name, uint8_t shape, unsigned depth, const char *close, jlist *l) {
    const jnode *m;
    TRY(need(j, nd, name, J_ARR, &m));
    l->list = m;
    l->i = 0;
    l->shape = shape;
    l->value_next = false;
    l->depth = depth;
    l->close = close;
    l->path_outer = path_member(j, name);
    l->path_inner = j->path_len;
    return GDW_OK;
}

/* One value object as canonical text; a container's items are left open in l (l->list). */
static gdw_status out_value(jctx *j, const jnode *nd, unsigned depth, jlist *l) {
    l->list = NULL;
    if (depth > GDW_HARD_MAX_DEPTH + 1) return jerr(j, nd->off, GDW_ERR_DEPTH, "nesting deeper than the depth limit");
    if (nd->kind != J_OBJ) return jerr(j, nd->off, GDW_ERR_SYNTAX, "a value is an object {\"type\": ...}");
    const jnode *tn, *m;
    TRY(need(j, nd, "type", J_STR, &tn));
    int t = gdw_type_from_name((const char *)tn->u.str.ptr, tn->u.str.len);
    if (t < 0) {
        size_t sv = path_member(j, "type");
        gdw_status s = jerr(j, tn->off, GDW_ERR_SYNTAX, "unknown type name");
        jpath_pop(j, sv);
        return s;
    }
    mark(j, nd->off);
    const gdw_type_info *ti = type_info((unsigned)t);
    unsigned w = 0;
    switch (ti->kind) {
    case K_NIL: ALLOWED(NULL); out_str(j, "null"); return GDW_OK;
    case K_CALLABLE: ALLOWED(NULL); out_str(j, "Callable()"); return GDW_OK;
    case K_BOOL: ALLOWED("value"); TRY(need(j, nd, "value", J_TRUE, &m)); out_str(j, m->kind == J_TRUE ? "true" : "false"); return GDW_OK;
    case K_INT: ALLOWED("value"); TRY(need(j, nd, "value", -1, &m)); return out_int(j, m, INT64_MIN, INT64_MAX);
    case K_FLOAT:
        ALLOWED("value", "width");
        TRY(get_width(j, nd, &w));
        TRY(need(j, nd, "value", -1, &m));
        if (w) out_str(j, w == 8 ? "f64:" : "f32:");
        return out_real(j, m);
    case K_STR: {
        ALLOWED("value", "base64");
        if (t == GDW_STRING_NAME) out_str(j, "&");
        const jnode *v = member(nd, "value"), *b = member(nd, "base64");
        gdw_str g;
        if ((v != NULL) == (b != NULL)) return jerr(j, nd->off, GDW_ERR_SYNTAX, "a string has \"value\" or \"base64\"");
        if (v && v->kind != J_STR) return jerr(j, v->off, GDW_ERR_SYNTAX, "expected a string");
        if (b && b->kind != J_STR) return jerr(j, b->off, GDW_ERR_SYNTAX, "expected a string");
        if (v) g = v->u.str;
        else TRY(unbase64(j, b, &g));
        out_quoted(j, g);
        return GDW_OK;
    }
    case K_FIXED: case K_PACKED: {
        ALLOWED("value", "width");
        TRY(get_width(j, nd, &w));
        bool ints = ti->comp == C_I32 || ti->comp == C_I64;
        if (w && (ints || (ti->comp == C_F32 && w != 4) || (ti->comp == C_F64 && w != 8)))
            return jerr(j, member(nd, "width")->off, GDW_ERR_SYNTAX, "this type has no choice of width");
        if (w == 8 && ti->comp == C_REAL) out_str(j, "f64:");
        out_str(j, ti->name);
        out_str(j, "(");
        TRY(out_member_list(j, nd, "value", ints ? item_int : item_real, depth));
        out_str(j, ")");
        return GDW_OK;
    }
    case K_PACKED_BYTES: {
        ALLOWED("value", "base64");
        const jnode *v = member(nd, "value"), *b = member(nd, "base64");
        if ((v != NULL) == (b != NULL)) return jerr(j, nd->off, GDW_ERR_SYNTAX, "a PackedByteArray has \"base64\" or \"value\"");
        out_str(j, "PackedByteArray(");
        if (v) TRY(out_member_list(j, nd, "value", item_byte, depth));
        else {
            gdw_str g;
            if (b->kind != J_STR) return jerr(j, b->off, GDW_ERR_SYNTAX, "expected a string");
            TRY(unbase64(j, b, &g));
            for (uint32_t i = 0; i < g.len; i++) { char tmp[8]; snprintf(tmp, sizeof tmp, i ? ", %u" : "%u", g.ptr[i]); out_str(j, tmp); }
        }
        out_str(j, ")");
        return GDW_OK;
    }
    case K_PACKED_STRINGS:
        ALLOWED("value");
        out_str(j, "PackedStringArray(");
        TRY(out_member_list(j, nd, "value", item_bytes, depth));
        out_str(j, ")");
        return GDW_OK;
    case K_NODEPATH: {
        ALLOWED("names", "subnames", "absolute", "property");
        const jnode *ab = member(nd, "absolute"), *pr = member(nd, "property");
        if (ab && ab->kind != J_TRUE && ab->kind != J_FALSE) return jerr(j, ab->off, GDW_ERR_SYNTAX, "expected true or false");
        if (pr && pr->kind != J_TRUE && pr->kind != J_FALSE) return jerr(j, pr->off, GDW_ERR_SYNTAX, "expected true or false");
        out_str(j, "NodePath([");
        TRY(out_member_list(j, nd, "names", item_bytes, depth));
        out_str(j, "], [");
        TRY(out_member_list(j, nd, "subnames", item_bytes, depth));
        char tmp[16];
        snprintf(tmp, sizeof tmp, "], %d)", (ab && ab->kind == J_TRUE ? 1 : 0) | (pr && pr->kind == J_TRUE ? 2 : 0));
        out_str(j, tmp);
        return GDW_OK;
    }
    case K_RID:
        ALLOWED("id");
        out_str(j, "RID(");
        if ((m = member(nd, "id"))) TRY(out_int(j, m, 0, UINT64_MAX));
        out_str(j, ")");
        return GDW_OK;
    case K_OBJECT: {
        ALLOWED("null", "id", "class", "properties");
        const jnode *nl = member(nd, "null"), *id = member(nd, "id"), *cls = member(nd, "class");
        if ((nl != NULL) + (id != NULL) + (cls != NULL) != 1) return jerr(j, nd->off, GDW_ERR_SYNTAX, "an Object has one of \"null\", \"id\" or \"class\"");
        if (nl) {
            if (nl->kind != J_TRUE) return jerr(j, nl->off, GDW_ERR_SYNTAX, "expected true");
            out_str(j, "Object(null)");
            return GDW_OK;
        }
        if (id) { out_str(j, "ObjectID("); TRY(out_int(j, id, 0, UINT64_MAX)); out_str(j, ")"); return GDW_OK; }
        out_str(j, "Object(");
        TRY(out_bytes(j, cls));
        out_str(j, ", {");
        return open_jlist(j, nd, "properties", LIST_PROPERTIES, depth, "})", l);
    }
    case K_SIGNAL: {
        ALLOWED("name", "object_id");
        TRY(need(j, nd, "name", -1, &m));
        out_str(j, "Signal(");
        TRY(out_bytes(j, m));
        out_str(j, ", ");
        TRY(need(j, nd, "object_id", J_NUM, &m));
        TRY(out_int(j, m, 0, UINT64_MAX));
        out_str(j, ")");
        return GDW_OK;
    }
    case K_DICT: case K_ARRAY: case K_TYPED_ARRAY: {
        bool dict = ti->kind == K_DICT;
        if (dict) ALLOWED("value", "shared", "key_type", "value_type");
        else ALLOWED("value", "shared", "element_type");
        const jnode *sh = member(nd, "shared");
        if (sh && sh->kind != J_TRUE && sh->kind != J_FALSE) return jerr(j, sh->off, GDW_ERR_SYNTAX, "expected true or false");
        if (sh && sh->kind == J_TRUE) out_str(j, "shared:");
        const jnode *kt = member(nd, "key_type"), *vt = member(nd, dict ? "value_type" : "element_type");
        if (dict && (kt != NULL) != (vt != NULL)) return jerr(j, nd->off, GDW_ERR_SYNTAX, "a typed Dictionary has both \"key_type\" and \"value_type\"");
        if (ti->kind == K_TYPED_ARRAY && !vt) return jerr(j, nd->off, GDW_ERR_SYNTAX, "a TypedArray has an \"element_type\"");
        if (vt) {
            out_str(j, ti->name);
            out_str(j, "[");
            if (kt) { TRY(out_desc(j, kt)); out_str(j, ", "); }
            TRY(out_desc(j, vt));
            out_str(j, "](");
        }
        out_str(j, dict ? "{" : "[");
        return open_jlist(j, nd, "value", dict ? LIST_PAIRS : LIST_VALUES, depth, dict ? (vt ? "})" : "}") : (vt ? "])" : "]"), l);
    }
    case K_IMAGE: {
        ALLOWED("format", "mipmaps", "width", "height", "data");
        static const char *const fields[] = {"format", "mipmaps", "width", "height"};
        out_str(j, "Image(");
        for (int i = 0; i < 4; i++) { TRY(need(j, nd, fields[i], J_NUM, &m)); TRY(out_int(j, m, 0, UINT32_MAX)); out_str(j, ", "); }
        TRY(need(j, nd, "data", J_STR, &m));
        gdw_str g;
        TRY(unbase64(j, m, &g));
        out_str(j, "PackedByteArray(");
        for (uint32_t i = 0; i < g.len; i++) { char tmp[8]; snprintf(tmp, sizeof tmp, i ? ", %u" : "%u", g.ptr[i]); out_str(j, tmp); }
        out_str(j, "))");
        return GDW_OK;
    }
    case K_INPUT_EVENT: {
        ALLOWED("event_type", "device", "length", "extra");
        static const char *const fields[] = {"event_type", "device", "length"};
        out_str(j, "InputEvent(");
        for (int i = 0; i < 3; i++) { TRY(need(j, nd, fields[i], J_NUM, &m)); if (i) out_str(j, ", "); TRY(out_int(j, m, 0, UINT32_MAX)); }
        if ((m = member(nd, "extra"))) {
            if (m->kind != J_ARR) return jerr(j, m->off, GDW_ERR_SYNTAX, "expected an array");
            if (m->n) out_str(j, ", ");
            TRY(out_list(j, m, "extra", item_u32, depth));
        }
        out_str(j, ")");
        return GDW_OK;
    }
    }
    return jerr(j, nd->off, GDW_ERR_SYNTAX, "type has no JSON form");
}

/* The root value object and everything in it, depth first, without recursion: the open lists
 * are a stack (the caller's allocator). */
static gdw_status out_tree(jctx *j, const jnode *root) {
    jlist *st = NULL, l;
    size_t sp = 0, cap = 0;
    gdw_status s = out_value(j, root, 0, &l);
    for (;;) {
        if (s) break;
        if (l.list) { /* a list opened: it is the one to write next */
            if (!jgrow(j, (void **)&st, &cap, sp + 1, sizeof *st)) { s = jerr(j, l.list->off, GDW_ERR_NOMEM, "out of memory"); break; }
            st[sp++] = l;
            l.list = NULL;
        }
        if (!sp) break;
        jlist *top = &st[sp - 1];
        j->path_len = top->path_inner;
        j->path[j->path_len] = 0;
        if (top->i == top->list->n) {
            jpath_pop(j, top->path_outer);
            out_str(j, top->close);
            sp--;
            continue;
        }
        const jnode *it = &top->list->u.l.items[top->i];
        unsigned d = top->depth + 1;
        if (top->shape == LIST_VALUES) {
            if (top->i) out_str(j, ", ");
            path_index(j, top->i++);
            s = out_value(j, it, d, &l);
            continue;
        }
        if (!top->value_next) {
            if (top->i) out_str(j, ", ");
            path_index(j, top->i);
            if (it->kind != J_ARR || it->n != 2) {
                s = jerr(j, it->off, GDW_ERR_SYNTAX, top->shape == LIST_PROPERTIES ? "expected a [name, value] pair" : "expected a [key, value] pair");
                break;
            }
            path_index(j, 0);
            top->value_next = true;
            if (top->shape == LIST_PROPERTIES) { s = out_bytes(j, &it->u.l.items[0]); continue; }
            s = out_value(j, &it->u.l.items[0], d, &l);
            continue;
        }
        path_index(j, top->i++);
        path_index(j, 1);
        top->value_next = false;
        out_str(j, ": ");
        s = out_value(j, &it->u.l.items[1], d, &l);
    }
    release(j, st, cap, sizeof *st);
    return s;
}

gdw_status gdw_json_parse(const char *text, size_t len, const gdw_allocator *alloc, gdw_doc **out_doc, gdw_error *err) {
    jctx j;
    memset(&j, 0, sizeof j);
    j.s = text ? text : "";
    j.n = text ? len : 0;
    j.err = err;
    if (!out_doc) return jerr(&j, 0, GDW_ERR_INVALID_ARG, "out_doc is NULL");
    if (!text && len) return jerr(&j, 0, GDW_ERR_INVALID_ARG, "text is NULL"); /* as gdw_text_parse */
    *out_doc = NULL;
    j.alloc = alloc ? alloc : gdw_default_allocator();
    j.scratch = gdw_doc_new(alloc);
    if (!j.scratch) return jerr(&j, 0, GDW_ERR_NOMEM, "out of memory");
    jnode root;
    gdw_status s = parse_json(&j, &root);
    if (!s) {
        jws(&j);
        if (j.pos < j.n) s = jerr(&j, j.pos, GDW_ERR_SYNTAX, "text after the JSON value");
    }
    if (!s) s = out_tree(&j, &root);
    if (!s && j.oom) s = jerr(&j, 0, GDW_ERR_NOMEM, "out of memory");
    gdw_doc_free(j.scratch); /* the JSON nodes: the text holds what they said */
    j.scratch = NULL;
    if (!s) {
        gdw_error terr;
        s = gdw_text_parse(j.out ? j.out : "", j.out_len, alloc, out_doc, &terr);
        if (s) {
            /* a check of the text form (e.g. an InputEvent's word count): point at the JSON value */
            size_t at = 0;
            for (size_t i = 0; i + 1 < j.map_len; i += 2)
                if (j.map[i] <= terr.offset) at = j.map[i + 1];
            j.path[0] = 0;
            jerr(&j, at, s, terr.message);
        }
    }
    release(&j, j.out, j.out_cap, 1);
    release(&j, j.map, j.map_cap, sizeof *j.map);
    return s;
}

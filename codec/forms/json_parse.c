/* SPDX-License-Identifier: MIT */
/* json_parse.c — reads the JSON form (docs/json.md) into a value tree.
 *
 * Two steps: the JSON text is parsed into a small tree of JSON nodes (a scratch arena), then
 * each value object goes to the tree builder (build.c), as the text parser's values do: the same
 * builder, the same rules of a value (build.c), the same number reading (numbers.c), so both forms
 * accept exactly the same values. Errors carry the byte offset in the JSON and the JSON path of
 * the member, the builder's rules included.
 *
 * Bounded: neither step recurses (open lists and open values are frames on explicit stacks),
 * every allocation goes through the caller's allocator, node arrays are allocated at their exact
 * size when their list closes, and a string without escapes points into the JSON text.
 */

#include "codec/forms/forms.h"

enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jnode {
    uint8_t kind;
    uint32_t n; /* J_ARR: items; J_OBJ: members */
    size_t off; /* where the node starts in the JSON text */
    union {
        gdw_str str; /* J_STR: decoded bytes; J_NUM: the number's text */
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
    /* JSON nodes, decoded strings, lists read before the builder copies them */
    gdw_doc *scratch;
    gdw_builder *b; /* the document being built */
    gdw_error *err;
    const gdw_allocator *alloc; /* the caller's: every buffer below */
    char path[GDW_PATH_MAX];
    size_t path_len;
} jctx;

static gdw_status jerr(jctx *j, size_t off, gdw_status code, const char *msg) {
    if (gdw_error_set(j->err, code, off, off, GDW_ENGINE_NONE, msg))
        memcpy(j->err->path, j->path, sizeof j->path);
    return code;
}


/* ---- step 1: JSON text to nodes ------------------------------------------------------------ */

static void jws(jctx *j) {
    while (j->pos < j->n && (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' || j->s[j->pos] == '\n' ||
                             j->s[j->pos] == '\r'))
        j->pos++;
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
    void *q = *p ? a->realloc_fn(a->ctx, *p, *cap * elem, nc * elem)
                 : a->malloc_fn(a->ctx, nc * elem);
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
        int d = gdw_hex_digit((unsigned char)p[i]);
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
    if (end - start > UINT32_MAX)
        return jerr(j, start, GDW_ERR_TOO_LARGE, "JSON string longer than 4 GiB");
    if (!escaped) {
        out->ptr = (const uint8_t *)j->s + start;
        out->len = (uint32_t)(end - start);
    } else {
        uint8_t *o = (uint8_t *)gdw_arena_alloc(j->scratch, end - start);
        if (!o) return jerr(j, start, GDW_ERR_NOMEM, "out of memory");
        size_t k = 0;
        for (size_t i = start; i < end;) {
            char c = j->s[i];
            if (c != '\\') {
                o[k++] = (uint8_t)c;
                i++;
                continue;
            }
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
                    int lo = (i + 6 <= end && j->s[i] == '\\' && j->s[i + 1] == 'u')
                                 ? hex4(j->s + i + 2)
                                 : -1;
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        return jerr(j, i - 6, GDW_ERR_SYNTAX,
                                    "lone UTF-16 surrogate (use {\"base64\": ...} for bytes that "
                                    "are not UTF-8)");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                    i += 6;
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return jerr(j, i - 6, GDW_ERR_SYNTAX,
                                "lone UTF-16 surrogate (use {\"base64\": ...} for bytes that are "
                                "not UTF-8)");
                }
                /* 6 escaped characters are at least 1 byte; 12 (a pair) are 4: never longer */
                if (cp < 0x80) o[k++] = (uint8_t)cp;
                else if (cp < 0x800) {
                    o[k++] = (uint8_t)(0xC0 | (cp >> 6));
                    o[k++] = (uint8_t)(0x80 | (cp & 63));
                } else if (cp < 0x10000) {
                    o[k++] = (uint8_t)(0xE0 | (cp >> 12));
                    o[k++] = (uint8_t)(0x80 | ((cp >> 6) & 63));
                    o[k++] = (uint8_t)(0x80 | (cp & 63));
                } else {
                    o[k++] = (uint8_t)(0xF0 | (cp >> 18));
                    o[k++] = (uint8_t)(0x80 | ((cp >> 12) & 63));
                    o[k++] = (uint8_t)(0x80 | ((cp >> 6) & 63));
                    o[k++] = (uint8_t)(0x80 | (cp & 63));
                }
                break;
            }
            default: return jerr(j, i - 2, GDW_ERR_SYNTAX, "unknown escape in JSON string");
            }
        }
        out->ptr = o;
        out->len = (uint32_t)k;
    }
    size_t bad = gdw_utf8_check(out->len ? out->ptr : (const uint8_t *)"", out->len,
                                GDW_UTF8_STRICT);
    if (bad != (size_t)-1)
        return jerr(j, start + (escaped ? 0 : bad), GDW_ERR_SYNTAX, "JSON string is not UTF-8");
    if (!out->len) out->ptr = (const uint8_t *)"";
    return GDW_OK;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static gdw_status parse_jnumber(jctx *j, jnode *nd) {
    size_t i = j->pos;
    if (i < j->n && j->s[i] == '-') i++;
    if (i >= j->n || !is_digit(j->s[i])) return jerr(j, j->pos, GDW_ERR_SYNTAX, "bad JSON number");
    if (j->s[i] == '0') i++;
    else
        while (i < j->n && is_digit(j->s[i])) i++;
    if (i < j->n && j->s[i] == '.') {
        i++;
        if (i >= j->n || !is_digit(j->s[i]))
            return jerr(j, j->pos, GDW_ERR_SYNTAX, "bad JSON number");
        while (i < j->n && is_digit(j->s[i])) i++;
    }
    if (i < j->n && (j->s[i] == 'e' || j->s[i] == 'E')) {
        i++;
        if (i < j->n && (j->s[i] == '+' || j->s[i] == '-')) i++;
        if (i >= j->n || !is_digit(j->s[i]))
            return jerr(j, j->pos, GDW_ERR_SYNTAX, "bad JSON number");
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
    if (c == '{' || c == '[') {
        nd->kind = c == '{' ? J_OBJ : J_ARR;
        j->pos++;
        return GDW_OK;
    }
    if (c == '"') {
        nd->kind = J_STR;
        return parse_jstring(j, &nd->u.str);
    }
    if (c == '-' || is_digit(c)) return parse_jnumber(j, nd);
    static const struct {
        const char *w;
        uint8_t k;
    } words[] = {{"null", J_NULL}, {"true", J_TRUE}, {"false", J_FALSE}};
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(words[i].w);
        if (j->n - j->pos >= k && memcmp(j->s + j->pos, words[i].w, k) == 0) {
            j->pos += k;
            nd->kind = words[i].k;
            return GDW_OK;
        }
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
    bool *seen = NULL;                         /* per open list: a value seen since its start */
    size_t cap_seen = 0;
    bool ok = true;
    for (size_t i = 0; i < j->n && ok; i++) {
        char c = j->s[i];
        if (c == '"') {
            for (i++; i < j->n && j->s[i] != '"'; i++)
                if (j->s[i] == '\\') i++;
            if (sp && !seen[sp - 1]) {
                seen[sp - 1] = true;
                (*counts)[open[sp - 1]]++;
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        if (c == ']' || c == '}') {
            if (sp) sp--;
            continue;
        }
        if (c == ',') {
            if (sp) seen[sp - 1] = false;
            continue;
        }
        if (c == ':') continue;
        /* a value starts (or goes on) here */
        if (sp && !seen[sp - 1]) {
            seen[sp - 1] = true;
            (*counts)[open[sp - 1]]++;
        }
        if (c == '[' || c == '{') {
            if (sp >= JSON_MAX_DEPTH) break; /* pass 2 says so */
            ok = jgrow(j, (void **)counts, cap_counts, *n_counts + 1, sizeof **counts) &&
                 jgrow(j, (void **)&open, &cap_open, sp + 1, sizeof *open) &&
                 jgrow(j, (void **)&seen, &cap_seen, sp + 1, sizeof *seen);
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
    if (!count_items(j, &counts, &n_counts, &cap_counts)) {
        s = jerr(j, 0, GDW_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (;;) {
        gdw_str key = {NULL, 0};
        /* a member name first, inside an object */
        if (n_open && open[n_open - 1].node.kind == J_OBJ) {
            jws(j);
            if (j->pos >= j->n || j->s[j->pos] != '"') {
                s = jerr(j, j->pos, GDW_ERR_SYNTAX, "expected a member name");
                break;
            }
            if ((s = parse_jstring(j, &key))) break;
            jws(j);
            if (j->pos >= j->n || j->s[j->pos] != ':') {
                s = jerr(j, j->pos, GDW_ERR_SYNTAX, "expected ':'");
                break;
            }
            j->pos++;
        }
        if ((s = parse_jvalue(j, &x))) break;
        bool done = true;
        if (x.kind == J_ARR || x.kind == J_OBJ) {
            if (n_open >= JSON_MAX_DEPTH) {
                s = jerr(j, x.off, GDW_ERR_DEPTH, "JSON nested too deeply");
                break;
            }
            if (!jgrow(j, (void **)&open, &cap_open, n_open + 1, sizeof *open)) {
                s = jerr(j, j->pos, GDW_ERR_NOMEM, "out of memory");
                break;
            }
            uint32_t n = next_list < n_counts ? counts[next_list] : 0;
            next_list++;
            x.n = n;
            x.u.l.items = n ? (struct jnode *)gdw_arena_alloc(j->scratch,
                                                              (size_t)n * sizeof *x.u.l.items)
                            : NULL;
            x.u.l.keys = n && x.kind == J_OBJ ? (gdw_str *)gdw_arena_alloc(
                                                    j->scratch, (size_t)n * sizeof *x.u.l.keys)
                                              : NULL;
            if (n && (!x.u.l.items || (x.kind == J_OBJ && !x.u.l.keys))) {
                s = jerr(j, x.off, GDW_ERR_NOMEM, "out of memory");
                break;
            }
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
            if (!n_open) {
                *root = x;
                goto out;
            }
            jopen *top = &open[n_open - 1];
            bool obj = top->node.kind == J_OBJ;
            if (top->filled >= top->node.n) {
                s = jerr(j, x.off, GDW_ERR_SYNTAX,
                         obj ? "expected ',' or '}'" : "expected ',' or ']'");
                goto out;
            }
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
            if (j->pos >= j->n || j->s[j->pos] != ',') {
                s = jerr(j, j->pos, GDW_ERR_SYNTAX,
                         obj ? "expected ',' or '}'" : "expected ',' or ']'");
                goto out;
            }
            j->pos++;
            break;
        }
    }
out:
    release(j, counts, cap_counts, sizeof *counts);
    release(j, open, cap_open, sizeof *open);
    return s;
}

/* ---- step 2: value objects to the tree builder ---------------------------------------------- */

/* JSON path bookkeeping (path.c): push ".name" (escaped) or "[i]", pop back to a saved length. */
static size_t path_member_text(jctx *j, const uint8_t *name, size_t len) {
    size_t saved = j->path_len;
    gdw_path_put(j->path, &j->path_len, ".", 1);
    gdw_path_text(j->path, &j->path_len, name, len, false);
    return saved;
}
static size_t path_member(jctx *j, const char *name) {
    return path_member_text(j, (const uint8_t *)name, strlen(name));
}
static size_t path_index(jctx *j, unsigned idx) {
    size_t saved = j->path_len;
    gdw_path_uint(j->path, &j->path_len, "[", idx, "]");
    return saved;
}
static void jpath_pop(jctx *j, size_t saved) {
    j->path_len = saved;
    j->path[saved] = 0;
}

/* An error at member `name` of a value object: its path names the member. */
static gdw_status member_err(jctx *j, const char *name, size_t off, gdw_status code,
                             const char *msg) {
    size_t sv = path_member(j, name);
    gdw_status s = jerr(j, off, code, msg);
    jpath_pop(j, sv);
    return s;
}

/* The builder's failure while adding the value at JSON node nd: a rule the value breaks (NodePath
 * flags, an InputEvent's words, an element type, ...; build.c has them for every reader) is the
 * JSON's fault, GDW_ERR_SYNTAX; the offset and JSON path are the node's. */
static gdw_status jbuilt(jctx *j, const jnode *nd, gdw_status s) {
    if (!s) return GDW_OK;
    const char *msg;
    s = gdw_build_blame(j->b, &msg);
    return jerr(j, nd->off, s, msg);
}

static bool key_is(gdw_str k, const char *name) {
    return k.len == strlen(name) && memcmp(k.ptr, name, k.len) == 0;
}

static const jnode *member(const jnode *obj, const char *name) {
    for (uint32_t i = 0; i < obj->n; i++)
        if (key_is(obj->u.l.keys[i], name)) return &obj->u.l.items[i];
    return NULL;
}

/* Every member of obj must be in the NULL-terminated list allowed. */
static gdw_status only_members(jctx *j, const jnode *obj, const char *const *allowed) {
    for (uint32_t i = 0; i < obj->n; i++) {
        bool ok = false;
        for (size_t k = 0; allowed[k]; k++)
            if (key_is(obj->u.l.keys[i], allowed[k])) ok = true;
        for (uint32_t m = 0; m < i; m++)
            if (obj->u.l.keys[m].len == obj->u.l.keys[i].len &&
                memcmp(obj->u.l.keys[m].ptr, obj->u.l.keys[i].ptr, obj->u.l.keys[i].len) == 0)
                ok = false;
        if (!ok) {
            size_t sv = path_member_text(j, (const uint8_t *)obj->u.l.keys[i].ptr,
                                         obj->u.l.keys[i].len);
            gdw_status s = jerr(j, obj->u.l.items[i].off, GDW_ERR_SYNTAX,
                                "unknown or repeated member for this type");
            jpath_pop(j, sv);
            return s;
        }
    }
    return GDW_OK;
}

/* Member `name` of obj, of JSON kind `kind` (-1: any; J_TRUE: true or false). */
static gdw_status need(jctx *j, const jnode *obj, const char *name, int kind, const jnode **out) {
    const jnode *m = member(obj, name);
    if (!m) return member_err(j, name, obj->off, GDW_ERR_SYNTAX, "member missing");
    if (kind >= 0 && m->kind != kind && !(kind == J_TRUE && m->kind == J_FALSE))
        return member_err(j, name, m->off, GDW_ERR_SYNTAX,
                          kind == J_NUM   ? "expected a number"
                          : kind == J_STR ? "expected a string"
                          : kind == J_ARR ? "expected an array"
                          : kind == J_OBJ ? "expected an object"
                                          : "expected true or false");
    *out = m;
    return GDW_OK;
}

/* An optional member that is true or false; *on false when absent. */
static gdw_status flag(jctx *j, const jnode *obj, const char *name, bool *on) {
    const jnode *m = member(obj, name);
    *on = false;
    if (!m) return GDW_OK;
    if (m->kind != J_TRUE && m->kind != J_FALSE)
        return jerr(j, m->off, GDW_ERR_SYNTAX, "expected true or false");
    *on = m->kind == J_TRUE;
    return GDW_OK;
}

/* base64 text to bytes in the scratch arena. */
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

/* A JSON string or {"base64": "..."}, as bytes (in the JSON text or the scratch arena: the
 * builder copies what it keeps). */
static gdw_status get_bytes(jctx *j, const jnode *nd, gdw_str *out) {
    if (nd->kind == J_STR) {
        *out = nd->u.str;
        return GDW_OK;
    }
    if (nd->kind == J_OBJ && nd->n == 1 && key_is(nd->u.l.keys[0], "base64") &&
        nd->u.l.items[0].kind == J_STR)
        return unbase64(j, &nd->u.l.items[0], out);
    return jerr(j, nd->off, GDW_ERR_SYNTAX, "expected a string or {\"base64\": \"...\"}");
}

/* A String's or PackedByteArray's content: exactly one of "value" (*v, the caller reads it) and
 * "base64" (decoded into *g); which: the message when neither or both are there. */
static gdw_status value_or_base64(jctx *j, const jnode *nd, const char *which, const jnode **v,
                                  gdw_str *g) {
    const jnode *b64 = member(nd, "base64");
    *v = member(nd, "value");
    if ((*v != NULL) == (b64 != NULL)) return jerr(j, nd->off, GDW_ERR_SYNTAX, which);
    if (!b64) return GDW_OK;
    if (b64->kind != J_STR) return jerr(j, b64->off, GDW_ERR_SYNTAX, "expected a string");
    return unbase64(j, b64, g);
}

/* An integer: a JSON number without fraction or exponent, within [lo, hi]; *out as its int64
 * (hi above INT64_MAX: the caller reads it as uint64). */
static gdw_status get_int(jctx *j, const jnode *nd, int64_t lo, uint64_t hi, int64_t *out) {
    if (nd->kind != J_NUM || memchr(nd->u.str.ptr, '.', nd->u.str.len) ||
        memchr(nd->u.str.ptr, 'e', nd->u.str.len) || memchr(nd->u.str.ptr, 'E', nd->u.str.len))
        return jerr(j, nd->off, GDW_ERR_SYNTAX, "expected an integer");
    const char *t = (const char *)nd->u.str.ptr;
    bool ok;
    if (t[0] == '-') {
        int64_t v = 0;
        ok = !gdw_number_i64(t, nd->u.str.len, &v) && v >= lo;
        *out = v;
    } else {
        uint64_t v = 0;
        ok = !gdw_number_u64(t, nd->u.str.len, &v) && v <= hi;
        *out = (int64_t)v;
    }
    return ok ? GDW_OK : jerr(j, nd->off, GDW_ERR_SYNTAX, "integer out of range");
}

static gdw_status get_u32(jctx *j, const jnode *nd, uint32_t *out) {
    int64_t v;
    TRY(get_int(j, nd, 0, UINT32_MAX, &v));
    *out = (uint32_t)v;
    return GDW_OK;
}

static gdw_status get_u64(jctx *j, const jnode *nd, uint64_t *out) {
    int64_t v;
    TRY(get_int(j, nd, 0, UINT64_MAX, &v));
    *out = (uint64_t)v;
    return GDW_OK;
}

/* A real at width 4 or 8 (numbers.c reads it): a JSON number, or one of the text form's words in
 * a string ("nan", "-nan", "inf", "-inf", "nan(0x...)", "-nan(0x...)"). */
static gdw_status get_real(jctx *j, const jnode *nd, unsigned width, uint64_t *bits) {
    bool text = nd->kind == J_NUM || nd->kind == J_STR;
    const char *w = text ? (const char *)nd->u.str.ptr : "";
    size_t n = text ? nd->u.str.len : 0, b = n > 0 && w[0] == '-' ? 1 : 0;
    bool word = nd->kind == J_STR &&
                ((n == b + 3 && (memcmp(w + b, "nan", 3) == 0 || memcmp(w + b, "inf", 3) == 0)) ||
                 (n > b + 4 && memcmp(w + b, "nan(", 4) == 0));
    if (nd->kind != J_NUM && !word)
        return jerr(j, nd->off, GDW_ERR_SYNTAX,
                    "expected a number, or \"nan\", \"-nan\", \"inf\", \"-inf\", \"nan(0x...)\"");
    const char *why = gdw_number_real(w, n, width, bits);
    return why ? jerr(j, nd->off, GDW_ERR_SYNTAX, why) : GDW_OK;
}

/* A "width" member: 4 or 8; *w stays 0 when absent. */
static gdw_status get_width(jctx *j, const jnode *obj, unsigned *w) {
    const jnode *m = member(obj, "width");
    *w = 0;
    if (!m) return GDW_OK;
    if (m->kind == J_NUM && m->u.str.len == 1 &&
        (m->u.str.ptr[0] == '4' || m->u.str.ptr[0] == '8')) {
        *w = m->u.str.ptr[0] - '0';
        return GDW_OK;
    }
    return member_err(j, "width", m->off, GDW_ERR_SYNTAX, "width is 4 or 8");
}

/* Bytes copied into the document being built. */
static gdw_status doc_copy(jctx *j, const jnode *nd, gdw_str *g) {
    uint8_t *p = g->len ? (uint8_t *)gdw_build_alloc(j->b, g->len) : (uint8_t *)"";
    if (!p) return jbuilt(j, nd, GDW_ERR_NOMEM);
    if (g->len) memcpy(p, g->ptr, g->len);
    g->ptr = p;
    return GDW_OK;
}

/* A container element type: "Variant", a builtin name, "ObjectID", {"class"}, {"script"},
 * {"wire_id"}; its name copied into the document. */
static gdw_status get_desc(jctx *j, const jnode *nd, gdw_typedesc *td) {
    memset(td, 0, sizeof *td);
    if (nd->kind == J_STR) {
        const char *w = (const char *)nd->u.str.ptr;
        size_t n = nd->u.str.len;
        int t = gdw_type_from_name(w, n);
        if (n == 7 && memcmp(w, "Variant", 7) == 0) return GDW_OK;
        if (n == 8 && memcmp(w, "ObjectID", 8) == 0) {
            td->kind = GDW_DESC_BUILTIN;
            td->builtin = GDW_OBJECT;
            td->id_only = 1;
            return GDW_OK;
        }
        if (t < 0) return jerr(j, nd->off, GDW_ERR_SYNTAX, "unknown element type");
        td->kind = GDW_DESC_BUILTIN;
        td->builtin = (uint8_t)t;
        return GDW_OK;
    }
    if (nd->kind == J_OBJ && nd->n == 1) {
        const jnode *m = &nd->u.l.items[0];
        if (key_is(nd->u.l.keys[0], "class") || key_is(nd->u.l.keys[0], "script")) {
            td->kind = key_is(nd->u.l.keys[0], "class") ? GDW_DESC_CLASS : GDW_DESC_SCRIPT;
            TRY(get_bytes(j, m, &td->name));
            return doc_copy(j, m, &td->name);
        }
        if (key_is(nd->u.l.keys[0], "wire_id")) {
            td->kind = GDW_DESC_BUILTIN;
            td->builtin = GDW_TYPE_COUNT;
            return get_u32(j, m, &td->wire_id);
        }
    }
    return jerr(j, nd->off, GDW_ERR_SYNTAX,
                "expected a type name, {\"class\": ...}, {\"script\": ...} or {\"wire_id\": N}");
}

/* Member `name` of nd, an array of n items, each read by fn into out[i] (elem bytes each: in the
 * document being built when in_doc, else in the scratch arena); the JSON path names the item
 * that fails. */
typedef gdw_status (*item_fn)(jctx *j, const jnode *nd, void *out, const void *arg);

static gdw_status get_list(jctx *j, const jnode *obj, const char *name, size_t elem, item_fn fn,
                           const void *arg, bool in_doc, void **out, uint32_t *n) {
    const jnode *m;
    TRY(need(j, obj, name, J_ARR, &m));
    size_t size = (size_t)m->n * elem;
    uint8_t *items = !m->n    ? NULL
                     : in_doc ? (uint8_t *)gdw_build_alloc(j->b, size)
                              : (uint8_t *)gdw_arena_alloc(j->scratch, size);
    if (m->n && !items) return jerr(j, m->off, GDW_ERR_NOMEM, "out of memory");
    size_t sv = path_member(j, name);
    for (uint32_t i = 0; i < m->n; i++) {
        size_t si = path_index(j, i);
        TRY(fn(j, &m->u.l.items[i], items + (size_t)i * elem, arg));
        jpath_pop(j, si);
    }
    jpath_pop(j, sv);
    *out = items;
    *n = m->n;
    return GDW_OK;
}

static gdw_status item_bytes(jctx *j, const jnode *nd, void *out, const void *arg) {
    (void)arg;
    return get_bytes(j, nd, (gdw_str *)out);
}
static gdw_status item_u32(jctx *j, const jnode *nd, void *out, const void *arg) {
    (void)arg;
    return get_u32(j, nd, (uint32_t *)out);
}
static gdw_status item_byte(jctx *j, const jnode *nd, void *out, const void *arg) {
    (void)arg;
    int64_t v;
    TRY(get_int(j, nd, 0, 255, &v));
    *(uint8_t *)out = (uint8_t)v;
    return GDW_OK;
}
/* A component of a math type or packed array, little-endian at its width (arg: the type info). */
typedef struct comp_form {
    const gdw_type_info *ti;
    unsigned cw;
} comp_form;
static gdw_status item_component(jctx *j, const jnode *nd, void *out, const void *arg) {
    const comp_form *f = (const comp_form *)arg;
    if (f->ti->comp == C_I32 || f->ti->comp == C_I64) {
        int64_t v;
        TRY(get_int(j, nd, f->cw == 4 ? INT32_MIN : INT64_MIN, f->cw == 4 ? INT32_MAX : INT64_MAX,
                    &v));
        if (f->cw == 4) wr_u32le((uint8_t *)out, (uint32_t)v);
        else wr_u64le((uint8_t *)out, (uint64_t)v);
        return GDW_OK;
    }
    uint64_t bits;
    TRY(get_real(j, nd, f->cw, &bits));
    if (f->cw == 4) wr_u32le((uint8_t *)out, (uint32_t)bits);
    else wr_u64le((uint8_t *)out, bits);
    return GDW_OK;
}

#define ALLOWED(...) \
    do { \
        static const char *const k_allowed_[] = {"type", __VA_ARGS__, NULL}; \
        TRY(only_members(j, nd, k_allowed_)); \
    } while (0)

/* A list of value objects being built (build_tree's stack, no recursion): Array items, or
 * Dictionary [key, value] / Object [name, value] pairs. */
enum {
    LIST_VALUES,
    LIST_PAIRS,
    LIST_PROPERTIES,
    LIST_MEMBERS /* plain JSON: an object's members */
};
typedef struct jlist {
    const jnode *list;
    const jnode *owner; /* the value object whose container this is */
    uint32_t i;         /* the next item */
    uint8_t shape;
    bool plain;      /* its items are plain JSON (gdw_json_parse_plain), else value objects */
    bool value_next; /* pairs: the key is built, its value next */
    unsigned depth;  /* of the container */
    size_t path_outer, path_inner; /* the path before and after the member's name */
} jlist;

/* Member `name` of nd: the items of the container just opened, for build_tree (frame l). */
static gdw_status open_jlist(jctx *j, const jnode *nd, const char *name, uint8_t shape,
                             unsigned depth, jlist *l) {
    const jnode *m;
    TRY(need(j, nd, name, J_ARR, &m));
    l->list = m;
    l->owner = nd;
    l->i = 0;
    l->shape = shape;
    l->plain = false;
    l->value_next = false;
    l->depth = depth;
    l->path_outer = path_member(j, name);
    l->path_inner = j->path_len;
    return GDW_OK;
}

/* A typed or untyped Array or Dictionary, or a Pandemonium TypedArray: opened in the builder. */
static gdw_status open_container(jctx *j, const jnode *nd, int t, unsigned depth, jlist *l) {
    const gdw_type_info *ti = type_info((unsigned)t);
    bool dict = ti->kind == K_DICT, shared;
    if (dict) ALLOWED("value", "shared", "key_type", "value_type");
    else ALLOWED("value", "shared", "element_type");
    TRY(flag(j, nd, "shared", &shared));
    const char *elem_name = dict ? "value_type" : "element_type";
    const jnode *kt = member(nd, "key_type"), *vt = member(nd, elem_name);
    if (dict && (kt != NULL) != (vt != NULL))
        return jerr(j, nd->off, GDW_ERR_SYNTAX,
                    "a typed Dictionary has both \"key_type\" and \"value_type\"");
    if (ti->kind == K_TYPED_ARRAY && !vt)
        return jerr(j, nd->off, GDW_ERR_SYNTAX, "a TypedArray has an \"element_type\"");
    gdw_container *ct = NULL;
    if (vt) {
        ct = (gdw_container *)gdw_build_alloc(j->b, sizeof *ct);
        if (!ct) return jbuilt(j, nd, GDW_ERR_NOMEM);
        memset(ct, 0, sizeof *ct);
        /* each element type checked as it is read, to point at it (the rules: build.c's) */
        for (int k = kt ? 0 : 1; k < 2; k++) {
            const char *name = k ? elem_name : "key_type";
            const jnode *m = k ? vt : kt;
            size_t sv = path_member(j, name);
            TRY(get_desc(j, m, k ? &ct->elem : &ct->key));
            const char *why = gdw_descs_refused(ti->kind, ct);
            if (why) return jerr(j, m->off, GDW_ERR_SYNTAX, why);
            jpath_pop(j, sv);
        }
    }
    gdw_value head;
    memset(&head, 0, sizeof head);
    head.type = (uint8_t)t;
    if (shared) head.flags |= GDW_VF_SHARED;
    TRY(jbuilt(j, nd, gdw_build_open(j->b, &head, ct)));
    return open_jlist(j, nd, "value", dict ? LIST_PAIRS : LIST_VALUES, depth, l);
}

/* A value put by hand (no typed call makes it): ext, when not NULL, its extra part in the document.
 * */
static gdw_status jput(jctx *j, const jnode *nd, int t, uint16_t flags, int64_t i, void *ext) {
    gdw_value v;
    memset(&v, 0, sizeof v);
    v.type = (uint8_t)t;
    v.flags = flags;
    if (ext) v.u.ext = ext;
    else v.u.i = i;
    return jbuilt(j, nd, gdw_build_put(j->b, &v));
}

/* One value object into the builder; a container is left open, its items in l (l->list). */
static gdw_status build_value(jctx *j, const jnode *nd, unsigned depth, jlist *l) {
    l->list = NULL;
    if (depth > GDW_HARD_MAX_DEPTH + 1)
        return jerr(j, nd->off, GDW_ERR_DEPTH, "nesting deeper than the depth limit");
    if (nd->kind != J_OBJ)
        return jerr(j, nd->off, GDW_ERR_SYNTAX, "a value is an object {\"type\": ...}");
    const jnode *tn, *m = NULL;
    TRY(need(j, nd, "type", J_STR, &tn));
    int t = gdw_type_from_name((const char *)tn->u.str.ptr, tn->u.str.len);
    if (t < 0) return member_err(j, "type", tn->off, GDW_ERR_SYNTAX, "unknown type name");
    const gdw_type_info *ti = type_info((unsigned)t);
    gdw_builder *b = j->b;
    unsigned w = 0;
    uint64_t u;
    gdw_str g;
    void *list;
    uint32_t n;
    switch (ti->kind) {
    case K_NIL: ALLOWED(NULL); return jbuilt(j, nd, gdw_build_nil(b));
    case K_CALLABLE: ALLOWED(NULL); return jbuilt(j, nd, gdw_build_callable(b));
    case K_BOOL:
        ALLOWED("value");
        TRY(need(j, nd, "value", J_TRUE, &m));
        return jbuilt(j, nd, gdw_build_bool(b, m->kind == J_TRUE));
    case K_INT: {
        int64_t x;
        ALLOWED("value");
        TRY(need(j, nd, "value", -1, &m));
        TRY(get_int(j, m, INT64_MIN, INT64_MAX, &x));
        return jbuilt(j, nd, gdw_build_int(b, x));
    }
    case K_FLOAT:
        ALLOWED("value", "width");
        TRY(get_width(j, nd, &w));
        TRY(need(j, nd, "value", -1, &m));
        TRY(get_real(j, m, w ? w : 8, &u));
        if (!w) w = gdw_number_natural_width(&u); /* no width: the one the encoders choose */
        return jbuilt(j, nd, gdw_build_float_bits(b, u, w));
    case K_STR: {
        ALLOWED("value", "base64");
        const jnode *v;
        TRY(value_or_base64(j, nd, "a string has \"value\" or \"base64\"", &v, &g));
        if (v && v->kind != J_STR) return jerr(j, v->off, GDW_ERR_SYNTAX, "expected a string");
        if (v) g = v->u.str;
        return jbuilt(j, nd,
                      (t == GDW_STRING_NAME ? gdw_build_string_name
                                            : gdw_build_string)(b, (const char *)g.ptr, g.len));
    }
    case K_FIXED:
    case K_PACKED: {
        ALLOWED("value", "width");
        TRY(get_width(j, nd, &w));
        bool ints = ti->comp == C_I32 || ti->comp == C_I64;
        if (w && (ints || (ti->comp == C_F32 && w != 4) || (ti->comp == C_F64 && w != 8)))
            return member_err(j, "width", member(nd, "width")->off, GDW_ERR_SYNTAX,
                              "this type has no choice of width");
        comp_form f = {ti, gdw_comp_bytes(ti, w ? w : 4)};
        /* read into the document */
        TRY(get_list(j, nd, "value", f.cw, item_component, &f, true, &list, &n));
        return jbuilt(j, nd,
                      gdw_build_components(b, (gdw_type)t,
                                           list ? (const uint8_t *)list : (const uint8_t *)"", n,
                                           f.cw));
    }
    case K_PACKED_BYTES: {
        ALLOWED("value", "base64");
        const jnode *v;
        TRY(value_or_base64(j, nd, "a PackedByteArray has \"base64\" or \"value\"", &v, &g));
        if (v) {
            TRY(get_list(j, nd, "value", 1, item_byte, NULL, false, &list, &n));
            g.ptr = (const uint8_t *)list;
            g.len = n;
        }
        return jbuilt(j, nd, gdw_build_packed_bytes(b, g.ptr, g.len));
    }
    case K_PACKED_STRINGS:
        ALLOWED("value");
        TRY(get_list(j, nd, "value", sizeof(gdw_str), item_bytes, NULL, false, &list, &n));
        return jbuilt(j, nd, gdw_build_packed_strings(b, (const gdw_str *)list, n));
    case K_NODEPATH: {
        ALLOWED("names", "subnames", "absolute", "property");
        bool absolute, property;
        void *subs;
        uint32_t n_subs;
        TRY(flag(j, nd, "absolute", &absolute));
        TRY(flag(j, nd, "property", &property));
        TRY(get_list(j, nd, "names", sizeof(gdw_str), item_bytes, NULL, false, &list, &n));
        TRY(get_list(j, nd, "subnames", sizeof(gdw_str), item_bytes, NULL, false, &subs, &n_subs));
        return jbuilt(j, nd,
                      gdw_build_node_path(b, (const gdw_str *)list, n, (const gdw_str *)subs,
                                          n_subs, (absolute ? 1u : 0u) | (property ? 2u : 0u)));
    }
    case K_RID:
        ALLOWED("id");
        /* a Godot 2 RID: no id on the wire */
        if (!(m = member(nd, "id"))) return jput(j, nd, GDW_RID, 0, 0, NULL);
        TRY(get_u64(j, m, &u));
        return jbuilt(j, nd, gdw_build_rid(b, u));
    case K_OBJECT: {
        ALLOWED("null", "id", "class", "properties");
        const jnode *nl = member(nd, "null"), *id = member(nd, "id"), *cls = member(nd, "class");
        if ((nl != NULL) + (id != NULL) + (cls != NULL) != 1)
            return jerr(j, nd->off, GDW_ERR_SYNTAX,
                        "an Object has one of \"null\", \"id\" or \"class\"");
        if (nl) {
            if (nl->kind != J_TRUE) return jerr(j, nl->off, GDW_ERR_SYNTAX, "expected true");
            return jbuilt(j, nd, gdw_build_object_id(b, 0));
        }
        /* 0: the builder says no */
        if (id) {
            TRY(get_u64(j, id, &u));
            return jput(j, nd, GDW_OBJECT, GDW_VF_OBJECT_ID, (int64_t)u, NULL);
        }
        TRY(get_bytes(j, cls, &g));
        TRY(jbuilt(j, nd, gdw_build_begin_object(b, (const char *)g.ptr, g.len)));
        return open_jlist(j, nd, "properties", LIST_PROPERTIES, depth, l);
    }
    case K_SIGNAL:
        ALLOWED("name", "object_id");
        TRY(need(j, nd, "name", -1, &m));
        TRY(get_bytes(j, m, &g));
        TRY(need(j, nd, "object_id", J_NUM, &m));
        TRY(get_u64(j, m, &u));
        return jbuilt(j, nd, gdw_build_signal(b, (const char *)g.ptr, g.len, u));
    case K_DICT:
    case K_ARRAY:
    case K_TYPED_ARRAY: return open_container(j, nd, t, depth, l);
    case K_IMAGE: {
        ALLOWED("format", "mipmaps", "width", "height", "data");
        static const char *const fields[] = {"format", "mipmaps", "width", "height"};
        gdw_image *im = (gdw_image *)gdw_build_alloc(b, sizeof *im);
        if (!im) return jbuilt(j, nd, GDW_ERR_NOMEM);
        uint32_t *dst[] = {&im->format, &im->mipmaps, &im->width, &im->height};
        for (int i = 0; i < 4; i++) {
            TRY(need(j, nd, fields[i], J_NUM, &m));
            TRY(get_u32(j, m, dst[i]));
        }
        TRY(need(j, nd, "data", J_STR, &m));
        TRY(unbase64(j, m, &im->data));
        TRY(doc_copy(j, m, &im->data));
        return jput(j, nd, GDW_IMAGE, 0, 0, im);
    }
    case K_INPUT_EVENT: {
        ALLOWED("event_type", "device", "length", "extra");
        static const char *const fields[] = {"event_type", "device", "length"};
        gdw_input_event *ev = (gdw_input_event *)gdw_build_alloc(b, sizeof *ev);
        if (!ev) return jbuilt(j, nd, GDW_ERR_NOMEM);
        memset(ev, 0, sizeof *ev);
        uint32_t *dst[] = {&ev->type, &ev->device, &ev->llen};
        for (int i = 0; i < 3; i++) {
            TRY(need(j, nd, fields[i], J_NUM, &m));
            TRY(get_u32(j, m, dst[i]));
        }
        if ((m = member(nd, "extra"))) {
            if (m->kind != J_ARR) return jerr(j, m->off, GDW_ERR_SYNTAX, "expected an array");
            TRY(get_list(j, nd, "extra", sizeof(uint32_t), item_u32, NULL, false, &list, &n));
            if (n > 2)
                return member_err(j, "extra", m->off, GDW_ERR_SYNTAX,
                                  "InputEvent has at most two extra words");
            if (n) memcpy(ev->extra, list, n * sizeof(uint32_t));
            ev->extra_count = n;
        }
        /* its words for its type: the builder's rule */
        return jput(j, nd, GDW_INPUT_EVENT, 0, 0, ev);
    }
    }
    return jerr(j, nd->off, GDW_ERR_SYNTAX, "type has no JSON form");
}

/* One plain JSON node into the builder (docs/json.md "Plain JSON"); an array or object is left
 * open, its items in l. {"$gdwire": X} alone is X in the JSON form. */
static gdw_status build_plain(jctx *j, const jnode *nd, unsigned depth, jlist *l) {
    l->list = NULL;
    if (depth > GDW_HARD_MAX_DEPTH + 1)
        return jerr(j, nd->off, GDW_ERR_DEPTH, "nesting deeper than the depth limit");
    gdw_builder *b = j->b;
    switch (nd->kind) {
    case J_NULL: return jbuilt(j, nd, gdw_build_nil(b));
    case J_TRUE:
    case J_FALSE: return jbuilt(j, nd, gdw_build_bool(b, nd->kind == J_TRUE));
    case J_STR:
        return jbuilt(j, nd, gdw_build_string(b, (const char *)nd->u.str.ptr, nd->u.str.len));
    case J_NUM: {
        const gdw_str t = nd->u.str;
        if (!memchr(t.ptr, '.', t.len) && !memchr(t.ptr, 'e', t.len) &&
            !memchr(t.ptr, 'E', t.len)) {
            int64_t x;
            TRY(get_int(j, nd, INT64_MIN, INT64_MAX, &x));
            return jbuilt(j, nd, gdw_build_int(b, x));
        }
        uint64_t u;
        TRY(get_real(j, nd, 8, &u));
        unsigned w = gdw_number_natural_width(&u); /* the width the encoders choose */
        return jbuilt(j, nd, gdw_build_float_bits(b, u, w));
    }
    case J_ARR: TRY(jbuilt(j, nd, gdw_build_begin_array(b))); break;
    case J_OBJ:
        if (nd->n == 1 && key_is(nd->u.l.keys[0], "$gdwire")) {
            size_t sv = path_member(j, "$gdwire");
            /* its lists, if any: the JSON form's */
            gdw_status s = build_value(j, &nd->u.l.items[0], depth, l);
            if (!l->list) jpath_pop(j, sv);
            else l->path_outer = sv;
            return s;
        }
        TRY(jbuilt(j, nd, gdw_build_begin_dictionary(b)));
        break;
    default: return jerr(j, nd->off, GDW_ERR_SYNTAX, "not a JSON value");
    }
    l->list = nd;
    l->owner = nd;
    l->i = 0;
    l->shape = nd->kind == J_ARR ? LIST_VALUES : LIST_MEMBERS;
    l->plain = true;
    l->value_next = false;
    l->depth = depth;
    l->path_outer = l->path_inner = j->path_len;
    return GDW_OK;
}

static gdw_status build_any(jctx *j, const jnode *nd, unsigned depth, jlist *l, bool plain) {
    return plain ? build_plain(j, nd, depth, l) : build_value(j, nd, depth, l);
}

/* The root value object and everything in it, depth first, without recursion: the open lists
 * are a stack (the caller's allocator), each an open container of the builder. */
static gdw_status build_tree(jctx *j, const jnode *root, bool plain) {
    jlist *st = NULL, l;
    size_t sp = 0, cap = 0;
    gdw_status s = build_any(j, root, 0, &l, plain);
    for (;;) {
        if (s) break;
        if (l.list) { /* a list opened: it is the one to fill next */
            if (!jgrow(j, (void **)&st, &cap, sp + 1, sizeof *st)) {
                s = jerr(j, l.list->off, GDW_ERR_NOMEM, "out of memory");
                break;
            }
            st[sp++] = l;
            l.list = NULL;
        }
        if (!sp) break;
        jlist *top = &st[sp - 1];
        j->path_len = top->path_inner;
        j->path[j->path_len] = 0;
        if (top->i == top->list->n) {
            jpath_pop(j, top->path_outer);
            s = jbuilt(j, top->owner, gdw_build_end(j->b));
            sp--;
            continue;
        }
        const jnode *it = &top->list->u.l.items[top->i];
        unsigned d = top->depth + 1;
        if (top->shape == LIST_VALUES) {
            path_index(j, top->i++);
            s = build_any(j, it, d, &l, top->plain);
            continue;
        }
        /* plain: the member name is a String key, then its value */
        if (top->shape == LIST_MEMBERS) {
            const gdw_str *k = &top->list->u.l.keys[top->i];
            if (!top->value_next) {
                top->value_next = true;
                s = jbuilt(j, it, gdw_build_string(j->b, (const char *)k->ptr, k->len));
                continue;
            }
            top->value_next = false;
            top->i++;
            path_member_text(j, k->ptr, k->len);
            s = build_plain(j, it, d, &l);
            continue;
        }
        if (!top->value_next) {
            path_index(j, top->i);
            if (it->kind != J_ARR || it->n != 2) {
                s = jerr(j, it->off, GDW_ERR_SYNTAX,
                         top->shape == LIST_PROPERTIES ? "expected a [name, value] pair"
                                                       : "expected a [key, value] pair");
                break;
            }
            path_index(j, 0);
            top->value_next = true;
            if (top->shape == LIST_PROPERTIES) {
                gdw_str g;
                s = get_bytes(j, &it->u.l.items[0], &g);
                if (!s)
                    s = jbuilt(j, &it->u.l.items[0],
                               gdw_build_string(j->b, (const char *)g.ptr, g.len));
                continue;
            }
            s = build_value(j, &it->u.l.items[0], d, &l);
            continue;
        }
        path_index(j, top->i++);
        path_index(j, 1);
        top->value_next = false;
        s = build_value(j, &it->u.l.items[1], d, &l);
    }
    release(j, st, cap, sizeof *st);
    return s;
}

static gdw_status json_parse_as(const char *text, size_t len, const gdw_allocator *alloc,
                                gdw_doc **out_doc, gdw_error *err, bool plain) {
    jctx j;
    memset(&j, 0, sizeof j);
    j.s = text ? text : "";
    j.n = text ? len : 0;
    j.err = err;
    if (!out_doc) return jerr(&j, 0, GDW_ERR_INVALID_ARG, "out_doc is NULL");
    /* as gdw_text_parse */
    if (!text && len) return jerr(&j, 0, GDW_ERR_INVALID_ARG, "text is NULL");
    *out_doc = NULL;
    j.alloc = alloc ? alloc : gdw_default_allocator();
    j.scratch = gdw_doc_new(alloc);
    j.b = gdw_builder_new(alloc);
    gdw_status s = j.scratch && j.b ? GDW_OK : jerr(&j, 0, GDW_ERR_NOMEM, "out of memory");
    jnode root;
    if (!s) s = parse_json(&j, &root);
    if (!s) {
        jws(&j);
        if (j.pos < j.n) s = jerr(&j, j.pos, GDW_ERR_SYNTAX, "text after the JSON value");
    }
    if (!s) s = build_tree(&j, &root, plain);
    if (!s) s = jbuilt(&j, &root, gdw_build_finish(j.b, out_doc, NULL));
    gdw_builder_free(j.b);
    gdw_doc_free(j.scratch);
    if (!s) gdw_error_clear(err);
    return s;
}

gdw_status gdw_json_parse(const char *text, size_t len, const gdw_allocator *alloc,
                          gdw_doc **out_doc, gdw_error *err) {
    return json_parse_as(text, len, alloc, out_doc, err, false);
}

gdw_status gdw_json_parse_plain(const char *text, size_t len, const gdw_allocator *alloc,
                                gdw_doc **out_doc, gdw_error *err) {
    return json_parse_as(text, len, alloc, out_doc, err, true);
}

/* SPDX-License-Identifier: MIT */
/* text_resource.c — Godot's text files as sections: project.godot (ConfigFile: `key=value` lines
 * under `[section]`), scenes `.tscn` and resources `.tres` (`[tag attr=value ...]` headers, then
 * `key = value` lines). A value is kept as its raw text (it may span lines inside brackets or
 * strings); the few forms the project reader needs are read from that text by the pj_value_*
 * helpers. One pass, no recursion, linear in the input. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pj.h"

typedef struct sec_idx {
    const char *tag;
    unsigned line;
    size_t attr0, n_attrs, prop0, n_props;
} sec_idx;

/* The end of a value starting at i: at a newline (or, in a header, whitespace or ']') outside
 * strings and brackets. *line follows the newlines crossed. */
static size_t value_end(const char *s, size_t len, size_t i, bool in_header, unsigned *line, bool *unterminated) {
    int depth = 0;
    *unterminated = false;
    while (i < len) {
        char c = s[i];
        if (c == '"') {
            size_t j = i + 1;
            while (j < len && s[j] != '"') {
                if (s[j] == '\\' && j + 1 < len) j++;
                if (s[j] == '\n') (*line)++;
                j++;
            }
            if (j >= len) { *unterminated = true; return len; }
            i = j + 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0 && in_header && c == ']') return i;
            if (depth > 0) depth--;
        } else if (c == '\n') {
            if (depth == 0) return i;
            (*line)++;
        } else if (in_header && depth == 0 && (c == ' ' || c == '\t')) return i;
        i++;
    }
    return i;
}

static const char *trimmed(pj_arena *a, const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return pj_strndup(a, s, n);
}

/* A key: a word, or a quoted string (unescaped). */
static const char *key_text(pj_arena *a, const char *s, size_t n) {
    const char *t = trimmed(a, s, n);
    const char *unquoted = t && t[0] == '"' ? pj_value_string(a, t) : NULL;
    return unquoted ? unquoted : t; /* a quote never closed: the key as written */
}

void pj_text_resource_scan(const char *src, size_t len, const char *file, pj_arena *a, pj_problems *probs,
                           size_t max_sections, pj_text_resource *out) {
    memset(out, 0, sizeof *out);
    pj_vec secs = PJ_VEC(sec_idx), kvs = PJ_VEC(pj_kv);
    sec_idx *cur = pj_vec_push(&secs);
    if (cur) { cur->tag = ""; cur->line = 1; }
    unsigned line = 1;
    size_t i = 0;
    bool warned_max = false;
    while (i < len && !secs.oom && !kvs.oom) {
        char c = src[i];
        if (c == '\n') { line++; i++; continue; }
        if (c == ' ' || c == '\t' || c == '\r') { i++; continue; }
        if (c == ';' || c == '#') { while (i < len && src[i] != '\n') i++; continue; }
        if (c == '[') { /* [tag attr=value ...] */
            unsigned hline = line;
            size_t j = i + 1;
            while (j < len && (isalnum((unsigned char)src[j]) || src[j] == '_' || src[j] == '/' || src[j] == '.')) j++;
            if (secs.n >= max_sections) {
                if (!warned_max) pj_problem(probs, file, hline, "more than %zu sections: the rest not read", max_sections);
                warned_max = true;
                break;
            }
            sec_idx *s = pj_vec_push(&secs);
            if (!s) break;
            s->tag = pj_strndup(a, src + i + 1, j - i - 1);
            s->line = hline;
            s->attr0 = kvs.n;
            i = j;
            bool closed = false;
            while (i < len) {
                while (i < len && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n')) {
                    if (src[i] == '\n') line++;
                    i++;
                }
                if (i >= len) break;
                if (src[i] == ']') { closed = true; i++; break; }
                size_t k = i;
                while (k < len && src[k] != '=' && src[k] != ']' && src[k] != '\n' && src[k] != ' ') k++;
                if (k >= len || src[k] != '=') { /* not an attribute: skip a word */
                    i = k > i ? k : i + 1;
                    continue;
                }
                bool unterminated;
                unsigned vline = line;
                size_t e = value_end(src, len, k + 1, true, &line, &unterminated);
                if (unterminated) { /* it runs to the end of the file: nothing after it is read */
                    pj_problem(probs, file, vline, "unterminated string in a [%s] header", s->tag ? s->tag : "");
                    i = len;
                    break;
                }
                pj_kv *kv = pj_vec_push(&kvs);
                if (!kv) break;
                kv->key = key_text(a, src + i, k - i);
                kv->value = trimmed(a, src + k + 1, e - k - 1);
                kv->line = vline;
                s->n_attrs++;
                i = e;
            }
            if (!closed) pj_problem(probs, file, hline, "the [%s] header is not closed", s->tag ? s->tag : "");
            s->prop0 = kvs.n;
            continue;
        }
        /* key = value (the key may be a quoted string) */
        unsigned kline = line;
        size_t k = i;
        if (src[k] == '"') {
            k++;
            while (k < len && src[k] != '"' && src[k] != '\n') k += src[k] == '\\' && k + 1 < len && src[k + 1] != '\n' ? 2 : 1;
            if (k < len && src[k] == '"') k++;
        }
        while (k < len && src[k] != '=' && src[k] != '\n') k++;
        if (k >= len || src[k] != '=') {
            pj_problem(probs, file, kline, "a line that is neither a [header] nor key = value");
            while (i < len && src[i] != '\n') i++;
            continue;
        }
        bool unterminated;
        size_t e = value_end(src, len, k + 1, false, &line, &unterminated);
        if (unterminated) { pj_problem(probs, file, kline, "unterminated string"); break; }
        sec_idx *s = &PJ_AT(secs, sec_idx, secs.n - 1);
        pj_kv *kv = pj_vec_push(&kvs);
        if (!kv) break;
        if (!s->n_props) s->prop0 = kvs.n - 1;
        kv->key = key_text(a, src + i, k - i);
        kv->value = trimmed(a, src + k + 1, e - k - 1);
        kv->line = kline;
        s->n_props++;
        i = e;
    }
    if (secs.oom || kvs.oom) a->oom = true;
    out->sections = pj_alloc(a, (secs.n ? secs.n : 1) * sizeof(pj_section));
    pj_kv *all = pj_alloc(a, (kvs.n ? kvs.n : 1) * sizeof(pj_kv));
    if (out->sections && all) {
        if (kvs.n) memcpy(all, kvs.p, kvs.n * sizeof(pj_kv));
        for (size_t s = 0; s < secs.n; s++) {
            const sec_idx *x = &PJ_AT(secs, sec_idx, s);
            out->sections[s] = (pj_section){x->tag, all + x->attr0, x->n_attrs, all + x->prop0, x->n_props, x->line};
        }
        out->n_sections = secs.n;
    }
    pj_vec_free(&secs);
    pj_vec_free(&kvs);
}

const pj_kv *pj_kv_find_entry(const pj_kv *kv, size_t n, const char *key) {
    for (size_t i = n; i-- > 0;) /* the last one wins, as when the engine sets them in order */
        if (kv[i].key && strcmp(kv[i].key, key) == 0) return &kv[i];
    return NULL;
}

const char *pj_kv_find(const pj_kv *kv, size_t n, const char *key) {
    const pj_kv *e = pj_kv_find_entry(kv, n, key);
    return e ? e->value : NULL;
}

/* A quoted string at s[0] == '"': its text, escapes undone; *end past the closing quote. */
static char *string_at(pj_arena *a, const char *s, const char **end) {
    if (*s != '"') return NULL;
    size_t n = 0;
    const char *p = s + 1;
    while (*p && *p != '"') { if (*p == '\\' && p[1]) p++; p++; n++; }
    if (*p != '"') return NULL;
    char *o = pj_alloc(a, n + 1), *w = o;
    if (!o) return NULL;
    for (p = s + 1; *p != '"'; p++) {
        char c = *p;
        if (c == '\\' && p[1]) {
            c = *++p;
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        }
        *w++ = c;
    }
    *w = 0;
    if (end) *end = p + 1;
    return o;
}

char *pj_value_string(pj_arena *a, const char *v) {
    if (!v) return NULL;
    if ((v[0] == '&' || v[0] == '^') && v[1] == '"') v++;
    return string_at(a, v, NULL);
}

char *pj_value_call_arg(pj_arena *a, const char *v, const char *callee) {
    if (!v) return NULL;
    size_t n = strlen(callee);
    if (strncmp(v, callee, n) != 0) return NULL;
    const char *p = v + n;
    while (*p == ' ') p++;
    if (*p != '(') return NULL;
    p++;
    while (*p == ' ') p++;
    if (*p == '"') return string_at(a, p, NULL);
    const char *e = p;
    while (*e && *e != ')' && *e != ',' && *e != ' ') e++;
    return e > p ? pj_strndup(a, p, (size_t)(e - p)) : NULL;
}

bool pj_value_int(const char *v, long long *out) {
    if (!v || !*v) return false;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*end) return false;
    *out = x;
    return true;
}

bool pj_value_bool(const char *v, bool *out) {
    if (!v) return false;
    if (strcmp(v, "true") == 0) { *out = true; return true; }
    if (strcmp(v, "false") == 0) { *out = false; return true; }
    return false;
}

size_t pj_value_strings(pj_arena *a, const char *v, const char ***out) {
    *out = NULL;
    if (!v) return 0;
    size_t n = 0;
    for (const char *p = v; *p; p++) {
        if (*p != '"') continue;
        const char *e;
        if (!string_at(a, p, &e)) break;
        n++;
        p = e - 1;
    }
    if (!n) return 0;
    const char **list = pj_alloc(a, n * sizeof *list);
    if (!list) return 0;
    size_t k = 0;
    for (const char *p = v; *p && k < n; p++) {
        if (*p != '"') continue;
        const char *e;
        list[k++] = string_at(a, p, &e);
        p = e - 1;
    }
    *out = list;
    return k;
}

/* SPDX-License-Identifier: MIT */
/* util.c — the project reader's arena, buffers, arrays, map, problem list, and MD5 (RFC 1321). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pj.h"

struct pj_chunk {
    pj_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *pj_alloc(pj_arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!n) n = 16;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        pj_chunk *c = malloc(sizeof *c + cap);
        if (!c) { a->oom = true; return NULL; }
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
        a->used_bytes += cap;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

char *pj_strndup(pj_arena *a, const char *s, size_t n) {
    char *p = pj_alloc(a, n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *pj_strdup(pj_arena *a, const char *s) { return s ? pj_strndup(a, s, strlen(s)) : NULL; }

char *pj_printf(pj_arena *a, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = n < 0 ? NULL : pj_alloc(a, (size_t)n + 1);
    if (p) vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void pj_arena_free(pj_arena *a) {
    for (pj_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->head = NULL;
    a->used_bytes = 0;
}

/* ---- buffers ---- */
void pj_buf_add(pj_buf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) { b->oom = true; return; }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void pj_buf_adds(pj_buf *b, const char *s) { pj_buf_add(b, s, strlen(s)); }

void pj_buf_addf(pj_buf *b, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) { pj_buf_add(b, small, (size_t)n); return; }
    char *big = malloc((size_t)n + 1);
    if (!big) { b->oom = true; return; }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    pj_buf_add(b, big, (size_t)n);
    free(big);
}

void pj_buf_json_str(pj_buf *b, const char *s) {
    if (!s) { pj_buf_adds(b, "null"); return; }
    pj_buf_add(b, "\"", 1);
    const char *run = s;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f) continue;
        pj_buf_add(b, run, (size_t)((const char *)p - run));
        switch (*p) {
        case '"': pj_buf_adds(b, "\\\""); break;
        case '\\': pj_buf_adds(b, "\\\\"); break;
        case '\n': pj_buf_adds(b, "\\n"); break;
        case '\t': pj_buf_adds(b, "\\t"); break;
        case '\r': pj_buf_adds(b, "\\r"); break;
        default: pj_buf_addf(b, "\\u%04x", *p); break;
        }
        run = (const char *)p + 1;
    }
    pj_buf_adds(b, run);
    pj_buf_add(b, "\"", 1);
}

/* ---- arrays ---- */
void *pj_vec_push(pj_vec *v) {
    if (v->oom) return NULL;
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        void *p = realloc(v->p, cap * v->item);
        if (!p) { v->oom = true; return NULL; }
        v->p = p;
        v->cap = cap;
    }
    void *it = (char *)v->p + v->n++ * v->item;
    memset(it, 0, v->item);
    return it;
}

void pj_vec_free(pj_vec *v) {
    free(v->p);
    v->p = NULL;
    v->n = v->cap = 0;
}

/* ---- map ---- */
static size_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a (64-bit: a 32-bit size_t, as in WebAssembly, takes its low bits) */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

bool pj_map_get(const pj_map *m, const char *key, size_t *val) {
    if (!m->cap) return false;
    for (size_t i = hash_str(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) return false;
        if (strcmp(m->keys[i], key) == 0) { if (val) *val = m->vals[i]; return true; }
    }
}

void pj_map_put(pj_map *m, const char *key, size_t val) {
    if (m->oom) return;
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        const char **keys = calloc(cap, sizeof *keys);
        size_t *vals = calloc(cap, sizeof *vals);
        if (!keys || !vals) { free(keys); free(vals); m->oom = true; return; }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i]) continue;
            size_t j = hash_str(m->keys[i]) & (cap - 1);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    size_t i = hash_str(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0) i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
}

void pj_map_free(pj_map *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- problems ---- */
void pj_problem(pj_problems *p, const char *file, unsigned line, const char *fmt, ...) {
    if (p->max && p->list.n >= p->max) { p->dropped++; return; }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gdw_project_problem *pr = pj_vec_push(&p->list);
    if (!pr) return;
    pr->file = pj_strdup(p->arena, file);
    pr->line = line;
    pr->message = pj_strdup(p->arena, msg);
}

/* ---- MD5, RFC 1321 section 3 ---- */
static const uint32_t k_md5_t[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
static const uint8_t k_md5_s[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                     5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                     4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                     6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};

static void md5_block(uint32_t h[4], const uint8_t *p) {
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16) { f = (b & c) | (~b & d); g = i; }
        else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) & 15; }
        else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
        else { f = c ^ (b | ~d); g = (7 * i) & 15; }
        uint32_t t = d;
        d = c;
        c = b;
        uint32_t sum = a + f + k_md5_t[i] + x[g];
        b = b + (sum << k_md5_s[i] | sum >> (32 - k_md5_s[i]));
        a = t;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
}

void pj_md5(const void *data, size_t len, uint8_t out[16]) {
    uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const uint8_t *p = data;
    size_t left = len;
    for (; left >= 64; left -= 64, p += 64) md5_block(h, p);
    uint8_t tail[128] = {0};
    memcpy(tail, p, left);
    tail[left] = 0x80;
    size_t tl = left < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) tail[tl - 8 + i] = (uint8_t)(bits >> (8 * i));
    md5_block(h, tail);
    if (tl == 128) md5_block(h, tail + 64);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(h[i] >> (8 * j));
}

void gdw_rpc_md5(const char *const *names, size_t n, char out[33]) {
    pj_buf b = {0};
    pj_buf_add(&b, "", 0);
    for (size_t i = 0; i < n; i++) pj_buf_adds(&b, names[i]);
    uint8_t d[16];
    pj_md5(b.p ? b.p : "", b.p ? b.len : 0, d);
    free(b.p);
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* SPDX-License-Identifier: MIT */
/* workloads.c — the benchmark value trees (workloads.h). */
#include "bench/workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pool {
    struct pool *next;
    size_t used, cap;
    unsigned char data[];
};

static void *palloc(pool **p, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!*p || (*p)->used + n > (*p)->cap) {
        size_t cap = n > (1u << 20) ? n : (1u << 20);
        pool *q = malloc(sizeof *q + cap);
        if (!q) { fputs("bench: out of memory building a workload\n", stderr); exit(2); }
        q->next = *p, q->used = 0, q->cap = cap;
        *p = q;
    }
    void *r = (*p)->data + (*p)->used;
    (*p)->used += n;
    return r;
}

void pool_free(pool *p) {
    while (p) {
        pool *n = p->next;
        free(p);
        p = n;
    }
}

static gdw_value v_int(int64_t i) { gdw_value v = {.type = GDW_INT, .u.i = i}; return v; }
static gdw_value v_bool(int b) { gdw_value v = {.type = GDW_BOOL, .u.i = b != 0}; return v; }
static gdw_value v_f32(float f) {
    gdw_value v = {.type = GDW_FLOAT, .width = 4};
    uint32_t b;
    memcpy(&b, &f, 4);
    v.u.bits = b;
    return v;
}
static gdw_value v_str(pool **p, const char *s) {
    size_t n = strlen(s);
    uint8_t *b = palloc(p, n + 1);
    memcpy(b, s, n);
    gdw_value v = {.type = GDW_STRING, .len = (uint32_t)n, .u.bytes = b};
    return v;
}
static gdw_value v_items(gdw_type t, gdw_value *items, uint32_t n) { gdw_value v = {.type = (uint8_t)t, .len = n, .u.items = items}; return v; }
static gdw_value v_reals(pool **p, gdw_type t, const float *xs, uint32_t len, size_t ncomp) {
    gdw_value v = {.type = (uint8_t)t, .width = 4, .len = len};
    uint8_t *b = palloc(p, (size_t)len * ncomp * 4 + 1);
    memcpy(b, xs, (size_t)len * ncomp * 4);
    v.u.bytes = b;
    return v;
}

static const gdw_value *wl_vector3_1m(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d;
    uint32_t n = (uint32_t)(1000000 * s);
    float *xs = palloc(p, (size_t)n * 12 + 1);
    for (uint32_t i = 0; i < 3 * n; i++) xs[i] = (float)(i % 1000) * 0.25f - 100.0f;
    gdw_value *v = palloc(p, sizeof *v);
    *v = (gdw_value){.type = GDW_PACKED_VECTOR3_ARRAY, .width = 4, .len = n, .u.bytes = (const uint8_t *)xs};
    *nv = 1 + n;
    return v;
}

static const gdw_value *wl_bytes_64m(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d;
    size_t n = (size_t)(64.0 * 1024 * 1024 * s);
    uint8_t *b = palloc(p, n + 1);
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(i * 131u + (i >> 9));
    gdw_value *v = palloc(p, sizeof *v);
    *v = (gdw_value){.type = GDW_PACKED_BYTE_ARRAY, .len = (uint32_t)n, .u.bytes = b};
    *nv = 1 + n;
    return v;
}

static const gdw_value *wl_float64(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    uint32_t n = (uint32_t)(2000000 * s);
    gdw_type t = gdw_dialect_type_id(d, GDW_PACKED_FLOAT64_ARRAY) >= 0 ? GDW_PACKED_FLOAT64_ARRAY : GDW_PACKED_REAL_ARRAY;
    /* a PoolRealArray of f64 fits only the double builds; elsewhere the encoder refuses it */
    double *xs = palloc(p, (size_t)n * 8 + 1);
    for (uint32_t i = 0; i < n; i++) xs[i] = (double)i * 0.1;
    gdw_value *v = palloc(p, sizeof *v);
    *v = (gdw_value){.type = (uint8_t)t, .width = 8, .len = n, .u.bytes = (const uint8_t *)xs};
    *nv = 1 + n;
    return v;
}

static const gdw_value *wl_dicts_200k(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d;
    uint32_t n = (uint32_t)(200000 * s);
    gdw_value *dicts = palloc(p, (size_t)n * sizeof *dicts);
    gdw_value k_id = v_str(p, "id"), k_name = v_str(p, "name"), k_score = v_str(p, "score"), k_alive = v_str(p, "alive");
    char name[32];
    for (uint32_t i = 0; i < n; i++) {
        gdw_value *kv = palloc(p, 8 * sizeof *kv);
        snprintf(name, sizeof name, "player%u", i);
        kv[0] = k_id, kv[1] = v_int(i);
        kv[2] = k_name, kv[3] = v_str(p, name);
        kv[4] = k_score, kv[5] = v_f32((float)i * 0.5f + 0.25f);
        kv[6] = k_alive, kv[7] = v_bool(i % 3 != 0);
        dicts[i] = v_items(GDW_DICTIONARY, kv, 4);
    }
    gdw_value *v = palloc(p, sizeof *v);
    *v = v_items(GDW_ARRAY, dicts, n);
    *nv = 1 + (size_t)n * 9;
    return v;
}

static const gdw_value *wl_nested_1000(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d, (void)s; /* depth is the point: 1000 at every scale (the decoder's limit is 1024) */
    gdw_value *inner = palloc(p, sizeof *inner);
    *inner = v_int(1);
    for (int i = 0; i < 1000; i++) {
        gdw_value *outer = palloc(p, sizeof *outer);
        *outer = v_items(GDW_ARRAY, inner, 1);
        inner = outer;
    }
    *nv = 1001;
    return inner;
}

static const gdw_value *wl_strings_500k(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d;
    uint32_t n = (uint32_t)(500000 * s);
    gdw_str *strs = palloc(p, (size_t)n * sizeof *strs + 1);
    char buf[32];
    for (uint32_t i = 0; i < n; i++) {
        int len = snprintf(buf, sizeof buf, "item_%u", i);
        uint8_t *b = palloc(p, (size_t)len);
        memcpy(b, buf, (size_t)len);
        strs[i] = (gdw_str){b, (uint32_t)len};
    }
    gdw_value *v = palloc(p, sizeof *v);
    *v = (gdw_value){.type = GDW_PACKED_STRING_ARRAY, .len = n, .u.ext = strs};
    *nv = 1 + n;
    return v;
}

static const gdw_value *wl_utf8(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d;
    static const char *const k[] = {"h\xc3\xa9llo w\xc3\xb6rld", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88",
                                    "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 \xd0\xbc\xd0\xb8\xd1\x80", "emoji \xf0\x9f\x98\x80\xf0\x9f\x8e\xae ok"};
    uint32_t n = (uint32_t)(200000 * s);
    gdw_value *items = palloc(p, (size_t)n * sizeof *items);
    for (uint32_t i = 0; i < n; i++) items[i] = v_str(p, k[i % 4]);
    gdw_value *v = palloc(p, sizeof *v);
    *v = v_items(GDW_ARRAY, items, n);
    *nv = 1 + n;
    return v;
}

static gdw_value tree(pool **p, int depth, int64_t *next) {
    if (depth == 0) return v_int((*next)++);
    gdw_value *kv = palloc(p, 6 * sizeof *kv);
    kv[0] = v_str(p, "l"), kv[1] = tree(p, depth - 1, next);
    kv[2] = v_str(p, "r"), kv[3] = tree(p, depth - 1, next);
    kv[4] = v_str(p, "depth"), kv[5] = v_int(depth);
    return v_items(GDW_DICTIONARY, kv, 3);
}

static const gdw_value *wl_deep_dict(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    (void)d;
    int depth = s >= 1 ? 16 : s >= 0.1 ? 13 : 10;
    int64_t next = 0;
    gdw_value *v = palloc(p, sizeof *v);
    *v = tree(p, depth, &next);
    *nv = (size_t)next * 2 - 1 + (size_t)(next - 1) * 4; /* nodes, leaves, keys and depth values */
    return v;
}

static const gdw_value *wl_game_state(const gdw_dialect *d, double s, pool **p, size_t *nv) {
    gdw_type reals = gdw_dialect_type_id(d, GDW_PACKED_REAL_ARRAY) >= 0 ? GDW_PACKED_REAL_ARRAY : GDW_PACKED_FLOAT32_ARRAY;
    uint32_t players = (uint32_t)(2000 * s) + 1, events = (uint32_t)(4000 * s) + 1;
    size_t count = 0;
    gdw_value *pl = palloc(p, players * sizeof *pl);
    char name[32];
    for (uint32_t i = 0; i < players; i++) {
        gdw_value *kv = palloc(p, 12 * sizeof *kv);
        float pos[3] = {(float)i, 2.5f, -(float)i * 0.5f}, vel[2] = {0.25f * (float)(i % 8), -1.0f};
        float inv[8];
        for (int k = 0; k < 8; k++) inv[k] = (float)(i + k);
        snprintf(name, sizeof name, "hero_%u", i);
        kv[0] = v_str(p, "id"), kv[1] = v_int(100000 + i);
        kv[2] = v_str(p, "name"), kv[3] = v_str(p, name);
        kv[4] = v_str(p, "pos"), kv[5] = v_reals(p, GDW_VECTOR3, pos, 3, 1), kv[5].len = 3;
        kv[6] = v_str(p, "vel"), kv[7] = v_reals(p, GDW_VECTOR2, vel, 2, 1), kv[7].len = 2;
        kv[8] = v_str(p, "hp"), kv[9] = v_f32(100.0f - (float)(i % 100));
        kv[10] = v_str(p, "cooldowns"), kv[11] = v_reals(p, reals, inv, 8, 1);
        pl[i] = v_items(GDW_DICTIONARY, kv, 6);
        count += 1 + 12 + 8;
    }
    gdw_value *ev = palloc(p, events * sizeof *ev);
    for (uint32_t i = 0; i < events; i++) {
        gdw_value *e = palloc(p, 3 * sizeof *e);
        e[0] = v_int(i), e[1] = v_str(p, i % 2 ? "hit" : "spawn"), e[2] = v_f32((float)i * 0.125f);
        ev[i] = v_items(GDW_ARRAY, e, 3);
        count += 4;
    }
    gdw_value *kv = palloc(p, 6 * sizeof *kv);
    kv[0] = v_str(p, "tick"), kv[1] = v_int(123456);
    kv[2] = v_str(p, "players"), kv[3] = v_items(GDW_ARRAY, pl, players);
    kv[4] = v_str(p, "events"), kv[5] = v_items(GDW_ARRAY, ev, events);
    gdw_value *v = palloc(p, sizeof *v);
    *v = v_items(GDW_DICTIONARY, kv, 3);
    *nv = count + 7;
    return v;
}

typedef const gdw_value *(*builder)(const gdw_dialect *, double, pool **, size_t *);
static const struct { workload_info info; builder build; } k_workloads[] = {
    {{"pool_vector3_1m", "PoolVector3Array / PackedVector3Array, 1,000,000 elements", 1}, wl_vector3_1m},
    {{"pool_byte_64m", "PoolByteArray / PackedByteArray, 64 MiB", 1}, wl_bytes_64m},
    {{"packed_float64", "PackedFloat64Array (Godot 4) or f64 PoolRealArray (double builds), 2,000,000 elements", 0}, wl_float64},
    {{"dicts_200k", "Array of 200,000 Dictionaries {id: int, name: String, score: float, alive: bool}", 1}, wl_dicts_200k},
    {{"nested_1000", "1000 nested Arrays", 1}, wl_nested_1000},
    {{"strings_500k", "PoolStringArray / PackedStringArray of 500,000 short strings", 1}, wl_strings_500k},
    {{"utf8_strings", "Array of 200,000 Strings with 2-, 3- and 4-byte UTF-8", 1}, wl_utf8},
    {{"deep_dict", "binary tree of Dictionaries, depth 16 (65,536 leaves)", 1}, wl_deep_dict},
    {{"game_state", "mixed game state: 2000 players (Vector3, Vector2, PoolRealArray or PackedFloat32Array, strings), 4000 events", 1}, wl_game_state},
};

size_t workload_count(void) { return sizeof k_workloads / sizeof k_workloads[0]; }
const workload_info *workload_at(size_t i) { return i < workload_count() ? &k_workloads[i].info : NULL; }
const workload_info *workload_find(const char *name) {
    for (size_t i = 0; i < workload_count(); i++)
        if (!strcmp(k_workloads[i].info.name, name)) return &k_workloads[i].info;
    return NULL;
}

const gdw_value *workload_build(const workload_info *w, const gdw_dialect *d, double scale, pool **p, size_t *values) {
    *p = NULL;
    for (size_t i = 0; i < workload_count(); i++)
        if (&k_workloads[i].info == w) return k_workloads[i].build(d, scale, p, values);
    return NULL;
}

/* SPDX-License-Identifier: MIT */
/* pj.h — what the project reader's files share: an arena, a growing buffer, the problem list, the
 * GDScript scanner's and the text-resource scanner's results. Internal (fuzzers and tests use it). */
#ifndef GDWIRE_PJ_H
#define GDWIRE_PJ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gdwire_project.h"

/* ---- generations ---- */
/* Whether a Godot generation calls RPCs by id and announces each node's MD5 of its RPC names (Godot 4's
 * SceneMultiplayer, docs/multiplayer.md section 2), rather than by name with no checksum (Godot 3). */
static inline bool pj_rpcs_by_id(int godot) { return godot >= 4; }

/* ---- memory ---- */
typedef struct pj_chunk pj_chunk;
typedef struct pj_arena {
    pj_chunk *head;
    size_t used_bytes;
    bool oom;
} pj_arena;
void *pj_alloc(pj_arena *a, size_t n);            /* zeroed; NULL and a->oom on failure */
char *pj_strndup(pj_arena *a, const char *s, size_t n);
char *pj_strdup(pj_arena *a, const char *s);
char *pj_printf(pj_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pj_arena_free(pj_arena *a);

typedef struct pj_buf {
    char *p;
    size_t len, cap;
    bool oom;
} pj_buf;
void pj_buf_add(pj_buf *b, const char *s, size_t n);
void pj_buf_adds(pj_buf *b, const char *s);
void pj_buf_addf(pj_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pj_buf_json_str(pj_buf *b, const char *s); /* a JSON string, or null for NULL */

/* A growing array of fixed-size items in malloc'd memory. */
typedef struct pj_vec {
    void *p;
    size_t n, cap, item;
    bool oom;
} pj_vec;
void *pj_vec_push(pj_vec *v); /* zeroed new item, NULL on no memory */
void pj_vec_free(pj_vec *v);
#define PJ_VEC(type) { NULL, 0, 0, sizeof(type), false }
#define PJ_AT(vec, type, i) (((type *)(vec).p)[i])

/* A string-keyed map to a size_t (open addressing, keys owned by the caller). */
typedef struct pj_map {
    const char **keys;
    size_t *vals;
    size_t n, cap;
    bool oom;
} pj_map;
bool pj_map_get(const pj_map *m, const char *key, size_t *val);
void pj_map_put(pj_map *m, const char *key, size_t val); /* replaces */
void pj_map_free(pj_map *m);

/* A manifest and the arena that holds all it points to: gdw_rpc_manifest_free frees both. */
typedef struct manifest_box {
    gdw_rpc_manifest m;
    pj_arena arena;
} manifest_box;

/* ---- problems ---- */
typedef struct pj_problems {
    pj_arena *arena;
    pj_vec list; /* gdw_project_problem */
    size_t max;  /* more are counted, not kept */
    size_t dropped;
} pj_problems;
void pj_problem(pj_problems *p, const char *file, unsigned line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- md5 (RFC 1321) ---- */
void pj_md5(const void *data, size_t len, uint8_t out[16]);

/* The arguments a call must give: those before the first declared with a default (GDScript allows no
 * required parameter after one with a default, gdscript_parser.cpp:1693 in 4.6.3). (fit.c) */
size_t pj_args_required(const gdw_rpc_arg *args, size_t n);

/* The engines' classes, sorted (engine_classes.c, generated from conformance/projects/classes/godot*.txt): a parameter typed
 * by one of these names is an Object of that class, not an enum (fit.c). */
extern const char *const pj_classes4[], *const pj_classes3[];
extern const size_t pj_classes4_count, pj_classes3_count;

/* ---- GDScript (gdscript.c) ---- */
typedef struct pj_rpc_config {
    bool set;              /* the function has an @rpc or a Godot 3 keyword */
    bool known;            /* its arguments could be read (constants that are literals) */
    gdw_rpc_mode mode;
    bool call_local;
    gdw_transfer_mode transfer_mode;
    int channel;
} pj_rpc_config;

typedef struct pj_func {
    const char *name;
    unsigned line;
    pj_rpc_config rpc;
    gdw_rpc_arg *args;
    size_t n_args;
    const char *rest; /* the rest parameter's name (`...name`), or NULL */
} pj_func;

typedef struct pj_script {
    const char *file;          /* res:// path */
    const char *class_name;    /* NULL if none */
    const char *extends_path;  /* extends "res://x.gd" (as written, maybe relative) */
    const char *extends_name;  /* extends Name or Name.Inner (class or engine type) */
    unsigned extends_line;
    pj_func *funcs;            /* top-level functions, in order */
    size_t n_funcs;
    const char **dynamic;      /* "res://x.gd:12: rpc_config() at run time" */
    size_t n_dynamic;
    bool dynamic_config;       /* one of them changes this node's own RPCs (not only add_child) */
    bool csharp_rpc;           /* a .cs file with [Rpc] */
    bool broken;               /* would not compile: the engine attaches no RPCs */
} pj_script;

/* Scan one script. godot is the project's generation (3 or 4): which syntax the engine accepts. */
void pj_gdscript_scan(const char *src, size_t len, const char *file, int godot, pj_arena *a, pj_problems *probs,
                      pj_script *out);

/* ---- text resources: project.godot, .tscn, .tres (text_resource.c) ---- */
typedef struct pj_kv {
    const char *key;      /* unescaped when quoted */
    const char *value;    /* the raw text of the value, whitespace trimmed */
    unsigned line;
} pj_kv;

typedef struct pj_section {
    const char *tag;      /* "node", "ext_resource", "application", ... */
    pj_kv *attrs;         /* header attributes: name="Player" -> key name, value "\"Player\"" */
    size_t n_attrs;
    pj_kv *props;         /* key = value lines after the header */
    size_t n_props;
    unsigned line;
} pj_section;

typedef struct pj_text_resource {
    pj_section *sections; /* a leading section with tag "" holds lines before any header */
    size_t n_sections;
} pj_text_resource;

void pj_text_resource_scan(const char *src, size_t len, const char *file, pj_arena *a, pj_problems *probs,
                           size_t max_sections, pj_text_resource *out);
const char *pj_kv_find(const pj_kv *kv, size_t n, const char *key);
const pj_kv *pj_kv_find_entry(const pj_kv *kv, size_t n, const char *key);

/* Values as text resources write them. Each returns NULL (or false) when the value is not of that form. */
char *pj_value_string(pj_arena *a, const char *v);                     /* "text" (escapes undone) */
char *pj_value_call_arg(pj_arena *a, const char *v, const char *callee); /* ExtResource("1_x") / ExtResource( 1 ) -> 1_x */
bool pj_value_int(const char *v, long long *out);
bool pj_value_bool(const char *v, bool *out);
/* PackedStringArray("a", "b") or ["a", "b"]: the strings, in order. */
size_t pj_value_strings(pj_arena *a, const char *v, const char ***out);

#endif

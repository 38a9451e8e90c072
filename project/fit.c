/* SPDX-License-Identifier: MIT */
/* fit.c — a manifest's node by path, its method by id or name, and whether the engine would call that
 * method with given arguments (gdw_rpc_args_fit). The rules are the engine's, one row per engine
 * generation (k_rules); each with its citation (docs/rpc-manifest.md, "Which calls the engine runs"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pj.h"

size_t pj_args_required(const gdw_rpc_arg *args, size_t n) {
    size_t i = 0;
    while (i < n && !args[i].has_default) i++;
    return i;
}

/* ---- lookups ---------------------------------------------------------------------------------------- */

const gdw_rpc_node *gdw_rpc_manifest_node(const gdw_rpc_manifest *m, const char *path, size_t path_len, const char *md5) {
    if (!m || !path) return NULL;
    char stack[512], *p = path_len < sizeof stack ? stack : malloc(path_len + 1);
    if (!p) return NULL;
    memcpy(p, path, path_len);
    p[path_len] = 0;
    const gdw_rpc_node *exact = NULL, *named = NULL, *with_md5 = NULL;
    for (size_t i = 0; i < m->n_nodes; i++) {
        const gdw_rpc_node *n = &m->nodes[i];
        bool same = strcmp(n->path, p) == 0;
        if (!same && !gdw_rpc_path_match(n->path, p)) continue;
        if (same && !exact) exact = n;
        if (!named) named = n;
        if (md5 && n->has_md5 && strcmp(n->md5, md5) == 0 && (!with_md5 || (same && strcmp(with_md5->path, p) != 0)))
            with_md5 = n;
    }
    if (p != stack) free(p);
    if (with_md5) return with_md5;
    return exact ? exact : named;
}

const gdw_rpc_method *gdw_rpc_node_method(const gdw_rpc_node *n, int id, const char *name, size_t name_len) {
    if (!n) return NULL;
    for (size_t i = 0; i < n->n_rpcs; i++) {
        const gdw_rpc_method *r = &n->rpcs[i];
        if (name ? strlen(r->name) == name_len && memcmp(r->name, name, name_len) == 0 : id >= 0 && r->id == (unsigned)id)
            return r;
    }
    return NULL;
}

/* ---- the engine's rules ----------------------------------------------------------------------------- */

/* One implicit conversion a typed parameter accepts: a value of type from passed to a parameter of type to. */
typedef struct conversion { gdw_type to, from; } conversion;

/* Godot 4.6.3: GDScriptFunction::call (modules/gdscript/gdscript_vm.cpp:587-616) takes a value of another
 * type when GDScriptDataType::is_type(v, true) holds, that is Variant::can_convert_strict(from, to)
 * (gdscript_function.h:128-130; the table core/variant/variant.cpp:535-864), and then Variant::construct(to,
 * from) (gdscript_vm.cpp:607-615), which takes the first constructor whose argument the value converts to
 * strictly (core/variant/variant_construct.cpp:264-286): each type's copy constructor at least, so every pair
 * of the table constructs. The engine ran each of these (conformance/projects/out/typed4.log). */
static const conversion k_conversions4[] = {
    {GDW_BOOL, GDW_INT}, {GDW_BOOL, GDW_FLOAT}, {GDW_INT, GDW_BOOL}, {GDW_INT, GDW_FLOAT},
    {GDW_FLOAT, GDW_BOOL}, {GDW_FLOAT, GDW_INT},
    {GDW_STRING, GDW_NODE_PATH}, {GDW_STRING, GDW_STRING_NAME}, {GDW_STRING_NAME, GDW_STRING}, {GDW_NODE_PATH, GDW_STRING},
    {GDW_VECTOR2, GDW_VECTOR2I}, {GDW_VECTOR2I, GDW_VECTOR2}, {GDW_RECT2, GDW_RECT2I}, {GDW_RECT2I, GDW_RECT2},
    {GDW_VECTOR3, GDW_VECTOR3I}, {GDW_VECTOR3I, GDW_VECTOR3}, {GDW_VECTOR4, GDW_VECTOR4I}, {GDW_VECTOR4I, GDW_VECTOR4},
    {GDW_TRANSFORM2D, GDW_TRANSFORM3D}, {GDW_QUATERNION, GDW_BASIS}, {GDW_BASIS, GDW_QUATERNION},
    {GDW_TRANSFORM3D, GDW_TRANSFORM2D}, {GDW_TRANSFORM3D, GDW_QUATERNION}, {GDW_TRANSFORM3D, GDW_BASIS},
    {GDW_TRANSFORM3D, GDW_PROJECTION}, {GDW_PROJECTION, GDW_TRANSFORM3D}, {GDW_COLOR, GDW_STRING}, {GDW_COLOR, GDW_INT},
    {GDW_RID, GDW_OBJECT},
    {GDW_ARRAY, GDW_PACKED_BYTE_ARRAY}, {GDW_ARRAY, GDW_PACKED_INT32_ARRAY}, {GDW_ARRAY, GDW_PACKED_INT64_ARRAY},
    {GDW_ARRAY, GDW_PACKED_FLOAT32_ARRAY}, {GDW_ARRAY, GDW_PACKED_FLOAT64_ARRAY}, {GDW_ARRAY, GDW_PACKED_STRING_ARRAY},
    {GDW_ARRAY, GDW_PACKED_COLOR_ARRAY}, {GDW_ARRAY, GDW_PACKED_VECTOR2_ARRAY}, {GDW_ARRAY, GDW_PACKED_VECTOR3_ARRAY},
    {GDW_ARRAY, GDW_PACKED_VECTOR4_ARRAY},
    {GDW_PACKED_BYTE_ARRAY, GDW_ARRAY}, {GDW_PACKED_INT32_ARRAY, GDW_ARRAY}, {GDW_PACKED_INT64_ARRAY, GDW_ARRAY},
    {GDW_PACKED_FLOAT32_ARRAY, GDW_ARRAY}, {GDW_PACKED_FLOAT64_ARRAY, GDW_ARRAY}, {GDW_PACKED_STRING_ARRAY, GDW_ARRAY},
    {GDW_PACKED_COLOR_ARRAY, GDW_ARRAY}, {GDW_PACKED_VECTOR2_ARRAY, GDW_ARRAY}, {GDW_PACKED_VECTOR3_ARRAY, GDW_ARRAY},
    {GDW_PACKED_VECTOR4_ARRAY, GDW_ARRAY},
};

/* Godot 3.6.2: GDScriptFunction::call (modules/gdscript/gdscript_function.cpp:316-333) takes what
 * GDScriptDataType::is_type(v, true) takes (gdscript_function.h:67-74): Variant::can_convert_strict
 * (core/variant.cpp:389-602); Variant::construct's result is used, its error not checked. */
static const conversion k_conversions3[] = {
    {GDW_BOOL, GDW_INT}, {GDW_BOOL, GDW_FLOAT}, {GDW_INT, GDW_BOOL}, {GDW_INT, GDW_FLOAT},
    {GDW_FLOAT, GDW_BOOL}, {GDW_FLOAT, GDW_INT},
    {GDW_STRING, GDW_NODE_PATH}, {GDW_NODE_PATH, GDW_STRING},
    {GDW_TRANSFORM2D, GDW_TRANSFORM3D}, {GDW_QUATERNION, GDW_BASIS}, {GDW_BASIS, GDW_QUATERNION}, {GDW_BASIS, GDW_VECTOR3},
    {GDW_TRANSFORM3D, GDW_TRANSFORM2D}, {GDW_TRANSFORM3D, GDW_QUATERNION}, {GDW_TRANSFORM3D, GDW_BASIS},
    {GDW_COLOR, GDW_STRING}, {GDW_COLOR, GDW_INT}, {GDW_RID, GDW_OBJECT},
    {GDW_ARRAY, GDW_PACKED_BYTE_ARRAY}, {GDW_ARRAY, GDW_PACKED_INT32_ARRAY}, {GDW_ARRAY, GDW_PACKED_STRING_ARRAY},
    {GDW_ARRAY, GDW_PACKED_REAL_ARRAY}, {GDW_ARRAY, GDW_PACKED_COLOR_ARRAY}, {GDW_ARRAY, GDW_PACKED_VECTOR2_ARRAY},
    {GDW_ARRAY, GDW_PACKED_VECTOR3_ARRAY},
    {GDW_PACKED_BYTE_ARRAY, GDW_ARRAY}, {GDW_PACKED_INT32_ARRAY, GDW_ARRAY}, {GDW_PACKED_REAL_ARRAY, GDW_ARRAY},
    {GDW_PACKED_STRING_ARRAY, GDW_ARRAY}, {GDW_PACKED_VECTOR2_ARRAY, GDW_ARRAY}, {GDW_PACKED_VECTOR3_ARRAY, GDW_ARRAY},
    {GDW_PACKED_COLOR_ARRAY, GDW_ARRAY},
};

/* The classes an Object sent as an instance id arrives as: EncodedObjectAsID (core/io/marshalls.cpp:707-715
 * in 4.6.3, 391-398 in 3.6.2), a RefCounted (Reference in Godot 3). */
static const char *const k_encoded_id_classes4[] = {"Object", "RefCounted", "EncodedObjectAsID"};
static const char *const k_encoded_id_classes3[] = {"Object", "Reference", "EncodedObjectAsID"};

typedef struct fit_rules {
    int godot;
    const conversion *conversions;
    size_t n_conversions;
    /* An argument that does not decode: Godot 4's SceneRPCInterface::_process_rpc ignores
     * decode_and_decompress_variants' error and calls with Nil from that argument on
     * (modules/multiplayer/scene_rpc_interface.cpp:288-295; scene/main/multiplayer_api.cpp:261-268); Godot 3's
     * MultiplayerAPI::_process_rpc returns before the call (core/io/multiplayer_api.cpp:307-308 in 3.6.2). */
    bool undecoded_refuses;
    /* A class-typed parameter (Node, a class_name) given a value it does not take: Godot 3 passes null
     * instead when the type takes null (gdscript_function.cpp:323-326 in 3.6.2), so the call runs; Godot 4
     * refuses it (gdscript_vm.cpp:591-597). */
    bool class_takes_null_instead;
    /* A null Object reaches a class-typed parameter: Godot 4 takes it (gdscript_function.h:141-145: no
     * object, not freed); Godot 3's is_type refuses a null object (gdscript_function.h:83-86) and then
     * passes null, the same. */
    const char *const *encoded_id_classes;
    size_t n_encoded_id_classes;
    /* The engine's own classes (ClassDB.get_class_list(), conformance/projects/classes/godot*.txt): a parameter typed by
     * one is no enum. Godot 3's GDScript also takes "_" + the name (_File for File: gdscript_function.h:88-94). */
    const char *const *classes;
    const size_t *n_classes;
    const char *class_prefix;
} fit_rules;

#define N(a) (sizeof(a) / sizeof((a)[0]))
static const fit_rules k_rules[] = {
    {3, k_conversions3, N(k_conversions3), true, true, k_encoded_id_classes3, N(k_encoded_id_classes3), pj_classes3,
     &pj_classes3_count, "_"},
    {4, k_conversions4, N(k_conversions4), false, false, k_encoded_id_classes4, N(k_encoded_id_classes4), pj_classes4,
     &pj_classes4_count, NULL},
};

/* SceneRPCInterface sends at most 255 arguments: the count is one byte (scene_rpc_interface.cpp:311, the
 * sender's ERR_FAIL_COND_MSG(p_argcount > 255, "Too many arguments (>255)."); the receiver reads one byte,
 * :274). Godot 3 likewise (core/io/multiplayer_api.cpp:287, 3.6.2). */
enum { MAX_RPC_ARGS = 255 };

static const fit_rules *rules_for(int godot) {
    for (size_t i = 0; i < N(k_rules); i++)
        if (k_rules[i].godot == godot) return &k_rules[i];
    return &k_rules[N(k_rules) - 1];
}

/* ---- a declared type ---------------------------------------------------------------------------------- */

typedef enum { D_ANY, D_BUILTIN, D_NAMED } decl_kind;
typedef struct decl {
    decl_kind kind;
    gdw_type builtin;      /* D_BUILTIN */
    const char *name;      /* D_NAMED: a class, a class_name or an enum; not NUL-terminated */
    size_t name_len;
    bool typed;            /* Array[E] / Dictionary[K, V] */
    struct { decl_kind kind; gdw_type builtin; const char *name; size_t name_len; } elem[2]; /* E, or K and V */
} decl;

static void trim(const char **s, size_t *n) {
    while (*n && (**s == ' ' || **s == '\t')) (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

/* One type name: Variant, a builtin, or a name (a class or an enum). */
static decl_kind one_type(const char *s, size_t n, gdw_type *builtin, const char **name, size_t *name_len) {
    trim(&s, &n);
    *name = s, *name_len = n;
    if (!n || (n == 7 && memcmp(s, "Variant", 7) == 0)) return D_ANY;
    int t = (n == 6 && memcmp(s, "Object", 6) == 0) ? -1 : gdw_type_from_name(s, n);
    if (t > GDW_NIL) { *builtin = (gdw_type)t; return D_BUILTIN; }
    return D_NAMED;
}

static decl parse_decl(const char *type) {
    decl d = {0};
    if (!type) return d;
    size_t n = strlen(type);
    const char *open = memchr(type, '[', n);
    d.kind = one_type(type, open ? (size_t)(open - type) : n, &d.builtin, &d.name, &d.name_len);
    if (open && d.kind == D_BUILTIN && (d.builtin == GDW_ARRAY || d.builtin == GDW_DICTIONARY)) {
        const char *in = open + 1, *end = type + n;
        while (end > in && end[-1] != ']') end--;
        if (end > in) end--;
        const char *comma = d.builtin == GDW_DICTIONARY ? memchr(in, ',', (size_t)(end - in)) : NULL;
        size_t parts = comma ? 2 : 1;
        const char *from[2] = {in, comma ? comma + 1 : NULL}, *to[2] = {comma ? comma : end, end};
        /* an element type Variant is none: Array[Variant] is an Array, Dictionary[Variant, Variant] a Dictionary
           (the analyzer keeps no element type of kind VARIANT, gdscript_analyzer.cpp:763-780 in 4.6.3) */
        for (size_t i = 0; i < parts; i++) {
            d.elem[i].kind = one_type(from[i], (size_t)(to[i] - from[i]), &d.elem[i].builtin, &d.elem[i].name, &d.elem[i].name_len);
            if (d.elem[i].kind != D_ANY) d.typed = true;
        }
    }
    return d;
}

/* ---- one argument ----------------------------------------------------------------------------------- */

typedef enum { V_FITS, V_REFUSED, V_UNKNOWN } verdict;

static bool converts(const fit_rules *r, gdw_type from, gdw_type to) {
    for (size_t i = 0; i < r->n_conversions; i++)
        if (r->conversions[i].to == to && r->conversions[i].from == from) return true;
    return false;
}

static bool name_is(const char *name, size_t len, const char *s) { return strlen(s) == len && memcmp(name, s, len) == 0; }

static bool listed(const char *const *list, size_t n, const char *name, size_t len) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(list[mid], name, len);
        if (c == 0 && list[mid][len]) c = 1;
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

/* Whether a declared name is one of the engine's classes (then no enum). */
static bool engine_class(const fit_rules *r, const char *name, size_t len) {
    if (listed(r->classes, *r->n_classes, name, len)) return true;
    char prefixed[128];
    if (!r->class_prefix || len + strlen(r->class_prefix) >= sizeof prefixed) return false;
    int n = snprintf(prefixed, sizeof prefixed, "%s%.*s", r->class_prefix, (int)len, name);
    return n > 0 && listed(r->classes, *r->n_classes, prefixed, (size_t)n);
}

/* A container's element type on the wire against the declared one (gdscript_function.h:75-127 in 4.6.3): a
 * builtin equal, a native class of the same name; a script (a path on the wire, a class_name declared) the
 * manifest cannot tell. */
static verdict element_fits(decl_kind kind, gdw_type builtin, const char *name, size_t name_len, const gdw_typedesc *wire) {
    switch (wire->kind) {
    case GDW_DESC_BUILTIN: return kind == D_BUILTIN && builtin == wire->builtin ? V_FITS : V_REFUSED;
    case GDW_DESC_CLASS:
        if (kind != D_NAMED) return V_REFUSED;
        return name_len == wire->name.len && memcmp(name, wire->name.ptr, name_len) == 0 ? V_FITS : V_UNKNOWN;
    case GDW_DESC_SCRIPT: return kind == D_NAMED ? V_UNKNOWN : V_REFUSED;
    default: return V_FITS;
    }
}

static verdict container_fits(const decl *d, const gdw_value *v) {
    const gdw_container *c = (v->flags & GDW_VF_TYPED) ? v->u.ext : NULL;
    bool key_typed = c && d->builtin == GDW_DICTIONARY && c->key.kind != GDW_DESC_NONE;
    bool elem_typed = c && c->elem.kind != GDW_DESC_NONE;
    if (!key_typed && !elem_typed) return V_REFUSED; /* an untyped one: is_type gives false (:90-92, :125-127) */
    verdict out = V_FITS;
    size_t e = d->builtin == GDW_DICTIONARY ? 1 : 0;
    if (key_typed) out = element_fits(d->elem[0].kind, d->elem[0].builtin, d->elem[0].name, d->elem[0].name_len, &c->key);
    if (out != V_REFUSED && elem_typed) {
        verdict w = element_fits(d->elem[e].kind, d->elem[e].builtin, d->elem[e].name, d->elem[e].name_len, &c->elem);
        if (w != V_FITS) out = w;
    }
    return out;
}

/* What an Object value is when it reaches the method: NULL for a null object; its class name otherwise
 * (EncodedObjectAsID for one sent as an id; a full object does not decode with allow_object_decoding false). */
static verdict object_fits(const fit_rules *r, const decl *d, const gdw_value *v, bool a_class) {
    bool null_object = (v->flags & GDW_VF_OBJECT_NULL) || ((v->flags & GDW_VF_OBJECT_ID) && v->u.i == 0);
    if (null_object) return a_class ? V_FITS : V_UNKNOWN; /* an enum refuses it */
    if (a_class && r->class_takes_null_instead) return V_FITS;
    if (v->flags & GDW_VF_OBJECT_ID) {
        for (size_t i = 0; i < r->n_encoded_id_classes; i++)
            if (name_is(d->name, d->name_len, r->encoded_id_classes[i])) return V_FITS;
        /* EncodedObjectAsID is no other class's subclass and has no script: Godot 4 refuses it; Godot 3 runs a
         * class with null (an enum refuses it) */
        return r->class_takes_null_instead ? V_UNKNOWN : V_REFUSED;
    }
    return V_UNKNOWN;
}

static verdict arg_fits(const fit_rules *r, const decl *d, const gdw_value *v, const char **want) {
    *want = NULL;
    gdw_type t = (gdw_type)v->type;
    switch (d->kind) {
    case D_ANY: return V_FITS; /* untyped: gdscript_vm.cpp:580-583 */
    case D_BUILTIN:
        *want = gdw_type_name(d->builtin);
        if (t == d->builtin) return d->typed ? container_fits(d, v) : V_FITS;
        return converts(r, t, d->builtin) ? V_FITS : V_REFUSED;
    case D_NAMED:
    default: {
        /* A class (native or a script's class_name) takes null and objects of its kind (gdscript_function.h:133-
         * 175 in 4.6.3); an enum is an int (gdscript_compiler.cpp:185-193), which bool and float convert to. A name
         * of the engine's classes is a class; of another (a class_name, an enum) the manifest cannot tell: where the
         * two would differ, it does not judge. */
        bool a_class = name_is(d->name, d->name_len, "Object") || engine_class(r, d->name, d->name_len);
        if (t == GDW_OBJECT) return object_fits(r, d, v, a_class);
        bool numeric = t == GDW_INT || t == GDW_BOOL || t == GDW_FLOAT;
        if (r->class_takes_null_instead) /* a class runs with null whatever it is given */
            return a_class || numeric ? V_FITS : V_UNKNOWN;
        if (t == GDW_NIL) return a_class ? V_FITS : V_UNKNOWN;
        return numeric && !a_class ? V_UNKNOWN : V_REFUSED;
    }
    }
}

/* ---- the call --------------------------------------------------------------------------------------- */

static _Thread_local char k_reason[256];

static gdw_rpc_fit refused(size_t arg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static gdw_rpc_fit refused(size_t arg, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k_reason, sizeof k_reason, fmt, ap);
    va_end(ap);
    return (gdw_rpc_fit){false, true, arg, k_reason};
}

static const char *value_type_name(const gdw_value *v) {
    if (v->type == GDW_ARRAY && (v->flags & GDW_VF_TYPED)) return "typed Array";
    if (v->type == GDW_DICTIONARY && (v->flags & GDW_VF_TYPED)) return "typed Dictionary";
    return gdw_type_name((gdw_type)v->type);
}

gdw_rpc_fit gdw_rpc_args_fit(const gdw_rpc_method *m, const gdw_value *const *args, size_t n_args) {
    if (n_args > MAX_RPC_ARGS) return refused(n_args, "%zu arguments: an RPC carries at most 255", n_args);
    if (!m || !m->args_known) return (gdw_rpc_fit){true, false, 0, "the manifest does not give the method's arguments"};
    const fit_rules *r = rules_for(m->godot);
    /* the count: gdscript_vm.cpp:556-571 in 4.6.3, gdscript_function.cpp:295-307 in 3.6.2 */
    if ((n_args > m->n_args && !m->rest) || n_args < m->n_required) {
        if (m->rest) return refused(n_args, "expects at least %zu argument%s, got %zu", m->n_required, m->n_required == 1 ? "" : "s", n_args);
        if (m->n_required == m->n_args)
            return refused(n_args, "expects %zu argument%s, got %zu", m->n_args, m->n_args == 1 ? "" : "s", n_args);
        return refused(n_args, "expects %zu to %zu arguments, got %zu", m->n_required, m->n_args, n_args);
    }
    static const gdw_value nil = {.type = GDW_NIL};
    bool unknown = false;
    /* past the declared ones, the rest parameter's: an untyped Array of them (gdscript_vm.cpp:628-636 in 4.6.3) */
    for (size_t i = 0; i < n_args && i < m->n_args; i++) {
        const gdw_value *v = args ? args[i] : NULL;
        const char *undecoded = v ? "" : " (it did not decode)";
        if (!v) {
            if (r->undecoded_refuses) return refused(i, "argument %zu (%s) does not decode", i + 1, m->args[i].name);
            v = &nil; /* Godot 4 calls with Nil there */
        }
        decl d = parse_decl(m->args[i].type);
        const char *want;
        /* `x := value` the reader could not type: typed all the same (the analyzer infers it) */
        verdict w = m->args[i].inferred && !m->args[i].type ? V_UNKNOWN : arg_fits(r, &d, v, &want);
        if (w == V_UNKNOWN) unknown = true;
        if (w != V_REFUSED) continue;
        if (want)
            return refused(i, "argument %zu (%s): %s expected, got %s%s", i + 1, m->args[i].name, m->args[i].type,
                           value_type_name(v), undecoded);
        return refused(i, "argument %zu (%s): %.*s expected, got %s%s", i + 1, m->args[i].name, (int)d.name_len, d.name,
                       value_type_name(v), undecoded);
    }
    if (unknown) return (gdw_rpc_fit){true, false, 0, "a class or enum type the manifest cannot check"};
    return (gdw_rpc_fit){true, true, 0, NULL};
}

gdw_rpc_call gdw_rpc_manifest_call(const gdw_rpc_manifest *m, const char *path, const char *md5, int id,
                                   const char *name, size_t name_len, const gdw_value *const *args, size_t n_args) {
    gdw_rpc_call c = {0};
    c.node = path ? gdw_rpc_manifest_node(m, path, strlen(path), md5 && md5[0] ? md5 : NULL) : NULL;
    c.md5_differs = c.node && md5 && md5[0] && c.node->has_md5 && strcmp(c.node->md5, md5) != 0;
    c.method = gdw_rpc_node_method(c.node, id, name, name_len);
    if (!c.method) {
        c.fit = (gdw_rpc_fit){true, false, 0, c.node ? "the node has no such method in the manifest" : "no node of the manifest there"};
        return c;
    }
    c.fit = gdw_rpc_args_fit(c.method, args, n_args);
    /* a wrong checksum: the engine only prints it (modules/multiplayer/scene_cache_interface.cpp:119) and runs
       whatever its id names there, which the manifest does not hold; a dynamic node's config may differ */
    if (c.fit.known && (c.md5_differs || c.node->dynamic)) {
        c.fit.known = false;
        if (c.fit.fits) c.fit.reason = c.md5_differs ? "the node's checksum differs: its methods are not the manifest's"
                                                     : "the node is dynamic: its RPCs may differ at run time";
    }
    return c;
}

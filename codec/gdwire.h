/* SPDX-License-Identifier: MIT */
/* gdwire.h — the public API of gdwire, a codec for the binary Variant format of the
 * Godot family of engines (var2bytes / bytes_to_var, store_var / get_var, put_var).
 *
 * Data flow:  bytes -> cursor -> dialect table -> value tree / verdict -> encoder -> bytes.
 * One decoder, validator and encoder serve every dialect; a dialect is a const table
 * (see codec/table/dialects.h). Nothing here keeps global state (but for the "C" locale object
 * numbers are read in, made once; codec/tests/no_state_test.sh): every call is thread-safe as long
 * as its arguments are not shared with a concurrent call that writes them, and none reads or sets
 * the global locale, so a host's LC_NUMERIC changes nothing (codec/tests/threads_test.c, run under
 * TSan).
 *
 * NULL arguments. Any pointer argument may be NULL; no call dereferences one. One rule says
 * what happens then (codec/tests/null_test.c calls every function with each pointer NULL):
 *   - optional outputs and settings may be NULL and the call works: err, consumed, written,
 *     bad_at, out->... fields a comment calls optional; opts and alloc mean the defaults;
 *   - a NULL that the call needs (the dialect, the input, the value, the builder, the output a
 *     result goes to) makes it fail: a gdw_status call returns GDW_ERR_INVALID_ARG (with *err
 *     filled when err is given, and *out_doc NULL); a predicate or gdw_get_* returns false; a
 *     look-up returns NULL, or -1 for the *_from_name look-ups; the counters return 0;
 *     gdw_value_real returns NaN, as for a component out of range (gdwire_check.h states its
 *     own functions' NULL cases);
 *   - a NULL pointer with a count of 0 (gdw_build_string(b, NULL, 0), a packed array of no
 *     elements) is an empty value, not an error;
 *   - printers (text, JSON, base64) with out NULL write nothing and return the
 *     length, as snprintf(NULL, 0, ...); a NULL value prints as "<null>" (text) or "null" (JSON);
 *   - gdw_doc_free and gdw_builder_free take NULL as a no-op; gdw_dialect_name(NULL) is "(null)".
 *
 * This is the API a program that reads and writes packets uses. The tools' API (`gdwire check`'s
 * answer for every dialect, its ranking and threads, the table's listings and evidence) is in
 * gdwire_check.h, installed beside this header, which may change in a minor release
 * (docs/library.md "Which header").
 */
#ifndef GDWIRE_H
#define GDWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; gdw_version() is the library's (they differ only when a program runs
 * with another build of the shared library than it was compiled with). Before 1.0 a minor version
 * may change the API and ABI (docs/library.md "Stability"); CHANGELOG.md says what changed. */
#define GDW_VERSION_MAJOR 0
#define GDW_VERSION_MINOR 2
#define GDW_VERSION_PATCH 0
#define GDW_VERSION "0.2.0"
#define GDW_VERSION_NUMBER (GDW_VERSION_MAJOR * 10000 + GDW_VERSION_MINOR * 100 + GDW_VERSION_PATCH)

/* GDW_API marks what the library exports; a shared build (CMake) hides every other symbol. */
#if defined(_WIN32) && defined(GDW_SHARED_BUILD)
#define GDW_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define GDW_API __attribute__((visibility("default")))
#else
#define GDW_API
#endif

/* gdw_version: the library's version, "MAJOR.MINOR.PATCH"; gdw_version_number: as
 * GDW_VERSION_NUMBER. */
GDW_API const char *gdw_version(void);
GDW_API unsigned gdw_version_number(void);

/* ---------------------------------------------------------------------------------------
 * Status codes. Numbered in bands: 1xx malformed input, 2xx non-canonical input (strict
 * mode), 3xx limits and resources, 4xx encoder and API misuse, 5xx text form.
 * gdw_strerror() gives a constant message for every code.
 * ------------------------------------------------------------------------------------- */
typedef enum gdw_status {
    GDW_OK = 0,
    GDW_ERR_TRUNCATED = 100,          /* input ended inside a value: more bytes could complete it */
    GDW_ERR_UNKNOWN_TYPE = 101,       /* type id not in this dialect's table */
    GDW_ERR_BAD_LENGTH = 102,         /* a byte length is negative or overflows */
    GDW_ERR_BAD_COUNT = 103,          /* an element count is negative, overflows or cannot fit */
    GDW_ERR_BAD_UTF8 = 104,           /* string bytes are not UTF-8 under this dialect's rules */
    GDW_ERR_BAD_NODEPATH = 105,       /* NodePath in the old (pre-2.1.5) string form */
    GDW_ERR_OBJECTS_DISALLOWED = 106, /* full Object on the wire and objects not allowed */
    /* a field holds a value the engine rejects (Image format, type descriptor) */
    GDW_ERR_BAD_VALUE = 107,
    /* engine-exact mode: the real engine rejects this valid input (a known defect) */
    GDW_ERR_ENGINE_DEFECT = 108,
    GDW_ERR_BAD_FLAGS = 200,        /* strict: header bits the dialect's encoder never sets */
    GDW_ERR_NONZERO_PADDING = 201,  /* strict: padding bytes are not zero */
    GDW_ERR_TRAILING_BYTES = 202,   /* strict: bytes after the top-level value */
    GDW_ERR_NON_CANONICAL = 203,    /* strict: a form the dialect's encoder never writes */
    GDW_ERR_DEPTH = 300,            /* nesting deeper than the depth limit */
    GDW_ERR_TOO_LARGE = 301,        /* input larger than the max_size limit */
    GDW_ERR_NOMEM = 302,            /* an allocation failed */
    GDW_ERR_UNSUPPORTED_TYPE = 400, /* encode: the dialect has no such type */
    GDW_ERR_LOSSY = 401,            /* encode: the value does not fit the dialect's field exactly */
    GDW_ERR_INVALID_ARG = 402,      /* a NULL or malformed argument, an unknown option */
    GDW_ERR_INVALID_TREE = 403,     /* encode: the value tree is malformed (bad type or counts) */
    GDW_ERR_SYNTAX = 500            /* text form: cannot parse */
} gdw_status;

/* gdw_strerror: constant English message for a status; never NULL ("unknown status" for
 * codes outside the table). */
GDW_API const char *gdw_strerror(gdw_status code);
/* gdw_status_name: the enum's name without prefix, e.g. "TRUNCATED"; never NULL. */
GDW_API const char *gdw_status_name(gdw_status code);
/* gdw_status_from_name: reverse of gdw_status_name; returns -1 for an unknown name. */
GDW_API int gdw_status_from_name(const char *name);

/* The engine's own Error value the real engine would report for a rejection. */
typedef enum gdw_engine_error {
    GDW_ENGINE_OK = 0,
    GDW_ENGINE_ERR_OUT_OF_MEMORY = 6,
    GDW_ENGINE_ERR_FILE_EOF = 18,
    GDW_ENGINE_ERR_UNAVAILABLE = 2,
    GDW_ENGINE_ERR_UNAUTHORIZED = 3,
    GDW_ENGINE_ERR_INVALID_DATA = 30,
    GDW_ENGINE_NONE = -1 /* no engine counterpart (strict-mode findings, gdwire limits) */
} gdw_engine_error;
GDW_API const char *gdw_engine_error_name(gdw_engine_error e);

#define GDW_PATH_MAX 160

/* Where and why a call failed. offset is the byte offset of the field that failed;
 * value_offset the offset of the header of the innermost value being read. path names the
 * value inside containers: [3] array index, {"pos"} dictionary value by string key,
 * {#2} value of the 3rd key, {#2 key} the key itself, ."name" an Object property, .#1 the
 * name of the 2nd property. Text from the input shows at most 24 bytes, then "...": printable ASCII
 * as is, any other byte as \xHH (a path never carries a control byte). JSON input errors use
 * .member and [i]. */
typedef struct gdw_error {
    gdw_status code;
    size_t offset;
    size_t value_offset;
    gdw_engine_error engine_error;
    const char *message; /* constant, never NULL after a failed call */
    char path[GDW_PATH_MAX];
    /* GDW_ERR_TRUNCATED from a decode: how many more bytes the value needs at least (the read that
     * ran out wanted them; a cut packet's missing tail is this or longer); 0 otherwise */
    size_t short_by;
} gdw_error;

/* ---------------------------------------------------------------------------------------
 * Allocation. Every allocating call takes an allocator; NULL means the C library's.
 * ------------------------------------------------------------------------------------- */
typedef struct gdw_allocator {
    void *(*malloc_fn)(void *ctx, size_t size);
    void *(*realloc_fn)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free_fn)(void *ctx, void *ptr, size_t size);
    void *ctx;
} gdw_allocator;

/* ---------------------------------------------------------------------------------------
 * The value model: the union of every dialect's types.
 * ------------------------------------------------------------------------------------- */
typedef enum gdw_type {
    GDW_NIL = 0,
    GDW_BOOL,
    GDW_INT,
    GDW_FLOAT,
    GDW_STRING,
    GDW_VECTOR2,
    GDW_VECTOR2I,
    GDW_RECT2,
    GDW_RECT2I,
    GDW_VECTOR3,
    GDW_VECTOR3I,
    GDW_TRANSFORM2D,
    GDW_VECTOR4,
    GDW_VECTOR4I,
    GDW_PLANE,
    GDW_QUATERNION,
    GDW_AABB,
    GDW_BASIS,
    GDW_TRANSFORM3D,
    GDW_PROJECTION,
    GDW_COLOR,
    GDW_STRING_NAME,
    GDW_NODE_PATH,
    GDW_RID,
    GDW_OBJECT,
    GDW_CALLABLE,
    GDW_SIGNAL,
    GDW_DICTIONARY,
    GDW_ARRAY,
    GDW_TYPED_ARRAY,        /* Pandemonium 5 TYPED_ARRAY */
    GDW_PACKED_TYPED_ARRAY, /* Pandemonium 5 PACKED_TYPED_ARRAY */
    GDW_PACKED_BYTE_ARRAY,
    GDW_PACKED_INT32_ARRAY,
    GDW_PACKED_INT64_ARRAY,
    GDW_PACKED_REAL_ARRAY,    /* Godot 2/3 and Pandemonium PoolRealArray: real_t elements */
    GDW_PACKED_FLOAT32_ARRAY, /* Godot 4: always f32 */
    GDW_PACKED_FLOAT64_ARRAY,
    GDW_PACKED_STRING_ARRAY,
    GDW_PACKED_VECTOR2_ARRAY,
    GDW_PACKED_VECTOR2I_ARRAY,
    GDW_PACKED_VECTOR3_ARRAY,
    GDW_PACKED_VECTOR3I_ARRAY,
    GDW_PACKED_VECTOR4_ARRAY,
    GDW_PACKED_VECTOR4I_ARRAY,
    GDW_PACKED_COLOR_ARRAY,
    GDW_IMAGE,       /* Godot 2 only */
    GDW_INPUT_EVENT, /* Godot 2 only */
    GDW_TYPE_COUNT
} gdw_type;

/* gdw_type_name: the canonical text name ("Vector2", "PackedInt32Array", ...). */
GDW_API const char *gdw_type_name(gdw_type t);
/* gdw_type_from_name: reverse lookup; -1 if unknown. Accepts Godot 3 aliases (Quat,
 * Transform, PoolIntArray, ...). */
GDW_API int gdw_type_from_name(const char *name, size_t len);

typedef struct gdw_value gdw_value;

typedef struct gdw_str {
    const uint8_t *ptr; /* not NUL-terminated; may hold any bytes */
    uint32_t len;
} gdw_str;

/* Value flags (gdw_value.flags). */
#define GDW_VF_INT64_WIRE 0x0001u  /* INT came as 64-bit on the wire */
#define GDW_VF_SHARED 0x0002u      /* Godot 2 container "shared" bit */
#define GDW_VF_OBJECT_ID 0x0004u   /* Object carried as an instance id */
#define GDW_VF_OBJECT_NULL 0x0008u /* null Object */
#define GDW_VF_RID_ID 0x0010u      /* RID carries a 64-bit id (Godot 4) */
#define GDW_VF_TYPED 0x0020u       /* container has a type descriptor (u.ext is gdw_container) */
/* engine-exact mode: the engine holds another value here, one gdwire does not compute, so this one
 * is as written (gdw_doc_approximate); equality and encoding ignore the flag */
#define GDW_VF_APPROXIMATE 0x0040u

/* Container element type descriptor (Godot 4.3+ typed Array, 4.4+ typed Dictionary,
 * Pandemonium 5 TYPED_ARRAY). */
typedef enum gdw_desc_kind {
    GDW_DESC_NONE = 0, /* Variant: any type */
    /* builtin type; .builtin (GDW_TYPE_COUNT if the wire id had no mapping) */
    GDW_DESC_BUILTIN = 1,
    GDW_DESC_CLASS = 2, /* native class name in .name */
    GDW_DESC_SCRIPT = 3 /* script path in .name */
} gdw_desc_kind;

typedef struct gdw_typedesc {
    uint8_t kind;     /* gdw_desc_kind */
    uint8_t builtin;  /* gdw_type, for GDW_DESC_BUILTIN */
    uint8_t id_only;  /* Pandemonium 5 Object arrays: class name omitted (header bit 16) */
    uint32_t wire_id; /* the builtin id as on the wire (kept for unmapped ids) */
    gdw_str name;     /* class name or script path */
} gdw_typedesc;

typedef struct gdw_container {
    gdw_typedesc key;  /* Dictionary key type; unused for arrays */
    gdw_typedesc elem; /* Array element / Dictionary value type */
    gdw_value *items;  /* arrays: len items; dictionaries: 2*len (key, value, ...) */
} gdw_container;

typedef struct gdw_nodepath {
    uint32_t name_count;
    uint32_t subname_count;
    uint32_t flags; /* bit0 absolute; bit1 (Godot 2) last subname is the property */
    gdw_str *parts; /* names then subnames */
} gdw_nodepath;

typedef struct gdw_object {
    gdw_str class_name;
    gdw_value *props; /* 2*count values: name (GDW_STRING), value, ... (count = value.len) */
} gdw_object;

typedef struct gdw_signal {
    gdw_str name;
    uint64_t object_id;
} gdw_signal;

typedef struct gdw_image {
    uint32_t format, mipmaps, width, height;
    gdw_str data;
} gdw_image;

typedef struct gdw_input_event {
    uint32_t type, device, llen;
    uint32_t extra_count; /* 0..2 */
    uint32_t extra[2];    /* raw words: modifiers+scancode, button index, axis[+f32 value bits] */
} gdw_input_event;

/* One value: 16 bytes. Fixed-size math types and packed arrays keep their components as
 * raw little-endian bytes exactly as on the wire (width 4 or 8 per real component), so a
 * re-encode is bit-exact, NaN payloads included. Accessors below hide the layout.
 *
 *  type            len                    u
 *  NIL, CALLABLE   0                      -
 *  BOOL            0                      i (0/1)
 *  INT             0                      i (int64)
 *  FLOAT           0                      bits (f32 bits if width 4, f64 bits if 8)
 *  STRING,NAME     byte length            bytes
 *  math types      component count        bytes (len * width bytes; i32 for *I types)
 *  COLOR           4                      bytes (4 x f32)
 *  NODE_PATH       0                      ext -> gdw_nodepath
 *  RID             0                      i (id; flag GDW_VF_RID_ID when on the wire)
 *  OBJECT          property count         i (id, GDW_VF_OBJECT_ID) or ext -> gdw_object
 *  SIGNAL          0                      ext -> gdw_signal
 *  ARRAY, TYPED    element count          items, or ext -> gdw_container if GDW_VF_TYPED
 *  DICTIONARY      pair count             items (2*len), or ext -> gdw_container
 *  PACKED_*        element count          bytes (raw LE elements); STRING: ext -> gdw_str[]
 *  IMAGE           0                      ext -> gdw_image
 *  INPUT_EVENT     0                      ext -> gdw_input_event
 */
struct gdw_value {
    uint8_t type;   /* gdw_type */
    uint8_t width;  /* bytes per real component: 4 or 8 (0 where no reals) */
    uint16_t flags; /* GDW_VF_* */
    uint32_t len;
    union {
        int64_t i;
        uint64_t bits;
        const uint8_t *bytes;
        gdw_value *items;
        void *ext;
    } u;
};

/* Component helpers for math types and packed arrays. */
GDW_API size_t gdw_type_components(gdw_type t); /* per value or per element; 0 if not fixed */
GDW_API bool gdw_type_has_reals(gdw_type t);    /* components are reals (width 4/8) */
/* component i of a real-based value */
GDW_API double gdw_value_real(const gdw_value *v, size_t i);
/* component i of an integer-based value */
GDW_API int64_t gdw_value_int_at(const gdw_value *v, size_t i);
GDW_API const gdw_value *gdw_items(const gdw_value *v); /* array/dict items, NULL if none */
/* gdw_value_reals: components from, from + 1, ... of a real-based value (a float, a math value, a
 * packed array of reals) as doubles into out[0..n); returns how many it wrote: fewer than n where
 * the value has fewer components, 0 for any other value. Exact: every f32 is a double. */
GDW_API size_t gdw_value_reals(const gdw_value *v, size_t from, size_t n, double *out);

/* gdw_children: the children of v in wire order, as one array: an Array's or typed Array's items;
 * a Dictionary's keys and values alternating (slot 2i the key of entry i, 2i + 1 its value); a full
 * Object's property names and values alternating the same way. Returns their number and sets
 * *items (if items is not NULL) to the first, or to NULL when it returns 0: for scalars, packed
 * arrays, null Objects and Object ids, empty containers and NULL. The one definition of a value's
 * children: every walk in gdwire goes through it. */
GDW_API size_t gdw_children(const gdw_value *v, const gdw_value **items);

/* gdw_visit: every value of the tree at root, depth first in wire order (gdw_children), without
 * recursion (a few KiB of C stack at any depth). fn is called with GDW_VISIT_PRE before a value's
 * children when events has GDW_VISIT_PRE, and with GDW_VISIT_POST after them when events has
 * GDW_VISIT_POST (post-order); parent is NULL and slot 0 for root, depth 0 at root. fn's answer:
 * GDW_VISIT_GO; GDW_VISIT_SKIP (to PRE) leaves out the value's children, its POST still comes;
 * GDW_VISIT_STOP ends the walk there. Returns true when every value was visited; false when fn
 * stopped the walk, root or fn is NULL, or the tree is deeper than any decode makes it
 * (GDW_HARD_MAX_DEPTH + 1 levels below root, only a tree made by hand): no value below that is
 * visited. */
typedef enum gdw_visit_event { GDW_VISIT_PRE = 1, GDW_VISIT_POST = 2 } gdw_visit_event;
typedef enum gdw_visit_answer {
    GDW_VISIT_GO = 0,
    GDW_VISIT_SKIP = 1,
    GDW_VISIT_STOP = 2
} gdw_visit_answer;
typedef gdw_visit_answer (*gdw_visit_fn)(void *ctx, gdw_visit_event event, const gdw_value *v,
                                         const gdw_value *parent, size_t slot, unsigned depth);
GDW_API bool gdw_visit(const gdw_value *root, unsigned events, gdw_visit_fn fn, void *ctx);
GDW_API const gdw_container *gdw_container_of(const gdw_value *v); /* typed descriptor or NULL */

/* gdw_value_equal: exact structural equality (same type, width, flags that matter, bits). NULL
 * equals only NULL; a value whose type is out of range equals nothing but the same pointer. */
GDW_API bool gdw_value_equal(const gdw_value *a, const gdw_value *b);
/* gdw_value_same_numbers: as gdw_value_equal, but a real stored as f32 equals one stored as
 * f64 when widening it gives exactly that f64 (NaN payloads as the C conversion widens them):
 * what a double-precision dialect makes of a single-precision value. */
GDW_API bool gdw_value_same_numbers(const gdw_value *a, const gdw_value *b);
/* gdw_typedesc_equal: two container element types are the same (a builtin's wire id counts only
 * for ids with no type; a class or script by its name). */
GDW_API bool gdw_typedesc_equal(const gdw_typedesc *a, const gdw_typedesc *b);

/* ---------------------------------------------------------------------------------------
 * Dialects (the tables live in codec/table/dialects.c; a row is read through the calls below).
 * ------------------------------------------------------------------------------------- */
typedef struct gdw_dialect gdw_dialect;

/* gdw_dialect_find: a dialect or an engine release by name or alias ("godot3", "godot2",
 * "godot4.4", "godot3@3.2", "godot3.2"); NULL if unknown. */
GDW_API const gdw_dialect *gdw_dialect_find(const char *name);
/* gdw_dialect_count / gdw_dialect_at: every dialect (one per wire format), in table order. Each
 * behaves as its newest engine release in engine-exact mode. */
GDW_API size_t gdw_dialect_count(void);
GDW_API const gdw_dialect *gdw_dialect_at(size_t i);
GDW_API const char *gdw_dialect_name(const gdw_dialect *d);


/* The values of the rules that take more than yes or no. */
/* How the real components of math types and real-based packed arrays are sized. */
typedef enum gdw_real_mode {
    GDW_REALS_F32 = 0, /* always 4 bytes (single-precision builds of 2.x, 3.x, Pandemonium) */
    /* always 8 bytes, no flag (the documented double builds of 3.x / Pandemonium) */
    GDW_REALS_F64 = 1,
    GDW_REALS_FLAG64 = 2 /* header bit 16 selects 8 bytes (Godot 4) */
} gdw_real_mode;

/* How the engine's encoder sizes an INT. */
typedef enum gdw_int_encoding {
    GDW_INT_MINIMAL = 0,  /* i32 unless the value needs 64 bits (3.1+, 4.x, Pandemonium) */
    GDW_INT_ALWAYS64 = 1, /* every int as flag + i64 (3.0.x, #15383) */
    GDW_INT_ALWAYS32 = 2  /* every int as i32, no flag exists (2.x as released) */
} gdw_int_encoding;

/* Which UTF-8 the engine's string reader accepts. */
typedef enum gdw_utf8_rule {
    GDW_UTF8_UNCHECKED = 0, /* no check at all (2.x before 2.1.5) */
    /* 3.x parse_utf8: 1-6 byte forms, surrogates allowed, weak overlong test */
    GDW_UTF8_GODOT3 = 1,
    /* RFC 3629: no overlongs, surrogates or code points above U+10FFFF (4.x; Pandemonium v3.8+,
     * core/string/ustring.cpp parse_utf8, measured on a v4.9.0 build) */
    GDW_UTF8_STRICT = 2
} gdw_utf8_rule;

/* What a string holds after the engine's UTF-8 decoder (engine-exact mode; codec/engine/settle.c),
 * written back as the engine's String::utf8() writes it. */
typedef enum gdw_utf8_value {
    /* the bytes as written (4.x: its reader is strict; 2.x and Pandemonium: not measured) */
    GDW_UTF8_VALUE_BYTES = 0,
    /* 3.x parse_utf8: each accepted form is the code point it encodes, written back shortest (1-6
     * bytes): overlong forms become the character, surrogates stay (measured on 3.2.3) */
    GDW_UTF8_VALUE_GODOT3 = 1,
    /* ... and a high surrogate followed by a low one is one character, any other surrogate a space
     * (3.5+, godotengine/godot PR #54625; measured on 3.6.2, and on Pandemonium v3.5.0) */
    GDW_UTF8_VALUE_GODOT35 = 2
} gdw_utf8_value;

/* How the engine's string readers check a string against the bytes left (engine-exact and
 * compatible mode; codec/table/dialects.h, gdw_strings_facts). */
typedef enum gdw_string_reader {
    /* length and padding must fit, else ERR_FILE_EOF; no old-form NodePath (the shared
     * _decode_string of the 2018 hardening, #20558: 2.1.5+, 3.0.6+, 3.1+, 4.x, Pandemonium) */
    GDW_STRINGS_HARDENED = 0,
    /* 3.0.0-3.0.5: a String's padding is stepped over unchecked (ERR_FILE_EOF when its bytes run
     * past the end), a NodePath part's is checked and a PoolStringArray entry's is not
     * (ERR_INVALID_DATA for both), and the old-form NodePath is read (measured on 3.0-stable) */
    GDW_STRINGS_GODOT30 = 1,
    GDW_STRINGS_GODOT2 = 2 /* 2.0-2.1.4: as 3.0.0, with ERR_INVALID_DATA everywhere */
} gdw_string_reader;

/* What the engine makes of a typed container's elements (engine-exact mode; codec/engine/settle.c).
 * */
typedef enum gdw_typed_rule {
    GDW_TYPED_AS_WRITTEN = 0, /* kept as written (no typed containers, or not modelled) */
    /* Godot 4.4+ ContainerTypeValidate: typed Array elements and typed Dictionary keys kept,
     * converted (Variant::can_convert_strict) or dropped; element type Nil is untyped; Object types
     * become EncodedObjectAsID without objects (measured on 4.6.3) */
    GDW_TYPED_CONVERT = 1,
    /* Pandemonium 5 TypedArray / PackedTypedArray::can_take_variant: an element of exactly the
     * element type is kept (Nil too where it is Object), any other dropped; a decoded object id is
     * an EncodedObjectAsID, kept where that class is the element class or one it inherits (measured
     * on v5.2.0) */
    GDW_TYPED_SAME_TYPE = 2,
    /* Godot 4.3 ContainerTypeValidate::validate: an element of the type is kept, Nil too in an
     * Object type; a StringName into String, a String into StringName and an int into float
     * (through a C float) are converted; any other is dropped; Object types become
     * EncodedObjectAsID without objects (measured on a 4.3-stable build) */
    GDW_TYPED_VALIDATE = 3
} gdw_typed_rule;

/* The rules a row states (codec/table/dialects.h has each one's sources). gdw_dialect_rule: the
 * rule's value in the row: 0 or 1 for a yes-or-no rule, else a value of the enum its comment
 * names; -1 for an unknown rule or a NULL row. gdw_rule_name (gdwire_check.h): its name. */
typedef enum gdw_rule {
    /* gdw_real_mode: how math and real-array components are sized */
    GDW_RULE_REAL_MODE,
    /* FLAG64 rows: the encoder sets bit 16 on math types (a precision=double build) */
    GDW_RULE_ENCODE_MATH_F64,
    GDW_RULE_FLOAT_ENCODE_F32_ONLY, /* FLOAT is always written as f32 (2.x) */
    /* engine-exact: 64-bit math components are narrowed to f32 (4.x single builds) */
    GDW_RULE_NARROW_MATH_F64,
    GDW_RULE_INT_ENCODING, /* gdw_int_encoding: how the engine's encoder sizes an INT */
    /* engine-exact: the whole header word must be a type id, no flag bits (2.x) */
    GDW_RULE_ENGINE_HEADER_WHOLE,
    GDW_RULE_RID_HAS_ID,             /* RID carries a 64-bit id (4.x) */
    GDW_RULE_OBJECT_HEADER_ONLY,     /* Object never carries a payload (2.x) */
    GDW_RULE_NODEPATH_PROPERTY_BIT,  /* NodePath flag bit 1 is a separate property (2.x) */
    GDW_RULE_NODEPATH_BARE_ABSOLUTE, /* a NodePath without parts keeps its absolute flag (4.x) */
    GDW_RULE_CONTAINER_SHARED_BIT,   /* Array/Dictionary count bit 31 is "shared" (2.x) */
    GDW_RULE_TYPED_ARRAY_BITS,       /* ARRAY header bits 16-17 give the element type (4.3+) */
    /* DICTIONARY header bits 16-19 give the key and value types (4.4+) */
    GDW_RULE_TYPED_DICT_BITS,
    /* gdw_utf8_rule: the UTF-8 the engine's string reader accepts */
    GDW_RULE_UTF8_RULE,
    /* compatible mode: no UTF-8 check, padding may be missing (2.x before 2.1.5) */
    GDW_RULE_LENIENT_STRINGS,
    /* gdw_utf8_value: what an accepted string holds (engine-exact) */
    GDW_RULE_UTF8_VALUE,
    GDW_RULE_NODEPATH_OLD_STRING, /* compatible mode: the pre-2.1.5 NodePath string form */
    /* engine-exact: Projection decode wants 248 bytes left (Pandemonium) */
    GDW_RULE_DEFECT_PROJECTION_248,
    /* engine-exact: Vector4 arrays decode w from the z slot (Pandemonium) */
    GDW_RULE_DEFECT_VEC4_POOL_W,
    /* engine-exact: Vector4 decode moves on by 12 bytes (Pandemonium v3.8+) */
    GDW_RULE_DEFECT_VEC4_ADVANCE_12,
    /* a JOYSTICK_MOTION InputEvent carries its axis value (2.1) */
    GDW_RULE_JOYSTICK_AXIS_VALUE,
    /* the encoder writes a null Object as an Object with no class name (3.0, 3.1) */
    GDW_RULE_NULL_OBJECT_AS_CLASS,
    /* gdw_typed_rule: what the engine keeps of a typed container's elements */
    GDW_RULE_TYPED_RULE,
    GDW_RULE_MERGE_DICT_KEYS, /* Dictionary keys the engine finds equal are one entry */
    /* ... and NaN equals NaN inside Arrays compared as keys (3.x) */
    GDW_RULE_KEYS_NESTED_NAN_EQUAL,
    GDW_RULE_KEYS_DICTS_BY_IDENTITY, /* ... and two Dictionaries are never one key (3.x) */
    /* ... and a String and a StringName with the same text are one key (4.x) */
    GDW_RULE_KEYS_STRING_LIKE,
    GDW_RULE_KEYS_NAME_TO_STRING, /* a StringName key becomes a String key (4.3) */
    /* gdw_string_reader: how strings are checked against the bytes left */
    GDW_RULE_STRING_READER,
    /* the encoder writes a NaN FLOAT as a quiet f32 (3.0, built with -ffast-math) */
    GDW_RULE_FLOAT_NAN_F32,
    /* gdw_multiplayer: the high-level multiplayer layer above the Variants (session/) */
    GDW_RULE_MULTIPLAYER,
    GDW_RULE_COUNT
} gdw_rule;

/* The multiplayer layer a row's engines put around their Variants, as the session library
 * (session/gdwire_session.h) reads it: Godot 4's SceneMultiplayer (4.3+: CONFIRM_PATH by cache id),
 * Godot 3.2+'s MultiplayerAPI over an 8-byte ENet header; NONE where it is not read (Godot 2 has no
 * such layer; Godot 3.0-3.1 put 12 bytes on ENet; Godot 4.0-4.2 confirm by path; Pandemonium from
 * v3.8.0 numbers its commands otherwise). */
typedef enum gdw_multiplayer {
    GDW_MULTIPLAYER_NONE = 0,
    GDW_MULTIPLAYER_SCENE4 = 1,
    GDW_MULTIPLAYER_API3 = 2
} gdw_multiplayer;
GDW_API int gdw_dialect_rule(const gdw_dialect *d, gdw_rule r);

/* ---------------------------------------------------------------------------------------
 * Decoding and validation.
 * ------------------------------------------------------------------------------------- */
typedef enum gdw_mode {
    GDW_MODE_COMPATIBLE = 0,  /* accept what the engine accepts, decode it as the engine does */
    GDW_MODE_STRICT = 1,      /* accept only what the dialect's own encoder writes */
    GDW_MODE_ENGINE_EXACT = 2 /* predict the real engine's verdict, defects included */
} gdw_mode;

GDW_API const char *gdw_mode_name(gdw_mode m);
GDW_API int gdw_mode_from_name(const char *name); /* -1 if unknown */

#define GDW_DEFAULT_MAX_DEPTH 1024u
#define GDW_HARD_MAX_DEPTH 1024u /* the deepest limit a caller may ask for */

/* A field of the input as the decoder reads it (gdw_decode_options.trace): what `gdwire explain`
 * prints. Fields come in input order; a value's "header" comes first, then its own fields and its
 * children's. A field is reported as soon as its bytes are taken, before the checks on it, so the
 * failing field of a rejected input is the last one reported (or the error lies just past it). */
typedef struct gdw_trace_event {
    size_t offset;  /* first byte of the field */
    size_t size;    /* its length in bytes (0 for an empty string's bytes) */
    unsigned depth; /* nesting depth of the value it belongs to (0: top level) */
    gdw_type type;  /* that value's type; GDW_TYPE_COUNT for a header with an unknown id */
    /* "header", "value", "length", "bytes", "padding", "count", "components", "elements", "element
     * type", "class header", "name count", "subname count", "flags", "id", "object id", "property
     * count", "format", "mipmaps", "width", "height", "data length", "event type", "device",
     * "word"; and, once the value is read, "not computed" (engine-exact mode, gdw_decode only: a
     * value the engine would hold otherwise; offset is the value's end, number the element type it
     * enters, path its place, note why) and "undefined conversion" (the same fields: a conversion
     * the engine's C++ leaves undefined, gdw_doc_undefined_conversions) */
    const char *field;
    /* the field as a number where it is one: header word, length, count, int, float bits; for
     * "components" and "elements" the bytes per component */
    int64_t number;
    /* "header", "not computed" and "undefined conversion": where the value sits, as in
     * gdw_error.path ("" at the top) */
    const char *path;
    /* "not computed" and "undefined conversion" only: what the engine does there */
    const char *note;
} gdw_trace_event;

typedef void (*gdw_trace_fn)(void *ctx, const gdw_trace_event *ev);


/* The events a decode gives the tools as it walks, the digest of its tree and a call for each node
 * made (gdwire_check.h): gdw_decode_options.events. */
typedef struct gdw_decode_events gdw_decode_events;

typedef struct gdw_decode_options {
    gdw_mode mode;
    /* 0 = GDW_DEFAULT_MAX_DEPTH; values above GDW_HARD_MAX_DEPTH are clamped */
    unsigned max_depth;
    size_t max_size; /* 0 = no limit; larger inputs fail with GDW_ERR_TOO_LARGE */
    /* full Objects (class + properties) accepted; default false, as the engines */
    bool allow_objects;
    /* strict mode: accept bytes after the value (the other modes always do) */
    bool allow_trailing;
    /* zero-copy: strings and packed data in the tree point into buf instead of being copied, so buf
     * must outlive the document; the heap then holds the tree's structure only */
    bool borrow_input;
    /* if not NULL, called for every field read (gdw_trace_event); slows decoding */
    gdw_trace_fn trace;
    void *trace_ctx;
    /* engine-exact mode: fail with GDW_ERR_LOSSY (err->path gdw_doc_approximate's first place)
     * rather than return a tree with values the engine would hold otherwise (gdw_doc_approximate);
     * the trace, if any, is told of each such value */
    bool fail_if_approximate;
    /* compatible and strict mode: find, in the same walk, whether the engine holds exactly this
     * tree (gdw_doc_engine_same); costs a strict UTF-8 check of non-ASCII text and a look at each
     * Dictionary's keys (about 10% of the decode of small Dictionaries). Off: gdw_doc_engine_same
     * says false */
    bool watch_engine;
    /* 0: the whole tree. Otherwise the tree keeps the value's first keep_nodes nodes in pre-order
     * (the wire's order; an Object's property names count) and no more: a cut tree (gdw_doc_cut),
     * in which a container holds the children it had begun before the cut and its length says so (a
     * Dictionary or Object cut inside a key keeps the key, with null as its value). The walk still
     * makes every node (for the digest and on_node) and releases each one past the cut once made,
     * so the heap holds the kept nodes and the open containers' few kept slots. The verdict,
     * consumed, the error and the digest are the whole value's, and so is gdw_doc_engine_same but
     * where more than 256 Dictionary keys past the cut wait to be judged at once (it then says
     * false: "may differ"). gdw_text_print_head of a cut tree is the whole value's to keep_nodes
     * characters (each value prints at least one). A cut tree's strings and packed data point into
     * the input, as with borrow_input. Engine-exact mode keeps the whole tree (its engine pass
     * reads it) */
    size_t keep_nodes;
    /* NULL: none. The tools' events (gdwire_check.h, gdw_decode_events): the digest of the tree
     * and a call for each node, as the decode makes them */
    const gdw_decode_events *events;
} gdw_decode_options;

/* gdw_decode_options_default: compatible mode, depth 1024, no size limit, no objects. */
GDW_API gdw_decode_options gdw_decode_options_default(void);

/* A decoded tree lives in a gdw_doc (an arena); gdw_doc_free frees all of it at once. */
typedef struct gdw_doc gdw_doc;

/* gdw_decode: decode the first value of buf[0..len) in dialect d.
 * On success returns GDW_OK, *out_doc owns the tree (gdw_doc_root), *consumed (if not NULL)
 * is the number of bytes the value used (trailing bytes are not an error except in strict
 * mode). On failure returns the code, fills *err (if not NULL), sets *out_doc to NULL and
 * frees everything it allocated. buf may be NULL only when len is 0. opts and alloc may be
 * NULL for the defaults. Heap use is bounded by gdw_decode_heap_bound(len, opts). */
GDW_API gdw_status gdw_decode(const gdw_dialect *d, const uint8_t *buf, size_t len,
                              const gdw_decode_options *opts, const gdw_allocator *alloc,
                              gdw_doc **out_doc, size_t *consumed, gdw_error *err);

/* gdw_validate: the same verdict, error and consumed length as gdw_decode, allocating
 * nothing (it runs the same code with tree building switched off). */
GDW_API gdw_status gdw_validate(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                const gdw_decode_options *opts, size_t *consumed, gdw_error *err);
/* gdw_validate_watched: gdw_validate, and, with opts->watch_engine in compatible or strict mode,
 * whether the engine holds the value the bytes spell, in the same walk: *engine_same is what
 * gdw_doc_engine_same says of the tree gdw_decode would build with the same options (false: the
 * engine may hold another value; decode in both modes to see which), except that it is false, not
 * true, where more than 256 Dictionary keys the engine could merge are open at once; false when the
 * bytes are refused. It builds nothing: a program that wants only the verdict and whether an engine
 * note is due (gdwire decode --noout) needs no tree. engine_same may be NULL. */
GDW_API gdw_status gdw_validate_watched(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                        const gdw_decode_options *opts, size_t *consumed,
                                        gdw_error *err, bool *engine_same);

/* gdw_decode_heap_bound: the most heap gdw_decode with these options (NULL: the defaults) can use
 * for an input of len bytes, arena overhead included, whatever the bytes, as yyjson's
 * yyjson_read_max_memory_usage(len, flags): 7 × len + 16 KiB in compatible and strict mode;
 * 24 × len + 16 KiB in engine-exact mode, which also builds the values the engine converts to
 * (docs/library.md "Heap bound"). SIZE_MAX where that does not fit a size_t. */
GDW_API size_t gdw_decode_heap_bound(size_t len, const gdw_decode_options *opts);

GDW_API const gdw_value *gdw_doc_root(const gdw_doc *doc);
/* gdw_doc_heap_bytes: bytes the document holds on the heap (chunks, headers). */
GDW_API size_t gdw_doc_heap_bytes(const gdw_doc *doc);
GDW_API void gdw_doc_free(gdw_doc *doc); /* NULL is a no-op */
/* gdw_doc_approximate: for a tree decoded in engine-exact mode, how many of its values are not
 * the engine's: where the engine converts a value entering a typed container in a way gdwire
 * does not compute, the value stays as written and carries GDW_VF_APPROXIMATE (docs/library.md
 * "Approximate values"). 0: the tree is the value the engine holds. When path is not NULL
 * (GDW_PATH_MAX bytes) it receives the first such value's place in the tree, depth first (as
 * gdw_error.path), and *why (when not NULL) what the engine does there. 0 for a NULL doc. With
 * gdw_decode_options.fail_if_approximate, such a decode fails instead, with GDW_ERR_LOSSY. */
GDW_API size_t gdw_doc_approximate(const gdw_doc *doc, char *path, const char **why);
/* gdw_doc_undefined_conversions: for a tree decoded in engine-exact mode, how many values (elements
 * or keys) the engine converts on the way by a conversion its C++ leaves undefined (the set UBSan
 * reports: docs/engine-findings.md, finding 7): a float out of the target's range, an infinity
 * or a NaN entering an integer (int, Vector2i, Vector3i, Vector4i, Rect2i, a PackedByteArray,
 * PackedInt32Array or PackedInt64Array made of an
 * Array), and a Quaternion of length 0 entering a Basis or Transform3D. The tree holds what the
 * engine's x86-64 build holds (the most negative integer; in a PackedByteArray the low byte of a
 * 32-bit conversion: 0 past int32's range); a build for another CPU may hold another
 * value (ARM64's saturates), so two peers can disagree about the same bytes. Counted where the
 * engine converts, so an element its container drops afterwards counts too; each one is a trace
 * event "undefined conversion" with its place. At most UINT32_MAX; 0 for a NULL doc and in the
 * other modes. */
#define GDW_HAS_UNDEFINED_CONVERSIONS 1
GDW_API size_t gdw_doc_undefined_conversions(const gdw_doc *doc);
/* gdw_doc_engine_same: true when the engine release of the document's dialect is known to hold
 * exactly this tree, with the same verdict and length: a walk decoding with watch_engine (or in
 * engine-exact mode) met no place where
 * engine-exact mode reads the bytes otherwise or holds another value (a string its UTF-8 decoder
 * changes, a typed container, Dictionary keys it could find equal or retype, a component it
 * narrows). Always true for a tree decoded in engine-exact mode. false means "may differ":
 * decode in engine-exact mode to know (docs/
 * library.md "What the engine holds"); false for a NULL doc, a decode without watch_engine and a
 * tree not decoded from bytes. */
GDW_API bool gdw_doc_engine_same(const gdw_doc *doc);
/* gdw_doc_cut: the tree holds only the value's first nodes (gdw_decode_options.keep_nodes), not all
 * of them. Two values cut at the same keep_nodes are unequal where their cut trees are; equal cut
 * trees say nothing of the rest (a digest, or whole trees, does). false for a NULL doc. */
GDW_API bool gdw_doc_cut(const gdw_doc *doc);


/* ---------------------------------------------------------------------------------------
 * Encoding.
 * ------------------------------------------------------------------------------------- */
typedef struct gdw_encode_options {
    unsigned max_depth; /* 0 = GDW_DEFAULT_MAX_DEPTH (clamped to GDW_HARD_MAX_DEPTH) */
    /* narrow values that do not fit (i64 into Godot 2's i32, f64 into f32) instead of failing */
    bool lossy;
    /* with lossy: called at each place narrowed (code GDW_ERR_LOSSY, message, path, output offset);
       NULL for none. A value whose reals are narrowed is reported once. */
    void (*lossy_report)(void *ctx, const gdw_error *where);
    void *lossy_ctx;
    /* a FLOAT is written at the width its value carries (gdw_value.width, 4 or 8) where the
     * dialect's wire has both, not at the one the engines choose (f32 exactly when the value fits
     * 32 bits, NaN as 64): the bytes a decode read come back whatever wrote them (the Python
     * package's F32 / F64). Off by default */
    bool keep_float_width;
} gdw_encode_options;

GDW_API gdw_encode_options gdw_encode_options_default(void);

/* gdw_encode: write v in dialect d into out[0..cap). err->path names the failing value. *written
 * (required) receives the number of bytes the encoding needs, whether or not it fitted; if it is
 * larger than cap the call returns GDW_ERR_TRUNCATED and out holds a prefix. out may be NULL with
 * cap 0 to size the encoding (the same code runs). Padding is always zero. Errors: UNSUPPORTED_TYPE
 * (type not in the dialect), LOSSY (value does not fit and opts->lossy is false), DEPTH,
 * INVALID_TREE. */
GDW_API gdw_status gdw_encode(const gdw_dialect *d, const gdw_value *v,
                              const gdw_encode_options *opts, uint8_t *out, size_t cap,
                              size_t *written, gdw_error *err);

/* gdw_encode_alloc: size, allocate (with alloc, NULL = libc) and encode. The caller frees
 * *out with the same allocator (size *out_len). */
GDW_API gdw_status gdw_encode_alloc(const gdw_dialect *d, const gdw_value *v,
                                    const gdw_encode_options *opts, const gdw_allocator *alloc,
                                    uint8_t **out, size_t *out_len, gdw_error *err);

/* ---------------------------------------------------------------------------------------
 * Conversion between dialects (docs/convert.md).
 * ------------------------------------------------------------------------------------- */
typedef struct gdw_convert_options {
    bool lossy; /* allow changes that lose something, each reported; else the first fails */
    void (*report)(void *ctx, const gdw_error *where); /* each lossy change: code, message, path */
    void *report_ctx;
} gdw_convert_options;

GDW_API gdw_convert_options gdw_convert_options_default(void);

/* gdw_convert: a copy of v that dialect `to` can hold, in a new document. Types `to` lacks
 * become their nearest counterpart (Vector2i -> Vector2, StringName -> String, TypedArray ->
 * Array, ...) or, with none, null. Another name for the same thing (PoolRealArray ->
 * PackedFloat32Array) is no loss; every other change is: without opts->lossy the first fails
 * (UNSUPPORTED_TYPE for a type with no counterpart, LOSSY otherwise) with err->path naming
 * the value. Numbers narrowed inside a type both dialects have (f64 into f32) are left for
 * gdw_encode to report. The copy shares string and array bytes with v: v's document must
 * outlive it. */
GDW_API gdw_status gdw_convert(const gdw_value *v, const gdw_dialect *to,
                               const gdw_convert_options *opts, const gdw_allocator *alloc,
                               gdw_doc **out_doc, gdw_error *err);

/* ---------------------------------------------------------------------------------------
 * Canonical text form (docs/text-format.md).
 * ------------------------------------------------------------------------------------- */

/* gdw_text_print: write the text form of v into out[0..cap) NUL-terminated; returns the
 * length the full text needs (without the NUL), like snprintf. Never fails. */
GDW_API size_t gdw_text_print(const gdw_value *v, char *out, size_t cap);

/* gdw_text_print_alloc: as above into memory from alloc (NULL: the default, malloc),
 * NUL-terminated, with *len (if not NULL) its length without the NUL; NULL (and *len 0) when an
 * allocation fails. Free it with gdw_text_free(alloc, text) and the same alloc (with the default
 * one, free() also does: the length an allocator's free_fn is told is strlen(text) + 1). */
GDW_API char *gdw_text_print_alloc(const gdw_value *v, const gdw_allocator *alloc, size_t *len);
/* gdw_text_free: frees a text from gdw_text_print_alloc or gdw_json_print_alloc with the allocator
 * it came from (NULL: the default); NULL text is a no-op. */
GDW_API void gdw_text_free(const gdw_allocator *alloc, char *text);
/* gdw_text_print_head: the start of the text form, for a log line or a table cell: as
 * gdw_text_print, but it stops once out[0..cap) is full, so it costs time in proportion to cap,
 * not to v. A result below cap - 1 is the whole text's length; cap - 1 or more means the text
 * filled out (cut there, or exactly cap - 1 long; how much more there is is not counted): ask for
 * one character more than you show. */
GDW_API size_t gdw_text_print_head(const gdw_value *v, char *out, size_t cap);

/* gdw_text_show: how every text output of gdwire shows the next character of text p[0..n) (n >= 1),
 * so that no output can drive a terminal or reorder what it shows (the text form, JSON, the
 * command's file names, paths and messages, the packages). Returns the bytes the character takes
 * and sets *how:
 *   GDW_SHOW_AS_IS       printable ASCII or a well-formed UTF-8 character: shown as it is (each
 *                        output escapes its own quote and backslash);
 *   GDW_SHOW_BYTE        a C0 control, DEL, or a byte that is not part of well-formed UTF-8: the
 *                        one byte p[0], escaped as a byte;
 *   GDW_SHOW_CODE_POINT  a well-formed character a terminal acts on or that reorders text: a C1
 *                        control (U+0080-U+009F), a Bidi_Control character (U+061C, U+200E,
 *                        U+200F, U+202A-U+202E, U+2066-U+2069), U+2028 or U+2029: escaped as its
 *                        code point, *cp. */
typedef enum gdw_show { GDW_SHOW_AS_IS, GDW_SHOW_BYTE, GDW_SHOW_CODE_POINT } gdw_show;
GDW_API size_t gdw_text_show(const uint8_t *p, size_t n, gdw_show *how, uint32_t *cp);


/* gdw_text_parse: parse text[0..len) into a new document. On error returns GDW_ERR_SYNTAX
 * (or NOMEM/DEPTH) with err->offset the byte offset in the text. */
GDW_API gdw_status gdw_text_parse(const char *text, size_t len, const gdw_allocator *alloc,
                                  gdw_doc **out_doc, gdw_error *err);

/* ---------------------------------------------------------------------------------------
 * JSON form (docs/json.md, schema docs/gdwire.schema.json): the same information as the
 * canonical text, as JSON objects {"type": ..., ...} for scripts.
 * ------------------------------------------------------------------------------------- */

/* gdw_json_print: as gdw_text_print, in the JSON form (one line). */
GDW_API size_t gdw_json_print(const gdw_value *v, char *out, size_t cap);
/* gdw_json_print_alloc: as gdw_text_print_alloc, in the JSON form; free with gdw_text_free. */
GDW_API char *gdw_json_print_alloc(const gdw_value *v, const gdw_allocator *alloc, size_t *len);

/* gdw_json_parse: read one JSON value in the JSON form into a new document. Errors: SYNTAX
 * (not JSON, or not the schema) with err->offset the byte offset in the text and err->path the
 * JSON path of the offending member; NOMEM; DEPTH; INVALID_ARG when out_doc is NULL, or text is
 * NULL with len > 0 (as gdw_text_parse). */
GDW_API gdw_status gdw_json_parse(const char *text, size_t len, const gdw_allocator *alloc,
                                  gdw_doc **out_doc, gdw_error *err);

/* Plain JSON (docs/json.md "Plain JSON"): what JSON can say as itself: null, true/false, an int
 * as a number, a float as a number with a fraction or exponent, a String, an Array as a JSON array,
 * a Dictionary with distinct String keys as a JSON object. Every other value (a Vector2, a
 * NodePath, a typed Array, non-String keys, a float whose width the encoders would not choose, NaN)
 * is {"$gdwire": <its JSON form above>}, so reading it back gives the same value:
 * gdw_json_parse_plain(gdw_json_print_plain(v)) equals v, except under
 * GDW_JSON_BIG_INTS_AS_STRINGS. */
enum {
    /* gdw_decode_json / gdw_encode_json: plain JSON, not the JSON form */
    GDW_JSON_PLAIN = 1,
    /* print an int beyond +-2^53 as a string (JavaScript's numbers are doubles); it then reads back
     * as a String: not a round trip */
    GDW_JSON_BIG_INTS_AS_STRINGS = 2
};
/* gdw_json_print_plain / _alloc: as gdw_json_print / _alloc, in plain JSON (flags: GDW_JSON_*). */
GDW_API size_t gdw_json_print_plain(const gdw_value *v, unsigned flags, char *out, size_t cap);
GDW_API char *gdw_json_print_plain_alloc(const gdw_value *v, unsigned flags,
                                         const gdw_allocator *alloc, size_t *len);
/* gdw_json_parse_plain: any JSON text as a value (a number without fraction or exponent is an int,
 * which must fit int64; an object is a Dictionary of String keys in member order, a repeated member
 * kept twice as the wire allows it); {"$gdwire": X}, with no other member, is X in the JSON form.
 * Errors as gdw_json_parse. */
GDW_API gdw_status gdw_json_parse_plain(const char *text, size_t len, const gdw_allocator *alloc,
                                        gdw_doc **out_doc, gdw_error *err);

/* JSON-level entry points, for a binding (Python ctypes, a WebAssembly build) that wants one call
 * each way. gdw_decode_json: decode buf in dialect d (opts NULL: the defaults) and print the value
 * as JSON (json_flags GDW_JSON_PLAIN: plain JSON) into *json, NUL-terminated, from alloc (NULL:
 * libc); free it with gdw_text_free. gdw_encode_json: read JSON (plain with GDW_JSON_PLAIN) and
 * encode it in d into *out (free with alloc, as gdw_encode_alloc). Errors as the calls they make.
 * */
GDW_API gdw_status gdw_decode_json(const gdw_dialect *d, const uint8_t *buf, size_t len,
                                   const gdw_decode_options *opts, unsigned json_flags,
                                   const gdw_allocator *alloc, char **json, size_t *json_len,
                                   gdw_error *err);
GDW_API gdw_status gdw_encode_json(const gdw_dialect *d, const char *json, size_t len,
                                   unsigned json_flags, const gdw_encode_options *opts,
                                   const gdw_allocator *alloc, uint8_t **out, size_t *out_len,
                                   gdw_error *err);

/* ---------------------------------------------------------------------------------------
 * Reading values (docs/library.md "Reading and building values"). Each getter returns false,
 * leaving *out untouched, when v is NULL, of another type, or out of the range asked for.
 * ------------------------------------------------------------------------------------- */
GDW_API bool gdw_get_bool(const gdw_value *v, bool *out);
GDW_API bool gdw_get_int(const gdw_value *v, int64_t *out);
/* gdw_get_int_in: an INT in [min, max]. */
GDW_API bool gdw_get_int_in(const gdw_value *v, int64_t min, int64_t max, int64_t *out);
/* gdw_get_float: a FLOAT of either width, as a double (exact: every f32 is a double). */
GDW_API bool gdw_get_float(const gdw_value *v, double *out);
/* gdw_get_number: an INT or a FLOAT as a double, for fields a sender may write either way (hp = 1
 * or hp = 1.5). An int past 2^53 is rounded to the nearest double; use gdw_get_int where that
 * matters. */
GDW_API bool gdw_get_number(const gdw_value *v, double *out);
/* gdw_get_string: a String or StringName: its bytes (not NUL-terminated; may hold NUL) and length.
 * */
GDW_API bool gdw_get_string(const gdw_value *v, const char **s, size_t *len);
/* gdw_get_components: v is of math type t (Vector2, Color, Vector3i, Transform3D, ...) with exactly
 * n components; each into out as a double (exact for every width and for 32-bit integers). */
GDW_API bool gdw_get_components(const gdw_value *v, gdw_type t, double *out, size_t n);
/* gdw_count: items of an Array, pairs of a Dictionary, elements of a packed array, properties of an
 * Object, bytes of a String; 0 for anything else and for NULL. */
GDW_API size_t gdw_count(const gdw_value *v);
/* gdw_array_get: item i of an Array or typed Array; NULL when out of range or not an array. */
GDW_API const gdw_value *gdw_array_get(const gdw_value *a, size_t i);
/* gdw_dict_get: the value under the first String or StringName key with these bytes; NULL if none.
 * A tree decoded in strict or compatible mode keeps a key the bytes repeat, as written: the first
 * is found, while the engine keeps the last value. Decode in engine-exact mode for the engine's
 * view: there keys the engine finds equal are one entry, at the first key's place, holding the
 * last value, so the one key found holds what the engine holds. */
GDW_API const gdw_value *gdw_dict_get(const gdw_value *d, const char *key, size_t len);
/* gdw_dict_getc: gdw_dict_get with a NUL-terminated key. gdw_dict_get_int: the value under the
 * first INT key equal to key (as gdw_dict_get: the first one the bytes hold in strict and
 * compatible mode). */
GDW_API const gdw_value *gdw_dict_getc(const gdw_value *d, const char *key);
GDW_API const gdw_value *gdw_dict_get_int(const gdw_value *d, int64_t key);
/* Packed arrays. gdw_packed_bytes: a PackedByteArray's (PoolByteArray's, RawArray's) bytes.
 * gdw_packed_string_at: element i of a PackedStringArray (not NUL-terminated; may hold NUL).
 * gdw_packed_at: element i of any other packed array of numbers (ints, reals, vectors, colours),
 * its n components into out as doubles; n must be the type's count (gdw_type_components: 1 for ints
 * and floats, 2 for a Vector2, 4 for a Color). Each returns false when v is not of that kind, i is
 * out of range or n does not match. */
GDW_API bool gdw_packed_bytes(const gdw_value *v, const uint8_t **p, size_t *n);
GDW_API bool gdw_packed_string_at(const gdw_value *v, size_t i, const char **s, size_t *len);
GDW_API bool gdw_packed_at(const gdw_value *v, size_t i, double *out, size_t n);
/* gdw_path_get: the value an error path names (gdw_error.path, docs/library.md "Error paths"):
 * [3], {"hp"}, {#2}, {#2 key}, ."name", .#1, one step after another from root. NULL when a step
 * names nothing there, with *bad_at (if not NULL) the offset of that step in path. A key shown
 * shortened ("...", past 24 bytes) is taken as written. */
GDW_API const gdw_value *gdw_path_get(const gdw_value *root, const char *path, size_t len,
                                      size_t *bad_at);
/* gdw_dict_key_at / gdw_dict_value_at: pair i of a Dictionary in wire order; NULL when out of
 * range. */
GDW_API const gdw_value *gdw_dict_key_at(const gdw_value *d, size_t i);
GDW_API const gdw_value *gdw_dict_value_at(const gdw_value *d, size_t i);

/* ---------------------------------------------------------------------------------------
 * Building values (docs/library.md "Reading and building values"): a builder makes one document
 * at a time. Add values in wire order; gdw_build_begin_* opens a container whose items are the
 * values added until its gdw_build_end (a Dictionary's and an Object's alternate key and value;
 * an Object's property names are Strings). gdw_build_finish hands over the document and leaves the
 * builder empty for the next one. Everything added is copied into the document; every byte comes
 * from the builder's allocator.
 *
 * Errors are sticky: the first failing call returns its status (INVALID_ARG for a misuse, LOSSY for
 * an integer component outside 32 bits, TOO_LARGE past 2^32 - 1 items or bytes, DEPTH for a
 * container GDW_HARD_MAX_DEPTH levels below the top one (GDW_HARD_MAX_DEPTH + 1 open containers,
 * the deepest tree a decoder gives), NOMEM), every later call returns that status and does
 * nothing, and gdw_build_finish reports it with err->path naming the value that failed. So a
 * caller may check only gdw_build_finish. Every function takes a NULL builder as INVALID_ARG.
 * ------------------------------------------------------------------------------------- */
typedef struct gdw_builder gdw_builder;

/* NULL on OOM; alloc NULL: libc */
GDW_API gdw_builder *gdw_builder_new(const gdw_allocator *alloc);
/* NULL is a no-op; frees an unfinished document */
GDW_API void gdw_builder_free(gdw_builder *b);
/* gdw_build_finish: exactly one value built and every container closed: *out_doc owns it (free
 * with gdw_doc_free). Else (or after an earlier failure) the status and *err, *out_doc NULL, and
 * everything built is freed. Either way the builder is empty and ready for another document. */
GDW_API gdw_status gdw_build_finish(gdw_builder *b, gdw_doc **out_doc, gdw_error *err);
/* gdw_build_encode: gdw_build_finish, then gdw_encode_alloc of the value in dialect d (*out from
 * alloc, NULL = libc; free it with the same), then the document freed: a reply built and written in
 * one call. On any error *out is NULL and the builder is empty, as after gdw_build_finish. */
GDW_API gdw_status gdw_build_encode(gdw_builder *b, const gdw_dialect *d,
                                    const gdw_encode_options *opts, const gdw_allocator *alloc,
                                    uint8_t **out, size_t *out_len, gdw_error *err);
/* gdw_builder_error: the sticky status (GDW_OK if none) and, if err is not NULL, its error. */
GDW_API gdw_status gdw_builder_error(const gdw_builder *b, gdw_error *err);

GDW_API gdw_status gdw_build_nil(gdw_builder *b);
GDW_API gdw_status gdw_build_bool(gdw_builder *b, bool x);
GDW_API gdw_status gdw_build_int(gdw_builder *b, int64_t x);
/* gdw_build_float: stored as 32 bits when that holds x exactly (NaN excepted), else 64, the width
 * every engine's encoder chooses. gdw_build_float_bits: these bits of this width (4 or 8). */
GDW_API gdw_status gdw_build_float(gdw_builder *b, double x);
GDW_API gdw_status gdw_build_float_bits(gdw_builder *b, uint64_t bits, unsigned width);
GDW_API gdw_status gdw_build_string(gdw_builder *b, const char *s, size_t len);
/* NUL-terminated; NULL is "" */
GDW_API gdw_status gdw_build_cstring(gdw_builder *b, const char *s);
GDW_API gdw_status gdw_build_string_name(gdw_builder *b, const char *s, size_t len);
/* gdw_build_node_path: names then subnames; flags bit 0 absolute, bit 1 (Godot 2) the last
 * subname is the property (needs a subname). */
GDW_API gdw_status gdw_build_node_path(gdw_builder *b, const gdw_str *names, size_t name_count,
                                       const gdw_str *subnames, size_t subname_count,
                                       uint32_t flags);
GDW_API gdw_status gdw_build_rid(gdw_builder *b, uint64_t id);
GDW_API gdw_status gdw_build_object_id(gdw_builder *b, uint64_t id); /* 0 is the null Object */
GDW_API gdw_status gdw_build_callable(gdw_builder *b);
GDW_API gdw_status gdw_build_signal(gdw_builder *b, const char *name, size_t len,
                                    uint64_t object_id);
/* gdw_build_math: a math type of reals (Vector2/3/4, Rect2, Transform2D, Plane, Quaternion, AABB,
 * Basis, Transform3D, Projection, Color) from exactly its n components, in the text form's order.
 * width: bytes per real, 4 (0 means 4: real_t of a standard build) or 8 (double-precision builds);
 * components are rounded to it. Color is always 4. gdw_build_math_int: Vector2i/3i/4i, Rect2i;
 * each component must fit 32 bits (else LOSSY). */
GDW_API gdw_status gdw_build_math(gdw_builder *b, gdw_type t, const double *c, size_t n,
                                  unsigned width);
GDW_API gdw_status gdw_build_math_int(gdw_builder *b, gdw_type t, const int64_t *c, size_t n);
/* Packed arrays from n components (elements × components per element): reals for
 * PACKED_{REAL,FLOAT32,FLOAT64,VECTOR2,VECTOR3,VECTOR4,COLOR}_ARRAY (width as gdw_build_math; the
 * FLOAT32/FLOAT64/COLOR arrays have their own), integers for PACKED_{INT32,INT64,VECTOR2I,VECTOR3I,
 * VECTOR4I}_ARRAY. A width of 0 is the type's own: 4, and 8 for PACKED_FLOAT64_ARRAY. */
GDW_API gdw_status gdw_build_packed_reals(gdw_builder *b, gdw_type t, const double *c, size_t n,
                                          unsigned width);
GDW_API gdw_status gdw_build_packed_ints(gdw_builder *b, gdw_type t, const int64_t *c, size_t n);
GDW_API gdw_status gdw_build_packed_bytes(gdw_builder *b, const uint8_t *p, size_t n);
GDW_API gdw_status gdw_build_packed_strings(gdw_builder *b, const gdw_str *strs, size_t n);
/* gdw_build_value: a deep copy of any value (a decoded request's field, a whole tree) as one value.
 * */
GDW_API gdw_status gdw_build_value(gdw_builder *b, const gdw_value *v);

/* Containers. gdw_build_begin: ARRAY or DICTIONARY, untyped when key and elem are NULL, else typed
 * (Godot 4.3+ typed Array: elem; 4.4+ typed Dictionary: key and elem), or Pandemonium's
 * TYPED_ARRAY (elem required). The descriptors are copied. */
GDW_API gdw_status gdw_build_begin(gdw_builder *b, gdw_type t, const gdw_typedesc *key,
                                   const gdw_typedesc *elem);
GDW_API gdw_status gdw_build_begin_array(gdw_builder *b);
GDW_API gdw_status gdw_build_begin_dictionary(gdw_builder *b);
/* gdw_build_begin_object: a full Object (class name, then property name and value pairs); decoders
 * accept these only with allow_objects. For an Object by id: gdw_build_object_id. */
GDW_API gdw_status gdw_build_begin_object(gdw_builder *b, const char *class_name, size_t len);
GDW_API gdw_status gdw_build_end(gdw_builder *b);

/* ---------------------------------------------------------------------------------------
 * Base64 (RFC 4648 with '=' padding): Marshalls.variant_to_base64 / base64_to_variant.
 * ------------------------------------------------------------------------------------- */

/* gdw_base64_encode: writes NUL-terminated base64 of in[0..n) into out[0..cap); returns the
 * length of the full text (without the NUL), like snprintf. */
GDW_API size_t gdw_base64_encode(const uint8_t *in, size_t n, char *out, size_t cap);
/* gdw_base64_decode: whitespace is skipped; the URL-safe letters - and _ are accepted. out needs
 * room for n / 4 * 3 + 3 bytes. GDW_ERR_SYNTAX with *bad_at (if not NULL) the offset of the first
 * character that is not base64 (n when the text ends inside a group). GDW_ERR_INVALID_ARG when out
 * or out_len is NULL, or in is NULL with n > 0. */
GDW_API gdw_status gdw_base64_decode(const char *in, size_t n, uint8_t *out, size_t *out_len,
                                     size_t *bad_at);

/* ---------------------------------------------------------------------------------------
 * Framing (docs/library.md "Framing"): the 32-bit payload length the engines write before a value.
 * StreamPeer.put_var writes put_32(len), in the peer's big_endian; FileAccess.store_var writes
 * store_32(len), in the file's; PacketPeerStream writes it little-endian always. var_to_bytes and
 * PacketPeer.put_var (UDP, ENet, WebSocket) write the value alone: the transport frames it.
 * ------------------------------------------------------------------------------------- */
typedef enum gdw_framing {
    /* StreamPeer.put_var / get_var (StreamPeerTCP, StreamPeerBuffer) */
    GDW_FRAMING_STREAM = 1,
    GDW_FRAMING_FILE = 2,         /* FileAccess.store_var / get_var (File in Godot 3) */
    GDW_FRAMING_PACKET_STREAM = 3 /* PacketPeerStream.put_var / put_packet */
} gdw_framing;

#define GDW_FRAME_PREFIX 4 /* bytes of every prefix */
/* The default bounds: what a default PacketPeerStream delivers (its 2^16-byte ring buffer less one
 * and the prefix; core/io/packet_peer.cpp get_packet), and gdwire's own for stream and file (the
 * engine allocates whatever the prefix says). */
#define GDW_FRAME_MAX_PACKET_STREAM 65531u
#define GDW_FRAME_MAX_DEFAULT (256u << 20)

typedef struct gdw_frame_options {
    gdw_framing framing;
    /* STREAM and FILE: the peer's or file's big_endian flag; PACKET_STREAM ignores it */
    bool big_endian;
    /* the longest payload read or written; 0: GDW_FRAME_MAX_PACKET_STREAM for PACKET_STREAM,
     * GDW_FRAME_MAX_DEFAULT for the others */
    uint64_t max_payload;
} gdw_frame_options;

/* gdw_frame_options_default: that framing, little-endian, the default bound. */
GDW_API gdw_frame_options gdw_frame_options_default(gdw_framing framing);

/* gdw_frame_read: the frame at the start of buf[0..len). GDW_OK: the payload is buf[4 .. 4 +
 * *payload_len), and the frame *frame_len bytes in all. GDW_ERR_TRUNCATED: buf holds part of it;
 * *frame_len is the whole frame's length once the prefix is complete (else 4), so a caller knows
 * how much to wait for. GDW_ERR_BAD_LENGTH: a negative prefix in STREAM (StreamPeer.get_var reads
 * it signed and fails: the stream is lost) or a payload over max_payload; *payload_len is the
 * prefix's value as unsigned. err->offset: 0, or len when the bytes ran out. INVALID_ARG: a NULL
 * pointer (buf may be NULL with len 0) or an unknown framing. */
GDW_API gdw_status gdw_frame_read(const gdw_frame_options *fo, const uint8_t *buf, size_t len,
                                  size_t *payload_len, size_t *frame_len, gdw_error *err);
/* gdw_frame_prefix: the 4 bytes the engine writes before a payload of payload_len bytes into
 * out[0..4). TOO_LARGE past max_payload (and, for STREAM, past 2^31 - 1, which the engine reads
 * negative). */
GDW_API gdw_status gdw_frame_prefix(const gdw_frame_options *fo, size_t payload_len, uint8_t *out);

/* An incremental reader for a byte stream (a socket, a pipe): feed bytes as they arrive, take whole
 * frames out. It holds at most one partial frame plus what was fed, and grows with the bytes fed,
 * never with what a prefix claims. A bad prefix (gdw_frame_read's BAD_LENGTH) is sticky: the engine
 * loses the stream there too, and no later byte can be trusted to start a frame. */
typedef struct gdw_frame_reader gdw_frame_reader;
/* NULL: OOM, bad fo */
GDW_API gdw_frame_reader *gdw_frame_reader_new(const gdw_frame_options *fo,
                                               const gdw_allocator *alloc);
GDW_API void gdw_frame_reader_free(gdw_frame_reader *r); /* NULL is a no-op */
/* gdw_frame_reader_feed: append p[0..n) (copied). NOMEM; the sticky BAD_LENGTH; INVALID_ARG. */
GDW_API gdw_status gdw_frame_reader_feed(gdw_frame_reader *r, const uint8_t *p, size_t n);
/* gdw_frame_reader_next: the next whole frame: GDW_OK with its payload in *payload[0..*len), valid
 * until the next feed; GDW_ERR_TRUNCATED when no whole frame is held yet (feed more); BAD_LENGTH
 * with err->offset the prefix's offset in the stream. */
GDW_API gdw_status gdw_frame_reader_next(gdw_frame_reader *r, const uint8_t **payload, size_t *len,
                                         gdw_error *err);
/* gdw_frame_reader_pending: bytes held that are not yet a whole frame (0 for NULL). */
GDW_API size_t gdw_frame_reader_pending(const gdw_frame_reader *r);

/* ---------------------------------------------------------------------------------------
 * Hex text: packets as the command, the conformance vectors and the testee protocol write them.
 * ------------------------------------------------------------------------------------- */

/* gdw_hex_decode: hex text in[0..n) to bytes: digits in pairs, upper or lower case; whitespace
 * (space, tab, CR, LF) is skipped anywhere, and a leading "0x" or "0X" is allowed. out needs room
 * for n / 2 bytes, and may be in itself (the bytes are written behind the text read; after an
 * error out holds the bytes decoded before it, so decode elsewhere to keep the text).
 * GDW_ERR_SYNTAX with *bad_at (if not NULL) the offset of the first character that is not hex, or
 * of the last digit when their number is odd; GDW_ERR_INVALID_ARG when out or out_len is NULL, or
 * in is NULL with n > 0. */
GDW_API gdw_status gdw_hex_decode(const char *in, size_t n, uint8_t *out, size_t *out_len,
                                  size_t *bad_at);

#ifdef __cplusplus
}
#endif
#endif /* GDWIRE_H */

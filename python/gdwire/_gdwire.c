/* SPDX-License-Identifier: MIT */
/* _gdwire — the CPython extension under the gdwire package: the C library's calls, taking and giving bytes
 * and Python values. decode and encode convert between the library's value tree and Python objects here,
 * in C, for the types Python has (None, bool, int, float, str, bytes, list, dict, and StringName and
 * PackedStringArray, which are str and tuple underneath) and the math types and packed arrays of numbers; the
 * few other values cross as the library's JSON form of that one value (docs/gdwire.schema.json), which
 * gdwire/_values.py maps, so each type has one mapping. value_of_json (gdwire.from_json) maps the library's
 * parse of the JSON form with the same to_py. decode_json and encode_json give and take the JSON form whole.
 * Every call that walks input bytes releases the GIL; the library keeps no global state, so calls may run in
 * threads. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <string.h>

#include "codec/gdwire_check.h"
#include "files/gdwire_files.h"
#include "project/gdwire_project.h"
#include "session/gdwire_pcap.h"
#include "session/gdwire_session.h"

static PyObject *g_decode_error; /* gdwire.DecodeError, set by gdwire/__init__.py (_set_errors) */
static PyObject *g_encode_error;

/* gdwire/_values.py's classes and its JSON mapping, set by gdwire/__init__.py (_set_types) */
static struct {
    PyObject *string_name, *raw_string, *raw_string_name, *packed_string_array, *dictionary;
    PyObject *from_json_text; /* (JSON text of one value) -> Python value */
    PyObject *to_json_text;   /* (value, depth) -> JSON text of that value */
    PyObject *numbers[GDW_TYPE_COUNT]; /* the class of each math type and packed array of numbers (MATH_TYPES, PACKED_TYPES) */
    PyObject *attr_values, *attr_real_width, *attr_raw, *attr_element_type, *attr_key_type, *attr_value_type,
        *attr_shared, *attr_kind, *attr_class_name;
} g_types;

static const gdw_dialect *dialect_arg(const char *name) {
    const gdw_dialect *d = gdw_dialect_find(name);
    if (!d) PyErr_Format(PyExc_ValueError, "unknown dialect '%s' (gdwire.dialects() lists them)", name);
    return d;
}

/* raise cls(code, offset, path, message, engine_error, value_offset) */
static PyObject *raise_gdw(PyObject *cls, const gdw_error *err) {
    PyObject *exc_cls = cls ? cls : PyExc_RuntimeError;
    PyObject *e = PyObject_CallFunction(exc_cls, "snssn", gdw_status_name(err->code), (Py_ssize_t)err->offset, err->path,
                                        err->message ? err->message : "", (Py_ssize_t)err->value_offset);
    if (!e) return NULL;
    PyObject *ee = PyUnicode_FromString(gdw_engine_error_name(err->engine_error));
    if (ee) { PyObject_SetAttrString(e, "engine_error", ee); Py_DECREF(ee); }
    PyErr_SetObject(exc_cls, e);
    Py_DECREF(e);
    return NULL;
}

static PyObject *py_set_errors(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *de, *ee;
    if (!PyArg_ParseTuple(args, "OO", &de, &ee)) return NULL;
    Py_XSETREF(g_decode_error, Py_NewRef(de));
    Py_XSETREF(g_encode_error, Py_NewRef(ee));
    Py_RETURN_NONE;
}

static PyObject *py_set_types(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o[7], *math_types, *packed_types;
    if (!PyArg_ParseTuple(args, "OOOOOOOO!O!", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &PyDict_Type, &math_types,
                          &PyDict_Type, &packed_types))
        return NULL;
    PyObject **slot[7] = {&g_types.string_name, &g_types.raw_string, &g_types.raw_string_name, &g_types.packed_string_array,
                          &g_types.dictionary, &g_types.from_json_text, &g_types.to_json_text};
    for (int i = 0; i < 7; i++) Py_XSETREF(*slot[i], Py_NewRef(o[i]));
    for (int t = 0; t < GDW_TYPE_COUNT; t++) {
        PyObject *cls = PyDict_GetItemString(math_types, gdw_type_name((gdw_type)t));
        if (!cls) cls = PyDict_GetItemString(packed_types, gdw_type_name((gdw_type)t));
        if (cls && !PyType_Check(cls)) return PyErr_Format(PyExc_TypeError, "%s is not a class", gdw_type_name((gdw_type)t));
        Py_XSETREF(g_types.numbers[t], Py_XNewRef(cls));
    }
    const char *names[] = {"values", "real_width", "_raw", "element_type", "key_type", "value_type", "shared", "kind",
                           "class_name"};
    PyObject **attrs[] = {&g_types.attr_values, &g_types.attr_real_width, &g_types.attr_raw, &g_types.attr_element_type,
                          &g_types.attr_key_type, &g_types.attr_value_type, &g_types.attr_shared, &g_types.attr_kind,
                          &g_types.attr_class_name};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        PyObject *s = PyUnicode_InternFromString(names[i]);
        if (!s) return NULL;
        Py_XSETREF(*attrs[i], s);
    }
    Py_RETURN_NONE;
}

static bool types_ready(void) {
    if (g_types.to_json_text) return true;
    PyErr_SetString(PyExc_RuntimeError, "gdwire._gdwire is used through the gdwire package (import gdwire)");
    return false;
}

/* ---- the library's tree -> Python ------------------------------------------------------------- */

/* One decode's state. Game messages repeat their Dictionary keys ("id", "pos", "hp" in every entry):
 * keys holds the str made for a short ASCII key, by a hash of its bytes, so a repeated key is the same
 * object, made and hashed once (a dict then compares it by identity). A clash replaces the entry. */
#define PY_KEY_CACHE 256u
#define PY_KEY_CACHE_MAX_LEN 32u
typedef struct py_decoding {
    PyObject *keys[PY_KEY_CACHE];
} py_decoding;

static void decoding_done(py_decoding *c) {
    for (unsigned i = 0; i < PY_KEY_CACHE; i++) Py_CLEAR(c->keys[i]);
}

static PyObject *to_py(py_decoding *c, const gdw_value *v);
static PyObject *array_to_py(py_decoding *c, const gdw_value *v);

/* A value Python has no type of its own for: through the JSON form, so _values.py holds its one mapping. */
static PyObject *to_py_via_json(const gdw_value *v) {
    size_t n = 0;
    char *json = gdw_json_print_alloc(v, NULL, &n);
    if (!json) return PyErr_NoMemory();
    PyObject *r = PyObject_CallFunction(g_types.from_json_text, "s#", json, (Py_ssize_t)n);
    gdw_text_free(NULL, json);
    return r;
}

/* Text as str (wrapped in cls when cls is not NULL), or as raw_cls(bytes) when it is not UTF-8: Python's
 * strict UTF-8 is the JSON form's (no surrogates, no overlong forms, nothing past U+10FFFF). */
static PyObject *text_to_py(const uint8_t *p, size_t n, PyObject *cls, PyObject *raw_cls) {
    const char *s = n ? (const char *)p : "";
    PyObject *u = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, NULL);
    if (!u) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return NULL;
        PyErr_Clear();
        return PyObject_CallFunction(raw_cls, "y#", s, (Py_ssize_t)n);
    }
    if (!cls) return u;
    PyObject *r = PyObject_CallOneArg(cls, u);
    Py_DECREF(u);
    return r;
}

static PyObject *key_to_py(py_decoding *c, const gdw_value *v) {
    if (v->type != GDW_STRING || v->len > PY_KEY_CACHE_MAX_LEN || !v->len) return to_py(c, v);
    uint32_t h = 2166136261u; /* FNV-1a */
    for (uint32_t i = 0; i < v->len; i++) h = (h ^ v->u.bytes[i]) * 16777619u;
    PyObject **slot = &c->keys[(h ^ (h >> 16)) % PY_KEY_CACHE];
    PyObject *s = *slot;
    if (s && PyUnicode_GET_LENGTH(s) == (Py_ssize_t)v->len && !memcmp(PyUnicode_DATA(s), v->u.bytes, v->len))
        return Py_NewRef(s); /* only ASCII str are kept: their characters are their UTF-8 bytes */
    s = text_to_py(v->u.bytes, v->len, NULL, g_types.raw_string);
    if (s && PyUnicode_CheckExact(s) && PyUnicode_IS_ASCII(s)) Py_XSETREF(*slot, Py_NewRef(s));
    return s;
}

static PyObject *array_to_py(py_decoding *c, const gdw_value *v) {
    const gdw_value *items = NULL;
    size_t n = gdw_children(v, &items);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *x = to_py(c, &items[i]);
        if (!x) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)i, x);
    }
    return list;
}

/* A Dictionary's pairs, from pair `from` on, appended to pairs as (key, value) tuples. */
static bool pairs_to_py(py_decoding *c, const gdw_value *items, size_t from, size_t n, PyObject *pairs) {
    for (size_t i = from; i < n; i++) {
        PyObject *k = key_to_py(c, &items[2 * i]);
        PyObject *x = k ? to_py(c, &items[2 * i + 1]) : NULL;
        PyObject *t = x ? PyTuple_Pack(2, k, x) : NULL;
        Py_XDECREF(k);
        Py_XDECREF(x);
        if (!t || PyList_Append(pairs, t) < 0) { Py_XDECREF(t); return false; }
        Py_DECREF(t);
    }
    return true;
}

/* A Dictionary: a dict while Python keeps every pair as its own key. From the first pair a dict would merge
 * (1 and True, 1 and 1.0) or cannot hold (an unhashable key), a gdwire.Dictionary of the pairs in order: the
 * dict so far holds the earlier pairs, in order and with their own key objects, since none merged. */
static PyObject *dictionary_to_py(py_decoding *c, const gdw_value *v) {
    const gdw_value *items = NULL;
    size_t n = gdw_children(v, &items) / 2;
    PyObject *d = _PyDict_NewPresized((Py_ssize_t)n);
    for (size_t i = 0; d && i < n; i++) {
        PyObject *k = key_to_py(c, &items[2 * i]);
        PyObject *x = k ? to_py(c, &items[2 * i + 1]) : NULL;
        if (!x) { Py_XDECREF(k); Py_CLEAR(d); break; }
        Py_ssize_t before = PyDict_GET_SIZE(d);
        /* setdefault, not setitem: a key already there keeps its first value for the pairs below */
        PyObject *had = PyDict_SetDefault(d, k, x);
        if (had && PyDict_GET_SIZE(d) > before) { Py_DECREF(k); Py_DECREF(x); continue; }
        if (!had && !PyErr_ExceptionMatches(PyExc_TypeError)) { Py_DECREF(k); Py_DECREF(x); Py_CLEAR(d); break; }
        PyErr_Clear();
        /* merged or unhashable: the pairs so far, from the dict as it was before this pair, then the rest */
        PyObject *pairs = PyList_New(0);
        Py_ssize_t pos = 0, seen = 0;
        PyObject *dk, *dv, *t = NULL;
        while (pairs && seen < before && PyDict_Next(d, &pos, &dk, &dv)) {
            t = PyTuple_Pack(2, dk, dv);
            if (!t || PyList_Append(pairs, t) < 0) Py_CLEAR(pairs);
            Py_XDECREF(t);
            seen++;
        }
        t = pairs ? PyTuple_Pack(2, k, x) : NULL;
        Py_DECREF(k);
        Py_DECREF(x);
        Py_CLEAR(d);
        if (!t || PyList_Append(pairs, t) < 0 || !pairs_to_py(c, items, i + 1, n, pairs)) {
            Py_XDECREF(t);
            Py_XDECREF(pairs);
            return NULL;
        }
        Py_DECREF(t);
        PyObject *r = PyObject_CallOneArg(g_types.dictionary, pairs);
        Py_DECREF(pairs);
        return r;
    }
    return d;
}

/* A typed Array or Dictionary, Godot 2's shared ones, Pandemonium's TypedArray: the container's own fields
 * (element types, shared, kind) through the JSON form of it emptied, so _values.py reads them, and its items
 * here; then the class again with the items. */
static PyObject *typed_container_to_py(py_decoding *c, const gdw_value *v) {
    gdw_value shell = *v;
    shell.len = 0;
    PyObject *empty = to_py_via_json(&shell);
    if (!empty) return NULL;
    PyObject *r = NULL;
    if (PyList_CheckExact(empty)) {
        r = array_to_py(c, v);
    } else if (PyDict_CheckExact(empty)) {
        r = dictionary_to_py(c, v);
    } else {
        bool dict = (PyObject *)Py_TYPE(empty) == g_types.dictionary;
        PyObject *const *fields = dict ? (PyObject *const[]){g_types.attr_key_type, g_types.attr_value_type, g_types.attr_shared}
                                       : (PyObject *const[]){g_types.attr_element_type, g_types.attr_shared, g_types.attr_kind};
        PyObject *items = NULL, *kw = PyDict_New();
        for (int i = 0; kw && i < 3; i++) {
            PyObject *x = PyObject_GetAttr(empty, fields[i]);
            if (!x || PyDict_SetItem(kw, fields[i], x) < 0) Py_CLEAR(kw);
            Py_XDECREF(x);
        }
        if (kw && dict) {
            const gdw_value *kids = NULL;
            size_t n = gdw_children(v, &kids) / 2;
            items = PyList_New(0);
            if (items && !pairs_to_py(c, kids, 0, n, items)) Py_CLEAR(items);
        } else if (kw) {
            items = array_to_py(c, v);
        }
        PyObject *a = items ? PyTuple_Pack(1, items) : NULL;
        if (a) r = PyObject_Call((PyObject *)Py_TYPE(empty), a, kw);
        Py_XDECREF(a);
        Py_XDECREF(items);
        Py_XDECREF(kw);
    }
    Py_DECREF(empty);
    return r;
}

/* An Object in full (class and properties): its class through the JSON form of it emptied, as a container's
 * fields, and its properties here, (name, value) pairs as the class takes them. */
static PyObject *object_to_py(py_decoding *c, const gdw_value *v) {
    gdw_value shell = *v;
    shell.len = 0;
    PyObject *empty = to_py_via_json(&shell);
    if (!empty) return NULL;
    const gdw_value *kids = NULL;
    size_t n = gdw_children(v, &kids) / 2;
    PyObject *pairs = PyList_New(0), *r = NULL;
    if (pairs && !pairs_to_py(c, kids, 0, n, pairs)) Py_CLEAR(pairs);
    PyObject *cls_name = pairs ? PyObject_GetAttr(empty, g_types.attr_class_name) : NULL;
    if (cls_name) r = PyObject_CallFunctionObjArgs((PyObject *)Py_TYPE(empty), cls_name, pairs, NULL);
    Py_XDECREF(cls_name);
    Py_XDECREF(pairs);
    Py_DECREF(empty);
    return r;
}

/* Component i of a real-based value as the JSON form writes it (the library's gdw_real_text, as its printer does):
 * a float, or for one that is not finite the word ("nan(0x7fc00001)", "-inf"), which _values.py keeps as read
 * (_raw) and writes back as it is. The reals grammar stays the library's: this module neither parses nor prints it. */
static PyObject *real_as_read(const gdw_value *v, size_t i) {
    unsigned w = v->width == 8 ? 8 : 4;
    uint64_t bits = 0;
    for (unsigned k = 0; k < w; k++) bits |= (uint64_t)v->u.bytes[w * i + k] << (8 * k);
    char t[48];
    gdw_real_text(t, sizeof t, bits, w);
    double x = gdw_value_real(v, i);
    if (x != x || x - x != 0) return PyUnicode_FromString(t); /* NaN or an infinity */
    double r = PyOS_string_to_double(t, NULL, NULL);
    return r == -1.0 && PyErr_Occurred() ? NULL : PyFloat_FromDouble(r);
}

/* A math value or a packed array of numbers, made here as _values.py's class with its components. One with a NaN
 * component also keeps every component as the JSON form gives it (_raw), so its payload is written back. */
static PyObject *numbers_to_py(const gdw_value *v, bool packed) {
    gdw_type t = (gdw_type)v->type;
    PyTypeObject *cls = (PyTypeObject *)g_types.numbers[t];
    size_t n = gdw_type_components(t) * (packed ? v->len : 1);
    bool reals = gdw_type_has_reals(t), nan = false;
    PyObject *values = PyTuple_New((Py_ssize_t)n);
    double chunk[64];
    for (size_t i = 0; values && i < n; i++) {
        PyObject *x;
        if (reals) {
            if (i % 64 == 0) gdw_value_reals(v, i, n - i < 64 ? n - i : 64, chunk);
            double r = chunk[i % 64];
            if (r != r) nan = true;
            x = PyFloat_FromDouble(r);
        } else {
            x = PyLong_FromLongLong((long long)gdw_value_int_at(v, i));
        }
        if (!x) { Py_CLEAR(values); break; }
        PyTuple_SET_ITEM(values, (Py_ssize_t)i, x);
    }
    if (!values) return NULL;
    PyObject *raw = Py_NewRef(Py_None);
    if (nan) {
        Py_SETREF(raw, PyTuple_New((Py_ssize_t)n));
        for (size_t i = 0; raw && i < n; i++) {
            PyObject *x = real_as_read(v, i);
            if (!x) { Py_CLEAR(raw); break; }
            PyTuple_SET_ITEM(raw, (Py_ssize_t)i, x);
        }
        if (!raw) { Py_DECREF(values); return NULL; }
    }
    /* as the class's __init__ leaves it: values, the reals' width (None for integers), the raw components or None */
    PyObject *width = reals ? PyLong_FromLong(v->width == 8 ? 8 : 4) : Py_NewRef(Py_None);
    PyObject *o = width ? cls->tp_alloc(cls, 0) : NULL;
    if (o && (PyObject_GenericSetAttr(o, g_types.attr_values, values) < 0 ||
              PyObject_GenericSetAttr(o, g_types.attr_real_width, width) < 0 ||
              PyObject_GenericSetAttr(o, g_types.attr_raw, raw) < 0))
        Py_CLEAR(o);
    Py_DECREF(values);
    Py_DECREF(raw);
    Py_XDECREF(width);
    return o;
}

static PyObject *packed_strings_to_py(py_decoding *c, const gdw_value *v) {
    (void)c;
    const gdw_str *s = (const gdw_str *)v->u.ext;
    /* the class is a tuple with no fields of its own: made at its size and filled, as tuple(...) would */
    PyTypeObject *cls = (PyTypeObject *)g_types.packed_string_array;
    PyObject *t = cls->tp_alloc(cls, (Py_ssize_t)v->len);
    for (uint32_t i = 0; t && i < v->len; i++) {
        PyObject *x = text_to_py(s[i].ptr, s[i].len, NULL, g_types.raw_string);
        if (!x) { Py_CLEAR(t); break; }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, x);
    }
    return t;
}

/* The decoder bounds the tree's depth (GDW_HARD_MAX_DEPTH), so this recursion is bounded too. */
static PyObject *to_py(py_decoding *c, const gdw_value *v) {
    double x;
    switch ((gdw_type)v->type) {
    case GDW_NIL: Py_RETURN_NONE;
    case GDW_BOOL: return PyBool_FromLong(v->u.i != 0);
    case GDW_INT: return PyLong_FromLongLong((long long)v->u.i);
    case GDW_FLOAT: /* the double the engines hold: an f32 widened, its NaN payload as C widens it */
        if (!gdw_get_float(v, &x)) break;
        return PyFloat_FromDouble(x);
    case GDW_STRING: return text_to_py(v->u.bytes, v->len, NULL, g_types.raw_string);
    case GDW_STRING_NAME: return text_to_py(v->u.bytes, v->len, g_types.string_name, g_types.raw_string_name);
    case GDW_PACKED_BYTE_ARRAY: return PyBytes_FromStringAndSize(v->len ? (const char *)v->u.bytes : "", (Py_ssize_t)v->len);
    case GDW_PACKED_STRING_ARRAY: return packed_strings_to_py(c, v);
    case GDW_ARRAY:
        if (v->flags & (GDW_VF_TYPED | GDW_VF_SHARED)) return typed_container_to_py(c, v); /* a gdwire.Array */
        return array_to_py(c, v);
    case GDW_DICTIONARY:
        if (v->flags & (GDW_VF_TYPED | GDW_VF_SHARED)) return typed_container_to_py(c, v); /* a gdwire.Dictionary */
        return dictionary_to_py(c, v);
    case GDW_TYPED_ARRAY:
    case GDW_PACKED_TYPED_ARRAY: return typed_container_to_py(c, v);
    case GDW_OBJECT:
        if (v->flags & (GDW_VF_OBJECT_ID | GDW_VF_OBJECT_NULL)) break; /* an id, or null: the JSON form's fields */
        return object_to_py(c, v);
    default:
        if (g_types.numbers[v->type]) { /* a math type, or a packed array of numbers */
            bool packed = v->type >= GDW_PACKED_INT32_ARRAY && v->type <= GDW_PACKED_COLOR_ARRAY;
            return numbers_to_py(v, packed);
        }
        break;
    }
    return to_py_via_json(v);
}

/* ---- Python -> the library's tree -------------------------------------------------------------- */

/* As _values.to_json: the top value is depth 0, and nothing deeper than GDW_HARD_MAX_DEPTH + 1 (1025) is a Variant. */
#define PY_MAX_DEPTH (GDW_HARD_MAX_DEPTH + 1)


/* A value of another type: _values.to_json gives its JSON form (or raises TypeError / ValueError), which the
 * library reads into a document that is copied into the one being built. */
static bool from_py_via_json(gdw_builder *b, PyObject *o, int depth) {
    PyObject *text = PyObject_CallFunction(g_types.to_json_text, "Oi", o, depth);
    if (!text) return false;
    Py_ssize_t n = 0;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    bool ok = false;
    if (s) {
        gdw_doc *doc = NULL;
        gdw_error err;
        memset(&err, 0, sizeof err);
        if (gdw_json_parse(s, (size_t)n, NULL, &doc, &err) != GDW_OK) {
            raise_gdw(g_encode_error, &err);
        } else {
            gdw_build_value(b, gdw_doc_root(doc)); /* a failure is the builder's, reported by gdw_build_finish */
            ok = true;
        }
        gdw_doc_free(doc);
    }
    Py_DECREF(text);
    return ok;
}

/* An attribute an instance of _values.py's classes holds; NULL with the exception when it cannot be read. */
static PyObject *field(PyObject *o, PyObject *name) { return PyObject_GenericGetAttr(o, name); }

/* A math value or a packed array of numbers of _values.py (cls is the class of type t), from its components.
 * Returns 0 done, 1 when it must go through the JSON form (a NaN or a payload kept as read: that form writes
 * them), -1 on a Python error. */
static int numbers_from_py(gdw_builder *b, PyObject *o, gdw_type t) {
    PyObject *values = field(o, g_types.attr_values), *raw = values ? field(o, g_types.attr_raw) : NULL;
    PyObject *width = raw ? field(o, g_types.attr_real_width) : NULL;
    int rc = -1;
    if (!width) goto done;
    rc = 1;
    if (raw != Py_None || !PyTuple_Check(values) || (width != Py_None && !PyLong_Check(width))) goto done;
    bool packed = t >= GDW_PACKED_INT32_ARRAY && t <= GDW_PACKED_COLOR_ARRAY, reals = gdw_type_has_reals(t);
    size_t n = (size_t)PyTuple_GET_SIZE(values);
    void *c = PyMem_Malloc(n ? n * 8 : 8);
    if (!c) { PyErr_NoMemory(); rc = -1; goto done; }
    for (size_t i = 0; i < n && rc == 1; i++) {
        PyObject *x = PyTuple_GET_ITEM(values, (Py_ssize_t)i);
        if (reals) {
            double r = PyFloat_Check(x) ? PyFloat_AS_DOUBLE(x) : PyFloat_AsDouble(x);
            if (r == -1.0 && PyErr_Occurred()) rc = -1;
            else if (r != r) rc = 2; /* NaN: the JSON form's text for it */
            ((double *)c)[i] = r;
        } else {
            int overflow = 0;
            long long k = PyLong_AsLongLongAndOverflow(x, &overflow);
            if (overflow) {
                PyErr_Format(PyExc_ValueError, "int %R does not fit Godot's 64-bit int", x);
                rc = -1;
            } else if (k == -1 && PyErr_Occurred()) {
                rc = -1;
            }
            ((int64_t *)c)[i] = (int64_t)k;
        }
    }
    if (rc == 1) {
        unsigned w = width == Py_None ? 0 : (unsigned)PyLong_AsLong(width); /* 0: the type's own */
        if (reals) packed ? gdw_build_packed_reals(b, t, (const double *)c, n, w) : gdw_build_math(b, t, (const double *)c, n, w);
        else packed ? gdw_build_packed_ints(b, t, (const int64_t *)c, n) : gdw_build_math_int(b, t, (const int64_t *)c, n);
        rc = 0;
    } else if (rc == 2) {
        rc = 1;
    }
    PyMem_Free(c);
done:
    Py_XDECREF(values);
    Py_XDECREF(raw);
    Py_XDECREF(width);
    return rc;
}

/* A PackedStringArray of str (one with a RawString entry goes through the JSON form: returns 1). */
static int packed_strings_from_py(gdw_builder *b, PyObject *o) {
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    gdw_str *s = (gdw_str *)PyMem_Malloc(n ? (size_t)n * sizeof *s : sizeof *s);
    if (!s) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(o, i);
        if (!PyUnicode_CheckExact(x)) { PyMem_Free(s); return 1; }
        Py_ssize_t len = 0;
        const char *p = PyUnicode_AsUTF8AndSize(x, &len); /* kept by x, which the tuple holds */
        if (!p) { PyMem_Free(s); return -1; }
        if ((size_t)len > UINT32_MAX) { PyMem_Free(s); return 1; }
        s[i].ptr = (const uint8_t *)p;
        s[i].len = (uint32_t)len;
    }
    gdw_build_packed_strings(b, s, (size_t)n);
    PyMem_Free(s);
    return 0;
}

/* The class of o when it is one of _values.py's number classes: its type, else -1. */
static int numbers_type_of(PyObject *o) {
    PyObject *cls = (PyObject *)Py_TYPE(o);
    for (int t = 0; t < GDW_TYPE_COUNT; t++)
        if (g_types.numbers[t] == cls) return t;
    return -1;
}

/* One value that is not a plain list, tuple or dict (from_py opens those). The builder's errors are sticky
 * and gdw_build_finish reports them, so only Python's are returned here. */
static bool leaf_from_py(gdw_builder *b, PyObject *o, int depth) {
    if (o == Py_None) { gdw_build_nil(b); return true; }
    if (PyBool_Check(o)) { gdw_build_bool(b, o == Py_True); return true; }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_ValueError, "int %R does not fit Godot's 64-bit int", o);
            return false;
        }
        if (x == -1 && PyErr_Occurred()) return false;
        gdw_build_int(b, (int64_t)x);
        return true;
    }
    if (PyFloat_CheckExact(o)) { gdw_build_float(b, PyFloat_AS_DOUBLE(o)); return true; }
    if (PyUnicode_CheckExact(o)) {
        Py_ssize_t n = 0;
        const char *s = PyUnicode_AsUTF8AndSize(o, &n);
        if (!s) return false;
        gdw_build_string(b, s, (size_t)n);
        return true;
    }
    if (PyBytes_CheckExact(o)) {
        gdw_build_packed_bytes(b, (const uint8_t *)PyBytes_AS_STRING(o), (size_t)PyBytes_GET_SIZE(o));
        return true;
    }
    PyObject *cls = (PyObject *)Py_TYPE(o);
    int rc = 1;
    if (cls == g_types.string_name) {
        Py_ssize_t n = 0;
        const char *s = PyUnicode_AsUTF8AndSize(o, &n);
        if (!s) return false;
        gdw_build_string_name(b, s, (size_t)n);
        return true;
    }
    if (cls == g_types.packed_string_array) rc = packed_strings_from_py(b, o);
    else if (PyType_HasFeature(Py_TYPE(o), Py_TPFLAGS_HEAPTYPE)) {
        int t = numbers_type_of(o);
        if (t >= 0) rc = numbers_from_py(b, o, (gdw_type)t);
    }
    if (rc <= 0) return rc == 0;
    return from_py_via_json(b, o, depth);
}

/* A list, tuple or dict being written: its items are taken one at a time. */
typedef struct open_container {
    PyObject *obj;   /* a reference held */
    Py_ssize_t pos;  /* the next item's index, or PyDict_Next's position */
    PyObject *value; /* a dict: the value of the key just written (a reference held), else NULL */
    bool dict;
} open_container;

/* o and everything in it, walked with a stack of its own (no recursion on the C stack, so any legal
 * depth encodes on a thread with a small stack: musl's 128 KiB). The top value is depth 0; a value at
 * depth PY_MAX_DEPTH + 1 raises, as _values.to_json does. */
static bool from_py(gdw_builder *b, PyObject *o) {
    open_container *stack = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    Py_INCREF(o);
    for (;;) {
        if (o) { /* o: a new reference, at depth n */
            if (n > PY_MAX_DEPTH) {
                PyErr_Format(PyExc_ValueError, "value nested deeper than %d levels below the top (the engines' limit)", (int)GDW_HARD_MAX_DEPTH);
                Py_DECREF(o);
                ok = false;
                break;
            }
            bool seq = PyList_CheckExact(o) || PyTuple_CheckExact(o), dict = PyDict_CheckExact(o);
            if (!seq && !dict) {
                ok = leaf_from_py(b, o, (int)n);
                Py_DECREF(o);
                o = NULL;
                if (!ok) break;
            } else {
                if (n == cap) {
                    size_t cap2 = cap ? cap * 2 : 16;
                    open_container *s2 = PyMem_Realloc(stack, cap2 * sizeof *s2);
                    if (!s2) {
                        PyErr_NoMemory();
                        Py_DECREF(o);
                        ok = false;
                        break;
                    }
                    stack = s2, cap = cap2;
                }
                if (dict) gdw_build_begin_dictionary(b);
                else gdw_build_begin_array(b);
                stack[n++] = (open_container){o, 0, NULL, dict}; /* the reference moves to the stack */
                o = NULL;
            }
        }
        if (!n) break;
        open_container *c = &stack[n - 1];
        if (c->dict) {
            PyObject *k, *x;
            if (c->value) {
                o = c->value, c->value = NULL;
                continue;
            }
            if (PyDict_Next(c->obj, &c->pos, &k, &x)) {
                Py_INCREF(k);
                Py_INCREF(x);
                c->value = x, o = k;
                continue;
            }
        } else if (c->pos < PySequence_Fast_GET_SIZE(c->obj)) {
            /* by index, reading the size each time: a fallback's Python code may change the list under us */
            o = PySequence_Fast_GET_ITEM(c->obj, c->pos);
            c->pos++;
            Py_INCREF(o);
            continue;
        }
        gdw_build_end(b);
        Py_DECREF(c->obj);
        n--;
    }
    while (n) {
        n--;
        Py_DECREF(stack[n].obj);
        Py_XDECREF(stack[n].value);
    }
    PyMem_Free(stack);
    return ok;
}

/* A decode call's options from its arguments: the dialect, or NULL with the exception set. */
static const gdw_dialect *decode_setup(const char *dname, const char *mname, int allow_objects, unsigned max_depth, gdw_decode_options *o) {
    const gdw_dialect *d = dialect_arg(dname);
    int mode = gdw_mode_from_name(mname);
    if (d && mode < 0) PyErr_Format(PyExc_ValueError, "unknown mode %s (compatible, strict or engine-exact)", mname);
    if (!d || mode < 0) return NULL;
    *o = gdw_decode_options_default();
    o->mode = (gdw_mode)mode;
    o->allow_objects = allow_objects != 0;
    o->max_depth = max_depth;
    return d;
}

/* An encode call's options: lossy as asked, and a FLOAT written at the width it carries (F32 / F64, and
 * the widths a decode read: gdwire/_values.py). */
static gdw_encode_options encode_options(int lossy) {
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy != 0;
    eo.keep_float_width = true;
    return eo;
}

/* An encode's answer: its bytes (out freed), or the EncodeError. */
static PyObject *encoded_bytes(gdw_status s, uint8_t *out, size_t n, const gdw_error *err) {
    if (s != GDW_OK) return raise_gdw(g_encode_error, err);
    PyObject *b = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n);
    free(out);
    return b;
}

/* decode(data, dialect, mode, allow_objects, max_depth) -> (value, consumed) */
static PyObject *py_decode(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    const char *dname, *mname;
    int allow_objects;
    unsigned max_depth;
    if (!types_ready() || !PyArg_ParseTuple(args, "y*sspI", &buf, &dname, &mname, &allow_objects, &max_depth)) return NULL;
    PyObject *res = NULL;
    gdw_decode_options o;
    const gdw_dialect *d = decode_setup(dname, mname, allow_objects, max_depth, &o);
    if (d) {
        o.borrow_input = true; /* the tree points into buf, which is held until the tree is freed */
        gdw_error err;
        memset(&err, 0, sizeof err);
        gdw_doc *doc = NULL;
        size_t consumed = 0;
        gdw_status s;
        Py_BEGIN_ALLOW_THREADS
        s = gdw_decode(d, (const uint8_t *)buf.buf, (size_t)buf.len, &o, NULL, &doc, &consumed, &err);
        Py_END_ALLOW_THREADS
        if (s != GDW_OK) {
            raise_gdw(g_decode_error, &err);
        } else {
            py_decoding c;
            memset(&c, 0, sizeof c);
            PyObject *v = to_py(&c, gdw_doc_root(doc));
            decoding_done(&c);
            if (v) res = Py_BuildValue("(Nn)", v, (Py_ssize_t)consumed);
        }
        gdw_doc_free(doc);
    }
    PyBuffer_Release(&buf);
    return res;
}

/* value_of_json(json text) -> value: one value of the library's JSON form, read by the library's parser (its reals
 * grammar, widths and payloads included) into a tree that to_py maps, as it maps a decoded one: gdwire.from_json. */
static PyObject *py_value_of_json(PyObject *self, PyObject *args) {
    (void)self;
    const char *json;
    Py_ssize_t n;
    if (!types_ready() || !PyArg_ParseTuple(args, "s#", &json, &n)) return NULL;
    gdw_error err;
    memset(&err, 0, sizeof err);
    gdw_doc *doc = NULL;
    PyObject *v = NULL;
    gdw_status s;
    /* the text is the str's own UTF-8, which the call's arguments hold: other threads run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    s = gdw_json_parse(json, (size_t)n, NULL, &doc, &err);
    Py_END_ALLOW_THREADS
    if (s != GDW_OK) {
        raise_gdw(g_decode_error, &err);
    } else {
        py_decoding c;
        memset(&c, 0, sizeof c);
        v = to_py(&c, gdw_doc_root(doc));
        decoding_done(&c);
    }
    gdw_doc_free(doc);
    return v;
}

/* real_text(bits, width) -> str: a real of width 4 or 8 by its bits, as the library writes it (gdw_real_text:
 * "nan", "-nan", "nan(0x7fc00001)", "inf", the shortest decimal): the JSON form's reals grammar, for to_json. */
static PyObject *py_real_text(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long bits;
    unsigned width;
    if (!PyArg_ParseTuple(args, "KI", &bits, &width)) return NULL;
    if (width != 4 && width != 8) return PyErr_Format(PyExc_ValueError, "a real's width is 4 or 8, not %u", width);
    char t[48];
    gdw_real_text(t, sizeof t, (uint64_t)bits, width);
    return PyUnicode_FromString(t);
}

/* encode(value, dialect, lossy) -> bytes */
static PyObject *py_encode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *value;
    const char *dname;
    int lossy;
    if (!types_ready() || !PyArg_ParseTuple(args, "Osp", &value, &dname, &lossy)) return NULL;
    const gdw_dialect *d = dialect_arg(dname);
    if (!d) return NULL;
    gdw_builder *b = gdw_builder_new(NULL);
    if (!b) return PyErr_NoMemory();
    gdw_error err;
    memset(&err, 0, sizeof err);
    gdw_doc *doc = NULL;
    if (!from_py(b, value)) { gdw_builder_free(b); return NULL; }
    gdw_status s = gdw_build_finish(b, &doc, &err);
    gdw_builder_free(b);
    if (s != GDW_OK) return raise_gdw(g_encode_error, &err);
    gdw_encode_options eo = encode_options(lossy);
    uint8_t *out = NULL;
    size_t n = 0;
    Py_BEGIN_ALLOW_THREADS
    s = gdw_encode_alloc(d, gdw_doc_root(doc), &eo, NULL, &out, &n, &err);
    gdw_doc_free(doc);
    Py_END_ALLOW_THREADS
    return encoded_bytes(s, out, n, &err);
}

/* decode_json(data, dialect, mode, allow_objects, max_depth, plain=False) -> (json text, consumed): the JSON form,
 * or plain JSON (gdw_json_print_plain) */
static PyObject *py_decode_json(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    const char *dname, *mname;
    int allow_objects, plain = 0;
    unsigned max_depth;
    if (!PyArg_ParseTuple(args, "y*sspI|p", &buf, &dname, &mname, &allow_objects, &max_depth, &plain)) return NULL;
    PyObject *res = NULL;
    gdw_decode_options o;
    const gdw_dialect *d = decode_setup(dname, mname, allow_objects, max_depth, &o);
    if (d) {
        gdw_error err;
        memset(&err, 0, sizeof err);
        gdw_doc *doc = NULL;
        size_t consumed = 0, jlen = 0;
        char *json = NULL;
        gdw_status s;
        Py_BEGIN_ALLOW_THREADS
        s = gdw_decode(d, (const uint8_t *)buf.buf, (size_t)buf.len, &o, NULL, &doc, &consumed, &err);
        if (s == GDW_OK) {
            json = plain ? gdw_json_print_plain_alloc(gdw_doc_root(doc), 0, NULL, &jlen)
                         : gdw_json_print_alloc(gdw_doc_root(doc), NULL, &jlen);
            if (!json) s = GDW_ERR_NOMEM;
        }
        gdw_doc_free(doc);
        Py_END_ALLOW_THREADS
        if (s == GDW_OK) {
            res = Py_BuildValue("(s#n)", json, (Py_ssize_t)jlen, (Py_ssize_t)consumed);
        } else if (s == GDW_ERR_NOMEM && !json && err.code != GDW_ERR_NOMEM) {
            PyErr_NoMemory();
        } else {
            raise_gdw(g_decode_error, &err);
        }
        gdw_text_free(NULL, json);
    }
    PyBuffer_Release(&buf);
    return res;
}

/* encode_json(json text, dialect, lossy) -> bytes */
static PyObject *py_encode_json(PyObject *self, PyObject *args) {
    (void)self;
    const char *json, *dname;
    Py_ssize_t jlen;
    int lossy;
    if (!PyArg_ParseTuple(args, "s#sp", &json, &jlen, &dname, &lossy)) return NULL;
    const gdw_dialect *d = dialect_arg(dname);
    if (!d) return NULL;
    gdw_encode_options eo = encode_options(lossy);
    gdw_error err;
    memset(&err, 0, sizeof err);
    uint8_t *out = NULL;
    size_t n = 0;
    gdw_status s;
    Py_BEGIN_ALLOW_THREADS
    s = gdw_encode_json(d, json, (size_t)jlen, 0, &eo, NULL, &out, &n, &err);
    Py_END_ALLOW_THREADS
    return encoded_bytes(s, out, n, &err);
}

/* check(data, allow_objects) -> ([(dialect, consumed, strict, engine_exact, error tuple or None, strict error or None, rank,
 * misread reals, reading, first, reason, short_by)], index of the best, skip, framing, summary, script): the library's whole answer
 * (gdw_check_report_make: its ranking, reasons and sentence, as `gdwire check` prints them) */
static PyObject *py_check(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    int allow_objects;
    if (!PyArg_ParseTuple(args, "y*p", &buf, &allow_objects)) return NULL;
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = allow_objects != 0;
    gdw_check_report *rep = NULL;
    Py_BEGIN_ALLOW_THREADS
    rep = gdw_check_report_make((const uint8_t *)buf.buf, (size_t)buf.len, &o, NULL);
    Py_END_ALLOW_THREADS
    char framing[80];
    if (rep) gdw_check_framing_text((const uint8_t *)buf.buf, (size_t)buf.len, rep->skip, framing, sizeof framing);
    PyBuffer_Release(&buf);
    if (!rep) return PyErr_NoMemory();
    static const char *const reading_name[] = {"whole", "cut", "prefix", "rejected"};
    size_t n = rep->n;
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const gdw_check_row *w = &rep->rows[i];
        const gdw_check_result *c = &w->result;
        PyObject *errt = Py_None;
        if (c->status != GDW_OK)
            errt = Py_BuildValue("(snsss)", gdw_status_name(c->err.code), (Py_ssize_t)c->err.offset, c->err.path,
                                 c->err.message ? c->err.message : "", gdw_engine_error_name(c->err.engine_error));
        else
            Py_INCREF(Py_None);
        PyObject *strict_why = Py_None;
        if (c->status == GDW_OK && !c->reencodes_same)
            strict_why = Py_BuildValue("(sns)", gdw_status_name(c->strict_err.code), (Py_ssize_t)c->strict_err.offset,
                                       c->strict_err.message ? c->strict_err.message : "");
        else
            Py_INCREF(Py_None);
        PyObject *t = errt && strict_why ? Py_BuildValue("(snNNOOinsNsn)", gdw_dialect_name(c->dialect), (Py_ssize_t)c->consumed,
                                                         PyBool_FromLong(c->status == GDW_OK && c->reencodes_same),
                                                         PyBool_FromLong(c->status == GDW_OK && c->engine_exact), errt, strict_why,
                                                         w->rank, (Py_ssize_t)(c->status == GDW_OK ? w->misread : 0), reading_name[w->reading],
                                                         PyBool_FromLong(w->first), w->reason,
                                                         (Py_ssize_t)(c->status == GDW_OK ? 0 : c->err.short_by))
                                         : NULL;
        Py_XDECREF(errt);
        Py_XDECREF(strict_why);
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    PyObject *out = list ? Py_BuildValue("(Nnnsss)", list, (Py_ssize_t)rep->best, (Py_ssize_t)rep->skip, framing, rep->summary, rep->script) : NULL;
    gdw_check_report_free(rep);
    return out;
}

/* dialects() -> [dict per row, in table order: dialects then release rows] */
static PyObject *py_dialects(PyObject *self, PyObject *noargs) {
    (void)self, (void)noargs;
    size_t n = gdw_row_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const gdw_dialect *d = gdw_row_at(i);
        const gdw_dialect *base = gdw_dialect_base(d);
        const char *ev = gdw_dialect_engine_evidence(d), *no = gdw_dialect_no_engine(d);
        PyObject *row = Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:z,s:z,s:z,s:N,s:N,s:I,s:I}", "name", gdw_dialect_name(d), "family",
                                      gdw_dialect_family(d), "summary", gdw_dialect_summary(d), "engines", gdw_dialect_engines(d),
                                      "aliases", gdw_dialect_aliases(d), "release", gdw_dialect_release(d), "released",
                                      gdw_dialect_released(d), "release_of", base && base != d ? gdw_dialect_name(base) : NULL,
                                      "engine_evidence", ev, "no_engine", no, "documented_only",
                                      PyBool_FromLong(gdw_dialect_documented_only(d)), "objects_by_default",
                                      PyBool_FromLong(gdw_dialect_objects_by_default(d)), "type_count", gdw_dialect_type_count(d), "fuzz_id",
                                      gdw_dialect_fuzz_id(d));
        if (!row) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)i, row);
    }
    return list;
}

/* objects_by_default(dialect) -> bool: the engine's script API decodes full Objects by default */
static PyObject *py_objects_by_default(PyObject *self, PyObject *args) {
    (void)self;
    const char *dname;
    if (!PyArg_ParseTuple(args, "s", &dname)) return NULL;
    const gdw_dialect *d = dialect_arg(dname);
    if (!d) return NULL;
    return PyBool_FromLong(gdw_dialect_objects_by_default(d));
}

/* canonical_name(name) -> the row's own name for a name or alias */
static PyObject *py_canonical_name(PyObject *self, PyObject *args) {
    (void)self;
    const char *dname;
    if (!PyArg_ParseTuple(args, "s", &dname)) return NULL;
    const gdw_dialect *d = dialect_arg(dname);
    return d ? PyUnicode_FromString(gdw_dialect_name(d)) : NULL;
}

/* ---- sessions (session/gdwire_session.h) ------------------------------------------------------ */

/* libenet's range coder (Godot 3.4+'s default compression of ENet datagrams), loaded when a Session asks for it, as
 * `gdwire capture` loads it (cli/capture.c): its enet_range_coder_decompress is a gdw_decompress_fn as it is. A
 * successful load is kept for the process; a failed one is tried again at the next Session that asks. */
static struct {
    void *(*create)(void);
    void (*destroy)(void *);
    gdw_decompress_fn decompress;
} g_enet;

static bool range_coder_load(void) {
    if (g_enet.decompress) return true;
    const char *names[] = {"libenet.so.7", "libenet.so"};
    void *h = NULL;
    char why[200] = "";
    for (size_t i = 0; !h && i < sizeof names / sizeof *names; i++) {
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h && !why[0]) snprintf(why, sizeof why, "%s", dlerror());
    }
    if (!h) {
        PyErr_Format(PyExc_OSError, "range_coder=True: cannot load libenet, whose range coder Godot 3.4+ compresses ENet datagrams with (%s): "
                     "install it (Debian: apt-get install libenet7), or read without it (range-coded datagrams are then problems)", why);
        return false;
    }
    void *create = dlsym(h, "enet_range_coder_create"), *destroy = dlsym(h, "enet_range_coder_destroy"),
         *decompress = dlsym(h, "enet_range_coder_decompress");
    if (!create || !destroy || !decompress) {
        dlclose(h);
        PyErr_SetString(PyExc_OSError, "range_coder=True: the libenet found has no enet_range_coder_create, _destroy and _decompress");
        return false;
    }
    *(void **)&g_enet.create = create;
    *(void **)&g_enet.destroy = destroy;
    *(void **)&g_enet.decompress = decompress;
    return true;
}

/* A session and what one feed (frame, udp, finish) produced. The library calls on_message and on_problem during the
 * feed with the GIL held; each event is built into `events` at once (the message and its trees live only during the
 * call). The first Python exception an event raises is kept, the feed's later events are not built, and the feed
 * raises it when the library returns: its events are lost, the session goes on. */
typedef struct {
    PyObject_HEAD
    gdw_session *s;
    void *range_ctx;
    PyObject *events;                  /* during a feed */
    PyObject *err_type, *err_value, *err_tb; /* the exception an event raised during a feed */
    bool busy;                         /* a feed runs: Python code an event runs (the JSON form's mapping) may let another
                                          thread in, which must not enter the library's session too */
    bool finished;
    gdw_rpc_manifest *manifest;        /* Session(project=...): every message read against it (gdw_rpc_annotate) */
    gdw_rpc_annotator *annotator;
} session_object;

/* Text off the wire as str: UTF-8, and the bytes that are not as lone surrogates (surrogateescape), so
 * s.encode("utf-8", "surrogateescape") gives the packet's bytes back. */
static PyObject *wire_text(const char *p, size_t n) {
    return PyUnicode_DecodeUTF8(n ? p : "", (Py_ssize_t)n, "surrogateescape");
}

static PyObject *wire_text_or_none(const char *p, size_t n) { return p ? wire_text(p, n) : Py_NewRef(Py_None); }

static PyObject *int_or_none(bool have, long long v) { return have ? PyLong_FromLongLong(v) : Py_NewRef(Py_None); }

/* The fields of the message's command, in the order gdwire/_session.py's Message lists them after its common ones:
 * node_id, inline_path, method_id, method, md5, checksum_valid, net_id, scene_id, name, sync_time, peer, payload
 * (None where the command has no such field). */
#define MP_FIELDS 12
static PyObject *command_fields(const gdw_mp_parsed *p) {
    PyObject *f[MP_FIELDS];
    for (int i = 0; i < MP_FIELDS; i++) f[i] = NULL;
    switch (p->command) {
    case GDW_MP_RPC:
    case GDW_MP_RSET:
        f[0] = int_or_none(p->as.rpc.node_id >= 0, p->as.rpc.node_id);
        f[1] = wire_text_or_none(p->as.rpc.path, p->as.rpc.path_len);
        f[2] = int_or_none(p->as.rpc.method_id >= 0, p->as.rpc.method_id);
        f[3] = wire_text_or_none(p->as.rpc.method, p->as.rpc.method_len);
        break;
    case GDW_MP_SIMPLIFY_PATH:
    case GDW_MP_CONFIRM_PATH:
        f[0] = int_or_none(p->as.path.node_id >= 0, p->as.path.node_id);
        f[1] = wire_text_or_none(p->as.path.path, p->as.path.path_len);
        f[4] = p->as.path.md5[0] ? wire_text(p->as.path.md5, strlen(p->as.path.md5)) : Py_NewRef(Py_None);
        f[5] = p->as.path.checksum_valid >= 0 ? PyBool_FromLong(p->as.path.checksum_valid) : Py_NewRef(Py_None);
        break;
    case GDW_MP_SPAWN:
        f[0] = PyLong_FromLongLong(p->as.spawn.spawner_id);
        f[6] = PyLong_FromLongLong(p->as.spawn.net_id);
        f[7] = PyLong_FromLong(p->as.spawn.scene_id);
        f[8] = wire_text(p->as.spawn.name, p->as.spawn.name_len);
        break;
    case GDW_MP_DESPAWN: f[6] = PyLong_FromLongLong(p->as.despawn.net_id); break;
    case GDW_MP_SYNC: f[9] = PyLong_FromLong(p->as.sync.time); break;
    case GDW_MP_SYS_ADD_PEER:
    case GDW_MP_SYS_DEL_PEER: f[10] = PyLong_FromLongLong(p->as.sys.peer); break;
    case GDW_MP_SYS_AUTH:
    case GDW_MP_SYS_RELAY:
        f[11] = PyBytes_FromStringAndSize(p->as.sys.payload_len ? (const char *)p->as.sys.payload : "", (Py_ssize_t)p->as.sys.payload_len);
        break;
    case GDW_MP_RAW:
        f[11] = PyBytes_FromStringAndSize(p->as.raw.payload_len ? (const char *)p->as.raw.payload : "", (Py_ssize_t)p->as.raw.payload_len);
        break;
    default: break;
    }
    PyObject *t = PyTuple_New(MP_FIELDS);
    for (int i = 0; i < MP_FIELDS; i++) {
        if (!f[i] && PyErr_Occurred()) {
            Py_CLEAR(t);
        } else if (!f[i]) {
            f[i] = Py_NewRef(Py_None);
        }
        if (t) PyTuple_SET_ITEM(t, i, f[i]);
        else Py_XDECREF(f[i]);
    }
    return t;
}

/* One value of a message: (label, index, net_id, indexes, offset, length, encoding, value, error), error a tuple
 * (code, offset, path, message, value_offset, engine_error) for DecodeError, offsets from the value's first byte. */
static PyObject *message_value(py_decoding *c, const gdw_mp_parsed *p, const gdw_mp_value *v) {
    bool sync = p->command == GDW_MP_SYNC || p->command == GDW_MP_DELTA;
    PyObject *value = NULL, *error = NULL;
    if (v->status == GDW_OK && v->value) {
        value = to_py(c, v->value);
        error = Py_NewRef(Py_None);
    } else {
        value = Py_NewRef(Py_None);
        error = Py_BuildValue("(snssns)", gdw_status_name(v->status), (Py_ssize_t)v->error.offset, v->error.path,
                              v->error.message ? v->error.message : "", (Py_ssize_t)v->error.value_offset,
                              gdw_engine_error_name(v->error.engine_error));
    }
    PyObject *net = sync ? PyLong_FromUnsignedLong(v->net_id) : Py_NewRef(Py_None);
    PyObject *indexes = p->command == GDW_MP_DELTA ? PyLong_FromUnsignedLongLong(v->indexes) : Py_NewRef(Py_None);
    PyObject *t = NULL;
    if (value && error && net && indexes)
        t = Py_BuildValue("(sIOOnnsOO)", v->label, v->index, net, indexes, (Py_ssize_t)v->offset, (Py_ssize_t)v->length,
                          gdw_mp_encoding_name(v->encoding), value, error);
    Py_XDECREF(value);
    Py_XDECREF(error);
    Py_XDECREF(net);
    Py_XDECREF(indexes);
    return t;
}

/* With a project: (method, args_fit, refused, project_md5) as capture --project --json gives them (the manifest's
 * method name for a Godot 4 RPC; args_fit True, False or None when the manifest cannot tell; refused, the reason when
 * False; project_md5, a SIMPLIFY_PATH's node's MD5 in the project when the announced one is another build's); None
 * for a message the project says nothing of. */
static PyObject *project_fields(session_object *self, const gdw_message *m) {
    gdw_rpc_call c;
    if (!self->annotator || !gdw_rpc_annotate(self->annotator, m, &c)) return Py_NewRef(Py_None);
    if (m->mp->command == GDW_MP_SIMPLIFY_PATH)
        return c.md5_differs ? Py_BuildValue("(OOOs)", Py_None, Py_None, Py_None, c.node->md5) : Py_NewRef(Py_None);
    if (!c.method) return Py_NewRef(Py_None);
    PyObject *name = wire_text(c.method->name, strlen(c.method->name));
    if (!name) return NULL;
    bool refused = c.fit.known && !c.fit.fits;
    return Py_BuildValue("(NOzO)", name, !c.fit.known ? Py_None : c.fit.fits ? Py_True : Py_False, refused ? c.fit.reason : NULL,
                         Py_None);
}

/* A message as (0, frame, time, flow, transport, dialect, from, to, relayed, channel, mode, command, path, data,
 * fields, values, project): gdwire/_session.py makes the Message. */
static PyObject *message_event(session_object *self, const gdw_message *m) {
    const gdw_mp_parsed *p = m->mp;
    PyObject *values = PyTuple_New((Py_ssize_t)p->value_count);
    py_decoding c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; values && i < p->value_count; i++) {
        PyObject *v = message_value(&c, p, &p->values[i]);
        if (!v) { Py_CLEAR(values); break; }
        PyTuple_SET_ITEM(values, (Py_ssize_t)i, v);
    }
    decoding_done(&c);
    PyObject *fields = values ? command_fields(p) : NULL;
    PyObject *path = fields ? wire_text_or_none(m->path, m->path ? strlen(m->path) : 0) : NULL;
    PyObject *data = path ? PyBytes_FromStringAndSize(m->len ? (const char *)m->bytes : "", (Py_ssize_t)m->len) : NULL;
    PyObject *project = data ? project_fields(self, m) : NULL;
    PyObject *t = NULL;
    if (project)
        t = Py_BuildValue("(iKdIssLLOIssOOOON)", 0, (unsigned long long)m->frame, m->time, m->flow, m->transport,
                          m->dialect ? gdw_dialect_name(m->dialect) : "", (long long)m->from, (long long)m->to, m->relayed ? Py_True : Py_False,
                          m->channel, m->mode, gdw_mp_command_name(p->command), path, data, fields, values, project);
    Py_XDECREF(values);
    Py_XDECREF(fields);
    Py_XDECREF(path);
    Py_XDECREF(data);
    return t;
}

/* A problem as (1, frame, time, flow, layer, offset, message). */
static PyObject *problem_event(const gdw_session_problem *p) {
    PyObject *msg = wire_text(p->message, strlen(p->message));
    if (!msg) return NULL;
    return Py_BuildValue("(iKdIsnN)", 1, (unsigned long long)p->frame, p->time, p->flow, p->layer, (Py_ssize_t)p->offset, msg);
}

static void session_event(session_object *self, PyObject *ev) {
    if (ev && PyList_Append(self->events, ev) == 0) {
        Py_DECREF(ev);
        return;
    }
    Py_XDECREF(ev);
    PyErr_Fetch(&self->err_type, &self->err_value, &self->err_tb);
    if (!self->err_type) self->err_type = Py_NewRef(PyExc_SystemError); /* a NULL without an exception: never expected */
}

static void session_on_message(void *ctx, const gdw_message *m) {
    session_object *self = ctx;
    if (!self->events || self->err_type) return;
    session_event(self, message_event(self, m));
}

static void session_on_problem(void *ctx, const gdw_session_problem *p) {
    session_object *self = ctx;
    if (!self->events || self->err_type) return;
    session_event(self, problem_event(p));
}

#define SESSION_CAPS 10
static size_t *session_cap(gdw_session_options *o, int i) {
    size_t *caps[SESSION_CAPS] = {&o->max_open_fragment_bytes, &o->max_flow_fragment_bytes, &o->max_packet_bytes,
                                  &o->max_flows,           &o->max_cached_paths,        &o->max_window_bytes,
                                  &o->max_flow_window_bytes, &o->max_path_bytes,        &o->max_flow_path_bytes,
                                  &o->max_ip_fragment_bytes};
    return caps[i];
}
static const char *const k_cap_names[SESSION_CAPS] = {"max_open_fragment_bytes", "max_flow_fragment_bytes", "max_packet_bytes",
                                                      "max_flows",               "max_cached_paths",        "max_window_bytes",
                                                      "max_flow_window_bytes",   "max_path_bytes",          "max_flow_path_bytes",
                                                      "max_ip_fragment_bytes"};

static void session_dealloc(session_object *self) {
    gdw_session_free(self->s);
    gdw_rpc_annotator_free(self->annotator);
    gdw_rpc_manifest_free(self->manifest);
    if (self->range_ctx) g_enet.destroy(self->range_ctx);
    Py_XDECREF(self->events);
    Py_XDECREF(self->err_type);
    Py_XDECREF(self->err_value);
    Py_XDECREF(self->err_tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The manifest of Session(project=...): ("dir", folder) read with gdw_project_read, or ("json", text) parsed. */
static gdw_rpc_manifest *project_arg(PyObject *project) {
    const char *kind, *what;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(project, "ss#", &kind, &what, &len)) return NULL;
    gdw_rpc_manifest *m = NULL;
    char err[256] = "";
    gdw_project_status st = strcmp(kind, "dir") == 0 ? gdw_project_read(what, NULL, &m, err, sizeof err)
                                                      : gdw_rpc_manifest_parse(what, (size_t)len, &m, err, sizeof err);
    if (st == GDW_PROJECT_NOMEM) return (gdw_rpc_manifest *)PyErr_NoMemory();
    if (st != GDW_PROJECT_OK) {
        PyErr_Format(strcmp(kind, "dir") == 0 && st == GDW_PROJECT_IO ? PyExc_OSError : PyExc_ValueError, "project: %s", err);
        return NULL;
    }
    return m;
}

/* _Session(dialect or None, mode, allow_objects, range_coder, caps, project): caps a tuple of SESSION_CAPS numbers, each
 * 1 or more; project None or (kind, text) (project_arg) */
static PyObject *session_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *dialect, *caps, *project = Py_None;
    const char *mname;
    int allow_objects, range_coder;
    static char *kw[] = {"dialect", "mode", "allow_objects", "range_coder", "caps", "project", NULL};
    if (!types_ready() || !PyArg_ParseTupleAndKeywords(args, kwargs, "OsppO!|O", kw, &dialect, &mname, &allow_objects, &range_coder,
                                                       &PyTuple_Type, &caps, &project))
        return NULL;
    gdw_session_options o = gdw_session_options_default();
    if (dialect != Py_None) {
        const char *dname = PyUnicode_Check(dialect) ? PyUnicode_AsUTF8(dialect) : NULL;
        if (!dname) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "dialect must be a str or None, not %s", Py_TYPE(dialect)->tp_name);
        if (!(o.dialect = dialect_arg(dname))) return NULL;
        if (gdw_dialect_rule(o.dialect, GDW_RULE_MULTIPLAYER) == GDW_MULTIPLAYER_NONE)
            return PyErr_Format(PyExc_ValueError, "dialect %s: the multiplayer layer of its engines is not read (godot4, godot4.3, "
                                "godot4-double, godot3 and godot3@3.2 are)", dname);
    }
    int mode = gdw_mode_from_name(mname);
    if (mode < 0) return PyErr_Format(PyExc_ValueError, "unknown mode %s (compatible, strict or engine-exact)", mname);
    o.decode.mode = (gdw_mode)mode;
    o.decode.allow_objects = allow_objects != 0;
    if (PyTuple_GET_SIZE(caps) != SESSION_CAPS) return PyErr_Format(PyExc_TypeError, "caps: want %d numbers", SESSION_CAPS);
    for (int i = 0; i < SESSION_CAPS; i++) {
        Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(caps, i));
        if (n == -1 && PyErr_Occurred()) return NULL;
        if (n < 1) return PyErr_Format(PyExc_ValueError, "%s must be 1 or more, not %zd", k_cap_names[i], n);
        *session_cap(&o, i) = (size_t)n;
    }
    /* gdw_session_new refuses these (session.c): say which */
    if (o.max_flows > GDW_SESSION_MAX_FLOWS_LIMIT)
        return PyErr_Format(PyExc_ValueError, "max_flows must be at most %zu", GDW_SESSION_MAX_FLOWS_LIMIT);
    if (o.max_cached_paths > GDW_SESSION_MAX_CACHED_PATHS_LIMIT)
        return PyErr_Format(PyExc_ValueError, "max_cached_paths must be at most %zu", GDW_SESSION_MAX_CACHED_PATHS_LIMIT);
    session_object *self = (session_object *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (range_coder) {
        if (!range_coder_load()) { Py_DECREF(self); return NULL; }
        if (!(self->range_ctx = g_enet.create())) { Py_DECREF(self); return PyErr_NoMemory(); }
        o.decompress = g_enet.decompress, o.decompress_ctx = self->range_ctx;
    }
    if (project != Py_None) {
        if (!(self->manifest = project_arg(project))) { Py_DECREF(self); return NULL; }
        if (!(self->annotator = gdw_rpc_annotator_new(self->manifest))) { Py_DECREF(self); return PyErr_NoMemory(); }
    }
    self->s = gdw_session_new(&o, session_on_message, session_on_problem, self);
    if (!self->s) { Py_DECREF(self); return PyErr_NoMemory(); }
    return (PyObject *)self;
}

static bool feed_begin(session_object *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the session is being fed already (another thread, or code an event ran): a Session is used by one thread at a time");
        return false;
    }
    if (self->finished) {
        PyErr_SetString(PyExc_ValueError, "the session is finished (finish() was called): make a new Session");
        return false;
    }
    if (!(self->events = PyList_New(0))) return false;
    self->busy = true;
    return true;
}

/* The feed's events, or its exception (events dropped). */
static PyObject *feed_end(session_object *self) {
    self->busy = false;
    PyObject *events = self->events;
    self->events = NULL;
    if (self->err_type) {
        Py_DECREF(events);
        PyErr_Restore(self->err_type, self->err_value, self->err_tb);
        self->err_type = self->err_value = self->err_tb = NULL;
        return NULL;
    }
    return events;
}

/* frame(data, link, time, wirelen) -> events; wirelen -1: len(data) */
static PyObject *session_frame(session_object *self, PyObject *args) {
    Py_buffer buf;
    int link;
    double time;
    Py_ssize_t wirelen;
    if (!PyArg_ParseTuple(args, "y*idn", &buf, &link, &time, &wirelen)) return NULL;
    PyObject *r = NULL;
    if (wirelen >= 0 && wirelen < buf.len) {
        PyErr_Format(PyExc_ValueError, "wirelen (%zd) is less than the bytes captured (%zd)", wirelen, buf.len);
    } else if (feed_begin(self)) {
        gdw_session_frame(self->s, link, (const uint8_t *)buf.buf, (size_t)buf.len, (size_t)(wirelen < 0 ? buf.len : wirelen), time);
        r = feed_end(self);
    }
    PyBuffer_Release(&buf);
    return r;
}

/* udp(src address bytes, src port, dst address bytes, dst port, payload, time) -> events */
static PyObject *session_udp(session_object *self, PyObject *args) {
    Py_buffer src, dst, payload;
    unsigned short sport, dport;
    double time;
    if (!PyArg_ParseTuple(args, "y*Hy*Hy*d", &src, &sport, &dst, &dport, &payload, &time)) return NULL;
    PyObject *r = NULL;
    if (src.len != dst.len || (src.len != 4 && src.len != 16)) {
        PyErr_SetString(PyExc_ValueError, "src and dst must be addresses of one family (4 bytes each, or 16)");
    } else if (feed_begin(self)) {
        gdw_session_udp(self->s, (const uint8_t *)src.buf, (size_t)src.len, sport, (const uint8_t *)dst.buf, dport,
                        (const uint8_t *)payload.buf, (size_t)payload.len, time);
        r = feed_end(self);
    }
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    PyBuffer_Release(&payload);
    return r;
}

static PyObject *session_finish(session_object *self, PyObject *noargs) {
    (void)noargs;
    if (!feed_begin(self)) return NULL;
    gdw_session_finish(self->s);
    self->finished = true;
    return feed_end(self);
}

/* stats() -> dict of gdw_session_stats's members, by_command a dict of the commands counted */
static PyObject *session_stats(session_object *self, PyObject *noargs) {
    (void)noargs;
    gdw_session_stats st = gdw_session_get_stats(self->s);
    PyObject *by = PyDict_New();
    for (int c = 0; by && c < GDW_MP_COMMAND_COUNT; c++) {
        if (!st.by_command[c]) continue;
        PyObject *n = PyLong_FromUnsignedLongLong(st.by_command[c]);
        if (!n || PyDict_SetItemString(by, gdw_mp_command_name((gdw_mp_command)c), n) < 0) Py_CLEAR(by);
        Py_XDECREF(n);
    }
    if (!by) return NULL;
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:N,s:K,s:n,s:n,s:n,s:n,s:n,s:n,s:I}", "frames", st.frames,
                         "udp_datagrams", st.udp_datagrams, "enet_datagrams", st.enet_datagrams, "tcp_segments", st.tcp_segments,
                         "messages", st.messages, "retransmits", st.retransmits, "problems", st.problems, "fragments_completed",
                         st.fragments_completed, "fragments_dropped", st.fragments_dropped, "decompressed", st.decompressed,
                         "states_dropped", st.states_dropped, "by_command", by, "message_bytes", st.message_bytes,
                         "open_fragment_bytes", (Py_ssize_t)st.open_fragment_bytes, "peak_fragment_bytes", (Py_ssize_t)st.peak_fragment_bytes,
                         "window_bytes", (Py_ssize_t)st.window_bytes, "path_bytes", (Py_ssize_t)st.path_bytes, "held_bytes",
                         (Py_ssize_t)st.held_bytes, "peak_held_bytes", (Py_ssize_t)st.peak_held_bytes, "flows", st.flows);
}

/* flows() -> [(number, endpoints, dialect or None, client's compression, server's compression)] */
static PyObject *session_flows(session_object *self, PyObject *noargs) {
    (void)noargs;
    unsigned n = gdw_session_get_stats(self->s).flows;
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (unsigned f = 1; list && f <= n; f++) {
        const gdw_dialect *d = gdw_session_flow_dialect(self->s, f);
        PyObject *t = Py_BuildValue("(Iszss)", f, gdw_session_flow_text(self->s, f), d ? gdw_dialect_name(d) : NULL,
                                    gdw_enet_compression_name(gdw_session_flow_compression(self->s, f, 0)),
                                    gdw_enet_compression_name(gdw_session_flow_compression(self->s, f, 1)));
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)(f - 1), t);
    }
    return list;
}

static PyMethodDef k_session_methods[] = {
    {"frame", (PyCFunction)session_frame, METH_VARARGS, "frame(data, link, time, wirelen) -> events"},
    {"udp", (PyCFunction)session_udp, METH_VARARGS, "udp(src, sport, dst, dport, payload, time) -> events"},
    {"finish", (PyCFunction)session_finish, METH_NOARGS, "finish() -> events"},
    {"stats", (PyCFunction)session_stats, METH_NOARGS, "stats() -> dict"},
    {"flows", (PyCFunction)session_flows, METH_NOARGS, "flows() -> list of tuples"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject k_session_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gdwire._gdwire._Session",
    .tp_basicsize = sizeof(session_object),
    .tp_dealloc = (destructor)session_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A gdw_session (internal: use gdwire.Session).",
    .tp_methods = k_session_methods,
    .tp_new = session_new,
};

/* ---- capture files: gdwire's own pcap and pcapng reader (session/gdwire_pcap.h) ------------------------------ */

typedef struct capture_object {
    PyObject_HEAD
    gdw_pcap *r;
    Py_buffer buf; /* a bytes-like source, held while it is read */
    bool have_buf, done;
    PyObject *file; /* or a binary file object, read through its read() */
} capture_object;

/* The reader's read callback over a file object: its read(n)'s bytes; SIZE_MAX (the reader's error) when read raised
 * or gave no bytes object, the Python exception left set for __next__ to raise. */
static size_t capture_read(void *ctx, uint8_t *out, size_t n) {
    capture_object *self = ctx;
    PyObject *b = PyObject_CallMethod(self->file, "read", "n", (Py_ssize_t)n);
    if (!b) return SIZE_MAX;
    if (!PyBytes_Check(b) || (size_t)PyBytes_GET_SIZE(b) > n) {
        PyErr_SetString(PyExc_TypeError, "read_capture: the file's read(n) must give at most n bytes (a file opened in binary mode)");
        Py_DECREF(b);
        return SIZE_MAX;
    }
    size_t k = (size_t)PyBytes_GET_SIZE(b);
    memcpy(out, PyBytes_AS_STRING(b), k);
    Py_DECREF(b);
    return k;
}

static void capture_dealloc(capture_object *self) {
    gdw_pcap_free(self->r);
    if (self->have_buf) PyBuffer_Release(&self->buf);
    Py_XDECREF(self->file);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* _Capture(source, max_record_bytes): source a bytes-like object or a binary file object */
static PyObject *capture_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *source;
    Py_ssize_t max_record = 0;
    static char *kw[] = {"source", "max_record_bytes", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|n", kw, &source, &max_record)) return NULL;
    capture_object *self = (capture_object *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    gdw_pcap_options o = gdw_pcap_options_default();
    if (max_record > 0) o.max_record_bytes = (size_t)max_record;
    if (PyObject_CheckBuffer(source)) {
        if (PyObject_GetBuffer(source, &self->buf, PyBUF_SIMPLE) < 0) { Py_DECREF(self); return NULL; }
        self->have_buf = true;
        self->r = gdw_pcap_open_memory(self->buf.buf, (size_t)self->buf.len, &o);
    } else if (PyObject_HasAttrString(source, "read")) {
        Py_INCREF(source);
        self->file = source;
        self->r = gdw_pcap_open_stream(capture_read, self, &o);
    } else {
        PyErr_SetString(PyExc_TypeError, "read_capture: a path, a bytes-like object or a binary file");
        Py_DECREF(self);
        return NULL;
    }
    if (!self->r) { Py_DECREF(self); return PyErr_NoMemory(); }
    return (PyObject *)self;
}

/* next record: (number, offset, link, time, has_time, wirelen, data); at the end StopIteration; a file that is not
 * whole or not a capture: ("error", status name, offset, message), once, then StopIteration */
static PyObject *capture_next(capture_object *self) {
    if (self->done) return NULL;
    gdw_pcap_record rec;
    gdw_pcap_error err;
    memset(&err, 0, sizeof err);
    gdw_pcap_status st = gdw_pcap_next(self->r, &rec, &err);
    if (st == GDW_PCAP_OK)
        return Py_BuildValue("(KKidNny#)", (unsigned long long)rec.number, (unsigned long long)rec.offset, rec.link, rec.time, PyBool_FromLong(rec.has_time),
                             (Py_ssize_t)rec.wirelen, (const char *)rec.data, (Py_ssize_t)rec.caplen);
    self->done = true;
    if (PyErr_Occurred()) return NULL; /* the file object's read raised */
    if (st == GDW_PCAP_END) return NULL;
    return Py_BuildValue("(ssKs)", "error", gdw_pcap_status_name(st), (unsigned long long)err.offset, err.message);
}

static PyTypeObject k_capture_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gdwire._gdwire._Capture",
    .tp_basicsize = sizeof(capture_object),
    .tp_dealloc = (destructor)capture_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A gdw_pcap reader (internal: use gdwire.read_capture).",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)capture_next,
    .tp_new = capture_new,
};

/* session_defaults() -> {cap name: the library's default, "allow_objects": the library's default} */
static PyObject *py_session_defaults(PyObject *self, PyObject *noargs) {
    (void)self, (void)noargs;
    gdw_session_options o = gdw_session_options_default();
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < SESSION_CAPS; i++) {
        PyObject *n = PyLong_FromSize_t(*session_cap(&o, i));
        if (!n || PyDict_SetItemString(d, k_cap_names[i], n) < 0) Py_CLEAR(d);
        Py_XDECREF(n);
    }
    if (d && PyDict_SetItemString(d, "allow_objects", o.decode.allow_objects ? Py_True : Py_False) < 0) Py_CLEAR(d);
    return d;
}

/* compressions_built() -> the names of the ENet compressions this build reads itself (gdw_enet_compression_built) */
static PyObject *py_compressions_built(PyObject *self, PyObject *noargs) {
    (void)self, (void)noargs;
    PyObject *list = PyList_New(0);
    for (int c = GDW_ENET_COMPRESS_RANGE_CODER; list && c <= GDW_ENET_COMPRESS_ZSTD; c++) {
        if (!gdw_enet_compression_built((gdw_enet_compression)c)) continue;
        PyObject *s = PyUnicode_FromString(gdw_enet_compression_name((gdw_enet_compression)c));
        if (!s || PyList_Append(list, s) < 0) Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

/* ---- Godot's file containers (files/gdwire_files.h) ------------------------------------------------------ */

static const char *const k_container_name[] = {"plain", "compressed", "encrypted"};

/* raise ValueError(status, offset, message); gdwire/_saves.py turns it into SaveError */
static PyObject *raise_file(gdw_file_status st, const gdw_file_error *e) {
    static const char *const names[] = {"OK", "TRUNCATED", "CORRUPT", "NEED_KEY", "WRONG_KEY", "TOO_BIG", "UNSUPPORTED", "NO_MEMORY", "BAD_ARGUMENT"};
    PyObject *t = Py_BuildValue("(sKs)", (unsigned)st < sizeof names / sizeof *names ? names[st] : "?", (unsigned long long)e->offset, e->message);
    if (t) PyErr_SetObject(PyExc_ValueError, t);
    Py_XDECREF(t);
    return NULL;
}

static PyObject *info_dict(const gdw_file_info *i) {
    char md5[33], iv[33];
    for (int k = 0; k < 16; k++) snprintf(md5 + 2 * k, 3, "%02x", i->md5[k]), snprintf(iv + 2 * k, 3, "%02x", i->iv[k]);
    if (i->container == GDW_FILE_COMPRESSED)
        return Py_BuildValue("{s:s,s:s,s:I,s:s,s:I,s:I,s:K,s:K,s:O}", "container", k_container_name[i->container], "layout", i->layout, "generation",
                             i->generation, "compression", gdw_file_compression_name(i->compression), "block_size", i->block_size, "blocks", i->blocks,
                             "plain_size", (unsigned long long)i->plain_len, "compressed_size", (unsigned long long)i->compressed_len, "end_magic",
                             i->end_magic ? Py_True : Py_False);
    if (i->container == GDW_FILE_ENCRYPTED)
        return Py_BuildValue("{s:s,s:s,s:I,s:s,s:K,s:z}", "container", k_container_name[i->container], "layout", i->layout, "generation", i->generation,
                             "md5", md5, "plain_size", (unsigned long long)i->plain_len, "iv", i->has_iv ? iv : NULL);
    return Py_BuildValue("{s:s,s:s,s:I,s:K}", "container", "plain", "layout", "plain", "generation", 0u, "plain_size", (unsigned long long)i->plain_len);
}

/* file_open(data, key or None, max_plain) -> (plain bytes, header dict) */
static PyObject *py_file_open(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf, key = {0};
    PyObject *key_obj;
    unsigned long long max_plain;
    if (!PyArg_ParseTuple(args, "y*OK", &buf, &key_obj, &max_plain)) return NULL;
    if (key_obj != Py_None && (PyObject_GetBuffer(key_obj, &key, PyBUF_SIMPLE) < 0 || key.len != 32)) {
        if (key.obj) PyBuffer_Release(&key);
        PyBuffer_Release(&buf);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "key: 32 bytes");
        return NULL;
    }
    gdw_file_options o = {key_obj != Py_None ? (const uint8_t *)key.buf : NULL, max_plain};
    gdw_file_info info;
    gdw_file_error err;
    uint8_t *plain = NULL;
    size_t n = 0;
    gdw_file_status st;
    Py_BEGIN_ALLOW_THREADS
    st = gdw_file_open((const uint8_t *)buf.buf, (size_t)buf.len, &o, &info, &plain, &n, &err);
    Py_END_ALLOW_THREADS
    if (key.obj) PyBuffer_Release(&key);
    PyBuffer_Release(&buf);
    if (st) return raise_file(st, &err);
    PyObject *res = Py_BuildValue("(y#N)", (const char *)plain, (Py_ssize_t)n, info_dict(&info));
    free(plain);
    return res;
}

/* file_write(plain, container, generation, compression, key or None) -> bytes */
static PyObject *py_file_write(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf, key = {0};
    const char *container, *compression;
    unsigned generation;
    PyObject *key_obj;
    if (!PyArg_ParseTuple(args, "y*sIsO", &buf, &container, &generation, &compression, &key_obj)) return NULL;
    gdw_file_spec s = {GDW_FILE_PLAIN, generation, GDW_FILE_ZSTD, 0, NULL, NULL};
    bool ok = true;
    if (strcmp(container, "compressed") == 0) s.container = GDW_FILE_COMPRESSED, ok = gdw_file_compression_from_name(compression, &s.compression);
    else if (strcmp(container, "encrypted") == 0) s.container = GDW_FILE_ENCRYPTED;
    else ok = strcmp(container, "plain") == 0;
    if (!ok) { PyBuffer_Release(&buf); return PyErr_Format(PyExc_ValueError, "container '%s', compression '%s'", container, compression); }
    if (key_obj != Py_None) {
        if (PyObject_GetBuffer(key_obj, &key, PyBUF_SIMPLE) < 0 || key.len != 32) {
            if (key.obj) PyBuffer_Release(&key);
            PyBuffer_Release(&buf);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "key: 32 bytes");
            return NULL;
        }
        s.key = (const uint8_t *)key.buf;
    }
    uint8_t *out = NULL;
    size_t n = 0;
    gdw_file_error err;
    gdw_file_status st;
    Py_BEGIN_ALLOW_THREADS
    st = gdw_file_write(&s, (const uint8_t *)buf.buf, (size_t)buf.len, &out, &n, &err);
    Py_END_ALLOW_THREADS
    if (key.obj) PyBuffer_Release(&key);
    PyBuffer_Release(&buf);
    if (st) return raise_file(st, &err);
    PyObject *res = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n);
    free(out);
    return res;
}

/* file_key_from_password(password) -> the 32-byte key open_encrypted_with_pass uses */
static PyObject *py_file_key_from_password(PyObject *self, PyObject *args) {
    (void)self;
    const char *pw;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "s#", &pw, &n)) return NULL;
    uint8_t key[32];
    gdw_file_key_from_password(pw, (size_t)n, key);
    return PyBytes_FromStringAndSize((const char *)key, 32);
}

/* file_supported(compression, generation, write) -> bool (this build has the library, and the engine does it) */
static PyObject *py_file_supported(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    unsigned generation;
    int write;
    gdw_file_compression c;
    if (!PyArg_ParseTuple(args, "sIp", &name, &generation, &write)) return NULL;
    return PyBool_FromLong(gdw_file_compression_from_name(name, &c) && gdw_file_compression_supported(c, generation, write));
}

/* What gdwire/_values.py takes from the library instead of restating it: the value flags (GDW_VF_*), the depth
 * limit (GDW_HARD_MAX_DEPTH), and each type's components (gdw_type_components) and whether they are reals
 * (gdw_type_has_reals), by type name (TYPE_COMPONENTS, TYPE_HAS_REALS); the decode modes' names (MODES); the
 * framings' default bounds (GDW_FRAME_MAX_*) and the file containers' (GDW_FILE_MAX_PLAIN_DEFAULT). */
static bool add_library_constants(PyObject *m) {
    static const struct { const char *name; long value; } k[] = {
        {"VF_INT64_WIRE", GDW_VF_INT64_WIRE}, {"VF_SHARED", GDW_VF_SHARED}, {"VF_OBJECT_ID", GDW_VF_OBJECT_ID},
        {"VF_OBJECT_NULL", GDW_VF_OBJECT_NULL}, {"VF_RID_ID", GDW_VF_RID_ID}, {"VF_TYPED", GDW_VF_TYPED},
        {"VF_APPROXIMATE", GDW_VF_APPROXIMATE}, {"HARD_MAX_DEPTH", GDW_HARD_MAX_DEPTH},
        {"FRAME_MAX_PACKET_STREAM", GDW_FRAME_MAX_PACKET_STREAM}, {"FRAME_MAX_DEFAULT", GDW_FRAME_MAX_DEFAULT},
        {"FILE_MAX_PLAIN_DEFAULT", (long)GDW_FILE_MAX_PLAIN_DEFAULT},
    };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (PyModule_AddIntConstant(m, k[i].name, k[i].value) < 0) return false;
    PyObject *modes = PyList_New(0); /* the decode modes by number, as the library names them (gdw_mode_name) */
    for (int i = 0; modes && strcmp(gdw_mode_name((gdw_mode)i), "?") != 0; i++) {
        PyObject *name = PyUnicode_FromString(gdw_mode_name((gdw_mode)i));
        if (!name || PyList_Append(modes, name) < 0) Py_CLEAR(modes);
        Py_XDECREF(name);
    }
    PyObject *modes_tuple = modes ? PyList_AsTuple(modes) : NULL;
    Py_XDECREF(modes);
    if (!modes_tuple || PyModule_AddObject(m, "MODES", modes_tuple) < 0) { Py_XDECREF(modes_tuple); return false; }
    PyObject *components = PyDict_New(), *reals = PyDict_New();
    for (int t = 0; components && reals && t < GDW_TYPE_COUNT; t++) {
        PyObject *n = PyLong_FromSize_t(gdw_type_components((gdw_type)t));
        if (!n || PyDict_SetItemString(components, gdw_type_name((gdw_type)t), n) < 0 ||
            PyDict_SetItemString(reals, gdw_type_name((gdw_type)t), gdw_type_has_reals((gdw_type)t) ? Py_True : Py_False) < 0)
            Py_CLEAR(components);
        Py_XDECREF(n);
    }
    /* (PyModule_AddObject steals the reference only when it succeeds) */
    bool ok = components && reals && PyModule_AddObject(m, "TYPE_COMPONENTS", components) == 0;
    if (!ok) Py_XDECREF(components);
    if (ok && PyModule_AddObject(m, "TYPE_HAS_REALS", reals) == 0) return true;
    Py_XDECREF(reals);
    return false;
}

static PyMethodDef k_methods[] = {
    {"file_open", py_file_open, METH_VARARGS, "file_open(data, key, max_plain) -> (plain, header)"},
    {"file_write", py_file_write, METH_VARARGS, "file_write(plain, container, generation, compression, key) -> bytes"},
    {"file_key_from_password", py_file_key_from_password, METH_VARARGS, "file_key_from_password(password) -> bytes"},
    {"file_supported", py_file_supported, METH_VARARGS, "file_supported(compression, generation, write) -> bool"},
    {"decode", py_decode, METH_VARARGS, "decode(data, dialect, mode, allow_objects, max_depth) -> (value, consumed)"},
    {"encode", py_encode, METH_VARARGS, "encode(value, dialect, lossy) -> bytes"},
    {"real_text", py_real_text, METH_VARARGS, "real_text(bits, width) -> str: a real as the library writes it"},
    {"value_of_json", py_value_of_json, METH_VARARGS, "value_of_json(json) -> value: one value of the JSON form, as decode maps it"},
    {"decode_json", py_decode_json, METH_VARARGS, "decode_json(data, dialect, mode, allow_objects, max_depth, plain=False) -> (json, consumed)"},
    {"encode_json", py_encode_json, METH_VARARGS, "encode_json(json, dialect, lossy) -> bytes"},
    {"check", py_check, METH_VARARGS, "check(data, allow_objects) -> list of per-dialect tuples"},
    {"dialects", py_dialects, METH_NOARGS, "dialects() -> list of dicts"},
    {"objects_by_default", py_objects_by_default, METH_VARARGS, "objects_by_default(dialect) -> bool"},
    {"canonical_name", py_canonical_name, METH_VARARGS, "canonical_name(dialect) -> str"},
    {"session_defaults", py_session_defaults, METH_NOARGS, "session_defaults() -> dict of the session options' defaults"},
    {"compressions_built", py_compressions_built, METH_NOARGS, "compressions_built() -> list of the ENet compressions read"},
    {"_set_errors", py_set_errors, METH_VARARGS, "internal: the exception classes to raise"},
    {"_set_types", py_set_types, METH_VARARGS, "internal: the value classes and the JSON mapping of gdwire/_values.py"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef k_module = {PyModuleDef_HEAD_INIT, "gdwire._gdwire", "The gdwire C library (internal: use gdwire).", -1,
                                      k_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__gdwire(void) {
    PyObject *m = PyModule_Create(&k_module);
    if (!m) return NULL;
    if (PyModule_AddStringConstant(m, "library_version", gdw_version()) < 0) { Py_DECREF(m); return NULL; }
    /* (PyModule_AddObject, not AddObjectRef: Python 3.9 has only the one that steals a reference) */
    if (PyType_Ready(&k_session_type) < 0 || PyType_Ready(&k_capture_type) < 0) { Py_DECREF(m); return NULL; }
    Py_INCREF(&k_session_type);
    if (PyModule_AddObject(m, "_Session", (PyObject *)&k_session_type) < 0) { Py_DECREF(&k_session_type); Py_DECREF(m); return NULL; }
    Py_INCREF(&k_capture_type);
    if (PyModule_AddObject(m, "_Capture", (PyObject *)&k_capture_type) < 0) { Py_DECREF(&k_capture_type); Py_DECREF(m); return NULL; }
    /* the link types of gdw_session_frame, as libpcap numbers them */
    static const struct { const char *name; int value; } links[] = {
        {"LINK_NULL", GDW_LINK_NULL}, {"LINK_ETHERNET", GDW_LINK_ETHERNET}, {"LINK_DLT_RAW", GDW_LINK_DLT_RAW},
        {"LINK_DLT_RAW_OPENBSD", GDW_LINK_DLT_RAW_OPENBSD}, {"LINK_RAW", GDW_LINK_RAW}, {"LINK_LOOP", GDW_LINK_LOOP},
        {"LINK_LINUX_SLL", GDW_LINK_LINUX_SLL}, {"LINK_IPV4", GDW_LINK_IPV4}, {"LINK_IPV6", GDW_LINK_IPV6},
        {"LINK_LINUX_SLL2", GDW_LINK_LINUX_SLL2},
    };
    for (size_t i = 0; i < sizeof links / sizeof *links; i++)
        if (PyModule_AddIntConstant(m, links[i].name, links[i].value) < 0) { Py_DECREF(m); return NULL; }
    if (!add_library_constants(m)) { Py_DECREF(m); return NULL; }
    return m;
}

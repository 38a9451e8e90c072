/* SPDX-License-Identifier: MIT */
/* _gdwire — the CPython extension under the gdwire package: the C library's calls, each taking and
 * giving bytes and the library's JSON form (docs/gdwire.schema.json), which gdwire/_values.py maps
 * to Python values. The library itself is compiled in (setup.py lists codec/). Every call that
 * walks input releases the GIL; the library keeps no global state, so calls may run in threads. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "codec/gdwire.h"

static PyObject *g_decode_error; /* gdwire.DecodeError, set by gdwire/__init__.py (_set_errors) */
static PyObject *g_encode_error;

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

/* decode_json(data, dialect, mode, allow_objects, max_depth) -> (json text, consumed) */
static PyObject *py_decode_json(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    const char *dname, *mname;
    int allow_objects;
    unsigned max_depth;
    if (!PyArg_ParseTuple(args, "y*sspI", &buf, &dname, &mname, &allow_objects, &max_depth)) return NULL;
    PyObject *res = NULL;
    const gdw_dialect *d = dialect_arg(dname);
    int mode = gdw_mode_from_name(mname);
    if (d && mode < 0) PyErr_Format(PyExc_ValueError, "unknown mode %s (compatible, strict or engine-exact)", mname);
    if (d && mode >= 0) {
        gdw_decode_options o = gdw_decode_options_default();
        o.mode = (gdw_mode)mode;
        o.allow_objects = allow_objects != 0;
        o.max_depth = max_depth;
        gdw_error err;
        memset(&err, 0, sizeof err);
        gdw_doc *doc = NULL;
        size_t consumed = 0, jlen = 0;
        char *json = NULL;
        gdw_status s;
        Py_BEGIN_ALLOW_THREADS
        s = gdw_decode(d, (const uint8_t *)buf.buf, (size_t)buf.len, &o, NULL, &doc, &consumed, &err);
        if (s == GDW_OK) {
            json = gdw_json_print_alloc(gdw_doc_root(doc), NULL, &jlen);
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
    gdw_encode_options eo = gdw_encode_options_default();
    eo.lossy = lossy != 0;
    eo.keep_float_width = true; /* F32 / F64 and the widths a decode read come back (gdwire/_values.py) */
    gdw_error err;
    memset(&err, 0, sizeof err);
    uint8_t *out = NULL;
    size_t n = 0;
    gdw_status s;
    Py_BEGIN_ALLOW_THREADS
    s = gdw_encode_json(d, json, (size_t)jlen, 0, &eo, NULL, &out, &n, &err);
    Py_END_ALLOW_THREADS
    if (s != GDW_OK) return raise_gdw(g_encode_error, &err);
    PyObject *b = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n);
    free(out);
    return b;
}

/* check(data, allow_objects) -> [(dialect, status, consumed, strict, engine_exact, error tuple or None)] */
static PyObject *py_check(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer buf;
    int allow_objects;
    if (!PyArg_ParseTuple(args, "y*p", &buf, &allow_objects)) return NULL;
    size_t n = gdw_dialect_count();
    gdw_check_result *r = (gdw_check_result *)PyMem_Calloc(n ? n : 1, sizeof *r);
    if (!r) { PyBuffer_Release(&buf); return PyErr_NoMemory(); }
    gdw_decode_options o = gdw_decode_options_default();
    o.allow_objects = allow_objects != 0;
    Py_BEGIN_ALLOW_THREADS
    gdw_check((const uint8_t *)buf.buf, (size_t)buf.len, &o, NULL, false, r);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const gdw_check_result *c = &r[i];
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
        PyObject *t = errt && strict_why ? Py_BuildValue("(snNNOO)", gdw_dialect_name(c->dialect), (Py_ssize_t)c->consumed,
                                                         PyBool_FromLong(c->status == GDW_OK && c->reencodes_same),
                                                         PyBool_FromLong(c->status == GDW_OK && c->engine_exact), errt, strict_why)
                                         : NULL;
        Py_XDECREF(errt);
        Py_XDECREF(strict_why);
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    PyMem_Free(r);
    return list;
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

static PyMethodDef k_methods[] = {
    {"decode_json", py_decode_json, METH_VARARGS, "decode_json(data, dialect, mode, allow_objects, max_depth) -> (json, consumed)"},
    {"encode_json", py_encode_json, METH_VARARGS, "encode_json(json, dialect, lossy) -> bytes"},
    {"check", py_check, METH_VARARGS, "check(data, allow_objects) -> list of per-dialect tuples"},
    {"dialects", py_dialects, METH_NOARGS, "dialects() -> list of dicts"},
    {"objects_by_default", py_objects_by_default, METH_VARARGS, "objects_by_default(dialect) -> bool"},
    {"canonical_name", py_canonical_name, METH_VARARGS, "canonical_name(dialect) -> str"},
    {"_set_errors", py_set_errors, METH_VARARGS, "internal: the exception classes to raise"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef k_module = {PyModuleDef_HEAD_INIT, "gdwire._gdwire", "The gdwire C library (internal: use gdwire).", -1,
                                      k_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__gdwire(void) {
    PyObject *m = PyModule_Create(&k_module);
    if (!m) return NULL;
    if (PyModule_AddStringConstant(m, "library_version", gdw_version()) < 0) { Py_DECREF(m); return NULL; }
    return m;
}

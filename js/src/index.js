// SPDX-License-Identifier: MIT
// gdwire — Godot's binary Variant format (var_to_bytes / bytes_to_var, put_var / get_var) for every engine
// generation, in JavaScript: the gdwire C library compiled to WebAssembly (js/build.sh), and this layer.
//
// decode reads the library's value tree straight from the WebAssembly memory (the struct layout comes from
// the compiler: src/glue.c gdwjs_layout) into JavaScript values (src/values.js); encode builds the library's
// tree with its gdw_build_* calls, or for the rarer types writes the library's JSON form
// (docs/gdwire.schema.json), which the library reads. Every verdict, error and byte is the library's.
import { WASM_BASE64 } from '../dist/wasm-inline.js';
import {
  Float, StringName, RawString, MathValue, MATH_TYPES, PackedValue, PACKED_TYPES, PackedStringArray, NodePath, RID, GodotObject,
  Callable, Signal, GodotArray, Dictionary, Image, InputEvent,
} from './values.js';

export * from './values.js';

/** A gdwire error: code (the C library's status name, e.g. "TRUNCATED"), offset (the byte where the fault is),
 * path (where in the value, e.g. [2]{"hp"}), message, valueOffset, engineError (the engine's Error for the
 * same bytes, e.g. "ERR_INVALID_DATA"). */
export class GdwireError extends Error {
  constructor(code, offset = 0, path = '', message = '', valueOffset = 0, engineError = '-') {
    super(`${code} at byte ${offset}${path ? ' at ' + path : ''}: ${message}`);
    this.name = 'GdwireError';
    Object.assign(this, { code, offset, path, detail: message, valueOffset, engineError });
  }
}

// ---- the WebAssembly instance ---------------------------------------------------------------------------

function base64Bytes(b64) {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(b64, 'base64'));
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

let X; // the instance's exports
let u8, dv; // views of its memory, made again when it grows
function views() {
  if (u8 === undefined || u8.buffer !== X.memory.buffer) {
    u8 = new Uint8Array(X.memory.buffer);
    dv = new DataView(X.memory.buffer);
  }
}
// the library asks the host for nothing but these (no files, no clock, no environment)
const WASI_EBADF = 8;
const imports = {
  env: {
    emscripten_notify_memory_growth() { u8 = undefined; },
    gdwjs_session_event(rec) { sessionEvent(rec); }, // src/glue.c: each event of a session's feed, during the feed
  },
  wasi_snapshot_preview1: {
    proc_exit(code) { throw new GdwireError('ABORT', 0, '', `the library stopped (${code})`); },
    environ_sizes_get(countp, sizep) { views(); dv.setUint32(countp, 0, true); dv.setUint32(sizep, 0, true); return 0; },
    environ_get() { return 0; },
    fd_close() { return WASI_EBADF; },
    fd_write() { return WASI_EBADF; },
    fd_seek() { return WASI_EBADF; },
  },
};
const { instance } = await WebAssembly.instantiate(base64Bytes(WASM_BASE64), imports);
X = instance.exports;
X._initialize();
views();

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lossy = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

function cString(p) {
  if (!p) return '';
  views();
  let e = p;
  while (u8[e]) e++;
  return utf8Lossy.decode(u8.subarray(p, e));
}

// The layout of the value structs (src/glue.c, in this order).
const LAYOUT_NAMES = [
  'value_size', 'value_type', 'value_width', 'value_flags', 'value_len', 'value_u',
  'str_size', 'str_ptr', 'str_len',
  'desc_size', 'desc_kind', 'desc_builtin', 'desc_id_only', 'desc_wire_id', 'desc_name',
  'container_key', 'container_elem', 'container_items',
  'np_name_count', 'np_subname_count', 'np_flags', 'np_parts',
  'obj_class', 'obj_props',
  'sig_name', 'sig_object_id',
  'img_format', 'img_mipmaps', 'img_width', 'img_height', 'img_data',
  'ev_type', 'ev_device', 'ev_llen', 'ev_extra_count', 'ev_extra',
  'err_code', 'err_offset', 'err_value_offset', 'err_engine_error', 'err_message', 'err_path', 'err_size',
  'type_count',
];
const L = {};
{
  const p = X.malloc(4 * LAYOUT_NAMES.length);
  X.gdwjs_layout(p);
  views();
  LAYOUT_NAMES.forEach((n, i) => { L[n] = dv.getUint32(p + 4 * i, true); });
  X.free(p);
}
const TYPE = []; // gdw_type -> name
for (let t = 0; t < L.type_count; t++) TYPE.push(cString(X.gdw_type_name(t)));
const T = Object.fromEntries(TYPE.map((n, i) => [n, i]));
const VF = { INT64_WIRE: 1, SHARED: 2, OBJECT_ID: 4, OBJECT_NULL: 8, RID_ID: 16, TYPED: 32 };
const MODES = { compatible: 0, strict: 1, 'engine-exact': 2 };

// scratch records, allocated once: the error, and two size_t results
const ERR = X.malloc(L.err_size);
const OUT = X.malloc(8);

/** The gdw_error record at p as a GdwireError (its path is NUL-terminated within the record). */
function errorAt(p) {
  views();
  const pathStart = p + L.err_path, pathEnd = p + L.err_size;
  let e = pathStart;
  while (e < pathEnd && u8[e]) e++;
  return new GdwireError(cString(X.gdw_status_name(dv.getInt32(p + L.err_code, true))), dv.getUint32(p + L.err_offset, true),
    utf8Lossy.decode(u8.subarray(pathStart, e)), cString(dv.getUint32(p + L.err_message, true)), dv.getUint32(p + L.err_value_offset, true),
    cString(X.gdw_engine_error_name(dv.getInt32(p + L.err_engine_error, true))));
}

function lastError() { return errorAt(ERR); }

const dialectPtrs = new Map();
function dialectPtr(name) {
  if (typeof name !== 'string') throw new TypeError(`dialect must be a string, not ${typeof name}`);
  let p = dialectPtrs.get(name);
  if (p === undefined) {
    p = withCString(name, (s) => X.gdw_dialect_find(s));
    if (!p) throw new RangeError(`unknown dialect '${name}' (dialects() lists them)`);
    dialectPtrs.set(name, p);
  }
  return p;
}

function withBytes(bytes, fn) {
  const n = bytes.length;
  const p = X.malloc(n || 1);
  if (!p) throw new GdwireError('NOMEM', 0, '', `no room for ${n} bytes in the WebAssembly memory`);
  views();
  u8.set(bytes, p);
  try {
    return fn(p, n);
  } finally {
    X.free(p);
  }
}

function withCString(s, fn) {
  const b = encoder.encode(s);
  const p = X.malloc(b.length + 1);
  if (!p) throw new GdwireError('NOMEM', 0, '', 'no room in the WebAssembly memory');
  views();
  u8.set(b, p);
  u8[p + b.length] = 0;
  try {
    return fn(p, b.length);
  } finally {
    X.free(p);
  }
}

// ---- the tree -> JavaScript -----------------------------------------------------------------------------

const INT53 = 2n ** 53n;

function bytesAt(p, n) { return u8.slice(p, p + n); }

// Short ASCII text is made here: a TextDecoder call costs more than the string (game messages are mostly
// short keys and names); longer or other text goes to the decoder, which also checks its UTF-8.
const SHORT_TEXT = 48;
function shortAscii(p, n) {
  let s = '';
  for (let i = p; i < p + n; i++) {
    const c = u8[i];
    if (c >= 0x80) return undefined;
    s += String.fromCharCode(c);
  }
  return s;
}

function text(p, n, Wrap) {
  if (n <= SHORT_TEXT) {
    const s = shortAscii(p, n);
    if (s !== undefined) return Wrap ? new Wrap(s) : s;
  }
  try {
    const s = utf8.decode(u8.subarray(p, p + n));
    return Wrap ? new Wrap(s) : s;
  } catch {
    const raw = new RawString(u8.subarray(p, p + n));
    return Wrap ? new Wrap(raw) : raw;
  }
}

function gstr(p, Wrap) { return text(dv.getUint32(p + L.str_ptr, true), dv.getUint32(p + L.str_len, true), Wrap); }

function desc(p) {
  const kind = u8[p + L.desc_kind];
  if (kind === 0) return 'Variant';
  if (kind === 1) {
    if (u8[p + L.desc_id_only]) return 'ObjectID';
    const b = u8[p + L.desc_builtin];
    return b >= L.type_count ? { wire_id: dv.getUint32(p + L.desc_wire_id, true) } : TYPE[b];
  }
  return kind === 2 ? { class: gstr(p + L.desc_name) } : { script: gstr(p + L.desc_name) };
}

function intValue(big, opts) { return opts.bigint === 'always' || big >= INT53 || big <= -INT53 ? big : Number(big); }

// an f32 NaN's bits as the double C widens it to: the sign, the quiet bit set, the payload moved up
function widenNaN(b32) {
  return (BigInt(b32 >>> 31) << 63n) | 0x7ff0000000000000n | (BigInt((b32 | 0x400000) & 0x7fffff) << 29n);
}

/** A FLOAT as the engines hold it, a double: a number, or a Float where a number would not say it (a whole
 * number, which would read back as an int; a NaN with another payload than JavaScript's). The width read is
 * not kept: the encoders write the width they choose, as for the Python package's float. */
function floatValue(p, width) {
  const x = width === 4 ? dv.getFloat32(p, true) : dv.getFloat64(p, true);
  if (Number.isNaN(x)) {
    const bits = width === 4 ? widenNaN(dv.getUint32(p, true)) : dv.getBigUint64(p, true);
    return bits === 0x7ff8000000000000n ? NaN : new Float(NaN, undefined, bits);
  }
  return Number.isInteger(x) ? new Float(x) : x;
}

// keys a plain object keeps in the order given: strings that are not array indexes, nor "__proto__"
const INDEX_LIKE = /^(0|[1-9][0-9]*)$/;
function plainKey(k) {
  if (typeof k !== 'string') return false;
  const c = k.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return !(INDEX_LIKE.test(k) && Number(k) < 4294967295);
  return k !== '__proto__';
}

function children(v) {
  // gdw_children: items, or key, value alternating
  const type = u8[v + L.value_type];
  const flags = dv.getUint16(v + L.value_flags, true);
  const len = dv.getUint32(v + L.value_len, true);
  const u = dv.getUint32(v + L.value_u, true);
  const pairs = type === T.Dictionary || type === T.Object;
  const n = pairs ? 2 * len : len;
  if (!n) return [0, 0];
  const items = flags & VF.TYPED ? dv.getUint32(u + L.container_items, true) : type === T.Object ? dv.getUint32(u + L.obj_props, true) : u;
  return [items, n];
}

// read and the functions it calls use u8 and dv as they are: the memory cannot grow while a tree is read
// (nothing calls into the module then), so decode makes the views once, before.
function read(v, opts) {
  const type = u8[v + L.value_type];
  const width = u8[v + L.value_width];
  const flags = dv.getUint16(v + L.value_flags, true);
  const len = dv.getUint32(v + L.value_len, true);
  const u = v + L.value_u;
  const ptr = dv.getUint32(u, true);
  const name = TYPE[type];
  switch (name) {
    case 'Nil': return null;
    case 'bool': return dv.getUint32(u, true) !== 0;
    case 'int': return intValue(dv.getBigInt64(u, true), opts);
    case 'float': return floatValue(u, width);
    case 'String': return text(ptr, len);
    case 'StringName': return text(ptr, len, StringName);
    case 'PackedByteArray': return bytesAt(ptr, len);
    case 'PackedInt32Array': return new Int32Array(bytesAt(ptr, 4 * len).buffer);
    case 'PackedInt64Array': return new BigInt64Array(bytesAt(ptr, 8 * len).buffer);
    case 'PackedFloat32Array': return new Float32Array(bytesAt(ptr, 4 * len).buffer);
    case 'PackedFloat64Array': return new Float64Array(bytesAt(ptr, 8 * len).buffer);
    case 'PackedStringArray': {
      const out = [];
      for (let i = 0; i < len; i++) out.push(gstr(ptr + i * L.str_size));
      return new PackedStringArray(out);
    }
    case 'NodePath': {
      const nc = dv.getUint32(ptr + L.np_name_count, true), sc = dv.getUint32(ptr + L.np_subname_count, true);
      const f = dv.getUint32(ptr + L.np_flags, true), parts = dv.getUint32(ptr + L.np_parts, true);
      const all = [];
      for (let i = 0; i < nc + sc; i++) all.push(gstr(parts + i * L.str_size));
      return new NodePath(all.slice(0, nc), all.slice(nc), (f & 1) !== 0, (f & 2) !== 0);
    }
    case 'RID': return new RID(flags & VF.RID_ID ? intValue(dv.getBigUint64(u, true), opts) : undefined);
    case 'Object': {
      if (flags & VF.OBJECT_NULL) return new GodotObject();
      if (flags & VF.OBJECT_ID) return new GodotObject({ id: intValue(dv.getBigUint64(u, true), opts) });
      const className = gstr(ptr + L.obj_class);
      const [items, n] = children(v);
      const props = [];
      for (let i = 0; i < n; i += 2) {
        const k = items + i * L.value_size;
        props.push([text(dv.getUint32(k + L.value_u, true), dv.getUint32(k + L.value_len, true)), read(k + L.value_size, opts)]);
      }
      return new GodotObject({ className, properties: props });
    }
    case 'Callable': return new Callable();
    case 'Signal': return new Signal(gstr(ptr + L.sig_name), intValue(dv.getBigUint64(ptr + L.sig_object_id, true), opts));
    case 'Array': case 'TypedArray': case 'PackedTypedArray': {
      const [items, n] = children(v);
      const out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = read(items + i * L.value_size, opts);
      const typed = (flags & VF.TYPED) !== 0;
      if (name === 'Array' && !typed && !(flags & VF.SHARED)) return out;
      return new GodotArray(out, { elementType: typed ? desc(ptr + L.container_elem) : undefined, shared: (flags & VF.SHARED) !== 0, kind: name });
    }
    case 'Dictionary': {
      const [items, n] = children(v);
      if (!(flags & (VF.TYPED | VF.SHARED))) return dictionaryValue(items, n, opts);
      const pairs = [];
      for (let i = 0; i < n; i += 2) pairs.push([read(items + i * L.value_size, opts), read(items + (i + 1) * L.value_size, opts)]);
      {
        const typed = (flags & VF.TYPED) !== 0;
        return new Dictionary(pairs, {
          keyType: typed ? desc(ptr + L.container_key) : undefined, valueType: typed ? desc(ptr + L.container_elem) : undefined,
          shared: (flags & VF.SHARED) !== 0,
        });
      }
    }
    case 'Image': {
      const f = (o) => dv.getUint32(ptr + o, true);
      return new Image(f(L.img_format), f(L.img_mipmaps), f(L.img_width), f(L.img_height),
        bytesAt(f(L.img_data + L.str_ptr), f(L.img_data + L.str_len)));
    }
    case 'InputEvent': {
      const f = (o) => dv.getUint32(ptr + o, true);
      const extra = [];
      for (let i = 0; i < f(L.ev_extra_count); i++) extra.push(f(L.ev_extra + 4 * i));
      return new InputEvent(f(L.ev_type), f(L.ev_device), f(L.ev_llen), extra);
    }
    default: {
      if (MATH_TYPES[name]) {
        const cls = MATH_TYPES[name];
        return mathValue(cls, ptr, len, width);
      }
      if (PACKED_TYPES[name]) {
        const cls = PACKED_TYPES[name];
        const n = len * cls.per;
        if (cls.ints) return new cls(new Int32Array(bytesAt(ptr, 4 * n).buffer));
        return width === 8 ? new cls(new Float64Array(bytesAt(ptr, 8 * n).buffer), 8) : new cls(new Float32Array(bytesAt(ptr, 4 * n).buffer));
      }
      throw new GdwireError('INTERNAL', 0, '', `a value of type ${name} this layer does not know`);
    }
  }
}

function mathValue(cls, ptr, len, width) {
  const c = [];
  for (let i = 0; i < len; i++) {
    c.push(cls.ints ? dv.getInt32(ptr + 4 * i, true) : width === 8 ? dv.getFloat64(ptr + 8 * i, true) : dv.getFloat32(ptr + 4 * i, true));
  }
  if (!cls.ints && c.some(Number.isNaN)) {
    // a NaN component keeps its bits only as the raw components: kept as a Float per component
    const raw = [];
    for (let i = 0; i < len; i++) raw.push(width === 8 ? dv.getBigUint64(ptr + 8 * i, true) : BigInt(dv.getUint32(ptr + 4 * i, true)));
    return new cls(c, { realWidth: width === 8 ? 8 : undefined, rawBits: raw });
  }
  return new cls(c, { realWidth: !cls.ints && width === 8 ? 8 : undefined }); // 4, the engines' own, is the default
}

/** A Dictionary as JavaScript says it best: a plain object when its keys are distinct strings it keeps in
 * order, else a Map when no two keys are the same to a Map, else a Dictionary of the pairs. */
function dictionaryValue(items, n, opts) {
  const count = n / 2;
  const keys = new Array(count), vals = new Array(count);
  let plain = true;
  for (let i = 0; i < count; i++) {
    keys[i] = read(items + 2 * i * L.value_size, opts);
    vals[i] = read(items + (2 * i + 1) * L.value_size, opts);
    if (plain && !plainKey(keys[i])) plain = false;
  }
  if (plain) {
    const o = {};
    for (let i = 0; i < count; i++) o[keys[i]] = vals[i];
    if (Object.keys(o).length === count) return o;
  }
  const m = new Map();
  for (let i = 0; i < count; i++) m.set(keys[i], vals[i]);
  return m.size === count ? m : new Dictionary(keys.map((k, i) => [k, vals[i]]));
}

/**
 * The value in bytes in a dialect. Bytes left after the value throw a GdwireError (code TRAILING_BYTES), as
 * JSON.parse does: its message says how many, and which dialect reads every byte where one does ("32 bytes left
 * after a Vector4i; godot3 reads all 52 bytes: pass {dialect: 'godot3'}"). allowTrailing reads the value at the
 * start and ignores the rest, as the engines do; withLength does too, and says how many bytes the value used.
 * @param {Uint8Array|ArrayBuffer|ArrayBufferView} bytes
 * @param {{dialect?: string, mode?: 'compatible'|'strict'|'engine-exact', allowObjects?: boolean, maxDepth?: number,
 *          bigint?: 'auto'|'always', withLength?: boolean, allowTrailing?: boolean}} [opts]
 */
export function decode(bytes, opts = {}) {
  const ro = { bigint: opts.bigint ?? 'auto' };
  if (ro.bigint !== 'auto' && ro.bigint !== 'always') throw new RangeError("bigint is 'auto' or 'always'");
  let trailing;
  const out = withDoc(bytes, opts, (doc, used) => {
    const root = X.gdw_doc_root(doc);
    const value = read(root, ro);
    if (opts.withLength) return { value, length: used };
    const total = asBytes(bytes).length;
    if (used < total && !opts.allowTrailing) trailing = { used, total, type: cString(X.gdw_type_name(u8[root + L.value_type])) };
    return value;
  });
  if (trailing) throw trailingError(bytes, opts, trailing);
  return out;
}

/** The error for bytes left after the value: how many, and the dialect that reads every byte, where one does (the
 * library's ranking: check). */
function trailingError(bytes, opts, { used, total, type }) {
  const left = total - used;
  let message = `${left} byte${left === 1 ? '' : 's'} left after ${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;
  const r = check(bytes, { allowObjects: opts.allowObjects });
  const asked = canonicalName(opts.dialect ?? 'godot4');
  if (r.best && r.skip === 0 && r.verdicts.find((v) => v.dialect === r.best).reading === 'whole' && r.best !== asked) {
    message += `; ${r.best} reads all ${total} bytes: pass {dialect: '${r.best}'}`;
  } else {
    message += '; pass {allowTrailing: true} to read a value at the start of longer bytes ({withLength: true} says where it ends)';
  }
  return new GdwireError('TRAILING_BYTES', used, '', message);
}

/** The decode options every call that reads a packet takes: the dialect's row, the mode's number, Objects or not. */
function readOptions(opts) {
  const d = dialectPtr(opts.dialect ?? 'godot4');
  const mode = MODES[opts.mode ?? 'compatible'];
  if (mode === undefined) throw new RangeError(`mode is compatible, strict or engine-exact, not ${opts.mode}`);
  const objects = opts.allowObjects ?? X.gdw_dialect_objects_by_default(d) !== 0;
  return { d, mode, objects: objects ? 1 : 0, maxDepth: opts.maxDepth ?? 0 };
}

/** fn(doc, consumed) on the library's tree of bytes, freed after. */
function withDoc(bytes, opts, fn) {
  const b = asBytes(bytes);
  const { d, mode, objects, maxDepth } = readOptions(opts);
  checkLimit(b.length);
  return withBytes(b, (p, n) => {
    const doc = X.gdwjs_decode(d, p, n, mode, objects, maxDepth, OUT, ERR);
    if (!doc) throw lastError();
    try {
      views();
      return fn(doc, dv.getUint32(OUT, true));
    } finally {
      X.gdw_doc_free(doc);
    }
  });
}

/** A string the library allocated (NUL-terminated, n bytes), freed after. */
function takeText(p, n) {
  if (!p) throw new GdwireError('NOMEM', 0, '', 'no room for the text in the WebAssembly memory');
  views();
  const t = utf8Lossy.decode(u8.subarray(p, p + n));
  X.free(p);
  return t;
}

/**
 * The value at the start of bytes in the canonical text form (docs/text-format.md), as `gdwire decode` prints it:
 * {"hp": 100, "pos": Vector2(1.5, -2)}. Options as decode's.
 */
export function decodeText(bytes, opts = {}) {
  return withDoc(bytes, opts, (doc) => takeText(X.gdwjs_doc_text(doc, 0, OUT), dv.getUint32(OUT, true)));
}

/** The value at the start of bytes in the library's JSON form (docs/json.md), as `gdwire decode --json` gives its
 * "value": a string of JSON. Options as decode's. */
export function decodeJSON(bytes, opts = {}) {
  return withDoc(bytes, opts, (doc) => takeText(X.gdwjs_doc_text(doc, 1, OUT), dv.getUint32(OUT, true)));
}

const EXPLAIN_ROW = 7; // words of a gdwjs_explain row (src/glue.c)

/**
 * Every field of the packet as the decoder reads it, as `gdwire explain --json` gives them: {dialect, mode, fields:
 * [{offset, size, depth, type, field, value, path}], fieldsOmitted, accepted, then consumed and trailing, or error (a
 * GdwireError; the failing field is the last one, or the error lies just past it). At most maxFields fields
 * (default 100,000) are kept; fieldsOmitted counts the rest.
 */
export function explain(bytes, opts = {}) {
  const b = asBytes(bytes);
  const { d, mode, objects, maxDepth } = readOptions(opts);
  const maxFields = opts.maxFields ?? 100000;
  if (!Number.isSafeInteger(maxFields) || maxFields < 0) throw new RangeError('maxFields wants a count');
  checkLimit(b.length);
  const res = X.malloc(20);
  try {
    const status = withBytes(b, (p, n) => X.gdwjs_explain(d, p, n, mode, objects, maxDepth, maxFields, res, ERR));
    views();
    const w = (k) => dv.getUint32(res + 4 * k, true);
    const rowsP = w(0), count = w(1), pool = w(2);
    if (cString(X.gdw_status_name(status)) === 'NOMEM') throw lastError(); // no rows were kept
    const poolText = (off) => { let e = pool + off; while (u8[e]) e++; return utf8Lossy.decode(u8.subarray(pool + off, e)); };
    const fields = [];
    for (let i = 0; i < count; i++) {
      const r = (k) => dv.getUint32(rowsP + 4 * (EXPLAIN_ROW * i + k), true);
      const type = r(3);
      fields.push({ offset: r(0), size: r(1), depth: r(2), type: type < TYPE.length ? TYPE[type] : undefined, field: cString(r(4)),
        value: poolText(r(5)), path: poolText(r(6)) });
    }
    const out = { dialect: cString(X.gdw_dialect_name(d)), mode: opts.mode ?? 'compatible', fields, fieldsOmitted: w(3), accepted: status === 0 };
    if (status === 0) Object.assign(out, { consumed: w(4), trailing: b.length - w(4) });
    else out.error = lastError();
    X.free(rowsP);
    X.free(pool);
    return out;
  } finally {
    X.free(res);
  }
}

function asBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError('bytes must be a Uint8Array, an ArrayBuffer or a view of one');
}

// ---- JavaScript -> the JSON form ------------------------------------------------------------------------

const MAX_DEPTH = 1025; // as the Python package: the top is 0, nothing deeper than 1025 is a Variant

function jstr(s) { return s instanceof RawString ? `{"base64":"${b64(s.bytes)}"}` : JSON.stringify(checkStr(s)); }
function checkStr(s) {
  if (typeof s !== 'string') throw new TypeError(`expected a string, not ${typeof s}`);
  return s;
}
function b64(bytes) {
  if (typeof Buffer !== 'undefined') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function real(x, width, bits) {
  // a real of the JSON form: a number, or the text form's word for what is not finite
  if (Number.isNaN(x)) {
    if (bits === undefined) return '"nan"';
    return `"nan(0x${bits.toString(16)})"`;
  }
  if (x === Infinity) return '"inf"';
  if (x === -Infinity) return '"-inf"';
  if (Object.is(x, -0)) return '-0.0';
  const s = String(x);
  return /[.eE]/.test(s) ? s : s + '.0';
}

/** The components of a Float32Array or Float64Array, a NaN by its bits (the array holds them as read). */
function reals(a) {
  const w = a.BYTES_PER_ELEMENT;
  let bitsOf;
  return Array.from(a, (x, i) => {
    if (!Number.isNaN(x)) return real(x);
    bitsOf ??= new DataView(a.buffer, a.byteOffset, a.byteLength);
    return real(x, w, w === 4 ? BigInt(bitsOf.getUint32(4 * i, true)) : bitsOf.getBigUint64(8 * i, true));
  }).join(',');
}

function descJson(t) {
  if (t === undefined) return '"Variant"';
  if (typeof t === 'string') return JSON.stringify(t);
  if (t.class !== undefined) return `{"class":${jstr(t.class)}}`;
  if (t.script !== undefined) return `{"script":${jstr(t.script)}}`;
  if (t.wire_id !== undefined) return `{"wire_id":${Number(t.wire_id)}}`;
  throw new TypeError('an element type is a type name, {class}, {script} or {wire_id}');
}

const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;

function toJson(v, depth) {
  if (depth > MAX_DEPTH) throw new RangeError('value nested deeper than 1024 levels below the top (the engines\' limit)');
  if (v === null || v === undefined) return '{"type":"Nil"}';
  switch (typeof v) {
    case 'boolean': return `{"type":"bool","value":${v}}`;
    case 'number':
      if (Number.isInteger(v) && !Object.is(v, -0)) {
        if (!Number.isSafeInteger(v)) throw new RangeError(`${v} is beyond 2^53: give it as a BigInt`);
        return `{"type":"int","value":${v}}`;
      }
      return `{"type":"float","value":${real(v)}}`;
    case 'bigint':
      if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`${v} does not fit Godot's 64-bit int`);
      return `{"type":"int","value":${v}}`;
    case 'string': return `{"type":"String","value":${JSON.stringify(v)}}`;
    default: break;
  }
  if (typeof v !== 'object') throw new TypeError(`a ${typeof v} is not a Godot value`);
  const next = depth + 1;
  if (Array.isArray(v)) return `{"type":"Array","value":[${v.map((x) => toJson(x, next)).join(',')}]}`;
  if (v instanceof Float) {
    if (v.width === undefined) return `{"type":"float","value":${real(v.value, 8, v.bits)}}`;
    return `{"type":"float","width":${v.width},"value":${real(v.value, v.width, v.bits)}}`;
  }
  if (v instanceof Uint8Array) return `{"type":"PackedByteArray","base64":"${b64(v)}"}`;
  if (v instanceof Int32Array) return `{"type":"PackedInt32Array","value":[${v.join(',')}]}`;
  if (v instanceof BigInt64Array) return `{"type":"PackedInt64Array","value":[${v.join(',')}]}`;
  if (v instanceof Float32Array) return `{"type":"PackedFloat32Array","value":[${reals(v)}]}`;
  if (v instanceof Float64Array) return `{"type":"PackedFloat64Array","value":[${reals(v)}]}`;
  if (v instanceof StringName) return v.value instanceof RawString ? `{"type":"StringName","base64":"${b64(v.value.bytes)}"}`
    : `{"type":"StringName","value":${JSON.stringify(checkStr(v.value))}}`;
  if (v instanceof RawString) return `{"type":"String","base64":"${b64(v.bytes)}"}`;
  if (v instanceof MathValue) {
    const cls = v.constructor;
    if (cls.ints) return `{"type":"${cls.name}","value":[${v.values.join(',')}]}`;
    const w = v.realWidth ?? 4;
    const comps = v.rawBits ? v.values.map((x, i) => real(x, w, v.rawBits[i])) : v.values.map((x) => real(x, w));
    return `{"type":"${cls.name}"${v.realWidth ? `,"width":${v.realWidth}` : ''},"value":[${comps.join(',')}]}`;
  }
  if (v instanceof PackedValue) {
    const cls = v.constructor;
    if (cls.ints) return `{"type":"${cls.name}","value":[${v.data.join(',')}]}`;
    return `{"type":"${cls.name}"${v.realWidth ? `,"width":${v.realWidth}` : ''},"value":[${reals(v.data)}]}`;
  }
  if (v instanceof PackedStringArray) return `{"type":"PackedStringArray","value":[${v.strings.map(jstr).join(',')}]}`;
  if (v instanceof NodePath) {
    return `{"type":"NodePath","names":[${v.names.map(jstr).join(',')}],"subnames":[${v.subnames.map(jstr).join(',')}],`
      + `"absolute":${v.absolute}${v.property ? ',"property":true' : ''}}`;
  }
  if (v instanceof RID) return v.id === undefined ? '{"type":"RID"}' : `{"type":"RID","id":${BigInt(v.id)}}`;
  if (v instanceof GodotObject) {
    if (v.id !== undefined) return `{"type":"Object","id":${BigInt(v.id)}}`;
    if (v.className === undefined) return '{"type":"Object","null":true}';
    return `{"type":"Object","class":${jstr(v.className)},"properties":[${(v.properties ?? []).map(([k, x]) => `[${jstr(k)},${toJson(x, next)}]`).join(',')}]}`;
  }
  if (v instanceof Callable) return '{"type":"Callable"}';
  if (v instanceof Signal) return `{"type":"Signal","name":${jstr(v.name)},"object_id":${BigInt(v.objectId)}}`;
  if (v instanceof GodotArray) {
    return `{"type":"${v.kind}"${v.shared ? ',"shared":true' : ''}${v.elementType !== undefined ? `,"element_type":${descJson(v.elementType)}` : ''},`
      + `"value":[${v.items.map((x) => toJson(x, next)).join(',')}]}`;
  }
  const pairs = (ps) => ps.map(([k, x]) => `[${toJson(k, next)},${toJson(x, next)}]`).join(',');
  if (v instanceof Dictionary) {
    const typed = v.keyType !== undefined || v.valueType !== undefined;
    return `{"type":"Dictionary"${v.shared ? ',"shared":true' : ''}${typed ? `,"key_type":${descJson(v.keyType)},"value_type":${descJson(v.valueType)}` : ''},`
      + `"value":[${pairs(v.pairs)}]}`;
  }
  if (v instanceof Map) return `{"type":"Dictionary","value":[${pairs([...v])}]}`;
  if (v instanceof Image) {
    return `{"type":"Image","format":${v.format},"mipmaps":${v.mipmaps},"width":${v.width},"height":${v.height},"data":"${b64(v.data)}"}`;
  }
  if (v instanceof InputEvent) {
    return `{"type":"InputEvent","event_type":${v.eventType},"device":${v.device},"length":${v.length},"extra":[${v.extra.join(',')}]}`;
  }
  if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
    return `{"type":"Dictionary","value":[${Object.keys(v).map((k) => `[${toJson(k, next)},${toJson(v[k], next)}]`).join(',')}]}`;
  }
  throw new TypeError(`${v.constructor?.name ?? 'this object'} is not a Godot value (README.md, "Values", lists the types)`);
}

// ---- JavaScript -> the library's tree ------------------------------------------------------------------
// encode builds the tree with the library's gdw_build_* calls for the types JavaScript has (null, boolean,
// number, bigint, string, Array, plain object, Map, Uint8Array) and gives every other value as its JSON form
// (toJson above), which the library reads into the same tree: each of those types keeps one mapping.

let builder = 0;
let scratch = 0, scratchCap = 0; // bytes handed to a gdw_build_* call, which copies them
function scratchFor(n) {
  if (n > scratchCap) {
    if (scratch) X.free(scratch);
    scratchCap = Math.max(n, 2 * scratchCap, 4096);
    scratch = X.malloc(scratchCap);
    if (!scratch) { scratchCap = 0; throw new GdwireError('NOMEM', 0, '', `no room for ${n} bytes in the WebAssembly memory`); }
  }
  views(); // malloc may have grown the memory
  return scratch;
}

const SURROGATE = /[\uD800-\uDFFF]/; // a string with one goes as JSON: a lone one is refused there, as before

function buildString(v, name) {
  const p = scratchFor(3 * v.length + 1);
  const n = encoder.encodeInto(v, u8.subarray(p, p + 3 * v.length + 1)).written;
  (name ? X.gdw_build_string_name : X.gdw_build_string)(builder, p, n);
}

function buildJson(v, depth) {
  withCString(toJson(v, depth), (p, n) => { if (X.gdwjs_build_json(builder, p, n, ERR) !== 0) throw lastError(); });
}

function build(v, depth) {
  if (depth > MAX_DEPTH) throw new RangeError('value nested deeper than 1024 levels below the top (the engines\' limit)');
  if (v === null || v === undefined) { X.gdw_build_nil(builder); return; }
  switch (typeof v) {
    case 'boolean': X.gdw_build_bool(builder, v ? 1 : 0); return;
    case 'number':
      if (Number.isInteger(v) && !Object.is(v, -0)) {
        if (!Number.isSafeInteger(v)) throw new RangeError(`${v} is beyond 2^53: give it as a BigInt`);
        X.gdw_build_int(builder, BigInt(v));
      } else {
        X.gdw_build_float(builder, v); // the width the engines choose, as the JSON form without a width
      }
      return;
    case 'bigint':
      if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`${v} does not fit Godot's 64-bit int`);
      X.gdw_build_int(builder, v);
      return;
    case 'string':
      if (SURROGATE.test(v)) buildJson(v, depth);
      else buildString(v, false);
      return;
    default: break;
  }
  if (typeof v !== 'object') throw new TypeError(`a ${typeof v} is not a Godot value`);
  const next = depth + 1;
  if (Array.isArray(v)) {
    X.gdw_build_begin_array(builder);
    for (let i = 0; i < v.length; i++) build(v[i], next);
    X.gdw_build_end(builder);
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) {
    X.gdw_build_begin_dictionary(builder);
    for (const k of Object.keys(v)) { build(k, next); build(v[k], next); }
    X.gdw_build_end(builder);
    return;
  }
  if (v instanceof Map) {
    X.gdw_build_begin_dictionary(builder);
    for (const [k, x] of v) { build(k, next); build(x, next); }
    X.gdw_build_end(builder);
    return;
  }
  if (v instanceof Uint8Array) {
    const p = scratchFor(v.length || 1);
    u8.set(v, p);
    X.gdw_build_packed_bytes(builder, p, v.length);
    return;
  }
  if (v instanceof StringName && typeof v.value === 'string' && !SURROGATE.test(v.value)) { buildString(v.value, true); return; }
  if (buildNumbers(v)) return;
  buildJson(v, depth);
}

// The typed arrays and the math and packed classes, from their components, unless one is a NaN (the JSON form
// writes a NaN's bits, which a component read as a double may not keep): true when built.
const TYPED_ARRAYS = new Map([[Int32Array, 'PackedInt32Array'], [BigInt64Array, 'PackedInt64Array'], [Float32Array, 'PackedFloat32Array'],
  [Float64Array, 'PackedFloat64Array']]);
function buildNumbers(v) {
  let type, comps, ints, packed, width = 0;
  if (TYPED_ARRAYS.has(v.constructor)) {
    type = TYPED_ARRAYS.get(v.constructor);
    comps = v;
    ints = v instanceof Int32Array || v instanceof BigInt64Array;
    packed = true;
  } else if (v instanceof PackedValue) {
    type = v.constructor.name;
    comps = v.data;
    ints = v.constructor.ints;
    packed = true;
    width = v.realWidth ?? 0;
  } else if (v instanceof MathValue && !v.rawBits) {
    type = v.constructor.name;
    comps = v.values;
    ints = v.constructor.ints;
    packed = false;
    width = v.realWidth ?? 0;
  } else {
    return false;
  }
  const t = T[type], n = comps.length;
  if (t === undefined) return false;
  const p = scratchFor(8 * (n || 1));
  if (ints) {
    const a = new BigInt64Array(u8.buffer, p, n);
    for (let i = 0; i < n; i++) a[i] = BigInt(comps[i]);
    (packed ? X.gdw_build_packed_ints : X.gdw_build_math_int)(builder, t, p, n);
  } else {
    const a = new Float64Array(u8.buffer, p, n);
    for (let i = 0; i < n; i++) {
      if (Number.isNaN(comps[i])) return false;
      a[i] = comps[i];
    }
    (packed ? X.gdw_build_packed_reals : X.gdw_build_math)(builder, t, p, n, width);
  }
  return true;
}

/**
 * The bytes the dialect's engine writes for value (var_to_bytes).
 * @param {any} value
 * @param {{dialect?: string, lossy?: boolean}} [opts]
 * @returns {Uint8Array}
 */
export function encode(value, opts = {}) {
  const d = dialectPtr(opts.dialect ?? 'godot4');
  if (!builder) builder = X.gdw_builder_new(0);
  if (!builder) throw new GdwireError('NOMEM', 0, '', 'no room for a builder in the WebAssembly memory');
  try {
    build(value, 0);
  } catch (e) {
    X.gdw_builder_free(builder); // it holds part of a tree: the next encode starts from a new one
    builder = 0;
    throw e;
  }
  const out = X.gdwjs_build_encode(builder, d, opts.lossy ? 1 : 0, OUT, ERR);
  if (!out) throw lastError();
  views();
  const bytes = u8.slice(out, out + dv.getUint32(OUT, true));
  X.free(out);
  return bytes;
}

/**
 * A value in the canonical text form (or, with json: true, the library's JSON form), encoded in a dialect, as
 * `gdwire encode` writes it. A text that does not parse throws GdwireError SYNTAX with offset the character. With
 * lossy, onNarrow(error) is called for each place narrowed.
 * @param {string} text
 * @param {{dialect?: string, lossy?: boolean, json?: boolean, onNarrow?: (e: GdwireError) => void}} [opts]
 */
export function encodeText(text, opts = {}) {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  const d = dialectPtr(opts.dialect ?? 'godot4');
  const WARN = 16;
  const warnP = X.malloc(L.err_size * WARN), nP = X.malloc(4);
  try {
    const out = withCString(text, (p, n) => X.gdwjs_text_encode(d, p, n, opts.json ? 1 : 0, opts.lossy ? 1 : 0, OUT, ERR, warnP, WARN, nP));
    views();
    const nw = dv.getUint32(nP, true);
    if (!out) throw lastError();
    const bytes = u8.slice(out, out + dv.getUint32(OUT, true));
    X.free(out);
    if (opts.onNarrow) for (let i = 0; i < Math.min(nw, WARN); i++) opts.onNarrow(errorAt(warnP + L.err_size * i));
    return bytes;
  } finally {
    X.free(warnP);
    X.free(nP);
  }
}

const INPUT_FORMATS = { hex: 0, base64: 1, dump: 2 };
const LOOKS_LIKE_DUMP = /[[\],;{}]|^\s*[0-9a-fA-F]{7,}(:|  )/m;
const LOOKS_LIKE_HEX = /^\s*(0[xX])?[0-9a-fA-F\s]*$/;

/**
 * Bytes from text as people paste them: hex (any spacing, a leading 0x), base64 (Marshalls.variant_to_base64), or
 * byte values (Godot's print() of a PackedByteArray, [27, 0, 0, 0]; decimal or 0x lists; xxd and hexdump -C). The
 * library's readers, as `gdwire --hex`, `--base64` and `--dump`. format 'auto' (the default) takes a list or a dump
 * when the text has brackets, commas or an offset column, else hex when it is only hex digits, else base64.
 * @returns {{bytes: Uint8Array, format: 'hex'|'base64'|'dump'}}
 */
export function parseInput(text, opts = {}) {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  let format = opts.format ?? 'auto';
  if (format === 'auto') format = LOOKS_LIKE_DUMP.test(text) ? 'dump' : LOOKS_LIKE_HEX.test(text) ? 'hex' : 'base64';
  const which = INPUT_FORMATS[format];
  if (which === undefined) throw new RangeError(`format is auto, hex, base64 or dump, not ${format}`);
  const why = X.malloc(12);
  try {
    return withCString(text, (p, n) => {
      const s = X.gdwjs_untext(p, n, which, why, why + 4, why + 8);
      views();
      if (s !== 0) {
        const at = dv.getUint32(why + 4, true), reason = dv.getUint32(why + 8, true);
        // the offset is the UTF-8 text's: the same as the string's index while the text before it is ASCII
        const msg = reason ? cString(reason) : format === 'hex' ? (at >= n || /[0-9a-fA-F]/.test(String.fromCharCode(u8[p + at])) ? 'an odd number of hex digits'
          : 'not a hex digit') : at >= n ? 'the base64 text ends inside a group' : 'not a base64 character';
        throw new GdwireError('SYNTAX', at, '', `${format}: ${msg} at character ${at}`);
      }
      return { bytes: u8.slice(p, p + dv.getUint32(why, true)), format };
    });
  } finally {
    X.free(why);
  }
}

// ---- dialects and check ---------------------------------------------------------------------------------

const CHECK_ROW = 10; // words of a gdwjs_check row (src/glue.c)
const CHECK_REASON = 256, CHECK_SUMMARY = 640, CHECK_SCRIPT = 720, CHECK_TEXT = 1104; // bytes of its texts (src/glue.c)
const READINGS = ['whole', 'cut', 'prefix', 'rejected'];

let rowsCache;
/** Every dialect and engine release row: name, family, summary, engines, aliases, release, released,
 * releaseOf, engineEvidence, noEngine, documentedOnly, objectsByDefault, fuzzId (the fuzz targets' number for it). */
export function dialects() {
  if (!rowsCache) {
    rowsCache = [];
    for (let i = 0; i < X.gdw_row_count(); i++) {
      const d = X.gdw_row_at(i), base = X.gdw_dialect_base(d);
      const ev = X.gdw_dialect_engine_evidence(d), no = X.gdw_dialect_no_engine(d);
      rowsCache.push(Object.freeze({
        name: cString(X.gdw_dialect_name(d)), family: cString(X.gdw_dialect_family(d)), summary: cString(X.gdw_dialect_summary(d)),
        engines: cString(X.gdw_dialect_engines(d)), aliases: cString(X.gdw_dialect_aliases(d)).split(' ').filter((a) => a),
        release: cString(X.gdw_dialect_release(d)), released: cString(X.gdw_dialect_released(d)),
        releaseOf: base && base !== d ? cString(X.gdw_dialect_name(base)) : undefined,
        engineEvidence: ev ? cString(ev) : undefined, noEngine: no ? cString(no) : undefined,
        documentedOnly: X.gdw_dialect_documented_only(d) !== 0, objectsByDefault: X.gdw_dialect_objects_by_default(d) !== 0,
        fuzzId: X.gdw_dialect_fuzz_id(d),
      }));
    }
    Object.freeze(rowsCache);
  }
  return rowsCache;
}

/**
 * Decode bytes in every dialect: which accept them, which strictly (their encoder writes exactly these bytes),
 * which as the engine itself would, and the library's ranking, as `gdwire check` gives it: a reading of every byte,
 * then a cut packet (a value that runs out of bytes), then a value with bytes left after it, then a rejection; among
 * whole readings, a value without reals that look misread (NaN, below 1e-30 or beyond 1e30: an integer or text read
 * as a float), its encoder writing back these bytes, the engine accepting them, an engine's row before a
 * documented-only one; equals share a rank, and the newest engine release among the first is best. `equally` lists
 * the dialects as likely that read the same value; `summary` is the answer in one sentence, as the command and the
 * page print it. Where no dialect reads every byte and one reads the bytes after a few in front (a 4-byte length
 * prefix, an opcode), the verdicts are of the bytes after `skip`, and `framing` says what those are. `script` says
 * what a script of the named engine passes to read the value ("bytes_to_var(bytes.slice(4))").
 * `ranking` lists the dialects that read the packet (whole, cut or in part), best first.
 * @returns {{verdicts: Array<{dialect: string, accepted: boolean, consumed: number, strict: boolean, engineExact: boolean,
 *            rank: number, misreadReals: number, reading: string, first: boolean, reason: string, shortBy: number,
 *            error?: GdwireError}>, ranking: string[], best?: string, equally: string[], summary: string, skip: number,
 *            framing: string, script: string}}
 */
export function check(bytes, opts = {}) {
  const b = asBytes(bytes);
  checkLimit(b.length);
  const n = X.gdw_dialect_count();
  const rowsP = X.malloc(4 * CHECK_ROW * n), errsP = X.malloc(L.err_size * n), reasonsP = X.malloc(CHECK_REASON * n);
  const textP = X.malloc(CHECK_TEXT), bestP = X.malloc(4), skipP = X.malloc(4);
  try {
    const got = withBytes(b, (p, len) => X.gdwjs_check(p, len, opts.allowObjects ? 1 : 0, rowsP, errsP, reasonsP, textP, n, bestP, skipP));
    if (got !== n) throw new GdwireError('NOMEM', 0, '', 'check ran out of WebAssembly memory');
    views();
    const verdicts = [];
    for (let i = 0; i < n; i++) {
      const w = (k) => dv.getUint32(rowsP + 4 * (CHECK_ROW * i + k), true);
      const accepted = w(1) === 0;
      const error = accepted ? undefined : errorAt(errsP + L.err_size * i);
      verdicts.push(Object.freeze({ dialect: cString(X.gdw_dialect_name(w(0))), accepted, consumed: accepted ? w(2) : 0, strict: w(3) === 1,
        engineExact: w(4) === 1, rank: w(5), misreadReals: w(6), reading: READINGS[w(7)], first: w(8) === 1, reason: cString(reasonsP + CHECK_REASON * i),
        shortBy: w(9), error }));
    }
    const bestIndex = dv.getUint32(bestP, true);
    const best = verdicts[bestIndex].reading !== 'rejected' ? verdicts[bestIndex].dialect : undefined;
    // by rank; among equals the best first, then table order
    const ranking = verdicts.filter((v) => v.reading !== 'rejected').sort((a, c) => a.rank - c.rank || (c.dialect === best) - (a.dialect === best))
      .map((v) => v.dialect);
    const equally = best === undefined ? [] : verdicts.filter((v) => v.first && v.dialect !== best).map((v) => v.dialect);
    return { verdicts, ranking, best, equally, summary: cString(textP), skip: dv.getUint32(skipP, true), framing: cString(textP + CHECK_SUMMARY),
      script: cString(textP + CHECK_SCRIPT) };
  } finally {
    for (const p of [rowsP, errsP, reasonsP, textP, bestP, skipP]) X.free(p);
  }
}

/** The row's own name for a name or alias ("godot2" -> "mole"). */
export function canonicalName(dialect) { return cString(X.gdw_dialect_name(dialectPtr(dialect))); }

export const libraryVersion = cString(X.gdw_version());

// ---- limits -------------------------------------------------------------------------------------------

let maxInput = 256 * 1024 * 1024;
/** The largest packet decode and check take (default 256 MiB; the WebAssembly memory holds the packet and its
 * tree, at most 7 bytes a packet byte in compatible mode, within its 2 GiB). Larger ones throw TOO_LARGE. */
export function setMaxInput(bytes) {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new RangeError('setMaxInput wants a byte count');
  maxInput = bytes;
}
function checkLimit(n) {
  if (n > maxInput) throw new GdwireError('TOO_LARGE', maxInput, '', `the packet is ${n} bytes, more than the limit (setMaxInput: ${maxInput})`);
}

// ---- framings -----------------------------------------------------------------------------------------

/**
 * Cuts a byte stream into the packets of StreamPeer.put_var (and PacketPeerStream): each a 4-byte
 * little-endian length, then that many bytes. feed(chunk) as bytes arrive (a net.Socket's 'data', a
 * WebSocket message); packets() yields every whole packet so far.
 */
export class FrameReader {
  /** @param {{maxPayload?: number, bigEndian?: boolean}} [o] maxPayload: 256 MiB, or 65,531 for a PacketPeerStream */
  constructor(o = {}) {
    this.maxPayload = o.maxPayload ?? 256 * 1024 * 1024;
    this.bigEndian = Boolean(o.bigEndian);
    // one growing buffer: bytes [start, end) are held; consumed counts the bytes handed out, so
    // an error names its offset in the stream
    this.buf = new Uint8Array(0);
    this.start = 0;
    this.end = 0;
    this.consumed = 0;
  }
  /** Adds a chunk: amortised O(its length), whatever the chunks' sizes. */
  feed(chunk) {
    const c = asBytes(chunk);
    const held = this.end - this.start;
    if (this.end + c.length > this.buf.length) {
      if (held + c.length <= this.buf.length && this.start >= held) {
        this.buf.copyWithin(0, this.start, this.end); // room at the front, and the move costs at most what was read
      } else {
        const grown = new Uint8Array(Math.max(held + c.length, 2 * this.buf.length, 4096));
        grown.set(this.buf.subarray(this.start, this.end));
        this.buf = grown;
      }
      this.start = 0;
      this.end = held;
    }
    this.buf.set(c, this.end);
    this.end += c.length;
  }
  /** Yields each whole packet once: a packet counts as read when it is yielded, so a loop that
   * stops early, or a prefix over maxPayload (thrown, and thrown again until the reader is
   * dropped), never hands a packet out twice. */
  *packets() {
    while (this.end - this.start >= 4) {
      const n = new DataView(this.buf.buffer, this.buf.byteOffset + this.start, 4).getUint32(0, !this.bigEndian);
      if (n > this.maxPayload) {
        throw new GdwireError('TOO_LARGE', this.consumed, '', `the length prefix says ${n} bytes, more than maxPayload (${this.maxPayload})`);
      }
      if (this.end - this.start - 4 < n) break;
      const packet = this.buf.slice(this.start + 4, this.start + 4 + n);
      this.start += 4 + n;
      this.consumed += 4 + n;
      if (this.start === this.end) this.start = this.end = 0;
      yield packet;
    }
  }
  /** bytes held that are not a whole packet yet */
  get pending() { return this.end - this.start; }
}

/** A packet with its 4-byte length prefix, as StreamPeer.put_var writes it. */
export function frame(packet, o = {}) {
  const p = asBytes(packet);
  const out = new Uint8Array(4 + p.length);
  new DataView(out.buffer).setUint32(0, p.length, !o.bigEndian);
  out.set(p, 4);
  return out;
}

// ---- sessions (session/gdwire_session.h) and capture files (session/gdwire_pcap.h) ------------------------

/** Link types of Session.frame, as libpcap numbers them (a capture file's records carry their own). */
export const LINK_NULL = 0; // BSD loopback: a 4-byte family in the capturing host's order
export const LINK_ETHERNET = 1;
export const LINK_DLT_RAW = 12; // raw IP, as pcap_datalink names LINKTYPE_RAW
export const LINK_DLT_RAW_OPENBSD = 14;
export const LINK_RAW = 101; // a bare IPv4 or IPv6 packet
export const LINK_LOOP = 108; // OpenBSD loopback
export const LINK_LINUX_SLL = 113;
export const LINK_IPV4 = 228;
export const LINK_IPV6 = 229;
export const LINK_LINUX_SLL2 = 276;

// the slots of src/glue.c's event record (EV_*), its value rows (VAL_SLOTS) and a problem's slots (PR_*)
const EV = {
  KIND: 0, FRAME: 1, FLOW: 2, TRANSPORT: 3, DIALECT: 4, FROM: 5, TO: 6, RELAYED: 7, CHANNEL: 8, MODE: 9, COMMAND: 10, PATH: 11,
  BYTES: 12, LEN: 13, VALUE_COUNT: 14, VALUES: 15, NODE_ID: 16, INLINE_PATH: 17, INLINE_LEN: 18, METHOD_ID: 19, METHOD: 20,
  METHOD_LEN: 21, MD5: 22, CHECKSUM: 23, NET_ID: 24, SCENE_ID: 25, NAME: 26, NAME_LEN: 27, SYNC_TIME: 28, PEER: 29, PAYLOAD: 30,
  PAYLOAD_LEN: 31, TIME: 32, PROJECT: 33, PROJECT_METHOD: 34, ARGS_FIT: 35, REFUSED: 36, PROJECT_MD5: 37,
  PR_LAYER: 3, PR_OFFSET: 4, PR_MESSAGE: 5,
};
const VAL_SLOTS = 10;
const CAP_NAMES = ['maxOpenFragmentBytes', 'maxFlowFragmentBytes', 'maxPacketBytes', 'maxFlows', 'maxCachedPaths', 'maxWindowBytes',
  'maxFlowWindowBytes', 'maxPathBytes', 'maxFlowPathBytes', 'maxIpFragmentBytes'];
const CAP_LIMITS = { maxFlows: 2 ** 24, maxCachedPaths: 2 ** 26 }; // gdw_session_new refuses more (session.c)
const COMMANDS = [];
for (let c = 0; ; c++) {
  const n = cString(X.gdw_mp_command_name(c));
  if (n === '?') break;
  COMMANDS.push(n);
}
const ENCODINGS = [0, 1, 2, 3].map((e) => cString(X.gdw_mp_encoding_name(e)));

/** One Variant of a message: an RPC's argument (label "arg"), a spawn's argument or state ("spawn_arg",
 * "spawn_state"), a synchronizer's state ("state"), a put_var flow's value ("value"). value is the JavaScript value
 * (as decode gives it), or undefined with error set (a GdwireError whose offsets count from the value's first byte).
 * offset and length place its bytes in the message's data. */
export class MessageValue {
  constructor(o) { Object.assign(this, o); Object.freeze(this); }
  /** the value decoded */
  get ok() { return this.error === undefined; }
}

/** One Godot multiplayer message (a SceneMultiplayer or MultiplayerAPI packet, or a put_var value on plain TCP). */
export class Message {
  constructor(o) { Object.assign(this, o); Object.freeze(this); }
  get type() { return 'message'; }
  /** the packet's size in bytes */
  get size() { return this.data.length; }
  /** the bytes of one of this message's values */
  valueBytes(v) { return this.data.subarray(v.offset, v.offset + v.length); }
}

/** What a session could not read, or dropped to stay within its caps. Nothing stops the session. */
export class Problem {
  constructor(o) { Object.assign(this, o); Object.freeze(this); }
  get type() { return 'problem'; }
}

/** A capture file cut short or not a capture: status (the reader's: "truncated", "not_capture", ...), offset (the
 * byte of the file where what failed starts) and the reader's message (detail). code is the status in capitals. */
export class CaptureError extends GdwireError {
  constructor(status, offset, message) {
    super(status.toUpperCase(), offset, '', message);
    this.name = 'CaptureError';
    this.status = status;
  }
}

// The feed running now (one at a time: the library calls gdwjs_session_event during it, nothing else runs then).
let feed;

function ev64(rec, k) { return dv.getBigInt64(rec + 8 * k, true); }
function evNum(rec, k) { return Number(ev64(rec, k)); }
function evPtr(rec, k) { return dv.getUint32(rec + 8 * k, true); }

function sessionEvent(rec) {
  if (!feed || feed.error) return;
  try {
    views();
    feed.events.push(evNum(rec, EV.KIND) === 0 ? messageAt(rec, feed.ro) : new Problem({
      frame: evNum(rec, EV.FRAME), time: dv.getFloat64(rec + 8 * EV.TIME, true), flow: evNum(rec, EV.FLOW), layer: cString(evPtr(rec, EV.PR_LAYER)),
      offset: evNum(rec, EV.PR_OFFSET), message: cString(evPtr(rec, EV.PR_MESSAGE)),
    }));
  } catch (e) {
    feed.error = e; // thrown when the feed returns: nothing may unwind through the library
  }
}

function messageAt(rec, ro) {
  const count = evNum(rec, EV.VALUE_COUNT);
  if (count < 0) throw new GdwireError('NOMEM', 0, '', 'no room for a message\'s values in the WebAssembly memory');
  const command = COMMANDS[evNum(rec, EV.COMMAND)];
  const sync = command === 'sync' || command === 'delta';
  const values = [];
  const rows = evPtr(rec, EV.VALUES);
  for (let i = 0; i < count; i++) {
    const r = rows + 8 * VAL_SLOTS * i;
    const w = (k) => dv.getBigInt64(r + 8 * k, true);
    const vp = dv.getUint32(r + 8 * 6, true);
    values.push(new MessageValue({
      label: cString(dv.getUint32(r, true)), index: Number(w(1)), netId: sync ? Number(BigInt.asUintN(32, w(2))) : undefined,
      indexes: command === 'delta' ? intValue(BigInt.asUintN(64, w(3)), ro) : undefined, offset: Number(w(4)), length: Number(w(5)),
      encoding: ENCODINGS[Number(w(9))] ?? '?', value: vp ? read(vp, ro) : undefined, error: vp ? undefined : errorAt(dv.getUint32(r + 8 * 8, true)),
    }));
  }
  const ptrText = (pk, lk) => { const p = evPtr(rec, pk); return p ? text(p, evNum(rec, lk)) : undefined; };
  const f = {};
  const nodeId = evNum(rec, EV.NODE_ID);
  switch (command) {
    case 'rpc': case 'rset':
      f.nodeId = nodeId >= 0 ? nodeId : undefined;
      f.inlinePath = ptrText(EV.INLINE_PATH, EV.INLINE_LEN);
      f.methodId = evNum(rec, EV.METHOD_ID) >= 0 ? evNum(rec, EV.METHOD_ID) : undefined;
      f.method = ptrText(EV.METHOD, EV.METHOD_LEN);
      break;
    case 'simplify_path': case 'confirm_path': {
      f.nodeId = nodeId >= 0 ? nodeId : undefined;
      f.inlinePath = ptrText(EV.INLINE_PATH, EV.INLINE_LEN);
      const md5 = evPtr(rec, EV.MD5);
      f.md5 = md5 ? cString(md5) : undefined;
      f.checksumValid = evNum(rec, EV.CHECKSUM) >= 0 ? evNum(rec, EV.CHECKSUM) !== 0 : undefined;
      break;
    }
    case 'spawn':
      f.nodeId = nodeId;
      f.netId = evNum(rec, EV.NET_ID);
      f.sceneId = evNum(rec, EV.SCENE_ID);
      f.name = ptrText(EV.NAME, EV.NAME_LEN) ?? '';
      break;
    case 'despawn': f.netId = evNum(rec, EV.NET_ID); break;
    case 'sync': f.syncTime = evNum(rec, EV.SYNC_TIME); break;
    case 'add_peer': case 'del_peer': f.peer = evNum(rec, EV.PEER); break;
    case 'auth': case 'raw': case 'relay': {
      const p = evPtr(rec, EV.PAYLOAD);
      f.payload = p ? u8.slice(p, p + evNum(rec, EV.PAYLOAD_LEN)) : new Uint8Array(0);
      break;
    }
    default: break;
  }
  // Session({project}): what the manifest says (src/glue.c, gdw_rpc_annotate), as capture --project --json says it
  const p = {};
  if (evNum(rec, EV.PROJECT)) {
    const pm = evPtr(rec, EV.PROJECT_METHOD), fit = evNum(rec, EV.ARGS_FIT), why = evPtr(rec, EV.REFUSED), md5 = evPtr(rec, EV.PROJECT_MD5);
    if (pm && f.method === undefined) f.method = cString(pm);
    if (pm) p.argsFit = fit < 0 ? null : fit !== 0;
    if (why) p.refused = cString(why);
    if (md5) p.projectMd5 = cString(md5);
  }
  const bytes = evPtr(rec, EV.BYTES), dialect = evPtr(rec, EV.DIALECT), path = evPtr(rec, EV.PATH);
  let pathEnd = path;
  if (path) while (u8[pathEnd]) pathEnd++;
  return new Message({
    frame: evNum(rec, EV.FRAME), time: dv.getFloat64(rec + 8 * EV.TIME, true), flow: evNum(rec, EV.FLOW), transport: cString(evPtr(rec, EV.TRANSPORT)),
    dialect: dialect ? cString(X.gdw_dialect_name(dialect)) : '', from: evNum(rec, EV.FROM), to: evNum(rec, EV.TO),
    relayed: evNum(rec, EV.RELAYED) !== 0, channel: evNum(rec, EV.CHANNEL), mode: cString(evPtr(rec, EV.MODE)), command,
    path: path ? text(path, pathEnd - path) : undefined, data: u8.slice(bytes, bytes + evNum(rec, EV.LEN)),
    nodeId: undefined, inlinePath: undefined, methodId: undefined, method: undefined, md5: undefined, checksumValid: undefined,
    netId: undefined, sceneId: undefined, name: undefined, syncTime: undefined, peer: undefined, payload: undefined, ...f, values,
    argsFit: undefined, refused: undefined, projectMd5: undefined, ...p,
  });
}

const sessions = typeof FinalizationRegistry === 'undefined' ? undefined : new FinalizationRegistry((w) => X.gdwjs_session_free(w));
const captures = typeof FinalizationRegistry === 'undefined' ? undefined : new FinalizationRegistry((h) => freeCapture(h));

let sessionDefaults;
/** The session options' defaults: each max_* cap, and whether Objects decode. */
export function sessionOptionsDefault() {
  if (!sessionDefaults) {
    const p = X.malloc(44);
    X.gdwjs_session_defaults(p);
    views();
    sessionDefaults = Object.freeze(Object.fromEntries([...CAP_NAMES.map((n, i) => [n, dv.getUint32(p + 4 * i, true)]),
      ['allowObjects', dv.getUint32(p + 40, true) !== 0]]));
    X.free(p);
  }
  return sessionDefaults;
}

/** The ENet compressions this build reads itself: "fastlz" (gdwire's own). The WebAssembly has no zlib, zstd or
 * range coder: datagrams compressed with them are problems that say so. */
export function compressionsBuilt() {
  const out = [];
  for (let c = 1; c <= 4; c++) if (X.gdw_enet_compression_built(c)) out.push(cString(X.gdw_enet_compression_name(c)));
  return out;
}

function endpoint(a, what) {
  if (a === null || typeof a !== 'object') throw new TypeError(`${what} must be {address, port}`);
  const { address, port } = a;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${what}.port must be an integer from 0 to 65535, not ${port}`);
  if (typeof address === 'string') {
    const out = X.malloc(16);
    try {
      const n = withCString(address, (p) => X.gdwjs_parse_address(p, out));
      if (!n) throw new RangeError(`${what}.address '${address}' is not an IPv4 or IPv6 address`);
      views();
      return { bytes: u8.slice(out, out + n), port };
    } finally {
      X.free(out);
    }
  }
  if (address instanceof Uint8Array && (address.length === 4 || address.length === 16)) return { bytes: address, port };
  throw new TypeError(`${what}.address must be a string ("127.0.0.1", "::1") or 4 or 16 bytes`);
}

/**
 * A Godot multiplayer session read from its traffic (the C library's gdw_session): frames or UDP payloads in, the
 * messages and problems each produced out, in order. It holds what spans packets (ENet fragments and retransmit
 * windows, TCP streams, path caches) within its caps, and says what it drops as problems; no input throws. It holds
 * WebAssembly memory: free() gives it back (a FinalizationRegistry does it too when the Session is collected).
 */
export class Session {
  /** @param {{dialect?: string, mode?: 'compatible'|'strict'|'engine-exact', allowObjects?: boolean, bigint?: 'auto'|'always',
   *          maxOpenFragmentBytes?: number, maxFlowFragmentBytes?: number, maxPacketBytes?: number, maxFlows?: number,
   *          maxCachedPaths?: number, maxWindowBytes?: number, maxFlowWindowBytes?: number, maxPathBytes?: number,
   *          maxFlowPathBytes?: number, maxIpFragmentBytes?: number, project?: string|object}} [opts]
   * project: a manifest as JSON text or its object (SyntaxError when it does not parse) */
  constructor(opts = {}) {
    let d = 0;
    if (opts.dialect !== undefined && opts.dialect !== null) {
      d = dialectPtr(opts.dialect);
      if (!X.gdwjs_session_layer(d)) {
        throw new RangeError(`dialect ${opts.dialect}: the multiplayer layer of its engines is not read (godot4, godot4.3, godot4-double, godot3 and godot3@3.2 are)`);
      }
    }
    const mode = MODES[opts.mode ?? 'compatible'];
    if (mode === undefined) throw new RangeError(`mode is compatible, strict or engine-exact, not ${opts.mode}`);
    this._ro = { bigint: opts.bigint ?? 'auto' };
    if (this._ro.bigint !== 'auto' && this._ro.bigint !== 'always') throw new RangeError("bigint is 'auto' or 'always'");
    const caps = CAP_NAMES.map((n) => {
      const v = opts[n];
      if (v === undefined) return 0;
      if (!Number.isSafeInteger(v) || v < 1 || v > (CAP_LIMITS[n] ?? 0xffffffff)) {
        throw new RangeError(`${n} must be an integer from 1 to ${CAP_LIMITS[n] ?? 0xffffffff}, not ${v}`);
      }
      return v;
    });
    const capsP = X.malloc(4 * caps.length);
    views();
    caps.forEach((c, i) => dv.setUint32(capsP + 4 * i, c, true));
    const w = X.gdwjs_session_new(d, mode, (opts.allowObjects ?? true) ? 1 : 0, capsP);
    X.free(capsP);
    if (!w) throw new GdwireError('NOMEM', 0, '', 'no room for a session in the WebAssembly memory');
    this._w = w;
    this._s = X.gdwjs_session_inner(w);
    this._finished = false;
    sessions?.register(this, w, this);
    if (opts.project !== undefined && opts.project !== null) this._project(opts.project);
  }

  // opts.project: a manifest as JSON text or as its object (`gdwire rpc --json`, the addon's dump): the module has no files
  _project(project) {
    const json = typeof project === 'string' ? project : JSON.stringify(project);
    const bytes = new TextEncoder().encode(json);
    const jp = X.malloc(bytes.length + 1), ep = X.malloc(256);
    views();
    u8.set(bytes, jp);
    const st = X.gdwjs_session_project(this._w, jp, bytes.length, ep, 256);
    views();
    const why = cString(ep);
    X.free(jp);
    X.free(ep);
    if (st !== 0) {
      this.free();
      if (st === 2) throw new GdwireError('NOMEM', 0, '', 'no room for the project in the WebAssembly memory');
      throw new SyntaxError(`project: ${why}`);
    }
  }

  _feed(fn) {
    if (!this._w) throw new Error('the session was freed (free())');
    if (this._finished) throw new Error('the session is finished (finish() was called): make a new Session');
    if (feed) throw new Error('a session is being fed already (from an event\'s code?)');
    feed = { events: [], ro: this._ro, error: undefined };
    const f = feed;
    try {
      fn();
    } finally {
      feed = undefined;
    }
    if (f.error) throw f.error;
    return f.events;
  }

  /**
   * One captured frame of link type link (LINK_ETHERNET by default): the events it produced. wirelen: the frame's length
   * on the wire when the capture kept less (a snapshot length).
   * @returns {Array<Message|Problem>}
   */
  frame(bytes, o = {}) {
    const b = asBytes(bytes);
    const link = o.link ?? LINK_ETHERNET, time = o.time ?? 0, wirelen = o.wirelen ?? b.length;
    if (!Number.isInteger(link)) throw new TypeError('link must be an integer (LINK_*)');
    if (typeof time !== 'number') throw new TypeError('time must be a number (seconds)');
    if (!Number.isSafeInteger(wirelen) || wirelen < b.length) throw new RangeError(`wirelen (${wirelen}) is less than the bytes captured (${b.length})`);
    return this._feed(() => withBytes(b, (p, n) => X.gdw_session_frame(this._s, link, p, n, Math.min(wirelen, 0xffffffff), time)));
  }

  /**
   * One UDP payload from src to dst (each {address, port}: "127.0.0.1", "::1", or 4 or 16 bytes; both of one family),
   * as a program that reads its own socket has it: the events it produced.
   */
  udp(src, dst, payload, o = {}) {
    const s = endpoint(src, 'src'), d = endpoint(dst, 'dst');
    if (s.bytes.length !== d.bytes.length) throw new RangeError('src and dst must be addresses of one family (IPv4 or IPv6)');
    const b = asBytes(payload), time = o.time ?? 0;
    if (typeof time !== 'number') throw new TypeError('time must be a number (seconds)');
    const addrs = new Uint8Array(32);
    addrs.set(s.bytes, 0);
    addrs.set(d.bytes, 16);
    return withBytes(addrs, (a) => this._feed(() => withBytes(b, (p, n) =>
      X.gdwjs_session_udp(this._w, a, a + 16, s.bytes.length, s.port, d.port, p, n, time))));
  }

  /** The traffic ended: the problems of what never completed (fragmented packets, cut streams). The session takes no
   * more input after it; its stats and flows stay. */
  finish() {
    const events = this._feed(() => X.gdw_session_finish(this._s));
    this._finished = true;
    return events;
  }

  /**
   * Every record of a pcap or pcapng file (as readCapture reads it) fed as a frame, with its own link type and time, and
   * the events yielded as they come; with finish (the default), finish()'s at the end. A file cut short throws a
   * CaptureError after the events of every whole record before it.
   * @returns {Generator<Message|Problem>}
   */
  *readCapture(bytes, o = {}) {
    for (const rec of captureRecords(bytes, o, false)) {
      yield* this._feed(() => X.gdw_session_frame(this._s, rec.link, rec.ptr, rec.caplen, rec.wirelen, rec.time));
    }
    if (o.finish ?? true) yield* this.finish();
  }

  /** What the session has read and holds (gdw_session_stats). */
  get stats() {
    if (!this._w) throw new Error('the session was freed (free())');
    const p = X.malloc(8 * (19 + COMMANDS.length));
    try {
      const n = X.gdwjs_session_stats(this._w, p);
      views();
      const v = (i) => dv.getFloat64(p + 8 * i, true);
      const byCommand = {};
      for (let c = 0; c < n - 19; c++) if (v(19 + c)) byCommand[COMMANDS[c]] = v(19 + c);
      return {
        frames: v(0), udpDatagrams: v(1), enetDatagrams: v(2), tcpSegments: v(3), messages: v(4), retransmits: v(5), problems: v(6),
        fragmentsCompleted: v(7), fragmentsDropped: v(8), decompressed: v(9), statesDropped: v(10), byCommand, messageBytes: v(11),
        openFragmentBytes: v(12), peakFragmentBytes: v(13), windowBytes: v(14), pathBytes: v(15), heldBytes: v(16), peakHeldBytes: v(17),
        flows: v(18),
      };
    } finally {
      X.free(p);
    }
  }

  /** Every flow: number (as messages name it), endpoints ("127.0.0.1:40000 -> 127.0.0.1:9999", the client first),
   * dialect (undefined while it has carried no Godot packet), compression: how the client's and the server's ENet
   * datagrams are compressed ("none", "range_coder", "fastlz", "zlib", "zstd"), as found at each side's first
   * compressed one. */
  get flows() {
    const n = this.stats.flows, out = [];
    for (let f = 1; f <= n; f++) {
      const d = X.gdw_session_flow_dialect(this._s, f);
      out.push(Object.freeze({ number: f, endpoints: cString(X.gdw_session_flow_text(this._s, f)), dialect: d ? cString(X.gdw_dialect_name(d)) : undefined,
        compression: [0, 1].map((side) => cString(X.gdw_enet_compression_name(X.gdw_session_flow_compression(this._s, f, side)))) }));
    }
    return out;
  }

  /** Gives the session's WebAssembly memory back; the session takes nothing after it. A second call does nothing. */
  free() {
    if (!this._w) return;
    sessions?.unregister(this);
    X.gdwjs_session_free(this._w);
    this._w = this._s = 0;
  }
}

function freeCapture(h) {
  if (h.r) X.gdwjs_pcap_free(h.r);
  if (h.p) X.free(h.p);
  h.r = h.p = 0;
}

/** The records, from the reader over a copy of the file in the WebAssembly memory; copy: their bytes copied out. */
function* captureRecords(bytes, o, copy) {
  const b = asBytes(bytes);
  const maxRecord = o.maxRecordBytes ?? 0;
  if (!Number.isSafeInteger(maxRecord) || maxRecord < 0 || maxRecord > 0xffffffff) throw new RangeError('maxRecordBytes wants a byte count');
  if (maxRecord !== 0 && maxRecord < 64) throw new RangeError('maxRecordBytes is at least 64');
  const h = { p: X.malloc(b.length || 1), r: 0 };
  if (!h.p) throw new GdwireError('NOMEM', 0, '', `no room for a capture of ${b.length} bytes in the WebAssembly memory`);
  const token = {};
  captures?.register(token, h, token);
  const out = X.malloc(80);
  try {
    views();
    u8.set(b, h.p);
    h.r = X.gdwjs_pcap_open(h.p, b.length, maxRecord);
    if (!h.r) throw new GdwireError('NOMEM', 0, '', 'no room for a capture reader in the WebAssembly memory');
    for (;;) {
      const st = X.gdwjs_pcap_next(h.r, out);
      views();
      const v = (i) => dv.getFloat64(out + 8 * i, true);
      if (st === 1) return; // GDW_PCAP_END
      if (st !== 0) throw new CaptureError(cString(X.gdw_pcap_status_name(st)), v(0), cString(v(1)));
      const rec = { ptr: v(0), caplen: v(1), wirelen: v(2), link: v(3), interface: v(4), section: v(5), hasTime: v(6) !== 0, number: v(7),
        offset: v(8), time: v(9) };
      yield copy ? Object.freeze({ number: rec.number, offset: rec.offset, link: rec.link, interface: rec.interface, section: rec.section,
        time: rec.time, hasTime: rec.hasTime, wirelen: rec.wirelen, data: u8.slice(rec.ptr, rec.ptr + rec.caplen) }) : rec;
    }
  } finally {
    X.free(out);
    captures?.unregister(token);
    freeCapture(h);
  }
}

/**
 * The records of a pcap or pcapng file (both byte orders, micro- and nanosecond pcap; pcapng sections, interfaces of
 * any link type, Enhanced, Simple and obsolete Packet Blocks), read by the C library's own reader over a copy of the
 * bytes: {number (from 1), offset (the byte of the file where it starts), link (LINK_*), interface, section, time
 * (seconds; 0 where the file has none), hasTime, wirelen, data}. A file cut short or not a capture throws a
 * CaptureError after every whole record before it. maxRecordBytes: the largest record taken (16 MiB by default).
 * @returns {Generator<CaptureRecord>}
 */
export function readCapture(bytes, o = {}) { return captureRecords(bytes, o, true); }

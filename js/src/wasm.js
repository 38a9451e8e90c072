// SPDX-License-Identifier: MIT
// wasm.js — the WebAssembly instance of the gdwire C library (js/build.sh) and what every other module of the
// package reads it with: its exports (X), views of its memory, the struct layout and constants the compiler and the
// library give (src/glue.c gdwjs_layout: offsets, the GDW_VF_* flags, the depth limit; gdw_type_components for each
// type), C strings, the error record, and the packet size limit. It imports no other module of the package.
import { WASM_BASE64 } from '../dist/wasm-inline.js';

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

export let X; // the instance's exports
export let u8, dv; // views of its memory, made again when it grows
export function views() {
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
    gdwjs_session_event(rec) { sessionEvent(rec); }, // src/glue.c: each event of a session's feed, during the feed (session.js)
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
// session.js sets it: the library calls it with each event of a session's feed
let sessionEvent = () => {};
export function onSessionEvent(fn) { sessionEvent = fn; }
const { instance } = await WebAssembly.instantiate(base64Bytes(WASM_BASE64), imports);
X = instance.exports;
X._initialize();
views();

export const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
export const utf8Lossy = new TextDecoder('utf-8', { ignoreBOM: true });
export const encoder = new TextEncoder();

export function cString(p) {
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
  'vf_int64_wire', 'vf_shared', 'vf_object_id', 'vf_object_null', 'vf_rid_id', 'vf_typed', 'vf_approximate',
  'hard_max_depth', 'session_max_flows', 'session_max_cached_paths',
  'desc_none', 'desc_builtin_kind', 'desc_class', 'desc_script', 'frame_max_default',
];
export const L = {};
{
  const p = X.malloc(4 * LAYOUT_NAMES.length);
  X.gdwjs_layout(p);
  views();
  LAYOUT_NAMES.forEach((n, i) => { L[n] = dv.getUint32(p + 4 * i, true); });
  X.free(p);
}
export const TYPE = []; // gdw_type -> name
for (let t = 0; t < L.type_count; t++) TYPE.push(cString(X.gdw_type_name(t)));
export const T = Object.fromEntries(TYPE.map((n, i) => [n, i]));
// the value flags (gdw_value.flags, GDW_VF_*) and the depth limit, as the library defines them
export const VF = Object.freeze({
  INT64_WIRE: L.vf_int64_wire, SHARED: L.vf_shared, OBJECT_ID: L.vf_object_id, OBJECT_NULL: L.vf_object_null, RID_ID: L.vf_rid_id,
  TYPED: L.vf_typed, APPROXIMATE: L.vf_approximate,
});
/** The deepest a value nests below the top one (GDW_HARD_MAX_DEPTH, the engines' 1024): the top is depth 0, and a
 * value deeper than MAX_DEPTH + 1 is no Variant. */
export const MAX_DEPTH = L.hard_max_depth;
/** Each type's components, per value or per element (gdw_type_components; 0 where not fixed), and whether they are
 * reals (gdw_type_has_reals), by type name. */
export const COMPONENTS = Object.freeze(Object.fromEntries(TYPE.map((n, t) => [n, X.gdw_type_components(t)])));
export const HAS_REALS = Object.freeze(Object.fromEntries(TYPE.map((n, t) => [n, X.gdw_type_has_reals(t) !== 0])));
/** The decode modes by name, as the library names them (gdw_mode_name): {compatible: 0, strict: 1, ...}. */
export const MODES = {};
for (let m = 0; cString(X.gdw_mode_name(m)) !== '?'; m++) MODES[cString(X.gdw_mode_name(m))] = m;
Object.freeze(MODES);

// scratch records, allocated once: the error, and two size_t results
export const ERR = X.malloc(L.err_size);
export const OUT = X.malloc(8);

/** The gdw_error record at p as a GdwireError (its path is NUL-terminated within the record). */
export function errorAt(p) {
  views();
  const pathStart = p + L.err_path, pathEnd = p + L.err_size;
  let e = pathStart;
  while (e < pathEnd && u8[e]) e++;
  return new GdwireError(cString(X.gdw_status_name(dv.getInt32(p + L.err_code, true))), dv.getUint32(p + L.err_offset, true),
    utf8Lossy.decode(u8.subarray(pathStart, e)), cString(dv.getUint32(p + L.err_message, true)), dv.getUint32(p + L.err_value_offset, true),
    cString(X.gdw_engine_error_name(dv.getInt32(p + L.err_engine_error, true))));
}

export function lastError() { return errorAt(ERR); }

const dialectPtrs = new Map();
export function dialectPtr(name) {
  if (typeof name !== 'string') throw new TypeError(`dialect must be a string, not ${typeof name}`);
  let p = dialectPtrs.get(name);
  if (p === undefined) {
    p = withCString(name, (s) => X.gdw_dialect_find(s));
    if (!p) throw new RangeError(`unknown dialect '${name}' (dialects() lists them)`);
    dialectPtrs.set(name, p);
  }
  return p;
}

export function withBytes(bytes, fn) {
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

export function withCString(s, fn) {
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

/** A string the library allocated (NUL-terminated, n bytes), freed after. */
export function takeText(p, n) {
  if (!p) throw new GdwireError('NOMEM', 0, '', 'no room for the text in the WebAssembly memory');
  views();
  const t = utf8Lossy.decode(u8.subarray(p, p + n));
  X.free(p);
  return t;
}

export function asBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError('bytes must be a Uint8Array, an ArrayBuffer or a view of one');
}

// ---- limits -------------------------------------------------------------------------------------------

let maxInput = 256 * 1024 * 1024;
/** The largest packet decode and check take (default 256 MiB; the WebAssembly memory holds the packet and its
 * tree, at most 7 bytes a packet byte in compatible mode, within its 2 GiB). Larger ones throw TOO_LARGE. */
export function setMaxInput(bytes) {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new RangeError('setMaxInput wants a byte count');
  maxInput = bytes;
}
export function checkLimit(n) {
  if (n > maxInput) throw new GdwireError('TOO_LARGE', maxInput, '', `the packet is ${n} bytes, more than the limit (setMaxInput: ${maxInput})`);
}

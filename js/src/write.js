// SPDX-License-Identifier: MIT
// write.js — writing: JavaScript values into the library's tree with its gdw_build_* calls, or, for the rarer
// types, as the library's JSON form (docs/gdwire.schema.json), which the library reads; encode and encodeText.
import {
  X, u8, dv, views, L, T, ERR, OUT, MAX_DEPTH, GdwireError, encoder, cString, errorAt, lastError, dialectPtr, withCString,
} from './wasm.js';
import {
  Float, StringName, RawString, MathValue, PackedValue, PackedStringArray, NodePath, RID, GodotObject, Callable, Signal, GodotArray,
  Dictionary, Image, InputEvent,
} from './values.js';

// ---- JavaScript -> the JSON form ------------------------------------------------------------------------

// the top is depth 0; nothing deeper than MAX_DEPTH + 1 (the library's GDW_HARD_MAX_DEPTH + 1) is a Variant
const TOO_DEEP = `value nested deeper than ${MAX_DEPTH} levels below the top (the engines' limit)`;

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

// A real that is not finite as the library writes it (gdw_real_text: "nan", "-nan", "nan(0x7fc00001)", "inf"), from
// its bits of width 4 or 8 (a NaN's as given, else the number's own): the reals grammar is the library's.
const REAL_TEXT = X.malloc(48);
const realBits = new DataView(new ArrayBuffer(8));
function nonFinite(x, width, bits) {
  const w = width === 4 ? 4 : 8;
  if (bits === undefined) {
    if (w === 4) realBits.setFloat32(0, x, true);
    else realBits.setFloat64(0, x, true);
    bits = w === 4 ? BigInt(realBits.getUint32(0, true)) : realBits.getBigUint64(0, true);
  }
  X.gdw_real_text(REAL_TEXT, 48, BigInt.asUintN(64, BigInt(bits)), w);
  return JSON.stringify(cString(REAL_TEXT));
}

function real(x, width, bits) {
  // a real of the JSON form: a number, or the library's word for what is not finite
  if (!Number.isFinite(x)) return nonFinite(x, width, bits);
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
  if (depth > MAX_DEPTH + 1) throw new RangeError(TOO_DEEP);
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
  if (depth > MAX_DEPTH + 1) throw new RangeError(TOO_DEEP);
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


// SPDX-License-Identifier: MIT
// read.js — reading: the library's value tree, straight from the WebAssembly memory (the struct layout from
// src/glue.c gdwjs_layout), as JavaScript values (values.js); decode, decodeText, decodeJSON, explain, and
// parseInput (bytes from pasted text, by the library's readers).
import {
  X, u8, dv, views, L, TYPE, VF, MODES, ERR, OUT, GdwireError, utf8, utf8Lossy, cString, lastError, dialectPtr, withBytes,
  withCString, takeText, asBytes, checkLimit,
} from './wasm.js';
import {
  Float, StringName, RawString, MATH_TYPES, PACKED_TYPES, PackedStringArray, NodePath, RID, GodotObject, Callable, Signal, GodotArray,
  Dictionary, Image, InputEvent,
} from './values.js';
import { check, canonicalName } from './check.js';

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

export function text(p, n, Wrap) {
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
  const kind = u8[p + L.desc_kind]; // gdw_desc_kind, its values from the library (gdwjs_layout)
  if (kind === L.desc_none) return 'Variant';
  if (kind === L.desc_builtin_kind) {
    if (u8[p + L.desc_id_only]) return 'ObjectID';
    const b = u8[p + L.desc_builtin];
    return b >= L.type_count ? { wire_id: dv.getUint32(p + L.desc_wire_id, true) } : TYPE[b];
  }
  return kind === L.desc_class ? { class: gstr(p + L.desc_name) } : { script: gstr(p + L.desc_name) };
}

export function intValue(big, opts) { return opts.bigint === 'always' || big >= INT53 || big <= -INT53 ? big : Number(big); }

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

// A container's children as the library defines them (gdw_children: items, or key, value alternating): where they
// are and how many.
const KIDS = X.malloc(4);
function children(v) {
  const n = X.gdw_children(v, KIDS);
  return n ? [dv.getUint32(KIDS, true), n] : [0, 0];
}

// read and the functions it calls use u8 and dv as they are: the memory cannot grow while a tree is read
// (nothing that allocates is called then: gdw_children does not), so decode makes the views once, before.
export function read(v, opts) {
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
export function readOptions(opts) {
  const d = dialectPtr(opts.dialect ?? 'godot4');
  const mode = MODES[opts.mode ?? 'compatible'];
  if (mode === undefined) throw new RangeError(`mode is compatible, strict or engine-exact, not ${opts.mode}`);
  const objects = opts.allowObjects ?? X.gdw_dialect_objects_by_default(d) !== 0;
  return { d, mode, objects: objects ? 1 : 0, maxDepth: opts.maxDepth ?? 0 };
}

/** fn(doc, consumed) on the library's tree of bytes, freed after. */
export function withDoc(bytes, opts, fn) {
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

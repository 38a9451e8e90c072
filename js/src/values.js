// SPDX-License-Identifier: MIT
// values.js — JavaScript values for Godot's Variant types (README.md, "Values").
//
// JavaScript's own types stand for the engine's where they are equal: null (Nil), boolean, number (an int
// within 2^53, or a float with a fraction), string (String), Array, a plain object (a Dictionary whose
// keys are distinct strings that are not array indexes) and Map (other keys). Typed arrays stand for the
// packed arrays with one number an element. Everything else is a small frozen class of this module. What
// JavaScript cannot tell apart still round-trips: an int beyond 2^53 is a BigInt; a float that is a whole
// number (1.0), is written at a width the engines would not choose, or is a NaN with a payload, is a
// Float; a key order or equal keys a Map would lose make a Dictionary of pairs.

import { COMPONENTS, HAS_REALS } from './wasm.js'; // each type's component count and kind, from the library

// What console.log and util.inspect show (Node's util.inspect.custom, by its registered name: no import, so the
// module stays one a browser loads too).
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** A real as the command prints it: a float32 (width 4) as the shortest decimal that is the same float32 (0.1, not
 * 0.10000000149011612), a float64 as JavaScript's shortest; a whole number with ".0" (as Godot's text does). */
export function realText(x, width) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  let t = String(x);
  if (width !== 8 && Math.abs(x) <= 3.4028234663852886e38) {
    const want = Math.fround(x);
    for (let digits = 1; digits <= 9; digits++) {
      const shorter = Number(want.toPrecision(digits));
      if (Math.fround(shorter) === want) { t = String(shorter); break; }
    }
  }
  return /^-?\d+$/.test(t) ? `${t}.0` : t;
}

/** A float JavaScript would read as an int (1.0, -0.0), a NaN with a payload, or a float to write at a
 * width the engines would not choose. decode gives one for the first two; the engines hold floats as
 * doubles, so a decoded NaN's bits are the double's (an f32 NaN widened, as C widens it). */
export class Float {
  /**
   * @param {number} value
   * @param {4|8} [width] bytes on the wire (default: the width the engines choose: 4 when exact)
   * @param {bigint} [bits] a NaN's bit pattern (of width, or of a double when no width is given)
   */
  constructor(value, width, bits) {
    if (typeof value !== 'number') throw new TypeError(`Float wants a number, not ${typeof value}`);
    if (width !== undefined && width !== 4 && width !== 8) throw new RangeError('a Float width is 4 or 8');
    this.value = value;
    this.width = width;
    this.bits = bits;
    Object.freeze(this);
  }
  valueOf() { return this.value; }
  toJSON() { return this.value; }
  toString() { return String(this.value); }
  [INSPECT]() { return `Float(${realText(this.value, this.width)}${this.width ? `, ${this.width}` : ''})`; }
}

/** A StringName: text kept apart from a String. */
export class StringName {
  /** @param {string|RawString} value */
  constructor(value) { this.value = value; Object.freeze(this); }
  toString() { return String(this.value); }
}

/** A String (or a name) whose bytes are not UTF-8: the bytes as the packet holds them. */
export class RawString {
  /** @param {Uint8Array} bytes */
  constructor(bytes) { this.bytes = Uint8Array.from(bytes); Object.freeze(this); }
  toString() { return new TextDecoder().decode(this.bytes); }
}

// name: component names (integer components for the *i types)
const MATH = {
  Vector2: 'x y', Vector2i: 'x y', Rect2: 'x y width height', Rect2i: 'x y width height', Vector3: 'x y z',
  Vector3i: 'x y z', Transform2D: 'xx xy yx yy ox oy', Vector4: 'x y z w', Vector4i: 'x y z w', Plane: 'x y z d',
  Quaternion: 'x y z w', AABB: 'x y z sx sy sz', Basis: 'xx xy xz yx yy yz zx zy zz',
  Transform3D: 'xx xy xz yx yy yz zx zy zz ox oy oz',
  Projection: [...'xyzw'].flatMap((c) => [...'xyzw'].map((r) => c + r)).join(' '), Color: 'r g b a',
};

/** The common part of the math types: components in the engine's order, and the reals' width. */
export class MathValue {
  constructor(values, realWidth, rawBits) {
    const fields = this.constructor.fields;
    if (values.length !== fields.length) {
      throw new TypeError(`${this.constructor.name} takes ${fields.length} components (${fields.join(', ')}), not ${values.length}`);
    }
    for (const v of values) {
      if (this.constructor.ints ? !Number.isInteger(v) : typeof v !== 'number') {
        throw new TypeError(`${this.constructor.name} components are ${this.constructor.ints ? 'integers' : 'numbers'}`);
      }
    }
    if (realWidth !== undefined && realWidth !== 4 && realWidth !== 8) throw new RangeError('realWidth is 4 or 8');
    this.values = Object.freeze(Array.from(values));
    this.realWidth = this.constructor.ints ? undefined : realWidth;
    // a decoded value with a NaN component keeps every component's bits (of realWidth) to write them back
    if (rawBits !== undefined) this.rawBits = Object.freeze(Array.from(rawBits));
    Object.freeze(this);
  }
  [Symbol.iterator]() { return this.values[Symbol.iterator](); }
  /** Vector3(10.5, 0.0, -3.25): the reals as the command prints them (realText) */
  toString() {
    const parts = this.constructor.ints ? this.values.map(String) : this.values.map((v) => realText(v, this.realWidth));
    return `${this.constructor.name}(${parts.join(', ')}${this.realWidth === 8 ? ', {realWidth: 8}' : ''})`;
  }
  [INSPECT]() { return this.toString(); }
}

/** @type {Record<string, typeof MathValue>} the math types by name */
export const MATH_TYPES = {};
for (const [name, f] of Object.entries(MATH)) {
  const fields = f.split(' ');
  const cls = {
    [name]: class extends MathValue {
      /** components, then optionally {realWidth: 8} */
      constructor(...args) {
        let o = {};
        const last = args[args.length - 1];
        if (last !== null && typeof last === 'object' && !Array.isArray(last)) { o = last; args.pop(); }
        super(args.length === 1 && Array.isArray(args[0]) ? args[0] : args, o.realWidth, o.rawBits);
      }
    },
  }[name];
  if (fields.length !== COMPONENTS[name]) throw new Error(`values.js names ${fields.length} components of ${name}, the library ${COMPONENTS[name]}`);
  cls.fields = fields;
  cls.ints = !HAS_REALS[name];
  fields.forEach((field, i) => Object.defineProperty(cls.prototype, field, { get() { return this.values[i]; } }));
  MATH_TYPES[name] = cls;
}
export const { Vector2, Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D, Vector4, Vector4i, Plane, Quaternion, AABB, Basis,
  Transform3D, Projection, Color } = MATH_TYPES;

// Packed arrays with a class of their own (their components per element and whether they are reals come from
// the library: COMPONENTS, HAS_REALS). The others are typed arrays: PackedByteArray Uint8Array, PackedInt32Array
// Int32Array, PackedInt64Array BigInt64Array, PackedFloat32Array Float32Array, PackedFloat64Array Float64Array.
const PACKED = ['PackedRealArray', 'PackedVector2Array', 'PackedVector2iArray', 'PackedVector3Array', 'PackedVector3iArray',
  'PackedVector4Array', 'PackedVector4iArray', 'PackedColorArray'];

/** The common part of the packed arrays of vectors and colors (and Godot 2/3's PackedRealArray): the
 * components, flat, in a typed array (Int32Array, or Float32Array / Float64Array as the reals' width). */
export class PackedValue {
  /** @param {ArrayLike<number>} data flat components @param {4|8} [realWidth] */
  constructor(data, realWidth) {
    const { per, ints } = this.constructor;
    if (ints) realWidth = undefined;
    else if (realWidth !== undefined && realWidth !== 4 && realWidth !== 8) throw new RangeError('realWidth is 4 or 8');
    const Typed = ints ? Int32Array : realWidth === 8 || data instanceof Float64Array ? Float64Array : Float32Array;
    this.data = data instanceof Typed ? data : Typed.from(data);
    if (this.data.length % per) throw new RangeError(`${this.constructor.name} holds ${per} components an element`);
    this.realWidth = realWidth ?? (this.data instanceof Float64Array ? 8 : undefined);
    Object.freeze(this);
  }
  get length() { return this.data.length / this.constructor.per; }
  /** element i as its math type (PackedRealArray: a number) */
  at(i) {
    const { per } = this.constructor;
    if (i < 0) i += this.length;
    if (per === 1) return this.data[i];
    const el = MATH_TYPES[this.constructor.element];
    return new el(...this.data.subarray(i * per, i * per + per), { realWidth: this.realWidth });
  }
  toString() {
    const parts = Array.from(this.data, (v) => (this.constructor.ints ? String(v) : realText(v, this.realWidth)));
    return `${this.constructor.name}(${parts.join(', ')})`;
  }
  [INSPECT]() { return this.toString(); }
}

/** @type {Record<string, typeof PackedValue>} */
export const PACKED_TYPES = {};
for (const name of PACKED) {
  const cls = { [name]: class extends PackedValue {} }[name];
  cls.per = COMPONENTS[name];
  cls.ints = !HAS_REALS[name];
  cls.element = name === 'PackedColorArray' ? 'Color' : name.replace(/^Packed(.*)Array$/, '$1');
  PACKED_TYPES[name] = cls;
}
export const { PackedRealArray, PackedVector2Array, PackedVector2iArray, PackedVector3Array, PackedVector3iArray, PackedVector4Array,
  PackedVector4iArray, PackedColorArray } = PACKED_TYPES;

/** A PackedStringArray: its strings (RawString where an entry is not UTF-8). */
export class PackedStringArray {
  /** @param {Array<string|RawString>} strings */
  constructor(strings = []) { this.strings = Object.freeze(Array.from(strings)); Object.freeze(this); }
  get length() { return this.strings.length; }
  [Symbol.iterator]() { return this.strings[Symbol.iterator](); }
}

/** A NodePath: names, subnames, absolute; property is Godot 2's flag (the last subname is the property). */
export class NodePath {
  /** @param {string|Array<string|RawString>} names a path ("/root/a:b") or the names */
  constructor(names = [], subnames = [], absolute = false, property = false) {
    if (typeof names === 'string') {
      const text = names;
      absolute = text.startsWith('/');
      const colon = text.indexOf(':');
      const path = colon < 0 ? text : text.slice(0, colon);
      names = path.split('/').filter((p) => p);
      subnames = colon < 0 ? [] : text.slice(colon + 1).split(':');
    }
    this.names = Object.freeze(Array.from(names));
    this.subnames = Object.freeze(Array.from(subnames));
    this.absolute = Boolean(absolute);
    this.property = Boolean(property);
    Object.freeze(this);
  }
  toString() { return (this.absolute ? '/' : '') + this.names.join('/') + this.subnames.map((s) => ':' + s).join(''); }
}

/** A RID: Godot 4 carries its 64-bit id; Godot 2 and 3 none (id undefined). */
export class RID {
  /** @param {number|bigint} [id] */
  constructor(id) { this.id = id; Object.freeze(this); }
}

/** An Object: the null Object (new GodotObject()), an instance id ({id}), or in full its class and properties
 * as [name, value] pairs (decoded with allowObjects). */
export class GodotObject {
  /** @param {{className?: string|RawString, properties?: Array<[string|RawString, any]>, id?: number|bigint}} [o] */
  constructor(o = {}) {
    this.className = o.className;
    this.properties = o.properties === undefined ? undefined : Object.freeze(Array.from(o.properties, ([k, v]) => Object.freeze([k, v])));
    this.id = o.id;
    Object.freeze(this);
  }
  get isNull() { return this.className === undefined && this.id === undefined; }
}

/** A Callable: Godot 4 writes none but its type. */
export class Callable { constructor() { Object.freeze(this); } }

/** A Signal: its name and its object's id. */
export class Signal {
  /** @param {string|RawString} name @param {number|bigint} objectId */
  constructor(name, objectId = 0) { this.name = name; this.objectId = objectId; Object.freeze(this); }
}

/** An Array a JavaScript Array cannot stand for: typed (elementType: a builtin type name such as "int", or
 * {class: "Node"}, {script: "res://x.gd"}, "ObjectID", {wire_id: n}), Godot 2's shared flag, or
 * Pandemonium 5's kind ("TypedArray", "PackedTypedArray"). */
export class GodotArray {
  /** @param {Array<any>} items @param {{elementType?: any, shared?: boolean, kind?: string}} [o] */
  constructor(items = [], o = {}) {
    this.items = Object.freeze(Array.from(items));
    this.elementType = o.elementType;
    this.shared = Boolean(o.shared);
    this.kind = o.kind ?? 'Array';
    Object.freeze(this);
  }
  get length() { return this.items.length; }
  [Symbol.iterator]() { return this.items[Symbol.iterator](); }
}

/** A Dictionary that neither a plain object nor a Map can stand for: keys a Map would merge (two equal
 * numbers), typed keys or values, Godot 2's shared flag. pairs keeps every [key, value] in order. */
export class Dictionary {
  /** @param {Iterable<[any, any]>} pairs @param {{keyType?: any, valueType?: any, shared?: boolean}} [o] */
  constructor(pairs = [], o = {}) {
    this.pairs = Object.freeze(Array.from(pairs, ([k, v]) => Object.freeze([k, v])));
    this.keyType = o.keyType;
    this.valueType = o.valueType;
    this.shared = Boolean(o.shared);
    Object.freeze(this);
  }
  get size() { return this.pairs.length; }
  get(key) { const p = this.pairs.find(([k]) => Object.is(k, key)); return p && p[1]; }
}

/** Godot 2's Image. */
export class Image {
  constructor(format = 0, mipmaps = 0, width = 0, height = 0, data = new Uint8Array()) {
    Object.assign(this, { format, mipmaps, width, height, data: Uint8Array.from(data) });
    Object.freeze(this);
  }
}

/** Godot 2's InputEvent: its type, device, length word and the value words its type carries. */
export class InputEvent {
  constructor(eventType, device = 0, length, extra = []) {
    Object.assign(this, { eventType, device, length: length ?? 12 + 4 * extra.length, extra: Object.freeze(Array.from(extra)) });
    Object.freeze(this);
  }
}

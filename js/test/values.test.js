// SPDX-License-Identifier: MIT
// The API's contracts: values both ways, errors as the C library gives them, argument checks, framing,
// limits.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as g from '../src/index.js';

const hex = (b) => Buffer.from(b).toString('hex');

test('JavaScript types and Godot types round-trip in Godot 4', () => {
  const values = [null, true, false, 0, -1, 2 ** 31, 2 ** 53 - 1, 2n ** 60n, -(2n ** 63n), 1.5, -0.25, 'hé', '',
    new g.Float(1), new g.Float(-0), [1, [2, [3]]], { a: 1, b: [true] },
    new Map([[1, 'one'], [new g.Vector2(1, 2), 'v']]), new g.Vector2(1.5, -2), new g.Vector3i(1, -2, 3),
    new g.Color(1, 0.5, 0.25, 1), new g.Transform2D(1, 0, 0, 1, 5, 6), new Uint8Array([1, 2, 3]), new Int32Array([1, -2]),
    new BigInt64Array([2n ** 40n]), new Float32Array([1.5, 2]), new Float64Array([0.1]), new g.PackedVector2Array([1, 2, 3, 4]),
    new g.PackedStringArray(['a', 'b']), new g.StringName('name'), new g.NodePath('/root/a:b'), new g.RID(7),
    new g.GodotObject({ id: 5 }), new g.Callable(), new g.Signal('pressed', 9),
    new g.GodotArray([1, 2], { elementType: 'int' }), new g.Dictionary([['k', 1]], { keyType: 'String', valueType: 'int' }),
    new g.Dictionary([[1, 'a'], [1, 'b']])];
  for (const v of values) {
    const b = g.encode(v);
    const back = g.decode(b);
    assert.equal(hex(g.encode(back)), hex(b), `${String(v)}: ${hex(b)}`);
    assert.deepEqual(back, v instanceof g.Float && !Number.isInteger(v.value) ? v.value : v, String(v));
  }
});

test('a null Object is written as Nil (Godot 3.0 and 3.1: as an Object of no class)', () => {
  assert.equal(hex(g.encode(new g.GodotObject())), hex(g.encode(null)));
  assert.deepEqual(g.decode(g.encode(new g.GodotObject(), { dialect: 'godot3.0' }), { dialect: 'godot3.0' }), new g.GodotObject());
});

test('components by name; a double-precision build\'s reals', () => {
  const r = new g.Rect2(1, 2, 3, 4);
  assert.deepEqual([r.x, r.y, r.width, r.height, r.realWidth], [1, 2, 3, 4, undefined]);
  const back = g.decode(g.encode(new g.Rect2(1, 2, 3, 4, { realWidth: 8 }), { dialect: 'godot4-double' }), { dialect: 'godot4-double' });
  assert.deepEqual([back.width, back.realWidth], [3, 8]);
  assert.equal(new g.Transform2D(1, 0, 0, 1, 5, 6).oy, 6);
  assert.throws(() => new g.Vector2(1), TypeError);
  assert.throws(() => new g.Vector2i(1.5, 2), TypeError);
});

test('how numbers map', () => {
  assert.equal(g.decode(g.encode(3)), 3);
  assert.ok(g.decode(g.encode(new g.Float(3))) instanceof g.Float, 'a whole float stays a float');
  assert.equal(g.decode(g.encode(3.5)), 3.5);
  assert.equal(hex(g.encode(new g.Float(2.5, 8))), '030001000000000000000440', 'a Float width is written');
  assert.equal(hex(g.encode(2.5)), '0300000000002040', 'else the engines\' choice: 32 bits when exact');
  assert.equal(typeof g.decode(g.encode(2n ** 60n)), 'bigint');
  assert.equal(typeof g.decode(g.encode(5), { bigint: 'always' }), 'bigint');
  assert.throws(() => g.encode(2 ** 60), RangeError, 'beyond 2^53 must be a BigInt');
  assert.throws(() => g.encode(2n ** 64n), RangeError);
  const payload = new g.Float(NaN, undefined, 0x7ff8000000000001n);
  const nan = g.decode(g.encode(payload));
  assert.ok(nan instanceof g.Float && nan.bits === 0x7ff8000000000001n, 'a NaN payload is kept');
  assert.ok(Number.isNaN(g.decode(g.encode(NaN))), 'a plain NaN is a number');
});

test('Dictionaries: object, Map, or pairs', () => {
  assert.deepEqual(g.decode(g.encode({ x: 1, y: 2 })), { x: 1, y: 2 });
  const order = g.decode(g.encode(new Map([['b', 1], ['1', 2]])));
  assert.ok(order instanceof Map, 'an index-like key would be reordered by an object');
  assert.deepEqual([...order.keys()], ['b', '1']);
  assert.ok(g.decode(g.encode(new Map([[1, 'a'], [new g.Float(1), 'b']]))) instanceof Map);
  const proto = g.decode(g.encode(new Map([['__proto__', 1]])));
  assert.ok(proto instanceof Map);
});

test('errors as the C library gives them', () => {
  const b = g.encode({ hp: 100 });
  assert.throws(() => g.decode(b.subarray(0, 10)), (e) => e instanceof g.GdwireError && e.code === 'TRUNCATED' && e.offset === 8 &&
    e.path === '{#0 key}' && e.engineError === 'ERR_INVALID_DATA');
  assert.throws(() => g.decode(b, { dialect: 'godot9' }), RangeError);
  assert.throws(() => g.decode(b, { mode: 'loose' }), RangeError);
  assert.throws(() => g.decode('text'), TypeError);
  assert.throws(() => g.encode(new g.Vector2i(1, 2), { dialect: 'godot3' }), (e) => e.code === 'UNSUPPORTED_TYPE');
  assert.throws(() => g.encode(() => 1), TypeError);
  let deep = [];
  for (let i = 0; i < 2000; i++) deep = [deep];
  assert.throws(() => g.encode(deep), RangeError);
});

test('dialects, aliases and check', () => {
  const names = g.dialects().map((d) => d.name);
  assert.ok(names.includes('godot4') && names.includes('mole') && names.includes('godot3.0@3.0.0'));
  assert.equal(g.canonicalName('godot2'), 'mole');
  const r = g.check(g.encode({ a: 1 }, { dialect: 'godot4' }));
  assert.equal(r.best, 'godot4');
  assert.equal(r.verdicts.find((v) => v.dialect === 'godot3').accepted, false);
  assert.ok(r.verdicts.find((v) => v.dialect === 'godot3').error instanceof g.GdwireError);
});

test('framing: StreamPeer.put_var packets cut from a stream a byte at a time', () => {
  const stream = Buffer.concat([g.frame(g.encode(1)), g.frame(g.encode('two'))]);
  const r = new g.FrameReader();
  const got = [];
  for (const byte of stream) {
    r.feed(Uint8Array.of(byte));
    for (const p of r.packets()) got.push(g.decode(p));
  }
  assert.deepEqual(got, [1, 'two']);
  assert.equal(r.pending, 0);
  const bad = new g.FrameReader({ maxPayload: 16 });
  bad.feed(g.frame(new Uint8Array(32)));
  assert.throws(() => [...bad.packets()], (e) => e.code === 'TOO_LARGE');
});

test('framing: a 16 MiB packet fed in 4 KiB chunks is linear, and no packet is handed out twice', () => {
  // issue 55: feed() copied everything held on every chunk (38.6 s for this)
  const big = new Uint8Array(16 * 1024 * 1024).fill(3);
  const stream = Buffer.concat([g.frame(Uint8Array.of(1)), g.frame(big), g.frame(Uint8Array.of(2)), g.frame(Uint8Array.of(3))]);
  const r = new g.FrameReader();
  const t0 = process.hrtime.bigint();
  const got = [];
  for (let at = 0; at < stream.length; at += 4096) {
    r.feed(stream.subarray(at, at + 4096));
    for (const p of r.packets()) {
      got.push(p.length === 1 ? p[0] : p.length);
      break; // a caller that stops early: the rest waits for the next call
    }
  }
  for (const p of r.packets()) got.push(p.length === 1 ? p[0] : p.length);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.deepEqual(got, [1, big.length, 2, 3]);
  assert.equal(r.pending, 0);
  assert.ok(ms < 1000, `16 MiB in 4 KiB chunks took ${ms.toFixed(0)} ms`);
  console.log(`# FrameReader: 16 MiB in 4 KiB chunks, breaking out of each loop early: ${ms.toFixed(0)} ms`);
  // a prefix over maxPayload after good packets: the good ones are not handed out again
  const r2 = new g.FrameReader({ maxPayload: 16 });
  r2.feed(Buffer.concat([g.frame(Uint8Array.of(7)), g.frame(new Uint8Array(32))]));
  const seen = [];
  assert.throws(() => { for (const p of r2.packets()) seen.push(p[0]); }, (e) => e.code === 'TOO_LARGE' && e.offset === 5);
  assert.throws(() => { for (const p of r2.packets()) seen.push(p[0]); }, (e) => e.code === 'TOO_LARGE');
  assert.deepEqual(seen, [7]);
});

test('a 64 MiB packet decodes, and a limit gives a clear error', () => {
  const big = new Uint8Array(64 * 1024 * 1024);
  big.fill(7);
  const packet = g.encode(big);
  const back = g.decode(packet);
  assert.equal(back.length, big.length);
  assert.equal(back[12345], 7);
  g.setMaxInput(1024 * 1024);
  try {
    assert.throws(() => g.decode(packet), (e) => e.code === 'TOO_LARGE' && /more than the limit/.test(e.message));
  } finally {
    g.setMaxInput(256 * 1024 * 1024);
  }
});

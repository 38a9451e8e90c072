// SPDX-License-Identifier: MIT
// The library's knowledge the package uses is the library's: the value flags, the depth limit and each type's
// components come from C (src/glue.c gdwjs_layout, gdw_type_components), not from numbers written in JavaScript.
// Each is held here to what C says by another way: the header's own definitions, the C JSON printer's components
// of a value of each type, and the C decoder's depth limit.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as g from '../src/index.js';
import { VF, MAX_DEPTH, COMPONENTS, HAS_REALS, MODES } from '../src/wasm.js';
import { ROOT } from './common.js';

// the C header's #define NAME VALUE
function defines() {
  const out = {};
  const h = fs.readFileSync(path.join(ROOT, 'codec', 'gdwire.h'), 'utf8');
  for (const m of h.matchAll(/^#define (GDW_\w+) (0x[0-9a-fA-F]+|[0-9]+)u?\b/gm)) out[m[1]] = Number(m[2]);
  return out;
}

test('the value flags and the depth limit are the C header\'s', () => {
  const d = defines();
  const flags = Object.keys(d).filter((k) => k.startsWith('GDW_VF_'));
  assert.ok(flags.length >= 7, `the header's GDW_VF_* flags: ${flags}`);
  assert.deepEqual(Object.fromEntries(flags.map((k) => [k.slice(7), d[k]])), { ...VF });
  assert.equal(MAX_DEPTH, d.GDW_HARD_MAX_DEPTH);
});

test('the decode modes and the session caps\' limits are the C headers\'', () => {
  const h = fs.readFileSync(path.join(ROOT, 'codec', 'gdwire.h'), 'utf8');
  const modes = Object.fromEntries([...h.matchAll(/^\s*GDW_MODE_(\w+) = (\d+)/gm)].map((m) => [m[1].toLowerCase().replace('_', '-'), Number(m[2])]));
  assert.deepEqual(Object.keys(modes), ['compatible', 'strict', 'engine-exact']);
  assert.deepEqual({ ...MODES }, modes);
  const sh = fs.readFileSync(path.join(ROOT, 'session', 'gdwire_session.h'), 'utf8');
  const limit = (name) => 2 ** Number(sh.match(new RegExp(`#define ${name} \\(\\(size_t\\)1 << (\\d+)\\)`))[1]);
  for (const [opt, name] of [['maxFlows', 'GDW_SESSION_MAX_FLOWS_LIMIT'], ['maxCachedPaths', 'GDW_SESSION_MAX_CACHED_PATHS_LIMIT']]) {
    new g.Session({ [opt]: limit(name) }).free(); // the library's session takes its limit
    assert.throws(() => new g.Session({ [opt]: limit(name) + 1 }), RangeError, opt);
  }
});

test('FrameReader\'s default bound is the library\'s (GDW_FRAME_MAX_DEFAULT)', () => {
  const h = fs.readFileSync(path.join(ROOT, 'codec', 'gdwire.h'), 'utf8');
  const m = h.match(/^#define GDW_FRAME_MAX_DEFAULT \((\d+)u << (\d+)\)/m);
  assert.ok(m);
  assert.equal(new g.FrameReader().maxPayload, Number(m[1]) * 2 ** Number(m[2]));
});

test('the depth limit is the C library\'s: the deepest value it encodes and decodes, and the layer\'s guard one past', () => {
  const nest = (n) => { let v = 1; for (let i = 0; i < n; i++) v = [v]; return v; };
  assert.deepEqual(g.decode(g.encode(nest(MAX_DEPTH))), nest(MAX_DEPTH));
  // one level more: the C encoder refuses it; one more again, the layer refuses it before C (its stack guard)
  assert.throws(() => g.encode(nest(MAX_DEPTH + 1)), (e) => e instanceof g.GdwireError && e.code === 'DEPTH');
  assert.throws(() => g.encode(nest(MAX_DEPTH + 2)), RangeError);
});

test('each type\'s components are the library\'s: as many as the C JSON printer writes, ints where it writes ints', () => {
  for (const [name, cls] of Object.entries(g.MATH_TYPES)) {
    const v = new cls(...cls.fields.map((_, i) => i + 1));
    const j = JSON.parse(g.decodeJSON(g.encode(v)));
    assert.equal(j.type, name);
    assert.equal(j.value.length, cls.fields.length, name);
    assert.equal(COMPONENTS[name], cls.fields.length, name);
    assert.equal(cls.ints, !HAS_REALS[name], name);
  }
  for (const [name, cls] of Object.entries(g.PACKED_TYPES)) {
    const v = new cls(Array.from({ length: 3 * cls.per }, (_, i) => i + 1));
    const dialect = g.dialects().find((d) => { try { g.encode(v, { dialect: d.name }); return true; } catch { return false; } }).name;
    const j = JSON.parse(g.decodeJSON(g.encode(v, { dialect }), { dialect }));
    const flat = j.value.flat();
    assert.equal(flat.length, 3 * cls.per, name);
    assert.equal(v.length, 3, name);
    assert.equal(cls.per, COMPONENTS[name], name);
    assert.equal(cls.ints, !HAS_REALS[name], name);
  }
});

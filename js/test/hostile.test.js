// SPDX-License-Identifier: MIT
// Hostile input: every committed fuzz input (corpus/decode and corpus/regressions) decodes or throws a
// GdwireError in the row and mode its first bytes name (fuzzers/fuzz.h), and what decodes encodes or throws
// one; nothing aborts the WebAssembly instance or the process.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as g from '../src/index.js';
import { ROOT } from './common.js';

function files(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(path.join(dir, e.name))
    : e.name.endsWith('.md') ? [] : [path.join(dir, e.name)]);
}

test('every committed fuzz input decodes or is refused', () => {
  const rows = Object.fromEntries(g.dialects().map((d) => [d.fuzzId, d.name]));
  const all = [...files(path.join(ROOT, 'corpus', 'regressions')), ...files(path.join(ROOT, 'corpus', 'decode'))];
  assert.ok(all.length > 1000, `${all.length} inputs`);
  let decoded = 0, refused = 0;
  for (const f of all) {
    const data = fs.readFileSync(f);
    if (data.length < 2) continue;
    const row = rows[data[0] % g.dialects().length];
    const mode = ['compatible', 'strict', 'engine-exact', 'compatible'][data[1] & 3];
    let v;
    try {
      v = g.decode(data.subarray(2), { dialect: row, mode, allowObjects: (data[1] & 4) !== 0, allowTrailing: true });
    } catch (e) {
      assert.ok(e instanceof g.GdwireError, `${f}: ${e}`);
      refused++;
      continue;
    }
    decoded++;
    try {
      g.encode(v, { dialect: row });
    } catch (e) {
      assert.ok(e instanceof g.GdwireError || e instanceof RangeError, `${f}: encode threw ${e}`);
    }
  }
  assert.ok(decoded > 100 && refused > 100, `${decoded} decoded, ${refused} refused`);
});

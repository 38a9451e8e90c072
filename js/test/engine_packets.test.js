// SPDX-License-Identifier: MIT
// Every packet a real engine wrote (tools/engines/*-packets.tsv) decodes in its row's engine-exact mode and
// encodes back byte for byte, but for the padding bytes an engine left uninitialised and gdwire zeroed (as
// python/tests/test_engine_packets.py).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as g from '../src/index.js';
import { ROOT, ROWS, packets } from './common.js';

const paddingOnly = (engine, ours) => engine.length === ours.length && engine.every((b, i) => b === ours[i] || ours[i] === 0);

test('every engine-made packet round-trips', () => {
  let total = 0;
  for (const [engine, row] of Object.entries(ROWS)) {
    let n = 0;
    for (const { name, bytes, engineRt } of packets(engine)) {
      const { value, length } = g.decode(bytes, { dialect: row, mode: 'engine-exact', allowObjects: true, withLength: true });
      const again = g.encode(value, { dialect: row });
      const same = (b) => b !== undefined && Buffer.compare(Buffer.from(b), Buffer.from(again)) === 0;
      const ok = same(bytes) || paddingOnly(bytes, again) || same(engineRt);
      assert.ok(ok, `${engine} ${name}: wrote ${Buffer.from(again).toString('hex')}, the engine ${Buffer.from(bytes).toString('hex')}`);
      if (length === bytes.length) {
        const back = g.decode(again, { dialect: row, mode: 'engine-exact', allowObjects: true });
        assert.ok(same(g.encode(back, { dialect: row })), `${engine} ${name}: what gdwire wrote reads back`);
      }
      n++;
    }
    if (fs.existsSync(path.join(ROOT, 'tools', 'engines', `${engine}-packets.tsv`))) assert.ok(n >= 200, engine);
    total += n;
  }
  assert.ok(total > 3000, `${total} packets`);
  process.stderr.write(`${total} engine-made packets round-trip\n`);
});

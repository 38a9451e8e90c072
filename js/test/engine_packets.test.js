// SPDX-License-Identifier: MIT
// Every packet a real engine wrote (tools/engines/*-packets.tsv) decodes in its row's engine-exact mode and
// encodes back byte for byte, but for the padding bytes an engine left uninitialised and gdwire zeroed (as
// python/tests/test_engine_packets.py).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
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

// check's ranking is the library's (gdw_check_rank_rows): the same first dialect, equally, rank and reason in every
// row, the same bytes in front and the same sentence as `gdwire check --json`, on every engine-made packet, the same
// cut and after a length prefix, and every committed fuzz input of the decoder
test('check ranks as gdwire check ranks', () => {
  const cli = process.env.GDWIRE_CLI ?? path.join(ROOT, 'bazel-bin', 'cli', 'gdwire');
  assert.ok(fs.existsSync(cli), `the command ${cli} (GDWIRE_CLI) is missing: bazel build //cli:gdwire`);
  const inputs = [];
  for (const engine of Object.keys(ROWS)) for (const { bytes } of packets(engine)) inputs.push(bytes);
  const engineMade = inputs.length;
  for (let i = 0; i < engineMade; i++) if (inputs[i].length >= 12) inputs.push(inputs[i].slice(0, Math.floor(inputs[i].length * 3 / 4))); // cut
  for (let i = 0; i < 400 && i < engineMade; i++) { // after a put_var length prefix
    const b = new Uint8Array(inputs[i].length + 4);
    new DataView(b.buffer).setUint32(0, inputs[i].length, true);
    b.set(inputs[i], 4);
    inputs.push(b);
  }
  for (const dir of ['corpus/decode', 'corpus/regressions/decode']) {
    const d = path.join(ROOT, dir);
    if (!fs.existsSync(d)) continue;
    for (const f of fs.readdirSync(d).sort()) {
      const b = fs.readFileSync(path.join(d, f));
      if (b.length > 0 && b.length <= 65536) inputs.push(new Uint8Array(b));
    }
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gdwire-check-'));
  try {
    const file = path.join(tmp, 'packets.hex');
    fs.writeFileSync(file, inputs.map((b) => Buffer.from(b).toString('hex')).join('\n') + '\n');
    let text;
    try {
      text = execFileSync(cli, ['check', '--hex', '--lines', '--json', file], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      text = e.stdout; // exit status 1: some packet is rejected by every dialect
    }
    const out = text.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(out.length, inputs.length, 'one answer a packet');
    let differ = 0;
    inputs.forEach((b, i) => {
      const ours = g.check(b), theirs = out[i];
      const rows = Object.fromEntries(theirs.dialects.map((d) => [d.dialect, d]));
      const ranks = Object.fromEntries(theirs.dialects.map((d) => [d.dialect, d.rank]));
      const ok = (ours.best ?? null) === theirs.best && JSON.stringify(ours.equally) === JSON.stringify(theirs.equally) &&
        ours.summary === theirs.summary && ours.skip === theirs.skip && ours.framing === theirs.framing && ours.script === theirs.script &&
        ours.verdicts.every((v) => v.rank === rows[v.dialect].rank && v.reason === rows[v.dialect].reason &&
          v.first === rows[v.dialect].first && v.reading === rows[v.dialect].reading);
      if (!ok && differ++ < 5) console.log(`packet ${i} (${Buffer.from(b).toString('hex').slice(0, 64)}): ours ${ours.best} ${JSON.stringify(ours.verdicts.map((v) => v.rank))}, gdwire check ${theirs.best} ${JSON.stringify(theirs.dialects.map((d) => d.rank))}`);
    });
    assert.equal(differ, 0, `${differ} of ${inputs.length} packets ranked otherwise`);
    process.stderr.write(`check ranks ${inputs.length} packets as gdwire check does, with the same reasons and sentence\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// Bytes left after the value throw, as JSON.parse does, with the count and, where another dialect reads every byte,
// that dialect: each Godot 3.6 packet that Godot 4's reader reads in part while godot3 reads it whole
test('decode throws on bytes left after the value, and names the dialect that reads them all', () => {
  const short = new Uint8Array([...g.encode(5), 0x78, 0x79]);
  assert.throws(() => g.decode(short), (e) => e.code === 'TRAILING_BYTES' && e.offset === 8 &&
    /2 bytes left after an int; pass \{allowTrailing: true\}/.test(e.message));
  assert.equal(g.decode(short, { allowTrailing: true }), 5);
  assert.deepEqual(g.decode(short, { withLength: true }), { value: 5, length: 8 });
  let named = 0;
  for (const { bytes } of packets('godot3.6')) {
    let got;
    try { got = g.decode(bytes, { withLength: true }); } catch { continue; }
    if (got.length === bytes.length || g.check(bytes).best !== 'godot3') continue;
    assert.throws(() => g.decode(bytes), (e) => e.code === 'TRAILING_BYTES' &&
      e.message.includes(`${bytes.length - got.length} byte`) && e.message.includes(`; godot3 reads all ${bytes.length} bytes: pass {dialect: 'godot3'}`));
    named++;
  }
  assert.ok(named > 10, `only ${named} packets`);
});

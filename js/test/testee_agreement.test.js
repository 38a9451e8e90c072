// SPDX-License-Identifier: MIT
// The package answers every conformance vector exactly as the C library does, in every dialect and release
// row and all three modes: the same verdict, bytes consumed, error class and re-encoding (js/testee.js
// against the C testee, conformance/gdwire_testee.c). Needs the runner and the C testee: GDWIRE_RUNNER and
// GDWIRE_TESTEE, or bazel-bin/conformance/ (bazel build //conformance:runner //conformance:gdwire_testee).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as g from '../src/index.js';
import { answer } from '../testee.js';
import { ROOT } from './common.js';

function tool(env, name) {
  const p = process.env[env] || path.join(ROOT, 'bazel-bin', 'conformance', name);
  if (!fs.existsSync(p)) throw new Error(`${p} is missing: bazel build //conformance:runner //conformance:gdwire_testee`);
  return p;
}

test('the JS testee answers as the C library, every row and mode', () => {
  const runner = tool('GDWIRE_RUNNER', 'runner'), cTestee = tool('GDWIRE_TESTEE', 'gdwire_testee');
  const vectors = process.env.GDWIRE_VECTORS || path.join(ROOT, 'conformance', 'vectors');
  const requests = [];
  const rows = g.dialects().map((d) => d.name);
  // every vector's packet, the same list whatever row is named (runner --export): read once, asked in every row
  const lines = execFileSync(runner, ['--export', rows[0], '--root', vectors, vectors], { maxBuffer: 1 << 30 }).toString().split('\n').filter(Boolean);
  for (const row of rows) {
    for (const mode of ['compatible', 'strict', 'engine-exact']) {
      lines.forEach((l, k) => {
        const [, hex, objects] = l.split('\t');
        requests.push(`${row}:${mode}:${k}\t${row}\t${mode}\t${objects}\t${hex || '-'}`);
      });
    }
  }
  const c = execFileSync(cTestee, { input: requests.join('\n') + '\n', maxBuffer: 1 << 30 }).toString().split('\n').slice(1);
  const differ = [];
  requests.forEach((r, i) => {
    const a = answer(r, false);
    // id, verdict, consumed, encoding, error class: the detail column is each implementation's own text
    if (a.split('\t').slice(0, 5).join('\t') !== c[i].split('\t').slice(0, 5).join('\t')) differ.push([r.slice(0, 120), c[i].slice(0, 160), a.slice(0, 160)]);
  });
  process.stderr.write(`${requests.length} requests (${g.dialects().length} rows x 3 modes), ${differ.length} differ\n`);
  assert.deepEqual(differ.slice(0, 10), [], `${differ.length} of ${requests.length} answers differ from the C library's`);
});

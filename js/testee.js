#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The gdwire npm package as a conformance testee (docs/testee-protocol.md, gdwire-testee/1): each request's
// packet is decoded with decode() in the dialect and mode asked for, and the value encoded back with encode(),
// so the runner judges the package, its value mapping included, against the vectors:
//
//   bazel run //conformance:testee -- --testee 'node js/testee.js' --dialect godot4 --mode strict
//
// answer() is exported for js/test/testee_agreement.test.js.
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as gdwire from './src/index.js';

function field(s) {
  const t = String(s).replace(/[\t\n\r]/g, ' ').slice(0, 200);
  return t.length ? t : '-';
}

export function answer(line, detail = true) {
  const [id, dialect, mode, objects, hex] = line.replace(/\n$/, '').split('\t');
  const bytes = hex === '-' ? new Uint8Array(0) : Uint8Array.from(Buffer.from(hex, 'hex'));
  let got;
  try {
    got = gdwire.decode(bytes, { dialect, mode, allowObjects: objects === '1', withLength: true });
  } catch (e) {
    if (!(e instanceof gdwire.GdwireError)) return [id, 'unsupported', '-', '-', '-', field(e.message)].join('\t');
    // the error class as gdwire's own testee gives it: the engine's Error, else gdwire's status
    const cls = e.engineError !== '-' ? e.engineError : e.code;
    return [id, 'rejected', '-', '-', cls, field(e.message)].join('\t');
  }
  let enc = '-';
  try {
    enc = Buffer.from(gdwire.encode(got.value, { dialect })).toString('hex') || '-';
  } catch (e) {
    if (!(e instanceof gdwire.GdwireError)) throw e;
  }
  return [id, 'accepted', got.length, enc, '-', detail ? field(String(got.value)) : '-'].join('\t');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`gdwire-testee/1\tgdwire-js\t0.2.0 (library ${gdwire.libraryVersion})\t1\n`);
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) if (line.trim()) process.stdout.write(answer(line) + '\n');
}

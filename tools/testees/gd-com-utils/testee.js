// SPDX-License-Identifier: MIT
// The npm package @gd-com/utils as a testee of gdwire's conformance runner
// (docs/testee-protocol.md): getVar decodes each packet, putVar writes the value back.
//
// usage: node testee.js MODULE_DIR     (MODULE_DIR: where `npm ci` put node_modules; see ./run)
//
// The package has one behaviour: every dialect and mode is answered the same way, and the
// runner's matrix per dialect shows which one it speaks. It reads no consumed length beyond its
// own `length` field, and has no error classes: a thrown exception is a rejection, its class is
// the exception's name (RangeError, Error, ...). Time and memory limits are the runner's
// (testee_run.py --timeout, --memory): this adapter never guards the package.
'use strict';
const path = require('path');
const readline = require('readline');

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: node testee.js MODULE_DIR\n');
  process.exit(2);
}
const gd = require(path.join(dir, 'node_modules', '@gd-com', 'utils'));
const version = require(path.join(dir, 'node_modules', '@gd-com', 'utils', 'package.json')).version;

function field(s) {
  // no TAB or LF inside a field; at most 200 characters
  const t = String(s).replace(/[\t\n\r]/g, ' ').slice(0, 200);
  return t.length ? t : '-';
}

function show(v, depth) {
  // a short text form of the value, for people (the detail field)
  if (depth > 4) return '...';
  if (v === null || v === undefined) return 'null';
  if (Buffer.isBuffer(v)) return 'Buffer(' + v.length + ')';
  if (Array.isArray(v)) return '[' + v.slice(0, 8).map((x) => show(x, depth + 1)).join(', ') + (v.length > 8 ? ', ...' : '') + ']';
  if (typeof v === 'object') {
    if (typeof v.toString === 'function' && v.toString !== Object.prototype.toString) return String(v);
    const keys = Object.keys(v);
    return '{' + keys.slice(0, 8).map((k) => JSON.stringify(k) + ': ' + show(v[k], depth + 1)).join(', ') + (keys.length > 8 ? ', ...' : '') + '}';
  }
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function answer(id, hex) {
  const bytes = Buffer.from(hex === '-' ? '' : hex, 'hex');
  let got;
  try {
    got = gd.getVar(bytes);
  } catch (e) {
    return [id, 'rejected', '-', '-', field(e && e.name ? e.name : 'Error'), field(e && e.message ? e.message : e)];
  }
  let encode = '-';
  let note = '';
  try {
    encode = gd.putVar(got.value).toString('hex') || '-';
  } catch (e) {
    note = ' (putVar: ' + (e && e.message ? e.message : e) + ')';
  }
  return [id, 'accepted', String(got.length), encode, '-', field(show(got.value, 0) + note)];
}

process.stdout.write(['gdwire-testee/1', '@gd-com/utils', version, '1'].join('\t') + '\n');
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line) return;
  const f = line.split('\t');
  if (f.length !== 5) {
    process.stdout.write([field(f[0]), 'unsupported', '-', '-', '-', 'malformed request'].join('\t') + '\n');
    return;
  }
  process.stdout.write(answer(f[0], f[4]).join('\t') + '\n');
});

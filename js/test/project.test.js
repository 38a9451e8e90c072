// SPDX-License-Identifier: MIT
// Session({ project }): the real sessions of the test projects (conformance/projects/out/) read against a manifest given
// as JSON (`gdwire rpc --json FOLDER`, or the addon's dump) as `gdwire capture --project --json` reads them: message for
// message, the method's name, argsFit, refused and projectMd5 (the C library's gdw_rpc_annotate under both).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as g from '../src/index.js';
import { ROOT } from './common.js';

const CLI = process.env.GDWIRE_CLI ?? path.join(ROOT, 'bazel-bin', 'cli', 'gdwire');
const PROJECTS = path.join(ROOT, 'conformance', 'projects');
// (the project folder or manifest, the session): Godot 4.6.3 runs (this build reads no range coder: typed3 is Python's)
const RUNS = [['typed4', 'out/typed4'], ['mismatch_a', 'out/mismatch_a-b'], ['mismatch_b', 'out/mismatch_a-b'],
  ['out/mismatch_a-b.client.manifest.json', 'out/mismatch_a-b']];

function run(args) {
  const r = spawnSync(CLI, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `gdwire ${args.join(' ')}: exit ${r.status} ${r.stderr}`);
  return r.stdout;
}

test('Session({ project }) reads each message as `gdwire capture --project --json` does', {
  skip: (!fs.existsSync(CLI) && `no ${CLI}`) || (!fs.existsSync(PROJECTS) && `no ${PROJECTS}`),
}, () => {
  let messages = 0, named = 0, refused = 0, md5s = 0;
  for (const [project, session] of RUNS) {
    const where = path.join(PROJECTS, project), pcap = path.join(PROJECTS, session + '.pcap');
    const want = run(['capture', '--project', where, '--json', pcap]).split('\n').filter((l) => l)
      .map((l) => JSON.parse(l)).filter((o) => o.type === 'message');
    const manifest = where.endsWith('.json') ? fs.readFileSync(where, 'utf8') : run(['rpc', '--json', where]);
    for (const given of [manifest, JSON.parse(manifest)]) {
      const s = new g.Session({ project: given });
      const got = [...s.readCapture(fs.readFileSync(pcap))].filter((e) => e.type === 'message');
      s.free();
      assert.equal(got.length, want.length, `${project} on ${session}: messages`);
      got.forEach((m, i) => {
        const o = want[i], where_ = `${project} on ${session}, frame ${o.frame} ${o.command}`;
        assert.equal(m.method ?? null, o.method ?? null, `${where_}: method`);
        assert.equal(m.argsFit, o.args_fit, `${where_}: argsFit`);
        assert.equal(m.refused, o.refused, `${where_}: refused`);
        assert.equal(m.projectMd5, o.project_md5, `${where_}: projectMd5`);
        messages++;
        if (m.command === 'rpc' && m.method !== undefined) named++;
        if (m.argsFit === false) refused++;
        if (m.projectMd5 !== undefined) md5s++;
      });
    }
  }
  assert.ok(refused > 0 && md5s > 0, `${refused} refused, ${md5s} other-build MD5s`);
  console.log(`project: Session({ project }) = gdwire capture --project --json on ${RUNS.length} runs: ${messages} messages, ${named} RPCs named, ` +
    `${refused} refused calls, ${md5s} other-build MD5s`);
});

test('a project that does not parse is a SyntaxError', () => {
  assert.throws(() => new g.Session({ project: '{not json' }), SyntaxError);
});

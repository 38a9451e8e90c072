#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// bench.mjs — the npm package's decode and encode in Node on the bench packets (bench --write-packets: the
// workloads of docs/performance.md, as Godot 4 bytes, and as Godot 3 bytes for @gd-com/utils, which reads
// Godot 3's table), beside @gd-com/utils' getVar / putVar where it reads the packet, and beside the C
// command (gdwire decode --noout, whole-process), in one run (docs/performance.md, "JavaScript").
//
//   node js/bench.mjs [--scale X] [--runs N] [--bench PATH] [--gdwire PATH] [--gd-com DIR]
//
// --bench and --gdwire default to bazel-bin's (bazel build -c opt //bench //cli:gdwire); --gd-com to the
// folder tools/testees/gd-com-utils/run installs the package in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as gdwire from './src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const arg = (name, def) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : def; };
const scale = arg('--scale', '0.25'), runs = Number(arg('--runs', '5'));
const bin = (() => { try { return execFileSync('bazel', ['info', '-c', 'opt', 'bazel-bin'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); } catch { return ''; } })();
const benchBin = arg('--bench', path.join(bin, 'bench', 'bench')), cmd = arg('--gdwire', path.join(bin, 'cli', 'gdwire'));
const gdcomDir = arg('--gd-com', '/var/cache/gdwire/npm/gd-com-utils');
let gdcom;
try { gdcom = createRequire(path.join(gdcomDir, 'x.js'))('@gd-com/utils'); } catch { gdcom = undefined; }

function best(fn) {
  let t = Infinity;
  for (let i = 0; i < runs; i++) { const s = process.hrtime.bigint(); fn(); t = Math.min(t, Number(process.hrtime.bigint() - s) / 1e6); }
  return t;
}
function wall(argv) {
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    try { execFileSync(argv[0], argv.slice(1), { stdio: 'ignore' }); } catch (e) { if (e.status !== 1) throw e; }
    t = Math.min(t, Number(process.hrtime.bigint() - s) / 1e6);
  }
  return t;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gdwire-jsbench-'));
try {
  for (const d of ['godot4', 'godot3']) execFileSync(benchBin, ['--dialect', d, '--scale', scale, '--write-packets', tmp], { stdio: 'ignore' });
  console.log(`gdwire npm ${gdwire.libraryVersion} (WebAssembly), Node ${process.versions.node}; @gd-com/utils ${gdcom ? 'loaded' : 'not installed'};`
    + ` bench packets at scale ${scale}; best of ${runs}, milliseconds`);
  console.log(`${'workload'.padEnd(16)} ${'bytes'.padStart(10)} ${'js decode'.padStart(10)} ${'js encode'.padStart(10)} ${'MB/s'.padStart(7)}`
    + ` ${'gd-com dec'.padStart(11)} ${'gd-com enc'.padStart(11)} ${'C command'.padStart(10)}`);
  for (const f of fs.readdirSync(tmp).filter((n) => n.endsWith('.godot4.bin')).sort()) {
    const w = f.split('.')[0];
    const data = fs.readFileSync(path.join(tmp, f));
    const v = gdwire.decode(data);
    const dec = best(() => gdwire.decode(data)), enc = best(() => gdwire.encode(v));
    let gd = ['-', '-'];
    if (gdcom) {
      // @gd-com/utils reads Godot 3's type table: it gets the Godot 3 bytes of the same workload
      const g3path = path.join(tmp, `${w}.godot3.bin`);
      const g3 = fs.existsSync(g3path) ? fs.readFileSync(g3path) : undefined; // packed_float64 is Godot 4's only
      if (!g3) gd = ['no Godot 3', '-'];
      else try {
        const got = gdcom.getVar(g3);
        const dms = best(() => gdcom.getVar(g3)).toFixed(2);
        let ems = 'fails';
        try { gdcom.putVar(got.value); ems = best(() => gdcom.putVar(got.value)).toFixed(2); } catch { ems = 'fails'; }
        gd = [dms, ems];
      } catch (e) { gd = ['fails', '-']; }
    }
    const c = fs.existsSync(cmd) ? wall([cmd, 'decode', '-d', 'godot4', '--noout', path.join(tmp, f)]).toFixed(2) : '-';
    console.log(`${w.padEnd(16)} ${String(data.length).padStart(10)} ${dec.toFixed(2).padStart(10)} ${enc.toFixed(2).padStart(10)}`
      + ` ${(data.length / 1e3 / dec).toFixed(0).padStart(7)} ${gd[0].padStart(11)} ${gd[1].padStart(11)} ${c.padStart(10)}`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

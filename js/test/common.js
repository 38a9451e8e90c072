// SPDX-License-Identifier: MIT
// What the tests share: the repository (GDWIRE_ROOT, else the checkout this folder is in), the row each
// engine's packets are checked in, and those packets.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = process.env.GDWIRE_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// the row each engine's packets are checked in (tools/engines/BUILD)
export const ROWS = {
  'godot4.6': 'godot4', 'godot3.6': 'godot3', 'godot3.2': 'godot3@3.2', 'pandemonium-4.9': 'pandemonium', 'pandemonium-5.2': 'pandemonium-5',
  'godot4.3': 'godot4.3', 'godot3.1': 'godot3@3.1', 'godot4.6-double': 'godot4-double', 'godot3.0': 'godot3.0@3.0.0', 'godot2.0': 'mole@2.0',
  'godot2.1': 'mole@2.1.0', 'pandemonium-3.8': 'pandemonium', 'godot4.2': 'godot4.0',
  'pandemonium-3.7': 'pandemonium-3.5',
};

export function* packets(engine) {
  const file = path.join(ROOT, 'tools', 'engines', `${engine}-packets.tsv`);
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [name, hex, rt] = line.split('\t');
    yield { name, bytes: Uint8Array.from(Buffer.from(hex, 'hex')), engineRt: rt ? Buffer.from(rt, 'hex') : undefined };
  }
}


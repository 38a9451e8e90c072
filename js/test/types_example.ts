// SPDX-License-Identifier: MIT
// What a TypeScript program writes against the package: js/tests/run.sh type-checks it (tsc --strict) in the
// project the tarball is installed into.
import { decode, encode, check, Vector2, GdwireError, FrameReader, frame, Float, Dictionary } from 'gdwire';

const data: Uint8Array = encode({ hp: 100, pos: new Vector2(1.5, -2), f: new Float(1) }, { dialect: 'godot4' });
const v = decode(data, { dialect: 'godot4' });
const { value, length } = decode(data, { withLength: true });
const best: string | undefined = check(data).best;
const r = new FrameReader({ maxPayload: 65531 });
r.feed(frame(data));
for (const p of r.packets()) console.log(decode(p), value, length, best, v);
try { decode(data.subarray(0, 3)); } catch (e) { if (e instanceof GdwireError) console.log(e.code, e.offset, e.path); }
const d = new Dictionary([[1, 'a']], { keyType: 'int' });
console.log(d.get(1), new Vector2(1, 2).x.toFixed(1));

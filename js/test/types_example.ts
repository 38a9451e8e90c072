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

// sessions: a capture file's messages, and UDP payloads a program read itself
import { Session, readCapture, CaptureError, Message, LINK_ETHERNET, type SessionEvent } from 'gdwire';
const session = new Session({ dialect: 'godot4', maxPacketBytes: 1 << 20 });
const capture = new Uint8Array(0);
try {
  for (const rec of readCapture(capture)) session.frame(rec.data, { link: rec.link, time: rec.time, wirelen: rec.wirelen });
} catch (e) { if (e instanceof CaptureError) console.log(e.status, e.offset); }
const events: SessionEvent[] = session.udp({ address: '127.0.0.1', port: 40000 }, { address: '127.0.0.1', port: 7000 }, new Uint8Array(4), { time: 1.5 });
for (const ev of [...events, ...session.frame(new Uint8Array(60), { link: LINK_ETHERNET })]) {
  if (ev.type === 'message') {
    const m: Message = ev;
    console.log(m.from, m.to, m.command, m.path, m.methodId, m.values.map((v) => (v.ok ? v.value : v.error?.code)));
  } else {
    console.log(ev.layer, ev.offset, ev.message);
  }
}
for (const ev of new Session().readCapture(capture)) console.log(ev.frame);
console.log(session.stats.messages, session.flows.map((f) => f.endpoints + ' ' + f.compression.join('/')), session.finish().length);
session.free();

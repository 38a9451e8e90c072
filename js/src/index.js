// SPDX-License-Identifier: MIT
// gdwire — Godot's binary Variant format (var_to_bytes / bytes_to_var, put_var / get_var) for every engine
// generation, in JavaScript: the gdwire C library compiled to WebAssembly (js/build.sh), and this layer.
//
// This module is the package's public surface, and its framing (FrameReader, frame). The work lives in:
// wasm.js (the WebAssembly instance, the layout and constants the library gives), read.js (the library's tree as
// JavaScript values: decode, explain), write.js (JavaScript values into the library's tree: encode), check.js (the
// dialect table and check), session.js (sessions and capture files) and values.js (the value classes). Every
// verdict, error and byte is the library's.
import { L, GdwireError, asBytes } from './wasm.js';

export { GdwireError, setMaxInput } from './wasm.js';
export { decode, decodeText, decodeJSON, explain, parseInput } from './read.js';
export { encode, encodeText } from './write.js';
export { dialects, check, canonicalName, libraryVersion } from './check.js';
export {
  LINK_NULL, LINK_ETHERNET, LINK_DLT_RAW, LINK_DLT_RAW_OPENBSD, LINK_RAW, LINK_LOOP, LINK_LINUX_SLL, LINK_IPV4, LINK_IPV6, LINK_LINUX_SLL2,
  MessageValue, Message, Problem, CaptureError, sessionOptionsDefault, compressionsBuilt, Session, readCapture,
} from './session.js';
export * from './values.js';

// ---- framings -----------------------------------------------------------------------------------------

/**
 * Cuts a byte stream into the packets of StreamPeer.put_var (and PacketPeerStream): each a 4-byte
 * little-endian length, then that many bytes. feed(chunk) as bytes arrive (a net.Socket's 'data', a
 * WebSocket message); packets() yields every whole packet so far.
 */
export class FrameReader {
  /** @param {{maxPayload?: number, bigEndian?: boolean}} [o] maxPayload: 256 MiB, or 65,531 for a PacketPeerStream */
  constructor(o = {}) {
    this.maxPayload = o.maxPayload ?? L.frame_max_default; // the library's GDW_FRAME_MAX_DEFAULT, 256 MiB
    this.bigEndian = Boolean(o.bigEndian);
    // one growing buffer: bytes [start, end) are held; consumed counts the bytes handed out, so
    // an error names its offset in the stream
    this.buf = new Uint8Array(0);
    this.start = 0;
    this.end = 0;
    this.consumed = 0;
  }
  /** Adds a chunk: amortised O(its length), whatever the chunks' sizes. */
  feed(chunk) {
    const c = asBytes(chunk);
    const held = this.end - this.start;
    if (this.end + c.length > this.buf.length) {
      if (held + c.length <= this.buf.length && this.start >= held) {
        this.buf.copyWithin(0, this.start, this.end); // room at the front, and the move costs at most what was read
      } else {
        const grown = new Uint8Array(Math.max(held + c.length, 2 * this.buf.length, 4096));
        grown.set(this.buf.subarray(this.start, this.end));
        this.buf = grown;
      }
      this.start = 0;
      this.end = held;
    }
    this.buf.set(c, this.end);
    this.end += c.length;
  }
  /** Yields each whole packet once: a packet counts as read when it is yielded, so a loop that
   * stops early, or a prefix over maxPayload (thrown, and thrown again until the reader is
   * dropped), never hands a packet out twice. */
  *packets() {
    while (this.end - this.start >= 4) {
      const n = new DataView(this.buf.buffer, this.buf.byteOffset + this.start, 4).getUint32(0, !this.bigEndian);
      if (n > this.maxPayload) {
        throw new GdwireError('TOO_LARGE', this.consumed, '', `the length prefix says ${n} bytes, more than maxPayload (${this.maxPayload})`);
      }
      if (this.end - this.start - 4 < n) break;
      const packet = this.buf.slice(this.start + 4, this.start + 4 + n);
      this.start += 4 + n;
      this.consumed += 4 + n;
      if (this.start === this.end) this.start = this.end = 0;
      yield packet;
    }
  }
  /** bytes held that are not a whole packet yet */
  get pending() { return this.end - this.start; }
}

/** A packet with its 4-byte length prefix, as StreamPeer.put_var writes it. */
export function frame(packet, o = {}) {
  const p = asBytes(packet);
  const out = new Uint8Array(4 + p.length);
  new DataView(out.buffer).setUint32(0, p.length, !o.bigEndian);
  out.set(p, 4);
  return out;
}

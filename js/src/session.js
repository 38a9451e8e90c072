// SPDX-License-Identifier: MIT
// session.js — sessions (session/gdwire_session.h) and capture files (session/gdwire_pcap.h): Godot multiplayer
// traffic read by the library, its events read from src/glue.c's records during the feed.
import { X, u8, dv, views, L, MODES, GdwireError, cString, errorAt, dialectPtr, withBytes, withCString, asBytes, onSessionEvent } from './wasm.js';
import { read, text, intValue } from './read.js';

/** Link types of Session.frame, as libpcap numbers them (a capture file's records carry their own). */
export const LINK_NULL = 0; // BSD loopback: a 4-byte family in the capturing host's order
export const LINK_ETHERNET = 1;
export const LINK_DLT_RAW = 12; // raw IP, as pcap_datalink names LINKTYPE_RAW
export const LINK_DLT_RAW_OPENBSD = 14;
export const LINK_RAW = 101; // a bare IPv4 or IPv6 packet
export const LINK_LOOP = 108; // OpenBSD loopback
export const LINK_LINUX_SLL = 113;
export const LINK_IPV4 = 228;
export const LINK_IPV6 = 229;
export const LINK_LINUX_SLL2 = 276;

// the slots of src/glue.c's event record (EV_*), its value rows (VAL_SLOTS) and a problem's slots (PR_*)
const EV = {
  KIND: 0, FRAME: 1, FLOW: 2, TRANSPORT: 3, DIALECT: 4, FROM: 5, TO: 6, RELAYED: 7, CHANNEL: 8, MODE: 9, COMMAND: 10, PATH: 11,
  BYTES: 12, LEN: 13, VALUE_COUNT: 14, VALUES: 15, NODE_ID: 16, INLINE_PATH: 17, INLINE_LEN: 18, METHOD_ID: 19, METHOD: 20,
  METHOD_LEN: 21, MD5: 22, CHECKSUM: 23, NET_ID: 24, SCENE_ID: 25, NAME: 26, NAME_LEN: 27, SYNC_TIME: 28, PEER: 29, PAYLOAD: 30,
  PAYLOAD_LEN: 31, TIME: 32, PROJECT: 33, PROJECT_METHOD: 34, ARGS_FIT: 35, REFUSED: 36, PROJECT_MD5: 37,
  PR_LAYER: 3, PR_OFFSET: 4, PR_MESSAGE: 5,
};
const VAL_SLOTS = 10;
const CAP_NAMES = ['maxOpenFragmentBytes', 'maxFlowFragmentBytes', 'maxPacketBytes', 'maxFlows', 'maxCachedPaths', 'maxWindowBytes',
  'maxFlowWindowBytes', 'maxPathBytes', 'maxFlowPathBytes', 'maxIpFragmentBytes'];
const CAP_LIMITS = { maxFlows: L.session_max_flows, maxCachedPaths: L.session_max_cached_paths }; // gdw_session_new refuses more
const COMMANDS = [];
for (let c = 0; ; c++) {
  const n = cString(X.gdw_mp_command_name(c));
  if (n === '?') break;
  COMMANDS.push(n);
}
const ENCODINGS = [];
for (let e = 0; cString(X.gdw_mp_encoding_name(e)) !== '?'; e++) ENCODINGS.push(cString(X.gdw_mp_encoding_name(e)));

/** One Variant of a message: an RPC's argument (label "arg"), a spawn's argument or state ("spawn_arg",
 * "spawn_state"), a synchronizer's state ("state"), a put_var flow's value ("value"). value is the JavaScript value
 * (as decode gives it), or undefined with error set (a GdwireError whose offsets count from the value's first byte).
 * offset and length place its bytes in the message's data. */
export class MessageValue {
  constructor(o) { Object.assign(this, o); Object.freeze(this); }
  /** the value decoded */
  get ok() { return this.error === undefined; }
}

/** One Godot multiplayer message (a SceneMultiplayer or MultiplayerAPI packet, or a put_var value on plain TCP). */
export class Message {
  constructor(o) { Object.assign(this, o); Object.freeze(this); }
  get type() { return 'message'; }
  /** the packet's size in bytes */
  get size() { return this.data.length; }
  /** the bytes of one of this message's values */
  valueBytes(v) { return this.data.subarray(v.offset, v.offset + v.length); }
}

/** What a session could not read, or dropped to stay within its caps. Nothing stops the session. */
export class Problem {
  constructor(o) { Object.assign(this, o); Object.freeze(this); }
  get type() { return 'problem'; }
}

/** A capture file cut short or not a capture: status (the reader's: "truncated", "not_capture", ...), offset (the
 * byte of the file where what failed starts) and the reader's message (detail). code is the status in capitals. */
export class CaptureError extends GdwireError {
  constructor(status, offset, message) {
    super(status.toUpperCase(), offset, '', message);
    this.name = 'CaptureError';
    this.status = status;
  }
}

// The feed running now (one at a time: the library calls gdwjs_session_event during it, nothing else runs then).
let feed;

function ev64(rec, k) { return dv.getBigInt64(rec + 8 * k, true); }
function evNum(rec, k) { return Number(ev64(rec, k)); }
function evPtr(rec, k) { return dv.getUint32(rec + 8 * k, true); }

onSessionEvent(sessionEvent);
function sessionEvent(rec) {
  if (!feed || feed.error) return;
  try {
    views();
    feed.events.push(evNum(rec, EV.KIND) === 0 ? messageAt(rec, feed.ro) : new Problem({
      frame: evNum(rec, EV.FRAME), time: dv.getFloat64(rec + 8 * EV.TIME, true), flow: evNum(rec, EV.FLOW), layer: cString(evPtr(rec, EV.PR_LAYER)),
      offset: evNum(rec, EV.PR_OFFSET), message: cString(evPtr(rec, EV.PR_MESSAGE)),
    }));
  } catch (e) {
    feed.error = e; // thrown when the feed returns: nothing may unwind through the library
  }
}

function messageAt(rec, ro) {
  const count = evNum(rec, EV.VALUE_COUNT);
  if (count < 0) throw new GdwireError('NOMEM', 0, '', 'no room for a message\'s values in the WebAssembly memory');
  const command = COMMANDS[evNum(rec, EV.COMMAND)];
  const sync = command === 'sync' || command === 'delta';
  const values = [];
  const rows = evPtr(rec, EV.VALUES);
  for (let i = 0; i < count; i++) {
    const r = rows + 8 * VAL_SLOTS * i;
    const w = (k) => dv.getBigInt64(r + 8 * k, true);
    const vp = dv.getUint32(r + 8 * 6, true);
    values.push(new MessageValue({
      label: cString(dv.getUint32(r, true)), index: Number(w(1)), netId: sync ? Number(BigInt.asUintN(32, w(2))) : undefined,
      indexes: command === 'delta' ? intValue(BigInt.asUintN(64, w(3)), ro) : undefined, offset: Number(w(4)), length: Number(w(5)),
      encoding: ENCODINGS[Number(w(9))] ?? '?', value: vp ? read(vp, ro) : undefined, error: vp ? undefined : errorAt(dv.getUint32(r + 8 * 8, true)),
    }));
  }
  const ptrText = (pk, lk) => { const p = evPtr(rec, pk); return p ? text(p, evNum(rec, lk)) : undefined; };
  const f = {};
  const nodeId = evNum(rec, EV.NODE_ID);
  switch (command) {
    case 'rpc': case 'rset':
      f.nodeId = nodeId >= 0 ? nodeId : undefined;
      f.inlinePath = ptrText(EV.INLINE_PATH, EV.INLINE_LEN);
      f.methodId = evNum(rec, EV.METHOD_ID) >= 0 ? evNum(rec, EV.METHOD_ID) : undefined;
      f.method = ptrText(EV.METHOD, EV.METHOD_LEN);
      break;
    case 'simplify_path': case 'confirm_path': {
      f.nodeId = nodeId >= 0 ? nodeId : undefined;
      f.inlinePath = ptrText(EV.INLINE_PATH, EV.INLINE_LEN);
      const md5 = evPtr(rec, EV.MD5);
      f.md5 = md5 ? cString(md5) : undefined;
      f.checksumValid = evNum(rec, EV.CHECKSUM) >= 0 ? evNum(rec, EV.CHECKSUM) !== 0 : undefined;
      break;
    }
    case 'spawn':
      f.nodeId = nodeId;
      f.netId = evNum(rec, EV.NET_ID);
      f.sceneId = evNum(rec, EV.SCENE_ID);
      f.name = ptrText(EV.NAME, EV.NAME_LEN) ?? '';
      break;
    case 'despawn': f.netId = evNum(rec, EV.NET_ID); break;
    case 'sync': f.syncTime = evNum(rec, EV.SYNC_TIME); break;
    case 'add_peer': case 'del_peer': f.peer = evNum(rec, EV.PEER); break;
    case 'auth': case 'raw': case 'relay': {
      const p = evPtr(rec, EV.PAYLOAD);
      f.payload = p ? u8.slice(p, p + evNum(rec, EV.PAYLOAD_LEN)) : new Uint8Array(0);
      break;
    }
    default: break;
  }
  // Session({project}): what the manifest says (src/glue.c, gdw_rpc_annotate), as capture --project --json says it
  const p = {};
  if (evNum(rec, EV.PROJECT)) {
    const pm = evPtr(rec, EV.PROJECT_METHOD), fit = evNum(rec, EV.ARGS_FIT), why = evPtr(rec, EV.REFUSED), md5 = evPtr(rec, EV.PROJECT_MD5);
    if (pm && f.method === undefined) f.method = cString(pm);
    if (pm) p.argsFit = fit < 0 ? null : fit !== 0;
    if (why) p.refused = cString(why);
    if (md5) p.projectMd5 = cString(md5);
  }
  const bytes = evPtr(rec, EV.BYTES), dialect = evPtr(rec, EV.DIALECT), path = evPtr(rec, EV.PATH);
  let pathEnd = path;
  if (path) while (u8[pathEnd]) pathEnd++;
  return new Message({
    frame: evNum(rec, EV.FRAME), time: dv.getFloat64(rec + 8 * EV.TIME, true), flow: evNum(rec, EV.FLOW), transport: cString(evPtr(rec, EV.TRANSPORT)),
    dialect: dialect ? cString(X.gdw_dialect_name(dialect)) : '', from: evNum(rec, EV.FROM), to: evNum(rec, EV.TO),
    relayed: evNum(rec, EV.RELAYED) !== 0, channel: evNum(rec, EV.CHANNEL), mode: cString(evPtr(rec, EV.MODE)), command,
    path: path ? text(path, pathEnd - path) : undefined, data: u8.slice(bytes, bytes + evNum(rec, EV.LEN)),
    nodeId: undefined, inlinePath: undefined, methodId: undefined, method: undefined, md5: undefined, checksumValid: undefined,
    netId: undefined, sceneId: undefined, name: undefined, syncTime: undefined, peer: undefined, payload: undefined, ...f, values,
    argsFit: undefined, refused: undefined, projectMd5: undefined, ...p,
  });
}

const sessions = typeof FinalizationRegistry === 'undefined' ? undefined : new FinalizationRegistry((w) => X.gdwjs_session_free(w));
const captures = typeof FinalizationRegistry === 'undefined' ? undefined : new FinalizationRegistry((h) => freeCapture(h));

let sessionDefaults;
/** The session options' defaults: each max_* cap, and whether Objects decode. */
export function sessionOptionsDefault() {
  if (!sessionDefaults) {
    const p = X.malloc(44);
    X.gdwjs_session_defaults(p);
    views();
    sessionDefaults = Object.freeze(Object.fromEntries([...CAP_NAMES.map((n, i) => [n, dv.getUint32(p + 4 * i, true)]),
      ['allowObjects', dv.getUint32(p + 40, true) !== 0]]));
    X.free(p);
  }
  return sessionDefaults;
}

/** The ENet compressions this build reads itself: "fastlz" (gdwire's own). The WebAssembly has no zlib, zstd or
 * range coder: datagrams compressed with them are problems that say so. */
export function compressionsBuilt() {
  const out = [];
  for (let c = 1; cString(X.gdw_enet_compression_name(c)) !== ''; c++) if (X.gdw_enet_compression_built(c)) out.push(cString(X.gdw_enet_compression_name(c)));
  return out;
}

function endpoint(a, what) {
  if (a === null || typeof a !== 'object') throw new TypeError(`${what} must be {address, port}`);
  const { address, port } = a;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${what}.port must be an integer from 0 to 65535, not ${port}`);
  if (typeof address === 'string') {
    const out = X.malloc(16);
    try {
      const n = withCString(address, (p) => X.gdwjs_parse_address(p, out));
      if (!n) throw new RangeError(`${what}.address '${address}' is not an IPv4 or IPv6 address`);
      views();
      return { bytes: u8.slice(out, out + n), port };
    } finally {
      X.free(out);
    }
  }
  if (address instanceof Uint8Array && (address.length === 4 || address.length === 16)) return { bytes: address, port };
  throw new TypeError(`${what}.address must be a string ("127.0.0.1", "::1") or 4 or 16 bytes`);
}

/**
 * A Godot multiplayer session read from its traffic (the C library's gdw_session): frames or UDP payloads in, the
 * messages and problems each produced out, in order. It holds what spans packets (ENet fragments and retransmit
 * windows, TCP streams, path caches) within its caps, and says what it drops as problems; no input throws. It holds
 * WebAssembly memory: free() gives it back (a FinalizationRegistry does it too when the Session is collected).
 */
export class Session {
  /** @param {{dialect?: string, mode?: 'compatible'|'strict'|'engine-exact', allowObjects?: boolean, bigint?: 'auto'|'always',
   *          maxOpenFragmentBytes?: number, maxFlowFragmentBytes?: number, maxPacketBytes?: number, maxFlows?: number,
   *          maxCachedPaths?: number, maxWindowBytes?: number, maxFlowWindowBytes?: number, maxPathBytes?: number,
   *          maxFlowPathBytes?: number, maxIpFragmentBytes?: number, project?: string|object}} [opts]
   * project: a manifest as JSON text or its object (SyntaxError when it does not parse) */
  constructor(opts = {}) {
    let d = 0;
    if (opts.dialect !== undefined && opts.dialect !== null) {
      d = dialectPtr(opts.dialect);
      if (!X.gdwjs_session_layer(d)) {
        throw new RangeError(`dialect ${opts.dialect}: the multiplayer layer of its engines is not read (godot4, godot4.3, godot4-double, godot3 and godot3@3.2 are)`);
      }
    }
    const mode = MODES[opts.mode ?? 'compatible'];
    if (mode === undefined) throw new RangeError(`mode is compatible, strict or engine-exact, not ${opts.mode}`);
    this._ro = { bigint: opts.bigint ?? 'auto' };
    if (this._ro.bigint !== 'auto' && this._ro.bigint !== 'always') throw new RangeError("bigint is 'auto' or 'always'");
    const caps = CAP_NAMES.map((n) => {
      const v = opts[n];
      if (v === undefined) return 0;
      if (!Number.isSafeInteger(v) || v < 1 || v > (CAP_LIMITS[n] ?? 0xffffffff)) {
        throw new RangeError(`${n} must be an integer from 1 to ${CAP_LIMITS[n] ?? 0xffffffff}, not ${v}`);
      }
      return v;
    });
    const capsP = X.malloc(4 * caps.length);
    views();
    caps.forEach((c, i) => dv.setUint32(capsP + 4 * i, c, true));
    const w = X.gdwjs_session_new(d, mode, (opts.allowObjects ?? true) ? 1 : 0, capsP);
    X.free(capsP);
    if (!w) throw new GdwireError('NOMEM', 0, '', 'no room for a session in the WebAssembly memory');
    this._w = w;
    this._s = X.gdwjs_session_inner(w);
    this._finished = false;
    sessions?.register(this, w, this);
    if (opts.project !== undefined && opts.project !== null) this._project(opts.project);
  }

  // opts.project: a manifest as JSON text or as its object (`gdwire rpc --json`, the addon's dump): the module has no files
  _project(project) {
    const json = typeof project === 'string' ? project : JSON.stringify(project);
    const bytes = new TextEncoder().encode(json);
    const jp = X.malloc(bytes.length + 1), ep = X.malloc(256);
    views();
    u8.set(bytes, jp);
    const st = X.gdwjs_session_project(this._w, jp, bytes.length, ep, 256);
    views();
    const why = cString(ep);
    X.free(jp);
    X.free(ep);
    if (st !== 0) {
      this.free();
      if (st === 2) throw new GdwireError('NOMEM', 0, '', 'no room for the project in the WebAssembly memory');
      throw new SyntaxError(`project: ${why}`);
    }
  }

  _feed(fn) {
    if (!this._w) throw new Error('the session was freed (free())');
    if (this._finished) throw new Error('the session is finished (finish() was called): make a new Session');
    if (feed) throw new Error('a session is being fed already (from an event\'s code?)');
    feed = { events: [], ro: this._ro, error: undefined };
    const f = feed;
    try {
      fn();
    } finally {
      feed = undefined;
    }
    if (f.error) throw f.error;
    return f.events;
  }

  /**
   * One captured frame of link type link (LINK_ETHERNET by default): the events it produced. wirelen: the frame's length
   * on the wire when the capture kept less (a snapshot length).
   * @returns {Array<Message|Problem>}
   */
  frame(bytes, o = {}) {
    const b = asBytes(bytes);
    const link = o.link ?? LINK_ETHERNET, time = o.time ?? 0, wirelen = o.wirelen ?? b.length;
    if (!Number.isInteger(link)) throw new TypeError('link must be an integer (LINK_*)');
    if (typeof time !== 'number') throw new TypeError('time must be a number (seconds)');
    if (!Number.isSafeInteger(wirelen) || wirelen < b.length) throw new RangeError(`wirelen (${wirelen}) is less than the bytes captured (${b.length})`);
    return this._feed(() => withBytes(b, (p, n) => X.gdw_session_frame(this._s, link, p, n, Math.min(wirelen, 0xffffffff), time)));
  }

  /**
   * One UDP payload from src to dst (each {address, port}: "127.0.0.1", "::1", or 4 or 16 bytes; both of one family),
   * as a program that reads its own socket has it: the events it produced.
   */
  udp(src, dst, payload, o = {}) {
    const s = endpoint(src, 'src'), d = endpoint(dst, 'dst');
    if (s.bytes.length !== d.bytes.length) throw new RangeError('src and dst must be addresses of one family (IPv4 or IPv6)');
    const b = asBytes(payload), time = o.time ?? 0;
    if (typeof time !== 'number') throw new TypeError('time must be a number (seconds)');
    const addrs = new Uint8Array(32);
    addrs.set(s.bytes, 0);
    addrs.set(d.bytes, 16);
    return withBytes(addrs, (a) => this._feed(() => withBytes(b, (p, n) =>
      X.gdwjs_session_udp(this._w, a, a + 16, s.bytes.length, s.port, d.port, p, n, time))));
  }

  /** The traffic ended: the problems of what never completed (fragmented packets, cut streams). The session takes no
   * more input after it; its stats and flows stay. */
  finish() {
    const events = this._feed(() => X.gdw_session_finish(this._s));
    this._finished = true;
    return events;
  }

  /**
   * Every record of a pcap or pcapng file (as readCapture reads it) fed as a frame, with its own link type and time, and
   * the events yielded as they come; with finish (the default), finish()'s at the end. A file cut short throws a
   * CaptureError after the events of every whole record before it.
   * @returns {Generator<Message|Problem>}
   */
  *readCapture(bytes, o = {}) {
    for (const rec of captureRecords(bytes, o, false)) {
      yield* this._feed(() => X.gdw_session_frame(this._s, rec.link, rec.ptr, rec.caplen, rec.wirelen, rec.time));
    }
    if (o.finish ?? true) yield* this.finish();
  }

  /** What the session has read and holds (gdw_session_stats). */
  get stats() {
    if (!this._w) throw new Error('the session was freed (free())');
    const p = X.malloc(8 * (19 + COMMANDS.length));
    try {
      const n = X.gdwjs_session_stats(this._w, p);
      views();
      const v = (i) => dv.getFloat64(p + 8 * i, true);
      const byCommand = {};
      for (let c = 0; c < n - 19; c++) if (v(19 + c)) byCommand[COMMANDS[c]] = v(19 + c);
      return {
        frames: v(0), udpDatagrams: v(1), enetDatagrams: v(2), tcpSegments: v(3), messages: v(4), retransmits: v(5), problems: v(6),
        fragmentsCompleted: v(7), fragmentsDropped: v(8), decompressed: v(9), statesDropped: v(10), byCommand, messageBytes: v(11),
        openFragmentBytes: v(12), peakFragmentBytes: v(13), windowBytes: v(14), pathBytes: v(15), heldBytes: v(16), peakHeldBytes: v(17),
        flows: v(18),
      };
    } finally {
      X.free(p);
    }
  }

  /** Every flow: number (as messages name it), endpoints ("127.0.0.1:40000 -> 127.0.0.1:9999", the client first),
   * dialect (undefined while it has carried no Godot packet), compression: how the client's and the server's ENet
   * datagrams are compressed ("none", "range_coder", "fastlz", "zlib", "zstd"), as found at each side's first
   * compressed one. */
  get flows() {
    const n = this.stats.flows, out = [];
    for (let f = 1; f <= n; f++) {
      const d = X.gdw_session_flow_dialect(this._s, f);
      out.push(Object.freeze({ number: f, endpoints: cString(X.gdw_session_flow_text(this._s, f)), dialect: d ? cString(X.gdw_dialect_name(d)) : undefined,
        compression: [0, 1].map((side) => cString(X.gdw_enet_compression_name(X.gdw_session_flow_compression(this._s, f, side)))) }));
    }
    return out;
  }

  /** Gives the session's WebAssembly memory back; the session takes nothing after it. A second call does nothing. */
  free() {
    if (!this._w) return;
    sessions?.unregister(this);
    X.gdwjs_session_free(this._w);
    this._w = this._s = 0;
  }
}

function freeCapture(h) {
  if (h.r) X.gdwjs_pcap_free(h.r);
  if (h.p) X.free(h.p);
  h.r = h.p = 0;
}

/** The records, from the reader over a copy of the file in the WebAssembly memory; copy: their bytes copied out. */
function* captureRecords(bytes, o, copy) {
  const b = asBytes(bytes);
  const maxRecord = o.maxRecordBytes ?? 0;
  if (!Number.isSafeInteger(maxRecord) || maxRecord < 0 || maxRecord > 0xffffffff) throw new RangeError('maxRecordBytes wants a byte count');
  if (maxRecord !== 0 && maxRecord < 64) throw new RangeError('maxRecordBytes is at least 64');
  const h = { p: X.malloc(b.length || 1), r: 0 };
  if (!h.p) throw new GdwireError('NOMEM', 0, '', `no room for a capture of ${b.length} bytes in the WebAssembly memory`);
  const token = {};
  captures?.register(token, h, token);
  const out = X.malloc(80);
  try {
    views();
    u8.set(b, h.p);
    h.r = X.gdwjs_pcap_open(h.p, b.length, maxRecord);
    if (!h.r) throw new GdwireError('NOMEM', 0, '', 'no room for a capture reader in the WebAssembly memory');
    for (;;) {
      const st = X.gdwjs_pcap_next(h.r, out);
      views();
      const v = (i) => dv.getFloat64(out + 8 * i, true);
      if (st === 1) return; // GDW_PCAP_END
      if (st !== 0) throw new CaptureError(cString(X.gdw_pcap_status_name(st)), v(0), cString(v(1)));
      const rec = { ptr: v(0), caplen: v(1), wirelen: v(2), link: v(3), interface: v(4), section: v(5), hasTime: v(6) !== 0, number: v(7),
        offset: v(8), time: v(9) };
      yield copy ? Object.freeze({ number: rec.number, offset: rec.offset, link: rec.link, interface: rec.interface, section: rec.section,
        time: rec.time, hasTime: rec.hasTime, wirelen: rec.wirelen, data: u8.slice(rec.ptr, rec.ptr + rec.caplen) }) : rec;
    }
  } finally {
    X.free(out);
    captures?.unregister(token);
    freeCapture(h);
  }
}

/**
 * The records of a pcap or pcapng file (both byte orders, micro- and nanosecond pcap; pcapng sections, interfaces of
 * any link type, Enhanced, Simple and obsolete Packet Blocks), read by the C library's own reader over a copy of the
 * bytes: {number (from 1), offset (the byte of the file where it starts), link (LINK_*), interface, section, time
 * (seconds; 0 where the file has none), hasTime, wirelen, data}. A file cut short or not a capture throws a
 * CaptureError after every whole record before it. maxRecordBytes: the largest record taken (16 MiB by default).
 * @returns {Generator<CaptureRecord>}
 */
export function readCapture(bytes, o = {}) { return captureRecords(bytes, o, true); }

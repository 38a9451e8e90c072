// SPDX-License-Identifier: MIT
// Types of the gdwire package (src/index.js, src/values.js).

export type Dialect = string;
export type Mode = 'compatible' | 'strict' | 'engine-exact';
/** A builtin type name ("int", "Vector2", ...), "Variant", "ObjectID", or a class, a script or an unmapped wire id. */
export type ElementType = string | { class: string | RawString } | { script: string | RawString } | { wire_id: number };

export type Value =
  | null | boolean | number | bigint | string | Float | StringName | RawString
  | Value[] | { [key: string]: Value } | Map<Value, Value> | Dictionary | GodotArray
  | MathValue | PackedValue | PackedStringArray
  | Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array
  | NodePath | RID | GodotObject | Callable | Signal | Image | InputEvent;

export class GdwireError extends Error {
  /** the C library's status name: TRUNCATED, BAD_COUNT, DEPTH, LOSSY, UNSUPPORTED_TYPE, TOO_LARGE, ... */
  readonly code: string;
  /** the byte where the fault is */
  readonly offset: number;
  /** where in the value: [2]{"hp"} */
  readonly path: string;
  readonly detail: string;
  readonly valueOffset: number;
  /** the engine's Error for the same bytes (ERR_INVALID_DATA, ERR_FILE_EOF, ...), or "-" */
  readonly engineError: string;
}

export interface DecodeOptions {
  dialect?: Dialect;
  mode?: Mode;
  /** decode full Objects, as the engine's allow_objects; default: the engine's own (true only for Godot 3.0 and 3.1) */
  allowObjects?: boolean;
  /** 0: the engines' 1024 levels */
  maxDepth?: number;
  /** 'auto': an int beyond 2^53 is a BigInt, else a number; 'always': every int is a BigInt */
  bigint?: 'auto' | 'always';
  /** read the value at the start and ignore the bytes after it, as the engines do; without it (and without
   * withLength) bytes left after the value throw GdwireError TRAILING_BYTES, as JSON.parse does */
  allowTrailing?: boolean;
}
export function decode(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, opts: DecodeOptions & { withLength: true }): { value: Value; length: number };
export function decode(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, opts?: DecodeOptions & { withLength?: false }): Value;
export function encode(value: Value, opts?: { dialect?: Dialect; lossy?: boolean }): Uint8Array;

export interface Verdict {
  readonly dialect: string;
  readonly accepted: boolean;
  readonly consumed: number;
  /** accepted, and the dialect's encoder writes exactly these bytes */
  readonly strict: boolean;
  /** accepted, and the engine itself accepts them */
  readonly engineExact: boolean;
  /** 1-based; equal scores share a rank (gdw_check_rank_rows, as `gdwire check` ranks) */
  readonly rank: number;
  /** accepted: reals in the value that look misread (NaN, below 1e-30 or beyond 1e30) */
  readonly misreadReals: number;
  /** what the dialect makes of the bytes: every byte; a value that runs out of bytes (a cut packet of it); a value
   * with bytes left after it; nothing */
  readonly reading: 'whole' | 'cut' | 'prefix' | 'rejected';
  /** best, or one of its equally */
  readonly first: boolean;
  /** why it ranks where it does, as `gdwire check` says it */
  readonly reason: string;
  /** a cut reading: how many more bytes the value needs at least */
  readonly shortBy: number;
  readonly error?: GdwireError;
}
export function check(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, opts?: { allowObjects?: boolean }): {
  verdicts: Verdict[]; ranking: string[]; best?: string;
  /** the dialects as likely as best that read the same value */
  equally: string[];
  /** the answer in one sentence, as `gdwire check` and the page print it */
  summary: string;
  /** bytes in front of the value the verdicts read (a length prefix, an opcode); 0 for none */
  skip: number;
  /** what those bytes are, "" for none */
  framing: string;
  /** what a script of the named engine passes to read the value ("bytes_to_var(bytes.slice(4))"), "" for none */
  script: string;
};

type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;
type ReadOptions = Omit<DecodeOptions, 'bigint'>;
/** The value in the canonical text form, as `gdwire decode` prints it. */
export function decodeText(bytes: Bytes, opts?: ReadOptions): string;
/** The value in the library's JSON form (a string of JSON), as `gdwire decode --json` gives its "value". */
export function decodeJSON(bytes: Bytes, opts?: ReadOptions): string;
export interface ExplainField {
  readonly offset: number; readonly size: number; readonly depth: number;
  /** the type of the value the field belongs to; undefined for a header with an unknown id */
  readonly type?: string;
  /** "header", "length", "bytes", "padding", "count", "components", "value", ... */
  readonly field: string;
  /** what its bytes say, in `gdwire explain`'s words */
  readonly value: string;
  readonly path: string;
}
export interface Explained {
  dialect: string; mode: Mode; fields: ExplainField[]; fieldsOmitted: number; accepted: boolean;
  consumed?: number; trailing?: number; error?: GdwireError;
}
/** Every field of the packet as the decoder reads it, as `gdwire explain --json` gives them. */
export function explain(bytes: Bytes, opts?: ReadOptions & { maxFields?: number }): Explained;
/** A value in the canonical text form (or the JSON form with json: true) encoded as `gdwire encode` writes it. */
export function encodeText(text: string, opts?: { dialect?: Dialect; lossy?: boolean; json?: boolean; onNarrow?: (e: GdwireError) => void }): Uint8Array;
/** Bytes from pasted text: hex, base64, or byte values (Godot's printed PackedByteArray, xxd, hexdump -C). */
export function parseInput(text: string, opts?: { format?: 'auto' | 'hex' | 'base64' | 'dump' }): { bytes: Uint8Array; format: 'hex' | 'base64' | 'dump' };

export interface DialectRow {
  readonly name: string; readonly family: string; readonly summary: string; readonly engines: string; readonly aliases: string[];
  readonly release: string; readonly released: string; readonly releaseOf?: string; readonly engineEvidence?: string;
  readonly noEngine?: string; readonly documentedOnly: boolean; readonly objectsByDefault: boolean; readonly fuzzId: number;
}
export function dialects(): readonly DialectRow[];
export function canonicalName(dialect: Dialect): string;
export function setMaxInput(bytes: number): void;
export const libraryVersion: string;

export class FrameReader {
  constructor(o?: { maxPayload?: number; bigEndian?: boolean });
  feed(chunk: Uint8Array | ArrayBuffer | ArrayBufferView): void;
  packets(): Generator<Uint8Array, void, void>;
  readonly pending: number;
}
export function frame(packet: Uint8Array, o?: { bigEndian?: boolean }): Uint8Array;

// ---- sessions (Session, readCapture) ----

export const LINK_NULL: 0;
export const LINK_ETHERNET: 1;
export const LINK_DLT_RAW: 12;
export const LINK_DLT_RAW_OPENBSD: 14;
export const LINK_RAW: 101;
export const LINK_LOOP: 108;
export const LINK_LINUX_SLL: 113;
export const LINK_IPV4: 228;
export const LINK_IPV6: 229;
export const LINK_LINUX_SLL2: 276;

export type Command = 'rpc' | 'rset' | 'simplify_path' | 'confirm_path' | 'raw' | 'spawn' | 'despawn' | 'sync' | 'delta' | 'auth'
  | 'add_peer' | 'del_peer' | 'var';

/** One Variant of a message: an RPC's argument ("arg"), a spawn's argument or state ("spawn_arg", "spawn_state"), a
 * synchronizer's state ("state"), a put_var flow's value ("value"). */
export class MessageValue {
  readonly label: string;
  /** its position among the values of its label (and net id) */
  readonly index: number;
  /** sync and delta: the synchronizer's net id (bit 31: a path-cache id) */
  readonly netId?: number;
  /** delta: the mask of the properties sent */
  readonly indexes?: number | bigint;
  /** its bytes in the message's data */
  readonly offset: number;
  readonly length: number;
  /** "Variant", or SceneMultiplayer's "compact bool", "compact int", "bare bytes" (not Variants of any dialect) */
  readonly encoding: 'Variant' | 'compact bool' | 'compact int' | 'bare bytes';
  /** the value, as decode gives it; undefined when it did not decode (error says why) */
  readonly value?: Value;
  /** offsets from the value's first byte */
  readonly error?: GdwireError;
  readonly ok: boolean;
}

/** One Godot multiplayer message. Command fields are undefined where the command has none. */
export class Message {
  readonly type: 'message';
  /** the frame (1-based, in feeding order) that completed it, and its time */
  readonly frame: number;
  readonly time: number;
  /** the flow (1-based, in order of first sight: Session.flows) */
  readonly flow: number;
  readonly transport: 'enet' | 'websocket' | 'tcp';
  /** the flow's dialect */
  readonly dialect: string;
  /** Godot peer ids: 1 the server, 0 unknown; to of a relayed message 0 for everyone, -N everyone but N */
  readonly from: number;
  readonly to: number;
  readonly relayed: boolean;
  readonly channel: number;
  readonly mode: 'reliable' | 'unreliable' | 'unreliable_ordered';
  readonly command: Command;
  /** the node path (an RPC's, from the sender's path cache or inline; a spawn's spawner), undefined when unknown */
  readonly path?: string | RawString;
  /** the packet's bytes */
  readonly data: Uint8Array;
  readonly size: number;
  /** rpc, rset, simplify_path, Godot 4's confirm_path: the path-cache id (undefined when the path is inline); spawn: the spawner's */
  readonly nodeId?: number;
  /** rpc, rset, simplify_path, Godot 3's confirm_path: the path the packet carries */
  readonly inlinePath?: string | RawString;
  /** Godot 4 rpc: the method's id */
  readonly methodId?: number;
  /** Godot 3 rpc and rset: the method's or property's name as sent; Godot 4 rpc with a project: the manifest's name for its id */
  readonly method?: string | RawString;
  /** with a project, an rpc the manifest names: whether the receiving engine runs it with these arguments; null: the manifest cannot tell */
  readonly argsFit?: boolean | null;
  /** with argsFit false: why the engine refuses the call ("argument 1 (amount): int expected, got String") */
  readonly refused?: string;
  /** with a project, a simplify_path whose MD5 is another build's: the project's MD5 for that node */
  readonly projectMd5?: string;
  /** Godot 4 simplify_path: the MD5 of the node's RPC names (hex) */
  readonly md5?: string;
  /** Godot 4 confirm_path: the receiver's verdict */
  readonly checksumValid?: boolean;
  /** spawn, despawn */
  readonly netId?: number;
  /** spawn: the scene's index (255: a custom spawn) and the node's name */
  readonly sceneId?: number;
  readonly name?: string | RawString;
  /** sync */
  readonly syncTime?: number;
  /** add_peer, del_peer */
  readonly peer?: number;
  /** raw, auth */
  readonly payload?: Uint8Array;
  readonly values: readonly MessageValue[];
  valueBytes(v: MessageValue): Uint8Array;
}

/** What the session could not read, or dropped to stay within its caps; nothing stops the session. */
export class Problem {
  readonly type: 'problem';
  /** 0: at the end */
  readonly frame: number;
  readonly time: number;
  /** 0: before a flow is known */
  readonly flow: number;
  readonly layer: string;
  /** the byte of the frame (of the packet for "multiplayer") */
  readonly offset: number;
  readonly message: string;
}

export type SessionEvent = Message | Problem;

export interface SessionOptions {
  /** the Variants' dialect, and by it the multiplayer layer (godot4, godot4.3, godot4-double, godot3, godot3@3.2); default: detected per flow */
  dialect?: Dialect;
  mode?: Mode;
  /** default true: a capture shows what was sent */
  allowObjects?: boolean;
  bigint?: 'auto' | 'always';
  maxOpenFragmentBytes?: number;
  maxFlowFragmentBytes?: number;
  maxPacketBytes?: number;
  maxFlows?: number;
  maxCachedPaths?: number;
  maxWindowBytes?: number;
  maxFlowWindowBytes?: number;
  maxPathBytes?: number;
  maxFlowPathBytes?: number;
  maxIpFragmentBytes?: number;
  /** a project's manifest (`gdwire rpc --json`, or the addon's dump) as JSON text or its object: every message is read
   * against it as `gdwire capture --project --json` reads it (method names, argsFit, refused, projectMd5) */
  project?: string | object;
}

export interface Endpoint { address: string | Uint8Array; port: number; }

export interface SessionStats {
  frames: number; udpDatagrams: number; enetDatagrams: number; tcpSegments: number; messages: number; retransmits: number;
  problems: number; fragmentsCompleted: number; fragmentsDropped: number; decompressed: number; statesDropped: number;
  /** packets by command name, the commands seen only ("relay": SYS relays) */
  byCommand: Record<string, number>;
  messageBytes: number; openFragmentBytes: number; peakFragmentBytes: number; windowBytes: number; pathBytes: number;
  heldBytes: number; peakHeldBytes: number; flows: number;
}

export interface Flow {
  readonly number: number;
  /** "127.0.0.1:40000 -> 127.0.0.1:9999", the client first */
  readonly endpoints: string;
  readonly dialect?: string;
  /** the client's and the server's ENet compression: "none", "range_coder", "fastlz", "zlib", "zstd" */
  readonly compression: readonly [string, string];
}

export class Session {
  constructor(opts?: SessionOptions);
  frame(bytes: Bytes, o?: { link?: number; time?: number; wirelen?: number }): SessionEvent[];
  udp(src: Endpoint, dst: Endpoint, payload: Bytes, o?: { time?: number }): SessionEvent[];
  finish(): SessionEvent[];
  readCapture(bytes: Bytes, o?: { finish?: boolean; maxRecordBytes?: number }): Generator<SessionEvent, void, undefined>;
  readonly stats: SessionStats;
  readonly flows: Flow[];
  /** gives the WebAssembly memory back (a FinalizationRegistry does too, when the Session is collected) */
  free(): void;
}

export interface CaptureRecord {
  readonly number: number;
  /** the byte of the file where its record or block starts */
  readonly offset: number;
  readonly link: number;
  readonly interface: number;
  readonly section: number;
  /** seconds; 0 where the file has none */
  readonly time: number;
  readonly hasTime: boolean;
  readonly wirelen: number;
  readonly data: Uint8Array;
}
export function readCapture(bytes: Bytes, o?: { maxRecordBytes?: number }): Generator<CaptureRecord, void, undefined>;

/** A capture file cut short or not a capture: code TRUNCATED, NOT_CAPTURE, ...; offset the file's byte. */
export class CaptureError extends GdwireError {
  /** the reader's status: "truncated", "not_capture", "unsupported", "malformed", "too_big", ... */
  readonly status: string;
}
export function compressionsBuilt(): string[];
export function sessionOptionsDefault(): Readonly<Required<Pick<SessionOptions, 'maxOpenFragmentBytes' | 'maxFlowFragmentBytes' | 'maxPacketBytes'
  | 'maxFlows' | 'maxCachedPaths' | 'maxWindowBytes' | 'maxFlowWindowBytes' | 'maxPathBytes' | 'maxFlowPathBytes' | 'maxIpFragmentBytes' | 'allowObjects'>>>;

export class Float {
  constructor(value: number, width?: 4 | 8, bits?: bigint);
  readonly value: number; readonly width?: 4 | 8; readonly bits?: bigint;
  valueOf(): number;
}
export class StringName { constructor(value: string | RawString); readonly value: string | RawString; }
export class RawString { constructor(bytes: ArrayLike<number>); readonly bytes: Uint8Array; }

export class MathValue {
  readonly values: readonly number[];
  /** 8 for a double-precision build's reals; undefined for the engines' own 4 */
  readonly realWidth?: 4 | 8;
  [Symbol.iterator](): Iterator<number>;
}
type MathOpts = { realWidth?: 4 | 8 };
export class Vector2 extends MathValue { constructor(x: number, y: number, o?: MathOpts); readonly x: number; readonly y: number; }
export class Vector2i extends MathValue { constructor(x: number, y: number); readonly x: number; readonly y: number; }
export class Rect2 extends MathValue {
  constructor(x: number, y: number, width: number, height: number, o?: MathOpts);
  readonly x: number; readonly y: number; readonly width: number; readonly height: number;
}
export class Rect2i extends MathValue {
  constructor(x: number, y: number, width: number, height: number);
  readonly x: number; readonly y: number; readonly width: number; readonly height: number;
}
export class Vector3 extends MathValue { constructor(x: number, y: number, z: number, o?: MathOpts); readonly x: number; readonly y: number; readonly z: number; }
export class Vector3i extends MathValue { constructor(x: number, y: number, z: number); readonly x: number; readonly y: number; readonly z: number; }
export class Vector4 extends MathValue {
  constructor(x: number, y: number, z: number, w: number, o?: MathOpts);
  readonly x: number; readonly y: number; readonly z: number; readonly w: number;
}
export class Vector4i extends MathValue {
  constructor(x: number, y: number, z: number, w: number);
  readonly x: number; readonly y: number; readonly z: number; readonly w: number;
}
export class Plane extends MathValue {
  constructor(x: number, y: number, z: number, d: number, o?: MathOpts);
  readonly x: number; readonly y: number; readonly z: number; readonly d: number;
}
export class Quaternion extends MathValue {
  constructor(x: number, y: number, z: number, w: number, o?: MathOpts);
  readonly x: number; readonly y: number; readonly z: number; readonly w: number;
}
export class Color extends MathValue {
  constructor(r: number, g: number, b: number, a: number);
  readonly r: number; readonly g: number; readonly b: number; readonly a: number;
}
/** Transform2D, AABB, Basis, Transform3D, Projection: components in the engine's order (their names in README.md) */
export class Transform2D extends MathValue { constructor(...components: Array<number | MathOpts>); [field: string]: unknown; }
export class AABB extends MathValue { constructor(...components: Array<number | MathOpts>); [field: string]: unknown; }
export class Basis extends MathValue { constructor(...components: Array<number | MathOpts>); [field: string]: unknown; }
export class Transform3D extends MathValue { constructor(...components: Array<number | MathOpts>); [field: string]: unknown; }
export class Projection extends MathValue { constructor(...components: Array<number | MathOpts>); [field: string]: unknown; }
export const MATH_TYPES: Record<string, typeof MathValue>;

export class PackedValue {
  constructor(data: ArrayLike<number>, realWidth?: 4 | 8);
  readonly data: Float32Array | Float64Array | Int32Array;
  readonly realWidth?: 4 | 8;
  readonly length: number;
  at(i: number): MathValue | number;
}
export class PackedRealArray extends PackedValue {}
export class PackedVector2Array extends PackedValue {}
export class PackedVector2iArray extends PackedValue {}
export class PackedVector3Array extends PackedValue {}
export class PackedVector3iArray extends PackedValue {}
export class PackedVector4Array extends PackedValue {}
export class PackedVector4iArray extends PackedValue {}
export class PackedColorArray extends PackedValue {}
export const PACKED_TYPES: Record<string, typeof PackedValue>;
export class PackedStringArray {
  constructor(strings?: Iterable<string | RawString>);
  readonly strings: readonly (string | RawString)[];
  readonly length: number;
  [Symbol.iterator](): Iterator<string | RawString>;
}

export class NodePath {
  constructor(path: string);
  constructor(names?: Array<string | RawString>, subnames?: Array<string | RawString>, absolute?: boolean, property?: boolean);
  readonly names: readonly (string | RawString)[]; readonly subnames: readonly (string | RawString)[];
  readonly absolute: boolean; readonly property: boolean;
}
export class RID { constructor(id?: number | bigint); readonly id?: number | bigint; }
export class GodotObject {
  constructor(o?: { className?: string | RawString; properties?: Array<[string | RawString, Value]>; id?: number | bigint });
  readonly className?: string | RawString; readonly properties?: ReadonlyArray<readonly [string | RawString, Value]>;
  readonly id?: number | bigint; readonly isNull: boolean;
}
export class Callable { constructor(); }
export class Signal { constructor(name: string | RawString, objectId?: number | bigint); readonly name: string | RawString; readonly objectId: number | bigint; }
export class GodotArray {
  constructor(items?: Iterable<Value>, o?: { elementType?: ElementType; shared?: boolean; kind?: 'Array' | 'TypedArray' | 'PackedTypedArray' });
  readonly items: readonly Value[]; readonly elementType?: ElementType; readonly shared: boolean; readonly kind: string; readonly length: number;
  [Symbol.iterator](): Iterator<Value>;
}
export class Dictionary {
  constructor(pairs?: Iterable<[Value, Value]>, o?: { keyType?: ElementType; valueType?: ElementType; shared?: boolean });
  readonly pairs: ReadonlyArray<readonly [Value, Value]>; readonly keyType?: ElementType; readonly valueType?: ElementType;
  readonly shared: boolean; readonly size: number;
  get(key: Value): Value | undefined;
}
export class Image {
  constructor(format?: number, mipmaps?: number, width?: number, height?: number, data?: ArrayLike<number>);
  readonly format: number; readonly mipmaps: number; readonly width: number; readonly height: number; readonly data: Uint8Array;
}
export class InputEvent {
  constructor(eventType: number, device?: number, length?: number, extra?: number[]);
  readonly eventType: number; readonly device: number; readonly length: number; readonly extra: readonly number[];
}

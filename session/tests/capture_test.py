#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""capture_test: `gdwire capture` of real sessions, message by message against what the engines
logged (conformance/sessions/README.md), then the same capture made hostile.

usage: capture_test.py GDWIRE SESSIONS_DIR SCHEMA

For each committed session NAME (NAME.pcap, NAME.log, NAME.names.tsv):
  - every RPC a peer logged sending is in the capture: from, to, node path, method name, and its
    arguments, which gdwire writes again as a Godot 4 Array and which must equal the engine's own
    var_to_bytes of them (SHA-256); one to everyone is one message to each client; one relayed
    through the server is two (the leg to the server and the leg from it), marked relayed;
  - every RPC a peer logged receiving is a capture message to it from the peer the engine named;
  - nothing else: the capture's RPCs are exactly those (retransmits would be extra ones);
  - the spawn (its custom argument), each position and rotation the server set (in SYNC and delta
    SYNC states), the despawn and the RAW bytes;
  - no problem, exit status 0, and every JSON line valid under docs/gdwire.schema.json ("capture").
Then the capture made hostile, each with its messages and bounded memory: every reliable datagram
sent twice (retransmits: the output must not change), the file cut inside a record, frames cut by
a snapshot length, garbage UDP on the game port, forged fragment lengths and fragments that never
end (the open-fragment bytes stay under the cap); for a WebSocket session, every TCP data segment
sent twice, segments out of order, the cut file and the snapshot length.
"""
import hashlib
import json
import os
import re
import resource
import struct
import subprocess
import sys
import tempfile

import jsonschema

GDWIRE, SESSIONS, SCHEMA = sys.argv[1], sys.argv[2], sys.argv[3]
_schema = json.load(open(SCHEMA))
VALIDATOR = jsonschema.Draft202012Validator({"$ref": "#/$defs/capture", "$defs": _schema["$defs"]})
failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def capture(pcap, *args):
    p = subprocess.run([GDWIRE, "capture", "--json", *args, pcap], capture_output=True, text=True)
    out = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    return p.returncode, out, p.stderr


def encode_args(messages):
    """gdwire's own bytes of each RPC's arguments as an Array of the message's dialect (its flow's),
    one `gdwire encode` run a dialect."""
    out = [None] * len(messages)
    for dialect in sorted({m["dialect"] for m in messages}):
        idx = [i for i, m in enumerate(messages) if m["dialect"] == dialect]
        texts = ["[" + ", ".join(v["text"] for v in messages[i]["values"]) + "]" for i in idx]
        p = subprocess.run([GDWIRE, "encode", "-d", dialect, "--hex", "--lines", "-"], input="\n".join(texts) + "\n",
                           capture_output=True, text=True, check=True)
        lines = p.stdout.splitlines()
        assert len(lines) == len(idx), (len(lines), len(idx))
        for i, line in zip(idx, lines):
            out[i] = bytes.fromhex(line.replace(" ", ""))
    return out


def stream_session(name, pcap, log):
    """A plain-TCP session (stream4.gd, stream3.gd): every value a peer logged sending with put_var or through a
    PacketPeerStream is one `var` message of the capture, its bytes the engine's own var_to_bytes of it (SHA-256),
    and nothing else is; every value logged received is among them; the flows' dialect is the engines'."""
    rc, out, err = capture(pcap)
    msgs = [o for o in out if o["type"] == "message"]
    problems = [o for o in out if o["type"] == "problem"]
    check(rc == 0 and not problems, f"{name}: exit {rc}, {len(problems)} problems: {err[:300]}")
    bad = [(o, e.message) for o in out for e in VALIDATOR.iter_errors(o)]
    check(not bad, f"{name}: {len(bad)} JSON lines not valid under the schema, the first: {bad[:1]}")
    check(all(m["command"] == "var" and m["transport"] == "tcp" and len(m["values"]) == 1 for m in msgs),
          f"{name}: a message that is not one put_var value: {[m for m in msgs if m['command'] != 'var'][:1]}")
    engine = {e["engine"] for e in log if e["event"] == "start"}
    want_dialect = "godot4" if all(v.startswith("4.") for v in engine) else "godot3"
    summary = [o for o in out if o["type"] == "summary"][0]
    # the flows end in the engines' dialect; values before the first frame that tells the dialects apart are read in
    # the newest of those that read them alike (docs/capture.md)
    flows = {f["dialect"] for f in summary["flow_list"]}
    last = {m["flow"]: m["dialect"] for m in msgs}
    check(flows == {want_dialect} and set(last.values()) == {want_dialect}, f"{name}: flows read as {sorted(flows)}, the engines are {sorted(engine)}")
    # the values against the engine's own bytes of them: where the log has them (up to 2 KiB), as the values gdwire
    # reads from both (Godot 3's encoder leaves a NodePath's padding uninitialised: the bytes differ there); else by
    # the SHA-256 of the bytes
    sent = [e for e in log if e["event"] == "var_sent"]
    received = [e for e in log if e["event"] == "var_received"]
    small = [e for e in sent + received if "bytes" in e]
    for e, text in zip(small, decode_texts([e["bytes"] for e in small], want_dialect)):
        e["key"] = ("text", text)
    for e in sent + received:
        e.setdefault("key", ("sha256", e["sha256"]))
    got = sorted(("text", m["values"][0]["text"]) if m["size"] <= 2048 else ("sha256", hashlib.sha256(bytes.fromhex(m["values"][0]["hex"])).hexdigest())
                 for m in msgs)
    check(got == sorted(e["key"] for e in sent), f"{name}: {len(msgs)} values in the capture, {len(sent)} logged sent: not the same values")
    check(len(received) == len(sent) and {e["key"] for e in received} <= set(got), f"{name}: {len(received)} values logged received")
    framings = sorted({e["framing"] for e in sent})
    print(f"{name} ({want_dialect}): {len(sent)} values sent ({', '.join(framings)}), {len(received)} received: all found (as the values gdwire reads from the logged bytes, the large ones by SHA-256) in "
          f"{summary['messages']} messages of {summary['frames']} frames in {summary['flows']} flows (largest {max(m['size'] for m in msgs)} bytes)")
    return pcap, out


def session(name):
    pcap = os.path.join(SESSIONS, name + ".pcap")
    log = [json.loads(line) for line in open(os.path.join(SESSIONS, name + ".log"), encoding="utf-8")]
    if any(e["event"] == "start" and e.get("transport") == "tcp" for e in log):
        return stream_session(name, pcap, log)
    names = os.path.join(SESSIONS, name + ".names.tsv")  # Godot 4 only: Godot 3 sends the names
    rc, out, err = capture(pcap, *(["--names", names] if os.path.exists(names) else []))
    msgs = [o for o in out if o["type"] == "message"]
    problems = [o for o in out if o["type"] == "problem"]
    check(rc == 0 and not problems, f"{name}: exit {rc}, {len(problems)} problems: {err[:300]}")
    bad = [(o, e.message) for o in out for e in VALIDATOR.iter_errors(o)]
    check(not bad, f"{name}: {len(bad)} JSON lines not valid under the schema, the first: {bad[:1]}")
    rpcs = [m for m in msgs if m["command"] in ("rpc", "rset")]
    for m, b in zip(rpcs, encode_args(rpcs)):
        m["args_sha256"] = hashlib.sha256(b).hexdigest()
        m["args_text"] = "[" + ", ".join(v["text"] for v in m["values"]) + "]"
    dialect = rpcs[0]["dialect"] if rpcs else "godot4"
    # the engine's own bytes of small argument lists, read back by gdwire: Godot 3's encoder leaves the
    # padding of NodePath names uninitialised (tools/engines/engine_packets_test.sh), so where the log
    # has the bytes, the values are compared; the large ones, by the SHA-256 of gdwire's encoding
    logged = [e for e in log if "args" in e and e["event"] in ("rpc_sent", "rset_sent", "rpc_received")]
    for e, text in zip(logged, decode_texts([e["args"] for e in logged], dialect)):
        e["args_text"] = text

    def same_args(m, e):
        return m["args_text"] == e["args_text"] if "args_text" in e else m["args_sha256"] == e["args_sha256"]
    clients = sorted({e["peer"] for e in log if e["event"] == "peer_connected" and e["peer"] != 1})
    used = set()

    def find(pred):
        for i, m in enumerate(rpcs):
            if i not in used and pred(m):
                used.add(i)
                return m
        return None

    sent = [e for e in log if e["event"] in ("rpc_sent", "rset_sent")]
    legs = 0
    for e in sent:
        targets = [c for c in clients if c != e["from"]] + ([1] if e["from"] != 1 else []) if e["to"] == 0 else [e["to"]]
        for to in targets:
            relayed = e["from"] != 1 and to != 1
            for leg in range(2 if relayed else 1):
                legs += 1
                m = find(lambda m: m["from"] == e["from"] and m["to"] == to and m["relayed"] == relayed and m["path"] == e["path"]
                         and m["method"] == e["method"] and same_args(m, e))
                check(m is not None, f"{name}: sent {e['method']} {e.get('text', '(%d bytes)' % e['args_size'])[:80]} "
                                     f"from {e['from']} to {to}{' leg %d' % leg if relayed else ''}: not in the capture")
    check(len(used) == len(rpcs), f"{name}: {len(rpcs) - len(used)} RPCs in the capture that no peer logged sending")
    received = [e for e in log if e["event"] == "rpc_received"]
    for e in received:
        hit = [m for m in rpcs if m["from"] == e["from"] and m["to"] == e["by"] and m["method"] == e["method"] and same_args(m, e)]
        check(hit, f"{name}: {e['by']} received {e['method']} from {e['from']}: no such message in the capture")
    # replication: the spawn's argument, each value the server set, the despawn, RAW
    spawn = [e for e in log if e["event"] == "spawn"]
    spawns = [m for m in msgs if m["command"] == "spawn"]
    for e in spawn:
        want = decode_text(e["data"])
        hit = [m for m in spawns if m["values"] and m["values"][0]["label"] == "spawn_arg" and m["values"][0]["text"] == want
               and m["path"] == "Game/Spawner"]
        check(len(hit) == len(clients), f"{name}: spawn {want}: {len(hit)} SPAWN messages, want one to each of {len(clients)} clients")
    states = {}
    for m in msgs:
        if m["command"] in ("sync", "delta", "spawn"):
            for v in m["values"]:
                if v["label"] in ("state", "spawn_state"):
                    states.setdefault(m["command"], set()).add(v["text"])
    sets = [e for e in log if e["event"] == "set"]
    for e in sets:
        pos, rot = decode_text(e["position"]), decode_text(e["rotation"])
        check(pos in states.get("sync", set()), f"{name}: position {pos} set by the server: in no SYNC state")
        check(rot in states.get("delta", set()) | states.get("spawn", set()), f"{name}: rotation {rot}: in no delta SYNC state")
    despawns = [m for m in msgs if m["command"] == "despawn"]
    check(len(despawns) == len(clients) * sum(e["event"] == "despawn" for e in log), f"{name}: {len(despawns)} DESPAWN messages")
    for e in (e for e in log if e["event"] == "raw_sent"):
        check(any(m["command"] == "raw" and m["from"] == e["from"] and m.get("payload") == e["bytes"] for m in msgs),
              f"{name}: RAW {e['bytes']} from {e['from']}: not in the capture")
    big = [m for m in rpcs if m["size"] >= 65536]
    big_sent = sum(e["args_size"] >= 65536 for e in sent)
    check(big_sent >= 1 and len(big) >= big_sent, f"{name}: {len(big)} RPCs of 64 KiB or more in the capture, {big_sent} sent")
    summary = [o for o in out if o["type"] == "summary"][0]
    # the compression each engine says it set (its log's start events: Godot 3's compression_mode number, Godot 4's
    # ENetConnection.compress mode name; none logged: none), against what gdwire found on every side of every flow
    modes = ["none", "range_coder", "fastlz", "zlib", "zstd"]
    said = {modes[e["compression"]] if isinstance(e.get("compression"), int) else (e.get("compression") or "none")
            for e in log if e["event"] == "start"}
    found = {c for f in summary["flow_list"] for c in f["compression"]}
    want = said - {"none"}
    # (a side whose datagrams never shrank sent none compressed: ENet sends a compressed block only when smaller)
    check(len(said) == 1 and found - {"none"} == want and (summary["decompressed"] > 0) == bool(want),
          f"{name}: the engines set {sorted(said)}, gdwire found {sorted(found)} ({summary['decompressed']} datagrams decompressed)")
    print(f"{name} ({', '.join(sorted({m['dialect'] for m in msgs}))}, {summary['decompressed']} datagrams decompressed with {'/'.join(sorted(found))}): {len(sent)} RPCs sent ({legs} messages on the wire: broadcasts one a client, relays two legs), "
          f"{len(received)} received, {len(spawn)} spawn, {len(sets)} values set, {len(despawns)} despawns: all found in "
          f"{summary['messages']} messages of {summary['frames']} frames; {summary['fragmented_packets']} fragmented packets "
          f"(largest RPC {max(m['size'] for m in rpcs)} bytes)")
    return pcap, out


def decode_texts(hexes, dialect):
    """gdwire's text of each packet, one `gdwire decode --lines` run."""
    if not hexes:
        return []
    p = subprocess.run([GDWIRE, "decode", "-d", dialect, "--hex", "--lines", "-"], input="\n".join(hexes) + "\n",
                       capture_output=True, text=True, check=True)
    lines = [re.sub(r"^- line \d+: ", "", line) for line in p.stdout.splitlines()]
    assert len(lines) == len(hexes), (len(lines), len(hexes))
    return lines


def decode_text(hexs):
    p = subprocess.run([GDWIRE, "decode", "-d", "godot4", "--hex", "-"], input=hexs, capture_output=True, text=True, check=True)
    return p.stdout.strip()


# ---- pcap files, for the hostile variants ----------------------------------------------------------

def read_pcap(path):
    data = open(path, "rb").read()
    magic = data[:4]
    endian = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    header, recs, pos = data[:24], [], 24
    while pos + 16 <= len(data):
        sec, frac, caplen, wirelen = struct.unpack(endian + "IIII", data[pos:pos + 16])
        recs.append([sec, frac, data[pos + 16:pos + 16 + caplen], wirelen])
        pos += 16 + caplen
    return endian, header, recs


def write_pcap(path, endian, header, recs, cut_last=0):
    out = bytearray(header)
    for sec, frac, frame, wirelen in recs:
        out += struct.pack(endian + "IIII", sec, frac, len(frame), wirelen) + frame
    if cut_last:
        out = out[:-cut_last]
    open(path, "wb").write(out)


def udp_frame(template, payload):
    """A copy of an Ethernet/IPv4/UDP frame of the capture with another UDP payload."""
    f = bytearray(template[:42]) + payload
    struct.pack_into(">H", f, 16, 20 + 8 + len(payload))  # IPv4 total length
    struct.pack_into(">H", f, 24, 0)  # header checksum: not checked
    struct.pack_into(">H", f, 38, 8 + len(payload))  # UDP length
    return bytes(f)


def ip_fragments(frame, version, size):
    """An Ethernet/IPv4 frame of the capture as IP fragments of `size` bytes (a multiple of 8), the last first: IPv4
    with the frame's addresses, or IPv6 (addresses ::ffff:a.b.c.d, a fragment header after the fixed one). A frame
    whose IP payload fits in one stays whole (IPv4) or is one atomic fragment (IPv6)."""
    ihl = (frame[14] & 15) * 4
    ip, payload = frame[14:14 + ihl], frame[14 + ihl:14 + struct.unpack(">H", frame[16:18])[0]]
    ident = struct.unpack(">H", ip[4:6])[0] or 0x4242
    pieces = [(off, payload[off:off + size]) for off in range(0, len(payload), size)] or [(0, b"")]
    out = []
    for off, piece in pieces:
        more = off + len(piece) < len(payload)
        if version == 4:
            if len(pieces) == 1:
                return [frame]
            hdr = bytearray(ip[:20])
            struct.pack_into(">HHH", hdr, 2, 20 + len(piece), ident, (0x2000 if more else 0) | off // 8)
            out.append(frame[:12] + b"\x08\x00" + bytes(hdr) + piece)
        else:
            mapped = lambda a: b"\x00" * 10 + b"\xff\xff" + a  # noqa: E731
            fragment = struct.pack(">BBHI", ip[9], 0, off | (1 if more else 0), ident)
            hdr = struct.pack(">IHBB", 6 << 28, 8 + len(piece), 44, 64) + mapped(ip[12:16]) + mapped(ip[16:20])
            out.append(frame[:12] + b"\x86\xdd" + hdr + fragment + piece)
    return out[::-1]


def enet_fragment(total, count, number, start, data, reliable=True, seq=1):
    """An ENet datagram: header (peer 0, no sent time) and one SEND_FRAGMENT (8) or
    SEND_UNRELIABLE_FRAGMENT (12) command, big-endian (protocol.h)."""
    cmd = (8 | 0x80) if reliable else 12
    return struct.pack(">HBBHHHIIII", 0, cmd, 0, seq, start, len(data), count, number, total, number * len(data)) + data


def all_reliable(udp):
    """An ENet datagram with data, every command of which is sent reliably (ACKNOWLEDGE flag)."""
    sizes = {1: 8, 2: 48, 3: 44, 4: 8, 5: 4, 6: 6, 7: 8, 8: 24, 9: 8, 10: 12, 11: 16, 12: 24}
    if len(udp) < 4 or udp[0] & 0x40:
        return False
    pos, data = (4 if udp[0] & 0x80 else 2), False
    while pos + 4 <= len(udp):
        kind = udp[pos] & 15
        if kind not in sizes:
            return False
        n = sizes[kind]
        extra = struct.unpack(">H", udp[pos + 4:pos + 6])[0] if kind == 6 else struct.unpack(">H", udp[pos + 6:pos + 8])[0] if kind in (7, 8, 9, 12) else 0
        if kind in (6, 7, 8, 9, 12):
            data = True
            if not udp[pos] & 0x80:
                return False
        pos += n + extra
    return data


def names_args(name):
    names = os.path.join(SESSIONS, name + ".names.tsv")
    return ["--names", names] if os.path.exists(names) else []


def hostile_tcp(name, recs, endian, header, want, clean_n):
    """A WebSocket session's capture made hostile: TCP retransmits, segments out of order, a cut file,
    a snapshot length."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "h.pcap")
        data = [r for r in recs if len(r[2]) > 14 + 20 + ((r[2][46] >> 4) * 4)]
        twice = []
        for r in recs:
            twice.append(r)
            if r in data:
                twice.append(list(r))
        write_pcap(path, endian, header, twice)
        rc, out, err = capture(path, *names_args(name))
        msgs = [json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message"]
        summ = [o for o in out if o["type"] == "summary"][0]
        check(rc == 0 and msgs == want, f"{name}: every data segment sent twice: exit {rc}, the messages changed")
        print(f"{name}: {len(data)} TCP data segments sent twice: {summ['retransmits']} dropped, the {len(msgs)} messages unchanged")
        swapped = list(recs)
        n_swapped = 0
        for i in range(1, len(swapped) - 1, 9):  # a segment and the next one, delivered the other way round
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            n_swapped += 1
        write_pcap(path, endian, header, swapped)
        rc, out, err = capture(path, *names_args(name))
        msgs = sorted(json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message")
        check(rc == 0 and msgs == sorted(want), f"{name}: {n_swapped} pairs of segments out of order: exit {rc}, {len(msgs)} messages")
        print(f"{name}: {n_swapped} pairs of segments out of order: the {len(msgs)} messages unchanged")
        # every run of 40 segments delivered last first, after the last SYN (no host sends data on a connection before
        # its handshake: a flow starts at its SYN, and a plain-TCP flow cannot be found in the middle of its stream)
        syn = [i for i, r in enumerate(recs) if r[2][14 + (r[2][14] & 15) * 4 + 13] & 2]
        first = max(40, syn[-1] + 1 if syn else 0)
        backwards = list(recs[:first])
        for i in range(first, len(recs), 40):
            backwards += recs[i:i + 40][::-1]
        write_pcap(path, endian, header, backwards)
        rc, out, err = capture(path, *names_args(name))
        msgs = sorted(json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message")
        check(rc == 0 and msgs == sorted(want), f"{name}: runs of 40 segments backwards: exit {rc}, {len(msgs)} messages")
        print(f"{name}: every run of 40 segments delivered backwards: the {len(msgs)} messages unchanged")
        write_pcap(path, endian, header, recs, cut_last=10)
        rc, out, err = capture(path)
        n = sum(o["type"] == "message" for o in out)
        check(rc == 1 and "truncated" in err and n >= clean_n - 2, f"{name}: a file cut inside a record: exit {rc}, {n} messages")
        print(f"{name}: cut inside its last record: {n} of {clean_n} messages, and: {err.strip().splitlines()[-1]}")
        cut = [[s, f, fr[:200], w] for s, f, fr, w in recs]
        write_pcap(path, endian, header, cut)
        rc, out, err = capture(path)
        probs = [o for o in out if o["type"] == "problem"]
        check(not [e for o in out for e in VALIDATOR.iter_errors(o)], f"{name}: snaplen 200: JSON lines not valid under the schema")
        check(rc == 1 and probs and all(p["layer"] == "tcp" for p in probs), f"{name}: snaplen 200: exit {rc}, problems {probs[:2]}")
        print(f"{name}: snapshot length 200: {sum(o['type'] == 'message' for o in out)} messages, {len(probs)} problems, e.g. "
              f"{probs[0]['message'] if probs else ''}")


def mid_session(name, recs, endian, header, clean):
    """A compressed session read from the middle (every 13th frame on): each side's compression is found again, with
    no problem of compression or of made-up commands; and a forged compressed datagram of random bytes at the start
    of each flow side does not blind it (a side locked onto a wrong compression unlocks)."""
    summary = [o for o in clean if o["type"] == "summary"][0]
    want = {c for f in summary["flow_list"] for c in f["compression"]} - {"none"}
    if not want:
        return
    import random
    rng = random.Random(57)
    odd, starts = [], list(range(5, len(recs) - 20, 13))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.pcap")
        for start in starts:
            write_pcap(path, endian, header, recs[start:])
            rc, out, err = capture(path)
            summ = [o for o in out if o["type"] == "summary"][0]
            found = {c for f in summ["flow_list"] for c in f["compression"]} - {"none"}
            bad = [o["message"] for o in out if o["type"] == "problem" and ("compress" in o["message"] or "not a command" in o["message"])]
            if bad or not (found == want if summ["decompressed"] else not found):  # (late in a session, none may be compressed)
                odd.append((start, sorted(found), bad[:1]))
        check(not odd, f"{name}: read from {len(odd)} of {len(starts)} places in its middle, a compression other than {sorted(want)} or a problem: {odd[:2]}")
        # a forged datagram (the compressed flag, then 200 random bytes) before each of the first 40 frames' senders speak
        forged = []
        for r in recs[:40]:
            frame = udp_frame(r[2], bytes([0x40, 0x00]) + bytes(rng.randrange(256) for _ in range(200)))
            forged.append([r[0], r[1], frame, len(frame)])
        mixed = [x for pair in zip(forged, recs[:40]) for x in pair] + recs[40:]
        write_pcap(path, endian, header, mixed)
        rc, out, err = capture(path)
        found = {c for o in out if o["type"] == "summary" for f in o["flow_list"] for c in f["compression"]} - {"none"}
        n = sum(o["type"] == "message" for o in out)
        clean_n = sum(o["type"] == "message" for o in clean)
        check(found == want and n >= clean_n * 9 // 10, f"{name}: 40 forged compressed datagrams first: found {sorted(found)}, {n} of {clean_n} messages")
    print(f"{name}: read from {len(starts)} places in its middle, {sorted(want)} found wherever a datagram was compressed ({len(odd)} otherwise); 40 forged compressed "
          f"datagrams among its first frames: {sorted(found)} found, {n} messages (clean: {clean_n})")


def hostile(name, pcap, clean):
    endian, header, recs = read_pcap(pcap)
    if recs and recs[0][2][23] == 6:  # TCP: a WebSocket or put_var session
        clean_msgs = [json.dumps({k: v for k, v in o.items() if k not in ("args_sha256", "args_text")}, sort_keys=True) for o in clean if o["type"] == "message"]
        want = [json.dumps(dict(json.loads(m), frame=0, time=0), sort_keys=True) for m in clean_msgs]
        hostile_tcp(name, recs, endian, header, want, len(clean_msgs))
        return
    mid_session(name, recs, endian, header, clean)
    clean_msgs = [json.dumps({k: v for k, v in o.items() if k not in ("args_sha256", "args_text")}, sort_keys=True) for o in clean if o["type"] == "message"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "h.pcap")
        # every datagram whose data all travels reliably, sent again, as ENet resends one whose
        # acknowledgement is late (unreliable data is never resent): the messages must not change
        twice = []
        for r in recs:
            twice.append(r)
            if all_reliable(r[2][42:]):
                twice.append(list(r))
        write_pcap(path, endian, header, twice)
        rc, out, err = capture(path, *names_args(name))
        msgs = [json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message"]
        want = [json.dumps(dict(json.loads(m), frame=0, time=0), sort_keys=True) for m in clean_msgs]
        summ = [o for o in out if o["type"] == "summary"][0]
        check(rc == 0 and msgs == want, f"{name}: {len(twice) - len(recs)} reliable datagrams sent twice: the messages changed")
        print(f"{name}: {len(twice) - len(recs)} reliable datagrams sent twice: {summ['retransmits']} retransmits dropped, "
              f"the {len(msgs)} messages unchanged")
        # the same frames as raw IP (LINKTYPE_RAW, 101: libpcap hands it over as DLT_RAW, 12)
        raw_header = header[:20] + struct.pack(endian + "I", 101)
        write_pcap(path, endian, raw_header, [[s, f, fr[14:], w - 14] for s, f, fr, w in recs])
        rc, out, err = capture(path, *names_args(name))
        msgs = [json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message"]
        check(rc == 0 and msgs == want, f"{name}: as raw IP (LINKTYPE_RAW): exit {rc}, {len(msgs)} messages of {len(want)}: {err[:200]}")
        print(f"{name}: as raw IP (LINKTYPE_RAW): the {len(msgs)} messages unchanged")
        # every datagram in IP fragments of 96 bytes, last first: IPv4, then the same frames as IPv6 (a fragment
        # header after the fixed one), each datagram put back together before UDP
        for version in (4, 6):
            frags = [[s, f, fr, len(fr)] for s, f, fr, w in recs for fr in ip_fragments(fr, version, 96)]
            write_pcap(path, endian, header, frags)
            rc, out, err = capture(path, *names_args(name))
            msgs = [json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message"]
            check(rc == 0 and msgs == want, f"{name}: in IPv{version} fragments: exit {rc}, {len(msgs)} messages of {len(want)}: {err[:200]}")
            print(f"{name}: every datagram in IPv{version} fragments of 96 bytes, last first ({len(frags)} frames for {len(recs)}): "
                  f"the {len(msgs)} messages unchanged")
        # the file cut inside its last record
        write_pcap(path, endian, header, recs, cut_last=10)
        rc, out, err = capture(path)
        n = sum(o["type"] == "message" for o in out)
        check(rc == 1 and "truncated" in err and n >= len(clean_msgs) - 2,
              f"{name}: a file cut inside a record: exit {rc}, {n} messages, stderr {err[:200]}")
        print(f"{name}: cut inside its last record: {n} of {len(clean_msgs)} messages, and: {err.strip().splitlines()[-1]}")
        # frames cut by a snapshot length of 200 bytes
        cut = [[s, f, fr[:200], w] for s, f, fr, w in recs]
        write_pcap(path, endian, header, cut)
        rc, out, err = capture(path)
        probs = [o for o in out if o["type"] == "problem"]
        check(not [e for o in out for e in VALIDATOR.iter_errors(o)], f"{name}: snaplen 200: JSON lines not valid under the schema")
        check(rc == 1 and probs and all("snapshot length" in p["message"] or p["layer"] == "enet" for p in probs),
              f"{name}: snaplen 200: exit {rc}, problems {probs[:2]}")
        print(f"{name}: snapshot length 200: {sum(o['type'] == 'message' for o in out)} messages, {len(probs)} problems, e.g. "
              f"{probs[0]['message'] if probs else ''}")
        # garbage UDP on the game port, between the real frames; forged fragments; endless fragments
        template = recs[0][2]
        garbage, forged = [], []
        for i, r in enumerate(recs):
            garbage.append(r)
            if i % 10 == 5:
                junk = hashlib.sha256(b"%d" % i).digest() * (1 + i % 7)
                garbage.append([r[0], r[1], udp_frame(template, junk), 42 + len(junk)])
        write_pcap(path, endian, header, garbage)
        rc, out, err = capture(path, *names_args(name))
        msgs = [json.dumps(dict(o, frame=0, time=0), sort_keys=True) for o in out if o["type"] == "message"]
        probs = [o for o in out if o["type"] == "problem"]
        check(rc == 1 and msgs == want and len(probs) >= 1, f"{name}: garbage UDP: exit {rc}, {len(msgs)} messages, {len(probs)} problems")
        print(f"{name}: {len(garbage) - len(recs)} garbage datagrams on the game port: {len(probs)} problems, "
              f"the {len(msgs)} messages unchanged")
        s, f = recs[-1][0], recs[-1][1]
        for k in range(2000):  # 2,000 packets of 30 MiB, 1,024 parts each, one part sent: they never end
            forged.append([s, f, udp_frame(template, enet_fragment(30 << 20, 1024, 0, k, b"x" * 64, seq=k + 1)), 0])
        forged.append([s, f, udp_frame(template, enet_fragment(0xFFFFFFFF, 0xFFFFFFFF, 0, 9000, b"y" * 16, seq=3000)), 0])
        forged.append([s, f, udp_frame(template, enet_fragment(1 << 30, 1 << 20, 7, 9001, b"z" * 16, reliable=False)), 0])
        for fr in forged:
            fr[3] = len(fr[2])
        write_pcap(path, endian, header, recs + forged)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rc, out, err = capture(path, "--max-fragment-bytes", "64M")
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        summ = [o for o in out if o["type"] == "summary"][0]
        probs = [o for o in out if o["type"] == "problem"]
        check(rc == 1 and summ["peak_fragment_bytes"] <= 64 << 20 and summ["messages"] == len(clean_msgs),
              f"{name}: forged fragments: exit {rc}, peak {summ['peak_fragment_bytes']}, {summ['messages']} messages")
        check(any("never completed" in p["message"] for p in probs) and any("cannot be" in p["message"] or "over the limit" in p["message"] for p in probs),
              f"{name}: forged fragments: the problems do not say what happened")
        print(f"{name}: 2,002 forged or endless fragments (30 MiB to 4 GiB each claimed): {len(probs)} problems, open fragments at most "
              f"{summ['peak_fragment_bytes']:,} bytes (cap 64 MiB), the process's peak RSS {max(rss, before) // 1024} MiB, "
              f"the {summ['messages']} real messages kept")


def check_flag(name, pcap):
    """--check on every value of a session: a Variant is ranked, and SceneMultiplayer's compact bools and ints (and an
    RPC's bare bytes) are said to be what they are, not "0 of 13 dialects read it" (issue 56)"""
    rc, out, err = capture(pcap, "--check")
    values = [v for m in out if m.get("type") == "message" for v in m.get("values", []) if "check" in v]
    check(rc == 0 and values, f"{name} --check: exit {rc}, {len(values)} values checked: {err[:200]}")
    unread = [v["check"] for v in values if " 0 of " in v["check"]]
    check(not unread, f"{name} --check: {len(unread)} values read by no dialect: {unread[:2]}")
    compact = [v for v in values if v["check"].startswith("not a Variant: SceneMultiplayer's compact ")]
    check(all(re.fullmatch(r"-?[0-9]+|true|false", v["text"]) for v in compact),
          f"{name} --check: a compact value that is not a bool or an int: {compact[:1]}")
    return len(compact)


names = sorted(f[:-5] for f in os.listdir(SESSIONS) if f.endswith(".pcap"))
check(names, "no sessions in " + SESSIONS)
compact = 0
for n in names:
    pcap, out = session(n)
    hostile(n, pcap, out)
    compact += check_flag(n, pcap)
check(compact > 0, "--check: no compact bool or int in any session")
print(f"{checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)

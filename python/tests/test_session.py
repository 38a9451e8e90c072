# SPDX-License-Identifier: MIT
"""gdwire.Session against the command: every committed real session (conformance/sessions/*.pcap, recorded from
Godot 4.6.3, 3.6.2 and 3.2.3) fed frame by frame to gdwire.Session gives, event by event and field by field, what
`gdwire capture --json` prints for the same file (GDWIRE_CLI: the command run.sh is given): the same messages with
the same fields, each value the Python value of the command's JSON form of it (gdwire.from_json), each error the
same, the same problems, the same stats and flows. The command loads libenet for the range coder, so the sessions
are read with range_coder=True.

A second path: each Variant of every session is the value gdwire.decode gives for its bytes, in compatible and in
strict mode. Then UDP payloads fed with Session.udp (IPv4 and IPv6) give the messages frames give; the sessions
made hostile (frames cut by a snapshot length, garbage datagrams, forged fragments of up to 4 GiB, random frames)
raise nothing and give the command's problems; an exception raised while an event is built comes out of the feed
and the session goes on; and a long loop of feeds does not grow the process."""
from __future__ import annotations

import glob
import hashlib
import inspect
import io
import json
import math
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile
import unittest
from typing import Any, Dict, List, Optional, Sequence, Tuple

import gdwire
from gdwire import _gdwire

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SESSIONS = sorted(glob.glob(os.path.join(ROOT, "conformance", "sessions", "*.pcap")))

Record = Tuple[int, int, bytes, int]  # seconds, microseconds, the frame's captured bytes, its length on the wire


def say(text: str) -> None:
    """A figure, on a line of its own (run.sh hides unittest's lines starting with test_)."""
    print("\n" + text, file=sys.stderr)


def read_pcap(path: str) -> Tuple[bytes, int, List[Record]]:
    """A classic pcap file, as the committed ones are (little-endian, microseconds): its header, link type, records."""
    with open(path, "rb") as f:
        data = f.read()
    magic, _, _, _, _, _, link = struct.unpack("<IHHiIII", data[:24])
    assert magic == 0xA1B2C3D4, f"{path}: not a little-endian microsecond pcap file"
    recs: List[Record] = []
    pos = 24
    while pos + 16 <= len(data):
        sec, usec, caplen, wirelen = struct.unpack("<IIII", data[pos:pos + 16])
        recs.append((sec, usec, data[pos + 16:pos + 16 + caplen], wirelen))
        pos += 16 + caplen
    return data[:24], link, recs


def write_pcap(path: str, header: bytes, recs: Sequence[Record]) -> None:
    with open(path, "wb") as f:
        f.write(header)
        for sec, usec, frame, wirelen in recs:
            f.write(struct.pack("<IIII", sec, usec, len(frame), wirelen) + frame)


def cli() -> str:
    path = os.environ.get("GDWIRE_CLI") or os.path.join(ROOT, "bazel-bin", "cli", "gdwire")
    if not os.access(path, os.X_OK):
        raise unittest.SkipTest("the gdwire command is not there (GDWIRE_CLI: run.sh gives it)")
    return path


def capture_json(path: str, *args: str) -> List[Dict[str, Any]]:
    p = subprocess.run([cli(), "capture", "--json", *args, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert p.returncode in (0, 1), p.stderr.decode(errors="replace")
    out: List[Dict[str, Any]] = [json.loads(line) for line in p.stdout.decode().splitlines() if line.strip()]
    return out


def feed(session: gdwire.Session, link: int, recs: Sequence[Record]) -> List[gdwire.Event]:
    events: List[gdwire.Event] = []
    for sec, usec, frame, wirelen in recs:
        events += session.frame(frame, link=link, time=sec + usec / 1e6, wirelen=wirelen)
    events += session.finish()
    return events


def same(a: Any, b: Any) -> bool:
    """The same Python value: types too, a float's bits, containers item by item and in order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, (list, tuple)) and type(a) in (list, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    return bool(a == b) and repr(a) == repr(b)


# The command's JSON members of each command, as the Message's fields (None where a command has none)
FIELDS = ("node_id", "inline_path", "method_id", "method", "md5", "checksum_valid", "net_id", "scene_id", "name",
          "sync_time", "peer", "payload")


def expected_fields(o: Dict[str, Any]) -> Dict[str, Any]:
    """The command's fields a message of `gdwire capture --json` (cli/capture.c, print_json) says."""
    want: Dict[str, Any] = dict.fromkeys(FIELDS)
    c = o["command"]
    if c in ("rpc", "rset"):
        want.update(node_id=o["node_id"] if o["node_id"] >= 0 else None, inline_path=o["path"] if o["inline_path"] else None,
                    method_id=o["method_id"] if o["method_id"] >= 0 else None, method=o["method"])
    elif c == "simplify_path":
        want.update(node_id=o["node_id"], inline_path=o["path"], md5=o["md5"])
    elif c == "confirm_path" and "confirmed_path" in o:
        want.update(inline_path=o["confirmed_path"])
    elif c == "confirm_path":
        want.update(node_id=o["node_id"], checksum_valid=o["checksum_valid"])
    elif c == "spawn":
        want.update(node_id=o["node_id"], net_id=o["net_id"], scene_id=o["scene_id"], name=o["name"])
    elif c == "despawn":
        want.update(net_id=o["net_id"])
    elif c == "sync":
        want.update(sync_time=o["sync_time"])
    elif c in ("add_peer", "del_peer"):
        want.update(peer=o["peer"])
    if c in ("raw", "auth"):
        want.update(payload=bytes.fromhex(o["payload"]))
    return want


def compare(test: unittest.TestCase, what: str, events: List[gdwire.Event], out: List[Dict[str, Any]], t0: float) -> Tuple[int, int, int]:
    """events against the command's lines (messages and problems, in order): (messages, values, problems) compared."""
    lines = [o for o in out if o["type"] in ("message", "problem")]
    test.assertEqual(len(events), len(lines), f"{what}: {len(events)} events, the command {len(lines)}")
    n_values = n_problems = 0
    for i, (e, o) in enumerate(zip(events, lines)):
        where = f"{what}, event {i} (frame {o['frame']})"
        if o["type"] == "problem":
            test.assertIsInstance(e, gdwire.Problem, where)
            assert isinstance(e, gdwire.Problem)
            test.assertEqual((e.frame, e.flow, e.layer, e.offset, e.message), (o["frame"], o["flow"], o["layer"], o["offset"], o["message"]), where)
            n_problems += 1
            continue
        test.assertIsInstance(e, gdwire.Message, where)
        assert isinstance(e, gdwire.Message)
        got = (e.frame, e.flow, e.transport, e.dialect, e.from_peer, e.to_peer, e.relayed, e.channel, e.mode, e.command,
               e.size, e.path)
        test.assertEqual(got, (o["frame"], o["flow"], o["transport"], o["dialect"], o["from"], o["to"], o["relayed"], o["channel"],
                               o["mode"], o["command"], o["size"], o["path"]), where)
        test.assertLessEqual(abs(e.time - t0 - o["time"]), 1e-6, where)
        test.assertEqual({k: getattr(e, k) for k in FIELDS}, expected_fields(o), where)
        test.assertEqual(len(e.values), len(o["values"]), where)
        for v, ov in zip(e.values, o["values"]):
            at = f"{where}, {ov['label']} {ov['index']}"
            test.assertEqual((v.label, v.index, v.offset, v.length), (ov["label"], ov["index"], ov["offset"], ov["length"]), at)
            test.assertEqual((v.net_id, v.indexes), (ov.get("net_id"), ov.get("indexes")), at)
            test.assertEqual(e.value_bytes(v).hex(), ov["hex"], at)
            if "value" in ov:
                test.assertTrue(v.ok, at)
                want = gdwire.from_json(ov["value"])
                test.assertTrue(same(v.value, want), f"{at}: {v.value!r} != the command's {want!r}")
            else:
                err, oe = v.error, ov["error"]
                assert err is not None, at
                test.assertEqual((err.code, err.offset, err.value_offset, err.path, err.message),
                                 (oe["code"], oe["offset"], oe["value_offset"], oe["path"], oe["message"]), at)
                test.assertEqual(err.engine_error, oe["engine_error"] or "NONE", at)
            n_values += 1
    return sum(o["type"] == "message" for o in lines), n_values, n_problems


def compare_summary(test: unittest.TestCase, what: str, s: gdwire.Session, out: List[Dict[str, Any]]) -> None:
    summ = [o for o in out if o["type"] == "summary"][0]
    st = s.stats
    got = {"frames": st.frames, "udp_datagrams": st.udp_datagrams, "enet_datagrams": st.enet_datagrams, "tcp_segments": st.tcp_segments,
           "flows": st.flows, "messages": st.messages, "message_bytes": st.message_bytes, "retransmits": st.retransmits,
           "fragmented_packets": st.fragments_completed, "fragments_dropped": st.fragments_dropped,
           "peak_fragment_bytes": st.peak_fragment_bytes, "peak_held_bytes": st.peak_held_bytes, "states_dropped": st.states_dropped,
           "decompressed": st.decompressed, "problems": st.problems, "commands": st.by_command}
    test.assertEqual(got, {k: summ[k] for k in got}, what)
    flows = [{"flow": f.number, "endpoints": f.endpoints, "dialect": f.dialect, "compression": list(f.compression)} for f in s.flows]
    test.assertEqual(flows, summ["flow_list"], what)


def udp_of(frame: bytes) -> Optional[Tuple[Tuple[str, int], Tuple[str, int], bytes]]:
    """An Ethernet/IPv4/UDP frame's endpoints and payload (None for another frame)."""
    if len(frame) < 14 + 20 or frame[12:14] != b"\x08\x00" or frame[14] >> 4 != 4 or frame[23] != 17:
        return None
    ihl = (frame[14] & 15) * 4
    total = struct.unpack(">H", frame[16:18])[0]
    u = 14 + ihl
    sport, dport, ulen = struct.unpack(">HHH", frame[u:u + 6])
    assert ulen == total - ihl, "a UDP datagram of another length than its IP packet"
    src = ".".join(str(b) for b in frame[26:30])
    dst = ".".join(str(b) for b in frame[30:34])
    return (src, sport), (dst, dport), frame[u + 8:u + ulen]


def udp_frame(template: bytes, payload: bytes) -> bytes:
    """A copy of an Ethernet/IPv4/UDP frame of the capture with another UDP payload."""
    f = bytearray(template[:42]) + payload
    struct.pack_into(">H", f, 16, 20 + 8 + len(payload))
    struct.pack_into(">H", f, 24, 0)
    struct.pack_into(">H", f, 38, 8 + len(payload))
    return bytes(f)


def enet_fragment(total: int, count: int, number: int, start: int, data: bytes, reliable: bool = True, seq: int = 1) -> bytes:
    """An ENet datagram (protocol.h, big-endian): a header without sent time, one SEND_FRAGMENT (8) or
    SEND_UNRELIABLE_FRAGMENT (12)."""
    cmd = (8 | 0x80) if reliable else 12
    return struct.pack(">HBBHHHIIII", 0, cmd, 0, seq, start, len(data), count, number, total, number * len(data)) + data


def set_types(from_json_text: Any = None, math_types: Optional[Dict[str, type]] = None) -> None:
    """The extension's hooks into _values.py, some replaced (to make events raise); no arguments: the package's."""
    _gdwire._set_types(gdwire.StringName, gdwire.RawString, gdwire.RawStringName, gdwire.PackedStringArray, gdwire.Dictionary,
                       from_json_text or gdwire._from_json_text, gdwire._to_json_text, math_types or gdwire.MATH_TYPES,
                       gdwire.PACKED_TYPES)


class Unmakeable:
    """A class the extension cannot make a math value of (no attribute can be set): each Vector2 raises."""
    __slots__ = ()


def name_of(path: str) -> str:
    return os.path.basename(path)[:-len(".pcap")]


class AgainstTheCommand(unittest.TestCase):
    def test_sessions(self) -> None:
        """every committed session: every message, value, problem, the stats and the flows, as the command's"""
        self.assertGreaterEqual(len(SESSIONS), 10)
        total = [0, 0, 0]
        figures = []
        for path in SESSIONS:
            header, link, recs = read_pcap(path)
            out = capture_json(path)
            s = gdwire.Session(range_coder=True)
            events = feed(s, link, recs)
            got = compare(self, name_of(path), events, out, recs[0][0] + recs[0][1] / 1e6)
            compare_summary(self, name_of(path), s, out)
            coders = sorted({c for f in s.flows for c in f.compression} - {"none"})
            figures.append(f"{name_of(path)} {got[0]} messages, {got[1]} values" + (f" ({', '.join(coders)})" if coders else ""))
            total = [a + b for a, b in zip(total, got)]
        say(f"gdwire.Session = gdwire capture --json on {len(SESSIONS)} sessions, with libenet's range coder: {total[0]} messages, "
            f"{total[1]} values, {total[2]} problems, field by field: " + "; ".join(figures))

    def test_dialect_given(self) -> None:
        """a dialect given (-d) reads as the command reads with it"""
        for name, dialect in (("godot4.6-enet", "godot4"), ("godot3.2-enet", "godot3@3.2"), ("godot4.6-ws", "godot4.3")):
            path = os.path.join(ROOT, "conformance", "sessions", name + ".pcap")
            _, link, recs = read_pcap(path)
            s = gdwire.Session(dialect, range_coder=True)
            n = compare(self, f"{name} -d {dialect}", feed(s, link, recs), capture_json(path, "-d", dialect), recs[0][0] + recs[0][1] / 1e6)
            compare_summary(self, name, s, capture_json(path, "-d", dialect))
            self.assertGreater(n[0], 50)

    def test_hostile(self) -> None:
        """sessions made hostile: the same events as the command's, problems included, and no exception"""
        figures = []
        for name in ("godot4.6-enet", "godot3.2-enet", "godot4.6-ws"):
            header, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", name + ".pcap"))
            variants: Dict[str, List[Record]] = {"snapshot length 200": [(s, u, f[:200], w) for s, u, f, w in recs]}
            rng = random.Random(57)
            variants["cut at random"] = [(s, u, f[:rng.randrange(len(f) + 1)], w) for s, u, f, w in recs]
            if udp_of(recs[0][2]) is not None:
                garbage: List[Record] = []
                for i, r in enumerate(recs):
                    garbage.append(r)
                    if i % 10 == 5:
                        junk = hashlib.sha256(b"%d" % i).digest() * (1 + i % 7)
                        garbage.append((r[0], r[1], udp_frame(recs[0][2], junk), 42 + len(junk)))
                variants["garbage datagrams"] = garbage
                s, u = recs[-1][0], recs[-1][1]
                forged = [udp_frame(recs[0][2], enet_fragment(30 << 20, 1024, 0, k, b"x" * 64, seq=k + 1)) for k in range(300)]
                forged.append(udp_frame(recs[0][2], enet_fragment(0xFFFFFFFF, 0xFFFFFFFF, 0, 9000, b"y" * 16, seq=3000)))
                forged.append(udp_frame(recs[0][2], enet_fragment(1 << 30, 1 << 20, 7, 9001, b"z" * 16, reliable=False)))
                variants["forged fragments"] = list(recs) + [(s, u, f, len(f)) for f in forged]
                # the first Variant of each message whose packet lies whole in one frame, its type made one no
                # dialect has: the value's error, the rest of the message as it was
                broken = [r[2] for r in recs]
                clean = feed(gdwire.Session(), link, recs)
                n_broken = 0
                for e in clean:
                    if isinstance(e, gdwire.Message) and e.values and e.values[0].encoding == "Variant":
                        frame = bytearray(broken[e.frame - 1])
                        at = bytes(frame).find(e.data)
                        if at > 0:
                            frame[at + e.values[0].offset] = 0x7E
                            broken[e.frame - 1] = bytes(frame)
                            n_broken += 1
                self.assertGreater(n_broken, 10)
                variants["values made unreadable"] = [(s, u, f, w) for (s, u, _, w), f in zip(recs, broken)]
            variants["random frames"] = [(s, u, bytes(rng.getrandbits(8) for _ in range(rng.randrange(120))), 200) for s, u, _, _ in recs[:300]]
            with tempfile.TemporaryDirectory() as tmp:
                for what, v in variants.items():
                    p = os.path.join(tmp, "h.pcap")
                    write_pcap(p, header, v)
                    out = capture_json(p)
                    sess = gdwire.Session(range_coder=True)
                    events = feed(sess, link, v)
                    n = compare(self, f"{name}, {what}", events, out, v[0][0] + v[0][1] / 1e6)
                    compare_summary(self, f"{name}, {what}", sess, out)
                    if what == "values made unreadable":
                        errors = sum(not v.ok for e in events if isinstance(e, gdwire.Message) for v in e.values)
                        self.assertGreater(errors, 10)
                        what += f" ({errors} value errors)"
                    elif what != "cut at random":
                        self.assertGreater(n[2], 0, f"{name}, {what}: no problem")
                    figures.append(f"{name} {what}: {n[0]} messages, {n[2]} problems")
        say("hostile sessions, as the command reads them: " + "; ".join(figures))


PROJECTS = os.path.join(ROOT, "conformance", "projects")
# (the project or manifest, the session): typed calls of every Variant type under Godot 4.6.3 and 3.6.2; the mismatch
# pair read with each side's project and with the addon's dump of one side
PROJECT_RUNS = (("typed4", "out/typed4"), ("typed3", "out/typed3"), ("mismatch_a", "out/mismatch_a-b"),
                ("mismatch_b", "out/mismatch_a-b"), ("out/mismatch_a-b.client.manifest.json", "out/mismatch_a-b"))


class Project(unittest.TestCase):
    def test_project_is_the_command_s(self) -> None:
        """Session(project=...) names each RPC, flags the calls the engine refuses and marks another build's MD5 as
        `gdwire capture --project --json` does, message for message (a folder, a manifest file, the manifest's text)"""
        counts = [0, 0, 0, 0]
        for project, run in PROJECT_RUNS:
            where, pcap = os.path.join(PROJECTS, project), os.path.join(PROJECTS, run + ".pcap")
            want = [o for o in capture_json(pcap, "--project", where) if o.get("type") == "message"]
            header, link, recs = read_pcap(pcap)
            sources: List[str] = [where]
            if where.endswith(".json"):
                with open(where, encoding="utf-8") as f:
                    sources.append(f.read())
            for source in sources:
                got = [e for e in feed(gdwire.Session(range_coder=True, project=source), link, recs) if isinstance(e, gdwire.Message)]
                self.assertEqual(len(got), len(want), f"{project} on {run}")
                for g, o in zip(got, want):
                    label = f"{project} on {run}, frame {o['frame']} {o['command']}"
                    self.assertEqual(g.method, o.get("method"), label)
                    self.assertEqual(g.args_fit, o.get("args_fit"), label)
                    self.assertEqual(g.refused, o.get("refused"), label)
                    self.assertEqual(g.project_md5, o.get("project_md5"), label)
                    counts[0] += 1
                    counts[1] += g.method is not None and g.command == "rpc"
                    counts[2] += g.args_fit is False
                    counts[3] += g.project_md5 is not None
        self.assertGreater(counts[2], 0)
        self.assertGreater(counts[3], 0)
        say(f"gdwire.Session(project=...) = gdwire capture --project --json on {len(PROJECT_RUNS)} runs: {counts[0]} messages, "
            f"{counts[1]} RPCs named, {counts[2]} refused calls, {counts[3]} other-build MD5s, field by field")

    def test_bad_project(self) -> None:
        with self.assertRaises(ValueError):
            gdwire.Session(project="{not json")
        with self.assertRaises(OSError):
            gdwire.Session(project=os.path.join(PROJECTS, "no such manifest.json"))


class CaptureFiles(unittest.TestCase):
    def test_records_are_the_file_s(self) -> None:
        """gdwire.read_capture from a path, from bytes and from a file object gives every record as this test's own
        few lines of struct read them: link type, time, lengths, bytes"""
        n = 0
        for path in SESSIONS:
            _, link, recs = read_pcap(path)
            with open(path, "rb") as f:
                data = f.read()
            for source in (path, data, io.BytesIO(data)):
                got = list(gdwire.read_capture(source))  # type: ignore[arg-type]
                self.assertEqual(len(got), len(recs), path)
                for r, (sec, usec, frame, wirelen) in zip(got, recs):
                    self.assertEqual((r.link, r.data, r.wirelen, round(r.time * 1e6)), (link, frame, wirelen, sec * 1_000_000 + usec))
            n += len(recs)
        say(f"gdwire.read_capture: {n} records of {len(SESSIONS)} sessions, from a path, bytes and a file object, as struct reads them")

    def test_session_read_capture_is_the_command(self) -> None:
        """Session.read_capture of a file gives the events the command prints for it"""
        for name in ("godot4.6-enet", "godot3.6-ws", "godot4.6-tcp"):
            path = os.path.join(ROOT, "conformance", "sessions", name + ".pcap")
            s = gdwire.Session(range_coder=True)
            recs = list(gdwire.read_capture(path))
            got = compare(self, f"{name} read_capture", list(s.read_capture(path)), capture_json(path), recs[0].time)
            self.assertGreater(got[0], 50)

    def test_cut_and_not_a_capture(self) -> None:
        """a file cut inside its last record: every record before it, then CaptureError at that record's byte; bytes that
        are no capture: CaptureError at byte 0"""
        path = os.path.join(ROOT, "conformance", "sessions", "godot4.6-ws.pcap")
        with open(path, "rb") as f:
            data = f.read()
        whole = list(gdwire.read_capture(data))
        got: List[gdwire.CaptureRecord] = []
        with self.assertRaises(gdwire.CaptureError) as e:
            for r in gdwire.read_capture(data[:-10]):
                got.append(r)
        self.assertEqual(len(got), len(whole) - 1)
        self.assertEqual((e.exception.status, e.exception.offset), ("truncated", whole[-1].offset))
        say(f"gdwire.read_capture: cut 10 bytes short, {len(got)} of {len(whole)} records, then: {e.exception}")
        with self.assertRaises(gdwire.CaptureError) as e:
            list(gdwire.read_capture(b"GET / HTTP/1.1 -- no capture"))
        self.assertEqual(e.exception.offset, 0)


class SecondPath(unittest.TestCase):
    def test_values_are_decodes(self) -> None:
        """each Variant a session gives is gdwire.decode of its bytes in the flow's dialect (compatible and strict)"""
        figures = []
        for mode in ("compatible", "strict"):
            n = bare = compact = 0
            for path in SESSIONS:
                _, link, recs = read_pcap(path)
                for e in feed(gdwire.Session(mode=mode, range_coder=True), link, recs):
                    if not isinstance(e, gdwire.Message):
                        continue
                    for v in e.values:
                        data = e.value_bytes(v)
                        if v.encoding == "bare bytes":  # an RPC's one PackedByteArray, without a header: its bytes
                            self.assertTrue(same(v.value, data))
                            bare += 1
                            continue
                        if v.encoding != "Variant":  # SceneMultiplayer's compact bool and int: against the command only
                            compact += 1
                            continue
                        try:
                            want = gdwire.decode(data, e.dialect, mode=mode, allow_objects=True)
                        except gdwire.DecodeError as err:
                            assert v.error is not None
                            self.assertEqual((v.error.code, v.error.offset, v.error.message), (err.code, err.offset, err.message))
                            continue
                        self.assertTrue(v.ok, f"{name_of(path)} frame {e.frame}: {v.error}")
                        self.assertTrue(same(v.value, want), f"{name_of(path)} frame {e.frame}: {v.value!r} != decode's {want!r}")
                        n += 1
            self.assertGreater(n, 1000)
            figures.append(f"{mode}: {n} Variants equal decode's, {bare} bare PackedByteArrays their bytes, {compact} compact bools and ints "
                           f"(compared with the command only)")
        say("second path, every session: " + "; ".join(figures))

    def test_godot4_6(self) -> None:
        """the Godot 4.6.3 session's values, each the package's decode of its bytes"""
        _, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", "godot4.6-enet.pcap"))
        n = 0
        for e in feed(gdwire.Session(), link, recs):
            if isinstance(e, gdwire.Message):
                for v in e.values:
                    if v.encoding == "Variant":
                        self.assertTrue(same(v.value, gdwire.decode(e.value_bytes(v), "godot4")))
                        n += 1
        self.assertGreater(n, 450)


class Udp(unittest.TestCase):
    def test_udp_is_frames(self) -> None:
        """UDP payloads fed with .udp (IPv4, and the same as IPv6) give the messages their frames give, frame numbers
        too (the library counts each payload fed as a frame)"""
        figures = []
        for name in ("godot4.6-enet", "godot3.2-enet", "godot3.6-enet", "godot4.6-enet-zstd"):
            _, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", name + ".pcap"))
            framed = [e for e in feed(gdwire.Session(range_coder=True), link, recs)]
            for family in (4, 6):
                s = gdwire.Session(range_coder=True)
                events: List[gdwire.Event] = []
                for sec, usec, frame, _ in recs:
                    u = udp_of(frame)
                    assert u is not None
                    src, dst, payload = u
                    if family == 6:
                        src, dst = ("::ffff:" + src[0], src[1]), ("::ffff:" + dst[0], dst[1])
                    events += s.udp(src, dst, payload, time=sec + usec / 1e6)
                events += s.finish()
                self.assertEqual(len(events), len(framed))
                for a, b in zip(events, framed):
                    self.assertIsInstance(a, gdwire.Message)
                    self.assertEqual(a, b)
                    assert isinstance(a, gdwire.Message) and isinstance(b, gdwire.Message)
                    for x, y in zip(a.values, b.values):
                        self.assertTrue(same(x.value, y.value))
                self.assertEqual(s.stats.udp_datagrams, len(recs))
                if family == 6:
                    self.assertTrue(all(f.endpoints.startswith("[::ffff:127.0.0.1]:") for f in s.flows), s.flows)
            figures.append(f"{name} {len(framed)}")
        say("UDP payloads (IPv4 and IPv6) give the messages of their frames: " + ", ".join(figures))


class Api(unittest.TestCase):
    def test_defaults_are_the_library_s(self) -> None:
        defaults = _gdwire.session_defaults()
        params = inspect.signature(gdwire.Session).parameters
        for k, v in defaults.items():
            self.assertEqual(params[k].default, v, k)
        self.assertEqual(len([k for k in params if k.startswith("max_")]), 10)

    def test_arguments(self) -> None:
        with self.assertRaises(ValueError):
            gdwire.Session("nope")
        with self.assertRaises(ValueError):
            gdwire.Session("mole")  # no multiplayer layer read
        with self.assertRaises(ValueError):
            gdwire.Session(mode="nope")
        with self.assertRaises(ValueError):
            gdwire.Session(max_packet_bytes=0)
        with self.assertRaises(ValueError):
            gdwire.Session(max_flows=(1 << 24) + 1)
        with self.assertRaises(TypeError):
            gdwire.Session(max_flows=1.5)  # type: ignore[arg-type]
        s = gdwire.Session()
        with self.assertRaises(TypeError):
            s.frame("text")  # type: ignore[arg-type]
        with self.assertRaises(ValueError):
            s.frame(b"\0" * 60, wirelen=10)
        with self.assertRaises(ValueError):
            s.udp(("127.0.0.1", 1), ("::1", 2), b"")
        with self.assertRaises(ValueError):
            s.udp(("127.0.0.1", 70000), ("127.0.0.1", 2), b"")
        with self.assertRaises(TypeError):
            s.udp("127.0.0.1", ("127.0.0.1", 2), b"")  # type: ignore[arg-type]
        self.assertEqual(s.finish(), [])
        with self.assertRaises(ValueError):
            s.frame(b"")
        with self.assertRaises(ValueError):
            s.finish()
        self.assertEqual(s.stats.frames, 0)

    def test_compressions_and_links(self) -> None:
        self.assertIn("fastlz", gdwire.compressions_built())
        self.assertTrue(set(gdwire.compressions_built()) <= {"fastlz", "zlib", "zstd"})
        self.assertEqual((gdwire.LINK_ETHERNET, gdwire.LINK_RAW, gdwire.LINK_LINUX_SLL2), (1, 101, 276))
        # a build without zlib reads the zlib session's compressed datagrams as problems, and says so
        _, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", "godot3.6-enet-zlib.pcap"))
        s = gdwire.Session()
        events = feed(s, link, recs)
        if "zlib" in gdwire.compressions_built():
            self.assertEqual([e for e in events if isinstance(e, gdwire.Problem)], [])
            self.assertIn("zlib", {c for f in s.flows for c in f.compression})
        else:
            self.assertTrue(any("zlib" in e.message for e in events if isinstance(e, gdwire.Problem)))

    def test_without_the_range_coder(self) -> None:
        """Godot 3.6's range-coded datagrams without libenet: problems that say which decompressors were tried"""
        _, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", "godot3.6-enet.pcap"))
        events = feed(gdwire.Session(), link, recs)
        problems = [e for e in events if isinstance(e, gdwire.Problem)]
        self.assertTrue(problems)
        self.assertIn("not in this build: range_coder", problems[0].message)

    def test_exception_while_building_an_event(self) -> None:
        """an exception raised while an event is built (the JSON form's mapping, here made to raise, and a feed of the
        same session from inside it) comes out of that feed; the session goes on, and nothing is leaked"""
        _, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", "godot4.6-enet.pcap"))

        class Boom(Exception):
            pass

        def raising(text: str) -> Any:
            raise Boom(text)

        def reentering(text: str) -> Any:
            s.frame(b"")  # the session is being fed: RuntimeError
            raise AssertionError("not reached")

        def hook(fn: Any) -> None:
            set_types(from_json_text=fn)

        figures = []
        for fn, exc in ((raising, Boom), (reentering, RuntimeError)):
            s = gdwire.Session()
            raised = messages = 0
            for sec, usec, frame, wirelen in recs:
                hook(fn)
                try:
                    events = s.frame(frame, time=sec + usec / 1e6, wirelen=wirelen)
                except exc:
                    raised += 1
                    continue
                finally:
                    hook(gdwire._from_json_text)
                messages += len(events)
            events = s.finish()  # the session goes on: it takes more, and is not left "being fed"
            self.assertGreater(raised, 0)
            self.assertEqual(s.stats.messages, 499)
            self.assertGreater(messages, 400)  # the feeds that did not raise gave their messages
            figures.append(f"{raised} feeds raised {exc.__name__}, the others gave {messages} of the 499 messages")
        say("an event that raises: " + "; ".join(figures))


class Threads(unittest.TestCase):
    def test_sessions_in_threads(self) -> None:
        """sessions in threads share nothing: each thread's messages are those one thread reads (zstd keeps a
        context a thread)"""
        import threading
        inputs = [read_pcap(os.path.join(ROOT, "conformance", "sessions", n + ".pcap")) for n in ("godot4.6-enet-zstd", "godot4.6-ws")]
        want = [feed(gdwire.Session(), link, recs) for _, link, recs in inputs]
        errors: List[str] = []

        def run(k: int) -> None:
            try:
                for _ in range(3):
                    _, link, recs = inputs[k % 2]
                    if feed(gdwire.Session(), link, recs) != want[k % 2]:
                        errors.append(f"thread {k}: other messages")
            except Exception as e:  # noqa: BLE001: any exception fails the test
                errors.append(f"thread {k}: {e!r}")

        ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])


class Memory(unittest.TestCase):
    def test_no_growth(self) -> None:
        """a long loop of feeds (real sessions, hostile frames, events that raise) does not grow the process"""
        _, link, recs = read_pcap(os.path.join(ROOT, "conformance", "sessions", "godot4.6-enet.pcap"))
        _, _, recs3 = read_pcap(os.path.join(ROOT, "conformance", "sessions", "godot3.6-enet.pcap"))
        rng = random.Random(1)
        junk = [bytes(rng.getrandbits(8) for _ in range(rng.randrange(200))) for _ in range(200)]

        broken = dict(gdwire.MATH_TYPES, Vector2=Unmakeable)
        raised = 0

        def loop(n: int) -> int:
            nonlocal raised
            fed = 0
            for k in range(n):
                s = gdwire.Session(range_coder=True)
                for sec, usec, frame, wirelen in (recs if k % 2 else recs3):
                    s.frame(frame, time=sec + usec / 1e6, wirelen=wirelen)
                    s.frame(frame[:len(frame) // 2], wirelen=wirelen)
                    fed += 2
                for j in junk:
                    s.frame(j, link=(gdwire.LINK_ETHERNET, gdwire.LINK_RAW, gdwire.LINK_LINUX_SLL)[len(j) % 3])
                s.finish()
                _ = s.stats, s.flows
                fed += len(junk)
                # every Vector2 raises while its event is built: the sync messages' feeds raise
                s = gdwire.Session()
                set_types(math_types=broken)
                try:
                    for sec, usec, frame, wirelen in recs:
                        try:
                            s.frame(frame, time=sec + usec / 1e6, wirelen=wirelen)
                        except AttributeError:
                            raised += 1
                        fed += 1
                finally:
                    set_types()
            return fed

        loop(4)  # warm up: the allocator's pools and the interpreter's caches
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        fed = loop(30)
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        self.assertLess(grown_kib, 4096, f"RSS grew by {grown_kib} KiB over {fed} feeds")
        self.assertGreater(raised, 30 * 300)
        say(f"{fed:,} feeds in 60 sessions, {raised:,} of them raising while an event was built: the peak RSS grew by {grown_kib} KiB")

    def test_huge_fragment(self) -> None:
        """a fragment that declares 4 GiB, and fragments past the caps: problems, nothing held past the cap"""
        s = gdwire.Session(max_open_fragment_bytes=1 << 20, max_packet_bytes=1 << 20)
        src, dst = ("10.0.0.2", 40000), ("10.0.0.1", 7000)
        events = s.udp(src, dst, enet_fragment(0xFFFFFFFF, 0xFFFFFFFF, 0, 1, b"y" * 16), time=1.0)
        for k in range(200):
            events += s.udp(src, dst, enet_fragment(900 << 10, 900, 0, 100 + k, b"x" * 1000, seq=k + 2))
        events += s.finish()
        self.assertTrue(events and all(isinstance(e, gdwire.Problem) for e in events))
        self.assertLessEqual(s.stats.peak_fragment_bytes, 1 << 20)
        self.assertGreater(s.stats.states_dropped, 0)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: MIT
"""The Python API's contracts: errors as the C library gives them, argument checks, the value classes, the
stream helpers, hostile input (every committed fuzz input of corpus/ decodes or raises DecodeError, and what
decodes encodes or raises EncodeError), and that a decode/encode loop does not leak."""
import asyncio
import glob
import io
import math
import os
import resource
import socket
import struct
import sys
import threading
import tracemalloc
import unittest

import gdwire

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Errors(unittest.TestCase):
    def test_decode_error_fields(self):
        data = gdwire.encode({"hp": 100}, "godot4")
        with self.assertRaises(gdwire.DecodeError) as cm:
            gdwire.decode(data[:10], "godot4")
        e = cm.exception
        self.assertEqual((e.code, e.offset, e.path, e.engine_error), ("TRUNCATED", 8, "{#0 key}", "ERR_INVALID_DATA"))
        self.assertIn("TRUNCATED at byte 8", str(e))
        self.assertIsInstance(e, ValueError)

    def test_modes(self):
        # a 64-bit int that fits 32 bits: Godot 4 reads it, its own encoder never writes it
        data = bytes.fromhex("0200010005000000" "00000000")
        self.assertEqual(gdwire.decode(data, "godot4"), 5)
        with self.assertRaises(gdwire.DecodeError) as cm:
            gdwire.decode(data, "godot4", mode="strict")
        self.assertEqual(cm.exception.code, "NON_CANONICAL")
        self.assertEqual(gdwire.decode(data, "godot4", mode="engine-exact"), 5)

    def test_trailing_bytes(self):
        """bytes left after the value raise, as json.loads's "Extra data" and msgpack's ExtraData do, with the count
        and, where another dialect reads every byte, that dialect (the engines' own packets: each Godot 3.6 packet
        that Godot 4's reader reads in part while godot3 reads it whole)"""
        data = gdwire.encode(5, "godot4") + b"xy"
        with self.assertRaises(gdwire.DecodeError) as cm:
            gdwire.decode(data, "godot4")
        self.assertEqual((cm.exception.code, cm.exception.offset), ("TRAILING_BYTES", 8))
        self.assertIn("2 bytes left after an int; pass allow_trailing=True", str(cm.exception))
        self.assertEqual(gdwire.decode(data, "godot4", allow_trailing=True), 5)
        self.assertEqual(gdwire.decode_with_length(data, "godot4"), (5, 8))
        named = 0
        with open(os.path.join(ROOT, "tools", "engines", "godot3.6-packets.tsv"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or "\t" not in line:
                    continue
                data = bytes.fromhex(line.split("\t")[1])
                try:
                    value, used = gdwire.decode_with_length(data, "godot4")
                except gdwire.DecodeError:
                    continue
                if used == len(data) or gdwire.check(data).best != "godot3":
                    continue
                with self.assertRaises(gdwire.DecodeError) as cm:
                    gdwire.decode(data, "godot4")
                self.assertIn(f"{len(data) - used} byte", str(cm.exception))
                self.assertIn(f"; godot3 reads all {len(data)} bytes: pass dialect='godot3'", str(cm.exception))
                named += 1
        self.assertGreater(named, 10)

    def test_encode_error(self):
        with self.assertRaises(gdwire.EncodeError) as cm:
            gdwire.encode(1 << 40, "mole")  # Godot 2 has 32-bit ints only
        self.assertEqual(cm.exception.code, "LOSSY")
        self.assertEqual(gdwire.decode(gdwire.encode(1 << 40, "mole", lossy=True), "mole"), 0)

    def test_arguments(self):
        with self.assertRaises(TypeError):
            gdwire.decode("0200000005000000")  # text, not bytes
        with self.assertRaises(ValueError):
            gdwire.decode(b"\x00\x00\x00\x00", "godot5")
        with self.assertRaises(ValueError):
            gdwire.decode(b"\x00\x00\x00\x00", "godot4", mode="lenient")
        with self.assertRaises(TypeError):
            gdwire.encode(object())
        with self.assertRaises(ValueError):
            gdwire.encode(1 << 64)
        with self.assertRaises(TypeError):
            gdwire.Vector2(1, "2")
        with self.assertRaises(TypeError):
            gdwire.Vector2i(1, 2.5)
        self.assertEqual(gdwire.decode(bytearray(b"\x00\x00\x00\x00")), None)
        self.assertEqual(gdwire.decode(memoryview(b"\x01\x00\x00\x00\x01\x00\x00\x00")), True)

    def test_dialects(self):
        rows = gdwire.dialects()
        names = [r["name"] for r in rows]
        for n in ("mole", "godot3", "godot3.0", "godot4", "godot4.3", "pandemonium", "godot3@3.2", "godot3.0@3.0.0", "mole@2.0"):
            self.assertIn(n, names)
        self.assertEqual(gdwire.canonical_name("godot2"), "mole")
        self.assertEqual(len(set(r["fuzz_id"] for r in rows)), len(rows))


class Values(unittest.TestCase):
    def roundtrip(self, v, dialect="godot4"):
        data = gdwire.encode(v, dialect)
        back = gdwire.decode(data, dialect, allow_objects=True)
        self.assertEqual(back, v, dialect)
        self.assertEqual(gdwire.encode(back, dialect), data)
        return back

    def test_python_types(self):
        for v in (None, True, False, 0, -1, 1 << 40, -(1 << 63), 0.5, 1e300, "", "héllo", b"", b"\x00\xff",
                  [], [1, [2, [3]]], {}, {"a": 1, "b": [1, 2]}):
            self.roundtrip(v)
        self.assertEqual(self.roundtrip(0.1), 0.1)  # not an f32: written as f64 by the engines' rule

    def test_godot_types(self):
        g = gdwire
        for v in (g.Vector2(1.5, -2), g.Vector2i(1, -2), g.Rect2(0, 0, 4, 3), g.Vector3(1, 2, 3), g.Vector3i(4, 5, 6),
                  g.Transform2D(1, 0, 0, 1, 5, 6), g.Vector4(1, 2, 3, 4), g.Plane(0, 1, 0, 2), g.Quaternion(0, 0, 0, 1),
                  g.AABB(0, 0, 0, 1, 1, 1), g.Basis(1, 0, 0, 0, 1, 0, 0, 0, 1), g.Color(0.5, 0.25, 1, 1),
                  g.Projection(*range(16)), g.StringName("n"), g.NodePath("/root/a:b"), g.RID(7),
                  g.Object(id=12), g.Callable(), g.Signal("hit", 5), g.PackedInt32Array([1, 2]), g.PackedInt64Array([1 << 40]),
                  g.PackedFloat32Array([0.5]), g.PackedFloat64Array([0.1]), g.PackedStringArray(["a", "b"]),
                  g.PackedVector2Array([1, 2, 3, 4]), g.PackedColorArray([0, 0, 0, 1]), g.PackedVector4Array([1, 2, 3, 4]),
                  g.Array([1, 2], element_type="int"), g.Dictionary([(1, "a"), (True, "b"), (1.0, "c")]),
                  g.Dictionary([([1], 2)]), g.Object("Node", {"name": "n"})):
            with self.subTest(v=v):
                self.roundtrip(v)

    def test_null_object(self):
        # the engines write a null Object as Nil (Godot 3.0 and 3.1: as an Object of no class)
        self.assertEqual(gdwire.encode(gdwire.Object(), "godot4"), gdwire.encode(None, "godot4"))
        self.assertEqual(gdwire.decode(gdwire.encode(gdwire.Object(), "godot3.0"), "godot3.0"), gdwire.Object())

    def test_components_by_name(self):
        r = gdwire.Rect2(1, 2, 3, 4)  # a component named "width" is the component, not the reals' width
        self.assertEqual((r.x, r.y, r.width, r.height, r.real_width), (1.0, 2.0, 3.0, 4.0, None))
        back = gdwire.decode(gdwire.encode(r, "godot4-double"), "godot4-double")
        self.assertEqual((back.width, back.height, back.real_width), (3.0, 4.0, 8))
        self.assertEqual(gdwire.Transform2D(1, 0, 0, 1, 5, 6).oy, 6.0)
        with self.assertRaises(AttributeError):
            gdwire.Vector2(1, 2).z

    def test_widths_and_nan(self):
        f = gdwire.decode(bytes.fromhex("0300010000000000" "0000f07f"), "godot4")
        self.assertTrue(math.isinf(f))
        # an f32 NaN with a payload: the engines hold a double and write NaN as f64
        nan32 = bytes.fromhex("03000000" "0100c07f")
        v = gdwire.decode(nan32, "godot3")
        self.assertTrue(math.isnan(v))
        self.assertEqual(gdwire.encode(v, "godot3"), bytes.fromhex("03000100" "00000020" "0000f87f"))
        # F32 writes it as it was read, payload and all; F64 forces 64 bits where 32 would hold the value
        self.assertEqual(gdwire.encode(gdwire.F32(float("nan"), bits=0x7FC00001), "godot3"), nan32)
        self.assertEqual(gdwire.encode(gdwire.F64(0.5), "godot4"), bytes.fromhex("03000100" "00000000" "0000e03f"))
        self.assertEqual(gdwire.encode(0.5, "godot4"), bytes.fromhex("03000000" "0000003f"))
        self.assertEqual(gdwire.encode(gdwire.F32(0.1), "godot4"), bytes.fromhex("03000000" "cdcccc3d"))
        # a NaN's payload survives as a double
        payload = bytes.fromhex("03000100" "01000000" "0000f87f")
        self.assertEqual(gdwire.encode(gdwire.decode(payload, "godot4"), "godot4"), payload)

    def test_dictionary_keys_python_would_merge(self):
        # int 1, bool true and float 1.0 are three keys in Godot, one in a dict
        data = gdwire.encode(gdwire.Dictionary([(1, "a"), (True, "b"), (1.0, "c")]), "godot4")
        d = gdwire.decode(data, "godot4")
        self.assertIsInstance(d, gdwire.Dictionary)
        self.assertEqual([k for k, _ in d.items()], [1, True, 1.0])
        self.assertEqual([type(k) for k in d], [int, bool, float])

    def test_immutable(self):
        v = gdwire.Vector2(1, 2)
        with self.assertRaises(AttributeError):
            v.x = 3
        self.assertEqual(hash(v), hash(gdwire.Vector2(1, 2)))
        self.assertEqual({v: 1}[gdwire.Vector2(1.0, 2.0)], 1)


class Streams(unittest.TestCase):
    def test_file(self):
        buf = io.BytesIO()
        for v in ({"a": 1}, [1, 2], "x"):
            gdwire.write_var(buf, v, "godot3")
        buf.seek(0)
        self.assertEqual(list(gdwire.iter_vars(buf, "godot3")), [{"a": 1}, [1, 2], "x"])
        buf = io.BytesIO(b"\x08\x00\x00\x00\x02\x00\x00\x00")  # cut inside the frame
        with self.assertRaises(gdwire.DecodeError) as cm:
            gdwire.read_var(buf, "godot3")
        self.assertEqual(cm.exception.code, "TRUNCATED")
        with self.assertRaises(gdwire.DecodeError) as cm:
            gdwire.read_var(io.BytesIO(b"\xff\xff\xff\x7f"), "godot3")
        self.assertEqual(cm.exception.code, "TOO_LARGE")

    def test_socket(self):
        a, b = socket.socketpair()
        try:
            gdwire.write_var(a, {"op": "ping"})
            self.assertEqual(gdwire.read_var(b), {"op": "ping"})
        finally:
            a.close()
            b.close()

    def test_asyncio(self):
        async def run():
            async def serve(reader, writer):
                v = await gdwire.async_read_var(reader)
                await gdwire.async_write_var(writer, {"got": v})
                writer.close()
            server = await asyncio.start_server(serve, "127.0.0.1", 0)
            port = server.sockets[0].getsockname()[1]
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            await gdwire.async_write_var(writer, gdwire.Vector3(1, 2, 3))
            reply = await gdwire.async_read_var(reader)
            writer.close()
            server.close()
            await server.wait_closed()
            return reply
        self.assertEqual(asyncio.run(run()), {"got": gdwire.Vector3(1, 2, 3)})

    def test_packet_peer_stream(self):
        frames = b"".join(len(p).to_bytes(4, "little") + p for p in (gdwire.encode(1), gdwire.encode("two")))
        r = gdwire.PacketPeerStreamReader()
        out = []
        for i in range(len(frames)):  # a byte at a time
            r.feed(frames[i:i + 1])
            out += list(r.values())
        self.assertEqual(out, [1, "two"])
        self.assertEqual(r.pending, 0)


class Trickle:
    """A socket that hands out its bytes one at a time, as a slow peer does."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def recv(self, n):
        b = self.data[self.pos:self.pos + 1]
        self.pos += len(b)
        return b


class TrickleStreams(unittest.TestCase):
    def test_read_var_memory_is_linear(self):
        # issue 55: read_var kept every recv as an object of its own, about 22 bytes of heap per payload byte
        value = "x" * (256 << 10)
        stream = Trickle(struct.pack("<I", len(gdwire.encode(value))) + gdwire.encode(value))
        tracemalloc.start()
        try:
            self.assertEqual(gdwire.read_var(stream), value)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        print(f"read_var of {len(value):,} bytes a byte at a time: {peak / len(value):.2f} bytes of Python objects per "
              "payload byte at the peak", file=sys.stderr)
        self.assertLess(peak, 4 * len(value) + 65536)

    def test_packet_peer_stream_reader_is_linear(self):
        # many small packets fed at once: each taken without moving the rest
        packets = [struct.pack("<I", 8) + gdwire.encode(i, "godot3") for i in range(200000)]
        r = gdwire.PacketPeerStreamReader("godot3")
        r.feed(b"".join(packets))
        it = r.values()
        first = [next(it) for _ in range(3)]
        self.assertEqual(first, [0, 1, 2])
        self.assertEqual(list(r.values())[:2], [3, 4])  # a loop that stopped early: nothing handed out twice
        self.assertEqual(r.pending, 0)


class Hostile(unittest.TestCase):
    def test_fuzz_inputs(self):
        rows = {r["fuzz_id"]: r["name"] for r in gdwire.dialects()}
        paths = sorted(glob.glob(os.path.join(ROOT, "corpus", "regressions", "*", "*")) +
                       glob.glob(os.path.join(ROOT, "corpus", "decode", "*")))
        paths = [p for p in paths if os.path.isfile(p) and not p.endswith(".md")]
        self.assertGreater(len(paths), 1000)
        decoded = 0
        for p in paths:
            with open(p, "rb") as f:
                data = f.read()
            if len(data) < 2:
                continue
            row = rows[data[0] % len(rows)]
            mode = ("compatible", "strict", "engine-exact", "compatible")[data[1] & 3]
            try:
                v = gdwire.decode(data[2:], row, mode=mode, allow_objects=bool(data[1] & 4), allow_trailing=True)
            except gdwire.DecodeError:
                continue
            decoded += 1
            try:
                gdwire.encode(v, row)
            except gdwire.EncodeError:
                pass
        self.assertGreater(decoded, 100)

    def test_deep_and_large(self):
        deep = b"".join(bytes.fromhex("1c00000001000000") for _ in range(5000)) + b"\x00" * 4
        with self.assertRaises(gdwire.DecodeError) as cm:
            gdwire.decode(deep, "godot4")
        self.assertEqual(cm.exception.code, "DEPTH")
        with self.assertRaises(ValueError):
            v = []
            for _ in range(2000):
                v = [v]
            gdwire.encode(v)

    def test_python_memory_per_input_byte(self):
        """The Python objects a decode makes, at their peak (tracemalloc: the library's own tree is on top, within
        its heap bound, docs/library.md), for the shapes that make the most objects per input byte."""
        n = 50000

        def arr(items):
            return struct.pack("<II", 28, len(items)) + b"".join(items)
        shapes = {
            "Array of nils": arr([struct.pack("<I", 0)] * n),
            "Array of empty Arrays": arr([struct.pack("<II", 28, 0)] * n),
            "Array of empty Dictionaries": arr([struct.pack("<II", 27, 0)] * n),
            "Dictionary of int keys": struct.pack("<II", 27, n) + b"".join(struct.pack("<IiI", 2, i, 0) for i in range(n)),
            "PackedStringArray of empty strings": struct.pack("<II", 34, n) + struct.pack("<I", 0) * n,
            "Array of Vector2": arr([struct.pack("<Iff", 5, 1.5, 2.5)] * n),
            "Array of floats": arr([struct.pack("<If", 3, 1.5)] * n),
            "Array of StringNames": arr([struct.pack("<II", 21, 1) + b"a\0\0\0"] * n),
            "Array of NodePaths": arr([struct.pack("<IIII", 22, 0x80000001, 0, 0) + struct.pack("<I", 1) + b"a\0\0\0"] * n),
            "Array of RIDs": arr([struct.pack("<IQ", 23, 5)] * n),
            "PackedVector2Array": struct.pack("<II", 35, n) + struct.pack("<ff", 1.5, 2.5) * n,
            "PackedFloat32Array": struct.pack("<II", 32, n) + struct.pack("<f", 1.5) * n,
            "Array nested 1,000 deep": b"".join(struct.pack("<II", 28, 1) for _ in range(1000)) + struct.pack("<I", 0),
        }
        worst = 0.0
        tracemalloc.start()
        try:
            for name, data in shapes.items():
                tracemalloc.reset_peak()
                base = tracemalloc.get_traced_memory()[0]
                v = gdwire.decode(data, "godot4")
                peak = tracemalloc.get_traced_memory()[1] - base
                del v
                self.assertLess(peak, 16 * len(data) + 65536, f"{name}: {peak} bytes of Python objects for {len(data)}")
                worst = max(worst, (peak - 65536) / len(data))
        finally:
            tracemalloc.stop()
        print(f"Python objects of a decode: at most 16 bytes per input byte plus 64 KiB (worst here "
              f"{max(worst, 0):.1f})", file=sys.stderr)

    def test_small_thread_stack(self):
        # issue 55: encode recursed on the C stack and crashed the interpreter on a 1,024-deep value on a thread
        # stack of 320 KiB or less; musl's default is 128 KiB. Every legal depth, there and back.
        results = []

        def work():
            try:
                for depth in range(0, 1025):
                    v = []
                    for _ in range(depth):
                        v = [v]
                    data = gdwire.encode(v, "godot4")
                    # compared by its bytes: == on lists recurses in Python, past its recursion limit here
                    assert gdwire.encode(gdwire.decode(data, "godot4"), "godot4") == data, depth
                    assert gdwire.encode(gdwire.decode(data, "godot4"), "godot3")
                too_deep = [[v]]  # its innermost list 1,026 below the top: past the engines' limit
                try:
                    gdwire.encode(too_deep)
                    results.append("no error past the limit")
                except ValueError:
                    pass
                results.append("done")
            except BaseException as e:  # noqa: BLE001
                results.append(repr(e))
        old = threading.stack_size(128 * 1024)
        try:
            t = threading.Thread(target=work)
            t.start()
            t.join()
        finally:
            threading.stack_size(old)
        self.assertEqual(results, ["done"])

    def test_threads(self):
        data = gdwire.encode({"k": list(range(1000))})
        errors = []

        def work():
            try:
                for _ in range(50):
                    assert gdwire.decode(data) == {"k": list(range(1000))}
            except Exception as e:  # noqa: BLE001
                errors.append(e)
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])


class Leaks(unittest.TestCase):
    def test_no_growth(self):
        packets = [gdwire.encode(v) for v in ({"a": [1, 2.5, "x" * 50]}, gdwire.PackedVector3Array(range(300)),
                                               [gdwire.NodePath("/a/b:c"), gdwire.Object(id=3)])]
        bad = packets[0][:-3]

        def loop(n):
            for i in range(n):
                p = packets[i % 3]
                gdwire.encode(gdwire.decode(p))
                try:
                    gdwire.decode(bad)
                except gdwire.DecodeError:
                    pass
        loop(20000)  # warm up: the allocator's pools and the interpreter's caches
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        loop(100000)
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        self.assertLess(grown_kib, 2048, f"RSS grew by {grown_kib} KiB over 100,000 packets")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: MIT
"""The library's knowledge the package uses is the library's: the value flags, the depth limit and each type's
components are the extension's module constants, taken from C (gdwire/_gdwire.c: GDW_VF_*, GDW_HARD_MAX_DEPTH,
gdw_type_components, gdw_type_has_reals), not numbers written in Python. Each is held here to what C says by
another way: the header's own definitions, the C JSON printer's components of a value of each type, and the C
encoder's depth limit."""
import json
import os
import re
import sys
import unittest

import gdwire
from gdwire import _gdwire

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def defines():
    """The C header's #define NAME VALUE."""
    with open(os.path.join(ROOT, "codec", "gdwire.h"), encoding="utf-8") as f:
        return {m.group(1): int(m.group(2), 0) for m in re.finditer(r"^#define (GDW_\w+) (0x[0-9a-fA-F]+|[0-9]+)u?\b", f.read(), re.M)}


def nest(n):
    v = 1
    for _ in range(n):
        v = [v]
    return v


class Constants(unittest.TestCase):
    def test_flags_and_depth_are_the_headers(self):
        d = defines()
        flags = {k[4:]: v for k, v in d.items() if k.startswith("GDW_VF_")}
        self.assertGreaterEqual(len(flags), 7)
        self.assertEqual({k: getattr(_gdwire, k) for k in flags}, flags)
        self.assertEqual(_gdwire.HARD_MAX_DEPTH, d["GDW_HARD_MAX_DEPTH"])

    def test_modes_and_session_limits_are_the_headers(self):
        with open(os.path.join(ROOT, "codec", "gdwire.h"), encoding="utf-8") as f:
            modes = [(int(n), m.lower().replace("_", "-")) for m, n in re.findall(r"^\s*GDW_MODE_(\w+) = (\d+)", f.read(), re.M)]
        self.assertEqual([m for _, m in sorted(modes)], ["compatible", "strict", "engine-exact"])
        self.assertEqual(gdwire.MODES, tuple(m for _, m in sorted(modes)))
        with open(os.path.join(ROOT, "session", "gdwire_session.h"), encoding="utf-8") as f:
            h = f.read()
        for opt, name in (("max_flows", "GDW_SESSION_MAX_FLOWS_LIMIT"), ("max_cached_paths", "GDW_SESSION_MAX_CACHED_PATHS_LIMIT")):
            m = re.search(rf"#define {name} \(\(size_t\)1 << (\d+)\)", h)
            assert m is not None, name
            limit = 1 << int(m.group(1))
            gdwire.Session(**{opt: limit})  # the library's session takes its limit
            with self.assertRaises(ValueError, msg=opt):
                gdwire.Session(**{opt: limit + 1})

    def test_framing_bounds_are_the_headers(self):
        with open(os.path.join(ROOT, "codec", "gdwire.h"), encoding="utf-8") as f:
            h = f.read()
        m = re.search(r"^#define GDW_FRAME_MAX_DEFAULT \((\d+)u << (\d+)\)", h, re.M)
        assert m is not None
        self.assertEqual(gdwire._streams.MAX_DEFAULT, int(m.group(1)) << int(m.group(2)))
        self.assertEqual(gdwire._streams.MAX_PACKET_STREAM, defines()["GDW_FRAME_MAX_PACKET_STREAM"])
        self.assertEqual(gdwire.PacketPeerStreamReader("godot4").max_payload, defines()["GDW_FRAME_MAX_PACKET_STREAM"])

    def test_file_bound_is_the_header(self):
        with open(os.path.join(ROOT, "files", "gdwire_files.h"), encoding="utf-8") as f:
            h = f.read()
        m = re.search(r"^#define GDW_FILE_MAX_PLAIN_DEFAULT \(\(uint64_t\)(\d+) << (\d+)\)", h, re.M)
        assert m is not None
        self.assertEqual(gdwire._saves.MAX_PLAIN_DEFAULT, int(m.group(1)) << int(m.group(2)))

    def test_depth_limit_is_the_c_encoders(self):
        limit = _gdwire.HARD_MAX_DEPTH
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # assertEqual's comparison of 1024 levels
        self.assertEqual(gdwire.decode(gdwire.encode(nest(limit))), nest(limit))
        # one level more: the C encoder refuses it; one more again, the extension refuses it before C
        with self.assertRaises(gdwire.EncodeError) as cm:
            gdwire.encode(nest(limit + 1))
        self.assertEqual(cm.exception.code, "DEPTH")
        with self.assertRaises(ValueError) as cm2:
            gdwire.encode(nest(limit + 2))
        self.assertNotIsInstance(cm2.exception, gdwire.EncodeError)
        # and the JSON form's mapping (to_json) has the same guard
        with self.assertRaises(ValueError):
            gdwire.to_json(nest(limit + 2))
        gdwire.to_json(nest(limit + 1))

    def _encodable(self, v):
        for d in gdwire.dialects():
            try:
                return d["name"], gdwire.encode(v, d["name"])
            except gdwire.EncodeError:
                continue
        raise AssertionError(f"no dialect encodes {v!r}")

    def test_components_are_the_libraries(self):
        for name, cls in gdwire.MATH_TYPES.items():
            dialect, data = self._encodable(cls(*range(1, len(cls._fields) + 1)))
            j = json.loads(_gdwire.decode_json(data, dialect, "compatible", False, 0)[0])
            self.assertEqual((j["type"], len(j["value"])), (name, len(cls._fields)))
            self.assertEqual(_gdwire.TYPE_COMPONENTS[name], len(cls._fields))
            self.assertEqual(cls._ints, all(isinstance(c, int) for c in j["value"]) and not _gdwire.TYPE_HAS_REALS[name])
        for name, pcls in gdwire.PACKED_TYPES.items():
            per = _gdwire.TYPE_COMPONENTS[name]
            v = pcls(range(1, 3 * per + 1))
            dialect, data = self._encodable(v)
            j = json.loads(_gdwire.decode_json(data, dialect, "compatible", False, 0)[0])
            flat = [c for e in j["value"] for c in (e if isinstance(e, list) else [e])]
            self.assertEqual((j["type"], len(flat), len(v)), (name, 3 * per, 3))
            self.assertEqual(pcls._per, per)
            self.assertEqual(pcls._ints, not _gdwire.TYPE_HAS_REALS[name])


if __name__ == "__main__":
    unittest.main()

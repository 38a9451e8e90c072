# SPDX-License-Identifier: MIT
"""The package has one mapping from the library's tree to Python values (gdwire/_gdwire.c to_py; the few types
it does not make itself, NodePath, Object, ..., through _values._from_json_rare). A decoded tree and the same
value through the library's JSON form (_gdwire.decode_json, then gdwire.from_json, which the library parses and
the same mapping maps) must give the same Python value, and encoding it directly and through the JSON form
(_gdwire.encode_json) the same bytes: on every engine-made packet and every committed fuzz input, in every mode
(types included, floats by their bits; or the same error back)."""
import glob
import json
import os
import sys
import unittest

import gdwire
from gdwire import _gdwire
from gdwire._values import to_json

try:  # python -m unittest tests.test_two_paths (python/tests/run.sh), or discover from python/tests
    from tests.test_engine_packets import ROOT, ROWS, packets
except ImportError:
    from test_engine_packets import ROOT, ROWS, packets  # type: ignore[no-redef]

MODES = ("compatible", "strict", "engine-exact")


def structure(v):
    """The Python types of a value, all the way down (to_json does not tell a dict from a Dictionary)."""
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(structure(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((structure(k), structure(x)) for k, x in v.items()))
    if isinstance(v, gdwire.Dictionary):
        return ("Dictionary", tuple((structure(k), structure(x)) for k, x in v.pairs))
    return type(v).__name__


def by_json(data, row, mode, objects):
    text, used = _gdwire.decode_json(data, row, mode, objects, 0)
    return gdwire.from_json(json.loads(text)), used


def encoded(fn):
    try:
        return fn()
    except gdwire.EncodeError as e:
        return ("EncodeError", e.code, e.offset, e.path)
    except (TypeError, ValueError) as e:
        return (type(e).__name__,)


def inputs():
    for engine, row in ROWS.items():
        if os.path.exists(os.path.join(ROOT, "tools", "engines", f"{engine}-packets.tsv")):
            for name, data, _ in packets(engine):
                yield f"{engine} {name}", row, data, True
    rows = {r["fuzz_id"]: r["name"] for r in gdwire.dialects()}
    fuzz = sorted(glob.glob(os.path.join(ROOT, "corpus", "regressions", "*", "*")) +
                  glob.glob(os.path.join(ROOT, "corpus", "decode", "*")))
    for p in fuzz:
        if not os.path.isfile(p) or p.endswith(".md"):
            continue
        with open(p, "rb") as f:
            data = f.read()
        if len(data) >= 2:
            yield os.path.relpath(p, ROOT), rows[data[0] % len(rows)], data[2:], bool(data[1] & 4)


class TwoPaths(unittest.TestCase):
    def test_same_values_and_bytes(self):
        decoded = rejected = 0
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # structure() and to_json on 1024 levels
        for name, row, data, objects in inputs():
            for mode in MODES:
                try:
                    want, want_used = by_json(data, row, mode, objects)
                except gdwire.DecodeError as e:
                    with self.assertRaises(gdwire.DecodeError, msg=f"{name} {mode}") as cm:
                        gdwire.decode(data, row, mode, objects)
                    self.assertEqual(cm.exception.args, e.args, f"{name} {mode}")
                    rejected += 1
                    continue
                got, used = gdwire.decode_with_length(data, row, mode, objects)
                self.assertEqual(used, want_used, f"{name} {mode}")
                self.assertEqual(structure(got), structure(want), f"{name} {mode}")
                self.assertEqual(to_json(got), to_json(want), f"{name} {mode}")
                direct = encoded(lambda: gdwire.encode(got, row))
                via_json = encoded(lambda: _gdwire.encode_json(json.dumps(to_json(got), ensure_ascii=False), row, False))
                self.assertEqual(direct, via_json, f"{name} {mode}")
                decoded += 1
        self.assertGreater(decoded, 10000)
        self.assertGreater(rejected, 1000)
        print(f"two paths agree: {decoded} decodes and their encodes, {rejected} rejections", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()

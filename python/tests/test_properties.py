# SPDX-License-Identifier: MIT
"""Property tests (Debian's python3-hypothesis): random Python values round-trip through the bytes of Godot 4
and Godot 3, and the extension's direct encoder writes what the whole-value JSON path writes. Derandomized, so a
run is repeatable; a failure prints the smallest value hypothesis found."""
import json
import math
import unittest

from hypothesis import HealthCheck, given, settings, strategies as st

import gdwire
from gdwire import _gdwire
from gdwire._values import to_json

I32 = st.integers(-(2 ** 31), 2 ** 31 - 1)
I64 = st.integers(-(2 ** 63), 2 ** 63 - 1)
F32 = st.floats(width=32, allow_nan=False)  # a math type's components are f32 on the wire
# the engines' strings end at a NUL, so gdwire refuses one inside a string (LOSSY): the property holds for the rest
CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
NAME = st.text(CHARS, max_size=12)


def text(n):
    return st.text(CHARS, max_size=n)


def scalars(nan):
    f32 = st.floats(width=32, allow_nan=nan)
    return st.one_of(
        st.none(), st.booleans(), I64, st.floats(allow_nan=nan), text(40), st.binary(max_size=40),
        NAME.map(gdwire.StringName),
        st.builds(gdwire.Vector2, f32, f32), st.builds(gdwire.Vector3, f32, f32, f32),
        st.builds(gdwire.Vector2i, I32, I32), st.builds(gdwire.Color, f32, f32, f32, f32),
        st.builds(gdwire.Rect2, f32, f32, f32, f32),
        st.builds(gdwire.NodePath, st.lists(NAME.filter(lambda s: s and "/" not in s and ":" not in s), max_size=3),
                  st.lists(NAME.filter(lambda s: s and ":" not in s), max_size=2), st.booleans()),
        st.lists(I32, max_size=8).map(gdwire.PackedInt32Array),
        st.lists(I64, max_size=8).map(gdwire.PackedInt64Array),
        st.lists(f32, max_size=8).map(gdwire.PackedFloat32Array),
        st.lists(st.floats(allow_nan=nan), max_size=8).map(gdwire.PackedFloat64Array),
        st.lists(text(8), max_size=5).map(gdwire.PackedStringArray),
    )


def values(nan=False):
    keys = st.one_of(text(10), I64, st.none(), NAME.map(gdwire.StringName))
    return st.recursive(scalars(nan), lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(keys, inner, max_size=6)), max_leaves=40)


def godot3_values():
    """What Godot 3 has: no StringName, no Vector2i, no 64-bit packed ints or float64 arrays."""
    return st.recursive(st.one_of(st.none(), st.booleans(), I64, st.floats(allow_nan=False), text(40),
                                  st.binary(max_size=40), st.builds(gdwire.Vector2, F32, F32),
                                  st.lists(I32, max_size=8).map(gdwire.PackedInt32Array)),
                        lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                st.dictionaries(text(10), inner, max_size=6)), max_leaves=40)


def double_values():
    """A double-precision build's reals (real_width=8), in containers."""
    f64 = st.floats(allow_nan=False)
    return st.lists(st.one_of(
        st.builds(lambda x, y, z: gdwire.Vector3(x, y, z, real_width=8), f64, f64, f64),
        st.builds(lambda *c: gdwire.Transform2D(*c, real_width=8), f64, f64, f64, f64, f64, f64),
        st.lists(f64, max_size=8).map(lambda c: gdwire.PackedVector2Array(c[:len(c) // 2 * 2], real_width=8)),
        st.lists(f64, max_size=9).map(lambda c: gdwire.PackedVector3Array(c[:len(c) // 3 * 3], real_width=8)),
        f64), max_size=6)


COMMON = settings(max_examples=400, derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Properties(unittest.TestCase):
    @COMMON
    @given(values())
    def test_godot4_round_trip(self, v):
        data = gdwire.encode(v, "godot4")
        self.assertEqual(gdwire.decode(data, "godot4", mode="strict"), v)

    @COMMON
    @given(godot3_values())
    def test_godot3_round_trip(self, v):
        data = gdwire.encode(v, "godot3")
        self.assertEqual(gdwire.decode(data, "godot3", mode="strict"), v)

    @COMMON
    @given(double_values())
    def test_double_precision_round_trip(self, v):
        data = gdwire.encode(v, "godot4-double")
        self.assertEqual(gdwire.decode(data, "godot4-double", mode="strict"), v)

    @COMMON
    @given(values(nan=True))
    def test_bytes_round_trip_with_nan(self, v):
        # NaN equals nothing in Python: the bytes say that the value came back
        data = gdwire.encode(v, "godot4")
        self.assertEqual(gdwire.encode(gdwire.decode(data, "godot4"), "godot4"), data)

    @COMMON
    @given(values(nan=True))
    def test_direct_encoder_is_the_json_path(self, v):
        text = json.dumps(to_json(v), ensure_ascii=False, allow_nan=False)
        self.assertEqual(gdwire.encode(v, "godot4"), _gdwire.encode_json(text, "godot4", False))

    def test_a_nan_keeps_its_payload(self):
        x = gdwire.F64(math.nan, bits=0x7FF8000000000ABC)
        back = gdwire.decode(gdwire.encode(x, "godot4"), "godot4")
        self.assertTrue(math.isnan(back))
        self.assertEqual(gdwire.encode(back, "godot4"), gdwire.encode(x, "godot4"))


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: MIT
"""Python values for Godot's Variant types, and their mapping to and from the library's JSON form
(docs/gdwire.schema.json, "value").

Python's own types stand for the engine's where they are equal: None (Nil), bool, int, float,
str (String), bytes (PackedByteArray), list (Array) and dict (Dictionary). Every other type is a
small immutable class of this module. What Python cannot say without loss still round-trips:

* a float is the double the engines hold, NaN payloads included, and is written as the engines write it
  (f32 exactly when it fits, NaN as f64; Godot 2 and 3.0.0 write every float, or every NaN, as f32);
  ``F32(x)`` / ``F64(x)`` write it at that width instead (``F32(nan, bits=0x7fc00001)``, a payload too);
* a Dictionary whose keys Python would merge or cannot hash (``1`` and ``True``, ``1`` and
  ``1.0``, an Array as a key) or that has a type or Godot 2's shared flag is a ``Dictionary`` of
  key/value pairs, in their order;
* a String whose bytes are not UTF-8 is a ``RawString`` (bytes);
* a math value or packed array keeps the exact components it was read with, NaN payloads
  included, for as long as it is not rebuilt.
"""
from __future__ import annotations

import base64
import json
import math
import struct
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Type, Union

from . import _gdwire

__all__ = [
    "F32", "F64", "StringName", "RawString", "RawStringName", "NodePath", "RID", "Object", "Callable", "Signal",
    "Array", "Dictionary", "Image", "InputEvent", "PackedStringArray", "MATH_TYPES", "PACKED_TYPES", "to_json",
    "from_json",
    # the math types (MATH_TYPES)
    "Vector2", "Vector2i", "Rect2", "Rect2i", "Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane",
    "Quaternion", "AABB", "Basis", "Transform3D", "Projection", "Color",
    # the packed arrays of numbers (PACKED_TYPES)
    "PackedInt32Array", "PackedInt64Array", "PackedRealArray", "PackedFloat32Array", "PackedFloat64Array",
    "PackedVector2Array", "PackedVector2iArray", "PackedVector3Array", "PackedVector3iArray", "PackedVector4Array",
    "PackedVector4iArray", "PackedColorArray",
]

_F32_QNAN = 0x7FC00000
_F64_QNAN = 0x7FF8000000000000


def _f32_bits(x: float) -> int:
    bits: int = struct.unpack("<I", struct.pack("<f", x))[0]
    return bits


def _f64_bits(x: float) -> int:
    bits: int = struct.unpack("<Q", struct.pack("<d", x))[0]
    return bits


def _from_f32_bits(b: int) -> float:
    x: float = struct.unpack("<f", struct.pack("<I", b))[0]
    return x


def _as_f32(x: float) -> float:
    """x as the float32 the engine holds (NaN, the infinities and a number beyond float32's range, which no
    float32 holds, as they are)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return _from_f32_bits(_f32_bits(x))
    except OverflowError:
        return x


def _f32_repr(x: float) -> str:
    """The shortest decimal that reads back as the same float32, as the command prints it (0.1, not
    0.10000000149011612)."""
    want = _as_f32(x)
    if math.isnan(x) or math.isinf(x) or want != _as_f32(want) or abs(want) > 3.4028234663852886e38:
        return repr(x)
    for digits in range(1, 10):
        text = "%.*g" % (digits, want)
        if _as_f32(float(text)) == want:
            r = repr(float(text))  # Python's own spelling of that decimal: 0.1, 1e-05, 10.5, 3.0
            return r
    return repr(want)


class _Width(float):
    """A float with its wire width fixed; a NaN also keeps its bit pattern (``bits``)."""

    width = 0
    __slots__ = ("bits",)
    bits: Optional[int]

    def __new__(cls, x: float, bits: Optional[int] = None) -> "_Width":
        self = super().__new__(cls, x)
        if bits is None and math.isnan(x):
            bits = _f64_bits(x) if cls.width == 8 else _F32_QNAN | (0x80000000 if math.copysign(1.0, x) < 0 else 0)
        self.bits = bits
        return self

    def __repr__(self) -> str:
        if self.bits is not None:
            return f"{type(self).__name__}(nan, bits={self.bits:#x})"
        return f"{type(self).__name__}({float.__repr__(self)})"

    def __reduce__(self) -> Any:
        return (type(self), (float(self), self.bits))

    def __eq__(self, other: object) -> bool:
        # a NaN read from the wire equals the same bits (float's NaN equals nothing)
        if self.bits is not None:
            return isinstance(other, _Width) and other.bits == self.bits and other.width == self.width
        return float.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("nan", self.width, self.bits)) if self.bits is not None else float.__hash__(self)


class F32(_Width):
    """A float written as 32 bits (``F32(0.1)`` is the f32 nearest 0.1 when encoded)."""

    width = 4
    __slots__ = ()


class F64(_Width):
    """A float written as 64 bits, even where 32 would hold it exactly."""

    width = 8
    __slots__ = ()


def _real_text(x: float, width: int, bits: Optional[int]) -> Any:
    """A real for the JSON form: a number, or for what is not finite the library's word for its bits (gdw_real_text:
    "nan", "-nan", "nan(0x7fc00001)", "inf"); a NaN given without bits is the quiet one of its sign."""
    if math.isnan(x) or math.isinf(x):
        if bits is None:
            if width == 4:
                bits = _F32_QNAN | (0x80000000 if math.copysign(1.0, x) < 0 else 0) if math.isnan(x) else _f32_bits(x)
            else:
                bits = _f64_bits(x)
        return _gdwire.real_text(bits, 4 if width == 4 else 8)
    return x


class StringName(str):
    """A StringName: text, kept apart from a String (``&"name"``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"StringName({str.__repr__(self)})"


class RawString(bytes):
    """A String whose bytes are not UTF-8: the bytes as the packet holds them."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"RawString({bytes.__repr__(self)})"


class RawStringName(bytes):
    """A StringName whose bytes are not UTF-8."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"RawStringName({bytes.__repr__(self)})"


class _Frozen:
    """Immutable by convention and by __setattr__; equality and hash over ``_key()``."""

    __slots__ = ()

    def _key(self) -> Tuple[Any, ...]:
        raise NotImplementedError

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + tuple(_hashable(k) for k in self._key()))


def _hashable(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_hashable(i) for i in x)
    if isinstance(x, dict):
        return tuple((_hashable(k), _hashable(v)) for k, v in x.items())
    if isinstance(x, float) and math.isnan(x):
        return ("nan", getattr(x, "bits", None))
    return x


def _set(obj: Any, **kw: Any) -> None:
    for k, v in kw.items():
        object.__setattr__(obj, k, v)


# ---- math types and packed arrays: one class each, made from a table -------------------------

class _Math(_Frozen):
    """A math value: its components, in the engine's order (each also by name: ``v.x``, ``r.width``), and the width
    of its reals as read (``real_width``: 4, or 8 from a double-precision build; None for the engines' own 4)."""

    __slots__ = ("values", "real_width", "_raw")
    values: Tuple[Any, ...]
    real_width: Optional[int]
    _raw: Optional[Tuple[Any, ...]]
    _fields: Tuple[str, ...] = ()
    _ints = False

    def __init__(self, *values: Any, real_width: Optional[int] = None) -> None:
        if len(values) == 1 and isinstance(values[0], (list, tuple)) and len(self._fields) != 1:
            values = tuple(values[0])
        if len(values) != len(self._fields):
            raise TypeError(f"{type(self).__name__} takes {len(self._fields)} components ({', '.join(self._fields)}), "
                            f"not {len(values)}")
        if self._ints:
            for v in values:
                if not isinstance(v, int) or isinstance(v, bool):
                    raise TypeError(f"{type(self).__name__} components are ints, not {type(v).__name__}")
        else:
            for v in values:
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    raise TypeError(f"{type(self).__name__} components are numbers, not {type(v).__name__}")
        if real_width not in (None, 4, 8):
            raise ValueError("real_width is 4 (f32) or 8 (f64)")
        _set(self, values=tuple(values if self._ints else (float(v) for v in values)), real_width=real_width, _raw=None)

    def __getattr__(self, name: str) -> Any:
        fields = type(self)._fields
        if name in fields:
            return self.values[fields.index(name)]
        raise AttributeError(name)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i: int) -> Any:
        return self.values[i]

    def _key(self) -> Tuple[Any, ...]:
        # no width given means the one the encoders choose for math types, 4: the components compare as the float32
        # the engine holds, so Vector3(0.1, 0, 0) equals the Vector3 a packet of it decodes to
        width = None if self._ints else (self.real_width or 4)
        values = self.values if self._ints or width == 8 else tuple(_as_f32(v) for v in self.values)
        return (self._raw if self._raw is not None else values, width)

    def __repr__(self) -> str:
        f32 = not self._ints and self.real_width in (None, 4)
        inner = ", ".join(_f32_repr(v) if f32 else repr(v) for v in self.values)
        return f"{type(self).__name__}({inner}{'' if self.real_width in (None, 4) or self._ints else ', real_width=8'})"


class _Packed(_Frozen):
    """A packed array: its components, flat, and the width of its reals (``real_width``) as read."""

    __slots__ = ("values", "real_width", "_raw")
    values: Tuple[Any, ...]
    real_width: Optional[int]
    _raw: Optional[Tuple[Any, ...]]
    _per = 1
    _ints = False
    _element: Optional[str] = None

    def __init__(self, values: Iterable[Any] = (), real_width: Optional[int] = None) -> None:
        flat: List[Any] = []
        for v in values:
            if isinstance(v, (_Math, tuple, list)):
                flat.extend(v)
            else:
                flat.append(v)
        if len(flat) % self._per:
            raise ValueError(f"{type(self).__name__} holds {self._per} components per element")
        for v in flat:
            ok = isinstance(v, int) if self._ints else isinstance(v, (int, float))
            if not ok or isinstance(v, bool):
                raise TypeError(f"{type(self).__name__} components are {'ints' if self._ints else 'numbers'}, "
                                f"not {type(v).__name__}")
        if real_width not in (None, 4, 8):
            raise ValueError("real_width is 4 (f32) or 8 (f64)")
        _set(self, values=tuple(flat if self._ints else (float(v) for v in flat)), real_width=real_width, _raw=None)

    def __len__(self) -> int:
        return len(self.values) // self._per

    def __getitem__(self, i: int) -> Any:
        if self._per == 1:
            return self.values[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        comp = self.values[i * self._per:(i + 1) * self._per]
        return MATH_TYPES[self._element](*comp, real_width=self.real_width)  # type: ignore[index]

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def _key(self) -> Tuple[Any, ...]:
        return (self._raw if self._raw is not None else self.values, None if self._ints else (self.real_width or self._natural))

    @property
    def _natural(self) -> int:
        return 8 if type(self).__name__ == "PackedFloat64Array" else 4

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.values)!r}{'' if self.real_width in (None, 4) or self._ints else ', real_width=8'})"


class Vector2(_Math):
    """Godot's Vector2: components x, y."""

    __slots__ = ()
    _fields = ('x', 'y')
    x: float
    y: float


class Vector2i(_Math):
    """Godot's Vector2i: components x, y."""

    __slots__ = ()
    _fields = ('x', 'y')
    x: int
    y: int


class Rect2(_Math):
    """Godot's Rect2: components x, y, width, height."""

    __slots__ = ()
    _fields = ('x', 'y', 'width', 'height')
    x: float
    y: float
    width: float
    height: float


class Rect2i(_Math):
    """Godot's Rect2i: components x, y, width, height."""

    __slots__ = ()
    _fields = ('x', 'y', 'width', 'height')
    x: int
    y: int
    width: int
    height: int


class Vector3(_Math):
    """Godot's Vector3: components x, y, z."""

    __slots__ = ()
    _fields = ('x', 'y', 'z')
    x: float
    y: float
    z: float


class Vector3i(_Math):
    """Godot's Vector3i: components x, y, z."""

    __slots__ = ()
    _fields = ('x', 'y', 'z')
    x: int
    y: int
    z: int


class Transform2D(_Math):
    """Godot's Transform2D: components xx, xy, yx, yy, ox, oy."""

    __slots__ = ()
    _fields = ('xx', 'xy', 'yx', 'yy', 'ox', 'oy')
    xx: float
    xy: float
    yx: float
    yy: float
    ox: float
    oy: float


class Vector4(_Math):
    """Godot's Vector4: components x, y, z, w."""

    __slots__ = ()
    _fields = ('x', 'y', 'z', 'w')
    x: float
    y: float
    z: float
    w: float


class Vector4i(_Math):
    """Godot's Vector4i: components x, y, z, w."""

    __slots__ = ()
    _fields = ('x', 'y', 'z', 'w')
    x: int
    y: int
    z: int
    w: int


class Plane(_Math):
    """Godot's Plane: components x, y, z, d."""

    __slots__ = ()
    _fields = ('x', 'y', 'z', 'd')
    x: float
    y: float
    z: float
    d: float


class Quaternion(_Math):
    """Godot's Quaternion: components x, y, z, w."""

    __slots__ = ()
    _fields = ('x', 'y', 'z', 'w')
    x: float
    y: float
    z: float
    w: float


class AABB(_Math):
    """Godot's AABB: components x, y, z, sx, sy, sz."""

    __slots__ = ()
    _fields = ('x', 'y', 'z', 'sx', 'sy', 'sz')
    x: float
    y: float
    z: float
    sx: float
    sy: float
    sz: float


class Basis(_Math):
    """Godot's Basis: components xx, xy, xz, yx, yy, yz, zx, zy, zz."""

    __slots__ = ()
    _fields = ('xx', 'xy', 'xz', 'yx', 'yy', 'yz', 'zx', 'zy', 'zz')
    xx: float
    xy: float
    xz: float
    yx: float
    yy: float
    yz: float
    zx: float
    zy: float
    zz: float


class Transform3D(_Math):
    """Godot's Transform3D: components xx, xy, xz, yx, yy, yz, zx, zy, zz, ox, oy, oz."""

    __slots__ = ()
    _fields = ('xx', 'xy', 'xz', 'yx', 'yy', 'yz', 'zx', 'zy', 'zz', 'ox', 'oy', 'oz')
    xx: float
    xy: float
    xz: float
    yx: float
    yy: float
    yz: float
    zx: float
    zy: float
    zz: float
    ox: float
    oy: float
    oz: float


class Projection(_Math):
    """Godot's Projection: components xx, xy, xz, xw, yx, yy, yz, yw, zx, zy, zz, zw, wx, wy, wz, ww."""

    __slots__ = ()
    _fields = ('xx', 'xy', 'xz', 'xw', 'yx', 'yy', 'yz', 'yw', 'zx', 'zy', 'zz', 'zw', 'wx', 'wy', 'wz', 'ww')
    xx: float
    xy: float
    xz: float
    xw: float
    yx: float
    yy: float
    yz: float
    yw: float
    zx: float
    zy: float
    zz: float
    zw: float
    wx: float
    wy: float
    wz: float
    ww: float


class Color(_Math):
    """Godot's Color: components r, g, b, a."""

    __slots__ = ()
    _fields = ('r', 'g', 'b', 'a')
    r: float
    g: float
    b: float
    a: float


class PackedInt32Array(_Packed):
    """Godot's PackedInt32Array: 1 component(s) per element, flat."""

    __slots__ = ()
    _element = None


class PackedInt64Array(_Packed):
    """Godot's PackedInt64Array: 1 component(s) per element, flat."""

    __slots__ = ()
    _element = None


class PackedRealArray(_Packed):
    """Godot's PackedRealArray: 1 component(s) per element, flat."""

    __slots__ = ()
    _element = None


class PackedFloat32Array(_Packed):
    """Godot's PackedFloat32Array: 1 component(s) per element, flat."""

    __slots__ = ()
    _element = None


class PackedFloat64Array(_Packed):
    """Godot's PackedFloat64Array: 1 component(s) per element, flat."""

    __slots__ = ()
    _element = None


class PackedVector2Array(_Packed):
    """Godot's PackedVector2Array: 2 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Vector2'


class PackedVector2iArray(_Packed):
    """Godot's PackedVector2iArray: 2 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Vector2i'


class PackedVector3Array(_Packed):
    """Godot's PackedVector3Array: 3 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Vector3'


class PackedVector3iArray(_Packed):
    """Godot's PackedVector3iArray: 3 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Vector3i'


class PackedVector4Array(_Packed):
    """Godot's PackedVector4Array: 4 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Vector4'


class PackedVector4iArray(_Packed):
    """Godot's PackedVector4iArray: 4 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Vector4i'


class PackedColorArray(_Packed):
    """Godot's PackedColorArray: 4 component(s) per element, flat."""

    __slots__ = ()
    _element = 'Color'


MATH_TYPES: Dict[str, Type[_Math]] = {c.__name__: c for c in (
    Vector2, Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D, Vector4, Vector4i, Plane, Quaternion, AABB, Basis,
    Transform3D, Projection, Color)}
PACKED_TYPES: Dict[str, Type[_Packed]] = {c.__name__: c for c in (
    PackedInt32Array, PackedInt64Array, PackedRealArray, PackedFloat32Array, PackedFloat64Array, PackedVector2Array,
    PackedVector2iArray, PackedVector3Array, PackedVector3iArray, PackedVector4Array, PackedVector4iArray,
    PackedColorArray)}

# Each type's components (per value, or per element) and whether they are ints or reals: the library's
# (gdw_type_components, gdw_type_has_reals), not restated here. A math type's names are this module's, and must
# be as many as the library's components.
for _type, _mcls in MATH_TYPES.items():
    if len(_mcls._fields) != _gdwire.TYPE_COMPONENTS[_type]:
        raise ImportError(f"gdwire._values names {len(_mcls._fields)} components of {_type}, the library "
                          f"{_gdwire.TYPE_COMPONENTS[_type]}")
    _mcls._ints = not _gdwire.TYPE_HAS_REALS[_type]
for _type, _pcls in PACKED_TYPES.items():
    _pcls._per = _gdwire.TYPE_COMPONENTS[_type]
    _pcls._ints = not _gdwire.TYPE_HAS_REALS[_type]


class PackedStringArray(tuple):  # type: ignore[type-arg]
    """A PackedStringArray: a tuple of str (RawString where an entry is not UTF-8)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"PackedStringArray({list(self)!r})"



class NodePath(_Frozen):
    """A NodePath: names, subnames, absolute; ``property`` is Godot 2's separate property flag (the last
    subname is the property)."""

    __slots__ = ("names", "subnames", "absolute", "property")
    names: Tuple[Any, ...]
    subnames: Tuple[Any, ...]
    absolute: bool
    property: bool

    def __init__(self, names: Union[str, Sequence[str]] = (), subnames: Sequence[str] = (), absolute: bool = False,
                 property: bool = False) -> None:
        if isinstance(names, str):  # NodePath("/root/a:b"), as Godot's NodePath(String)
            text = names
            absolute = text.startswith("/")
            path, _, sub = text.partition(":")
            names = [p for p in path.split("/") if p]
            subnames = sub.split(":") if sub else []
        _set(self, names=tuple(names), subnames=tuple(subnames), absolute=bool(absolute), property=bool(property))

    def _key(self) -> Tuple[Any, ...]:
        return (self.names, self.subnames, self.absolute, self.property)

    def __str__(self) -> str:
        s = ("/" if self.absolute else "") + "/".join(str(n) for n in self.names)
        return s + "".join(":" + str(n) for n in self.subnames)

    def __repr__(self) -> str:
        return f"NodePath({str(self)!r})"


class RID(_Frozen):
    """A RID: Godot 4 carries its 64-bit id; Godot 2 and 3 carry none (``id`` None)."""

    __slots__ = ("id",)
    id: Optional[int]

    def __init__(self, id: Optional[int] = None) -> None:
        _set(self, id=id)

    def _key(self) -> Tuple[Any, ...]:
        return (self.id,)

    def __repr__(self) -> str:
        return "RID()" if self.id is None else f"RID({self.id})"


class Object(_Frozen):
    """An Object: the null Object (``Object()``), an instance id (``Object(id=5)``), or in full, its class name and
    its properties as (name, value) pairs (decoded only with ``allow_objects=True``)."""

    __slots__ = ("class_name", "properties", "id")
    class_name: Union[str, RawString, None]
    properties: Tuple[Tuple[Any, Any], ...]
    id: Optional[int]

    def __init__(self, class_name: Optional[str] = None, properties: Iterable[Tuple[Any, Any]] = (),
                 id: Optional[int] = None) -> None:
        if isinstance(properties, dict):
            properties = properties.items()
        _set(self, class_name=class_name, properties=tuple((k, v) for k, v in properties), id=id)

    @property
    def is_null(self) -> bool:
        return self.class_name is None and self.id is None

    def _key(self) -> Tuple[Any, ...]:
        return (self.class_name, self.properties, self.id)

    def __repr__(self) -> str:
        if self.id is not None:
            return f"Object(id={self.id})"
        if self.class_name is None:
            return "Object()"
        return f"Object({self.class_name!r}, {dict(self.properties)!r})" if all(
            isinstance(k, str) for k, _ in self.properties) else f"Object({self.class_name!r}, {list(self.properties)!r})"


class Callable(_Frozen):
    """A Callable: Godot 4 writes none but its type."""

    __slots__ = ()

    def _key(self) -> Tuple[Any, ...]:
        return ()

    def __repr__(self) -> str:
        return "Callable()"


class Signal(_Frozen):
    """A Signal: its name and its object's id."""

    __slots__ = ("name", "object_id")
    name: str
    object_id: int

    def __init__(self, name: str, object_id: int = 0) -> None:
        _set(self, name=name, object_id=object_id)

    def _key(self) -> Tuple[Any, ...]:
        return (self.name, self.object_id)

    def __repr__(self) -> str:
        return f"Signal({self.name!r}, {self.object_id})"


class Array(tuple):  # type: ignore[type-arg]
    """An Array that a list cannot stand for: typed (``element_type``: a builtin type name, or {"class": ...}
    / {"script": ...}), Godot 2's shared flag, or Pandemonium 5's TypedArray / PackedTypedArray (``kind``)."""

    element_type: Any
    shared: bool
    kind: str

    def __new__(cls, items: Iterable[Any] = (), element_type: Any = None, shared: bool = False,
                kind: str = "Array") -> "Array":
        self = super().__new__(cls, items)
        object.__setattr__(self, "element_type", element_type)
        object.__setattr__(self, "shared", bool(shared))
        object.__setattr__(self, "kind", kind)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Array is immutable")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Array) and type(other) is Array and tuple.__eq__(self, other) and
                (self.element_type, self.shared, self.kind) == (other.element_type, other.shared, other.kind))

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((tuple(_hashable(x) for x in self), str(self.element_type), self.shared, self.kind))

    def __repr__(self) -> str:
        extra = "".join([f", element_type={self.element_type!r}" if self.element_type is not None else "",
                         ", shared=True" if self.shared else "", f", kind={self.kind!r}" if self.kind != "Array" else ""])
        return f"Array({list(self)!r}{extra})"


class Dictionary(_Frozen):
    """A Dictionary a dict cannot stand for: keys Python would merge or cannot hash, typed keys or values,
    or Godot 2's shared flag. ``pairs`` keeps every (key, value) in order."""

    __slots__ = ("pairs", "key_type", "value_type", "shared")
    pairs: Tuple[Tuple[Any, Any], ...]
    key_type: Any
    value_type: Any
    shared: bool

    def __init__(self, pairs: Iterable[Tuple[Any, Any]] = (), key_type: Any = None, value_type: Any = None,
                 shared: bool = False) -> None:
        if isinstance(pairs, dict):
            pairs = pairs.items()
        _set(self, pairs=tuple((k, v) for k, v in pairs), key_type=key_type, value_type=value_type, shared=shared)

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[Any]:
        return (k for k, _ in self.pairs)

    def items(self) -> Tuple[Tuple[Any, Any], ...]:
        return self.pairs

    def _key(self) -> Tuple[Any, ...]:
        return (self.pairs, str(self.key_type), str(self.value_type), self.shared)

    def __repr__(self) -> str:
        extra = "".join([f", key_type={self.key_type!r}" if self.key_type is not None else "",
                         f", value_type={self.value_type!r}" if self.value_type is not None else "",
                         ", shared=True" if self.shared else ""])
        return f"Dictionary({list(self.pairs)!r}{extra})"


class Image(_Frozen):
    """Godot 2's Image: format, mipmaps, width, height and its data."""

    __slots__ = ("format", "mipmaps", "width", "height", "data")
    format: int
    mipmaps: int
    width: int
    height: int
    data: bytes

    def __init__(self, format: int = 0, mipmaps: int = 0, width: int = 0, height: int = 0, data: bytes = b"") -> None:
        _set(self, format=format, mipmaps=mipmaps, width=width, height=height, data=bytes(data))

    def _key(self) -> Tuple[Any, ...]:
        return (self.format, self.mipmaps, self.width, self.height, self.data)

    def __repr__(self) -> str:
        return f"Image({self.format}, {self.mipmaps}, {self.width}, {self.height}, {self.data!r})"


class InputEvent(_Frozen):
    """Godot 2's InputEvent: its type, device, length word and the value words its type carries."""

    __slots__ = ("event_type", "device", "length", "extra")
    event_type: int
    device: int
    length: int
    extra: Tuple[int, ...]

    def __init__(self, event_type: int, device: int = 0, length: Optional[int] = None, extra: Sequence[int] = ()) -> None:
        extra = tuple(extra)
        _set(self, event_type=event_type, device=device, length=12 + 4 * len(extra) if length is None else length,
             extra=extra)

    def _key(self) -> Tuple[Any, ...]:
        return (self.event_type, self.device, self.length, self.extra)

    def __repr__(self) -> str:
        return f"InputEvent({self.event_type}, {self.device}, {self.length}, {list(self.extra)!r})"


# ---- the JSON form -> Python -------------------------------------------------------------------

def _bytes_of(j: Any) -> Union[str, bytes]:
    """A byte string of the JSON form: str when UTF-8, else the bytes."""
    if isinstance(j, dict):
        return base64.b64decode(j["base64"])
    text: str = j
    return text


def _element_type(j: Any) -> Any:
    if j is None or isinstance(j, str):
        return j
    if "class" in j:
        return {"class": _bytes_of(j["class"])}
    if "script" in j:
        return {"script": _bytes_of(j["script"])}
    return dict(j)


def _element_type_json(t: Any) -> Any:
    if t is None or isinstance(t, str):
        return t
    out = {}
    for k, v in t.items():
        out[k] = {"base64": base64.b64encode(v).decode()} if isinstance(v, bytes) else v
    return out


def from_json(j: Dict[str, Any]) -> Any:
    """The Python value of one value of the JSON form: the library reads it (its parser: the reals' grammar, widths
    and NaN payloads are the library's), and the extension maps the tree as it maps a decoded one."""
    return _gdwire.value_of_json(json.dumps(j, ensure_ascii=False, allow_nan=False))


def _from_json_rare(j: Dict[str, Any]) -> Any:
    """The Python value of a value the extension does not make itself (gdwire/_gdwire.c to_py hands these over as
    the JSON form of the one value): a NodePath, RID, Object, Callable, Signal, Godot 2's Image and InputEvent, and
    the fields of a typed or shared container or a full Object, emptied (element types, flags, class name): the
    extension makes their items and properties itself and calls the class again with them."""
    t = j["type"]
    if t == "NodePath":
        return NodePath([_name(n) for n in j["names"]], [_name(n) for n in j["subnames"]], j.get("absolute", False),
                        j.get("property", False))
    if t == "RID":
        return RID(j.get("id"))
    if t == "Object":
        if j.get("null"):
            return Object()
        if "id" in j:
            return Object(id=j["id"])
        _emptied(j, "properties")
        cls_name = _bytes_of(j["class"])
        return Object(cls_name if isinstance(cls_name, str) else RawString(cls_name))  # type: ignore[arg-type]
    if t == "Callable":
        return Callable()
    if t == "Signal":
        return Signal(_name(j["name"]), j["object_id"])
    if t in ("Array", "TypedArray", "PackedTypedArray"):
        _emptied(j, "value")
        et, shared = j.get("element_type"), j.get("shared", False)
        if t == "Array" and et is None and not shared:
            return []
        return Array((), element_type=_element_type(et), shared=shared, kind=t)
    if t == "Dictionary":
        _emptied(j, "value")
        kt, vt, shared = j.get("key_type"), j.get("value_type"), j.get("shared", False)
        if kt is None and vt is None and not shared:
            return {}
        return Dictionary((), key_type=_element_type(kt), value_type=_element_type(vt), shared=shared)
    if t == "Image":
        return Image(j["format"], j["mipmaps"], j["width"], j["height"], base64.b64decode(j["data"]))
    if t == "InputEvent":
        return InputEvent(j["event_type"], j["device"], j["length"], j.get("extra", ()))
    raise ValueError(f"the library gave a type this module does not know: {t!r}")


def _emptied(j: Dict[str, Any], field: str) -> None:
    if j.get(field):
        raise ValueError(f"a {j['type']} with its {field} reached _values.py: the extension maps those itself")


def _name(j: Any) -> Any:
    b = _bytes_of(j)
    return RawString(b) if isinstance(b, bytes) else b


# ---- Python -> the JSON form -------------------------------------------------------------------

def _str_json(t: str, s: Union[str, bytes]) -> Dict[str, Any]:
    if isinstance(s, bytes):
        return {"type": t, "base64": base64.b64encode(s).decode()}
    return {"type": t, "value": s}


def _bytes_json(s: Union[str, bytes]) -> Any:
    return {"base64": base64.b64encode(s).decode()} if isinstance(s, bytes) else s


_INT64 = (-(1 << 63), (1 << 63) - 1)


def to_json(v: Any, _depth: int = 0) -> Dict[str, Any]:
    """One value of the JSON form for the Python value v (TypeError for what no Variant is)."""
    if _depth > _gdwire.HARD_MAX_DEPTH + 1:  # the top is depth 0; nothing deeper than the library's limit + 1 is a Variant
        raise ValueError(f"value nested deeper than {_gdwire.HARD_MAX_DEPTH} levels below the top (the engines' limit)")
    if v is None:
        return {"type": "Nil"}
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, int):
        if not _INT64[0] <= v <= _INT64[1]:
            raise ValueError(f"int {v} does not fit Godot's 64-bit int")
        return {"type": "int", "value": int(v)}
    if isinstance(v, _Width):
        return {"type": "float", "width": v.width, "value": _real_text(float(v), v.width, v.bits)}
    if isinstance(v, float):
        return {"type": "float", "value": _real_text(v, 8, None)}
    if isinstance(v, StringName):
        return _str_json("StringName", str(v))
    if isinstance(v, RawStringName):
        return _str_json("StringName", bytes(v))
    if isinstance(v, RawString):
        return _str_json("String", bytes(v))
    if isinstance(v, str):
        return {"type": "String", "value": v}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"type": "PackedByteArray", "base64": base64.b64encode(bytes(v)).decode()}
    if isinstance(v, _Math):
        j: Dict[str, Any] = {"type": type(v).__name__}
        if v._ints:
            j["value"] = list(v.values)
        else:
            w = v.real_width or 4
            j["value"] = list(v._raw) if v._raw is not None else [_real_text(c, w, None) for c in v.values]
            if v.real_width:
                j["width"] = v.real_width
        return j
    if isinstance(v, _Packed):
        j = {"type": type(v).__name__}
        if v._ints:
            j["value"] = list(v.values)
        else:
            w = v.real_width or (8 if type(v).__name__ == "PackedFloat64Array" else 4)
            j["value"] = list(v._raw) if v._raw is not None else [_real_text(c, w, None) for c in v.values]
            if v.real_width:
                j["width"] = v.real_width
        return j
    if isinstance(v, PackedStringArray):
        return {"type": "PackedStringArray", "value": [_bytes_json(bytes(e)) if isinstance(e, RawString) else _check_str(e)
                                                       for e in v]}
    if isinstance(v, NodePath):
        j = {"type": "NodePath", "names": [_bytes_json(bytes(n)) if isinstance(n, RawString) else str(n) for n in v.names],
             "subnames": [_bytes_json(bytes(n)) if isinstance(n, RawString) else str(n) for n in v.subnames],
             "absolute": v.absolute}
        if v.property:
            j["property"] = True
        return j
    if isinstance(v, RID):
        return {"type": "RID"} if v.id is None else {"type": "RID", "id": v.id}
    if isinstance(v, Object):
        if v.id is not None:
            return {"type": "Object", "id": v.id}
        if v.class_name is None:
            return {"type": "Object", "null": True}
        return {"type": "Object", "class": _bytes_json(bytes(v.class_name)) if isinstance(v.class_name, RawString)
                else v.class_name, "properties": [[_bytes_json(bytes(k)) if isinstance(k, RawString) else _check_str(k),
                                                   to_json(x, _depth + 1)] for k, x in v.properties]}
    if isinstance(v, Callable):
        return {"type": "Callable"}
    if isinstance(v, Signal):
        return {"type": "Signal", "name": v.name, "object_id": v.object_id}
    if isinstance(v, Array):
        j = {"type": v.kind, "value": [to_json(x, _depth + 1) for x in v]}
        if v.element_type is not None:
            j["element_type"] = _element_type_json(v.element_type)
        if v.shared:
            j["shared"] = True
        return j
    if isinstance(v, (list, tuple)):
        return {"type": "Array", "value": [to_json(x, _depth + 1) for x in v]}
    if isinstance(v, Dictionary):
        j = {"type": "Dictionary", "value": [[to_json(k, _depth + 1), to_json(x, _depth + 1)] for k, x in v.pairs]}
        if v.key_type is not None:
            j["key_type"] = _element_type_json(v.key_type)
        if v.value_type is not None:
            j["value_type"] = _element_type_json(v.value_type)
        if v.shared:
            j["shared"] = True
        return j
    if isinstance(v, dict):
        return {"type": "Dictionary", "value": [[to_json(k, _depth + 1), to_json(x, _depth + 1)] for k, x in v.items()]}
    if isinstance(v, Image):
        return {"type": "Image", "format": v.format, "mipmaps": v.mipmaps, "width": v.width, "height": v.height,
                "data": base64.b64encode(v.data).decode()}
    if isinstance(v, InputEvent):
        return {"type": "InputEvent", "event_type": v.event_type, "device": v.device, "length": v.length,
                "extra": list(v.extra)}
    raise TypeError(f"{type(v).__name__} is not a Godot value (gdwire's README, 'Python', lists the types)")


def _check_str(s: Any) -> str:
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    return s

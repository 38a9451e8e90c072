# SPDX-License-Identifier: MIT
"""gdwire: Godot's binary Variant format (``var2bytes`` / ``bytes_to_var``, ``put_var`` / ``get_var``) for every
engine generation, as Python values.

    >>> import gdwire
    >>> data = gdwire.encode({"hp": 100, "pos": gdwire.Vector2(1.5, -2)}, dialect="godot4")
    >>> gdwire.decode(data, dialect="godot4")
    {'hp': 100, 'pos': Vector2(1.5, -2.0)}

Every dialect and engine release gdwire knows (``gdwire.dialects()``) is one name: ``godot4`` (4.4 and
newer), ``godot4.3``, ``godot4.0``, ``godot3`` (3.1-3.6), ``godot3.0``, ``mole`` (Godot 2), the Pandemonium
layouts, the double-precision builds, and older releases as ``DIALECT@RELEASE``. The value types are in
gdwire._values (README.md in this package). Errors carry the C library's code, byte offset and path.

``gdwire.Session`` reads Godot multiplayer traffic (captured frames or UDP payloads) as messages: gdwire._session.
"""
from __future__ import annotations

import json as _json
import sys as _sys
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from . import _gdwire
from ._values import *  # noqa: F401,F403
from ._values import (MATH_TYPES, PACKED_TYPES, Dictionary, PackedStringArray, RawString, RawStringName, StringName,
                      _from_json_rare, from_json, to_json)
from ._streams import PacketPeerStreamReader, async_read_var, async_write_var, read_var, write_var, iter_vars  # noqa: F401
from ._session import *  # noqa: F401,F403
from ._saves import *  # noqa: F401,F403
from . import _saves, _session, _values

__all__ = [
    "decode", "decode_with_length", "encode", "check", "dialects", "canonical_name", "CheckResult", "DialectVerdict",
    "Error", "DecodeError", "EncodeError", "MODES", "library_version", "PacketPeerStreamReader", "read_var", "write_var",
    "iter_vars", "async_read_var", "async_write_var",
]
__all__ += _values.__all__
__all__ += _session.__all__
__all__ += _saves.__all__

__version__ = "0.2.0"
library_version: str = _gdwire.library_version

MODES: Tuple[str, ...] = _gdwire.MODES  # ("compatible", "strict", "engine-exact"): the library's names (gdw_mode_name)


class Error(Exception):
    """A gdwire error: ``code`` (the C library's status name, e.g. TRUNCATED), ``offset`` (the byte where the
    fault is), ``path`` (where in the value: ``[2]{"hp"}``), ``message``, ``value_offset`` (the start of the value
    that holds it) and ``engine_error`` (the engine's Error for the same bytes, e.g. ERR_INVALID_DATA)."""

    def __init__(self, code: str, offset: int = 0, path: str = "", message: str = "", value_offset: int = 0) -> None:
        super().__init__(code, offset, path, message, value_offset)
        self.code = code
        self.offset = offset
        self.path = path
        self.message = message
        self.value_offset = value_offset
        self.engine_error = "OK"

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"{self.code} at byte {self.offset}{where}: {self.message}"


class DecodeError(Error, ValueError):
    """The bytes are not a value of the dialect in the mode asked for."""


class EncodeError(Error, ValueError):
    """The value cannot be written in the dialect (a type it lacks, a number that does not fit: see ``lossy``)."""


_gdwire._set_errors(DecodeError, EncodeError)

# A value may nest 1024 levels (the engines' limit), which the JSON form doubles: deeper than Python's default
# recursion limit. The Python code that walks a value (the JSON form's mapping) runs with room for that, and
# gives the limit back after.
_DEEP_ENOUGH = 8000


def _deep(fn: Any, *args: Any) -> Any:
    limit = _sys.getrecursionlimit()
    if limit >= _DEEP_ENOUGH:
        return fn(*args)
    _sys.setrecursionlimit(_DEEP_ENOUGH)
    try:
        return fn(*args)
    finally:
        _sys.setrecursionlimit(limit)


def _from_json_text(text: str) -> Any:
    """The extension's hook for the values it does not make itself (_values._from_json_rare)."""
    return _deep(lambda: _from_json_rare(_json.loads(text)))


def _to_json_text(value: Any, depth: int = 0) -> str:
    text: str = _deep(lambda: _json.dumps(to_json(value, depth), ensure_ascii=False, allow_nan=False))
    return text


# The extension makes the values of these classes itself (their fields as this package sets them), and hands
# the rest (NodePath, Object, ...: _values._from_json_rare) over as the JSON form of the one value.
_gdwire._set_types(StringName, RawString, RawStringName, PackedStringArray, Dictionary, _from_json_text, _to_json_text,
                  MATH_TYPES, PACKED_TYPES)


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    return mode


def _data(data: Any) -> Union[bytes, bytearray, memoryview]:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return data
    raise TypeError(f"data must be bytes, bytearray or memoryview, not {type(data).__name__}")


def decode_with_length(data: bytes, dialect: str = "godot4", mode: str = "compatible", allow_objects: Optional[bool] = None,
                       max_depth: int = 0) -> Tuple[Any, int]:
    """As decode, and how many bytes the value used (the rest of ``data`` is not read)."""
    if not isinstance(dialect, str):
        raise TypeError(f"dialect must be a str, not {type(dialect).__name__}")
    objects = _gdwire.objects_by_default(dialect) if allow_objects is None else bool(allow_objects)
    return _gdwire.decode(_data(data), dialect, _mode(mode), objects, int(max_depth))


def _type_name(value: Any) -> str:
    """The Godot type name of a decoded value, for messages."""
    names = {type(None): "null", bool: "bool", int: "int", float: "float", str: "String", dict: "Dictionary", list: "Array",
             bytes: "PackedByteArray"}
    for t, name in names.items():
        if type(value) is t:
            return name
    return type(value).__name__.lstrip("_")


def _trailing_error(data: bytes, dialect: str, used: int, value: Any, allow_objects: Optional[bool]) -> DecodeError:
    """The error for bytes left after the value: how many, and the dialect that reads every byte, where one does
    (the library's ranking: check)."""
    left = len(data) - used
    what = _type_name(value)
    article = "an" if what[:1].lower() in "aeiou" else "a"
    message = f"{left} byte{'s' if left != 1 else ''} left after {article} {what}"
    result = check(data, bool(allow_objects))
    best = result.best
    if best is not None and result.skip == 0 and result.verdict(best).reading == "whole" and canonical_name(dialect) != best:
        message += f"; {best} reads all {len(data)} bytes: pass dialect={best!r}"
    else:
        message += "; pass allow_trailing=True to read a value at the start of longer bytes (decode_with_length says where it ends)"
    return DecodeError("TRAILING_BYTES", used, "", message)


def decode(data: bytes, dialect: str = "godot4", mode: str = "compatible", allow_objects: Optional[bool] = None,
           max_depth: int = 0, allow_trailing: bool = False) -> Any:
    """The value in ``data`` in ``dialect``.

    mode: ``compatible`` (whatever that engine accepts, read as it reads it), ``strict`` (only what the
    dialect's own encoder writes) or ``engine-exact`` (the engine's verdict, defects included, and the value the
    engine then holds). allow_objects: decode full Objects (class and properties), as the engine's
    ``allow_objects``; None takes the engine's own default (True for Godot 3.0 and 3.1 only). max_depth: 0
    for the engines' 1024 levels. Raises DecodeError (code, offset, path) when the bytes are not a value, and
    (code TRAILING_BYTES) when bytes are left after it, as ``json.loads`` and msgpack's ``unpackb`` do: the
    message says how many, and which dialect reads every byte where one does ("32 bytes left after a
    Vector4i; godot3 reads all 52 bytes: pass dialect='godot3'"). ``allow_trailing=True`` reads the value at
    the start and ignores the rest, as the engines do; ``decode_with_length`` also says how many bytes it used."""
    value, used = decode_with_length(data, dialect, mode, allow_objects, max_depth)
    if used < len(data) and not allow_trailing:
        raise _trailing_error(data, dialect, used, value, allow_objects)
    return value


def encode(value: Any, dialect: str = "godot4", lossy: bool = False) -> bytes:
    """The bytes ``dialect``'s engine writes for ``value`` (``var_to_bytes``).

    A value the dialect cannot hold exactly (an int beyond 32 bits in Godot 2, an F64 where only f32 exists)
    raises EncodeError naming the place, unless ``lossy``, which narrows it as the engine would.
    TypeError: the value is not a Godot value."""
    if not isinstance(dialect, str):
        raise TypeError(f"dialect must be a str, not {type(dialect).__name__}")
    return _gdwire.encode(value, dialect, bool(lossy))


class DialectVerdict(NamedTuple):
    """One dialect's verdict on a packet (check)."""

    dialect: str
    accepted: bool
    consumed: int
    strict: bool  # accepted, and the dialect's own encoder writes exactly these bytes
    engine_exact: bool  # accepted, and the engine itself accepts them too
    error: Optional[Tuple[str, int, str, str, str]]  # (code, offset, path, message, engine error) when rejected
    strict_error: Optional[Tuple[str, int, str]]  # (code, offset, message): why strict mode refuses
    rank: int  # 1-based, as ``gdwire check`` ranks (the library's gdw_check_rank_rows); equal scores share a rank
    misread_reals: int  # accepted: reals in the value that look misread (NaN, below 1e-30 or beyond 1e30)
    reading: str = "rejected"  # "whole", "cut" (a cut packet of this dialect), "prefix" (bytes left after) or "rejected"
    first: bool = False  # the named first choice, or one it is equal to (its "equally")
    reason: str = ""  # why it ranks where it does, as ``gdwire check`` says it
    short_by: int = 0  # a cut reading: how many more bytes the value needs at least


class CheckResult(NamedTuple):
    """check's answer: every dialect's verdict, the dialects that read the packet, best first, and the answer in
    one sentence (``summary``, as ``gdwire check`` and the page print it). Where no dialect reads every byte and
    one reads the bytes after a few in front (a 4-byte length prefix, an opcode), the verdicts are of the bytes
    after ``skip``, and ``framing`` says what the skipped bytes are. ``script`` says what a script of the named
    engine passes to read the value (``bytes_to_var(bytes.slice(4))``, ``StreamPeer.get_var()``)."""

    verdicts: Tuple[DialectVerdict, ...]
    ranking: Tuple[str, ...]
    summary: str = ""
    skip: int = 0
    framing: str = ""
    script: str = ""

    @property
    def best(self) -> Optional[str]:
        return self.ranking[0] if self.ranking else None

    @property
    def equally(self) -> Tuple[str, ...]:
        """The dialects as likely as ``best`` that read the same value (or, for a cut packet, the bytes there are
        alike)."""
        best = self.best
        return tuple(v.dialect for v in self.verdicts if v.first and v.dialect != best) if best is not None else ()

    def verdict(self, dialect: str) -> DialectVerdict:
        """One dialect's verdict (KeyError for a name that is not a dialect)."""
        name = canonical_name(dialect)
        for v in self.verdicts:
            if v.dialect == name:
                return v
        raise KeyError(dialect)


def check(data: bytes, allow_objects: bool = False) -> CheckResult:
    """Decode ``data`` in every dialect: which accept it, which strictly (their encoder writes exactly these
    bytes), which as the engine itself would, and the library's ranking, as ``gdwire check`` gives it: a reading
    of every byte, then a cut packet (a value that runs out of bytes), then a value with bytes left after it,
    then a rejection; among whole readings, a value without reals that look misread (NaN, below 1e-30 or beyond
    1e30: an integer or text read as a float), its encoder writing back these bytes, the engine accepting them,
    an engine's row before a documented-only one. Equals share a rank; the newest engine release among the first
    is ``best``. ``ranking`` lists the dialects that read the packet (whole, cut or in part), best first."""
    rows, best, skip, framing, summary, script = _gdwire.check(_data(data), bool(allow_objects))
    verdicts = tuple(DialectVerdict(name, err is None, consumed if err is None else 0, strict, engine, err, strict_err, rank, odd, reading, first,
                                    reason, short_by)
                     for name, consumed, strict, engine, err, strict_err, rank, odd, reading, first, reason, short_by in rows)
    named = verdicts[best].dialect if verdicts and verdicts[best].reading != "rejected" else None
    ranking = tuple(v.dialect for v in sorted((v for v in verdicts if v.reading != "rejected"), key=lambda v: (v.rank, v.dialect != named)))
    return CheckResult(verdicts, ranking, summary, skip, framing, script)


def dialects() -> List[Dict[str, Any]]:
    """Every dialect and engine release row: name, family, summary, engines, aliases, release, released,
    release_of (a release row's dialect), engine_evidence / no_engine, documented_only, objects_by_default."""
    return _gdwire.dialects()


def canonical_name(dialect: str) -> str:
    """The row's own name for a name or alias (``godot2`` -> ``mole``)."""
    return _gdwire.canonical_name(dialect)

# SPDX-License-Identifier: MIT
"""Godot saves as games keep them: ``FileAccess.store_var`` files plain, compressed (``open_compressed``: FastLZ,
Deflate, Zstandard, gzip; Brotli read only) or encrypted (``open_encrypted`` / ``open_encrypted_with_pass``, Godot 3's
and Godot 4's layouts), read and written by the C library's file containers (files/gdwire_files.h).

    >>> save = gdwire.open_save("user_save.dat", password="...", dialect="godot3")
    >>> save.values                     # every store_var value, in order
    >>> save.header["container"], save.header["layout"]
    >>> gdwire.write_save("new.dat", save.values, dialect="godot4", container="encrypted", password="...")

The secret comes from the caller only: nothing here recovers keys from game binaries or PCKs. A wrong password raises
``SaveError`` with ``status == "WRONG_KEY"`` (the engines' own MD5 check), and nothing is returned. A build without
OpenSSL's libcrypto (or brotli) raises ``SaveError`` with ``status == "UNSUPPORTED"`` for such files; it never guesses.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, NamedTuple, Optional, Union

from . import _gdwire

__all__ = ["SaveError", "Save", "open_save", "write_save", "save_key_from_password", "MAX_PLAIN_DEFAULT"]

MAX_PLAIN_DEFAULT: int = _gdwire.FILE_MAX_PLAIN_DEFAULT  # GDW_FILE_MAX_PLAIN_DEFAULT: the most plain bytes a container may declare


class SaveError(ValueError):
    """A file that does not open: ``status`` (TRUNCATED, CORRUPT, NEED_KEY, WRONG_KEY, TOO_BIG, UNSUPPORTED, ...),
    ``offset`` (the byte of the file), ``message``."""

    def __init__(self, status: str, offset: int, message: str) -> None:
        super().__init__(f"{status} at byte {offset}: {message}")
        self.status, self.offset, self.message = status, offset, message


class Save(NamedTuple):
    values: List[Any]        # every store_var value, in order
    header: Dict[str, Any]   # the container and its header fields (container, layout, generation, compression, iv, ...)
    plain: bytes             # the store_var bytes inside


def _save_error(e: ValueError) -> ValueError:
    """The extension's ValueError(status, offset, message) as a SaveError; any other ValueError as it is."""
    if len(e.args) == 3 and isinstance(e.args[0], str) and isinstance(e.args[1], int):
        return SaveError(e.args[0], e.args[1], str(e.args[2]))
    return e


def save_key_from_password(password: str) -> bytes:
    """The 32-byte key ``open_encrypted_with_pass`` makes of a password (its MD5 as 32 lowercase hex characters)."""
    return _gdwire.file_key_from_password(password)


def _key(password: Optional[str], key: Optional[bytes]) -> Optional[bytes]:
    if password is not None and key is not None:
        raise ValueError("give password or key, not both")
    if key is not None and len(key) != 32:
        raise ValueError("key: the 32 bytes open_encrypted takes")
    return save_key_from_password(password) if password is not None else (bytes(key) if key is not None else None)


def open_save(source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview], password: Optional[str] = None,
              key: Optional[bytes] = None, dialect: str = "godot4", max_plain: int = MAX_PLAIN_DEFAULT) -> Save:
    """A save's values: ``source`` is a path or the file's bytes; ``dialect`` the generation's values (godot3, godot4)."""
    from . import decode  # the package's own decode: its values and errors
    if isinstance(source, (bytes, bytearray, memoryview)):
        data: Union[bytes, bytearray, memoryview] = source
    else:
        with open(source, "rb") as f:
            data = f.read()
    try:
        plain, header = _gdwire.file_open(data, _key(password, key), max_plain)
    except ValueError as e:
        raise _save_error(e) from None
    values: List[Any] = []
    at = 0
    while at < len(plain):
        if len(plain) - at < 4:
            raise SaveError("CORRUPT", at, f"{len(plain) - at} bytes after the last value: not a store_var length")
        n = int.from_bytes(plain[at:at + 4], "little")
        if n > len(plain) - at - 4:
            raise SaveError("CORRUPT", at, f"a store_var length of {n} bytes with {len(plain) - at - 4} left")
        values.append(decode(plain[at + 4:at + 4 + n], dialect))
        at += 4 + n
    return Save(values, header, plain)


def write_save(path: Optional[Union[str, "os.PathLike[str]"]], values: List[Any], dialect: str = "godot4",
               container: str = "plain", password: Optional[str] = None, key: Optional[bytes] = None) -> bytes:
    """``values`` stored as ``store_var`` stores them, in ``container``: "plain", "compressed:MODE" (fastlz, deflate,
    zstd, gzip) or "encrypted" (with password or key), in the dialect's generation's layout. Written to ``path``
    (when given) and returned."""
    from . import encode
    generation = 3 if canonical_generation(dialect) == 3 else 4
    plain = b"".join(len(b).to_bytes(4, "little") + b for b in (encode(v, dialect) for v in values))
    kind, _, mode = container.partition(":")
    try:
        out = _gdwire.file_write(plain, kind, generation, mode or "zstd", _key(password, key))
    except ValueError as e:
        raise _save_error(e) from None
    if path is not None:
        with open(path, "xb") as f:  # never over a file
            f.write(out)
    return out


def canonical_generation(dialect: str) -> int:
    """3 or 4: the FileAccess layouts a dialect goes with (its family, godot3 or godot4); ValueError otherwise."""
    family = next((d["family"] for d in _gdwire.dialects() if d["name"] == _gdwire.canonical_name(dialect)), "")
    if family not in ("godot3", "godot4"):
        raise ValueError(f"no FileAccess container layout is known for {dialect} (family {family or 'unknown'})")
    return 3 if family == "godot3" else 4

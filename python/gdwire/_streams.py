# SPDX-License-Identifier: MIT
"""The engines' framings, for a socket, a file or asyncio streams.

* ``StreamPeer.put_var`` / ``get_var`` (StreamPeerTCP, StreamPeerBuffer) and ``FileAccess.store_var``: a 4-byte
  length, then the value's bytes: ``read_var`` / ``write_var`` (``async_read_var`` / ``async_write_var`` on
  asyncio streams). The length is little-endian unless the peer's ``big_endian`` is set.
* ``PacketPeerStream`` (``put_var`` on a PacketPeerStream over a TCP stream): the same prefix per packet, at
  most 65,531 bytes by default; ``PacketPeerStreamReader`` cuts a byte stream into packets as they arrive,
  and ``iter_vars`` reads values from a file-like stream until it ends.

Every length is bounded (``max_payload``): a peer cannot make the reader allocate what it says.
"""
from __future__ import annotations

import struct
from typing import Any, BinaryIO, Iterator, Optional

from . import _gdwire

# the library's bounds (codec/gdwire.h): what a default PacketPeerStream delivers (GDW_FRAME_MAX_PACKET_STREAM,
# 65,531 bytes: core/io/packet_peer.cpp), and gdwire's for StreamPeer and files (GDW_FRAME_MAX_DEFAULT, 256 MiB;
# the engine allocates what the prefix says)
MAX_PACKET_STREAM: int = _gdwire.FRAME_MAX_PACKET_STREAM
MAX_DEFAULT: int = _gdwire.FRAME_MAX_DEFAULT


def _codec() -> Any:
    import gdwire  # the package, imported late: this module is part of it
    return gdwire


def _prefix(n: int, big_endian: bool) -> bytes:
    return struct.pack(">I" if big_endian else "<I", n)


def _length(prefix: bytes, big_endian: bool, max_payload: int) -> int:
    n: int = struct.unpack(">I" if big_endian else "<I", prefix)[0]
    if n > max_payload:
        g = _codec()
        raise g.DecodeError("TOO_LARGE", 0, "", f"the length prefix says {n} bytes, more than max_payload ({max_payload})")
    return n


_CHUNK = 1 << 20  # the most one recv or read asks for


def _read_exact(stream: Any, n: int) -> Optional[bytearray]:
    """n bytes from a file-like object or socket, in one growing bytearray: O(n) memory however the
    bytes trickle in (never what the peer only claims: it grows as they come); None at a clean end
    before the first byte."""
    buf = bytearray()
    recv = getattr(stream, "recv", None)
    while len(buf) < n:
        want = min(n - len(buf), _CHUNK)
        chunk = recv(want) if recv is not None else stream.read(want)
        if not chunk:
            if not buf:
                return None
            g = _codec()
            raise g.DecodeError("TRUNCATED", len(buf), "", f"the stream ended {n - len(buf)} bytes before the frame's end")
        buf += chunk
    return buf


def read_var(stream: Any, dialect: str = "godot4", mode: str = "compatible", allow_objects: Optional[bool] = None,
             big_endian: bool = False, max_payload: int = MAX_DEFAULT) -> Any:
    """The next value a peer's ``put_var`` (or ``store_var``) wrote to ``stream`` (a socket or a binary file):
    EOFError at a clean end of the stream, DecodeError for a frame that is cut short or does not decode."""
    prefix = _read_exact(stream, 4)
    if prefix is None:
        raise EOFError("the stream ended")
    payload = _read_exact(stream, _length(prefix, big_endian, max_payload))
    return _codec().decode(payload or b"", dialect, mode, allow_objects)


def write_var(stream: Any, value: Any, dialect: str = "godot4", big_endian: bool = False, lossy: bool = False) -> None:
    """Write ``value`` as the engine's ``put_var`` does: its length, then its bytes."""
    data = _codec().encode(value, dialect, lossy)
    frame = _prefix(len(data), big_endian) + data
    send = getattr(stream, "sendall", None)
    if send is not None:
        send(frame)
    else:
        stream.write(frame)


def iter_vars(stream: BinaryIO, dialect: str = "godot4", mode: str = "compatible", allow_objects: Optional[bool] = None,
              big_endian: bool = False, max_payload: int = MAX_DEFAULT) -> Iterator[Any]:
    """Every value in a stream of ``put_var`` frames, until the stream ends."""
    while True:
        try:
            yield read_var(stream, dialect, mode, allow_objects, big_endian, max_payload)
        except EOFError:
            return


async def async_read_var(reader: Any, dialect: str = "godot4", mode: str = "compatible", allow_objects: Optional[bool] = None,
                         big_endian: bool = False, max_payload: int = MAX_DEFAULT) -> Any:
    """As read_var, from an asyncio.StreamReader: EOFError at a clean end."""
    import asyncio
    try:
        prefix = await reader.readexactly(4)
    except asyncio.IncompleteReadError as e:
        if not e.partial:
            raise EOFError("the stream ended") from None
        raise _codec().DecodeError("TRUNCATED", len(e.partial), "", "the stream ended inside a length prefix") from None
    n = _length(prefix, big_endian, max_payload)
    try:
        payload = await reader.readexactly(n)
    except asyncio.IncompleteReadError as e:
        raise _codec().DecodeError("TRUNCATED", len(e.partial), "",
                                   f"the stream ended {n - len(e.partial)} bytes before the frame's end") from None
    return _codec().decode(payload, dialect, mode, allow_objects)


async def async_write_var(writer: Any, value: Any, dialect: str = "godot4", big_endian: bool = False,
                          lossy: bool = False) -> None:
    """As write_var, to an asyncio.StreamWriter (and drains it)."""
    data = _codec().encode(value, dialect, lossy)
    writer.write(_prefix(len(data), big_endian) + data)
    await writer.drain()


class PacketPeerStreamReader:
    """Cuts the bytes of a PacketPeerStream (a TCP stream of ``PacketPeerStream.put_var`` packets) into values as
    they arrive: ``feed`` what was received, then iterate ``values()``. A packet longer than ``max_payload``
    (the engine's default buffer: 65,531 bytes) raises DecodeError, as the engine refuses it."""

    def __init__(self, dialect: str = "godot4", mode: str = "compatible", allow_objects: Optional[bool] = None,
                 max_payload: int = MAX_PACKET_STREAM) -> None:
        self.dialect, self.mode, self.allow_objects, self.max_payload = dialect, mode, allow_objects, max_payload
        self._buf = bytearray()
        self._start = 0  # bytes before it were handed out; dropped when the buffer is drained or half read

    def feed(self, data: bytes) -> None:
        if self._start and self._start * 2 >= len(self._buf):
            del self._buf[:self._start]  # costs no more than what was read since the last time
            self._start = 0
        self._buf += data

    @property
    def pending(self) -> int:
        """Bytes received and not yet part of a whole packet."""
        return len(self._buf) - self._start

    def packets(self) -> Iterator[bytes]:
        """Every whole packet received so far, as bytes, each once (a loop that stops early leaves the rest)."""
        while len(self._buf) - self._start >= 4:
            at = self._start
            n = _length(bytes(self._buf[at:at + 4]), False, self.max_payload)
            if len(self._buf) - at < 4 + n:
                return
            packet = bytes(self._buf[at + 4:at + 4 + n])
            self._start = at + 4 + n
            if self._start == len(self._buf):
                self._buf.clear()
                self._start = 0
            yield packet

    def values(self) -> Iterator[Any]:
        """Every whole packet received so far, decoded."""
        g = _codec()
        for packet in self.packets():
            yield g.decode(packet, self.dialect, self.mode, self.allow_objects)

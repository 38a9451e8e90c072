# SPDX-License-Identifier: MIT
"""Godot multiplayer traffic as messages: the C library's session reader (session/gdwire_session.h) over captured
frames or UDP payloads, each message's Variants as this package's Python values.

    >>> s = gdwire.Session()
    >>> for event in s.frame(ethernet_frame, time=t):          # or s.udp(src, dst, payload)
    ...     if isinstance(event, gdwire.Message) and event.command == "rpc":
    ...         print(event.from_peer, event.path, event.method_id, [v.value for v in event.values])

A feed (``frame``, ``udp``, ``finish``) returns the events it produced, in order: ``Message`` and ``Problem``. The
session holds what spans packets (ENet fragments and retransmit windows, TCP streams, path caches) within its caps,
and says what it drops as problems; no input raises.

Capture files: ``gdwire.read_capture(source)`` gives a pcap or pcapng file's records (``CaptureRecord``), read by
the C library's own reader (session/gdwire_pcap.h), from a path, a bytes-like object or a binary file, with bounded
memory; ``Session.read_capture(source)`` feeds them and yields the events, ending with ``finish``'s. A file cut short
or not a capture raises ``CaptureError`` (with the byte of the file) after every whole record before it.
"""
from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple, Union

from . import _gdwire

if TYPE_CHECKING:
    from . import DecodeError

__all__ = [
    "Session", "Message", "MessageValue", "Problem", "SessionStats", "Flow", "Event", "compressions_built",
    "read_capture", "CaptureRecord", "CaptureError", "CaptureSource",
    "LINK_NULL", "LINK_ETHERNET", "LINK_DLT_RAW", "LINK_DLT_RAW_OPENBSD", "LINK_RAW", "LINK_LOOP", "LINK_LINUX_SLL",
    "LINK_IPV4", "LINK_IPV6", "LINK_LINUX_SLL2",
]

# Link types of Session.frame, as libpcap numbers them (a pcap file's header says its own)
LINK_NULL: int = _gdwire.LINK_NULL                      # BSD loopback: a 4-byte family in the capturing host's order
LINK_ETHERNET: int = _gdwire.LINK_ETHERNET
LINK_DLT_RAW: int = _gdwire.LINK_DLT_RAW                # raw IP, as pcap_datalink names LINKTYPE_RAW
LINK_DLT_RAW_OPENBSD: int = _gdwire.LINK_DLT_RAW_OPENBSD
LINK_RAW: int = _gdwire.LINK_RAW                        # a bare IPv4 or IPv6 packet
LINK_LOOP: int = _gdwire.LINK_LOOP                      # OpenBSD loopback
LINK_LINUX_SLL: int = _gdwire.LINK_LINUX_SLL
LINK_IPV4: int = _gdwire.LINK_IPV4
LINK_IPV6: int = _gdwire.LINK_IPV6
LINK_LINUX_SLL2: int = _gdwire.LINK_LINUX_SLL2


def _decode_error(t: Tuple[str, int, str, str, int, str]) -> DecodeError:
    from . import DecodeError  # the package's, imported late: this module is part of it
    code, offset, path, message, value_offset, engine_error = t
    e = DecodeError(code, offset, path, message, value_offset)
    e.engine_error = engine_error
    return e


@dataclass(frozen=True)
class MessageValue:
    """One Variant of a message: an RPC's argument (``label`` "arg"), a spawn's argument or state ("spawn_arg",
    "spawn_state"), a synchronizer's state ("state"), a put_var flow's value ("value").

    ``value`` is the Python value (as ``gdwire.decode`` gives it), or None with ``error`` set (a DecodeError whose
    offsets count from the value's first byte) when its bytes do not decode. ``offset`` and ``length`` place its
    bytes in the message's ``data``. ``encoding``: "Variant", or Godot 4 SceneMultiplayer's "compact bool",
    "compact int" or "bare bytes" (an RPC's one PackedByteArray argument), which are not Variants of any dialect.
    ``net_id`` (sync and delta: the synchronizer's net id, bit 31 a path-cache id) and ``indexes`` (delta: the
    mask of the properties sent) are None for other commands."""

    label: str
    index: int
    net_id: Optional[int]
    indexes: Optional[int]
    offset: int
    length: int
    encoding: str
    value: Any
    error: Optional[DecodeError] = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        """The value decoded."""
        return self.error is None


@dataclass(frozen=True)
class Message:
    """One Godot multiplayer message (a SceneMultiplayer or MultiplayerAPI packet, or a put_var value on plain TCP).

    ``frame`` is the frame (1-based, in feeding order; for ``udp``, each payload is one) that completed it and
    ``time`` that frame's time. ``flow`` numbers the flow (1-based, in order of first sight: ``Session.flows``).
    ``transport``: "enet", "websocket" or "tcp"; ``dialect`` the flow's. ``from_peer`` and ``to_peer`` are Godot
    peer ids (1 the server, 0 unknown; ``to_peer`` of a relayed message 0 for everyone, -N everyone but N).
    ``mode``: "reliable", "unreliable" or "unreliable_ordered". ``command``: "rpc", "rset" (Godot 3),
    "simplify_path", "confirm_path", "raw", "spawn", "despawn", "sync", "delta", "auth", "add_peer", "del_peer",
    "var" (plain TCP). ``path``: the node path (an RPC's, from the sender's path cache or inline; a spawn's
    spawner), None when unknown. ``data``: the packet's bytes.

    The command's own fields are None where it has none:

    * rpc, rset: ``node_id`` (the path-cache id; None when the path is inline), ``inline_path``, ``method_id``
      (Godot 4), ``method`` (Godot 3: the name the packet carries);
    * simplify_path: ``node_id``, ``inline_path``, ``md5`` (Godot 4: the MD5 of the node's RPC names);
      confirm_path: Godot 4 ``node_id`` and ``checksum_valid``, Godot 3 ``inline_path``;
    * spawn: ``node_id`` (the spawner's cache id), ``net_id``, ``scene_id`` (255: a custom spawn), ``name``;
      despawn: ``net_id``; sync: ``sync_time``; add_peer, del_peer: ``peer``; raw, auth: ``payload``.

    With ``Session(project=...)``, read against the project's manifest as ``gdwire capture --project --json``
    reads it (the C library's gdw_rpc_annotate): a Godot 4 RPC's ``method`` is the manifest's name for its id; an
    RPC the manifest names has ``args_fit`` (True, False: the receiving engine refuses the call, ``refused`` says
    why; None: the manifest cannot tell); a simplify_path whose MD5 is another build's has ``project_md5`` (the
    project's, for that node).

    Text the packet carries (paths, names) is UTF-8 where it is, its other bytes kept as lone surrogates
    (``s.encode("utf-8", "surrogateescape")`` gives the bytes back)."""

    frame: int
    time: float
    flow: int
    transport: str
    dialect: str
    from_peer: int
    to_peer: int
    relayed: bool
    channel: int
    mode: str
    command: str
    path: Optional[str]
    data: bytes = field(repr=False)
    node_id: Optional[int] = None
    inline_path: Optional[str] = None
    method_id: Optional[int] = None
    method: Optional[str] = None
    md5: Optional[str] = None
    checksum_valid: Optional[bool] = None
    net_id: Optional[int] = None
    scene_id: Optional[int] = None
    name: Optional[str] = None
    sync_time: Optional[int] = None
    peer: Optional[int] = None
    payload: Optional[bytes] = field(default=None, repr=False)
    values: Tuple[MessageValue, ...] = ()
    args_fit: Optional[bool] = None
    refused: Optional[str] = None
    project_md5: Optional[str] = None

    @property
    def size(self) -> int:
        """The packet's size in bytes."""
        return len(self.data)

    def value_bytes(self, value: MessageValue) -> bytes:
        """The bytes of one of this message's values."""
        return self.data[value.offset:value.offset + value.length]


@dataclass(frozen=True)
class Problem:
    """What the session could not read, or dropped to stay within its caps: ``frame`` (0: at the end), ``time``,
    ``flow`` (0: before a flow is known), ``layer`` ("link", "ip", "udp", "tcp", "enet", "websocket",
    "multiplayer", "session"), ``offset`` (the byte of the frame, or of the packet for "multiplayer") and
    ``message``. None stops the session."""

    frame: int
    time: float
    flow: int
    layer: str
    offset: int
    message: str


Event = Union[Message, Problem]


@dataclass(frozen=True)
class SessionStats:
    """What a session has read and holds (gdw_session_stats)."""

    frames: int
    udp_datagrams: int
    enet_datagrams: int
    tcp_segments: int
    messages: int
    retransmits: int
    problems: int
    fragments_completed: int
    fragments_dropped: int
    decompressed: int
    states_dropped: int  # state dropped to keep within a cap
    by_command: Dict[str, int]  # packets by command name, the commands seen only ("relay": SYS relays, whose inner
    #                             packets are messages of their own, counted under their commands too)
    message_bytes: int
    open_fragment_bytes: int  # reassembly held now (max_open_fragment_bytes)
    peak_fragment_bytes: int
    window_bytes: int  # retransmit windows, now
    path_bytes: int  # path caches, now
    held_bytes: int  # everything held because of the traffic, now
    peak_held_bytes: int
    flows: int


@dataclass(frozen=True)
class Flow:
    """One flow: ``number`` (as messages name it), ``endpoints`` ("127.0.0.1:40000 -> 127.0.0.1:9999", the client
    first), ``dialect`` (None while it has carried no Godot packet) and ``compression``: how the client's and the
    server's ENet datagrams are compressed ("none", "range_coder", "fastlz", "zlib", "zstd"), as found at each
    side's first compressed one."""

    number: int
    endpoints: str
    dialect: Optional[str]
    compression: Tuple[str, str]


def compressions_built() -> Tuple[str, ...]:
    """The ENet compressions this build of the extension reads itself: "fastlz" always, "zlib" and "zstd" where
    the machine that built it had them (the build's probe). The range coder is libenet's: ``Session(range_coder=True)``."""
    return tuple(_gdwire.compressions_built())




def _value(v: Tuple[Any, ...]) -> MessageValue:
    label, index, net_id, indexes, offset, length, encoding, value, error = v
    return MessageValue(label, index, net_id, indexes, offset, length, encoding, value,
                        _decode_error(error) if error is not None else None)


def _event(t: Tuple[Any, ...]) -> Event:
    """An event of the extension's (_gdwire.pyi) as its class."""
    if t[0] == 1:
        return Problem(*t[1:])
    (_, frame, time, flow, transport, dialect, from_peer, to_peer, relayed, channel, mode, command, path, data, fields,
     values, project) = t
    (node_id, inline_path, method_id, method, md5, checksum_valid, net_id, scene_id, name, sync_time, peer,
     payload) = fields
    project_method, args_fit, refused, project_md5 = project if project is not None else (None, None, None, None)
    if method is None:
        method = project_method
    return Message(frame, time, flow, transport, dialect, from_peer, to_peer, relayed, channel, mode, command, path, data,
                   node_id=node_id, inline_path=inline_path, method_id=method_id, method=method, md5=md5,
                   checksum_valid=checksum_valid, net_id=net_id, scene_id=scene_id, name=name, sync_time=sync_time,
                   peer=peer, payload=payload, values=tuple(_value(v) for v in values), args_fit=args_fit, refused=refused,
                   project_md5=project_md5)


def _project_arg(project: Union[str, "os.PathLike[str]", None]) -> Optional[Tuple[str, str]]:
    """Session(project=...) as the extension takes it: ("dir", folder) or ("json", the manifest's text)."""
    if project is None:
        return None
    if isinstance(project, str) and project.lstrip().startswith("{"):
        return ("json", project)
    path = os.fspath(project)
    if not isinstance(path, str):
        raise TypeError(f"project must be a str or os.PathLike[str], not {type(project).__name__}")
    if os.path.isdir(path):
        return ("dir", path)
    with open(path, encoding="utf-8") as f:
        return ("json", f.read())


def _address(a: Any, what: str) -> Tuple[bytes, int]:
    if not isinstance(a, tuple) or len(a) != 2:
        raise TypeError(f"{what} must be (address, port), not {a!r}")
    host, port = a
    if isinstance(host, (bytes, bytearray)) and len(host) in (4, 16):
        packed = bytes(host)
    elif isinstance(host, (str, ipaddress.IPv4Address, ipaddress.IPv6Address)):
        packed = ipaddress.ip_address(host).packed
    else:
        raise TypeError(f"{what}'s address must be a str, an ipaddress address or 4 or 16 bytes, not {host!r}")
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"{what}'s port must be an int from 0 to 65535, not {port!r}")
    return packed, port


class Session:
    """A Godot multiplayer session read from its traffic (the C library's gdw_session).

    ``dialect``: the Variants' dialect, and by it the multiplayer layer ("godot4", "godot4.3", "godot4-double",
    "godot3", "godot3@3.2"); None detects it per flow. ``mode`` and ``allow_objects`` are how Variants decode (as
    ``decode``'s; objects are allowed by default, since a capture shows what was sent). ``range_coder=True`` loads
    libenet (Debian libenet7) for ENet's range coder, Godot 3.4+'s default compression, and raises OSError when it
    cannot; without it, range-coded datagrams are problems. FastLZ is always read, zlib and zstd where the build
    had them (``compressions_built``). The ``max_*`` caps bound what the session holds (docs/capture.md); what
    would pass one is dropped, with a problem. ``project``: a Godot project folder, or a manifest file saved with
    ``gdwire rpc --json`` (or the addon's dump), or a manifest as JSON text (a str starting with ``{``): every message
    is read against it (``Message``: method names, ``args_fit``, ``refused``, ``project_md5``); OSError or
    ValueError when it cannot be read. A Session is used by one thread at a time."""

    def __init__(self, dialect: Optional[str] = None, *, mode: str = "compatible", allow_objects: bool = True,
                 range_coder: bool = False, max_open_fragment_bytes: int = 64 << 20, max_flow_fragment_bytes: int = 40 << 20,
                 max_packet_bytes: int = 32 << 20, max_flows: int = 4096, max_cached_paths: int = 65536,
                 max_window_bytes: int = 16 << 20, max_flow_window_bytes: int = 192 << 10, max_path_bytes: int = 16 << 20,
                 max_flow_path_bytes: int = 4 << 20, max_ip_fragment_bytes: int = 16 << 20,
                 project: Union[str, "os.PathLike[str]", None] = None) -> None:
        if dialect is not None and not isinstance(dialect, str):
            raise TypeError(f"dialect must be a str or None, not {type(dialect).__name__}")
        caps = (max_open_fragment_bytes, max_flow_fragment_bytes, max_packet_bytes, max_flows, max_cached_paths,
                max_window_bytes, max_flow_window_bytes, max_path_bytes, max_flow_path_bytes, max_ip_fragment_bytes)
        for c in caps:
            if not isinstance(c, int) or isinstance(c, bool):
                raise TypeError(f"a max_* cap must be an int, not {type(c).__name__}")
        self._s = _gdwire._Session(dialect, mode, bool(allow_objects), bool(range_coder), caps, _project_arg(project))
        self.range_coder = bool(range_coder)

    def frame(self, data: Union[bytes, bytearray, memoryview], *, link: int = LINK_ETHERNET, time: float = 0.0,
              wirelen: Optional[int] = None) -> List[Event]:
        """One captured frame of link type ``link``: the events it produced. ``wirelen``: the frame's length on the
        wire when the capture kept less (a snapshot length); None, all of it was kept."""
        return [_event(t) for t in self._s.frame(data, int(link), float(time), -1 if wirelen is None else int(wirelen))]

    def udp(self, src: Tuple[Any, int], dst: Tuple[Any, int], payload: Union[bytes, bytearray, memoryview], *,
            time: float = 0.0) -> List[Event]:
        """One UDP payload from ``src`` to ``dst`` (each ``(address, port)``: "127.0.0.1", "::1", an
        ipaddress address or its 4 or 16 bytes; both of one family), as a program that reads its own socket has it:
        the events it produced."""
        sa, sp = _address(src, "src")
        da, dp = _address(dst, "dst")
        if len(sa) != len(da):
            raise ValueError("src and dst must be addresses of one family (IPv4 or IPv6)")
        return [_event(t) for t in self._s.udp(sa, sp, da, dp, payload, float(time))]

    def finish(self) -> List[Event]:
        """The traffic ended: the problems of what never completed (fragmented packets, cut streams). The session
        takes no more input after it (ValueError); its stats and flows stay."""
        return [_event(t) for t in self._s.finish()]

    @property
    def stats(self) -> SessionStats:
        return SessionStats(**self._s.stats())

    @property
    def flows(self) -> Tuple[Flow, ...]:
        return tuple(Flow(n, text, dialect, (c0, c1)) for n, text, dialect, c0, c1 in self._s.flows())

    def read_capture(self, source: "CaptureSource", *, finish: bool = True) -> Iterator[Event]:
        """Every record of a pcap or pcapng file (``read_capture``'s source) fed as a frame, with its own link type
        and time, and the events yielded as they come; with ``finish`` (the default), ``finish``'s at the end. A file
        cut short raises ``CaptureError`` after the events of every whole record before it."""
        for rec in read_capture(source):
            yield from self.frame(rec.data, link=rec.link, time=rec.time, wirelen=rec.wirelen)
        if finish:
            yield from self.finish()


@dataclass(frozen=True)
class CaptureRecord:
    """One record of a capture file: its number (from 1), the byte of the file where it starts, its interface's link
    type (``LINK_*``), its time in seconds (0.0 where the file has none: a pcapng Simple Packet Block), its length on
    the wire, and the bytes captured."""
    number: int
    offset: int
    link: int
    time: float
    has_time: bool
    wirelen: int
    data: bytes


class CaptureError(ValueError):
    """A capture file that is cut short or is not one: ``status`` (the reader's: "truncated", "not_capture", ...),
    ``offset`` (the byte of the file where what failed starts) and the reader's message."""

    def __init__(self, status: str, offset: int, message: str) -> None:
        super().__init__(f"byte {offset}: {message}")
        self.status = status
        self.offset = offset
        self.message = message


CaptureSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]


def read_capture(source: CaptureSource, *, max_record_bytes: int = 0) -> Iterator[CaptureRecord]:
    """The records of a pcap or pcapng file (both byte orders, micro- and nanosecond pcap; pcapng sections,
    interfaces of any link type, Enhanced, Simple and obsolete Packet Blocks), read by the C library's own reader:
    from a path, a bytes-like object, or a binary file object (read in pieces: memory stays bounded by the largest
    record, ``max_record_bytes``, 16 MiB by default). A file cut short or not a capture raises ``CaptureError``
    after every whole record before it."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield from read_capture(f, max_record_bytes=max_record_bytes)
        return
    for t in _gdwire._Capture(source, max_record_bytes):
        if t[0] == "error":
            raise CaptureError(t[1], t[2], t[3])
        yield CaptureRecord(*t)

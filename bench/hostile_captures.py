# SPDX-License-Identifier: MIT
"""hostile_captures.py — forged captures that made `gdwire capture` quadratic or swell (issue 55),
each at any size: bench/growth.py times them at 1x, 4x and 16x, session/tests/capture_caps_test.py
holds their peak RSS under the documented caps, and corpus/capture/ seeds the fuzz target with
small ones. Every shape is a pcap of Ethernet frames, as tcpdump writes them.

  fragment sets   one ENet flow of reliable SEND_FRAGMENT commands without the ACKNOWLEDGE flag,
                  each opening a packet of 1 byte in 2 parts that never completes (finding 1)
  windows         ENet flows (up to 4,096) whose PINGs with ACKNOWLEDGE touch every one of the
                  256 channels in both directions: a retransmit window each (finding 2)
  ws streams      4 WebSocket flows whose server starts a frame of a quarter of the capture and
                  never ends it: the stream's bytes wait (finding 3)
  ws messages     4 WebSocket flows whose server sends a binary message in continuation frames
                  that never ends: the message's bytes wait (finding 3)
  paths           one ENet flow of SIMPLIFY_PATH commands, each a new cache id with a 1,000-byte
                  path (finding 3)
  ip fragments    first IP fragments of datagrams that never complete, each opening 64 KiB (issue 57)
  put_var streams 4 plain-TCP flows of put_var frames whose second frame claims 30 MiB and never ends
                  (issue 57)
"""
import struct

MAGIC = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)


def _checksum_free_ipv4(src, dst, proto, payload):
    total = 20 + len(payload)
    return struct.pack(">BBHHHBBH4s4s", 0x45, 0, total, 0, 0, 64, proto, 0, bytes(src), bytes(dst)) + payload


def _eth(ip):
    return b"\x00\x00\x00\x00\x00\x02" + b"\x00\x00\x00\x00\x00\x01" + b"\x08\x00" + ip


def udp_frame(src, sport, dst, dport, payload):
    udp = struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload
    return _eth(_checksum_free_ipv4(src, dst, 17, udp))


def tcp_frame(src, sport, dst, dport, seq, flags, payload=b""):
    tcp = struct.pack(">HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, 0, 5 << 4, flags, 65535, 0, 0) + payload
    return _eth(_checksum_free_ipv4(src, dst, 6, tcp))


def pcap(frames):
    out = [MAGIC]
    for i, f in enumerate(frames):
        out.append(struct.pack("<IIII", i // 1000, (i % 1000) * 1000, len(f), len(f)))
        out.append(f)
    return b"".join(out)


CLIENT, SERVER = (10, 0, 0, 1), (10, 0, 0, 2)
ENET_SEND_FRAGMENT, ENET_PING, ENET_SEND_RELIABLE, ACK = 8, 5, 6, 0x80


def fragment_sets(size):
    """About size bytes of pcap: 48 unacknowledged reliable fragments a datagram, each opening a
    packet of its own (channel and start sequence number differ)."""
    frames, n, per, total = [], 0, 48, 24
    while total < size:
        cmds = []
        for _ in range(per):
            channel, seq = n % 256, (n // 256) % 65536
            cmds.append(struct.pack(">BBHHHIIII", ENET_SEND_FRAGMENT, channel, seq, seq, 0, 2, 0, 1, 0))
            n += 1
        frames.append(udp_frame(CLIENT, 40000, SERVER, 7000, b"\x00\x00" + b"".join(cmds)))
        total += len(frames[-1]) + 16
    return pcap(frames)


def windows(size):
    """About size bytes of pcap: flows from new client ports, each touching every channel in both
    directions with a PING that asks for an acknowledgement."""
    pings = b"".join(struct.pack(">BBH", ENET_PING | ACK, c, 1) for c in range(256))
    frames, port, total = [], 1024, 24
    while total < size:
        frames.append(udp_frame(CLIENT, port, SERVER, 7000, b"\x00\x00" + pings))
        frames.append(udp_frame(SERVER, 7000, CLIENT, port, b"\x00\x00" + pings))
        total += 2 * (len(frames[-1]) + 16)
        port = port + 1 if port < 65535 else 1024
    return pcap(frames)


def _ws_flows(size, message):
    """4 WebSocket flows, each after its upgrade a server's frame (or message) that never ends."""
    flows = 4
    per_flow = max(1024, size // flows)
    frames = []
    for k in range(flows):
        cport = 50000 + k
        cseq, sseq = 1000, 900000
        frames.append(tcp_frame(CLIENT, cport, SERVER, 8000, cseq - 1, 0x02))
        frames.append(tcp_frame(SERVER, 8000, CLIENT, cport, sseq - 1, 0x12))
        head = b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        frames.append(tcp_frame(CLIENT, cport, SERVER, 8000, cseq, 0x18, head))
        reply = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        frames.append(tcp_frame(SERVER, 8000, CLIENT, cport, sseq, 0x18, reply))
        sseq += len(reply)
        if message:
            # the client's peer id first, then continuation frames of 1,000 bytes, none final
            first = b"\x82\x04" + struct.pack("<I", 7) + b"\x02\x7e" + struct.pack(">H", 1000) + b"m" * 1000
            stream = [first]
            while sum(map(len, stream)) < per_flow:
                stream.append(b"\x00\x7e" + struct.pack(">H", 1000) + b"m" * 1000)
            data = b"".join(stream)
        else:
            claim = min(per_flow * 2, 30 << 20)
            data = b"\x82\x7f" + struct.pack(">Q", claim) + b"s" * (per_flow - 10)
        for off in range(0, len(data), 1400):
            frames.append(tcp_frame(SERVER, 8000, CLIENT, cport, sseq + off, 0x18, data[off:off + 1400]))
    return pcap(frames)


def ws_streams(size):
    return _ws_flows(size, False)


def ws_messages(size):
    return _ws_flows(size, True)


def paths(size):
    """About size bytes of pcap: SIMPLIFY_PATH commands of new cache ids, each with a long path."""
    frames, node, seq, total = [], 1, 1, 24
    while total < size:
        path = (b"/root/%08d/" % node) + b"p" * 1000
        pkt = b"\x01" + b"0" * 32 + b"\x00" + struct.pack("<I", node) + path + b"\x00"
        cmd = struct.pack(">BBHH", ENET_SEND_RELIABLE | ACK, 0, seq & 0xFFFF, len(pkt)) + pkt
        frames.append(udp_frame(CLIENT, 40001, SERVER, 7000, b"\x00\x00" + cmd))
        total += len(frames[-1]) + 16
        node += 1
        seq += 1
    return pcap(frames)


def ip_fragments(size):
    """About size bytes of pcap: the first fragment (8 bytes of a UDP datagram, more to come) of datagrams of new
    IP identifications, none of which ever completes: each opens a datagram of 64 KiB (issue 57)."""
    frames, ident, total = [], 1, 24
    udp = struct.pack(">HHHH", 40002, 7000, 1000, 0)
    while total < size:
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), ident & 0xFFFF, 0x2000, 64, 17, 0, bytes(CLIENT), bytes(SERVER))
        frames.append(_eth(ip + udp))
        total += len(frames[-1]) + 16
        ident += 1
    return pcap(frames)


def putvar_streams(size):
    """4 plain-TCP flows whose first frame is a small whole Variant (a put_var flow), then a frame that claims 30 MiB
    and never ends: its bytes wait (issue 57)."""
    per_flow, frames = max(1024, size // 4), []
    for k in range(4):
        cport, cseq = 51000 + k, 1000
        frames.append(tcp_frame(CLIENT, cport, SERVER, 8001, cseq - 1, 0x02))
        data = struct.pack("<II", 8, 2) + struct.pack("<I", 7)  # put_var of the int 7
        data += struct.pack("<I", 30 << 20) + b"v" * (per_flow - 16)
        for off in range(0, len(data), 1400):
            frames.append(tcp_frame(CLIENT, cport, SERVER, 8001, cseq + off, 0x18, data[off:off + 1400]))
    return pcap(frames)


SHAPES = [("fragment sets", fragment_sets), ("windows", windows), ("ws streams", ws_streams), ("ws messages", ws_messages),
          ("paths", paths), ("ip fragments", ip_fragments), ("put_var streams", putvar_streams)]

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""capture_seeds.py PCAP OUT_DIR [N [FLAGS]] [--refragment] — seeds for the `capture` fuzz target (fuzzers/capture.c)
cut from a real session's capture (conformance/sessions/*.pcap): N inputs (default 120), each a
run of consecutive UDP payloads of the capture in the target's record format (byte 0 the caps,
then per datagram: the side that sent it, a u16 length, its bytes), the client side first as the
capture's first datagram was; every fifth input carries its datagrams as whole Ethernet frames
instead. The runs cover the capture from its CONNECT to its end, fragments included. FLAGS are
or-ed into byte 0 (32: every flow Godot 3). Committed: 120 from conformance/sessions/godot4.6-enet.pcap,
40 from godot3.2-enet.pcap, 31 from godot4.6-ws.pcap (N 40; TCP: whole frames, unbroken runs of segments
from a flow's SYN), and 40 each from godot3.2-enet.pcap and godot3.6-enet.pcap with FLAGS 32 (a run cut
from the middle of a session is taken as Godot 4 otherwise); with --refragment (every SEND_RELIABLE as
two unreliable fragments), 40 from godot4.6-enet.pcap and 20 from godot3.2-enet.pcap with FLAGS 32; and 20
each from the compressed sessions godot4.6-enet-zstd.pcap, godot4.6-enet-fastlz.pcap and (FLAGS 32)
godot3.6-enet-zlib.pcap, whose compressed datagrams reach the session's own decompressors (byte 0's bit 4 off);
and 20 from godot3.6-ws.pcap (Godot 3's WebSocket: the 9-byte header)."""
import hashlib
import os
import struct
import sys


def frames(path):
    data = open(path, "rb").read()
    endian = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    pos, out = 24, []
    while pos + 16 <= len(data):
        caplen = struct.unpack(endian + "I", data[pos + 8:pos + 12])[0]
        out.append(data[pos + 16:pos + 16 + caplen])
        pos += 16 + caplen
    return out


# ENet's commands (enet/protocol.h): the size of each, by command number, and where its data length is
ENET_SIZE = {1: 8, 2: 48, 3: 44, 4: 8, 5: 4, 6: 6, 7: 8, 8: 24, 9: 8, 10: 12, 11: 16, 12: 24}
ENET_DATA_LENGTH_AT = {6: 4, 7: 6, 8: 6, 9: 6, 12: 6}


def refragment(payload, parts=2):
    """An ENet datagram's SEND_RELIABLE commands, each as `parts` SEND_UNRELIABLE_FRAGMENT commands of
    its data, or None where it has none or cannot
    be walked (compressed). The engines' own fragmented packets are 90-100 KB, past the target's
    64 KiB inputs: no seed cut from a session completes one."""
    peer = struct.unpack(">H", payload[:2])[0]
    if peer & 0x4000:
        return None
    pos = 4 if peer & 0x8000 else 2
    out, changed = bytearray(payload[:pos]), False
    while pos < len(payload):
        kind = payload[pos] & 0x0F
        size = ENET_SIZE.get(kind)
        if size is None or pos + size > len(payload):
            return None
        at = ENET_DATA_LENGTH_AT.get(kind)
        data_len = struct.unpack(">H", payload[pos + at:pos + at + 2])[0] if at else 0
        cmd, data = payload[pos:pos + size], payload[pos + size:pos + size + data_len]
        pos += size + data_len
        if kind != 6 or len(data) < parts:
            out += cmd + data
            continue
        # unreliable fragments (12, no acknowledge flag): each carries the reliable sequence number the
        # command had, so no later reliable command's number is taken (reliable fragments number on,
        # and the next reliable commands then read as retransmits)
        seq = struct.unpack(">H", cmd[2:4])[0]
        cut = [len(data) * k // parts for k in range(parts + 1)]
        for k in range(parts):
            piece = data[cut[k]:cut[k + 1]]
            out += bytes([12, cmd[1]]) + struct.pack(">HHHIIII", seq, seq, len(piece), parts, k, len(data), cut[k]) + piece
        changed = True
    return bytes(out) if changed else None


def with_udp_payload(frame, payload):
    """An Ethernet, IPv4 (no options), UDP frame with another payload: its IP and UDP lengths follow."""
    f = bytearray(frame[:42] + payload)
    f[16:18] = struct.pack(">H", len(f) - 14)
    f[38:40] = struct.pack(">H", len(f) - 34)
    return bytes(f)


def main():
    args = [a for a in sys.argv[1:] if a != "--refragment"]
    pcap, out_dir = args[0], args[1]
    n = int(args[2]) if len(args) > 2 else 120
    flags = int(args[3]) if len(args) > 3 else 0  # byte 0's bits 4-7 (fuzzers/capture.c)
    fr = [f for f in frames(pcap) if len(f) > 42 and f[23] in (6, 17)]  # Ethernet, IPv4, UDP or TCP
    if "--refragment" in sys.argv:  # ENet over UDP: every SEND_RELIABLE in two fragments (refragment)
        fr = [with_udp_payload(f, refragment(f[42:]) or f[42:]) if f[23] == 17 else f for f in fr]
    tcp = fr[0][23] == 6  # a WebSocket session: its segments go in as whole frames
    client = fr[0][26:30] + fr[0][34:36]  # source address and port of the first datagram
    os.makedirs(out_dir, exist_ok=True)
    step = max(1, len(fr) // n)
    for i in range(n):
        start = (i * step) % len(fr)
        run = fr[start:start + 3 + i % 16]
        if tcp:  # a TCP flow is followed from its SYN, and a WebSocket from its upgrade: each run starts at a
            # flow's SYN and goes on unbroken, 12 to 71 segments (its handshake, then messages). Runs cut out
            # of the middle, behind the first flow's handshake (until 2026-11-27), left a gap in the stream
            # the reader rightly stops at: no seed delivered a WebSocket message (ws_message: 0 lines covered)
            syns = [k for k, f in enumerate(fr) if f[23] == 6 and f[14 + (f[14] & 15) * 4 + 13] & 0x12 == 0x02]
            first = syns[i % len(syns)]
            run = fr[first:first + 12 + (i * 7) % 60]
        whole = tcp or i % 5 == 4
        rec = bytearray([(i % 16) | flags])
        size = 1
        for f in run:
            side = 0 if f[26:30] + f[34:36] == client else 1
            body = f if whole else f[42:]
            if size + 3 + len(body) > 65536:
                break
            rec += bytes([side | (2 if whole else 0)]) + struct.pack("<H", len(body)) + body
            size += 3 + len(body)
        name = hashlib.sha1(rec).hexdigest()
        open(os.path.join(out_dir, name), "wb").write(rec)


if __name__ == "__main__":
    main()

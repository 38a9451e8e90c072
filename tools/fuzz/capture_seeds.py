#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""capture_seeds.py PCAP OUT_DIR [N [FLAGS]] — seeds for the `capture` fuzz target (fuzzers/capture.c)
cut from a real session's capture (conformance/sessions/*.pcap): N inputs (default 120), each a
run of consecutive UDP payloads of the capture in the target's record format (byte 0 the caps,
then per datagram: the side that sent it, a u16 length, its bytes), the client side first as the
capture's first datagram was; every fifth input carries its datagrams as whole Ethernet frames
instead. The runs cover the capture from its CONNECT to its end, fragments included. FLAGS are
or-ed into byte 0 (32: every flow Godot 3). Committed: 120 from conformance/sessions/godot4.6-enet.pcap,
40 from godot3.2-enet.pcap, 31 from godot4.6-ws.pcap (N 40; TCP: whole frames, unbroken runs of segments
from a flow's SYN), and 40 each from godot3.2-enet.pcap and godot3.6-enet.pcap with FLAGS 32 (a run cut
from the middle of a session is taken as Godot 4 otherwise)."""
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


def main():
    pcap, out_dir = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 120
    flags = int(sys.argv[4]) if len(sys.argv) > 4 else 0  # byte 0's bits 4-7 (fuzzers/capture.c)
    fr = [f for f in frames(pcap) if len(f) > 42 and f[23] in (6, 17)]  # Ethernet, IPv4, UDP or TCP
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

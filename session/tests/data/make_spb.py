#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_spb.py IN.pcap OUT.pcapng COUNT SNAPLEN — the first COUNT records of a classic little-endian pcap
written as a pcapng file of Simple Packet Blocks: a Section Header Block, one Interface Description Block
(the pcap's link type, snaplen SNAPLEN, no options) and a Simple Packet Block a record, holding the
original length and at most SNAPLEN captured bytes, padded to 4, as a writer with that snaplen would.
No tool on the machine writes Simple Packet Blocks (editcap and mergecap write Enhanced ones), so this
file is made here from the pcapng spec (draft-ietf-opsawg-pcapng, 4.2); tshark's reading of it is the
expectation (README.md), not this script's."""
import struct
import sys

src, dst, count, snaplen = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(src, "rb").read()
assert data[:4] == b"\xd4\xc3\xb2\xa1", "a little-endian microsecond pcap"
link = struct.unpack("<I", data[20:24])[0] & 0xFFFF


def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", kind, n) + body + struct.pack("<I", n)


out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
out += block(1, struct.pack("<HHI", link, 0, snaplen))
pos = 24
for _ in range(count):
    if pos + 16 > len(data):
        break
    _, _, caplen, wirelen = struct.unpack("<IIII", data[pos:pos + 16])
    frame = data[pos + 16:pos + 16 + caplen]
    pos += 16 + caplen
    out += block(3, struct.pack("<I", wirelen) + frame[:snaplen])
open(dst, "wb").write(out)

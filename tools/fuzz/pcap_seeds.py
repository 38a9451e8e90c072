#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pcap_seeds.py OUT_DIR CAPTURE... — seeds for the `pcap` fuzz target (fuzzers/pcap.c), cut from capture files
gdwire did not write: for each capture, 8 inputs of byte 0 (the caps and the stream's chunks, fuzzers/pcap.c) and
a file of at most 3 KB: the capture's header (a pcap's 24 bytes; a pcapng's Section Header, Interface Description
and every other non-packet block) and a run of its records from a place picked at random, whole; every fourth
input cuts its last record short, every fifth is written big-endian (each field a big-endian writer writes its
way), and every seventh has small caps (64 or 4,096 bytes a record, 1 or 2 interfaces). A capture that is not a
standard pcap or pcapng (editcap's modified pcap) is taken whole, once. The same arguments give the same seeds
(a fixed random seed). Committed: the 8 sessions of conformance/sessions/*.pcap and the captures of
session/tests/data/ (tools/fuzz/pcap_seeds.py corpus/pcap conformance/sessions/*.pcap session/tests/data/*.pcap
session/tests/data/*.pcapng)."""
import hashlib
import os
import random
import struct
import sys

BUDGET = 3000
SHB, IDB, PB, SPB, EPB, DSB = 0x0A0D0D0A, 1, 2, 3, 6, 0x0A


def pcap_parts(data):
    """The header and each record's bytes of a little-endian pcap."""
    pos, recs = 24, []
    while pos + 16 <= len(data):
        n = 16 + struct.unpack("<I", data[pos + 8:pos + 12])[0]
        recs.append(data[pos:pos + n])
        pos += n
    return data[:24], recs


def pcapng_blocks(data):
    pos, out = 0, []
    while pos + 12 <= len(data):
        t, n = struct.unpack("<II", data[pos:pos + 8])
        out.append((t, data[pos:pos + n]))
        pos += n
    return out


def swap_pcap(data):
    out = bytearray(data)
    out[0:4] = out[0:4][::-1]
    for at, size in ((4, 2), (6, 2), (8, 4), (12, 4), (16, 4), (20, 4)):
        out[at:at + size] = out[at:at + size][::-1]
    pos = 24
    while pos + 16 <= len(out):
        caplen = struct.unpack("<I", bytes(out[pos + 8:pos + 12]))[0]
        for k in range(4):
            out[pos + 4 * k:pos + 4 * k + 4] = out[pos + 4 * k:pos + 4 * k + 4][::-1]
        pos += 16 + caplen
    return bytes(out)


def swap_options(b, pos, end):
    while pos + 4 <= end:
        code, n = struct.unpack("<HH", bytes(b[pos:pos + 4]))
        b[pos:pos + 2], b[pos + 2:pos + 4] = b[pos:pos + 2][::-1], b[pos + 2:pos + 4][::-1]
        if code == 0:
            break
        pos += 4 + ((n + 3) & ~3)  # the options of these files are strings and if_tsresol's one byte


def swap_pcapng(data):
    out = bytearray(data)
    pos = 0
    while pos + 12 <= len(out):
        t, n = struct.unpack("<II", bytes(out[pos:pos + 8]))
        if pos + n > len(out):  # a cut last block: its fixed fields as far as they go
            n = len(out) - pos
        b = out[pos:pos + n]
        fields = {SHB: [(8, 4), (12, 2), (14, 2), (16, 8)], IDB: [(8, 2), (10, 2), (12, 4)], SPB: [(8, 4)],
                  EPB: [(8, 4), (12, 4), (16, 4), (20, 4), (24, 4)], DSB: [(8, 4), (12, 4)]}.get(t, [])
        opts = {SHB: 24, IDB: 16}.get(t)
        if t == EPB and n >= 28:
            opts = 28 + ((struct.unpack("<I", bytes(b[20:24]))[0] + 3) & ~3)
        for at, size in fields:
            if at + size <= n:
                b[at:at + size] = b[at:at + size][::-1]
        if opts is not None and n >= 4:
            swap_options(b, opts, n - 4)
        b[0:4], b[4:8] = b[0:4][::-1], b[4:8][::-1]
        if n == struct.unpack("<I", data[pos + 4:pos + 8])[0]:
            b[n - 4:n] = b[n - 4:n][::-1]
        out[pos:pos + n] = b
        pos += n
    return bytes(out)


def seeds(path, rng, count=8):
    data = open(path, "rb").read()
    if data[:4] == b"\xd4\xc3\xb2\xa1" or data[:4] == b"\x4d\x3c\xb2\xa1":
        head, recs = pcap_parts(data)
        kind = "pcap"
    elif data[:4] == b"\x0a\x0d\x0d\x0a":
        blocks = pcapng_blocks(data)
        kind = "pcapng"
    else:
        yield bytes([0x0F]) + data
        return
    for i in range(count):
        if kind == "pcap":
            start = rng.randrange(len(recs))
            body = head
            for r in recs[start:]:
                if len(body) + len(r) > BUDGET and len(body) > len(head):
                    break
                body += r
        else:
            packets = [k for k, (t, _) in enumerate(blocks) if t in (EPB, SPB, PB)]
            start = packets[rng.randrange(len(packets))]
            keep, size = set(), sum(len(b) for t, b in blocks if t not in (EPB, SPB, PB))
            for k in packets:
                if k >= start and (size + len(blocks[k][1]) <= BUDGET or not keep):
                    keep.add(k)
                    size += len(blocks[k][1])
            body = b"".join(b for k, (t, b) in enumerate(blocks) if t not in (EPB, SPB, PB) or k in keep)
        if i % 4 == 3:
            body = body[:len(body) - rng.randrange(1, 12)]
        if i % 5 == 4:
            body = swap_pcap(body) if kind == "pcap" else swap_pcapng(body)
        ctl = 0x0F | rng.randrange(8) << 4  # the default caps; the stream's chunks up to 2^k bytes
        if i % 7 == 6:
            ctl = rng.randrange(2) | rng.randrange(2) << 2 | rng.randrange(8) << 4
        yield bytes([ctl]) + body


def main():
    out, captures = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20261128)
    n = 0
    for path in captures:
        for seed in seeds(path, rng):
            with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as f:
                f.write(seed)
            n += 1
    print("%d seeds into %s" % (n, out))


if __name__ == "__main__":
    main()

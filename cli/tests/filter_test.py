#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""filter_test — gdwire as a long-lived filter (issue 33): one process, driven through pipes, must
answer each record as it arrives, not when its input ends. Each case writes a record, waits for
its answer (at most 2 s), then writes the next after a pause; a command that buffers its input or
its output fails here. The packets are Godot 3.2.3's own (tools/engines/godot3.2-packets.tsv).

usage: filter_test.py GDWIRE GODOT3.2-PACKETS.TSV"""
import os
import select
import subprocess
import sys
import time

gdwire, packets_tsv = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what, file=sys.stderr)


def engine_packet(name):
    for line in open(packets_tsv, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 2 and f[0] == name:
            return bytes.fromhex(f[1])
    raise SystemExit("no packet %r in %s" % (name, packets_tsv))


def read_answer(p, want_bytes=None, timeout=2.0):
    """One line of p's stdout (or want_bytes raw bytes), or None after timeout seconds."""
    out = b""
    end = time.monotonic() + timeout
    fd = p.stdout.fileno()
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not r:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        out += chunk
        if (want_bytes is None and out.endswith(b"\n")) or (want_bytes is not None and len(out) >= want_bytes):
            return out
    return None


def session(name, args, records, answers):
    """Feed records one at a time, each answer awaited before the next record is written."""
    p = subprocess.Popen([gdwire] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    worst = 0.0
    for i, (rec, want) in enumerate(zip(records, answers)):
        t = time.monotonic()
        p.stdin.write(rec)
        p.stdin.flush()
        got = read_answer(p, want_bytes=len(want) if isinstance(want, bytes) and not want.endswith(b"\n") else None)
        dt = time.monotonic() - t
        worst = max(worst, dt)
        check(got is not None, "%s: no answer to record %d within 2 s (the command waits for the end of its input)" % (name, i + 1))
        if got is None:
            break
        check(got == want, "%s: record %d: got %r, want %r" % (name, i + 1, got, want))
        time.sleep(0.2)
    p.stdin.close()
    rc = p.wait(timeout=10)
    check(rc in (0, 1), "%s: exit %d: %s" % (name, rc, p.stderr.read().decode(errors="replace")[:300]))
    print("%-44s %d records, slowest answer %.0f ms" % (name, len(records), worst * 1000))
    return p


int42 = engine_packet("int 42") if any(l.startswith("int 42\t") for l in open(packets_tsv)) else bytes.fromhex("020000002a000000")
hi = engine_packet("String hi") if any(l.startswith("String hi\t") for l in open(packets_tsv)) else bytes.fromhex("040000000200000068690000")

# encode --lines: text values in, hex lines out
session("encode --lines --hex", ["encode", "-d", "godot3", "--lines", "--hex"],
        [b"42\n", b'"hi"\n', b"[1, 2]\n"],
        [b"02000000 2a000000\n", b"04000000 02000000 68690000\n", b"13000000 02000000 02000000 01000000 02000000 02000000\n"])
# encode --json --lines --framing stream: JSON Lines in, StreamPeer frames out (raw bytes)
session("encode --json --lines --framing stream", ["encode", "-d", "godot3", "--json", "--lines", "--framing", "stream"],
        [b'{"type": "int", "value": 42}\n', b'{"type": "String", "value": "hi"}\n'],
        [b"\x08\x00\x00\x00" + int42, b"\x0c\x00\x00\x00" + hi])
# a line that does not parse is reported, and the session goes on
session("encode --lines, a bad line between", ["encode", "-d", "godot3", "--lines", "--hex"],
        [b"42\n", b"nonsense(\n42\n"], [b"02000000 2a000000\n", b"02000000 2a000000\n"])
# decode --hex --lines: hex lines in, values out
session("decode --hex --lines", ["decode", "-d", "godot3", "--hex", "--lines"],
        [int42.hex().encode() + b"\n", hi.hex().encode() + b"\n"], [b"- line 1: 42\n", b'- line 2: "hi"\n'])
# decode --framing stream: raw frames in, values out
session("decode --framing stream", ["decode", "-d", "godot3", "--framing", "stream"],
        [b"\x08\x00\x00\x00" + int42, b"\x0c\x00\x00\x00" + hi], [b"- frame 1: 42\n", b'- frame 2: "hi"\n'])
# check --framing stream answers each frame too
p = subprocess.Popen([gdwire, "check", "--framing", "stream", "--unbuffered"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
p.stdin.write(b"\x08\x00\x00\x00" + int42)
p.stdin.flush()
got = read_answer(p)
check(got is not None and b"frame 1" in got, "check --framing stream: no line for frame 1 within 2 s: %r" % got)
p.stdin.close()
p.wait(timeout=10)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

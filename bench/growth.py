#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""growth.py GDWIRE [--base KIB] [--check RATIO] — is every verb linear on hostile shapes? (issues 14, 34)

Runs each verb of the gdwire command, in each decoding mode, on adversarial packets at 1x, 4x
and 16x a base size and prints the CPU time, the throughput and the growth ratio t(16x) / t(1x):
about 16 is linear; a quadratic verb shows about 256. The shapes:
  long key      {"kkk...": [null, null, ...]}: one key of half the packet over an Array of nulls
  deep path     1000 nested Dictionaries with string keys, then an Array of nulls at the bottom
  tiny values   an Array of ints
  float keys    a Godot 4 Dictionary {1.0: null, 2.0: null, ...}: keys whose low bits are equal
  int keys      a Godot 3 Dictionary {0: null, 65536: null, 131072: null, ...}: the same for ints
  name keys     Godot 4 keys [String or StringName x 16] (never equal) and "k" / &"k" pairs (equal)
  deep note     1000 nested Arrays over {1: null, 1: null} and a PoolByteArray: the engine holds
                another value 1000 levels down (the command's engine note)
and `gdwire capture --json` on the forged captures of hostile_captures.py (issue 55: fragment sets,
retransmit windows, WebSocket streams and messages, path caches), at 1x, 4x and 16x 8 times the
base size (a capture's every byte is cheap to read), with its peak RSS beside its time.
Figures only, unless --check RATIO: then exit 1 when any ratio is above RATIO (the growth test
in bench/BUILD uses 48: linear is 16, quadratic 256). Usage:
  bazel build -c opt //cli:gdwire && python3 bench/growth.py bazel-bin/cli/gdwire
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_captures  # noqa: E402 (beside this file)


def u32(v):
    return struct.pack("<I", v)


def string(b, type_id=4):
    return u32(type_id) + u32(len(b)) + b + b"\0" * (-len(b) % 4)


def long_key(size):
    key = b"k" * (size // 2)
    n = (size - len(key)) // 4
    return u32(18) + u32(1) + string(key) + u32(19) + u32(n) + u32(0) * n


def deep_path(size):
    head = b""
    for i in range(1000):
        head += u32(18) + u32(1) + string(b"level%d" % i)
    n = max(1, (size - len(head)) // 4)
    return head + u32(19) + u32(n) + u32(0) * n


def tiny_values(size):
    n = size // 8
    return u32(19) + u32(n) + (u32(2) + u32(7)) * n


def float_keys(size):
    n = size // 12
    return u32(27) + u32(n) + b"".join(u32(3) + struct.pack("<f", float(i + 1)) + u32(0) for i in range(n))


def int_keys(size):
    n = size // 12
    return u32(18) + u32(n) + b"".join(u32(2) + u32((i << 16) & 0xFFFFFFFF) + u32(0) for i in range(n))


def name_keys(size):
    s = string(b"s", 4)
    sn = string(b"s", 21)
    n = size // (8 + 16 * len(s) + 4 + 2 * 24)
    out = []
    for i in range(n):
        out.append(u32(28) + u32(16) + b"".join(sn if (i >> k) & 1 else s for k in range(16)) + u32(0))
        k = b"k%07d" % i
        out.append(string(k, 4) + u32(0) + string(k, 21) + u32(0))
    return u32(27) + u32(3 * n) + b"".join(out)


def deep_note(size):
    bottom = u32(18) + u32(2) + u32(2) + u32(1) + u32(0) + u32(2) + u32(1) + u32(0)
    blob = max(4, size - 8 * 1000 - 64) // 4 * 4
    inner = u32(19) + u32(2) + bottom + u32(20) + u32(blob) + b"\0" * blob
    return (u32(19) + u32(1)) * 1000 + inner


# shape: (maker, the dialect its decode and explain verbs use)
SHAPES = [("long key", long_key, "godot3"), ("deep path", deep_path, "godot3"), ("tiny values", tiny_values, "godot3"),
          ("float keys", float_keys, "godot4"), ("int keys", int_keys, "godot3"), ("name keys", name_keys, "godot4"),
          ("deep note", deep_note, "godot3")]
MODES = ["compatible", "strict", "engine-exact"]


def verbs(dialect):
    other = "godot3" if dialect == "godot4" else "godot4"
    for mode in MODES:
        m = ["--mode", mode]
        yield ("check " + mode, ["check"] + m)
        yield ("check -v " + mode, ["check", "-v"] + m)
        yield ("decode " + mode, ["decode", "-d", dialect] + m)
        yield ("decode --json " + mode, ["decode", "-d", dialect, "--json"] + m)
        yield ("explain " + mode, ["explain", "-d", dialect] + m)
        yield ("convert " + mode, ["convert", "--from", dialect, "--to", other] + m)


def timed_rss(cmd, path):
    """The least CPU time (user + system) of the command over two runs (the machine's other load
    does not count), and its peak RSS in MiB. GNU time measures it: a child of this process would
    count this process's own memory in its peak (Linux keeps it across fork and exec)."""
    best, rss = None, 0
    out = os.path.join(tempfile.gettempdir(), "gdw-growth-time-%d" % os.getpid())
    for _ in range(2):
        subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", out] + cmd + [path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(out) as fh:
            user, system, kib = fh.read().split()[-3:]
        dt = float(user) + float(system)
        best = dt if best is None else min(best, dt)
        rss = max(rss, int(kib) / 1024)
    os.remove(out)
    return best, rss


def timed(cmd, path):
    return timed_rss(cmd, path)[0]


CAPTURE_SCALE = 8  # a capture shape's 1x is 8 times the base size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gdwire")
    ap.add_argument("--base", type=int, default=256, help="the 1x size in KiB (default 256)")
    ap.add_argument("--check", type=float, help="exit 1 when a growth ratio is above this")
    ap.add_argument("--shapes", help="comma-separated shape names (default: all)")
    a = ap.parse_args()
    chosen = SHAPES if not a.shapes else [s for s in SHAPES if s[0] in a.shapes.split(",")]
    tmp = tempfile.mkdtemp(prefix="gdw-growth-")
    print("%-12s %-14s %10s %10s %10s %12s %8s" % ("shape", "verb", "t(1x) s", "t(4x) s", "t(16x) s", "MB/s at 16x", "16x/1x"))
    worst, bad = 0.0, []
    for sname, make, dialect in chosen:
        files = []
        for k in (1, 4, 16):
            p = os.path.join(tmp, "%s-%d.bin" % (sname.replace(" ", "-"), k))
            with open(p, "wb") as fh:
                fh.write(make(a.base * 1024 * k))
            files.append(p)
        for vname, args in verbs(dialect):
            ts = [timed([a.gdwire] + args, p) for p in files]
            # the clock ticks in 10 ms: a 1x time under 20 ms is taken as 20 ms
            ratio = ts[2] / max(ts[0], 0.02)
            if a.check is not None and ratio > a.check:
                bad.append("%s / %s: %.1f" % (sname, vname, ratio))
            worst = max(worst, ratio)
            mb = os.path.getsize(files[2]) / 1e6 / max(ts[2], 1e-6)
            print("%-12s %-14s %10.3f %10.3f %10.3f %12.1f %8.1f" % (sname, vname, ts[0], ts[1], ts[2], mb, ratio))
            sys.stdout.flush()
    captures = hostile_captures.SHAPES if not a.shapes else [s for s in hostile_captures.SHAPES if s[0] in a.shapes.split(",")]
    if captures:
        print("\n%-14s %-14s %10s %10s %10s %9s %9s %9s %8s" % ("capture shape", "verb", "t(1x) s", "t(4x) s", "t(16x) s",
                                                             "RSS 1x", "RSS 4x", "RSS 16x", "16x/1x"))
    for sname, make in captures:
        files = []
        for k in (1, 4, 16):
            p = os.path.join(tmp, "capture-%s-%d.pcap" % (sname.replace(" ", "-"), k))
            with open(p, "wb") as fh:
                fh.write(make(a.base * 1024 * CAPTURE_SCALE * k))
            files.append(p)
        runs = [timed_rss([a.gdwire, "capture", "--json"], p) for p in files]
        ts = [r[0] for r in runs]
        ratio = ts[2] / max(ts[0], 0.02)
        if a.check is not None and ratio > a.check:
            bad.append("capture %s: %.1f" % (sname, ratio))
        worst = max(worst, ratio)
        print("%-14s %-14s %10.3f %10.3f %10.3f %6.0f MiB %6.0f MiB %6.0f MiB %8.1f" % (sname, "capture --json", ts[0], ts[1], ts[2],
                                                                                  runs[0][1], runs[1][1], runs[2][1], ratio))
        sys.stdout.flush()
        for p in files:
            os.remove(p)
    print("worst growth ratio 16x/1x: %.1f (linear: about 16; the goal is at most 20)" % worst)
    if a.check is not None:
        for b in bad:
            print("NOT LINEAR: " + b)
        print("%d passed, %d failed" % (len(chosen) * 6 * len(MODES) + len(captures) - len(bad), len(bad)))
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

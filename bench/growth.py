#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""growth.py GDWIRE [--base KIB] — is every verb linear on hostile shapes? (issue 14)

Runs each verb of the gdwire command on adversarial packets at 1x, 4x and 16x a base size and
prints the time, the throughput and the growth ratio t(16x) / t(1x): about 16 is linear; a
quadratic verb shows about 256. The shapes:
  long key     {"kkk...": [null, null, ...]}: one key of half the packet over an Array of nulls
  deep path    1000 nested Dictionaries with string keys, then an Array of nulls at the bottom
  tiny values  an Array of ints
Figures only; nothing is asserted (docs/performance.md). Usage:
  bazel build -c opt //cli:gdwire && python3 bench/growth.py bazel-bin/cli/gdwire
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time


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


SHAPES = [("long key", long_key), ("deep path", deep_path), ("tiny values", tiny_values)]
VERBS = [
    ("check", ["check"]),
    ("check -v", ["check", "-v"]),
    ("decode", ["decode", "-d", "godot3"]),
    ("decode --json", ["decode", "-d", "godot3", "--json"]),
    ("explain", ["explain", "-d", "godot3"]),
    ("convert", ["convert", "--from", "godot3", "--to", "godot4"]),
]


def timed(cmd, path):
    best = None
    for _ in range(2):
        t = time.perf_counter()
        subprocess.run(cmd + [path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gdwire")
    ap.add_argument("--base", type=int, default=256, help="the 1x size in KiB (default 256)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="gdw-growth-")
    print("%-12s %-14s %10s %10s %10s %12s %8s" % ("shape", "verb", "t(1x) s", "t(4x) s", "t(16x) s", "MB/s at 16x", "16x/1x"))
    worst = 0.0
    for sname, make in SHAPES:
        files = []
        for k in (1, 4, 16):
            p = os.path.join(tmp, "%s-%d.bin" % (sname.replace(" ", "-"), k))
            with open(p, "wb") as fh:
                fh.write(make(a.base * 1024 * k))
            files.append(p)
        for vname, args in VERBS:
            ts = [timed([a.gdwire] + args, p) for p in files]
            ratio = ts[2] / max(ts[0], 1e-4)
            worst = max(worst, ratio)
            mb = os.path.getsize(files[2]) / 1e6 / max(ts[2], 1e-6)
            print("%-12s %-14s %10.3f %10.3f %10.3f %12.1f %8.1f" % (sname, vname, ts[0], ts[1], ts[2], mb, ratio))
            sys.stdout.flush()
    print("worst growth ratio 16x/1x: %.1f (linear: about 16; the goal is at most 20)" % worst)


if __name__ == "__main__":
    main()

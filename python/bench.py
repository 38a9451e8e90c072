#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python/bench.py — decode and encode through the Python package, beside Python's own json (and Debian's
python3-msgpack when installed) on the same data, in one run: docs/performance.md ("Python")."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gdwire  # noqa: E402

try:
    import msgpack  # type: ignore
except ImportError:
    msgpack = None


def best(fn, rounds=5):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def workloads():
    yield "dicts", [{"id": i, "name": f"player{i}", "hp": 100 - i % 100, "alive": i % 3 != 0, "score": i * 1.5}
                    for i in range(20000)]
    yield "strings", [f"message number {i} with some text" for i in range(50000)]
    yield "ints", list(range(200000))


def main():
    print(f"{'workload':10} {'codec':8} {'bytes':>10} {'decode MB/s':>12} {'encode MB/s':>12}")
    for name, value in workloads():
        data = gdwire.encode(value, "godot4")
        mb = len(data) / 1e6
        rows = [("gdwire", len(data), best(lambda: gdwire.decode(data, "godot4")), best(lambda: gdwire.encode(value, "godot4")))]
        js = json.dumps(value)
        rows.append(("json", len(js), best(lambda: json.loads(js)), best(lambda: json.dumps(value))))
        if msgpack:
            mp = msgpack.packb(value)
            rows.append(("msgpack", len(mp), best(lambda: msgpack.unpackb(mp)), best(lambda: msgpack.packb(value))))
        for codec, n, d, e in rows:
            print(f"{name:10} {codec:8} {n:>10} {n / 1e6 / d:>12.1f} {n / 1e6 / e:>12.1f}")
    if not msgpack:
        print("(python3-msgpack is not installed: no msgpack rows)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""python/bench.py — the Python package's decode and encode beside Python's own json and Debian's python3-msgpack on
the same data, and beside the engine in-process, in one run (docs/performance.md, "Python").

    python3 python/bench.py [--runs N] [--scale X] [--bench PATH] [--engine]

1. Python-made data (dicts, strings, ints), as Godot 4 bytes, as JSON and as MessagePack.
2. The bench packets (bench --write-packets: the workloads of docs/performance.md in Godot 4's bytes), each
   decoded and encoded by the package; json and msgpack get the same data in its plain JSON form
   (gdw_json_print_plain: a Dictionary of String keys is a JSON object, a Vector3 is {"$gdwire": ...}).
   --bench names the bench program (default: bazel-bin's, built with `bazel build -c opt //bench`).
3. --engine: the same packets through Godot 4.6.3's bytes_to_var / var_to_bytes in-process (tools/engines/run
   godot4.6), timed in GDScript as bench/compare times it.
Each figure is the best of --runs (the engine's the median). Times are milliseconds; "x msgpack" is gdwire's
decode time over msgpack's on the same data (below 1: gdwire is faster)."""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gdwire  # noqa: E402
from gdwire import _gdwire  # noqa: E402

try:
    import msgpack  # type: ignore
except ImportError:
    msgpack = None


def best(fn, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def python_workloads():
    yield "dicts (20,000 of 5 fields)", [{"id": i, "name": f"player{i}", "hp": 100 - i % 100, "alive": i % 3 != 0,
                                          "score": i * 1.5} for i in range(20000)]
    yield "strings (50,000)", [f"message number {i} with some text" for i in range(50000)]
    yield "ints (200,000)", list(range(200000))


def timings(data, plain, runs):
    """{codec: (bytes, decode s, encode s)} for the gdwire bytes and their plain JSON data."""
    value = gdwire.decode(data, "godot4")
    out = {"gdwire": (len(data), best(lambda: gdwire.decode(data, "godot4"), runs),
                      best(lambda: gdwire.encode(value, "godot4"), runs))}
    js = json.dumps(plain)
    out["json"] = (len(js), best(lambda: json.loads(js), runs), best(lambda: json.dumps(plain), runs))
    if msgpack:
        try:
            mp = msgpack.packb(plain)
        except ValueError:  # deeper than msgpack's 511 levels (deep_dict): no msgpack row
            return out
        out["msgpack"] = (len(mp), best(lambda: msgpack.unpackb(mp), runs), best(lambda: msgpack.packb(plain), runs))
    return out


def plain_of(data):
    text, _ = _gdwire.decode_json(data, "godot4", "compatible", False, 0, True)
    return json.loads(text)


def bench_binary(path):
    if path:
        return path
    try:
        out = subprocess.run(["bazel", "info", "-c", "opt", "bazel-bin"], cwd=ROOT, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    p = os.path.join(out.stdout.strip(), "bench", "bench")
    return p if os.path.exists(p) else None


def engine_times(files, runs):
    loader = importlib.machinery.SourceFileLoader("compare", os.path.join(ROOT, "bench", "compare"))
    spec = importlib.util.spec_from_loader("compare", loader)
    compare = importlib.util.module_from_spec(spec)
    loader.exec_module(compare)
    with tempfile.TemporaryDirectory(prefix="gdwire-pybench-") as proj:
        with open(os.path.join(proj, "project.godot"), "w") as f:
            f.write("config_version=5\n")
        with open(os.path.join(proj, "time.gd"), "w") as f:
            f.write(compare.ENGINE4_SCRIPT)
        run4 = [os.path.join(ROOT, "tools", "engines", "run"), "godot4.6"]
        return compare.time_engine(run4 + ["--headless", "--path", proj, "-s", "time.gd", "--"], files, runs)


def print_table(title, rows, with_engine):
    print(f"\n{title}")
    head = f"{'workload':28} {'codec':8} {'bytes':>10} {'decode ms':>10} {'encode ms':>10} {'decode MB/s':>12} {'x msgpack':>10}"
    print(head)
    for name, codecs, engine in rows:
        mp = codecs.get("msgpack")
        for codec, (n, d, e) in codecs.items():
            ratio = f"{d / mp[1]:.2f}" if mp and codec == "gdwire" else ""
            print(f"{name:28} {codec:8} {n:>10} {d * 1e3:>10.2f} {e * 1e3:>10.2f} {n / 1e6 / d:>12.1f} {ratio:>10}")
        if with_engine and engine:
            n = engine["bytes"]
            print(f"{name:28} {'engine':8} {n:>10} {engine['decode_s'] * 1e3:>10.2f} {engine['encode_s'] * 1e3:>10.2f} "
                  f"{n / 1e6 / engine['decode_s']:>12.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=float, default=0.25, help="of the bench workloads' full size (bench --scale)")
    ap.add_argument("--bench", help="the bench program (default: bazel-bin/bench/bench of `bazel build -c opt //bench`)")
    ap.add_argument("--engine", action="store_true", help="time Godot 4.6.3 in-process on the bench packets too")
    args = ap.parse_args()
    sys.setrecursionlimit(20000)  # json on the deep_dict packet's plain JSON (1,000 levels)
    print(f"gdwire {gdwire.__version__} (library {gdwire.library_version}), Python {sys.version.split()[0]}, "
          f"msgpack {'.'.join(map(str, msgpack.version)) if msgpack else 'not installed'}")
    rows = []
    for name, value in python_workloads():
        data = gdwire.encode(value, "godot4")
        rows.append((name, timings(data, value, args.runs), None))
    print_table("Python-made data", rows, False)

    binary = bench_binary(args.bench)
    if not binary:
        print("\n(no bench program: `bazel build -c opt //bench`, or --bench PATH, adds the bench packets)")
        return
    with tempfile.TemporaryDirectory(prefix="gdwire-pybench-") as tmp:
        subprocess.run([binary, "--dialect", "godot4", "--scale", str(args.scale), "--write-packets", tmp], check=True,
                       capture_output=True)
        files = sorted(os.path.join(tmp, n) for n in os.listdir(tmp))
        engine = engine_times(files, args.runs) if args.engine else {}
        rows = []
        for f in files:
            with open(f, "rb") as fh:
                data = fh.read()
            w = os.path.basename(f).split(".")[0]
            rows.append((w, timings(data, plain_of(data), args.runs), engine.get(w)))
        print_table(f"the bench packets (Godot 4 bytes, scale {args.scale}; json and msgpack on their plain JSON form)",
                    rows, args.engine)
    if not msgpack:
        print("(python3-msgpack is not installed: no msgpack rows)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""engine_harness.py [--inputs N] [--engines E,...] — inputs a second of each harness inside the engines
(tools/engines/harness/, issue 62), side by side in one run with the differential run against Godot 4.6.3
(tools/fuzz/differential.py: the engine's bytes_to_var through the testee protocol and gdwire's prediction).

Each row runs engine_fuzz.py for N inputs (default 3000; 600 for a sanitizer build and the files harness) from a
fixed seed and reads its summary: inputs, seconds (the engine's starts and restarts included) and inputs/s. The
goals (issue 62): the Variant harness at 1,000 inputs/s or more against the release engine, the multiplayer ones at
300 or more. Needs `bazel build //fuzzers:engine_inputs //conformance:gdwire_testee` and the engines.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "tools", "engines", "harness", "engine_fuzz.py")
ROWS = [  # engine, harness, goal in inputs/s (release engines only)
    ("godot4.6", "variant", 1000), ("godot3.6", "variant", 1000), ("godot3.2", "variant", 1000),
    ("godot4.6", "mp-server", 300), ("godot4.6", "mp-client", 300),
    ("godot3.6", "mp-server", 300), ("godot3.6", "mp-client", 300),
    ("godot4.6", "files", None), ("godot3.6", "files", None),
    ("godot4.6-asan", "variant", None), ("godot3.6-asan", "variant", None),
    ("godot4.6-asan", "mp-server", None), ("godot3.6-asan", "mp-server", None),
]


def available(engine):
    p = subprocess.run([os.path.join(ROOT, "tools", "engines", "run"), engine, "--version"], capture_output=True, text=True)
    return bool(re.search(r"\d+\.\d+", p.stdout + p.stderr))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=3000)
    ap.add_argument("--engines", help="only these engines (comma-separated)")
    args = ap.parse_args()
    only = set(args.engines.split(",")) if args.engines else None
    work = tempfile.mkdtemp(prefix="gdw-harness-bench-")
    print("%-14s %-10s %8s %9s %10s %7s  %s" % ("engine", "harness", "inputs", "seconds", "inputs/s", "goal", "findings"))
    failed = 0
    try:
        for engine, harness, goal in ROWS:
            if only and engine not in only:
                continue
            if not available(engine):
                print("%-14s %-10s %s" % (engine, harness, "not installed here"))
                continue
            n = args.inputs if not (engine.endswith("-asan") or harness == "files") else max(100, args.inputs // 5)
            out = os.path.join(work, "%s-%s" % (engine, harness))
            subprocess.run([sys.executable, FUZZ, "--engine", engine, "--harness", harness, "--out", out, "--inputs", str(n),
                            "--seed", "1"], capture_output=True)
            with open(os.path.join(out, "summary.json")) as fh:
                s = json.load(fh)
            met = "" if goal is None else ("%d %s" % (goal, "met" if s["inputs_per_second"] >= goal else "NOT met"))
            failed += bool(goal) and s["inputs_per_second"] < goal
            print("%-14s %-10s %8d %9.1f %10.1f %7s  %s" % (engine, harness, s["inputs"], s["seconds"], s["inputs_per_second"],
                                                           met, ", ".join("%s %d" % kv for kv in sorted(s["findings_by_class"].items())) or "-"))
        testee = os.path.join(ROOT, "bazel-bin", "conformance", "gdwire_testee")
        if os.access(testee, os.X_OK) and available("godot4.6") and (not only or "godot4.6" in only):
            out = os.path.join(work, "differential")
            began = time.monotonic()
            p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "fuzz", "differential.py"), "--oracle", "godot4.6",
                                "--out", out, "--max-inputs", str(args.inputs), "--minutes", "10", "--gdwire-testee", testee,
                                "--corpus", os.path.join(ROOT, "corpus", "decode")], capture_output=True, text=True)
            sec = time.monotonic() - began  # its start, gdwire's testee and the engine's, as engine_fuzz.py counts them
            m = re.search(r"inputs sent to the engine: (\d+)", p.stdout)
            if m:
                n = int(m.group(1))
                print("%-14s %-10s %8d %9.1f %10.1f %7s  %s" % ("godot4.6", "differential", n, sec, n / sec, "", "(tools/fuzz/differential.py)"))
            else:
                print("godot4.6       differential: no figures in its output:\n" + p.stdout[-800:])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

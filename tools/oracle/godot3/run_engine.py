#!/usr/bin/env python3
"""run_engine.py — run packets through the real Godot 3 engine (godot3-server) and write its
verdicts.

usage: run_engine.py PACKETS RESULTS [--engine godot3-server] [--batch-timeout SECONDS]

PACKETS: lines "id<TAB>hex<TAB>objects" (conformance runner --export godot3).
RESULTS: lines "id<TAB>ok|error|crash<TAB>typeof<TAB>re-encoding hex<TAB>error class<TAB>object id"
(read by the conformance runner --oracle godot3).

Telling a null packet from a rejected one: base64_to_variant returns null in both cases, but
the engine prints "Error when trying to decode Variant" on stderr exactly when decode_variant
failed, preceded by the failing check ("... Returned: ERR_INVALID_DATA" or "Method failed. Returning: ..."). verdict.gd writes a
marker to stderr before each packet, so the stderr text between two markers belongs to one
packet. A packet that kills the engine (stack overflow on deep nesting) is recorded as
"crash" and the run resumes with the next packet.
"""
import argparse
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FAIL_LINE = "Error when trying to decode Variant"
RETURNED = re.compile(r"Return(?:ed|ing): (ERR_[A-Z_]+)")


def run_batch(engine, work, packets, start, timeout):
    """Run packets[start:] in one engine process; return ({index: result}, finished)."""
    with open(os.path.join(work, "in.tsv"), "w") as fh:
        for i in range(start, len(packets)):
            _, hexs, objects = packets[i]
            fh.write(f"{i}\t{base64.b64encode(bytes.fromhex(hexs)).decode()}\t{objects}\n")
    env = dict(os.environ, GDW_IN=os.path.join(work, "in.tsv"), HOME=work)
    try:
        p = subprocess.run([engine, "--no-window", "-s", "verdict.gd"], cwd=work, env=env, capture_output=True, timeout=timeout)
        out, err, finished = p.stdout, p.stderr, b"\nDONE" in p.stdout
    except subprocess.TimeoutExpired as e:
        out, err, finished = e.stdout or b"", e.stderr or b"", False
    results = {}
    for line in out.decode("utf-8", "replace").splitlines():
        if line.startswith("R\t"):
            _, idx, typ, b64, objid = (line.split("\t") + [""])[:5]
            results[int(idx)] = ["ok", typ, base64.b64decode(b64).hex(), "", objid]
    segments, current, last_marker = {}, None, None
    for line in err.decode("utf-8", "replace").splitlines():
        if line.startswith("@@"):
            current = None if line == "@@done" else int(line[2:])
            last_marker = current if current is not None else last_marker
            if current is not None:
                segments[current] = []
        elif current is not None:
            segments[current].append(line)
    for idx, lines in segments.items():
        text = "\n".join(lines)
        if idx in results and FAIL_LINE in text:
            m = RETURNED.search(text)
            results[idx] = ["error", "", "", m.group(1) if m else "ERR_?", ""]
    return results, finished, last_marker


def main():
    ap = argparse.ArgumentParser(description="run packets through the real Godot 3 engine")
    ap.add_argument("packets")
    ap.add_argument("results")
    ap.add_argument("--engine", default="godot3-server")
    ap.add_argument("--batch-timeout", type=float, default=300)
    args = ap.parse_args()
    engine = shutil.which(args.engine)
    if not engine:
        sys.exit(f"run_engine: {args.engine} not found; install it with tools/setup.sh (Debian package godot3-server)")
    packets = []
    with open(args.packets) as fh:
        for line in fh:
            if line.strip():
                packets.append(line.rstrip("\n").split("\t"))
    work = tempfile.mkdtemp(prefix="gdw-godot3-")
    try:
        with open(os.path.join(work, "project.godot"), "w") as fh:
            fh.write("config_version=4\n")
        shutil.copy(os.path.join(HERE, "verdict.gd"), work)
        results, start, runs, crashes = {}, 0, 0, 0
        while start < len(packets):
            got, finished, last = run_batch(engine, work, packets, start, args.batch_timeout)
            runs += 1
            results.update(got)
            if finished:
                break
            # the packet after the last complete answer took the engine down
            bad = last if last is not None and last not in got else max(list(got) + [start - 1]) + 1
            if bad >= len(packets):
                break
            results[bad] = ["crash", "", "", "", ""]
            crashes += 1
            start = bad + 1
        with open(args.results, "w") as fh:
            for i, (pid, _, _) in enumerate(packets):
                r = results.get(i)
                if r:
                    fh.write("\t".join([pid] + r) + "\n")
        counts = {}
        for r in results.values():
            counts[r[0]] = counts.get(r[0], 0) + 1
        print(f"run_engine: {len(packets)} packets, {runs} engine runs, " +
              ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""saves_log.py STDOUT STDERR DIR — one log of an engine's run of saves4.gd / saves3.gd / read_saves*.gd
(make_saves.sh): the JSON lines the script printed, each followed, after the last line of its file and
phase, by a `stderr` event with what the engine printed on stderr meanwhile (the script writes "@@PHASE FILE"
on stderr before each file; what comes before the first marker is the phase `start`). DIR (the folder the
engine wrote or read) becomes "DIR" in the engine's messages, so a log does not depend on where it was made.

saves_log.py --bench-table BENCH.jsonl — the benchmark's lines as a table."""
import json
import re
import sys

MARKER = re.compile(r"^@@(\w+) (\S+)$")


def stderr_sections(path, folder):
    sections, key = {}, ("start", None)
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n").replace(folder, "DIR")
            m = MARKER.match(line)
            if m:
                key = (m.group(1), m.group(2))
                sections.setdefault(key, [])
            elif line.strip():
                sections.setdefault(key, []).append(line)
    return sections


def merge(out_path, err_path, folder):
    sections = stderr_sections(err_path, folder)
    events = []
    with open(out_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("{"):
                events.append(json.loads(line))
    last = {}
    for i, e in enumerate(events):
        last[(e.get("phase"), e.get("file"))] = i
    after = {}
    for (phase, name), lines in sections.items():
        if not lines:
            continue
        event = {"event": "stderr", "phase": phase, "file": name, "lines": lines}
        at = 0 if phase == "start" else last.get((phase, name), len(events) - 1)
        after.setdefault(at, []).append(event)
    for i, e in enumerate(events):
        print(json.dumps(e, ensure_ascii=False, sort_keys=True))
        for s in after.get(i, []):
            print(json.dumps(s, ensure_ascii=False, sort_keys=True))


def bench_table(path):
    rows = [json.loads(l) for l in open(path, encoding="utf-8") if '"event": "bench"' in l]
    print(f"{'file':<16} {'file MB':>9} {'plain MB':>9} {'values':>7} {'write ms':>10} {'open ms':>9} {'get_var ms':>11} {'read ms':>9}")
    for r in rows:
        if "error" in r:
            print(f"{r['file']:<16} refused to write: error {r['error']}")
            continue
        if r["open_error"]:
            print(f"{r['file']:<16} {r['file_bytes'] / 1e6:>9.1f} {'':>9} {'':>7} {r['write_ms']:>10.0f}   refused to read: error {r['open_error']}")
            continue
        print(f"{r['file']:<16} {r['file_bytes'] / 1e6:>9.1f} {r['plain_bytes'] / 1e6:>9.1f} {r['values']:>7} "
              f"{r['write_ms']:>10.0f} {r['open_ms']:>9.0f} {r['get_var_ms']:>11.0f} {r['read_ms']:>9.0f}")


if __name__ == "__main__":
    if sys.argv[1] == "--bench-table":
        bench_table(sys.argv[2])
    else:
        merge(*sys.argv[1:4])

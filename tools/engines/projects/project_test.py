#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""project_test.py: the ground truth of conformance/projects/ still holds.

usage: project_test.py tables GDWIRE WIRE_TABLE OUT_DIR
       project_test.py live GDWIRE WIRE_TABLE RUN_PROJECT PROJECT OUT_PREFIX

tables: every committed NAME.wire.tsv is made again by wire_table.py from the committed NAME.pcap and NAME.log
  with today's gdwire, row for row (gdwire's capture decoder, which reads the wire for the table, has not moved).
live: PROJECT is run again under Godot 4.6.3 as server and client (run_project.sh, tcpdump: root), and the new
  run's addon dump and wire table are the committed OUT_PREFIX.manifest.json and OUT_PREFIX.wire.tsv, node for
  node and row for row: the engine, the addon and the harness still do what the committed files say.
Needs root, tcpdump and the engine for live (tools/need.sh's rules: skip, or fail under GDW_NO_SKIP=1).
The last line: N passed, N failed."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def rows(path):
    return [l for l in open(path, encoding="utf-8").read().splitlines() if not l.startswith("#")]


def same_rows(name, got, want):
    check(len(got) == len(want), "%s: %d rows, the committed table has %d" % (name, len(got), len(want)))
    for i, row in enumerate(want):
        check(i < len(got) and got[i] == row, "%s row %d: %r, committed %r" % (name, i + 1, got[i] if i < len(got) else None, row))


def skip_or_fail(why):
    if os.environ.get("GDW_NO_SKIP") == "1":
        print("FAIL: %s (GDW_NO_SKIP=1: a skip is a failure here)" % why)
        print("0 passed, 1 failed")
        sys.exit(1)
    print("SKIP: %s; nothing checked" % why)
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(0)


def tables(gdwire, wire_table, out_dir):
    names = sorted(os.path.basename(p)[:-len(".wire.tsv")] for p in glob.glob(os.path.join(out_dir, "*.wire.tsv")))
    check(len(names) >= 6, "%s: %d committed tables, 6 expected at least" % (out_dir, len(names)))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            made = os.path.join(tmp, name + ".wire.tsv")
            run = subprocess.run([sys.executable, wire_table, gdwire, os.path.join(out_dir, name), made], capture_output=True, text=True)
            check(run.returncode == 0, "%s: wire_table.py failed: %s" % (name, run.stderr.strip()))
            if run.returncode == 0:
                same_rows(name, rows(made), rows(os.path.join(out_dir, name + ".wire.tsv")))


def live(gdwire, wire_table, run_project, project, out_prefix):
    if os.geteuid() != 0:
        skip_or_fail("needs root for tcpdump")
    if shutil.which("tcpdump") is None:
        skip_or_fail("needs tcpdump, not installed here: run 'sudo bash tools/setup.sh'")
    engine = os.path.join(os.path.dirname(run_project), "..", "run")
    probe = subprocess.run([engine, "godot4.6", "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        skip_or_fail("Godot 4.6.3 does not start here (tools/engines/setup)")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "live")
        run = subprocess.run([run_project, project, prefix], capture_output=True, text=True)
        check(run.returncode == 0, "run_project.sh failed: %s %s" % (run.stdout, run.stderr))
        if run.returncode != 0:
            return
        made = subprocess.run([sys.executable, wire_table, gdwire, prefix], capture_output=True, text=True)
        check(made.returncode == 0, "wire_table.py failed: %s" % made.stderr.strip())
        if made.returncode == 0:
            same_rows("live wire table", rows(prefix + ".wire.tsv"), rows(out_prefix + ".wire.tsv"))
        got = json.load(open(prefix + ".manifest.json", encoding="utf-8"))
        want = json.load(open(out_prefix + ".manifest.json", encoding="utf-8"))
        for key in ("nodes", "synchronizers", "spawners"):
            check(len(got[key]) == len(want[key]), "dump: %d %s, committed %d" % (len(got[key]), key, len(want[key])))
            for g, w in zip(got[key], want[key]):
                check(g == w, "dump %s %s: %s, committed %s" % (key, w.get("path"), json.dumps(g), json.dumps(w)))
        rest = {k: v for k, v in got.items() if k not in ("nodes", "synchronizers", "spawners")}
        check(rest == {k: v for k, v in want.items() if k not in ("nodes", "synchronizers", "spawners")},
              "dump: the top level differs: %s" % json.dumps(rest))
        check(not os.path.exists(prefix + ".client.manifest.json"), "the client's dump differs from the server's")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "tables":
        tables(*sys.argv[2:])
    elif len(sys.argv) == 7 and sys.argv[1] == "live":
        live(*sys.argv[2:])
    else:
        sys.exit(__doc__)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""runs_table.py [--check DOC] — the campaigns run inside the engines, from their committed summaries
(tools/engines/harness/runs/*.json, engine_fuzz.py's summary.json of each run), as the table docs/engine-findings.md
holds. With --check DOC it fails when DOC's table differs from the summaries, or when a run's finding is not in
known.tsv (every finding a campaign made is reported, with its finding number)."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not os.path.exists(os.path.join(HERE, "known.tsv")):  # under Bazel, the test's name in tools/engines/
    HERE = os.path.join(HERE, "harness")


def known():
    out = {}
    with open(os.path.join(HERE, "known.tsv"), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            f = line.rstrip("\n").split("\t")
            out[(f[0], f[1], f[2])] = f[3]
    return out


def table():
    k = known()
    rows, problems = [], []
    for path in sorted(glob.glob(os.path.join(HERE, "runs", "*.json"))):
        with open(path, encoding="utf-8") as fh:
            s = json.load(fh)
        numbers = []
        for f in s["findings"]:
            n = k.get((s["engine"], s["harness"], f["signature"]))
            if n is None:
                problems.append("%s: finding %s (%s: %s at %s) is not in known.tsv" % (
                    os.path.basename(path), f["signature"], f["class"], f["kind"], f["entry"]))
            else:
                numbers.append(n)
        findings = ", ".join("%s (%s)" % (c, n) for c, n in sorted(s["findings_by_class"].items())) or "none"
        rows.append("| %s | %s | %s | %.0f | {:,} | %.1f | %s | %s |".format(s["inputs"]) % (
            s["engine"], s["harness"], s.get("date", "?"), s["seconds"] / 60, s["inputs_per_second"], findings,
            ", ".join(sorted(set(numbers), key=int)) or "-"))
    head = ["| engine | harness | date | minutes | inputs | inputs/s | findings by class (signatures) | reported as |",
            "|---|---|---|---:|---:|---:|---|---|"]
    return "\n".join(head + rows), problems


def main(argv):
    text, problems = table()
    if len(argv) < 3 or argv[1] != "--check":
        print(text)
        for p in problems:
            print("runs_table: " + p, file=sys.stderr)
        return 1 if problems else 0
    with open(argv[2], encoding="utf-8") as fh:
        doc = fh.read()
    begin, end = "<!-- runs_table.py begin -->\n", "<!-- runs_table.py end -->"
    held = doc.split(begin, 1)[1].split(end, 1)[0].strip() if begin in doc and end in doc else None
    fails = list(problems)
    if held is None:
        fails.append("%s has no runs_table.py section" % argv[2])
    elif held != text.strip():
        fails.append("%s's table of campaigns differs from tools/engines/harness/runs/ (python3 %s prints it)" % (
            argv[2], os.path.relpath(__file__)))
    for f in fails:
        print("FAIL: " + f)
    n = len(glob.glob(os.path.join(HERE, "runs", "*.json")))
    print("%d campaign summaries; every finding known: %s; the table holds: %s" % (
        n, "yes" if not problems else "no", "yes" if held == text.strip() else "no"))
    print("%d passed, %d failed" % (2 - min(2, len(fails)), min(2, len(fails))))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""crash_table.py [--check FILE] GDWIRE RUNNER [EVIDENCE.tsv ...] — which classes of input crash (or hang) each engine release.

Reads the engine evidence recorded by tools/engines/record-evidence (conformance/evidence/ENGINE.tsv: each
conformance vector's answer from the real engine; `CRASH` when the engine died or hung on it) and the vectors
themselves (their bytes, from the conformance runner's --export). Each crashing input is classed two ways:

- by its outer Variant type, named by the release's own dialect table (`gdwire dialects --json`), and
- by what gdwire's model of that release reads there (`gdwire decode -d DIALECT --mode engine-exact`):
  accepted, or the error class and its reason, e.g. "TRUNCATED: string runs past the end". A crash on an
  input gdwire reads as TRUNCATED is a read past the end of the packet in that engine.

The classes are gdwire's words for inputs the engine was seen to crash on; the crashes themselves are the
engine's (conformance/evidence/built-engines.md says how each release was built). Prints a Markdown section
per release with a crash, the form docs/engine-findings.md holds (`--check FILE` fails when FILE's tables
differ from what the evidence says now: tools/engines:crash_table_test).
"""
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load_vectors(runner, root):
    """FILE#NAME -> bytes, for every vector an engine can judge, as the evidence names them (the conformance
    runner's --export: the same packets record-evidence gave the engines)."""
    base = os.path.join(root, "conformance", "vectors")
    r = subprocess.run([runner, "--export", "godot4", "--root", base, base], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"crash_table.py: {runner} --export: {r.stderr.strip()}")
    out = {}
    for line in r.stdout.splitlines():
        cols = line.split("\t")
        if len(cols) >= 2:
            out[cols[0]] = bytes.fromhex(cols[1])
    return out


def read_evidence(path):
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        if not head or not head[0].startswith("# gdwire-evidence/"):
            sys.exit(f"crash_table.py: {path}: not an evidence file")
        release, version, dialect = head[1], head[2], head[3]
        crashes = []
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) > 5 and cols[5] == "CRASH":
                crashes.append(cols[0])
    return release, version, dialect, crashes


def type_names(gdwire):
    out = {}
    for d in json.loads(subprocess.run([gdwire, "dialects", "--json"], check=True, capture_output=True,
                                       text=True).stdout):
        for name in [d["name"]] + d.get("aliases", []):
            out[name] = d["types"]
    return out


def gdwire_readings(gdwire, dialect, packets):
    """One (class, reason) per packet: gdwire's engine-exact reading of it in DIALECT."""
    with tempfile.NamedTemporaryFile("w", suffix=".hex", delete=False) as f:
        for p in packets:
            f.write((p.hex() or "-") + "\n")
        name = f.name
    try:
        r = subprocess.run([gdwire, "decode", "-d", dialect, "--mode", "engine-exact", "--hex", "--lines",
                            "--json", name], capture_output=True, text=True)
    finally:
        os.unlink(name)
    if r.returncode not in (0, 1):
        sys.exit(f"crash_table.py: gdwire decode -d {dialect}: {r.stderr.strip()}")
    out = []
    for line in r.stdout.splitlines():
        j = json.loads(line)
        if j.get("accepted"):
            out.append(("accepted", "gdwire's model of the release reads a value"))
        else:
            e = j.get("error") or {}
            out.append((e.get("code", "?"), e.get("message", "?")))
    if len(out) != len(packets):
        sys.exit(f"crash_table.py: gdwire decode -d {dialect}: {len(out)} answers for {len(packets)} packets")
    return out


def outer_type(packet, types):
    if len(packet) < 4:
        return f"(shorter than a header: {len(packet)} bytes)"
    tid = int.from_bytes(packet[:4], "little") & 0xFF
    return types[tid] if tid < len(types) else f"type id {tid} (none in this release)"


def table(gdwire, path, vectors, names):
    release, version, dialect, crashes = read_evidence(path)
    if not crashes:
        return None
    missing = [c for c in crashes if c not in vectors]
    if missing:
        sys.exit(f"crash_table.py: {path}: {len(missing)} crashing vectors not in conformance/vectors "
                 f"(first: {missing[0]}); record the evidence again")
    packets = [vectors[c] for c in crashes]
    types = names.get(dialect) or names.get(dialect.split("@")[0])
    if types is None:
        sys.exit(f"crash_table.py: {path}: dialect {dialect} unknown to gdwire")
    reads = gdwire_readings(gdwire, dialect, packets)
    by_type = collections.Counter(outer_type(p, types) for p in packets)
    by_read = collections.Counter(f"{c}: {m}" for c, m in reads)
    by_file = collections.Counter(c.split("#")[0].split("/")[0] for c in crashes)
    lines = [f"### {release} ({version}, dialect `{dialect}`): {len(crashes)} of the vectors crash or hang it", ""]
    lines.append("| the vectors' folder | crashes |")
    lines.append("|---|---:|")
    lines += [f"| {k} | {n} |" for k, n in sorted(by_file.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines += ["", "| outer type | crashes |", "|---|---:|"]
    lines += [f"| {k} | {n} |" for k, n in sorted(by_type.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines += ["", "| gdwire's reading of the input in this release | crashes |", "|---|---:|"]
    lines += [f"| {k} | {n} |" for k, n in sorted(by_read.items(), key=lambda kv: (-kv[1], kv[0]))]
    lines.append("")
    return "\n".join(lines)


def main(argv):
    check = None
    if len(argv) >= 3 and argv[1] == "--check":
        check = argv[2]
        argv = [argv[0]] + argv[3:]
    if len(argv) < 3:
        sys.exit(__doc__)
    gdwire, runner = argv[1], argv[2]
    files = argv[3:] or sorted(glob.glob(os.path.join(ROOT, "conformance", "evidence", "*.tsv")))
    vectors = load_vectors(runner, ROOT)
    names = type_names(gdwire)
    sections = [s for s in (table(gdwire, f, vectors, names) for f in files) if s]
    text = "\n".join(sections)
    if check is None:
        print(text)
        return 0
    with open(check, encoding="utf-8") as f:
        doc = f.read()
    begin, end = "<!-- crash_table.py begin -->\n", "<!-- crash_table.py end -->"
    if begin not in doc or end not in doc:
        print(f"{check}: no crash_table.py section\n0 passed, 1 failed")
        return 1
    held = doc.split(begin, 1)[1].split(end, 1)[0].strip()
    ok = held == text.strip()
    if not ok:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(held.splitlines(True), text.strip().splitlines(True),
                                                   check, "evidence now"))
        print()
    print(f"{len(sections)} releases with crashes; {check} {'holds' if ok else 'differs from'} the evidence")
    print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

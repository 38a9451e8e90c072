#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""differential.py — differential fuzzing against a live engine: inputs go through the real
engine and through gdwire's engine-exact prediction (both as testees, docs/testee-protocol.md),
and every disagreement is a finding.

usage: differential.py --oracle godot4.6|godot3.6|godot3.2 --out DIR [--minutes M] [--seed N]
                       [--corpus DIR ...] [--gdwire-testee BIN] [--known FILE] [--max-inputs N]

Inputs, in batches of 500: first every file of the given fuzz corpora (their 2-byte selector
is dropped: the bytes after it are the packet; bit 2 of the second byte allows objects), then,
until the time is up, mutations (cuts, bit flips, forged words, splices) of the packets the
engine itself wrote (tools/engines/ENGINE-packets.tsv). Compared: the decision; for accepted
packets the bytes consumed (where the engine says) and, without objects, the re-encoding (bytes that differ
only in what gdwire reads back alike, such as Godot 3's uninitialised padding, are no difference).
An engine crash or hang is a finding too.

Findings are deduplicated by a signature specific enough that a waiver covers one cause, not a
class (issue 34): the kind of difference, both verdicts, the objects flag and the top type id,
and further
  decision     both error classes (the engine's ERR_..., gdwire's);
  re-encoding  the first value where the two re-encodings differ, both read back by gdwire
               (`gdwire decode --json`): its path, with indices as [i] and keys as {k} / {v},
               and its type on each side ("Array[Color] > String vs Color").
Each signature's smallest input is kept as DIR/findings/SIG.hex and proposed as a conformance
vector in DIR/proposed-vectors.yaml (expectation: what the engine did). The figures go to
stdout and DIR/differential.txt.

--known FILE (tools/fuzz/differential-known.tsv): signatures already analysed, one per line:
"SIG<TAB>at most per 10,000 inputs<TAB>deviation id<TAB>reason". A known signature seen more
often than its bound allows (rate x inputs / 10,000, plus 3) fails as a new one would: a waiver
cannot quietly absorb a growing class. The run ends with "N passed, N failed": an input passes
when the engine and gdwire agree or its disagreement is within a known signature's bound; exit
status 1 when any failed."""
import argparse
import hashlib
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "conformance"))
sys.path.insert(0, os.path.join(ROOT, "tools/conformance"))
from testee_run import Testee, drive  # noqa: E402
from generate import engine_packets  # noqa: E402  (the one reader of tools/engines/ENGINE-packets.tsv)

DIALECT = {"godot4.6": "godot4", "godot3.6": "godot3", "godot3.2": "godot3@3.2"}  # the release row of each engine


def mutate(rng, seeds):
    b = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        if op == 0 and len(b) > 1:
            del b[rng.randrange(1, len(b)):]
        elif op == 1 and b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif op == 2 and len(b) >= 8:
            pos = rng.randrange(0, len(b) - 3) & ~3
            b[pos:pos + 4] = struct.pack("<I", rng.choice([0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, rng.getrandbits(32)]))
        elif op == 3:
            other = rng.choice(seeds)
            b += other[rng.randrange(len(other) + 1):]
        elif op == 4 and len(b) >= 4:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def json_type(node):
    """A node of `gdwire decode --json` as one type name (typed containers with their type)."""
    t = node.get("type", "?")
    types = [node[k] if isinstance(node[k], str) else json.dumps(node[k], sort_keys=True, separators=(",", ":"))
             for k in ("key_type", "element_type", "value_type") if k in node]
    return t + ("[%s]" % ", ".join(types) if types else "")


def first_difference(a, b, path=""):
    """The first place where two `gdwire decode --json` trees differ: (path, type a, type b)."""
    ta, tb = json_type(a), json_type(b)
    va, vb = a.get("value"), b.get("value")
    if ta != tb or not isinstance(va, list) or not isinstance(vb, list) or len(va) != len(vb):
        return (path, ta, tb) if a != b else None
    dict_like = a.get("type") == "Dictionary"
    for i, (x, y) in enumerate(zip(va, vb)):
        if dict_like and isinstance(x, list):  # [key, value] pairs
            for k, (xx, yy) in enumerate(zip(x, y)):
                d = first_difference(xx, yy, path + ("{k}" if k == 0 else "{v}"))
                if d:
                    return d
        elif isinstance(x, dict) and isinstance(y, dict):
            d = first_difference(x, y, path + "[i]")
            if d:
                return d
    return (path, ta, tb) if a != b else None


def read_back(gdwire, dialect, hexes):
    """Each hex string read by gdwire in engine-exact mode: {hex: JSON tree or None}."""
    if not hexes:
        return {}
    with tempfile.NamedTemporaryFile("w", suffix=".hex", delete=False) as fh:
        fh.write("\n".join(hexes) + "\n")
        path = fh.name
    try:
        out = subprocess.run([gdwire, "decode", "-d", dialect, "--mode", "engine-exact", "--allow-objects", "--json", "--hex",
                              "--lines", path], capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    trees = {}
    for line in out.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec.get("line"), int) and 1 <= rec["line"] <= len(hexes):
            trees[hexes[rec["line"] - 1]] = rec.get("value") if rec.get("accepted") else None
    return trees


def corpus_inputs(dirs):
    for d in dirs:
        for dirpath, _, files in os.walk(d):
            for name in sorted(files):
                p = os.path.join(dirpath, name)
                if os.path.islink(p) or os.path.getsize(p) > 65536:
                    continue
                data = open(p, "rb").read()
                if len(data) >= 3:
                    yield data[2:], (data[1] >> 2) & 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", required=True, choices=sorted(DIALECT))
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", action="append", default=[])
    ap.add_argument("--gdwire-testee", default=os.path.join(ROOT, "bazel-bin/conformance/gdwire_testee"))
    ap.add_argument("--known", default="", help="analysed signatures: SIG<TAB>per 10k<TAB>deviation id<TAB>reason per line")
    ap.add_argument("--gdwire", default=os.path.join(ROOT, "bazel-bin/cli/gdwire"), help="the command, to read re-encodings back")
    ap.add_argument("--max-inputs", type=int, default=0, help="stop after this many inputs (0: only the time limit)")
    a = ap.parse_args()
    known = {}  # signature -> (at most per 10,000 inputs, deviation id, reason)
    if a.known:
        for n, line in enumerate(open(a.known, encoding="utf-8"), 1):
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                try:
                    known[f[0]] = (float(f[1]), f[2], f[3])
                except (IndexError, ValueError):
                    sys.exit("differential: %s line %d: want SIG<TAB>per 10k<TAB>deviation id<TAB>reason" % (a.known, n))
    dialect = DIALECT[a.oracle]
    os.makedirs(os.path.join(a.out, "findings"), exist_ok=True)
    rng = random.Random(a.seed)
    seeds = [bytes.fromhex(h) for _, h, _ in engine_packets(a.oracle)[1]]
    log = open(os.path.join(a.out, "testees.log"), "wb")
    engine = Testee(os.path.join(ROOT, "tools/engines/testee.py") + " " + a.oracle, 4096, log)
    gdwire = Testee(a.gdwire_testee, 4096, log)
    deadline = time.monotonic() + a.minutes * 60
    corpus = corpus_inputs(a.corpus)
    sent = from_corpus = agree = restarts = 0
    findings = {}  # signature -> (bytes, objects, description)
    counts = {}
    seen = set()
    while time.monotonic() < deadline and not (a.max_inputs and sent >= a.max_inputs):
        batch = []
        while len(batch) < (min(500, a.max_inputs - sent) if a.max_inputs else 500):
            item = next(corpus, None)
            generated = item is None
            if generated:
                item = (mutate(rng, seeds), rng.random() < 0.1)
            key = (item[0], item[1])
            if key in seen:
                continue
            seen.add(key)
            from_corpus += not generated  # counted once it is sent: a duplicate is not
            batch.append(("p%d" % (sent + len(batch)), item[0].hex(), "1" if item[1] else "0"))
        got_e, r1 = drive(engine, batch, dialect, "engine-exact", 0)
        got_g, r2 = drive(gdwire, batch, dialect, "engine-exact", 0)
        restarts += r1 + r2
        if (sent // 500) % 20 == 0:
            print("  %d inputs sent, %d restarts so far, %.0f s left" % (sent + len(batch), restarts, deadline - time.monotonic()),
                  file=sys.stderr, flush=True)
        # the engine's re-encodings, read back by gdwire: a difference in padding only is none
        differ_enc = [(pid, h, o) for pid, h, o in batch
                      if got_e[pid][0] == got_g[pid][0] == "accepted" and got_e[pid][2] != got_g[pid][2]]
        back, trees = {}, {}
        if differ_enc:
            again = [(pid, got_e[pid][2], "0") for pid, _, _ in differ_enc]
            back, r3 = drive(gdwire, again, dialect, "engine-exact", 0)
            restarts += r3
            trees = read_back(a.gdwire, dialect, sorted({got_e[pid][2] for pid, _, _ in differ_enc} | {got_g[pid][2] for pid, _, _ in differ_enc}))
        for pid, hexs, objects in batch:
            e, g = got_e[pid], got_g[pid]
            sent += 1
            kind = None
            if e[0] in ("crash", "hang") or e[3] == "CRASH":
                kind = "engine-" + (e[0] if e[0] in ("crash", "hang") else "crash")
            elif e[0] != g[0]:
                kind = "decision"
            elif e[0] == "accepted":
                if e[1] != "-" and e[1] != g[1]:
                    kind = "consumed"
                elif objects == "1":
                    pass  # the engine instantiated the class: only the decision and length compare
                elif e[2] != g[2] and not (pid in back and back[pid][0] == "accepted" and back[pid][2] == g[2]):
                    kind = "re-encoding"
            if not kind:
                agree += 1
                continue
            raw = bytes.fromhex(hexs)
            top = raw[0] if raw else -1
            what = ""
            if kind == "decision":
                what = "engine %s, gdwire %s" % (e[3], g[3])
            elif kind == "re-encoding":
                te, tg = trees.get(e[2]), trees.get(g[2])
                d = first_difference(te, tg) if te is not None and tg is not None else None
                what = ("at %s: %s vs %s" % (d[0] or "the top", d[1], d[2])) if d else "not read back"
            sig = hashlib.sha1(("%s|%s|%s|%s|%d|%s" % (kind, e[0], g[0], objects, top, what)).encode()).hexdigest()[:12]
            counts[sig] = counts.get(sig, 0) + 1
            desc = "%s%s: engine %s (consumed %s, %s, %s); gdwire %s (consumed %s, %s, %s)" % (
                kind, (" " + what) if what else "", e[0], e[1], e[2][:80], e[3], g[0], g[1], g[2][:80], g[3])
            if sig not in findings or len(raw) < len(findings[sig][0]):
                findings[sig] = (raw, objects, desc, e)
    engine.kill()
    gdwire.kill()
    lines = ["differential run against %s (%s %s), dialect %s, engine-exact, %.1f minutes, seed %d" % (
        a.oracle, engine.hello["name"] if engine.hello else "?", engine.hello["version"] if engine.hello else "?", dialect,
        a.minutes, a.seed),
        "inputs sent to the engine: %d (%d from the corpora, %d generated)" % (sent, from_corpus, sent - from_corpus),
        "agree: %d; disagree: %d, in %d distinct signatures; testee restarts: %d" % (
            agree, sent - agree, len(findings), restarts)]
    def allowed(sig):  # how many of this signature a known entry waives in a run of this size
        return math.floor(known[sig][0] * sent / 10000) + 3 if sig in known else 0

    unknown = sum(counts[sig] - min(counts[sig], allowed(sig)) for sig in findings)
    with open(os.path.join(a.out, "proposed-vectors.yaml"), "w") as pv:
        pv.write("# Proposed conformance vectors from %s: the expectation is what the engine did.\nvectors:\n" % a.oracle)
        for sig, (raw, objects, desc, e) in sorted(findings.items(), key=lambda kv: -counts[kv[0]]):
            open(os.path.join(a.out, "findings", sig + ".hex"), "w").write(raw.hex() + "\n")
            lines.append("  %s  x%-6d %s  %s" % (sig, counts[sig], raw.hex()[:48], desc))
            if sig not in known:
                lines.append("      NEW: not in --known")
            elif counts[sig] > allowed(sig):
                lines.append("      GREW: known (%s) at most %g per 10,000 inputs, %d waived here: %s" % (
                    known[sig][1], known[sig][0], allowed(sig), known[sig][2]))
            else:
                lines.append("      known (%s): %s" % (known[sig][1], known[sig][2]))
            pv.write('- name: "differential %s %s"\n  from: %s\n  hex: "%s"\n' % (a.oracle, sig, dialect, raw.hex()))
            if objects == "1":
                pv.write("  options: {objects: true}\n")
            pv.write('  note: "%s: %s"\n' % (a.oracle, desc.replace('"', "'")))
    lines.append("%d passed, %d failed" % (sent - unknown, unknown))
    text = "\n".join(lines) + "\n"
    open(os.path.join(a.out, "differential.txt"), "w").write(text)
    sys.stdout.write(text)
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main())

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

Findings are deduplicated by a signature (the kind of difference, the two verdicts, the top
value's type id); each signature's smallest input is kept as DIR/findings/SIG.hex and proposed
as a conformance vector in DIR/proposed-vectors.yaml (expectation: what the engine did). The
figures go to stdout and DIR/differential.txt.

--known FILE (tools/fuzz/differential-known.tsv): signatures already analysed, one per line with
the reason ("SIG<TAB>reason"). The run ends with "N passed, N failed": an input passes when the
engine and gdwire agree or the disagreement's signature is known; exit status 1 when any failed."""
import argparse
import hashlib
import os
import random
import struct
import sys
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
    ap.add_argument("--known", default="", help="analysed signatures: SIG<TAB>reason per line")
    ap.add_argument("--max-inputs", type=int, default=0, help="stop after this many inputs (0: only the time limit)")
    a = ap.parse_args()
    known = {}
    if a.known:
        for line in open(a.known, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                sig, _, why = line.rstrip("\n").partition("\t")
                known[sig] = why
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
            if item is None:
                item = (mutate(rng, seeds), rng.random() < 0.1)
            else:
                from_corpus += 1
            key = (item[0], item[1])
            if key in seen:
                continue
            seen.add(key)
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
        back = {}
        if differ_enc:
            again = [(pid, got_e[pid][2], "0") for pid, _, _ in differ_enc]
            back, r3 = drive(gdwire, again, dialect, "engine-exact", 0)
            restarts += r3
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
            sig = hashlib.sha1(("%s|%s|%s|%d" % (kind, e[0], g[0], top)).encode()).hexdigest()[:12]
            counts[sig] = counts.get(sig, 0) + 1
            desc = "%s: engine %s (consumed %s, %s, %s); gdwire %s (consumed %s, %s, %s)" % (
                kind, e[0], e[1], e[2][:80], e[3], g[0], g[1], g[2][:80], g[3])
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
    unknown = sum(counts[sig] for sig in findings if sig not in known)
    with open(os.path.join(a.out, "proposed-vectors.yaml"), "w") as pv:
        pv.write("# Proposed conformance vectors from %s: the expectation is what the engine did.\nvectors:\n" % a.oracle)
        for sig, (raw, objects, desc, e) in sorted(findings.items(), key=lambda kv: -counts[kv[0]]):
            open(os.path.join(a.out, "findings", sig + ".hex"), "w").write(raw.hex() + "\n")
            lines.append("  %s  x%-6d %s  %s" % (sig, counts[sig], raw.hex()[:48], desc))
            lines.append("      " + ("known: " + known[sig] if sig in known else "NEW: not in --known"))
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

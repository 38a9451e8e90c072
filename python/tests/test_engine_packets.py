# SPDX-License-Identifier: MIT
"""Every packet a real engine wrote (tools/engines/*-packets.tsv, made by tools/engines/make_packets.sh) decodes in
its row's engine-exact mode to the value the C library's canonical text describes, and encodes back byte for
byte, but for the padding bytes an engine left uninitialised (tools/engines/engine_packets_test.sh)."""
import glob
import os
import sys
import unittest

import gdwire

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the row each engine's packets are checked in (tools/engines/BUILD)
ROWS = {"godot4.6": "godot4", "godot3.6": "godot3", "godot3.2": "godot3@3.2", "pandemonium-4.9": "pandemonium",
        "pandemonium-5.2": "pandemonium-5", "godot4.3": "godot4.3", "godot3.1": "godot3@3.1",
        "godot4.6-double": "godot4-double", "godot3.0": "godot3.0@3.0.0", "godot2.0": "mole@2.0",
        "godot2.1": "mole@2.1.0", "pandemonium-3.8": "pandemonium", "godot4.2": "godot4.0",
        "pandemonium-3.7": "pandemonium-3.5"}


def packets(engine):
    with open(os.path.join(ROOT, "tools", "engines", f"{engine}-packets.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, hexs, rt = (line.rstrip("\n").split("\t") + ["", ""])[:3]
            yield name, bytes.fromhex(hexs), bytes.fromhex(rt) if rt else None


def padding_only(engine_bytes, ours):
    """ours differs from what the engine wrote only in bytes the engine left uninitialised and gdwire zeroed"""
    return len(engine_bytes) == len(ours) and all(a == b or b == 0 for a, b in zip(engine_bytes, ours))


class EnginePackets(unittest.TestCase):
    def test_every_engine(self):
        total = 0
        for engine, row in ROWS.items():
            path = os.path.join(ROOT, "tools", "engines", f"{engine}-packets.tsv")
            if not os.path.exists(path):
                continue
            n = 0
            for name, data, engine_rt in packets(engine):
                with self.subTest(engine=engine, packet=name):
                    value, used = gdwire.decode_with_length(data, row, mode="engine-exact", allow_objects=True)
                    again = gdwire.encode(value, row)
                    ok = again == data or padding_only(data, again) or (engine_rt is not None and again == engine_rt)
                    if not ok and used < len(data):  # read short as the engine reads it (Pandemonium's Vector4)
                        ok = engine_rt is not None and again == engine_rt
                    self.assertTrue(ok, f"{engine} {name}: wrote {again.hex()}, the engine {data.hex()}")
                    if used == len(data):  # what gdwire wrote reads back as the same value (compared by its bytes:
                        # a NaN equals nothing in Python)
                        back = gdwire.decode(again, row, mode="engine-exact", allow_objects=True)
                        self.assertEqual(gdwire.encode(back, row), again)
                    n += 1
            self.assertGreaterEqual(n, 200, engine)
            total += n
        self.assertGreater(total, 3000)
        print(f"{total} engine-made packets round-trip", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()


class CheckRanking(unittest.TestCase):
    def test_ranks_as_the_command(self):
        """check's ranking is the library's (gdw_check_rank_rows): the same first dialect, equally, rank and reason in
        every row, the same bytes in front and the same sentence as ``gdwire check --json``, on every engine-made
        packet, the same cut and after a length prefix, and every committed fuzz input of the decoder"""
        import json
        import subprocess
        import tempfile
        cli = os.environ.get("GDWIRE_CLI", os.path.join(ROOT, "bazel-bin", "cli", "gdwire"))
        self.assertTrue(os.path.exists(cli), f"the command {cli} (GDWIRE_CLI) is missing: bazel build //cli:gdwire")
        inputs = [data for engine in ROWS if os.path.exists(os.path.join(ROOT, "tools", "engines", f"{engine}-packets.tsv"))
                  for _, data, _ in packets(engine)]
        inputs += [data[:len(data) * 3 // 4] for data in inputs if len(data) >= 12]  # cut packets
        inputs += [len(data).to_bytes(4, "little") + data for data in inputs[:400]]  # a put_var length prefix
        for d in ("corpus/decode", "corpus/regressions/decode"):
            for f in sorted(glob.glob(os.path.join(ROOT, d, "*"))):
                with open(f, "rb") as fh:
                    data = fh.read()
                if 0 < len(data) <= 65536:
                    inputs.append(data)
        with tempfile.NamedTemporaryFile("w", suffix=".hex") as f:
            f.write("".join(b.hex() + "\n" for b in inputs))
            f.flush()
            out = subprocess.run([cli, "check", "--hex", "--lines", "--json", f.name], capture_output=True, text=True).stdout
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))  # a fuzz input's value may nest as deep as the decoder allows
        try:
            answers = [json.loads(line) for line in out.splitlines()]
        finally:
            sys.setrecursionlimit(limit)
        self.assertEqual(len(answers), len(inputs))
        differ, first = [], 0
        for data, theirs in zip(inputs, answers):
            ours = gdwire.check(data)
            rows = {d["dialect"]: d for d in theirs["dialects"]}
            same = (ours.best == theirs["best"] and list(ours.equally) == theirs["equally"] and ours.summary == theirs["summary"] and
                    ours.skip == theirs["skip"] and ours.framing == theirs["framing"] and ours.script == theirs["script"] and
                    all(v.rank == rows[v.dialect]["rank"] and v.reason == rows[v.dialect]["reason"] and v.first == rows[v.dialect]["first"] and
                        v.reading == rows[v.dialect]["reading"] for v in ours.verdicts))
            first += ours.best is not None
            if not same:
                differ.append((data.hex()[:80], ours.summary, theirs["summary"]))
        self.assertEqual(differ, [], f"{len(differ)} of {len(inputs)} packets ranked or said otherwise")
        self.assertGreater(first, len(inputs) // 2)
        print(f"check ranks {len(inputs)} packets as gdwire check does, with the same reasons and sentence", file=sys.stderr)

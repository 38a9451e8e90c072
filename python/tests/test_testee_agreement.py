# SPDX-License-Identifier: MIT
"""The Python package answers every conformance vector exactly as the C library does, in every dialect and
engine release row and all three modes: the same verdict, bytes consumed, error code and re-encoding
(python/testee.py against the C testee, conformance/gdwire_testee.c). So the value mapping loses nothing the
library keeps. Needs the runner and the C testee: GDWIRE_RUNNER and GDWIRE_TESTEE, or bazel-bin/conformance/."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import testee  # noqa: E402  (python/testee.py)
import gdwire  # noqa: E402


def tool(env, name):
    path = os.environ.get(env) or os.path.join(ROOT, "bazel-bin", "conformance", name)
    if not os.path.exists(path):
        raise RuntimeError(f"{path} is missing: bazel build //conformance:runner //conformance:gdwire_testee")
    return path


class TesteeAgreement(unittest.TestCase):
    def test_every_row_and_mode(self):
        runner, c_testee = tool("GDWIRE_RUNNER", "runner"), tool("GDWIRE_TESTEE", "gdwire_testee")
        vectors = os.environ.get("GDWIRE_VECTORS", os.path.join(ROOT, "conformance", "vectors"))
        rows = [d["name"] for d in gdwire.dialects()]
        step = int(os.environ.get("GDWIRE_AGREEMENT_STEP", "1"))  # 1: every vector
        requests = []
        # every vector's packet, the same list whatever row is named (runner --export): read once, asked in every row
        out = subprocess.run([runner, "--export", rows[0], "--root", vectors, vectors], check=True, capture_output=True,
                             text=True).stdout
        lines = out.splitlines()[::step]
        for row in rows:
            for mode in gdwire.MODES:
                for k, line in enumerate(lines):
                    vid, hexs, objects = line.split("\t")
                    requests.append(f"{row}:{mode}:{k}\t{row}\t{mode}\t{objects}\t{hexs or '-'}")
        c = subprocess.run([c_testee], input="\n".join(requests) + "\n", capture_output=True, text=True, check=True)
        c_answers = c.stdout.splitlines()[1:]
        self.assertEqual(len(c_answers), len(requests))
        differ = []
        for req, ca in zip(requests, c_answers):
            pa = testee.answer(req, detail=False)
            # id, verdict, consumed, encode, error: the detail column is each implementation's own text
            if pa.split("\t")[:5] != ca.split("\t")[:5]:
                differ.append((req[:120], ca[:160], pa[:160]))
        print(f"{len(requests)} requests ({len(rows)} rows x 3 modes), {len(differ)} differ", file=sys.stderr)
        self.assertEqual(differ[:10], [], f"{len(differ)} of {len(requests)} answers differ from the C library's")


if __name__ == "__main__":
    unittest.main()

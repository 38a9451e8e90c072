#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""filter_replies.py [GDWIRE] [N] — a server's replies through the command, two ways, side by side:
one `gdwire encode --json --lines --framing stream` process answering N JSON Lines through pipes
(each reply read before the next request is written, as a server would), and one `gdwire encode`
process per reply. Prints both times and the ratio (issue 33)."""
import os
import subprocess
import sys
import time

gdwire = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "bazel-bin", "cli", "gdwire")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
reply = lambda i: ('{"type": "Dictionary", "value": [[{"type": "String", "value": "tick"}, {"type": "int", "value": %d}], '
                   '[{"type": "String", "value": "pos"}, {"type": "Vector2", "value": [%d.5, -2.0]}]]}' % (i, i))


def read_frame(f):
    pre = f.read(4)
    return pre + f.read(int.from_bytes(pre, "little"))


t = time.monotonic()
p = subprocess.Popen([gdwire, "encode", "-d", "godot4", "--json", "--lines", "--framing", "stream"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
one = []
for i in range(n):
    p.stdin.write((reply(i) + "\n").encode())
    p.stdin.flush()
    one.append(read_frame(p.stdout))
p.stdin.close()
p.wait()
t_one = time.monotonic() - t

t = time.monotonic()
each = []
for i in range(n):
    each.append(subprocess.run([gdwire, "encode", "-d", "godot4", "--json", "--framing", "stream"], input=reply(i).encode(),
                               stdout=subprocess.PIPE, check=True).stdout)
t_each = time.monotonic() - t
assert one == each, "the two ways wrote different bytes"
print("%d replies (%d bytes each, StreamPeer frames), identical both ways" % (n, len(one[0])))
print("  one process, --lines through pipes: %7.3f s  (%6.0f replies/s)" % (t_one, n / t_one))
print("  one process per reply:              %7.3f s  (%6.0f replies/s)" % (t_each, n / t_each))
print("  ratio: %.1fx" % (t_each / t_one))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""capture_caps_test.py GDWIRE HOSTILE_CAPTURES CAPTURE_MD — `gdwire capture` on the forged captures of
bench/hostile_captures.py (issue 55) holds what they make it keep under its caps.

Each shape, at 12 MiB, is read with caps far below what it forges (reassembly 8 MiB in all and
6 MiB per flow, retransmit windows 2 MiB and 64 KiB, path caches 2 MiB and 1 MiB). Checked:
  - what the session held at its peak (the summary's peak_held_bytes) is within the caps, plus the
    flows themselves (4,096 at most, under 4 MiB);
  - the process's peak RSS (GNU time) is within the same command's on the shape at 64 KiB, plus
    the caps, plus 8 MiB of slack (the C library's arenas, the pcap reader's buffer);
  - a cap was reached: state was dropped, and a problem names the cap's option;
  - exit status 1 (problems), and the capture was read to its end.
And docs/capture.md's table of caps ("Bounded memory") names every --max-* option the command's
help lists.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

gdwire, captures_py, capture_md = sys.argv[1], sys.argv[2], sys.argv[3]
spec = importlib.util.spec_from_file_location("hostile_captures", captures_py)
hc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hc)

MIB = 1 << 20
CAPS = {"--max-fragment-bytes": 8 * MIB, "--max-flow-fragment-bytes": 6 * MIB, "--max-window-bytes": 2 * MIB,
        "--max-flow-window-bytes": 64 << 10, "--max-path-bytes": 2 * MIB, "--max-flow-path-bytes": 1 * MIB,
        "--max-ip-fragment-bytes": 2 * MIB}
TOTALS = CAPS["--max-fragment-bytes"] + CAPS["--max-window-bytes"] + CAPS["--max-path-bytes"] + CAPS["--max-ip-fragment-bytes"]
FLOWS = 4 * MIB
SLACK = 8 * MIB

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def capture(path):
    """Exit status, the JSON lines, and the peak RSS in bytes."""
    args = [x for k, v in CAPS.items() for x in (k, str(v))]
    with tempfile.NamedTemporaryFile(mode="r") as t, tempfile.TemporaryFile(mode="w+") as out:
        rc = subprocess.run(["/usr/bin/time", "-f", "%x %M", "-o", t.name, gdwire, "capture", "--json"] + args + [path],
                            stdout=out, stderr=subprocess.DEVNULL).returncode
        status, kib = t.read().split()[-2:]
        out.seek(0)
        return int(status), [json.loads(line) for line in out], int(kib) * 1024


# every cap of the command's help, in the docs' table
import re  # noqa: E402
helptext = subprocess.run([gdwire, "capture", "--help"], capture_output=True, text=True).stdout
options = sorted(set(re.findall(r"--max-[a-z-]+", helptext)))
doc = open(capture_md).read()
table = doc[doc.index("## Bounded memory"):doc.index("## The library")]
check(len(options) >= 9, f"the help lists {len(options)} --max-* options")
for opt in options:
    check("`%s`" % opt in table, f"docs/capture.md's table of caps does not name {opt}")
print(f"the help's {len(options)} --max-* options are all in docs/capture.md's table of caps")

tmp = tempfile.mkdtemp(prefix="gdw-caps-")
for name, make in hc.SHAPES:
    small, big = os.path.join(tmp, "small.pcap"), os.path.join(tmp, "big.pcap")
    with open(small, "wb") as fh:
        fh.write(make(64 << 10))
    with open(big, "wb") as fh:
        fh.write(make(12 * MIB))
    _, _, base_rss = capture(small)
    rc, out, rss = capture(big)
    summ = [o for o in out if o["type"] == "summary"]
    check(len(summ) == 1, f"{name}: one summary")
    if not summ:
        continue
    s = summ[0]
    probs = [o["message"] for o in out if o["type"] == "problem"]
    named = [p for p in probs if any(k in p for k in CAPS)]
    check(rc == 1, f"{name}: exit status {rc}, not 1")
    check(s["peak_held_bytes"] <= TOTALS + FLOWS, f"{name}: held {s['peak_held_bytes']:,} bytes at most, over the caps {TOTALS + FLOWS:,}")
    check(rss <= base_rss + TOTALS + FLOWS + SLACK,
          f"{name}: peak RSS {rss / MIB:.1f} MiB, over {base_rss / MIB:.1f} MiB (64 KiB of it) + the caps + 12 MiB")
    check(s["states_dropped"] > 0 and named, f"{name}: no cap was reached ({s['states_dropped']} dropped, problems {probs[:2]})")
    print(f"{name}: 12 MiB of capture, {s['frames']:,} frames: held at most {s['peak_held_bytes'] / MIB:.1f} MiB "
          f"(caps {TOTALS / MIB:.0f} MiB in all), peak RSS {rss / MIB:.1f} MiB (64 KiB of it: {base_rss / MIB:.1f} MiB), "
          f"{s['states_dropped']:,} states dropped; e.g. {named[0] if named else '-'}")
    os.remove(small)
    os.remove(big)
os.rmdir(tmp)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

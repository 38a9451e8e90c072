#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""size_figures.py README PATTERN FILE [PATTERN FILE ...] — every size a README quotes against the artefact built
(issue 56): PATTERN is a regular expression whose group 1 is the figure in KB (1,000 bytes) as the README writes
it; FILE the built file it speaks of. Each figure must be within 10 % of the file's size, and each pattern must
match (a figure that is gone fails too). Prints one line a figure and exits 1 on any miss."""
import os
import re
import sys


def main(argv):
    if len(argv) < 4 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(argv[1], encoding="utf-8").read()
    bad = 0
    for pattern, path in zip(argv[2::2], argv[3::2]):
        m = re.search(pattern, text)
        size = os.path.getsize(path)
        if not m:
            print(f"FAIL: {argv[1]} no longer quotes the size of {os.path.basename(path)} ({size:,} bytes): /{pattern}/")
            bad += 1
            continue
        quoted = float(m.group(1).replace(",", "")) * 1000
        ok = abs(size - quoted) <= 0.10 * size
        print(f"{'ok' if ok else 'FAIL'}: {argv[1]} says {m.group(0)!r}; {os.path.basename(path)} is {size:,} bytes"
              f" ({size / 1000:.0f} KB)")
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

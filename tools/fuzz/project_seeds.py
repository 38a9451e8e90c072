#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""project_seeds.py PROJECTS_DIR OUT_DIR: seeds for the `project` fuzz target (fuzzers/project.c) from the test
projects (conformance/projects/): every script, scene and project.godot, whole and cut in half, each read by
the scanner it is for and by the other one, under the caps byte 0 picks. A seed is byte 0 then the file;
its name is the SHA-1 of its bytes, as libFuzzer names its own."""
import hashlib
import os
import sys

SCRIPT, GODOT3 = 1, 2
CAP_64, CAP_ALL = 1 << 2, 3 << 2


def seeds_of(path, data):
    godot3 = GODOT3 if "arena3" in path else 0
    if path.endswith(".gd"):
        yield bytes([SCRIPT | godot3]) + data
        yield bytes([SCRIPT | godot3]) + data[: len(data) // 2]
        yield bytes([SCRIPT | (GODOT3 - godot3)]) + data  # the other generation's syntax
        yield bytes([CAP_ALL]) + data                        # a script read as a resource
    else:
        yield bytes([CAP_ALL]) + data
        yield bytes([CAP_64]) + data[: len(data) // 2]
        yield bytes([SCRIPT]) + data                         # a scene read as a script


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    n = 0
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "out")
        for f in sorted(files):
            if not f.endswith((".gd", ".tscn", ".tres", ".godot")):
                continue
            data = open(os.path.join(root, f), "rb").read()
            for seed in seeds_of(os.path.join(root, f), data):
                if len(seed) > 65536:
                    continue
                with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as fh:
                    fh.write(seed)
                n += 1
    print("%s: %d seeds" % (out, n))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""project_seeds.py PROJECTS_DIR OUT_DIR: seeds for the `project` fuzz target (fuzzers/project.c) from the test
projects (conformance/projects/): every script, scene and project.godot, whole and cut in half, each read by
the scanner it is for and by the other one, under the caps byte 0 picks. A seed is byte 0 then the file;
its name is the SHA-1 of its bytes, as libFuzzer names its own.
And for every manifest the engines' runs left (conformance/projects/out/*.manifest.json), the manifest and a short
session against it (byte 0 bit 4): the JSON, a NUL, then SceneMultiplayer packets each after its u16 length."""
import hashlib
import os
import sys

SCRIPT, GODOT3, MANIFEST = 1, 2, 1 << 4
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


# Godot 4 REMOTE_CALL packets, node and method ids 8 bits (scene_rpc_interface.cpp:161-220 in 4.6.3): cache id,
# method id, the argument count, then int Variants (type 2, 4 bytes); one promises 3 and holds 1; one has the
# no-arguments flag (bit 7)
INT5 = bytes([2, 0, 0, 0, 5, 0, 0, 0])
RPCS = [bytes([0, 1, 0, 3]) + INT5, bytes([0, 0, 1, 1]) + INT5, bytes([0x80, 0, 2]), bytes([0, 2, 3, 2]) + INT5 * 2]


def manifest_seeds(path, data):
    records = b"".join(len(p).to_bytes(2, "little") + p for p in RPCS)
    for godot3 in (0, GODOT3):
        yield bytes([MANIFEST | godot3]) + data + b"\0" + records


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
    # one the engines' runs have no example of: a rest parameter, containers of Variant
    small = (b'{"format":"gdwire-rpc-manifest","godot":4,"nodes":[{"path":"Game","rpcs":[{"id":0,"name":"v","args":'
             b'[{"name":"a","type":"int"}],"rest":"more"},{"id":1,"name":"w","args":[{"name":"xs","type":"Array[Variant]"},'
             b'{"name":"d","type":"Dictionary[Variant, int]","default":true}]}]}]}')
    for seed in manifest_seeds("small", small):
        with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as fh:
            fh.write(seed)
        n += 1
    manifests = os.path.join(src, "out")
    for f in sorted(os.listdir(manifests)) if os.path.isdir(manifests) else []:
        if not f.endswith(".manifest.json"):
            continue
        for seed in manifest_seeds(f, open(os.path.join(manifests, f), "rb").read()):
            if len(seed) > 65536:
                continue
            with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as fh:
                fh.write(seed)
            n += 1
    print("%s: %d seeds" % (out, n))


if __name__ == "__main__":
    main()

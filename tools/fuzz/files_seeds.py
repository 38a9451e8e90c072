#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""files_seeds.py SAVES_DIR CORPUS_DIR — the seeds of the `files` fuzz target (fuzzers/files.c): every file Godot
3.2.3, 3.6.2 and 4.6.3 wrote in conformance/saves/ (plain, compressed in every mode, encrypted with the test
password and key), each after the byte 0 that gives its secret (1: the test key, 2: the test password's key; cap
bits 2-3 = 1: 64 KiB), and each also cut in its header (17, 20, 30 and 44 bytes), halfway, and one byte short.
Each seed is named by the SHA-1 of its bytes, as the campaign names its finds."""
import hashlib
import os
import sys

saves, corpus = sys.argv[1], sys.argv[2]
os.makedirs(corpus, exist_ok=True)
written = 0
for engine in sorted(os.listdir(saves)):
    folder = os.path.join(saves, engine)
    if not os.path.isdir(folder) or engine == "cross":
        continue
    for name in sorted(os.listdir(folder)):
        sfx = name.rsplit(".", 1)[-1]
        if not name.startswith("game."):
            continue
        data = open(os.path.join(folder, name), "rb").read()
        key = {"key": 1, "keyiv": 1, "pass": 2}.get(sfx, 0)
        byte0 = bytes([key | 1 << 2])
        for cut in (len(data), len(data) - 1, len(data) // 2, 44, 30, 20, 17):
            if cut <= 0 or cut > len(data):
                continue
            seed = byte0 + data[:cut]
            path = os.path.join(corpus, hashlib.sha1(seed).hexdigest())
            if not os.path.exists(path):
                open(path, "wb").write(seed)
                written += 1
print(f"files_seeds: {written} seeds in {corpus}")

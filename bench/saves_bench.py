#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""saves_bench.py GDWIRE FILES_READ [--engine godot4.6 ...] [--mb 100] [--keep DIR] — Godot's file containers read
by gdwire and by the engine, side by side in one run (issue 63; docs/performance.md):

For each engine (default godot4.6), the engine writes a save of about MB megabytes (1,131 chunks of 88,480 bytes
for 100 MB) in each container it writes, then times its own open and get_var loop over each file
(tools/engines/saves/make_saves.sh ENGINE --bench DIR MB). On the same files, then:
  gdwire command   `gdwire decode -d D --framing file --noout --max-plain 4G [secret] FILE`: the whole command,
                   process start to exit (open, decrypt or decompress, every value decoded and checked)
  library          bench/files_read: gdw_file_open (decrypt and MD5, or decompress) and every value decoded to a
                   document (gdw_decode), in process
each the best of 3. Then AES-256 alone (CFB and ECB decryption through libcrypto, as files.c calls it) and MD5.
Prints one table; `x engine` is the engine's read time over the command's.
Build first: bazel build -c opt //cli:gdwire //bench:files_read. Needs the engines (tools/engines/setup)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAKE_SAVES = os.path.join(ROOT, "tools", "engines", "saves", "make_saves.sh")
DIALECT = {"godot4.6": "godot4", "godot3.6": "godot3", "godot3.2": "godot3"}
PASSWORD = "gdwire issue 63: Zoë's save ✓"  # conformance/saves/README.md, the secrets the engine's scripts use
KEY = "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc"
SUFFIXES = ["plain", "fastlz", "deflate", "zstd", "gzip", "pass", "key"]


def secret(sfx):
    return ["--password", PASSWORD] if sfx == "pass" else ["--key", KEY] if sfx == "key" else []


def best_of(n, cmd):
    best = None
    for _ in range(n):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True)
        t = (time.perf_counter() - t0) * 1000
        if r.returncode != 0:
            sys.exit(f"saves_bench: {' '.join(cmd[:4])}...: exit {r.returncode}: {r.stderr.decode()[-300:]}")
        best = t if best is None else min(best, t)
    return best


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    gdwire, files_read = args[0], args[1]
    engines, mb, keep = [], 100, None
    i = 2
    while i < len(args):
        if args[i] == "--engine":
            engines.append(args[i + 1]); i += 2
        elif args[i] == "--mb":
            mb = int(args[i + 1]); i += 2
        elif args[i] == "--keep":
            keep = args[i + 1]; i += 2
        else:
            sys.exit(f"saves_bench: unknown argument {args[i]}")
    engines = engines or ["godot4.6"]
    print(f"{'engine':9} {'container':9} {'file MB':>8} {'engine read ms':>15} {'gdwire cmd ms':>14} {'x engine':>9} {'lib open ms':>12} {'lib decode ms':>14}")
    for engine in engines:
        work = keep or tempfile.mkdtemp(prefix="gdwire-saves-bench-")
        try:
            r = subprocess.run([MAKE_SAVES, engine, "--bench", work, str(mb)], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"saves_bench: {engine}: {r.stderr[-500:]}")
            eng = {}
            for line in open(os.path.join(work, "bench.jsonl"), encoding="utf-8"):
                e = json.loads(line)
                if e.get("event") == "bench" and "read_ms" in e:
                    eng[e["file"]] = e
            for sfx in SUFFIXES:
                f = os.path.join(work, "bench." + sfx)
                if not os.path.exists(f) or "bench." + sfx not in eng:
                    continue
                cmd_ms = best_of(3, [gdwire, "decode", "-d", DIALECT[engine], "--framing", "file", "--noout", "--max-plain", "4G", *secret(sfx), f])
                lib = json.loads(subprocess.run([files_read, *secret(sfx), "-d", DIALECT[engine], f], capture_output=True, text=True, check=True).stdout)
                e = eng["bench." + sfx]
                print(f"{engine:9} {sfx:9} {os.path.getsize(f) / 1e6:8.1f} {e['read_ms']:15.0f} {cmd_ms:14.0f} {e['read_ms'] / cmd_ms:9.1f} "
                      f"{lib['open_ms']:12.0f} {lib['decode_ms']:14.0f}")
        finally:
            if not keep:
                shutil.rmtree(work, ignore_errors=True)
    aes = json.loads(subprocess.run([files_read, "--aes", str(mb)], capture_output=True, text=True, check=True).stdout)
    cpu_aes = any(" aes " in line + " " for line in open("/proc/cpuinfo") if line.startswith("flags"))
    print(f"\nAES-256 decryption alone ({aes['mb']:.0f} MB, libcrypto{', AES instructions' if cpu_aes else ', no AES instructions'}): "
          f"gdwire's CFB (Godot 4) {aes['gdwire_cfb_decrypt_mb_s']} MB/s, ECB (Godot 3) {aes['gdwire_ecb_decrypt_mb_s']} MB/s; "
          f"libcrypto's chained CFB128 call {aes['evp_cfb_decrypt_mb_s']} MB/s; MD5 {aes['md5_mb_s']} MB/s")


if __name__ == "__main__":
    main()

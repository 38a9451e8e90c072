#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""engine_readback_test.py GDWIRE MAKE_SAVES SAVES_DIR — the engines read what gdwire writes (issue 63):

1. For Godot 3.2.3, 3.6.2 and 4.6.3: gdwire writes the engine's own save (its game.plain in conformance/saves)
   in every container the engine writes (plain; compressed FastLZ, Deflate, Zstandard, gzip; encrypted with the
   test password and with the test key), and the live engine reads each file back with its own get_var
   (tools/engines/saves/make_saves.sh ENGINE --read DIR): every value must be the engine's logged var_to_bytes,
   in order, three of three.
2. The migration: gdwire migrates 3.6.2's committed saves (plain, compressed, encrypted) to Godot 4 with the
   same password, and the live Godot 4.6.3 reads every migrated file to the values 4.6.3 itself stored for the
   same game state.
Needs the engines (tools/engines/run --list); under GDW_NO_SKIP=1 a missing one is a failure.
Last line: "N passed, N failed"."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

GDWIRE, MAKE_SAVES, SAVES = sys.argv[1:4]
passed = failed = 0
ENGINES = {"godot3.2": "godot3", "godot3.6": "godot3", "godot4.6": "godot4"}


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def engine_values(engine):
    values, secrets = {}, {}
    for line in open(os.path.join(SAVES, engine, "log.jsonl"), encoding="utf-8"):
        e = json.loads(line)
        if e["event"] == "engine":
            secrets = {"password": e["password"], "key": e["key"]}
        elif e["event"] == "value" and "file" not in e:
            values[e["index"]] = e["bytes"]
    return [values[i] for i in sorted(values)], secrets


def engine_reads(engine, folder, secret_args=()):
    out = subprocess.run([MAKE_SAVES, engine, "--read", folder, *secret_args], capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr[-2000:])
    got = {}
    for line in out.stdout.splitlines():
        e = json.loads(line)
        if e.get("event") == "open":
            got[e["file"]] = {"error": e["error"], "values": []}
        elif e.get("event") == "value" and "bytes" in e:
            got[e["file"]]["values"].append(e["bytes"])
    return got


available = subprocess.run([os.path.join(os.path.dirname(MAKE_SAVES), "..", "run"), "--list"], capture_output=True, text=True).stdout
missing = [e for e in ENGINES if not any(line.split("\t")[0] == e for line in available.splitlines())]
if missing:
    if os.environ.get("GDW_NO_SKIP") == "1":
        print(f"FAIL: engines not installed: {missing} (GDW_NO_SKIP=1)\n0 passed, 1 failed")
        sys.exit(1)
    print(f"SKIP: engines not installed: {missing}; run 'sudo bash tools/setup.sh'\n0 passed, 0 failed, 1 skipped")
    sys.exit(0)

CONTAINERS = [("plain", ["--container", "plain"]), ("fastlz", ["--container", "compressed:fastlz"]),
              ("deflate", ["--container", "compressed:deflate"]), ("zstd", ["--container", "compressed:zstd"]),
              ("gzip", ["--container", "compressed:gzip"])]
table = {}
tmp = tempfile.mkdtemp()
try:
    for engine, dialect in ENGINES.items():
        want, secrets = engine_values(engine)
        folder = os.path.join(tmp, engine)
        os.mkdir(folder)
        plain = os.path.join(SAVES, engine, "game.plain")
        jobs = CONTAINERS + [("pass", ["--container", "encrypted", "--password", secrets["password"]]),
                             ("key", ["--container", "encrypted", "--key", secrets["key"]])]
        for sfx, args in jobs:
            r = subprocess.run([GDWIRE, "convert", "--from", dialect, "--to", dialect, "--framing", "file", *args, plain], capture_output=True)
            check(r.returncode == 0, f"{engine} {sfx}: gdwire convert: {r.stderr[-300:]!r}")
            open(os.path.join(folder, "game." + sfx), "wb").write(r.stdout)
        got = engine_reads(engine, folder)
        for sfx, _ in jobs:
            g = got.get("game." + sfx, {"error": "not read", "values": []})
            ok = g["error"] == 0 and g["values"] == want
            check(ok, f"{engine} read gdwire's game.{sfx}: error {g['error']}, {len(g['values'])} values, the logged ones: {g['values'] == want}")
            table[(engine, sfx)] = f"{len(g['values'])}/{len(want)}" if ok else "no"

    # the migration of 3.6.2's saves, read by 4.6.3 with the same password
    want4, secrets4 = engine_values("godot4.6")
    _, secrets3 = engine_values("godot3.6")
    src, dst = os.path.join(tmp, "src"), os.path.join(tmp, "migrated")
    os.mkdir(src)
    for sfx in ("plain", "fastlz", "deflate", "zstd", "gzip", "pass"):
        shutil.copy(os.path.join(SAVES, "godot3.6", "game." + sfx), src)
    r = subprocess.run([GDWIRE, "migrate", "--from", "godot3", "--to", "godot4", "--password", secrets3["password"], src, dst], capture_output=True, text=True)
    check(r.returncode == 0, f"migrate 3.6.2's saves: exit {r.returncode}: {r.stdout}{r.stderr}")
    got = engine_reads("godot4.6", dst, ["--password", secrets3["password"]])
    for sfx in ("plain", "fastlz", "deflate", "zstd", "gzip", "pass"):
        g = got.get("game." + sfx, {"error": "not read", "values": []})
        ok = g["error"] == 0 and g["values"] == want4
        check(ok, f"4.6.3 read 3.6.2's migrated game.{sfx}: error {g['error']}, 4.6.3's own values: {g['values'] == want4}")
        table[("migrated 3.6.2 -> 4.6.3", sfx)] = f"{len(g['values'])}/{len(want4)}" if ok else "no"
    # the key file with its key
    src_k, dst_k = os.path.join(tmp, "src_k"), os.path.join(tmp, "migrated_k")
    os.mkdir(src_k)
    shutil.copy(os.path.join(SAVES, "godot3.6", "game.key"), src_k)
    r = subprocess.run([GDWIRE, "migrate", "--from", "godot3", "--to", "godot4", "--key", secrets3["key"], src_k, dst_k], capture_output=True, text=True)
    check(r.returncode == 0, f"migrate 3.6.2's game.key: {r.stdout}{r.stderr}")
    got = engine_reads("godot4.6", dst_k, ["--key", secrets3["key"]])
    g = got.get("game.key", {"error": "not read", "values": []})
    check(g["error"] == 0 and g["values"] == want4, "4.6.3 read 3.6.2's migrated game.key")
    table[("migrated 3.6.2 -> 4.6.3", "key")] = f"{len(g['values'])}/{len(want4)}" if g["error"] == 0 and g["values"] == want4 else "no"
finally:
    shutil.rmtree(tmp)

print("written by gdwire, read by the engine (values read to the engine's own bytes):")
for who in list(ENGINES) + ["migrated 3.6.2 -> 4.6.3"]:
    print(f"  {who:26s} " + "  ".join(f"{sfx}:{table.get((who, sfx), '-')}" for sfx in ("plain", "fastlz", "deflate", "zstd", "gzip", "pass", "key")))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

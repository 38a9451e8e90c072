#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""saves_test.py GDWIRE SAVES_DIR — the command on Godot's file containers (issue 63), against the files Godot
3.2.3, 3.6.2 and 4.6.3 wrote (conformance/saves/, with their logs):

- decode --framing file reads every engine file (the secret given); convert to the same dialect into a plain
  container gives back exactly the store_var bytes of the values the engine logged;
- a wrong password or key is exit 1 with the engine's MD5 check named, no secret is exit 2, and nothing
  reaches stdout; the Brotli file 4.6.3 could not read back is refused;
- explain shows the container's header before the frames;
- convert --from godot3 --to godot4 of 3.6.2's save writes what 4.6.3 itself wrote for the same game state:
  the plain, Deflate, Zstandard and gzip files byte for byte (same zlib and zstd levels, the engines' block
  layout); the encrypted ones hold 4.6.3's plain bytes under a fresh IV;
- --container, write-whole-or-nothing, migrate's report and exit statuses, never over a file.
Last line: "N passed, N failed"."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

GDWIRE, SAVES = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def run(*args, stdin=None):
    return subprocess.run([GDWIRE, *args], capture_output=True, input=stdin)


def log_of(engine):
    values, stored, secrets, readback = {}, {}, {}, {}
    for line in open(os.path.join(SAVES, engine, "log.jsonl"), encoding="utf-8"):
        e = json.loads(line)
        if e["event"] == "engine":
            secrets = {"password": e["password"], "key": e["key"]}
        elif e["event"] == "value" and "file" not in e:
            values[e["index"]] = bytes.fromhex(e["bytes"])
        elif e["event"] == "open" and e.get("phase") == "write":
            stored[e["file"]] = []
        elif e["event"] == "stored":
            stored[e["file"]].append(e["index"])
        elif e["event"] == "open" and e.get("phase") == "readback":
            readback[e["file"]] = e["error"]
    frames = {f: [values[i] for i in idx] for f, idx in stored.items()}
    return frames, secrets, readback


def secret_args(name, secrets):
    sfx = name.rsplit(".", 1)[1]
    if sfx == "pass":
        return ["--password", secrets["password"]]
    if sfx in ("key", "keyiv"):
        return ["--key", secrets["key"]]
    return []


DIALECT = {"godot3.2": "godot3", "godot3.6": "godot3", "godot4.6": "godot4"}
table = {}

for engine, dialect in DIALECT.items():
    frames, secrets, readback = log_of(engine)
    for name, want in sorted(frames.items()):
        path = os.path.join(SAVES, engine, name)
        args = ["--framing", "file", *secret_args(name, secrets), path]
        if readback.get(name, 0) != 0:
            r = run("decode", "-d", dialect, *args)
            check(r.returncode == 1 and not r.stdout, f"{path}: the engine refused it (error {readback[name]}); gdwire: {r.returncode}")
            continue
        r2 = run("decode", "-d", dialect, "--noout", *args)
        check(r2.returncode == 0, f"{path}: decode --noout exit {r2.returncode}: {r2.stderr.decode()[-300:]}")
        check(f"{len(want)} packets, {sum(len(w) for w in want)} bytes: {len(want)} decoded, 0 rejected" in r2.stderr.decode(),
              f"{path}: {r2.stderr.decode()[-200:]!r}")
        # the frames' bytes: convert to the same dialect into a plain container is the engine's plain bytes
        r3 = run("convert", "--from", dialect, "--to", dialect, "--container", "plain", *args)
        plain = b"".join(len(w).to_bytes(4, "little") + w for w in want)
        check(r3.returncode == 0 and r3.stdout == plain, f"{path}: its store_var bytes are not the engine's ({r3.returncode}, {len(r3.stdout)} of {len(plain)})")
        kind = "plain" if name.endswith(".plain") else "encrypted" if secret_args(name, secrets) else "compressed:" + name.rsplit(".", 1)[1]
        if r3.returncode == 0 and r3.stdout == plain:
            table[(engine, kind)] = table.get((engine, kind), 0) + 1
        if secret_args(name, secrets):
            other = ["--key", "00" * 31 + "ff"] if name.endswith(".pass") else ["--password", "wrong"]
            r = run("decode", "-d", dialect, "--framing", "file", *other, path)
            check(r.returncode == 1 and not r.stdout and b"wrong password or key" in r.stderr, f"{path}: the wrong secret: {r.returncode} {r.stderr[-200:]!r}")
            r = run("convert", "--from", dialect, "--to", dialect, "--framing", "file", *other, path)
            check(r.returncode == 1 and not r.stdout, f"{path}: convert with the wrong secret wrote {len(r.stdout)} bytes")
            r = run("decode", "-d", dialect, "--framing", "file", path)
            check(r.returncode == 2 and not r.stdout and b"give its password or key" in r.stderr, f"{path}: no secret: {r.returncode}")

# explain: the header first
frames, secrets, _ = log_of("godot4.6")
r = run("explain", "-d", "godot4", "--framing", "file", "--key", secrets["key"], os.path.join(SAVES, "godot4.6", "game.keyiv"))
out = r.stdout.decode()
check(r.returncode == 0 and out.index('magic "GDEC"') < out.index("IV a0a1a2a3a4a5a6a7a8a9aaabacadaeaf") < out.index("frame 1"),
      "explain: the header's magic and IV before the frames")
r = run("explain", "-d", "godot3", "--framing", "file", os.path.join(SAVES, "godot3.6", "game.zstd"))
out = r.stdout.decode()
check("mode 2 (zstd)" in out and "block size 4096" in out and "total 7644 plain bytes" in out and "2 compressed sizes" in out, "explain: a compressed header")

# convert 3.6.2's save to Godot 4: what 4.6.3 wrote for the same game state
frames3, secrets3, _ = log_of("godot3.6")
for sfx in ("plain", "deflate", "zstd", "gzip"):
    r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", os.path.join(SAVES, "godot3.6", "game." + sfx))
    mine = open(os.path.join(SAVES, "godot4.6", "game." + sfx), "rb").read()
    check(r.returncode == 0 and r.stdout == mine, f"3.6.2's game.{sfx} converted is not 4.6.3's own file ({len(r.stdout)} vs {len(mine)} bytes)")
plain4 = open(os.path.join(SAVES, "godot4.6", "game.plain"), "rb").read()
tmp = tempfile.mkdtemp()
try:
    for sfx, sec in (("pass", ["--password", secrets3["password"]]), ("key", ["--key", secrets3["key"]])):
        r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", *sec, os.path.join(SAVES, "godot3.6", "game." + sfx))
        out = os.path.join(tmp, "converted." + sfx)
        open(out, "wb").write(r.stdout)
        check(r.returncode == 0 and r.stdout[:4] == b"GDEC" and len(r.stdout) == 44 + (len(plain4) + 15) // 16 * 16,
              f"{sfx}: a Godot 4 encrypted file ({len(r.stdout)} bytes)")
        check(r.stdout[4:20] == hashlib.md5(plain4).digest(), f"{sfx}: its MD5 is 4.6.3's plain bytes'")
        r2 = run("convert", "--from", "godot4", "--to", "godot4", "--framing", "file", "--container", "plain", *sec, out)
        check(r2.returncode == 0 and r2.stdout == plain4, f"{sfx}: decrypted, 4.6.3's plain bytes")
        r3 = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", *sec, os.path.join(SAVES, "godot3.6", "game." + sfx))
        check(r3.stdout[28:44] != r.stdout[28:44], f"{sfx}: a fresh IV each time")
    # --container: another container; Brotli is written by nobody
    r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", "--container", "compressed:zstd", os.path.join(SAVES, "godot3.6", "game.plain"))
    check(r.returncode == 0 and r.stdout == open(os.path.join(SAVES, "godot4.6", "game.zstd"), "rb").read(), "--container compressed:zstd: 4.6.3's game.zstd")
    r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", "--container", "compressed:brotli", os.path.join(SAVES, "godot3.6", "game.plain"))
    check(r.returncode == 2 and not r.stdout and b"read-only" in r.stderr, f"compressed:brotli refused: {r.stderr!r}")
    r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", "--container", "encrypted", os.path.join(SAVES, "godot3.6", "game.plain"))
    check(r.returncode == 2 and not r.stdout, "encrypted output without a secret")
    r = run("decode", "-d", "godot4", "--password", "x", os.path.join(SAVES, "godot4.6", "game.pass"))
    check(r.returncode == 2 and b"--framing file" in r.stderr, "--password without --framing file")
    r = run("decode", "-d", "godot4", "--framing", "file", "--key", "abcd", os.path.join(SAVES, "godot4.6", "game.key"))
    check(r.returncode == 2 and b"64 hex digits" in r.stderr, "--key of 2 bytes")
    pwfile = os.path.join(tmp, "pw.txt")
    open(pwfile, "w", encoding="utf-8").write(secrets3["password"] + "\n")
    r = run("decode", "-d", "godot3", "--framing", "file", "--password-file", pwfile, "--noout", os.path.join(SAVES, "godot3.6", "game.pass"))
    check(r.returncode == 0, "--password-file (one line ending dropped)")
    # through a pipe: a container read whole, plain frames as before
    with open(os.path.join(SAVES, "godot4.6", "game.zstd"), "rb") as f:
        r = run("decode", "-d", "godot4", "--framing", "file", "--noout", "-", stdin=f.read())
    check(r.returncode == 0 and b"3 packets, 7632 bytes: 3 decoded" in r.stderr, f"a compressed file on stdin: {r.stderr!r}")
    r = run("convert", "--from", "godot4", "--to", "godot4", "--framing", "file", "--container", "compressed:zstd", "-", stdin=plain4)
    check(r.returncode == 0 and r.stdout == open(os.path.join(SAVES, "godot4.6", "game.zstd"), "rb").read(), "--container from stdin")
    r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", "--hex", "-", stdin=open(os.path.join(SAVES, "godot3.6", "game.zstd"), "rb").read().hex().encode())
    check(r.returncode == 2 and not r.stdout and b"raw bytes" in r.stderr, f"a container in hex is not converted into hex lines: {r.returncode} {r.stderr!r}")
    # a cut file: nothing written
    cut = os.path.join(tmp, "cut.pass")
    open(cut, "wb").write(open(os.path.join(SAVES, "godot3.6", "game.pass"), "rb").read()[:-1])
    r = run("convert", "--from", "godot3", "--to", "godot4", "--framing", "file", "--password", secrets3["password"], cut)
    check(r.returncode == 1 and not r.stdout and b"ends at 7679" in r.stderr, f"a cut encrypted file: {r.returncode} {r.stderr!r}")
    r = run("decode", "-d", "godot3", "--framing", "file", "--max-plain", "4K", os.path.join(SAVES, "godot3.6", "game.zstd"))
    check(r.returncode == 1 and b"over the cap of 4096" in r.stderr, f"--max-plain 4K: {r.stderr!r}")

    # migrate: 3.6.2's saves to Godot 4
    src, dst = os.path.join(tmp, "src"), os.path.join(tmp, "dst")
    os.mkdir(src)
    for name in ("game.plain", "game.zstd", "game.fastlz", "game.pass", "game.key"):
        shutil.copy(os.path.join(SAVES, "godot3.6", name), src)
    before = {n: open(os.path.join(src, n), "rb").read() for n in os.listdir(src)}
    r = run("migrate", "--from", "godot3", "--to", "godot4", "--password", secrets3["password"], src, dst)
    out = r.stdout.decode()
    check(r.returncode == 1, f"migrate: a file refused (game.key: another secret) is exit 1: {r.returncode}")
    check("refused   " + os.path.join(src, "game.key") + ": byte 8: wrong password or key" in out, "migrate: game.key refused with why")
    check(all(("converted " + os.path.join(src, n)) in out for n in ("game.plain", "game.zstd", "game.fastlz", "game.pass")), f"migrate report: {out}")
    check(open(os.path.join(dst, "game.zstd"), "rb").read() == open(os.path.join(SAVES, "godot4.6", "game.zstd"), "rb").read(), "migrated game.zstd is 4.6.3's")
    check(not os.path.exists(os.path.join(dst, "game.key")) and not any(n.endswith(".gdwire-partial") for n in os.listdir(dst)), "nothing written for a refused file")
    os.remove(os.path.join(src, "game.key"))
    r = run("migrate", "--from", "godot3", "--to", "godot4", "--password", secrets3["password"], src, dst)
    check(r.returncode == 1 and r.stdout.decode().count("exists: migrate never writes over a file") == 4, "a second migrate into the same folder writes over nothing")
    shutil.rmtree(dst)
    r = run("migrate", "--from", "godot3", "--to", "godot4", "--password", secrets3["password"], src, dst)
    check(r.returncode == 0 and b"4 files: 4 converted, 0 lossy, 0 refused" in r.stderr, f"migrate: exit 0 when every file converts: {r.returncode} {r.stderr!r}")
    check({n: open(os.path.join(src, n), "rb").read() for n in os.listdir(src)} == {k: v for k, v in before.items() if k != "game.key"}, "sources untouched")
    r = run("migrate", "--from", "godot3", "--to", "godot4", src, os.path.join(src, "inside"))
    check(r.returncode == 2 and not os.path.exists(os.path.join(src, "inside")), "DEST_DIR inside SRC_DIR: refused, nothing made")
    # lossy: Godot 4's save to Godot 3 with a value Godot 3 lacks (a Vector2i, written by the codec's encoder)
    src4, dst3 = os.path.join(tmp, "src4"), os.path.join(tmp, "dst3")
    os.mkdir(src4)
    enc = run("encode", "-d", "godot4", "--framing", "file", stdin=b'{"at": Vector2i(3, 4)}')
    check(enc.returncode == 0, "encode a Vector2i")
    open(os.path.join(src4, "slot1.save"), "wb").write(enc.stdout)
    r = run("migrate", "--from", "godot4", "--to", "godot3", src4, dst3)
    out = r.stdout.decode()
    check(r.returncode == 3 and "lossy     " in out and "1 lossy place" in out and "into godot3:" in out, f"migrate: lossy is exit 3 with its place: {r.returncode} {out!r}")
    r = run("migrate", "--help")
    check(r.returncode == 0 and b"never over an existing file" in r.stdout, "migrate --help")
finally:
    shutil.rmtree(tmp)

print("engine files whose store_var bytes the command gave back (3.2.3 / 3.6.2 / 4.6.3):")
for kind in ("plain", "compressed:fastlz", "compressed:deflate", "compressed:zstd", "compressed:gzip", "encrypted"):
    print(f"  {kind:20s} " + " / ".join(str(table.get((e, kind), 0)) for e in DIALECT))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

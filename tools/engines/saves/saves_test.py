#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""saves_test.py check ENGINE MAKE_SAVES SAVES_DIR — the committed saves of issue 63 (conformance/saves/) held
against the live engine ENGINE (godot4.6, godot3.6, godot3.2):

1. its reader (make_saves.sh ENGINE --read, given the test secrets) reads every committed file of its own
   folder to what the committed log says the engine read back when it wrote it: the open call's error, the number of values,
   each value's var_to_bytes hex and var_to_str (the values it stored, or, where the log records that it read
   something else, that), and the ERROR lines of its stderr;
2. it reads each committed file of the other generation, and its own encrypted files with the wrong
   secrets, as conformance/saves/cross/ recorded (the same checks);
3. it writes the set again (make_saves.sh ENGINE): the plain and compressed files are byte for byte the
   committed ones; the encrypted ones too where the log says a second write gave the same bytes (Godot 3's,
   and Godot 4's fixed-IV `keyiv`), and differ where it said they did not (Godot 4's random IV).

saves_test.py record MAKE_SAVES SAVES_DIR — makes conformance/saves/cross/ again (CROSS, below).
Last line: "N passed, N failed". Skips (fails under GDW_NO_SKIP=1) when the engine is not installed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

WRONG_PASSWORD = "wrong"
WRONG_KEY = "00" * 31 + "ff"
ENCRYPTED = ("pass", "key", "keyiv")
# cross/NAME.jsonl: which engine reads which folder; `only`: the suffixes read (the others are copied out of
# the way), with the wrong secrets (None: every file, the test secrets); `unstable`: files the engine reads
# differently from run to run, whose open error and first ERROR line only are compared: Godot 3.2.3 opens
# Godot 4's Brotli file without an error, fails to decompress it, and get_var then reads a buffer that was
# never written (one value or two, an int or null, run to run; conformance/saves/README.md)
CROSS = [
    ("godot4.6-reads-godot3.6", "godot4.6", "godot3.6", None, ()),
    ("godot4.6-reads-godot3.2", "godot4.6", "godot3.2", None, ()),
    ("godot3.6-reads-godot4.6", "godot3.6", "godot4.6", None, ()),
    ("godot3.2-reads-godot4.6", "godot3.2", "godot4.6", None, ("game.brotli",)),
    ("godot3.6-reads-godot3.2", "godot3.6", "godot3.2", None, ()),
    ("godot3.2-reads-godot3.6", "godot3.2", "godot3.6", None, ()),
    ("godot4.6-wrong-secrets", "godot4.6", "godot4.6", ENCRYPTED, ()),
    ("godot3.6-wrong-secrets", "godot3.6", "godot3.6", ENCRYPTED, ()),
    ("godot3.2-wrong-secrets", "godot3.2", "godot3.2", ENCRYPTED, ()),
]


def events(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def read_folder(make_saves, engine, folder, only=None, secrets=()):
    """The engine's reader over FOLDER (only the files with the suffixes ONLY, and then the wrong secrets;
    SECRETS: the --password and --key arguments to give)."""
    args = [make_saves, engine, "--read", folder, *secrets]
    with tempfile.TemporaryDirectory() as tmp:
        if only:
            for name in sorted(os.listdir(folder)):
                if name.rsplit(".", 1)[-1] in only:
                    shutil.copy(os.path.join(folder, name), tmp)
            args = [make_saves, engine, "--read", tmp, "--password", WRONG_PASSWORD, "--key", WRONG_KEY]
        out = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({out.returncode}): {out.stderr[-2000:]}")
    return out.stdout


def summary(evs, phase):
    """file -> {error, values: [(bytes, text)], count, errors: [ERROR lines]} of one phase of a log."""
    files = {}
    for e in evs:
        if e.get("phase") != phase or not e.get("file"):
            continue
        f = files.setdefault(e["file"], {"error": None, "values": [], "count": None, "errors": []})
        if e["event"] == "open":
            f["error"] = e["error"]
        elif e["event"] == "value":
            f["values"].append((e.get("bytes"), e.get("text")))
        elif e["event"] == "end":
            f["count"] = e["values"]
        elif e["event"] == "stderr":
            f["errors"] += [l for l in e["lines"] if l.startswith("ERROR:")]
    return files


def expected_own(log):
    """What the committed log says the engine read back from each file it wrote."""
    files = summary(log, "readback")
    values = {e["index"]: (e["bytes"], e["text"]) for e in log if e["event"] == "value" and "phase" not in e}
    stored = {(e["file"], e["index"]) for e in log if e["event"] == "stored"}
    for e in log:
        if e["event"] == "compare" and e["read"]:
            if e["same_bytes"] and e["same_text"] and (e["file"], e["index"]) in stored:
                value = values[e["index"]]
            else:
                value = (e["bytes"], e["text"])
            files[e["file"]]["values"][e["index"]] = value
    return files


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")


def compare(t, got, want, where, unstable=()):
    t.check(sorted(got) == sorted(want), f"{where}: files read {sorted(got)}, the log has {sorted(want)}")
    for name in sorted(want):
        g, w = got.get(name), want[name]
        if g is None:
            continue
        t.check(g["error"] == w["error"], f"{where} {name}: open error {g['error']}, the log has {w['error']}")
        if name in unstable:
            t.check(g["errors"][:1] == w["errors"][:1], f"{where} {name}: the engine said {g['errors'][:1]}, the log has {w['errors'][:1]}")
            continue
        t.check(g["count"] == w["count"], f"{where} {name}: {g['count']} values, the log has {w['count']}")
        for i, (gv, wv) in enumerate(zip(g["values"], w["values"])):
            t.check(gv[0] == wv[0], f"{where} {name} value {i}: bytes {gv[0][:80]}..., the log has {(wv[0] or '')[:80]}...")
            t.check(gv[1] == wv[1], f"{where} {name} value {i}: text {gv[1][:80]!r}, the log has {(wv[1] or '')[:80]!r}")
        t.check(g["errors"] == w["errors"], f"{where} {name}: the engine said {g['errors']}, the log has {w['errors']}")


def check(engine, make_saves, saves):
    t = Tally()
    folder = os.path.join(saves, engine)
    with open(os.path.join(folder, "log.jsonl"), encoding="utf-8") as f:
        log = events(f.read())
    # 1. its own files, read as it read them back when it wrote them, the secrets given on the command line
    #    (the test password is not ASCII: make_saves.sh must bring it to the engine as the same string)
    made = next(e for e in log if e["event"] == "engine")
    own = read_folder(make_saves, engine, folder, secrets=("--password", made["password"], "--key", made["key"]))
    compare(t, summary(events(own), "read"), expected_own(log), f"{engine} reads its own")
    # 2. the other generation's files, and its own encrypted ones with the wrong secrets
    for name, reader, writer, only, unstable in CROSS:
        if reader != engine:
            continue
        with open(os.path.join(saves, "cross", name + ".jsonl"), encoding="utf-8") as f:
            want = summary(events(f.read()), "read")
        got = summary(events(read_folder(make_saves, engine, os.path.join(saves, writer), only)), "read")
        compare(t, got, want, name, unstable)
    # 3. the set written again
    rewrite = {e["file"]: e["identical"] for e in log if e["event"] == "rewrite"}
    written = list(dict.fromkeys(e["file"] for e in log if e["event"] == "file"))
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([make_saves, engine, tmp], capture_output=True, text=True, timeout=600)
        t.check(out.returncode == 0, f"make_saves.sh {engine} failed: {out.stderr[-2000:]}")
        for name in written:
            path = os.path.join(tmp, name)
            if not os.path.exists(path):
                t.check(False, f"{engine} did not write {name} again")
                continue
            same = open(path, "rb").read() == open(os.path.join(folder, name), "rb").read()
            want_same = rewrite.get(name, True)
            t.check(same == want_same, f"{engine} wrote {name} again {'the same' if same else 'otherwise'}; the log "
                    f"says a second write gives {'the same bytes' if want_same else 'other bytes'}")
    print(f"{engine}: its {len(written)} files, {sum(1 for c in CROSS if c[1] == engine)} cross readings, a new set")
    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


def record(make_saves, saves):
    os.makedirs(os.path.join(saves, "cross"), exist_ok=True)
    for name, reader, writer, only, _ in CROSS:
        text = read_folder(make_saves, reader, os.path.join(saves, writer), only)
        with open(os.path.join(saves, "cross", name + ".jsonl"), "w", encoding="utf-8") as f:
            f.write(text)
        print(f"cross/{name}.jsonl: {len(text.splitlines())} lines")


def engine_missing(make_saves, engine):
    run = os.path.join(os.path.dirname(os.path.abspath(make_saves)), "..", "run")
    try:
        out = subprocess.run([run, engine, "--version"], capture_output=True, text=True, timeout=120)
    except OSError:
        return True
    return not out.stdout.strip()  # (3.2.3 exits 255 after printing its version)


if __name__ == "__main__":
    if sys.argv[1] == "record":
        record(sys.argv[2], sys.argv[3])
        sys.exit(0)
    engine, make_saves, saves = sys.argv[2:5]
    if engine_missing(make_saves, engine):
        why = f"engine {engine} is not installed here (sudo tools/engines/setup)"
        if os.environ.get("GDW_NO_SKIP") == "1":
            print(f"FAIL: {why} (GDW_NO_SKIP=1: a skip is a failure here)\n0 passed, 1 failed")
            sys.exit(1)
        print(f"SKIP: {why}; nothing checked\n0 passed, 0 failed, 1 skipped")
        sys.exit(0)
    sys.exit(check(engine, make_saves, saves))

# SPDX-License-Identifier: MIT
"""fuzzlib — what tools/fuzz/campaign, minimize and coverage share: the targets and their
settings, building each engine's binaries with Bazel, seed corpora, libFuzzer merges, and the
clang coverage report. Standard library only (Debian's python3)."""
import hashlib
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every fuzz target: max_len (bytes), dictionary (None: the input is not wire bytes), whether the
# custom mutator applies, and whether a finding is a decode verdict (a YAML vector is proposed).
TARGETS = {
    "decode": {"max_len": 8192, "dict": "fuzzers/dict/all.dict", "mutator": True, "verdict": True, "exact_ids": True},
    "validate_vs_decode": {"max_len": 8192, "dict": "fuzzers/dict/all.dict", "mutator": True, "verdict": True, "exact_ids": True},
    "strict_implies_compatible": {"max_len": 8192, "dict": "fuzzers/dict/all.dict", "mutator": True, "verdict": True, "exact_ids": True},
    "translate": {"max_len": 8192, "dict": "fuzzers/dict/all.dict", "mutator": True, "verdict": False, "exact_ids": True},
    "readers": {"max_len": 8192, "dict": "fuzzers/dict/all.dict", "mutator": True, "verdict": False, "exact_ids": True},
    "encode": {"max_len": 1024, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
    # records of UDP payloads and frames (fuzzers/capture.c), seeded from a real session
    "capture": {"max_len": 65536, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
    # the guard's decision (fuzzers/guard.c): client and server datagrams, seeded from the real sessions
    "guard": {"max_len": 65536, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
    # ENet's compressed blocks (fuzzers/decompress.c), seeded from the real compressed sessions
    "decompress": {"max_len": 4097, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
    # capture files, pcap and pcapng (fuzzers/pcap.c), seeded from the real sessions and session/tests/data/
    "pcap": {"max_len": 8192, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
    # Godot's file containers (fuzzers/files.c), seeded from the engines' saves in conformance/saves/
    "files": {"max_len": 8192, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
    # the project reader's GDScript and text-resource scanners (fuzzers/project.c), seeded from conformance/projects/
    "project": {"max_len": 65536, "dict": None, "mutator": False, "verdict": False, "exact_ids": False},
}

# The sanitizers each config builds with (recorded in the run record).
SANITIZERS = {
    "libfuzzer": "address,undefined (no recovery)",
    "afl": "address,undefined (no recovery)",
    "afl-cmplog": "address,undefined (no recovery), CmpLog",
    "coverage": "none (clang source coverage)",
}


_T0 = None


def log(msg):
    global _T0
    import time
    _T0 = _T0 or time.time()
    t = int(time.time() - _T0)
    print("[%d:%02d] %s" % (t // 60, t % 60, msg), file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=kw.pop("cwd", ROOT), **kw)


def bazel_bin(config):
    args = ["bazel", "info", "bazel-bin"] + (["--config=" + config] if config else [])
    out = run(args, capture_output=True, text=True, check=True).stdout.strip()
    return out


def build(config, labels):
    """Build labels in a config; return the config's bazel-bin."""
    args = ["bazel", "build", "--noshow_progress"] + (["--config=" + config] if config else []) + labels
    r = run(args, capture_output=True, text=True)
    if r.returncode != 0:
        log(r.stderr[-4000:])
        raise SystemExit("campaign: bazel build --config=%s failed" % config)
    return bazel_bin(config)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def corpus_hash(dirs):
    """One hash over the contents of every file in dirs (order-free)."""
    hashes = sorted(sha256_file(os.path.join(d, n)) for d in dirs if os.path.isdir(d) for n in os.listdir(d)
                    if os.path.isfile(os.path.join(d, n)) and n != "README.md")
    return hashlib.sha256("\n".join(hashes).encode()).hexdigest(), len(hashes)


def count_files(d):
    return sum(1 for n in os.listdir(d) if os.path.isfile(os.path.join(d, n))) if os.path.isdir(d) else 0


def write_seeds(tsv, out_dir, cap=0):
    """The conformance packets (runner --export lines: id, hex, objects) as fuzz inputs, each in
    every dialect: byte 0 the dialect's fuzz id, byte 1 the objects flag (fuzzers/fuzz.h). Names
    are the content hash, so the same input is one file. cap: at most about that many
    (every_kth). Returns (files written, distinct inputs there were)."""
    os.makedirs(out_dir, exist_ok=True)
    inputs = list(dict(seed_inputs(tsv)).items())
    picked = every_kth(inputs, cap)
    for name, data in picked:
        with open(os.path.join(out_dir, name), "wb") as g:
            g.write(data)
    return len(picked), len(inputs)


def seed_inputs(tsv):
    """write_seeds' inputs without the files: (name, data) for every conformance packet in every
    dialect, in the export's order; a name repeats where two vectors hold the same packet."""
    ids = [i for i, _name, release_of in fuzz_rows() if not release_of]
    with open(tsv) as f:
        for line in f:
            _id, hexs, objects = line.rstrip("\n").split("\t")
            packet = bytes.fromhex(hexs)
            for d in ids:
                data = bytes([d, 4 if objects == "1" else 0]) + packet
                yield hashlib.sha1(data).hexdigest(), data


def every_kth(inputs, cap, max_len=None):
    """At most about cap of inputs ((name, data), unique names): every k-th by name, k =
    ceil(len(inputs) / cap), counted among those no longer than max_len; cap 0 keeps them all.
    The ClusterFuzzLite seeds and the campaign's --seed-cap take the same ones."""
    step = max(1, -(-len(inputs) // cap)) if cap else 1
    fit = sorted((n, d) for n, d in inputs if max_len is None or len(d) <= max_len)
    return [nd for i, nd in enumerate(fit, 1) if i % step == 0]


def seed_zip(out_zip, max_len, conformance=None, cap=0, dirs=()):
    """A ClusterFuzzLite seed corpus (.clusterfuzzlite/build.sh): every_kth(conformance, cap,
    max_len), each named conformance-<name>, then the files of dirs (no README.md, none longer than
    max_len) under their own names; written straight into one zip, no file per input."""
    import zipfile
    entries = {}
    for n, d in every_kth(conformance or [], cap, max_len):
        entries["conformance-" + n] = d
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for n in sorted(os.listdir(d)):
            p = os.path.join(d, n)
            if n != "README.md" and os.path.isfile(p) and os.path.getsize(p) <= max_len:
                with open(p, "rb") as f:
                    entries[n] = f.read()
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as z:
        for n in sorted(entries):
            info = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))  # the same zip from the same inputs
            info.external_attr = 0o100644 << 16  # a regular file, as zip(1) records one
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, entries[n])
    return len(entries)


_ROWS = None


def fuzz_rows():
    """Every row of the dialect table (codec/table/dialects.c), dialects then engine releases, as
    (fuzz_id, name, release_of or None), by fuzz id. //:rows_test holds this against
    `gdwire dialects --json`."""
    global _ROWS
    if _ROWS is None:
        src = open(os.path.join(ROOT, "codec", "table", "dialects.c")).read()
        rows = []
        # a row's designated initializers, however codec/'s .clang-format lays them out
        for m in re.finditer(r'\{\s*\.name = "([^"]+)",\s*\.fuzz_id = (\d+),([^}]*)', src):
            rel = re.search(r'\.release_of = "([^"]+)"', m.group(3))
            rows.append((int(m.group(2)), m.group(1), rel.group(1) if rel else None))
        _ROWS = sorted(rows)
        if [r[0] for r in _ROWS] != list(range(len(_ROWS))):
            raise SystemExit("fuzzlib: the fuzz ids in codec/table/dialects.c are not 0 .. %d" % (len(_ROWS) - 1))
    return _ROWS


def exact_id(byte0):
    """The fuzz id byte 0 means (fuzzers/fuzz.h fuzz_dialect): itself, or folded by modulo."""
    n = len(fuzz_rows())
    return byte0 if byte0 < n else byte0 % n


def fuzz_dialect_name(byte0):
    return fuzz_rows()[exact_id(byte0)][1]


def with_exact_id(data):
    """A byte-level input written with byte 0 the exact id it means now, so that it keeps that
    meaning when rows are added (replay_test --exact-ids fails on any other)."""
    return bytes([exact_id(data[0])]) + data[1:] if len(data) >= 2 else data


def exact_ids_dir(d):
    """Rewrite every input of folder d with an exact id (with_exact_id), renamed to its new content
    hash; returns how many changed."""
    changed = 0
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if n == "README.md" or not os.path.isfile(p):
            continue
        data = open(p, "rb").read()
        new = with_exact_id(data)
        if new != data:
            os.remove(p)
            with open(os.path.join(d, hashlib.sha1(new).hexdigest()), "wb") as g:
                g.write(new)
            changed += 1
    return changed


def dialect_table_version():
    """The dialect table as built: a hash of codec/table/ (its sources are the table)."""
    h = hashlib.sha256()
    for n in sorted(os.listdir(os.path.join(ROOT, "codec", "table"))):
        if n.endswith((".c", ".h")):
            h.update(open(os.path.join(ROOT, "codec", "table", n), "rb").read())
    return h.hexdigest()[:16]


def inputs_only(d):
    """d itself, or, if it holds a README.md, a temporary folder of links to its other files."""
    if not os.path.exists(os.path.join(d, "README.md")):
        return d
    import tempfile
    t = tempfile.mkdtemp(prefix="gdwire-inputs-")
    for n in os.listdir(d):
        if n != "README.md" and os.path.isfile(os.path.join(d, n)):
            os.symlink(os.path.abspath(os.path.join(d, n)), os.path.join(t, n))
    return t


def side_by_side(fn, items, jobs):
    """fn(item) for every item, at most jobs at a time (threads: each waits on a process); the
    first exception is raised again once all have ended."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for f in [pool.submit(fn, i) for i in items]:
            f.result()


def merge(binary, out_dir, in_dirs, max_len, extra_env=None, timeout=None):
    """libFuzzer -merge=1: the inputs of in_dirs that add coverage, written into out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    in_dirs = [d for d in in_dirs if os.path.isdir(d) and count_files(d)]
    if not in_dirs:
        return 0
    readable = [inputs_only(d) for d in in_dirs]
    env = dict(os.environ, **(extra_env or {}))
    try:
        r = subprocess.run([binary, "-merge=1", "-max_len=%d" % max_len, "-rss_limit_mb=4096", "-timeout=10", out_dir] + readable,
                           capture_output=True, text=True, env=env, timeout=timeout)
    finally:  # the folders of links inputs_only made (one per README'd corpus per merge) go
        for t, d in zip(readable, in_dirs):
            if t != d:
                shutil.rmtree(t, ignore_errors=True)
    if r.returncode != 0:
        log(r.stderr[-3000:])
        raise SystemExit("campaign: merge with %s failed" % binary)
    return count_files(out_dir)


def flat_corpus_problems(d, keep=("README.md",)):
    """What stops d being rewritten safely: anything in it that is not a regular file (a
    sub-folder, a link, a device). A corpus folder is flat; a sub-folder's inputs would be merged
    by libFuzzer, then lost by the rewrite (minimize once deleted 447 of 1,139 committed files
    this way and died before copying anything back)."""
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, n) for n in os.listdir(d)
                  if n not in keep and (os.path.islink(os.path.join(d, n)) or not os.path.isfile(os.path.join(d, n))))


def replace_dir_contents(dst, src, keep=("README.md",)):
    """Make dst hold the files of src (and dst's own keep files), never losing an input: the new
    folder is written in full beside dst, then swapped in by two renames; until the second one
    the old folder is whole (at dst, or at dst.old-PID if the process dies between them).
    Refuses, touching nothing, when dst holds anything but regular files (flat_corpus_problems)."""
    import tempfile
    bad = flat_corpus_problems(dst, keep)
    if bad:
        raise SystemExit("corpus: %s holds %s, not a plain file: corpus folders are flat; move its inputs up (or pass "
                         "the folder as an extra input) and run again; nothing was changed" % (dst, bad[0]))
    dst = os.path.abspath(dst)
    parent = os.path.dirname(dst)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="." + os.path.basename(dst) + ".new-", dir=parent)
    try:
        for n in keep:
            if os.path.isfile(os.path.join(dst, n)):
                shutil.copyfile(os.path.join(dst, n), os.path.join(tmp, n))
        for n in os.listdir(src):
            if os.path.isfile(os.path.join(src, n)):
                shutil.copyfile(os.path.join(src, n), os.path.join(tmp, n))
        os.chmod(tmp, 0o755)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if os.path.isdir(dst):
        old = "%s.old-%d" % (dst, os.getpid())
        os.rename(dst, old)
        os.rename(tmp, dst)
        shutil.rmtree(old)
    else:
        os.rename(tmp, dst)


def coverage(targets, out_dir, corpus_dirs_of, seeds_tsv):
    """Build the replay binaries with clang source coverage, run each target over its corpus
    folders and the conformance packets, and report line and branch coverage of codec/ and
    session/ (text and HTML). Returns {lines, branches, functions, regions} percentages, the lines
    of each folder (by_folder), the files counted, and any codec/ source no fuzz target links.

    The denominator is the library, not the targets that ran: every fuzz target's binary is
    given to llvm-cov, so code that only the targets left out of this run reach counts as not
    covered (one target's run once reported 78.98% of just the files it linked)."""
    every = sorted(TARGETS)
    bb = build("coverage", ["//fuzzers:" + t for t in every])
    prof_dir = os.path.join(out_dir, "profraw")
    os.makedirs(prof_dir, exist_ok=True)
    for t in targets:
        env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(prof_dir, t + "-%p.profraw"))
        dirs = [d for d in corpus_dirs_of(t) if os.path.isdir(d)]
        r = subprocess.run([os.path.join(bb, "fuzzers", t), "--vectors", seeds_tsv] + dirs, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            log(r.stderr[-3000:])
            raise SystemExit("coverage: replay of %s failed" % t)
    profdata = os.path.join(out_dir, "coverage.profdata")
    raws = [os.path.join(prof_dir, n) for n in os.listdir(prof_dir)]
    run(["llvm-profdata-14", "merge", "-sparse", "-o", profdata] + raws, check=True)
    objects = []
    for i, t in enumerate(every):
        objects += ([] if i == 0 else ["-object"]) + [os.path.join(bb, "fuzzers", t)]
    common = ["-instr-profile=" + profdata, "-ignore-filename-regex=(^|/)(fuzzers|cli|conformance|tools|bench)/"] + objects
    rep = run(["llvm-cov-14", "report"] + common, capture_output=True, text=True, check=True).stdout
    with open(os.path.join(out_dir, "coverage.txt"), "w") as f:
        f.write(rep)
    html = os.path.join(out_dir, "coverage-html")
    run(["llvm-cov-14", "show", "-format=html", "-show-branches=count", "-output-dir=" + html] + common, check=True,
        capture_output=True)
    res = parse_report(rep)
    res["by_folder"] = lines_by_folder(rep)
    res["targets_run"] = list(targets)
    res["files"], res["files_not_linked"] = library_files_in_report(rep)
    return res, html


def library_sources():
    """The library's C sources: codec/*.c and its wings' codec/WING/*.c (not its tests)."""
    top = os.path.join(ROOT, "codec")
    dirs = ["codec"] + ["codec/" + w for w in sorted(os.listdir(top)) if os.path.isdir(os.path.join(top, w)) and w != "tests"]
    return sorted("%s/%s" % (d, n) for d in dirs for n in os.listdir(os.path.join(ROOT, d)) if n.endswith(".c"))


def library_files_in_report(rep, want=None):
    """(the codec/ sources the report counts, those it lacks: no target links them)."""
    want = library_sources() if want is None else want
    names = [line.split()[0] for line in rep.splitlines() if line.split() and line.split()[0].endswith(".c")]
    # llvm-cov names a file from the directory all the files share: "codec/api.c" when another
    # top folder is in the report, "api.c" and "wire/decode.c" when everything is under codec/
    have = [w for w in want if any(n == w or n.endswith("/" + w) or "codec/" + n == w for n in names)]
    return len(have), [w for w in want if w not in have]


def lines_by_folder(rep):
    """Lines (covered, total) per top folder of the report: codec/ (the library) and session/ (the
    capture reader, which only the capture target links), so that neither figure hides in the
    other's (2026-11-27: codec/ 95.70%, session/ 75.28%, the one figure 92.39%)."""
    out = {}
    for line in rep.splitlines():
        cols = line.split()
        if not cols or not (cols[0].endswith(".c") or cols[0].endswith(".h")) or len(cols) < 10:
            continue
        # Filename Regions Missed Cover Functions Missed Executed Lines Missed Cover ...
        folder = "session/" if cols[0].startswith("session/") else "codec/"
        lines, missed = int(cols[7]), int(cols[8])
        have = out.setdefault(folder, [0, 0])
        have[0] += lines - missed
        have[1] += lines
    return {f: {"lines": n, "covered": c, "lines_pct": round(100.0 * c / n, 2) if n else None} for f, (c, n) in sorted(out.items())}


def describe_by_folder(cov):
    """"codec/ 95.70% (6625 of 6923), session/ 75.28% (1008 of 1339)" from coverage()'s by_folder."""
    return ", ".join("%s %.2f%% (%d of %d)" % (f, v["lines_pct"], v["covered"], v["lines"]) for f, v in cov.get("by_folder", {}).items())


def parse_report(rep):
    """llvm-cov report's TOTAL line: regions, functions, lines, branches (covered %)."""
    header = None
    for line in rep.splitlines():
        if line.startswith("Filename"):
            header = line.split()
        if line.startswith("TOTAL"):
            cols = line.split()
            # Filename Regions Missed Cover Functions Missed Executed Lines Missed Cover Branches Missed Cover
            pct = [c for c in cols if c.endswith("%")]
            nums = [c for c in cols[1:] if not c.endswith("%")]
            res = {"regions_pct": float(pct[0][:-1]), "functions_pct": float(pct[1][:-1]), "lines_pct": float(pct[2][:-1]),
                   "branches_pct": float(pct[3][:-1]) if len(pct) > 3 else None,
                   "lines": int(nums[4]), "lines_missed": int(nums[5])}
            if len(nums) > 7:
                res["branches"], res["branches_missed"] = int(nums[6]), int(nums[7])
            return res
    raise SystemExit("coverage: no TOTAL line in llvm-cov report" + (" (header %s)" % header if header else ""))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""engine_fuzz.py — fuzz a Godot engine itself with a harness that runs inside it (issue 62; README.md here).

  engine_fuzz.py --engine E --harness variant|mp-server|mp-client --out DIR [--minutes M | --inputs N] [--seed S] [--batch B]
                 [--inputs-from FILE]
  engine_fuzz.py --engine E --harness H --replay FILE...      the one-line reproduction of a finding

E: godot4.6, godot3.6, godot3.2 (Debian's release builds) or godot4.6-asan, godot3.6-asan (the sanitizer builds
tools/engines/build makes). The harness (variant4.gd / variant3.gd) reads a batch of inputs and hands each to
every way a game reads a Variant from bytes (bytes_to_var with and without objects, StreamPeerBuffer.get_var,
FileAccess.get_var, Marshalls.base64_to_variant, str_to_var), writing a marker before each entry, so a crash, a
hang or a sanitizer report is pinned to one input and one entry point.

Inputs: the engine's own packets (tools/engines/ENGINE-packets.tsv) first, then gdwire's structure-aware mutator
(fuzzers/engine_inputs, the libFuzzer/AFL++ mutator of mutator.h) over the decode corpus (corpus/decode/), in the
release's own dialect; or the hex lines of --inputs-from.

Findings: a sanitizer report (AddressSanitizer: the error kind; UndefinedBehaviorSanitizer: "runtime error"), a
crash (the engine died: its signal), a hang (the batch ran past its time), or a memory blow-up (ASan's allocation
limits, the address-space limit of a release engine). Each is deduplicated by a signature (class, kind, entry
point and the first engine frames or the UBSan source line), minimised (truncation and word deletion while the
signature holds, each try a fresh engine process), and kept as DIR/findings/SIG.bin with its report (SIG.txt)
and its reproduction. Reports printed before the first input (the engine's start-up) are kept apart as
start-up reports. The figures go to stdout and DIR/summary.json: inputs, seconds, inputs/s, engine starts,
findings by class; the last line is "N passed, N failed" (an input passes when the engine read it through every
entry with no finding).
"""
import argparse
import base64
import collections
import hashlib
import json
import os
import random
import re
import resource
import struct
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
RUN = os.path.join(ROOT, "tools", "engines", "run")

# engine: (generation's harness, project config_version, command line, gdwire row of its packets, sanitizer build)
ENGINES = {
    "godot4.6": (4, "godot4.6", False),
    "godot4.6-asan": (4, "godot4.6", True),
    "godot3.6": (3, "godot3.6", False),
    "godot3.6-asan": (3, "godot3.6", True),
    "godot3.2": (3, "godot3.2", False),
}
GENERATIONS = {
    4: {"config_version": 5, "args": ["--headless", "--path", "{work}", "--script", "res://{script}"]},
    3: {"config_version": 4, "args": ["--no-window", "-s", "{script}"]},
}
# harness: {generation: (script, files beside it, environment)}
HARNESSES = {
    "variant": {4: ("variant4.gd", [], {}), 3: ("variant3.gd", [], {})},
    # SceneMultiplayer with a hostile client (this side the server) or a hostile server (this side a client)
    # Godot's compressed and encrypted files (FileAccessCompressed, FileAccessEncrypted)
    "files": {4: ("files4.gd", [], {}), 3: ("files3.gd", [], {})},
    "mp-server": {4: ("multiplayer4.gd", ["../sessions/game4.gd"], {"GDW_ROLE": "server"}),
                  3: ("multiplayer3.gd", ["../sessions/game3.gd"], {"GDW_ROLE": "server"})},
    "mp-client": {4: ("multiplayer4.gd", ["../sessions/game4.gd"], {"GDW_ROLE": "client"}),
                  3: ("multiplayer3.gd", ["../sessions/game3.gd"], {"GDW_ROLE": "client"})},
}
ROW = {"godot4.6": "godot4", "godot3.6": "godot3", "godot3.2": "godot3@3.2"}  # the release rows (gdwire dialects)
ENTRIES = ("bytes_to_var", "bytes_to_var_with_objects", "stream_get_var", "file_get_var", "base64_to_variant",
           "str_to_var")
MEMORY_MB = 4096  # an engine may hold this much (ASan: hard_rss_limit_mb; a release engine: RLIMIT_AS twice that)
SANITIZER_ENV = {
    # leaks at exit are the engines' design; a >3 GiB allocation request and a 4 GiB RSS are memory findings
    # (3 GiB: a put_var length of 2^31-1 is a 2 GiB buffer the engines do allocate, and what follows is the bug)
    "ASAN_OPTIONS": "detect_leaks=0:allocator_may_return_null=0:max_allocation_size_mb=3072:"
                    "hard_rss_limit_mb=%d:handle_abort=1:symbolize=1" % MEMORY_MB,
    "UBSAN_OPTIONS": "print_stacktrace=1",
}
FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (.+?)(?: (\S+:\d+)(?::\d+)?)?$", re.M)
UBSAN = re.compile(r"([\w./+-]+:\d+):\d+: runtime error: (.*)")
ASAN_KIND = re.compile(r"ERROR: AddressSanitizer: ([\w-]+)")
MEMORY_TEXT = ("allocation-size-too-big", "out-of-memory", "hard rss limit", "rss-limit", "std::bad_alloc",
               "Out of memory", "requested allocation size", "out of memory")


class Engine:
    def __init__(self, name, harness):
        self.name = name
        self.proc = None  # the engine while it runs (kill)
        self.generation, self.packets_of, self.sanitized = ENGINES[name]
        gen = GENERATIONS[self.generation]
        if self.generation not in HARNESSES[harness]:
            sys.exit("engine_fuzz: the %s harness has no Godot %d script yet" % (harness, self.generation))
        self.harness = harness
        self.script, files, self.harness_env = HARNESSES[harness][self.generation]
        self.work = tempfile.mkdtemp(prefix="gdw-harness-%s-" % name)
        with open(os.path.join(self.work, "project.godot"), "w") as fh:
            fh.write("config_version=%d\n" % gen["config_version"])
        for f in [self.script] + files:
            shutil.copy(os.path.join(HERE, f), self.work)
        self.args = [a.format(work=self.work, script=self.script) for a in gen["args"]]
        self.version = None
        self.starts = 0
        # a hang: an entry with no progress for this long (a sanitizer build is 2-5 times slower, and its start too)
        self.stall_seconds = 30 if self.sanitized else 10
        self.start_seconds = 120 if self.sanitized else 60
        self.startup = []  # sanitizer reports printed before the first input

    def close(self):
        self.kill()
        shutil.rmtree(self.work, ignore_errors=True)

    def kill(self):
        """Kills the engine now running, with every process of its session (a hang; the second Ctrl-C)."""
        p, self.proc = self.proc, None
        if p is None or p.poll() is not None:
            return
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()

    def limits(self):  # in the engine's process, before it starts: watch blocked these signals around the fork
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
        if not self.sanitized:  # ASan reserves terabytes of address space; a release engine gets a plain limit
            resource.setrlimit(resource.RLIMIT_AS, (2 * MEMORY_MB << 20, 2 * MEMORY_MB << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    def _read(self, p, streams, token, deadline, kill):
        """watch's loop: both streams until they close (returns False), or until the engine runs past its deadline
        (killed; returns True)."""
        while True:
            live = [fd for fd, b in streams.items() if not isinstance(b, bytes)]
            if not live:
                return False
            ready, _, _ = select.select(live, [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                kill()
                return True
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    streams[fd] = bytes(streams[fd])
                    continue
                before = len(streams[fd])
                streams[fd] += chunk
                # only the new bytes (and a marker cut across two reads) are searched: an engine that prints
                # millions of lines between two markers must not make this quadratic
                if fd == p.stderr.fileno() and streams[fd].find(token, max(0, before - len(token) + 1)) >= 0:
                    deadline = time.monotonic() + self.stall_seconds  # a new entry began: its own STALL seconds

    def watch(self, cmd, env, mark):
        """Runs the engine, reading both streams as they come. A hang is an entry that runs past STALL seconds with no
        new marker (the engine's start gets START seconds): the engine is killed. Returns (stdout, stderr, return
        code or None, hung)."""
        # its own session: a terminal's Ctrl-C stops the campaign after the batch (main), not the engine mid-input,
        # which would read as a crash
        # the signals wait until the engine is known (self.proc), so that a second Ctrl-C always finds it to kill
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            p = self.proc = subprocess.Popen(cmd, cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=self.limits,
                                             start_new_session=True)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        streams = {p.stdout.fileno(): bytearray(), p.stderr.fileno(): bytearray()}
        token = ("@@" + mark).encode()
        try:
            hung = self._read(p, streams, token, time.monotonic() + self.start_seconds, self.kill)
            p.wait()
        except BaseException:  # a second Ctrl-C (main): the engine must not outlive the campaign
            self.kill()
            raise
        self.proc = None
        out, err = bytes(streams[p.stdout.fileno()]), bytes(streams[p.stderr.fileno()])
        p.stdout.close()
        p.stderr.close()
        return out, err, (None if hung else p.returncode), hung

    def run(self, inputs, timeout=None):
        """inputs: [(index, bytes)]. Returns (done indices, {(index, entry): stderr text}, finished,
        last (index, entry) marker, return code, timed out)."""
        path = os.path.join(self.work, "in.tsv")
        with open(path, "w") as fh:
            for i, data in inputs:
                fh.write("%d\t%s\n" % (i, base64.b64encode(data).decode()))
        mark = "gdw" + secrets.token_hex(12)
        home = os.path.join(self.work, "home")
        shutil.rmtree(home, ignore_errors=True)
        os.makedirs(home)
        env = dict(os.environ, GDW_IN=path, GDW_MARK=mark, GDW_SCRATCH=os.path.join(self.work, "scratch.bin"),
                   HOME=home, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home, **self.harness_env)
        if self.sanitized:
            env.update(SANITIZER_ENV)
            symbolizer = shutil.which("llvm-symbolizer")  # the stacks name functions and source lines (Debian's llvm)
            if symbolizer:
                for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
                    env[k] += ":external_symbolizer_path=" + symbolizer
        self.starts += 1
        out, err, rc, timed_out = self.watch([RUN, self.name] + self.args, env, mark)
        if rc == 127:
            sys.stderr.write(err.decode("utf-8", "replace"))
            sys.exit("engine_fuzz: engine %s is not available (tools/engines/run --list)" % self.name)
        done, finished = set(), False
        for line in out.decode("utf-8", "replace").splitlines():
            f = line.split("\t")
            if f[0] != mark or len(f) < 2:
                continue
            if f[1] == "DONE":
                finished = True
            elif f[1] == "V" and len(f) > 2:
                self.version = f[2]
            elif f[1] == "R" and len(f) > 2 and f[2].isdigit():
                done.add(int(f[2]))
        marker = re.compile(r"@@%s:(?:(\d+):(\w+)|done)" % mark)
        # Each entry's text, bounded: its UBSan lines (up to 100) and its last 400 lines (a sanitizer report or the
        # crash handler's backtrace ends it). An engine can print millions of lines for one input (finding 6).
        segments, current, last, before = {}, None, None, []
        for line in err.decode("utf-8", "replace").splitlines():
            if "@@" in line:
                m = marker.fullmatch(line.strip())
                if m:
                    current = (int(m.group(1)), m.group(2)) if m.group(1) else None
                    if current:
                        last = current
                        segments[current] = ([], collections.deque(maxlen=400))
                    continue
            if current is not None:
                ub, tail = segments[current]
                if "runtime error:" in line and len(ub) < 100:
                    ub.append(line)
                else:
                    tail.append(line)
            elif last is None and len(before) < 1000:
                before.append(line)
        if not self.startup and before:
            self.startup = [r for r in reports("\n".join(before))]
        return done, {k: "\n".join(ub + list(tail)) for k, (ub, tail) in segments.items()}, finished, last, rc, timed_out


def reports(text):
    """The sanitizer reports in one stretch of the engine's stderr: [(class, kind, where, text)]."""
    out = []
    for m in UBSAN.finditer(text):
        kind = ubsan_kind(m.group(2))
        out.append(("ubsan", kind, m.group(1), m.group(0)))
    m = ASAN_KIND.search(text)
    if m:
        kind = m.group(1)
        cls = "memory" if any(t in text for t in MEMORY_TEXT) else "asan"
        out.append((cls, kind, frames(text[m.start():]), text[m.start():m.start() + 6000]))
    elif "ERROR: AddressSanitizer" in text or "hard rss limit" in text:
        out.append(("memory", "rss-limit", frames(text), text[-6000:]))
    return out


def ubsan_kind(message):
    """A UBSan message without its values (addresses, numbers, nan and inf), so one check at one source line is one
    signature whatever value reached it: "V is outside the range of representable values of type 'int'"."""
    message = re.sub(r"^\S+(?= is outside the range)", "V", message)
    return re.sub(r"-?\b(0x[0-9a-f]+|\d+)\b", "N", message)


def frames(text, n=3):
    """The first n frames of a sanitizer stack that are the engine's own (not the sanitizer runtime or libc)."""
    got = []
    for m in FRAME.finditer(text):
        fn, where = m.group(1).split("(")[0].strip(), m.group(2) or ""
        if fn.startswith(("__asan", "__ubsan", "__interceptor", "__sanitizer", "_start", "__libc")) or \
                "libasan" in where or "libubsan" in where:
            continue
        got.append("%s %s" % (fn, os.path.basename(where)) if where else fn)
        if len(got) == n:
            break
    return " < ".join(got) or "no frames"


def death(rc, timed_out, text):
    """What ended an engine run on one entry, when it had no sanitizer report: (class, kind, where)."""
    if timed_out:
        return ("hang", "timeout", "")
    if any(t in text for t in MEMORY_TEXT):
        return ("memory", "allocation failed", "")
    m = re.search(r"Program crashed with signal (\d+)", text)  # Godot's own crash handler, which then aborts
    if m:
        return ("crash", "signal %s" % m.group(1), frames(text) if "#0" in text else "")
    if rc is not None and rc < 0:
        return ("crash", "signal %d" % -rc, frames(text) if "#0" in text else "")
    return ("crash", "exit status %s" % rc, "")


def signature(cls, kind, entry, where):
    # a UBSan report is its source line, whichever entry reached it first (UBSan says each line once a process)
    if cls == "ubsan":
        entry = ""
    return "%s-%s" % (cls, hashlib.sha1(("%s|%s|%s|%s" % (cls, kind, entry, where)).encode()).hexdigest()[:12])


class Campaign:
    def __init__(self, engine, out, batch):
        self.engine, self.out, self.batch = engine, out, batch
        self.findings = {}  # signature -> dict
        self.inputs = 0
        self.clean = 0
        self.unreproduced = 0  # findings whose input did not make them again alone (a loaded machine's "hang")
        self.known = {}  # --known: signatures already reported, counted but not reproduced or minimised again
        os.makedirs(os.path.join(out, "findings"), exist_ok=True)

    def judge(self, items):
        """items: [(index, bytes)]: every one through the engine, as many runs as crashes take. Returns
        [(index, [(signature, class, kind, entry, where, text)])]."""
        results = {}
        start = 0
        while start < len(items):
            batch = items[start:]
            done, segs, finished, last, rc, timed_out = self.engine.run(batch)
            for (idx, entry), text in segs.items():
                for cls, kind, where, rep in reports(text):
                    results.setdefault(idx, []).append((signature(cls, kind, entry, where), cls, kind, entry, where, rep))
            if finished:
                break
            indices = [i for i, _ in batch]
            if last is not None and last[0] not in done:
                bad, entry = last
            else:
                rest = [i for i in indices if i not in done]
                if not rest:
                    break
                bad, entry = rest[0], "?"
            text = segs.get((bad, entry), "")
            if not any(r[1] in ("asan", "memory") for r in results.get(bad, [])) and not \
                    (results.get(bad) and "SUMMARY: UndefinedBehaviorSanitizer" in text and not timed_out):
                cls, kind, where = death(rc, timed_out, text)
                results.setdefault(bad, []).append((signature(cls, kind, entry, where), cls, kind, entry, where,
                                                    text[-6000:]))
            start += indices.index(bad) + 1
        return [(i, results.get(i, [])) for i, _ in items]

    def one(self, data):
        """The signatures one input makes in a fresh engine process."""
        return {r[0] for _, rs in self.judge([(0, data)]) for r in rs}

    def minimise(self, data, sig, tries=40):
        """Shorter inputs that still make sig: cut the tail (halving), then drop aligned words."""
        best = data
        cut = len(best) // 2
        while cut >= 1 and tries > 0:
            cand = best[:len(best) - cut]
            tries -= 1
            if len(cand) >= 1 and sig in self.one(cand):
                best = cand
            else:
                cut //= 2
        pos = 0
        while pos + 4 <= len(best) and tries > 0:
            cand = best[:pos] + best[pos + 4:]
            tries -= 1
            if sig in self.one(cand):
                best = cand
            else:
                pos += 4
        return best

    def record(self, idx, data, rs):
        new = []
        for sig, cls, kind, entry, where, rep in rs:
            f = self.findings.get(sig)
            if f:
                f["count"] += 1
                continue
            self.findings[sig] = f = {"signature": sig, "class": cls, "kind": kind, "entry": entry, "where": where,
                                      "count": 1, "first_input": idx, "size": len(data)}
            new.append((f, data, rep))
        for f, data, rep in new:
            if f["signature"] in self.known:  # its regression is replayed at the end of the run
                f["reproduce"] = "known: docs/engine-findings.md finding %s" % self.known[f["signature"]][0]
                log("engine_fuzz: first seen: %s, known (finding %s)" % (f["signature"], self.known[f["signature"]][0]))
                continue
            # a finding is one only when its input makes it again, alone, in a fresh engine process
            if f["signature"] not in self.one(data):
                del self.findings[f["signature"]]
                self.unreproduced += 1
                log("engine_fuzz: %s at %s (input %d) did not happen again in a fresh engine: not kept" % (
                    f["signature"], f["entry"], idx))
                continue
            small = self.minimise(data, f["signature"], tries=8 if f["class"] == "hang" else 40)
            f["minimised_size"] = len(small)
            base = os.path.join(self.out, "findings", f["signature"])
            with open(base + ".bin", "wb") as fh:
                fh.write(small)
            f["reproduce"] = "tools/engines/harness/engine_fuzz.py --engine %s --harness %s --replay %s.bin" % (
                self.engine.name, self.engine.harness, base)
            with open(base + ".txt", "w") as fh:
                fh.write("%s\n%s\nentry: %s\nwhere: %s\ninput (minimised, %d of %d bytes): %s\nreproduce: %s\n\n%s\n" % (
                    f["signature"], "%s: %s" % (cls_name(f["class"]), f["kind"]), f["entry"], f["where"], len(small),
                    len(data), small.hex(), f["reproduce"], rep))
            log("engine_fuzz: first seen: %s %s: %s at %s (input %d, %d bytes, minimised to %d)" % (
                f["signature"], f["class"], f["kind"], f["entry"], idx, len(data), len(small)))

    def feed(self, items):
        for idx, rs in self.judge(items):
            self.inputs += 1
            if rs:
                self.record(idx, dict(items)[idx], rs)
            else:
                self.clean += 1


def cls_name(c):
    return {"asan": "AddressSanitizer", "ubsan": "UndefinedBehaviorSanitizer", "crash": "crash", "hang": "hang",
            "memory": "memory blow-up"}.get(c, c)


def log(msg):
    print(msg, flush=True)


def load_known(path, engine, harness):
    """known.tsv rows of this engine and harness: {signature: (finding number, regression file or None, what)}."""
    out = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.startswith("#") or not line.strip():
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) != 6:
                sys.exit("engine_fuzz: %s line %d: want engine, harness, signature, finding, regression, what" % (path, n))
            if f[0] == engine and f[1] == harness:
                reg = None if f[4] == "-" else os.path.join(os.path.dirname(os.path.abspath(path)), "regressions", f[4])
                out[f[2]] = (f[3], reg, f[5])
    return out


def own_packets(engine):
    """The packets the engine itself wrote (tools/engines/ENGINE-packets.tsv), through the one reader of that file."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "conformance"))
    from generate import engine_packets  # noqa: E402
    return [bytes.fromhex(h) for _, h, _ in engine_packets(engine)[1]]


def mutated(generator, row, count, seed):
    corpus = os.path.join(ROOT, "corpus", "decode")
    files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus))
    # its own session, as the engine's: a terminal's Ctrl-C must not kill it mid-batch (main stops after the batch)
    p = subprocess.run([generator, "--row", row, "--count", str(count), "--seed", str(seed)] + files,
                       capture_output=True, text=True, start_new_session=True)
    if p.returncode != 0:
        sys.exit("engine_fuzz: %s: %s" % (generator, p.stderr.strip()))
    return [b"" if line == "-" else bytes.fromhex(line) for line in p.stdout.split()]


def mp_seeds(harness, generation):
    """The multiplayer harness's seeds: the recorded sessions' messages (seeds/, made by mp_seeds.py)."""
    with open(os.path.join(HERE, "seeds", "multiplayer%d-%s.hex" % (generation, harness.split("-", 1)[1]))) as fh:
        return [bytes.fromhex(l.strip()) for l in fh if l.strip()]


def file_seeds(engine):
    """The files harness's seeds: the saves the engines wrote in every container (conformance/saves/), this
    generation's and the other's."""
    base = os.path.join(ROOT, "conformance", "saves")
    out = []
    for release in sorted(os.listdir(base)):
        folder = os.path.join(base, release)
        if os.path.isdir(folder) and release.startswith("godot"):
            for name in sorted(os.listdir(folder)):
                if name.startswith("game."):
                    with open(os.path.join(folder, name), "rb") as fh:
                        out.append(fh.read())
    return out


def file_mutated(rng, seeds, count):
    """Edits of a container: its header words (block size, total, each block's size, the length and mode of an
    encrypted file) set to 0, 1, a block, 2^24, 2^31-1 or 2^32-1; a bit, a byte, a cut, a tail from another file."""
    out = []
    for _ in range(count):
        b = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(6)
            if op <= 1 and len(b) >= 8:  # a header or block-table word (the first 64 bytes), twice as often
                pos = rng.randrange(4, min(len(b) - 3, 64)) & ~3
                b[pos:pos + 4] = struct.pack("<I", rng.choice([0, 1, 4096, 1 << 24, 0x7FFFFFFF, 0xFFFFFFFF,
                                                               rng.getrandbits(32)]))
            elif op == 2 and b:
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            elif op == 3 and b:
                b[rng.randrange(len(b))] = rng.randrange(256)
            elif op == 4 and len(b) > 4:
                del b[rng.randrange(4, len(b)):]
            else:
                other = rng.choice(seeds)
                b += other[rng.randrange(len(other) + 1):]
        out.append(bytes(b))
    return out


def split_messages(b):
    out, at = [], 0
    while at < len(b):
        if at + 2 > len(b):
            out.append(b[at:])
            break
        n = struct.unpack_from("<H", b, at)[0]
        out.append(b[at + 2:at + 2 + n])
        at += 2 + n
    return out


def join_messages(msgs):
    return b"".join(struct.pack("<H", min(len(m), 0xFFFF)) + m[:0xFFFF] for m in msgs)


def mp_mutated(rng, seeds, variants, count):
    """Message-level edits (drop, repeat, swap, a message from another seed) and edits inside a message (a bit, a
    byte, a word of 0, 1, 2^31-1, 2^32-1, a cut, and the tail after a byte replaced by one of gdwire's mutated
    Variants, so an RPC's arguments or a spawn's data are hostile values of the dialect)."""
    out = []
    for _ in range(count):
        msgs = split_messages(rng.choice(seeds)) or [b""]
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(9)
            k = rng.randrange(len(msgs))
            m = bytearray(msgs[k])
            if op == 0 and len(msgs) > 1:
                del msgs[k]
                continue
            if op == 1:
                msgs.insert(k, bytes(m))
                continue
            if op == 2 and len(msgs) > 1:
                j = rng.randrange(len(msgs))
                msgs[k], msgs[j] = msgs[j], msgs[k]
                continue
            if op == 3:
                msgs.insert(k, rng.choice(split_messages(rng.choice(seeds)) or [b""]))
                continue
            if op == 4 and m:
                m[rng.randrange(len(m))] ^= 1 << rng.randrange(8)
            elif op == 5 and m:
                m[rng.randrange(len(m))] = rng.randrange(256)
            elif op == 6 and len(m) >= 4:
                pos = rng.randrange(len(m) - 3)
                m[pos:pos + 4] = struct.pack("<I", rng.choice([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                                                               rng.getrandbits(32)]))
            elif op == 7 and len(m) > 1:
                del m[rng.randrange(1, len(m)):]
            elif op == 8 and variants:
                cut = rng.randrange(1, max(2, len(m) + 1))
                m = m[:cut] + rng.choice(variants)
            msgs[k] = bytes(m)
        out.append(join_messages(msgs))
    return out


def find_generator():
    for p in (os.path.join(ROOT, "bazel-bin", "fuzzers", "engine_inputs"), shutil.which("engine_inputs") or ""):
        if p and os.access(p, os.X_OK):
            return p
    sys.exit("engine_fuzz: needs fuzzers/engine_inputs: bazel build //fuzzers:engine_inputs (or --generator PATH)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, choices=sorted(ENGINES))
    ap.add_argument("--harness", default="variant", choices=sorted(HARNESSES))
    ap.add_argument("--out", help="run folder (findings/, summary.json)")
    ap.add_argument("--minutes", type=float, help="run for this long (after the engine's own packets)")
    ap.add_argument("--inputs", type=int, help="run this many inputs (the engine's own packets count)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, help="inputs per engine run (default 2000; 500 for a sanitizer build)")
    ap.add_argument("--inputs-from", help="a file of hex lines ('-' the empty input) instead of generated inputs")
    ap.add_argument("--generator", help="fuzzers/engine_inputs (default: bazel-bin/fuzzers/engine_inputs)")
    ap.add_argument("--replay", nargs="+", metavar="FILE", help="run these inputs (raw bytes) and say what each does")
    ap.add_argument("--no-steer", action="store_true", help="feed the stream entries lengths of 64 MiB and more too "
                    "(by default they skip them: finding 3 again, at seconds an input in a sanitizer build)")
    ap.add_argument("--known", help="known.tsv: findings already reported (docs/engine-findings.md); a run fails on any "
                                    "other, and each of this engine's regressions must still make its finding")
    args = ap.parse_args()
    engine = Engine(args.engine, args.harness)
    # a replay is exact: it never steers
    engine.harness_env = dict(engine.harness_env, GDW_STEER="0" if args.no_steer or args.replay else "1")
    try:
        if args.replay:
            camp = Campaign(engine, tempfile.mkdtemp(prefix="gdw-replay-"), 1)
            bad = 0
            for path in args.replay:
                with open(path, "rb") as fh:
                    data = fh.read()
                got = camp.judge([(0, data)])[0][1]
                print("%s (%d bytes, %s): %s" % (path, len(data), engine.version or args.engine,
                                                 "; ".join("%s %s: %s at %s [%s]" % (s, cls_name(c), k, e, w)
                                                           for s, c, k, e, w, _ in got) or "no finding"))
                for *_, rep in got:
                    print(rep)
                bad += bool(got)
            shutil.rmtree(camp.out, ignore_errors=True)
            print("%d passed, %d failed" % (len(args.replay) - bad, bad))
            return 0
        if not args.out or (args.minutes is None and args.inputs is None):
            ap.error("a run needs --out and --minutes or --inputs (or --replay FILE)")
        batch = args.batch or (500 if engine.sanitized else 2000)
        camp = Campaign(engine, args.out, batch)
        if args.known:
            camp.known = load_known(args.known, args.engine, args.harness)
        if args.inputs_from:
            with open(args.inputs_from) as fh:
                pool = [b"" if l.strip() == "-" else bytes.fromhex(l.strip()) for l in fh if l.strip()]
            first = pool
        elif args.harness == "variant":
            first = own_packets(engine.packets_of)
        elif args.harness == "files":
            first = file_seeds(engine)
        else:
            first = mp_seeds(args.harness, engine.generation)
        generator = None if args.inputs_from else (args.generator or find_generator())
        rng = random.Random(args.seed)
        seeds_mp = first if args.harness.startswith("mp-") else None
        seeds_files = first if args.harness == "files" else None
        began = time.monotonic()
        deadline = began + 60 * args.minutes if args.minutes is not None else None
        # SIGINT or SIGTERM ends the run after the batch in hand, with its summary (the run is then shorter than
        # asked, and says so: "stopped")
        stop = []

        def on_signal(n, _frame):  # the first ends the run after its batch (logged by the loop); a second, now
            if stop:
                raise KeyboardInterrupt
            stop.append(signal.Signals(n).name)

        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, on_signal)
        limit = args.inputs
        queue, index, round_ = list(first), 0, 0
        log("engine_fuzz: %s, harness %s, batches of %d" % (args.engine, args.harness, batch))
        while True:
            if limit is not None and index >= limit:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            if stop:
                log("engine_fuzz: %s: stopping after %d inputs" % (stop[0], camp.inputs))
                break
            if not queue:
                if generator is None:
                    break
                round_ += 1
                variants = mutated(generator, ROW[engine.packets_of], batch * 4, args.seed * 100003 + round_)
                if seeds_files is not None:
                    queue = file_mutated(rng, seeds_files, batch * 4)
                elif seeds_mp is not None:
                    queue = mp_mutated(rng, seeds_mp, variants, batch * 4)
                else:
                    queue = variants
            take = batch if limit is None else min(batch, limit - index)
            items = [(index + k, d) for k, d in enumerate(queue[:take])]
            queue = queue[take:]
            index += len(items)
            camp.feed(items)
            elapsed = time.monotonic() - began
            log("engine_fuzz: %d inputs, %.0f s, %.0f inputs/s, %d engine starts, %d findings" % (
                camp.inputs, elapsed, camp.inputs / max(elapsed, 1e-9), engine.starts, len(camp.findings)))
        # the summary is written whatever comes now: a later signal is noted, not obeyed
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda n, _f: stop.append(signal.Signals(n).name))
        elapsed = time.monotonic() - began
        by_class = collections.Counter(f["class"] for f in camp.findings.values())
        summary = {"engine": args.engine, "version": engine.version, "harness": args.harness, "seed": args.seed,
                   "date": time.strftime("%Y-%m-%d", time.gmtime()),
                   "inputs": camp.inputs, "seconds": round(elapsed, 1),
                   "inputs_per_second": round(camp.inputs / max(elapsed, 1e-9), 1), "engine_starts": engine.starts,
                   "not_reproduced": camp.unreproduced, "stopped": stop[0] if stop else None,
                   "entries": list(ENTRIES), "findings_by_class": dict(by_class),
                   "startup_reports": [{"class": c, "kind": k, "where": w} for c, k, w, _ in engine.startup],
                   "findings": sorted(camp.findings.values(), key=lambda f: f["signature"])}
        # whole or not at all: written beside, then renamed
        with open(os.path.join(args.out, "summary.json.part"), "w") as fh:
            json.dump(summary, fh, indent=1)
        os.replace(os.path.join(args.out, "summary.json.part"), os.path.join(args.out, "summary.json"))
        log("engine_fuzz: %s (%s): %d inputs in %.1f s, %.1f inputs/s, %d engine starts" % (
            args.engine, engine.version, camp.inputs, elapsed, summary["inputs_per_second"], engine.starts))
        for c, k, w, _ in engine.startup:
            log("engine_fuzz: start-up report (before any input): %s: %s at %s" % (cls_name(c), k, w))
        for f in summary["findings"]:
            log("engine_fuzz: finding %s: %s: %s at %s, %d inputs; %s" % (
                f["signature"], cls_name(f["class"]), f["kind"], f["entry"], f["count"], f["reproduce"]))
        if not args.known:
            log("%d passed, %d failed" % (camp.clean, camp.inputs - camp.clean))
            return 1 if camp.findings else 0
        # with --known: an input passes when every finding it made is a known one; each regression of this
        # engine passes when it still makes its finding in a fresh engine process
        known = load_known(args.known, args.engine, args.harness)
        new = [f for f in summary["findings"] if f["signature"] not in known]
        for f in new:
            log("engine_fuzz: FAIL: new finding %s (%s: %s at %s), not in %s" % (
                f["signature"], cls_name(f["class"]), f["kind"], f["entry"], args.known))
        for f in summary["findings"]:
            if f["signature"] in known:
                log("engine_fuzz: known finding %s: docs/engine-findings.md finding %s, %d inputs" % (
                    f["signature"], known[f["signature"]][0], f["count"]))
        failed_inputs = sum(f["count"] for f in new)
        passed_inputs = camp.inputs - failed_inputs
        reg_pass = reg_fail = 0
        engine.harness_env["GDW_STEER"] = "0"  # a regression is its input exactly as it was found
        for sig, (number, reg, what) in sorted(known.items()):
            if reg is None:
                continue
            with open(reg, "rb") as fh:
                data = fh.read()
            got = camp.one(data)
            # the same bug may show as any of its finding's signatures for this input: a client that swells until
            # its memory runs out hangs or crashes by how fast the machine is (finding 8)
            alike = {k for k, (n2, r2, _) in known.items() if n2 == number and r2 == reg}
            if got & alike:
                reg_pass += 1
                log("engine_fuzz: regression %s still makes finding %s (%s)" % (os.path.basename(reg), number, what))
            else:
                reg_fail += 1
                log("engine_fuzz: FAIL: regression %s no longer makes finding %s (%s): it made %s. If the engine "
                    "was fixed, say so in docs/engine-findings.md and known.tsv" % (
                        os.path.basename(reg), number, what, ", ".join(sorted(got)) or "nothing"))
        log("%d passed, %d failed" % (passed_inputs + reg_pass, failed_inputs + reg_fail))
        return 1 if new or reg_fail else 0
    finally:
        engine.close()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the second signal: stopped at once, the engine killed (Engine.watch)
        log("engine_fuzz: stopped at once: no summary written")
        sys.exit(130)

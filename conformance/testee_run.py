#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""testee_run.py — the conformance vectors against any testee (docs/testee-protocol.md).

usage: testee_run.py --runner RUNNER --testee 'CMD ARGS' --dialect D|all [--mode M] [--show N]
                     [--timeout S] [--memory MIB] [--hello-timeout S] [--compare-errors] [--expect-version V]
                     [--deviations FILE] [--root DIR] [--keep DIR] [--engine E --write-evidence F] PATH...

1. RUNNER --export D writes the packets of every vector (id, hex, objects);
2. the testee answers each (started with `sh -c CMD`, an address-space limit of --memory MiB;
   a response later than --timeout seconds is a hang, a testee that exits a crash: either way
   it is started again and the run goes on with the next packet);
3. RUNNER --oracle D compares the answers with the vectors' expectations in mode M: the agreement
   by category first, then the disagreements grouped by what differs (--show of them in full),
   vector paths as the repository names them, and "N passed, N failed" last.
With --dialect all, every dialect and release row in turn, ranked by agreement: the row a testee
(an engine with tools/engines/testee.py --any-dialect, a fork's build) speaks comes first.

A testee is not trusted (issue 34): a hello that does not parse ends the run with a message and
the testee killed; a line longer than MAX_LINE bytes is a garbled answer (the testee is started
again), never buffered without end; the hello waits --hello-timeout seconds (default 120); an
address-space limit above the runner's own hard limit is lowered to it; and the temporary folder
is removed however the run ends.
"""
import argparse
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

PROTOCOL = "gdwire-testee/1"
MAX_LINE = 1 << 20  # no answer of the protocol is longer: a hex re-encoding of a vector is far below


class TesteeError(Exception):
    """The testee broke the protocol before it could be used (no hello, a bad hello)."""


STDERR_TAIL = 64 << 10  # the most of a testee's stderr kept, over all its runs: the last bytes


def shown(text, most=200):
    """A string the testee sent, safe to print: every character a terminal would act on or reorder
    (controls, bidirectional formatting, line and paragraph separators) as \\uXXXX, at most `most`."""
    out = "".join(c if c.isprintable() else "\\u%04x" % ord(c) if ord(c) < 0x10000 else "\\U%08x" % ord(c) for c in text[:most])
    return out + ("..." if len(text) > most else "")


class Testee:
    def __init__(self, cmd, memory_mib, log, hello_timeout=120.0):
        self.cmd, self.log, self.hello_timeout = cmd, log, hello_timeout
        self.memory = memory_mib << 20 if memory_mib else 0
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if self.memory and hard != resource.RLIM_INFINITY and self.memory > hard:
            self.memory = hard  # the runner's own limit (ulimit -v) is the most a child may have
        self.p = None
        self.hello = None
        self.tail, self.tail_cut = bytearray(), False  # the last of the testee's stderr, over its restarts

    def _limit(self):
        os.setsid()
        if self.memory:
            resource.setrlimit(resource.RLIMIT_AS, (self.memory, self.memory))

    def _keep_tail(self, pipe):
        """Reads the testee's stderr as it comes, keeping the last STDERR_TAIL bytes (a testee that
        writes without end cannot fill the disk)."""
        while True:
            chunk = pipe.read1(1 << 16) if hasattr(pipe, "read1") else pipe.read(1 << 16)
            if not chunk:
                return
            self.tail += chunk
            if len(self.tail) > 2 * STDERR_TAIL:
                del self.tail[:-STDERR_TAIL]
                self.tail_cut = True

    def start(self):
        self.p = subprocess.Popen(["sh", "-c", self.cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, preexec_fn=self._limit)
        self.tail_reader = threading.Thread(target=self._keep_tail, args=(self.p.stderr,), daemon=True)
        self.tail_reader.start()
        self.buf = b""
        line = self.readline(time.monotonic() + self.hello_timeout)
        if line is None:
            self.kill()
            raise TesteeError("the testee gave no hello line within %g s (%s)" % (self.hello_timeout, self.cmd))
        f = line.split("\t")
        if f[0] != PROTOCOL or len(f) != 4:
            self.kill()
            raise TesteeError("the testee speaks '%s', not %s (first line '%s')" % (shown(f[0], 80), PROTOCOL, shown(line)))
        try:
            window = int(f[3])
        except ValueError:
            self.kill()
            raise TesteeError("the testee's hello names a window '%s', not a number" % shown(f[3], 40))
        # the name and version are printed: escaped here, once
        self.hello = {"name": shown(f[1]), "version": shown(f[2]), "window": max(1, min(window, 100000))}

    def kill(self):
        if self.p:
            # the testee's whole process group (setsid), even when the testee itself has ended: what it
            # left running would keep its stderr open, and the tail reader reading, for ever
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.p.wait()
            self.tail_reader.join(5)
            self.tail += b"[testee_run: the testee's run ended (exit status %d)]\n" % self.p.returncode
            if len(self.tail) > STDERR_TAIL:
                del self.tail[:-STDERR_TAIL]
                self.tail_cut = True
            # the log holds the last STDERR_TAIL bytes of every run together, written again at each end
            self.log.seek(0)
            self.log.truncate()
            if self.tail_cut:
                self.log.write(b"[testee_run: the testee's stderr before its last %d bytes is not kept]\n" % STDERR_TAIL)
            self.log.write(bytes(self.tail))
            self.log.flush()
        self.p = None

    def readline(self, deadline):
        """One line of stdout, or None on timeout or end of output (self.ended tells which)."""
        fd = self.p.stdout.fileno()
        self.ended = False
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.ended = True  # the testee closed its output: it died (or quit early)
                return None
            self.buf += chunk
            if b"\n" not in self.buf and len(self.buf) > MAX_LINE:
                self.buf = b""
                return "garbled: a line of more than %d bytes" % MAX_LINE
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")


def send(p, data):
    try:
        p.stdin.write(data)
        p.stdin.flush()
    except (BrokenPipeError, OSError):
        pass


def drive(testee, packets, dialect, mode, timeout):
    """Every packet through the testee; returns {id: fields} and the number of restarts.

    Requests go out a window at a time (the testee's hello says how many). When the testee
    dies, hangs or garbles an answer, the packet blamed is the first unanswered one only if it
    was alone in flight; otherwise the rest of that window is sent again one packet at a time,
    so a batching testee's failure is pinned on the packet that caused it."""
    results, restarts, i, solo_until = {}, 0, 0, 0
    testee.start()
    while i < len(packets):
        window = 1 if i < solo_until else testee.hello["window"]
        chunk = packets[i:i + window]
        data = "".join("%s\t%s\t%s\t%s\t%s\n" % (pid, dialect, mode, objects, hexs or "-") for pid, hexs, objects in chunk)
        writer = threading.Thread(target=send, args=(testee.p, data.encode()), daemon=True)
        writer.start()
        limit = timeout if timeout else (10 if window == 1 else 60 + 0.01 * len(chunk))
        for n, (pid, _, _) in enumerate(chunk):
            line = testee.readline(time.monotonic() + limit)
            f = line.split("\t") if line is not None else None
            if f is None or len(f) != 6 or f[0] != pid:
                ended = testee.ended
                testee.kill()
                restarts += 1
                if len(chunk) - n > 1:
                    solo_until = i + len(chunk) - n  # pin it down: the rest one at a time
                else:
                    kind = "bad-response" if f is not None else ("crash" if ended else "hang")
                    results[pid] = [kind, "-", "-", "-", (line or "")[:200] or "-"]
                    i += 1
                testee.start()
                break
            results[pid] = f[1:]
            i += 1
        writer.join(timeout=5)
    if testee.p:
        try:
            testee.p.stdin.close()
        except OSError:
            pass
        try:
            testee.p.wait(timeout=timeout if timeout else 30)  # as long as an answer may take, to quit once its input ends
        except subprocess.TimeoutExpired:
            testee.kill()
    return results, restarts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--testee", required=True)
    ap.add_argument("--dialect", required=True, help="a dialect or release row, or all: every row, ranked by agreement")
    ap.add_argument("--show", type=int, default=30, help="disagreements printed in full, grouped by kind (0: all)")
    ap.add_argument("--mode", default="engine-exact", choices=["compatible", "strict", "engine-exact"])
    ap.add_argument("--timeout", type=float, default=0)
    ap.add_argument("--memory", type=int, default=4096, help="the testee's address-space limit in MiB (0: none)")
    ap.add_argument("--hello-timeout", type=float, default=120.0, help="seconds to wait for the testee's hello line")
    ap.add_argument("--compare-errors", action="store_true")
    ap.add_argument("--expect-version", default="")
    ap.add_argument("--engine", default="", help="the engine's name, for deviations scoped to it (godot4.6, ...)")
    ap.add_argument("--deviations", default="")
    ap.add_argument("--root", default="conformance/vectors")
    ap.add_argument("--keep", default="", help="write the packets, answers and testee log into this folder")
    ap.add_argument("--write-evidence", default="", help="also keep the answers as an evidence file "
                    "(conformance/evidence/ENGINE.tsv; needs --engine)")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="gdw-testee-")
    try:
        rc = run(a, work)
    except TesteeError as e:
        print("testee_run: %s" % e, file=sys.stderr)
        rc = 2
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)  # however the run ended
    sys.exit(rc)


def run(a, work):
    paths = a.paths or [a.root]
    os.makedirs(work, exist_ok=True)
    if a.dialect == "all":
        return run_all(a, work, paths)
    exported = subprocess.run([a.runner, "--export", a.dialect, "--root", a.root] + paths, capture_output=True, text=True)
    if exported.returncode:
        sys.exit("testee_run: %s--export failed: %s" % (a.runner, exported.stderr.strip()))
    packets = [tuple(l.split("\t")) for l in exported.stdout.splitlines() if l]
    with open(os.path.join(work, "testee.log"), "wb") as log:
        testee = Testee(a.testee, a.memory, log, a.hello_timeout)
        t0 = time.monotonic()
        try:
            results, restarts = drive(testee, packets, a.dialect, a.mode, a.timeout)
        finally:
            testee.kill()  # never left running, whatever happened
        took = time.monotonic() - t0
    hello = testee.hello
    if a.expect_version and hello["version"] != a.expect_version:
        print("NOTE: the testee is %s %s, but the expectations were recorded with %s: a difference below may be "
              "the engine's change, not gdwire's" % (hello["name"], hello["version"], a.expect_version))
    print("testee: %s %s (%s), dialect %s, mode %s: %d packets in %.1f s, %d restarts" %
          (hello["name"], hello["version"], a.testee, a.dialect, a.mode, len(packets), took, restarts))
    answers = os.path.join(work, "answers.tsv")
    with open(answers, "w") as fh:
        for pid, _, _ in packets:
            fh.write("\t".join([pid] + results[pid]) + "\n")
    if a.write_evidence:
        if not a.engine:
            sys.exit("testee_run: --write-evidence needs --engine")
        w = subprocess.run([a.runner, "--oracle", a.dialect, "--testee-results", answers, "--mode", a.mode, "--root", a.root,
                            "--engine", a.engine, "--engine-version", hello["version"], "--write-evidence", a.write_evidence] + paths)
        if w.returncode:
            sys.exit("testee_run: writing the evidence failed")
    out, rc = oracle(a, a.dialect, answers, paths)
    print_report(a, out)
    return rc


def oracle(a, dialect, answers, paths):
    """The runner's comparison of the answers with dialect's expectations: (its output, exit status)."""
    cmd = [a.runner, "--oracle", dialect, "--testee-results", answers, "--mode", a.mode, "--root", a.root]
    if a.compare_errors:
        cmd.append("--compare-errors")
    if a.engine:
        cmd += ["--engine", a.engine]
    if a.deviations:
        cmd += ["--deviations", a.deviations]
    r = subprocess.run(cmd + paths, stdout=subprocess.PIPE, text=True, errors="replace")  # a testee's detail may hold any bytes
    return r.stdout, r.returncode


def repo_relative(a, text):
    """Vector paths as the repository names them (conformance/vectors/...), not where --root sits
    (a Bazel runfiles tree under `bazel run`)."""
    root = os.path.abspath(a.root).rstrip("/")
    return text.replace(root + "/", "conformance/vectors/")


def print_report(a, out):
    """The summary first, then the disagreements grouped by what differs, at most --show of them
    (all with --show 0), and the closing "N passed, N failed" line last."""
    out = repo_relative(a, out)
    lines = out.splitlines()
    fails, summary, cur = [], [], None
    for line in lines:
        if line.startswith("FAIL "):
            cur = [line]
            fails.append(cur)
        elif cur is not None and line.startswith("  "):
            cur.append(line)
        else:
            cur = None
            summary.append(line)
    closing = [l for l in summary if re_closing(l)]
    body = [l for l in summary if not re_closing(l)]
    print("\n".join(body).strip("\n"))
    if fails:
        groups = {}
        for f in fails:
            why = f[0].rsplit(": ", 1)[-1] if ": " in f[0] else f[0]
            groups.setdefault(why, []).append(f)
        print("\n%d disagreements, %d kinds (by what differs):" % (len(fails), len(groups)))
        shown = 0
        for why, fs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print("  %6d  %s" % (len(fs), why))
        per_kind = len(fails) if a.show == 0 else 3  # --show 0: every one
        for why, fs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            for f in fs[:per_kind]:
                if a.show and shown >= a.show:
                    break
                print("\n".join(f))
                shown += 1
            if len(fs) > per_kind and (not a.show or shown < a.show):
                print("  ... and %d more of this kind" % (len(fs) - per_kind))
        if len(fails) > shown:
            print("(%d of %d disagreements printed: --show 0 prints them all)" % (shown, len(fails)))
    for l in closing:
        print(l)


def re_closing(line):
    parts = line.split()
    return len(parts) == 4 and parts[1] == "passed," and parts[3] == "failed" and parts[0].isdigit()


def run_all(a, work, paths):
    """--dialect all: the same vectors asked in every dialect and release row, and the rows ranked by
    how many of their expectations the testee's answers agree with: the row the testee speaks
    first. (Each row's packets are asked in that row's name: a testee that does not speak it says
    unsupported, which is not judged.)"""
    rows = subprocess.run([a.runner, "--dialects"], capture_output=True, text=True, check=True).stdout.split()
    results = []
    with open(os.path.join(work, "testee.log"), "wb") as log:
        testee = Testee(a.testee, a.memory, log, a.hello_timeout)
        try:
            # the packets are the same in every row (the row only names the dialect asked): exported once
            exported = subprocess.run([a.runner, "--export", rows[0], "--root", a.root] + paths, capture_output=True, text=True)
            if exported.returncode:
                sys.exit("testee_run: %s --export failed: %s" % (a.runner, exported.stderr.strip()))
            packets = [tuple(l.split("\t")) for l in exported.stdout.splitlines() if l]
            for row in rows:
                t0 = time.monotonic()
                answers_by_id, _ = drive(testee, packets, row, a.mode, a.timeout)
                answers = os.path.join(work, "answers-%s.tsv" % row)
                with open(answers, "w") as fh:
                    for pid, _, _ in packets:
                        fh.write("\t".join([pid] + answers_by_id[pid]) + "\n")
                out, _ = oracle(a, row, answers, paths)
                m = re.search(r"agreement: ([0-9.]+)% of (\d+) judged", out)
                pf = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
                judged = int(m.group(2)) if m else 0
                results.append((row, float(m.group(1)) if m else 0.0, judged, int(pf.group(1)) if pf else 0, int(pf.group(2)) if pf else 0))
                print("  %-20s %6.2f%% of %d judged (%.0f s)" % (row, results[-1][1], judged, time.monotonic() - t0), file=sys.stderr, flush=True)
        finally:
            testee.kill()
    hello = testee.hello or {"name": "?", "version": "?"}
    print("testee: %s %s (%s), every row, mode %s: %d vectors a row" % (hello["name"], hello["version"], a.testee, a.mode, len(packets)))
    print("%-20s %10s %10s  %s" % ("row", "agreement", "judged", "passed / failed"))
    ranked = sorted(results, key=lambda r: (-(r[2] > 0), -r[1], -r[2], rows.index(r[0])))
    for row, pct, judged, p, f in ranked:
        print("%-20s %9.3f%% %10d  %d / %d" % (row, pct, judged, p, f))
    best = ranked[0] if ranked and ranked[0][2] else None
    if best:
        alike = [r[0] for r in ranked[1:] if r[2] and r[1] == best[1]]
        print("the testee speaks %s%s" % (best[0], " (as well: %s)" % ", ".join(alike) if alike else ""))
    else:
        print("the testee answered no row (every answer unsupported)")
    return 0 if best else 1


if __name__ == "__main__":
    main()

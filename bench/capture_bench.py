#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""capture_bench.py — `gdwire capture` on a long real session, side by side with tshark and tcpdump.

  capture_bench.py make OUT.pcap [SECONDS [COMPRESSION]]
      a long Godot 4.6.3 ENet session on loopback (bench/long_session4.gd: a server and two clients, 60 frames a
      second of 120 RPCs each), captured by tcpdump (root, or CAP_NET_RAW). 60 seconds make about 100 MB. The
      capture is not committed: make it when you measure.
  capture_bench.py run GDWIRE [--library SESSION_READ] FILE.pcap...
      for each capture, in one run: `gdwire capture --json FILE >/dev/null` (every message and Variant decoded),
      the session library alone with nothing printed (bench/session_read.c: `bazel build -c opt //bench:session_read`),
      `tshark -r FILE -q` (Wireshark's dissectors; it has none for Godot, so its UDP payloads stay data) and
      `tcpdump -r FILE -w /dev/null` (reading and writing records only), the best of 3 runs each, their peak RSS
      (GNU time), and gdwire on the capture's first quarter (linearity: 4x the input in at most 5x the time).
      Prints the table and the goals of issue 57: gdwire at 2x tshark's speed or more, peak RSS at most 64 MiB
      + 1 % of the input.
Needs tshark and tcpdump (Debian packages) for run, and the engines (tools/engines/setup) for make."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def make(out, seconds=60.0, compression=""):
    for tool in ("tcpdump",):
        if not shutil.which(tool):
            sys.exit(f"capture_bench: needs {tool} (apt-get install {tool})")
    work = tempfile.mkdtemp(prefix="gdwire-long-")
    with open(os.path.join(work, "project.godot"), "w") as f:
        f.write("config_version=5\n")
    shutil.copy(os.path.join(HERE, "long_session4.gd"), work)
    shutil.copy(os.path.join(ROOT, "tools/engines/sessions/game4.gd"), work)
    port = 20000 + os.getpid() % 20000
    dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-B", "65536", "-w", out, f"udp port {port}"], stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    env = dict(os.environ, HOME=work, XDG_DATA_HOME=work, XDG_CONFIG_HOME=work, XDG_CACHE_HOME=work)
    run = os.path.join(ROOT, "tools/engines/run")
    args = ["--headless", "--path", ".", "--script", "res://long_session4.gd", "--"]
    peers = []
    for role in ("server", "a", "b"):
        peers.append(subprocess.Popen([run, "godot4.6"] + args + [role, str(port), str(seconds), compression], cwd=work, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        time.sleep(1.0 if role == "server" else 0.3)
    said = [p.communicate(timeout=seconds + 120)[0] for p in peers]
    time.sleep(0.5)
    dump.terminate()
    err = dump.communicate()[1]
    shutil.rmtree(work, ignore_errors=True)
    got = [line for s in said for line in s.splitlines() if "RPCs received" in line]
    dropped = [line for line in err.splitlines() if "dropped by kernel" in line]
    print(f"capture_bench: {out}: {os.path.getsize(out):,} bytes; {'; '.join(got)}; tcpdump: {'; '.join(dropped)}")


def frames(path):
    data = open(path, "rb").read()
    return data[:24], [data[pos:pos + 16 + struct.unpack("<I", data[pos + 8:pos + 12])[0]] for pos in record_offsets(data)]


def record_offsets(data):
    pos = 24
    while pos + 16 <= len(data):
        yield pos
        pos += 16 + struct.unpack("<I", data[pos + 8:pos + 12])[0]


def timed(cmd):
    """The best of 3 runs' wall seconds, and the peak RSS (KiB) of the last (GNU time)."""
    best, rss = None, 0
    for _ in range(3):
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        dt = time.perf_counter() - t0
        if p.returncode not in (0, 1):
            sys.exit(f"capture_bench: {' '.join(cmd)} failed ({p.returncode}): {p.stderr[-400:]}")
        rss = int(p.stderr.strip().splitlines()[-1])
        best = dt if best is None else min(best, dt)
    return best, rss


def bench(gdwire, path, library=None):
    size = os.path.getsize(path)
    head, recs = frames(path)
    quarter = path + ".quarter.pcap"
    with open(quarter, "wb") as f:
        f.write(head + b"".join(recs[:len(recs) // 4]))
    msgs = subprocess.run([gdwire, "capture", "--json", path], capture_output=True, text=True).stdout.count('"type":"message"')
    rows = [("gdwire capture --json", [gdwire, "capture", "--json", path]),
            ("tshark -r FILE -q", ["tshark", "-r", path, "-q"]),
            ("tcpdump -r FILE -w /dev/null", ["tcpdump", "-r", path, "-w", "/dev/null"])]
    if library:
        rows.insert(1, ("the library (session_read)", [library, path]))
    res = {name: timed(cmd) for name, cmd in rows}
    q_time, _ = timed([gdwire, "capture", "--json", quarter])
    os.unlink(quarter)
    print(f"\n{path}: {size / 1e6:.1f} MB, {len(recs):,} frames, {msgs:,} messages decoded by gdwire")
    print(f"  {'tool':<30} {'seconds':>8} {'MB/s':>8} {'peak RSS':>10}")
    for name, _ in rows:
        t, rss = res[name]
        print(f"  {name:<30} {t:8.2f} {size / 1e6 / t:8.1f} {rss / 1024:8.1f} MiB")
    g, ts = res["gdwire capture --json"][0], res["tshark -r FILE -q"][0]
    rss = res["gdwire capture --json"][1] * 1024
    bound = 64 * 2**20 + size // 100
    print(f"  gdwire against tshark: {ts / g:.2f}x its speed (goal: 2x or more)")
    if library:
        lib = res["the library (session_read)"][0]
        print(f"  the library alone against tshark: {ts / lib:.2f}x its speed; printing is {100 * (g - lib) / g:.0f} % of gdwire's time")
    print(f"  gdwire's peak RSS: {rss / 2**20:.1f} MiB, bound 64 MiB + 1 % of the input = {bound / 2**20:.1f} MiB: {'within' if rss <= bound else 'PAST IT'}")
    print(f"  linearity: the whole capture in {g / q_time:.2f}x the time of its first quarter (goal: at most 5x)")


def main(argv):
    if len(argv) >= 3 and argv[1] == "make":
        make(argv[2], float(argv[3]) if len(argv) > 3 else 60.0, argv[4] if len(argv) > 4 else "")
        return 0
    if len(argv) >= 4 and argv[1] == "run":
        for tool in ("tshark", "tcpdump"):
            if not shutil.which(tool):
                sys.exit(f"capture_bench: needs {tool} (apt-get install {tool})")
        paths, library = argv[3:], None
        if len(paths) >= 2 and paths[0] == "--library":
            library, paths = paths[1], paths[2:]
        for path in paths:
            bench(argv[2], path, library)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wireshark_bench.py — the Godot Wireshark plugin's cost (issue 60): tshark with it against tshark without it.

  wireshark_bench.py PLUGIN FILE.pcap [RUNS]
      in one run, on the same capture (the long session: `bench/capture_bench.py make FILE.pcap 60`):
        - with the plugin installed (HOME a folder holding it):  tshark -r FILE -Y godot >/dev/null
        - the same tshark with no plugin (HOME an empty folder): tshark -r FILE -Y udp >/dev/null
      the best of RUNS (default 2) wall seconds each and the peak RSS (GNU time), side by side, and the ratios
      against the goal: at most 1.5x, in time and in peak RSS.
Root's tshark loads no personal plugin, so under root both run as nobody (setpriv), with a copy of FILE it can read.
Needs tshark and GNU time (tools/setup.sh)."""
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    plugin, pcap = argv[1], argv[2]
    runs = int(argv[3]) if len(argv) > 3 else 2
    work = tempfile.mkdtemp(prefix="gdw-ws-bench-")
    os.chmod(work, 0o755)
    with_home, without_home = os.path.join(work, "with"), os.path.join(work, "without")
    subprocess.run(["install", "-D", "-m", "0755", plugin, os.path.join(with_home, ".local/lib/wireshark/plugins/4.0/epan/godot.so")], check=True)
    os.makedirs(without_home)
    for root, dirs, _ in os.walk(work):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    if as_user:
        copy = os.path.join(work, "capture.pcap")
        shutil.copyfile(pcap, copy)
        os.chmod(copy, 0o644)
        pcap = copy

    def timed(home, flt):
        best, rss = None, 0
        for _ in range(runs):
            t0 = time.perf_counter()
            p = subprocess.run(["/usr/bin/time", "-f", "%M"] + as_user + ["tshark", "-r", pcap, "-Y", flt], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ, HOME=home))
            dt = time.perf_counter() - t0
            if p.returncode != 0:
                sys.exit(f"wireshark_bench: tshark -Y {flt} failed ({p.returncode}): {p.stderr[-400:]}")
            best = dt if best is None else min(best, dt)
            rss = max(rss, int(p.stderr.strip().splitlines()[-1]))
        return best, rss

    frames = subprocess.run(as_user + ["capinfos", "-c", "-M", pcap], capture_output=True, text=True).stdout.split()[-1]
    with_plugin = timed(with_home, "godot")
    without = timed(without_home, "udp")
    shutil.rmtree(work, ignore_errors=True)
    size = os.path.getsize(argv[2])
    print(f"wireshark_bench: {argv[2]}: {size:,} bytes, {frames} frames; best of {runs} runs each")
    print(f"  {'command':58} {'seconds':>8} {'peak RSS':>10}")
    print(f"  {'tshark -r FILE -Y godot  (the plugin)':58} {with_plugin[0]:8.2f} {with_plugin[1] / 1024:8.0f} MiB")
    print(f"  {'tshark -r FILE -Y udp    (no plugin)':58} {without[0]:8.2f} {without[1] / 1024:8.0f} MiB")
    tr, mr = with_plugin[0] / without[0], with_plugin[1] / without[1]
    print(f"  ratios: time {tr:.2f}x, peak RSS {mr:.2f}x (goal: at most 1.5x each: {'met' if tr <= 1.5 and mr <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main(sys.argv)

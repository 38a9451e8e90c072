#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""robustness: Wireshark's own robustness method on the Godot plugin (wireshark/README.md, "Robustness").

usage: robustness.py PLUGIN SESSIONS_DIR [--seeds N] [--randpkt N] [--count C] [--bound S] [--keep DIR]

PLUGIN is best an ASan+UBSan build (README: the bazel command); tshark is Debian's, not instrumented, so the
sanitizer's runtime is preloaded (LD_PRELOAD=$(gcc -print-file-name=libasan.so), ASAN_OPTIONS=detect_leaks=0).
  - every session of SESSIONS_DIR through `editcap -E 0.02 --seed K` for K = 1..N (2% of the bytes of every frame
    changed), then `tshark -V` with the plugin (every fourth seed also `tshark -2 -V`);
  - `randpkt -t udp -c C` files, M of them, read with "Decode As" ENet on every UDP port (-d udp.port==1-65535,enet)
    and the heuristics on;
each run must exit 0 within the bound (seconds), with no sanitizer report and no crash. A failing input is kept in
--keep DIR. It prints the iterations, the crashes, the sanitizer reports and the hangs, and exits 1 if any.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("plugin")
ap.add_argument("sessions")
ap.add_argument("--seeds", type=int, default=20)
ap.add_argument("--randpkt", type=int, default=20)
ap.add_argument("--count", type=int, default=2000)
ap.add_argument("--bound", type=float, default=60)
ap.add_argument("--keep", default="/tmp/gdw-wireshark-findings")
a = ap.parse_args()

work = tempfile.mkdtemp(prefix="gdw-ws-robust-")
os.chmod(work, 0o755)
home = os.path.join(work, "home")
dest = os.path.join(home, ".local/lib/wireshark/plugins/4.0/epan/godot.so")
subprocess.run(["install", "-D", "-m", "0755", a.plugin, dest], check=True)
for root, dirs, _ in os.walk(work):
    for d in dirs:
        os.chmod(os.path.join(root, d), 0o755)
as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
env = dict(os.environ, HOME=home, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=99",
           UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98")
asan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
if subprocess.run(["sh", "-c", f"ldd {a.plugin} | grep -q libasan"]).returncode == 0:
    env["LD_PRELOAD"] = asan

stats = {"runs": 0, "crashes": 0, "reports": 0, "hangs": 0, "slowest": 0.0}
os.makedirs(a.keep, exist_ok=True)


def run(what, pcap, *args):
    stats["runs"] += 1
    t = time.monotonic()
    try:
        p = subprocess.run(as_user + ["tshark", "-r", pcap, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=a.bound)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = None, "timeout"
    took = time.monotonic() - t
    stats["slowest"] = max(stats["slowest"], took)
    report = "AddressSanitizer" in err or "runtime error:" in err or "LeakSanitizer" in err
    if rc is None:
        stats["hangs"] += 1
    elif report:
        stats["reports"] += 1
    elif rc != 0:
        stats["crashes"] += 1
    else:
        return
    kept = os.path.join(a.keep, f"{what}.pcap")
    shutil.copyfile(pcap, kept)
    print(f"FINDING {what}: exit {rc}, kept {kept}\n{err[-3000:]}", flush=True)


# the plugin is loaded (a run that does not load it would prove nothing; `tshark -G plugins` hangs with ASan preloaded)
p = subprocess.run(as_user + ["tshark", "-G", "protocols"], capture_output=True, text=True, env=env, timeout=a.bound)
if "\tgodot\n" not in p.stdout:
    print(f"FAIL: tshark did not load {dest}: {p.stderr[:500]}")
    sys.exit(1)

start = time.monotonic()
sessions = sorted(f for f in os.listdir(a.sessions) if f.endswith(".pcap"))
for name in sessions:
    src = os.path.join(a.sessions, name)
    for seed in range(1, a.seeds + 1):
        out = os.path.join(work, f"{name[:-5]}-E{seed}.pcap")
        subprocess.run(["editcap", "-E", "0.02", "--seed", str(seed), src, out], check=True, capture_output=True)
        os.chmod(out, 0o644)
        run(f"{name[:-5]}-E0.02-seed{seed}", out, "-V")
        if seed % 4 == 0:
            run(f"{name[:-5]}-E0.02-seed{seed}-2pass", out, "-2", "-V")
        os.unlink(out)
editcap_runs = stats["runs"]
for k in range(a.randpkt):
    out = os.path.join(work, f"randpkt-{k}.pcap")
    subprocess.run(["randpkt", "-t", "udp", "-c", str(a.count), "-b", "1500", out], check=True, capture_output=True)
    os.chmod(out, 0o644)
    run(f"randpkt-udp-{k}", out, "-V", "-d", "udp.port==1-65535,enet")
    os.unlink(out)
took = time.monotonic() - start
shutil.rmtree(work, ignore_errors=True)
print(f"robustness: {'ASan+UBSan plugin' if 'LD_PRELOAD' in env else 'plugin (not instrumented)'}; "
      f"{editcap_runs} tshark runs of {len(sessions)} sessions x {a.seeds} editcap -E 0.02 seeds (every fourth also -2), "
      f"{stats['runs'] - editcap_runs} runs of randpkt -t udp files of {a.count} packets with Decode As ENet; "
      f"crashes {stats['crashes']}, sanitizer reports {stats['reports']}, hangs past {a.bound:.0f} s {stats['hangs']}; "
      f"slowest run {stats['slowest']:.1f} s; {took:.0f} s in all")
bad = stats["crashes"] + stats["reports"] + stats["hangs"]
print(f"{stats['runs'] - bad} passed, {bad} failed")  # a run is one check: no crash, no report, no hang
sys.exit(1 if bad else 0)

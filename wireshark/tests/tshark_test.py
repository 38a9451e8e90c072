#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tshark_test: the Godot dissector plugin inside Debian's tshark, on every real session of conformance/sessions/.

usage: tshark_test.py GDWIRE PLUGIN SESSIONS_DIR

The plugin is installed as wireshark/README.md says (install -D into $HOME/.local/lib/wireshark/plugins/4.0/epan/),
with HOME a temporary folder; `tshark -G protocols` must list Godot. Then for every session NAME.pcap:
  - `tshark -r NAME.pcap -Y godot -T fields -e frame.number -e godot.command -e godot.method_id -e godot.arg` (with the
    session's names file when it has one) gives, frame by frame, the same messages in the same order, with the same
    method ids and the same argument texts, as `gdwire capture --json`: the one the engines' logs are held against
    (//session:capture_test); and the RPCs it shows are as many as the engines logged putting on the wire;
  - the Info column of each frame is capture's text line of each of its messages (what follows the peers, the mode
    and the channel), ' | ' between them;
  - `tshark -2` (two passes) gives the same output as one pass; for ENet, with the heuristics off nothing is found,
    and "Decode As" ENet on the game's port (-d udp.port==PORT,enet) gives the same output again;
  - display filters: `godot.method == "hello"` (names file) finds the frames of capture's RPCs named hello,
    `godot.variant.type == "PackedByteArray"` those with a PackedByteArray value, `godot.relayed` the relayed ones.
    (The issue's example `godot.method == "hello"` is `godot.method == "three"` here: the sessions' games have no hello.)
Wireshark loads no personal plugin when run by root (wsutil: started_with_special_privs), so under root tshark runs
as nobody (setpriv), with copies of the files it reads.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

GDWIRE, PLUGIN, SESSIONS = sys.argv[1], sys.argv[2], sys.argv[3]
AGG = "\x1f"  # the aggregator between a field's occurrences: a byte no argument text holds
failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL:", what)


work = tempfile.mkdtemp(prefix="gdw-tshark-")
os.chmod(work, 0o755)
HOME = os.path.join(work, "home")
os.makedirs(HOME)
# the documented install command (wireshark/README.md, "Install")
subprocess.run(["install", "-D", "-m", "0755", PLUGIN, os.path.join(HOME, ".local/lib/wireshark/plugins/4.0/epan/godot.so")], check=True)
for root, dirs, files in os.walk(work):
    for d in dirs:
        os.chmod(os.path.join(root, d), 0o755)
AS_USER = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
ENV = dict(os.environ, HOME=HOME, LC_ALL="C.UTF-8")


def readable(path):
    """A copy of path that nobody can read."""
    out = os.path.join(work, os.path.basename(path))
    if not os.path.exists(out):
        shutil.copyfile(path, out)
        os.chmod(out, 0o644)
    return out


def tshark(*args, timeout=300):
    p = subprocess.run(AS_USER + ["tshark", *args], capture_output=True, env=ENV, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


rc, out, err = tshark("-G", "protocols")
check(rc == 0 and any("godot" in line.lower() for line in out.splitlines()), f"tshark -G protocols lists no Godot: {err[:300]}")
check("\tgodot\t" in out or out.endswith("\tgodot\n") or "\tgodot\n" in out, "tshark -G protocols: no protocol filter name 'godot'")


def capture(pcap, names):
    p = subprocess.run([GDWIRE, "capture", "--json", *(["--names", names] if names else []), pcap], capture_output=True, text=True)
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


LINE = re.compile(r"^\s*[0-9.]+  #\d+ \S+  \S+ -> \S+(?: \(relayed\))?  \S+ ch\d+  (.*)$")


def info_expected(path, names, msgs):
    """frame -> the Info column capture's text lines make: each message's command and what it carries, ' | ' between."""
    p = subprocess.run([GDWIRE, "capture", "--no-summary", *(["--names", names] if names else []), path], capture_output=True, text=True)
    lines = [m.group(1) for m in map(LINE.match, p.stdout.splitlines()) if m]
    check(len(lines) == len(msgs), f"{path}: capture printed {len(lines)} message lines for {len(msgs)} messages")
    want = collections.OrderedDict()
    for m, line in zip(msgs, lines):
        want.setdefault(m["frame"], []).append(line)
    return {f: " | ".join(v) for f, v in want.items()}


def server_port(out):
    """The game's port: the server end of capture's first flow ("127.0.0.1:40041 -> 127.0.0.1:26942")."""
    summary = [o for o in out if o["type"] == "summary"][0]
    return summary["flow_list"][0]["endpoints"].rsplit(":", 1)[1]


def fields(pcap, names, *extra):
    opts = ["-o", "godot.names_file:" + readable(names)] if names else []
    rc, out, err = tshark("-r", readable(pcap), *opts, *extra, "-Y", "godot", "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
                          "-E", "aggregator=" + AGG, "-e", "frame.number", "-e", "godot.command", "-e", "godot.method_id", "-e", "godot.arg")
    check(rc == 0, f"{pcap}: tshark exit {rc}: {err[:300]}")
    return out


def frames_of(out):
    """frame -> (commands, method ids, argument texts) as tshark printed them (frames without a Godot message left out)."""
    got = collections.OrderedDict()
    for line in out.split("\n"):
        if not line:
            continue
        cols = line.split("\t")
        cols += [""] * (4 - len(cols))
        split = lambda s: s.split(AGG) if s else []
        if not cols[1]:
            continue
        got[int(cols[0])] = (split(cols[1]), split(cols[2]), split(cols[3]))
    return got


def expected(msgs):
    want = collections.OrderedDict()
    for m in msgs:
        c, ids, args = want.setdefault(m["frame"], ([], [], []))
        c.append(m["command"])
        if m["command"] in ("rpc", "rset") and m.get("method_id", -1) >= 0:
            ids.append(str(m["method_id"]))
        args.extend(v.get("text", "") for v in m["values"] if "text" in v)
    return want


def logged_rpcs(name, msgs):
    """The RPC messages the engines' logs put on the wire: a broadcast one a client, a relay two legs (capture_test's count)."""
    log = [json.loads(line) for line in open(os.path.join(SESSIONS, name + ".log"), encoding="utf-8")]
    if any(e["event"] == "start" and e.get("transport") == "tcp" for e in log):
        return sum(e["event"] == "var_sent" for e in log)
    clients = sorted({e["peer"] for e in log if e["event"] == "peer_connected" and e["peer"] != 1})
    legs = 0
    for e in (e for e in log if e["event"] in ("rpc_sent", "rset_sent")):
        targets = [c for c in clients if c != e["from"]] + ([1] if e["from"] != 1 else []) if e["to"] == 0 else [e["to"]]
        legs += sum(2 if e["from"] != 1 and to != 1 else 1 for to in targets)
    return legs


table = []
names_any = None
for pcap in sorted(f for f in os.listdir(SESSIONS) if f.endswith(".pcap")):
    name = pcap[:-5]
    path = os.path.join(SESSIONS, pcap)
    names = os.path.join(SESSIONS, name + ".names.tsv")
    names = names if os.path.exists(names) else None
    out = capture(path, names)
    msgs = [o for o in out if o["type"] == "message"]
    one = fields(path, names)
    two = fields(path, names, "-2")
    check(one == two, f"{name}: tshark -2 and one pass differ")
    # the Info column reads like capture's line (the part after the peers, mode and channel)
    opts = ["-o", "godot.names_file:" + readable(names)] if names else []
    rc, out_info, err = tshark("-r", readable(path), *opts, "-Y", "godot.command", "-T", "fields", "-E", "separator=\t", "-e", "frame.number",
                               "-e", "_ws.col.Info")
    got_info = {int(l.split("\t", 1)[0]): l.split("\t", 1)[1] for l in out_info.split("\n") if "\t" in l}
    want_info = info_expected(path, names, msgs)
    # (Wireshark keeps 4,095 bytes of a column, COL_MAX_INFO_LEN: a longer line is its start)
    same = lambda g, w: g == w or (g is not None and w is not None and len(g.encode()) >= 4000 and w.startswith(g.rstrip("…")))
    bad_info = [f for f in sorted(set(got_info) | set(want_info)) if not same(got_info.get(f), want_info.get(f))]
    for f in bad_info[:3]:
        g, w = got_info.get(f, ""), want_info.get(f, "")
        at = next((i for i in range(min(len(g), len(w))) if g[i] != w[i]), min(len(g), len(w)))
        print(f"  {name} frame {f} Info, {len(g)} and {len(w)} characters, apart from {at}:\n    tshark  ...{g[max(0, at - 60):at + 80]}\n"
              f"    capture ...{w[max(0, at - 60):at + 80]}")
    check(not bad_info, f"{name}: the Info column differs from capture's line in {len(bad_info)} frames")
    if "-enet" in name:
        # the heuristics off, nothing is Godot's; then "Decode As" ENet on the game's port reads it all the same
        check(fields(path, names, "-o", "godot.heuristic:FALSE") == "", f"{name}: the heuristics off, tshark still finds Godot")
        decoded = fields(path, names, "-o", "godot.heuristic:FALSE", "-d", f"udp.port=={server_port(out)},enet")
        check(decoded == one, f"{name}: Decode As ENet on port {server_port(out)} differs from the heuristic's reading")
    got, want = frames_of(one), expected(msgs)
    shown = sum(len(c) for c, _, _ in got.values())
    bad = [f for f in sorted(set(got) | set(want)) if got.get(f) != want.get(f)]
    for f in bad[:5]:
        g, w = got.get(f, ([], [], [])), want.get(f, ([], [], []))
        print(f"  {name} frame {f}: tshark {g[0]} {g[1]} {[a[:60] for a in g[2]]}\n  {' ' * len(name)}   capture {w[0]} {w[1]} {[a[:60] for a in w[2]]}")
    check(not bad, f"{name}: {len(bad)} frames differ between tshark and gdwire capture")
    rpcs_t = sum(c.count("rpc") + c.count("rset") + c.count("var") for c, _, _ in got.values())
    rpcs_c = sum(m["command"] in ("rpc", "rset", "var") for m in msgs)
    logged = logged_rpcs(name, msgs)
    check(rpcs_t == logged, f"{name}: tshark shows {rpcs_t} RPCs, the engines logged {logged}")
    table.append((name, shown, len(msgs), rpcs_t, rpcs_c, logged))
    if names and names_any is None:
        names_any = (path, names, msgs)

    # display filters on real sessions
    def frames_matching(flt, extra=()):
        rc, out, err = tshark("-r", readable(path), *extra, "-Y", flt, "-T", "fields", "-e", "frame.number")
        check(rc == 0, f"{name}: -Y '{flt}': exit {rc}: {err[:200]}")
        return sorted({int(x) for x in out.split()})
    pba = sorted({m["frame"] for m in msgs if any(v.get("value") is not None and v.get("text", "").startswith("PackedByteArray(")
                                                     for v in m["values"])})
    if pba:
        check(frames_matching('godot.variant.type == "PackedByteArray"') == pba, f"{name}: godot.variant.type == \"PackedByteArray\"")
    relayed = sorted({m["frame"] for m in msgs if m["relayed"]})
    check(frames_matching("godot.relayed") == relayed, f"{name}: godot.relayed: want frames {relayed[:10]}")
    # a method by name: Godot 4 through the names file, Godot 3 by the name it sends (the sessions' games have no
    # "hello"; their "three" takes three arguments)
    three = sorted({m["frame"] for m in msgs if m.get("method") == "three"})
    if three:
        check(frames_matching('godot.method == "three"', ("-o", "godot.names_file:" + readable(names)) if names else ()) == three,
              f"{name}: godot.method == \"three\"{' with the names file' if names else ''}: want frames {three}")

print("session                  tshark messages / capture messages; RPCs: tshark / capture / engines logged")
for name, shown, n, rt, rc_, lg in table:
    print(f"{name:24} {shown:5} / {n:5};  {rt:4} / {rc_:4} / {lg:4}")
shutil.rmtree(work, ignore_errors=True)
print(f"{checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)

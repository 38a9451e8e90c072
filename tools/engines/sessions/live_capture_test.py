#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""live_capture_test: `gdwire capture -i lo` on a real Godot 4.6.3 ENet session as it happens (issue 57, section 4).

usage: live_capture_test.py GDWIRE MAKE_SESSION

`gdwire capture -i lo --filter 'udp port P' --json --names` runs while make_session.sh plays a server and two
clients of Godot 4.6.3 on port P (without tcpdump: the engines' logs only), and is stopped with SIGINT when they quit.
Held against the engines' logs, as capture_test holds a capture file:
  - every RPC a peer logged sending is a message of the live output: from, to, node path, method name, and its
    arguments, which gdwire writes again as an Array and whose bytes must be the engine's own var_to_bytes of them
    (SHA-256); a broadcast is one message to each client, a relay two legs; no RPC is there that no peer sent;
  - the lines came as the messages did: the first message line was read while the engines still ran;
  - SIGINT ends the capture with its summary and exit status 0, and no problem.
Needs root (or CAP_NET_RAW and CAP_NET_ADMIN), libpcap (libpcap0.8) and the engine (tools/engines/setup)."""
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

GDWIRE, MAKE_SESSION = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def encode_hex(texts):
    p = subprocess.run([GDWIRE, "encode", "-d", "godot4", "--hex", "--lines", "-"], input="\n".join(texts) + "\n", capture_output=True,
                       text=True, check=True)
    return [bytes.fromhex(line.replace(" ", "")) for line in p.stdout.splitlines()]


port = 20000 + os.getpid() % 20000
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "live")
    # the names file is written by the game when it starts; the capture reads the method ids' names from it after
    # the fact (below), so the live run needs none
    cap = subprocess.Popen([GDWIRE, "capture", "-i", "lo", "--filter", f"udp port {port}", "--json"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    lines, arrived = [], []

    def read():
        for line in cap.stdout:
            lines.append(line)
            arrived.append(time.monotonic())
    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(1.0)  # libpcap is listening
    if cap.poll() is not None:
        err = cap.stderr.read()
        print(f"FAIL: gdwire capture -i lo did not start: {err.strip()}")
        print("0 passed, 1 failed")
        sys.exit(1)
    env = dict(os.environ, GDW_SESSION_NO_PCAP="1", GDW_SESSION_PORT=str(port))
    ran = subprocess.run(["bash", MAKE_SESSION, "godot4.6", "enet", out], env=env, capture_output=True, text=True)
    engines_done = time.monotonic()
    check(ran.returncode == 0, f"the engines' session failed: {ran.stderr[-600:]}")
    time.sleep(0.5)
    cap.send_signal(signal.SIGINT)
    try:
        rc = cap.wait(timeout=20)
    except subprocess.TimeoutExpired:
        cap.kill()
        rc = None
    reader.join(timeout=5)
    err = cap.stderr.read()
    check(rc == 0, f"gdwire capture -i lo after SIGINT: exit {rc}: {err[-400:]}")
    out_objs = [json.loads(line) for line in lines if line.strip()]
    msgs = [o for o in out_objs if o["type"] == "message"]
    problems = [o for o in out_objs if o["type"] == "problem"]
    summary = [o for o in out_objs if o["type"] == "summary"]
    check(len(summary) == 1 and not problems, f"{len(summary)} summaries, problems {problems[:2]}")
    first = next((t for line, t in zip(lines, arrived) if '"type":"message"' in line), None)
    check(first is not None and first < engines_done, "no message line was read while the engines ran (the lines are not flushed as they come)")
    log = [json.loads(line) for line in open(out + ".log", encoding="utf-8")] if os.path.exists(out + ".log") else []
    names = {}
    if os.path.exists(out + ".names.tsv"):
        for line in open(out + ".names.tsv", encoding="utf-8"):
            f = line.rstrip("\n").split("\t")
            if len(f) == 4 and f[0] == "rpc":
                names[(f[1], int(f[2]))] = f[3]
    rpcs = [m for m in msgs if m["command"] == "rpc"]
    for m, b in zip(rpcs, encode_hex(["[" + ", ".join(v["text"] for v in m["values"]) + "]" for m in rpcs]) if rpcs else []):
        m["args_sha256"] = hashlib.sha256(b).hexdigest()
        m["name"] = names.get((m["path"], m["method_id"])) or names.get(("*", m["method_id"]))
    clients = sorted({e["peer"] for e in log if e["event"] == "peer_connected" and e["peer"] != 1})
    used, legs = set(), 0
    sent = [e for e in log if e["event"] == "rpc_sent"]
    for e in sent:
        targets = [c for c in clients if c != e["from"]] + ([1] if e["from"] != 1 else []) if e["to"] == 0 else [e["to"]]
        for to in targets:
            relayed = e["from"] != 1 and to != 1
            for _ in range(2 if relayed else 1):
                legs += 1
                hit = next((i for i, m in enumerate(rpcs) if i not in used and m["from"] == e["from"] and m["to"] == to and m["relayed"] == relayed
                            and m["path"] == e["path"] and m["name"] == e["method"] and m["args_sha256"] == e["args_sha256"]), None)
                check(hit is not None, f"sent {e['method']} from {e['from']} to {to}: not in the live capture")
                if hit is not None:
                    used.add(hit)
    check(len(sent) >= 40 and len(used) == len(rpcs), f"{len(sent)} RPCs logged sent; {len(rpcs) - len(used)} RPCs captured that no peer sent")
    s = summary[0] if summary else {}
    print(f"gdwire capture -i lo, live on a Godot 4.6.3 session (port {port}): {len(sent)} RPCs sent ({legs} messages on the wire), "
          f"all found with their arguments among {len(msgs)} messages of {s.get('frames')} frames; the first message line read "
          f"{(engines_done - first) if first else 0:.1f} s before the engines quit; SIGINT: exit {rc}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""engine_actions_test.py GDWIRE RUN SESSIONS_DIR — the guard's two actions that reach a real Godot 4.6.3 server,
measured (guard/README.md "Actions"):

  1. Replace. The honest session of tools/engines/sessions/ (session4.gd: a server and two clients; game4.gd's RPCs)
     plays through `gdwire guard` with variant.max_bytes 65,536, so that client a's 100,000-byte reliable `blob` (a
     fragmented message) and its 80,012-byte unreliable `big_unreliable` break a rule. Held to the engines' own logs:
     the guard logs exactly those two (the reliable one replaced, the unreliable one dropped); the server received every
     other RPC the clients sent it, the ones after the replaced message on its channel included (so ENet's reliable
     channel went on); the server's only complaint is SceneMultiplayer's refusal of the harmless head at its first bytes
     (_process_sys); every engine ran to its end.
     And whole (unfragmented) reliable messages: with variant.max_depth 1, a's two nested arguments are replaced by
     the harmless 07 00, every other RPC is received, a's after them included, and the server prints nothing.
  3. --ws. The same session over WebSocket through `gdwire guard --ws` with the same policy: the two messages are
     dropped whole, every other RPC received, and the server never complains (it never saw them).
  2. Cut. The same clients against a server that prints when SceneMultiplayer admits and frees a peer
     (peers_server4.gd), through the guard with actions.cut_after 1: the peer the guard cuts off is freed by the
     server (peer_disconnected) within 2 s of the cut, by the forged DISCONNECT; without it the server would notice
     only at ENet's peer timeout (at least ENET_PEER_TIMEOUT_MINIMUM, 5,000 ms: enet.h), while the guard, which drops
     the client's datagrams, keeps the client itself from telling it.

Needs the engine (tools/engines/setup); without it the test skips (fails under GDW_NO_SKIP=1). Every process has a
timeout; the whole test takes about 40 s."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

GDWIRE, RUN, SESSIONS = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]

failures = 0
passes = 0


def check(cond, what):
    global failures, passes
    passes += 1 if cond else 0
    if not cond:
        failures += 1
        print("FAIL", what)


def skip(why):
    if os.environ.get("GDW_NO_SKIP") == "1":
        print("FAIL: %s (GDW_NO_SKIP=1: a skip is a failure here)\n0 passed, 1 failed" % why)
        sys.exit(1)
    print("SKIP: %s; nothing checked\n0 passed, 0 failed, 1 skipped" % why)
    sys.exit(0)


probe = subprocess.run([RUN, "godot4.6", "--version"], capture_output=True, text=True, timeout=60)
if probe.returncode != 0 or "4.6" not in probe.stdout:
    skip("no Godot 4.6.3 (tools/engines/setup)")

work = tempfile.mkdtemp()
for f in ("session4.gd", "game4.gd"):
    shutil.copy(os.path.join(SESSIONS, f), work)
shutil.copy(os.path.abspath("tools/capture/gdwire_names.gd"), work)  # session4.gd's server writes the names with it
shutil.copy(os.path.abspath("guard/tests/peers_server4.gd"), work)
open(os.path.join(work, "project.godot"), "w").write("config_version=5\n")
env = dict(os.environ, HOME=work, XDG_DATA_HOME=work, XDG_CONFIG_HOME=work, XDG_CACHE_HOME=work)


def engine(args, out, seconds):
    return subprocess.Popen(["timeout", str(seconds), RUN, "godot4.6", "--headless", "--path", work] + args,
                            stdout=open(out, "w"), stderr=subprocess.STDOUT, cwd=work, env=env)


def guard(listen, upstream, policy, log):
    pol = os.path.join(work, os.path.basename(log) + ".yaml")
    open(pol, "w").write(policy)
    return subprocess.Popen([GDWIRE, "guard", "--listen", "127.0.0.1:%d" % listen, "--upstream", "127.0.0.1:%d" % upstream,
                             "--policy", pol, "--json", "--log", log, "--duration", "40"])


def jlines(path):
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.strip()
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def stop(p):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()


base = 20000 + os.getpid() % 20000


def session_through_guard(tag, sp, gp, policy, transport, guard_args=()):
    """The honest session through the guard; the three peers' logs, the guard's actions, the server's complaints."""
    glog = os.path.join(work, tag + ".log")
    pol = os.path.join(work, tag + ".yaml")
    open(pol, "w").write(policy)
    g = subprocess.Popen([GDWIRE, "guard", "--listen", "127.0.0.1:%d" % gp, "--upstream", "127.0.0.1:%d" % sp, "--policy", pol, "--json",
                          "--log", glog, "--duration", "40"] + list(guard_args))
    time.sleep(0.2)
    logs = {r: os.path.join(work, "%s-%s.log" % (tag, r)) for r in ("server", "a", "b")}
    procs = {"server": engine(["--script", "res://session4.gd", "--", "server", str(sp), logs["server"], transport],
                              os.path.join(work, tag + "-server.out"), 40)}
    time.sleep(1.0)
    procs["a"] = engine(["--script", "res://session4.gd", "--", "a", str(gp), logs["a"], transport], os.path.join(work, tag + "-a.out"), 40)
    time.sleep(0.3)
    procs["b"] = engine(["--script", "res://session4.gd", "--", "b", str(gp), logs["b"], transport], os.path.join(work, tag + "-b.out"), 40)
    rcs = {k: p.wait(60) for k, p in procs.items()}
    stop(g)
    check(all(rc == 0 for rc in rcs.values()), "%s: the engines' exits: %r" % (tag, rcs))
    log = [e for r in ("server", "a", "b") if os.path.exists(logs[r]) for e in jlines(logs[r])]
    acts = [e for e in jlines(glog) if e["type"] == "action"]
    out = open(os.path.join(work, tag + "-server.out"), errors="replace").read().splitlines()
    errs = [l for l in out if (l.startswith("ERROR") or l.startswith("SCRIPT ERROR")) and "locale" not in l]
    return log, acts, errs, [l for l in out if "_process_sys" in l]


def received_all_but_judged(tag, log):
    """Every RPC the clients sent the server, but the two over 65,536 bytes, was received; and what a sent after them."""
    sent = [e for e in log if e["event"] == "rpc_sent" and e["from"] != 1 and e["to"] == 1]
    recv = [(e["from"], e["method"], e["args_sha256"]) for e in log if e["event"] == "rpc_received" and e["by"] == 1]
    judged = [e for e in sent if e["args_size"] > 65536]
    missing = [e["method"] for e in sent if e["args_size"] <= 65536 and (e["from"], e["method"], e["args_sha256"]) not in recv]
    check(len(judged) == 2 and not missing, "%s: RPCs the server did not receive: %r (the judged: %r)" % (tag, missing, [e["method"] for e in judged]))
    a_id = judged[0]["from"] if judged else None
    got_by = {(e["by"], e["from"], e["method"], e["args_sha256"]) for e in log if e["event"] == "rpc_received"}
    last = max(x["seq"] for x in judged) if judged else 1 << 30
    after = [e for e in log if e["event"] == "rpc_sent" and e["from"] == a_id and e["seq"] > last]
    lost = [e["method"] for e in after if (e["to"], e["from"], e["method"], e["args_sha256"]) not in got_by]
    check(len(after) >= 1 and not lost, "%s: a's RPCs after the judged ones: %d, not received: %r" % (tag, len(after), lost))
    return sent, a_id, after


# ---- 1. replace -------------------------------------------------------------------------------------------------
log, acts, errs, where = session_through_guard("replace", base, base + 1, "variant:\n  max_bytes: 65536\n", "enet")
sent, a_id, after = received_all_but_judged("replace", log)
want = {("replace", "reliable", "value_bytes"), ("drop", "unreliable_ordered", "value_bytes")}
got = {(e["action"], e["mode"], e["rule"]) for e in acts}
check(len(acts) == 2 and got == want and all(e["from"] == a_id for e in acts), "the guard's actions: %r" % acts)
check(len(errs) == 1 and len(where) == 1, "the server's complaints: %r %r" % (errs, where))
print("replace: %d RPCs sent to the server, %d judged by the guard (%s), every other one received, %d of a's after them; "
      "the server's one complaint: %s" % (len(sent), len(acts), ", ".join("%s %s" % (e["action"], e["mode"]) for e in acts),
                                          len(after), where[0].strip() if where else "none"))

# ---- 1b. replace a whole (unfragmented) reliable message: variant.max_depth 1 breaks a's two nested arguments
# ([1, "a", [true]] and {"k": 2, 3: [4.5]}, game4.gd's `one`); each is replaced by the harmless packet, which 4.6.3's
# SceneMultiplayer drops silently (an admitted peer's SYS AUTH of exactly 2 bytes, scene_multiplayer.cpp:122-127); the
# channel goes on: every other RPC is received, a's after them included -----------------------------------------------
log, acts, errs, where = session_through_guard("whole", base + 6, base + 7, "variant:\n  max_depth: 1\n", "enet")
sent = [e for e in log if e["event"] == "rpc_sent" and e["from"] != 1 and e["to"] == 1]
recv = [(e["from"], e["method"], e["args_sha256"]) for e in log if e["event"] == "rpc_received" and e["by"] == 1]
missing = [e for e in sent if (e["from"], e["method"], e["args_sha256"]) not in recv]
check(len(acts) == 2 and all((e["action"], e["mode"], e["rule"]) == ("replace", "reliable", "depth") for e in acts),
      "whole: the guard's actions: %r" % acts)
check(len(missing) == 2 and all(e["method"] == "one" for e in missing), "whole: the RPCs the server did not receive: %r" % missing)
later = [e for e in sent if missing and e["from"] == missing[0]["from"] and e["seq"] > max(m["seq"] for m in missing)]
check(len(later) >= 5 and not [e for e in later if e in missing], "whole: a's RPCs after the replaced ones: %d" % len(later))
check(not errs, "whole: the server's complaints: %r" % errs)
print("whole: %d RPCs sent to the server, %d replaced by the guard, the other %d received (%d of a's after them); "
      "the server's complaints: %r" % (len(sent), len(acts), len(sent) - len(missing), len(later), errs))

# ---- 2. cut -----------------------------------------------------------------------------------------------------
sp, gp = base + 2, base + 3
glog = os.path.join(work, "cut.log")
g = guard(gp, sp, "variant:\n  max_bytes: 65536\nactions:\n  cut_after: 1\n", glog)
server = engine(["--script", "res://peers_server4.gd", "--", str(sp), "12"], os.path.join(work, "peers.out"), 30)
time.sleep(1.0)
clients = [engine(["--script", "res://session4.gd", "--", r, str(gp), os.path.join(work, "cut-%s.log" % r), "enet"],
                  os.path.join(work, "cut-%s.out" % r), 14) for r in ("a", "b")]
seen_cut = None  # the system's clock when the guard's cut line was first seen (at most 20 ms after it was written)
end = time.time() + 40
while server.poll() is None and time.time() < end:
    if seen_cut is None and os.path.exists(glog) and '"action":"cut"' in open(glog).read():
        seen_cut = time.time()
    time.sleep(0.02)
stop(server)
for c in clients:
    stop(c)
stop(g)
ev = jlines(os.path.join(work, "peers.out"))
cuts = [e for e in jlines(glog) if e["type"] == "action" and e["action"] == "cut"]
check(len(cuts) == 1 and seen_cut is not None, "the guard's cuts: %r" % cuts)
if cuts and seen_cut is not None:
    peer = cuts[0]["from"]
    freed = [e for e in ev if e["event"] == "peer_disconnected" and e["peer"] == peer]
    check(len(freed) == 1, "the server never freed the cut peer %d: %r" % (peer, ev))
    if freed:
        lag = freed[0]["unix"] - seen_cut  # the same clock: the engine's read of the system's, and the test's
        check(lag < 2.0, "the server freed the peer %.2f s after the cut (ENet's own timeout is at least 5 s)" % lag)
        print("cut: peer %d cut by the guard (rule %s); the server's SceneMultiplayer freed it %.2f s after the cut was "
              "logged (ENet's own timeout is at least 5 s)" % (peer, cuts[0]["rule"], lag))
# ---- 3. --ws: the same session over WebSocket: a message that breaks a rule is dropped whole (TCP keeps no sequence
# numbers a guard must fill); the server never sees it, nor complains ----------------------------------------------
log, acts, errs, where = session_through_guard("ws", base + 4, base + 5, "variant:\n  max_bytes: 65536\n", "ws", ["--ws"])
sent, a_id, after = received_all_but_judged("ws", log)
check(len(acts) == 2 and all(e["action"] == "drop" and e["rule"] == "value_bytes" for e in acts), "--ws: the guard's actions: %r" % acts)
check(not errs, "--ws: the server's complaints: %r" % errs)
print("ws: %d RPCs sent to the server over WebSocket, %d dropped by the guard, every other one received, no complaint" % (len(sent), len(acts)))
print("%d passed, %d failed" % (passes, failures))
sys.exit(1 if failures else 0)

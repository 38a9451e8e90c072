#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wire_table.py GDWIRE PREFIX [OUT]: the ground-truth table of a test project's run (run_project.sh), from
what the engines put on the wire and what they logged: PREFIX.pcap read by `GDWIRE capture --json`, and
PREFIX.log. Writes OUT (default PREFIX.wire.tsv), one row per fact, columns

    kind  sender  path  name  id  md5  checksum_ok  transfer_mode  channel  ran  ran_locally

- node: a SIMPLIFY_PATH the sender (server or client) sent for PATH: md5 is the MD5 on the wire, checksum_ok
  what the receiver's CONFIRM_PATH said of it.
- rpc: an RPC the sender's log says it sent (PATH, method NAME), paired with the RPC message on the wire that
  carries it: id is the method id on the wire (Godot 4; "-" for Godot 3, which sends NAME itself, checked
  equal), transfer_mode and channel as on the wire, ran the method the receiving engine ran for it (from the
  receiver's log; "-" when it ran none; Godot 3: "refused (mode N)" when the receiver said so, with its mode
  number, 0 disabled, 1 remote, 2 master, 3 puppet, 4 remotesync, 5 mastersync, 6 puppetsync; "not sent" when
  the sender's engine put nothing on the wire), ran_locally whether the sender's own engine ran it too.
- rset (Godot 3): a remote property set the sender logged, paired with the wire's; ran as for rpc.
- spawn, sync, watch: a replicated property of the synchronizer at PATH and its index in the SPAWN state,
  the SYNC state or the DELTA mask (the bit), found by value: the server's log gives each property a
  value no other has.

The pairing is checked, not assumed: each direction's RPC messages are in the order the sender logged them
(the harness sends them 30 ms apart), their path and argument count must agree, and every argument must
equal the engine's own bytes of it (var_to_bytes; an int or bool by value, as the wire compresses them).
Exit status 1 with a message when something does not agree. Peer ids, ports and frames are left out, so two
runs of the same project give the same table.
"""
import json
import re
import subprocess
import sys

COLUMNS = ["kind", "sender", "path", "name", "id", "md5", "checksum_ok", "transfer_mode", "channel", "ran", "ran_locally"]


def fail(msg):
    sys.stderr.write("wire_table.py: %s\n" % msg)
    sys.exit(1)


# Godot 3's receiver, refusing a call or a set (core/io/multiplayer_api.cpp:285 and :337 in 3.6.2; 3.2.3 puts the
# function's name first: "ERROR: _process_rpc: RPC '...")
REFUSAL = re.compile(r"^ERROR: (?:_process_rpc: |_process_rset: )?(RPC|RSET) '(.*)' is not allowed on node /root/(.*) from: (-?\d+)\. Mode is (\d+), master is -?\d+\.$")


def read_log(path):
    """The server's and the client's log lines, and each role's engine output."""
    server, client = [], []
    output = {"server": [], "client": []}
    role = None
    for line in open(path, encoding="utf-8"):
        d = json.loads(line)
        if d.get("event") == "engine_output":
            output[d["role"]].append(d["line"])
            continue
        if d.get("event") == "start":
            role = d["role"]
        (server if role == "server" else client).append(d)
    return server, client, output


def same_value(wire, logged):
    """A wire argument (gdwire's JSON) against the engine's own bytes of it."""
    plain = logged.get("value", logged.get("int"))  # an int or bool: compressed on the wire, compared by value
    if plain is not None:
        return wire["value"]["type"] in ("int", "bool") and wire["value"]["value"] == plain
    return wire["hex"] == logged["hex"]


def first_run(runs, used, sent, same_method_only=False):
    """The method of the first unused run of SENT's node with SENT's very arguments, one of SENT's method first,
    then (unless SAME_METHOD_ONLY) of any method: Godot 4's mismatch pair runs another method than the one called
    (Godot 3 sends the name: it runs that method or none)."""
    for same_method in (True, False) if not same_method_only else (True,):
        for i, r in enumerate(runs):
            if i not in used and r["path"] == sent["path"] and r["args"] == sent["args"] and \
                    (r["method"] == sent["method"] or not same_method):
                used.add(i)
                return r["method"]
    return "-"


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: wire_table.py GDWIRE PREFIX [OUT]")
    gdwire, prefix = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) == 4 else prefix + ".wire.tsv"
    server_log, client_log, output = read_log(prefix + ".log")
    client_id = next((d["id"] for d in client_log if d.get("event") == "connected"), None)
    if client_id is None:
        fail("the client's log has no connected event")
    role_of = {1: "server", client_id: "client"}
    run = subprocess.run([gdwire, "capture", "--json", prefix + ".pcap"], capture_output=True, text=True)
    if run.returncode != 0:
        fail("gdwire capture failed: " + run.stderr)
    messages = [json.loads(l) for l in run.stdout.splitlines()]
    messages = [m for m in messages if m["type"] == "message"]
    godot3 = any(m["dialect"].startswith("godot3") for m in messages)
    rows = []

    # node: SIMPLIFY_PATH and the CONFIRM_PATH that answered it
    confirms = {(m["from"], m["node_id"]): m["checksum_valid"] for m in messages if m["command"] == "confirm_path" and not godot3}
    for m in messages:
        if m["command"] != "simplify_path":
            continue
        receiver = m["to"]
        ok = confirms.get((receiver, m["node_id"]))
        rows.append({"kind": "node", "sender": role_of[m["from"]], "path": m["path"],
                     "md5": m.get("md5") or "-", "checksum_ok": "-" if ok is None else str(ok).lower()})

    # rpc: each direction's sends, in order, against its RPC messages
    for sender_log, receiver_log in ((server_log, client_log), (client_log, server_log)):
        if not sender_log:
            continue
        sender = sender_log[0]["role"]
        sender_id = 1 if sender == "server" else client_id
        sent = [d for d in sender_log if d.get("event") == "rpc_sent"]
        wire = [m for m in messages if m["command"] == "rpc" and m["from"] == sender_id]
        receiver = "client" if sender == "server" else "server"
        received = [d for d in receiver_log if d.get("event") == "rpc_received" and d["from"] == sender_id]
        local = [d for d in sender_log if d.get("event") == "rpc_received" and d["from"] == sender_id]
        refusals = [m.groups() for m in map(REFUSAL.match, output[receiver]) if m]
        used, used_local = set(), set()
        at = 0
        for s in sent:
            w = wire[at] if at < len(wire) else None
            # Godot 3 sends no master call from the master and no mastersync call from the master: it only runs
            # them locally (_should_call_local, core/io/multiplayer_api.cpp:40-70 in 3.6.2); its wire names the
            # method, so a send the wire does not hold is seen as such. Godot 4 sends every one.
            if godot3 and (w is None or (w["path"], w.get("method")) != (s["path"], s["method"])):
                w = None
            elif w is None:
                fail("%s's RPC seq %d (%s.%s) is not on the wire" % (sender, s["seq"], s["path"], s["method"]))
            else:
                at += 1
                if w["path"] != s["path"]:
                    fail("%s's RPC seq %d: logged path %s, wire path %s (frame %d)" % (sender, s["seq"], s["path"], w["path"], w["frame"]))
                args = [v for v in w["values"] if v.get("label") == "arg"]
                if len(args) != len(s["each"]) or not all(same_value(a, e) for a, e in zip(args, s["each"])):
                    fail("%s's RPC seq %d (%s.%s): the wire's arguments (frame %d) are not the logged ones" % (sender, s["seq"], s["path"], s["method"], w["frame"]))
            refused = [r for r in refusals if r[:4] == ("RPC", s["method"], s["path"], str(sender_id))]
            if w is None:
                ran = "not sent"
            elif refused:
                ran = "refused (mode %s)" % refused[0][4]
                refusals.remove(refused[0])
            else:
                ran = first_run(received, used, s, godot3)
            rows.append({"kind": "rpc", "sender": sender, "path": s["path"], "name": s["method"],
                         "id": "-" if godot3 or w is None else str(w["method_id"]),
                         "transfer_mode": w["mode"] if w else "-", "channel": str(w["channel"]) if w else "-",
                         "ran": ran, "ran_locally": "false" if first_run(local, used_local, s, True) == "-" else "true"})
        if at != len(wire):
            fail("%s: %d RPC messages on the wire that its log does not hold" % (sender, len(wire) - at))

    # Godot 3: each rset the sender logged, against the wire's, and whether the receiver refused it
    for sender_log in (server_log, client_log):
        sender = sender_log[0]["role"]
        sender_id = 1 if sender == "server" else client_id
        sent = [d for d in sender_log if d.get("event") == "rset_sent"]
        wire = [m for m in messages if m["command"] == "rset" and m["from"] == sender_id]
        if len(sent) != len(wire):
            fail("%s logged %d rsets, the wire has %d from it" % (sender, len(sent), len(wire)))
        receiver = "client" if sender == "server" else "server"
        refusals = [m.groups() for m in map(REFUSAL.match, output[receiver]) if m]
        for s, w in zip(sent, wire):
            if (w["path"], w.get("method")) != (s["path"], s["property"]) or [v["hex"] for v in w["values"]] != [s["hex"]]:
                fail("%s's rset seq %d (%s:%s) is not the wire's (frame %d)" % (sender, s["seq"], s["path"], s["property"], w["frame"]))
            refused = [r for r in refusals if r[:4] == ("RSET", s["property"], s["path"], str(sender_id))]
            rows.append({"kind": "rset", "sender": sender, "path": s["path"], "name": s["property"], "id": "-",
                         "transfer_mode": w["mode"], "channel": str(w["channel"]),
                         "ran": "refused (mode %s)" % refused[0][4] if refused else "-", "ran_locally": "-"})

    # replicated properties, by value
    sets = [d for d in server_log if d.get("event") == "set"]
    def owner(value):
        hits = [d for d in sets if same_value(value, d)]
        return hits
    found = {}
    def note(kind, value, index):
        hits = owner(value)
        if not hits:
            return  # a value from before the harness set one (the engine's first sync of the initial state)
        keys = {(h["sync"], h["property"]) for h in hits}
        if len(keys) != 1:
            fail("a %s value matches more than one property: %s" % (kind, sorted(keys)))
        key = (kind,) + keys.pop()
        if found.setdefault(key, index) != index:
            fail("%s %s %s: index %d on the wire, earlier %d" % (kind, key[1], key[2], index, found[key]))
    for m in messages:
        if m["from"] != 1:
            continue
        if m["command"] == "spawn":
            for v in m["values"]:
                if v["label"] == "spawn_state":
                    note("spawn", v, v["index"])
        elif m["command"] == "sync":
            for v in m["values"]:
                note("sync", v, v["index"])
        elif m["command"] == "delta":
            by_net = {}
            for v in m["values"]:
                by_net.setdefault((v["net_id"], v["indexes"]), []).append(v)
            for (net_id, mask), values in by_net.items():
                bits = [b for b in range(64) if mask >> b & 1]
                if len(bits) != len(values):
                    fail("delta frame %d: mask %#x, %d values" % (m["frame"], mask, len(values)))
                for b, v in zip(bits, values):
                    note("watch", v, b)
    for (kind, sync, prop), index in found.items():
        rows.append({"kind": kind, "sender": "server", "path": sync, "name": prop, "id": str(index)})

    order = {"node": 0, "rpc": 1, "rset": 2, "spawn": 3, "sync": 4, "watch": 5}
    rows.sort(key=lambda r: (order[r["kind"]], r["path"], r.get("name", ""), r["sender"]))
    with open(out, "w", encoding="utf-8") as f:
        f.write("# The ground truth of %s: what the engines put on the wire (%s.pcap, read by gdwire capture --json) paired with\n"
                "# what they logged (%s.log); tools/engines/projects/wire_table.py, conformance/projects/README.md.\n"
                % (prefix.rsplit("/", 1)[-1], prefix.rsplit("/", 1)[-1], prefix.rsplit("/", 1)[-1]))
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(r.get(c, "") or "" for c in COLUMNS) + "\n")
    counts = {}
    for r in rows:
        counts[r["kind"]] = counts.get(r["kind"], 0) + 1
    print("%s: %s" % (out, ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items(), key=lambda kv: order[kv[0]]))))


if __name__ == "__main__":
    main()

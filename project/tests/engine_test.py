#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""engine_test.py GDWIRE RUNS.tsv ROOT: `gdwire rpc` held against what the real engines did.

For each run listed in RUNS.tsv (a test project run as server and client by
tools/engines/projects/run_project.sh; the files are the engines' own output, never gdwire's opinion):

- PREFIX.wire.tsv (tools/engines/projects/wire_table.py): every SIMPLIFY_PATH's MD5 as the engine sent it,
  every RPC's method id as it travelled (paired with the method name the sender's log gives), the method
  the receiver's engine ran, and every replicated property's index in the SPAWN state, the SYNC state and
  the DELTA mask;
- PREFIX.manifest.json and PREFIX.client.manifest.json (Godot 4): addons/gdwire/manifest.gd's dump of the
  engine's own Script.get_rpc_config() and Node.get_node_rpc_config().

Checks, each counted:
- every node's MD5 from the static reader equals the one on the wire (a node the reader flags dynamic
  because of rpc_config(): the wire's MD5 equals the static list behind the engine's own node config, as
  scene_rpc_interface.cpp:106-127 in 4.6.3 puts them: that the rest of the list is right);
- a node the reader does not list has no RPCs on the wire either (the MD5 of nothing);
- every RPC's id, transfer mode and channel equal the wire's; a method the reader lacks is one the engine's
  dump says came from the node's own config, on a node the reader flags dynamic;
- Godot 3: where the receiver refused a call, the reader's mode for it is the mode number the engine printed;
  where it ran it, the reader has it as an RPC;
- every replicated property's spawn, sync and watch index equal the wire's;
- each node of the engine's dump: the reader has the same script-config names with the same mode,
  call_local, transfer mode and channel;
- a run of two different projects (the mismatch pair): `gdwire rpc-diff --labels server,client` names every
  node whose CONFIRM_PATH said the checksum failed, and says "id N: S calls `X`, R runs `Y`" for every call the
  receiver ran as another method.
The last line: N passed, N failed.
"""
import hashlib
import json
import os
import subprocess
import sys

passed = failed = 0
counts = {}


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        sys.stderr.write("FAIL %s\n" % what)


def tally(key):
    counts[key] = counts.get(key, 0) + 1


G3_MODE_NUMBER = {"disabled": 0, "remote": 1, "master": 2, "puppet": 3, "remotesync": 4, "mastersync": 5, "puppetsync": 6}


def static_manifest(gdwire, project):
    out = subprocess.run([gdwire, "rpc", "--json", project], capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit("gdwire rpc %s: exit %d" % (project, out.returncode))
    return json.loads(out.stdout)


def match(pattern, path):
    p, q = pattern.split("/"), path.split("/")
    return len(p) == len(q) and all(a == "*" or a == b for a, b in zip(p, q))


def engine_node(engine, path):
    for n in (engine or {}).get("nodes", []):
        if n["path"] == path:
            return n
    return None


def static_node(static, engine, path):
    """The reader's node for a concrete path; among spawned ones (a * segment), the one with the engine's script."""
    found = [n for n in static["nodes"] if match(n["path"], path)]
    if len(found) > 1:
        en = engine_node(engine, path)
        found = [n for n in found if en and n["script"] == en.get("script")]
    return found[0] if len(found) == 1 else None


def read_table(path):
    rows = []
    header = None
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            continue
        cells = line.rstrip("\n").split("\t")
        if header is None:
            header = cells
            continue
        rows.append(dict(zip(header, cells + [""] * (len(header) - len(cells)))))
    return rows


def md5_of(names):
    return hashlib.md5("".join(names).encode("utf-8")).hexdigest()


def run_checks(gdwire, root, prefix, server_project, client_project):
    static = {"server": static_manifest(gdwire, os.path.join(root, server_project)),
              "client": static_manifest(gdwire, os.path.join(root, client_project))}
    engine = {}
    for role, suffix in (("server", ".manifest.json"), ("client", ".client.manifest.json")):
        f = os.path.join(root, prefix + suffix)
        engine[role] = json.load(open(f, encoding="utf-8")) if os.path.exists(f) else None
    if server_project == client_project and engine["client"] is None:
        engine["client"] = engine["server"]  # one project: the client's dump is kept only where it differs
    rows = read_table(os.path.join(root, prefix + ".wire.tsv"))
    check(rows, "%s: the wire table has rows" % prefix)
    name = os.path.basename(prefix)
    other = {"server": "client", "client": "server"}
    godot4 = static["server"]["godot"] == 4

    for r in rows:
        side = r["sender"]
        st, en = static[side], engine[side]
        where = "%s: %s %s %s" % (name, r["kind"], side, r["path"])
        if r["kind"] == "node" and r["md5"] not in ("", "-"):
            sn = static_node(st, en, r["path"])
            if sn is None:
                check(r["md5"] == md5_of([]), "%s: the reader lists no RPCs, the wire's MD5 %s is not the empty list's" % (where, r["md5"]))
                tally("nodes without RPCs, agreed")
            elif not sn["dynamic"]:
                check(sn["md5"] == r["md5"], "%s: MD5 %s, the engine sent %s" % (where, sn["md5"], r["md5"]))
                tally("node MD5s equal to the wire's")
            else:
                node_cfg = sorted(x["name"] for x in (engine_node(en, r["path"]) or {}).get("rpcs", []) if x.get("from") == "node")
                check(node_cfg, "%s: the reader flags it dynamic, the engine's dump has a node config" % where)
                expect = md5_of(node_cfg + [m["name"] for m in sn["rpcs"]])
                check(expect == r["md5"], "%s: node config %s + the reader's list -> %s, the engine sent %s" % (where, node_cfg, expect, r["md5"]))
                tally("dynamic node MD5s equal to the wire's (with the engine's node config)")
        elif r["kind"] == "rpc":
            sn = static_node(st, en, r["path"])
            check(sn is not None, "%s: the reader has no node for a path that sent an RPC" % where)
            if sn is None:
                continue
            m = next((x for x in sn["rpcs"] if x["name"] == r["name"]), None)
            if godot4:
                if m is None:
                    en_m = next((x for x in (engine_node(en, r["path"]) or {}).get("rpcs", []) if x["name"] == r["name"]), None)
                    check(en_m is not None and en_m.get("from") == "node" and sn["dynamic"],
                          "%s %s: not in the reader's list, and not a node-config RPC on a dynamic node" % (where, r["name"]))
                    tally("node-config RPCs on nodes flagged dynamic")
                    continue
                check(str(m["id"]) == r["id"], "%s %s: id %s, the wire's %s" % (where, r["name"], m["id"], r["id"]))
                check(m["transfer_mode"] == r["transfer_mode"], "%s %s: %s, the wire's %s" % (where, r["name"], m["transfer_mode"], r["transfer_mode"]))
                check(str(m["channel"]) == r["channel"], "%s %s: channel %s, the wire's %s" % (where, r["name"], m["channel"], r["channel"]))
                tally("RPC ids equal to the wire's")
            else:  # Godot 3 sends the name; what counts is the receiver's mode for it
                recv = static_node(static[other[side]], engine[other[side]], r["path"])
                rm = next((x for x in (recv or {}).get("rpcs", []) if x["name"] == r["name"]), None)
                if r["ran"].startswith("refused (mode "):
                    mode = int(r["ran"][len("refused (mode "):-1])
                    got = G3_MODE_NUMBER[rm["mode"]] if rm else 0
                    check(got == mode, "%s %s: the receiver's reader says mode %d, the engine refused it with mode %d" % (where, r["name"], got, mode))
                    tally("Godot 3 refusals with the engine's mode")
                elif r["ran"] == r["name"]:
                    check(rm is not None or (recv or {}).get("dynamic"),
                          "%s %s: the engine ran it; the receiver's reader has no such RPC, nor flags the node dynamic" % (where, r["name"]))
                    tally("Godot 3 RPCs the engine ran, read as RPCs" if rm else "Godot 3 RPCs of rpc_config() on nodes flagged dynamic")
        elif r["kind"] in ("spawn", "sync", "watch"):
            sy = [s for s in static["server"]["synchronizers"] if match(s["path"], r["path"])]
            prop = [p for s in sy for p in s["properties"] if p["path"] == r["name"]]
            check(len(prop) >= 1, "%s: the reader has no property %s" % (where, r["name"]))
            got = {str(p[r["kind"] + "_index"]) for p in prop}
            check(got == {r["id"]}, "%s %s: %s index %s, the wire's %s" % (where, r["name"], r["kind"], got, r["id"]))
            tally("replicated property indexes equal to the wire's")

    # the engines' own dumps, node by node
    for side in ("server", "client"):
        for en in (engine[side] or {}).get("nodes", []):
            sn = static_node(static[side], engine[side], en["path"])
            script_rpcs = {x["name"]: x for x in en["rpcs"] if x.get("from", "script") == "script"}
            if sn is None:
                check(not script_rpcs, "%s: dump %s %s: the engine holds RPCs %s, the reader lists none" % (name, side, en["path"], sorted(script_rpcs)))
                continue
            mine = {x["name"]: x for x in sn["rpcs"]}
            check(set(mine) == set(script_rpcs), "%s: dump %s %s: names %s, the engine's %s" % (name, side, en["path"], sorted(mine), sorted(script_rpcs)))
            for k in set(mine) & set(script_rpcs):
                for field in ("mode", "call_local", "transfer_mode", "channel"):
                    check(mine[k][field] == script_rpcs[k][field], "%s: dump %s %s.%s %s: %r, the engine's %r" % (
                        name, side, en["path"], k, field, mine[k][field], script_rpcs[k][field]))
                if script_rpcs[k].get("args") is not None:  # the engine's method list: names, and declared types
                    theirs = [(a["name"], a.get("type")) for a in script_rpcs[k]["args"]]
                    ours = [(a["name"], a["type"]) for a in mine[k]["args"]]
                    check(ours == theirs, "%s: dump %s %s.%s arguments %r, the engine's %r" % (name, side, en["path"], k, ours, theirs))
                    tally("RPC argument lists equal to the engine's (names and declared types)")
                    if dump_has_defaults(engine[side]):  # the addon writes "default" since issue 59's typed runs
                        theirs_d = [bool(a.get("default")) for a in script_rpcs[k]["args"]]
                        ours_d = [bool(a.get("default")) for a in mine[k]["args"]]
                        check(ours_d == theirs_d, "%s: dump %s %s.%s defaults %r, the engine's %r" % (name, side, en["path"], k, ours_d, theirs_d))
                        tally("RPC argument lists whose defaulted parameters are the engine's (default_args)")
            tally("nodes equal to the engine's dump")

    # gdwire capture --project: every Godot 4 RPC on the wire named from the server's project, as the sender's
    # log names it (the wire table's row for that sender, path and id); unnamed only on a node flagged dynamic
    pcap = os.path.join(root, prefix + ".pcap")
    if godot4 and os.path.exists(pcap) and server_project == client_project:
        out = subprocess.run([gdwire, "capture", "--json", "--no-summary", "--project", os.path.join(root, server_project), pcap],
                             capture_output=True, text=True)
        check(out.returncode in (0, 1), "%s: capture --project exit %d: %s" % (name, out.returncode, out.stderr[:300]))
        truth = {(r["sender"], r["path"], r["id"]): r["name"] for r in rows if r["kind"] == "rpc"}
        named = unnamed = 0
        for line in out.stdout.splitlines():
            msg = json.loads(line)
            if msg.get("type") != "message" or msg.get("command") != "rpc":
                continue
            sender = "server" if msg["from"] == 1 else "client"
            want = truth.get((sender, msg["path"], str(msg["method_id"])))
            check(want is not None, "%s: capture: an RPC the wire table lacks: %s %s id %s" % (name, sender, msg["path"], msg["method_id"]))
            if msg["method"] is None:
                unnamed += 1
                sn = static_node(static["server"], engine["server"], msg["path"])
                check(sn is not None and sn["dynamic"], "%s: capture --project left %s id %s unnamed on a node not flagged dynamic" % (name, msg["path"], msg["method_id"]))
            else:
                named += 1
                check(msg["method"] == want, "%s: capture --project names %s id %s `%s`, the sender's log `%s`" % (name, msg["path"], msg["method_id"], msg["method"], want))
        check(named > 0, "%s: capture --project named no RPC" % name)
        # and with the engine's own dump as the project (node configs included: ids by the engine's rule)
        dump = os.path.join(root, prefix + ".manifest.json")
        if os.path.exists(dump):
            out2 = subprocess.run([gdwire, "capture", "--json", "--no-summary", "--project", dump, pcap], capture_output=True, text=True)
            for line in out2.stdout.splitlines():
                msg = json.loads(line)
                if msg.get("type") != "message" or msg.get("command") != "rpc":
                    continue
                want = truth.get(("server" if msg["from"] == 1 else "client", msg["path"], str(msg["method_id"])))
                check(msg["method"] == want, "%s: capture --project DUMP names %s id %s %r, the log %r" % (name, msg["path"], msg["method_id"], msg["method"], want))
                tally("RPCs capture --project (the addon's dump) named as the engines' logs do")
        counts["RPCs capture --project named as the engines' logs do"] = counts.get("RPCs capture --project named as the engines' logs do", 0) + named
        counts["RPCs capture --project left unnamed (node-config RPCs on dynamic nodes)"] = counts.get("RPCs capture --project left unnamed (node-config RPCs on dynamic nodes)", 0) + unnamed
    if godot4 and os.path.exists(pcap) and server_project != client_project:
        # the mismatch pair read with the server's project: the client's SIMPLIFY_PATH for each node whose
        # checksum the engine said failed is marked as not the project's
        out = subprocess.run([gdwire, "capture", "--project", os.path.join(root, server_project), pcap], capture_output=True, text=True)
        for r in rows:
            if r["kind"] == "node" and r["checksum_ok"] == "false" and r["sender"] == "client":
                marked = [l for l in out.stdout.splitlines() if "simplify_path" in l and (" = %s," % r["path"]) in l and "NOT the project's" in l]
                check(len(marked) >= 1, "%s: capture --project does not mark the client's SIMPLIFY_PATH of %s" % (name, r["path"]))
                tally("failed checksums capture --project marks")
        check(out.stdout.count("NOT the project's") == sum(1 for r in rows if r["kind"] == "node" and r["checksum_ok"] == "false" and r["sender"] == "client"),
              "%s: capture --project marks a SIMPLIFY_PATH the engine accepted" % name)

    outputs = {"server": [], "client": []}
    log = os.path.join(root, prefix + ".log")
    if os.path.exists(log):
        for line in open(log, encoding="utf-8"):
            d = json.loads(line)
            if d.get("event") == "engine_output":
                outputs[d["role"]].append(d["line"])
    # the other way: a node the reader lists that the engine's dump does not hold must be one it flags
    # dynamic (a script the engine refused, a node config), or a spawned one the dump holds by its real name
    for side in ("server", "client"):
        en = engine[side]
        if not en:
            continue
        for sn in static[side]["nodes"]:
            held = [e for e in en.get("nodes", []) if match(sn["path"], e["path"]) and (e.get("script") == sn["script"] or "*" not in sn["path"])]
            check(held or sn["dynamic"], "%s: %s %s: the reader lists it, the engine's dump has no such node, and it is not flagged dynamic" % (name, side, sn["path"]))
            tally("nodes the reader lists, in the engine's dump or flagged dynamic")
    if server_project != client_project:
        out = subprocess.run([gdwire, "rpc-diff", "--labels", "server,client", os.path.join(root, server_project),
                              os.path.join(root, client_project)], capture_output=True, text=True)
        check(out.returncode == 1, "%s: rpc-diff exit %d, want 1 (the builds cannot talk)" % (name, out.returncode))
        for r in rows:
            if r["kind"] == "node" and r["checksum_ok"] == "false":
                check(("node %s\n  checksum differs" % r["path"]) in out.stdout, "%s: rpc-diff does not name %s's checksum" % (name, r["path"]))
                tally("failed checksums rpc-diff names")
            if r["kind"] == "rpc" and r["ran"] not in ("", "-", r["name"]) and not r["ran"].startswith("refused"):
                sentence = "id %s: %s calls `%s`, %s runs `%s`" % (r["id"], r["sender"], r["name"], other[r["sender"]], r["ran"])
                check(sentence in out.stdout, "%s: rpc-diff does not say \"%s\"" % (name, sentence))
                tally("wrong-method calls rpc-diff says in those words")
            if r["kind"] == "rpc" and r["ran"] == "-" and godot4:
                # the receiver ran nothing: rpc-diff must say it refuses the call, and the receiver's engine said why
                start = "  id %s: %s calls `%s" % (r["id"], r["sender"], r["name"])
                lines = [l for l in out.stdout.splitlines() if l.startswith(start)]
                check(len(lines) == 1 and ("would run `" in lines[0] or "has no method" in lines[0]),
                      "%s: rpc-diff on a call the engine refused: %r" % (name, lines))
                check(any(k in line for line in outputs[other[r["sender"]]]
                          for k in ("Cannot convert argument", "argument(s), but called with", "configs.has(p_rpc_method_id)")),
                      "%s: the receiving engine did not say why it refused %s" % (name, r["name"]))
                tally("refused calls rpc-diff says the engine refuses")
        sys.stdout.write("%s: rpc-diff --labels server,client:\n%s" % (name, out.stdout))


def dump_has_defaults(dump):
    """Whether the addon that wrote this dump records parameters' defaults (any "default" key)."""
    return any("default" in a for n in (dump or {}).get("nodes", []) for r in n["rpcs"] for a in (r.get("args") or []))


def main():
    gdwire, runs, root = sys.argv[1], sys.argv[2], sys.argv[3]
    n = 0
    for line in open(runs, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        prefix, server_project, client_project = line.rstrip("\n").split("\t")
        run_checks(gdwire, root, prefix, server_project, client_project)
        n += 1
    check(n > 0, "no runs listed")
    for k in sorted(counts):
        print("%5d  %s" % (counts[k], k))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

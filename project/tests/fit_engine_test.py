#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""//project:fit_engine_test: gdw_rpc_args_fit, through `gdwire capture --project DIR --json`, held call by call to
what the real engines did with the typed-argument projects (conformance/projects/typed4, typed3; their committed
runs in conformance/projects/out/). The client announced each case with mark(k), then made one call of a typed
RPC; the server's log says which cases ran ("case_ran"). Every call the engine ran must be shown as fitting
(args_fit true or null), every call it did not run as refused (args_fit false); and for each refusal the
engine's own error line that follows the case's "gdwire case K" line is kept in the output.

usage: fit_engine_test.py GDWIRE ROOT [--pair SERVER_PROJECT CLIENT_PROJECT RUN] PROJECT RUN [PROJECT RUN ...]
(RUN: out/NAME, without .pcap/.log). --pair: a mismatch pair's run, each side's refusals (pair()).
Last line: N passed, N failed."""
import json
import subprocess
import sys


def engine_side(log_path):
    """cases the client made ({k: case}), the cases that ran on the server, and the engine's errors after each."""
    cases, ran, errors, current = {}, set(), {}, None
    for line in open(log_path, encoding="utf-8"):
        d = json.loads(line)
        ev = d.get("event")
        if ev == "case":
            cases[d["case"]] = d
        elif ev == "case_ran":
            ran.add(d["case"])
        elif ev == "engine_output" and d.get("role") == "server":
            text = d["line"]
            if text.startswith("gdwire case "):
                current = int(text.split()[2])
            elif current is not None and ("ERROR" in text or "SCRIPT ERROR" in text) and current not in errors:
                errors[current] = text.strip()
    return cases, ran, errors


def wire_side(gdwire, project, pcap):
    """{k: the case's call as capture --project --json shows it} (the RPC after mark(k) from the same peer)."""
    out = subprocess.run([gdwire, "capture", "--project", project, "--json", pcap], capture_output=True, text=True, check=True).stdout
    calls, pending = {}, {}
    for line in out.splitlines():
        d = json.loads(line)
        if d.get("type") != "message" or d.get("command") != "rpc" or d.get("to") != 1:
            continue
        sender = d["from"]
        if d.get("method") == "mark":
            pending[sender] = d["values"][0]["value"]["value"]
        elif d.get("method") not in ("finish", "hello") and sender in pending:
            calls[pending.pop(sender)] = d
    return calls


def pair(gdwire, root, server, client, run):
    """A mismatch pair's session: read with each side's project, the calls gdwire says that side refuses (to its
    peer: the server is peer 1) are the ones that side's engine refused in its own "RPC - 'Node(x.gd)::NAME'" lines,
    name for name; the calls to the other side are not judged by that project (args_fit null: another build)."""
    ok = bad = 0
    for role, project in (("server", server), ("client", client)):
        engine = []
        for line in open(f"{root}/{run}.log", encoding="utf-8"):
            d = json.loads(line)
            if d.get("event") == "engine_output" and d.get("role") == role and "RPC - '" in d["line"]:
                engine.append(d["line"].split("::", 1)[1].split("'", 1)[0])
        out = subprocess.run([gdwire, "capture", "--project", f"{root}/{project}", "--json", f"{root}/{run}.pcap"],
                             capture_output=True, text=True, check=True).stdout
        refused, judged_other = [], 0
        for line in out.splitlines():
            d = json.loads(line)
            if d.get("command") != "rpc":
                continue
            to_this_side = (d["to"] == 1) == (role == "server")
            if to_this_side and d.get("args_fit") is False:
                refused.append(d["method"])
            elif not to_this_side and d.get("args_fit") is False:
                judged_other += 1
        if sorted(refused) == sorted(engine) and engine and not judged_other:
            print(f"ok {run}, read with {project}: the {role} refused {sorted(engine)}; gdwire says the same")
            ok += 1
        else:
            print(f"FAIL {run}, read with {project}: the {role}'s engine refused {sorted(engine)}, gdwire {sorted(refused)}, "
                  f"and {judged_other} calls to the other build judged")
            bad += 1
    return ok, bad


def main():
    gdwire, root, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
    passed = failed = 0
    if pairs and pairs[0] == "--pair":
        ok, bad = pair(gdwire, root, *pairs[1:4])
        passed, failed, pairs = ok, bad, pairs[4:]
    for i in range(0, len(pairs), 2):
        project, run = f"{root}/{pairs[i]}", f"{root}/{pairs[i + 1]}"
        cases, ran, errors = engine_side(run + ".log")
        calls = wire_side(gdwire, project, run + ".pcap")
        agree = {"ran": 0, "refused": 0}
        unsent = 0
        undecided = []
        for k in sorted(cases):
            c = cases[k]
            if k not in calls:  # the sender refused to send it (its error is in the log): no call to check
                unsent += 1
                continue
            call = calls[k]
            engine_ran = k in ran
            fit = call.get("args_fit", "absent")
            label = f"{pairs[i]} case {k}: {c['method']}({c['value']})"
            if fit == "absent":
                print(f"FAIL {label}: capture --project did not find the method"); failed += 1
            elif engine_ran and fit is False:
                print(f"FAIL {label}: the engine ran it, gdwire says refused ({call.get('refused')})"); failed += 1
            elif not engine_ran and fit is None:  # the manifest cannot tell (a class or an enum type): allowed, counted
                undecided.append(f"{label}: the engine refused it ({errors.get(k, 'no error line')}); gdwire cannot tell")
            elif not engine_ran and fit is not False:
                print(f"FAIL {label}: the engine refused it ({errors.get(k, 'no error line')}), gdwire says args_fit {fit}"); failed += 1
            else:
                agree["ran" if engine_ran else "refused"] += 1
                passed += 1
        ran_n = sum(1 for k in calls if k in ran)
        print(f"{pairs[i]}: {len(cases)} cases, {len(calls)} on the wire ({unsent} not sent), the engine ran {ran_n} and "
              f"refused {len(calls) - ran_n}; gdwire agrees on {agree['ran']} run and {agree['refused']} refused, "
              f"cannot tell {len(undecided)} (the engine refused them)")
        for u in undecided:
            print("  undecided " + u)
        if not cases or not calls:
            print(f"FAIL {pairs[i]}: no cases"); failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

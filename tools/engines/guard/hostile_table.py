#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hostile_table.py UNGUARDED.tsv [GUARDED.tsv] — the README's hostile tables (Markdown) from hostile_table.sh's
rows: the engines unguarded and, when given, the same runs through the guard.

1. The summary (with GUARDED): attack | unguarded, per engine | the guard's log line | through the guard, per engine.
2. The unguarded details: outcome, peak RSS, error lines and the first, whether the script ran the hostile RPC,
   the honest calls run after the attack / sent after it."""
import csv
import re
import sys


def rows(path):
    with open(path, newline="") as f:
        return {(r["engine"], r["attack"]): r for r in csv.DictReader(f, delimiter="\t")}


def short(r):
    """An unguarded run in a few words."""
    if r is None:
        return "not run"
    s = r["outcome"]
    if r["error_lines"] != "0":
        s += f", {r['error_lines']} err"
    if r["hostile_rpcs_run"] != "0" and r["attack"] != "control":
        s += f", **ran it{'' if r['hostile_rpcs_run'] == '1' else ' ' + r['hostile_rpcs_run'] + '×'}**"
    return s


def detail(r):
    if r is None:
        return "not run"
    s = f"**{r['outcome']}**"
    s += f", {int(r['peak_rss_kb']) / 1024:.0f} MB" if r["peak_rss_kb"].isdigit() else ""
    if r["error_lines"] != "0":
        err = re.sub(r"^(SCRIPT )?ERROR: (\w+: )?", "", r["first_error"]).replace("|", "\\|")
        s += f", {r['error_lines']} errors (`{err[:60]}`)"
    if r["hostile_rpcs_run"] != "0":
        s += f", the script ran it {r['hostile_rpcs_run']}×"
    return s + f", honest {r['honest_run_after']}/{r['honest_sent_after']}"


def guard_line(r):
    """The rule of the guard's first log line about the hostile client (time, address and peer left out)."""
    if r is None:
        return "not run"
    if r.get("guard_first", "-") == "-":
        return "(nothing logged)"
    line = re.sub(r"\s{2,}", " ", r["guard_first"]).replace("|", "\\|")
    rule = line.split("guard: ", 1)[-1]
    more = int(r["guard_lines"]) - 1
    return f"`{rule[:110]}`" + (f" (+{more})" if more > 0 else "")


def through(r):
    if r is None:
        return "not run"
    ok = r["outcome"] == "survived" and r["guard_alive"] == "yes"
    s = "yes" if ok else f"**{r['outcome']}**, guard {'up' if r['guard_alive'] == 'yes' else 'down'}"
    if r["hostile_rpcs_run"] != "0" and r["attack"] != "control":
        s += f", {r['hostile_rpcs_run']} run"
    if r["error_lines"] != "0":
        s += f", {r['error_lines']} err"
    return s + f", {r['honest_run_after']}/{r['honest_sent_after']}"


def main():
    unguarded = rows(sys.argv[1])
    guarded = rows(sys.argv[2]) if len(sys.argv) > 2 else None
    engines = list(dict.fromkeys(e for e, _ in unguarded))
    attacks = list(dict.fromkeys(a for _, a in unguarded))
    if guarded is not None:
        head = ["attack"] + [f"unguarded {e}" for e in engines] + ["guard's log line"] + [f"survived, guarded: {e}" for e in engines]
        print("| " + " | ".join(head) + " |")
        print("|---" * len(head) + "|")
        for a in attacks:
            lines = dict.fromkeys(guard_line(guarded.get((e, a))) for e in engines)
            cells = [a] + [short(unguarded.get((e, a))) for e in engines] + [" / ".join(lines)]
            print("| " + " | ".join(cells + [through(guarded.get((e, a))) for e in engines]) + " |")
        print()
    head = ["attack"] + [f"unguarded {e}" for e in engines]
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    for a in attacks:
        print("| " + " | ".join([a] + [detail(unguarded.get((e, a))) for e in engines]) + " |")


if __name__ == "__main__":
    main()

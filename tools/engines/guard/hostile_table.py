#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hostile_table.py UNGUARDED.tsv [GUARDED.tsv] — the README's hostile table (Markdown) from the rows of
hostile_table.sh (the engines unguarded) and, when given, of the same runs through the guard."""
import csv, re, sys

def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))

def cell(r):
    if r is None:
        return "not run"
    s = f"**{r['outcome']}**"
    s += f", {int(r['peak_rss_kb']) / 1024:.0f} MB" if r["peak_rss_kb"].isdigit() else ""
    if r["error_lines"] != "0":
        err = re.sub(r"^(SCRIPT )?ERROR: (\w+: )?", "", r["first_error"]).replace("|", "\\|")
        s += f", {r['error_lines']} errors (`{err[:60]}`)"
    if r["hostile_rpcs_run"] != "0":
        s += f", the script ran it {r['hostile_rpcs_run']}×"
    s += f", honest {r['honest_run_after']}/{r['honest_sent_after']}"
    return s

def main():
    unguarded = rows(sys.argv[1])
    engines = list(dict.fromkeys(r["engine"] for r in unguarded))
    attacks = list(dict.fromkeys(r["attack"] for r in unguarded))
    by = {(r["engine"], r["attack"]): r for r in unguarded}
    print("| attack | " + " | ".join(f"unguarded {e}" for e in engines) + " |")
    print("|---" * (len(engines) + 1) + "|")
    for a in attacks:
        print(f"| {a} | " + " | ".join(cell(by.get((e, a))) for e in engines) + " |")

if __name__ == "__main__":
    main()

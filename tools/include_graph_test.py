#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""include_graph_test.py — the library's shape, as its #include lines draw it (issue 32;
docs/library.md "Layout"):
  - outside codec/, C files include the public headers codec/gdwire.h and codec/gdwire_check.h
    (the tools' API, which includes gdwire.h) and nothing else of codec/: the command, the
    conformance runner, the fuzzers, the tools and the examples read the dialect table and values
    through them (codec/tests/ are the library's own tests);
  - inside codec/, the folders (the wings table/, value/, wire/, engine/, forms/ and the top,
    codec/ itself) include each other without a cycle, and no wing includes the top;
  - each wing's files include only their own wing's header and the headers of wings below it.
Prints the folder graph and "N passed, N failed"."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
INCLUDE = re.compile(r'^\s*#\s*include\s+"(codec/[^"]+|gdwire\.h|gdwire_check\.h)"', re.M)
PUBLIC = "codec/gdwire.h"  # the public header: below every folder, it includes nothing of the project
CHECK = "codec/gdwire_check.h"  # the tools' public header: it includes gdwire.h only
SKIP = ("bazel-", ".git", "corpus", "node_modules")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def folder(path):
    """codec/value/types.c -> codec/value; codec/check.c -> codec; cli/main.c -> cli."""
    return os.path.dirname(path)


edges = {}
outside = []
for top, dirs, files in os.walk(ROOT):
    rel_top = os.path.relpath(top, ROOT)
    dirs[:] = [d for d in dirs if not d.startswith(SKIP)]
    for n in files:
        if not n.endswith((".c", ".h", ".cpp")):
            continue
        path = os.path.normpath(os.path.join(rel_top, n))
        text = open(os.path.join(ROOT, path), encoding="utf-8", errors="replace").read()
        for inc in INCLUDE.findall(text):
            inc = PUBLIC if inc == "gdwire.h" else CHECK if inc == "gdwire_check.h" else inc
            src, dst = folder(path), (PUBLIC if inc in (PUBLIC, CHECK) else folder(inc))
            if not path.startswith("codec/"):
                outside.append((path, inc))
                continue
            if src.startswith("codec/tests") or src == dst or path in (PUBLIC, CHECK):
                continue
            edges.setdefault(src, set()).add(dst)

for path, inc in outside:
    check(inc in (PUBLIC, CHECK), "%s includes %s: outside codec/ only the public headers codec/gdwire.h and codec/gdwire_check.h" % (path, inc))
check(len(outside) >= 5, "the scan found the includes of codec/ outside it (%d)" % len(outside))

# no cycle among codec's folders
state = {}


def visit(n, stack):
    state[n] = 1
    for m in sorted(edges.get(n, ())):
        if state.get(m) == 1:
            check(False, "include cycle: %s" % " -> ".join(stack + [n, m]))
        elif not state.get(m):
            visit(m, stack + [n])
    state[n] = 2


for n in sorted(edges):
    if not state.get(n):
        visit(n, [])
check(all(state.get(n) == 2 for n in edges), "every folder visited")
for src, dsts in sorted(edges.items()):
    check(src == "codec" or "codec" not in dsts, "%s includes the top (codec/api.h): a wing calls back up" % src)
    print("%-14s -> %s" % (src, ", ".join(sorted(dsts))))
wings = sorted(d for d in os.listdir(os.path.join(ROOT, "codec")) if os.path.isdir(os.path.join(ROOT, "codec", d)) and d != "tests")
check(wings == ["engine", "forms", "table", "value", "wire"], "the wings are codec/%s" % ", codec/".join(wings))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

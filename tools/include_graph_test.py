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
  - each wing's files include only their own wing's header and the headers of wings below it;
  - a wing calls the library's functions only in the wings its includes reach (none up or across).
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
# calls follow the includes: a function of the library's own (gdw_*, defined in a wing or the top) is called
# only from the top, its own folder or a folder whose includes reach its folder. The public header declares every
# GDW_API function to all, so the includes alone do not show a call that runs up or across the wings (value/
# calling the encoder of wire/, say): the definitions and the calls do.
DEFINITION = re.compile(r'^(?!static\b)[A-Za-z_][\w \t*]*?\b(gdw_\w+)\s*\(([^;{]*)\)\s*\{', re.M)
CALL = re.compile(r'\b(gdw_\w+)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)
defined, texts = {}, {}
for top, dirs, files in os.walk(os.path.join(ROOT, "codec")):
    dirs[:] = [d for d in dirs if d != "tests"]
    for n in files:
        if n.endswith(".c"):
            path = os.path.relpath(os.path.join(top, n), ROOT)
            texts[path] = COMMENT.sub(" ", open(os.path.join(ROOT, path), encoding="utf-8", errors="replace").read())
            for name, _ in DEFINITION.findall(texts[path]):
                defined[name] = folder(path)


def reach(src):
    seen, todo = set(), [src]
    while todo:
        for m in edges.get(todo.pop(), ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


check(len(defined) >= 100, "the scan found the library's functions (%d)" % len(defined))
for path, text in sorted(texts.items()):
    src = folder(path)
    for name in sorted(set(CALL.findall(text))):
        dst = defined.get(name)
        if dst and dst != src and src != "codec":  # the top calls every wing
            check(dst in reach(src), "%s calls %s (%s/), which its includes do not reach: a call up or across the wings" % (path, name, dst))
wings = sorted(d for d in os.listdir(os.path.join(ROOT, "codec")) if os.path.isdir(os.path.join(ROOT, "codec", d)) and d != "tests")
check(wings == ["engine", "forms", "table", "value", "wire"], "the wings are codec/%s" % ", codec/".join(wings))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

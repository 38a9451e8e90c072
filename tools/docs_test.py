#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs_test.py GDWIRE — the docs say what is true (issue 33).

1. Every example of the README: each line "$ COMMAND" of a code block is run with bash, from the
   repository's root, with the built `gdwire` first on PATH, on the files the repository ships;
   what it prints (stdout and stderr, in the order they come) must be the lines that follow it. A line "..." stands for
   any number of lines (indented as the lines it stands for, or not), and a line ending in " ..." for any line that starts with what is before
   it. The README's figure of engine packets godot3 ranks first on is checked too.
2. No link leaves the repository: every relative link of every Markdown file names a file or
   folder of the repository, and no tracked text names ../shared (the project's own notes, which
   a user of the repository does not have).
3. A workflow runs .ci/run on Debian 12 within 90 minutes, and the ClusterFuzzLite workflows say
   no more than they configure.

The repository is found through the runfiles' README.md, a link to the source tree (the test is
tagged local)."""
import os
import re
import subprocess
import sys

gdwire = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.realpath("README.md"))
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what, file=sys.stderr)


def matches(want, got):
    """want lines (with ... wildcards) against got lines."""
    if not want:
        return not got
    w = want[0]
    if w.strip() == "...":  # "..." (indented or not): any number of lines
        return any(matches(want[1:], got[k:]) for k in range(len(got) + 1))
    if not got:
        return False
    line_ok = got[0].startswith(w[:-4]) if w.endswith(" ...") else got[0] == w
    return line_ok and matches(want[1:], got[1:])


# ---- 1. the README's examples ----------------------------------------------------------------
bindir = os.path.join(os.environ.get("TEST_TMPDIR", "/tmp"), "docs_test_bin")
os.makedirs(bindir, exist_ok=True)
link = os.path.join(bindir, "gdwire")
if os.path.lexists(link):
    os.remove(link)
os.symlink(gdwire, link)
env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin"), NO_COLOR="1")
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
examples = 0
for block in re.findall(r"```[a-z]*\n(.*?)```", readme, re.S):
    lines = block.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        cmd = lines[i][2:]
        j = i + 1
        while j < len(lines) and not lines[j].startswith("$ "):
            j += 1
        want = lines[i + 1:j]
        r = subprocess.run(["bash", "-c", cmd], cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        got = r.stdout.rstrip("\n").split("\n") if r.stdout.strip() else []  # stdout and stderr as they came
        examples += 1
        check(matches(want, got), "README example `%s` prints\n%s\nnot\n%s" % (cmd, "\n".join(got[:30]), "\n".join(want)))
        i = j
check(examples >= 10, "only %d README examples found" % examples)
m = re.search(r"on the (\d[\d,]*) packets Godot 3\.2\.3 wrote \(`tools/engines/godot3\.2-packets\.tsv`\), godot3 ranks\s+first on (\d[\d,]*)", readme)
check(m is not None, "the README's figure of engine packets is gone")
if m:
    hexes = "".join(l.split("\t")[1] + "\n" for l in open(os.path.join(root, "tools/engines/godot3.2-packets.tsv")) if not l.startswith("#"))
    r = subprocess.run([gdwire, "check", "--hex", "--lines"], input=hexes, capture_output=True, text=True, env=env)
    n = len(hexes.splitlines())
    first = re.search(r"^godot3 +(\d+) +(\d+)$", r.stdout, re.M)
    check(int(m.group(1).replace(",", "")) == n and first and int(first.group(2)) == int(m.group(2).replace(",", "")),
          "README: %s packets, godot3 first on %s; measured %d packets, godot3 first on %s" % (m.group(1), m.group(2), n, first and first.group(2)))
print("%d README examples run" % examples)

# ---- 2. links ----------------------------------------------------------------------------------
tracked = []
for d, dirs, files in os.walk(root):
    rel = os.path.relpath(d, root)
    dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("bazel-") and x != "node_modules"
               and not (rel == "." and x == "corpus")]
    tracked += [os.path.normpath(os.path.join(rel, f)) for f in files]
present = set(tracked)
folders = {os.path.dirname(p) for p in tracked}
folders |= {os.path.dirname(f) for f in folders}
n_links = 0
for md in [p for p in tracked if p.endswith(".md")] + ["corpus/README.md"]:
    text = open(os.path.join(root, md), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    for t in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z][a-z0-9+.-]*:", t) or t.startswith("#"):
            continue
        t = t.split("#")[0]
        p = os.path.normpath(os.path.join(os.path.dirname(md), t))
        n_links += 1
        inside = not p.startswith("..") and (p in present or p in folders or os.path.exists(os.path.join(root, p)))
        check(inside, "%s links to %s, which is %s" % (md, t, "outside the repository" if p.startswith("..") else "not in it"))
for p in tracked:
    if p.endswith((".md", ".c", ".h", ".py", ".sh", ".yaml", ".1", ".cpp")) and not p.startswith("docs_test"):
        try:
            text = open(os.path.join(root, p), encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        if p != "tools/docs_test.py":
            check("../shared/" not in text and "shared/docs/" not in text, "%s names ../shared (outside the repository)" % p)
print("%d links checked" % n_links)

# ---- 3. CI as the README says: a workflow runs .ci/run on Debian 12 within CI's 90 minutes ----------
ci = os.path.join(root, ".github/workflows/ci.yml")
text = open(ci, encoding="utf-8").read() if os.path.exists(ci) else ""
check(re.search(r"^\s+run: bash \.ci/run\s*$", text, re.M) is not None, ".github/workflows/ci.yml does not run bash .ci/run")
check("image: debian:12" in text, ".github/workflows/ci.yml does not run on Debian 12")
m = re.search(r"timeout-minutes: (\d+)", text)
check(m is not None and int(m.group(1)) <= 90, "the CI workflow has no timeout within 90 minutes")
for wf in ("cflite_batch.yml", "cflite_pr.yml"):
    t = open(os.path.join(root, ".github/workflows", wf), encoding="utf-8").read()
    says_repo = re.search(r"storage[ -]repo", t.split("jobs:")[0]) is not None
    has_repo = "storage-repo:" in t
    check(not says_repo or has_repo or "no storage-repo is configured" in t, "%s speaks of a storage repository it does not configure" % wf)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# format_test.sh .clang-format FILE... — codec/ follows the project's .clang-format (issue 58): every
# C file is as `clang-format-14` formats it, and no line is over 100 columns (characters, not bytes:
# the sources write "—"). clang-format's output differs between its major versions, so the test
# takes 14, Debian 12's (tools/setup.sh installs it). Fix a failure with `clang-format-14 -i FILE`.
set -uo pipefail
source tools/need.sh
need "the formatting check runs Debian 12's clang-format" clang-format-14
style=$1; shift
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/format.XXXXXX"); trap 'rm -rf "$T"' EXIT
cp "$style" "$T/.clang-format"
passed=0 failed=0 files=0
for f in "$@"; do
    files=$((files + 1))
    mkdir -p "$T/tree/$(dirname "$f")"
    cp "$f" "$T/tree/$f"
    # the style is the copy above the tree (a missing one formats nothing: the count below)
    if ! (cd "$T" && clang-format-14 --style=file --fallback-style=none "tree/$f" > "$T/out") 2> "$T/err"; then
        echo "FAIL: $f: clang-format-14 cannot read it: $(head -n 3 "$T/err")"; failed=$((failed + 1)); continue
    fi
    if ! cmp -s "$f" "$T/out"; then
        echo "FAIL: $f is not as clang-format-14 formats it (clang-format-14 -i $f); the first lines that differ:"
        diff "$f" "$T/out" | head -n 12
        failed=$((failed + 1)); continue
    fi
    long=$(python3 -c '
import sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n"), 1):
    if len(line) > 100: print(f"{sys.argv[1]}:{n}: {len(line)} columns")' "$f")
    if [ -n "$long" ]; then echo "FAIL: lines over 100 columns:"; echo "$long" | head -n 5; failed=$((failed + 1)); continue; fi
    passed=$((passed + 1))
done
# the test sees the files: an empty list would pass having checked nothing
[ "$files" -ge 80 ] || { echo "FAIL: only $files files given (codec/ has over 80)"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

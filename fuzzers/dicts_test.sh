#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dicts_test.sh MAKE_DICTS DICT... — the committed dictionaries are what make_dicts writes from
# the dialect table now (after a dialect change: bazel run //tools/fuzz:make_dicts -- $PWD/fuzzers/dict).
set -euo pipefail
gen=$1
shift
out=$(mktemp -d "${TEST_TMPDIR:-/tmp}/dicts.XXXXXX"); trap 'rm -rf "$out"' EXIT
"$gen" "$out"
failed=0 passed=0
for f in "$@"; do
    if cmp -s "$f" "$out/$(basename "$f")"; then passed=$((passed + 1)); else echo "FAIL: $f is stale" >&2; failed=$((failed + 1)); fi
done
n_gen=$(ls "$out" | wc -l)
if [ "$n_gen" -ne "$#" ]; then echo "FAIL: make_dicts writes $n_gen files, $# are committed" >&2; failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

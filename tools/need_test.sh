#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# need_test.sh — tools/need.sh: a test whose program is missing skips with a message and a
# "0 passed, 0 failed, 1 skipped" line (exit 0), or fails under GDW_NO_SKIP=1 (.ci/run); a present
# program lets the test go on.
set -uo pipefail
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }
run() { # GDW_NO_SKIP PROGRAM...: what a test sourcing need.sh prints, and its status
    env GDW_NO_SKIP="$1" bash -c 'source tools/need.sh; need "what it is for" "${@}"; echo "went on"' _ "${@:2}"
}
out=$(run 0 sh gdwire-no-such-program-1 gdwire-no-such-program-2); st=$?
check "a missing program skips (status $st): $out" '[ $st = 0 ]'
check "the skip names every missing program and what it is for" '[[ "$out" == "SKIP: needs gdwire-no-such-program-1 gdwire-no-such-program-2 (what it is for)"* ]]'
check "the skip says where to get it" '[[ "$out" == *"tools/setup.sh"* ]]'
check "the skip ends with the counts .ci/run sums" '[ "$(echo "$out" | tail -n 1)" = "0 passed, 0 failed, 1 skipped" ]'
check "a skipped test does not go on" '[[ "$out" != *"went on"* ]]'
out=$(run 1 gdwire-no-such-program-1); st=$?
check "under GDW_NO_SKIP=1 a missing program fails (status $st)" '[ $st = 1 ]'
check "and says so" '[[ "$out" == "FAIL: needs gdwire-no-such-program-1"* ]] && [ "$(echo "$out" | tail -n 1)" = "0 passed, 1 failed" ]'
out=$(run 1 sh bash); st=$?
check "present programs let the test go on (status $st): $out" '[ $st = 0 ] && [ "$out" = "went on" ]'
out=$(GDW_NO_SKIP=0 bash -c 'source tools/need.sh; skip_or_fail "the engine is not installed"'); st=$?
check "skip_or_fail skips with its reason" '[ $st = 0 ] && [[ "$out" == "SKIP: the engine is not installed; nothing checked"* ]]'
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

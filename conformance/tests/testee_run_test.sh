#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# testee_run_test — the testee runner survives a testee that hangs, dies and answers garbage
# (inside a window of several packets, each failure pinned on its own packet), compares
# re-encodings, and applies engine-scoped pattern deviations, a stale one failing the run.
# Usage (from Bazel): testee_run_test.sh RUNNER TESTEE_RUN GDWIRE_TESTEE
set -uo pipefail
runner=$1 testee_run=$2 gdwire_testee=$3
dir=conformance/tests/testee
passed=0 failed=0
check() { # name, pattern, text
    if grep -q -- "$2" <<<"$3"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: no '$2' in:"; echo "$3" | head -40; fi
}
run() { python3 "$testee_run" --runner "$runner" --root $dir --dialect godot3 --timeout 2 "$@" $dir/five.yaml 2>&1; }

out=$(run --testee "$dir/fake_testee.py"); rc=$?
check "exit status" "^1$" "$rc"
check "hang pinned on its packet" 'int 1 (the testee hangs).*the testee hung' "$out"
check "crash pinned on its packet" 'int 2 (the testee dies).*the testee crashed' "$out"
check "garbage is a bad response" 'int 3 (the testee answers garbage).*the testee crashed' "$out"
check "wrong re-encoding" 'int 4 (the testee re-encodes it wrong).*re-encoding differs' "$out"
check "the packets around them agree" 'five.yaml *6 *2 *0 *1 *1 *2 *0' "$out"
check "restarts counted (a failure inside a window restarts into one-at-a-time)" '5 restarts' "$out"

out=$(run --testee "$dir/fake_testee.py" --engine fake --deviations $dir/deviations.yaml); rc=$?
check "pattern deviation excuses int 4" 'five.yaml *6 *2 *1 *0 *1 *2 *0' "$out"
check "a pattern deviation matching an agreeing vector is stale" 'STALE deviation line 2: the testee now agrees on five.yaml#int 5' "$out"
out=$(run --testee "$dir/fake_testee.py" --engine other --deviations $dir/deviations.yaml)
check "a deviation for another engine does not apply" 'five.yaml *6 *2 *0 *1 *1 *2 *0' "$out"

# no address-space limit: a sanitizer build of the testee reserves terabytes of shadow memory
out=$(run --testee "$gdwire_testee" --memory 0); rc=$?
check "gdwire agrees with its own vectors" '^6 passed, 0 failed' "$out"
check "gdwire: exit 0" "^0$" "$rc"
out=$(run --testee "echo hello")
check "a testee of another protocol is refused" "speaks 'hello', not gdwire-testee/1" "$out"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

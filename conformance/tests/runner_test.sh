#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# runner_test — the conformance runner refuses what it must: unknown keys, dialects and
# outcome fields, malformed hex, aliases, a dialect without an expectation, stale deviations,
# engine evidence that disagrees, is stale, has no header or misses a vector;
# and a wrong expectation fails with a readable expected/got diff.
# Usage (from Bazel): runner_test.sh RUNNER
set -uo pipefail
runner=$1
bad=conformance/tests/bad
passed=0 failed=0
expect_fail() { # name, pattern, runner args...
    local name=$1 pattern=$2; shift 2
    local out rc
    out=$(timeout 60 "$runner" "$@" 2>&1); rc=$?  # a hang fails too
    if [ $rc -ne 0 ] && grep -q -- "$pattern" <<<"$out"; then passed=$((passed + 1))
    else failed=$((failed + 1)); echo "FAIL $name: exit $rc, want non-zero and '$pattern' in:"; echo "$out" | head -20; fi
}
expect_fail "unknown vector key" "unknown vector key colour" --root $bad $bad/unknown-key.yaml
expect_fail "unknown dialect" "unknown dialect godot5" --root $bad $bad/unknown-dialect.yaml
expect_fail "bad hex" "hex: malformed at character 7" --root $bad $bad/bad-hex.yaml
expect_fail "odd hex" "hex: malformed" --root $bad $bad/odd-hex.yaml
expect_fail "dialect not covered" "has no expectation for dialect mole" --root $bad $bad/missing-dialect.yaml
expect_fail "alias" "godot2 is an alias: write mole" --root $bad $bad/alias.yaml
expect_fail "unknown outcome key" "unknown outcome key bytes" --root $bad $bad/unknown-outcome-key.yaml
expect_fail "wrong value: diff" '+ got      {value: "42"}' --root $bad $bad/wrong-value.yaml
expect_fail "wrong value: names the vector" "wrong-value.yaml:2 int 42 claimed to be 43  \[mole, compatible\]" --root $bad $bad/wrong-value.yaml
expect_fail "stale deviation" "STALE deviation" --root $bad --deviations $bad/stale-deviations.yaml $bad/null.yaml
expect_fail "deviation for a missing vector" "deviation names no loaded vector" --root $bad --deviations $bad/stale-deviations.yaml $bad/wrong-value.yaml
expect_fail "incomplete suite" "no vector is accepted with a value of type" --root $bad $bad/null.yaml
expect_fail "evidence: the engine did otherwise" "the expectation disagrees with godot3.2 test" --root $bad --evidence $bad/evidence-disagree $bad/null.yaml
expect_fail "evidence: the bytes changed" "has other bytes than when godot3.2 judged it" --root $bad --evidence $bad/evidence-stale $bad/null.yaml
expect_fail "evidence: no header" "the first line must be" --root $bad --evidence $bad/evidence-header $bad/null.yaml
expect_fail "evidence: a vector without an answer" "no answer for wrong-value.yaml" --root $bad --evidence $bad/evidence-stale $bad/null.yaml $bad/wrong-value.yaml
expect_fail "missing file" "no such file" --root $bad $bad/nothing-here.yaml
# hostile YAML is refused before libyaml builds a document (issue 14): anchors and aliases (a
# 305 KB file of them took 390 s and 2.8 GB), nesting (libyaml is quadratic in flow nesting:
# 200 KB of '[' took 50 s; this 20,000-deep file must fail at once), and size
expect_fail "yaml anchor" "an anchor (&name): vector files take no anchors or aliases" --root $bad $bad/yaml-anchor.yaml
expect_fail "yaml alias" "an alias (\*name)" --root $bad $bad/yaml-alias.yaml
expect_fail "yaml billion laughs" "yaml-billion-laughs.yaml:1: YAML: an anchor" --root $bad $bad/yaml-billion-laughs.yaml
expect_fail "yaml deep" "nested deeper than 16 levels" --root $bad $bad/yaml-deep.yaml
big="${TEST_TMPDIR:-/tmp}/big.yaml"; truncate -s 65M "$big"
expect_fail "yaml size" "larger than 64 MiB: split the file" --root "$(dirname "$big")" "$big"
rm -f "$big"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# differential_test.sh GDWIRE_TESTEE GDWIRE — the differential oracle against the live Godot 4.6.3
# (issue 34): 4,000 mutations of the engine's own packets pass with the analysed waivers
# (tools/fuzz/differential-known.tsv), and the same inputs against a gdwire whose engine-exact
# mode is switched off (gdwire_testee --as-mode compatible: no key merging, no typed conversion)
# fail, with new signatures: a waiver names one cause, it does not absorb a class. Skips, saying
# so, when the engine is not installed (tools/engines/setup).
set -uo pipefail
testee=$(realpath "$1") gdwire=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$("$here/../engines/run" godot4.6 --version 2>/dev/null)" ]; then
    source tools/need.sh
    skip_or_fail "Godot 4.6 is not installed here (sudo tools/engines/setup)"
fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
diffrun() { python3 "$here/differential.py" --oracle godot4.6 --out "$T/$1" --minutes 5 --max-inputs 4000 --seed 7 \
    --known "$here/differential-known.tsv" --gdwire "$gdwire" --gdwire-testee "$2" 2>/dev/null; }
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
out=$(diffrun on "$testee"); rc=$?
echo "$out" | head -3
[ "$rc" = 0 ] && ok || bad "gdwire against Godot 4.6.3: exit $rc"
echo "$out" | grep -q '^4000 passed, 0 failed$' && ok || bad "not every input passed: $(echo "$out" | tail -1)"
off=$(diffrun off "$testee --as-mode compatible"); rc=$?
echo "$off" | head -3
[ "$rc" = 1 ] && ok || bad "engine-exact switched off, yet exit $rc"
n_new=$(echo "$off" | grep -c 'NEW: not in --known')
[ "$n_new" -ge 5 ] && ok || bad "engine-exact switched off: only $n_new new signatures"
failed=$(echo "$off" | tail -1 | awk '{print $3}')
[ "${failed:-0}" -ge 10 ] && ok || bad "engine-exact switched off: only ${failed:-0} inputs failed"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

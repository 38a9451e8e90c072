#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostile_unguarded_test.sh CLIENT RECORDED ENGINE ATTACK... — the hostile attacks still do to the live,
# unguarded ENGINE what hostile_table.sh recorded (RECORDED, hostile_unguarded.tsv, the engine's own answers):
# each ATTACK is run again (hostile_run.sh, 5 s) and its outcome (survived / crashed (signal N) / hung /
# stalled) must be the recorded one; where the server survived, the honest client's calls sent after the
# attack must have run (all but one: the last may be in flight when the server quits). Skips, saying so,
# when the engine is not installed (tools/engines/setup).
set -uo pipefail
client=$1 recorded=$2 engine=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ -z "$("$root/tools/engines/run" "$engine" --version 2>/dev/null)" ]; then  # (3.2.3 exits 255 after printing it)
    source "$root/tools/need.sh"
    skip_or_fail "engine $engine is not installed here (sudo tools/engines/setup)"
fi
pass=0 fail=0
for attack in "$@"; do
    want=$(awk -F'\t' -v e="$engine" -v a="$attack" '$1 == e && $2 == a { print $3 }' "$recorded")
    row=$("$here/hostile_run.sh" "$client" "$engine" "$attack" 5)
    IFS=$'\t' read -r _ _ got _ rss _ first sent ran _ <<< "$row"
    if [ -z "$want" ]; then
        echo "FAIL: $engine $attack: no recorded row in $recorded"; fail=$((fail + 1)); continue
    fi
    if [ "$got" != "$want" ]; then
        echo "FAIL: $engine $attack: $got, recorded $want ($row)"; fail=$((fail + 1)); continue
    fi
    if [ "$got" = survived ] && { [ "$sent" -lt 5 ] || [ "$ran" -lt $((sent - 1)) ]; }; then
        echo "FAIL: $engine $attack: survived but ran $ran of the $sent honest calls sent after it"; fail=$((fail + 1)); continue
    fi
    echo "ok: $engine $attack: $got, peak RSS $rss kB, honest calls after it $ran/$sent, first error: $first"
    pass=$((pass + 1))
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostile_test.sh CLIENT unguarded RECORDED ENGINE ATTACK...
# hostile_test.sh CLIENT guarded GDWIRE ENGINE ATTACK...
# unguarded: each ATTACK still does to the live ENGINE what hostile_table.sh recorded (RECORDED,
#   hostile_unguarded.tsv, the engine's own answers): it is run again (hostile_run.sh, 5 s) and its outcome
#   (survived / crashed (signal N) / hung / stalled) must be the recorded one, and where it survived, whether its
#   script ran the hostile RPC too.
# guarded: through `GDWIRE guard` with the game's project (hostile_run.sh's GDW_HOSTILE_PROJECT) and
#   raw_put_var.yaml (the game reads RAW packets with StreamPeerBuffer.get_var), the server must survive and
#   never run the hostile RPC (its script's log; `control`, a valid call, must run once), the guard must stay
#   up and log the attack (not `control`), and the honest client's RAW packet of put_var values must have
#   reached the game's script.
# Both: where the server survived, the honest client's calls sent after the attack must have run (all but
# one: the last may be in flight when the server quits). Skips, saying so, when the engine is not
# installed (tools/engines/setup).
set -uo pipefail
client=$1 mode=$2 with=$3 engine=$4; shift 4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ -z "$("$root/tools/engines/run" "$engine" --version 2>/dev/null)" ]; then  # (3.2.3 exits 255 after printing it)
    source "$root/tools/need.sh"
    skip_or_fail "engine $engine is not installed here (sudo tools/engines/setup)"
fi
guard=()
# guarded: the client services its host 3 s after the attack, so that a fragmented one whose datagrams a
# loaded machine lost is retransmitted whole and judged before the run ends
[ "$mode" != guarded ] || guard=(env GDW_HOSTILE_LINGER=3000 GDW_HOSTILE_PROJECT=1
    GDW_HOSTILE_GUARD="$(cd "$(dirname "$with")" && pwd)/$(basename "$with") guard --policy $here/raw_put_var.yaml")
keep=$(mktemp -d); trap 'rm -rf "$keep"' EXIT
pass=0 fail=0
for attack in "$@"; do
    rm -rf "$keep/run"
    row=$(GDW_HOSTILE_KEEP="$keep/run" "${guard[@]}" "$here/hostile_run.sh" "$client" "$engine" "$attack" 5)
    IFS=$'\t' read -r _ _ outcome _ rss errors first sent ran hostile _ alive grss glines gfirst _ <<< "$row"
    why=""
    if [ "$mode" = unguarded ]; then
        want=$(awk -F'\t' -v e="$engine" -v a="$attack" '$1 == e && $2 == a { print $3 }' "$with")
        [ "$outcome" = "${want:-no recorded row}" ] || why="$why $outcome, recorded ${want:-nothing};"
        # whether the engine's script still ran the hostile RPC (Godot 4.6.3 runs one whose arguments did not
        # decode, with Nil in their place: docs/engine-findings.md finding 11)
        ran_recorded=$(awk -F'\t' -v e="$engine" -v a="$attack" '$1 == e && $2 == a { print $10 }' "$with")
        [ "$outcome" != survived ] || [ "$((hostile > 0))" = "$((${ran_recorded:-0} > 0))" ] ||
            why="$why the script ran the hostile RPC $hostile times, recorded ${ran_recorded:-nothing};"
        said="$outcome, peak RSS $rss kB, hostile RPC run $hostile×, first error: $first"
    else
        want_hostile=1 want_lines=0
        [ "$attack" = control ] || { want_hostile=0; want_lines=1; }
        [ "$outcome" = survived ] || why="$why the server: $outcome;"
        [ "$hostile" = "$want_hostile" ] || why="$why the server ran the hostile RPC $hostile times;"
        [ "$alive" = yes ] || why="$why the guard is down;"
        [ "$glines" -ge "$want_lines" ] || why="$why the guard logged nothing about the attack;"
        # the honest client's RAW packet (hostile4.gd / hostile3.gd send one of put_var values first) went through
        hostile_id=$(sed -n 's/^joined id=\([0-9]*\).*/\1/p' "$keep/run/hostile.out" 2>/dev/null)
        honest_raw=$(grep '"method":"raw"' "$keep/run/server.log" 2>/dev/null | grep -vc "\"from\":${hostile_id:-x}[,}]" || true)
        [ "${honest_raw:-0}" -ge 1 ] || why="$why the honest client's RAW put_var packet did not reach the game;"
        said="survived, hostile RPC run $hostile×, $errors server error lines, guard peak RSS $grss kB: $gfirst"
    fi
    if [ "$outcome" = survived ] && { [ "$sent" -lt 5 ] || [ "$ran" -lt $((sent - 1)) ]; }; then
        why="$why it ran $ran of the $sent honest calls sent after the attack;"
    fi
    if [ -n "$why" ]; then
        echo "FAIL: $engine $attack ($mode):$why ($row)"; fail=$((fail + 1))
    else
        echo "ok: $engine $attack ($mode): $said, honest $ran/$sent"; pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostile_table.sh CLIENT [OUT.tsv] [ENGINE...] — every attack of CLIENT (hostile_client --list) against
# every ENGINE (default: godot4.6 godot3.6 godot3.2), unguarded, one hostile_run.sh row each, with a
# header line → OUT.tsv (default tools/engines/guard/hostile_unguarded.tsv). About 9 s a run, 7 minutes in all.
#   bazel build //tools/engines/guard:hostile_client && tools/engines/guard/hostile_table.sh bazel-bin/tools/engines/guard/hostile_client
# GDW_HOSTILE_ATTACKS="a b": only these attacks. GDW_HOSTILE_GUARD="GUARD ARGS" (hostile_run.sh): the same runs
# through the guard, with its columns (hostile_guarded.tsv). The README's table is made from OUT.tsv with
# hostile_table.py OUT.tsv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
client=${1:?usage: hostile_table.sh CLIENT [OUT.tsv] [ENGINE...]}
out=${2:-$here/hostile_unguarded.tsv}
shift $(( $# >= 2 ? 2 : 1 ))
engines=("$@"); [ ${#engines[@]} -gt 0 ] || engines=(godot4.6 godot3.6 godot3.2)
attacks=${GDW_HOSTILE_ATTACKS:-$("$client" --list | cut -f1)}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
guard_header=""
[ -z "${GDW_HOSTILE_GUARD:-}" ] || guard_header=$'\tguard_alive\tguard_peak_rss_kb\tguard_lines\tguard_first\tguard_counters'
printf 'engine\tattack\toutcome\texit\tpeak_rss_kb\terror_lines\tfirst_error\thonest_sent_after\thonest_run_after\thostile_rpcs_run\thostile_state%s\n' "$guard_header" > "$tmp"
for e in "${engines[@]}"; do
    for a in $attacks; do
        row=$(nice -n 10 "$here/hostile_run.sh" "$client" "$e" "$a")
        echo "$row" | cut -f1-6 >&2
        echo "$row" >> "$tmp"
    done
done
cp "$tmp" "$out"
echo "$out: $(($(wc -l < "$out") - 1)) runs" >&2

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# honest_runs.sh GDWIRE [ENGINE...] — is the guard transparent to honest play? For each ENGINE (default
# godot4.6 godot3.6 godot3.2): one session through `GDWIRE guard -d DIALECT` and direct ones until a direct
# run's clients drew their ids in the same order (session4.gd's server picks its targets by sorted id; at
# most 8 runs, so 1 time in 256 it gives up), held to each other by honest_compare.py. Prints every figure; the committed output is
# honest_sessions.txt (README.md quotes it). Exit 1 when a comparison failed. Needs root for tcpdump.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gdwire=${1:?usage: honest_runs.sh GDWIRE [ENGINE...]}; shift
engines=("$@"); [ ${#engines[@]} -gt 0 ] || engines=(godot4.6 godot3.6 godot3.2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for e in "${engines[@]}"; do
    case "$e" in godot4.*) d=godot4 ;; godot3.6) d=godot3 ;; *) d=godot3@3.2 ;; esac
    echo "== $e ($("$here/../run" "$e" --version 2>/dev/null | head -1)), guard -d $d, ENet compression: $([ "$e" = godot3.6 ] && echo range coder || echo none)"
    if ! "$here/honest_session.sh" "$e" "$work/$e-guarded" "$gdwire" guard -d "$d" > "$work/out" 2>&1; then
        echo "FAIL: the guarded session failed:"; tail -5 "$work/out"; status=1; continue
    fi
    tail -1 "$work/$e-guarded.guard.log" | sed 's/^/guard: /'
    rc=3
    for i in 1 2 3 4 5 6 7 8; do
        "$here/honest_session.sh" "$e" "$work/$e-direct" > "$work/out" 2>&1 || { echo "FAIL: a direct session failed"; tail -5 "$work/out"; break; }
        python3 "$here/honest_compare.py" "$work/$e-direct" "$work/$e-guarded" > "$work/cmp" 2>&1; rc=$?
        [ $rc = 3 ] || break
    done
    echo "direct runs played: $i"
    cat "$work/cmp"
    [ $rc = 0 ] || status=1
done
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# honest_runs.sh GDWIRE [ENGINE...] — is the guard transparent to honest play? For each ENGINE (default
# godot4.6 godot3.6 godot3.2): one session through `GDWIRE guard -d DIALECT` and one direct, held to each other
# by honest_compare.py (which maps the peer ids by role, and what the server sends one client by sorted id by
# rank, so the random order of the ids does not matter). Prints every figure; the committed output is
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
    if ! "$here/honest_session.sh" "$e" "$work/$e-direct" > "$work/out" 2>&1; then
        echo "FAIL: the direct session failed:"; tail -5 "$work/out"; status=1; continue
    fi
    python3 "$here/honest_compare.py" "$work/$e-direct" "$work/$e-guarded" || status=1
done
exit $status

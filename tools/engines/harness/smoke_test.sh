#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smoke_test.sh GENERATOR ENGINE:HARNESS[:N]... — the harnesses on Debian's release engines, as CI has them: each
# reads its seeds (the engine's own packets; the recorded sessions' messages; the engines' saves) and N (1,000) inputs
# of gdwire's mutator
# (a fixed seed), and every finding must be a known one (known.tsv, docs/engine-findings.md), each known regression
# still making its finding. Skips (fails under GDW_NO_SKIP=1) when an engine is not installed (tools/engines/setup).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/engine_fuzz.py" ] || here=$here/harness   # under Bazel, $0 is the test's name in tools/engines/
generator=$1
shift
pass=0 fail=0
for pair in "$@"; do
    engine=${pair%%:*} rest=${pair#*:}
    harness=${rest%%:*} mutated=1000
    [ "$rest" = "$harness" ] || mutated=${rest#*:}
    if [ -z "$("$here/../run" "$engine" --version 2>&1 | grep -o "^[0-9][^ ]*stable[^ ]*" | head -1)" ]; then
        source tools/need.sh
        skip_or_fail "engine $engine is not installed here (sudo tools/engines/setup)"
    fi
    case "$harness" in
        variant) seeds=$(grep -vc '^#' "$here/../$engine-packets.tsv") ;;
        files) seeds=$(ls "$here/../../../conformance/saves"/godot*/game.* | wc -l) ;;
        mp-*) case "$engine" in godot4*) g=4 ;; *) g=3 ;; esac
              seeds=$(grep -c . "$here/seeds/multiplayer$g-${harness#mp-}.hex") ;;
    esac
    want=$((seeds + mutated))
    out=$(mktemp -d)
    log=$("$here/engine_fuzz.py" --engine "$engine" --harness "$harness" --out "$out" --inputs "$want" \
        --seed 7 --generator "$generator" --known "$here/known.tsv" 2>&1)
    status=$?
    printf '%s\n' "$log" | grep -v '^engine_fuzz: [0-9]* inputs, '   # the progress lines are noise here
    last=$(printf '%s\n' "$log" | tail -1)
    # every input went through every entry, or was pinned to a finding: the run read them all
    inputs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["inputs"])' "$out/summary.json" 2>/dev/null || echo 0)
    if [ "$status" = 0 ] && [ "$inputs" = "$want" ] && [[ "$last" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
        echo "ok: $harness in $engine read $inputs inputs, every finding known ($last)"
        pass=$((pass + 1))
    else
        echo "FAIL: $harness in $engine: exit $status, $inputs of $want inputs, '$last'"
        fail=$((fail + 1))
    fi
    rm -rf "$out"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

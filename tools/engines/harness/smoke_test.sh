#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smoke_test.sh GENERATOR ENGINE... — the Variant-input harness on Debian's release engines, as CI has them: each
# engine reads its own packets and 1,000 inputs of gdwire's mutator (a fixed seed) through every entry point, and
# every finding must be a known one (known.tsv, docs/engine-findings.md), each known regression still making its
# finding. Skips (fails under GDW_NO_SKIP=1) when an engine is not installed (tools/engines/setup).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/engine_fuzz.py" ] || here=$here/harness   # under Bazel, $0 is the test's name in tools/engines/
generator=$1
shift
pass=0 fail=0
for engine in "$@"; do
    if [ -z "$("$here/../run" "$engine" --version 2>&1 | grep -o "^[0-9][^ ]*stable[^ ]*" | head -1)" ]; then
        source tools/need.sh
        skip_or_fail "engine $engine is not installed here (sudo tools/engines/setup)"
    fi
    out=$(mktemp -d)
    log=$("$here/engine_fuzz.py" --engine "$engine" --out "$out" --inputs "$(( $(grep -vc '^#' "$here/../$engine-packets.tsv") + 1000 ))" \
        --seed 7 --generator "$generator" --known "$here/known.tsv" 2>&1)
    status=$?
    printf '%s\n' "$log" | grep -v '^engine_fuzz: [0-9]* inputs, '   # the progress lines are noise here
    last=$(printf '%s\n' "$log" | tail -1)
    # every input went through every entry, or was pinned to a finding: the run read them all
    inputs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["inputs"])' "$out/summary.json" 2>/dev/null || echo 0)
    want=$(( $(grep -vc '^#' "$here/../$engine-packets.tsv") + 1000 ))
    if [ "$status" = 0 ] && [ "$inputs" = "$want" ] && [[ "$last" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
        echo "ok: $engine read $inputs inputs, every finding known ($last)"
        pass=$((pass + 1))
    else
        echo "FAIL: $engine: exit $status, $inputs of $want inputs, '$last'"
        fail=$((fail + 1))
    fi
    rm -rf "$out"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

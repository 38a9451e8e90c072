#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench_smoke_test.sh BENCH — every workload and op runs at 1/100 scale in godot3 and godot4, the
# JSON is well-formed with the documented keys, every op of a workload measures the same packet,
# each workload's peak heap is within the library's promise (gdw_decode_heap_bound: 7 x bytes +
# 16 KiB), and --workload/--op select one measurement.
set -euo pipefail
bench=$1
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); else echo "FAIL: $*" >&2; failed=$((failed + 1)); fi; }
for d in godot3 godot4; do
    "$bench" --dialect "$d" --scale 0.01 --runs 1 --json > "$TEST_TMPDIR/$d.json"
    check python3 - "$TEST_TMPDIR/$d.json" "$d" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
keys = {"workload", "dialect", "op", "bytes", "mb_per_s", "values_per_s", "peak_heap_bytes"}
assert rows, "no measurements"
for r in rows:
    assert keys <= set(r), r
    assert r["dialect"] == sys.argv[2] and r["bytes"] > 0 and r["mb_per_s"] > 0 and r["peak_heap_bytes"] > 0, r
ops = {r["op"] for r in rows}
assert ops == {"decode", "validate", "encode", "check", "decode_each", "memcpy"}, ops
workloads = {r["workload"] for r in rows}
want = 9 if sys.argv[2] == "godot4" else 8   # no PackedFloat64Array in Godot 3
assert len(workloads) == want, workloads
for w in workloads:
    sizes = {r["bytes"] for r in rows if r["workload"] == w}
    assert len(sizes) == 1, (w, "ops measured different packets", sizes)
    n = sizes.pop()
    peak = max(r["peak_heap_bytes"] for r in rows if r["workload"] == w)
    assert peak <= 7 * n + 16384, (w, "peak heap", peak, "over the bound for", n, "bytes")
PY
done
one=$("$bench" --workload dicts_200k --op decode --scale 0.01 --runs 1 --json)
check python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert len(r)==1 and r[0]["op"]=="decode" and r[0]["workload"]=="dicts_200k", r' "$one"
check "$bench" --list
if "$bench" --op nosuch 2>/dev/null; then check false; else check true; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

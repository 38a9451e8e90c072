#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bigendian_test.sh SEEDS.tsv FILE... — the codec on a big-endian host: cross-compiles the
# codec tests and the decode fuzz replay (the conformance packets in every dialect) for s390x (big-endian)
# with s390x-linux-gnu-gcc and runs them under qemu-s390x. The codec never reads host-endian
# memory (fields are assembled from bytes, values keep the wire's little-endian bytes), so the
# same results on both byte orders is the proof; this test keeps it so (docs/performance.md).
set -euo pipefail
source tools/need.sh
need "the codec cross-compiled for s390x and run under qemu-user" s390x-linux-gnu-gcc qemu-s390x
seeds=$(realpath "$1")
shift
src=$(mktemp -d "${TEST_TMPDIR:-/tmp}/bigendian.XXXXXX"); trap 'rm -rf "$src"' EXIT
for f in "$@"; do mkdir -p "$src/$(dirname "$f")"; cp "$f" "$src/$f"; done
cd "$src"
CC=s390x-linux-gnu-gcc
codec=$(ls codec/*.c codec/*/*.c | grep -v '^codec/tests/')
passed=0 failed=0
run() { # NAME ARGS...: the last "N passed, N failed" of the program's output is added up
    local name=$1 out line
    shift
    if out=$(qemu-s390x "$@" 2>&1); then :; else echo "FAIL: $name exited non-zero" >&2; echo "$out" | tail -5 >&2; failed=$((failed + 1)); return; fi
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    [ -n "$line" ] || { echo "FAIL: $name printed no result" >&2; failed=$((failed + 1)); return; }
    passed=$((passed + $(echo "$line" | awk '{print $1}')))
    failed=$((failed + $(echo "$line" | awk '{print $3}')))
    echo "s390x $name: $line ($SECONDS s)"
}
echo 'int main(void){ union { unsigned u; unsigned char c[4]; } x = {1}; return x.c[0]; }' > endian.c
$CC -static -o endian endian.c
if qemu-s390x ./endian; then echo "s390x host is big-endian"; else echo "FAIL: the cross host is not big-endian" >&2; exit 1; fi
for t in examples_test errors_test roundtrip_test depth_test; do
    $CC -std=c11 -O1 -static -I. "codec/tests/$t.c" $codec -lm -o "$t"
    run "$t" "./$t"
done
# every 4th conformance packet, in all 13 dialects (emulation is ~30x slower than the host)
awk 'NR % 4 == 1' "$seeds" > seeds-sample.tsv
for t in decode; do
    $CC -std=c11 -O1 -static -I. "fuzzers/$t.c" fuzzers/replay_main.c fuzzers/value_gen.c $codec -lm -o "replay_$t"
    run "$t replay" "./replay_$t" --vectors seeds-sample.tsv
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

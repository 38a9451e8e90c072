#!/usr/bin/env bash
# clusterfuzzlite_build_test.sh BUILD_SH FILE... — runs .clusterfuzzlite/build.sh as the
# OSS-Fuzz / ClusterFuzzLite builder would (its environment variables, libFuzzer, ASan+UBSan) on
# a copy of the sources, then checks what it left in $OUT: every target runs on its seed corpus
# with its dictionary and options.
set -euo pipefail
build_sh=$1
shift
SRC=$(mktemp -d)
mkdir -p "$SRC/gdwire"
for f in "$@"; do mkdir -p "$SRC/gdwire/$(dirname "$f")"; cp "$f" "$SRC/gdwire/$f"; done
export SRC OUT=$(mktemp -d) WORK=$(mktemp -d)
export CC=clang CXX=clang++ FUZZING_ENGINE=libfuzzer SANITIZER=address ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
bash "$build_sh"
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); else echo "FAIL: $*" >&2; failed=$((failed + 1)); fi; }
for t in decode encode validate_vs_decode strict_implies_compatible translate; do
    check test -x "$OUT/$t"
    check test -s "$OUT/${t}_seed_corpus.zip"
    check test -s "$OUT/$t.options"
    seeds=$(mktemp -d)
    unzip -q "$OUT/${t}_seed_corpus.zip" -d "$seeds"
    n=$(ls "$seeds" | wc -l)
    check test "$n" -gt 10000
    dict=()
    if [ -f "$OUT/$t.dict" ]; then dict=(-dict="$OUT/$t.dict"); fi
    # a short fuzzing run from a sample of the seeds, with the dictionary: the build is usable
    sample=$(mktemp -d)
    ls "$seeds" | awk 'NR % 50 == 0' | while read -r f; do cp "$seeds/$f" "$sample/"; done
    check "$OUT/$t" "${dict[@]}" -runs=3000 -max_len=4096 "$sample"
    rm -rf "$seeds" "$sample"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

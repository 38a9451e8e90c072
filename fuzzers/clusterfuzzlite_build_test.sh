#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# clusterfuzzlite_build_test.sh BUILD_SH FILE... — runs .clusterfuzzlite/build.sh as the
# OSS-Fuzz / ClusterFuzzLite builder would (its environment variables, libFuzzer, ASan+UBSan) on
# a copy of the sources, then checks what it left in $OUT: every target runs on its seed corpus
# with its dictionary and options.
set -euo pipefail
source tools/need.sh
need "the OSS-Fuzz builder's compilers, libFuzzer and ASan" clang clang++
build_sh=$1
shift
# everything under one folder, removed at exit (a build leaves about 1.5 GB of objects)
top=$(mktemp -d "${TEST_TMPDIR:-/tmp}/cflite.XXXXXX")
trap 'rm -rf "$top"' EXIT
# the checkout elsewhere than $SRC/gdwire, as another project's pipeline may keep it: GDWIRE_SRC
SRC=$top/src
GDWIRE_SRC=$top/elsewhere/gdwire
mkdir -p "$SRC" "$GDWIRE_SRC"
# (one cp for the ten thousand files: a process per file took minutes)
cp --parents --dereference -t "$GDWIRE_SRC" "$@"
mkdir -p "$top/out" "$top/work"
export SRC GDWIRE_SRC OUT=$top/out WORK=$top/work
export CC=clang CXX=clang++ FUZZING_ENGINE=libfuzzer SANITIZER=address ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
bash "$build_sh"
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); else echo "FAIL: $*" >&2; failed=$((failed + 1)); fi; }
for t in decode encode validate_vs_decode strict_implies_compatible translate readers capture decompress pcap files project; do
    b=gdwire_$t   # prefixed, so that it meets no other project's target in a shared pipeline
    check test -x "$OUT/$b"
    check test ! -e "$OUT/$t"
    check test -s "$OUT/${b}_seed_corpus.zip"
    check test -s "$OUT/$b.options"
    max_len=$(sed -n 's/^max_len = //p' "$OUT/$b.options")
    # the seeds: capped (every k-th conformance packet), none longer than max_len; encode, which
    # does not read packets, has none of them
    zipinfo -l "$OUT/${b}_seed_corpus.zip" | awk '$1 ~ /^-/ {print $4, $NF}' > "$top/list"
    n=$(grep -c . "$top/list")
    longest=$(awk 'BEGIN {m = 0} $1 > m {m = $1} END {print m}' "$top/list")
    conf=$(grep -c ' conformance-' "$top/list" || true)
    check test "$longest" -le "$max_len"
    if [ "$t" = files ]; then check test "$conf" -eq 0; check test "$n" -ge 50;  # the engines' saves, whole and cut
    elif [ "$t" = decompress ] || [ "$t" = pcap ] || [ "$t" = project ]; then check test "$conf" -eq 0; check test "$n" -ge 100;  # the real sessions' compressed blocks; capture files
    elif [ "$t" = encode ] || [ "$t" = capture ]; then check test "$conf" -eq 0; check test "$n" -ge 100; else check test "$conf" -gt 10000; check test "$conf" -le 20000; fi
    dict=()
    if [ -f "$OUT/$b.dict" ]; then dict=(-dict="$OUT/$b.dict"); fi
    # a short fuzzing run from a sample of the seeds, with the dictionary: the build is usable
    sample=$(mktemp -d "$top/sample.XXXXXX")
    every=50; [ "$t" != capture ] || every=5   # capture's seeds are its 120 session cuts
    [ "$t" != decompress ] || every=2          # decompress's, the 120 compressed blocks of three sessions
    [ "$t" != files ] || every=2               # files's, the 112 engine saves whole and cut
    [ "$t" != pcap ] || every=2                # pcap's, the 121 capture files cut from the sessions and session/tests/data/
    [ "$t" != project ] || every=2             # project's, the test projects' files read both ways
    awk '{print $2}' "$top/list" | awk -v k=$every 'NR % k == 0' > "$top/pick"
    check test "$(grep -c . "$top/pick")" -gt 20
    xargs -a "$top/pick" -d '\n' unzip -q -j "$OUT/${b}_seed_corpus.zip" -d "$sample"
    check "$OUT/$b" "${dict[@]}" -runs=3000 -max_len=4096 "$sample"
    rm -rf "$sample"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

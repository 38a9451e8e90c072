#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# replay_test.sh [--exact-ids] BINARY SEEDS.tsv CORPUS_DIR REGRESSIONS_DIR — run a fuzz target's
# replay build over the conformance vectors (in every dialect), its corpus and its crash
# regressions. --exact-ids (byte-level targets): every input's byte 0 must be a row's fuzz id.
# Fails when a folder is missing, when the corpus holds fewer than 100 inputs or the vectors fewer
# than 10,000 lines, and when the replay ran fewer inputs than the seeds and folders hold: a test
# that silently replays nothing must not pass.
set -uo pipefail
exact=; [ "${1:-}" = --exact-ids ] && { exact=--exact-ids; shift; }
bin=$1 seeds=$2 corpus=$3 regressions=$4
fail() { echo "FAIL: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
[ -f "$seeds" ] || fail "no conformance seeds $seeds"
[ -d "$corpus" ] || fail "no corpus folder $corpus"
[ -d "$regressions" ] || fail "no regressions folder $regressions"
inputs() { find -L "$1" -maxdepth 1 -type f ! -name README.md ! -name '.*' | wc -l; }
n_seeds=$(grep -c . "$seeds")
n_corpus=$(inputs "$corpus")
n_reg=$(inputs "$regressions")
[ "$n_seeds" -ge 10000 ] || fail "only $n_seeds conformance seeds"
[ "$n_corpus" -ge 100 ] || fail "only $n_corpus inputs in $corpus"
out=$("$bin" $exact --vectors "$seeds" "$corpus" "$regressions" 2> >(grep -v '^replay ' >&2)) || { echo "$out"; exit 1; }
echo "$out"
ran=$(sed -n 's/^\([0-9]*\) passed, 0 failed$/\1/p' <<<"$out")
want=$((n_seeds + n_corpus + n_reg))
[ -n "$ran" ] && [ "$ran" -ge "$want" ] || fail "replayed ${ran:-no} inputs, want at least $want ($n_seeds seeds, $n_corpus corpus, $n_reg regressions)"

#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# ClusterFuzzLite / OSS-Fuzz build of gdwire's fuzz targets (docs/fuzzing.md).
# The builder gives $CC, $CFLAGS, $LIB_FUZZING_ENGINE, $SRC, $OUT (and $WORK); Bazel is not used
# here: the targets are a handful of C files, compiled directly with the builder's flags.
# Writes to $OUT: one binary per target, <target>_seed_corpus.zip (the committed corpus, the
# regressions and the conformance packets in every dialect), <target>.dict and <target>.options.
cd "$SRC/gdwire"
WORK=${WORK:-$(mktemp -d)}
TARGETS="decode encode validate_vs_decode strict_implies_compatible translate"
BYTE_TARGETS="decode validate_vs_decode strict_implies_compatible translate"

CODEC_SRCS=$(ls codec/*.c codec/*/*.c | grep -v '^codec/tests/')
objs=()
for src in $CODEC_SRCS fuzzers/value_gen.c fuzzers/mutator.c; do
    obj="$WORK/$(echo "$src" | tr / _).o"
    $CC $CFLAGS -std=c11 -I. -c "$src" -o "$obj"
    objs+=("$obj")
done
$CC $CFLAGS -std=c11 -I. -c fuzzers/mutator_libfuzzer.c -o "$WORK/mutator_libfuzzer.o"

for t in $TARGETS; do
    extra=()
    case " $BYTE_TARGETS " in *" $t "*) extra=("$WORK/mutator_libfuzzer.o") ;; esac
    # the custom mutator calls LLVMFuzzerMutate, which only libFuzzer has: other engines
    # (AFL++ under OSS-Fuzz) get the targets without it
    if [ "${FUZZING_ENGINE:-libfuzzer}" != libfuzzer ]; then extra=(); fi
    $CC $CFLAGS -std=c11 -I. "fuzzers/$t.c" "${extra[@]}" "${objs[@]}" $LIB_FUZZING_ENGINE -lm -o "$OUT/$t"
done

# Seeds: the conformance packets, exported by the conformance runner (needs libyaml).
runner_srcs="conformance/runner.c conformance/vectors.c conformance/outcome.c conformance/oracle.c"
"${HOST_CC:-$(command -v cc || command -v clang)}" -std=c11 -D_GNU_SOURCE -O1 -I. $runner_srcs $CODEC_SRCS -lyaml -lm -o "$WORK/conformance-runner"
"$WORK/conformance-runner" --export godot3 --root conformance/vectors conformance/vectors > "$WORK/seeds.tsv"
# the same seed files the campaign writes (byte 0 the dialect, byte 1 the objects flag)
python3 -c 'import sys; sys.path.insert(0, "tools/fuzz"); import fuzzlib; fuzzlib.write_seeds(sys.argv[1], sys.argv[2])' \
    "$WORK/seeds.tsv" "$WORK/seeds"
rm -f "$WORK/seeds.zip"
(cd "$WORK/seeds" && zip -q -r "$WORK/seeds.zip" .)
for t in $TARGETS; do
    cp "$WORK/seeds.zip" "$OUT/${t}_seed_corpus.zip"
    for d in "corpus/$t" "corpus/regressions/$t"; do
        if [ -d "$d" ] && [ -n "$(ls -A "$d")" ]; then (cd "$d" && zip -q -r "$OUT/${t}_seed_corpus.zip" . -x README.md); fi
    done
done
for t in $BYTE_TARGETS; do cp fuzzers/dict/all.dict "$OUT/$t.dict"; done
for t in $TARGETS; do
    case " $BYTE_TARGETS " in *" $t "*) max_len=8192; dict="dict = $t.dict" ;; *) max_len=1024; dict="" ;; esac
    printf '[libfuzzer]\nmax_len = %s\n%s\n' "$max_len" "$dict" > "$OUT/$t.options"
done
echo "gdwire: built $(echo $TARGETS | wc -w) fuzz targets into $OUT"

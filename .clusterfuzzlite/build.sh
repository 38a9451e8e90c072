#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# ClusterFuzzLite / OSS-Fuzz build of gdwire's fuzz targets (docs/fuzzing.md).
# The builder gives $CC, $CFLAGS, $LIB_FUZZING_ENGINE, $SRC, $OUT (and $WORK); Bazel is not used
# here: the targets are a handful of C files, compiled directly with the builder's flags.
# Writes to $OUT, each name prefixed gdwire_ so that it cannot meet another project's "decode": one
# binary per target (gdwire_decode, ...), gdwire_<target>_seed_corpus.zip (its own committed corpus
# and regressions, and for the targets that read packets a capped share of the conformance
# packets; no input longer than the target's max_len), gdwire_<target>.dict and .options.
# GDWIRE_SRC names the checkout when it is not $SRC/gdwire.
cd "${GDWIRE_SRC:-$SRC/gdwire}"
WORK=${WORK:-$(mktemp -d)}
TARGETS="decode encode validate_vs_decode strict_implies_compatible translate readers capture"
BYTE_TARGETS="decode validate_vs_decode strict_implies_compatible translate readers"

CODEC_SRCS=$(ls codec/*.c codec/*/*.c | grep -v '^codec/tests/')
objs=()
for src in $CODEC_SRCS session/*.c fuzzers/value_gen.c fuzzers/mutator.c; do
    obj="$WORK/$(echo "$src" | tr / _).o"
    $CC $CFLAGS -std=c11 -I. -Icodec -c "$src" -o "$obj"
    objs+=("$obj")
done
$CC $CFLAGS -std=c11 -I. -c fuzzers/mutator_libfuzzer.c -o "$WORK/mutator_libfuzzer.o"

for t in $TARGETS; do
    extra=()
    case " $BYTE_TARGETS " in *" $t "*) extra=("$WORK/mutator_libfuzzer.o") ;; esac
    # the custom mutator calls LLVMFuzzerMutate, which only libFuzzer has: other engines
    # (AFL++ under OSS-Fuzz) get the targets without it
    if [ "${FUZZING_ENGINE:-libfuzzer}" != libfuzzer ]; then extra=(); fi
    $CC $CFLAGS -std=c11 -I. -Icodec "fuzzers/$t.c" "${extra[@]}" "${objs[@]}" $LIB_FUZZING_ENGINE -lm -o "$OUT/gdwire_$t"
done

# Seeds: the conformance packets, exported by the conformance runner (needs libyaml).
runner_srcs="conformance/runner.c conformance/vectors.c conformance/outcome.c conformance/oracle.c"
"${HOST_CC:-$(command -v cc || command -v clang)}" -std=c11 -D_GNU_SOURCE -O1 -I. $runner_srcs $CODEC_SRCS -lyaml -lm -o "$WORK/conformance-runner"
"$WORK/conformance-runner" --export godot3 --root conformance/vectors conformance/vectors > "$WORK/seeds.tsv"
# the same seed files the campaign writes (byte 0 the dialect, byte 1 the objects flag)
python3 -c 'import sys; sys.path.insert(0, "tools/fuzz"); import fuzzlib; fuzzlib.write_seeds(sys.argv[1], sys.argv[2])' \
    "$WORK/seeds.tsv" "$WORK/seeds"
max_len_of() { case " $BYTE_TARGETS " in *" $1 "*) echo 8192 ;; *) [ "$1" = capture ] && echo 65536 || echo 1024 ;; esac; }
# The conformance packets are every vector in every dialect (about 290,000 files): a packet target
# gets at most SEED_CAP of them, every k-th in name order, so its zip stays a few MB
SEED_CAP=${SEED_CAP:-20000}
for t in $TARGETS; do
    max_len=$(max_len_of "$t")
    dir="$WORK/seeds-$t"
    rm -rf "$dir" "$WORK/$t.zip"
    mkdir -p "$dir"
    case " $BYTE_TARGETS " in
        *" $t "*)
            n=$(find "$WORK/seeds" -type f | wc -l)
            step=$(( (n + SEED_CAP - 1) / SEED_CAP ))
            [ "$step" -ge 1 ] || step=1
            find "$WORK/seeds" -type f -size -"$((max_len + 1))"c | LC_ALL=C sort | awk -v s="$step" 'NR % s == 0' \
                | while IFS= read -r f; do cp "$f" "$dir/conformance-$(basename "$f")"; done ;;
    esac
    for d in "corpus/$t" "corpus/regressions/$t"; do
        [ -d "$d" ] || continue
        find "$d" -type f ! -name README.md -size -"$((max_len + 1))"c -exec cp {} "$dir/" \;
    done
    (cd "$dir" && zip -q -r "$OUT/gdwire_${t}_seed_corpus.zip" .)
    rm -rf "$dir"
done
for t in $BYTE_TARGETS; do cp fuzzers/dict/all.dict "$OUT/gdwire_$t.dict"; done
for t in $TARGETS; do
    case " $BYTE_TARGETS " in *" $t "*) dict="dict = gdwire_$t.dict" ;; *) dict="" ;; esac
    printf '[libfuzzer]\nmax_len = %s\n%s\n' "$(max_len_of "$t")" "$dict" > "$OUT/gdwire_$t.options"
done
echo "gdwire: built $(echo $TARGETS | wc -w) fuzz targets into $OUT"

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
TARGETS="decode encode validate_vs_decode strict_implies_compatible translate readers capture decompress pcap files project guard"
BYTE_TARGETS="decode validate_vs_decode strict_implies_compatible translate readers"

CODEC_SRCS=$(ls codec/*.c codec/*/*.c | grep -v '^codec/tests/')
# every object, then every target, compiled side by side: at most JOBS compilers at a time
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
running=()
side_by_side() { # side_by_side COMMAND...: runs it in the background, waiting first while JOBS run
    if [ "${#running[@]}" -ge "$JOBS" ]; then wait "${running[0]}"; running=("${running[@]:1}"); fi
    "$@" &
    running+=($!)
}
all_done() { local p; for p in "${running[@]}"; do wait "$p"; done; running=(); }
objs=()
# files/*.c without its libraries (no GDW_HAVE_*: the runner image has no libcrypto, zlib, zstd or brotli):
# here the files target fuzzes the headers, block tables and FastLZ; the local campaign links them all
# guard/*.c (the guard target's decision): its policy reads YAML through libyaml (the Dockerfile installs it)
for src in $CODEC_SRCS session/*.c files/*.c project/*.c guard/decide.c guard/policy.c guard/project_rule.c fuzzers/value_gen.c fuzzers/mutator.c; do
    obj="$WORK/$(echo "$src" | tr / _).o"
    side_by_side $CC $CFLAGS -std=c11 -I. -Icodec -Isession -c "$src" -o "$obj"
    objs+=("$obj")
done
side_by_side $CC $CFLAGS -std=c11 -I. -c fuzzers/mutator_libfuzzer.c -o "$WORK/mutator_libfuzzer.o"
all_done

for t in $TARGETS; do
    extra=()
    case " $BYTE_TARGETS " in *" $t "*) extra=("$WORK/mutator_libfuzzer.o") ;; esac
    # the custom mutator calls LLVMFuzzerMutate, which only libFuzzer has: other engines
    # (AFL++ under OSS-Fuzz) get the targets without it
    if [ "${FUZZING_ENGINE:-libfuzzer}" != libfuzzer ]; then extra=(); fi
    side_by_side $CC $CFLAGS -std=c11 -I. -Icodec -Isession "fuzzers/$t.c" "${extra[@]}" "${objs[@]}" $LIB_FUZZING_ENGINE -lyaml -lm -o "$OUT/gdwire_$t"
done

# Seeds: the conformance packets, exported by the conformance runner (needs libyaml).
runner_srcs="conformance/runner.c conformance/vectors.c conformance/outcome.c conformance/oracle.c"
"${HOST_CC:-$(command -v cc || command -v clang)}" -std=c11 -D_GNU_SOURCE -O1 -I. $runner_srcs $CODEC_SRCS -lyaml -lm -pthread -o "$WORK/conformance-runner"
"$WORK/conformance-runner" --export godot3 --root conformance/vectors conformance/vectors > "$WORK/seeds.tsv"
all_done   # the targets
max_len_of() { case " $BYTE_TARGETS " in *" $1 "*) echo 8192 ;; *) case "$1" in capture|guard) echo 65536 ;; decompress) echo 4097 ;; pcap|files) echo 8192 ;; project) echo 65536 ;; *) echo 1024 ;; esac ;; esac; }
# The conformance packets are every vector in every dialect (about 290,000 inputs, the same ones
# the campaign writes: byte 0 the dialect, byte 1 the objects flag): a packet target gets at most
# SEED_CAP of them, every k-th in name order, so its zip stays a few MB; then its own committed
# corpus and regressions. One Python process writes every zip (no file or process per input).
SEED_CAP=${SEED_CAP:-20000}
specs=()
for t in $TARGETS; do
    case " $BYTE_TARGETS " in *" $t "*) packets=1 ;; *) packets=0 ;; esac
    specs+=("$t:$(max_len_of "$t"):$packets")
done
python3 - "$WORK/seeds.tsv" "$OUT" "$SEED_CAP" "${specs[@]}" <<'PY'
import sys
sys.path.insert(0, "tools/fuzz")
import fuzzlib
tsv, out, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
conformance = list(dict(fuzzlib.seed_inputs(tsv)).items())  # distinct names; every_kth sorts them
for spec in sys.argv[4:]:
    t, max_len, packets = spec.split(":")
    fuzzlib.seed_zip("%s/gdwire_%s_seed_corpus.zip" % (out, t), int(max_len), conformance if packets == "1" else None, cap,
                     ["corpus/" + t, "corpus/regressions/" + t])
PY
for t in $BYTE_TARGETS; do cp fuzzers/dict/all.dict "$OUT/gdwire_$t.dict"; done
for t in $TARGETS; do
    case " $BYTE_TARGETS " in *" $t "*) dict="dict = gdwire_$t.dict" ;; *) dict="" ;; esac
    printf '[libfuzzer]\nmax_len = %s\n%s\n' "$(max_len_of "$t")" "$dict" > "$OUT/gdwire_$t.options"
done
echo "gdwire: built $(echo $TARGETS | wc -w) fuzz targets into $OUT"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# reach.sh ENGINE HARNESS INPUTS [PATTERN] — which engine functions a harness reaches, by function-level perf samples
# (issue 62's "which code the harness reached", measured with perf, not a coverage build): runs engine_fuzz.py for
# INPUTS inputs under `perf record` and lists the engine's functions with samples whose names match PATTERN (an
# extended regex; default: the readers the harnesses aim at). Needs perf (root, or perf_event_paranoid <= 1) and an
# engine with symbols (godot3.6-asan has them; Debian's release builds and godot4.6-asan are stripped). A function
# that runs too briefly to be sampled is missing: the list is what was reached, not all that was.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${1:?ENGINE}; harness=${2:?HARNESS}; inputs=${3:?INPUTS}
pattern=${4:-'decode_variant|Marshalls|StreamPeer|FileAccess|_File::|Compression::|MultiplayerAPI|SceneMultiplayer|SceneRPC|SceneCache|SceneReplication|NetworkedMultiplayer|VariantParser|encode_variant|_decode_string|Image::'}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -F 2999 -o "$work/perf.data" -- "$here/engine_fuzz.py" --engine "$engine" --harness "$harness" \
    --out "$work/run" --inputs "$inputs" > "$work/log" 2>&1 || true
grep "inputs in" "$work/log" || { cat "$work/log"; exit 1; }
perf report -q -i "$work/perf.data" --stdio --comms engine --sort symbol 2>/dev/null \
    | sed -n 's/^ *\([0-9.]*%\) *\[\.\] \(.*[^ ]\) *$/\1\t\2/p' | sed 's/  *- *- *$//' | grep -E "$pattern" \
    | awk -F'\t' '{print $2}' | sed 's/(.*//' | sort -u

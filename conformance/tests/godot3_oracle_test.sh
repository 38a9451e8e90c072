#!/usr/bin/env bash
# godot3_oracle_test — every vector's godot3 engine-exact expectation against the real Godot 3
# engine (Debian's godot3-server): the same decision, error class, type and re-encoding, or a
# listed deviation. Usage (from Bazel): godot3_oracle_test.sh RUNNER RUN_ENGINE_PY
set -euo pipefail
runner=$1 run_engine=$2
vectors=conformance/vectors
tmp=${TEST_TMPDIR:-$(mktemp -d)}
if ! command -v godot3-server >/dev/null; then
    echo "godot3-server is not installed: run tools/setup.sh (the oracle test needs the real engine)"
    echo "0 passed, 1 failed"
    exit 1
fi
"$runner" --export godot3 --root "$vectors" "$vectors" > "$tmp/packets.tsv"
python3 "$run_engine" "$tmp/packets.tsv" "$tmp/results.tsv"
"$runner" --oracle godot3 --engine-results "$tmp/results.tsv" --deviations conformance/deviations.yaml \
    --root "$vectors" "$vectors"

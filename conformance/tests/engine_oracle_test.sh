#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# engine_oracle_test — every vector against a real engine through the testee protocol
# (docs/testee-protocol.md): the same decision, consumed length, error class and re-encoding as
# the vector's engine-exact expectation, or a deviation listed for that engine.
# Usage (from Bazel): engine_oracle_test.sh RUNNER TESTEE_RUN ENGINE_TESTEE ENGINE DIALECT VERSION [built]
# VERSION is the engine version the deviations were measured with; another one is said first.
# "built": an engine at $GDW_ENGINES/built/ENGINE/engine, made by tools/engines/build (Debian's
# source packages) or provided by the user: where it is missing the test says so and skips (its
# recorded answers in conformance/evidence/ are still checked by //conformance:conformance).
set -euo pipefail
runner=$1 testee_run=$2 engine_testee=$3 engine=$4 dialect=$5 version=$6 kind=${7:-}
run=$(dirname "$engine_testee")/run
engines=$("$run" --list)  # (read whole: grep -q closing the pipe early would fail it under pipefail)
if [ "$kind" = built ] && ! grep -q "^$engine	" <<<"$engines"; then
    echo "SKIP: no engine at ${GDW_ENGINES:-/var/cache/gdwire/engines}/built/$engine/engine: 'tools/engines/build $engine' makes it for a Debian row; for the others put a binary you have there (tools/engines/README.md)."
    echo "Its recorded answers (conformance/evidence/$engine.tsv) are checked by //conformance:conformance."
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
if ! listed=$(grep "^$engine	" <<<"$engines") || [[ "$listed" == *missing* ]]; then
    source tools/need.sh
    skip_or_fail "the engine $engine is not installed here (${listed#*	}): run 'sudo bash tools/setup.sh --engines' (Godot 4.6 and 3.6 come from Debian sid, made by tools/engines/setup)"
fi
python3 "$testee_run" --runner "$runner" --testee "$engine_testee $engine" --dialect "$dialect" \
    --compare-errors --engine "$engine" --expect-version "$version" \
    --deviations conformance/deviations.yaml --root conformance/vectors conformance/vectors

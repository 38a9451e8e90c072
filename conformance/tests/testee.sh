#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bazel run //conformance:testee -- --testee 'CMD' --dialect D [testee_run.py options]
# Runs the conformance vectors against any testee (docs/testee-protocol.md). Relative paths in
# CMD are taken from the directory bazel run was started in. Without --testee: gdwire itself.
set -euo pipefail
here=$(pwd)
[ -n "${BUILD_WORKING_DIRECTORY:-}" ] && cd "$BUILD_WORKING_DIRECTORY"
args=("$@")
has_testee=0
for a in "${args[@]}"; do [ "$a" = --testee ] && has_testee=1; done
[ "$has_testee" = 1 ] || args+=(--testee "$here/conformance/gdwire_testee")
# vector paths given (a subset: conformance/vectors/valid) are the runfiles' own, and only without
# any are all the vectors run: once, not twice (issue 33)
paths=0
for k in "${!args[@]}"; do
    a=${args[$k]}
    case "$a" in
        conformance/vectors|conformance/vectors/*) args[$k]="$here/$a"; paths=1 ;;
        *.yaml|*/) [ -e "$a" ] && paths=1 ;;
    esac
done
[ "$paths" = 1 ] || args+=("$here/conformance/vectors")
exec python3 "$here/conformance/testee_run.py" --runner "$here/conformance/runner" \
    --root "$here/conformance/vectors" "${args[@]}"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# replay_test.sh BINARY SEEDS.tsv CORPUS_DIR REGRESSIONS_DIR — run a fuzz target's replay build
# over the conformance vectors (in every dialect), its corpus and its crash regressions.
set -euo pipefail
bin=$1 seeds=$2
shift 2
dirs=()
for d in "$@"; do [ -d "$d" ] && dirs+=("$d"); done
exec "$bin" --vectors "$seeds" "${dirs[@]}" 2> >(grep -v '^replay ' >&2)

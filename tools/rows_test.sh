#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rows_test.sh GDWIRE FUZZLIB — every row of the dialect table (as `gdwire dialects --json` lists
# it) has what the rest of the project needs of a row, and nothing keeps its own list of rows:
#   - a dialect: its page docs/dialects/<name>.md, naming it in its title; its fuzz dictionary
#     fuzzers/dict/<name>.dict (dicts_test checks the contents);
#   - an engine release: a row of the "Engine releases" table of its dialect's page;
#   - every row: docs/dialects.md, the side-by-side page, names it;
#   - every row: conformance vectors that give it an outcome of its own (an expectation keyed by
#     its name, not only "*" or a family pattern), so the suite tells it from its neighbours;
#   - tools/fuzz/fuzzlib.py reads the same rows with the same fuzz ids (the campaign's seeds and
#     reports);
#   - the conformance runner's per-family floor covers every family (conformance/runner.c
#     load_families takes them from the table; checked here against its source).
# Run from the repository root (Bazel's runfiles root).
set -uo pipefail
gdwire=$1 fuzzlib=$2
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }
rows=$("$gdwire" dialects --json | python3 -c '
import json, sys
for r in json.load(sys.stdin):
    print(r["fuzz_id"], r["name"], r["release_of"] or "-", r["family"])')
check "gdwire dialects --json lists rows" '[ -n "$rows" ]'
while read -r id name release_of family; do
    if [ "$release_of" = - ]; then
        page=docs/dialects/$name.md
        check "$name: its page $page" '[ -f "$page" ]'
        check "$name: $page names it in its title" 'head -1 "$page" | grep -qF -- "$name"'
        check "$name: its dictionary fuzzers/dict/$name.dict" '[ -s "fuzzers/dict/$name.dict" ]'
    else
        page=docs/dialects/$release_of.md
        check "$name: a row of the Engine releases table of $page" 'grep -qF "| \`$name\` |" "$page"'
    fi
    word="(^|[^A-Za-z0-9.@-])$(sed 's/[.@]/\\&/g' <<<"$name")([^A-Za-z0-9.@-]|$)"
    check "$name: docs/dialects.md names it" 'grep -qE "$word" docs/dialects.md'
    n=$(grep -RhE "^    \"?$(sed 's/[.@]/\\&/g' <<<"$name")\"?:" conformance/vectors | wc -l)
    check "$name: vectors give it an outcome of its own ($n)" '[ "$n" -ge 1 ]'
done <<<"$rows"
want=$(awk '{print $1, $2, $3}' <<<"$rows" | sort -n)
got=$(python3 -c '
import sys; sys.path.insert(0, sys.argv[1])
import fuzzlib
for i, name, rel in fuzzlib.fuzz_rows(): print(i, name, rel or "-")' "$(dirname "$fuzzlib")")
check "tools/fuzz/fuzzlib.py reads the rows and fuzz ids the table has" '[ "$got" = "$want" ]'
check "conformance/runner.c takes its families from the table" 'grep -q "gdw_dialect_family(gdw_dialect_at(i))" conformance/runner.c'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

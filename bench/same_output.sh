#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# same_output.sh [BASE [NEW]] — the "Same output" comparison of docs/performance.md: a change that must not
# change what the decoder says (verdicts, values, errors, paths) is held to it here, byte for byte.
#   BASE, NEW: a git revision (main, HEAD~3, a hash) or a checkout's directory; BASE defaults to main, NEW
#   to this working tree. Each one's codec/ is built with gcc -O2 into bench/same_output.c (the driver is
#   always this tree's: it uses only gdwire.h, which both have), and both read every file of corpus/ (seeds
#   and regressions of every fuzz target), each whole and without its first two bytes, in every row of the
#   table, in the three modes, with and without borrow_input: decode (watching, digest, on_node, the
#   printed tree), validate, validate_watched and a cut decode (same_output.c says what each line holds).
#   The two outputs must be cmp-identical. Run it at nice 10 on a shared machine: about a minute a build.
# Prints the files compared, the lines and bytes of output, and IDENTICAL or the first difference;
# exits 0 when identical, 1 when not, 2 when it cannot run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-main} new=${2:-$here}
T=$(mktemp -d "${TMPDIR:-/tmp}/same_output.XXXXXX"); trap 'rm -rf "$T"' EXIT

tree_of() { # revision or directory -> a directory holding its codec/
    local what=$1 dir=$2
    if [ -d "$what/codec" ]; then echo "$what"; return; fi
    mkdir -p "$dir"
    git -C "$here" archive "$what" codec | tar -x -C "$dir" || { echo "same_output: '$what' is neither a checkout nor a revision" >&2; exit 2; }
    echo "$dir"
}
build() { # tree out
    gcc -std=c11 -O2 -DNDEBUG -I"$1" -I"$1/codec" $(cd "$1" && ls codec/*.c codec/*/*.c | grep -v '^codec/tests/' | sed "s|^|$1/|") \
        "$here/bench/same_output.c" -lm -o "$2" || { echo "same_output: cannot build $1" >&2; exit 2; }
}
base_tree=$(tree_of "$base" "$T/base") new_tree=$(tree_of "$new" "$T/new")
build "$base_tree" "$T/base.bin"
build "$new_tree" "$T/new.bin"
(cd "$here" && find corpus -type f ! -name BUILD ! -name README.md | LC_ALL=C sort) > "$T/files"
echo "inputs: $(wc -l < "$T/files") files of corpus/, each whole and without its first two bytes"
(cd "$here" && "$T/base.bin" < "$T/files" > "$T/base.out")
(cd "$here" && "$T/new.bin" < "$T/files" > "$T/new.out")
echo "base ($base): $(wc -l < "$T/base.out") lines, $(wc -c < "$T/base.out") bytes"
echo "new ($new): $(wc -l < "$T/new.out") lines, $(wc -c < "$T/new.out") bytes"
if cmp -s "$T/base.out" "$T/new.out"; then echo "IDENTICAL"; exit 0; fi
echo "DIFFERENT: first difference:"
cmp "$T/base.out" "$T/new.out" | head -n 1 || true
diff "$T/base.out" "$T/new.out" | head -n 20 | cut -c1-400 || true
exit 1

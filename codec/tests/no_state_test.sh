#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# no_state_test.sh LIB.a... — the library keeps no global or thread-local state (issue 58): no object of the built
# library has a symbol in a writable data section (.data, .bss, COMMON) or a thread-local one (.tdata, .tbss), but
# for the one allowed below. Read-only data after relocation (.data.rel.ro: the tables, which point at each
# other) is not state. The allowed one: numbers.c's "C" locale object (made once, on first use, published with an
# atomic compare-and-swap and never changed: a cache of a constant, which every thread may share).
set -uo pipefail
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }
# gcc names the static local shared.N, clang the_c_locale.shared
ALLOWED='^numbers[.a-z]*\.o (shared\.[0-9]+|the_c_locale\.shared)$'
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/no_state.XXXXXX"); trap 'rm -rf "$T"' EXIT
libs=()
for a in "$@"; do case $a in *.a) libs+=("$a") ;; esac; done # the archives of the library's objects (Bazel gives its .so too)
for lib in "${libs[@]}"; do
    # objdump -t: "ADDR FLAGS SECTION SIZE NAME", objects announced by "In archive ...:" / "NAME.o:     file format"
    objdump -t "$lib" | awk '
        /file format/ { obj = $1; sub(":$", "", obj); next }
        $0 ~ /[ \t](\.data|\.bss|\.tdata|\.tbss)(\.[^ \t]*)?[ \t]/ || $0 ~ /\*COM\*/ {
            for (i = 1; i <= NF; i++) if ($i ~ /^(\.data|\.bss|\.tdata|\.tbss)/ || $i == "*COM*") sec = $i
            if (sec ~ /^\.data\.rel\.ro/) next
            if ($(NF) == sec) next                  # the section symbol itself
            if ($(NF) ~ /^__unnamed_[0-9]+$/) next  # a sanitizer build'"'"'s own records (clang -fsanitize: UBSan'"'"'s source locations and type descriptors)
            print obj, $(NF), sec
        }' > "$T/state"
    objs=$(objdump -t "$lib" | grep -c 'file format')
    check "$lib: objdump read no object ($objs)" '[ "$objs" -ge 20 ]'
    while read -r obj sym sec; do
        check "$lib: $obj keeps state: $sym in $sec" '[[ "$obj $sym" =~ $ALLOWED ]]'
    done < "$T/state"
    check "$lib: the allowed locale object was not found (the scan reads nothing?)" 'grep -qE "^numbers[.a-z]*\.o (shared\.[0-9]+|the_c_locale\.shared) " "$T/state"'
done
check "no library archive given" '[ ${#libs[@]} -ge 1 ]'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

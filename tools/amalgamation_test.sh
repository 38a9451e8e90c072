#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# amalgamation_test.sh — tools/amalgamate.py writes gdwire.c + gdwire.h; gdwire.c compiles alone
# (no include path, nothing else) with -pedantic -Wall -Wextra -Werror as C99 and C11 under gcc and
# clang (and C11 at -O1, -O2, -O3 and -Os), and as C++ under g++ and clang++: C++20 with -pedantic (the dialect table names its fields
# with designated initializers, in declaration order, which C++ has since C++20), C++11 and C++17
# with -Wall -Wextra -Werror (those accept the designators as the compilers' extension). A C++
# program includes gdwire.h, builds, encodes and decodes a value, linked once against the C object
# and once against each C++ one; and examples/reply.c built on the two files answers a real
# engine's request with the engine's own reply bytes.
set -uo pipefail
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/amalgamation.XXXXXX"); trap 'rm -rf "$T"' EXIT
source tools/need.sh
need "the one-file build is compiled by both compilers, as C and C++" gcc clang g++ clang++
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }
python3 tools/amalgamate.py "$T/amal" > /dev/null || { echo "FAIL: amalgamate.py"; echo "0 passed, 1 failed"; exit 1; }
check "only gdwire.c, gdwire.h and gdwire_check.h written" '[ "$(ls "$T/amal" | tr "\n" " ")" = "gdwire.c gdwire.h gdwire_check.h " ]'
check "no include of the project's own files left" '! grep -qE "#include \"(codec|dialects)/" "$T/amal/gdwire.c"'
W="-pedantic -Wall -Wextra -Werror"
for cc in gcc clang; do
    for std in c99 c11; do
        check "$cc -std=$std: $($cc -std=$std $W -c "$T/amal/gdwire.c" -o "$T/gdwire-$cc-$std.o" 2>&1 | head -3)" '[ -s "$T/gdwire-$cc-$std.o" ]'
    done
    # optimised, as a user's release build compiles it: gcc's -Wmaybe-uninitialized only runs there
    # (issue 33 found 2-14 warnings at -O1..-O3; -Os and -O1 still had 4 and 15)
    for O in -O1 -O2 -O3 -Os; do
        check "$cc -std=c11 $O: $($cc -std=c11 $O $W -c "$T/amal/gdwire.c" -o "$T/gdwire-$cc$O.o" 2>&1 | head -3)" '[ -s "$T/gdwire-$cc$O.o" ]'
    done
done
want=$(tr -d ' \n' < examples/reply-godot4.hex)
# g++ 12 warns of every field a designated initializer leaves out, which is the point of naming
# only a dialect row's non-default fields; clang++ does not.
CXXW="-Wall -Wextra -Werror -Wno-missing-field-initializers"
run_program() { # $1 label, $2 executable
    local got; got=$("$2")
    check "$1 program: the engine's bytes" '[ "$(sed -n 1p <<<"$got")" = "$want" ]'
    check "$1 program: reads back" 'sed -n 2p <<<"$got" | grep -q "\"msg\": \"running\"}"'
}
for cxx in g++ clang++; do
    for std in c++11 c++17 c++20; do
        pedantic=; [ "$std" = c++20 ] && pedantic=-pedantic
        obj=$T/gdwire-$cxx-$std.o
        check "gdwire.c as $cxx -std=$std $pedantic: $($cxx -std=$std $pedantic $CXXW -x c++ -c "$T/amal/gdwire.c" -o "$obj" 2>&1 | head -3)" '[ -s "$obj" ]'
        [ -s "$obj" ] || continue
        exe=$T/cpp-$cxx-$std
        out=$($cxx -std=$std -pedantic $W -I"$T/amal" tools/amalgamation_test.cpp "$obj" -lm -pthread -o "$exe" 2>&1 | head -3)
        check "$cxx -std=$std, all C++: $out" '[ -x "$exe" ]'
        [ -x "$exe" ] && run_program "$cxx -std=$std, all C++" "$exe"
        exe=$T/cpp-c-$cxx-$std
        out=$($cxx -std=$std -pedantic $W -I"$T/amal" tools/amalgamation_test.cpp "$T/gdwire-gcc-c99.o" -lm -pthread -o "$exe" 2>&1 | head -3)
        check "$cxx -std=$std on the C object: $out" '[ -x "$exe" ]'
        [ -x "$exe" ] && run_program "$cxx -std=$std on the C object" "$exe"
    done
done
gcc -std=c99 $W -I"$T/amal" examples/reply.c "$T/amal/gdwire.c" -lm -pthread -o "$T/reply" 2> "$T/err"
check "examples/reply.c on the amalgamation: $(head -3 "$T/err")" '[ -x "$T/reply" ]'
check "the reply is the engine's" '[ "$("$T/reply" examples/request-godot4.hex | sed -n "s/^bytes    //p")" = "$want" ]'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# budget_test.sh [--record] — instruction budgets: deterministic, unlike timings, so a test can hold
# them. Builds bench/bench with gcc -O2 -DNDEBUG from the sources, as a release build (Bazel's test
# build is unoptimised, and its asserts on), and
# counts with callgrind the instructions of one op (bench.c run_op, --once) on small workloads in
# godot3 and godot4. It fails when
#   - an op costs more than its tolerance over its figure in bench/budget/gcc-VERSION.tsv. The
#     figures follow the compiler: each gcc that recorded figures has its own file, held to 5%.
#     A gcc with no file of its own is held to the file of the nearest recorded gcc (the same
#     major version first, else the newest) with a tolerance that follows the distance: 10% within
#     one major version, 25% across them, as code generation differs that much between
#     releases on these loops; the test says so, and `--record` writes this gcc's own file;
#   - the command, whole-process (callgrind over all of `gdwire decode -d D --noout FILE` and
#     `gdwire check FILE`, the program's start included), costs more than its figure on two packets
#     (dicts_200k and pool_byte_64m, written by bench): so a verb that starts doing work no one
#     asked for (a second decode for a note, a whole array printed for a 72-character line) fails;
#   - a fast path stops paying, whatever the figures: validation, which builds nothing, costs less
#     than a decode; it steps over a packed array in O(1) (a PackedVector3Array 10 times longer
#     costs at most 1.2 times as much); and `check` (every dialect, with what it compares) costs at
#     most 1.5 times decoding in every dialect (decode_each), the goal of docs/performance.md.
#     (The timed goal "validate ≥ 2× decode" is not an instruction ratio: decoding also pays in
#     memory traffic. bench/compare holds the timings.)
# --record writes bench/budget/gcc-VERSION.tsv for this gcc (run from the repository root).
set -uo pipefail
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/budget.XXXXXX"); trap 'rm -rf "$T"' EXIT
record=0; [ "${1:-}" = --record ] && record=1
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }
source tools/need.sh
need "callgrind counts the instructions" valgrind
cc=$(gcc -dumpfullversion)
gcc -std=c11 -O2 -DNDEBUG -I. $(ls codec/*.c codec/*/*.c | grep -v '^codec/tests/') bench/bench.c bench/workloads.c -lm -o "$T/bench" 2> "$T/cc.err" \
    || { cat "$T/cc.err"; echo "FAIL: cannot build bench"; echo "0 passed, 1 failed"; exit 1; }
man_page="$T/man_page.c" # the manual's text, as Bazel's //cli:man_page makes it
sh tools/man_to_c.sh docs/gdwire.1 "$man_page"
gcc -std=c11 -O2 -DNDEBUG -I. -Icodec -Isession $(ls codec/*.c codec/*/*.c | grep -v '^codec/tests/') session/*.c files/*.c project/*.c guard/*.c $(ls cli/*.c | grep -v '^cli/man_page.c$') "$man_page" -lyaml -ldl -lm -o "$T/gdwire" 2> "$T/cc.err" \
    || { cat "$T/cc.err"; echo "FAIL: cannot build the command"; echo "0 passed, 1 failed"; exit 1; }
SCALE=0.01
WORKLOADS="game_state dicts_200k strings_500k utf8_strings pool_vector3_1m nested_1000 deep_dict"
OPS="decode validate encode check decode_each"
count() { # workload dialect op -> instructions of run_op
    valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" --toggle-collect=run_op \
        "$T/bench" --workload "$1" --dialect "$2" --op "$3" --scale $SCALE --once > /dev/null 2>&1 || { echo -1; return; }
    sed -n 's/^summary: //p' "$T/cg.out"
}
declare -A ir
for w in $WORKLOADS; do
    for d in godot3 godot4; do
        for op in $OPS; do ir[$w.$d.$op]=$(count "$w" "$d" "$op"); done
    done
done
# the command, whole-process, on packets bench writes at the same scale
CMD_WORKLOADS="dicts_200k pool_byte_64m"
count_cmd() { # out-name command... -> instructions of the whole process
    valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" "${@:2}" > /dev/null 2>&1
    [ $? -le 1 ] && sed -n 's/^summary: //p' "$T/cg.out" || echo -1
}
for d in godot3 godot4; do
    mkdir -p "$T/pk-$d"
    "$T/bench" --dialect "$d" --scale $SCALE --write-packets "$T/pk-$d" > /dev/null 2>&1
    for w in $CMD_WORKLOADS; do
        f="$T/pk-$d/$w.$d.bin"
        ir[command_$w.$d.decode]=$(count_cmd x "$T/gdwire" decode -d "$d" --noout "$f")
        ir[command_$w.$d.check]=$(count_cmd x "$T/gdwire" check "$f")
    done
done
# The figures of this gcc, or of the nearest one recorded, and the tolerance that goes with them.
budget_for() { # gcc version -> "FILE PERCENT"
    local want=$1 f v best="" bestv=""
    [ -f "bench/budget/gcc-$want.tsv" ] && { echo "bench/budget/gcc-$want.tsv 5"; return; }
    for f in bench/budget/gcc-*.tsv; do
        v=${f#bench/budget/gcc-}; v=${v%.tsv}
        [ "${v%%.*}" = "${want%%.*}" ] && { echo "$f 10"; return; }
        if [ -z "$bestv" ] || [ "$(printf '%s\n%s\n' "$bestv" "$v" | sort -V | tail -n 1)" = "$v" ]; then best=$f bestv=$v; fi
    done
    echo "$best 25"
}
if [ "$record" = 1 ]; then
    mkdir -p bench/budget
    { echo "# bench/budget_test.sh --record: instructions of one op (callgrind, bench --scale $SCALE --once)"
      echo "# gcc $cc -O2"
      for w in $WORKLOADS; do for d in godot3 godot4; do for op in $OPS; do echo "$w	$d	$op	${ir[$w.$d.$op]}"; done; done; done
      for w in $CMD_WORKLOADS; do for d in godot3 godot4; do for op in decode check; do echo "command_$w	$d	$op	${ir[command_$w.$d.$op]}"; done; done; done
    } > "bench/budget/gcc-$cc.tsv"
    echo "recorded bench/budget/gcc-$cc.tsv"
fi
# the choice itself, for compilers this machine does not have (the recorded gcc is 12.2.0)
check "gcc 12.2.0 is held to its own figures within 5%" '[ "$(budget_for 12.2.0)" = "bench/budget/gcc-12.2.0.tsv 5" ]'
check "gcc 12.3.0 is held to 12.2.0's within 10%" '[ "$(budget_for 12.3.0)" = "bench/budget/gcc-12.2.0.tsv 10" ]'
check "gcc 14.2.0 is held to the newest recorded within 25%" '[ "$(budget_for 14.2.0)" = "bench/budget/gcc-12.2.0.tsv 25" ]'
read -r budget_file tolerance < <(budget_for "$cc")
check "budget figures recorded for some gcc (bench/budget/gcc-*.tsv)" '[ -n "$budget_file" ] && [ -f "$budget_file" ]'
[ -f "$budget_file" ] || { echo "$passed passed, $failed failed"; exit 1; }
want_cc=$(sed -n 's/^# gcc \([^ ]*\) -O2$/\1/p' "$budget_file")
check "$budget_file says it was recorded with gcc ${want_cc:-?}" '[ "bench/budget/gcc-$want_cc.tsv" = "$budget_file" ]'
if [ "$want_cc" = "$cc" ]; then echo "gcc $cc: its own figures ($budget_file), held to ${tolerance}%"
else echo "NOTE: no figures recorded with gcc $cc: held to gcc $want_cc's ($budget_file) within ${tolerance}%; bench/budget_test.sh --record writes this gcc's own"; fi
printf '%-16s %-7s %-12s %12s %12s %7s\n' workload dialect op instructions budget ratio
while IFS=$'\t' read -r w d op budget; do
    case "$w" in '#'*|'') continue ;; esac
    got=${ir[$w.$d.$op]:-}
    check "$w $d $op is measured" '[ -n "$got" ] && [ "$got" -gt 0 ]'
    [ -n "$got" ] && [ "$got" -gt 0 ] || continue
    printf '%-16s %-7s %-12s %12d %12d %7.3f\n' "$w" "$d" "$op" "$got" "$budget" "$(awk -v a="$got" -v b="$budget" 'BEGIN { print a / b }')"
    check "$w $d $op: $got instructions, over its budget of $budget + ${tolerance}% (gcc $want_cc's figure)" '[ $((got * 100)) -le $((budget * (100 + tolerance))) ]'
done < "$budget_file"
for w in $WORKLOADS; do
    for d in godot3 godot4; do
        dec=${ir[$w.$d.decode]} val=${ir[$w.$d.validate]} chk=${ir[$w.$d.check]} each=${ir[$w.$d.decode_each]}
        check "$w $d: validate ($val) costs no less than a decode ($dec)" '[ "$val" -lt "$dec" ]'
        check "$w $d: check ($chk) costs more than 1.5x decoding in every dialect ($each)" '[ $((chk * 2)) -le $((each * 3)) ]'
    done
done
small=${ir[pool_vector3_1m.godot4.validate]}
SCALE=0.1 big=$(count pool_vector3_1m godot4 validate)
echo "validate pool_vector3_1m godot4: $small instructions at scale 0.01, $big at 0.1"
check "validate pool_vector3_1m is not O(1): $small instructions, $big at 10 times the size" '[ $((big * 10)) -le $((small * 12)) ]'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

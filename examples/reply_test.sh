#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# reply_test.sh REPLY — the example server (examples/reply.c) on real engines' requests: its reply
# bytes must be exactly what the engine writes for the same reply value (examples/README.md says how
# each file was recorded); a request it cannot trust is refused with exit 1 and a reason.
set -uo pipefail
reply=$1
here=$(dirname "$0")
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/reply.XXXXXX"); trap 'rm -rf "$T"' EXIT
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }

for g in godot4 godot3; do
    out=$("$reply" "$here/request-$g.hex" 2>"$T/err"); rc=$?
    check "$g: exit $rc" '[ "$rc" -eq 0 ]'
    check "$g: dialect" 'grep -qx "dialect  $g" <<<"$out"'
    got=$(sed -n 's/^bytes    //p' <<<"$out")
    want=$(tr -d ' \n' < "$here/reply-$g.hex")
    check "$g: reply bytes differ from the engine's: $got" '[ "$got" = "$want" ]'
    check "$g: reply text" 'grep -q "^reply    {\"ok\": true, \"id\": 7, \"pos\": Vector2(3.0, 4.0), \"eta\": 1.6666666666666667, \"msg\": \"running\"}$" <<<"$out"'
    # raw bytes work as well as hex
    printf "$(tr -d " \n" < "$here/request-$g.hex" | sed "s/../\\\\x&/g")" > "$T/raw"
    check "$g: raw bytes" '[ "$("$reply" "$T/raw" | sed -n "s/^bytes    //p")" = "$want" ]'
done
# refused: the id is a string; the packet is cut short; "cmd" missing (a bare int)
sed 's/0200000007000000/0400000001000000 37000000/' "$here/request-godot3.hex" > "$T/id-string.hex"
"$reply" "$T/id-string.hex" > /dev/null 2> "$T/err"; rc=$?
check "id as a string: exit $rc" '[ "$rc" -eq 1 ] && grep -q "\"id\" is not an int" "$T/err"'
head -c 40 "$here/request-godot3.hex" > "$T/short.hex"
"$reply" "$T/short.hex" > /dev/null 2> "$T/err"; rc=$?
check "truncated: exit $rc" '[ "$rc" -eq 1 ] && grep -q "no dialect" "$T/err"'
echo 0200000007000000 > "$T/int.hex"
"$reply" "$T/int.hex" > /dev/null 2> "$T/err"; rc=$?
check "a bare int: exit $rc" '[ "$rc" -eq 1 ] && grep -q "cmd" "$T/err"'
"$reply" "$T/none" > /dev/null 2>&1; rc=$?
check "missing file: exit $rc" '[ "$rc" -eq 2 ]'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# testee_run_test — the testee runner survives a testee that hangs, dies and answers garbage
# (inside a window of several packets, each failure pinned on its own packet), compares
# re-encodings, and applies engine-scoped pattern deviations, a stale one failing the run.
# Usage (from Bazel): testee_run_test.sh RUNNER TESTEE_RUN GDWIRE_TESTEE
set -uo pipefail
runner=$1 testee_run=$2 gdwire_testee=$3
dir=conformance/tests/testee
passed=0 failed=0
check() { # name, pattern, text
    if grep -q -- "$2" <<<"$3"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: no '$2' in:"; echo "$3" | head -40; fi
}
run() { python3 "$testee_run" --runner "$runner" --root $dir --dialect godot3 --timeout 2 "$@" $dir/five.yaml 2>&1; }
# The runs against the fake testee each wait out its hang (--timeout 2) and its restarts: they run side by side,
# each into its own file, and are read below in order.
bgdir=$(mktemp -d)
bg() { local name=$1; shift; (run "$@" > "$bgdir/$name.out"; echo $? > "$bgdir/$name.rc") & }
bg fake --testee "$dir/fake_testee.py"
bg show --testee "$dir/fake_testee.py" --show 1
bg dev_fake --testee "$dir/fake_testee.py" --engine fake --deviations $dir/deviations.yaml
bg dev_other --testee "$dir/fake_testee.py" --engine other --deviations $dir/deviations.yaml
wait
got() { out=$(cat "$bgdir/$1.out"); rc=$(cat "$bgdir/$1.rc"); }

got fake
check "exit status" "^1$" "$rc"
check "hang pinned on its packet" 'int 1 (the testee hangs).*the testee hung' "$out"
check "crash pinned on its packet" 'int 2 (the testee dies).*the testee crashed' "$out"
check "garbage is a bad response" 'int 3 (the testee answers garbage).*the testee crashed' "$out"
check "wrong re-encoding" 'int 4 (the testee re-encodes it wrong).*re-encoding differs' "$out"
check "the packets around them agree" 'five.yaml *6 *2 *0 *1 *1 *2 *0' "$out"
check "restarts counted (a failure inside a window restarts into one-at-a-time)" '5 restarts' "$out"

# the report: the summary first, the disagreements grouped by what differs, the closing line last
# (issue 33)
first_fail=$(grep -n '^FAIL' <<<"$out" | head -1 | cut -d: -f1)
table=$(grep -n 'five.yaml *6' <<<"$out" | head -1 | cut -d: -f1)
[ -n "$first_fail" ] && [ -n "$table" ] && [ "$table" -lt "$first_fail" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL the summary does not come before the disagreements"; }
check "disagreements grouped by kind" 'disagreements, [0-9]* kinds (by what differs)' "$out"
check "the closing line last" '[0-9]* passed, [0-9]* failed$' "$(tail -1 <<<"$out")"
got show
check "--show caps what is printed in full" 'disagreements printed: --show 0 prints them all' "$out"
# --dialect all: every row asked and ranked; gdwire's own testee speaks them all
out=$(python3 "$testee_run" --runner "$runner" --root $dir --dialect all --testee "$gdwire_testee" $dir/five.yaml 2>/dev/null)
check "--dialect all ranks every row" '^godot3@3.2 ' "$out"
check "--dialect all names the row the testee speaks" '^the testee speaks ' "$out"

got dev_fake
check "pattern deviation excuses int 4" 'five.yaml *6 *2 *1 *0 *1 *2 *0' "$out"
check "a pattern deviation matching an agreeing vector is stale" 'STALE deviation line 2: the testee now agrees on five.yaml#int 5' "$out"
got dev_other
check "a deviation for another engine does not apply" 'five.yaml *6 *2 *0 *1 *1 *2 *0' "$out"

# no address-space limit: a sanitizer build of the testee reserves terabytes of shadow memory
out=$(run --testee "$gdwire_testee" --memory 0); rc=$?
check "gdwire agrees with its own vectors" '^6 passed, 0 failed' "$out"
check "gdwire: exit 0" "^0$" "$rc"
out=$(run --testee "echo hello")
check "a testee of another protocol is refused" "speaks 'hello', not gdwire-testee/1" "$out"

# a hostile testee (issue 34): each is refused or survived, never kills the runner, never stays
# running, and leaves no temporary folder behind
export TMPDIR=$(mktemp -d)
before=$(ls "$TMPDIR" | wc -l)
# the testee writes its own process id (exec keeps it) before it sleeps: the check asks about that
# process only, not about any `sleep 300` on the machine (a system-wide pgrep saw other ones)
pidfile="$TMPDIR/../testee.pid"
out=$(run --testee "echo \$\$ > $pidfile; printf 'gdwire-testee/1\tx\t1\tmany\n'; exec sleep 300"); rc=$?
check "a window that is not a number is refused" "names a window 'many', not a number" "$out"
check "... with exit status 2" "^2$" "$rc"
tpid=$(cat "$pidfile" 2>/dev/null)
if [ -n "$tpid" ] && kill -0 "$tpid" 2>/dev/null; then failed=$((failed + 1)); echo "FAIL the testee is still running"; kill -9 "$tpid"
else passed=$((passed + 1)); fi
rm -f "$pidfile"
t0=$(date +%s)
out=$(run --testee "exec sleep 300" --hello-timeout 2); rc=$?
check "no hello within --hello-timeout" "no hello line within 2 s" "$out"
[ $(($(date +%s) - t0)) -lt 30 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL --hello-timeout was not kept"; }
# a hello, then one line without an end that grows without limit: bounded, the packets answered
# as garbled, the run ends
out=$(run --testee "printf 'gdwire-testee/1\tx\t1\t1\n'; exec yes x | tr -d '\n'" --memory 0); rc=$?
check "an endless line is a garbled answer, not a buffer without end" "the testee crashed\|bad-response\|garbled" "$out"
check "... and the run still ends with its summary" "passed, .* failed" "$out"
# a testee whose name carries terminal controls (ESC, CR, RIGHT-TO-LEFT OVERRIDE) and that writes
# to stderr without end (issue 55): the name is printed escaped, the log keeps the last 64 KiB
keep=$(mktemp -d)
out=$(run --testee "printf 'gdwire-testee/1\tev\033[2Jil\r\342\200\256x\t1\t1\n'; yes 'stderr flood' >&2 & exec $gdwire_testee" --memory 0 --keep "$keep"); rc=$?
check "a testee's name with controls is printed escaped" 'testee: ev\\u001b\[2Jil\\u000d\\u202ex ' "$out"
if grep -q $'\033\|\r' <<<"$out"; then failed=$((failed + 1)); echo "FAIL a raw ESC or CR reached the output"; else passed=$((passed + 1)); fi
size=$(stat -c %s "$keep/testee.log" 2>/dev/null || echo missing)
[ "$size" != missing ] && [ "$size" -le 66000 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL the testee's stderr log is $size bytes, not at most 64 KiB"; }
rm -rf "$keep"
# the runner under a ulimit -v below --memory: the testee's limit is lowered to it
out=$( (ulimit -v 3000000; run --testee "$gdwire_testee" --memory 8192) ); rc=$?
check "ulimit -v below --memory: runs" '^6 passed, 0 failed' "$out"
after=$(ls "$TMPDIR" | wc -l)
[ "$after" = "$before" ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL temporary folders left: $(ls "$TMPDIR")"; }
rm -rf "$TMPDIR" "$bgdir"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# campaign_args_test.sh CAMPAIGN — the campaign refuses bad arguments at once (exit 2, a message),
# before it builds or seeds anything: --jobs 0 used to build, seed, then sleep forever.
set -u
c="$1"; pass=0; fail=0
for args in "--jobs 0" "--jobs -3" "--minutes 0" "--minutes -1" "--minutes nan" "--oracle-minutes 0" "--engine qemu" \
    "--seed-cap -1" "--seed-cap 20000"; do   # a cap without --no-update-corpus would shrink the committed corpus's base
    out=$(timeout 20 python3 "$c" $args --out "$TEST_TMPDIR/never" 2>&1); rc=$?
    if [ "$rc" = 2 ] && [ ! -e "$TEST_TMPDIR/never" ] && grep -q "error:" <<<"$out"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: campaign $args: exit $rc, $(head -c 300 <<<"$out")"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_threads_test.sh GDWIRE PYTHON — `gdwire check` spreads the dialects of a packet of 1 MiB or more
# over threads (cli/check.c check_all): its output, matrix, JSON and one line a packet, is the same
# on one thread (GDWIRE_THREADS=1) and on eight, for packets the test builds itself. .ci/run runs it
# under ThreadSanitizer too.
set -u
G=$1 PY=${2:-python3}
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/threads.XXXXXX"); trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
"$PY" - "$T" <<'PY'
import struct, sys
out = sys.argv[1]
def s(t):
    b = t.encode(); return struct.pack("<II", 4, len(b)) + b + b"\0" * (-len(b) % 4)
n = 40000  # about 1.3 MB: over the 1 MiB from which check uses threads
dicts = struct.pack("<II", 19, n) + b"".join(
    struct.pack("<II", 18, 2) + s("i") + struct.pack("<Ii", 2, k) + s("s") + s("v%d" % k) for k in range(n))
floats = struct.pack("<II", 24, 200000) + b"".join(struct.pack("<f", k * 0.5) for k in range(400000))  # godot3 PoolVector2Array
open(out + "/dicts.bin", "wb").write(dicts)
open(out + "/floats.bin", "wb").write(floats)
open(out + "/stream.bin", "wb").write(b"".join(struct.pack("<I", len(p)) + p for p in (dicts, floats, dicts)))
PY
for args in "$T/dicts.bin" "--json $T/dicts.bin" "$T/floats.bin" "--json $T/floats.bin" "-v --framing stream $T/stream.bin" "--framing stream $T/stream.bin"; do
    # shellcheck disable=SC2086
    GDWIRE_THREADS=1 "$G" check $args > "$T/one.out" 2>&1; r1=$?
    # shellcheck disable=SC2086
    GDWIRE_THREADS=8 "$G" check $args > "$T/many.out" 2>&1; r8=$?
    [ "$r1" = "$r8" ] && ok || bad "check $args: exit $r1 on one thread, $r8 on eight"
    cmp -s "$T/one.out" "$T/many.out" && ok || { bad "check $args: other output on eight threads"; diff "$T/one.out" "$T/many.out" | head -5 >&2; }
    [ -s "$T/one.out" ] && ok || bad "check $args: no output"
done
grep -q 'Most likely' "$T/one.out" || grep -q 'ranks first' "$T/one.out" && ok || bad "the last run printed no summary"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# testee_forgery_test.sh ENGINE — a packet cannot forge the adapter's markers (issue 34). A Godot 3
# Object whose class name holds line breaks and "@@" lines makes the engine print that name on
# stderr, in its "class not found" error. The adapter must still give each packet its own answer:
# the Object rejected, the Nil and the int after it accepted. Before the markers carried a random
# word, the name moved the rejection onto the next packet ("\n@@1\n") or crashed the adapter
# ("\n@@oops\n"). Skips, saying so, when the engine is not installed (tools/engines/setup).
set -uo pipefail
engine=$1
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$("$here/run" "$engine" --version 2>/dev/null)" ]; then  # (3.2.3 exits 255 after printing it)
    source tools/need.sh
    skip_or_fail "engine $engine is not installed here (sudo tools/engines/setup)"
fi
object() { # a Godot 3 Object (type 17) of class $1, no properties, as hex
    python3 -c 'import struct,sys
n=sys.argv[1].encode()
print((struct.pack("<II",17,len(n))+n+b"\0"*(-len(n)%4)+struct.pack("<I",0)).hex())' "$1"
}
requests=$(printf '0\tgodot3\tengine-exact\t1\t%s\n1\tgodot3\tengine-exact\t0\t00000000\n2\tgodot3\tengine-exact\t1\t%s\n3\tgodot3\tengine-exact\t0\t0200000005000000\n' \
    "$(object $'Nope\n@@1\n@@oops\n@@gdw:2\n')" "$(object $'X\n@@done\nR\t3\t0\t\t\t\n')")
out=$(printf '%s\n' "$requests" | python3 "$here/testee.py" "$engine" | tail -n +2)
pass=0 fail=0
# --binary: the same requests through a build of one's own (here a wrapper around the same engine,
# as a fork's maintainer would point at theirs), named NAME for its driver (issue 33)
wrapper=$(mktemp)
printf '#!/bin/sh\nexec "%s/run" %s "$@"\n' "$here" "$engine" > "$wrapper"
chmod +x "$wrapper"
out_bin=$(printf '%s\n' "$requests" | python3 "$here/testee.py" "$engine" --binary "$wrapper" | tail -n +2)
rm -f "$wrapper"
[ "$out_bin" = "$out" ] && pass_bin=1 || { pass_bin=0; echo "FAIL: --binary answers otherwise:"; echo "$out_bin" | head -5; }
expect() { # id verdict
    local got
    got=$(printf '%s\n' "$out" | awk -F'\t' -v id="$1" '$1 == id { print $2 }')
    if [ "$got" = "$2" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: packet $1: $got, want $2"; fi
}
expect 0 rejected
expect 1 accepted
expect 2 rejected
expect 3 accepted
printf '%s\n' "$out"
[ "$pass_bin" = 1 ] && pass=$((pass + 1)) || fail=$((fail + 1))
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

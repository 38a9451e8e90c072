#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# engine_packets_test — every packet a real engine wrote (PACKETS: "name<TAB>hex" lines, made by
# make_packets4.sh) is accepted by gdwire in DIALECT's strict mode, which accepts exactly what
# gdwire's own encoder writes: each value is read whole and written back byte for byte.
# Usage (from Bazel): engine_packets_test.sh GDWIRE_TESTEE PACKETS DIALECT
set -euo pipefail
testee=$1 packets=$2 dialect=$3
grep -v '^#' "$packets" | awk -F'\t' -v d="$dialect" '{ printf "%d\t%s\tstrict\t0\t%s\n", NR, d, ($2 == "" ? "-" : $2) }' |
    "$testee" | tail -n +2 | paste <(grep -v '^#' "$packets") - |
    awk -F'\t' '
        { n++ }
        $4 != "accepted" { bad++; print "FAIL " $1 ": " $4 " " $7 " " $8; next }
        $6 != $2 { bad++; print "FAIL " $1 ": re-encoded as " $6 ", the engine wrote " $2; next }
        { ok++ }
        END { if (n < 200) { print "FAIL only " n " packets (want at least 200)"; bad++ }
              print ok + 0 " passed, " bad + 0 " failed"; exit bad > 0 }'

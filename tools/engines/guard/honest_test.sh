#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# honest_test.sh GDWIRE ENGINE — the honest session through `GDWIRE guard` equals a direct one
# (honest_runs.sh, honest_compare.py): the engines' logs line for line, every ENet command forwarded with
# the same bytes, every datagram without a fragment whole and in order. Needs tcpdump and the right to
# capture on lo (root or CAP_NET_RAW); skips, saying so, without them or the engine.
set -uo pipefail
gdwire=$1 engine=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
source "$root/tools/need.sh"
need "capturing both sides of the guard" tcpdump
[ -n "$("$root/tools/engines/run" "$engine" --version 2>/dev/null)" ] ||
    skip_or_fail "engine $engine is not installed here (sudo tools/engines/setup)"
timeout 1 tcpdump -i lo -c 1 -w /dev/null udp port 9 >/dev/null 2>&1; [ $? != 1 ] ||
    skip_or_fail "tcpdump cannot capture on lo here (needs root or CAP_NET_RAW)"
"$here/honest_runs.sh" "$gdwire" "$engine"

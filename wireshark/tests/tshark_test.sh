#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# //wireshark:tshark_test: tools/need.sh's rules for tshark, then tshark_test.py (its head says what it holds).
. tools/need.sh
need "the Godot dissector's test (Debian's tshark, through tools/setup.sh)" tshark setpriv python3
exec python3 wireshark/tests/tshark_test.py "$@"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# need_tshark.sh SCRIPT.py ARGS...: tools/need.sh's rules for Debian's tshark, editcap and randpkt (tools/setup.sh
# installs them), then the Python test SCRIPT (its head says what it holds).
. tools/need.sh
need "the Godot dissector's tests (Debian's tshark, through tools/setup.sh)" tshark editcap randpkt setpriv python3
script=$1
shift
exec python3 "$script" "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# filter_test.sh GDWIRE GODOT3.2-PACKETS.TSV — runs filter_test.py (the command through pipes).
exec python3 cli/tests/filter_test.py "$@"   # the runfiles root is the working directory

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# growth_test.sh GDWIRE — every verb of the command, in every mode, grows linearly on hostile
# shapes (issues 14 and 34): bench/growth.py at 64 KiB, 256 KiB and 1 MiB, failing when a
# verb's CPU time grows more than 48-fold from 1x to 16x (linear: 16; quadratic: 256).
set -euo pipefail
here=$(dirname "$0")
exec python3 "$here/growth.py" "$1" --base 64 --check 48

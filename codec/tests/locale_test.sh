#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# locale_test.sh PROGRAM — makes the de_DE.UTF-8 locale (decimal point ',') in a temporary folder
# with localedef (no root needed: the locale sources come with Debian's "locales" package, which
# tools/setup.sh installs) and runs PROGRAM under it (codec/tests/locale_test.c, threads_test.c).
set -uo pipefail
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/locale.XXXXXX"); trap 'rm -rf "$T"' EXIT
localedef -i de_DE -f UTF-8 "$T/de_DE.UTF-8" > "$T/log" 2>&1
if [ ! -d "$T/de_DE.UTF-8" ]; then
    cat "$T/log"
    echo "FAIL: localedef could not make de_DE.UTF-8 (is the 'locales' package installed? bash tools/setup.sh)"
    echo "0 passed, 1 failed"
    exit 1
fi
LOCPATH=$T exec "$1" de_DE.UTF-8

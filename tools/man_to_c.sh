#!/bin/sh
# SPDX-License-Identifier: MIT
# man_to_c.sh MAN OUT — the manual page as a C string (const char gdwire_man_page[]) for
# `gdwire help`. The one generator: Bazel's //cli:man_page and the CMake build both run it.
set -eu
{
    echo 'const char gdwire_man_page[] ='
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$1"
    echo ';'
} > "$2"

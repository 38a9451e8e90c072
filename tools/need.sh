# SPDX-License-Identifier: MIT
# need.sh — sourced by the tests that need a program beyond a compiler and Bazel (valgrind, qemu,
# clang, cmake, an engine from tools/engines/setup). `tools/setup.sh` installs every one of them,
# so on a set-up machine nothing skips; a newcomer who has not run it yet still gets a quick,
# green `bazel test //...`, each missing program said once.
#
#   need "WHAT IT IS FOR" PROGRAM...   every PROGRAM is on PATH, or the test ends here:
#       it prints "SKIP: ..." and "0 passed, 0 failed, 1 skipped" and exits 0;
#       under GDW_NO_SKIP=1 (.ci/run sets it) it prints "FAIL: ..." and exits 1 instead,
#       so CI runs every test or fails.
#   skip_or_fail "WHY"                 the same ending, for a test that found what it needs
#                                      missing some other way (an engine that does not start).
#
# The tests that source it carry a tag naming what they need (README "Contributing", "A quick
# loop"): bazel test //... --test_tag_filters=-engine,-qemu,-valgrind,-slow leaves them out.
skip_or_fail() {
    if [ "${GDW_NO_SKIP:-0}" = 1 ]; then
        echo "FAIL: $1 (GDW_NO_SKIP=1: a skip is a failure here)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "SKIP: $1; nothing checked"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
}

need() {
    local what=$1 missing="" p
    shift
    for p in "$@"; do command -v "$p" > /dev/null 2>&1 || missing="$missing $p"; done
    [ -z "$missing" ] || skip_or_fail "needs${missing} ($what), not installed here: run 'sudo bash tools/setup.sh'"
}

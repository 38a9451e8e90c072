#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh GDWIRE — the page's test under Bazel (web/BUILD): builds web/dist/gdwire.html from this checkout's
# sources in a scratch copy (web/build.sh: emscripten, esbuild), then drives it in Debian's headless Chromium
# (tests/page_test.mjs) beside the C command GDWIRE. The screenshots land in the test's outputs
# (bazel-testlogs/web/web_test/test.outputs/).
set -euo pipefail
source tools/need.sh
need "the page (nodejs, emscripten, esbuild, chromium, xxd: tools/setup.sh)" node emcc esbuild chromium xxd
gdwire=$(realpath "$1") sizes=$(realpath tools/size_figures.py)
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/web.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
tar -ch codec session files project js web tools/engines cli/samples 2>/dev/null | tar -x -C "$work/src"
start=$SECONDS
"$work/src/web/build.sh" "$work/out" > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: the page does not build"; echo "0 passed, 1 failed"; exit 1; }
if grep -E "warning" "$work/build.log"; then echo "FAIL: the page builds with warnings"; echo "0 passed, 1 failed"; exit 1; fi
echo "built $(tail -1 "$work/build.log" | sed 's/^build.sh: //') in $((SECONDS - start)) s"
# the size web/README.md quotes, against the page just built (within 10 %)
python3 "$sizes" "$work/src/web/README.md" "gdwire.html \(about ([0-9,]+) KB" "$work/out/gdwire.html" ||
    { echo "FAIL: web/README.md's size is not the page's"; echo "0 passed, 1 failed"; exit 1; }
out=${TEST_UNDECLARED_OUTPUTS_DIR:-$work/shots}
mkdir -p "$out"
# Chromium writes its caches under HOME, which may be read-only here
rc=0
HOME=$work GDWIRE_ROOT="$work/src" node "$work/src/web/tests/page_test.mjs" "$work/out/gdwire.html" "$gdwire" "$out" > "$work/page.log" 2>&1 || rc=$?
# (Chromium's complaints about a missing D-Bus, which a headless run does not use, left out)
grep -v -e dbus -e 'chromium: 9: \[' "$work/page.log" || true
grep -qE '^[0-9]+ passed, 0 failed$' "$work/page.log" || rc=1
exit $rc

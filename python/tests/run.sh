#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh RUNNER TESTEE — the Python package's tests under Bazel (python/BUILD): builds the extension
# from this checkout's C sources in a scratch copy with Debian's python3-dev and python3-setuptools,
# as `pip install ./python` would, then runs python/tests with the C runner and testee beside it.
set -euo pipefail
source tools/need.sh
need "the Python package (python3-dev, python3-setuptools: tools/setup.sh)" python3
runner=$(realpath "$1") testee=$(realpath "$2")
python3 - <<'PY' || skip_or_fail "the Python package needs Python.h and setuptools (apt-get install python3-dev python3-setuptools)"
import os, sysconfig, setuptools  # noqa: F401
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))
PY
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/python.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
# the files the tests read, where they sit in a checkout
tar -ch codec python tools/engines conformance/vectors corpus 2>/dev/null | tar -x -C "$work/src"
cd "$work/src/python"
start=$SECONDS
python3 setup.py -q build_ext --inplace > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: the extension does not build"; exit 1; }
if grep -E "warning:" "$work/build.log"; then echo "FAIL: the extension builds with warnings"; exit 1; fi
echo "built the extension in $((SECONDS - start)) s ($(python3 -c 'import sys; print(sys.version.split()[0])'))"
GDWIRE_RUNNER=$runner GDWIRE_TESTEE=$testee python3 -m unittest -v tests.test_api tests.test_engine_packets tests.test_testee_agreement 2>&1 |
    tee "$work/test.log" | grep -vE "^test_|^ok$|\.\.\. ok$" || true
if grep -qE "^OK" "$work/test.log"; then
    n=$(grep -oE "^Ran [0-9]+" "$work/test.log" | grep -oE "[0-9]+")
    echo "$n passed, 0 failed"
else
    echo "0 passed, 1 failed"
    exit 1
fi

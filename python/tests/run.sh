#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh RUNNER TESTEE GDWIRE — the Python package's tests under Bazel (python/BUILD): builds the extension
# from this checkout's C sources in a scratch copy with Debian's python3-dev and python3-setuptools,
# as `pip install ./python` would, then runs python/tests with the C runner and testee beside it, and the
# gdwire command that test_session.py holds gdwire.Session against.
set -euo pipefail
source tools/need.sh
need "the Python package (python3-dev, python3-setuptools: tools/setup.sh)" python3
runner=$(realpath "$1") testee=$(realpath "$2") gdwire=$(realpath "$3")
# Debian's Python, which tools/setup.sh gives python3-dev, hypothesis, msgpack and mypy, even where another
# python3 (pyenv, a venv) comes first on PATH; GDWIRE_PYTHON names another
py=${GDWIRE_PYTHON:-python3}
[ -n "${GDWIRE_PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
python3() { "$py" "$@"; }
python3 - <<'PY' || skip_or_fail "the Python package needs Python.h and setuptools (apt-get install python3-dev python3-setuptools)"
import os, sysconfig, setuptools  # noqa: F401
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))
PY
python3 -c "import hypothesis, msgpack, mypy" 2> /dev/null ||
    skip_or_fail "the Python package's tests need hypothesis, msgpack and mypy (apt-get install python3-hypothesis python3-msgpack mypy)"
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/python.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
# the files the tests read, where they sit in a checkout
tar -ch codec session files project python tools/engines conformance/vectors conformance/sessions conformance/saves conformance/projects corpus 2>/dev/null | tar -x -C "$work/src"
cd "$work/src/python"
start=$SECONDS
python3 setup.py -q build_ext --inplace > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: the extension does not build"; exit 1; }
if grep -E "warning:" "$work/build.log"; then echo "FAIL: the extension builds with warnings"; exit 1; fi
echo "built the extension in $((SECONDS - start)) s ($(python3 -c 'import sys; print(sys.version.split()[0])'))"
# the typing the package promises: mypy --strict accepts the package, the examples that use it and the session test
if ! python3 -m mypy --strict --cache-dir "$work/mypy" examples/server.py examples/relay_bot.py gdwire tests/test_session.py tests/test_saves.py > "$work/mypy.log" 2>&1; then
    cat "$work/mypy.log"; echo "FAIL: mypy --strict"; echo "0 passed, 1 failed"; exit 1
fi
echo "mypy --strict: $(tail -1 "$work/mypy.log")"
GDWIRE_RUNNER=$runner GDWIRE_TESTEE=$testee GDWIRE_CLI=$gdwire python3 -m unittest -v tests.test_api tests.test_engine_packets tests.test_two_paths tests.test_constants \
    tests.test_properties tests.test_testee_agreement tests.test_session tests.test_saves 2>&1 |
    tee "$work/test.log" | grep -vE "^test_|^ok$|\.\.\. ok$" || true
# a file or socket a test leaves open is a defect (it once printed 1 MB of ResourceWarnings)
if grep -q "ResourceWarning" "$work/test.log"; then
    grep -m 3 -A1 "ResourceWarning" "$work/test.log"; echo "FAIL: resources left open (ResourceWarning)"; echo "0 passed, 1 failed"; exit 1
fi
if grep -qE "^OK" "$work/test.log"; then
    n=$(grep -oE "^Ran [0-9]+" "$work/test.log" | grep -oE "[0-9]+")
    echo "$((n + 1)) passed, 0 failed"  # the tests, and mypy
else
    echo "0 passed, 1 failed"
    exit 1
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install_test — python/README.md's install, as written, under every Python there is (issue 56): Debian's python3
# in a plain venv (no setuptools' wheel: what a pyenv or python.org Python has) and in a venv with its system
# packages, and each other python3 3.9+ on PATH. Each runs `pip install --no-index ./python` from a scratch
# checkout, offline, then the installed package (not the source tree) decodes a packet outside the checkout.
set -euo pipefail
source tools/need.sh
need "the Python package (python3-dev, python3-venv: tools/setup.sh)" python3
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/install.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/elsewhere"
tar -ch codec session files project python | tar -x -C "$work/src"
# the README's commands, as the README writes them
grep -q '^python3 -m venv .venv$' python/README.md && grep -q '^.venv/bin/pip install --no-index ./python' python/README.md ||
    { echo "FAIL: python/README.md's install is not the one this test runs"; echo "0 passed, 1 failed"; exit 1; }
passed=0 failed=0
try() { # label, python, venv flags
    local label=$1 py=$2 flags=$3 venv="$work/venv-$RANDOM"
    if ! "$py" -m venv $flags "$venv" > "$work/venv.log" 2>&1; then
        echo "FAIL $label: $py -m venv $flags: $(tail -1 "$work/venv.log")"; failed=$((failed + 1)); return
    fi
    if (cd "$work/src" && "$venv/bin/pip" install --no-index ./python) > "$work/pip.log" 2>&1; then
        got=$(cd "$work/elsewhere" && "$venv/bin/python" -c 'import gdwire, sys; print(gdwire.decode(bytes.fromhex("0200000005000000")), gdwire.__file__.startswith(sys.prefix), ",".join(gdwire.compressions_built()))')
        if [ "$got" = "5 True ${want_compressions:-$built}" ]; then
            echo "ok $label: $("$py" --version 2>&1) ($py), pip $("$venv/bin/pip" --version | cut -d' ' -f2): $(grep -E '^Successfully installed' "$work/pip.log")"
            passed=$((passed + 1))
        else
            echo "FAIL $label: the installed package answers '$got'"; failed=$((failed + 1))
        fi
    else
        echo "FAIL $label: pip install --no-index ./python"; tail -20 "$work/pip.log"; failed=$((failed + 1))
    fi
}
debian=/usr/bin/python3
[ -x "$debian" ] || debian=$(command -v python3)
# the ENet compressions the session reader reads: FastLZ, and zlib and zstd where their headers and libraries are
built=fastlz
for lib in zlib:zlib.h:z zstd:zstd.h:zstd; do
    IFS=: read -r name header l <<< "$lib"
    printf '#include <%s>\nint main(void) { return 0; }\n' "$header" > "$work/probe.c"
    cc "$work/probe.c" -o "$work/probe" "-l$l" 2> /dev/null && built="$built,$name"
done
try "Debian's python3, a plain venv" "$debian" ""
try "Debian's python3, a venv with its system packages" "$debian" "--system-site-packages"
# a machine without zlib1g-dev and libzstd-dev, as the build sees it: the package installs and reads FastLZ only
GDWIRE_BUILD_WITHOUT=zlib,zstd want_compressions=fastlz try "Debian's python3, built without zlib and zstd (GDWIRE_BUILD_WITHOUT)" "$debian" ""
# each other python3 first on PATH (pyenv's shim, a python.org build), 3.9 or newer
for py in $(which -a python3 python3.9 python3.10 python3.11 python3.12 python3.13 2>/dev/null | sort -u); do
    real=$(readlink -f "$py")
    [ "$real" = "$(readlink -f "$debian")" ] && continue
    "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' 2>/dev/null || continue
    "$py" -c 'import venv' 2>/dev/null || continue
    try "$py" "$py" ""
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

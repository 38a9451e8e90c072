#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example_server_test — python/examples/server.py answers a real Godot 4.6.3 client
# (python/examples/client4.gd: StreamPeerTCP.put_var requests, get_var replies) and the replies the
# engine printed are the ones expected. The server runs as python/README.md says, on the package its install
# put in a venv (not the source tree on sys.path). Needs the engine (tools/engines/setup).
set -euo pipefail
source tools/need.sh
need "the Python package (python3-dev, python3-setuptools: tools/setup.sh)" python3
[ -n "$(tools/engines/run godot4.6 --version 2>/dev/null)" ] || skip_or_fail "Godot 4.6.3 is not installed here (sudo tools/engines/setup)"
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/example.XXXXXX")
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/src"
tar -ch codec session python | tar -x -C "$work/src"
# the README's install (python/README.md "Install"), into a venv
py=/usr/bin/python3
[ -x "$py" ] || py=python3
(cd "$work/src" && "$py" -m venv .venv && .venv/bin/pip install --no-index ./python) > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
where=$(cd "$work" && "$work/src/.venv/bin/python" -c 'import gdwire; print(gdwire.__file__)')
case "$where" in "$work/src/.venv/"*) ;; *) echo "FAIL: the server would import gdwire from $where, not the install"; exit 1 ;; esac
(cd "$work" && exec "$work/src/.venv/bin/python" "$work/src/python/examples/server.py" --port 0) > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q listening "$work/server.log" && break; sleep 0.1; done
port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/server.log")
[ -n "$port" ] || { cat "$work/server.log"; echo "FAIL: the server did not start"; exit 1; }
mkdir -p "$work/project"
printf 'config_version=5\n' > "$work/project/project.godot"
cp python/examples/client4.gd "$work/project/"
(cd "$work/project" && HOME=$work timeout 120 "$OLDPWD/tools/engines/run" godot4.6 --headless --path . --script res://client4.gd -- "$port") \
    > "$work/client.log" 2>&1 || true
grep -E '^(REPLY|DONE|FAIL)' "$work/client.log" > "$work/got.txt" || true
cat > "$work/want.txt" <<'WANT'
REPLY	{ "ok": true, "pong": "(time)" }
REPLY	{ "ok": true, "pos": Vector2(1.75, 2) }
REPLY	{ "ok": true, "value": [1, 2.5, "héllo", Vector3i(1, 2, 3), { "k": PackedInt32Array(7, 8) }, NodePath("a/b:c"), Color(0.5, 0.25, 1, 1)] }
REPLY	{ "error": "unknown op 'nope'", "ok": false }
DONE
WANT
if diff "$work/want.txt" "$work/got.txt"; then
    echo "$(grep -m1 -oE "Godot Engine v[^ ]+" "$work/client.log" || echo "Godot 4.6") got 4 replies from python/examples/server.py"
    echo "5 passed, 0 failed"
else
    cat "$work/client.log" "$work/server.log"
    echo "0 passed, 1 failed"
    exit 1
fi

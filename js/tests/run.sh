#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh RUNNER TESTEE GDWIRE — the npm package's tests under Bazel (js/BUILD): builds the WebAssembly from this
# checkout's C sources with Debian's emscripten (js/build.sh) in a scratch copy, packs the package with
# npm pack and installs the tarball offline into an empty project, where a short script decodes a packet
# Godot 4.6.3 wrote and encodes it back byte for byte; then runs js/test with node --test (the engines'
# packets, the fuzz inputs, the API, and every conformance vector against the C testee).
set -euo pipefail
source tools/need.sh
need "the npm package (nodejs, npm, emscripten, node-typescript: tools/setup.sh)" node npm emcc tsc
runner=$(realpath "$1") testee=$(realpath "$2") gdwire=$(realpath "$3") sizes=$(realpath tools/size_figures.py)
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' ||
    skip_or_fail "the npm package needs Node 18 or newer (node $(node --version))"
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/js.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
tar -ch codec session files project js tools/engines conformance/vectors conformance/sessions conformance/projects corpus 2>/dev/null | tar -x -C "$work/src"
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failed=$((failed + 1)); fi; }

start=$SECONDS
"$work/src/js/build.sh" "$work/src/js/dist" > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: the WebAssembly does not build"; echo "0 passed, 1 failed"; exit 1; }
if grep -E "warning:" "$work/build.log"; then echo "FAIL: the WebAssembly builds with warnings"; echo "0 passed, 1 failed"; exit 1; fi
echo "built gdwire.wasm ($(stat -c %s "$work/src/js/dist/gdwire.wasm") bytes) in $((SECONDS - start)) s"
# the sizes js/README.md quotes, against what was just built (within 10 %)
check "js/README.md's sizes are the built files'" 'python3 "$sizes" "$work/src/js/README.md" "wasm-inline.js\`, about ([0-9,]+) KB" "$work/src/js/dist/wasm-inline.js" \
    "KB for ([0-9,]+) KB of\s+WebAssembly" "$work/src/js/dist/gdwire.wasm"'

# the tarball, installed offline into an empty project, as a user installs it (npm's cache in the
# scratch folder: nothing is fetched, and HOME may be read-only here)
export npm_config_cache="$work/npm-cache" npm_config_offline=true npm_config_update_notifier=false
(cd "$work/src/js" && npm pack --silent --pack-destination "$work" > "$work/pack.log" 2>&1) || { cat "$work/pack.log"; echo "FAIL: npm pack"; exit 1; }
tarball=$(ls "$work"/gdwire-*.tgz)
mkdir -p "$work/user"
(cd "$work/user" && npm init -y > /dev/null && npm install --offline --no-audit --no-fund "$tarball" > "$work/install.log" 2>&1) ||
    { cat "$work/install.log"; echo "FAIL: the tarball does not install offline"; exit 1; }
check "the tarball installs offline ($(basename "$tarball"), $(stat -c %s "$tarball") bytes)" '[ -f "$work/user/node_modules/gdwire/dist/wasm-inline.js" ]'
# a packet Godot 4.6.3 wrote: a Dictionary of mixed keys and values
packet=$(awk -F'\t' '$1 == "Dictionary mixed" { print $2 }' "$work/src/tools/engines/godot4.6-packets.tsv")
check "tools/engines/godot4.6-packets.tsv has its 'Dictionary mixed' packet" '[ -n "$packet" ]'
cat > "$work/user/reply.mjs" <<'JS'
import { decode, encode } from 'gdwire';
const packet = Buffer.from(process.argv[2], 'hex');
const request = decode(packet, { dialect: 'godot4' });
console.log(request);
const reply = encode(request, { dialect: 'godot4' });
console.log(Buffer.compare(reply, packet) === 0 ? 'the same bytes' : 'other bytes: ' + Buffer.from(reply).toString('hex'));
JS
(cd "$work/user" && node reply.mjs "$packet") > "$work/reply.log" 2>&1 || true
cat "$work/reply.log"
check "a script in that project decodes Godot 4.6.3's packet and encodes it back byte for byte" 'grep -qx "the same bytes" "$work/reply.log"'

# require('gdwire') from CommonJS says to import it (issue 56), and console.log shows a math value as the command does
(cd "$work/user" && node -e "require('gdwire')") > "$work/require.log" 2>&1 || true
check "require('gdwire') says to use import" 'grep -q "use \`import \* as gdwire from .gdwire.\`, or in CommonJS \`const gdwire = await import(.gdwire.)\`" "$work/require.log"'
check "console.log shows a Vector3 as the command prints it" 'grep -q "Vector3(0.1, 10.5, -3.25)" <(cd "$work/user" && node --input-type=module -e "import { decode, encode, Vector3 } from \"gdwire\"; console.log(decode(encode(new Vector3(0.1, 10.5, -3.25))));" 2>&1)'

# the TypeScript declarations, as a TypeScript user of the installed package meets them
cp "$work/src/js/test/types_example.ts" "$work/user/"
NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH} tsc --noEmit --strict --target es2022 --module es2022 --moduleResolution node \
    "$work/user/types_example.ts" > "$work/tsc.log" 2>&1 || true
cat "$work/tsc.log"
check "tsc --strict accepts a program written against the package's declarations" '[ ! -s "$work/tsc.log" ]'

cd "$work/src/js"
GDWIRE_RUNNER=$runner GDWIRE_TESTEE=$testee GDWIRE_CLI=$gdwire GDWIRE_ROOT="$work/src" node --test test/ > "$work/test.log" 2>&1 || true
grep -E "^# (tests|pass|fail)|^not ok|round-trip|requests|differ|ranks" "$work/test.log" || true
n_pass=$(sed -n 's/^# pass //p' "$work/test.log")
n_fail=$(sed -n 's/^# fail //p' "$work/test.log")
if [ -n "$n_pass" ] && [ "${n_fail:-1}" = 0 ]; then passed=$((passed + n_pass)); else
    grep -A30 "^not ok" "$work/test.log" | head -80; failed=$((failed + ${n_fail:-1})); fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rpc_cli_test.sh GDWIRE SCHEMA PROJECTS: `gdwire rpc` and `gdwire rpc-diff` as a user meets them: help,
# usage errors and exit codes, the text and the JSON (every manifest valid against
# docs/rpc-manifest.schema.json), a manifest saved and read back, folders against saved manifests.
# What the numbers mean is held against the engines in //project:engine_test; here, that the command
# says them: the mismatch pair (conformance/projects/mismatch_a, _b) is the one whose checksum the real
# Godot 4.6.3 said failed (conformance/projects/out/mismatch_a-b.log), so rpc-diff must exit 1 on it.
set -u
G="$1"; SCHEMA="$2"; P="$3"
PY=/usr/bin/python3
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
OUT="$T/out"; ERR="$T/err"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
run() { local want=$1; shift; "$@" >"$OUT" 2>"$ERR"; local rc=$?; [ "$rc" = "$want" ] && ok || { bad "exit $rc (want $want): $*"; head -5 "$ERR" >&2; }; }
has() { grep -qF -- "$2" "$1" && ok || { bad "'$2' not in $(basename "$1"):"; head -40 "$1" >&2; }; }
hasnt() { grep -qF -- "$2" "$1" && { bad "'$2' unexpectedly in $(basename "$1")"; } || ok; }
valid() { "$PY" - "$SCHEMA" "$1" <<'PY' && ok || bad "$1 is not a valid manifest"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errors[:3]:
    print("%s at %s" % (e.message[:200], "/".join(map(str, e.absolute_path))), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
}

# help and usage
run 0 "$G" rpc --help; has "$OUT" "usage: gdwire rpc [--json] PROJECT_DIR|MANIFEST.json"; has "$OUT" "Exit status:"
run 0 "$G" rpc-diff --help; has "$OUT" "--labels A,B"
run 0 "$G" --help; has "$OUT" "rpc-diff"
run 0 "$G" help rpc; has "$OUT" "SIMPLIFY_PATH"
run 2 "$G" rpc; has "$ERR" "gdwire rpc"
run 2 "$G" rpc "$P/arena4" "$P/arena3"; has "$ERR" "one project folder"
run 2 "$G" rpc "$T/nowhere"; has "$ERR" "No such file or directory"
mkdir "$T/empty"
run 2 "$G" rpc "$T/empty"; has "$ERR" "no project.godot there"
echo '{"format": "something else"}' > "$T/other.json"
run 2 "$G" rpc "$T/other.json"; has "$ERR" "not an RPC manifest"
echo 'not json' > "$T/bad.json"
run 2 "$G" rpc "$T/bad.json"; has "$ERR" "not JSON"
run 2 "$G" rpc-diff "$P/mismatch_a"; has "$ERR" "two builds"
run 2 "$G" rpc-diff --labels client "$P/mismatch_a" "$P/mismatch_b"; has "$ERR" "want two names"

# text and JSON of each test project; the JSON valid; read back, it prints the same text
for p in arena4 arena3 mismatch_a mismatch_b; do
    run 0 "$G" rpc "$P/$p"; cp "$OUT" "$T/$p.txt"
    has "$T/$p.txt" "project \""
    run 0 "$G" rpc --json "$P/$p"; cp "$OUT" "$T/$p.json"
    valid "$T/$p.json"
    run 0 "$G" rpc "$T/$p.json"
    cmp -s "$OUT" "$T/$p.txt" && ok || { bad "$p: the saved manifest prints otherwise"; diff "$OUT" "$T/$p.txt" | head >&2; }
    run 0 "$G" rpc --json "$T/$p.json"
    cmp -s "$OUT" "$T/$p.json" && ok || bad "$p: the saved manifest's JSON differs from the folder's"
done
has "$T/arena4.txt" "DYNAMIC"
has "$T/arena4.txt" "dynamic: res://dynamic.gd:8: rpc_config() changes RPCs at run time"
has "$T/arena4.txt" "synchronizer Main/Units/*/Sync"
has "$T/arena3.txt" "(Godot 3)"
hasnt "$T/arena3.txt" "md5"

# the engine's own dump (the addon) is a manifest too
run 0 "$G" rpc "$P/out/arena4.manifest.json"; has "$OUT" "Main/Units/Player"
valid "$P/out/arena4.manifest.json"

# rpc-diff: a build against itself, as a folder and as a saved manifest, can talk
run 0 "$G" rpc-diff "$P/arena4" "$P/arena4"; has "$OUT" "A and B can talk"
run 0 "$G" rpc-diff "$P/arena4" "$T/arena4.json"
run 0 "$G" rpc-diff --labels client,server "$T/mismatch_a.json" "$P/mismatch_a"; has "$OUT" "client and server can talk"
# the mismatch pair cannot
run 1 "$G" rpc-diff --labels client,server "$P/mismatch_a" "$P/mismatch_b"
has "$OUT" "node Duel"
has "$OUT" "checksum differs"
has "$OUT" "\`absorb\` only on server (added on server)"
has "$OUT" "client and server cannot talk"
hasnt "$OUT" "node Score"
run 1 "$G" rpc-diff "$T/mismatch_a.json" "$T/mismatch_b.json"
# Godot 3 against Godot 4
run 1 "$G" rpc-diff "$P/arena3" "$P/arena4"; has "$OUT" "they do not speak the same protocol"

# a mode change the checksum does not see: the same project with one @rpc's mode changed
cp -r "$P/mismatch_a" "$T/mode"
sed -i 's/@rpc("any_peer", "unreliable")/@rpc("authority", "unreliable", "call_remote", 3)/' "$T/mode/duel.gd"
run 1 "$G" rpc-diff --labels old,new "$P/mismatch_a" "$T/mode"
hasnt "$OUT" "checksum differs"
has "$OUT" "\`zap\` mode: any_peer on old, authority on new (the checksum does not see this)"
has "$OUT" "\`zap\` channel: 0 on old, 3 on new (the checksum does not see this)"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

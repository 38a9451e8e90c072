#!/usr/bin/env bash
# End-to-end tests of the gdwire command: every verb, its options, exit codes and messages,
# on the bundled samples (one made by the real Godot 3.2.3 engine).
set -u
G="$1"; SAMPLES="$(dirname "$2")"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_rc() { local want=$1; shift; "$@" >/tmp/cli_out.$$ 2>/tmp/cli_err.$$; local rc=$?; [ "$rc" = "$want" ] && ok || bad "exit $rc (want $want): $*"; }
contains() { grep -qF -- "$2" "$1" && ok || { bad "'$2' not in $1 output:"; cat "$1" >&2; }; }

expect_rc 0 "$G" check --hex "$SAMPLES/godot3-game-state.hex"
contains /tmp/cli_out.$$ 'godot3              accepted      192        0 same      {"name": "player"'
contains /tmp/cli_out.$$ '11 of 13 dialects accept this packet'
contains /tmp/cli_out.$$ 'godot3-double       rejected'
expect_rc 0 "$G" check --hex --mode strict "$SAMPLES/nodepath-root.hex"
contains /tmp/cli_out.$$ 'godot3              accepted       24        0 same      ^"/root"'
contains /tmp/cli_out.$$ 'godot4              rejected'
expect_rc 0 "$G" decode -d godot3 --hex "$SAMPLES/godot3-game-state.hex"
contains /tmp/cli_out.$$ '{"name": "player", "pos": Vector2(1.5, -2.0), "hp": 100, "inv": ["sword", 3, 0.1], "path": ^"/root/level:pos"}'
echo '1b000000' > /tmp/cli_in.$$
expect_rc 1 "$G" decode -d godot3 --hex /tmp/cli_in.$$
contains /tmp/cli_err.$$ 'UNKNOWN_TYPE at byte 0: type id is not in this dialect (engine: ERR_INVALID_DATA)'
expect_rc 1 "$G" check --hex /tmp/cli_in.$$
printf '\x04\x00\x00\x00\x02\x00\x00\x00hi\x00\x00' > /tmp/cli_raw.$$
expect_rc 0 "$G" decode -d godot4 /tmp/cli_raw.$$
contains /tmp/cli_out.$$ '"hi"'
echo '{"a": 1, "b": [Vector2i(1, -2)]}' | "$G" encode -d godot4 --hex - >/tmp/cli_out.$$ 2>&1 && ok || bad "encode godot4"
contains /tmp/cli_out.$$ '1b000000 02000000 04000000 01000000 61000000 02000000 01000000 04000000 01000000 62000000 1c000000 01000000 06000000 01000000 feffffff'
echo 'Vector2i(1, 2)' > /tmp/cli_in.$$
expect_rc 1 "$G" encode -d godot3 --hex /tmp/cli_in.$$
contains /tmp/cli_err.$$ 'UNSUPPORTED_TYPE'
echo '1099511627776' > /tmp/cli_in.$$
expect_rc 1 "$G" encode -d mole --hex /tmp/cli_in.$$
expect_rc 0 "$G" encode -d mole --hex --lossy /tmp/cli_in.$$
echo '[1,' > /tmp/cli_in.$$
expect_rc 2 "$G" encode -d godot3 /tmp/cli_in.$$
contains /tmp/cli_err.$$ 'SYNTAX at character 4: expected a value'
# encode | decode round trip through raw bytes
echo 'Dictionary[String, int]({"a": 1})' | "$G" encode -d godot4 - | "$G" decode -d godot4 - >/tmp/cli_out.$$ 2>&1 && ok || bad "pipe"
contains /tmp/cli_out.$$ 'Dictionary[String, int]({"a": 1})'
expect_rc 0 "$G" dialects
contains /tmp/cli_out.$$ 'pandemonium-5       pandemonium     40'
contains /tmp/cli_out.$$ 'godot2'
for v in check decode encode dialects; do expect_rc 0 "$G" $v --help; contains /tmp/cli_out.$$ "usage: gdwire $v"; done
expect_rc 0 "$G" help
expect_rc 0 "$G" --version
expect_rc 2 "$G"
expect_rc 2 "$G" frobnicate
expect_rc 2 "$G" decode --hex "$SAMPLES/nodepath-root.hex"
contains /tmp/cli_err.$$ 'no dialect given'
expect_rc 2 "$G" decode -d godot9 --hex "$SAMPLES/nodepath-root.hex"
contains /tmp/cli_err.$$ "unknown dialect 'godot9'"
expect_rc 2 "$G" check --mode sloppy "$SAMPLES/nodepath-root.hex"
expect_rc 2 "$G" check /nonexistent/file
contains /tmp/cli_err.$$ 'cannot open /nonexistent/file'
echo 'zz' > /tmp/cli_in.$$
expect_rc 2 "$G" check --hex /tmp/cli_in.$$
contains /tmp/cli_err.$$ 'not hex at character 0'
rm -f /tmp/cli_out.$$ /tmp/cli_err.$$ /tmp/cli_in.$$ /tmp/cli_raw.$$
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

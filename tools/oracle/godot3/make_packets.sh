#!/usr/bin/env bash
# make_packets.sh — run packets.gd in the real Godot 3 engine (Debian's godot3-server) and
# write engine-packets.tsv (name <TAB> hex): packets made by the engine's own var2bytes.
# tools/conformance/generate.py turns them into conformance/vectors/engine/godot3.yaml.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo 'config_version=4' > "$work/project.godot"
cp "$here/packets.gd" "$work/"
(cd "$work" && HOME="$work" timeout 120 godot3-server --no-window -s packets.gd > out.txt 2> err.txt) || {
    echo "make_packets: the engine failed:" >&2; cat "$work/err.txt" >&2; exit 1; }
grep -q '^P	' "$work/out.txt" || { echo "make_packets: the engine wrote no packets:" >&2; cat "$work/err.txt" >&2; exit 1; }
{
    echo "# Made by $(godot3-server --version 2>/dev/null | tail -n 1) with var2bytes (tools/oracle/godot3/packets.gd)."
    grep '^P	' "$work/out.txt" | while IFS=$'\t' read -r _ name b64; do
        printf '%s\t%s\n' "$name" "$(printf '%s' "$b64" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
    done
} > "$here/engine-packets.tsv"
echo "make_packets: $(grep -vc '^#' "$here/engine-packets.tsv") packets -> $here/engine-packets.tsv"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make_packets4.sh — regenerate godot4.6-packets.tsv: the real Godot 4 engine (tools/engines/run
# godot4.6) writes every value of packets4.gd with its own var_to_bytes. The first line records
# the engine's version string.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'config_version=5\n' > "$work/project.godot"
cp "$here/packets4.gd" "$work/"
HOME=$work "$here/run" godot4.6 --headless --path "$work" --script res://packets4.gd > "$work/out.txt" 2> "$work/err.txt"
grep -q '^DONE' "$work/out.txt" || { cat "$work/err.txt" >&2; echo "make_packets4: the engine did not finish" >&2; exit 1; }
{ grep '^V' "$work/out.txt" | sed 's/^V\t/# engine\t/'; grep '^R' "$work/out.txt" | cut -f2,3; } > "$here/godot4.6-packets.tsv"
echo "make_packets4: $(grep -c -v '^#' "$here/godot4.6-packets.tsv") packets from $(grep '^# engine' "$here/godot4.6-packets.tsv" | cut -f2)"

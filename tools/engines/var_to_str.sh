#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# var_to_str.sh ENGINE — ENGINE-var_to_str.tsv (ENGINE: godot4.6, godot3.6, godot3.2): for every packet
# of ENGINE-packets.tsv, the real engine's var_to_str of it and its str_to_var of that text written
# again with var_to_bytes: "name<TAB>base64 of the text<TAB>hex". codec:var_to_str_test reads each
# text with gdwire's text reader and compares (issue 33).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${1:-}
case "$engine" in
    godot4.6) script=var_to_str4.gd; args=(--headless --path . --script res://var_to_str4.gd); config=5 ;;
    godot3.6|godot3.2) script=var_to_str3.gd; args=(--no-window -s var_to_str3.gd); config=4 ;;
    *) echo "usage: tools/engines/var_to_str.sh godot4.6|godot3.6|godot3.2" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'config_version=%s\n' "$config" > "$work/project.godot"
cp "$here/$script" "$work/"
grep -v '^#' "$here/$engine-packets.tsv" | cut -f1,2 > "$work/packets.txt"
(cd "$work" && HOME=$work timeout 300 "$here/run" "$engine" "${args[@]}" > out.txt 2> err.txt) || true
grep -q '^DONE' "$work/out.txt" || { cat "$work/err.txt" >&2; echo "var_to_str: $engine did not finish" >&2; exit 1; }
out="$here/$engine-var_to_str.tsv"
{ printf '# engine\t%s\n' "$(grep -m1 '^V' "$work/out.txt" | cut -f2)"; grep '^T' "$work/out.txt" | cut -f2-4; } > "$out"
echo "var_to_str: $(grep -c -v '^#' "$out") texts from $engine -> $out"

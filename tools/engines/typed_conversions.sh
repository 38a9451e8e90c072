#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# typed_conversions.sh [ENGINE] — ENGINE-typed_conversions.tsv (ENGINE: godot4.6, the default): what the
# real engine holds when a typed Array or Dictionary converts a float to an integer type, among them the floats whose
# conversion its C++ leaves undefined (docs/engine-findings.md, finding 7): "name<TAB>packet hex<TAB>hex of
# the engine's var_to_bytes of what it holds". codec:undefined_conversion_test decodes each packet in
# engine-exact mode and compares what gdwire writes back.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${1:-godot4.6}
case "$engine" in
    godot4.6) ;;
    *) echo "usage: tools/engines/typed_conversions.sh [godot4.6]" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'config_version=5\n' > "$work/project.godot"
cp "$here/typed_conversions4.gd" "$work/"
(cd "$work" && HOME=$work timeout 300 "$here/run" "$engine" --headless --path . --script res://typed_conversions4.gd > out.txt 2> err.txt) || true
grep -q '^DONE' "$work/out.txt" || { cat "$work/err.txt" >&2; echo "typed_conversions: $engine did not finish" >&2; exit 1; }
out="$here/$engine-typed_conversions.tsv"
{ printf '# engine\t%s\n' "$(grep -m1 '^V' "$work/out.txt" | cut -f2)"; printf '# case\tpacket\tengine\n'; grep '^T' "$work/out.txt" | cut -f2-4; } > "$out"
echo "typed_conversions: $(grep -c -v '^#' "$out") cases from $engine -> $out"

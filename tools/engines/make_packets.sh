#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make_packets.sh ENGINE — regenerate ENGINE-packets.tsv (ENGINE: godot4.6, godot3.6, godot3.2):
# the real engine (tools/engines/run ENGINE) builds every value of its generation's script
# (packets4.gd or packets3.gd) and writes it with its own var_to_bytes / var2bytes. The file has
# one "name<TAB>hex<TAB>engine round-trip hex" line per value; its first line records the engine's own version string.
# tools/conformance/generate.py turns each file into conformance/vectors/engine/ENGINE.yaml.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${1:-}
case "$engine" in
    godot4.6|godot4.3|godot4.6-double) script=packets4.gd; args=(--headless --path . --script res://packets4.gd); config=5 ;;
    godot3.6|godot3.2|godot3.1|pandemonium-*) script=packets3.gd; args=(--no-window -s packets3.gd); config=4 ;;
    *) echo "usage: tools/engines/make_packets.sh godot4.6|godot3.6|godot3.2|pandemonium-4.9|..." >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'config_version=%s\n' "$config" > "$work/project.godot"
cp "$work/project.godot" "$work/project.pandemonium"   # Pandemonium v3.5-v3.7's name for it
cp "$here/$script" "$work/"
case "$engine" in
    godot3.1) # 3.1 has no Quat(Vector3 euler) constructor (the same rotation goes through a Basis)
        # and no PoolByteArray.hex_encode (a GDScript one stands in)
        sed -e 's/Quat(Vector3(0.3, 0.2, 0.1))/Quat(Basis(Vector3(0.3, 0.2, 0.1)))/' \
            -e 's/var2bytes(bytes2var(b))\.hex_encode()/_hex(var2bytes(bytes2var(b)))/' -e 's/b\.hex_encode()/_hex(b)/' \
            "$here/$script" > "$work/$script"
        printf '\n\nfunc _hex(b):\n\tvar s = ""\n\tfor x in b:\n\t\ts += "%%02x" %% x\n\treturn s\n' >> "$work/$script" ;;
    godot4.3) # typed Dictionaries are 4.4+: 4.3's parser refuses the script with them (and the emit after each)
        sed -e '/: Dictionary\[/,+1d' "$here/$script" > "$work/$script" ;;
    pandemonium-*) # the fork renamed Quat; its own types come from packets_pandemonium.gd
        sed -e 's/\bQuat(/Quaternion(/g' -e 's/^\tmore()$/\tmore()\n\tpandemonium()/' "$here/$script" > "$work/$script"
        cat "$here/packets_pandemonium.gd" >> "$work/$script" ;;
esac
(cd "$work" && HOME=$work timeout 300 "$here/run" "$engine" "${args[@]}" > out.txt 2> err.txt) || true
grep -q '^DONE' "$work/out.txt" || { cat "$work/err.txt" >&2; echo "make_packets: $engine did not finish" >&2; exit 1; }
out="$here/$engine-packets.tsv"
{ grep '^V' "$work/out.txt" | sed 's/^V\t/# engine\t/'; grep '^R' "$work/out.txt" | cut -f2-4; } > "$out"
dups=$(grep -v '^#' "$out" | cut -f1 | sort | uniq -d | head -3)
[ -z "$dups" ] || { echo "make_packets: $script names two values alike: $dups" >&2; exit 1; }
echo "make_packets: $(grep -c -v '^#' "$out") packets from $(grep '^# engine' "$out" | cut -f2) -> $out"

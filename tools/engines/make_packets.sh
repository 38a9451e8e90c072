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
    godot4.6|godot4.3|godot4.2|godot4.6-double) script=packets4.gd; args=(--headless --path . --script res://packets4.gd); config=5 ;;
    godot3.6|godot3.2|godot3.1|godot3.0|pandemonium-*) script=packets3.gd; args=(--no-window -s packets3.gd); config=4 ;;
    godot2.1|godot2.0) script=packets3.gd; args=(-s packets3.gd); config=0 ;;
    *) echo "usage: tools/engines/make_packets.sh godot4.6|godot3.6|godot3.2|pandemonium-4.9|..." >&2; exit 2 ;;
esac
[ "$engine" != godot3.0 ] || config=3   # 3.0 refuses a project file newer than its own
# (Godot 2 reads engine.cfg, with no config_version)
# Engines without PoolByteArray.hex_encode (Godot 2, 3.0, 3.1): the script's calls go to a GDScript
# _hex, appended to it
HEX_SED=(-e 's/var2bytes(bytes2var(b))\.hex_encode()/_hex(var2bytes(bytes2var(b)))/' -e 's/b\.hex_encode()/_hex(b)/')
HEX_FUNC='\n\nfunc _hex(b):\n\tvar s = ""\n\tfor x in b:\n\t\ts += "%02x" % x\n\treturn s\n'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'config_version=%s\n' "$config" > "$work/project.godot"
cp "$work/project.godot" "$work/project.pandemonium"   # Pandemonium v3.5-v3.7's name for it
cp "$work/project.godot" "$work/engine.cfg"            # Godot 2's
cp "$here/$script" "$work/"
case "$engine" in
    godot3.1|godot3.0) # 3.0 and 3.1 have no Quat(Vector3 euler) constructor (the same rotation goes through a Basis)
        # and no PoolByteArray.hex_encode (a GDScript one stands in)
        sed -e 's/Quat(Vector3(0.3, 0.2, 0.1))/Quat(Basis(Vector3(0.3, 0.2, 0.1)))/' "${HEX_SED[@]}" \
            "$here/$script" > "$work/$script"
        printf '%b' "$HEX_FUNC" >> "$work/$script" ;;
    godot2.*) # Godot 2's names for the same types (Matrix32, Matrix3, RawArray, ...), its version
        # call, push_back (2.0's pools have no append), no INF and NAN constants (overflowing
        # products stand for them), no hex_encode and no Quat from Euler angles (an axis and angle)
        sed -e 's/Transform2D/Matrix32/g' -e 's/Basis/Matrix3/g' -e 's/Pool\(Byte\)Array/RawArray/g' \
            -e 's/PoolRealArray/FloatArray/g' -e 's/Pool\(Int\|String\|Vector2\|Vector3\|Color\)Array/\1Array/g' \
            -e 's/Engine.get_version_info().string/_version()/' -e 's/\.append(/.push_back(/g' \
            -e 's/\bINF\b/(1e300 * 1e300)/g' -e 's/\bNAN\b/(1e300 * 1e300 - 1e300 * 1e300)/g' \
            -e '/NUL inside/d' -e 's/\bchar(/_chr(/g' \
            -e 's/"Quat euler", Quat(Vector3(0.3, 0.2, 0.1))/"Quat axis angle", Quat(Vector3(0, 1, 0), 0.3)/' \
            "${HEX_SED[@]}" "$here/$script" > "$work/$script"
        printf '%b' "$HEX_FUNC" >> "$work/$script"
        # no char(): a code point through its UTF-8 bytes (a NUL cannot be made so: that value is left out)
        printf '\n\nfunc _chr(c):\n\tvar b = RawArray()\n\tif c < 0x80:\n\t\tb.push_back(c)\n\telif c < 0x800:\n\t\tb.push_back(0xC0 | (c >> 6))\n\t\tb.push_back(0x80 | (c & 0x3F))\n\telif c < 0x10000:\n\t\tb.push_back(0xE0 | (c >> 12))\n\t\tb.push_back(0x80 | ((c >> 6) & 0x3F))\n\t\tb.push_back(0x80 | (c & 0x3F))\n\telse:\n\t\tb.push_back(0xF0 | (c >> 18))\n\t\tb.push_back(0x80 | ((c >> 12) & 0x3F))\n\t\tb.push_back(0x80 | ((c >> 6) & 0x3F))\n\t\tb.push_back(0x80 | (c & 0x3F))\n\treturn b.get_string_from_utf8()\n' >> "$work/$script"
        # 2.0 cannot ask for its version (the first line of its --help names it, below)
        printf '\n\nfunc _version():\n\tif OS.has_method("get_engine_version"):\n\t\treturn OS.get_engine_version()["string"]\n\treturn ""\n' >> "$work/$script" ;;
    godot4.3) # typed Dictionaries are 4.4+: 4.3's parser refuses the script with them (and the emit after each)
        sed -e '/: Dictionary\[/,+1d' "$here/$script" > "$work/$script" ;;
    godot4.2) # as 4.3, and no PackedVector4Array either (4.3+)
        sed -e '/: Dictionary\[/,+1d' -e '/emit("PackedVector4Array"/d' -e 's/, "PackedVector4Array"\]/]/' \
            -e 's/, "PackedVector4Array": TYPE_PACKED_VECTOR4_ARRAY}/}/' "$here/$script" > "$work/$script" ;;
    pandemonium-3.5|pandemonium-3.7) # layout P2 (v3.5-v3.7): Quat not yet renamed, and no Vector4, Vector4i or
        # their pools (v3.8's P3 added them): packets_pandemonium.gd without those values
        sed -e 's/^\tmore()$/\tmore()\n\tpandemonium()/' "$here/$script" > "$work/$script"
        sed -e 's/ Vector4(), Vector4i(),//' -e '/Vector4\|v4/d' "$here/packets_pandemonium.gd" >> "$work/$script" ;;
    pandemonium-*) # the fork renamed Quat; its own types come from packets_pandemonium.gd
        sed -e 's/\bQuat(/Quaternion(/g' -e 's/^\tmore()$/\tmore()\n\tpandemonium()/' "$here/$script" > "$work/$script"
        cat "$here/packets_pandemonium.gd" >> "$work/$script" ;;
esac
(cd "$work" && HOME=$work timeout 300 "$here/run" "$engine" "${args[@]}" > out.txt 2> err.txt) || true
grep -q '^DONE' "$work/out.txt" || { cat "$work/err.txt" >&2; echo "make_packets: $engine did not finish" >&2; exit 1; }
out="$here/$engine-packets.tsv"
version=$(grep -m1 '^V' "$work/out.txt" | cut -f2)
[ -n "$version" ] || version=$( ("$here/run" "$engine" --help 2>&1 || true) | sed -n '1s/^Godot Engine v\([^ ]*\).*/\1/p')
{ printf '# engine\t%s\n' "$version"; grep '^R' "$work/out.txt" | cut -f2-4; } > "$out"
case "$engine" in
    godot2.*) # Godot 2's ints are 32-bit: the 64-bit literals of the script fold onto others ("int 0"
        # twice); the second and later of a name are numbered
        awk -F'\t' 'BEGIN { OFS = "\t" } /^#/ { print; next } { n = ++seen[$1]; if (n > 1) $1 = $1 " (" n ")"; print }' \
            "$out" > "$out.new" && mv "$out.new" "$out" ;;
esac
dups=$(grep -v '^#' "$out" | cut -f1 | sort | uniq -d | head -3)
[ -z "$dups" ] || { echo "make_packets: $script names two values alike: $dups" >&2; exit 1; }
echo "make_packets: $(grep -c -v '^#' "$out") packets from $(grep '^# engine' "$out" | cut -f2) -> $out"

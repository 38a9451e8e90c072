#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# screenshot.sh PLUGIN SESSION.pcap NAMES.tsv FRAME OUT.png — Wireshark (wireshark-qt) under Xvfb with the plugin, the
# session open at FRAME, its packet details expanded (View > Expand All), saved as OUT.png. Outside CI; needs
# wireshark-qt, xvfb, xdotool, x11-apps (xwd) and netpbm (apt-get install). Under root Wireshark loads no personal
# plugin, so it runs as nobody, with copies of the files.
set -eu
plugin=$1 pcap=$2 names=$3 frame=$4 out=$5
work=$(mktemp -d /tmp/gdw-ws-shot.XXXXXX)
chmod 755 "$work"
install -D -m 0755 "$plugin" "$work/home/.local/lib/wireshark/plugins/4.0/epan/godot.so"
mkdir -p "$work/home/.config/wireshark"
# the columns, and the window filling the screen
printf 'gui.column.format: "No.", "%%m", "Time", "%%t", "Protocol", "%%p", "Info", "%%i"\n' > "$work/home/.config/wireshark/preferences"
printf 'gui.geometry_main_x: 0\ngui.geometry_main_y: 0\ngui.geometry_main_width: 1400\ngui.geometry_main_height: 900\ngui.geometry_main_maximized: FALSE\n' > "$work/home/.config/wireshark/recent_common"
# the packet list short, the details tall (the profile's recent file)
printf 'gui.geometry_main_upper_pane: 190\ngui.geometry_main_lower_pane: 880\n' > "$work/home/.config/wireshark/recent"
cp "$pcap" "$work/s.pcap"; cp "$names" "$work/names.tsv"
chmod -R a+rX "$work"
[ "$(id -u)" = 0 ] && chown -R 65534:65534 "$work/home"   # its settings folder is written
as=""; [ "$(id -u)" = 0 ] && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
display=:$((70 + $$ % 20))
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
HOME=$work/home DISPLAY=$display $as wireshark -r "$work/s.pcap" -o "godot.names_file:$work/names.tsv" -g "$frame" > "$work/ws.log" 2>&1 &
ws=$!
sleep 12
# a click on the details pane's ENet line (the fifth: frame, Ethernet, IP, UDP, ENet), then Expand Subtrees (shift+Right)
GDW_SHOT_CLICK_Y=${GDW_SHOT_CLICK_Y-361}
if [ "$GDW_SHOT_CLICK_Y" ]; then
    DISPLAY=$display xdotool mousemove 120 "$GDW_SHOT_CLICK_Y" click 1
    sleep 1
    DISPLAY=$display xdotool key shift+Right
    sleep 1
fi
sleep 2
DISPLAY=$display xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > "$out"
kill "$ws" 2>/dev/null || true
sleep 1
kill "$xvfb" 2>/dev/null || true
rm -rf "$work"
echo "screenshot.sh: $out"

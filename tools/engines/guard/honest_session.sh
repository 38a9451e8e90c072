#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# honest_session.sh ENGINE OUT [GUARD...] — the honest session of tools/engines/sessions/ (session4.gd /
# session3.gd: a server and two clients, RPCs of every kind, a relay, a fragmented 100 KB RPC, a spawner and
# a synchronizer), played directly or, with GUARD (a command such as `gdwire guard`), through it:
#   direct:  the clients connect to the server's port P
#   guarded: the server listens on Q, `GUARD --listen 127.0.0.1:P --upstream 127.0.0.1:Q` runs, the
#            clients connect to P
# tcpdump captures both ports on lo. Writes OUT.log (the three peers' JSON lines: server, a, b),
# OUT.pcap, OUT.tcpdump (tcpdump's summary), OUT.ports (P Q) and, guarded, OUT.guard.log (what the guard printed). ENGINE: godot4.6, godot3.2, or
# godot3.6 (the range coder, Godot 3.4+'s default; GDW_HONEST_COMPRESSION=none for none). honest_compare.py holds a guarded run to a direct one.
# Needs root for tcpdump (or CAP_NET_RAW).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sessions="$here/../sessions"
engine=${1:?usage: honest_session.sh ENGINE OUT [GUARD...]}; out=${2:?}; shift 2
guard=("$@")
case "$engine" in
    godot4.*) script=session4.gd; node=game4.gd; config=5; compression= ;;
    godot3.2) script=session3.gd; node=game3.gd; config=4; compression=none ;;          # 3.2.3 has no range coder default
    godot3.*) script=session3.gd; node=game3.gd; config=4; compression=range_coder ;;
    *) echo "honest_session.sh: ENGINE is godot4.6, godot3.6 or godot3.2" >&2; exit 2 ;;
esac
compression=${GDW_HONEST_COMPRESSION:-$compression}  # none, range_coder, ...: the engines' ENet compression
command -v tcpdump >/dev/null || { echo "honest_session.sh: needs tcpdump (apt-get install tcpdump)" >&2; exit 127; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
printf 'config_version=%s\n' "$config" > "$work/project.godot"
cp "$sessions/$script" "$sessions/$node" "$here/../../capture/gdwire_names.gd" "$work/"
[ "$config" != 4 ] || cp "$work/project.godot" "$work/engine.cfg"
port=$((20000 + RANDOM % 20000))
upstream=$port
[ ${#guard[@]} = 0 ] || upstream=$((port + 1))
tcpdump -i lo -U -w "$work/session.pcap" "udp port $port or udp port $upstream" 2>"$work/tcpdump.err" &
tcpdump_pid=$!
pids+=("$tcpdump_pid")
for _ in $(seq 50); do grep -qs listening "$work/tcpdump.err" && break; sleep 0.1; done
run() { # ROLE PORT
    if [ "$script" = session4.gd ]; then
        (cd "$work" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            timeout 60 "$here/../run" "$engine" --headless --path . --script "res://$script" -- "$1" "$2" "$work/$1.log" enet $compression \
            >"$work/$1.out" 2>&1)
    else
        (cd "$work" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            GDW_ROLE=$1 GDW_PORT=$2 GDW_LOG="$work/$1.log" GDW_COMPRESSION="$compression" GDW_TRANSPORT=enet \
            timeout 60 "$here/../run" "$engine" --no-window -s "$script" >"$work/$1.out" 2>&1)
    fi
}
if [ ${#guard[@]} -gt 0 ]; then
    timeout 90 "${guard[@]}" --listen "127.0.0.1:$port" --upstream "127.0.0.1:$upstream" >"$work/guard.log" 2>&1 &
    guard_pid=$!; pids+=("$guard_pid")
fi
run server "$upstream" & pids+=($!); server=$!
sleep 1
run a "$port" & pids+=($!); a=$!
sleep 0.3
run b "$port" & pids+=($!); b=$!
status=0
wait "$a" || status=$?
wait "$b" || status=$?
wait "$server" || status=$?
sleep 0.5
kill "$tcpdump_pid"; wait "$tcpdump_pid" 2>/dev/null || true
if [ ${#guard[@]} -gt 0 ]; then
    kill -TERM "$guard_pid" 2>/dev/null || true; wait "$guard_pid" 2>/dev/null || true
    cp "$work/guard.log" "$out.guard.log"
fi
if [ "$status" != 0 ]; then
    echo "honest_session.sh: an engine failed ($status):" >&2
    tail -n 20 "$work"/*.out >&2
    exit 1
fi
cp "$work/session.pcap" "$out.pcap"
cp "$work/tcpdump.err" "$out.tcpdump"   # its summary: packets captured, dropped by the kernel
echo "$port $upstream" > "$out.ports"
cat "$work/server.log" "$work/a.log" "$work/b.log" > "$out.log"
echo "$out.log: $(wc -l < "$out.log") lines; $out.pcap: $(stat -c %s "$out.pcap") bytes"

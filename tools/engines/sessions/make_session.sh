#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make_session.sh ENGINE TRANSPORT OUT [COMPRESSION] — record a real multiplayer session: a server and two
# clients of ENGINE (tools/engines/run) talk on loopback over TRANSPORT (enet, ws, or tcp: plain TCP with
# put_var and PacketPeerStream frames, stream4.gd / stream3.gd) while tcpdump
# captures the port; writes OUT.pcap and OUT.log (each peer's JSON lines: what it sent, before
# the engine sent it, and what its RPCs received; session4.gd) and OUT.names.tsv (the game's
# method names, written by tools/capture/gdwire_names.gd). Needs root for tcpdump (or
# CAP_NET_RAW). The committed sessions and how they were made: conformance/sessions/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
engine=${1:-}; transport=${2:-}; out=${3:-}
case "$engine" in
    godot4.*) script=session4.gd; node=game4.gd; config=5; args=(--headless --path .) ;;
    godot3.*) script=session3.gd; node=game3.gd; config=4; args=(--no-window) ;;
    *) echo "usage: make_session.sh godot4.6|godot3.6|godot3.2 enet|ws|tcp OUT [none|range_coder|fastlz|zlib|zstd]" >&2; exit 2 ;;
esac
compression=${4:-}   # none, range_coder (Godot 3.4+'s default), fastlz, zlib or zstd (ENet only); empty: the engine's default
case "$transport" in
    enet|ws) ;;
    tcp) script=stream${script#session}; node= ;;  # no game node: values on a StreamPeerTCP
    *) echo "make_session.sh: TRANSPORT is enet, ws or tcp" >&2; exit 2 ;;
esac
# GDW_SESSION_PORT: the game's port (default: a random one); GDW_SESSION_NO_PCAP=1: no tcpdump, no OUT.pcap (the logs
# only: a test that captures the session itself, tools/engines/sessions/live_capture_test.py)
no_pcap=${GDW_SESSION_NO_PCAP:-}
[ -n "$no_pcap" ] || command -v tcpdump >/dev/null || { echo "make_session.sh: needs tcpdump (apt-get install tcpdump)" >&2; exit 127; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
printf 'config_version=%s\n' "$config" > "$work/project.godot"
cp "$here/$script" ${node:+"$here/$node"} "$here/../../capture/gdwire_names.gd" "$work/"
[ "$config" != 4 ] || cp "$work/project.godot" "$work/engine.cfg"
port=${GDW_SESSION_PORT:-$((20000 + RANDOM % 20000))}
proto=udp; [ "$transport" = enet ] || proto=tcp
if [ -z "$no_pcap" ]; then
    tcpdump -i lo -U -w "$work/session.pcap" "$proto port $port" 2>"$work/tcpdump.err" &
    tcpdump_pid=$!
    pids+=("$tcpdump_pid")
    for _ in $(seq 50); do grep -qs listening "$work/tcpdump.err" && break; sleep 0.1; done
fi
run() { # ROLE
    if [ "$script" = session4.gd ] || [ "$script" = stream4.gd ]; then
        (cd "$work" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            timeout 60 "$here/../run" "$engine" "${args[@]}" --script "res://$script" -- "$1" "$port" "$work/$1.log" "$transport" $compression \
            >"$work/$1.out" 2>&1)
    else # Godot 3 scripts read their arguments from the environment
        (cd "$work" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            GDW_ROLE=$1 GDW_PORT=$port GDW_LOG="$work/$1.log" GDW_COMPRESSION="$compression" GDW_TRANSPORT="$transport" \
            timeout 60 "$here/../run" "$engine" "${args[@]}" -s "$script" >"$work/$1.out" 2>&1)
    fi
}
run server & pids+=($!); server=$!
sleep 1
run a & pids+=($!); a=$!
sleep 0.3
run b & pids+=($!); b=$!
status=0
wait "$a" || status=$?
wait "$b" || status=$?
wait "$server" || status=$?
sleep 0.5
[ -n "$no_pcap" ] || { kill "$tcpdump_pid"; wait "$tcpdump_pid" 2>/dev/null || true; }
if [ "$status" != 0 ]; then
    echo "make_session.sh: an engine failed ($status):" >&2
    tail -n 20 "$work"/*.out >&2
    exit 1
fi
[ -n "$no_pcap" ] || cp "$work/session.pcap" "$out.pcap"
[ ! -f "$work/names.tsv" ] || cp "$work/names.tsv" "$out.names.tsv"
cat "$work/server.log" "$work/a.log" "$work/b.log" > "$out.log"
grep -h -i "error\|warning" "$work"/*.out | sort | uniq -c >&2 || true
[ -n "$no_pcap" ] || echo "$out.pcap: $(stat -c %s "$out.pcap") bytes"
echo "$out.log: $(wc -l < "$out.log") lines"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_project.sh [-e ENGINE] PROJECT [CLIENT_PROJECT] OUT — run a test project (conformance/projects/) under a real
# engine as a server and a client on loopback, tcpdump capturing the port: OUT.pcap, OUT.log (each peer's JSON
# lines, then each engine's own output as {"event":"engine_output"} lines), and for Godot 4 OUT.manifest.json (the
# server's dump by addons/gdwire/manifest.gd) and, where it differs from that, OUT.client.manifest.json (the client's).
# CLIENT_PROJECT (default PROJECT): the client runs this project instead (the mismatch pair).
# ENGINE: godot4.6 (default for config_version=5) or godot3.6 (default for config_version=4), as tools/engines/run
# names them. The projects are copied; each copy gets the harness (harness4.gd / harness3.gd) as the autoload
# GdwireHarness, and, for Godot 4, addons/gdwire/ and its editor import (--import: the class_name cache).
# Needs root (or CAP_NET_RAW) for tcpdump; GDW_PROJECT_NO_PCAP=1 runs without it (no OUT.pcap).
# Provenance and the committed runs: conformance/projects/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
engine=
if [ "${1:-}" = -e ]; then engine=$2; shift 2; fi
case $# in
    2) server_project=$1; client_project=$1; out=$2 ;;
    3) server_project=$1; client_project=$2; out=$3 ;;
    *) echo "usage: run_project.sh [-e ENGINE] PROJECT [CLIENT_PROJECT] OUT" >&2; exit 2 ;;
esac
for p in "$server_project" "$client_project"; do
    [ -f "$p/project.godot" ] || { echo "run_project.sh: $p/project.godot: no such file" >&2; exit 2; }
done
generation=4
grep -q '^config_version=5' "$server_project/project.godot" || generation=3
[ -n "$engine" ] || { [ $generation = 4 ] && engine=godot4.6 || engine=godot3.6; }
no_pcap=${GDW_PROJECT_NO_PCAP:-}
[ -n "$no_pcap" ] || command -v tcpdump >/dev/null || { echo "run_project.sh: needs tcpdump" >&2; exit 127; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# ROLE PROJECT: a copy of PROJECT with the harness as the last autoload
prepare() {
    local dir=$work/$1
    cp -rL "$2" "$dir"  # -L: a Bazel runfiles tree is symlinks to the sources
    rm -rf "$dir/.godot" "$dir/.import"
    cp "$here/harness$generation.gd" "$dir/gdwire_harness.gd"
    python3 - "$dir/project.godot" <<'PY'
import sys
path = sys.argv[1]
lines = open(path, encoding="utf-8").read().splitlines()
entry = 'GdwireHarness="*res://gdwire_harness.gd"'
if "[autoload]" in lines:
    at = lines.index("[autoload]") + 1
    while at < len(lines) and not lines[at].startswith("["):
        at += 1
    while lines[at - 1].strip() == "":
        at -= 1
    lines.insert(at, entry)
else:
    lines += ["", "[autoload]", "", entry]
open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
PY
    if [ $generation = 4 ]; then
        mkdir -p "$dir/addons"
        cp -rL "$repo/addons/gdwire" "$dir/addons/"
        (cd "$dir" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            timeout 120 "$repo/tools/engines/run" "$engine" --headless --import >"$work/$1.import" 2>&1) || {
            echo "run_project.sh: the editor import of $2 failed:" >&2; tail -n 20 "$work/$1.import" >&2; exit 1; }
    fi
}
prepare server "$server_project"
if [ "$client_project" -ef "$server_project" ]; then
    cp -r "$work/server" "$work/client"  # the same project: one import serves both
else
    prepare client "$client_project"
fi

port=${GDW_PROJECT_PORT:-$((20000 + RANDOM % 20000))}
if [ -z "$no_pcap" ]; then
    tcpdump -i lo -U -w "$work/session.pcap" "udp port $port" 2>"$work/tcpdump.err" &
    tcpdump_pid=$!
    pids+=("$tcpdump_pid")
    for _ in $(seq 50); do grep -qs listening "$work/tcpdump.err" && break; sleep 0.1; done
fi
run() { # ROLE
    local dir=$work/$1
    if [ $generation = 4 ]; then
        (cd "$dir" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            timeout 60 "$repo/tools/engines/run" "$engine" --headless --path . -- "$1" "$port" "$work/$1.log" "$work/$1.manifest.json" \
            >"$work/$1.out" 2>&1)
    else # Godot 3's harness reads its arguments from the environment
        (cd "$dir" && HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work" \
            GDW_ROLE=$1 GDW_PORT=$port GDW_LOG="$work/$1.log" \
            timeout 60 "$repo/tools/engines/run" "$engine" --no-window --path . >"$work/$1.out" 2>&1)
    fi
}
run server & pids+=($!); server=$!
sleep 1
run client & pids+=($!); client=$!
status=0
wait "$client" || status=$?
wait "$server" || status=$?
sleep 0.5
[ -n "$no_pcap" ] || { kill "$tcpdump_pid"; wait "$tcpdump_pid" 2>/dev/null || true; }
if [ "$status" != 0 ]; then
    echo "run_project.sh: an engine failed ($status):" >&2
    tail -n 30 "$work"/*.out >&2
    exit 1
fi
mkdir -p "$(dirname "$out")"
[ -n "$no_pcap" ] || cp "$work/session.pcap" "$out.pcap"
# the peers' logs, then each engine's own output (its errors: a checksum failure is said there)
python3 - "$work" > "$out.log" <<'PY'
import json, sys
work = sys.argv[1]
for role in ("server", "client"):
    sys.stdout.write(open(f"{work}/{role}.log", encoding="utf-8").read())
for role in ("server", "client"):
    for line in open(f"{work}/{role}.out", encoding="utf-8", errors="replace").read().splitlines():
        if line.strip():
            print(json.dumps({"event": "engine_output", "role": role, "line": line}, ensure_ascii=False))
PY
if [ $generation = 4 ]; then
    cp "$work/server.manifest.json" "$out.manifest.json"
    # the client's dump: kept only where it differs from the server's (the mismatch pair)
    rm -f "$out.client.manifest.json"
    cmp -s "$work/server.manifest.json" "$work/client.manifest.json" || cp "$work/client.manifest.json" "$out.client.manifest.json"
fi
[ -n "$no_pcap" ] || echo "$out.pcap: $(stat -c %s "$out.pcap") bytes"
echo "$out.log: $(wc -l < "$out.log") lines"
grep -h -i "error\|warning" "$work"/server.out "$work"/client.out | sort | uniq -c >&2 || true

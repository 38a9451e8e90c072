#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostile_restart.sh ENGINE GUARD... — a fault run: the upstream server restarts under the guard.
#   GUARD -d DIALECT [--project WORK, with GDW_HOSTILE_PROJECT=1] --listen 127.0.0.1:P --upstream 127.0.0.1:Q runs (under /usr/bin/time -v) the
#   whole time; a server on Q (tools/engines/guard/hostile4.gd / hostile3.gd) and an honest client
#   through P play 5 s; the server is killed (SIGKILL, as a crash would end it) while the client still
#   calls; a new server starts on Q, and a new honest client plays through the same guard for 5 s.
# One TSV row: engine, the first client's calls run by the first server, the second client's calls
# sent and run by the second server, the guard alive at the end, its peak RSS (kB) and its counters
# line at exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
engine=${1:?usage: hostile_restart.sh ENGINE GUARD...}; shift
guard=("$@")
run="$root/tools/engines/run"
case "$engine" in
    godot4.*) gen=4; compression="";         dialect=godot4 ;;
    godot3.6) gen=3; compression=range_coder; dialect=godot3 ;;
    godot3.*) gen=3; compression=none;        dialect=godot3@3.2 ;;
    *) echo "hostile_restart.sh: ENGINE is godot4.6, godot3.6 or godot3.2" >&2; exit 2 ;;
esac
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
cp "$root/tools/engines/guard/hostile$gen.gd" "$root/tools/engines/guard/hostile_game$gen.gd" "$work/"
# the work folder is the game's project: its main scene names /root/Game's script, for the guard's --project
cp "$root/tools/engines/guard/hostile_main$gen.tscn" "$work/main.tscn"
printf 'config_version=%s\n\n[application]\n\nrun/main_scene="res://main.tscn"\n' $((gen + 1)) > "$work/project.godot"
[ $gen = 4 ] || cp "$work/project.godot" "$work/engine.cfg"
export HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work"
cd "$work"
upstream=$((20000 + RANDOM % 20000)); listen=$((upstream + 1))
peer() { # ROLE PORT SECONDS LOG: one engine; `run` execs it, so $! is the engine's pid
    if [ $gen = 4 ]; then
        exec "$run" "$engine" --headless --path . --script res://hostile4.gd -- "$1" "$2" "$4" "$3"
    else
        GDW_ROLE=$1 GDW_PORT=$2 GDW_LOG=$4 GDW_SECONDS=$3 GDW_COMPRESSION=$compression exec "$run" "$engine" --no-window -s hostile3.gd
    fi
}
/usr/bin/time -v -o guard.time "${guard[@]}" -d "$dialect" ${GDW_HOSTILE_PROJECT:+--project "$work"} --listen "127.0.0.1:$listen" --upstream "127.0.0.1:$upstream" \
    --log guard.log --duration 40 > guard.out 2>&1 &
guard_pid=$!; pids+=("$guard_pid")
sleep 0.3
(peer server "$upstream" 30 server1.log > server1.out 2>&1) & s1=$!; pids+=("$s1")
sleep 1
(peer honest "$listen" 8 honest1.log > honest1.out 2>&1) & h1=$!; pids+=("$h1")
sleep 5
kill -9 "$s1" 2>/dev/null || true   # the first server dies (its subshell execs the engine: this is its pid)
wait "$s1" 2>/dev/null || true
sleep 0.5
(peer server "$upstream" 8 server2.log > server2.out 2>&1) & s2=$!; pids+=("$s2")
sleep 1
(peer honest "$listen" 5 honest2.log > honest2.out 2>&1) & h2=$!; pids+=("$h2")
wait "$h1" 2>/dev/null || true
wait "$h2" 2>/dev/null || true
wait "$s2" 2>/dev/null || true
alive=no; kill -0 "$guard_pid" 2>/dev/null && alive=yes
for p in $(pgrep -P "$guard_pid"); do kill -TERM "$p" 2>/dev/null || true; done  # the guard, time's child: SIGTERM drains
wait "$guard_pid" 2>/dev/null || true
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' guard.time)
count() { # LOG EVENT [METHOD]: lines of that event
    grep -c "\"event\":\"$2\"${3:+.*\"method\":\"$3\"}" "$1" 2>/dev/null || true
}
counters=$(grep -m1 "^guard counters" guard.log guard.out 2>/dev/null | head -1 | cut -d: -f2- | tr '\t' ' ' || true)
printf '%s\tupstream_restart\t%s\t%s\t%s\t%s\t%s\t%s\n' "$engine" "$(count server1.log rpc ping)" "$(count honest2.log sent ping)" \
    "$(count server2.log rpc ping)" "$alive" "${rss:-?}" "${counters:--}"

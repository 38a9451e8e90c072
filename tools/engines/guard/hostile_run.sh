#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# hostile_run.sh CLIENT ENGINE ATTACK [SECONDS] — one hostile-client run against a real, unguarded
# Godot server on loopback, and one TSV row of what it did to the server (tools/engines/guard/README.md):
#   a server (tools/engines/guard/hostile4.gd or hostile3.gd) under /usr/bin/time -v, an honest
#   client of the same engine calling ping(n) every 100 ms, and CLIENT (hostile_client) joining
#   after them and sending ATTACK.
# Row: engine attack outcome exit peak_rss_kb error_lines first_error honest_sent_after
#      honest_run_after hostile_rpcs_run hostile_state
#   outcome: survived | crashed (signal N) | hung (killed after SECONDS+10 s) | stalled (alive, but ran
#   none of the honest calls sent after the attack) | no_join (CLIENT could not join).
# GDW_HOSTILE_GUARD="GUARD ARGS...": run the guard in between (`GUARD ARGS -d DIALECT --listen 127.0.0.1:P
# --upstream 127.0.0.1:Q --log FILE`, under /usr/bin/time -v; DIALECT the engine's; with
# GDW_HOSTILE_PROJECT=1 also `--project WORK`, the run's folder, a project whose main scene has /root/Game):
# the server listens on Q, both clients connect to P, and
# the row gains guard_alive (the guard still running when the run ends), guard_peak_rss_kb,
# guard_lines (its log lines about the hostile client's address), guard_first (the first of them) and
# guard_counters (its counters line at exit).
# GDW_HOSTILE_LINGER=MS: how long CLIENT goes on servicing its ENet host after the attack (1500: the recorded
# tables), so that a fragmented attack lost on a loaded machine is retransmitted whole.
# GDW_HOSTILE_KEEP=DIR: keep the run's files (logs, the engines' output) in DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
client=${1:?usage: hostile_run.sh CLIENT ENGINE ATTACK [SECONDS]}
engine=${2:?}; attack=${3:?}; seconds=${4:-7}
client=$(cd "$(dirname "$client")" && pwd)/$(basename "$client")
run="$root/tools/engines/run"
case "$engine" in
    godot4.*) gen=4; compression="";         dialect=godot4 ;;
    godot3.6) gen=3; compression=range_coder; dialect=godot3 ;;      # Godot 3.4+'s default
    godot3.*) gen=3; compression=none;        dialect=godot3@3.2 ;;  # 3.2.3's default
    *) echo "hostile_run.sh: ENGINE is godot4.6, godot3.6 or godot3.2" >&2; exit 2 ;;
esac
work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    if [ -n "${GDW_HOSTILE_KEEP:-}" ]; then mkdir -p "$GDW_HOSTILE_KEEP" && cp -r "$work"/. "$GDW_HOSTILE_KEEP"/; fi
    rm -rf "$work"
}
trap cleanup EXIT
cp "$root/tools/engines/guard/hostile$gen.gd" "$root/tools/engines/guard/hostile_game$gen.gd" "$work/"
# the work folder is the game's project: its main scene names /root/Game's script, for the guard's --project
cp "$root/tools/engines/guard/hostile_main$gen.tscn" "$work/main.tscn"
printf 'config_version=%s\n\n[application]\n\nrun/main_scene="res://main.tscn"\n' $((gen + 1)) > "$work/project.godot"
[ $gen = 4 ] || cp "$work/project.godot" "$work/engine.cfg"
port=$((20000 + RANDOM % 20000))
connect_port=$port
guard=${GDW_HOSTILE_GUARD:-}
if [ -n "$guard" ]; then
    connect_port=$((port + 1))
    # shellcheck disable=SC2086 # GUARD ARGS are words
    /usr/bin/time -v -o "$work/guard.time" $guard -d "$dialect" ${GDW_HOSTILE_PROJECT:+--project "$work"} --listen "127.0.0.1:$connect_port" --upstream "127.0.0.1:$port" \
        --log "$work/guard.log" --duration $((seconds + 20)) > "$work/guard.out" 2>&1 &
    pids+=($!); guard_pid=$!
    sleep 0.3
fi
peer() { # ROLE PORT SECONDS: one engine of the run, in the foreground
    if [ $gen = 4 ]; then
        "$run" "$engine" --headless --path . --script res://hostile4.gd -- "$1" "$2" "$work/$1.log" "$3"
    else
        GDW_ROLE=$1 GDW_PORT=$2 GDW_LOG="$work/$1.log" GDW_SECONDS=$3 GDW_COMPRESSION=$compression \
            "$run" "$engine" --no-window -s hostile3.gd
    fi
}
export HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" XDG_CACHE_HOME="$work"
cd "$work"
( /usr/bin/time -v -o "$work/time.txt" timeout -s KILL $((seconds + 10)) bash -c "$(declare -f peer); $(declare -p gen engine run work compression); peer server $port $seconds" \
    > "$work/server.out" 2>&1 && echo 0 > "$work/server.rc" || echo $? > "$work/server.rc" ) &
pids+=($!); server=$!
sleep 1
( peer honest "$connect_port" "$(awk -v s="$seconds" "BEGIN { print s - 1.5 }")" > "$work/honest.out" 2>&1 || true ) &
pids+=($!); honest=$!
sleep 1.5
rc_args=(); [ "$compression" != range_coder ] || rc_args=(--range-coder)
timeout 60 "$client" $gen 127.0.0.1 "$connect_port" "$attack" "${rc_args[@]}" --linger "${GDW_HOSTILE_LINGER:-1500}" \
    > "$work/hostile.out" 2>&1 || true
wait "$honest" || true
wait "$server" || true
guard_cols=""
if [ -n "$guard" ]; then
    guard_alive=no
    kill -0 "$guard_pid" 2>/dev/null && guard_alive=yes
    for p in $(pgrep -P "$guard_pid"); do kill -TERM "$p" 2>/dev/null || true; done  # the guard (time's child): SIGTERM drains
    wait "$guard_pid" 2>/dev/null || true
    guard_rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/guard.time")
    hostile_port=$(sed -n 's/^local_port=//p' "$work/hostile.out")
    guard_lines=0 guard_first=-
    if [ -n "$hostile_port" ] && [ -s "$work/guard.log" ]; then
        guard_lines=$(grep -c ":$hostile_port\b" "$work/guard.log" || true)
        guard_first=$(grep -m1 ":$hostile_port\b" "$work/guard.log" | tr '\t|' '  ' | cut -c1-200 || true)
    fi
    guard_counters=$(cat "$work/guard.log" "$work/guard.out" 2>/dev/null | grep -m1 '^guard counters' | cut -d: -f2- | tr '\t|' '  ' || true)
    guard_cols=$(printf '\t%s\t%s\t%s\t%s\t%s' "$guard_alive" "${guard_rss:-?}" "$guard_lines" "${guard_first:--}" "${guard_counters:--}")
fi
rc=$(cat "$work/server.rc" 2>/dev/null || echo "?")
# time -v: "Maximum resident set size (kbytes): N" and, for a signal, "Command terminated by signal N"
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
sent_ms=$(sed -n 's/^sent .*t_ms=//p' "$work/hostile.out")
hostile_id=$(sed -n 's/^joined id=\([0-9]*\).*/\1/p' "$work/hostile.out")
state=$(sed -n 's/^end state=//p' "$work/hostile.out"); state=${state:-none}
out=$(python3 - "$work" "${sent_ms:-0}" "${hostile_id:-0}" <<'PY'
import json, sys, re
work, sent_ms, hostile = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def lines(name):
    try:
        with open(f"{work}/{name}", errors="replace") as f:
            return [json.loads(l) for l in f if l.startswith("{")]
    except OSError:
        return []
server, honest = lines("server.log"), lines("honest.log")
sent_after = {d["n"] for d in honest if d.get("event") == "sent" and d.get("method") == "ping" and d["t_ms"] > sent_ms}
run_after = 0
for d in server:
    if d.get("event") == "rpc" and d["method"] == "ping" and d["from"] != hostile and d["t_ms"] > sent_ms:
        run_after += 1
hostile_runs = sum(1 for d in server if d.get("event") == "rpc" and d["from"] == hostile)
errs = []
with open(f"{work}/server.out", errors="replace") as f:
    for l in f:
        l = l.strip()
        if l.startswith(("ERROR:", "SCRIPT ERROR:")) and "locale" not in l:
            errs.append(re.sub(r"[\s|]+", " ", l)[:160])
crash = ""
with open(f"{work}/server.out", errors="replace") as f:
    m = re.search(r"Program crashed with signal (\d+)", f.read())
    if m:
        crash = m.group(1)
print(len(sent_after), run_after, hostile_runs, len(errs), crash or "-", sep="|", end="|")
print(errs[0] if errs else "-")
PY
)
IFS="|" read -r honest_sent honest_run hostile_runs n_errors crash first_error <<< "$out"
signal=$(sed -n 's/^Command terminated by signal //p' "$work/time.txt")
if [ -z "$hostile_id" ]; then outcome=no_join
elif [ -n "$signal" ] || [ "$crash" != - ]; then outcome="crashed (signal ${signal:-$crash})"
elif [ "$rc" = 137 ]; then outcome=hung
elif [ "$rc" != "?" ] && [ "$rc" -gt 128 ]; then outcome="crashed (signal $((rc - 128)))"
elif [ "$honest_sent" -gt 0 ] && [ "$honest_run" = 0 ]; then outcome=stalled
else outcome=survived; fi
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n' "$engine" "$attack" "$outcome" "$rc" "${rss:-?}" \
    "$n_errors" "$first_error" "$honest_sent" "$honest_run" "$hostile_runs" "$state" "$guard_cols"

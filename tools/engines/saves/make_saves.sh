#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make_saves.sh ENGINE OUTDIR — the engine (godot4.6, godot3.6, godot3.2: tools/engines/run) writes a game's
#     save, three store_var values, plain, compressed in every mode it has and encrypted with the test
#     password and key (saves4.gd / saves3.gd), and reads each file back with its own get_var: OUTDIR gets
#     the files (game.SUFFIX), log.jsonl (every value as the engine sees it, per file; what it read back;
#     its stderr per file) and stderr.txt (the engine's whole stderr).
# make_saves.sh ENGINE --read DIR [--password P] [--key HEX] — the engine opens every file of DIR by its
#     suffix (README.md) and reads every value with get_var (read_saves4.gd / read_saves3.gd): JSON lines
#     on stdout, with its stderr per file. Without --password / --key, the test secrets.
# make_saves.sh ENGINE --bench DIR [MB] — the engine writes a save of about MB megabytes (default 100) in
#     each container into DIR and times its own get_var loop over each: a table on stdout (JSON lines in
#     DIR/bench.jsonl). The files stay in DIR (they are not for committing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: make_saves.sh godot4.6|godot3.6|godot3.2 OUTDIR | --read DIR [--password P] [--key HEX] | --bench DIR [MB]" >&2; exit 2; }
engine=${1:-}; shift || usage
case "$engine" in
    godot4.*) gen=4; config=5; run_script() { args=(--headless --path . --script "res://$1"); } ;;
    godot3.*) gen=3; config=4; run_script() { args=(--no-window -s "$1"); } ;;
    *) usage ;;
esac
mode=write; dir=${1:-}; [ -n "$dir" ] || usage; shift
case "$dir" in
    --read) mode=read; dir=${1:-}; [ -n "$dir" ] || usage; shift ;;
    --bench) mode=bench; dir=${1:-}; [ -n "$dir" ] || usage; shift; megabytes=${1:-100} ;;
esac
password=; key=
while [ "$mode" = read ] && [ $# -gt 0 ]; do
    case "$1" in
        --password) password=${2?--password needs a value}; shift 2 ;;
        --key) key=${2?--key needs 64 hex digits}; shift 2 ;;
        *) usage ;;
    esac
done
[ -z "$key" ] || [[ "$key" =~ ^[0-9a-fA-F]{64}$ ]] || { echo "make_saves.sh: --key is 64 hex digits (32 bytes)" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'config_version=%s\n' "$config" > "$work/project.godot"
cp "$here/saves$gen.gd" "$here/read_saves$gen.gd" "$work/"
case "$mode" in
    write) script=saves$gen.gd; target=$work/out; mkdir "$target" ;;
    read) script=read_saves$gen.gd; target=$dir ;;
    bench) script=saves$gen.gd; target=$dir ;;
esac
run_script "$script"
status=0
(cd "$work" && HOME=$work XDG_DATA_HOME=$work XDG_CONFIG_HOME=$work XDG_CACHE_HOME=$work \
    GDW_SAVES_DIR=$target GDW_SAVES_PASSWORD_HEX=$(printf %s "$password" | od -An -tx1 | tr -d ' \n') GDW_SAVES_KEY=$key GDW_SAVES_BENCH=${megabytes:-} \
    timeout 3600 "$here/../run" "$engine" "${args[@]}" > "$work/stdout.txt" 2> "$work/stderr.txt") || status=$?
if ! grep -qx DONE "$work/stdout.txt"; then
    tail -n 30 "$work/stderr.txt" >&2
    echo "make_saves.sh: $engine did not finish ($status)" >&2
    exit 1
fi
merge() { python3 "$here/saves_log.py" "$work/stdout.txt" "$work/stderr.txt" "$target"; }
case "$mode" in
    write)
        cp "$work"/out/game.* "$dir/"
        merge > "$dir/log.jsonl"
        sed "s|$work/out|DIR|g" "$work/stderr.txt" > "$dir/stderr.txt"
        echo "make_saves: $(ls "$work"/out/game.* | wc -l) files from $engine -> $dir (log.jsonl: $(wc -l < "$dir/log.jsonl") lines)" ;;
    read) merge ;;
    bench)
        merge > "$dir/bench.jsonl"
        python3 "$here/saves_log.py" --bench-table "$dir/bench.jsonl" ;;
esac

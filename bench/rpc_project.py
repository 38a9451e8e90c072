#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rpc_project.py GDWIRE [--scale K...] [--runs N] [--keep DIR]: `gdwire rpc --json` on generated Godot 4
projects the size of a large real game (issue 59): at scale 1, 2,000 scripts and 500 scenes; each larger
scale multiplies both (and the main scene's parts). Prints, side by side in one run, each project's size, the median wall and CPU time
of N runs, the throughput, and the time per byte against scale 1's (1.00 = linear in the project's bytes).

The project is shaped as games are: scripts of 40-90 lines with 0-6 @rpc methods in the annotation's
forms, typed and untyped parameters, a third extending another script by path or by class_name (chains up
to 4 deep); scenes of 8-30 nodes, a script on most, some instancing other scenes, a MultiplayerSpawner and
a MultiplayerSynchronizer with a replication config in a fifth of them, a MultiplayerSpawner in 20 "levels"
spawning 3 of the last fifth (leaf scenes, which instance no scene); a main scene instancing 60 scenes a
scale, 20 autoloads. Deterministic (random.Random(59)). docs/performance.md quotes its figures."""
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

WORDS = ["hit", "heal", "move", "aim", "emote", "chat", "spawn", "sync", "ping", "kick", "zap", "push", "grab",
         "drop", "fire", "reload", "jump", "dash", "block", "parry", "cast", "loot", "open", "close", "score"]
FORMS = ['@rpc', '@rpc("any_peer")', '@rpc("any_peer", "call_local")', '@rpc("authority", "unreliable")',
         '@rpc("any_peer", "call_remote", "unreliable_ordered", 2)', '@rpc("call_local", "reliable")']
TYPES = ["int", "float", "String", "Vector2", "Vector3", "Dictionary", "Array[int]", "bool", None]


def script(rng, i, n_scripts, classes):
    lines = []
    if i % 3 == 1 and i > 2:
        base = rng.randrange(max(1, i - 50), i)
        lines.append('extends "res://scripts/s%04d.gd"' % base if rng.random() < 0.5 else "extends %s" % classes[base])
    else:
        lines.append("extends Node2D")
    lines.insert(0, "class_name %s" % classes[i])
    lines += ["", "# a generated script for the benchmark", "const SPEED := %d" % rng.randrange(100, 900),
              "var hp := 100", "var state := {}", "@export var label := \"s%04d\"" % i, ""]
    for k in range(rng.randrange(0, 7)):
        name = "%s_%d" % (rng.choice(WORDS), rng.randrange(100))
        params = ", ".join(("a%d: %s" % (j, t) if t else "a%d" % j) for j, t in
                           ((j, rng.choice(TYPES)) for j in range(rng.randrange(0, 4))))
        lines += [rng.choice(FORMS), "func %s(%s) -> void:" % (name, params), "\tvar local := \"%s\"" % name,
                  "\tif hp > 0:", "\t\thp -= 1  # (a comment with @rpc and \"quotes\" in it)", ""]
    for k in range(rng.randrange(4, 10)):
        lines += ["func helper_%d(x: int) -> int:" % k, "\tvar t = [x, x + 1, {\"k\": x}]",
                  "\treturn t[0] + SPEED", ""]
    lines += ["func _ready() -> void:", "\tset_process(true)", "", "func _process(delta: float) -> void:",
              "\tposition += Vector2(delta, 0) * SPEED", ""]
    return "\n".join(lines) + "\n"


def scene(rng, i, n_scripts, n_scenes):
    exts, nodes, subs = [], [], []
    def ext(kind, path):
        exts.append('[ext_resource type="%s" path="%s" id="%d_x%d"]' % (kind, path, len(exts) + 1, i))
        return "%d_x%d" % (len(exts), i)
    root_script = ext("Script", "res://scripts/s%04d.gd" % rng.randrange(n_scripts))
    nodes.append('[node name="Scene%d" type="Node2D"]\nscript = ExtResource("%s")\n' % (i, root_script))
    paths = ["."]
    for k in range(rng.randrange(8, 30)):
        parent = rng.choice(paths)
        name = "N%d" % k
        if rng.random() < 0.05 and i < n_scenes - n_scenes // 5:  # the last fifth are leaves
            inst = ext("PackedScene", "res://scenes/c%04d.tscn" % rng.randrange(max(i + 1, n_scenes - n_scenes // 5), n_scenes))
            nodes.append('[node name="%s" parent="%s" instance=ExtResource("%s")]\n' % (name, parent, inst))
            continue
        body = '[node name="%s" type="Node2D" parent="%s"]\n' % (name, parent)
        if rng.random() < 0.6:
            body += 'script = ExtResource("%s")\n' % ext("Script", "res://scripts/s%04d.gd" % rng.randrange(n_scripts))
        body += "position = Vector2(%d, %d)\n" % (rng.randrange(1000), rng.randrange(1000))
        nodes.append(body)
        paths.append(name if parent == "." else parent + "/" + name)
    if i % 5 == 0:  # a synchronizer in a fifth of the scenes; a spawner in the first 20 ("levels"), spawning leaf scenes
        sub = "SceneReplicationConfig_%d" % i
        props = "".join('properties/%d/path = NodePath(".:p%d")\nproperties/%d/spawn = %s\nproperties/%d/replication_mode = %d\n'
                        % (k, k, k, "true" if k % 2 else "false", k, k % 3) for k in range(6))
        subs.append('[sub_resource type="SceneReplicationConfig" id="%s"]\n%s' % (sub, props))
        nodes.append('[node name="Sync" type="MultiplayerSynchronizer" parent="."]\nreplication_config = SubResource("%s")\n' % sub)
    if i < 100 and i % 5 == 0:
        spawnable = ", ".join('"res://scenes/c%04d.tscn"' % rng.randrange(n_scenes) for _ in range(3))
        nodes.append('[node name="Spawner" type="MultiplayerSpawner" parent="."]\n_spawnable_scenes = PackedStringArray(%s)\n'
                     'spawn_path = NodePath("..")\n' % spawnable)
    return "[gd_scene load_steps=%d format=3]\n\n%s\n\n%s\n%s" % (len(exts) + 1, "\n".join(exts), "\n".join(subs), "\n".join(nodes))


def make(dir, scale):
    rng = random.Random(59)
    n_scripts, n_scenes = 2000 * scale, 500 * scale
    os.makedirs(os.path.join(dir, "scripts"), exist_ok=True)
    os.makedirs(os.path.join(dir, "scenes"), exist_ok=True)
    classes = ["Gen%04d" % i for i in range(n_scripts)]
    for i in range(n_scripts):
        open(os.path.join(dir, "scripts", "s%04d.gd" % i), "w").write(script(rng, i, n_scripts, classes))
    for i in range(n_scenes):
        open(os.path.join(dir, "scenes", "c%04d.tscn" % i), "w").write(scene(rng, i, n_scripts, n_scenes))
    main = ['[gd_scene format=3]', '[ext_resource type="Script" path="res://scripts/s0000.gd" id="1"]']
    parts = 60 * scale
    main += ['[ext_resource type="PackedScene" path="res://scenes/c%04d.tscn" id="s%d"]' % (k * (n_scenes // parts), k) for k in range(parts)]
    main += ['[node name="Main" type="Node"]', 'script = ExtResource("1")']
    main += ['[node name="Part%d" parent="." instance=ExtResource("s%d")]' % (k, k) for k in range(parts)]
    open(os.path.join(dir, "main.tscn"), "w").write("\n".join(main) + "\n")
    autoloads = "\n".join('Auto%d="*res://scripts/s%04d.gd"' % (k, k * 7) for k in range(20))
    open(os.path.join(dir, "project.godot"), "w").write(
        'config_version=5\n\n[application]\n\nconfig/name="bench"\nrun/main_scene="res://main.tscn"\n\n[autoload]\n\n%s\n' % autoloads)
    total = 0
    for root, _, files in os.walk(dir):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return n_scripts, n_scenes, total


def measure(gdwire, dir, runs):
    walls, cpus = [], []
    out = b""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([gdwire, "rpc", "--json", dir], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if p.returncode != 0:
            raise SystemExit("gdwire rpc failed on %s" % dir)
        out = p.stdout
    return statistics.median(walls), statistics.median(cpus), out, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    gdwire = args.pop(0)
    scales, runs, keep = [], 5, None
    while args:
        a = args.pop(0)
        if a == "--scale": scales.append(int(args.pop(0)))
        elif a == "--runs": runs = int(args.pop(0))
        elif a == "--keep": keep = args.pop(0)
        else: raise SystemExit("rpc_project.py: unknown argument %s" % a)
    scales = scales or [1, 2, 4]
    print("%-6s %8s %7s %10s %9s %9s %9s %8s %9s" % ("scale", "scripts", "scenes", "bytes", "wall s", "cpu s", "MB/s", "nodes", "cpu/byte"))
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for k in scales:
            dir = os.path.join(keep or tmp, "bench%d" % k)
            n_scripts, n_scenes, total = make(dir, k)
            wall, cpu, out, _ = measure(gdwire, dir, runs)
            nodes = out.count(b'"origin":')
            per_byte = cpu / total
            base = base or per_byte
            print("%-6d %8d %7d %10d %9.3f %9.3f %9.1f %8d %9.2f" % (k, n_scripts, n_scenes, total, wall, cpu, total / wall / 1e6, nodes, per_byte / base))
    print("(median of %d runs; cpu/byte: scale 1's = 1.00, linear in the project's bytes stays near 1)" % runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

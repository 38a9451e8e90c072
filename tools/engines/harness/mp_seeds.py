#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mp_seeds.py OUT_DIR — the seeds of the multiplayer harness, from the sessions real engines recorded.

Reads the sessions of conformance/sessions/ with gdwire's Python package (python/: `gdwire.Session`) and writes,
for Godot 4 (godot4.6-*.pcap) and Godot 3 (godot3.6-*.pcap, godot3.2-*.pcap), OUT_DIR/multiplayerG-server.hex
(what each client sent the server) and OUT_DIR/multiplayerG-client.hex (what the server sent each client): one
input a line, in multiplayer4.gd's form (each message a 16-bit little-endian length and its bytes), the messages
of one flow and direction in their order, up to 12 an input. The bytes are the engines' own; gdwire only finds
where each message starts and ends.
"""
import glob
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import gdwire  # noqa: E402

PER_INPUT = 12


GENERATIONS = {4: ["godot4.6-*.pcap"], 3: ["godot3.6-*.pcap", "godot3.2-*.pcap"]}


def main(out_dir):
    for generation, patterns in sorted(GENERATIONS.items()):
        paths = sorted(p for pat in patterns for p in glob.glob(os.path.join(ROOT, "conformance", "sessions", pat)))
        write(out_dir, generation, paths)


def write(out_dir, generation, paths):
    streams = {"server": {}, "client": {}}
    for path in paths:
        s = gdwire.Session()
        for ev in s.read_capture(path):
            if not isinstance(ev, gdwire.Message) or ev.relayed or ev.transport == "tcp":  # put_var flows: no multiplayer
                continue
            role = "server" if ev.to_peer == 1 else "client" if ev.from_peer == 1 else None
            if role and len(ev.data) < 65536:
                streams[role].setdefault((path, ev.flow, ev.from_peer, ev.to_peer), []).append(ev.data)
    os.makedirs(out_dir, exist_ok=True)
    for role, flows in streams.items():
        lines = []
        for key in sorted(flows):
            msgs = flows[key]
            for at in range(0, len(msgs), PER_INPUT):
                lines.append(b"".join(struct.pack("<H", len(m)) + m for m in msgs[at:at + PER_INPUT]).hex())
        with open(os.path.join(out_dir, "multiplayer%d-%s.hex" % (generation, role)), "w") as fh:
            fh.write("\n".join(lines) + "\n")
        print("Godot %d, %s: %d inputs from %d flows" % (generation, role, len(lines), len(flows)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds"))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""script_calls.py — does the call `gdwire check` tells a user to make read the value in the engine itself?

`gdwire check` ends with what a script passes to read the packet ("In the engine: bytes_to_var(bytes.slice(4))",
the library's gdw_check_script_text, from the dialect table's gdw_script_facts). This asks the real engine.

  script_calls.py record GDWIRE ENGINE      run ENGINE (godot4.6, godot3.6, godot3.2) on the calls gdwire names for
                                            packets the engine wrote, shaped five ways, and write
                                            tools/engines/ENGINE-script_calls.tsv (committed: the evidence)
  script_calls.py check GDWIRE TSV...       re-check committed evidence without the engine: gdwire still names the
                                            call the engine ran for each case, and the engine's answer is the value
                                            (or, for a cut packet, the failure) gdwire says

The shapes, each of a packet from ENGINE-packets.tsv whose engine round trip is exact:
  whole      the packet as the engine wrote it             call: bytes_to_var(bytes)           engine: the value
  put_var    a 4-byte length, then the packet              call: bytes_to_var(bytes.slice(4))  engine: the value,
             (also StreamPeerBuffer.get_var() on it)                                          and get_var's too
  front      2 bytes in front (ff ff), then the packet     call: bytes_to_var(bytes.slice(2))  engine: the value
  trailing   the packet, then 4 bytes (de ad be ef)        call: bytes_to_var(bytes)           engine: the value
  cut        the packet without its last 2 bytes           call: bytes_to_var(bytes)           engine: it fails
  cut_half   the packet's first half                       call: bytes_to_var(bytes)           engine: it fails
  objects    the packet, checked with --allow-objects      call: bytes_to_var_with_objects(bytes) / bytes2var(bytes, true)
A cut shape is often read as something else (a cut int's last 8 bytes as a bool after 2 bytes in front): what is
held is gdwire's reading of each case, whatever it is, and the engine's answer to the call gdwire names for it.
The value is compared as the engine writes it back (var_to_bytes / var2bytes, hex) with the engine's own round
trip of the whole packet (ENGINE-packets.tsv, column 3), both written anew by gdwire's encoder. A failure is null in Godot 4 (bytes_to_var returns
Variant() on an error, core/variant/variant_utility.cpp:1096-1106) and a stopped script in Godot 3 (bytes2var
sets a call error, modules/gdscript/gdscript_functions.cpp:890-896, which ends the calling function), so each call
is a function of its own.

Columns of ENGINE-script_calls.tsv: case, shape, packet hex, the family whose call was run, the call, what the
engine printed for the call ("fail" where the script stopped), what get_var printed ("-" but for put_var).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = {
    # engine: (the family whose calls it runs, its byte array type, its var_to_bytes, its arguments, config_version)
    "godot4.6": ("godot4", "PackedByteArray", "var_to_bytes", ["--headless", "--path", ".", "--script", "res://calls.gd"], 5),
    "godot3.6": ("godot3", "PoolByteArray", "var2bytes", ["--no-window", "-s", "calls.gd"], 4),
    "godot3.2": ("godot3", "PoolByteArray", "var2bytes", ["--no-window", "-s", "calls.gd"], 4),
}
SHAPES = ("whole", "put_var", "front", "trailing", "cut", "cut_half", "objects")
# the engines as gdwire's script line names them in its parenthesis of other calls (gdw_script_facts.who)
WHO = {"godot4": "Godot 4", "godot3": "Godot 3"}
STEP = 17  # every 17th exact packet of the engine's: 16 to 24 packets across the types


def shaped(shape, packet):
    if shape == "whole":
        return packet
    if shape == "put_var":
        return len(packet).to_bytes(4, "little") + packet
    if shape == "front":
        return b"\xff\xff" + packet
    if shape == "trailing":
        return packet + b"\xde\xad\xbe\xef"
    if shape == "cut_half":
        return packet[:len(packet) // 2]
    if shape == "cut":
        return packet[:-2]
    return packet  # objects: the packet, its calls asked for with Objects


def closing(text, i):
    """The index just past the parenthesis that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j + 1
    raise ValueError(f"unbalanced: {text!r}")


def call_for(script):
    """The calls in gdwire's script text: the leading one, and those of the families in the parenthesis of the
    equally likely after it ("bytes_to_var(bytes) (in godot3, pandemonium: bytes2var(bytes); mole: ...)")."""
    m = re.search(r"\b(bytes_to_var_with_objects|bytes_to_var|bytes2var)\(", script)
    if not m:
        return None, {}
    end = closing(script, m.end() - 1)
    lead, others = script[m.start():end], {}
    if script.startswith(" (in ", end):
        inner = script[end + 5:closing(script, end + 1) - 1]
        depth, start, parts = 0, 0, []
        for j, ch in enumerate(inner):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0 and inner.startswith("; ", j):
                parts.append(inner[start:j])
                start = j + 2
        parts.append(inner[start:])
        for part in parts:
            fams, _, call = part.partition(": ")
            for f in fams.split(", "):
                others[f] = call
    return lead, others


def gdwire_check(gdwire, data, objects=False):
    out = subprocess.run([gdwire, "check", "--hex", "--json"] + (["--allow-objects"] if objects else []), input=data.hex(), capture_output=True,
                         text=True).stdout
    return json.loads(out)  # its exit status is 1 where no dialect accepts the bytes


def family_call(gdwire, data, family, objects=False):
    """The call gdwire says a script of family makes for data (None where its answer names none), and what it says
    that call gives: the value the family's dialect reads after the skipped bytes, as its encoder writes it, or "fail"."""
    rep = gdwire_check(gdwire, data, objects)
    if not rep.get("best"):
        return None, None
    fam_of = {d["name"]: d["family"] for d in DIALECTS[gdwire]}
    lead, others = call_for(rep["script"])
    call = lead if fam_of[rep["best"]] == family else others.get(WHO[family])
    if call is None:
        return None, None
    row = next(d for d in rep["dialects"] if d["dialect"] == family)
    if row["reading"] == "cut" or not row["accepted"]:
        return call, "fail"
    skip = rep["skip"]
    return call, canonical(gdwire, family, data[skip:skip + row["consumed"]].hex())


def canonical(gdwire, family, hexdata):
    """A value as the family's encoder writes it: the engine writes a bool read from 0x8000 back as 1, and Godot
    3.2.3 leaves NodePath padding uninitialised (docs/dialects/godot3.md, #44999), so values are compared written
    anew."""
    if hexdata in ("fail", "missing", "-"):
        return hexdata
    p = subprocess.run([gdwire, "convert", "--hex", "--from", family, "--to", family], input=hexdata, capture_output=True, text=True)
    return "".join(p.stdout.split()) if p.returncode == 0 else "unreadable:" + hexdata


DIALECTS = {}


def load_dialects(gdwire):
    if gdwire not in DIALECTS:
        out = subprocess.run([gdwire, "dialects", "--json"], capture_output=True, text=True, check=True).stdout
        DIALECTS[gdwire] = json.loads(out)["dialects"] if out.lstrip().startswith("{") else json.loads(out)
    return DIALECTS[gdwire]


def engine_packets(engine):
    rows = []
    with open(os.path.join(HERE, f"{engine}-packets.tsv")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, wrote, back = line.rstrip("\n").split("\t")[:3]
            if wrote == back and len(wrote) >= 24:
                rows.append((name, bytes.fromhex(wrote)))
    return rows[::STEP]


def gd_bytes(kind, data):
    return "%s([%s])" % (kind, ", ".join(str(b) for b in data))


def record(gdwire, engine):
    family, kind, reencode, args, config = ENGINES[engine]
    load_dialects(gdwire)
    runs = []
    for name, packet in engine_packets(engine):
        for shape in SHAPES:
            data = shaped(shape, packet)
            call, _ = family_call(gdwire, data, family, shape == "objects")
            if call is None:
                print(f"script_calls: {name} ({shape}): gdwire names no {family} call; left out", file=sys.stderr)
                continue
            runs.append((name, shape, data, call))
    # each call in a function of its own: a call error (Godot 3's bytes2var on bad bytes) ends that function only,
    # and _init goes on to the next
    lines = ["extends SceneTree", ""]
    for i, (name, shape, data, call) in enumerate(runs):
        lines += [f"func c{i}():", "\tvar bytes = " + gd_bytes(kind, data),
                  '\tprint("R\\t%d\\t", %s(%s).hex_encode())' % (i, reencode, call)]
        if shape == "put_var":
            lines += ["\tvar sp = StreamPeerBuffer.new()", "\tsp.data_array = bytes",
                      '\tprint("G\\t%d\\t", %s(sp.get_var()).hex_encode())' % (i, reencode)]
        lines.append("")
    lines += ["func _init():"] + [f"\tc{i}()" for i in range(len(runs))] + ['\tprint("DONE")', "\tquit()", ""]
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "project.godot"), "w") as f:
            f.write(f"config_version={config}\n")
        with open(os.path.join(work, "calls.gd"), "w") as f:
            f.write("\n".join(lines))
        p = subprocess.run([os.path.join(HERE, "run"), engine] + args, cwd=work, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, HOME=work))
    got, gv = {}, {}
    for line in p.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[0] in ("R", "G"):
            (got if parts[0] == "R" else gv)[int(parts[1])] = parts[2]
    finished = "DONE" in p.stdout
    version = subprocess.run([os.path.join(HERE, "run"), engine, "--version"], capture_output=True, text=True).stdout.strip()
    out = os.path.join(HERE, f"{engine}-script_calls.tsv")
    with open(out, "w") as f:
        f.write(f"# engine\t{version}\n# case\tshape\tpacket\tfamily\tcall\tengine\tget_var\n")
        for i, (name, shape, data, call) in enumerate(runs):
            answer = got.get(i, "fail" if finished else "missing")
            f.write("\t".join([name, shape, data.hex(), family, call, answer, gv.get(i, "-")]) + "\n")
    print(f"script_calls: {len(runs)} calls run in {engine}{'' if finished else ', which did not finish'} -> {out}")
    return check(gdwire, [out])


def check(gdwire, paths):
    """Each recorded case: gdwire still names the call the engine ran, and the engine's answer is what gdwire says
    that call gives (the value, as the engine writes it back, or a failure: null in Godot 4, a stopped script in
    Godot 3); a put_var case's get_var gives the value too. Where a shape reads as something else (a cut int whose
    last 8 bytes read as a bool after 2 bytes in front), gdwire's reading of it is what is held."""
    load_dialects(gdwire)
    bad = total = 0
    for path in paths:
        engine = os.path.basename(path).split("-script_calls")[0]
        shapes, fails = {}, 0
        n_all = 0
        for line in open(path):
            if line.startswith("#"):
                continue
            name, shape, hexdata, family, call, answer, get_var = line.rstrip("\n").split("\t")
            shapes[shape] = shapes.get(shape, 0) + 1
            n_all += 1
            now, says = family_call(gdwire, bytes.fromhex(hexdata), family, shape == "objects")
            problems = []
            if now != call:
                problems.append(f"gdwire now names {now!r}, the engine ran {call!r}")
            if says == "fail":
                fails += 1
                # Godot 3's bytes2var stops the calling function; Godot 4's bytes_to_var returns null
                if answer != "fail" and not (family == "godot4" and answer == "00000000"):
                    problems.append(f"gdwire says the call fails; the engine read {answer}")
            elif canonical(gdwire, family, answer) != says:
                problems.append(f"the engine's value {answer} is not the {says} gdwire reads")
            if shape == "put_var" and says != "fail" and canonical(gdwire, family, get_var) != says:
                problems.append(f"StreamPeer.get_var gave {get_var}, not {says}")
            if problems:
                bad += 1
                print(f"FAIL {engine} {name} ({shape}): " + "; ".join(problems))
        print(f"script_calls: {engine}: {sum(shapes.values())} calls (" + ", ".join(f"{k} {v}" for k, v in shapes.items()) +
              f"), {fails} of them failing as gdwire says")
        total += n_all
    print(f"script_calls: {'every call gdwire names reads what it says' if not bad else f'{bad} failed'}")
    print(f"{total - bad} passed, {bad} failed")
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "record":
        return record(argv[2], argv[3])
    if len(argv) >= 4 and argv[1] == "check":
        return check(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

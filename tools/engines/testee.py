#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""testee.py ENGINE — a real Godot engine as a testee (docs/testee-protocol.md).

ENGINE is godot4.6, godot3.6 or godot3.2 (tools/engines/run starts it). The adapter speaks the
protocol on stdin/stdout and runs the engine in batches: it collects the requests in flight
(up to its window), writes them to a file, starts the engine once with the driver script of that
generation (godot4.gd, godot3.gd), and answers from what the engine printed.

Telling a Nil packet from a rejected one. Godot 4: PackedByteArray.decode_var_size is 0 exactly
when decode_variant failed. Godot 3: Marshalls.base64_to_variant returns null both ways, but the
engine then prints "Error when trying to decode Variant" on stderr exactly when decode_variant
failed. The driver writes a marker "@@MARK:index" on stderr before each packet; stderr is one
stream, so the text between two markers belongs to one packet. MARK is a random word made for
each engine run (GDW_MARK), and every line the driver prints on stdout starts with it too: a
packet can make the engine print text of its choosing (a class name holding line breaks), but
it cannot know the word, so it cannot forge a marker or an answer (issue 34). Anything else on
either stream is the engine's own text, read as such whatever it holds. The error class is the first "ERR_..."
the engine names there (its innermost failing check).

A packet that kills the engine (Godot 3.2.3 overflows its stack on deep nesting) is answered
"rejected" with error class CRASH, one that makes it run past the batch time limit HANG; the
engine is started again with the packets after it.

Also: testee.py ENGINE --version prints the engine's own version string.
"""
import base64
import os
import re
import secrets
import select
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, "run")
WINDOW = 2000
# How a Godot 2 or 3 engine says its decode failed: 3.2+ (decode_variant's own message), 3.1 (its
# ERR_FAIL lines in decode_variant and _decode_string; godot31_driver reads through PacketPeer,
# whose get_var prints nothing of its own), and Godot 2 (base64_to_variant's check, spelt its way).
GODOT3_FAIL = ("Error when trying to decode Variant", "base64_to_variant: Condition ' err != OK ' is true",
               "base64_to_variant: Condition ' err!=OK ' is true",  # Godot 2
               "ERROR: decode_variant: ", "ERROR: _decode_string: ")
ERR_NAME = re.compile(r"[Rr]eturn(?:ed|ing): (ERR_[A-Z_]+)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # Godot 3.1 colours its stderr even when it is not a terminal

ENGINES = {
    # name: driver, project config_version, command-line after the engine, dialects, Object type id
    "godot4.6": ("godot4.gd", 5, ["--headless", "--path", "{work}", "--script", "res://godot4.gd"], {"godot4"}, 24),
    "godot3.6": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"godot3", "godot3@3.6"}, 17),
    "godot3.2": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"godot3@3.2", "godot3"}, 17),
    # engines built from their sources, at $GDW_ENGINES/built/NAME/engine (tools/engines/README.md)
    "pandemonium-4.9": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"pandemonium"}, 23),
    "pandemonium-3.8": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"pandemonium"}, 23),
    "pandemonium-4.9-double": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"pandemonium-double"}, 23),
    "pandemonium-3.5": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"pandemonium-3.5"}, 20),
    "pandemonium-3.7": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"pandemonium-3.5"}, 20),
    "pandemonium-5.2": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"pandemonium-5"}, 23),
    "godot3.1": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"godot3@3.1"}, 17),
    "godot2.1": ("godot2.gd", 0, ["-s", "godot2.gd"], {"mole@2.1.0"}, 18),
    "godot2.0": ("godot2.gd", 0, ["-s", "godot2.gd"], {"mole@2.0"}, 18),
    "godot3.0": ("godot3.gd", 3, ["--no-window", "-s", "godot3.gd"], {"godot3.0@3.0.0"}, 17),
    "godot4.2": ("godot4.gd", 5, ["--headless", "--path", "{work}", "--script", "res://godot4.gd"], {"godot4.0"}, 24),
    "godot4.3": ("godot4.gd", 5, ["--headless", "--path", "{work}", "--script", "res://godot4.gd"], {"godot4.3"}, 24),
    "godot4.6-double": ("godot4.gd", 5, ["--headless", "--path", "{work}", "--script", "res://godot4.gd"], {"godot4-double"}, 24),
    # the sanitizer builds of issue 62 (tools/engines/build godot4.6-asan, godot3.6-asan): the release engines' answers,
    # and an ASan or UBSan report where the release engine's memory error goes unseen
    "godot4.6-asan": ("godot4.gd", 5, ["--headless", "--path", "{work}", "--script", "res://godot4.gd"], {"godot4"}, 24),
    "godot3.6-asan": ("godot3.gd", 4, ["--no-window", "-s", "godot3.gd"], {"godot3", "godot3@3.6"}, 17),
}

# X11 builds (tools/engines/run starts them on a virtual display): the testee starts one Xvfb for
# all its engine runs, so that the restart after a crashing packet costs the engine's start only,
# not a display's too (xvfb-run takes seconds).
X11_ENGINES = {"godot3.0"}

# The window (requests in flight) an engine is asked to take at once, where it is not WINDOW, and
# how long a run of it may take before it counts as hung (seconds, plus 20 ms a packet). Each
# packet that kills or hangs the engine costs a restart, and the runner waits 60 s + 10 ms a packet
# for a window: Godot 3.0 dies or loops on many of the hostile vectors (allocations and object
# property counts it does not check), and a restart of an X11 build takes about a second, so its
# windows are small, and a run of 100 packets (about 1 s when nothing hangs) is hung after 12 s.
ENGINE_WINDOW = {"godot3.0": 100}
ENGINE_HANG_SECONDS = {"godot3.0": 10}

# Engines that print their errors on stdout (Godot 2's OS_Unix::print_error): their driver writes
# the packet markers there too, and the text between two markers is read from stdout.
ERRORS_ON_STDOUT = {"godot2.1", "godot2.0"}

# Engines whose Marshalls API has no allow_objects: Godot 3.1's Marshalls.base64_to_variant(str) and
# bytes2var(bytes) always decode Objects in full (core/io/marshalls.h: p_allow_objects = true).
NO_ALLOW_OBJECTS_API = {"godot3.1", "godot3.0"}


def godot31_driver(script):
    """godot3.gd for Godot 3.1, whose Marshalls and bytes2var have no allow_objects: the packet is
    read through a PacketPeerStream over a StreamPeerBuffer instead, whose PacketPeer::get_var
    honours allow_object_decoding (core/io/packet_peer.cpp). get_var swallows the decode's Error,
    so a failure is told by the ERR_FAIL line decode_variant prints (GODOT3_FAIL). The stream's
    input buffer holds 64 KiB (setting input_buffer_max_size in 3.1 loses every packet): a larger
    packet comes back as a silent null, a listed deviation (conformance/deviations.yaml)."""
    call = 'var v = Marshalls.base64_to_variant(parts[1], parts[2] == "1")'
    assert call in script, "godot3.gd changed: godot31_driver needs its decode call"
    return script.replace(call, "\n\t\t".join([
        'var raw = Marshalls.base64_to_raw(parts[1])',
        'var buffer = StreamPeerBuffer.new()',
        'buffer.put_32(raw.size())',
        'buffer.put_data(raw)',
        'buffer.seek(0)',
        'var peer = PacketPeerStream.new()',
        'peer.stream_peer = buffer',
        'peer.allow_object_decoding = parts[2] == "1"',
        'var v = peer.get_var()']))


class Engine:
    def __init__(self, name):
        self.name = name
        self.driver, config_version, self.args, self.dialects, self.object_type = ENGINES[name]
        self.godot4 = self.driver == "godot4.gd"
        self.work = tempfile.mkdtemp(prefix="gdw-%s-" % name)
        # Pandemonium v3.5-v3.7 look for project.pandemonium, Godot 2 for engine.cfg, the others for
        # project.godot
        for project in ("project.godot", "project.pandemonium", "engine.cfg"):
            with open(os.path.join(self.work, project), "w") as fh:
                fh.write("config_version=%d\n" % config_version)
        with open(os.path.join(HERE, self.driver), encoding="utf-8") as fh:
            script = fh.read()
        if name in NO_ALLOW_OBJECTS_API:
            script = godot31_driver(script)
        with open(os.path.join(self.work, self.driver), "w", encoding="utf-8") as fh:
            fh.write(script)
        self.version = None
        self.binary = None  # --binary: this program instead of tools/engines/run NAME (a fork's own build)
        self.display, self.xvfb = None, None
        if name in X11_ENGINES and shutil.which("Xvfb"):
            self.start_display()

    def start_display(self):
        """One Xvfb for this testee's life; it writes the display number it took on a pipe."""
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-screen", "0", "640x480x24"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as fh:
            number = fh.readline().strip()
        if number.isdigit():
            self.display = ":" + number
        else:
            self.xvfb.kill()
            self.xvfb = None

    def help_version(self):
        """The version the first line of --help names (Godot 2.0's scripts cannot ask for it):
        "Godot Engine v2.0.stable.custom_build (c) ..." gives "2.0.stable.custom_build"."""
        p = subprocess.run([RUN, self.name, "--help"], cwd=self.work, capture_output=True, timeout=60)
        m = re.search(r"Godot Engine v(\S+)", (p.stdout + p.stderr).decode("utf-8", "replace"))
        return m.group(1) if m else "unknown"

    def close(self):
        if self.xvfb:
            self.xvfb.kill()
            self.xvfb.wait()
        shutil.rmtree(self.work, ignore_errors=True)

    def run_batch(self, packets, timeout):
        """packets: [(index, bytes, objects)]; returns ({index: answer}, finished, last marker)."""
        path = os.path.join(self.work, "in.tsv")
        with open(path, "w") as fh:
            for i, data, objects in packets:
                fh.write("%d\t%s\t%s\n" % (i, base64.b64encode(data).decode(), objects))
        mark = "gdw" + secrets.token_hex(12)
        marker = re.compile(r"@@%s:(\d+|done)" % mark)
        env = dict(os.environ, GDW_IN=path, GDW_MARK=mark, HOME=self.work, XDG_DATA_HOME=self.work, XDG_CONFIG_HOME=self.work,
                   XDG_CACHE_HOME=self.work)
        if self.display:
            env["GDW_DISPLAY"] = self.display
        cmd = ([self.binary] if self.binary else [RUN, self.name]) + [a.replace("{work}", self.work) for a in self.args]
        try:
            p = subprocess.run(cmd, cwd=self.work, env=env, capture_output=True, timeout=timeout)
            out, err = p.stdout, p.stderr
            if p.returncode == 127:
                sys.stderr.write(err.decode("utf-8", "replace"))
                sys.exit("testee: engine %s is not available" % self.name)
        except subprocess.TimeoutExpired as e:
            out, err = e.stdout or b"", e.stderr or b""
        answers = {}
        finished = False
        wanted = {i for i, _, _ in packets}
        for line in out.decode("utf-8", "replace").splitlines():
            f = line.split("\t")
            if f[0] != mark or len(f) < 2:
                continue  # the engine's own text
            if f[1] == "DONE":
                finished = True
            elif f[1] == "V" and len(f) > 2:
                self.version = f[2] or self.version or self.help_version()
            elif f[1] == "R" and len(f) > 2 and f[2].isdigit() and int(f[2]) in wanted:
                try:
                    answers[int(f[2])] = self.answer(f[3:])
                except ValueError:  # an answer the driver cannot have written whole
                    answers[int(f[2])] = ("rejected", "-", "-", "CRASH", "unreadable answer from the driver")
        segments, current, last = {}, None, None
        errors = out if self.name in ERRORS_ON_STDOUT else err
        for line in ANSI.sub("", errors.decode("utf-8", "replace")).splitlines():
            if line.startswith(mark + "\t"):
                continue  # the driver's own lines
            m = marker.fullmatch(line.strip())
            if m:
                current = None if m.group(1) == "done" else int(m.group(1))
                if current is not None:
                    last = current
                    segments[current] = []
            elif current is not None and line.strip():
                segments[current].append(line.strip())
        for idx, lines in segments.items():
            if idx not in answers:
                continue
            text = "\n".join(lines)
            rejected = answers[idx][0] == "rejected" or (not self.godot4 and any(m in text for m in GODOT3_FAIL))
            if rejected:
                m = ERR_NAME.search(text)
                cls = m.group(1) if m else ("ERR_OUT_OF_MEMORY" if "too deep" in text else "-")
                detail = " | ".join(l for l in lines if not l.startswith(("GDScript backtrace", "[0]")))[:500] or "-"
                answers[idx] = ("rejected", "-", "-", cls, detail)
        return answers, finished, last

    def answer(self, f):
        """The driver's R fields (after the index) as a protocol answer."""
        if self.godot4:
            consumed, typ, b64, objid = (f + [""] * 4)[:4]
            if consumed == "0":
                return ("rejected", "-", "-", "-", "-")
        else:
            typ, b64, objid = (f + [""] * 3)[:3]
            consumed = "-"
        if "=" in objid:
            # EncodedObjectAsIDs inside containers: var_to_bytes wrote each wrapper's own instance
            # id; put the id it carries there (instance ids are unique 64-bit numbers).
            enc = base64.b64decode(b64)
            for pair in objid.split(","):
                wrapper, carried = (int(x) & 0xFFFFFFFFFFFFFFFF for x in pair.split("="))
                head = struct.pack("<I", self.object_type | 1 << 16)
                enc = enc.replace(head + struct.pack("<Q", wrapper), head + struct.pack("<Q", carried))
        elif objid:
            # An EncodedObjectAsID: the engine's encoding of an object as its id (GDScript prints
            # the 64-bit id signed).
            enc = struct.pack("<IQ", self.object_type | 1 << 16, int(objid) & 0xFFFFFFFFFFFFFFFF)
        else:
            enc = base64.b64decode(b64)
        return ("accepted", consumed, enc.hex() or "-", "-", "typeof %s" % typ)

    def judge(self, packets):
        """All packets, through as many engine runs as crashes and hangs need."""
        answers, start = {}, 0
        while start < len(packets):
            batch = packets[start:]
            # under the runner's limit for a window (conformance/testee_run.py: 60 s + 10 ms a
            # packet), so that a hanging packet is found here, in one more engine run, and not
            # by the runner sending the rest of the window one packet at a time
            hang = ENGINE_HANG_SECONDS.get(self.name)
            limit = hang + 0.02 * len(batch) if hang else min(30 + 0.05 * len(batch), 45 + 0.005 * len(batch))
            got, finished, last = self.run_batch(batch, timeout=limit)
            answers.update(got)
            if finished:
                break
            # The packet after the last complete answer took the engine down (or hung it).
            indices = [i for i, _, _ in batch]
            bad = last if last is not None and last not in got else None
            if bad is None:
                done = [i for i in indices if i in got]
                bad = indices[len(done)] if len(done) < len(indices) else None
            if bad is None:
                break
            answers[bad] = ("rejected", "-", "-", "CRASH", "the engine died or hung on this packet")
            start += indices.index(bad) + 1  # indices are the batch's, which begins at start
        return answers


def read_requests(fd, buf, window):
    """Block for one line, then take what else is already there, up to window lines."""
    lines = []
    while len(lines) < window:
        while b"\n" not in buf[0]:
            ready, _, _ = select.select([fd], [], [], None if not lines else 0.05)
            if not ready:
                return lines, False
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return lines, True
            buf[0] += chunk
        line, buf[0] = buf[0].split(b"\n", 1)
        lines.append(line.decode())
    return lines, False


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ENGINES:
        sys.exit("usage: testee.py %s [--version] [--any-dialect] [--binary PATH]" % "|".join(ENGINES))
    engine = Engine(sys.argv[1])
    # --binary PATH: a build of one's own (a fork's), driven as NAME is: its script, project and
    # Object type id
    if "--binary" in sys.argv[2:]:
        k = sys.argv.index("--binary")
        if k + 1 >= len(sys.argv):
            sys.exit("testee: --binary needs the engine program's path")
        engine.binary = os.path.abspath(sys.argv[k + 1])
        if not os.access(engine.binary, os.X_OK):
            sys.exit("testee: --binary %s is not an executable" % engine.binary)
    # --any-dialect: answer every request whatever dialect it names (the engine reads the bytes as it
    # reads them), for `testee_run.py --dialect all`, which finds the row that agrees most
    any_dialect = "--any-dialect" in sys.argv[2:]
    try:
        engine.run_batch([], timeout=60)
        if not engine.version:
            sys.exit("testee: engine %s did not start (tools/engines/run %s)" % (engine.name, engine.name))
        if "--version" in sys.argv[2:]:
            print(engine.version)
            return
        family = "Pandemonium Engine" if engine.name.startswith("pandemonium") else "Godot Engine"
        window = ENGINE_WINDOW.get(engine.name, WINDOW)
        print("gdwire-testee/1\t%s\t%s\t%d" % (family, engine.version, window), flush=True)
        buf, eof = [b""], False
        while not eof:
            lines, eof = read_requests(0, buf, window)
            requests, packets = [], []
            for n, line in enumerate(lines):
                f = line.split("\t")
                if len(f) != 5:
                    sys.exit("testee: malformed request: %r" % line)
                requests.append(f)
                if any_dialect or f[1] in engine.dialects:
                    packets.append((n, bytes.fromhex("" if f[4] == "-" else f[4]), f[3]))
            answers = engine.judge(packets) if packets else {}
            for n, f in enumerate(requests):
                a = answers.get(n, ("unsupported", "-", "-", "-", "%s speaks %s" % (engine.name, ", ".join(sorted(engine.dialects))))
                          if not any_dialect and f[1] not in engine.dialects else ("rejected", "-", "-", "CRASH", "no answer"))
                # no field may hold a TAB or a line break (an engine's message can quote a class
                # name or a path holding one)
                fields = [x.replace("\t", " ").replace("\r", " ").replace("\n", " ") or "-" for x in a]
                sys.stdout.write("\t".join([f[0]] + fields) + "\n")
            sys.stdout.flush()
    finally:
        engine.close()


if __name__ == "__main__":
    main()

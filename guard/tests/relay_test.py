#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""relay_test.py GDWIRE SESSIONS_DIR — `gdwire guard` as a process on loopback, with the real datagrams of
conformance/sessions/godot4.6-enet.pcap (a Godot 4.6.3 client and server) played through it by plain UDP sockets:

  - every client datagram reaches the upstream byte for byte, and every server datagram the client (the head of a
    fragmented message may come later than the fragments after it: compared as multisets);
  - a datagram from an unknown address that is not an ENet CONNECT makes no client (the not_connect counter);
  - a hostile datagram made from the client's own (an Object argument, which Godot 4.6.3 refuses:
    core/io/marshalls.cpp decode_variant) reaches the upstream as the harmless SEND_RELIABLE of the same channel and
    sequence number, and the log says so in capture's line format, or as JSON;
  - --max-clients: a full guard evicts the client whose handshake never finished;
  - SIGUSR1 prints the counters; SIGTERM drains and exits 0; --dry-run forwards the hostile datagram as it came;
  - the help and the usage errors.
Every wait is bounded (socket timeouts, at most a few seconds each)."""
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

GDWIRE, SESSIONS = sys.argv[1], sys.argv[2]
failures = 0
passes = 0


def check(cond, what):
    global failures, passes
    passes += 1 if cond else 0
    if not cond:
        failures += 1
        print("FAIL", what, file=sys.stderr)


def udp_of_pcap(path):
    data = open(path, "rb").read()
    assert data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"), "a little-endian pcap"
    link = struct.unpack("<I", data[20:24])[0]
    pos, out = 24, []
    while pos + 16 <= len(data):
        caplen = struct.unpack("<I", data[pos + 8:pos + 12])[0]
        f = data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen
        at = 14 if link == 1 else 0
        if link == 1 and f[12:14] != b"\x08\x00":
            continue
        if len(f) < at + 28 or f[at] >> 4 != 4 or f[at + 9] != 17:
            continue
        ihl = (f[at] & 15) * 4
        u = at + ihl
        sp, dp = struct.unpack(">HH", f[u:u + 4])
        out.append((sp, dp, f[u + 8:]))
    return out


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def start(args, log):
    p = subprocess.Popen([GDWIRE, "guard"] + args + ["--log", log], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.3)
    return p


def recv_all(sock, want, seconds=3.0):
    got, end = [], time.time() + seconds
    while len(got) < want and time.time() < end:
        sock.settimeout(max(0.01, end - time.time()))
        try:
            d, a = sock.recvfrom(70000)
            got.append((d, a))
        except socket.timeout:
            break
    return got


def client_with(g_port, up, first, then):
    """A client socket that sent `first` (its CONNECT) and then `then` to the guard; what the upstream got of the second."""
    c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    c.bind(("127.0.0.1", 0))
    c.sendto(first, ("127.0.0.1", g_port))
    recv_all(up, 1, 0.5)
    c.sendto(then, ("127.0.0.1", g_port))
    return c, recv_all(up, 1, 1.0)


def lines(path):
    try:
        return open(path).read().splitlines()
    except OSError:
        return []


def main():
    dgs = udp_of_pcap(os.path.join(SESSIONS, "godot4.6-enet.pcap"))
    connect = next(d for d in dgs if len(d[2]) >= 6 and d[2][0] & 0x0F == 0x0F and d[2][1] == 0xFF)
    server, client = connect[1], connect[0]
    flow = [(sp == client, d) for sp, dp, d in dgs if {sp, dp} == {server, client}]
    tmp = tempfile.mkdtemp()
    log = os.path.join(tmp, "guard.log")
    up_port, g_port = free_port(), free_port()
    up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    up.bind(("127.0.0.1", up_port))
    cl = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    cl.bind(("127.0.0.1", 0))
    g = start(["--listen", "127.0.0.1:%d" % g_port, "--upstream", "127.0.0.1:%d" % up_port, "--json"], log)
    try:
        # a stranger's datagram that is not a CONNECT: nothing made, nothing forwarded
        stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        stranger.sendto(b"\x00\x00\x86\x00\x00\x01\x00\x02\x00\x00", ("127.0.0.1", g_port))
        check(recv_all(up, 1, 0.3) == [], "a stranger's non-CONNECT datagram was forwarded")
        # the session, datagram by datagram in capture order
        sent_up, got_up, sent_back, got_back = [], [], [], []
        guard_side = None
        for from_client, d in flow:
            if from_client:
                cl.sendto(d, ("127.0.0.1", g_port))
                sent_up.append(d)
                r = recv_all(up, 1, 0.2)
                for x, a in r:
                    got_up.append(x)
                    guard_side = a
            elif guard_side:
                up.sendto(d, guard_side)
                sent_back.append(d)
                got_back += [x for x, _ in recv_all(cl, 1, 0.2)]
        got_up += [x for x, _ in recv_all(up, 100, 0.5)]
        check(sorted(got_up) == sorted(sent_up), "client datagrams: %d sent, %d arrived, %d of them as sent" % (
            len(sent_up), len(got_up), sum(1 for x in got_up if x in sent_up)))
        check(sorted(got_back) == sorted(sent_back), "server datagrams: %d sent, %d came back unchanged" % (
            len(sent_back), sum(1 for x in got_back if x in sent_back)))
        # a hostile RPC on the client's own header: an Object argument (type 24, a class name, no properties)
        hdr = next(d for fc, d in reversed(flow) if fc and d[0] & 0x80)[:4]
        obj = struct.pack("<I", 24) + struct.pack("<I", 4) + b"Node" + struct.pack("<I", 0)
        rpc = bytes([0x00, 0x01, 0x00, 0x01]) + obj
        cmd = bytes([0x86, 0x00]) + struct.pack(">HH", 50000, len(rpc)) + rpc
        cl.sendto(hdr + cmd, ("127.0.0.1", g_port))
        r = recv_all(up, 1, 1.0)
        check(len(r) == 1 and r[0][0] == hdr + bytes([0x86, 0x00]) + struct.pack(">HH", 50000, 2) + b"\x07\x00",
              "the Object RPC did not arrive as the harmless SEND_RELIABLE 07 00 on channel 0, sequence 50000: %r" % (r[:1],))
        # SIGUSR1: the counters
        g.send_signal(signal.SIGUSR1)
        time.sleep(0.3)
        recs = [json.loads(x) for x in lines(log)]
        acts = [x for x in recs if x["type"] == "action"]
        check(len(acts) == 1 and acts[0]["action"] == "replace" and acts[0]["rule"] == "object" and acts[0]["command"] == "rpc"
              and acts[0]["offset"] == 4 and acts[0]["node"], "the log's action: %r" % acts)
        cnt = [x for x in recs if x["type"] == "counters"]
        check(cnt and cnt[-1]["when"] == "signal" and cnt[-1]["not_connect"] == 1 and cnt[-1]["replaced"] == 1
              and cnt[-1]["clients_admitted"] == 1, "SIGUSR1's counters: %r" % cnt[-1:])
        g.send_signal(signal.SIGTERM)
        try:
            rc = g.wait(5)
        except subprocess.TimeoutExpired:
            g.kill()
            rc = "hung"
        check(rc == 0, "SIGTERM: exit %r" % rc)
        recs = [json.loads(x) for x in lines(log)]
        check(recs[-1]["type"] == "counters" and recs[-1]["when"] == "exit", "no counters at exit")
    finally:
        if g.poll() is None:
            g.kill()

    # the text log is capture's line: time, client, dialect, from -> to, mode and channel, command, node, method, then the action
    log2 = os.path.join(tmp, "text.log")
    g = start(["--listen", "127.0.0.1:%d" % g_port, "--upstream", "127.0.0.1:%d" % up_port, "--max-clients", "2"], log2)
    try:
        c1, _ = client_with(g_port, up, connect[2], hdr + cmd)
        others = []
        for _ in range(2):  # two more CONNECTs: the second evicts the oldest client whose handshake never finished
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", 0))
            s.sendto(connect[2], ("127.0.0.1", g_port))
            others.append(s)
            recv_all(up, 1, 0.3)
        g.send_signal(signal.SIGTERM)
        g.wait(5)
        text = lines(log2)
        act = [x for x in text if "guard:" in x]
        check(len(act) == 1 and re.match(r"^\s*\d+\.\d{6}  127\.0\.0\.1:\d+ godot4  \d+ -> 1  reliable ch0  rpc \(path unknown\)|"
                                         r"^\s*\d+\.\d{6}  127\.0\.0\.1:\d+ godot4  \d+ -> 1  reliable ch0  rpc", act[0]) and
              "guard: replace unknown_path at byte 1" in act[0], "the text line: %r" % act)
        summary = [x for x in text if x.startswith("guard counters (exit)")]
        check(summary and "clients_evicted 1," in summary[0] and "clients_admitted 3," in summary[0], "eviction: %r" % summary)
    finally:
        if g.poll() is None:
            g.kill()

    # --dry-run: the hostile datagram as it came
    g = start(["--listen", "127.0.0.1:%d" % g_port, "--upstream", "127.0.0.1:%d" % up_port, "--dry-run"], os.path.join(tmp, "dry.log"))
    try:
        c1, r = client_with(g_port, up, connect[2], hdr + cmd)
        check(len(r) == 1 and r[0][0] == hdr + cmd, "dry run: the datagram did not go on as it came")
        g.send_signal(signal.SIGTERM)
        g.wait(5)
        check(any("guard: would replace unknown_path" in x for x in lines(os.path.join(tmp, "dry.log"))), "dry run: no 'would' line")
    finally:
        if g.poll() is None:
            g.kill()

    # every key guard/README.md's policy table lists is one the guard reads, with its documented default
    readme = open("guard/README.md").read()  # (the test's data, beside the command)
    table = readme[readme.index("| key | default | what |"):readme.index("```yaml")]
    keys = re.findall(r"^\| `([a-z_.]+)` \| `?([^`|]*?)`? \|", table, re.M)
    check(len(keys) >= 25, "the README's policy table: %d keys" % len(keys))
    for key, default in keys:
        if key == "project":
            continue
        sec, _, name = key.rpartition(".")
        pol = os.path.join(tmp, "key.yaml")
        open(pol, "w").write(("%s:\n  %s: %s\n" % (sec, name, default)) if sec else ("%s: %s\n" % (name, default)))
        u = subprocess.run([GDWIRE, "guard", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9", "--policy", pol, "--duration", "0.001",
                            "--log", os.devnull], capture_output=True, text=True, timeout=20)
        check(u.returncode == 0, "the README's key %s: %s (%s)" % (key, default, u.stderr.strip()))

    # help and usage
    h = subprocess.run([GDWIRE, "guard", "--help"], capture_output=True, text=True)
    check(h.returncode == 0 and "--upstream" in h.stdout and "--dry-run" in h.stdout, "guard --help")
    u = subprocess.run([GDWIRE, "guard", "--listen", "127.0.0.1:1"], capture_output=True, text=True)
    check(u.returncode == 2 and "--upstream" in u.stderr, "no --upstream: %r" % u.stderr)
    bad = os.path.join(tmp, "bad.yaml")
    open(bad, "w").write("variant:\n  max_depht: 3\n")
    u = subprocess.run([GDWIRE, "guard", "--listen", "127.0.0.1:1", "--upstream", "127.0.0.1:2", "--policy", bad], capture_output=True, text=True)
    check(u.returncode == 2 and "line 2" in u.stderr and "max_depht" in u.stderr, "a misspelt key: %r" % u.stderr)
    u = subprocess.run([GDWIRE, "guard", "--listen", "nowhere", "--upstream", "127.0.0.1:2"], capture_output=True, text=True)
    check(u.returncode == 2 and "--listen" in u.stderr, "a bad --listen: %r" % u.stderr)
    print("%d passed, %d failed" % (passes, failures))
    return 1 if failures else 0


sys.exit(main())

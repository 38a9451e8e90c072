#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""honest_compare.py DIRECT GUARDED — is the guard transparent to an honest session? DIRECT and GUARDED are
the OUT prefixes of two honest_session.sh runs (one direct, one through the guard).

1. The engines' logs: each peer's lines (server, a, b) are equal in number, order and content, with the peer
   ids (random per run) replaced by the peer's role: a client's id is the one it logged as `connected`, the
   server's is 1.
2. Every datagram forwarded byte for byte (GUARDED.pcap): each client's flow to the guard's port P is paired
   with the guard's upstream flow to the server's port Q by their first datagram (ENet's CONNECT, which holds
   the client's random connect id and Godot id), and the datagrams each way must be the same bytes in the
   same order.
Prints one line per figure and `N passed, M failed`; exit 1 on a difference, 3 when the two runs' clients
drew their ids in different orders (session4.gd's server picks its targets by sorted id: play another run)."""
import json
import struct
import sys

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def peers(path):
    """The log's lines by role, each a JSON object."""
    by, role = {}, None
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            if d.get("event") == "start":
                role = d["role"]
            by.setdefault(role, []).append(d)
    return by


ID_KEYS = ("peer", "from", "to", "by", "id")


def order(by):
    """Which client has the lower Godot id: session4.gd's server picks its targets by sorted id, so two runs'
    logs can be equal only when their clients drew their ids in the same order."""
    ids = {role: d["id"] for role, lines in by.items() for d in lines if d.get("event") == "connected"}
    return "a<b" if ids.get("a", 0) < ids.get("b", 0) else "a>b"


def normalized(by):
    ids = {1: "server"}
    for role, lines in by.items():
        for d in lines:
            if d.get("event") == "connected":
                ids[d["id"]] = "peer_" + role
    out = {}
    for role, lines in by.items():
        out[role] = []
        for d in lines:
            d = dict(d)
            for k in ID_KEYS:
                if isinstance(d.get(k), int) and d[k] in ids:
                    d[k] = ids[d[k]]
            out[role].append(json.dumps(d, sort_keys=True))
    return out


def udp(path):
    """(src port, dst port, payload) of each UDP/IPv4 datagram of a pcap file (Ethernet or Linux cooked)."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    link = struct.unpack(endian + "I", data[20:24])[0]
    off, out = 24, []
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(endian + "IIII", data[off:off + 16])
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        l2 = {1: 14, 113: 16, 276: 20}.get(link)
        if l2 is None:
            raise SystemExit(f"honest_compare.py: link type {link} not read")
        ip = frame[l2:]
        if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 17:
            continue
        ihl = (ip[0] & 15) * 4
        sport, dport, ulen = struct.unpack(">HHH", ip[ihl:ihl + 6])
        out.append((sport, dport, bytes(ip[ihl + 8:ihl + ulen])))
    return out


def flows(dgrams, port):
    """The datagrams to and from `port`, by the other end's port: {other: (to port, from port)}."""
    f = {}
    for s, d, p in dgrams:
        if d == port:
            f.setdefault(s, ([], []))[0].append(p)
        elif s == port:
            f.setdefault(d, ([], []))[1].append(p)
    return f


def main():
    direct, guarded = sys.argv[1], sys.argv[2]
    pa, pb = peers(direct + ".log"), peers(guarded + ".log")
    if order(pa) != order(pb):
        print(f"ORDER: the direct run's clients drew their ids {order(pa)}, the guarded run's {order(pb)}: "
              "play another direct run")
        sys.exit(3)
    print(f"both runs' clients drew their ids {order(pa)}")
    a, b = normalized(pa), normalized(pb)
    for role in sorted(set(a) | set(b)):
        la, lb = a.get(role, []), b.get(role, [])
        same = sum(1 for x, y in zip(la, lb) if x == y)
        print(f"log {role}: direct {len(la)} lines, guarded {len(lb)} lines, {same} equal in order")
        first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), None)
        check(len(la) == len(lb) and same == len(la),
              f"{role}'s log differs" + (f" at line {first}: {la[first]} vs {lb[first]}" if first is not None else ""))
    with open(guarded + ".ports") as f:
        port, upstream = map(int, f.read().split())
    dgrams = udp(guarded + ".pcap")
    clients, ups = flows(dgrams, port), flows(dgrams, upstream)
    up_by_first = {v[0][0]: k for k, v in ups.items() if v[0]}
    check(len(clients) >= 2, f"the capture has {len(clients)} client flows, not 2")
    for cport, (c_in, c_out) in sorted(clients.items()):
        uport = up_by_first.get(c_in[0]) if c_in else None
        check(uport is not None, f"client flow {cport}: no upstream flow starts with its first datagram")
        if uport is None:
            continue
        u_out, u_in = ups[uport]
        eq_up = len(c_in) == len(u_out) and all(x == y for x, y in zip(c_in, u_out))
        eq_down = len(u_in) == len(c_out) and all(x == y for x, y in zip(u_in, c_out))
        print(f"flow client:{cport} <-> guard:{uport}: to the server {len(c_in)} datagrams in, {len(u_out)} out "
              f"({sum(map(len, c_in))} / {sum(map(len, u_out))} bytes), {'equal' if eq_up else 'DIFFERENT'}; "
              f"to the client {len(u_in)} in, {len(c_out)} out ({sum(map(len, u_in))} / {sum(map(len, c_out))} bytes), "
              f"{'equal' if eq_down else 'DIFFERENT'}")
        check(eq_up, f"client flow {cport}: the datagrams to the server are not forwarded byte for byte")
        check(eq_down, f"client flow {cport}: the datagrams to the client are not forwarded byte for byte")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""honest_compare.py DIRECT GUARDED — is the guard transparent to an honest session? DIRECT and GUARDED are
the OUT prefixes of two honest_session.sh runs (one direct, one through the guard).

1. The engines' logs: each peer's lines (server, a, b) are equal in number and content, and in order within
   each sender's messages (what one peer received from one sender, and what it did itself: ENet orders one
   sender's reliable messages, not two senders' against each other), with the peer ids (random per run)
   replaced by the peer's role: a client's id is the one it logged as `connected` (or the sender of what it
   sent), the server's is 1. How many lines are also in the same place of the whole log is printed.
   The server sends some messages to one client chosen by rank (session4.gd / session3.gd sort the peer ids:
   `peers[0]`, `peers[1]`), and the ids are random per run, so which role gets which depends on the draw. Those
   are mapped by rank instead: a server's `*_sent` line to one client names its target by rank, and a
   client's line of receiving one (from the server, the same method and argument bytes) is taken out of its
   role's log into the ranked lines, compared by rank. So two runs compare whatever order their ids drew.
2. Every datagram forwarded byte for byte (GUARDED.pcap): each client's flow to the guard's port P is paired
   with the guard's upstream flow to the server's port Q by their first datagram (ENet's CONNECT, which holds
   the client's random connect id and Godot id). Each way, every ENet command must come out with the same
   bytes and no other (checked; a retransmitted command the guard already forwarded may be absorbed), and every datagram that carries no fragment must come out whole and in order (checked);
   the guard holds fragments until their message is complete, so a datagram carrying one may leave later,
   joined with others: how many datagrams were forwarded as they came is printed, not checked.
Prints one line per figure and `N passed, M failed`; exit 1 on a difference."""
import json
import re
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


def own_id(lines):
    """A peer's Godot id from its own log: its `connected` line (session4.gd), else the sender of what it sent or
    the receiver of what it received (session3.gd)."""
    for d in lines:
        if d.get("event") == "connected":
            return d["id"]
        if d.get("event") in ("rpc_sent", "rset_sent", "raw_sent") and isinstance(d.get("from"), int):
            return d["from"]
        if d.get("event") == "rpc_received" and isinstance(d.get("by"), int):
            return d["by"]
    return None


def order(by):
    """Which client has the lower Godot id (printed: session4.gd's server picks some targets by sorted id, which
    normalized() maps by rank)."""
    ids = {role: own_id(lines) for role, lines in by.items()}
    return "a<b" if ids.get("a", 0) < ids.get("b", 0) else "a>b"


def normalized(by):
    """Each role's lines with the ids replaced by roles (the JSON text of each), and the ranked lines (the module's
    docstring): those the server sent to one client and their receipts, with that client named by its rank."""
    ids = {1: "server"}
    clients = sorted(own_id(lines) for role, lines in by.items() if role != "server" and own_id(lines) is not None)
    rank = {pid: "peer_rank%d" % i for i, pid in enumerate(clients)}
    for role, lines in by.items():
        if role != "server" and own_id(lines) is not None:
            ids[own_id(lines)] = "peer_" + role
    to_one = {(d.get("method"), d.get("args_sha256")) for d in by.get("server", [])
              if str(d.get("event", "")).endswith("_sent") and d.get("to") in rank}
    out, ranked = {}, []
    for role, lines in by.items():
        out[role] = []
        for d in lines:
            d = dict(d)
            if role == "server" and str(d.get("event", "")).endswith("_sent") and d.get("to") in rank:
                d["to"] = rank[d["to"]]
            got = (role != "server" and d.get("event") == "rpc_received" and d.get("from") == 1
                   and (d.get("method"), d.get("args_sha256")) in to_one and d.get("by") in rank)
            if got:
                d["by"] = rank[d["by"]]
            for k in ID_KEYS:
                if isinstance(d.get(k), int) and d[k] in ids:
                    d[k] = ids[d[k]]
            if got:
                d.pop("seq", None)
                ranked.append(json.dumps(d, sort_keys=True))
            else:
                out[role].append(json.dumps(d, sort_keys=True))
    return out, sorted(ranked)


def streams(lines):
    """A peer's log lines by their origin, each list in the log's order: what one sender's messages did (its
    RPCs received; the server's spawns), the connections, or what the peer itself did. ENet keeps the order of one sender's reliable messages,
    not the interleaving of two senders' (a message the guard holds until it is whole arrives later, and another
    client's may pass it), so the logs are compared stream by stream; each line without its `seq` (its place
    in the whole log)."""
    out = {}
    for x in lines:
        d = json.loads(x)
        d.pop("seq", None)
        event = d.get("event")
        origin = (d["from"] if event in ("rpc_received", "raw_received") else "server" if event == "spawned"
                  else "connections" if event in ("peer_connected", "connected") else "self")
        out.setdefault(str(origin), []).append(json.dumps(d, sort_keys=True))
    return out


def equal_lines(x, y):
    """Two log lines are equal, or differ only in the bytes of their arguments where the engine's own text of them
    (var_to_str) and their size are the same: Godot 3's var2bytes leaves a NodePath name's padding uninitialised
    (core/io/marshalls.cpp, encode_variant, NODE_PATH; tools/engines/engine_packets_test.sh), so one value's bytes
    differ from run to run."""
    if x == y:
        return True
    dx, dy = json.loads(x), json.loads(y)
    rest = lambda d: {k: v for k, v in d.items() if k not in ("args", "args_sha256")}
    return (rest(dx) == rest(dy) and "text" in dx and "args" in dx and "args" in dy
            and len(dx["args"]) == len(dy["args"]) and "NodePath" in dx["text"])


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


# ENet command sizes with their header, and where a command's dataLength is (thirdparty/enet/protocol.c
# commandSizes, protocol.h): SEND_RELIABLE's at 4, SEND_UNRELIABLE, SEND_FRAGMENT, SEND_UNSEQUENCED and
# SEND_UNRELIABLE_FRAGMENT's at 6
COMMAND_SIZE = {1: 8, 2: 48, 3: 44, 4: 8, 5: 4, 6: 6, 7: 8, 8: 24, 9: 8, 10: 12, 11: 16, 12: 24}
DATA_LENGTH_AT = {6: 4, 7: 6, 8: 6, 9: 6, 12: 6}


def commands(datagram):
    """The ENet commands of one datagram, each its bytes, or None when it is compressed (bit 14) or unreadable."""
    if len(datagram) < 2:
        return None
    flags = datagram[0] << 8 | datagram[1]
    if flags & 0x4000:
        return None
    off, out = 4 if flags & 0x8000 else 2, []
    while off < len(datagram):
        kind = datagram[off] & 0x0F
        size = COMMAND_SIZE.get(kind)
        if size is None or off + size > len(datagram):
            return None
        if kind in DATA_LENGTH_AT:
            at = off + DATA_LENGTH_AT[kind]
            size += datagram[at] << 8 | datagram[at + 1]
        out.append(bytes(datagram[off:off + size]))
        off += size
    return out


def carries_fragment(datagram):
    """A datagram with a SEND_FRAGMENT or SEND_UNRELIABLE_FRAGMENT command (or a compressed one: unknown)."""
    c = commands(datagram)
    return c is None or any(x[0] & 0x0F in (8, 12) for x in c)


def command_stream(datagrams):
    """Every command of the datagrams in order, a compressed datagram kept whole."""
    out = []
    for d in datagrams:
        c = commands(d)
        out.extend(c if c is not None else [b"compressed:" + d])
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
    print(f"the direct run's clients drew their ids {order(pa)}, the guarded run's {order(pb)}")
    (a, ra), (b, rb) = normalized(pa), normalized(pb)
    check(len(ra) >= 2 and len(ra) == len(rb) and all(map(equal_lines, ra, rb)),
          f"the lines of what the server sent one client by rank differ: {ra} vs {rb}")
    print(f"sent to one client by rank: direct {len(ra)} received, guarded {len(rb)}, "
          f"{sum(map(equal_lines, ra, rb)) if len(ra) == len(rb) else 0} equal by rank")
    for role in sorted(set(a) | set(b)):
        la, lb = a.get(role, []), b.get(role, [])
        sa, sb = streams(la), streams(lb)
        same = sum(len(v) for k, v in sa.items() if len(v) == len(sb.get(k, [])) and all(map(equal_lines, v, sb[k])))
        padded = sum(1 for k in sa for x, y in zip(sa[k], sb.get(k, [])) if x != y and equal_lines(x, y))
        in_place = sum(1 for x, y in zip(la, lb) if equal_lines(x, y))
        print(f"log {role}: direct {len(la)} lines, guarded {len(lb)} lines, {same} equal in their sender's order"
              f" ({in_place} in the same place of the whole log)"
              + (f"; {padded} of them but for bytes Godot 3 leaves uninitialised: the same text, the same size" if padded else ""))
        bad = next((k for k in sorted(set(sa) | set(sb)) if len(sa.get(k, [])) != len(sb.get(k, []))
                    or not all(map(equal_lines, sa.get(k, []), sb.get(k, [])))), None)
        check(len(la) == len(lb) and bad is None,
              f"{role}'s log differs in the lines of {bad}: {sa.get(bad, [])[:2]} vs {sb.get(bad, [])[:2]}")
    with open(guarded + ".ports") as f:
        port, upstream = map(int, f.read().split())
    try:
        with open(guarded + ".tcpdump") as f:
            m = re.search(r"(\d+) packets? dropped by kernel", f.read())
        dropped = int(m.group(1)) if m else 0
    except OSError:
        dropped = 0
    print(f"capture: {dropped} packets dropped by the kernel")
    check(dropped == 0, f"tcpdump lost {dropped} packets: the capture cannot show every datagram (a loaded machine)")
    dgrams = udp(guarded + ".pcap")
    clients, ups = flows(dgrams, port), flows(dgrams, upstream)
    up_by_first = {v[0][0]: k for k, v in ups.items() if v[0]}
    figures = []
    check(len(clients) >= 2, f"the capture has {len(clients)} client flows, not 2")
    for cport, (c_in, c_out) in sorted(clients.items()):
        uport = up_by_first.get(c_in[0]) if c_in else None
        check(uport is not None, f"client flow {cport}: no upstream flow starts with its first datagram")
        if uport is None:
            continue
        u_out, u_in = ups[uport]
        for way, got, sent in (("to the server", c_in, u_out), ("to the client", u_in, c_out)):
            same = len(got) == len(sent) and all(x == y for x, y in zip(got, sent))
            matched = sum(1 for x, y in zip(got, sent) if x == y)
            cg, cs = command_stream(got), command_stream(sent)
            same_commands = cg == cs
            print(f"flow client:{cport} <-> guard:{uport} {way}: {len(got)} datagrams in, {len(sent)} out "
                  f"({sum(map(len, got))} / {sum(map(len, sent))} bytes), {'equal byte for byte' if same else 'DIFFERENT'}"
                  f" ({matched} equal in place); ENet commands {len(cg)} in, {len(cs)} out, "
                  f"{'the same bytes in the same order' if same_commands else 'DIFFERENT'}")
            if not same:
                moved = [i for i, (x, y) in enumerate(zip(got, sent)) if x != y][:3]
                print(f"  first datagrams not forwarded as they came: {moved}")
            if not same_commands:
                print(f"  the same commands reordered: {'yes' if sorted(cg) == sorted(cs) else 'no'}; distinct commands "
                      f"{len(set(cg))} in, {len(set(cs))} out, {'the same' if set(cg) == set(cs) else 'DIFFERENT'} "
                      f"(a retransmitted command forwarded once: {len(cg) - len(set(cg))} "
                      f"repeated in, {len(cs) - len(set(cs))} out)")
            whole_g, whole_s = [d for d in got if not carries_fragment(d)], [d for d in sent if not carries_fragment(d)]
            print(f"  datagrams without a fragment: {len(whole_g)} in, {len(whole_s)} out, "
                  f"{'equal byte for byte in order' if whole_g == whole_s else 'DIFFERENT'}")
            check(set(cg) == set(cs), f"client flow {cport} {way}: not every ENet command is forwarded byte for byte")
            check(whole_g == whole_s, f"client flow {cport} {way}: the datagrams without a fragment are not forwarded byte for byte")
            figures.append((way, same, len(got), len(sent)))
    whole = sum(1 for f in figures if f[1])
    print(f"datagram flows forwarded byte for byte, every datagram in place: {whole} of {len(figures)}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""relay_bot.py — a UDP relay in front of a Godot ENet server that prints every RPC going through it.

    python3 relay_bot.py --listen 7001 --server 127.0.0.1:7000 [--names names.tsv] [--seconds 60] [--range-coder]

Clients connect to the relay's port instead of the server's; each client gets a socket of its own toward the
server (so the server sees one peer per client), and every datagram, either way, is forwarded unchanged and fed to a
gdwire.Session, which reads ENet, its fragments, retransmits and compression, and Godot's multiplayer layer. Each
RPC is printed as a JSON line: from and to (Godot peer ids), the node path, the method (its name from --names, a
file tools/capture/gdwire_names.gd writes, else its id), and the arguments as Python values (repr). A bot, a
moderator or a test harness starts from here. python/tests/relay_bot_test.sh runs it between a real Godot 4.6.3
server and two clients."""
import argparse
import json
import selectors
import socket
import time
from typing import Dict, List, Optional, Tuple

import gdwire


def load_names(path: Optional[str]) -> Dict[Tuple[str, int], str]:
    """{(node path, method id): name} from a names file ("rpc<TAB>PATH<TAB>ID<TAB>NAME" lines; PATH * for any)."""
    names: Dict[Tuple[str, int], str] = {}
    if path:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 4 and parts[0] == "rpc":
                    names[(parts[1], int(parts[2]))] = parts[3]
    return names


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--listen", type=int, required=True, help="the UDP port clients connect to")
    ap.add_argument("--server", required=True, help="HOST:PORT of the Godot server")
    ap.add_argument("--names", help="the game's method names (tools/capture/gdwire_names.gd writes them)")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: never)")
    ap.add_argument("--range-coder", action="store_true", help="read ENet's range coder (Godot 3.4+'s default) through libenet")
    ap.add_argument("--args-bytes", action="store_true",
                    help="also print each RPC's arguments as the bytes of a Variant Array of its dialect (what the engine's "
                         "var_to_bytes of them gives: to compare with a game's own log)")
    args = ap.parse_args(argv)
    host, port = args.server.rsplit(":", 1)
    server = (host, int(port))
    names = load_names(args.names)
    front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    front.bind(("127.0.0.1", args.listen))
    sel = selectors.DefaultSelector()
    sel.register(front, selectors.EVENT_READ, None)
    upstream: Dict[Tuple[str, int], socket.socket] = {}  # client address -> its socket toward the server
    session = gdwire.Session(range_coder=args.range_coder)
    start = time.monotonic()
    print(json.dumps({"listening": args.listen, "server": args.server}), flush=True)

    def show(events: List[gdwire.Event]) -> None:
        for e in events:
            if isinstance(e, gdwire.Problem):
                print(json.dumps({"problem": e.message, "layer": e.layer}), flush=True)
            elif e.command in ("rpc", "rset"):
                mid = e.method_id if e.method_id is not None else -1
                method = e.method or names.get((e.path or "", mid)) or names.get(("*", mid)) or mid
                line: Dict[str, object] = {"from": e.from_peer, "to": e.to_peer, "relayed": e.relayed, "path": e.path, "method": method,
                        "args": [repr(v.value) for v in e.values]}
                if args.args_bytes:
                    line["args_bytes"] = gdwire.encode([v.value for v in e.values], e.dialect).hex()
                print(json.dumps(line), flush=True)

    while not args.seconds or time.monotonic() - start < args.seconds:
        for key, _ in sel.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            data, addr = sock.recvfrom(65535)
            now = time.time()
            if sock is front:  # a client's datagram: on to the server, from the client's own socket
                up = upstream.get(addr)
                if up is None:
                    up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                    up.bind(("127.0.0.1", 0))
                    upstream[addr] = up
                    sel.register(up, selectors.EVENT_READ, addr)
                up.sendto(data, server)
                show(session.udp(addr, server, data, time=now))
            else:  # the server's answer: back to its client, from the relay's port
                client = key.data
                front.sendto(data, client)
                show(session.udp(server, client, data, time=now))
    show(session.finish())


if __name__ == "__main__":
    main()

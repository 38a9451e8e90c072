#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An asyncio TCP server that a Godot 4 game talks to with StreamPeerTCP.put_var / get_var.

Each request is a Dictionary {"op": ..., ...}; each reply is a Dictionary. Ops:
  {"op": "ping"}                         -> {"ok": true, "pong": <server time>}
  {"op": "move", "pos": Vector2, "by": Vector2}  -> {"ok": true, "pos": pos + by}
  {"op": "echo", "value": <any>}         -> {"ok": true, "value": value}
A request that does not decode gets {"ok": false, "error": "<code> at byte N: message"} and the
connection stays open (the frame was read whole, so the stream is still in step).

    .venv/bin/python python/examples/server.py --port 7777

with the package installed as python/README.md says (the venv's python imports it).
"""
import argparse
import asyncio
import sys
import time
from typing import Any, Dict

try:
    import gdwire
except ImportError:
    sys.exit("server.py: the gdwire package is not installed for this Python: install it as python/README.md says "
             "(python3 -m venv .venv && .venv/bin/pip install --no-index ./python), then run .venv/bin/python")

DIALECT = "godot4"


def handle(request: Any) -> Dict[str, Any]:
    if not isinstance(request, dict):
        return {"ok": False, "error": f"a request is a Dictionary, not {type(request).__name__}"}
    op = request.get("op")
    if op == "ping":
        return {"ok": True, "pong": time.time()}
    if op == "move":
        pos, by = request.get("pos"), request.get("by")
        if not isinstance(pos, gdwire.Vector2) or not isinstance(by, gdwire.Vector2):
            return {"ok": False, "error": "move wants pos and by as Vector2"}
        return {"ok": True, "pos": gdwire.Vector2(pos.x + by.x, pos.y + by.y)}
    if op == "echo":
        return {"ok": True, "value": request.get("value")}
    return {"ok": False, "error": f"unknown op {op!r}"}


async def serve_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    peer = writer.get_extra_info("peername")
    try:
        while True:
            try:
                request = await gdwire.async_read_var(reader, DIALECT)
            except EOFError:
                break
            except gdwire.DecodeError as e:
                if e.code in ("TOO_LARGE",) or "stream ended" in e.message:
                    break  # the stream is out of step or closed: nothing more can be read
                await gdwire.async_write_var(writer, {"ok": False, "error": str(e)}, DIALECT)
                continue
            await gdwire.async_write_var(writer, handle(request), DIALECT)
    finally:
        writer.close()
        print(f"client {peer} gone", file=sys.stderr)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7777, help="0: any free port (the one taken is printed)")
    args = ap.parse_args()
    server = await asyncio.start_server(serve_client, args.host, args.port)
    print(f"listening on {args.host}:{server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())

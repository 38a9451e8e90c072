# SPDX-License-Identifier: MIT
# One peer of a Godot 3 multiplayer session (tools/engines/sessions/make_session.sh):
#   GDW_ROLE=server|a|b GDW_PORT=N GDW_LOG=FILE [GDW_TRANSPORT=enet|ws] [GDW_COMPRESSION=...] godot3-server --no-window -s session3.gd
# The NetworkedMultiplayerENet (or WebSocketServer / WebSocketClient) peers talk through /root/Game (game3.gd): RPCs reliable and
# unreliable, a remote property (rset), a broadcast, a relayed call between the two clients, a
# payload large enough to fragment and RAW bytes. Each peer logs, one JSON object a line, what it
# sends (before the engine sends it) and what arrives: what `gdwire capture` is held against.
extends SceneTree

var role = ""
var log_file = File.new()
var game
var seq = 0

func _initialize():
	role = OS.get_environment("GDW_ROLE")
	var port = int(OS.get_environment("GDW_PORT"))
	log_file.open(OS.get_environment("GDW_LOG"), File.WRITE)
	var transport = OS.get_environment("GDW_TRANSPORT")
	var peer
	var compression_mode = 0
	if transport == "ws":
		# WebSocketMultiplayerPeer (a 9-byte header on every message); the default buffers (64 KiB in) refuse
		# the 100,000-byte payload
		if role == "server":
			peer = WebSocketServer.new()
			peer.set_buffers(1024, 1024, 1024, 1024)
			var listening = peer.listen(port, PoolStringArray(), true)
			assert(listening == OK)
		else:
			peer = WebSocketClient.new()
			peer.set_buffers(1024, 1024, 1024, 1024)
			var connecting = peer.connect_to_url("ws://127.0.0.1:%d" % port, PoolStringArray(), true)
			assert(connecting == OK)
	else:
		peer = NetworkedMultiplayerENet.new()
		var compression = OS.get_environment("GDW_COMPRESSION")
		if compression == "none":
			peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_NONE
		elif compression == "range_coder":
			peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_RANGE_CODER
		elif compression == "fastlz":
			peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_FASTLZ
		elif compression == "zlib":
			peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_ZLIB
		elif compression == "zstd":
			peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_ZSTD
		var err = peer.create_server(port, 4) if role == "server" else peer.create_client("127.0.0.1", port)
		assert(err == OK)
		compression_mode = peer.compression_mode
	network_peer = peer
	game = Node.new()
	game.name = "Game"
	game.set_script(load("res://game3.gd"))
	game.logger = self
	root.add_child(game)
	_log({"event": "start", "role": role, "transport": transport if transport else "enet", "engine": Engine.get_version_info().string,
		"compression": compression_mode})
	connect("network_peer_connected", self, "_on_peer")
	if role == "server":
		_serve()
	else:
		_play()

func _on_peer(id):
	_log({"event": "peer_connected", "peer": id})

func _log(d):
	d["seq"] = seq
	seq += 1
	log_file.store_line(to_json(d))

func _args(d, args):
	var b = var2bytes(args)
	var h = HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	h.update(b)
	d["args_sha256"] = h.finish().hex_encode()
	d["args_size"] = b.size()
	if b.size() <= 2048:
		d["args"] = b.hex_encode()
		d["text"] = var2str(args)
	return d

func _got(method, args, from):
	_log(_args({"event": "rpc_received", "by": get_network_unique_id(), "from": from, "method": method}, args))

func _send(to, method, args, unreliable = false):
	_log(_args({"event": "rpc_sent", "from": get_network_unique_id(), "to": to, "path": "Game", "method": method,
		"mode": "unreliable" if unreliable else "reliable"}, args))
	var call = ("rpc_unreliable" if unreliable else "rpc") + ("_id" if to != 0 else "")
	var callargs = ([to] if to != 0 else []) + [method] + args
	game.callv(call, callargs)

func _rset(to, prop, value):
	_log(_args({"event": "rset_sent", "from": get_network_unique_id(), "to": to, "path": "Game", "method": prop}, [value]))
	game.rset_id(to, prop, value)

func _wait(seconds):
	yield(create_timer(seconds), "timeout")

func _serve():
	var t = 0.0
	while get_network_connected_peers().size() < 2 and t < 20.0:
		yield(create_timer(0.1), "timeout")
		t += 0.1
	yield(create_timer(1.0), "timeout")
	var peers = Array(get_network_connected_peers())
	peers.sort()
	_send(peers[0], "one", [true])
	_send(peers[1], "three", [-129, 40000, 1 << 40])
	_send(0, "one", ["to everyone"])
	_rset(peers[0], "hp", 42)
	t = 0.0
	while get_network_connected_peers().size() > 0 and t < 20.0:
		yield(create_timer(0.1), "timeout")
		t += 0.1
	yield(create_timer(0.5), "timeout")
	_log({"event": "quit"})
	log_file.close()
	quit()

func _play():
	var t = 0.0
	while get_network_connected_peers().size() < 2 and t < 20.0:
		yield(create_timer(0.1), "timeout")
		t += 0.1
	yield(create_timer(0.5), "timeout")
	var me = get_network_unique_id()
	var other = 0
	for p in get_network_connected_peers():
		if p != 1:
			other = p
	if role == "a":
		_send(1, "nothing", [])
		for v in [false, true, 0, -1, 2147483647, -2147483649, 1 << 40, 1.5, "text", "ünïcödé", NodePath("a/b:c"),
				Vector2(1, 2), Vector3(1, -2, 3), Color(0.25, 0.5, 0.75, 1.0), Rect2(1, 2, 3, 4), Quat(0, 0, 0, 1),
				Transform.IDENTITY, [1, "a", [true]], {"k": 2, 3: [4.5]}, PoolStringArray(["x", "y"]),
				PoolVector3Array([Vector3(1, 2, 3)]), null]:
			_send(1, "one", [v])
		_send(1, "three", [true, 7, "x"])
		_send(1, "fast", [Vector3(0.5, 1, 2)], true)
		var big = PoolByteArray()
		big.resize(100000)
		for i in big.size():
			big[i] = (i * 7) & 255
		_send(1, "blob", [big])
		_log({"event": "raw_sent", "from": me, "to": 1, "bytes": "01020304"})
		multiplayer.send_bytes(PoolByteArray([1, 2, 3, 4]), 1)
		_send(other, "one", ["from a to b, through the server"])
	else:
		yield(create_timer(0.3), "timeout")
		_send(other, "three", ["from b", -7, 2.5])
		_send(1, "one", ["b's"])
	yield(create_timer(3.0), "timeout")
	_log({"event": "quit"})
	log_file.close()
	quit()

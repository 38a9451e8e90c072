# SPDX-License-Identifier: MIT
# One peer of a Godot 4 multiplayer session (tools/engines/sessions/make_session.sh):
#   godot --headless --path DIR --script res://session4.gd -- ROLE PORT LOG TRANSPORT
# ROLE: server, a or b (two clients); TRANSPORT: enet or ws. Every peer has /root/Game
# (game4.gd) with a MultiplayerSpawner; the server spawns a Player whose MultiplayerSynchronizer
# sends its position always (SYNC) and its rotation on change (delta SYNC). Each peer logs, one
# JSON object a line, what it sends (before the engine sends it) and what its RPCs receive:
# that log is what `gdwire capture` of the session is held against (capture_test).
extends SceneTree

var role := ""
var log_file: FileAccess
var mp := SceneMultiplayer.new()
var game: Node
var spawner: MultiplayerSpawner
var seq := 0

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	role = args[0]
	var port := int(args[1])
	log_file = FileAccess.open(args[2], FileAccess.WRITE)
	var transport: String = args[3]
	var peer: MultiplayerPeer
	if transport == "enet":
		var e := ENetMultiplayerPeer.new()
		var err := e.create_server(port, 4) if role == "server" else e.create_client("127.0.0.1", port)
		assert(err == OK)
		# the 5th argument: ENetConnection.compress's mode, on every peer (a host reads only its own mode)
		var compression: String = args[4] if args.size() > 4 else ""
		var modes := {"none": ENetConnection.COMPRESS_NONE, "range_coder": ENetConnection.COMPRESS_RANGE_CODER,
			"fastlz": ENetConnection.COMPRESS_FASTLZ, "zlib": ENetConnection.COMPRESS_ZLIB, "zstd": ENetConnection.COMPRESS_ZSTD}
		if compression != "":
			e.host.compress(modes[compression])
		peer = e
	else:
		var w := WebSocketMultiplayerPeer.new()
		# the default buffers (64 KiB) refuse the 100,000-byte payload: ERR_OUT_OF_MEMORY
		w.inbound_buffer_size = 1 << 20
		w.outbound_buffer_size = 1 << 20
		var err := w.create_server(port) if role == "server" else w.create_client("ws://127.0.0.1:%d" % port)
		assert(err == OK)
		peer = w
	set_multiplayer(mp)
	mp.multiplayer_peer = peer
	game = Node.new()
	game.name = "Game"
	game.set_script(load("res://game4.gd"))
	game.on_receive = _on_receive
	root.add_child(game)
	spawner = MultiplayerSpawner.new()
	spawner.name = "Spawner"
	spawner.spawn_path = NodePath("..")
	spawner.spawn_function = _spawn
	game.add_child(spawner)
	_log({"event": "start", "role": role, "transport": transport, "engine": Engine.get_version_info().string,
		"compression": args[4] if args.size() > 4 else ""})
	if role == "server":  # the names file gdwire capture --names reads, made by the game itself
		load("res://gdwire_names.gd").write(root, args[2].get_base_dir().path_join("names.tsv"))
	mp.peer_connected.connect(func(id): _log({"event": "peer_connected", "peer": id}))
	if role == "server":
		_serve()
	else:
		mp.connected_to_server.connect(func(): _log({"event": "connected", "id": mp.get_unique_id()}))
		_play()

func _log(d: Dictionary) -> void:
	d["seq"] = seq
	seq += 1
	log_file.store_line(JSON.stringify(d))
	log_file.flush()

func _on_receive(method: String, from: int, args: Array) -> void:
	_log(_with_args({"event": "rpc_received", "by": mp.get_unique_id(), "from": from, "method": method}, args))

# The arguments as the engine's own var_to_bytes of the argument Array: its SHA-256 and size, and,
# up to 2 KiB, its bytes and var_to_str (the big payloads would make the log megabytes).
func _with_args(d: Dictionary, args: Array) -> Dictionary:
	var b := var_to_bytes(args)
	var h := HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	h.update(b)
	d["args_sha256"] = h.finish().hex_encode()
	d["args_size"] = b.size()
	if b.size() <= 2048:
		d["args"] = b.hex_encode()
		d["text"] = var_to_str(args)
	return d

# An RPC, logged before the engine sends it (capture_test compares the capture's arguments, written
# again by gdwire, with the engine's own bytes of them).
func _send(to: int, method: String, args: Array) -> void:
	_log(_with_args({"event": "rpc_sent", "from": mp.get_unique_id(), "to": to, "path": "Game", "method": method}, args))
	if to == 0:
		game.callv("rpc", [method] + args)
	else:
		game.callv("rpc_id", [to, method] + args)

func _spawn(data: Variant) -> Node:
	var p := Node2D.new()
	p.name = data["name"]
	p.position = data["at"]
	var cfg := SceneReplicationConfig.new()
	cfg.add_property(NodePath(".:position"))
	cfg.property_set_spawn(NodePath(".:position"), true)
	cfg.property_set_replication_mode(NodePath(".:position"), SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
	cfg.add_property(NodePath(".:rotation"))
	cfg.property_set_replication_mode(NodePath(".:rotation"), SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	sync.replication_config = cfg
	p.add_child(sync)
	_log({"event": "spawned", "by": mp.get_unique_id(), "data": var_to_bytes(data).hex_encode(), "text": var_to_str(data)})
	return p

func _wait(seconds: float) -> void:
	await create_timer(seconds).timeout

func _serve() -> void:
	var t := 0.0
	while mp.get_peers().size() < 2 and t < 20.0:
		await _wait(0.1)
		t += 0.1
	await _wait(1.0)
	var peers := mp.get_peers()
	peers.sort()
	_send(peers[0], "one", [true])
	_send(peers[1], "three", [-129, 40000, 1 << 40])
	_send(0, "one", ["to everyone"])
	var data := {"name": "Player", "at": Vector2(1.5, -2.0)}
	_log({"event": "spawn", "data": var_to_bytes(data).hex_encode(), "text": var_to_str(data)})
	var player: Node2D = spawner.spawn(data)
	for i in range(6):
		await _wait(0.15)
		player.position = Vector2(1.5 + i, -2.0 * i)
		player.rotation = 0.25 * i
		_log({"event": "set", "node": "Game/Player", "position": var_to_bytes(player.position).hex_encode(),
			"rotation": var_to_bytes(player.rotation).hex_encode()})
	await _wait(0.5)
	_log({"event": "despawn", "node": "Game/Player"})
	player.queue_free()
	t = 0.0
	while mp.get_peers().size() > 0 and t < 20.0:
		await _wait(0.1)
		t += 0.1
	await _wait(0.5)
	_log({"event": "quit"})
	quit()

func _play() -> void:
	var t := 0.0
	while mp.get_peers().size() < 2 and t < 20.0:  # the server and the other client
		await _wait(0.1)
		t += 0.1
	await _wait(0.5)
	var me := mp.get_unique_id()
	var other := 0
	for p in mp.get_peers():
		if p != 1:
			other = p
	if role == "a":
		_send(1, "nothing", [])
		for v in [false, true, 0, -1, 127, 128, -129, 32767, -32769, 40000, 2147483647, -2147483649, 1 << 40,
				1.5, -0.0, "text", "ünïcödé", &"name", NodePath("a/b:c"), Vector2(1, 2), Vector3i(1, -2, 3),
				Color(0.25, 0.5, 0.75, 1.0), Rect2(1, 2, 3, 4), Quaternion(0, 0, 0, 1),
				Transform3D.IDENTITY, [1, "a", [true]], {"k": 2, 3: [4.5]}, PackedStringArray(["x", "y"]),
				PackedVector3Array([Vector3(1, 2, 3)]), null]:
			_send(1, "one", [v])
		_send(1, "three", [true, 7, "x"])
		_send(1, "blob", [PackedByteArray([1, 2, 3])])
		_send(1, "fast", [Vector3(0.5, 1, 2)])
		for n in range(3):
			_send(1, "ordered", ["tick", n])
		_send(1, "on_channel", [255])
		var big := PackedByteArray()
		big.resize(100000)
		for i in big.size():
			big[i] = (i * 7) & 255
		_send(1, "blob", [big])
		var ints := PackedInt32Array()
		for i in 20000:
			ints.append(i * 3 - 1000)
		_send(1, "big_unreliable", [ints])
		_log({"event": "raw_sent", "from": me, "to": 1, "bytes": "01020304"})
		mp.send_bytes(PackedByteArray([1, 2, 3, 4]), 1)
		_send(other, "one", ["from a to b, through the server"])
	else:
		await _wait(0.3)
		_send(other, "three", ["from b", -7, 2.5])
		_send(1, "one", [&"b's"])
	await _wait(3.0)
	_log({"event": "quit"})
	quit()

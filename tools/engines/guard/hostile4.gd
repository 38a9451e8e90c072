# SPDX-License-Identifier: MIT
# The real Godot 4 server (and its honest client) of the hostile-client runs
# (tools/engines/guard/hostile_run.sh):
#   godot --headless --path DIR --script res://hostile4.gd -- ROLE PORT LOG SECONDS
# ROLE server: an ENetMultiplayerPeer server with /root/Game (hostile_game4.gd); it logs, one JSON
# object a line, every RPC it runs (method, sender, the arguments as var_to_bytes hex up to 2 KiB,
# else their size) with the wall time in ms, and quits after SECONDS.
# ROLE honest: a client sending one RAW packet of put_var values (send_bytes), then calling
# Game.ping(n) on the server every 100 ms, each call logged before it is sent, until SECONDS have passed.
extends SceneTree

var role := ""
var log_file: FileAccess
var mp := SceneMultiplayer.new()

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	role = args[0]
	var port := int(args[1])
	log_file = FileAccess.open(args[2], FileAccess.WRITE)
	var seconds := float(args[3])
	var e := ENetMultiplayerPeer.new()
	var err := e.create_server(port, 8) if role == "server" else e.create_client("127.0.0.1", port)
	assert(err == OK)
	set_multiplayer(mp)
	mp.multiplayer_peer = e
	var game := Node.new()
	game.name = "Game"
	game.set_script(load("res://hostile_game4.gd"))
	game.on_run = _on_run
	root.add_child(game)
	mp.peer_connected.connect(func(id): _log({"event": "peer_connected", "peer": id}))
	mp.peer_disconnected.connect(func(id): _log({"event": "peer_disconnected", "peer": id}))
	mp.peer_packet.connect(_on_raw)
	_log({"event": "start", "role": role, "engine": Engine.get_version_info().string})
	if role == "honest":
		_play(game, seconds)
	else:
		await create_timer(seconds).timeout
		_log({"event": "quit"})
		quit()

func _now() -> int:
	return int(Time.get_unix_time_from_system() * 1000.0)

func _log(d: Dictionary) -> void:
	d["t_ms"] = _now()
	log_file.store_line(JSON.stringify(d))
	log_file.flush()

func _on_run(method: String, args: Array, from := -1) -> void:
	var b := var_to_bytes(args)
	var d := {"event": "rpc", "method": method, "from": mp.get_remote_sender_id() if from < 0 else from, "args_size": b.size()}
	if b.size() <= 2048:
		d["args"] = b.hex_encode()
	_log(d)

# A game that reads the RAW packets of send_bytes as put_var wrote them, with StreamPeerBuffer.get_var (what
# docs/engine-findings.md finding 3 crashes), logged as the RPC "raw" of its sender.
func _on_raw(id: int, packet: PackedByteArray) -> void:
	var s := StreamPeerBuffer.new()
	s.data_array = packet
	var values := []
	while s.get_position() < s.get_size():
		values.append(s.get_var())
	_on_run("raw", values, id)

func _play(game: Node, seconds: float) -> void:
	var t0 := _now()
	while mp.get_peers().is_empty() and _now() - t0 < 10000:
		await create_timer(0.05).timeout
	# one RAW packet of put_var values, as the game reads them (_on_raw)
	var raw := StreamPeerBuffer.new()
	raw.put_var({"hp": 3, "name": "bob"})
	raw.put_var(Vector2(1.5, -2))
	_log({"event": "sent", "method": "raw"})
	mp.send_bytes(raw.data_array, 1)
	var n := 0
	while _now() - t0 < seconds * 1000.0:
		_log({"event": "sent", "method": "ping", "n": n})
		game.rpc_id(1, "ping", n)
		n += 1
		await create_timer(0.1).timeout
	_log({"event": "quit"})
	quit()

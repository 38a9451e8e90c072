# SPDX-License-Identifier: MIT
# The real Godot 3 server (and its honest client) of the hostile-client runs
# (tools/engines/guard/hostile_run.sh); the Godot 3 twin of hostile4.gd:
#   GDW_ROLE=server|honest GDW_PORT=N GDW_LOG=FILE GDW_SECONDS=S [GDW_COMPRESSION=none|range_coder]
#   godot3-server --no-window -s hostile3.gd
# The server logs every RPC it runs (method, sender, var2bytes of the arguments as hex up to 2 KiB)
# with the wall time in ms; the honest client sends one RAW packet of put_var values, then calls Game.ping(n)
# every 100 ms.
extends SceneTree

var role = ""
var log_path = ""
var game
var t0 = 0
var seconds = 0.0
var n = 0

func _initialize():
	role = OS.get_environment("GDW_ROLE")
	var port = int(OS.get_environment("GDW_PORT"))
	seconds = float(OS.get_environment("GDW_SECONDS"))
	log_path = OS.get_environment("GDW_LOG")
	var f = File.new()
	f.open(log_path, File.WRITE)
	f.close()
	var peer = NetworkedMultiplayerENet.new()
	var compression = OS.get_environment("GDW_COMPRESSION")
	if compression == "none":
		peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_NONE
	elif compression == "range_coder":
		peer.compression_mode = NetworkedMultiplayerENet.COMPRESS_RANGE_CODER
	var err = peer.create_server(port, 8) if role == "server" else peer.create_client("127.0.0.1", port)
	assert(err == OK)
	network_peer = peer
	game = Node.new()
	game.name = "Game"
	game.set_script(load("res://hostile_game3.gd"))
	game.logger = self
	root.add_child(game)
	connect("network_peer_connected", self, "_on_peer", ["peer_connected"])
	connect("network_peer_disconnected", self, "_on_peer", ["peer_disconnected"])
	multiplayer.connect("network_peer_packet", self, "_on_raw")
	t0 = OS.get_system_time_msecs()
	_log({"event": "start", "role": role, "engine": Engine.get_version_info().string, "compression": peer.compression_mode})
	var timer = Timer.new()
	timer.wait_time = 0.1
	timer.connect("timeout", self, "_tick")
	root.add_child(timer)
	timer.start()

func _on_peer(id, what):
	_log({"event": what, "peer": id})

func _log(d):
	d["t_ms"] = OS.get_system_time_msecs()
	# each line closed at once (3.2.3's File has no flush), so a crash loses none of them
	var f = File.new()
	f.open(log_path, File.READ_WRITE)
	f.seek_end()
	f.store_line(to_json(d))
	f.close()

func on_run(method, args, from = -1):
	var b = var2bytes(args)
	var d = {"event": "rpc", "method": method, "from": get_rpc_sender_id() if from < 0 else from, "args_size": b.size()}
	if b.size() <= 2048:
		d["args"] = _hex(b)
	_log(d)

# A game that reads the RAW packets of send_bytes as put_var wrote them, with StreamPeerBuffer.get_var (what
# docs/engine-findings.md finding 3 crashes), logged as the RPC "raw" of its sender.
func _on_raw(id, packet):
	var s = StreamPeerBuffer.new()
	s.data_array = packet
	var values = []
	while s.get_position() < s.get_size():
		values.append(s.get_var())
	on_run("raw", values, id)

func _hex(b):
	var s = ""
	for x in b:
		s += "%02x" % x
	return s

func _tick():
	if OS.get_system_time_msecs() - t0 >= seconds * 1000.0:
		_log({"event": "quit"})
		quit()
		return
	if role == "honest" and network_peer.get_connection_status() == NetworkedMultiplayerPeer.CONNECTION_CONNECTED:
		if n == 0:  # one RAW packet of put_var values first, as the game reads them (_on_raw)
			var raw = StreamPeerBuffer.new()
			raw.put_var({"hp": 3, "name": "bob"})
			raw.put_var(Vector2(1.5, -2))
			_log({"event": "sent", "method": "raw"})
			multiplayer.send_bytes(raw.data_array, 1)
		_log({"event": "sent", "method": "ping", "n": n})
		game.rpc_id(1, "ping", n)
		n += 1

# SPDX-License-Identifier: MIT
# long_session4.gd — one peer of a long Godot 4 ENet session, for bench/capture_bench.py (the capture is made on
# demand and not committed: conformance/sessions/ holds the short, logged ones):
#   godot --headless --path DIR --script res://long_session4.gd -- ROLE PORT SECONDS [COMPRESSION]
# ROLE is server, a or b; each client sends the server, 60 frames a second, 40 of each of three RPCs of
# tools/engines/sessions/game4.gd (three: an int, a String and a Vector3, reliable; blob: 200 bytes, reliable;
# fast: a Transform3D, unreliable) until SECONDS have passed. COMPRESSION: ENetConnection.compress's mode on every
# peer (fastlz, zlib, zstd, range_coder), none when not given.
extends SceneTree

var mp := SceneMultiplayer.new()
var game: Node
var role := ""
var end_ms := 0
var payload := PackedByteArray()
var received := 0

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	role = args[0]
	var port := int(args[1])
	var e := ENetMultiplayerPeer.new()
	var err := e.create_server(port, 4) if role == "server" else e.create_client("127.0.0.1", port)
	if err != OK:
		printerr("long_session4.gd: cannot open the ENet peer: ", err)
		quit(1)
		return
	if args.size() > 3 and args[3] != "":
		var modes := {"range_coder": ENetConnection.COMPRESS_RANGE_CODER, "fastlz": ENetConnection.COMPRESS_FASTLZ,
			"zlib": ENetConnection.COMPRESS_ZLIB, "zstd": ENetConnection.COMPRESS_ZSTD}
		e.host.compress(modes[args[3]])
	set_multiplayer(mp)
	mp.multiplayer_peer = e
	game = Node.new()
	game.name = "Game"
	game.set_script(load("res://game4.gd"))
	game.on_receive = func(_method, _from, _args): received += 1
	root.add_child(game)
	payload.resize(200)
	for i in payload.size():
		payload[i] = (i * 13) & 255
	Engine.max_fps = 60
	# the server stays a little longer, to receive what is still on its way
	end_ms = Time.get_ticks_msec() + int(float(args[2]) * 1000.0) + (2000 if role == "server" else 0)

func _process(_delta: float) -> bool:
	if role != "server" and 1 in mp.get_peers():
		for i in 40:
			game.rpc_id(1, "three", i, "text %d" % i, Vector3(i, 2.5, -3))
			game.rpc_id(1, "blob", payload)
			game.rpc_id(1, "fast", Transform3D.IDENTITY.translated(Vector3(i, 0, 0)))
	if Time.get_ticks_msec() >= end_ms:
		print("%s: %d RPCs received" % [role, received])
		return true
	return false

# SPDX-License-Identifier: MIT
# A Godot 4 server that says when its SceneMultiplayer admits and frees each peer (guard/tests/engine_actions_test.py):
# one JSON line each, with the system's clock as the engine reads it (Time.get_unix_time_from_system). It runs for the seconds given, then quits.
# usage: godot --headless --script peers_server4.gd -- PORT SECONDS
extends SceneTree

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var e := ENetMultiplayerPeer.new()
	var err := e.create_server(int(args[0]), 4)
	if err != OK:
		printerr("peers_server4: create_server failed: %d" % err)
		quit(1)
		return
	var mp := SceneMultiplayer.new()
	mp.multiplayer_peer = e
	set_multiplayer(mp, root.get_path())
	mp.peer_connected.connect(func(id): print(JSON.stringify({"event": "peer_connected", "peer": id, "unix": Time.get_unix_time_from_system()})))
	mp.peer_disconnected.connect(func(id): print(JSON.stringify({"event": "peer_disconnected", "peer": id, "unix": Time.get_unix_time_from_system()})))
	print(JSON.stringify({"event": "listening", "unix": Time.get_unix_time_from_system()}))
	await create_timer(float(args[1])).timeout
	quit()

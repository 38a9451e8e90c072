# SPDX-License-Identifier: MIT
# multiplayer3.gd — the MultiplayerAPI harness for Godot 3 (tools/engines/harness/README.md): multiplayer4.gd's
# protocol and input form, into Godot 3's MultiplayerAPI through NetworkedMultiplayerCustom.deliver_packet (3.6;
# core/io/networked_multiplayer_custom.cpp). /root/Game has the RPCs and the remote property of
# tools/engines/sessions/game3.gd. $GDW_ROLE: "server" (this side peer 1, the hostile peer a client, id 2) or
# "client" (this side peer 7777, the hostile peer the server, id 1). A fresh MultiplayerAPI and scene per input.
extends SceneTree

var mark = OS.get_environment("GDW_MARK")
var role = OS.get_environment("GDW_ROLE")
var game_script


class Logger:
	func _got(_method, args, _from):
		var2bytes(args)


# The work happens in the first frame, when the root is inside the tree.
func _idle(_delta):
	_main()
	return true


func _main():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	if role != "server" and role != "client":
		printerr("multiplayer3.gd: $GDW_ROLE is server or client")
		return
	if not ClassDB.class_exists("NetworkedMultiplayerCustom"):
		printerr("multiplayer3.gd: this engine has no NetworkedMultiplayerCustom (Godot 3.5+)")
		return
	game_script = load("res://game3.gd")
	var f = File.new()
	if f.open(OS.get_environment("GDW_IN"), File.READ) != OK:
		printerr("multiplayer3.gd: cannot open $GDW_IN")
		return
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		_run(parts[0], Marshalls.base64_to_raw(parts[1]))
		print(mark + "\tR\t" + parts[0])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")


func _messages(b):
	var out = []
	var at = 0
	while at < b.size():
		if at + 2 > b.size():
			out.append(b.subarray(at, b.size() - 1))
			break
		var n = b[at] | b[at + 1] << 8
		var end = min(at + 2 + n, b.size())
		out.append(b.subarray(at + 2, end - 1) if end > at + 2 else PoolByteArray())
		at += 2 + n
	return out


func _run(index, input):
	printerr("@@" + mark + ":" + index + ":setup")
	var mp = MultiplayerAPI.new()
	set_multiplayer(mp)
	var game = Node.new()
	game.name = "Game"
	game.set_script(game_script)
	game.logger = Logger.new()
	root.add_child(game)
	var peer = NetworkedMultiplayerCustom.new()
	peer.set_connection_status(NetworkedMultiplayerPeer.CONNECTION_CONNECTING)
	var server = role == "server"
	peer.initialize(1 if server else 7777)
	if not server:
		peer.set_connection_status(NetworkedMultiplayerPeer.CONNECTION_CONNECTED)
	var hostile = 2 if server else 1
	mp.network_peer = peer
	peer.emit_signal("peer_connected", hostile)
	mp.poll()
	for m in _messages(input):
		printerr("@@" + mark + ":" + index + ":poll")
		peer.deliver_packet(m, hostile)
		mp.poll()
	mp.network_peer = null
	root.remove_child(game)
	game.free()

# SPDX-License-Identifier: MIT
# multiplayer4.gd — the SceneMultiplayer harness for Godot 4 (tools/engines/harness/README.md): each input is what a
# hostile peer sends, and it goes into a real SceneMultiplayer through a MultiplayerPeerExtension written here.
# Input: $GDW_IN, lines "index<TAB>base64"; an input is a sequence of messages, each a 16-bit little-endian length
# and that many bytes (a last message cut short is given as it is). $GDW_ROLE: "server" (this side is peer 1 and
# the hostile peer a client, id 2) or "client" (this side is peer 7777, the hostile peer the server, id 1).
# For each input the harness builds a fresh SceneMultiplayer over the tree: /root/Game with the RPCs of
# tools/engines/sessions/game4.gd, its MultiplayerSpawner (which spawns a Node2D with a MultiplayerSynchronizer, as
# the recorded sessions do), then says the hostile peer connected and polls once per message it delivers. Markers
# on stderr as variant4.gd's: "@@MARK:index:setup", "@@MARK:index:poll" before each message; "MARK<TAB>R<TAB>index"
# on stdout when an input is done.
extends SceneTree

var mark := OS.get_environment("GDW_MARK")
var role := OS.get_environment("GDW_ROLE")
var game_script: Script
var spawned := 0


class HostilePeer extends MultiplayerPeerExtension:
	var incoming: Array = []  # [from, bytes]
	var server := true
	var uid := 1
	var target := 0
	var channel := 0
	var mode := MultiplayerPeer.TRANSFER_MODE_RELIABLE
	var refusing := false
	var sent := 0

	func _get_available_packet_count() -> int:
		return incoming.size()

	func _get_max_packet_size() -> int:
		return 1 << 24

	func _get_packet_script() -> PackedByteArray:
		return incoming.pop_front()[1] if incoming.size() else PackedByteArray()

	func _put_packet_script(_buffer: PackedByteArray) -> Error:
		sent += 1
		return OK

	func _get_packet_channel() -> int:
		return 0

	func _get_packet_mode() -> MultiplayerPeer.TransferMode:
		return MultiplayerPeer.TRANSFER_MODE_RELIABLE

	func _get_packet_peer() -> int:  # asked before _get_packet: the head of the queue's sender
		return incoming[0][0] if incoming.size() else 0

	func _set_transfer_channel(c: int) -> void:
		channel = c

	func _get_transfer_channel() -> int:
		return channel

	func _set_transfer_mode(m: MultiplayerPeer.TransferMode) -> void:
		mode = m

	func _get_transfer_mode() -> MultiplayerPeer.TransferMode:
		return mode

	func _set_target_peer(p: int) -> void:
		target = p

	func _is_server() -> bool:
		return server

	func _poll() -> void:
		pass

	func _close() -> void:
		incoming.clear()

	func _disconnect_peer(_p: int, _force: bool) -> void:
		pass

	func _get_unique_id() -> int:
		return uid

	func _set_refuse_new_connections(r: bool) -> void:
		refusing = r

	func _is_refusing_new_connections() -> bool:
		return refusing

	func _is_server_relay_supported() -> bool:
		return true

	func _get_connection_status() -> MultiplayerPeer.ConnectionStatus:
		return MultiplayerPeer.CONNECTION_CONNECTED


# The work happens in the first frame: before it, the root is not inside the tree yet, and SceneMultiplayer finds
# no node by its absolute path.
func _process(_delta: float) -> bool:
	_main()
	return true


func _main() -> void:
	print(mark + "\tV\t" + Engine.get_version_info().string)
	if role != "server" and role != "client":
		printerr("multiplayer4.gd: $GDW_ROLE is server or client")
		return
	game_script = load("res://game4.gd")
	var f := FileAccess.open(OS.get_environment("GDW_IN"), FileAccess.READ)
	if f == null:
		printerr("multiplayer4.gd: cannot open $GDW_IN")
		return
	while not f.eof_reached():
		var line := f.get_line()
		if line == "":
			continue
		var parts := line.split("\t")
		_run(parts[0], Marshalls.base64_to_raw(parts[1]))
		print(mark + "\tR\t" + parts[0])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")


func _messages(b: PackedByteArray) -> Array:
	var out := []
	var at := 0
	while at < b.size():
		if at + 2 > b.size():
			out.append(b.slice(at))
			break
		var n := b.decode_u16(at)
		out.append(b.slice(at + 2, min(at + 2 + n, b.size())))
		at += 2 + n
	return out


func _run(index: String, input: PackedByteArray) -> void:
	printerr("@@" + mark + ":" + index + ":setup")
	var mp := SceneMultiplayer.new()
	var peer := HostilePeer.new()
	peer.server = role == "server"
	peer.uid = 1 if peer.server else 7777
	var hostile := 2 if peer.server else 1
	set_multiplayer(mp)
	var game := Node.new()
	game.name = "Game"
	game.set_script(game_script)
	game.on_receive = func(_method, _from, args): var_to_bytes(args)
	root.add_child(game)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	spawner.spawn_path = NodePath("..")
	spawner.spawn_function = _spawn
	game.add_child(spawner)
	mp.multiplayer_peer = peer
	peer.emit_signal("peer_connected", hostile)
	mp.poll()
	if peer.server:  # something to synchronise and despawn: a Player the server spawned
		spawner.spawn({"name": "Player", "at": Vector2(1.5, -2.0)})
	for m in _messages(input):
		printerr("@@" + mark + ":" + index + ":poll")
		peer.incoming.append([hostile, m])
		mp.poll()
	mp.multiplayer_peer = null
	root.remove_child(game)
	game.free()


func _spawn(data: Variant) -> Node:
	var p := Node2D.new()
	p.name = str(data["name"]) if data is Dictionary and data.has("name") else "Spawned%d" % spawned
	spawned += 1
	if data is Dictionary and data.get("at") is Vector2:
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
	return p

# SPDX-License-Identifier: MIT
# The test harness of a Godot 4 test project (run_project.sh adds it to a copy of the project as the
# autoload GdwireHarness; it has no RPCs, so it changes nothing on the wire):
#   godot --headless --path COPY -- ROLE PORT LOG MANIFEST
# ROLE server or client, on ENet at 127.0.0.1:PORT. Each peer logs JSON lines to LOG: what it sends (node path,
# method, arguments: written before the engine sends them), what its RPCs ran (the project's scripts tell it
# through trace.gd), each replicated property it set, and when it wrote MANIFEST, the addon's dump
# (addons/gdwire/manifest.gd) of the whole tree. The server spawns every scene of every MultiplayerSpawner,
# gives every replicated property a value of its own first, writes its manifest, then calls every RPC of every
# node once on the client, then changes each on-change property alone; the client writes its manifest once the
# server's first RPC ran (it comes after the spawns, on the same reliable channel) and calls every any_peer RPC
# once on the server. Sends are 30 ms apart, so the wire holds them
# in the order logged. A project node with gdwire_drive(harness, role, other_peer) makes its own calls instead.
extends Node

const Manifest := preload("res://addons/gdwire/manifest.gd")

var role := ""
var log_file: FileAccess
var manifest_path := ""
var seq := 0
var value_counter := 0
var other := 0
var received := 0  # RPCs run here so far

func _ready() -> void:
	var args := OS.get_cmdline_user_args()
	role = args[0]
	var port := int(args[1])
	log_file = FileAccess.open(args[2], FileAccess.WRITE)
	manifest_path = args[3]
	var peer := ENetMultiplayerPeer.new()
	var err := peer.create_server(port, 4) if role == "server" else peer.create_client("127.0.0.1", port)
	if err != OK:
		push_error("harness: cannot open the peer: %s" % error_string(err))
		get_tree().quit(1)
		return
	multiplayer.multiplayer_peer = peer
	_log({"event": "start", "role": role, "engine": Engine.get_version_info().string,
		"project": ProjectSettings.get_setting("application/config/name", "")})
	multiplayer.peer_connected.connect(_on_peer_connected)
	multiplayer.peer_disconnected.connect(func(id): _log({"event": "peer_disconnected", "peer": id}))
	if role == "server":
		_serve()
	else:
		multiplayer.connected_to_server.connect(func(): _log({"event": "connected", "id": multiplayer.get_unique_id()}))
		_play()

func _on_peer_connected(id: int) -> void:
	if role == "server":
		other = id
	_log({"event": "peer_connected", "peer": id})

func _log(d: Dictionary) -> void:
	d["seq"] = seq
	seq += 1
	log_file.store_line(JSON.stringify(d))
	log_file.flush()

func _wait(seconds: float) -> void:
	await get_tree().create_timer(seconds).timeout

# trace.gd calls this from each RPC of the project as it runs
func got(node: Node, method: String, args: Array) -> void:
	received += 1
	_log(_with_args({"event": "rpc_received", "by": multiplayer.get_unique_id(),
		"from": multiplayer.get_remote_sender_id(), "path": _path(node), "method": method}, args))

func _path(node: Node) -> String:
	return String(get_tree().root.get_path_to(node))

# The arguments as the engine's own bytes: var_to_bytes of the Array and of each argument (and an int's or
# bool's value: the wire carries those compressed), and var_to_str of the Array.
func _with_args(d: Dictionary, args: Array) -> Dictionary:
	d["args"] = var_to_bytes(args).hex_encode()
	d["text"] = var_to_str(args)
	var each := []
	for a in args:
		var e := {"type": type_string(typeof(a)), "hex": var_to_bytes(a).hex_encode()}
		if typeof(a) == TYPE_INT or typeof(a) == TYPE_BOOL:
			e["value"] = a
		each.append(e)
	d["each"] = each
	return d

func _send(to: int, path: String, method: String, args: Array) -> void:
	_log(_with_args({"event": "rpc_sent", "from": multiplayer.get_unique_id(), "to": to, "path": path, "method": method}, args))
	get_tree().root.get_node(path).callv("rpc_id", [to, method] + args)
	await _wait(0.03)

# An argument of the declared type TYPE (null: untyped), each call's different from the last.
func _arg(type) -> Variant:
	value_counter += 1
	var k := value_counter
	match type:
		null: return k * 3
		"int": return 40 + k
		"float": return 0.5 + k
		"bool": return k % 2 == 0
		"String": return "s%d" % k
		"Vector2": return Vector2(k, -k)
		"Color": return Color(0.25, 0.5, 0.75)
		"Dictionary": return {"k": k}
	return null

# A value of VALUE's type that no other replicated property has.
func _distinct(value: Variant) -> Variant:
	value_counter += 1
	var k := value_counter
	match typeof(value):
		TYPE_INT: return 1000 + 17 * k
		TYPE_FLOAT: return 0.125 + k
		TYPE_VECTOR2: return Vector2(3 + k, -5 - k)
		TYPE_STRING: return "v%d" % k
	return value

func _set_property(sync: MultiplayerSynchronizer, prop: NodePath, where: String) -> void:
	var target := sync.get_node(sync.root_path)
	var node_path := NodePath(String(prop).get_slice(":", 0))
	var owner_node := target.get_node(node_path)
	var name := String(prop).get_slice(":", 1)
	var v = _distinct(owner_node.get(name))
	owner_node.set(name, v)
	var d := {"event": "set", "sync": where, "property": String(prop), "type": type_string(typeof(v)),
		"hex": var_to_bytes(v).hex_encode(), "text": var_to_str(v)}
	if typeof(v) == TYPE_INT:
		d["int"] = v
	_log(d)

func _synchronizers(node: Node, out: Array) -> void:
	if node is MultiplayerSynchronizer:
		out.append(node)
	for c in node.get_children():
		_synchronizers(c, out)

func _spawners(node: Node, out: Array) -> void:
	if node is MultiplayerSpawner:
		out.append(node)
	for c in node.get_children():
		_spawners(c, out)

func _serve() -> void:
	var t := 0.0
	while other == 0 and t < 20.0:
		await _wait(0.1)
		t += 0.1
	await _wait(0.5)
	# the main scene's own synchronizers first (their sync_path travels as a cached path), then the spawns
	var syncs := []
	_synchronizers(get_tree().root, syncs)
	for s in syncs:
		if s.replication_config:
			for p in s.replication_config.get_properties():
				_set_property(s, p, _path(s))
	var spawners := []
	_spawners(get_tree().root, spawners)
	for sp in spawners:
		for i in sp.get_spawnable_scene_count():
			var inst: Node = load(sp.get_spawnable_scene(i)).instantiate()
			var inner := []
			_synchronizers(inst, inner)
			var spawn_node: Node = sp.get_node(sp.spawn_path)
			for s in inner:
				for p in s.replication_config.get_properties():
					_set_property(s, p, _path(spawn_node) + "/" + String(inst.name) + "/" + String(inst.get_path_to(s)))
			spawn_node.add_child(inst, true)
			_log({"event": "spawn", "spawner": _path(sp), "scene": sp.get_spawnable_scene(i), "scene_id": i, "node": _path(inst)})
	await _wait(1.0)
	var err := Manifest.write(get_tree().root, manifest_path)
	_log({"event": "manifest", "file": manifest_path.get_file(), "error": error_string(err)})
	var driver := _driver(get_tree().root)
	if driver:
		await driver.gdwire_drive(self, role, other)
	else:
		var m := Manifest.dump(get_tree().root)
		for n in m.nodes:
			for r in n.rpcs:
				var args := []
				for a in r.args:
					args.append(_arg(a.type))
				await _send(other, n.path, r.name, args)
	await _wait(0.3)
	for s in syncs + _spawned_synchronizers(spawners):
		if s.replication_config == null or not s.is_inside_tree():
			continue
		for p in s.replication_config.get_properties():
			if s.replication_config.property_get_replication_mode(p) == SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE:
				_set_property(s, p, _path(s))
				await _wait(0.2)
	t = 0.0
	while multiplayer.get_peers().size() > 0 and t < 20.0:
		await _wait(0.1)
		t += 0.1
	await _wait(0.3)
	_log({"event": "quit"})
	get_tree().quit()

# A project node that drives the calls itself (it has gdwire_drive(harness, role, other_peer)), instead of
# the harness's one call of every RPC: the typed-argument project (conformance/projects/typed4).
func _driver(node: Node) -> Node:
	if node != self and node.has_method("gdwire_drive"):
		return node
	for c in node.get_children():
		var d := _driver(c)
		if d:
			return d
	return null

func _spawned_synchronizers(spawners: Array) -> Array:
	var out := []
	for sp in spawners:
		for c in sp.get_node(sp.spawn_path).get_children():
			_synchronizers(c, out)
	return out

func _play() -> void:
	var t := 0.0
	while multiplayer.multiplayer_peer.get_connection_status() != MultiplayerPeer.CONNECTION_CONNECTED and t < 20.0:
		await _wait(0.1)
		t += 0.1
	# the server's first RPC comes after its spawns, on the same reliable channel: then every spawn is here
	t = 0.0
	while received == 0 and t < 20.0:
		await _wait(0.1)
		t += 0.1
	var err := Manifest.write(get_tree().root, manifest_path)
	_log({"event": "manifest", "file": manifest_path.get_file(), "error": error_string(err)})
	var driver := _driver(get_tree().root)
	if driver:
		await driver.gdwire_drive(self, role, 1)
	else:
		var m := Manifest.dump(get_tree().root)
		for n in m.nodes:
			for r in n.rpcs:
				if r.mode != "any_peer":
					continue
				var args := []
				for a in r.args:
					args.append(_arg(a.type))
				await _send(1, n.path, r.name, args)
	await _wait(3.0)
	_log({"event": "quit"})
	get_tree().quit()

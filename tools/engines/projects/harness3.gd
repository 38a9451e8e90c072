# SPDX-License-Identifier: MIT
# The test harness of a Godot 3 test project (run_project.sh adds it to a copy of the project as the autoload
# GdwireHarness; it has no RPCs): GDW_ROLE=server|client GDW_PORT=N GDW_LOG=FILE godot3 --no-window --path COPY.
# Godot 3 has no script API for a node's RPC modes, so every peer calls every public script method of every
# node of the project (rpc(): to the other peer, and locally for the sync modes) and rsets every script variable,
# and the receiving engine says which it ran (trace.gd) and which it refused, with the mode number, in its own
# error ("RPC 'x' is not allowed on node ... Mode is N"); the names travel on the wire. Sends are 30 ms apart.
extends Node

var role = ""
var log_file = File.new()
var seq = 0
var counter = 0

func _ready():
	role = OS.get_environment("GDW_ROLE")
	var port = int(OS.get_environment("GDW_PORT"))
	log_file.open(OS.get_environment("GDW_LOG"), File.WRITE)
	var peer = NetworkedMultiplayerENet.new()
	var err = peer.create_server(port, 4) if role == "server" else peer.create_client("127.0.0.1", port)
	assert(err == OK)
	get_tree().network_peer = peer
	_log({"event": "start", "role": role, "engine": Engine.get_version_info().string,
		"project": ProjectSettings.get_setting("application/config/name"), "compression": peer.compression_mode})
	get_tree().connect("network_peer_connected", self, "_on_peer_connected")
	get_tree().connect("connected_to_server", self, "_on_connected")
	_run()

func _on_peer_connected(id):
	_log({"event": "peer_connected", "peer": id})

func _on_connected():
	_log({"event": "connected", "id": get_tree().get_network_unique_id()})

func _log(d):
	d["seq"] = seq
	seq += 1
	log_file.store_line(to_json(d))
	if log_file.has_method("flush"):  # 3.2 has none; the file is written whole when the engine quits
		log_file.flush()

func _wait(seconds):
	yield(get_tree().create_timer(seconds), "timeout")

# trace.gd calls this from each RPC of the project as it runs
func got(node, method, args):
	_log(_with_args({"event": "rpc_received", "by": get_tree().get_network_unique_id(),
		"from": get_tree().get_rpc_sender_id(), "path": _path(node), "method": method}, args))

func _path(node):
	return str(get_tree().root.get_path_to(node))

func _with_args(d, args):
	d["args"] = var2bytes(args).hex_encode()
	d["text"] = var2str(args)
	var each = []
	for a in args:
		var e = {"type": typeof(a), "hex": var2bytes(a).hex_encode()}
		each.append(e)
	d["each"] = each
	return d

func _arg(type):
	counter += 1
	match type:
		TYPE_INT: return 40 + counter
		TYPE_REAL: return 0.5 + counter
		TYPE_BOOL: return counter % 2 == 0
		TYPE_STRING: return "s%d" % counter
		TYPE_VECTOR2: return Vector2(counter, -counter)
	return "u%d" % counter  # untyped: a String, so every argument is compared by its bytes

func _project_nodes(node, out):
	if node != self and node.get_script() and node.get_script().resource_path.begins_with("res://"):
		out.append(node)
	for c in node.get_children():
		_project_nodes(c, out)

func _run():
	var t = 0.0
	while get_tree().get_network_connected_peers().size() == 0 and t < 20.0:
		yield(_wait(0.1), "completed")
		t += 0.1
	yield(_wait(1.0), "completed")
	var driver = _driver(get_tree().root)
	if driver:  # a project node that makes its own calls (conformance/projects/typed3)
		yield(driver.gdwire_drive(self, role), "completed")
		yield(_wait(2.0), "completed")
		_log({"event": "quit"})
		get_tree().quit()
		return
	var nodes = []
	_project_nodes(get_tree().root, nodes)
	var paths = []
	for n in nodes:
		paths.append(_path(n))
	paths.sort()
	for path in paths:
		var node = get_tree().root.get_node(path)
		var names = {}
		for m in node.get_script().get_script_method_list():
			if not m["name"].begins_with("_") and not names.has(m["name"]):
				names[m["name"]] = m
		var sorted = names.keys()
		sorted.sort()
		for name in sorted:
			var args = []
			for a in names[name]["args"]:
				args.append(_arg(a["type"]))
			_log(_with_args({"event": "rpc_sent", "from": get_tree().get_network_unique_id(), "to": 0, "path": path, "method": name}, args))
			node.callv("rpc", [name] + args)
			yield(_wait(0.03), "completed")
		var vars = []
		for p in node.get_script().get_script_property_list():
			if p["usage"] & PROPERTY_USAGE_SCRIPT_VARIABLE:
				vars.append(p["name"])
		vars.sort()
		for v in vars:
			var value = _arg(typeof(node.get(v)))
			_log({"event": "rset_sent", "from": get_tree().get_network_unique_id(), "to": 0, "path": path, "property": v,
				"hex": var2bytes(value).hex_encode(), "text": var2str(value)})
			node.rset(v, value)
			yield(_wait(0.03), "completed")
	yield(_wait(2.0), "completed")
	_log({"event": "quit"})
	get_tree().quit()

func _driver(node):
	if node != self and node.has_method("gdwire_drive"):
		return node
	for c in node.get_children():
		var d = _driver(c)
		if d:
			return d
	return null

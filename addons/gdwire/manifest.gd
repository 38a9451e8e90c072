# SPDX-License-Identifier: MIT
# manifest.gd — the RPC manifest a running Godot 4 game actually holds, as JSON in the form of
# docs/rpc-manifest.md ("source": "engine"): every node under a root that has an RPC config, as the
# engine gives it (Node.get_node_rpc_config(), then Script.get_rpc_config(): rpc_config() calls made at
# run time included), each RPC method's declared arguments (Script.get_script_method_list()), every
# MultiplayerSynchronizer's replication config and every MultiplayerSpawner's spawnable scenes.
#
#   const Manifest = preload("res://addons/gdwire/manifest.gd")
#   Manifest.write(get_tree().root, "user://rpc-manifest.json")
#
# It dumps the engine's configuration and computes nothing from it: every method `id`, every node `md5`
# and every synchronizer list index is null here (gdwire computes them; the wire is what both are held
# against: conformance/projects/README.md). The RPCs of a node are in the order the engine's
# dictionaries hold them: the node's own config, then the script's, each in declaration order (a base
# script's first), not in id order. Each keeps the engine's dictionary as it is ("config").
# Node paths are relative to ROOT, as SceneMultiplayer names them on the wire when ROOT is its
# root_path (/root by default).
extends RefCounted

const FORMAT := "gdwire-rpc-manifest"
const VERSION := 1
const MODE_NAMES := {MultiplayerAPI.RPC_MODE_DISABLED: "disabled", MultiplayerAPI.RPC_MODE_ANY_PEER: "any_peer",
	MultiplayerAPI.RPC_MODE_AUTHORITY: "authority"}
const TRANSFER_NAMES := {MultiplayerPeer.TRANSFER_MODE_UNRELIABLE: "unreliable",
	MultiplayerPeer.TRANSFER_MODE_UNRELIABLE_ORDERED: "unreliable_ordered", MultiplayerPeer.TRANSFER_MODE_RELIABLE: "reliable"}
const REPLICATION_NAMES := {SceneReplicationConfig.REPLICATION_MODE_NEVER: "never",
	SceneReplicationConfig.REPLICATION_MODE_ALWAYS: "always", SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE: "on_change"}

# The manifest of every node under ROOT, as a Dictionary ready for JSON.stringify.
static func dump(root: Node) -> Dictionary:
	var found := {"nodes": [], "synchronizers": [], "spawners": []}
	_walk(root, root, found)
	for list in found.values():
		list.sort_custom(func(a, b): return a["path"] < b["path"])
	var v := Engine.get_version_info()
	var main_scene = ProjectSettings.get_setting("application/run/main_scene", "")
	return {"format": FORMAT, "version": VERSION, "source": "engine",
		"generator": "gdwire addon %d / Godot %s" % [VERSION, v.string], "godot": v.major,
		"project": {"name": ProjectSettings.get_setting("application/config/name", ""),
			"main_scene": main_scene if main_scene != "" else null, "dir": null},
		"nodes": found.nodes, "synchronizers": found.synchronizers, "spawners": found.spawners, "problems": []}

static func write(root: Node, file_path: String) -> Error:
	var f := FileAccess.open(file_path, FileAccess.WRITE)
	if f == null:
		return FileAccess.get_open_error()
	f.store_string(JSON.stringify(dump(root), " ", false) + "\n")
	f.close()
	return OK

static func _walk(node: Node, root: Node, found: Dictionary) -> void:
	var path := String(root.get_path_to(node))
	var script: Script = node.get_script()
	var node_config = node.get_node_rpc_config()
	var script_config = script.get_rpc_config() if script else null
	if _has_entries(node_config) or _has_entries(script_config):
		var reasons := []
		if _has_entries(node_config):
			reasons.append("Node.rpc_config() at run time: " + ", ".join(node_config.keys().map(func(k): return String(k))))
		found.nodes.append({"path": path, "origin": "runtime", "scene": null,
			"script": script.resource_path if script else null,
			"class_name": _global_name(script), "class": node.get_class(), "md5": null,
			"dynamic": _has_entries(node_config), "dynamic_reasons": reasons,
			"rpcs": _rpcs(node_config, "node", script) + _rpcs(script_config, "script", script)})
	if node is MultiplayerSynchronizer:
		found.synchronizers.append(_synchronizer(node, path))
	if node is MultiplayerSpawner:
		var scenes := []
		for i in node.get_spawnable_scene_count():
			scenes.append(node.get_spawnable_scene(i))
		found.spawners.append({"path": path, "spawn_path": String(node.spawn_path), "scenes": scenes, "scene": null,
			"spawn_function": node.spawn_function.is_valid()})
	for child in node.get_children():
		_walk(child, root, found)

static func _has_entries(config) -> bool:
	return typeof(config) == TYPE_DICTIONARY and not config.is_empty()

static func _global_name(script: Script):
	if script == null or String(script.get_global_name()) == "":
		return null
	return String(script.get_global_name())

# One entry a method of CONFIG, in the engine dictionary's order. The named fields read the dictionary with
# the defaults SceneRPCInterface::_parse_rpc_config applies (modules/multiplayer/scene_rpc_interface.cpp:90-93
# at 4.6.3-stable); "config" is the dictionary as the engine holds it (a key @rpc did not name is absent).
static func _rpcs(config, from: String, script: Script) -> Array:
	var out := []
	if not _has_entries(config):
		return out
	for name in config.keys():
		var c: Dictionary = config[name]
		var raw := {}
		for k in c.keys():
			raw[String(k)] = c[k]
		var mode := int(c.get("rpc_mode", MultiplayerAPI.RPC_MODE_AUTHORITY))
		var transfer := int(c.get("transfer_mode", MultiplayerPeer.TRANSFER_MODE_RELIABLE))
		out.append({"id": null, "name": String(name), "from": from,
			"mode": MODE_NAMES.get(mode, str(mode)), "call_local": bool(c.get("call_local", false)),
			"transfer_mode": TRANSFER_NAMES.get(transfer, str(transfer)), "channel": int(c.get("channel", 0)),
			"args": _args(script, String(name)), "declared_at": null, "config": raw})
	return out

# The declared parameters of the script's method NAME (its most derived definition: get_script_method_list
# lists the script's own methods before its base's), each type null when untyped, "default": true on those with a
# default value; [] when the script has no such method (an rpc_config() for a method the node lacks).
static func _args(script: Script, name: String) -> Array:
	if script == null:
		return []
	for m in script.get_script_method_list():
		if m["name"] != name:
			continue
		var args := []
		# the last default_args.size() parameters have defaults: a call may leave them out
		var first_default: int = m["args"].size() - m.get("default_args", []).size()
		for a in m["args"]:
			var t = null
			if a["type"] == TYPE_OBJECT and String(a["class_name"]) != "":
				t = String(a["class_name"])
			elif a["type"] != TYPE_NIL:
				t = type_string(a["type"])
			var arg := {"name": String(a["name"]), "type": t}
			if args.size() >= first_default:
				arg["default"] = true
			args.append(arg)
		return args
	return []

static func _synchronizer(sync: MultiplayerSynchronizer, path: String) -> Dictionary:
	var props := []
	var cfg := sync.replication_config
	if cfg:
		for p in cfg.get_properties():
			var mode := cfg.property_get_replication_mode(p)
			props.append({"path": String(p), "spawn": cfg.property_get_spawn(p),
				"replication_mode": REPLICATION_NAMES.get(mode, str(mode)),
				"spawn_index": null, "sync_index": null, "watch_index": null, "delta_bit": null})
	return {"path": path, "root_path": String(sync.root_path), "scene": null, "properties": props,
		"config": cfg.resource_path if cfg else null}

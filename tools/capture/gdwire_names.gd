# SPDX-License-Identifier: MIT
# gdwire_names.gd — write the file `gdwire capture --names FILE` reads: the method name of every RPC
# id of every node under a root, as a running Godot 4 game numbers them (docs/capture.md).
#
#   var names = load("res://gdwire_names.gd")
#   names.write(get_tree().root, "user://names.tsv")   # once every node with RPCs is in the tree
#
# SceneMultiplayer numbers a node's RPC methods by their place in the sorted list of its
# script's RPC names (modules/multiplayer/scene_rpc_interface.cpp, _parse_rpc_config); a method the
# node itself configures with rpc_config() gets bit 15. Godot 4.3 sorts the names as StringNames
# (names.sort(), an order that is not alphabetical and may differ between runs: godotengine/godot
# issue 95753), later releases as text (StringLikeVariantOrder; measured on 4.6.3: alphabetical), so
# this sorts them as the running engine does. Paths are relative to the
# multiplayer root, as they travel on the wire. Lines: rpc<TAB>node path<TAB>id<TAB>name.
extends RefCounted

static func lines_for(node: Node, root: Node) -> PackedStringArray:
	var out := PackedStringArray()
	var path := String(root.get_path_to(node))
	var groups := [[node.get_node_rpc_config(), 1 << 15]]
	if node.get_script():
		groups.append([node.get_script().get_rpc_config(), 0])
	for g in groups:
		var config = g[0]
		if typeof(config) != TYPE_DICTIONARY or config.is_empty():
			continue
		var names: Array = config.keys()
		if Engine.get_version_info().hex >= 0x040400:
			names = names.map(func(n): return String(n))
		names.sort()
		for i in names.size():
			out.append("rpc\t%s\t%d\t%s" % [path, i | g[1], String(names[i])])
	for child in node.get_children():
		out.append_array(lines_for(child, root))
	return out

static func write(root: Node, file_path: String) -> Error:
	var f := FileAccess.open(file_path, FileAccess.WRITE)
	if f == null:
		return FileAccess.get_open_error()
	f.store_line("# gdwire capture --names: rpc<TAB>node path<TAB>method id<TAB>name (tools/capture/gdwire_names.gd)")
	for line in lines_for(root, root):
		f.store_line(line)
	return OK

# SPDX-License-Identifier: MIT
# The gdwire autoload (added by the plugin): writes the manifest (manifest.gd) when the game is
# started with the user argument --gdwire-manifest=PATH, once the scene tree has settled
# (--gdwire-manifest-delay=SECONDS, default 1); without that argument it does nothing. It has no
# RPCs and sends nothing, so it changes nothing on the wire.
extends Node

const Manifest := preload("res://addons/gdwire/manifest.gd")

func _ready() -> void:
	var path := ""
	var delay := 1.0
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--gdwire-manifest="):
			path = a.trim_prefix("--gdwire-manifest=")
		elif a.begins_with("--gdwire-manifest-delay="):
			delay = float(a.trim_prefix("--gdwire-manifest-delay="))
	if path == "":
		return
	await get_tree().create_timer(delay).timeout
	write(path)

# Write the manifest of the whole tree, paths relative to the multiplayer root.
func write(path: String) -> Error:
	var root: Node = get_tree().root
	var root_path = multiplayer.get("root_path") if multiplayer else null  # SceneMultiplayer's
	if root_path is NodePath and not root_path.is_empty():
		root = root.get_node(root_path)
	var err := Manifest.write(root, path)
	if err != OK:
		push_error("gdwire: cannot write %s: %s" % [path, error_string(err)])
	return err

# SPDX-License-Identifier: MIT
# The editor side of the gdwire addon: enabling it adds the GdwireManifest autoload (autoload.gd),
# disabling it removes it.
@tool
extends EditorPlugin

const AUTOLOAD := "GdwireManifest"

func _enable_plugin() -> void:
	add_autoload_singleton(AUTOLOAD, "res://addons/gdwire/autoload.gd")

func _disable_plugin() -> void:
	remove_autoload_singleton(AUTOLOAD)

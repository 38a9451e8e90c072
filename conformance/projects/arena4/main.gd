# The main scene's root.
extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer", "call_remote")
func chat(text: String) -> void:
	Trace.got(self, "chat", [text])

@rpc("authority", "call_local", "reliable")
func start_round(n: int, map_name) -> void:
	Trace.got(self, "start_round", [n, map_name])

func _ready() -> void:
	pass

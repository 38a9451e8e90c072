extends Node2D

const Trace = preload("res://trace.gd")

@rpc("any_peer", "unreliable")
func push(dir: Vector2) -> void:
	Trace.got(self, "push", [dir])

@rpc
func open() -> void:
	Trace.got(self, "open", [])

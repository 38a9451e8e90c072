extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer")
func tick(n: int) -> void:
	Trace.got(self, "tick", [n])

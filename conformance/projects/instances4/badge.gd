extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer")
func shine() -> void:
	Trace.got(self, "shine", [])

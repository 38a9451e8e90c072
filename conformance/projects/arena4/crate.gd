# A second spawnable scene's script.
extends Node2D

const Trace = preload("res://trace.gd")

@rpc("any_peer", "call_remote", "unreliable_ordered", 3)
func push(dir: Vector2) -> void:
	Trace.got(self, "push", [dir])

@rpc
func break_open() -> void:
	Trace.got(self, "break_open", [])

@rpc("call_remote")
func settle() -> void:
	Trace.got(self, "settle", [])

@rpc("unreliable")
func wobble(amount) -> void:
	Trace.got(self, "wobble", [amount])

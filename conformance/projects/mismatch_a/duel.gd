# The node whose RPC list differs between the two sides of the pair.
extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer")
func hit(amount: int) -> void:
	Trace.got(self, "hit", [amount])

@rpc("any_peer")
func heal(amount: int) -> void:
	Trace.got(self, "heal", [amount])

@rpc("any_peer", "call_local")
func taunt(text: String) -> void:
	Trace.got(self, "taunt", [text])

@rpc("any_peer", "unreliable")
func zap() -> void:
	Trace.got(self, "zap", [])

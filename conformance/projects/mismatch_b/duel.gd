# The node whose RPC list differs between the two sides of the pair: this side has absorb, which sorts
# first, so every other method's id is one more than in mismatch_a.
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

@rpc("any_peer")
func absorb(amount: int) -> void:
	Trace.got(self, "absorb", [amount])

# A node the same on both sides, with a replicated clock and phase.
extends Node

const Trace = preload("res://trace.gd")

var clock := 0.0
var phase := "warmup"

@rpc("any_peer")
func whistle(n: int) -> void:
	Trace.got(self, "whistle", [n])

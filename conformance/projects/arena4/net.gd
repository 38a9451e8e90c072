# A script autoload (/root/Net) with RPCs.
extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer", "call_remote", "reliable")
func announce(who: String, level: int) -> void:
	Trace.got(self, "announce", [who, level])

@rpc
func kick(reason) -> void:
	Trace.got(self, "kick", [reason])

func _ready() -> void:
	pass

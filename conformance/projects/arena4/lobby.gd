# The root of a scene autoload (/root/Lobby).
extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer", "reliable")
func ready_up(flag: bool) -> void:
	Trace.got(self, "ready_up", [flag])

@rpc("authority", "call_local")
func countdown(seconds: int) -> void:
	Trace.got(self, "countdown", [seconds])

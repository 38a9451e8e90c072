# A child of the scene autoload (/root/Lobby/Chat).
extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer", "unreliable_ordered")
func say(text: String, color: Color) -> void:
	Trace.got(self, "say", [text, color])

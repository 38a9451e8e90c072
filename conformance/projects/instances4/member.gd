extends Node

const Trace = preload("res://trace.gd")

@rpc("any_peer")
func wave() -> void:
	Trace.got(self, "wave", [])

@rpc("authority", "unreliable_ordered")
func report(text: String) -> void:
	Trace.got(self, "report", [text])

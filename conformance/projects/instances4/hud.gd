extends CanvasLayer

const Trace = preload("res://trace.gd")

@rpc("any_peer")
func toast(text: String) -> void:
	Trace.got(self, "toast", [text])

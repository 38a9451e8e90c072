# The script of elite.tscn, a scene that inherits crate.tscn.
extends "res://crate.gd"

@rpc("any_peer", "call_remote", "reliable", 1)
func glow(color: Color) -> void:
	Trace.got(self, "glow", [color])

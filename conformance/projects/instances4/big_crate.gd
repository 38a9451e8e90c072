# Set on an instance of crate.tscn in world.tscn, in place of the scene's crate.gd.
extends "res://crate.gd"

@rpc("any_peer", "call_local")
func crush(force: float) -> void:
	Trace.got(self, "crush", [force])

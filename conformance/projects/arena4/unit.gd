# class_name Unit, built on base.gd by path.
class_name Unit
extends "res://base.gd"

# an override of an RPC with @rpc of its own: its config replaces the base's (any_peer, call_local, channel 2)
@rpc("reliable", "call_local", "any_peer", 2)
func hit(amount: int) -> void:
	Trace.got(self, "hit", [amount])

# an override without @rpc: still an RPC, with the base's config (any_peer)
func heal(amount) -> void:
	Trace.got(self, "heal", [amount])

@rpc("unreliable", "any_peer")
func move_to(pos: Vector2, speed: float) -> void:
	Trace.got(self, "move_to", [pos, speed])

func not_an_rpc() -> void:
	pass

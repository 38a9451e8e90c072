# class_name Unit, built on base.gd by path.
class_name Unit
extends "res://base.gd"

# an override with a keyword of its own: remote instead of the base's master
remote func hit(amount: int):
	Trace.got(self, "hit", [amount])

# an override without a keyword: the base's mode (remote) still holds (GDScriptInstance::get_rpc_mode walks the bases)
func heal(amount):
	Trace.got(self, "heal", [amount])

mastersync func rally():
	Trace.got(self, "rally", [])

puppetsync func place(pos: Vector2):
	Trace.got(self, "place", [pos])

func not_an_rpc():
	pass

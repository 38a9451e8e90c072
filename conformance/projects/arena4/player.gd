# The spawned player: extends the class_name Unit. Declared in an order unlike the sorted one:
# sorted by code point, "Zeta" < "_sync_state" < "aim" < "emote" < "heal" < "hit" < "move_to" < "zap".
extends Unit

var team := "red"
var score := 0
var label := ""

@rpc("authority", "call_remote", "unreliable_ordered", 1)
func emote(id: int, text: String = "hi") -> void:
	Trace.got(self, "emote", [id, text])

@rpc("any_peer", "unreliable")
func aim(dir) -> void:
	Trace.got(self, "aim", [dir])

@rpc("any_peer", "call_remote", "reliable", 0)
func Zeta(a, b: int, c: String) -> void:
	Trace.got(self, "Zeta", [a, b, c])

@rpc("authority", "unreliable")
func _sync_state(state: Dictionary) -> void:
	Trace.got(self, "_sync_state", [state])

func _process(_delta: float) -> void:
	pass

# A node that configures an RPC at run time: rpc_config() gives "boost" (declared without @rpc) a node
# config, whose id has bit 15; "ping" is a script RPC as usual.
extends Node

const Trace = preload("res://trace.gd")

func _init() -> void:
	rpc_config("boost", {"rpc_mode": MultiplayerAPI.RPC_MODE_ANY_PEER,
		"transfer_mode": MultiplayerPeer.TRANSFER_MODE_UNRELIABLE, "call_local": false, "channel": 4})

func boost(power: float) -> void:
	Trace.got(self, "boost", [power])

@rpc("any_peer")
func ping(n: int) -> void:
	Trace.got(self, "ping", [n])

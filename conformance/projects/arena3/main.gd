# The main scene's root; "shout" is made an RPC at run time (Node.rpc_config).
extends Node

const Trace = preload("res://trace.gd")

func _init():
	rpc_config("shout", MultiplayerAPI.RPC_MODE_REMOTE)

remote func chat(text: String):
	Trace.got(self, "chat", [text])

func shout(text):
	Trace.got(self, "shout", [text])

master func start_round(n: int):
	Trace.got(self, "start_round", [n])

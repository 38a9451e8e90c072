# SPDX-License-Identifier: MIT
# The node every peer of a Godot 3 session has at /root/Game (session3.gd): its RPCs and its
# remote property log what arrived, as the engine gives it to the script.
extends Node

var logger  # session3.gd
remote var hp = 0 setget _set_hp

func _set_hp(v):
	hp = v
	logger._got("hp", [v], get_tree().get_rpc_sender_id())

remote func nothing():
	logger._got("nothing", [], get_tree().get_rpc_sender_id())

remote func one(v):
	logger._got("one", [v], get_tree().get_rpc_sender_id())

remote func three(a, b, c):
	logger._got("three", [a, b, c], get_tree().get_rpc_sender_id())

remote func blob(b):
	logger._got("blob", [b], get_tree().get_rpc_sender_id())

remote func fast(v):
	logger._got("fast", [v], get_tree().get_rpc_sender_id())

# SPDX-License-Identifier: MIT
# The node every peer of a Godot 4 session has at /root/Game (session4.gd): its RPCs log what
# arrived, as the engine gives it to the script, so a capture can be held against both ends.
extends Node

var on_receive: Callable  # session4.gd's logger

func _got(method: String, args: Array) -> void:
	on_receive.call(method, multiplayer.get_remote_sender_id(), args)

@rpc("any_peer", "call_remote", "reliable")
func nothing() -> void:
	_got("nothing", [])

@rpc("any_peer", "call_remote", "reliable")
func one(v) -> void:
	_got("one", [v])

@rpc("any_peer", "call_remote", "reliable")
func three(a, b, c) -> void:
	_got("three", [a, b, c])

@rpc("any_peer", "call_remote", "reliable")
func blob(b: PackedByteArray) -> void:
	_got("blob", [b])

@rpc("any_peer", "call_remote", "unreliable")
func fast(v) -> void:
	_got("fast", [v])

@rpc("any_peer", "call_remote", "unreliable_ordered", 2)
func ordered(v, n) -> void:
	_got("ordered", [v, n])

@rpc("any_peer", "call_remote", "reliable", 3)
func on_channel(v) -> void:
	_got("on_channel", [v])

@rpc("any_peer", "call_remote", "unreliable")
func big_unreliable(v) -> void:
	_got("big_unreliable", [v])

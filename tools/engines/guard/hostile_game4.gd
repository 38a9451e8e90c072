# SPDX-License-Identifier: MIT
# /root/Game of the hostile-client runs (hostile4.gd): typed and untyped RPCs, each logging what the
# engine ran. Godot 4 numbers RPCs by sorted name: any 0, blob 1, ping 2, typed 3, zfast 4
# (hostile_client.c relies on that order).
extends Node

var on_run: Callable  # hostile4.gd's logger

@rpc("any_peer", "call_remote", "reliable")
func any(v) -> void:
	on_run.call("any", [v])

@rpc("any_peer", "call_remote", "reliable")
func blob(b: PackedByteArray) -> void:
	on_run.call("blob", [b])

@rpc("any_peer", "call_remote", "reliable")
func ping(n) -> void:
	on_run.call("ping", [n])

@rpc("any_peer", "call_remote", "reliable")
func typed(a: int, b: String) -> void:
	on_run.call("typed", [a, b])

@rpc("any_peer", "call_remote", "unreliable")
func zfast(v) -> void:
	on_run.call("zfast", [v])

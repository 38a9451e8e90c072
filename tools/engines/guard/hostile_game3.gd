# SPDX-License-Identifier: MIT
# /root/Game of the Godot 3 hostile-client runs (hostile3.gd): typed and untyped remote functions,
# each logging what the engine ran.
extends Node

var logger  # hostile3.gd

remote func any(v):
	logger.on_run("any", [v])

remote func blob(b: PoolByteArray):
	logger.on_run("blob", [b])

remote func ping(n):
	logger.on_run("ping", [n])

remote func typed(a: int, b: String):
	logger.on_run("typed", [a, b])

remote func zfast(v):
	logger.on_run("zfast", [v])

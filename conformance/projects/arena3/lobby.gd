# The root of a scene autoload (/root/Lobby).
extends Node

const Trace = preload("res://trace.gd")

remotesync func ready_up(flag: bool):
	Trace.got(self, "ready_up", [flag])

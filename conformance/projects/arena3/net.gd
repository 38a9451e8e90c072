# A script autoload (/root/Net).
extends Node

const Trace = preload("res://trace.gd")

remote func announce(who: String, level: int):
	Trace.got(self, "announce", [who, level])

puppet func kick(reason):
	Trace.got(self, "kick", [reason])

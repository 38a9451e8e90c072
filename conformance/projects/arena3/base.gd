# A base script by path (extends "res://base.gd" in unit.gd).
extends Node2D

const Trace = preload("res://trace.gd")

remote func heal(amount):
	Trace.got(self, "heal", [amount])

master func hit(amount: int):
	Trace.got(self, "hit", [amount])

puppet func zap():
	Trace.got(self, "zap", [])

remotesync func cheer(text: String):
	Trace.got(self, "cheer", [text])

# not an RPC
func helper(x: int) -> int:
	return x + 1

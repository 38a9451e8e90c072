# A base script by path (extends "res://base.gd" in unit.gd): its RPCs count in every script built on it.
extends Node2D

const Trace = preload("res://trace.gd")

var hp := 100

# no arguments: authority, call_remote, reliable, channel 0
@rpc
func hit(amount: int) -> void:
	Trace.got(self, "hit", [amount])

@rpc("any_peer")
func heal(amount) -> void:
	Trace.got(self, "heal", [amount])

@rpc("call_local", "any_peer")
func zap() -> void:
	Trace.got(self, "zap", [])

# not an RPC
func helper(x: int) -> int:
	return x + 1

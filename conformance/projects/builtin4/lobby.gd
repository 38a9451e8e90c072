# SPDX-License-Identifier: MIT
extends Node

const Trace := preload("res://trace.gd")

@rpc("any_peer", "reliable")
func say(text: String, loud: bool = false, times := 1) -> void:
	Trace.ran(self, "say", [text, loud, times])

@rpc
func kick(reason: String = "") -> void:
	Trace.ran(self, "kick", [reason])

# parameters typed by their defaults (`:=`): the engine's dump says each type
@rpc("any_peer")
func tune(a := 1.5, b := "s", c := &"n", d := ^"p", e := true, f := [], g := {}, h := Vector2(1, 2), i := 0x1E, k := -2) -> void:
	Trace.ran(self, "tune", [a, b, c, d, e, f, g, h, i, k])

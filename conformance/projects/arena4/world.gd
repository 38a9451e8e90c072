# A node in the main scene whose properties a MultiplayerSynchronizer (not spawned) replicates.
extends Node2D

var time_of_day := 0.0
var weather := "clear"
var wind := Vector2.ZERO

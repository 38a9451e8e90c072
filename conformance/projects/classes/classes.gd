# SPDX-License-Identifier: MIT
# The engine's classes (ClassDB.get_class_list()), sorted, one a line: godot --headless --script classes.gd (Godot 4),
# or --no-window (Godot 3). Its output is conformance/projects/classes/godotX.txt, from which project/classes_to_c.py
# makes project/engine_classes.c.
# The same text runs under Godot 3 and 4.
extends SceneTree
func _init():
	var names = Array(ClassDB.get_class_list())
	names.sort()
	for n in names:
		print(n)
	quit()

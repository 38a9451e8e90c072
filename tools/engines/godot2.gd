# SPDX-License-Identifier: MIT
# godot2.gd — the Godot 2 driver of tools/engines/testee.py (the mole rows' engines, at
# $GDW_ENGINES/built/NAME/engine: tools/engines/README.md). It does what godot3.gd does, with Godot 2's names: the version from
# OS.get_engine_version(), Marshalls.base64_to_variant(str) (2.x has no allow_objects: its
# decode_variant reads an Object as a null Object whatever the packet holds, core/io/marshalls.cpp
# OBJECT case) and var2bytes. Input: $GDW_IN, lines "index<TAB>base64<TAB>objects(0/1)"; every line
# written starts with $GDW_MARK (testee.py). For each packet it prints the marker "@@MARK:index",
# decodes, and prints
#   R<TAB>index<TAB>typeof<TAB>base64 of var2bytes(value)<TAB>
# all on stdout, where Godot 2 also prints its errors: a failed decode shows only there, between
# the packet's marker and its answer (base64_to_variant's "Condition ' err!=OK ' is true").
extends SceneTree

var mark = OS.get_environment("GDW_MARK")

func _init():
	# 2.0 has no OS.get_engine_version: testee.py then takes the version from the engine's --help
	if OS.has_method("get_engine_version"):
		print(mark + "\tV\t" + OS.get_engine_version()["string"])
	else:
		print(mark + "\tV\t")
	var f = File.new()
	if f.open(OS.get_environment("GDW_IN"), File.READ) != OK:
		printerr("godot2.gd: cannot open $GDW_IN")
		quit()
		return
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		print("@@" + mark + ":" + parts[0])  # stdout: where Godot 2 prints its errors
		var v = Marshalls.base64_to_variant(parts[1])
		print(mark + "\tR\t" + parts[0] + "\t" + str(typeof(v)) + "\t" + Marshalls.raw_to_base64(var2bytes(v)) + "\t")
	f.close()
	print("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()

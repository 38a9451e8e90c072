# SPDX-License-Identifier: MIT
# godot2.gd — the Godot 2 driver of tools/engines/testee.py (the mole rows' engines, which
# tools/engines/build makes). It does what godot3.gd does, with Godot 2's names: the version from
# OS.get_engine_version(), Marshalls.base64_to_variant(str) (2.x has no allow_objects: its
# decode_variant reads an Object as a null Object whatever the packet holds, core/io/marshalls.cpp
# OBJECT case) and var2bytes. Input: $GDW_IN, lines "index<TAB>base64<TAB>objects(0/1)"; every line
# written starts with $GDW_MARK (testee.py). For each packet it writes the marker "@@MARK:index"
# on stderr, decodes, and prints on stdout
#   R<TAB>index<TAB>typeof<TAB>base64 of var2bytes(value)<TAB>
# A failed decode shows only on stderr (base64_to_variant's "Condition ' err!=OK ' is true").
extends SceneTree

var mark = OS.get_environment("GDW_MARK")

func _init():
	print(mark + "\tV\t" + OS.get_engine_version()["string"])
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
		printerr("@@" + mark + ":" + parts[0])
		var v = Marshalls.base64_to_variant(parts[1])
		print(mark + "\tR\t" + parts[0] + "\t" + str(typeof(v)) + "\t" + Marshalls.raw_to_base64(var2bytes(v)) + "\t")
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()

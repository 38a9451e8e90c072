# SPDX-License-Identifier: MIT
# godot4.gd — the Godot 4 driver of tools/engines/testee.py.
# Input: the file named by $GDW_IN, lines "index<TAB>base64<TAB>objects(0/1)".
# Every line it writes starts with $GDW_MARK, a random word testee.py makes for each run, so
# that no text a packet makes the engine print (a class name holding a line break) can pass for
# one of them (issue 34). It prints "V<TAB>version" first; then, for each packet, writes the
# marker "@@MARK:index" to stderr
# and asks the engine's own decoder: PackedByteArray.decode_var_size(0, allow_objects) is the
# length decode_variant consumed, and 0 exactly when it failed (a valid packet has at least 4
# bytes), so a Nil packet and an error are told apart without reading stderr. It prints
#   R<TAB>index<TAB>consumed<TAB>typeof<TAB>base64 of the re-encoding<TAB>object id
# with consumed 0 for a rejected packet (the engine's Error is in the stderr text after the
# marker). The re-encoding is var_to_bytes (var_to_bytes_with_objects when objects are allowed);
# for an EncodedObjectAsID the object id is printed, since var_to_bytes would write the
# wrapper's own id; for EncodedObjectAsIDs inside Arrays and Dictionaries (keys too), the pairs
# "wrapper_id=carried_id" separated by commas, and testee.py writes each carried id where the
# engine wrote its wrapper's.
extends SceneTree

var mark = OS.get_environment("GDW_MARK")

func _init():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	var f = FileAccess.open(OS.get_environment("GDW_IN"), FileAccess.READ)
	if f == null:
		printerr("godot4.gd: cannot open $GDW_IN")
		quit()
		return
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		printerr("@@" + mark + ":" + parts[0])
		var b = Marshalls.base64_to_raw(parts[1])
		var objects = parts[2] == "1"
		var n = b.decode_var_size(0, objects)
		if n == 0:
			print(mark + "\tR\t%s\t0\t\t\t" % parts[0])
			continue
		var v = b.decode_var(0, objects)
		var objid = ""
		if v is EncodedObjectAsID:
			objid = str(v.get_object_id())
		elif typeof(v) == TYPE_ARRAY or typeof(v) == TYPE_DICTIONARY:
			var pairs = []
			_wrapped_ids(v, pairs)
			objid = ",".join(pairs)
		var enc = var_to_bytes_with_objects(v) if objects else var_to_bytes(v)
		print(mark + "\tR\t%s\t%d\t%d\t%s\t%s" % [parts[0], n, typeof(v), Marshalls.raw_to_base64(enc), objid])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()


# The EncodedObjectAsIDs inside v, as "wrapper_instance_id=carried_id" strings.
func _wrapped_ids(v, pairs):
	var items = []
	if typeof(v) == TYPE_ARRAY:
		items = v
	elif typeof(v) == TYPE_DICTIONARY:
		for k in v:
			items.append(k)
			items.append(v[k])
	for x in items:
		if x is EncodedObjectAsID:
			pairs.append("%d=%d" % [x.get_instance_id(), x.get_object_id()])
		elif typeof(x) == TYPE_ARRAY or typeof(x) == TYPE_DICTIONARY:
			_wrapped_ids(x, pairs)

# SPDX-License-Identifier: MIT
# godot3.gd — the Godot 3 driver of tools/engines/testee.py (Godot 3.2.3 and 3.6.2).
# Input: the file named by $GDW_IN, lines "index<TAB>base64<TAB>objects(0/1)".
# Every line it writes starts with $GDW_MARK, a random word testee.py makes for each run, so
# that no text a packet makes the engine print (a class name holding a line break) can pass for
# one of them (issue 34). It prints "V<TAB>version" first; then, for each packet, writes the
# marker "@@MARK:index" to stderr,
# decodes the packet with Marshalls.base64_to_variant (the engine's decode_variant; unlike
# bytes2var it does not stop the script on bad input) and prints on stdout
#   R<TAB>index<TAB>typeof<TAB>base64 of var2bytes(value)<TAB>object id (EncodedObjectAsID only)
# (for EncodedObjectAsIDs inside Arrays and Dictionaries: "wrapper_id=carried_id" pairs separated
# by commas, as godot4.gd; testee.py writes each carried id where var2bytes wrote its wrapper's)
# The engine reports a failed decode only on stderr ("Error when trying to decode Variant"):
# testee.py reads the stderr text between two markers to tell a null packet from a rejected
# one, and takes the engine's Error ("Returned: ERR_...") from the first error line.
extends SceneTree

var mark = OS.get_environment("GDW_MARK")

func _init():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	var f = File.new()
	if f.open(OS.get_environment("GDW_IN"), File.READ) != OK:
		printerr("godot3.gd: cannot open $GDW_IN")
		quit()
		return
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		printerr("@@" + mark + ":" + parts[0])
		var v = Marshalls.base64_to_variant(parts[1], parts[2] == "1")
		var objid = ""
		if typeof(v) == TYPE_OBJECT and v is EncodedObjectAsID:  # 3.0: "is" on a non-object is a script error
			objid = str(v.get_object_id())
		elif typeof(v) == TYPE_ARRAY or typeof(v) == TYPE_DICTIONARY:
			var pairs = []
			_wrapped_ids(v, pairs)
			objid = PoolStringArray(pairs).join(",")
		print(mark + "\tR\t%s\t%d\t%s\t%s" % [parts[0], typeof(v), Marshalls.raw_to_base64(var2bytes(v)), objid])
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
		if typeof(x) == TYPE_OBJECT and x is EncodedObjectAsID:
			pairs.append("%d=%d" % [x.get_instance_id(), x.get_object_id()])
		elif typeof(x) == TYPE_ARRAY or typeof(x) == TYPE_DICTIONARY:
			_wrapped_ids(x, pairs)

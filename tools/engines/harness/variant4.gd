# SPDX-License-Identifier: MIT
# variant4.gd — the Variant-input harness for Godot 4 (tools/engines/harness/README.md).
# Input: the file named by $GDW_IN, lines "index<TAB>base64". Each input goes to every way a Godot 4 game reads a
# Variant from bytes it did not make; before each, the marker "@@MARK:index:entry" goes to stderr, so that a crash,
# a hang or a sanitizer report is pinned to one input and one entry point. After the last entry of an input it
# prints "MARK<TAB>R<TAB>index" on stdout; at the end "MARK<TAB>DONE". MARK ($GDW_MARK) is a random word
# engine_fuzz.py makes for each run: an input cannot forge a marker (the engine prints text of the input's
# choosing, such as a class name).
# The entries, in order (the names are engine_fuzz.py's):
#   bytes_to_var                  the utility function, objects off
#   bytes_to_var_with_objects     objects on: the engine instantiates the classes the bytes name
#   stream_get_var                StreamPeerBuffer.get_var(): the bytes as a put_var stream (length, then value)
#   file_get_var                  FileAccess.get_var() on a file holding exactly the bytes (store_var's frame)
#   base64_to_variant             Marshalls.base64_to_variant(), objects off
#   str_to_var                    the bytes as UTF-8 text, read as the text form
extends SceneTree

var mark = OS.get_environment("GDW_MARK")
var scratch = OS.get_environment("GDW_SCRATCH")
# GDW_STEER=1 (engine_fuzz.py's default): the two stream entries skip a length prefix of 64 MiB or more. The
# engines allocate whatever length a stream names before reading it, and a length near 2^31 is finding 3
# (docs/engine-findings.md) again, at seconds an input in a sanitizer build: a campaign would do little else.
var steer = OS.get_environment("GDW_STEER") == "1"

func _init():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	var f = FileAccess.open(OS.get_environment("GDW_IN"), FileAccess.READ)
	if f == null:
		printerr("variant4.gd: cannot open $GDW_IN")
		quit(1)
		return
	# one scratch file for every input, opened once (a WRITE open per input writes a temporary file and renames it:
	# it took 80 % of the harness's time)
	FileAccess.open(scratch, FileAccess.WRITE).close()
	var file = FileAccess.open(scratch, FileAccess.READ_WRITE)
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		var b = Marshalls.base64_to_raw(parts[1])
		_entry(parts[0], "bytes_to_var")
		bytes_to_var(b)
		_entry(parts[0], "bytes_to_var_with_objects")
		var v = bytes_to_var_with_objects(b)
		if v is Object and not (v is RefCounted) and is_instance_valid(v):
			v.free()  # a Node or other manually freed Object the bytes made
		var big = steer and b.size() >= 4 and b.decode_u32(0) >= (1 << 26)
		_entry(parts[0], "stream_get_var")
		if not big:
			var s = StreamPeerBuffer.new()
			s.data_array = b
			s.get_var(false)
		_entry(parts[0], "file_get_var")
		if not big:
			file.seek(0)
			file.store_buffer(b)
			file.resize(b.size())  # the file holds exactly the input
			file.seek(0)
			file.get_var(false)
		_entry(parts[0], "base64_to_variant")
		Marshalls.base64_to_variant(parts[1], false)
		_entry(parts[0], "str_to_var")
		str_to_var(b.get_string_from_utf8())
		print(mark + "\tR\t" + parts[0])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()


func _entry(index, name):
	printerr("@@" + mark + ":" + index + ":" + name)

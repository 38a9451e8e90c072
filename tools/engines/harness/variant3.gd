# SPDX-License-Identifier: MIT
# variant3.gd — the Variant-input harness for Godot 3 (tools/engines/harness/README.md): variant4.gd's protocol,
# with Godot 3's names for the same entries:
#   bytes_to_var                  bytes2var(b, false)
#   bytes_to_var_with_objects     bytes2var(b, true)
#   stream_get_var                StreamPeerBuffer.get_var(false)
#   file_get_var                  File.get_var(false) on a file holding the bytes
#   base64_to_variant             Marshalls.base64_to_variant(s, false)
#   str_to_var                    str2var on the bytes as UTF-8 text
# bytes2var on bad bytes is a script error in Godot 3: the engine prints it and leaves the function it was called
# in, so each entry is a function of its own and the loop goes on.
extends SceneTree

var mark = OS.get_environment("GDW_MARK")
var scratch = OS.get_environment("GDW_SCRATCH")
# GDW_STEER=1 (engine_fuzz.py's default): the two stream entries skip a length prefix of 64 MiB or more. The
# engines allocate whatever length a stream names before reading it, and a length near 2^31 is finding 3
# (docs/engine-findings.md) again, at seconds an input in a sanitizer build: a campaign would do little else.
var steer = OS.get_environment("GDW_STEER") == "1"

func _init():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	var f = File.new()
	if f.open(OS.get_environment("GDW_IN"), File.READ) != OK:
		printerr("variant3.gd: cannot open $GDW_IN")
		quit()
		return
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		var b = Marshalls.base64_to_raw(parts[1])
		_entry(parts[0], "bytes_to_var")
		_bytes_to_var(b)
		_entry(parts[0], "bytes_to_var_with_objects")
		_bytes_to_var_with_objects(b)
		var big = steer and b.size() >= 4 and (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) >= (1 << 26)
		_entry(parts[0], "stream_get_var")
		if not big:
			var s = StreamPeerBuffer.new()
			s.data_array = b
			s.get_var(false)
		_entry(parts[0], "file_get_var")
		if not big:
			var w = File.new()
			w.open(scratch, File.WRITE)
			w.store_buffer(b)
			w.close()
			var r = File.new()
			r.open(scratch, File.READ)
			r.get_var(false)
			r.close()
		_entry(parts[0], "base64_to_variant")
		Marshalls.base64_to_variant(parts[1], false)
		_entry(parts[0], "str_to_var")
		str2var(b.get_string_from_utf8())
		print(mark + "\tR\t" + parts[0])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()


func _bytes_to_var(b):
	bytes2var(b, false)


func _bytes_to_var_with_objects(b):
	var v = bytes2var(b, true)
	if v is Object and not (v is Reference) and is_instance_valid(v):
		v.free()  # a Node or other manually freed Object the bytes made


func _entry(index, name):
	printerr("@@" + mark + ":" + index + ":" + name)

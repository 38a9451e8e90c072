# SPDX-License-Identifier: MIT
# files3.gd — files4.gd for Godot 3: File.open_compressed in each mode Godot 3 has (FastLZ, Deflate, Zstd, gzip),
# open_encrypted_with_pass and open_encrypted, each then read with get_var (at most 16 values).
extends SceneTree

const PASSWORD = "gdwire issue 63: Zoë's save ✓"
const KEY_HEX = "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc"
const MODES = {
	"compressed_fastlz": File.COMPRESSION_FASTLZ,
	"compressed_deflate": File.COMPRESSION_DEFLATE,
	"compressed_zstd": File.COMPRESSION_ZSTD,
	"compressed_gzip": File.COMPRESSION_GZIP,
}

var mark = OS.get_environment("GDW_MARK")
var scratch = OS.get_environment("GDW_SCRATCH")


func _init():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	var f = File.new()
	if f.open(OS.get_environment("GDW_IN"), File.READ) != OK:
		printerr("files3.gd: cannot open $GDW_IN")
		quit()
		return
	var key = PoolByteArray()
	for i in range(0, KEY_HEX.length(), 2):
		key.append(("0x" + KEY_HEX.substr(i, 2)).hex_to_int())
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		var w = File.new()
		w.open(scratch, File.WRITE)
		w.store_buffer(Marshalls.base64_to_raw(parts[1]))
		w.close()
		for entry in MODES:
			_entry(parts[0], entry)
			var c = File.new()
			if c.open_compressed(scratch, File.READ, MODES[entry]) == OK:
				_read(c)
		_entry(parts[0], "encrypted_pass")
		var p = File.new()
		if p.open_encrypted_with_pass(scratch, File.READ, PASSWORD) == OK:
			_read(p)
		_entry(parts[0], "encrypted_key")
		var k = File.new()
		if k.open_encrypted(scratch, File.READ, key) == OK:
			_read(k)
		print(mark + "\tR\t" + parts[0])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()


func _read(file):
	var n = 0
	while n < 16 and file.get_position() < file.get_len() and file.get_error() == OK:
		file.get_var(false)
		n += 1
	file.close()


func _entry(index, name):
	printerr("@@" + mark + ":" + index + ":" + name)

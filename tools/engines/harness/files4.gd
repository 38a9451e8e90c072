# SPDX-License-Identifier: MIT
# files4.gd — the compressed- and encrypted-file harness for Godot 4 (tools/engines/harness/README.md): each input is
# a file, written to a scratch path and opened every way a game opens its saves, then read with get_var (at most 16
# values). variant4.gd's protocol: "@@MARK:index:entry" on stderr before each entry, "MARK<TAB>R<TAB>index" after.
# Entries: compressed_fastlz, compressed_deflate, compressed_zstd, compressed_gzip, compressed_brotli
# (FileAccess.open_compressed with that mode), encrypted_pass (open_encrypted_with_pass with the test password of
# conformance/saves/README.md) and encrypted_key (open_encrypted with its test key): a hostile file can declare
# any block size, total size and block table, any length, and the right secret does not make it honest.
extends SceneTree

const PASSWORD = "gdwire issue 63: Zoë's save ✓"
const KEY_HEX = "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc"
const MODES = {
	"compressed_fastlz": FileAccess.COMPRESSION_FASTLZ,
	"compressed_deflate": FileAccess.COMPRESSION_DEFLATE,
	"compressed_zstd": FileAccess.COMPRESSION_ZSTD,
	"compressed_gzip": FileAccess.COMPRESSION_GZIP,
	"compressed_brotli": FileAccess.COMPRESSION_BROTLI,
}

var mark = OS.get_environment("GDW_MARK")
var scratch = OS.get_environment("GDW_SCRATCH")


func _init():
	print(mark + "\tV\t" + Engine.get_version_info().string)
	var f = FileAccess.open(OS.get_environment("GDW_IN"), FileAccess.READ)
	if f == null:
		printerr("files4.gd: cannot open $GDW_IN")
		quit(1)
		return
	var key = KEY_HEX.hex_decode()
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var parts = line.split("\t")
		var w = FileAccess.open(scratch, FileAccess.WRITE)
		w.store_buffer(Marshalls.base64_to_raw(parts[1]))
		w.close()
		for entry in MODES:
			_entry(parts[0], entry)
			_read(FileAccess.open_compressed(scratch, FileAccess.READ, MODES[entry]))
		_entry(parts[0], "encrypted_pass")
		_read(FileAccess.open_encrypted_with_pass(scratch, FileAccess.READ, PASSWORD))
		_entry(parts[0], "encrypted_key")
		_read(FileAccess.open_encrypted(scratch, FileAccess.READ, key))
		print(mark + "\tR\t" + parts[0])
	f.close()
	printerr("@@" + mark + ":done")
	print(mark + "\tDONE")
	quit()


func _read(file):
	if file == null:
		return
	var n = 0
	while n < 16 and file.get_position() < file.get_length() and file.get_error() == OK:
		file.get_var(false)
		n += 1
	file.close()


func _entry(index, name):
	printerr("@@" + mark + ":" + index + ":" + name)

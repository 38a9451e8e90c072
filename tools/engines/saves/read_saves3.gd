# SPDX-License-Identifier: MIT
# Godot 3 reads back a folder of save files (tools/engines/saves/make_saves.sh godot3.6|godot3.2 --read DIR):
#   GDW_SAVES_DIR=DIR [GDW_SAVES_PASSWORD_HEX=UTF-8 HEX] [GDW_SAVES_KEY=HEX] godot3-server --no-window -s read_saves3.gd
# As read_saves4.gd, in Godot 3's API: each file whose name ends in one of SUFFIXES is opened with that
# suffix's call (File.open, open_compressed, open_encrypted_with_pass, open_encrypted), every value read with
# File.get_var until the position reaches the length; one JSON object a line on stdout (`open`, `value` with
# the engine's var2bytes hex and var2str, `end`), "@@read FILE" on stderr before each file.
# The table and the read loop are used by saves3.gd too (one definition).
extends SceneTree

# suffix -> [container, compression mode (-1: none), secret]. Godot 3 has no Brotli (4 is Godot 4's number
# for it) and no IV argument; it reads a file's compression mode from the file itself, so `brotli` and
# `keyiv` files (written by Godot 4) are still opened, to see what it says.
const SUFFIXES = {
	"plain": ["plain", -1, ""],
	"fastlz": ["compressed", File.COMPRESSION_FASTLZ, ""],
	"deflate": ["compressed", File.COMPRESSION_DEFLATE, ""],
	"zstd": ["compressed", File.COMPRESSION_ZSTD, ""],
	"gzip": ["compressed", File.COMPRESSION_GZIP, ""],
	"brotli": ["compressed", 4, ""],
	"pass": ["encrypted", -1, "password"],
	"key": ["encrypted", -1, "key"],
	"keyiv": ["encrypted", -1, "key"]
}
# The test secrets (conformance/saves/README.md); GDW_SAVES_PASSWORD_HEX / GDW_SAVES_KEY replace them.
const PASSWORD = "gdwire issue 63: Zoë's save ✓"
const KEY_HEX = "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc"
const MAX_VALUES = 1000000  # a bound on the loop, whatever the file says

static func suffix_of(file_name):
	return file_name.get_extension()

static func hex_decode(h):  # Godot 3's String has no hex_decode
	var b = PoolByteArray()
	for i in range(0, h.length() - 1, 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b

static func secret(kind):
	if kind == "password":  # as hex of its UTF-8 bytes (Godot 3 reads the environment as Latin-1)
		var p = OS.get_environment("GDW_SAVES_PASSWORD_HEX")
		return hex_decode(p).get_string_from_utf8() if p != "" else PASSWORD
	var k = OS.get_environment("GDW_SAVES_KEY")
	return hex_decode(k if k != "" else KEY_HEX)

static func open_call(suffix):
	var row = SUFFIXES[suffix]
	if row[0] == "plain":
		return "File.open"
	if row[0] == "compressed":
		return "File.open_compressed(%d)" % row[1]
	return "File.open_encrypted_with_pass" if row[2] == "password" else "File.open_encrypted"

# Opens F on PATH by its suffix; returns the engine's error.
static func open_by_suffix(f, path, flags):
	var row = SUFFIXES[suffix_of(path)]
	if row[0] == "plain":
		return f.open(path, flags)
	if row[0] == "compressed":
		return f.open_compressed(path, flags, row[1])
	if row[2] == "password":
		return f.open_encrypted_with_pass(path, flags, secret("password"))
	return f.open_encrypted(path, flags, secret("key"))

static func emit(d):
	print(to_json(d))

static func file_bytes(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return PoolByteArray()
	var b = f.get_buffer(f.get_len())
	f.close()
	return b

# Reads every value of PATH with get_var; emits open / value / end lines; returns the values read. With
# WITH_VALUES false the value lines carry the size of the engine's bytes, not the bytes and text (the caller
# compares them itself: saves3.gd's read-back).
static func read_all(path, phase, with_values = true):
	var name = path.get_file()
	printerr("@@%s %s" % [phase, name])
	var f = File.new()
	var err = open_by_suffix(f, path, File.READ)
	emit({"event": "open", "phase": phase, "file": name, "call": open_call(suffix_of(name)), "error": err})
	var values = []
	if err != OK:
		return values
	var length = f.get_len()
	while f.get_position() < length and values.size() < MAX_VALUES:
		var before = f.get_position()
		var v = f.get_var()
		var b = var2bytes(v)
		var line = {"event": "value", "phase": phase, "file": name, "index": values.size(), "size": b.size(),
			"position": f.get_position(), "file_error": f.get_error()}
		if with_values:
			line["bytes"] = b.hex_encode()
			line["text"] = var2str(v)
		emit(line)
		values.append(v)
		if f.get_position() <= before:
			break
	emit({"event": "end", "phase": phase, "file": name, "values": values.size(), "position": f.get_position(),
		"length": length, "file_error": f.get_error()})
	f.close()
	return values

func _initialize():
	var dir = OS.get_environment("GDW_SAVES_DIR")
	var names = []
	var d = Directory.new()
	if d.open(dir) == OK:
		d.list_dir_begin(true, true)
		var n = d.get_next()
		while n != "":
			if not d.current_is_dir():
				names.append(n)
			n = d.get_next()
		d.list_dir_end()
	names.sort()
	for n in names:
		if SUFFIXES.has(suffix_of(n)):
			read_all(dir.plus_file(n), "read")
	print("DONE")
	quit()

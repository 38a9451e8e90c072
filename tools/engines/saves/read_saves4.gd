# SPDX-License-Identifier: MIT
# Godot 4 reads back a folder of save files (tools/engines/saves/make_saves.sh ENGINE --read DIR):
#   GDW_SAVES_DIR=DIR [GDW_SAVES_PASSWORD_HEX=UTF-8 HEX] [GDW_SAVES_KEY=HEX] godot --headless --path . --script res://read_saves4.gd
# Each file whose name ends in one of SUFFIXES is opened with that suffix's call, and every value is read
# with FileAccess.get_var until the position reaches the length. One JSON object a line on stdout: `open` (the
# call, its error), `value` (the engine's var_to_bytes hex and var_to_str of what get_var returned, the
# position after it), `end` (how many values, position, length). Before each file it writes "@@read FILE" on
# stderr, so the engine's own messages can be told apart per file (saves_log.py). Other files are skipped.
# The table and the read loop are used by saves4.gd too (one definition).
extends SceneTree

# suffix -> [container, compression mode (-1: none), secret]. `keyiv` files are written with a fixed IV
# (Godot 4.4+'s open_encrypted iv argument); they are read as any key file (the IV is in the file).
const SUFFIXES = {
	"plain": ["plain", -1, ""],
	"fastlz": ["compressed", FileAccess.COMPRESSION_FASTLZ, ""],
	"deflate": ["compressed", FileAccess.COMPRESSION_DEFLATE, ""],
	"zstd": ["compressed", FileAccess.COMPRESSION_ZSTD, ""],
	"gzip": ["compressed", FileAccess.COMPRESSION_GZIP, ""],
	"brotli": ["compressed", FileAccess.COMPRESSION_BROTLI, ""],
	"pass": ["encrypted", -1, "password"],
	"key": ["encrypted", -1, "key"],
	"keyiv": ["encrypted", -1, "key"],
}
# The test secrets (conformance/saves/README.md); GDW_SAVES_PASSWORD_HEX / GDW_SAVES_KEY replace them.
const PASSWORD = "gdwire issue 63: Zoë's save ✓"
const KEY_HEX = "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc"
const MAX_VALUES = 1000000  # a bound on the loop, whatever the file says

static func suffix_of(file_name: String) -> String:
	return file_name.get_extension()

static func secret(kind: String) -> Variant:
	if kind == "password":  # as hex of its UTF-8 bytes (Godot 3 reads the environment as Latin-1: one way for both)
		var p := OS.get_environment("GDW_SAVES_PASSWORD_HEX")
		return p.hex_decode().get_string_from_utf8() if p != "" else PASSWORD
	var k := OS.get_environment("GDW_SAVES_KEY")
	return (k if k != "" else KEY_HEX).hex_decode()

static func open_call(suffix: String) -> String:
	var row = SUFFIXES[suffix]
	if row[0] == "plain":
		return "FileAccess.open"
	if row[0] == "compressed":
		return "FileAccess.open_compressed(%d)" % row[1]
	return "FileAccess.open_encrypted_with_pass" if row[2] == "password" else "FileAccess.open_encrypted"

# Opens PATH for reading (or writing) by its suffix; null when the engine refuses (FileAccess.get_open_error()).
static func open_by_suffix(path: String, flags: int, iv := PackedByteArray()) -> FileAccess:
	var row = SUFFIXES[suffix_of(path)]
	if row[0] == "plain":
		return FileAccess.open(path, flags)
	if row[0] == "compressed":
		return FileAccess.open_compressed(path, flags, row[1])
	if row[2] == "password":
		return FileAccess.open_encrypted_with_pass(path, flags, secret("password"))
	return FileAccess.open_encrypted(path, flags, secret("key"), iv)

static func emit(d: Dictionary) -> void:
	print(JSON.stringify(d))

# Reads every value of PATH with get_var; emits open / value / end lines; returns the values read. With
# WITH_VALUES false the value lines carry the size of the engine's bytes, not the bytes and text (the caller
# compares them itself: saves4.gd's read-back).
static func read_all(path: String, phase: String, with_values := true) -> Array:
	var name := path.get_file()
	printerr("@@%s %s" % [phase, name])
	var f := open_by_suffix(path, FileAccess.READ)
	emit({"event": "open", "phase": phase, "file": name, "call": open_call(suffix_of(name)),
		"error": FileAccess.get_open_error() if f == null else OK})
	var values := []
	if f == null:
		return values
	var length := f.get_length()
	while f.get_position() < length and values.size() < MAX_VALUES:
		var before := f.get_position()
		var v = f.get_var()
		var b := var_to_bytes(v)
		var line := {"event": "value", "phase": phase, "file": name, "index": values.size(), "size": b.size(),
			"position": f.get_position(), "file_error": f.get_error()}
		if with_values:
			line["bytes"] = b.hex_encode()
			line["text"] = var_to_str(v)
		emit(line)
		values.append(v)
		if f.get_position() <= before:
			break
	emit({"event": "end", "phase": phase, "file": name, "values": values.size(), "position": f.get_position(),
		"length": length, "file_error": f.get_error()})
	f.close()
	return values

func _initialize() -> void:
	var dir := OS.get_environment("GDW_SAVES_DIR")
	var names := Array(DirAccess.get_files_at(dir))
	names.sort()
	for n in names:
		if SUFFIXES.has(suffix_of(n)):
			read_all(dir.path_join(n), "read")
	print("DONE")
	quit()

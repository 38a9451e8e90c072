# SPDX-License-Identifier: MIT
# Godot 4 writes a game's save in every container it has (tools/engines/saves/make_saves.sh godot4.6 OUT):
#   GDW_SAVES_DIR=DIR godot --headless --path . --script res://saves4.gd
# Three values (three store_var calls, full_objects off: the default) go into game.plain (FileAccess.open),
# game.fastlz / .deflate / .zstd / .gzip / .brotli (open_compressed), game.pass (open_encrypted_with_pass),
# game.key (open_encrypted, a random IV) and game.keyiv (open_encrypted with a fixed IV). One JSON object a
# line on stdout: `value` (each value as the engine sees it: var_to_bytes hex and var_to_str; every file gets
# these same values), `stored` (per file and value: its index, size, and what store_var returned), `file` (after close: size, first 4 bytes,
# the error close left), `rewrite` (encrypted files written a second time: the same bytes or not), then
# the file read back with read_saves4.gd's loop (`open`, `value`, `end`) and `compare` (per value: are the
# engine's bytes and text of what get_var returned those of what it stored, and `==`).
# GDW_SAVES_BENCH=MB instead writes a save of about MB megabytes in each container and times the engine's
# own get_var loop over each (`bench` lines).
extends SceneTree

const Reader = preload("res://read_saves4.gd")
const ORDER = ["plain", "fastlz", "deflate", "zstd", "gzip", "brotli", "pass", "key", "keyiv"]
const FIXED_IV_HEX = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"

func save_state() -> Dictionary:
	var map := PackedByteArray()
	map.resize(1000)
	for i in map.size():
		map[i] = (i * 37 + 11) & 255
	return {
		"format": 2,
		"player": {
			"name": "Zoë Ångström",
			"title": "勇者 🐉",
			"level": 42,
			"gold": 5000000000,
			"lifetime_xp": -9007199254740993,
			"position": Vector3(1.5, -2.25, 100.0),
			"velocity": Vector2(0.6, -0.8),
			"tint": Color(0.9, 0.5, 0.25, 0.75),
			"spawn": Transform3D(Basis(Vector3(0, 1, 0), 0.5), Vector3(10, 0, -3)),
			"hud": Transform2D(0.25, Vector2(640, 360)),
			"facing": Quaternion(Vector3(0, 1, 0), 0.5),
			"bounds": Rect2(0, 0, 64, 32),
		},
		"inventory": [
			{"id": "sword", "count": 1, "durability": 0.75, "tags": ["sharp", "épée"]},
			{"id": "potion", "count": 12, "durability": 1.0, "tags": []},
			[1, [2, [3, [4, "deep"]]]],
		],
		"flags": {"tutorial_done": true, "hard_mode": false, "last_checkpoint": null},
		"records": [9223372036854775807, -9223372036854775807 - 1, 4294967296, -4294967297, 2147483648],
		"play_time": 12345.678901234,
		"map": map,
	}

func settings() -> Array:
	return ["settings", {"volume": 0.8, "language": "日本語", "slot": 3}, Color(0.1, 0.2, 0.3, 1.0), -1]

# A third value, so that the values together (7,644 bytes) fill more than one of the compressed files' 4,096-byte
# blocks: the block table has two entries, the last block a short one.
func journal() -> Array:
	var days := []
	for i in 150:
		days.append("Jour %d: ça va ✓ 勇者" % i)
	return days

func write(path: String, values: Array, iv := PackedByteArray()) -> void:
	var name := path.get_file()
	printerr("@@write %s" % name)
	var f := Reader.open_by_suffix(path, FileAccess.WRITE, iv)
	Reader.emit({"event": "open", "phase": "write", "file": name, "call": Reader.open_call(Reader.suffix_of(name)),
		"error": FileAccess.get_open_error() if f == null else OK})
	if f == null:
		return
	for i in values.size():
		var ok := f.store_var(values[i])
		Reader.emit({"event": "stored", "phase": "write", "file": name, "index": i, "store_var": ok,
			"size": var_to_bytes(values[i]).size()})
	f.close()
	var close_error := f.get_error()
	f = null  # released: the FileAccess is gone (its destructor closes again where close failed)
	var raw := FileAccess.get_file_as_bytes(path)
	Reader.emit({"event": "file", "phase": "write", "file": name, "container": Reader.SUFFIXES[Reader.suffix_of(name)][0],
		"size": raw.size(), "magic": raw.slice(0, 4).hex_encode(), "close_error": close_error})

func write_set(dir: String) -> void:
	var values := [save_state(), settings(), journal()]
	for i in values.size():
		Reader.emit({"event": "value", "index": i, "bytes": var_to_bytes(values[i]).hex_encode(), "text": var_to_str(values[i])})
	var again := dir.path_join("again")
	DirAccess.make_dir_absolute(again)
	for suffix in ORDER:
		var path := dir.path_join("game." + suffix)
		var iv := FIXED_IV_HEX.hex_decode() if suffix == "keyiv" else PackedByteArray()
		write(path, values, iv)
		if Reader.SUFFIXES[suffix][0] == "encrypted":  # the same values and secret again: the same bytes?
			var other := again.path_join("game." + suffix)
			write(other, values, iv)
			Reader.emit({"event": "rewrite", "phase": "write", "file": "game." + suffix,
				"identical": FileAccess.get_file_as_bytes(path) == FileAccess.get_file_as_bytes(other)})
			DirAccess.remove_absolute(other)
		var back := Reader.read_all(path, "readback", false)
		for i in maxi(values.size(), back.size()):
			var read := i < back.size()
			var got = back[i] if read else null
			var line := {"event": "compare", "phase": "readback", "file": "game." + suffix, "index": i, "read": read,
				"same_bytes": read and i < values.size() and var_to_bytes(got) == var_to_bytes(values[i]),
				"same_text": read and i < values.size() and var_to_str(got) == var_to_str(values[i]),
				"equal": read and i < values.size() and got == values[i]}
			if read and not (line["same_bytes"] and line["same_text"]):  # what it read instead
				line["bytes"] = var_to_bytes(got).hex_encode()
				line["text"] = var_to_str(got)
			Reader.emit(line)
	DirAccess.remove_absolute(again)

# A save of about MB megabytes: chunks of 200 entities and 50,000 bytes of tiles (88,480 bytes each), in each
# container the engine writes.
func bench(dir: String, megabytes: int) -> void:
	var entities := []
	for j in 200:
		entities.append({"id": j, "name": "entité %d" % j, "hp": 5000000000 + j, "pos": Vector3(j, -j, 0.5 * j),
			"tint": Color(0.5, 0.25, j / 200.0, 1.0), "tags": ["npc", "quest"]})
	var tiles := PackedByteArray()
	tiles.resize(50000)
	for i in tiles.size():
		tiles[i] = (i * 37 + 11) & 255
	var chunk := {"chunk": 0, "entities": entities, "tiles": tiles}
	var chunks := int(ceil(megabytes * 1000000.0 / var_to_bytes(chunk).size()))
	for suffix in ORDER:
		if suffix in ["brotli", "keyiv"]:  # Brotli is not written (the set's log says so); keyiv reads as key
			continue
		var path := dir.path_join("bench." + suffix)
		printerr("@@bench %s" % path.get_file())
		var t0 := Time.get_ticks_usec()
		var f := Reader.open_by_suffix(path, FileAccess.WRITE)
		if f == null:
			Reader.emit({"event": "bench", "file": path.get_file(), "error": FileAccess.get_open_error()})
			continue
		for c in chunks:
			chunk["chunk"] = c
			f.store_var(chunk)
		f.close()
		var t1 := Time.get_ticks_usec()
		var r := Reader.open_by_suffix(path, FileAccess.READ)
		var t2 := Time.get_ticks_usec()
		var n := 0
		var plain_bytes := 0
		if r != null:
			plain_bytes = r.get_length()
			while r.get_position() < plain_bytes and n <= chunks:
				r.get_var()
				n += 1
			r.close()
		var t3 := Time.get_ticks_usec()
		Reader.emit({"event": "bench", "file": path.get_file(), "values": n, "stored": chunks, "plain_bytes": plain_bytes,
			"file_bytes": FileAccess.open(path, FileAccess.READ).get_length(), "write_ms": (t1 - t0) / 1000.0,
			"open_ms": (t2 - t1) / 1000.0, "get_var_ms": (t3 - t2) / 1000.0, "read_ms": (t3 - t1) / 1000.0,
			"open_error": FileAccess.get_open_error() if r == null else OK})

func _initialize() -> void:
	var dir := OS.get_environment("GDW_SAVES_DIR")
	Reader.emit({"event": "engine", "version": Engine.get_version_info().string, "script": "saves4.gd",
		"password": Reader.secret("password"), "key": Reader.secret("key").hex_encode(), "fixed_iv": FIXED_IV_HEX})
	var mb := OS.get_environment("GDW_SAVES_BENCH")
	if mb != "":
		bench(dir, int(mb))
	else:
		write_set(dir)
	print("DONE")
	quit()

# SPDX-License-Identifier: MIT
# Godot 3 writes a game's save in every container it has (tools/engines/saves/make_saves.sh godot3.6|godot3.2 OUT):
#   GDW_SAVES_DIR=DIR godot3-server --no-window -s saves3.gd
# As saves4.gd, in Godot 3's API and types (Transform, Quat, PoolByteArray): the same three values (three
# store_var calls, full_objects off: the default) go into game.plain (File.open), game.fastlz / .deflate /
# .zstd / .gzip (open_compressed; Godot 3 has no Brotli), game.pass (open_encrypted_with_pass) and game.key
# (open_encrypted; Godot 3 takes no IV). The log lines are saves4.gd's, but for `close_error` (Godot 3's
# close returns nothing) and `equal` (Godot 3 compares Arrays and Dictionaries by reference, so `==` says
# nothing of a value read back: the bytes and the text do).
# GDW_SAVES_BENCH=MB: the 100 MB benchmark, as saves4.gd's.
extends SceneTree

const Reader = preload("res://read_saves3.gd")
const ORDER = ["plain", "fastlz", "deflate", "zstd", "gzip", "pass", "key"]

func save_state():
	var map = PoolByteArray()
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
			"spawn": Transform(Basis(Vector3(0, 1, 0), 0.5), Vector3(10, 0, -3)),
			"hud": Transform2D(0.25, Vector2(640, 360)),
			"facing": Quat(Vector3(0, 1, 0), 0.5),
			"bounds": Rect2(0, 0, 64, 32)
		},
		"inventory": [
			{"id": "sword", "count": 1, "durability": 0.75, "tags": ["sharp", "épée"]},
			{"id": "potion", "count": 12, "durability": 1.0, "tags": []},
			[1, [2, [3, [4, "deep"]]]]
		],
		"flags": {"tutorial_done": true, "hard_mode": false, "last_checkpoint": null},
		"records": [9223372036854775807, -9223372036854775807 - 1, 4294967296, -4294967297, 2147483648],
		"play_time": 12345.678901234,
		"map": map
	}

func settings():
	return ["settings", {"volume": 0.8, "language": "日本語", "slot": 3}, Color(0.1, 0.2, 0.3, 1.0), -1]

# A third value, so that the values together (7,644 bytes) fill more than one of the compressed files' 4,096-byte
# blocks: the block table has two entries, the last block a short one.
func journal():
	var days = []
	for i in 150:
		days.append("Jour %d: ça va ✓ 勇者" % i)
	return days

func write(path, values):
	var name = path.get_file()
	printerr("@@write %s" % name)
	var f = File.new()
	var err = Reader.open_by_suffix(f, path, File.WRITE)
	Reader.emit({"event": "open", "phase": "write", "file": name, "call": Reader.open_call(Reader.suffix_of(name)), "error": err})
	if err != OK:
		return
	for i in values.size():
		f.store_var(values[i])
		Reader.emit({"event": "stored", "phase": "write", "file": name, "index": i, "size": var2bytes(values[i]).size()})
	f.close()
	f = null
	var raw = Reader.file_bytes(path)
	Reader.emit({"event": "file", "phase": "write", "file": name, "container": Reader.SUFFIXES[Reader.suffix_of(name)][0],
		"size": raw.size(), "magic": raw.subarray(0, 3).hex_encode() if raw.size() >= 4 else raw.hex_encode()})

func write_set(dir):
	var values = [save_state(), settings(), journal()]
	for i in values.size():
		Reader.emit({"event": "value", "index": i, "bytes": var2bytes(values[i]).hex_encode(), "text": var2str(values[i])})
	var again = dir.plus_file("again")
	var d = Directory.new()
	d.make_dir(again)
	for suffix in ORDER:
		var path = dir.plus_file("game." + suffix)
		write(path, values)
		if Reader.SUFFIXES[suffix][0] == "encrypted":  # the same values and secret again: the same bytes?
			var other = again.plus_file("game." + suffix)
			write(other, values)
			Reader.emit({"event": "rewrite", "phase": "write", "file": "game." + suffix,
				"identical": Reader.file_bytes(path) == Reader.file_bytes(other)})
			d.remove(other)
		var back = Reader.read_all(path, "readback", false)
		for i in max(values.size(), back.size()):
			var read = i < back.size()
			var line = {"event": "compare", "phase": "readback", "file": "game." + suffix, "index": i, "read": read,
				"same_bytes": read and i < values.size() and var2bytes(back[i]) == var2bytes(values[i]),
				"same_text": read and i < values.size() and var2str(back[i]) == var2str(values[i])}
			if read and not (line["same_bytes"] and line["same_text"]):  # what it read instead
				line["bytes"] = var2bytes(back[i]).hex_encode()
				line["text"] = var2str(back[i])
			Reader.emit(line)
	d.remove(again)

# A save of about MB megabytes: chunks of 200 entities and 50,000 bytes of tiles (88,480 bytes each), in each
# container the engine writes.
func bench(dir, megabytes):
	var entities = []
	for j in 200:
		entities.append({"id": j, "name": "entité %d" % j, "hp": 5000000000 + j, "pos": Vector3(j, -j, 0.5 * j),
			"tint": Color(0.5, 0.25, j / 200.0, 1.0), "tags": ["npc", "quest"]})
	var tiles = PoolByteArray()
	tiles.resize(50000)
	for i in tiles.size():
		tiles[i] = (i * 37 + 11) & 255
	var chunk = {"chunk": 0, "entities": entities, "tiles": tiles}
	var chunks = int(ceil(megabytes * 1000000.0 / var2bytes(chunk).size()))
	for suffix in ORDER:
		var path = dir.plus_file("bench." + suffix)
		printerr("@@bench %s" % path.get_file())
		var t0 = OS.get_ticks_usec()
		var f = File.new()
		var err = Reader.open_by_suffix(f, path, File.WRITE)
		if err != OK:
			Reader.emit({"event": "bench", "file": path.get_file(), "error": err})
			continue
		for c in chunks:
			chunk["chunk"] = c
			f.store_var(chunk)
		f.close()
		var t1 = OS.get_ticks_usec()
		var r = File.new()
		err = Reader.open_by_suffix(r, path, File.READ)
		var t2 = OS.get_ticks_usec()
		var n = 0
		var plain_bytes = 0
		if err == OK:
			plain_bytes = r.get_len()
			while r.get_position() < plain_bytes and n <= chunks:
				r.get_var()
				n += 1
			r.close()
		var t3 = OS.get_ticks_usec()
		var size = File.new()
		size.open(path, File.READ)
		Reader.emit({"event": "bench", "file": path.get_file(), "values": n, "stored": chunks, "plain_bytes": plain_bytes,
			"file_bytes": size.get_len(), "write_ms": (t1 - t0) / 1000.0, "open_ms": (t2 - t1) / 1000.0,
			"get_var_ms": (t3 - t2) / 1000.0, "read_ms": (t3 - t1) / 1000.0, "open_error": err})
		size.close()

func _initialize():
	var dir = OS.get_environment("GDW_SAVES_DIR")
	Reader.emit({"event": "engine", "version": Engine.get_version_info().string, "script": "saves3.gd",
		"password": Reader.secret("password"), "key": Reader.secret("key").hex_encode()})
	var mb = OS.get_environment("GDW_SAVES_BENCH")
	if mb != "":
		bench(dir, int(mb))
	else:
		write_set(dir)
	print("DONE")
	quit()

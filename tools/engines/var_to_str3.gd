# SPDX-License-Identifier: MIT
# var_to_str3.gd — Godot 3's names for var_to_str4.gd: bytes2var, var2str, str2var, var2bytes (var_to_str.sh).
extends SceneTree
func _hex(h):
	var b = PoolByteArray()
	for i in range(0, h.length(), 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b
func _init():
	print("V\t" + Engine.get_version_info().string)
	var f = File.new()
	f.open("res://packets.txt", File.READ)
	var text = f.get_as_text()
	for line in text.split("\n"):
		var c = line.split("\t")
		if c.size() < 2:
			continue
		var v = bytes2var(_hex(c[1]))
		var t = var2str(v)
		var back = var2bytes(str2var(t))
		print("T\t%s\t%s\t%s" % [c[0], Marshalls.utf8_to_base64(t), back.hex_encode()])
	print("DONE")
	quit()

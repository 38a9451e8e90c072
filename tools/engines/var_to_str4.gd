# SPDX-License-Identifier: MIT
# var_to_str4.gd — for each "name<TAB>hex" line of res://packets.txt: bytes_to_var, var_to_str of it,
# and var_to_bytes(str_to_var(that text)): "T<TAB>name<TAB>base64 of the text<TAB>hex" (var_to_str.sh).
extends SceneTree
func _hex(h):
	var b = PackedByteArray()
	for i in range(0, h.length(), 2):
		b.append(h.substr(i, 2).hex_to_int())
	return b
func _init():
	print("V\t" + Engine.get_version_info().string)
	var text = FileAccess.open("res://packets.txt", FileAccess.READ).get_as_text()
	for line in text.split("\n"):
		var f = line.split("\t")
		if f.size() < 2:
			continue
		var v = bytes_to_var(_hex(f[1]))
		var t = var_to_str(v)
		var back = var_to_bytes(str_to_var(t))
		print("T\t%s\t%s\t%s" % [f[0], Marshalls.utf8_to_base64(t), back.hex_encode()])
	print("DONE")
	quit()

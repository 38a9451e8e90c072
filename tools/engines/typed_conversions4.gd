# SPDX-License-Identifier: MIT
# typed_conversions4.gd — what Godot 4 holds when a typed container converts a float to an integer
# (engine finding 7; typed_conversions.sh). For every float below and every conversion, the script
# builds a typed Array's or Dictionary's packet by hand (header, element type, then the items
# var_to_bytes writes for an untyped one), reads it with bytes_to_var and writes what it holds with
# var_to_bytes: "T<TAB>name<TAB>packet hex<TAB>hex of what the engine holds".
extends SceneTree

const TYPED_BUILTIN = 1 << 16 # the Array header's typed-builtin bit (core/io/marshalls.cpp)
const KEY_BUILTIN = 1 << 16 # a Dictionary's typed key and value, builtin (the same file)
const VALUE_BUILTIN = 1 << 18

# header (a type and its typed-container bits), the element type, then the items as var_to_bytes
# writes them for an untyped container
func _packet(header, elem_type, items):
	var p = PackedByteArray()
	p.resize(8)
	p.encode_u32(0, header)
	p.encode_u32(4, elem_type)
	p.append_array(var_to_bytes(items).slice(4))
	return p

func _typed(elem_type, items):
	return _packet(TYPE_ARRAY | TYPED_BUILTIN, elem_type, items)

func _typed_dict(flag, elem_type, d):
	return _packet(TYPE_DICTIONARY | flag, elem_type, d)

func _row(name, packet):
	var v = bytes_to_var(packet)
	print("T\t%s\t%s\t%s" % [name, packet.hex_encode(), var_to_bytes(v).hex_encode()])

func _init():
	print("V\t" + Engine.get_version_info().string)
	var xs = [0.0, 7.9, -0.9, -1.0, -2.0, 255.9, 256.0, 300.0, 65537.5, 2147483520.0, 2147483647.0,
		2147483648.0, -2147483648.0, -2147483649.0, 3000000000.0, -3000000000.0, 4294967301.0,
		6442450943.0, 1099511627781.0, 9223372036854775807.0, -9223372036854775808.0, 1e19, -1e19,
		1e300, INF, -INF, NAN]
	for x in xs:
		var s = str(x) if not is_nan(x) else "nan"
		_row("PackedByteArray %s" % s, _typed(TYPE_PACKED_BYTE_ARRAY, [[x]]))
		_row("PackedInt32Array %s" % s, _typed(TYPE_PACKED_INT32_ARRAY, [[x]]))
		_row("PackedInt64Array %s" % s, _typed(TYPE_PACKED_INT64_ARRAY, [[x]]))
		_row("int %s" % s, _typed(TYPE_INT, [x]))
		_row("Vector2i %s" % s, _typed(TYPE_VECTOR2I, [Vector2(x, 1)]))
		_row("Vector3i %s" % s, _typed(TYPE_VECTOR3I, [Vector3(1, x, -1)]))
		_row("Vector4i %s" % s, _typed(TYPE_VECTOR4I, [Vector4(x, 0, 0, 2)]))
		_row("Rect2i %s" % s, _typed(TYPE_RECT2I, [Rect2(0, 0, x, 1)]))
		_row("Dictionary key Vector2i %s" % s, _typed_dict(KEY_BUILTIN, TYPE_VECTOR2I, {Vector2(x, 0): 1}))
		_row("Dictionary value int %s" % s, _typed_dict(VALUE_BUILTIN, TYPE_INT, {"k": x}))
	print("DONE")
	quit()

# SPDX-License-Identifier: MIT
# packets4.gd — values built inside Godot 4 and written with its own var_to_bytes, one
# "R<TAB>name<TAB>hex<TAB>round-trip hex" line each (make_packets.sh writes them to godot4.6-packets.tsv).
extends SceneTree
var out = []
# name, the engine's bytes, and the engine's own round trip of them: var_to_bytes(bytes_to_var(bytes)),
# which differs where the engine's decoder does not keep what its encoder wrote. (An object read
# back without objects allowed is an EncodedObjectAsID wrapper, whose own id is not the packet's:
# there the packet itself stands.)
func emit(name, v):
	var b = var_to_bytes(v)
	var back = bytes_to_var(b)
	var rt = b if back is EncodedObjectAsID else var_to_bytes(back)
	out.append("%s\t%s\t%s" % [name, b.hex_encode(), rt.hex_encode()])

func _init():
	print("V\t" + Engine.get_version_info().string)
	var ints = [0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, 9223372036854775807, -9223372036854775808, 255, 65536]
	for i in ints: emit("int %d" % i, i)
	var floats = [0.0, "-0.0".to_float(), 1.0, -1.5, 0.1, 1e300, -1e-300, pow(2.0, -1074), pow(2.0, -1022), 3.4028234663852886e38, 1.0e-45, INF, -INF, NAN, 10.0, 100.0, 1000.0, 16777217.0, 0.5]
	for f in floats: emit("float %s" % ("-0.0" if var_to_bytes(f).hex_encode() == "0300000000000080" else var_to_str(f)), f)
	emit("null", null)
	emit("true", true)
	emit("false", false)
	for n in range(0, 9):
		emit("String len %d" % n, "abcdefgh".substr(0, n))
	emit("String unicode", "héllo wörld ✓ 😀")
	emit("String NUL inside", "a" + String.chr(0) + "b")
	emit("StringName", &"name")
	emit("StringName empty", &"")
	for p in ["/", "", "a", "/root", "/root/a/b", "a/b:c:d", ":x", "/root:pos:x", "..", "../a", "%Unique"]:
		emit("NodePath %s" % p, NodePath(p))
	emit("Vector2", Vector2(1.5, -2.0))
	emit("Vector2i", Vector2i(1, -2))
	emit("Rect2", Rect2(1, 2, 3, 4))
	emit("Rect2i", Rect2i(1, 2, 3, 4))
	emit("Vector3", Vector3(1, 2, 3))
	emit("Vector3i", Vector3i(-1, 2, -3))
	emit("Transform2D", Transform2D(0.5, Vector2(1, 2)))
	emit("Vector4", Vector4(1, 2, 3, 4))
	emit("Vector4i", Vector4i(1, 2, 3, 4))
	emit("Plane", Plane(Vector3(0, 1, 0), 5))
	emit("Quaternion", Quaternion(0.1, 0.2, 0.3, 0.9))
	emit("AABB", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	emit("Basis", Basis(Vector3(0, 1, 0), 0.5))
	emit("Transform3D", Transform3D(Basis(), Vector3(1, 2, 3)))
	emit("Projection", Projection.create_perspective(60, 1.5, 0.1, 100))
	emit("Color", Color(0.1, 0.2, 0.3, 0.4))
	emit("RID", RID())
	emit("Callable empty", Callable())
	emit("Signal empty", Signal())
	emit("Vector2 inf nan", Vector2(INF, NAN))
	emit("Color nan", Color(NAN, -0.0, INF, 1))
	emit("Array empty", [])
	emit("Array mixed", [1, "two", 3.0, null, [4], {"five": 5}])
	emit("Dictionary empty", {})
	emit("Dictionary mixed", {"a": 1, 2: "b", Vector2(1, 2): [3], null: null})
	var ta: Array[int] = [1, 2, 3]
	emit("Array[int]", ta)
	var ts: Array[String] = ["a", "b"]
	emit("Array[String]", ts)
	var tv: Array[Vector2] = [Vector2(1, 2)]
	emit("Array[Vector2]", tv)
	var tn: Array[Node] = []
	emit("Array[Node] empty", tn)
	var te: Array[float] = []
	emit("Array[float] empty", te)
	var td: Dictionary[String, int] = {"a": 1, "b": 2}
	emit("Dictionary[String, int]", td)
	var td2: Dictionary[int, Variant] = {1: "x"}
	emit("Dictionary[int, Variant]", td2)
	var td3: Dictionary[Variant, Node] = {}
	emit("Dictionary[Variant, Node] empty", td3)
	emit("PackedByteArray", PackedByteArray([1, 2, 3, 4, 5]))
	for n in range(0, 5):
		var b = PackedByteArray()
		b.resize(n)
		emit("PackedByteArray len %d" % n, b)
	emit("PackedInt32Array", PackedInt32Array([1, -2, 2147483647]))
	emit("PackedInt64Array", PackedInt64Array([1, -2, 9223372036854775807]))
	emit("PackedFloat32Array", PackedFloat32Array([1.5, -0.0, INF]))
	emit("PackedFloat64Array", PackedFloat64Array([0.1, 1e300, NAN]))
	emit("PackedStringArray", PackedStringArray(["", "a", "ab", "abc", "abcd", "héllo"]))
	emit("PackedVector2Array", PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]))
	emit("PackedVector3Array", PackedVector3Array([Vector3(1, 2, 3)]))
	emit("PackedColorArray", PackedColorArray([Color(1, 0, 0, 1), Color(0, 0, 0, 0)]))
	emit("PackedVector4Array", PackedVector4Array([Vector4(1, 2, 3, 4)]))
	for t in ["PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedColorArray", "PackedVector4Array"]:
		emit("%s empty" % t, type_convert([], {"PackedInt32Array": TYPE_PACKED_INT32_ARRAY, "PackedInt64Array": TYPE_PACKED_INT64_ARRAY, "PackedFloat32Array": TYPE_PACKED_FLOAT32_ARRAY, "PackedFloat64Array": TYPE_PACKED_FLOAT64_ARRAY, "PackedStringArray": TYPE_PACKED_STRING_ARRAY, "PackedVector2Array": TYPE_PACKED_VECTOR2_ARRAY, "PackedVector3Array": TYPE_PACKED_VECTOR3_ARRAY, "PackedColorArray": TYPE_PACKED_COLOR_ARRAY, "PackedVector4Array": TYPE_PACKED_VECTOR4_ARRAY}[t]))
	var deep = []
	var cur = deep
	for i in range(50):
		var nxt = []
		cur.append(nxt)
		cur = nxt
	emit("Array nested 50", deep)
	var nullobj: Object = null
	emit("Object null", nullobj)
	var nodeobj = Node.new()
	emit("Object as id (Node)", nodeobj)
	nodeobj.free()
	# a few hundred more: ints and floats around powers of two, strings of every padding
	for e in range(0, 64, 3):
		emit("int 2^%d" % e, 1 << e)
		emit("int -2^%d" % e, -(1 << e))
	for e in range(-30, 31, 3):
		emit("float 2^%d" % e, pow(2.0, e))
		emit("float 1.1*2^%d" % e, 1.1 * pow(2.0, e))
	for n in range(9, 40):
		emit("String len %d" % n, "x".repeat(n))
	for p in ["a", "ab", "abc", "abcd"]:
		emit("StringName %s" % p, StringName(p))
		emit("Array of String %s" % p, [p, p + p])
	for i in range(20):
		emit("Dictionary %d keys" % i, range(i).reduce(func(acc, k): acc[k] = str(k); return acc, {}))
	for line in out:
		print("R\t" + line)
	print("DONE")
	quit()

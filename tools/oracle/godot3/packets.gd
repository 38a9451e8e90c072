# packets.gd — the real Godot 3 engine writes packets with its own var2bytes.
# Output (stdout): lines "P<TAB>name<TAB>base64" for every value below. Run by make_packets.sh.
extends SceneTree

var out = []

func add(name, v):
	out.append([name, Marshalls.raw_to_base64(var2bytes(v))])

func _init():
	var ints = [0, 1, -1, 42, 255, 256, 65535, 65536, 2147483647, -2147483648, 2147483648, -2147483649,
		4294967295, 4294967296, 9223372036854775807, -9223372036854775807 - 1, 1099511627776]
	for i in ints:
		add("int %d" % i, i)
	var reals = [0.0, -0.0, 1.0, -1.0, 1.5, 0.5, 0.1, 1.0 / 3.0, 100.25, 1e-45, 1e-38, 1e-300, 1.7976931348623157e308,
		3.4028234663852886e38, 3.4028235677973366e38, 16777216.0, 16777217.0, INF, -INF, NAN]
	for i in range(reals.size()):
		add("float %d (%s)" % [i, str(reals[i])], reals[i])
	add("bool true", true)
	add("bool false", false)
	add("null", null)
	var strs = ["", "a", "ab", "abc", "abcd", "abcde", "hello world", "é", "Zoë", "日本語", "😀", "tab\tnew\nline", "quote\"back\\"]
	for s in strs:
		add("string %s" % s.c_escape(), s)
	var long = ""
	for i in range(300):
		long += "x"
	add("string 300 x", long)
	add("string 301 x", long + "y")
	add("Vector2", Vector2(1.5, -2.25))
	add("Vector2 zero", Vector2())
	add("Vector2 inf", Vector2(INF, -INF))
	add("Rect2", Rect2(1, 2, 3, 4))
	add("Vector3", Vector3(0.1, 0.2, 0.3))
	add("Transform2D identity", Transform2D())
	add("Transform2D", Transform2D(0.5, Vector2(10, -20)))
	add("Plane", Plane(0, 1, 0, 5))
	add("Quat identity", Quat())
	add("Quat", Quat(0.1, 0.2, 0.3, 0.9))
	add("AABB", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("Basis identity", Basis())
	add("Basis rotated", Basis(Vector3(0, 1, 0), 0.5))
	add("Transform identity", Transform())
	add("Transform", Transform(Basis(Vector3(1, 0, 0), 1.0), Vector3(7, 8, 9)))
	add("Color", Color(0.1, 0.2, 0.3, 0.4))
	add("Color white", Color(1, 1, 1))
	add("NodePath empty", NodePath(""))
	add("NodePath root only", NodePath("/"))
	add("NodePath relative", NodePath("a"))
	add("NodePath relative 2", NodePath("a/b/c"))
	add("NodePath absolute", NodePath("/root/Main"))
	add("NodePath subnames", NodePath("/root/Main:position:x"))
	add("NodePath only subname", NodePath(":modulate"))
	add("NodePath dots", NodePath("../Sibling"))
	add("NodePath unicode", NodePath("Zoë/日本"))
	add("RID empty", RID())
	add("Array empty", [])
	add("Array mixed", [null, true, 1, 1.5, "s", Vector2(1, 2), [], {}])
	add("Array nested", [[[[1]]], [2]])
	add("Array of 64-bit", [1, 2147483648, -1, -2147483649])
	add("Dictionary empty", {})
	add("Dictionary game state", {"name": "Zoë", "hp": 100, "pos": Vector2(3.5, -1.25), "alive": true, "tags": ["a", "b"]})
	add("Dictionary int keys", {1: "one", 2: "two", -3: null})
	add("Dictionary nested", {"a": {"b": {"c": [1, {"d": 2}]}}})
	add("Dictionary non-string keys", {Vector2(1, 1): 1, [1]: 2, null: 3, 1.5: 4})
	add("PoolByteArray empty", PoolByteArray())
	for n in [1, 2, 3, 4, 5]:
		var b = PoolByteArray()
		for i in range(n):
			b.append((i * 77 + 1) % 256)
		add("PoolByteArray %d" % n, b)
	add("PoolIntArray", PoolIntArray([0, 1, -1, 2147483647, -2147483648]))
	add("PoolIntArray empty", PoolIntArray())
	add("PoolRealArray", PoolRealArray([0.0, 1.5, -0.1, INF]))
	add("PoolRealArray empty", PoolRealArray())
	add("PoolStringArray", PoolStringArray(["", "a", "ab", "abc", "abcd", "é", "日本"]))
	add("PoolStringArray empty", PoolStringArray())
	add("PoolVector2Array", PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]))
	add("PoolVector3Array", PoolVector3Array([Vector3(1, 2, 3), Vector3(0.1, 0.2, 0.3)]))
	add("PoolColorArray", PoolColorArray([Color(1, 0, 0), Color(0, 0, 1, 0.5)]))
	add("PoolVector2Array empty", PoolVector2Array())
	add("PoolVector3Array empty", PoolVector3Array())
	add("PoolColorArray empty", PoolColorArray())
	var deep = []
	for i in range(64):
		deep = [deep]
	add("Array 65 deep", deep)
	var big = []
	for i in range(100):
		big.append(i * 1000003)
	add("Array of 100 ints", big)
	for o in out:
		print("P\t%s\t%s" % [o[0], o[1]])
	quit()

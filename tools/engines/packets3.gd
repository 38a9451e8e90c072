# SPDX-License-Identifier: MIT
# packets3.gd — values built inside a Godot 3 engine (3.2.3 or 3.6.2) and written with its own
# var2bytes, one "R<TAB>name<TAB>hex<TAB>round-trip hex" line each after a "V<TAB>version" line
# (make_packets.sh writes them to godot3.2-packets.tsv / godot3.6-packets.tsv).
# Only GDScript that both 3.2 and 3.6 understand.
extends SceneTree

var out = []

# name, the engine's bytes, and the engine's own round trip of them: var2bytes(bytes2var(bytes)),
# which differs where the engine's decoder does not keep what its encoder wrote.
func add(name, v):
	var b = var2bytes(v)
	out.append("%s\t%s\t%s" % [name, b.hex_encode(), var2bytes(bytes2var(b)).hex_encode()])

func rep(s, n):
	var r = ""
	for i in range(n):
		r += s
	return r

func _init():
	print("V\t" + Engine.get_version_info().string)
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
	more()
	for line in out:
		print("R\t" + line)
	print("DONE")
	quit()

# Beyond the first 111: every int and float edge, strings of every padding, every math type with
# odd values, NodePath forms, pools of every length mod 4, containers of every shape.
func more():
	for e in range(0, 64, 3):
		add("int 2^%d" % e, 1 << e)
		add("int -2^%d" % e, -(1 << e))
		add("int 2^%d-1" % e, (1 << e) - 1)
	for e in range(-40, 41, 4):
		add("float 2^%d" % e, pow(2.0, e))
		add("float 1.1*2^%d" % e, 1.1 * pow(2.0, e))
	add("float -NAN", -NAN)
	add("float 5e-324", 5e-324)
	add("float -1e300", -1e300)
	for n in range(9, 41):
		add("string len %d" % n, rep("x", n))
	add("string NUL inside", "a" + char(0) + "b")
	add("string BOM", char(0xFEFF) + "a")
	add("string astral", char(0x1F600) + char(0x10FFFF))
	for i in range(1, 5):
		add("string %d-byte char" % i, ["a", "é", "€", "😀"][i - 1])
	add("Vector2 nan", Vector2(NAN, -0.0))
	add("Vector2 huge", Vector2(3.4e38, -1e-45))
	add("Rect2 negative", Rect2(-1, -2, -3, -4))
	add("Vector3 inf", Vector3(INF, -INF, NAN))
	add("Vector3 zero", Vector3())
	add("Transform2D rotated", Transform2D(1.0, Vector2(0.5, 0.25)))
	add("Plane normalised", Plane(Vector3(1, 2, 3).normalized(), -7))
	add("Quat euler", Quat(Vector3(0.3, 0.2, 0.1)))
	add("AABB negative", AABB(Vector3(-1, -2, -3), Vector3(0.5, 0.25, 0.125)))
	add("Basis scaled", Basis().scaled(Vector3(2, 3, 4)))
	add("Transform translated", Transform(Basis(), Vector3(-1, 0.5, 1e10)))
	add("Color transparent", Color(0, 0, 0, 0))
	add("Color overbright", Color(2, 3, 4, 5))
	for p in ["..", ".", "a:b", "/a", "/a/b/c/d/e/f/g", "a/b:c:d:e", ":a:b", "@x", "%y", "é/ü:ö"]:
		add("NodePath %s" % p, NodePath(p))
	for n in range(0, 9):
		var b = PoolByteArray()
		for i in range(n):
			b.append(255 - i)
		add("PoolByteArray len %d" % n, b)
	for n in range(0, 5):
		var ia = PoolIntArray()
		var ra = PoolRealArray()
		var sa = PoolStringArray()
		var v2 = PoolVector2Array()
		var v3 = PoolVector3Array()
		var ca = PoolColorArray()
		for i in range(n):
			ia.append(i * -65537)
			ra.append(i * 0.25 - 1)
			sa.append(rep("s", i))
			v2.append(Vector2(i, -i))
			v3.append(Vector3(i, i * 2, i * 3))
			ca.append(Color(i * 0.1, 0.5, 1, 1))
		add("PoolIntArray len %d" % n, ia)
		add("PoolRealArray len %d" % n, ra)
		add("PoolStringArray len %d" % n, sa)
		add("PoolVector2Array len %d" % n, v2)
		add("PoolVector3Array len %d" % n, v3)
		add("PoolColorArray len %d" % n, ca)
	for n in range(0, 12):
		var d = {}
		for k in range(n):
			d[k] = str(k)
		add("Dictionary %d int keys" % n, d)
	add("Dictionary string keys of every padding", {"": 0, "a": 1, "ab": 2, "abc": 3, "abcd": 4})
	add("Dictionary of pools", {"b": PoolByteArray([1]), "s": PoolStringArray(["x"]), "v": PoolVector2Array([Vector2(1, 2)])})
	add("Dictionary of math", {"t": Transform(), "q": Quat(), "c": Color(1, 0, 0)})
	add("Dictionary bool keys", {true: 1, false: 0})
	add("Dictionary 64-bit keys", {4294967296: "a", -4294967297: "b"})
	add("Array of strings of every padding", ["", "a", "ab", "abc", "abcd", "abcde"])
	add("Array of NodePaths", [NodePath("a"), NodePath("/b:c"), NodePath("")])
	add("Array of every math type", [Vector2(), Rect2(), Vector3(), Transform2D(), Plane(), Quat(), AABB(), Basis(), Transform(), Color()])
	add("Array of floats", [0.0, -0.0, 1e-45, 1e300, INF])
	add("Array of RIDs", [RID(), RID()])
	add("Array with empty pools", [PoolByteArray(), PoolIntArray(), PoolRealArray(), PoolStringArray()])
	var deep = {}
	for i in range(20):
		deep = {"d": deep}
	add("Dictionary 21 deep", deep)
	var mixed = []
	for i in range(10):
		mixed = [mixed, {i: mixed}]
	add("Array and Dictionary interleaved", mixed)

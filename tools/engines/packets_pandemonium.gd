# SPDX-License-Identifier: MIT
# packets_pandemonium.gd — the values only a Pandemonium engine has (its P3 layout: Vector2i,
# Rect2i, Vector3i, Vector4, Vector4i, StringName and their pools), appended by
# make_packets.sh to packets3.gd, whose Quat it renames Quaternion (the fork's name), and called
# from more(). Each is written with the engine's own var2bytes. No Projection: the engine's own
# decoder wants 248 bytes left where a Projection is 64 (core/io/marshalls.cpp:384, the
# defect_projection_248 of the dialect table), so it cannot read one back from its own packet;
# the conformance vectors hold that defect.

func pandemonium():
	add("Vector2i", Vector2i(3, -4))
	add("Vector2i extremes", Vector2i(2147483647, -2147483648))
	var r = Rect2i()
	r.position = Vector2i(1, -2)
	r.size = Vector2i(3, 4)
	add("Rect2i", r)
	add("Vector3i", Vector3i(-1, 0, 65536))
	add("Vector4", Vector4(0.5, -1.25, 3, 1e-40))
	add("Vector4 inf", Vector4(INF, -INF, 0, -0.0))
	add("Vector4i", Vector4i(1, -2, 3, -4))
	add("StringName", StringName("node"))
	add("StringName empty", StringName(""))
	add("StringName é", StringName("é"))
	for n in range(0, 4):
		var v2i = PoolVector2iArray()
		var v3i = PoolVector3iArray()
		var v4 = PoolVector4Array()
		var v4i = PoolVector4iArray()
		for i in range(n):
			v2i.append(Vector2i(i, -i))
			v3i.append(Vector3i(i, i * 2, -i))
			v4.append(Vector4(i, 0.5, -i, i * 0.25))
			v4i.append(Vector4i(i, 1, 2, -i))
		add("PoolVector2iArray len %d" % n, v2i)
		add("PoolVector3iArray len %d" % n, v3i)
		add("PoolVector4Array len %d" % n, v4)
		add("PoolVector4iArray len %d" % n, v4i)
	add("Dictionary StringName and String keys", {StringName("k"): 1, "k": 2})
	add("Array of every Pandemonium type", [Vector2i(), Rect2i(), Vector3i(), Vector4(), Vector4i(), StringName("x")])

# SPDX-License-Identifier: MIT
# The Godot 3 typed-argument project's driver (tools/engines/projects/harness3.gd calls gdwire_drive): on the client,
# each case is mark(k) then one call of a typed RPC of ../Typed with a value of one type; the server's Typed logs
# what ran, and the server waits for finish().
extends Node

const METHODS = ["p_bool", "p_int", "p_float", "p_String", "p_Vector2", "p_Rect2", "p_Vector3", "p_Transform2D", "p_Plane", "p_Quat", "p_AABB", "p_Basis", "p_Transform", "p_Color", "p_NodePath", "p_RID", "p_Dictionary", "p_Array", "p_PoolByteArray", "p_PoolIntArray", "p_PoolRealArray", "p_PoolStringArray", "p_PoolVector2Array", "p_PoolVector3Array", "p_PoolColorArray", "p_Untyped", "p_Node", "p_Object", "p_Reference"]

func _values():
	return [
		["Nil", null], ["bool", true], ["int", 7], ["float", 2.5], ["String", "12"], ["Vector2", Vector2(1, 2)],
		["Rect2", Rect2(1, 2, 3, 4)], ["Vector3", Vector3(1, 2, 3)], ["Transform2D", Transform2D.IDENTITY],
		["Plane", Plane(0, 1, 0, 2)], ["Quat", Quat.IDENTITY], ["AABB", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))],
		["Basis", Basis.IDENTITY], ["Transform", Transform.IDENTITY], ["Color", Color(1, 0, 0)], ["NodePath", NodePath("a/b")],
		["RID", RID()], ["Object", self], ["Dictionary", {"a": 1}], ["Array", [1, "x"]],
		["PoolByteArray", PoolByteArray([1, 2])], ["PoolIntArray", PoolIntArray([1, 2])], ["PoolRealArray", PoolRealArray([1.5])],
		["PoolStringArray", PoolStringArray(["a"])], ["PoolVector2Array", PoolVector2Array([Vector2(1, 2)])],
		["PoolVector3Array", PoolVector3Array([Vector3(1, 2, 3)])], ["PoolColorArray", PoolColorArray([Color(1, 0, 0)])],
	]

func gdwire_drive(h, role):
	yield(get_tree(), "idle_frame")
	var typed = get_node("../Typed")
	if role == "server":
		var t = 0.0
		while not typed.finished and t < 40.0:
			yield(get_tree().create_timer(0.1), "timeout")
			t += 0.1
		return
	var cases = []
	for m in METHODS:
		for v in _values():
			cases.append([m, v[0], [v[1]]])
	var counts = [[], [1], [1, 2], [1, 2, "s"], [1, 2, "s", 4]]  # c_defaults(a: int, b: int = 1, c: String = "x")
	for args in counts:
		cases.append(["c_defaults", "%d values" % args.size(), args])
	for args in [[], [1], [1, "b"], [1, "b", 3]]:  # c_two(a, b)
		cases.append(["c_two", "%d values" % args.size(), args])
	var k = 0
	for c in cases:
		typed.rpc_id(1, "mark", k)
		typed.callv("rpc_id", [1, c[0]] + c[2])
		h._log({"event": "case", "case": k, "method": c[0], "value": c[1], "n_args": c[2].size(), "send": "OK"})
		k += 1
		if k % 25 == 0:
			yield(get_tree(), "idle_frame")
	typed.rpc_id(1, "finish", k)
	yield(get_tree().create_timer(2.0), "timeout")

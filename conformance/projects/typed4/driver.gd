# SPDX-License-Identifier: MIT
# The typed-argument project's driver (tools/engines/projects/harness4.gd calls gdwire_drive): on the client, each
# case is mark(k) then one call of a typed RPC of ../Typed with a value of one type; the server's Typed logs what ran.
extends Node

signal poked

const METHODS := ["p_bool", "p_int", "p_float", "p_String", "p_Vector2", "p_Vector2i", "p_Rect2", "p_Rect2i", "p_Vector3", "p_Vector3i", "p_Transform2D", "p_Vector4", "p_Vector4i", "p_Plane", "p_Quaternion", "p_AABB", "p_Basis", "p_Transform3D", "p_Projection", "p_Color", "p_StringName", "p_NodePath", "p_RID", "p_Callable", "p_Signal", "p_Dictionary", "p_Array", "p_PackedByteArray", "p_PackedInt32Array", "p_PackedInt64Array", "p_PackedFloat32Array", "p_PackedFloat64Array", "p_PackedStringArray", "p_PackedVector2Array", "p_PackedVector3Array", "p_PackedColorArray", "p_PackedVector4Array", "p_Untyped", "p_Variant", "p_ArrayInt", "p_ArrayString", "p_DictStringInt", "p_Node", "p_Object", "p_RefCounted", "p_Kind"]

func _values() -> Array:
	var ai: Array[int] = [1, 2]
	var as_: Array[String] = ["a"]
	var dsi: Dictionary[String, int] = {"a": 1}
	var dis: Dictionary[int, String] = {1: "a"}
	return [
		["Nil", null], ["bool", true], ["int", 7], ["float", 2.5], ["String", "12"], ["Vector2", Vector2(1, 2)],
		["Vector2i", Vector2i(1, 2)], ["Rect2", Rect2(1, 2, 3, 4)], ["Rect2i", Rect2i(1, 2, 3, 4)], ["Vector3", Vector3(1, 2, 3)],
		["Vector3i", Vector3i(1, 2, 3)], ["Transform2D", Transform2D.IDENTITY], ["Vector4", Vector4(1, 2, 3, 4)],
		["Vector4i", Vector4i(1, 2, 3, 4)], ["Plane", Plane(0, 1, 0, 2)], ["Quaternion", Quaternion.IDENTITY],
		["AABB", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))], ["Basis", Basis.IDENTITY], ["Transform3D", Transform3D.IDENTITY],
		["Projection", Projection.IDENTITY], ["Color", Color(1, 0, 0)], ["StringName", &"name"], ["NodePath", ^"a/b"],
		["RID", RID()], ["Object", self], ["Callable", Callable(self, "_values")], ["Signal", poked],
		["Dictionary", {"a": 1}], ["Array", [1, "x"]], ["Array[int]", ai], ["Array[String]", as_],
		["Dictionary[String, int]", dsi], ["Dictionary[int, String]", dis],
		["PackedByteArray", PackedByteArray([1, 2])], ["PackedInt32Array", PackedInt32Array([1, 2])],
		["PackedInt64Array", PackedInt64Array([1, 2])], ["PackedFloat32Array", PackedFloat32Array([1.5])],
		["PackedFloat64Array", PackedFloat64Array([1.5])], ["PackedStringArray", PackedStringArray(["a"])],
		["PackedVector2Array", PackedVector2Array([Vector2(1, 2)])], ["PackedVector3Array", PackedVector3Array([Vector3(1, 2, 3)])],
		["PackedColorArray", PackedColorArray([Color(1, 0, 0)])], ["PackedVector4Array", PackedVector4Array([Vector4(1, 2, 3, 4)])],
	]

func gdwire_drive(h: Node, role: String, other: int) -> void:
	var typed := get_node("../Typed")
	if role == "server":
		typed.rpc_id(other, "hello")
		await get_tree().process_frame
		return
	var cases := []
	for m in METHODS:
		for v in _values():
			cases.append([m, v[0], [v[1]]])
	for n in 5:  # c_defaults(a: int, b: int = 1, c: String = "x") with 0 to 4 arguments
		cases.append(["c_defaults", "%d ints" % n, [1, 2, 3, 4].slice(0, n) if n < 3 else [1, 2, "s", 4].slice(0, n)])
	for n in 4:  # c_two(a, b) with 0 to 3
		cases.append(["c_two", "%d values" % n, [1, "b", 3].slice(0, n)])
	var k := 0
	for c in cases:
		typed.rpc_id(other, "mark", k)
		var err: int = typed.callv("rpc_id", [other, c[0]] + c[2])
		h._log({"event": "case", "case": k, "method": c[0], "value": c[1], "n_args": c[2].size(), "send": error_string(err)})
		k += 1
		if k % 25 == 0:
			await get_tree().process_frame
	typed.rpc_id(other, "finish", k)
	await get_tree().create_timer(2.0).timeout

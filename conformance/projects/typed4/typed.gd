# SPDX-License-Identifier: MIT
# A test project for gdw_rpc_args_fit (conformance/projects/README.md): one typed parameter of every Variant type
# (and typed containers, classes, an enum), every RPC any_peer. driver.gd on the client calls each with a value
# of every type (and with wrong counts, and leaving defaulted parameters out); this node on the server logs which
# calls ran (each case announced by mark() first, on the same reliable channel); the engine prints the others.
extends Node

enum Kind { A, B }

var current := -1

@rpc("any_peer")
func mark(k: int) -> void:
	current = k
	printerr("gdwire case %d" % k)

@rpc("any_peer")
func finish(n: int) -> void:
	get_node("/root/GdwireHarness")._log({"event": "finish", "cases": n})

@rpc("authority")
func hello() -> void:
	get_node("/root/GdwireHarness").got(self, "hello", [])

func _ran(method: String, args: Array) -> void:
	var types := []
	for a in args:
		types.append(type_string(typeof(a)))
	get_node("/root/GdwireHarness")._log({"event": "case_ran", "case": current, "method": method, "types": types})

@rpc("any_peer")
func p_bool(v: bool) -> void:
	_ran("p_bool", [v])

@rpc("any_peer")
func p_int(v: int) -> void:
	_ran("p_int", [v])

@rpc("any_peer")
func p_float(v: float) -> void:
	_ran("p_float", [v])

@rpc("any_peer")
func p_String(v: String) -> void:
	_ran("p_String", [v])

@rpc("any_peer")
func p_Vector2(v: Vector2) -> void:
	_ran("p_Vector2", [v])

@rpc("any_peer")
func p_Vector2i(v: Vector2i) -> void:
	_ran("p_Vector2i", [v])

@rpc("any_peer")
func p_Rect2(v: Rect2) -> void:
	_ran("p_Rect2", [v])

@rpc("any_peer")
func p_Rect2i(v: Rect2i) -> void:
	_ran("p_Rect2i", [v])

@rpc("any_peer")
func p_Vector3(v: Vector3) -> void:
	_ran("p_Vector3", [v])

@rpc("any_peer")
func p_Vector3i(v: Vector3i) -> void:
	_ran("p_Vector3i", [v])

@rpc("any_peer")
func p_Transform2D(v: Transform2D) -> void:
	_ran("p_Transform2D", [v])

@rpc("any_peer")
func p_Vector4(v: Vector4) -> void:
	_ran("p_Vector4", [v])

@rpc("any_peer")
func p_Vector4i(v: Vector4i) -> void:
	_ran("p_Vector4i", [v])

@rpc("any_peer")
func p_Plane(v: Plane) -> void:
	_ran("p_Plane", [v])

@rpc("any_peer")
func p_Quaternion(v: Quaternion) -> void:
	_ran("p_Quaternion", [v])

@rpc("any_peer")
func p_AABB(v: AABB) -> void:
	_ran("p_AABB", [v])

@rpc("any_peer")
func p_Basis(v: Basis) -> void:
	_ran("p_Basis", [v])

@rpc("any_peer")
func p_Transform3D(v: Transform3D) -> void:
	_ran("p_Transform3D", [v])

@rpc("any_peer")
func p_Projection(v: Projection) -> void:
	_ran("p_Projection", [v])

@rpc("any_peer")
func p_Color(v: Color) -> void:
	_ran("p_Color", [v])

@rpc("any_peer")
func p_StringName(v: StringName) -> void:
	_ran("p_StringName", [v])

@rpc("any_peer")
func p_NodePath(v: NodePath) -> void:
	_ran("p_NodePath", [v])

@rpc("any_peer")
func p_RID(v: RID) -> void:
	_ran("p_RID", [v])

@rpc("any_peer")
func p_Callable(v: Callable) -> void:
	_ran("p_Callable", [v])

@rpc("any_peer")
func p_Signal(v: Signal) -> void:
	_ran("p_Signal", [v])

@rpc("any_peer")
func p_Dictionary(v: Dictionary) -> void:
	_ran("p_Dictionary", [v])

@rpc("any_peer")
func p_Array(v: Array) -> void:
	_ran("p_Array", [v])

@rpc("any_peer")
func p_PackedByteArray(v: PackedByteArray) -> void:
	_ran("p_PackedByteArray", [v])

@rpc("any_peer")
func p_PackedInt32Array(v: PackedInt32Array) -> void:
	_ran("p_PackedInt32Array", [v])

@rpc("any_peer")
func p_PackedInt64Array(v: PackedInt64Array) -> void:
	_ran("p_PackedInt64Array", [v])

@rpc("any_peer")
func p_PackedFloat32Array(v: PackedFloat32Array) -> void:
	_ran("p_PackedFloat32Array", [v])

@rpc("any_peer")
func p_PackedFloat64Array(v: PackedFloat64Array) -> void:
	_ran("p_PackedFloat64Array", [v])

@rpc("any_peer")
func p_PackedStringArray(v: PackedStringArray) -> void:
	_ran("p_PackedStringArray", [v])

@rpc("any_peer")
func p_PackedVector2Array(v: PackedVector2Array) -> void:
	_ran("p_PackedVector2Array", [v])

@rpc("any_peer")
func p_PackedVector3Array(v: PackedVector3Array) -> void:
	_ran("p_PackedVector3Array", [v])

@rpc("any_peer")
func p_PackedColorArray(v: PackedColorArray) -> void:
	_ran("p_PackedColorArray", [v])

@rpc("any_peer")
func p_PackedVector4Array(v: PackedVector4Array) -> void:
	_ran("p_PackedVector4Array", [v])

@rpc("any_peer")
func p_Untyped(v) -> void:
	_ran("p_Untyped", [v])

@rpc("any_peer")
func p_Variant(v: Variant) -> void:
	_ran("p_Variant", [v])

@rpc("any_peer")
func p_ArrayInt(v: Array[int]) -> void:
	_ran("p_ArrayInt", [v])

@rpc("any_peer")
func p_ArrayString(v: Array[String]) -> void:
	_ran("p_ArrayString", [v])

@rpc("any_peer")
func p_DictStringInt(v: Dictionary[String, int]) -> void:
	_ran("p_DictStringInt", [v])

@rpc("any_peer")
func p_Node(v: Node) -> void:
	_ran("p_Node", [v])

@rpc("any_peer")
func p_Object(v: Object) -> void:
	_ran("p_Object", [v])

@rpc("any_peer")
func p_RefCounted(v: RefCounted) -> void:
	_ran("p_RefCounted", [v])

@rpc("any_peer")
func p_Kind(v: Kind) -> void:
	_ran("p_Kind", [v])

@rpc("any_peer")
func c_defaults(a: int, b: int = 1, c: String = "x") -> void:
	_ran("c_defaults", [a, b, c])

@rpc("any_peer")
func c_two(a, b) -> void:
	_ran("c_two", [a, b])

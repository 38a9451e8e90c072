# SPDX-License-Identifier: MIT
# The Godot 3 twin of typed4 (conformance/projects/README.md): one typed parameter of every Variant type of Godot 3
# (and classes), every RPC remote. driver.gd on the client calls each with a value of every type (and with wrong
# counts, and leaving defaulted parameters out); this node on the server logs which calls ran (each case announced
# by mark() first, on the same reliable channel); the engine prints the others.
extends Node

var current = -1
var finished = false

remote func mark(k):
	current = k
	printerr("gdwire case %d" % k)

remote func finish(n):
	get_node("/root/GdwireHarness")._log({"event": "finish", "cases": n})
	finished = true

func _ran(method, args):
	var types = []
	for a in args:
		types.append(typeof(a))
	get_node("/root/GdwireHarness")._log({"event": "case_ran", "case": current, "method": method, "types": types})

remote func p_bool(v: bool):
	_ran("p_bool", [v])

remote func p_int(v: int):
	_ran("p_int", [v])

remote func p_float(v: float):
	_ran("p_float", [v])

remote func p_String(v: String):
	_ran("p_String", [v])

remote func p_Vector2(v: Vector2):
	_ran("p_Vector2", [v])

remote func p_Rect2(v: Rect2):
	_ran("p_Rect2", [v])

remote func p_Vector3(v: Vector3):
	_ran("p_Vector3", [v])

remote func p_Transform2D(v: Transform2D):
	_ran("p_Transform2D", [v])

remote func p_Plane(v: Plane):
	_ran("p_Plane", [v])

remote func p_Quat(v: Quat):
	_ran("p_Quat", [v])

remote func p_AABB(v: AABB):
	_ran("p_AABB", [v])

remote func p_Basis(v: Basis):
	_ran("p_Basis", [v])

remote func p_Transform(v: Transform):
	_ran("p_Transform", [v])

remote func p_Color(v: Color):
	_ran("p_Color", [v])

remote func p_NodePath(v: NodePath):
	_ran("p_NodePath", [v])

remote func p_RID(v: RID):
	_ran("p_RID", [v])

remote func p_Dictionary(v: Dictionary):
	_ran("p_Dictionary", [v])

remote func p_Array(v: Array):
	_ran("p_Array", [v])

remote func p_PoolByteArray(v: PoolByteArray):
	_ran("p_PoolByteArray", [v])

remote func p_PoolIntArray(v: PoolIntArray):
	_ran("p_PoolIntArray", [v])

remote func p_PoolRealArray(v: PoolRealArray):
	_ran("p_PoolRealArray", [v])

remote func p_PoolStringArray(v: PoolStringArray):
	_ran("p_PoolStringArray", [v])

remote func p_PoolVector2Array(v: PoolVector2Array):
	_ran("p_PoolVector2Array", [v])

remote func p_PoolVector3Array(v: PoolVector3Array):
	_ran("p_PoolVector3Array", [v])

remote func p_PoolColorArray(v: PoolColorArray):
	_ran("p_PoolColorArray", [v])

remote func p_Untyped(v):
	_ran("p_Untyped", [v])

remote func p_Node(v: Node):
	_ran("p_Node", [v])

remote func p_Object(v: Object):
	_ran("p_Object", [v])

remote func p_Reference(v: Reference):
	_ran("p_Reference", [v])

remote func c_defaults(a: int, b: int = 1, c: String = "x"):
	_ran("c_defaults", [a, b, c])

remote func c_two(a, b):
	_ran("c_two", [a, b])

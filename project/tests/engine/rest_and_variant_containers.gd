extends SceneTree

func w(xs: Array[Variant]) -> void:
	print("RAN w ", xs)

func d(x: Dictionary[Variant, Variant]) -> void:
	print("RAN d ", x)

func v(a: int, ...more) -> void:
	print("RAN v ", a, " ", more)

func _init() -> void:
	callv("w", [[1, "a"]])
	callv("d", [{1: 2}])
	callv("v", [1, "x", 2.5])
	callv("v", [])
	print("DONE")
	quit()

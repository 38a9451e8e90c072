# SPDX-License-Identifier: MIT
# Tells the test harness what ran (tools/engines/projects/harness4.gd); does nothing in a game without it.
static func ran(node: Node, method: String, args: Array) -> void:
	var h := node.get_node_or_null("/root/GdwireHarness")
	if h:
		h.got(node, method, args)

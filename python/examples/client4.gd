# SPDX-License-Identifier: MIT
# A Godot 4 client for python/examples/server.py: connects with StreamPeerTCP, sends put_var requests,
# prints each reply it gets with get_var as "REPLY<TAB>var_to_str(reply)", then "DONE".
# Run headless: godot --headless --path DIR --script res://client4.gd -- PORT
extends SceneTree

func _init():
	var port := 7777
	var args := OS.get_cmdline_user_args()
	if args.size() > 0:
		port = int(args[0])
	var peer := StreamPeerTCP.new()
	if peer.connect_to_host("127.0.0.1", port) != OK:
		print("FAIL\tconnect")
		quit(1)
		return
	var waited := 0
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING and waited < 5000:
		peer.poll()
		OS.delay_msec(10)
		waited += 10
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		print("FAIL\tnot connected")
		quit(1)
		return
	var requests := [
		{"op": "ping"},
		{"op": "move", "pos": Vector2(1.5, -2.0), "by": Vector2(0.25, 4.0)},
		{"op": "echo", "value": [1, 2.5, "héllo", Vector3i(1, 2, 3), {"k": PackedInt32Array([7, 8])}, NodePath("a/b:c"), Color(0.5, 0.25, 1, 1)]},
		{"op": "nope"},
	]
	for r in requests:
		peer.put_var(r)
		var reply = null
		var t := 0
		while peer.get_available_bytes() < 4 and t < 5000:
			peer.poll()
			OS.delay_msec(5)
			t += 5
		reply = peer.get_var()
		if typeof(reply) == TYPE_DICTIONARY and reply.has("pong"):
			reply["pong"] = "(time)"  # the server's clock, not comparable between runs
		print("REPLY\t", var_to_str(reply).replace("\n", " "))
	peer.disconnect_from_host()
	print("DONE")
	quit(0)

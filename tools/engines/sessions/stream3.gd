# SPDX-License-Identifier: MIT
# One peer of a Godot 3 plain-TCP session (tools/engines/sessions/make_session.sh ENGINE tcp):
#   GDW_ROLE=server|a|b GDW_PORT=N GDW_LOG=FILE godot3-server --no-window -s stream3.gd
# The server listens with TCP_Server; a and b connect with StreamPeerTCP. Each side sends every value
# of values() to the other, alternately with StreamPeer.put_var and through a PacketPeerStream's
# put_var (both write a 4-byte little-endian length, then the value's bytes), and reads what comes
# with PacketPeerStream.get_var. Each peer logs, one JSON object a line, what it sends (before the
# engine sends it: var2bytes of the value, its SHA-256 and size) and what it received: what
# `gdwire capture` of the session is held against (capture_test). As stream4.gd, in Godot 3's API.
extends SceneTree

var role = ""
var log_file = File.new()
var server
var conns = []
var streams = []
var sent_to = []
var received = 0
var seq = 0
var done_at = -1.0
var clock = 0.0
var vals = []

func values():
	var big = PoolByteArray()
	big.resize(100000)
	for i in big.size():
		big[i] = (i * 7) & 255
	return [false, true, 0, -1, 127, 128, -129, 32767, -32769, 40000, 2147483647, -2147483649, 1 << 40,
		1.5, -0.0, "text", "ünïcödé", NodePath("a/b:c"), Vector2(1, 2), Vector3(1, -2, 3),
		Color(0.25, 0.5, 0.75, 1.0), Rect2(1, 2, 3, 4), Quat(0, 0, 0, 1), Transform.IDENTITY,
		[1, "a", [true]], {"k": 2, 3: [4.5]}, PoolStringArray(["x", "y"]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolIntArray([1, -2, 3]), null, big, "the last"]

func _initialize():
	role = OS.get_environment("GDW_ROLE")
	var port = int(OS.get_environment("GDW_PORT"))
	log_file.open(OS.get_environment("GDW_LOG"), File.WRITE)
	vals = values()
	_log({"event": "start", "role": role, "transport": "tcp", "engine": Engine.get_version_info().string})
	if role == "server":
		server = TCP_Server.new()
		var listening = server.listen(port, "127.0.0.1")
		assert(listening == OK)
	else:
		var c = StreamPeerTCP.new()
		var connecting = c.connect_to_host("127.0.0.1", port)
		assert(connecting == OK)
		_add(c)

func _add(c):
	var s = PacketPeerStream.new()
	s.input_buffer_max_size = 1 << 20  # the default (64 KiB) refuses the 100,000-byte value
	s.output_buffer_max_size = 1 << 20
	s.stream_peer = c
	conns.append(c)
	streams.append(s)
	sent_to.append(false)

func _log(d):
	d["seq"] = seq
	seq += 1
	log_file.store_line(to_json(d))
	log_file.flush()

func _value_log(d, v):
	var b = var2bytes(v)
	var h = HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	h.update(b)
	d["sha256"] = h.finish().hex_encode()
	d["size"] = b.size()
	if b.size() <= 2048:
		d["bytes"] = b.hex_encode()
		d["text"] = var2str(v)
	return d

func _idle(delta):
	clock += delta
	if server and server.is_connection_available():
		_add(server.take_connection())
	for i in conns.size():
		var c = conns[i]
		if c.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			continue
		if not sent_to[i]:
			sent_to[i] = true
			var k = 0
			for v in vals:
				# put_var on the StreamPeer for even values, on the PacketPeerStream for odd ones
				var framing = "stream_peer" if k % 2 == 0 else "packet_peer_stream"
				_log(_value_log({"event": "var_sent", "role": role, "connection": i, "framing": framing}, v))
				if k % 2 == 0:
					c.put_var(v)
				else:
					var put = streams[i].put_var(v)
					assert(put == OK)
				k += 1
		while streams[i].get_available_packet_count() > 0:
			var v = streams[i].get_var()
			received += 1
			_log(_value_log({"event": "var_received", "role": role, "connection": i}, v))
	var want = vals.size() * (2 if role == "server" else 1)
	if received >= want and done_at < 0:
		done_at = clock
	if (done_at >= 0 and clock - done_at > 0.5) or clock > 30.0:
		_log({"event": "quit", "received": received})
		for c in conns:
			c.disconnect_from_host()
		return true
	return false

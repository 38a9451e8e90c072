# Extends the class_name Unit; the old keywords sync (remotesync) and slave (puppet); remote and puppet variables (rset).
extends Unit

puppet var health = 100
remote var title = ""
var plain = 0

sync func legacy_sync(n):
	Trace.got(self, "legacy_sync", [n])

slave func legacy_slave(text):
	Trace.got(self, "legacy_slave", [text])

remote func Zeta(a, b: int):
	Trace.got(self, "Zeta", [a, b])

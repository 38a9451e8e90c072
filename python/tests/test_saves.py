# SPDX-License-Identifier: MIT
"""gdwire.open_save and write_save (issue 63) on the files Godot 3.2.3, 3.6.2 and 4.6.3 wrote (conformance/saves/):
every file opens to the store_var bytes of the values the engine logged, and its values re-encode to those bytes; a
wrong password is SaveError WRONG_KEY; the Brotli file 4.6.3 could not read back is refused; 3.6.2's save written as
Godot 4 is 4.6.3's own file (zstd) or holds 4.6.3's plain bytes (encrypted, opened again)."""
from __future__ import annotations

import json
import os
import tempfile
import unittest
from typing import Dict, List, Tuple

import gdwire

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAVES = os.path.join(ROOT, "conformance", "saves")
DIALECT = {"godot3.2": "godot3", "godot3.6": "godot3", "godot4.6": "godot4"}


def engine_log(engine: str) -> Tuple[Dict[str, bytes], Dict[str, str], Dict[str, int]]:
    values: Dict[int, bytes] = {}
    stored: Dict[str, List[int]] = {}
    secrets: Dict[str, str] = {}
    readback: Dict[str, int] = {}
    with open(os.path.join(SAVES, engine, "log.jsonl"), encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "engine":
                secrets = {"password": e["password"], "key": e["key"]}
            elif e["event"] == "value" and "file" not in e:
                values[e["index"]] = bytes.fromhex(e["bytes"])
            elif e["event"] == "open" and e.get("phase") == "write":
                stored[e["file"]] = []
            elif e["event"] == "stored":
                stored[e["file"]].append(e["index"])
            elif e["event"] == "open" and e.get("phase") == "readback":
                readback[e["file"]] = e["error"]
    plain = {f: b"".join(len(values[i]).to_bytes(4, "little") + values[i] for i in idx) for f, idx in stored.items()}
    return plain, secrets, readback


class SavesTest(unittest.TestCase):
    def test_engine_files(self) -> None:
        read = 0
        for engine, dialect in DIALECT.items():
            plain, secrets, readback = engine_log(engine)
            for name, want in sorted(plain.items()):
                path = os.path.join(SAVES, engine, name)
                sfx = name.rsplit(".", 1)[1]
                password = secrets["password"] if sfx == "pass" else None
                key = bytes.fromhex(secrets["key"]) if sfx in ("key", "keyiv") else None
                if readback.get(name, 0) != 0:
                    with self.assertRaises(gdwire.SaveError, msg=path):
                        gdwire.open_save(path, password=password, key=key, dialect=dialect)
                    continue
                save = gdwire.open_save(path, password=password, key=key, dialect=dialect)
                self.assertEqual(save.plain, want, path)
                again = b"".join(len(b).to_bytes(4, "little") + b for b in (gdwire.encode(v, dialect) for v in save.values))
                self.assertEqual(again, want, f"{path}: its values re-encoded")
                read += 1
                if sfx in ("pass", "key", "keyiv"):
                    self.assertEqual(save.header["container"], "encrypted")
                    self.assertEqual(save.header["generation"], 3 if dialect == "godot3" else 4)
                    with self.assertRaises(gdwire.SaveError) as cm:
                        gdwire.open_save(path, password="wrong", dialect=dialect)
                    self.assertEqual(cm.exception.status, "WRONG_KEY")
                    with self.assertRaises(gdwire.SaveError) as cm:
                        gdwire.open_save(path, dialect=dialect)
                    self.assertEqual(cm.exception.status, "NEED_KEY")
        self.assertEqual(read, 22)  # 7 + 7 + 8: every file the engines read back themselves

    def test_godot3_save_as_godot4(self) -> None:
        _, secrets, _ = engine_log("godot3.6")
        plain4, _, _ = engine_log("godot4.6")
        old = gdwire.open_save(os.path.join(SAVES, "godot3.6", "game.pass"), password=secrets["password"], dialect="godot3")
        with open(os.path.join(SAVES, "godot4.6", "game.zstd"), "rb") as f:
            self.assertEqual(gdwire.write_save(None, old.values, "godot4", "compressed:zstd"), f.read())
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "game.pass")
            gdwire.write_save(out, old.values, "godot4", "encrypted", password=secrets["password"])
            new = gdwire.open_save(out, password=secrets["password"], dialect="godot4")
            self.assertEqual(new.plain, plain4["game.plain"])
            self.assertEqual(new.header["layout"], "encrypted-godot4")
            with self.assertRaises(FileExistsError):  # never over a file
                gdwire.write_save(out, old.values, "godot4", "plain")

    def test_caps_and_keys(self) -> None:
        with self.assertRaises(gdwire.SaveError) as cm:
            gdwire.open_save(os.path.join(SAVES, "godot4.6", "game.zstd"), max_plain=4096)
        self.assertEqual((cm.exception.status, cm.exception.offset), ("TOO_BIG", 12))
        # open_encrypted_with_pass's key: String.md5_text(), conformance/saves/README.md
        self.assertEqual(gdwire.save_key_from_password("gdwire issue 63: Zoë's save ✓"), b"ce3de92a5fca8d864ac8fef8282324bb")
        with self.assertRaises(gdwire.SaveError) as cm:
            gdwire.write_save(None, [1], "godot4", "compressed:brotli")
        self.assertEqual(cm.exception.status, "UNSUPPORTED")


if __name__ == "__main__":
    unittest.main()

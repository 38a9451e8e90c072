#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The gdwire Python package as a conformance testee (docs/testee-protocol.md, gdwire-testee/1): each request's
packet is decoded with gdwire.decode in the dialect and mode asked for, and the value encoded back with
gdwire.encode, so the runner judges the Python package, its value mapping included, against the vectors:

    bazel run //conformance:testee -- --testee 'python3 python/testee.py' --dialect godot4 --mode strict
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gdwire  # noqa: E402


def answer(line: str, detail: bool = True) -> str:
    rid, dialect, mode, objects, hexs = line.rstrip("\n").split("\t")
    data = b"" if hexs == "-" else bytes.fromhex(hexs)
    try:
        value, used = gdwire.decode_with_length(data, dialect, mode, allow_objects=objects == "1")
    except gdwire.DecodeError as e:
        # the error class as gdwire's own testee gives it: the engine's Error, else gdwire's status
        cls = e.engine_error if e.engine_error != "-" else e.code
        why = f"{e.code} at byte {e.offset}{' in ' + e.path if e.path else ''}: {e.message}".replace("\t", " ")
        return f"{rid}\trejected\t-\t-\t{cls}\t{why}"
    except ValueError as e:  # an unknown dialect or mode
        return f"{rid}\tunsupported\t-\t-\t-\t{str(e).replace(chr(9), ' ')}"
    try:
        enc = gdwire.encode(value, dialect).hex() or "-"
    except gdwire.EncodeError:
        enc = "-"
    text = repr(value).replace("\t", " ").replace("\n", " ")[:200] if detail else "-"
    return f"{rid}\taccepted\t{used}\t{enc}\t-\t{text}"


def main() -> None:
    out = sys.stdout
    out.write(f"gdwire-testee/1\tgdwire-python\t{gdwire.__version__} (library {gdwire.library_version})\t1\n")
    out.flush()
    for line in sys.stdin:
        if line.strip():
            out.write(answer(line) + "\n")
            out.flush()


if __name__ == "__main__":
    main()

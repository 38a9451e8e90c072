# SPDX-License-Identifier: MIT
"""Checks JSON Lines on stdin against one definition of docs/gdwire.schema.json.

usage: validate_json.py SCHEMA DEF [MIN_LINES]   (DEF: check, decode, frame_error, dialects, value)
Prints the number of valid lines; exits 1 on the first invalid one.
"""
import json
import sys

import jsonschema

# jsonschema descends one $ref per nesting level: the engines' deepest packets need more than
# Python's default 1,000 frames
sys.setrecursionlimit(100000)

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
ref = {"$ref": "#/$defs/" + sys.argv[2], "$defs": schema["$defs"]}
validator = jsonschema.Draft202012Validator(ref)
n = 0
for line in sys.stdin:
    if not line.strip():
        continue
    doc = json.loads(line)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        print("line %d: %s at %s" % (n + 1, e.message[:300], "/".join(map(str, e.absolute_path))), file=sys.stderr)
        sys.exit(1)
    n += 1
need = int(sys.argv[3]) if len(sys.argv) > 3 else 1
if n < need:
    print("only %d lines, want %d" % (n, need), file=sys.stderr)
    sys.exit(1)
print(n)

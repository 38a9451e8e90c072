#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""amalgamate.py OUT_DIR — write gdwire.h and gdwire.c: the codec and the dialect tables as one
translation unit, for projects that drop two files into their tree (README "Using the library").

gdwire.h and gdwire_check.h are codec/'s as they are. gdwire.c is the wings' headers in the order they build on
each other (codec/table, value, wire, engine, forms, then codec/api.h), then every codec/*.c and
codec/WING/*.c (the same lists Bazel and CMake take from the folders), with the project's own
#include lines dropped: compile it alone, with no include path.
"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OWN_INCLUDE = re.compile(r'^\s*#\s*include\s+"codec/[a-z_/]+\.h"\s*$')
# The installed headers, written beside gdwire.c as they are (gdwire_check.h includes gdwire.h).
PUBLIC = ["gdwire.h", "gdwire_check.h"]
# The wings' headers, each after the ones it includes (docs/library.md "Layout").
HEADERS = ["codec/table/dialects.h", "codec/value/arena.h", "codec/value/value.h", "codec/value/digest.h", "codec/wire/wire.h", "codec/wire/walk.h", "codec/engine/engine.h",
           "codec/engine/pass.h", "codec/forms/forms.h", "codec/api.h"]


def body(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = ["", "/* ==== %s ==== */" % path]
    out += [l for l in lines if not OWN_INCLUDE.match(l) and not l.startswith("/* SPDX-License-Identifier")]
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tools/amalgamate.py OUT_DIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name in PUBLIC:
        with open(os.path.join(ROOT, "codec", name), encoding="utf-8") as f:
            header = f.read()
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(header)
    sources = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "codec", "*.c")) + glob.glob(os.path.join(ROOT, "codec", "*", "*.c"))
                     if os.sep + "tests" + os.sep not in p)
    headers = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "codec", "*.h")) + glob.glob(os.path.join(ROOT, "codec", "*", "*.h"))
                     if os.sep + "tests" + os.sep not in p and os.path.basename(p) not in PUBLIC)
    if sorted(HEADERS) != headers:
        sys.exit("amalgamate: the library's headers are %s; HEADERS lists %s" % (headers, HEADERS))
    lines = ["/* SPDX-License-Identifier: MIT */",
             "/* gdwire.c — the gdwire codec and dialect tables in one file, written by tools/amalgamate.py",
             " * from %d sources; do not edit. Compile it with gdwire.h and gdwire_check.h beside it. */" % len(sources),
             "#if !defined(_GNU_SOURCE) && !defined(__cplusplus)",
             "#define _GNU_SOURCE",
             "#endif",
             '#include "gdwire_check.h"']
    for path in HEADERS + sources:
        lines += body(path)
    with open(os.path.join(out_dir, "gdwire.c"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("amalgamate: %s/gdwire.c (%d sources, %d lines), gdwire.h and gdwire_check.h" % (out_dir, len(sources), len(lines)))


if __name__ == "__main__":
    main()

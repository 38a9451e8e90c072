# SPDX-License-Identifier: MIT
"""Builds the gdwire package: the CPython extension gdwire._gdwire, compiled from this checkout's C library
(../codec) and gdwire/_gdwire.c. Offline, with Debian's python3-dev and python3-setuptools:

    pip install --no-build-isolation ./python        # or: python3 -m build --wheel --no-isolation python
"""
import glob
import os

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def codec_sources():
    found = []
    for sub in ("", "table", "value", "wire", "engine", "forms"):
        found += sorted(glob.glob(os.path.join(ROOT, "codec", sub, "*.c")))
    if not found:
        raise SystemExit("gdwire: the C library's sources (codec/) are not beside python/: build from a gdwire checkout")
    # relative to this folder, as setuptools wants
    return [os.path.relpath(p, HERE) for p in found]


setup(
    ext_modules=[
        Extension(
            "gdwire._gdwire",
            sources=["gdwire/_gdwire.c"] + codec_sources(),
            include_dirs=[os.path.relpath(ROOT, HERE)],
            define_macros=[("_GNU_SOURCE", None)],
            extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden"],
            libraries=["m"],
        )
    ],
)

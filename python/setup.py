# SPDX-License-Identifier: MIT
"""An in-place build of the CPython extension gdwire._gdwire, for the tests (python/tests/run.sh):

    python3 setup.py build_ext --inplace

with setuptools (Debian's python3-setuptools). Its sources and flags are the build backend's
(_build/gdwire_build.py), which `pip install ./python` uses and which needs no setuptools: the C library, its
session reader, and zlib and zstd where the probe finds them."""
import os
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_build"))
import gdwire_build  # noqa: E402

setup(
    ext_modules=[
        Extension(
            "gdwire._gdwire",
            sources=["gdwire/_gdwire.c"] + [os.path.relpath(p, HERE) for p in gdwire_build.codec_sources() + gdwire_build.session_sources() + gdwire_build.project_sources()],
            include_dirs=[os.path.relpath(d, HERE) for d in gdwire_build.include_dirs()],
            define_macros=[(d, None) for d in gdwire_build.defines()],
            extra_compile_args=gdwire_build.CFLAGS,
            libraries=gdwire_build.libraries(),
        )
    ],
)

# SPDX-License-Identifier: MIT
"""gdwire's build backend (PEP 517), with nothing Python does not ship: it compiles the CPython extension
gdwire._gdwire from this checkout's C library (../codec) and gdwire/_gdwire.c with the C compiler Python was built
with (sysconfig), and writes the wheel with zipfile. So `pip install --no-index ./python` builds offline under any
Python 3.9+ (Debian's, pyenv's, a venv without setuptools or wheel); it needs a C compiler and the interpreter's
headers (Python.h: Debian's python3-dev). setup.py, for an in-place build (`python3 setup.py build_ext --inplace`),
takes its sources and flags from here."""
import base64
import glob
import hashlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
ROOT = os.path.dirname(HERE)
PACKAGE_FILES = ["__init__.py", "_streams.py", "_values.py", "_gdwire.pyi", "py.typed"]
DEFINES = ["_GNU_SOURCE"]
CFLAGS = ["-std=c11", "-O2", "-fvisibility=hidden"]
LIBS = ["m"]


def codec_sources():
    """The C library's sources, beside python/ in a checkout."""
    found = []
    for sub in ("", "table", "value", "wire", "engine", "forms"):
        found += sorted(glob.glob(os.path.join(ROOT, "codec", sub, "*.c")))
    if not found:
        raise SystemExit("gdwire: the C library's sources (codec/) are not beside python/: build from a gdwire checkout")
    return found


def _project():
    """name, version, summary and requires-python from pyproject.toml's [project] (a regular expression: tomllib
    is not in Python 3.9 and 3.10)."""
    text = open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8").read()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]
    field = lambda k: re.search(r'^%s\s*=\s*"([^"]*)"' % k, section, re.M).group(1)  # noqa: E731
    return {"name": field("name"), "version": field("version"), "summary": field("description"),
            "requires_python": field("requires-python")}


def _tag():
    impl = sys.implementation.name
    if impl != "cpython":
        raise SystemExit(f"gdwire: the extension is for CPython, not {impl}")
    py = "cp%d%d" % sys.version_info[:2]
    return "%s-%s%s-%s" % (py, py, getattr(sys, "abiflags", ""), re.sub(r"[-.]", "_", sysconfig.get_platform()))


def _compile(out_dir):
    """The extension, built into out_dir; its file name."""
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        raise SystemExit(f"gdwire: {include}/Python.h is missing: install this Python's headers "
                         f"(Debian: apt-get install python3-dev; pyenv and python.org builds have them)")
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    name = "_gdwire" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    cmd = (cc + ["-shared", "-fPIC"] + CFLAGS + ["-D" + d for d in DEFINES] + ["-I" + ROOT, "-I" + include] +
           [os.path.join(HERE, "gdwire", "_gdwire.c")] + codec_sources() + ["-o", os.path.join(out_dir, name)] +
           ["-l" + lib for lib in LIBS])
    try:
        subprocess.run(cmd, check=True)
    except FileNotFoundError:
        raise SystemExit(f"gdwire: no C compiler ({cc[0]}): install one (Debian: apt-get install gcc)") from None
    return name


def _metadata(p):
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nLicense: MIT\nRequires-Python: %s\n" %
            (p["name"], p["version"], p["summary"], p["requires_python"]))


def _dist_info(p):
    return "%s-%s.dist-info" % (p["name"], p["version"])


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = _project()
    d = os.path.join(metadata_directory, _dist_info(p))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata(p))
    return _dist_info(p)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p, tag = _project(), _tag()
    wheel = "%s-%s-%s.whl" % (p["name"], p["version"], tag)
    info = _dist_info(p)
    record = []

    def add(z, arc, data):
        z.writestr(zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_DEFLATED)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (arc, digest, len(data)))

    with tempfile.TemporaryDirectory() as tmp:
        ext = _compile(tmp)
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as z:
            for name in PACKAGE_FILES:
                add(z, "gdwire/" + name, open(os.path.join(HERE, "gdwire", name), "rb").read())
            add(z, "gdwire/" + ext, open(os.path.join(tmp, ext), "rb").read())
            add(z, info + "/METADATA", _metadata(p).encode())
            add(z, info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: gdwire_build\nRoot-Is-Purelib: false\nTag: %s\n" % tag).encode())
            record.append(info + "/RECORD,,")
            z.writestr(zipfile.ZipInfo(info + "/RECORD", date_time=(2020, 1, 1, 0, 0, 0)), "\n".join(record) + "\n")
    return wheel

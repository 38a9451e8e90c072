# SPDX-License-Identifier: MIT
"""gdwire's build backend (PEP 517), with nothing Python does not ship: it compiles the CPython extension
gdwire._gdwire from this checkout's C library (../codec), its session reader (../session) and gdwire/_gdwire.c with
the C compiler Python was built with (sysconfig), and writes the wheel with zipfile. The session reader reads ENet
datagrams compressed with zlib or zstd through those libraries where the machine has them (their headers and
libraries: Debian's zlib1g-dev, libzstd-dev): a probe compiles and links a line against each with the same compiler,
and the extension is built with the ones found (gdwire.compressions_built() says which), and without the rest. So `pip install --no-index ./python` builds offline under any
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
PACKAGE_FILES = ["__init__.py", "_saves.py", "_session.py", "_streams.py", "_values.py", "_gdwire.pyi", "py.typed"]
DEFINES = ["_GNU_SOURCE"]
CFLAGS = ["-std=c11", "-O2", "-fvisibility=hidden"]
# dlopen (the range coder's libenet, loaded when a Session asks for it): in glibc's libdl before 2.34
LIBS = ["m"] + (["dl"] if sys.platform.startswith("linux") else [])
# The optional compressions of the session reader (session/compress.c): the define that turns each on, the library
# it links, and one line that needs both the header and the library
OPTIONAL = [
    ("zlib", "GDW_HAVE_ZLIB", "z", "#include <zlib.h>\nint main(void) { z_stream z = {0}; return inflateInit2(&z, 15) == Z_OK ? inflateEnd(&z) : 1; }\n"),
    ("zstd", "GDW_HAVE_ZSTD", "zstd", "#include <zstd.h>\nint main(void) { ZSTD_DCtx *c = ZSTD_createDCtx(); return ZSTD_freeDCtx(c) != 0; }\n"),
    # the file containers (files/files.c): AES-256 and MD5 of encrypted saves, Godot 4's Brotli-compressed files
    ("libcrypto", "GDW_HAVE_LIBCRYPTO", "crypto", "#include <openssl/evp.h>\nint main(void) { return EVP_aes_256_ecb() == 0; }\n"),
    ("brotli", "GDW_HAVE_BROTLI", "brotlidec", "#include <brotli/decode.h>\nint main(void) { size_t n = 0; return BrotliDecoderDecompress(0, 0, &n, 0) == 9; }\n"),
]
DEBIAN = {"zlib": "zlib1g-dev", "zstd": "libzstd-dev", "libcrypto": "libssl-dev", "brotli": "libbrotli-dev"}


def codec_sources():
    """The C library's sources, beside python/ in a checkout."""
    found = []
    for sub in ("", "table", "value", "wire", "engine", "forms"):
        found += sorted(glob.glob(os.path.join(ROOT, "codec", sub, "*.c")))
    if not found:
        raise SystemExit("gdwire: the C library's sources (codec/) are not beside python/: build from a gdwire checkout")
    return found


def session_sources():
    """The session reader's sources (session/gdwire_session.h), beside python/ in a checkout."""
    found = sorted(glob.glob(os.path.join(ROOT, "session", "*.c")))
    found += sorted(glob.glob(os.path.join(ROOT, "files", "*.c")))  # the file containers, and FastLZ shared with them
    if not found:
        raise SystemExit("gdwire: the session reader's sources (session/) are not beside python/: build from a gdwire checkout")
    return found


def project_sources():
    """A project's RPCs (project/gdwire_project.h: Session(project=...)), beside python/ in a checkout."""
    found = sorted(glob.glob(os.path.join(ROOT, "project", "*.c")))
    if not found:
        raise SystemExit("gdwire: the project reader's sources (project/) are not beside python/: build from a gdwire checkout")
    return found


def include_dirs():
    """The checkout (codec/gdwire.h, session/gdwire_session.h) and codec/, whose gdwire.h the session reader includes
    by its bare name."""
    return [ROOT, os.path.join(ROOT, "codec")]


def _compiler():
    return shlex.split(sysconfig.get_config_var("CC") or "cc")


def _links(cc, source, lib):
    """Whether source compiles and links against -l<lib> with cc (quietly)."""
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "probe.c")
        with open(c, "w", encoding="utf-8") as f:
            f.write(source)
        try:
            r = subprocess.run(cc + [c, "-o", os.path.join(tmp, "probe"), "-l" + lib], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        except OSError:
            return False
        return r.returncode == 0


_FOUND = None


def compressions():
    """The optional compressions this machine can build in: [(name, define, library)], probed once a build.
    GDWIRE_BUILD_WITHOUT=zlib,zstd leaves those out without a probe (a build as on a machine without them)."""
    global _FOUND
    if _FOUND is None:
        cc = _compiler()
        without = set(filter(None, os.environ.get("GDWIRE_BUILD_WITHOUT", "").split(",")))
        unknown = without - {name for name, _, _, _ in OPTIONAL}
        if unknown:
            raise SystemExit("gdwire: GDWIRE_BUILD_WITHOUT names %s: only %s are optional" % (", ".join(sorted(unknown)),
                                                                                              ", ".join(n for n, _, _, _ in OPTIONAL)))
        _FOUND = [(name, define, lib) for name, define, lib, source in OPTIONAL if name not in without and _links(cc, source, lib)]
        have = [name for name, _, _ in _FOUND]
        missing = [name for name, _, _, _ in OPTIONAL if name not in have]
        print("gdwire: optional libraries built in: %s%s" %
              (", ".join(have) or "none",
               "; not built in (no headers or library): %s (Debian: apt-get install %s)" %
               (", ".join(missing), " ".join(DEBIAN[n] for n in missing)) if missing else ""),
              file=sys.stderr)
    return _FOUND


def defines():
    """The extension's defines: the fixed ones and each optional compression found."""
    return DEFINES + [define for _, define, _ in compressions()]


def libraries():
    """The libraries the extension links: the fixed ones and each optional compression's."""
    return LIBS + [lib for _, _, lib in compressions()]


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
    cc = _compiler()
    name = "_gdwire" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    cmd = (cc + ["-shared", "-fPIC"] + CFLAGS + ["-D" + d for d in defines()] + ["-I" + d for d in include_dirs()] +
           ["-I" + include] + [os.path.join(HERE, "gdwire", "_gdwire.c")] + codec_sources() + session_sources() + project_sources() +
           ["-o", os.path.join(out_dir, name)] + ["-l" + lib for lib in libraries()])
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

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/setup.sh [--engines] [--build-engines] — install every Debian package gdwire needs.
# Idempotent: a second run installs nothing and takes a second. Needs root (or sudo) on Debian 12.
#   --engines        also the real engines the test suite asks (Godot 4.6 and 3.6 from Debian sid,
#                    about 700 MB: tools/engines/setup). Checking a packet does not need them.
#   --build-engines  also what tools/engines/build needs to build engines from Debian's source
#                    packages (SCons, ccache, and the libraries a "+ds" source leaves out).
set -euo pipefail

engines=0 build_engines=0
for arg in "$@"; do
  case "$arg" in
    --engines) engines=1 ;;
    --build-engines) build_engines=1 ;;
    -h|--help) sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown argument '$arg' (--engines, --build-engines, --help)" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

PACKAGES=(
  bazel-bootstrap bazel-rules-java   # the build (Bazel 4.2.3, WORKSPACE mode, offline)
  gcc clang lld-14 llvm-14 libclang-rt-14-dev   # compilers, sanitizers, libFuzzer, coverage
  clang-format-14                    # codec:format_test: codec/ is as .clang-format formats it
  libyaml-dev                        # conformance vectors
  libenet-dev                        # guard/tests: the hostile ENet client (hostile_client.c) links libenet
  tcpdump                            # guard/tests: both sides of a guarded session captured on lo (tools/engines/guard/honest_session.sh)
  libenet7                           # gdwire capture: ENet's range coder (Godot 3.4+ compresses with it); it reads pcap and pcapng itself
  libpcap0.8                         # gdwire capture -i: a live interface (loaded then only; tools/engines:live_capture_test)
  zlib1g-dev libzstd-dev             # the session library: ENet datagrams Godot compresses with zlib or zstd
  libssl-dev libbrotli-dev           # the file containers (files/): AES-256 and MD5 of FileAccessEncrypted (libcrypto), Godot 4's Brotli-compressed files (read only)
  afl++                              # second fuzzing engine
  godot3-server                      # the real Godot 3.2.3 engine, used as an oracle
  python3 xxd zip unzip              # small helpers used by tests and tools
  time                               # GNU time: a command's peak RSS (bench/growth.py, session:capture_caps_test)
  bsdextrautils                      # hexdump: cli_test reads its -C dumps with --dump
  locales                            # de_DE.UTF-8 for codec:locale_test (the text form in a comma-decimal locale)
  cmake pkg-config g++               # the CMake build, find_package and pkg-config consumers, the header from C++ (//:cmake_consumer_test, //:amalgamation_test)
  valgrind                           # instruction budgets: callgrind in bench:budget_test
  wireshark-dev tshark               # the Wireshark plugin (wireshark/): Wireshark 4.0's headers and libraries, and the tshark, editcap and randpkt its tests drive
  python3-jsonschema                 # the CLI test checks its JSON output against docs/gdwire.schema.json
  python3-dev python3-setuptools python3-pip python3-venv python3-build   # the Python package (python/): its build, pip install and python3 -m build
  python3-hypothesis python3-msgpack mypy   # the Python package's property tests, its bench beside msgpack, and mypy --strict on its types
  nodejs emscripten node-typescript  # the npm package (js/): Node, the C library compiled to WebAssembly, tsc on its declarations
  esbuild chromium                   # the page (web/): its script bundled into one file, and the headless browser its test drives
  gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user   # the codec on a big-endian host (codec:bigendian_test);
                                     # the s390x C library is only "recommended" by the compiler, so name it
)
# Debian's npm, unless a Node from elsewhere (nodesource's nodejs provides npm and conflicts with Debian's) has one
command -v npm > /dev/null || PACKAGES+=(npm)
[ "$engines" = 0 ] || PACKAGES+=(mmdebstrap)   # makes the engines' Debian sid root (tools/engines/setup)
# tools/engines/build: SCons and ccache; curl, gpgv, the archive keyring, xz and dpkg-source to fetch
# and check a Debian source package; the system libraries Debian's repacked Godot source uses
[ "$build_engines" = 0 ] || PACKAGES+=(scons ccache curl gpgv debian-archive-keyring xz-utils dpkg-dev
  libpng-dev libfreetype-dev libbrotli-dev libmbedtls-dev)   # (zlib1g-dev and libzstd-dev are in the list above)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
else
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # wireshark-common asks whether non-root users may capture: no (answered before it asks)
  echo 'wireshark-common wireshark-common/install-setuid boolean false' | $SUDO debconf-set-selections
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done"
fi
[ "$engines" = 0 ] || $SUDO "$here/engines/setup"

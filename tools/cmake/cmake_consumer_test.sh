#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cmake_consumer_test.sh — what the README promises a CMake or Make user, done as they would:
# build and install gdwire with CMake from a copy of the sources, check that the shared library
# exports exactly the functions gdwire.h declares (GDW_API) with its soname, then build the example
# (examples/reply.c) out of tree against the installed library through find_package(gdwire) (shared
# and static) and through pkg-config, and run each on real engines' requests: the reply bytes must be
# the engines' own (examples/README.md). The installed command checks a packet too.
set -uo pipefail
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/cmake.XXXXXX"); trap 'rm -rf "$T"' EXIT
source tools/need.sh
need "a CMake user's build, install and find_package" cmake pkg-config
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1" >&2; failed=$((failed + 1)); fi; }
die() { echo "FAIL: $*" >&2; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

# the sources, as a user's checkout has them (the test's runfiles are links)
mkdir -p "$T/src"
for f in CMakeLists.txt codec/*.c codec/*.h codec/*/*.c codec/*/*.h session/*.c session/*.h files/*.c files/*.h project/*.c project/*.h guard/*.c guard/*.h docs/rpc-manifest.schema.json cli/*.c cli/*.h docs/gdwire.1 docs/*.md docs/gdwire.schema.json tools/man_to_c.sh \
         tools/cmake/* tools/cmake/consumer/CMakeLists.txt tools/cmake/subdir/CMakeLists.txt examples/reply.c examples/*.hex cli/samples/*.hex; do
    [ -f "$f" ] || continue
    mkdir -p "$T/src/$(dirname "$f")"; cp -L "$f" "$T/src/$f"
done
[ -f "$T/src/CMakeLists.txt" ] || die "no CMakeLists.txt in the test's data"
prefix=$T/prefix
cmake -S "$T/src" -B "$T/build" -DCMAKE_INSTALL_PREFIX="$prefix" > "$T/log" 2>&1 || { cat "$T/log"; die "cmake configure"; }
cmake --build "$T/build" -j 2 >> "$T/log" 2>&1 || { cat "$T/log"; die "cmake --build"; }
cmake --install "$T/build" >> "$T/log" 2>&1 || { cat "$T/log"; die "cmake --install"; }
check "no compiler warning in the CMake build" '! grep -i "warning:" "$T/log"'
libdir=$(dirname "$(find "$prefix" -name libgdwire.so | head -1)")
for doc in text-format.md json.md gdwire.schema.json dialects.md convert.md library.md capture.md; do
    check "installed: the document the man page names: $doc" '[ -f "$prefix/share/doc/gdwire/$doc" ]'
done
check "installed: header, static and shared library, config, pc, command, man page" \
    '[ -f "$prefix/include/gdwire.h" ] && [ -f "$prefix/include/gdwire_check.h" ] && [ -f "$prefix/include/gdwire_session.h" ] && [ -f "$prefix/include/gdwire_pcap.h" ] && [ -f "$prefix/include/gdwire_files.h" ] && [ -f "$prefix/include/gdwire_project.h" ] && [ -f "$libdir/libgdwire.a" ] && [ -f "$libdir/libgdwire.so" ] && [ -f "$libdir/cmake/gdwire/gdwire-config.cmake" ] && [ -f "$libdir/pkgconfig/gdwire.pc" ] && [ -x "$prefix/bin/gdwire" ] && [ -f "$prefix/share/man/man1/gdwire.1" ]'

# exported symbols: exactly the GDW_API declarations of gdwire.h, gdwire_check.h, gdwire_session.h, gdwire_pcap.h and gdwire_files.h
nm -D --defined-only "$libdir/libgdwire.so" | awk '{print $3}' | sort > "$T/exported"
cat codec/gdwire.h codec/gdwire_check.h session/gdwire_session.h session/gdwire_pcap.h files/gdwire_files.h project/gdwire_project.h | grep -o '^GDW_API [^(]*gdw_[a-z0-9_]*(' | grep -o 'gdw_[a-z0-9_]*($' | tr -d '(' | sort > "$T/declared"
check "exports differ from the installed headers' GDW_API declarations: $(diff "$T/exported" "$T/declared" | head -5 | tr '\n' ' ')" 'diff -q "$T/exported" "$T/declared" > /dev/null'
check "at least 90 functions exported" '[ "$(wc -l < "$T/exported")" -ge 90 ]'
version=$(sed -n 's/^#define GDW_VERSION "\(.*\)"/\1/p' codec/gdwire.h)
soname=$(objdump -p "$libdir/libgdwire.so" | awk '/SONAME/ {print $2}')
check "soname $soname for version $version" '[ "$soname" = "libgdwire.so.${version%.*}" ]'

want4=$(tr -d ' \n' < examples/reply-godot4.hex)
want3=$(tr -d ' \n' < examples/reply-godot3.hex)
run_reply() { # NAME BINARY
    for g in godot4 godot3; do
        got=$("$2" examples/request-$g.hex | sed -n 's/^bytes    //p')
        want=$want4; [ "$g" = godot3 ] && want=$want3
        check "$1 on the $g request: '$got'" '[ "$got" = "$want" ]'
    done
}

# find_package(gdwire), shared and static
cmake -S "$T/src/tools/cmake/consumer" -B "$T/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DREPLY_SOURCE="$T/src/examples/reply.c" > "$T/clog" 2>&1 \
    && cmake --build "$T/consumer" >> "$T/clog" 2>&1 || { cat "$T/clog"; die "the find_package consumer does not build"; }
run_reply "find_package, shared" "$T/consumer/reply_shared"
run_reply "find_package, static" "$T/consumer/reply_static"
check "the static consumer does not need libgdwire.so" '! ldd "$T/consumer/reply_static" | grep -q libgdwire'

# add_subdirectory: gdwire::gdwire_static from the sources, no command built, nothing of gdwire installed
cmake -S "$T/src/tools/cmake/subdir" -B "$T/subdir" -DGDWIRE_SOURCE="$T/src" -DREPLY_SOURCE="$T/src/examples/reply.c" \
    -DCMAKE_INSTALL_PREFIX="$T/subdir-prefix" > "$T/slog" 2>&1 \
    && cmake --build "$T/subdir" -j 2 >> "$T/slog" 2>&1 && cmake --install "$T/subdir" >> "$T/slog" 2>&1 \
    || { cat "$T/slog"; die "the add_subdirectory consumer does not build"; }
run_reply "add_subdirectory, static" "$T/subdir/reply"
check "add_subdirectory builds no gdwire command" '[ ! -e "$T/subdir/gdwire/gdwire" ]'
check "installing the parent installs only its own program: $(cd "$T/subdir-prefix" && find . -type f | tr '\n' ' ')" \
    '[ "$(cd "$T/subdir-prefix" && find . -type f)" = "./bin/reply" ]'
check "no warning in the add_subdirectory build" '! grep -i "warning:" "$T/slog"'

# pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
check "pkg-config --modversion" '[ "$(pkg-config --modversion gdwire)" = "$version" ]'
cc -std=c99 -Wall -Wextra -Werror $(pkg-config --cflags gdwire) examples/reply.c $(pkg-config --libs gdwire) -lm -Wl,-rpath,"$libdir" -o "$T/reply_pc" 2> "$T/pclog" \
    || { cat "$T/pclog"; die "the pkg-config consumer does not build"; }
run_reply "pkg-config" "$T/reply_pc"

# relocatable (issue 34): installed with --prefix elsewhere than configured, the .pc points at
# where it is, not at the configured prefix
moved=$T/moved
cmake --install "$T/build" --prefix "$moved" >> "$T/log" 2>&1 || die "cmake --install --prefix"
mpc=$(find "$moved" -name gdwire.pc | head -1)
pc_dir() { realpath -m "$(PKG_CONFIG_PATH=$(dirname "$mpc") pkg-config "$1" gdwire | sed "s/^$2//; s/ *$//")"; }
check "the moved gdwire.pc gives -I its own include folder" '[ "$(pc_dir --cflags -I)" = "$(realpath "$moved/include")" ]'
check "the moved gdwire.pc gives -L its own library folder" '[ "$(pc_dir --libs-only-L -L)" = "$(realpath "$(dirname "$(dirname "$mpc")")")" ]'
check "the moved gdwire.pc does not name the configured prefix" '! grep -q "$prefix" "$mpc"'

# the installed command
check "installed gdwire --version" '"$prefix/bin/gdwire" --version | grep -q "^gdwire $version "'
check "installed gdwire checks a packet" '"$prefix/bin/gdwire" check --hex cli/samples/godot3-game-state.hex > /dev/null'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

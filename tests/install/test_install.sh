#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and checks what a user
# gets: headers, libraries, the tool, the schema, the pkg-config file, and
# a CMake package that find_package(minex) finds and links.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [EXTRA_C_FLAGS]
set -euo pipefail
build="$1" src="$2" extra="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir="$(ls -d "$prefix"/lib*/ | head -n 1)"
for f in include/minex.h include/minex_version.h bin/minex \
  share/minex/minex-config.xsd share/doc/minex/LICENSE share/doc/minex/NOTICE; do
  [ -e "$prefix/$f" ] || { echo "missing $f"; exit 1; }
done
for f in libminex.so libminex.a pkgconfig/minex.pc cmake/minex/minexConfig.cmake; do
  [ -e "$libdir/$f" ] || { echo "missing lib/$f"; exit 1; }
done
"$prefix/bin/minex" --version
# pkg-config: compile and link the consumer by hand
PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --exists minex
# shellcheck disable=SC2086  # the flag lists are meant to split
cc $extra $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags minex) \
  "$src/tests/install/consumer/consumer.c" -o "$work/consumer_pc" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --libs minex) \
  -Wl,-rpath,"$libdir"
"$work/consumer_pc"
# find_package(minex)
cmake -S "$src/tests/install/consumer" -B "$work/consumer" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_RPATH="$libdir" \
  -DCMAKE_C_FLAGS="$extra" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
echo "install: ok"

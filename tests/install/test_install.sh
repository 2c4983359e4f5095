#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build tree into a temporary prefix and checks what a user
# gets: headers, libraries, the tool and its man pages, the schema, the
# docs (the API reference when built), the pkg-config
# file, and a CMake package that find_package(minex) finds and links
# (shared and static; GSL and libxml2 are private dependencies of the
# shared library, link-only ones of the static library). The prefix is then MOVED before anything is built
# against it or run from it: the consumers, built against the moved prefix,
# load the installed example configurations through the installed library,
# which proves the install relocatable (no path of the build tree or of the
# first prefix is needed).
# The MPI layer, when built: the installed MPI examples (mpi_quickstart,
# mpi_adapt with its workload model) are built from the moved prefix with
# pkg-config (minex_mpi) and with the installed CMake project
# (find_package), each run on 2 ranks of MPICH; the Open MPI flavour
# (libminex_mpi_openmpi) builds mpi_quickstart both ways and runs it on 2
# ranks of Open MPI.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [EXTRA_C_FLAGS [TOOL [MPI
#                        [MPILIB [OPENMPI]]]]]
# (TOOL 0: built with -DMINEX_BUILD_TOOLS=OFF, no bin/minex expected;
# MPI 1: minex-sweep-mpi was built, bin/minex-sweep-mpi expected;
# MPILIB 1: libminex_mpi was built; OPENMPI 1: libminex_mpi_openmpi was)
set -euo pipefail
build="$1" src="$2" extra="${3:-}" tool="${4:-1}" mpi="${5:-0}"
mpilib="${6:-$mpi}" openmpi="${7:-0}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
first="$work/prefix"
cmake --install "$build" --prefix "$first" >/dev/null
files=(include/minex.h include/minex_version.h
  share/minex/minex-config.xsd share/doc/minex/LICENSE share/doc/minex/NOTICE
  share/doc/minex/reference/api.md share/doc/minex/SPEC.md share/doc/minex/README.md
  share/doc/minex/img/table1log_maxqwgt.png
  share/doc/minex/examples/hetero4.xml)
[ "$tool" = 0 ] || files+=(bin/minex share/man/man1/minex.1
  share/man/man1/minex-repart.1)
# the API reference, when the docs target built it
[ ! -f "$build/docs/api/html/index.html" ] ||
  files+=(share/doc/minex/api/index.html)
[ "$mpi" = 0 ] || files+=(bin/minex-sweep-mpi)
mpiex=share/doc/minex/examples/mpi
[ "$mpilib" = 0 ] || files+=(include/minex_mpi.h include/minex_parmetis.h
  share/doc/minex/guide/mpi.md "$mpiex/CMakeLists.txt" "$mpiex/mpi_quickstart.c"
  "$mpiex/mpi_adapt.c" "$mpiex/adapt.h" "$mpiex/adapt.c")
for f in "${files[@]}"; do
  [ -e "$first/$f" ] || { echo "missing $f"; exit 1; }
done
libdir="$(basename "$(find "$first" -maxdepth 1 -name 'lib*' | head -n 1)")"
libs=(libminex.so libminex.a pkgconfig/minex.pc cmake/minex/minexConfig.cmake)
[ "$mpilib" = 0 ] || libs+=(libminex_mpi.so cmake/minex/minexMpiTargets.cmake
  pkgconfig/minex_mpi.pc)
[ "$openmpi" = 0 ] || libs+=(libminex_mpi_openmpi.so
  cmake/minex/minexMpiOpenmpiTargets.cmake pkgconfig/minex_mpi_openmpi.pc)
for f in "${libs[@]}"; do
  [ -e "$first/$libdir/$f" ] || { echo "missing $libdir/$f"; exit 1; }
done
# the library names neither the source tree's schema nor the prefix
for lib in "$first/$libdir"/libminex.so.*.*; do
  if grep -q -a -e "$src/schema" -e "$first" "$lib"; then
    echo "$lib embeds a build or install path"
    exit 1
  fi
done

# move the whole prefix; the first one no longer exists
prefix="$work/moved/elsewhere"
mkdir -p "$work/moved"
mv "$first" "$prefix"
[ ! -e "$first" ]
lib="$prefix/$libdir"
# no schema on disk may help: not the build tree's, not the installed one
unset MINEX_SCHEMA_DIR
[ "$tool" = 0 ] || "$prefix/bin/minex" --version
# a man page per command of the installed tool, and minex(1), each shown
# by man -l (MANPATH: man finds them by name in the moved prefix too)
if [ "$tool" != 0 ]; then
  mandir="$prefix/share/man/man1"
  cmds="$("$prefix/bin/minex" --help | awk '/^Commands:$/ { on = 1; next }
    on && /^$/ { exit }
    on && /^  [a-z0-9-]+  +/ { print $1 }')"
  # every page the build made (minex-sweep-mpi.1 too, when made) is
  # installed as made
  for f in "$build"/man/man1/*.1; do
    cmp -s "$f" "$mandir/$(basename "$f")" ||
      { echo "man page $(basename "$f") not installed as built"; exit 1; }
  done
  # shellcheck disable=SC2046,SC2086  # one word per command
  for page in minex $(printf 'minex-%s ' $cmds); do
    [ -f "$mandir/$page.1" ] || { echo "missing man page $page.1"; exit 1; }
    shown="$(MANWIDTH=80 man -l "$mandir/$page.1" 2>/dev/null)"
    case "$shown" in
    *NAME*"$page "*) ;;
    *) echo "man -l shows no $page.1"; exit 1 ;;
    esac
  done
  found="$(MANPATH="$prefix/share/man" man -w minex-repart)"
  [ "$found" = "$mandir/minex-repart.1" ] ||
    { echo "man finds minex-repart at '$found', not in $mandir"; exit 1; }
fi
examples=("$prefix"/share/doc/minex/examples/*.xml)
[ "${#examples[@]}" -ge 1 ]
# pkg-config: compile and link the consumer by hand
export PKG_CONFIG_PATH="$lib/pkgconfig"
pkg-config --exists minex
# shellcheck disable=SC2046,SC2086  # the flag lists are meant to split
cc $extra $(pkg-config --cflags minex) \
  "$src/tests/install/consumer/consumer.c" -o "$work/consumer_pc" \
  $(pkg-config --libs minex) -Wl,-rpath,"$lib"
for x in "${examples[@]}"; do "$work/consumer_pc" "$x"; done
# pkg-config --static: the static library and its private dependencies
# shellcheck disable=SC2046,SC2086
cc $extra $(pkg-config --cflags minex) \
  "$src/tests/install/consumer/consumer.c" -o "$work/consumer_pc_static" \
  "$lib/libminex.a" $(pkg-config --libs --static minex | sed 's/-lminex / /')
"$work/consumer_pc_static" "${examples[0]}"
# find_package(minex): shared and static
cmake -S "$src/tests/install/consumer" -B "$work/consumer" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_RPATH="$lib" \
  -DCMAKE_C_FLAGS="$extra" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer" "${examples[0]}"
"$work/consumer/consumer_static" "${examples[0]}"
# libminex_mpi: the installed MPI examples built against the moved prefix,
# run on 2 ranks of MPICH, named explicitly (Debian's Open MPI may own
# mpicc and mpiexec); MPI_Init's third-party leak suppressed in the
# sanitizer build (tests/lsan.supp)
mpirun_mpich() {
  LSAN_OPTIONS="suppressions=$src/tests/lsan.supp" HWLOC_COMPONENTS=-pci \
    timeout 60 mpiexec.mpich -n 2 "$@"
}
# the smallest mpi_adapt run that still repartitions and migrates, with
# every rank's trees checked against the whole-mesh model
adapt_args=(--box 3 --steps 2 --iters 2 --flops 10 --check)
if [ "$mpilib" != 0 ]; then
  ex="$prefix/$mpiex"
  pkg-config --exists minex_mpi
  # pkg-config with the plain compiler: minex_mpi.pc requires mpich.pc
  # shellcheck disable=SC2046,SC2086
  cc $extra "$ex/mpi_quickstart.c" -o "$work/mpi_quickstart_pc" \
    $(pkg-config --cflags --libs minex_mpi) -Wl,-rpath,"$lib"
  mpirun_mpich "$work/mpi_quickstart_pc" >/dev/null
  # and with MPICH's wrapper
  # shellcheck disable=SC2046,SC2086
  mpicc.mpich $extra -D_POSIX_C_SOURCE=200809L "$ex/mpi_adapt.c" \
    "$ex/adapt.c" "$ex/adapt_refine.c" -o "$work/mpi_adapt_pc" \
    $(pkg-config --cflags --libs minex_mpi) -lm -Wl,-rpath,"$lib"
  mpirun_mpich "$work/mpi_adapt_pc" "${adapt_args[@]}" >/dev/null
  # find_package(minex): the installed CMake project of the examples
  cmake -S "$ex" -B "$work/mpi_cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_RPATH="$lib" -DCMAKE_C_FLAGS="$extra" >/dev/null
  cmake --build "$work/mpi_cmake" >/dev/null
  mpirun_mpich "$work/mpi_cmake/mpi_quickstart" >/dev/null
  mpirun_mpich "$work/mpi_cmake/mpi_adapt" "${adapt_args[@]}" >/dev/null
  # the MPICH flavour links MPICH, not Open MPI
  if readelf -d "$work/mpi_quickstart_pc" | grep -q 'NEEDED.*libmpi\.so'; then
    echo "the minex_mpi consumer links Open MPI"
    exit 1
  fi
fi
# libminex_mpi_openmpi: mpi_quickstart with Open MPI's wrapper and
# pkg-config, and with the CMake project (MINEX_MPI_FLAVOUR=openmpi), on 2
# ranks of Open MPI (allowed to run as root, oversubscribing the cores;
# Open MPI's own allocations at exit are not checked for leaks)
if [ "$openmpi" != 0 ]; then
  ex="$prefix/$mpiex"
  mpirun_openmpi() {
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      OMPI_MCA_rmaps_base_oversubscribe=1 ASAN_OPTIONS=detect_leaks=0 \
      timeout 60 mpiexec.openmpi -n 2 "$@"
  }
  # shellcheck disable=SC2046,SC2086
  mpicc.openmpi $extra "$ex/mpi_quickstart.c" -o "$work/mpi_quickstart_ompi" \
    $(pkg-config --cflags --libs minex_mpi_openmpi) -Wl,-rpath,"$lib"
  mpirun_openmpi "$work/mpi_quickstart_ompi" >/dev/null
  cmake -S "$ex" -B "$work/mpi_cmake_ompi" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_RPATH="$lib" -DCMAKE_C_FLAGS="$extra" \
    -DMINEX_MPI_FLAVOUR=openmpi >/dev/null
  cmake --build "$work/mpi_cmake_ompi" --target mpi_quickstart >/dev/null
  mpirun_openmpi "$work/mpi_cmake_ompi/mpi_quickstart" >/dev/null
  for exe in "$work/mpi_quickstart_ompi" "$work/mpi_cmake_ompi/mpi_quickstart"; do
    if ! readelf -d "$exe" | grep -q 'NEEDED.*libminex_mpi_openmpi' ||
      readelf -d "$exe" | grep -q 'NEEDED.*libmpich'; then
      echo "$exe does not link libminex_mpi_openmpi alone (MPICH linked?)"
      exit 1
    fi
  done
fi
# GSL, libxml2 and threads are private dependencies of the shared library:
# its users do not link them (pkg-config --libs, find_package)
case " $(pkg-config --libs minex) " in
*gsl* | *xml2* | *pthread*)
  echo "pkg-config --libs minex names a private dependency"
  exit 1
  ;;
esac
for exe in "$work/consumer_pc" "$work/consumer/consumer"; do
  if readelf -d "$exe" | grep -E 'NEEDED.*(libgsl|libxml2)'; then
    echo "$exe links a private dependency of libminex.so"
    exit 1
  fi
done
echo "install: ok (relocated to $prefix)"

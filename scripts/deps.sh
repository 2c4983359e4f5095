#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the dependencies of MinEX on Debian 12 (apt-get), in three
# sets: what building and running the library, the tool and the demo
# needs (MINEX_BUILD_DEPS, scripts/demo.sh), what the tests, sanitizers,
# fuzzing, formatting and the MPI driver need on top (MINEX_TEST_DEPS,
# scripts/test.sh), and what the Python package and its tests need
# (MINEX_PYTHON_DEPS). Sourced by those scripts; run directly it installs
# every set (bash scripts/deps.sh) or one (bash scripts/deps.sh build,
# bash scripts/deps.sh python). Skips apt-get when every package is
# already installed; when something is missing and we are not root, says
# what to install and carries on (the build then tells).
set -euo pipefail

# build, install and the demo: compiler, CMake, the libraries, MPICH (the
# MPI layer, libminex_mpi, and minex-sweep-mpi: built and installed
# whenever MPICH is found), gnuplot (the demo's plots)
MINEX_BUILD_DEPS=(cmake gcc make pkg-config libgsl-dev libxml2-dev
  mpich libmpich-dev
  zlib1g-dev # the compressed data arrays of .vtu meshes (src/mesh/vtu.c)
  uthash-dev
  libscotch-dev # the from-scratch candidate (src/scratch); it pulls in
  #               Open MPI: every MPI use names MPICH (docs/design/architecture.md)
  #               and libminex_mpi_openmpi is built on it
  libopenmpi-dev openmpi-bin
  gnuplot-nox)
# the tests on top: Check, valgrind, clang and its runtimes (libFuzzer,
# scripts/fuzz.sh; OpenMP and archer for the ThreadSanitizer stage),
# clang-format
# (scripts/format_check.sh), xmllint and GNU time (scripts/errors_table.sh),
# python3 (the docs test, scripts/doc_commands.py), METIS (the peer
# benchmark's METIS driver, bench/peers; not the library), Doxygen and the
# man-page tools (the reference, docs/reference/build-reference.md), locales
MINEX_TEST_DEPS=(libxml2-utils check libsubunit-dev valgrind python3
  gmsh python3-gmsh # the partitioned Gmsh output opens in Gmsh
  #                 (tests/programs/gmsh_parts_check.py; about 170 MB)
  time
  clang libclang-rt-14-dev
  libomp-14-dev # clang's OpenMP runtime and its ThreadSanitizer tool
  #               (libarcher): the TSan stage of scripts/test.sh
  clang-format
  libmetis-dev
  doxygen # the C API reference, the docs target (cmake/Docs.cmake)
  man-db groff-base # man -l and groff -ww: the man_pages test
  locales) # de_DE.UTF-8 for tests/io/test_locale.c (minex_gen_locales)
# the Python package (python/, docs/guide/python.md) and its tests: Debian's
# numpy, scipy, pytest and matplotlib for Debian's python3, and what
# installs the package into a virtual environment that sees them (venv,
# setuptools, wheel), with no package index (bash scripts/deps.sh python)
MINEX_PYTHON_DEPS=(python3-numpy python3-scipy python3-pytest
  python3-matplotlib python3-venv python3-setuptools python3-wheel)
MINEX_DEPS=("${MINEX_BUILD_DEPS[@]}" "${MINEX_TEST_DEPS[@]}"
  "${MINEX_PYTHON_DEPS[@]}")

# minex_missing_deps PACKAGE...: those of the packages not installed.
minex_missing_deps() {
  local p missing=()
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
      grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]:-}"
}

# minex_install_deps [build|python|all]: the build set, the Python set,
# or every set (default).
minex_install_deps() {
  local want=("${MINEX_DEPS[@]}")
  case "${1:-all}" in
  build) want=("${MINEX_BUILD_DEPS[@]}") ;;
  python) want=("${MINEX_PYTHON_DEPS[@]}") ;;
  all) ;;
  *)
    echo "deps: unknown set '$1' (build, python or all)" >&2
    return 2
    ;;
  esac
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; install: ${want[*]}" >&2
    return 0
  fi
  local missing
  missing="$(minex_missing_deps "${want[@]}")"
  if [ -z "$missing" ]; then
    echo "deps: all installed"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: not root, not installing: $missing" >&2
    return 0
  fi
  echo "deps: installing $missing"
  apt-get update
  # shellcheck disable=SC2086  # word splitting of the package list is meant
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    $missing
}

# The decimal-comma locale that tests/io/test_locale.c runs under: made
# with locale-gen when missing (root only; the test fails when it is
# missing and we are root, and skips otherwise).
MINEX_TEST_LOCALE=de_DE.UTF-8
minex_gen_locales() {
  if locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
    echo "locales: $MINEX_TEST_LOCALE present"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v locale-gen >/dev/null 2>&1; then
    echo "locales: not generating $MINEX_TEST_LOCALE (not root or no" \
      "locale-gen): tests/io/test_locale.c will not pass" >&2
    return 0
  fi
  echo "locales: generating $MINEX_TEST_LOCALE"
  [ -f /etc/locale.gen ] || touch /etc/locale.gen
  if grep -q '^# *de_DE.UTF-8 UTF-8' /etc/locale.gen; then
    sed -i 's/^# *\(de_DE.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  elif ! grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen; then
    echo 'de_DE.UTF-8 UTF-8' >>/etc/locale.gen
  fi
  locale-gen
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  minex_install_deps "${1:-all}"
  [ "${1:-all}" != all ] || minex_gen_locales
fi

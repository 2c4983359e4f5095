#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build and test dependencies of MinEX on Debian 12 (apt-get).
# Sourced or run by scripts/test.sh and scripts/demo.sh. Skips apt-get when
# every package is already installed; when something is missing and we are
# not root, says what to install and carries on (the build then tells).
set -euo pipefail

MINEX_DEPS=(cmake gcc make pkg-config libgsl-dev libxml2-dev libxml2-utils
  uthash-dev check libsubunit-dev valgrind python3
  libscotch-dev # the from-scratch candidate (src/scratch; pulls in Open MPI:
  #               every MPI use names MPICH, docs/architecture.md)
  libmetis-dev # the peer benchmark's METIS driver (bench/peers; not the library)
  mpich libmpich-dev gnuplot-nox time
  clang libclang-rt-14-dev # clang + its runtimes: libFuzzer (scripts/fuzz.sh)
  clang-format # scripts/format_check.sh
  locales) # de_DE.UTF-8 for tests/io/test_locale.c (minex_gen_locales)

minex_missing_deps() {
  local p missing=()
  for p in "${MINEX_DEPS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
      grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]:-}"
}

minex_install_deps() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; install: ${MINEX_DEPS[*]}" >&2
    return 0
  fi
  local missing
  missing="$(minex_missing_deps)"
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
  minex_install_deps
  minex_gen_locales
fi

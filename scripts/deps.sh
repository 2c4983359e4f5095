#!/usr/bin/env bash
# Installs the build and test dependencies of MinEX on Debian 12 (apt-get).
# Sourced or run by scripts/test.sh and scripts/demo.sh. Skips apt-get when
# every package is already installed; when something is missing and we are
# not root, says what to install and carries on (the build then tells).
set -euo pipefail

MINEX_DEPS=(cmake gcc make pkg-config libgsl-dev libxml2-dev libxml2-utils
  uthash-dev check libsubunit-dev valgrind python3
  mpich libmpich-dev gnuplot-nox time
  clang libclang-rt-14-dev) # clang + its runtimes: libFuzzer (scripts/fuzz.sh)

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

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  minex_install_deps
fi

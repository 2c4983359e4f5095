#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the peers of the side-by-side benchmark (bench/peers/README.md)
# on Debian 12 with apt-get: METIS 5, Scotch 7, Zoltan (Trilinos) and the
# Open MPI headers Debian's Zoltan is built against, plus what run.sh uses
# (GNU time for peak RSS, gnuplot, python3). Not part of the main set-up
# (scripts/deps.sh): the benchmark is optional and CMake builds each driver
# only when its library is found. Idempotent: installs nothing when every
# package is present; when something is missing and we are not root, says
# what to install and exits 1.
set -euo pipefail

PEERS_DEPS=(libmetis-dev libscotch-dev libtrilinos-zoltan-dev libopenmpi-dev
  time gnuplot-nox python3)

missing=()
for p in "${PEERS_DEPS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
    grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "bench/peers/setup.sh: all installed:"
  for p in libmetis-dev libscotch-dev libtrilinos-zoltan-dev; do
    echo "  $p $(dpkg-query -W -f='${Version}' "$p")"
  done
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "bench/peers/setup.sh: not a Debian system; install: ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "bench/peers/setup.sh: not root; as root run:" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "bench/peers/setup.sh: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  "${missing[@]}"

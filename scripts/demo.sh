#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job on built-in data: installs the build dependencies (not the
# test tools: scripts/deps.sh build), builds MinEX in build-demo/ (with
# the MPI layer: libminex_mpi on MPICH, libminex_mpi_openmpi on Open MPI,
# minex-sweep-mpi; docs/guide/install-mpi.md), installs it into a prefix
# (default install/ in the clone; MINEX_PREFIX chooses another) and runs the default adaptive-mesh simulation (minex
# sim, docs/design/experiments.md): the built-in box of 50,400 tetrahedra adapted
# 9 times by a moving cylinder (50,400 -> ~1.8 million leaf elements),
# repartitioned by MinEX between adaptations for a heterogeneous machine
# of 4 clusters (P = 32, Proc 1,1,2,2, inter-cluster Conn 10), beside the
# no-partitioning baseline. Prints the per-step table; writes the plots
# (PNG, SVG), the per-step CSV and VTK files of steps 1, 5 and 9 to
# build-demo/out/. Ends with the line that puts the installed `minex` on
# PATH (README's set-up).
# Usage: bash scripts/demo.sh   [MINEX_PREFIX=DIR]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${MINEX_PREFIX:-$root/install}"
# shellcheck source=scripts/deps.sh
source "$root/scripts/deps.sh"
minex_install_deps build

build="$root/build-demo"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DMINEX_BUILD_TESTS=OFF -DMINEX_BUILD_BENCH=OFF -DMINEX_BUILD_MPI=ON >/dev/null
# the MPI layer is part of the install (MPICH is in the build set,
# scripts/deps.sh): said when it cannot be built
mpi=1
[ -e "$build/minex_mpi.pc" ] || {
  mpi=0
  echo "demo: MPICH not found: installing without the MPI layer" \
    "(libminex_mpi, minex-sweep-mpi); install mpich libmpich-dev" >&2
}
# the build's output only when it fails
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$build/build.log" 2>&1 ||
  { cat "$build/build.log"; exit 1; }
cmake --install "$build" --prefix "$prefix" >"$build/install.log" 2>&1 ||
  { cat "$build/install.log"; exit 1; }
minex="$prefix/bin/minex"
out="$build/out"
mkdir -p "$out"

"$minex" sim --plots "$out" --csv "$out/sim_steps.csv" \
  --vtk-steps 1,5,9 --vtk-prefix "$out/sim"
echo
echo "== outputs in $out: sim_loads.png/.svg (per-step loads), sim_steps.csv,"
echo "   sim_step1.vtk, sim_step5.vtk, sim_step9.vtk (open in ParaView)"
echo "== MinEX installed in $prefix (bin/minex, include/, lib/, share/doc/minex/);"
if [ "$mpi" = 1 ]; then
  echo "   with the MPI layer: lib/pkgconfig/minex_mpi.pc, bin/minex-sweep-mpi"
else
  echo "   WITHOUT the MPI layer (MPICH not found: install mpich libmpich-dev)"
fi
echo "   to run the README's examples, put minex on PATH:"
if [ "$prefix" = "$PWD/install" ]; then
  # shellcheck disable=SC2016  # printed for the user to type
  echo '   export PATH="$PWD/install/bin:$PATH"'
else
  echo "   export PATH=\"$prefix/bin:\$PATH\""
fi

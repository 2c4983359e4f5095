#!/usr/bin/env bash
# The main job on built-in data: installs the dependencies, builds MinEX,
# generates a tetrahedral box of about 1e5 elements, weights a refined ball
# (Pwgt x8), takes an RCB partition into 64 parts made before refinement,
# and repartitions it for 4 clusters of 16 processors (Proc 1,1,2,2;
# Conn 1 inside, 10 between: docs/examples/hetero4.xml), printing the
# metrics before and after. Outputs go to build-demo/out/.
# Usage: bash scripts/demo.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/deps.sh
source "$root/scripts/deps.sh"
minex_install_deps

build="$root/build-demo"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DMINEX_BUILD_TESTS=OFF -DMINEX_BUILD_BENCH=OFF >/dev/null
# the build's output only when it fails
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$build/build.log" 2>&1 ||
  { cat "$build/build.log"; exit 1; }
minex="$build/src/tool/minex"
out="$build/out"
mkdir -p "$out"

echo "== 1. mesh, refined ball and the old partition (RCB, before refinement)"
"$minex" gen --elements 100000 --refine --part "$out/old.part" --nparts 64 \
  -o "$out/box.graph"
echo
echo "== 2. the graph"
"$minex" info "$out/box.graph"
echo
echo "== 3. repartition for docs/examples/hetero4.xml"
"$minex" repart "$out/box.graph" --old "$out/old.part" \
  --config "$root/docs/examples/hetero4.xml" -o "$out/new.part"
echo
echo "== outputs in $out: box.graph, old.part, new.part"

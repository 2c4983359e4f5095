#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every candidate of minex_repartition on the peer benchmark's cases (the
# multilevel run under k, the ladder's rungs, the from-scratch candidate):
# its T_k after the coarse partition and at the end, from `minex repart -v`,
# for k = 10, 100, 1000 and alpha = 0, 1 on step 1 of each case; then
# candidates.py scores rules that would cut candidates by their coarse T_k
# (bench/peers/README.md "Which candidate wins").
#   bench/peers/candidates.sh CASES_DIR [MINEX] > log; python3 bench/peers/candidates.py log
# CASES_DIR is the cases/ folder of a bench/peers/run.sh output.
set -euo pipefail
cases="${1:?usage: candidates.sh CASES_DIR [MINEX]}"
minex="${2:-build/programs/minex}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for cdir in "$cases"/*/; do
  name="$(basename "$cdir")"
  [ -f "$cdir/case_step1.graph" ] || continue
  for k in 10 100 1000; do
    for a in 0 1; do
      "$minex" repart "$cdir/case_step1.graph" --old "$cdir/case_initial.part" \
        --config "$cdir/case_config.xml" --iters "$k" --alpha "$a" --seed 1 \
        -o "$out" -v 2>&1 |
        grep -E "partition \(k|ladder: k|diffusive: k|scratch: T_k|scratch: Scotch" |
        sed "s|^|$name k=$k a=$a |" || true
    done
  done
done

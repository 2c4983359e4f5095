#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares MinEX's rows of two peer-benchmark runs, row by row.

    bench/peers/compare_minex.py BEFORE/results.jsonl AFTER/results.jsonl

Each row is a case, the horizon k MinEX was told and alpha; its figure is
T_k under that k (the score run.sh records). Prints the geometric mean,
the median and the extremes of AFTER / BEFORE, and exits 1 when the change
fails the quality bar of a faster kernel: geometric mean above 1.00, the
median above 1.00, or a row worse by more than 2%. A run without peer
drivers (run.sh --no-build --build DIR, DIR holding no peer_* program)
makes MinEX's rows alone in a few minutes.
"""
import json
import math
import statistics
import sys


def rows(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("tool") != "minex":
                continue
            k = r["k_told"]
            out[(r["case"], k, r["alpha"])] = (float(r["T%d" % k]),
                                               float(r["seconds"]))
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    before, after = rows(argv[1]), rows(argv[2])
    common = sorted(k for k in before if k in after and before[k][0] > 0)
    if not common:
        print("no common MinEX rows")
        return 1
    ratio = [(after[k][0] / before[k][0], k) for k in common]
    values = [r for r, _ in ratio]
    gmean = math.exp(sum(math.log(r) for r in values) / len(values))
    median = statistics.median(values)
    worse = [x for x in ratio if x[0] > 1.02]
    print("%d rows: T_k after / before geometric mean %.4f, median %.4f, "
          "%d worse by more than 2%%, %d better by more than 1%%" %
          (len(values), gmean, median, len(worse),
           sum(r < 0.99 for r in values)))
    for r, (case, k, alpha) in sorted(ratio, reverse=True)[:5]:
        print("  worst %.4f %s k %d alpha %g" % (r, case, k, alpha))
    t0 = sum(before[k][1] for k in common)
    t1 = sum(after[k][1] for k in common)
    print("MinEX seconds, summed over the rows: %.1f -> %.1f" % (t0, t1))
    ok = gmean <= 1.0 and median <= 1.0 and not worse
    print("quality bar: %s" % ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

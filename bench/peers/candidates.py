#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scores rules that cut minex_repartition's candidates by their T_k after
the coarse partition, on the log of bench/peers/candidates.sh: for each
row (case, k, alpha) the best final T_k of all candidates against the best
of those a rule keeps (the multilevel run under k is always kept).

  margin m: a candidate is finished only when its coarse T_k is within
            (1 + m) of the best coarse T_k;
  ratio r:  a candidate is cut when its coarse T_k times r is above the
            best final T_k found so far (r: the least final/coarse seen).

Prints per rule the geometric mean of the ratio to the best, the worst
row and the candidates finished or cut."""
import math
import re
import sys


def rows(path):
    out = {}
    for line in open(path):
        m = re.match(r"(\S+) k=(\d+) a=(\d) minex: (.*)", line)
        if not m:
            continue
        key, msg = (m[1], int(m[2]), int(m[3])), m[4]
        r = out.setdefault(key, {"c": [], "scr": False})
        if msg.startswith("scratch: Scotch"):
            r["scr"] = True
            continue
        mm = re.match(r"partition \(k = ([\d.e+-]+)\).*T_k ([\d.e+-]+)", msg)
        if mm:
            r["c"].append([("S" if r["scr"] else "h") + mm[1], float(mm[2]), None])
            continue
        mm = re.match(r"(diffusive|ladder): k = [\d.e+-]+: T_k ([\d.e+-]+)", msg)
        if mm is None:
            mm = re.match(r"scratch: ()T_k ([\d.e+-]+)", msg)
        if mm and r["c"]:
            r["c"][-1][2] = float(mm[2])
    return {k: [x for x in v["c"] if x[2] is not None] for k, v in out.items()}


def geo(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: candidates.py LOG")
    data = {k: v for k, v in rows(sys.argv[1]).items() if v}
    if not data:
        sys.exit("candidates.py: no candidate lines in the log")
    print(f"{len(data)} rows, {sum(len(v) for v in data.values())} candidates")
    for m in (0, 0.02, 0.05, 0.1):
        loss, kept = [], 0
        for c in data.values():
            best = min(x[2] for x in c)
            cmin = min(x[1] for x in c)
            keep = [c[0]] + [x for x in c[1:] if x[1] <= (1 + m) * cmin]
            kept += len(keep)
            loss.append(min(x[2] for x in keep) / best)
        print(f"margin {m}: geo {geo(loss):.5f}, worst {max(loss):.4f}, "
              f"{kept / len(data):.2f} candidates finished per row")
    for r in (0.75, 0.8, 0.9):
        loss, cut, tot = [], 0, 0
        for c in data.values():
            best, cur = min(x[2] for x in c), c[0][2]
            for x in c[1:]:
                tot += 1
                if x[1] * r > cur:
                    cut += 1
                    continue
                cur = min(cur, x[2])
            loss.append(cur / best)
        print(f"ratio {r}: geo {geo(loss):.5f}, worst {max(loss):.4f}, "
              f"{cut} of {tot} candidates cut")


if __name__ == "__main__":
    main()

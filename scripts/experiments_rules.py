#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The paper's rules beside the library's defaults on the paper's studies.

    python3 scripts/experiments_rules.py --paper P1 [P2 ...] \
        --default D1 [D2 ...]

Each folder is the output of `minex sweep --table 1,2 --seed S -o DIR`,
the --paper ones with `--rules paper`, the --default ones with
`--rules default`, one folder per seed (the same seeds on both sides).
Prints Markdown tables of the run totals, the mean over the seeds with the
sample standard deviation: MaxQwgt summed over the adaptations (the
paper's figure) and T_1 summed over them (`total_horizon`, SPEC §2), and
the ratio default / paper of the T_1 sums per seed (mean and spread), for
Table 1 at ThroTTle inf and Table 2 (ThroTTle 64). Rows are matched by
their configuration; a configuration missing on either side is an error.
"""
import argparse
import csv
import os
import sys


def load(dirs, name):
    runs = []
    for d in dirs:
        with open(os.path.join(d, name + ".csv"), newline="") as f:
            runs.append({key(r): r for r in csv.DictReader(f)})
    return runs


def key(r):
    return (r["P"], r["C"], r["I"], r["alpha"], r["throttle"], r["partition"])


def stats(xs):
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    return m, (sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5


def cell(xs, scale=1000.0, fmt="%d"):
    m, s = stats([x / scale for x in xs])
    return (fmt % round(m)) + (" ±" + fmt % round(s) if len(xs) > 1 else "")


def ratio_cell(xs):
    m, s = stats(xs)
    return "%.3f" % m + (" ±%.3f" % s if len(xs) > 1 else "")


def rows(paper, default, pick):
    keys = sorted((k for k in paper[0] if pick(k)),
                  key=lambda k: (float(k[3]), float(k[2]), int(k[1])))
    for k in keys:
        for run in paper + default:
            if k not in run:
                raise SystemExit("experiments_rules.py: configuration %s "
                                 "missing in one of the folders" % (k,))
        yield k, [p[k] for p in paper], [d[k] for d in default]


def table(paper, default, pick, label):
    out = ["| %s | MaxQwgt paper | MaxQwgt default | T_1 paper | "
           "T_1 default | T_1 default / paper |" % label,
           "|---|---|---|---|---|---|"]
    for k, ps, ds in rows(paper, default, pick):
        mp = [float(r["total_maxqwgt"]) for r in ps]
        md = [float(r["total_maxqwgt"]) for r in ds]
        tp = [float(r["total_horizon"]) for r in ps]
        td = [float(r["total_horizon"]) for r in ds]
        name = {"C": "C = %s" % k[1], "IC": "alpha %s, I = %s, C = %s" %
                (k[3], k[2], k[1])}[label_kind(label)]
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            name, cell(mp), cell(md), cell(tp), cell(td),
            ratio_cell([d / p for d, p in zip(td, tp)])))
    return "\n".join(out)


def label_kind(label):
    return "C" if label == "C" else "IC"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--paper", nargs="+", required=True)
    ap.add_argument("--default", nargs="+", required=True)
    a = ap.parse_args()
    if len(a.paper) != len(a.default):
        raise SystemExit("experiments_rules.py: as many --paper as --default "
                         "folders (one per seed)")
    p1, d1 = load(a.paper, "table1"), load(a.default, "table1")
    print("Table 1 (P = 32, I = 3, alpha 1, ThroTTle inf), sums over the "
          "adaptations in thousands:\n")
    print(table(p1, d1, lambda k: k[4] == "inf", "C"))
    p2, d2 = load(a.paper, "table2"), load(a.default, "table2")
    print("\nTable 2 (P = 32, ThroTTle 64), sums over the adaptations in "
          "thousands:\n")
    print(table(p2, d2, lambda k: True, "I, C"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Refreshes our side of the side-by-side tables in docs/design/experiments.md from
the CSV files of `minex sweep --table all --seed S -o OUT` runs.

    python3 scripts/experiments_tables.py OUT1 [OUT2 ...] docs/design/experiments.md

Each "ours / paper" cell keeps the paper's value and takes ours from
OUT*/tableN.csv (MaxQwgt summed over the adaptations, in thousands; LoadImb
to two decimals). With several OUT folders (one per seed) a cell is the
mean over them followed by "±" and their sample standard deviation; the
columns without a paper value (auto, best swept, auto / best) are
recomputed from the means. The file is rewritten through a temporary file
and a rename, so a failure leaves it untouched. Only the tables change: the
prose around them must be checked by hand.
"""
import csv
import os
import re
import sys


def load(outdirs, name):
    """One list of CSV rows per folder."""
    runs = []
    for outdir in outdirs:
        path = os.path.join(outdir, name + ".csv")
        with open(path, newline="") as f:
            runs.append(list(csv.DictReader(f)))
    return runs


def pick(runs, pred):
    """The first row matching pred in each run (None when none does)."""
    got = [next((r for r in rows if pred(r)), None) for rows in runs]
    return None if got[0] is None else got


def values(rows, key):
    return [float(r[key]) for r in rows]


def mean(xs):
    return sum(xs) / len(xs)


def spread(xs):
    if len(xs) < 2:
        return None
    m = mean(xs)
    return (sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5


def kilo(rows, key="total_maxqwgt"):
    xs = [x / 1000.0 for x in values(rows, key)]
    sd = spread(xs)
    text = str(int(round(mean(xs))))
    return text if sd is None else "%s ±%d" % (text, int(round(sd)))


def imb(rows):
    xs = values(rows, "load_imb")
    sd = spread(xs)
    text = "%.2f" % mean(xs)
    return text if sd is None else "%s ±%.2f" % (text, sd)


def split_row(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def join_row(cells):
    return "| " + " | ".join(cells) + " |"


def ours(cell, value):
    """Replaces the left side of 'ours / paper' (or the whole cell)."""
    if " / " in cell:
        return value + " / " + cell.split(" / ", 1)[1]
    return value


def table1_maxqwgt(runs, header, cells):
    c = cells[0]
    out = [c]
    swept = []
    auto = pick(runs, lambda r: r["C"] == c and r["throttle"] == "auto")
    for h, cell in zip(header[1:], cells[1:]):
        rows = pick(runs, lambda r: r["C"] == c and r["throttle"] == h)
        if rows is not None and h != "auto":
            out.append(ours(cell, kilo(rows)))
            swept.append((mean(values(rows, "total_maxqwgt")), h))
        elif h == "auto":
            out.append(kilo(auto))
        elif h == "best swept":
            b = min(swept)
            out.append("%s (%s)" % (int(round(b[0] / 1000.0)), b[1]))
        elif h == "auto / best":
            out.append("%.3f" % (mean(values(auto, "total_maxqwgt")) /
                                 min(swept)[0]))
        else:
            raise ValueError("table 1: unknown column " + h)
    return out


def table1_loadimb(runs, header, cells):
    c = cells[0]
    return [c] + [ours(cell, imb(pick(runs, lambda r: r["C"] == c and
                                      r["throttle"] == h)))
                  for h, cell in zip(header[1:], cells[1:])]


def table1log(runs, header, cells):
    c = cells[0]
    out = [c]
    for h in header[1:]:
        rows = pick(runs, lambda r: r["C"] == c and r["throttle"] == h)
        out.append("%s / %s" % (kilo(rows), imb(rows)))
    return out


def table2(alpha):
    def f(runs, header, cells):
        c = cells[0]
        out = [c]
        for h, cell in zip(header[1:], cells[1:]):
            i = h.split("=")[1].strip()
            rows = pick(runs, lambda r: r["C"] == c and r["I"] == i and
                        r["alpha"] == alpha)
            out.append(ours(cell, kilo(rows)))
        return out
    return f


def table34(alpha, with_auto):
    def f(runs, header, cells):
        p = cells[0]
        out = [p]
        for h, cell in zip(header[1:], cells[1:]):
            c = h.split("C=")[1]
            auto = h.startswith("auto")
            rows = pick(runs, lambda r: r["P"] == p and r["C"] == c and
                        r["alpha"] == alpha and
                        (r["throttle"] == "auto") == auto)
            if rows is None:
                out.append(cell)  # "-" (C > P)
            elif h.startswith("MaxQwgt") or auto:
                out.append(ours(cell, kilo(rows)))
            else:
                out.append(ours(cell, imb(rows)))
        return out
    return f


SECTIONS = [
    ("### Table 1: MaxQwgt", "table1", table1_maxqwgt),
    ("### Table 1: LoadImb", "table1", table1_loadimb),
    ("### Table 1, log-spaced", "table1log", table1log),
    ("### Table 2, alpha 0", "table2", table2("0")),
    ("### Table 2, alpha 1", "table2", table2("1")),
    ("### Table 3, alpha 0", "table3", table34("0", True)),
    ("### Table 3, alpha 1", "table3", table34("1", True)),
    ("### Table 4, alpha 0", "table4", table34("0", False)),
    ("### Table 4, alpha 1", "table4", table34("1", False)),
]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdirs, doc = sys.argv[1:-1], sys.argv[-1]
    lines = open(doc).read().split("\n")
    cache = {}
    fn = None
    header = None
    done = 0
    for k, line in enumerate(lines):
        if line.startswith("#"):
            fn = None
            for prefix, name, f in SECTIONS:
                if line.startswith(prefix):
                    if name not in cache:
                        cache[name] = load(outdirs, name)
                    fn = (cache[name], f)
                    header = None
                    done += 1
            continue
        if fn is None or not line.startswith("|"):
            continue
        cells = split_row(line)
        if header is None:
            header = cells
            continue
        if set(cells[0]) <= set("-:"):
            continue
        lines[k] = join_row(fn[1](fn[0], header, cells))
    if done != len(SECTIONS):
        sys.exit("%s: found %d of the %d tables" % (doc, done, len(SECTIONS)))
    tmp = doc + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines))
    os.replace(tmp, doc)


if __name__ == "__main__":
    main()

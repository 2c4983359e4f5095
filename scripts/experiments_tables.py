#!/usr/bin/env python3
"""Refreshes our side of the side-by-side tables in docs/experiments.md from
the CSV files of `minex sweep --table all -o OUT`.

    python3 scripts/experiments_tables.py OUT docs/experiments.md

Each "ours / paper" cell keeps the paper's value and takes ours from
OUT/tableN.csv (MaxQwgt summed over the adaptations, in thousands; LoadImb
to two decimals); the columns without a paper value (auto, best swept,
auto / best) are recomputed. The file is rewritten through a temporary file
and a rename, so a failure leaves it untouched. Only the tables change: the
prose around them must be checked by hand.
"""
import csv
import os
import re
import sys


def load(outdir, name):
    path = os.path.join(outdir, name + ".csv")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def kilo(x):
    return str(int(round(float(x) / 1000.0)))


def imb(x):
    return "%.2f" % float(x)


def split_row(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def join_row(cells):
    return "| " + " | ".join(cells) + " |"


def ours(cell, value):
    """Replaces the left side of 'ours / paper' (or the whole cell)."""
    if " / " in cell:
        return value + " / " + cell.split(" / ", 1)[1]
    return value


def table1_maxqwgt(rows, header, cells):
    c = cells[0]
    by = {r["throttle"]: r for r in rows if r["C"] == c}
    out = [c]
    swept = []
    for h, cell in zip(header[1:], cells[1:]):
        if h in by and h != "auto":
            out.append(ours(cell, kilo(by[h]["total_maxqwgt"])))
            swept.append((float(by[h]["total_maxqwgt"]), h))
        elif h == "auto":
            out.append(kilo(by["auto"]["total_maxqwgt"]))
        elif h == "best swept":
            b = min(swept)
            out.append("%s (%s)" % (kilo(b[0]), b[1]))
        elif h == "auto / best":
            out.append("%.3f" % (float(by["auto"]["total_maxqwgt"]) /
                                 min(swept)[0]))
        else:
            raise ValueError("table 1: unknown column " + h)
    return out


def table1_loadimb(rows, header, cells):
    c = cells[0]
    by = {r["throttle"]: r for r in rows if r["C"] == c}
    return [c] + [ours(cell, imb(by[h]["load_imb"]))
                  for h, cell in zip(header[1:], cells[1:])]


def table1log(rows, header, cells):
    c = cells[0]
    by = {r["throttle"]: r for r in rows if r["C"] == c}
    return [c] + ["%s / %s" % (kilo(by[h]["total_maxqwgt"]),
                               imb(by[h]["load_imb"])) for h in header[1:]]


def table2(alpha):
    def f(rows, header, cells):
        c = cells[0]
        out = [c]
        for h, cell in zip(header[1:], cells[1:]):
            i = h.split("=")[1].strip()
            r = [r for r in rows if r["C"] == c and r["I"] == i and
                 r["alpha"] == alpha]
            out.append(ours(cell, kilo(r[0]["total_maxqwgt"])))
        return out
    return f


def table34(alpha, with_auto):
    def f(rows, header, cells):
        p = cells[0]
        out = [p]
        for h, cell in zip(header[1:], cells[1:]):
            c = h.split("C=")[1]
            auto = h.startswith("auto")
            sel = [r for r in rows if r["P"] == p and r["C"] == c and
                   r["alpha"] == alpha and
                   (r["throttle"] == "auto") == auto]
            if not sel:
                out.append(cell)  # "-" (C > P)
                continue
            r = sel[0]
            if h.startswith("MaxQwgt") or auto:
                out.append(ours(cell, kilo(r["total_maxqwgt"])))
            else:
                out.append(ours(cell, imb(r["load_imb"])))
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
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    outdir, doc = sys.argv[1], sys.argv[2]
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
                        cache[name] = load(outdir, name)
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

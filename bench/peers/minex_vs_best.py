#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Re-runs MinEX alone against the peers of an earlier full run.

A full `run.sh` takes about half an hour, almost all of it the peers; a
change to MinEX only needs MinEX re-run. This script takes the cases and the
peers' scores from OUT/results.jsonl (run.sh's output), runs a given `minex`
(with extra options) told each k on every case -- chained through the steps
of a multi-step case, each step from MinEX's own previous result -- and
prints, per case and alpha, T_k(MinEX) / T_k(best peer) for k = 1, 10, 100,
1000 beside the ratio of the MinEX run recorded in the file, then a summary
per k. Scores come from `minex repart --json` (SteadyMax and MaxRemap of
SPEC §2, the same figures `minex eval` gives).

    bench/peers/minex_vs_best.py MINEX [--results OUT/results.jsonl]
        [--only SUBSTRING] [-- MINEX OPTIONS...]

Example: bench/peers/minex_vs_best.py build/programs/minex -- --refine off
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

KS = (1, 10, 100, 1000)


def load(path):
    """Best peer T_k, recorded MinEX T_k and the steps, per (case, alpha)."""
    best, recorded, steps = {}, {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            key = (r["case"], r["alpha"])
            steps[key] = [(s["graph"], s["old"], s["config"]) for s in r["steps"]]
            for k in KS:
                t = r["T%d" % k]
                if r["tool"] == "minex":
                    if r.get("param") == k:
                        recorded[key + (k,)] = t
                elif key + (k,) not in best or t < best[key + (k,)]:
                    best[key + (k,)] = t
    return best, recorded, steps


def run_minex(minex, extra, chain, k, alpha, tmp):
    """T_k of MinEX told k, summed over the steps of the chain."""
    total, prev = 0.0, None
    for i, (graph, old, config) in enumerate(chain):
        out = os.path.join(tmp, "step%d.part" % i)
        cmd = [minex, "repart", graph, "--old", prev or old, "--config",
               config, "--iters", str(k), "--alpha", str(alpha), "--json",
               "-o", out] + extra
        res = subprocess.run(cmd, capture_output=True, text=True, check=True)
        d = json.loads(res.stdout)
        total += d["max_remap"] + k * d["steady_max"]
        prev = out
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("minex")
    ap.add_argument("--results", default="/tmp/minex-peers/results.jsonl")
    ap.add_argument("--only", default="")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    extra = argv[cut + 1:]
    best, recorded, steps = load(a.results)
    ratios = {k: [] for k in KS}
    with tempfile.TemporaryDirectory() as tmp:
        for key in sorted(steps):
            case, alpha = key
            if a.only not in case:
                continue
            now, before = [], []
            for k in KS:
                t = run_minex(a.minex, extra, steps[key], k, alpha, tmp)
                b = best[key + (k,)]
                now.append(t / b)
                before.append(recorded.get(key + (k,), float("nan")) / b)
                ratios[k].append(t / b)
            print("%-28s a%-2s %s   (recorded: %s)" %
                  (case, alpha, " ".join("%.3f" % x for x in now),
                   " ".join("%.3f" % x for x in before)), flush=True)
    for k in KS:
        v = sorted(ratios[k])
        if v:
            print("k=%d: %.3f-%.3f, median %.3f, above 0.95: %d, above 1: %d"
                  % (k, v[0], v[-1], v[len(v) // 2],
                     sum(x > 0.95 for x in v), sum(x > 1 for x in v)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Gathers the peer benchmark's runs (OUT/runs/CASE/RUN/stepS/, made by
run.sh) into OUT/results.jsonl, OUT/results.csv and OUT/cases.json.

One record per (case, setting, alpha): a peer's partition is scored under
every alpha (peers do not see alpha), MinEX's run told (k, alpha) only
under its own alpha. Figures of a multi-step case (the simulation) are
sums over its steps (seconds too; RSS is the largest); each record keeps
the per-step figures and files in "steps" for score.py --check.

T_k = MaxRemap + k * SteadyMax (SPEC §2) from minex eval's steady_max and
max_remap; for MinEX, eval's own horizon_time at the k it was told must
agree (relative 1e-9), and for every eval the T_1 it reports.

Usage: collect.py OUT
"""
import csv
import glob
import json
import os
import sys

SUM_KEYS = ("max_qwgt", "steady_max", "max_remap", "cut_weight", "moved",
            "total_v", "lower_bound")
RTOL = 1e-9


def load(path):
    with open(path) as f:
        return json.load(f)


def close(a, b):
    return abs(a - b) <= RTOL * max(abs(a), abs(b), 1e-300)


def write_atomic(path, text):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def case_info(cdir, name):
    nsteps = int(open(os.path.join(cdir, "nsteps")).read())
    cj = os.path.join(cdir, "case.json")
    if os.path.exists(cj):
        c = load(cj)
        return {"case": name, "kind": "single", "source": c["source"],
                "machine": os.path.basename(c["config"]).removesuffix(".xml"),
                "nvtxs": c["nvtxs"], "nedges": c["nedges"],
                "nprocs": c["nprocs"], "nclusters": c["nclusters"],
                "nsteps": nsteps, "refined_old": c["refined_old"],
                "refined": c["refined"]}
    s = load(os.path.join(cdir, "sim.json"))
    return {"case": name, "kind": "sim", "source": "minex sim workload",
            "machine": "sim default", "nvtxs": s["roots"],
            "nprocs": s["nprocs"], "nclusters": s["nclusters"],
            "nsteps": nsteps,
            "leaves": [st["leaves"] for st in s["steps"]],
            "baseline_total": s["baseline_total"]}


def collect_run(rdir, info, ks, alphas, problems):
    """Records of one run folder (one per alpha it is scored under)."""
    meta = load(os.path.join(rdir, "meta.json"))
    base = {"case": info["case"], "tool": meta["tool"],
            "method": meta["method"], "param": meta["param"]}
    if meta["tool"] == "minex":
        base["k_told"] = meta["param"]
        alphas = [meta["alpha"]]
    if os.path.exists(os.path.join(rdir, "error")):
        err = open(os.path.join(rdir, "error")).read().strip()
        return [dict(base, alpha=a, error=err) for a in alphas]
    recs = []
    for a in alphas:
        steps = []
        for s in range(1, info["nsteps"] + 1):
            sd = os.path.join(rdir, f"step{s}")
            files = load(os.path.join(sd, "files.json"))
            run = load(os.path.join(sd, "run.json"))
            ev = load(os.path.join(sd, f"eval_a{a:g}.json"))
            rss = int(open(os.path.join(sd, "rss")).read().split()[-1])
            st = dict(files, nvtxs=ev["nvtxs"], seconds=run["seconds"],
                      rss_kb=rss)
            for key in SUM_KEYS:
                st[key] = ev[key]
            for k in ks:
                st[f"T{k}"] = ev["max_remap"] + k * ev["steady_max"]
            if not close(ev["horizon_time"], st["T1"]):
                problems.append(f"{sd}: eval --iters 1 horizon_time "
                                f"{ev['horizon_time']!r} != MaxRemap + "
                                f"SteadyMax {st['T1']!r}")
            if meta["tool"] == "minex":
                k = meta["param"]
                evk = load(os.path.join(sd, "eval_k.json"))
                if not close(evk["horizon_time"], st[f"T{k}"]):
                    problems.append(f"{sd}: eval --iters {k} horizon_time "
                                    f"{evk['horizon_time']!r} != "
                                    f"{st[f'T{k}']!r}")
            steps.append(st)
        r = dict(base, alpha=a, nsteps=len(steps), nvtxs=info["nvtxs"],
                 nprocs=info["nprocs"])
        for key in SUM_KEYS + tuple(f"T{k}" for k in ks) + ("seconds",):
            r[key] = sum(st[key] for st in steps)
        r["rss_kb"] = max(st["rss_kb"] for st in steps)
        r["steps"] = steps
        recs.append(r)
    return recs


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: collect.py OUT")
    out = argv[1]
    meta = load(os.path.join(out, "meta.json"))
    ks, alphas = meta["ks"], meta["alphas"]
    infos, recs, problems = [], [], []
    for cdir in sorted(glob.glob(os.path.join(out, "cases", "*"))):
        name = os.path.basename(cdir)
        info = case_info(cdir, name)
        infos.append(info)
        for rdir in sorted(glob.glob(os.path.join(out, "runs", name, "*"))):
            recs.extend(collect_run(rdir, info, ks, alphas, problems))
    write_atomic(os.path.join(out, "cases.json"),
                 json.dumps(infos, indent=1) + "\n")
    write_atomic(os.path.join(out, "results.jsonl"),
                 "".join(json.dumps(r) + "\n" for r in recs))
    cols = (["case", "alpha", "tool", "method", "param", "nsteps", "nvtxs",
             "nprocs"] + [f"T{k}" for k in ks] + list(SUM_KEYS) +
            ["seconds", "rss_kb", "error"])
    tmp = os.path.join(out, f"results.csv.tmp.{os.getpid()}")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, cols, extrasaction="ignore")
        w.writeheader()
        for r in recs:
            w.writerow(r)
    os.replace(tmp, os.path.join(out, "results.csv"))
    for p in problems:
        print(f"collect.py: MISMATCH {p}", file=sys.stderr)
    print(f"collect.py: {len(recs)} records of {len(infos)} cases -> "
          f"{out}/results.jsonl")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

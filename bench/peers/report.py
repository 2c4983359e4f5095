#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the peer benchmark's report from OUT/results.jsonl (collect.py):
REPORT/benchmarks.md (per case and alpha, the table tool | setting | T_1 |
T_10 | T_100 | T_1000 | MaxQwgt | cut | moved | seconds | RSS, each
tool's best setting per k in bold, and MinEX / best peer per k) and
REPORT/img/peers_ratio.png and .svg (gnuplot: that ratio against k, one
line per case). The plot's data and script stay in OUT/plot/.

Usage: report.py OUT REPORT
"""
import json
import os
import subprocess
import sys

TOOL_NAME = {"minex": "MinEX", "metis": "METIS", "scotch": "Scotch",
             "zoltan": "Zoltan"}
TOOL_ORDER = {"minex": 0, "metis": 1, "scotch": 2, "zoltan": 3}
MACHINE_TEXT = {
    "homo": "homogeneous: 1 cluster, Proc 1, Conn 1",
    "hetero4": "4 clusters, Proc 1, 1, 1.5, 3; Conn 1 inside, 10 between",
    "conn100x8": "8 equal clusters, Proc 1; Conn 1 inside, 100 between",
    "sim default": "minex sim's machine: 4 clusters, Proc 1, 1, 2, 2; "
                   "Conn 1 inside, 10 between",
}


def load(path):
    with open(path) as f:
        return json.load(f)


def write_atomic(path, text):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def num(x):
    """Compact figure: thousands separators above 100, else 3 digits."""
    if x is None:
        return "-"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def machine_of(info):
    m = info["machine"]
    for key in MACHINE_TEXT:
        if m.startswith(key):
            return key
    return m


def setting(r):
    if r["tool"] == "minex":
        return f"told k={r['k_told']}"
    return f"{r['method']} {r['param']:g}"


def sort_key(r):
    return (TOOL_ORDER.get(r["tool"], 9), r["method"],
            r.get("k_told") or 0, r["param"])


def ratios(recs, ks):
    """Per k: (MinEX told k's T_k / the best peer's T_k, best peer
    record, MinEX record); None where either side is missing."""
    ok = [r for r in recs if "error" not in r]
    peers = [r for r in ok if r["tool"] != "minex"]
    out = {}
    for k in ks:
        mx = [r for r in ok if r["tool"] == "minex" and r["k_told"] == k]
        if not peers or not mx:
            out[k] = None
            continue
        best = min(peers, key=lambda r: (r[f"T{k}"], sort_key(r)))
        out[k] = (mx[0][f"T{k}"] / best[f"T{k}"], best, mx[0])
    return out


def case_table(recs, ks):
    """Markdown table of one (case, alpha)."""
    ok = [r for r in recs if "error" not in r]
    best = {}  # (tool, k) -> T_k of the tool's best setting
    for r in ok:
        for k in ks:
            key = (r["tool"], k)
            if r["tool"] != "minex":
                best[key] = min(best.get(key, float("inf")), r[f"T{k}"])
    head = ("| tool | setting | " + " | ".join(f"T_{k}" for k in ks) +
            " | MaxQwgt | cut | moved | seconds | RSS (MB) |")
    lines = [head, "|" + "---|" * (2 + len(ks) + 5)]
    for r in sorted(ok, key=sort_key):
        cells = []
        for k in ks:
            c = num(r[f"T{k}"])
            if (r["tool"] == "minex" and r["k_told"] == k) or (
                    r["tool"] != "minex" and r[f"T{k}"] == best[(r["tool"],
                                                                 k)]):
                c = f"**{c}**"
            cells.append(c)
        lines.append(
            f"| {TOOL_NAME.get(r['tool'], r['tool'])} | {setting(r)} | " +
            " | ".join(cells) +
            f" | {num(r['max_qwgt'])} | {num(r['cut_weight'])} | "
            f"{r['moved']:,} | {r['seconds']:.3f} | "
            f"{r['rss_kb'] / 1024:.0f} |")
    return "\n".join(lines)


def verdict(rat, ks):
    """The plain sentence under a case's table."""
    have = [k for k in ks if rat[k] is not None]
    if not have:
        return "No ratio: no peer (or no MinEX run) on this case."
    lose = [k for k in have if rat[k][0] > 1]
    parts = []
    for k in have:
        q, b, _ = rat[k]
        parts.append(f"k={k}: {q:.3f} (best peer {TOOL_NAME[b['tool']]} "
                     f"{setting(b)})")
    s = "MinEX / best peer: " + "; ".join(parts) + ".\n\n"
    if lose:
        s += ("**MinEX loses** at k = " + ", ".join(str(k) for k in lose) +
              ": its T_k is " + ", ".join(
                  f"{100 * (rat[k][0] - 1):.1f}%" for k in lose) +
              " above the best peer's.")
        if len(lose) < len(have):
            s += (" It wins at k = " + ", ".join(
                str(k) for k in have if k not in lose) + ".")
    else:
        s += "MinEX wins (or ties) at every k."
    return s


def plot(groups, infos, ks, out, report):
    """gnuplot: ratio against k, one line per case, a panel per alpha.
    Returns the markdown to show it, or a note when gnuplot failed."""
    pdir = os.path.join(out, "plot")
    os.makedirs(pdir, exist_ok=True)
    os.makedirs(os.path.join(report, "img"), exist_ok=True)
    alphas = sorted({a for (_, a) in groups})
    meshes = sorted({c.split("-")[0] for (c, _) in groups})
    machines = sorted({machine_of(infos[c]) for (c, _) in groups})
    dat, series, qs = [], {a: [] for a in alphas}, [1.0]
    for (case, a), recs in sorted(groups.items()):
        rat = ratios(recs, ks)
        pts = [(k, rat[k][0]) for k in ks if rat[k] is not None]
        if not pts:
            continue
        qs.extend(q for _, q in pts)
        dat.append(f"# {case} alpha {a}\n" +
                   "".join(f"{k} {q:.6g}\n" for k, q in pts) + "\n\n")
        series[a].append((len(dat) - 1, case))
    if not dat:
        return "*(No plot: no case has both MinEX and a peer.)*"
    write_atomic(os.path.join(pdir, "peers_ratio.dat"), "".join(dat))
    # one y range for every panel, 1 inside it, ticks a reader can use
    ylo, yhi = min(qs) / 1.15, max(qs) * 1.15
    ticks = [t for t in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
                         1, 1.1, 1.25, 1.5, 2, 3, 4, 5, 7, 10, 20, 50, 100)
             if ylo <= t <= yhi]
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
              "#8c564b"]
    gp = []
    img = os.path.abspath(os.path.join(report, "img"))
    for term, ext in (("pngcairo size 1200,560 enhanced font ',10'", "png"),
                      ("svg size 1200,560 dynamic enhanced", "svg")):
        gp.append(f"set terminal {term}\nset output '{img}/"
                  f"peers_ratio.{ext}.tmp'\n")
        gp.append(f"set multiplot layout 1,{len(alphas)} title "
                  "'MinEX / best peer, horizon time T_k (below 1: MinEX "
                  "wins)'\n")
        for a in alphas:
            gp.append("reset\nset logscale x\nset logscale y\nset grid\n"
                      f"set xrange [0.7:{max(ks) * 1.4}]\n"
                      f"set xtics ({', '.join(str(k) for k in ks)})\n"
                      f"set yrange [{ylo:.4g}:{yhi:.4g}]\n"
                      f"set ytics ({', '.join(f'{t:g}' for t in ticks)})\n"
                      "set xlabel 'k (solver iterations per adaptation)'\n"
                      "set ylabel 'T_k MinEX / T_k best peer'\n"
                      f"set title 'alpha = {a:g}'\n"
                      "set key outside bottom center horizontal maxrows 5 "
                      "font ',8'\n")
            plots = ["1 with lines lc rgb 'black' dt 2 notitle"]
            for i, case in series[a]:
                mesh = case.split("-")[0]
                c = colors[meshes.index(mesh) % len(colors)]
                dt = machines.index(machine_of(infos[case])) + 1
                plots.append(f"'peers_ratio.dat' index {i} using 1:2 with "
                             f"linespoints lw 2 pt 7 ps 0.6 lc rgb '{c}' "
                             f"dt {dt} title '{case}'")
            gp.append("plot " + ", \\\n     ".join(plots) + "\n")
        gp.append("unset multiplot\nset output\n")
    write_atomic(os.path.join(pdir, "peers_ratio.gp"), "".join(gp))
    try:
        subprocess.run(["gnuplot", "peers_ratio.gp"], cwd=pdir, check=True,
                       capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        msg = getattr(e, "stderr", "") or str(e)
        print(f"report.py: gnuplot failed: {msg}", file=sys.stderr)
        return f"*(gnuplot failed; data and script in {pdir})*"
    for ext in ("png", "svg"):
        os.replace(f"{img}/peers_ratio.{ext}.tmp",
                   f"{img}/peers_ratio.{ext}")
    return ("![MinEX / best peer against k](img/peers_ratio.png)\n\n"
            "(also [SVG](img/peers_ratio.svg)). Colour: the mesh; dash: "
            "the machine. Below the dotted line at 1 MinEX wins.")


def main(argv):
    if len(argv) != 3:
        raise SystemExit("usage: report.py OUT REPORT")
    out, report = argv[1], argv[2]
    meta = load(os.path.join(out, "meta.json"))
    ks = meta["ks"]
    infos = {c["case"]: c for c in load(os.path.join(out, "cases.json"))}
    recs = []
    with open(os.path.join(out, "results.jsonl")) as f:
        recs = [json.loads(ln) for ln in f]
    groups = {}
    for r in recs:
        groups.setdefault((r["case"], r["alpha"]), []).append(r)
    os.makedirs(report, exist_ok=True)
    md = []
    md.append("<!-- SPDX-License-Identifier: GPL-3.0-or-later -->\n"
              "<!-- Generated by bench/peers/report.py from the results "
              "of bench/peers/run.sh: do not edit by hand. -->\n")
    md.append("# MinEX against METIS, Scotch and Zoltan\n")
    md.append(
        "Every tool repartitions the same cases; every partition is scored "
        "by `minex eval` under the cost model of [SPEC §2](SPEC.md) over "
        "the interval a partition must last: the horizon time "
        "**T_k = MaxRemap + k x SteadyMax**, where k is the number of "
        "solver iterations before the next adaptation, SteadyMax the "
        "per-iteration time once the data have moved and MaxRemap the "
        "one-off time of moving them. Each peer gets a small sweep of its "
        "main knob (bench/peers/settings.tsv) and, for each k, is credited "
        "with its best setting for that k; MinEX gets one run per k, told "
        "k (`minex repart --iters k`). The comparison is generous to the "
        "peers on purpose. How the cases, machines and scores are made: "
        "[bench/peers/README.md](../bench/peers/README.md).\n")
    run = meta
    md.append("## How this page was made\n")
    md.append(f"- command: `{run['command']}` ({run['seconds_runs']} s "
              "of runs)")
    md.append(f"- date: {run['date']}; MinEX {run['minex_commit']}")
    peers_meta = os.path.join(out, "meta_peers.json")
    if run.get("minex_only") and os.path.exists(peers_meta):
        pm = load(peers_meta)
        md.append("- this run re-ran MinEX alone (`--minex-only`); the "
                  "cases and the peers' partitions (and their seconds and "
                  f"RSS) are those of the full run of {pm['date']} "
                  f"(`{pm['command']}`, {pm['seconds_runs']} s of runs, "
                  f"MinEX {pm['minex_commit']} then): the peers are "
                  "deterministic and their inputs did not change")
    md.append(f"- machine: {run['cpu']}, {run['ncpus']} CPUs, "
              f"{run['mem_gb']} GB; {run['os']}; {run['compiler']}")
    md.append("- peers (Debian packages): " + ", ".join(
        f"{p} {v}" for p, v in run["peers"].items()))
    md.append(f"- drivers built: {run['drivers'] or 'none'}")
    md.append("- seconds: wall time of the library call only (MinEX: "
              "`minex_repartition`; peers: their partitioning calls, "
              "reported by the driver); RSS: peak resident memory of the "
              "whole program (reading the case included), /usr/bin/time. "
              f"Cases above {run['large_vtxs']:,} vertices run a smaller "
              "sweep (the `large` column of settings.tsv).\n")
    md.append("## The picture\n")
    md.append(plot(groups, infos, ks, out, report) + "\n")

    md.append("## Summary: MinEX / best peer per k\n")
    md.append("| case | vertices | P | machine | alpha | " +
              " | ".join(f"k={k}" for k in ks) + " | MinEX loses at |")
    md.append("|" + "---|" * (5 + len(ks) + 1))
    losses = 0
    for (case, a), rs in sorted(groups.items()):
        info = infos[case]
        rat = ratios(rs, ks)
        cells = [f"{rat[k][0]:.3f}" if rat[k] else "-" for k in ks]
        lose = [str(k) for k in ks if rat[k] and rat[k][0] > 1]
        losses += len(lose)
        md.append(f"| {case} | {info['nvtxs']:,} | {info['nprocs']} | "
                  f"{machine_of(info)} | {a:g} | " + " | ".join(cells) +
                  f" | {'k = ' + ', '.join(lose) if lose else '-'} |")
    md.append("")
    md.append(f"MinEX loses in {losses} of the "
              f"{len(groups) * len(ks)} (case, alpha, k) comparisons.\n")

    md.append("## The floor: k LB / best peer\n")
    md.append("No partition has SteadyMax below the lower bound LB = sum Pwgt "
              "/ sum 1/Proc (SPEC §2), so no tool's T_k is below k LB (summed "
              "over the steps of a sequence). k LB / best peer's T_k is the "
              "smallest ratio any tool could reach on that row; where it is "
              "above 0.95, a ratio of 0.95 is out of reach for every tool "
              "(marked \\*).\n")
    md.append("| case | alpha | " + " | ".join(f"k={k}" for k in ks) + " |")
    md.append("|" + "---|" * (2 + len(ks)))
    out_of_reach = 0
    for (case, a), rs in sorted(groups.items()):
        rat = ratios(rs, ks)
        cells = []
        for k in ks:
            if not rat[k] or "lower_bound" not in rat[k][1]:
                cells.append("-")
                continue
            f = k * rat[k][1]["lower_bound"] / rat[k][1][f"T{k}"]
            out_of_reach += f > 0.95
            cells.append(f"{f:.3f}" + (" \\*" if f > 0.95 else ""))
        md.append(f"| {case} | {a:g} | " + " | ".join(cells) + " |")
    md.append("")
    md.append(f"0.95 is out of reach for every tool in {out_of_reach} of the "
              f"{len(groups) * len(ks)} comparisons.\n")

    md.append("## Per case\n")
    md.append("Bold: each peer's best setting for that k, and MinEX's run "
              "told that k (the figure its ratio uses). MaxQwgt is the "
              "paper's (k = 1, remapping included); cut is the cut weight "
              "(sum of Cwgt); moved counts vertices.\n")
    for (case, a), rs in sorted(groups.items()):
        info = infos[case]
        md.append(f"### {case}, alpha {a:g}\n")
        if info["kind"] == "sim":
            md.append(
                f"The `minex sim` workload: {info['nvtxs']:,} roots, "
                f"{info['nsteps']} adaptations (leaves "
                f"{info['leaves'][0]:,} ... {max(info['leaves']):,}), P = "
                f"{info['nprocs']}, {MACHINE_TEXT['sim default']}. Every "
                "tool runs each step from its own previous partition "
                "(step 1 from the RCB of the initial mesh); **every figure "
                f"is the sum over the {info['nsteps']} steps** (RSS: the "
                "largest).\n")
        else:
            md.append(
                f"{info['source'].split('/')[-1]}: {info['nvtxs']:,} "
                f"elements, P = {info['nprocs']}, "
                f"{MACHINE_TEXT.get(machine_of(info), info['machine'])}. "
                f"Refined ball moved by one step ({info['refined_old']:,} "
                f"-> {info['refined']:,} refined elements); old partition: "
                "weighted coordinate bisection of the old load.\n")
        md.append(case_table(rs, ks) + "\n")
        md.append(verdict(ratios(rs, ks), ks) + "\n")
        errs = [r for r in rs if "error" in r]
        for r in errs:
            md.append(f"- **failed**: {TOOL_NAME.get(r['tool'], r['tool'])}"
                      f" {setting(r)}: {r['error'].splitlines()[0]}")
        if errs:
            md.append("")
    write_atomic(os.path.join(report, "benchmarks.md"), "\n".join(md))
    print(f"report.py: {os.path.join(report, 'benchmarks.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

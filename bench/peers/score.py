#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent recomputation of the peer benchmark's scores (SPEC §2).

Reads a METIS graph, a MinEX configuration XML and old/new partitions and
computes, from scratch and without MinEX's code, per processor p
  Wgt^p   = sum Pwgt_v * Proc_c(p)                       over v on p
  Comm^p  = sum Cwgt_vw * Conn(c(p), c(new[w]))          v on p, w not on p
  Remap^p = sum Rwgt_v * Conn(c(old[v]), c(p))           v received by p
  Qwgt^p  = Wgt + X - alpha * min(Wgt, X),  X = Comm + Remap
and MaxQwgt, SteadyMax (Remap = 0), MaxRemap, T_k = MaxRemap + k*SteadyMax,
cut weight, moved and TotalV. Plain python3, no third-party modules.

Usage:
  score.py GRAPH CONFIG OLD NEW [--alpha A]...
      prints one JSON object per alpha (default 0)
  score.py --check RESULTS.jsonl --case CASE [--max-vtxs N]
      recomputes every partition of CASE in RESULTS.jsonl (the records of
      bench/peers/collect.py: graph, config, old, part, alpha and the
      minex eval figures) and compares: relative difference <= 1e-9
      (absolute for values near 0); exits 1 naming every mismatch.
"""
import json
import sys
import xml.etree.ElementTree as ET

KS = (1, 10, 100, 1000)
RTOL = 1e-9


def read_graph(path):
    """METIS graph -> (n, xadj, adjncy, cwgt, pwgt, rwgt); fmt digits
    'vsize vwgt ewgt' map to Rwgt, Pwgt, Cwgt (a missing weight is 1)."""
    with open(path) as f:
        lines = (ln for ln in f if not ln.startswith("%"))
        head = next(lines).split()
        n, m = int(head[0]), int(head[1])
        fmt = head[2] if len(head) > 2 else "0"
        fmt = fmt.rjust(3, "0")
        has_v, has_p, has_c = fmt[0] == "1", fmt[1] == "1", fmt[2] == "1"
        if len(head) > 3 and int(head[3]) != 1:
            raise SystemExit(f"{path}: ncon > 1 is not a MinEX graph")
        xadj = [0]
        adjncy, cwgt, pwgt, rwgt = [], [], [], []
        for v in range(n):
            tok = next(lines).split()
            i = 0
            if has_v:
                rwgt.append(float(tok[i]))
                i += 1
            else:
                rwgt.append(1.0)
            if has_p:
                pwgt.append(float(tok[i]))
                i += 1
            else:
                pwgt.append(1.0)
            step = 2 if has_c else 1
            for j in range(i, len(tok), step):
                adjncy.append(int(tok[j]) - 1)
                cwgt.append(float(tok[j + 1]) if has_c else 1.0)
            xadj.append(len(adjncy))
    if len(adjncy) != 2 * m:
        raise SystemExit(f"{path}: {len(adjncy)} adjacency entries, "
                         f"header says {m} edges")
    return n, xadj, adjncy, cwgt, pwgt, rwgt


def read_config(path):
    """MinEX configuration XML -> (cluster_of[p], proc[c], conn[c][d],
    available[p])."""
    root = ET.parse(path).getroot()
    default = root.get("default-link-slowdown")
    names, nprocs, proc = [], [], []
    for c in root.findall("cluster"):
        names.append(c.get("name"))
        nprocs.append(int(c.get("procs")))
        proc.append(float(c.get("proc-slowdown", "1")))
    C = len(names)
    idx = {nm: i for i, nm in enumerate(names)}
    conn = [[None] * C for _ in range(C)]
    for c in range(C):
        conn[c][c] = 1.0
    for ln in root.findall("link"):
        a, b = idx[ln.get("from")], idx[ln.get("to")]
        conn[a][b] = conn[b][a] = float(ln.get("slowdown"))
    for a in range(C):
        for b in range(C):
            if conn[a][b] is None:
                if default is None:
                    raise SystemExit(f"{path}: no link {names[a]}-{names[b]}")
                conn[a][b] = float(default)
    cluster_of = [c for c in range(C) for _ in range(nprocs[c])]
    available = [True] * len(cluster_of)
    for u in root.findall("unavailable"):
        available[int(u.get("proc"))] = False
    return cluster_of, proc, conn, available


def read_part(path, n):
    with open(path) as f:
        part = [int(x) for x in f.read().split()]
    if len(part) != n:
        raise SystemExit(f"{path}: {len(part)} ids for {n} vertices")
    return part


def totals(graph, config, old, new):
    """Per-processor Wgt, Comm, Remap and the partition-wide cut, moved,
    TotalV (alpha-free: one pass serves every alpha)."""
    n, xadj, adjncy, cwgt, pwgt, rwgt = graph
    cluster_of, proc, conn, _ = config
    P = len(cluster_of)
    wgt, comm, remap = [0.0] * P, [0.0] * P, [0.0] * P
    cut = 0.0
    moved = 0
    total_v = 0.0
    for v in range(n):
        p = new[v]
        cp = cluster_of[p]
        wgt[p] += pwgt[v] * proc[cp]
        row = conn[cp]
        for j in range(xadj[v], xadj[v + 1]):
            q = new[adjncy[j]]
            if q != p:
                comm[p] += cwgt[j] * row[cluster_of[q]]
                if v < adjncy[j]:
                    cut += cwgt[j]
        o = old[v]
        if o != p:
            remap[p] += rwgt[v] * conn[cluster_of[o]][cp]
            moved += 1
            total_v += rwgt[v]
    return wgt, comm, remap, cut, moved, total_v


def qwgt(w, x, alpha):
    return w + x - alpha * min(w, x)


def metrics(t, available, alpha):
    wgt, comm, remap, cut, moved, total_v = t
    ps = [p for p in range(len(wgt)) if available[p]]
    max_qwgt = max(qwgt(wgt[p], comm[p] + remap[p], alpha) for p in ps)
    steady = max(qwgt(wgt[p], comm[p], alpha) for p in ps)
    max_remap = max(remap[p] for p in ps)
    m = {"alpha": alpha, "max_qwgt": max_qwgt, "steady_max": steady,
         "max_remap": max_remap, "cut_weight": cut, "moved": moved,
         "total_v": total_v}
    for k in KS:
        m[f"T{k}"] = max_remap + k * steady
    return m


def close(a, b):
    scale = max(abs(a), abs(b))
    return abs(a - b) <= RTOL * scale or abs(a - b) <= 1e-12


def check(results, case, max_vtxs):
    """Recomputes every partition of case; returns the number of
    mismatches (each printed)."""
    recs = []
    with open(results) as f:
        for ln in f:
            r = json.loads(ln)
            if r.get("case") == case and "error" not in r:
                recs.append(r)
    bad = checked = 0
    graphs = {}
    config = None
    # a record holds its partitions step by step (one for a single-step
    # case, nine for the simulation's sequence)
    for r in recs:
        for st in r["steps"]:
            if st["nvtxs"] > max_vtxs:
                continue
            if st["graph"] not in graphs:
                graphs.clear()  # one graph in memory at a time
                graphs[st["graph"]] = read_graph(st["graph"])
            g = graphs[st["graph"]]
            if config is None or config[0] != st["config"]:
                config = (st["config"], read_config(st["config"]))
            old = read_part(st["old"], g[0])
            new = read_part(st["part"], g[0])
            m = metrics(totals(g, config[1], old, new), config[1][3],
                        r["alpha"])
            # LB = sum Pwgt / sum over available p of 1/Proc (SPEC §2)
            cluster_of, proc, _, available = config[1]
            m["lower_bound"] = sum(g[4]) / sum(
                1.0 / proc[cluster_of[p]] for p in range(len(cluster_of))
                if available[p])
            keys = ("max_qwgt", "steady_max", "max_remap", "cut_weight",
                    "moved", "total_v", "T1", "T10", "T100", "T1000")
            if "lower_bound" in st:
                keys += ("lower_bound",)
            for key in keys:
                if not close(m[key], st[key]):
                    bad += 1
                    print(f"score.py: MISMATCH {case} {r['tool']} "
                          f"{r['method']} {r['param']} alpha {r['alpha']} "
                          f"{st['part']}: {key} minex eval {st[key]!r}, "
                          f"recomputed {m[key]!r}", file=sys.stderr)
            checked += 1
    print(f"score.py: {case}: {checked} partitions recomputed, "
          f"{bad} mismatches")
    return bad


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) > 1 and argv[1] == "--check":
        results, case, max_vtxs = None, None, float("inf")
        it = iter(argv[1:])
        for a in it:
            if a == "--check":
                results = next(it)
            elif a == "--case":
                case = next(it)
            elif a == "--max-vtxs":
                max_vtxs = int(next(it))
            else:
                raise SystemExit(f"score.py: unexpected argument {a}")
        if results is None or case is None:
            raise SystemExit("score.py: --check RESULTS --case CASE")
        return 1 if check(results, case, max_vtxs) else 0
    pos, alphas = [], []
    it = iter(argv[1:])
    for a in it:
        if a == "--alpha":
            alphas.append(float(next(it)))
        else:
            pos.append(a)
    if len(pos) != 4:
        raise SystemExit("usage: score.py GRAPH CONFIG OLD NEW [--alpha A]")
    g = read_graph(pos[0])
    cfg = read_config(pos[1])
    old, new = read_part(pos[2], g[0]), read_part(pos[3], g[0])
    t = totals(g, cfg, old, new)
    for a in alphas or [0.0]:
        print(json.dumps(metrics(t, cfg[3], a)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

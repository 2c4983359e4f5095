#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What calling MinEX from Python costs over calling the C library: one
repartition of a box of about 10^6 tetrahedra (`minex gen --elements N
--refine`: the refined ball, Pwgt 8 inside; an RCB old partition into 64
made before refinement) for bench/bench_repart's machine (4 clusters of
16, Proc 1, 1, 2, 2, Conn 1 inside and 10 between), default options.

Four calls, interleaved in each of N rounds (so that a change of the
machine's load meets them all), each timed by the same clock
(time.perf_counter, CLOCK_MONOTONIC):

  C            minex_repartition alone on a graph built beforehand, called
               through the bare ctypes function (the call bench_repart
               times; nothing of the package's runs)
  Python       minex.repartition(graph, old, machine) with a minex.Graph
               built beforehand (options by keyword, the arguments checked,
               the metrics converted)
  C+graph      minex_graph_create from the CSR arrays, then
               minex_repartition, then minex_graph_destroy
  Python+CSR   minex.repartition(csr, old, machine, pwgt=, rwgt=) from a
               scipy.sparse.csr_array with scipy's int32 indptr: the
               package converts indptr to int64 once, the library copies
               and sorts the arrays (minex_graph_create)

Prints the best, median and worst of N for each, the library's own time
of the call (metrics.seconds, its best) and the time outside it (the
wall time minus metrics.seconds of the same call: what the binding or
the graph's construction adds; best and median), and the overhead of
each Python call over its C counterpart: best against best, median
against median, and the difference of the median times outside the
library against the best C call (the figure a loaded machine disturbs
least, since the load's variance falls inside the call). Checks that
the four give the same partition.

Usage: python3 python/bench_overhead.py [--minex build/programs/minex]
       [--elements 1000000] [--repeat 5] [--threads 1] [--work DIR]
(MINEX_LIBRARY, or the build tree of --minex, names the library).
Not a test: it takes about 10 s per round at 10^6 vertices on 2 cores.
"""

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minex", default=os.path.join(ROOT, "build",
                                                    "programs", "minex"),
                    help="the minex tool that makes the case")
    ap.add_argument("--elements", type=int, default=1000000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--work", help="folder of the case's files (default: a "
                    "temporary one)")
    return ap.parse_args()


def main():
    a = parse()
    if not os.environ.get("MINEX_LIBRARY"):
        build = os.path.dirname(os.path.dirname(os.path.abspath(a.minex)))
        os.environ["MINEX_LIBRARY"] = os.path.join(build, "libminex.so")
    sys.path.insert(0, HERE)
    import numpy as np
    import scipy.sparse
    import minex
    from minex import _core

    work = a.work or tempfile.mkdtemp(prefix="minex-bench-")
    os.makedirs(work, exist_ok=True)
    gpath = os.path.join(work, "box%d.graph" % a.elements)
    ppath = os.path.join(work, "box%d_old.part" % a.elements)
    if not (os.path.exists(gpath) and os.path.exists(ppath)):
        subprocess.run([a.minex, "gen", "--elements", str(a.elements),
                        "--refine", "--part", ppath, "--nparts", "64", "-o",
                        gpath], check=True, stdout=subprocess.DEVNULL)
    g = minex.read_graph(gpath)
    old = minex.read_partition(ppath, g.nvtxs, 64)
    conn = np.full((4, 4), 10.0)
    np.fill_diagonal(conn, 1.0)
    machine = minex.Machine(clusters=[16] * 4, proc=[1, 1, 2, 2], conn=conn)
    n = g.nvtxs
    indptr32 = g.indptr.astype(np.int32)
    csr = scipy.sparse.csr_array((g.data.copy(), g.indices.copy(), indptr32),
                                 shape=(n, n))
    assert csr.indptr.dtype == np.int32
    xadj, adj, cw = g.indptr.copy(), g.indices.copy(), g.data.copy()
    pw, rw = g.pwgt.copy(), g.rwgt.copy()

    lib = _core.lib
    opts = _core.make_options(dict(threads=a.threads))
    out = np.empty(n, dtype=np.int32)
    cm = _core.metrics_struct()
    addr = _core.address

    def c_call():
        t = time.perf_counter()
        rc = lib.minex_repartition(g._ptr, machine._ptr, addr(old), opts.ptr,
                                   addr(out), ctypes.byref(cm))
        t = time.perf_counter() - t
        _core.check(rc)
        return t, out.copy(), cm.seconds

    def c_graph_call():
        t = time.perf_counter()
        p = ctypes.c_void_p()
        rc = lib.minex_graph_create(n, addr(xadj), addr(adj), addr(pw),
                                    addr(rw), addr(cw), ctypes.byref(p))
        if rc == 0:
            rc = lib.minex_repartition(p.value, machine._ptr, addr(old),
                                       opts.ptr, addr(out), ctypes.byref(cm))
        lib.minex_graph_destroy(p.value)
        t = time.perf_counter() - t
        _core.check(rc)
        return t, out.copy(), cm.seconds

    def py_call():
        t = time.perf_counter()
        new, m = minex.repartition(g, old, machine, threads=a.threads)
        return time.perf_counter() - t, new, m.seconds

    def py_csr_call():
        t = time.perf_counter()
        new, m = minex.repartition(csr, old, machine, pwgt=pw, rwgt=rw,
                                   threads=a.threads)
        return time.perf_counter() - t, new, m.seconds

    calls = [("C", c_call), ("Python", py_call), ("C+graph", c_graph_call),
             ("Python+CSR", py_csr_call)]
    print("case: %s, %d vertices, %d edges; P = 64 (4 clusters); threads "
          "%d; best of %d" % (gpath, n, g.nedges, a.threads, a.repeat))
    ref = c_call()[1]  # a first call, not counted (page faults, caches)
    times = {k: [] for k, _ in calls}
    lib_times = {k: [] for k, _ in calls}
    for r in range(a.repeat):
        for k, f in calls:
            t, part, s = f()
            if not np.array_equal(part, ref):
                raise SystemExit("bench_overhead: %s gave another partition"
                                 % k)
            times[k].append(t)
            lib_times[k].append(s)
    # the time of each call outside minex_repartition's own clock: what
    # the binding (or the graph's construction) adds, which the machine's
    # load disturbs far less than the call itself
    outside = {k: [t - s for t, s in zip(times[k], lib_times[k])]
               for k, _ in calls}
    med = statistics.median
    print("%-11s %8s %8s %8s %10s %11s %11s" %
          ("call", "best s", "median", "worst", "library s",
           "outside ms", "(median)"))
    for k, _ in calls:
        ts = times[k]
        print("%-11s %8.4f %8.4f %8.4f %10.4f %11.2f %11.2f" %
              (k, min(ts), med(ts), max(ts), min(lib_times[k]),
               1e3 * min(outside[k]), 1e3 * med(outside[k])))
    for py, c in (("Python", "C"), ("Python+CSR", "C+graph"),
                  ("Python+CSR", "C")):
        b = 100.0 * (min(times[py]) / min(times[c]) - 1.0)
        m = 100.0 * (med(times[py]) / med(times[c]) - 1.0)
        o = 100.0 * (med(outside[py]) - med(outside[c])) / min(times["C"])
        print("overhead %-10s over %-7s best %+6.2f%%, median %+6.2f%%, "
              "outside the library %+6.2f%% of the best C call" %
              (py, c, b, m, o))
    return 0


if __name__ == "__main__":
    sys.exit(main())

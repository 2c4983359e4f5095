#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A short adaptive loop with the minex package: a refined region (a ball,
Pwgt 8 and Rwgt 9 inside, as one 1:8 refinement; Cwgt 4 on the faces at
it) moves across a real tetrahedral mesh; before each step MinEX
repartitions the dual graph from the step before, for a small
heterogeneous machine (2 clusters of 4 processors, the second at half
speed, links 10 times slower between the clusters). Prints one line per
step and plots the per-processor loads (matplotlib, Agg backend) to a PNG:
the last step's Wgt, Comm and Remap per processor, MinEX's against the
partition kept from the start, and MaxQwgt per step.

Usage: adaptive_loop.py [--mesh MESH] [--steps N] [--iters K] [-o PNG]
(default mesh: data/meshes/perfusion_micro3d.mesh of the source tree,
18,161 tetrahedra; 6 steps; horizon K = 10 solver iterations per step).
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import minex  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MESH = os.path.join(HERE, "..", "..", "data", "meshes",
                    "perfusion_micro3d.mesh")


def ball_weights(graph, centroids, center, radius):
    """Pwgt, Rwgt, Cwgt of a ball refined once (1:8): the data/cases
    convention. Cwgt follows the graph's stored neighbour order."""
    inside = np.linalg.norm(centroids - center, axis=1) <= radius
    pwgt = np.where(inside, 8.0, 1.0)
    rwgt = pwgt + inside
    src = np.repeat(np.arange(graph.nvtxs), np.diff(graph.indptr))
    cwgt = np.where(inside[src] | inside[graph.indices], 4.0, 1.0)
    return pwgt, rwgt, cwgt, int(inside.sum())


def run(mesh_path=MESH, steps=6, iters=10, png="adaptive_loop.png",
        out=sys.stdout):
    """Runs the loop; returns one dict per step (MaxQwgt of the partition
    kept from the start and of MinEX's, the lower bound, moved vertices)
    and writes the plot to png."""
    machine = minex.Machine(clusters=[4, 4], proc=[1, 2],
                            conn=[[1, 10], [10, 1]])
    graph, centroids = minex.dual_graph(mesh_path)
    lo, hi = centroids.min(axis=0), centroids.max(axis=0)
    radius = 0.2 * np.linalg.norm(hi - lo)
    # the partition the mesh had before any refinement (unit weights)
    start = minex.partition(graph, machine)
    part = start.copy()
    records = []
    print("step refined  kept MaxQwgt  MinEX MaxQwgt  LB  moved", file=out)
    for step in range(steps):
        t = (step + 0.5) / steps
        center = lo + (hi - lo) * np.array([0.1 + 0.8 * t, 0.5, 0.5])
        pwgt, rwgt, cwgt, nref = ball_weights(graph, centroids, center,
                                              radius)
        graph.set_weights(pwgt, rwgt, cwgt)
        kept = minex.evaluate(graph, start, start, machine, iters=iters)
        new, m = minex.repartition(graph, part, machine, iters=iters,
                                   out=np.empty_like(part))
        records.append(dict(step=step + 1, refined=nref,
                            kept=kept.max_qwgt, old=minex.evaluate(
                                graph, part, part, machine,
                                iters=iters).max_qwgt,
                            new=m.max_qwgt, lower_bound=m.lower_bound,
                            moved=m.moved))
        print("%4d %7d %13.0f %14.0f %5.0f %6d" %
              (step + 1, nref, kept.max_qwgt, m.max_qwgt, m.lower_bound,
               m.moved), file=out)
        last = (minex.loads(graph, part, new, machine, iters=iters),
                minex.loads(graph, start, start, machine, iters=iters))
        part = new
    plot(records, last, machine, iters, png)
    return records


def plot(records, last, machine, iters, png):
    new, kept = last
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    p = np.arange(machine.nprocs)
    # Qwgt under horizon k: k (Wgt + Comm) + Remap at alpha 0
    ax1.bar(p, iters * new.wgt, label="k * Wgt", color="tab:blue")
    ax1.bar(p, iters * new.comm, bottom=iters * new.wgt,
            label="k * Comm", color="tab:orange")
    ax1.bar(p, new.remap, bottom=iters * (new.wgt + new.comm),
            label="Remap", color="tab:green")
    ax1.plot(p, kept.qwgt, "k_", markersize=18, mew=2,
             label="Qwgt, partition kept")
    ax1.set_xlabel("processor (0-3 Proc 1, 4-7 Proc 2)")
    ax1.set_ylabel("load under horizon k = %d" % iters)
    ax1.set_title("step %d: per-processor loads" % records[-1]["step"])
    ax1.legend(fontsize=8)
    s = [r["step"] for r in records]
    ax2.plot(s, [r["kept"] for r in records], "o-", label="partition kept")
    ax2.plot(s, [r["new"] for r in records], "s-", label="MinEX")
    ax2.plot(s, [iters * r["lower_bound"] for r in records], "--",
             label="k * LB")
    ax2.set_xlabel("step")
    ax2.set_ylabel("MaxQwgt")
    ax2.set_title("largest processor load per step")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mesh", default=MESH)
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("-o", "--output", default="adaptive_loop.png")
    a = ap.parse_args(argv)
    run(a.mesh, a.steps, a.iters, a.output)
    print("plot written to %s" % a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())

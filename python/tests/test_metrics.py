# SPDX-License-Identifier: GPL-3.0-or-later
"""The metrics the library reports, recomputed here in numpy from the
cost model of docs/SPEC.md §2: for processor p in cluster c(p),
Wgt^p = sum Pwgt_v Proc_c(p), Comm^p = sum over v on p and neighbours w
off p of Cwgt_vw Conn(c(p), c(new[w])), Remap^p = sum over the vertices p
receives of Rwgt_v Conn(c(old[v]), c(p)) (the receiver pays), and
Qwgt^p = Wgt + X - alpha min(Wgt, X) with X = Comm + Remap (alpha = 0:
the sum). Maxima, minima and sums are over the available processors
(MaxV too: a processor that left sends its vertices, but its volume is
not counted)."""

import numpy as np
import pytest

import minex
from conftest import hetero4_machine


def model(g, old, new, machine, alpha=0.0):
    """Per-processor Wgt, Comm, Remap, Qwgt and the figures of SPEC §2."""
    n, p = g.nvtxs, machine.nprocs
    cl = machine.cluster_of
    proc = machine.proc[cl]  # Proc of each processor
    conn = machine.conn
    src = np.repeat(np.arange(n), np.diff(g.indptr))
    dst = g.indices
    wgt = np.bincount(new, weights=g.pwgt, minlength=p) * proc
    cut = new[src] != new[dst]
    comm = np.bincount(new[src][cut], minlength=p,
                       weights=g.data[cut] * conn[cl[new[src][cut]],
                                                  cl[new[dst][cut]]])
    moved = old != new
    remap = np.bincount(new[moved], minlength=p,
                        weights=g.rwgt[moved] * conn[cl[old[moved]],
                                                     cl[new[moved]]])
    x = comm + remap
    qwgt = wgt + x - alpha * np.minimum(wgt, x)
    avail = machine.available
    q = qwgt[avail]
    sent = np.bincount(old[moved], weights=g.rwgt[moved], minlength=p)
    recv = np.bincount(new[moved], weights=g.rwgt[moved], minlength=p)
    return dict(
        wgt=wgt, comm=comm, remap=remap, qwgt=qwgt,
        max_qwgt=q.max(), min_qwgt=q.min(), qwgt_tot=q.sum(),
        load_imb=avail.sum() * q.max() / q.sum(),
        min_var=((q - q.min()) ** 2).sum(),
        lower_bound=g.pwgt.sum() / (1.0 / proc[avail]).sum(),
        max_wgt=wgt[avail].max(), max_comm=comm[avail].max(),
        max_remap=remap[avail].max(),
        cut_edges=int(cut.sum()) // 2, cut_weight=g.data[cut].sum() / 2,
        moved=int(moved.sum()), total_v=g.rwgt[moved].sum(),
        max_v=(sent + recv)[avail].max(), navailable=int(avail.sum()),
        stranded=int((~avail[new]).sum()))


def compare(m, ref, rel=1e-12):
    for k in ("max_qwgt", "min_qwgt", "qwgt_tot", "load_imb", "min_var",
              "lower_bound", "max_wgt", "max_comm", "max_remap",
              "cut_weight", "total_v", "max_v"):
        assert getattr(m, k) == pytest.approx(ref[k], rel=rel), k
    for k in ("cut_edges", "moved", "navailable", "stranded"):
        assert getattr(m, k) == ref[k], k


def test_homogeneous_cube_ball_p16_max_qwgt(cube):
    """SPEC §2 with Proc = Conn = 1 and alpha = 0: Qwgt = Wgt + Comm +
    Remap. The case's weights are integers, so the sums are exact."""
    g, old = cube
    new, m = minex.repartition(g, old, 16)
    ref = model(g, old, new, minex.Machine.uniform(16))
    assert m.max_qwgt == ref["max_qwgt"]
    assert m.max_qwgt <= model(g, old, old, minex.Machine.uniform(16))[
        "max_qwgt"]
    compare(m, ref, rel=0)
    assert m.lower_bound == 19069  # the case's README
    assert minex.evaluate(g, old, old, 16).max_qwgt == 41852


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_heterogeneous_with_alpha(elt4, alpha):
    g0, old = elt4
    rng = np.random.default_rng(3)
    g = minex.Graph(g0.indptr, g0.indices, g0.data,
                    pwgt=rng.uniform(1, 3, g0.nvtxs),
                    rwgt=rng.uniform(1, 5, g0.nvtxs))
    machine = hetero4_machine()
    machine.set_available(9, False)
    old = old * 8 + 1  # 1, 9, 17, ...: processor 9 has left
    new, m = minex.repartition(g, old, machine, alpha=alpha)
    assert not (new == 9).any()
    ref = model(g, old, new, machine, alpha)
    compare(m, ref)
    e = minex.evaluate(g, old, new, machine, alpha=alpha)
    compare(e, ref)
    loads = minex.loads(g, old, new, machine, alpha=alpha)
    for k in ("wgt", "comm", "remap", "qwgt"):
        np.testing.assert_allclose(getattr(loads, k), ref[k], rtol=1e-12)
    # the old partition, scored: processor 9's vertices are stranded
    eo = minex.evaluate(g, old, old, machine, alpha=alpha)
    assert eo.stranded == int((old == 9).sum()) > 0


def test_metrics_has_every_field_and_evaluate_leaves_the_call_ones_0(elt4):
    g, old = elt4
    e = minex.evaluate(g, old, old, 8)
    d = e.as_dict()
    assert list(d) == [f for f, _ in minex._metrics.CMetrics._fields_]
    for k in ("coarse_nvtxs", "coarse_moves", "expand_moves", "candidates",
              "threads_used", "seconds"):
        assert d[k] == 0
    new, m = minex.repartition(g, old, 8)
    assert m.coarse_nvtxs > 0 and m.candidates >= 1 and m.seconds > 0
    assert m.threads_used == 1 and m.horizon_used == 1.0


def test_loads_under_a_horizon(elt4):
    """Wgt and Comm are per solver iteration, Qwgt counts them k times
    and the remapping once."""
    g, old = elt4
    new, m = minex.repartition(g, old, 8, iters=10)
    ld = minex.loads(g, old, new, 8, iters=10)
    ref = model(g, old, new, minex.Machine.uniform(8))
    np.testing.assert_array_equal(ld.wgt, ref["wgt"])
    np.testing.assert_array_equal(ld.comm, ref["comm"])
    np.testing.assert_array_equal(ld.remap, ref["remap"])
    np.testing.assert_array_equal(ld.qwgt, 10 * (ld.wgt + ld.comm) +
                                  ld.remap)
    assert m.max_qwgt == ld.qwgt.max()
    assert m.steady_max == (ld.wgt + ld.comm).max()
    assert m.horizon_time == ld.remap.max() + 10 * m.steady_max

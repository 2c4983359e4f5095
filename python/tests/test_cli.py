# SPDX-License-Identifier: GPL-3.0-or-later
"""The package gives what the command-line tool gives on the same files:
the same new partition from `minex repart`, bit for bit, and the same
metrics as its JSON (which prints doubles with 17 digits); the same
partition from scratch as `minex partition --method scotch`."""

import json
import math
import os

import numpy as np
import pytest

import minex
from conftest import CUBE, ELT4, HETERO4, hetero4_machine, run_tool

# the JSON keys that are minex_metrics fields of the same meaning; the
# times differ from run to run
TIMES = {"seconds", "seconds_contract", "seconds_partition",
         "seconds_expand", "seconds_diffusive", "seconds_ladder",
         "seconds_scratch", "seconds_refine", "seconds_candidates",
         "seconds_parallel", "seconds_parallel_work",
         "seconds_parallel_span"}


def same_metrics(report, metrics):
    fields = metrics.as_dict()
    shared = [k for k in report if k in fields and k not in TIMES]
    assert len(shared) >= 20, shared
    for k in shared:
        want = report[k]
        if isinstance(want, str) and want == "inf":
            want = math.inf
        assert fields[k] == want, (k, fields[k], want)


def test_cube_ball_p16_same_partition_as_minex_repart(tool, cube, tmp_path):
    g, old = cube
    out = tmp_path / "new.part"
    report = json.loads(run_tool(
        tool, "repart", os.path.join(CUBE, "graph.graph"), "--old",
        os.path.join(CUBE, "old.part"), "-o", str(out), "--json"))
    cli = np.loadtxt(out, dtype=np.int32)
    new, m = minex.repartition(g, old, 16)
    assert new.dtype == np.int32 and new.shape == (g.nvtxs,)
    assert np.array_equal(new, cli)
    assert m.moved > 0 and m.max_qwgt < report["old"]["max_qwgt"]
    same_metrics(report, m)


@pytest.mark.parametrize("flags,kw", [
    ([], {}),
    (["--alpha", "0.5", "--iters", "10", "--seed", "7"],
     dict(alpha=0.5, iters=10, seed=7)),
    (["--throttle", "auto", "--remap", "sender"],
     dict(throttle_auto=1, remap_mode=minex.REMAP_SENDER)),
    (["--paper-exact", "--throttle", "4", "--coarse-per-proc", "16"],
     dict(paper_exact=True, throttle=4.0, coarse_per_proc=16)),
    (["--refine", "on", "--rounds", "off", "--no-global"],
     dict(refine=minex.ON, rounds=minex.OFF, global_candidates=False)),
])
def test_4elt_hetero4_same_partition_as_minex_repart(tool, elt4, tmp_path,
                                                     flags, kw):
    g, old = elt4
    oldf, out = tmp_path / "old.part", tmp_path / "new.part"
    minex.write_partition(oldf, old * 8)  # 8 blocks, one in each 8th proc
    report = json.loads(run_tool(
        tool, "repart", ELT4, "--old", str(oldf), "--config", HETERO4,
        "-o", str(out), "--json", *flags))
    cli = minex.read_partition(out, g.nvtxs, 64)
    for machine in (minex.Machine.load(HETERO4), hetero4_machine()):
        new, m = minex.repartition(g, old * 8, machine, **kw)
        assert np.array_equal(new, cli)
        same_metrics(report, m)
    assert report["old_source"] == str(oldf)


def test_machine_matches_its_xml(tmp_path):
    built, loaded = hetero4_machine(), minex.Machine.load(HETERO4)
    for m in (built, loaded):
        assert m.clusters == (16, 16, 16, 16)
        assert m.nprocs == 64 and m.navailable == 64
        assert m.proc.tolist() == [1, 1, 2, 2]
        assert m.conn.tolist() == [[1 if i == j else 10 for j in range(4)]
                                   for i in range(4)]
        assert m.cluster_of.tolist() == [p // 16 for p in range(64)]
    built.set_available(5, False)
    built.save(tmp_path / "m.xml")
    again = minex.Machine.load(tmp_path / "m.xml")
    assert again.unavailable == (5,) and again.navailable == 63
    assert again.conn.tolist() == built.conn.tolist()


def test_partition_same_as_minex_partition_scotch(tool, elt4, tmp_path):
    g, _ = elt4
    m = minex.Machine(clusters=[4, 4], proc=[1, 2], conn=[[1, 10], [10, 1]],
                      unavailable=[6])
    m.save(tmp_path / "m.xml")
    run_tool(tool, "partition", ELT4, "--config", str(tmp_path / "m.xml"),
             "--method", "scotch", "--seed", "3", "-o",
             str(tmp_path / "p.part"))
    cli = np.loadtxt(tmp_path / "p.part", dtype=np.int32)
    part = minex.partition(g, m, seed=3)
    assert np.array_equal(part, cli)
    counts = np.bincount(part, minlength=8)
    assert counts[6] == 0 and (counts[np.arange(8) != 6] > 0).all()
    # the slow cluster (Proc 2) gets about half the weight per processor
    fast, slow = counts[:4].mean(), counts[[4, 5, 7]].mean()
    assert 0.35 < slow / fast < 0.65

# SPDX-License-Identifier: GPL-3.0-or-later
"""The package under test is the source tree's (python/minex) over the
library of a build tree: MINEX_LIBRARY when set, else build/libminex.so of
the repository (MINEX_BUILD_DIR names another build tree, whose
programs/minex the tests run beside the package). A missing library or
tool is a failure, not a skip."""

import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("MINEX_BUILD_DIR",
                                       os.path.join(ROOT, "build")))
if not os.environ.get("MINEX_LIBRARY"):
    os.environ["MINEX_LIBRARY"] = os.path.join(BUILD, "libminex.so")
# The threads tests run up to 4 OpenMP threads on CI's 2 cores: threads
# that sleep at a barrier instead of spinning (read by libgomp when the
# library is loaded) keep them from taking turns with spinning threads,
# 4 times faster there; the partition does not depend on it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
sys.path.insert(0, os.path.join(ROOT, "python"))

import minex  # noqa: E402  (after the path and the library are set)

DATA = os.path.join(ROOT, "data")
CUBE = os.path.join(DATA, "cases", "cube_ball_p16")
ELT4 = os.path.join(DATA, "graphs", "4elt.graph")
HETERO4 = os.path.join(ROOT, "docs", "examples", "hetero4.xml")


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def tool():
    """The minex command-line tool of the build tree."""
    path = os.path.join(BUILD, "programs", "minex")
    assert os.access(path, os.X_OK), "no minex tool at %s (build it)" % path
    return path


def run_tool(tool, *args):
    """Runs the tool; returns its stdout (stderr holds its notes)."""
    r = subprocess.run([tool, *args], capture_output=True, text=True)
    assert r.returncode == 0, "minex %s failed:\n%s" % (" ".join(args),
                                                        r.stderr)
    return r.stdout


@pytest.fixture(scope="session")
def cube():
    """data/cases/cube_ball_p16: the graph (202,596 vertices, Pwgt 8 and
    Rwgt 9 in the ball, Cwgt 4 at it) and its old partition into 16."""
    g = minex.read_graph(os.path.join(CUBE, "graph.graph"))
    old = np.loadtxt(os.path.join(CUBE, "old.part"), dtype=np.int32)
    return g, old


@pytest.fixture(scope="session")
def elt4():
    """data/graphs/4elt.graph (15,606 vertices, unit weights) and an old
    partition into 8 blocks of consecutive ids."""
    g = minex.read_graph(ELT4)
    old = (np.arange(g.nvtxs, dtype=np.int64) * 8 // g.nvtxs).astype(
        np.int32)
    return g, old


def hetero4_machine():
    """docs/examples/hetero4.xml built in Python: 4 clusters of 16, Proc
    1, 1, 2, 2, Conn 1 inside a cluster and 10 between."""
    conn = np.full((4, 4), 10.0)
    np.fill_diagonal(conn, 1.0)
    return minex.Machine(clusters=[16, 16, 16, 16], proc=[1, 1, 2, 2],
                         conn=conn)

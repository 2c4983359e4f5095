# SPDX-License-Identifier: GPL-3.0-or-later
"""Every malformed input is a MinexError carrying the library's code, its
symbolic name and a message naming what is at fault; nothing is
printed."""

import math

import numpy as np
import pytest

import minex
from minex import ErrorCode, MinexError

# a 4-cycle 0-1-2-3-0
INDPTR = np.array([0, 2, 4, 6, 8], dtype=np.int64)
INDICES = np.array([1, 3, 0, 2, 1, 3, 0, 2], dtype=np.int32)
OLD = np.array([0, 0, 1, 1], dtype=np.int32)


def raises(code, fragment, f, *args, **kw):
    with pytest.raises(MinexError) as info:
        f(*args, **kw)
    e = info.value
    assert e.code == code, str(e)
    assert e.name == "MINEX_" + ErrorCode(code).name
    assert fragment in e.message, e.message
    assert str(e) == "%s: %s" % (e.name, e.message)
    return e


def test_error_codes_come_from_the_library():
    assert ErrorCode.OK == 0 and ErrorCode.EINVAL == -1
    assert ErrorCode.EGRAPH == -5 and ErrorCode.EPART == -7
    assert len(ErrorCode) == 13  # MINEX_ERRNO_MAP of include/minex.h


@pytest.mark.parametrize("what,graph,kw,code,fragment", [
    ("indices shorter than indptr says",
     (INDPTR, INDICES[:-1]), {}, ErrorCode.EINVAL, "indices has 7 entries"),
    ("data of the wrong length",
     (INDPTR, INDICES, np.ones(7)), {}, ErrorCode.EINVAL, "data has 7"),
    ("pwgt of the wrong length",
     (INDPTR, INDICES), dict(pwgt=np.ones(5)), ErrorCode.EINVAL,
     "pwgt has 5 entries"),
    ("rwgt of the wrong length",
     (INDPTR, INDICES), dict(rwgt=[1, 1, 1]), ErrorCode.EINVAL,
     "rwgt has 3 entries"),
    ("an empty indptr",
     (np.zeros(0, np.int64), INDICES), {}, ErrorCode.EINVAL, "indptr"),
    ("a two-dimensional indices",
     (INDPTR, INDICES.reshape(2, 4)), {}, ErrorCode.EINVAL,
     "one-dimensional"),
    ("float ids",
     (INDPTR, INDICES.astype(float)), {}, ErrorCode.EINVAL,
     "must hold integers"),
    ("a negative neighbour id",
     (INDPTR, np.array([1, -3, 0, 2, 1, 3, 0, 2], np.int32)), {},
     ErrorCode.EGRAPH, "vertex 0: neighbour -3 outside [0, 4)"),
    ("an id beyond 32 bits",
     (INDPTR, np.array([1, 2**33, 0, 2, 1, 3, 0, 2])), {},
     ErrorCode.EGRAPH, "indices[1] = 8589934592 does not fit in 32 bits"),
    ("a one-way edge",
     (INDPTR, np.array([1, 2, 0, 2, 1, 3, 0, 2], np.int32)), {},
     ErrorCode.EGRAPH, "no reverse edge"),
    ("a NaN Pwgt",
     (INDPTR, INDICES), dict(pwgt=[1, math.nan, 1, 1]), ErrorCode.EGRAPH,
     "pwgt[1] = nan"),
    ("a negative Rwgt",
     (INDPTR, INDICES), dict(rwgt=[1, 1, -2, 1]), ErrorCode.EGRAPH,
     "rwgt[2] = -2"),
    ("an infinite Cwgt",
     (INDPTR, INDICES, [1, 1, 1, 1, 1, 1, 1, math.inf]), {},
     ErrorCode.EGRAPH, "cwgt[7] = inf"),
])
def test_malformed_graph(what, graph, kw, code, fragment):
    raises(code, fragment, minex.Graph, *graph, **kw)
    raises(code, fragment, minex.repartition, graph, OLD, 2, **kw)


def test_negative_id_same_error_for_int32_and_int64():
    bad = np.array([1, -3, 0, 2, 1, 3, 0, 2])
    e32 = raises(ErrorCode.EGRAPH, "neighbour -3", minex.Graph, INDPTR,
                 bad.astype(np.int32))
    e64 = raises(ErrorCode.EGRAPH, "neighbour -3", minex.Graph,
                 INDPTR.astype(np.int32), bad.astype(np.int64))
    assert e32.message == e64.message


@pytest.mark.parametrize("old,code,fragment", [
    ([0, 0, 1], ErrorCode.EINVAL, "old has 3 entries"),
    ([0, 0, 1, 2], ErrorCode.EPART, "vertex 3 has owner 2, outside [0, 2)"),
    ([0, -1, 1, 1], ErrorCode.EPART, "vertex 1 has owner -1"),
    (np.array([0, 0, 1, 2**40]), ErrorCode.EPART, "old[3] = 1099511627776"),
    (np.array([0.0, 0.0, 1.0, 1.0]), ErrorCode.EINVAL, "must hold integers"),
])
def test_malformed_old_partition(old, code, fragment):
    g = minex.Graph(INDPTR, INDICES)
    raises(code, fragment, minex.repartition, g, old, 2)
    raises(code, fragment, minex.evaluate, g, old, OLD, 2)


def test_evaluate_refuses_a_new_partition_out_of_range():
    g = minex.Graph(INDPTR, INDICES)
    raises(ErrorCode.EPART, "", minex.evaluate, g, OLD, [0, 1, 2, 3], 3)
    raises(ErrorCode.EINVAL, "new has 2", minex.loads, g, OLD, [0, 1], 2)


@pytest.mark.parametrize("kw,code,fragment", [
    (dict(alpha=2.0), ErrorCode.EINVAL, "options.alpha"),
    (dict(alpha=math.nan), ErrorCode.EINVAL, "options.alpha"),
    (dict(iters=-1), ErrorCode.EINVAL, "options.iterations"),
    (dict(threads=1.5), ErrorCode.EINVAL, "takes an integer"),
    (dict(refine="on"), ErrorCode.EINVAL, "minex.OFF, minex.ON"),
    (dict(throttle="auto"), ErrorCode.EINVAL, "takes a number, not 'auto'"),
    (dict(seed=2**53 + 1), ErrorCode.EINVAL, "cannot be passed exactly"),
    (dict(no_such_option=1), ErrorCode.EINVAL, "no option 'no_such_option'"),
    (dict(iters=3, iterations=3), ErrorCode.EINVAL, "given twice"),
])
def test_bad_options(kw, code, fragment):
    g = minex.Graph(INDPTR, INDICES)
    raises(code, fragment, minex.repartition, g, OLD, 2, **kw)


def test_bad_out_buffer():
    g = minex.Graph(INDPTR, INDICES)
    raises(ErrorCode.EINVAL, "int32", minex.repartition, g, OLD, 2,
           out=np.zeros(4, np.int64))
    raises(ErrorCode.EINVAL, "out has 3", minex.repartition, g, OLD, 2,
           out=np.zeros(3, np.int32))


def test_graph_weights_belong_to_the_graph():
    g = minex.Graph(INDPTR, INDICES)
    raises(ErrorCode.EINVAL, "Graph.set_weights", minex.repartition, g, OLD,
           2, pwgt=np.ones(4))
    raises(ErrorCode.EGRAPH, "one way", g.set_weights,
           cwgt=[1, 2, 1, 1, 1, 1, 1, 1])
    assert g.data.tolist() == [1.0] * 8  # unchanged on error


@pytest.mark.parametrize("kw,code,fragment", [
    (dict(clusters=[2, 2], conn=[[1, 10], [5, 1]]), ErrorCode.ECONFIG,
     "Conn must be symmetric"),
    (dict(clusters=[2, 2], conn=[[1, 10, 1], [10, 1, 1]]), ErrorCode.EINVAL,
     "conn must be 2 x 2"),
    (dict(clusters=[2, 2], proc=[1]), ErrorCode.EINVAL, "proc has 1"),
    (dict(clusters=[2, 2], proc=[1, 0]), ErrorCode.ECONFIG, "Proc"),
    (dict(clusters=[0, 0]), ErrorCode.ECONFIG, "0 processors"),
    (dict(clusters=[2, 2], unavailable=[4]), ErrorCode.EINVAL,
     "processor 4 outside [0, 4)"),
])
def test_malformed_machine(kw, code, fragment):
    raises(code, fragment, minex.Machine, **kw)


def test_no_available_processor():
    g = minex.Graph(INDPTR, INDICES)
    m = minex.Machine(clusters=[2], unavailable=[0, 1])
    raises(ErrorCode.ENOPROC, "all 2 processors are unavailable",
           minex.repartition, g, OLD, m)


def test_files(tmp_path):
    raises(ErrorCode.EIO, "nope.graph", minex.read_graph,
           tmp_path / "nope.graph")
    bad = tmp_path / "bad.graph"
    bad.write_text("3 2\n2\n1 3\nx\n")
    raises(ErrorCode.EPARSE, "bad.graph:", minex.read_graph, bad)
    raises(ErrorCode.EIO, "no.xml: cannot open", minex.Machine.load,
           tmp_path / "no.xml")
    xml = tmp_path / "m.xml"
    xml.write_text("<minex-config version='1'><cluster/></minex-config>")
    raises(ErrorCode.ESCHEMA, "", minex.Machine.load, xml)
    part = tmp_path / "p.part"
    part.write_text("0\n1\n7\n")
    raises(ErrorCode.EPART, "", minex.read_partition, part, 3, 4)
    raises(ErrorCode.EIO, "no.mesh: cannot open", minex.read_mesh,
           tmp_path / "no.mesh")


def test_nothing_printed(capfd, tmp_path):
    g = minex.Graph(INDPTR, INDICES)
    new, _ = minex.repartition(g, OLD, 2)
    minex.evaluate(g, OLD, new, 2)
    for f, args in [(minex.repartition, (g, [0, 9, 0, 0], 2)),
                    (minex.read_graph, (tmp_path / "x",)),
                    (minex.Machine, ([1, 1], [1, -1]))]:
        with pytest.raises(MinexError):
            f(*args)
    out, err = capfd.readouterr()
    assert out == "" and err == ""

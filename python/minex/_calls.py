# SPDX-License-Identifier: GPL-3.0-or-later
"""Repartitioning, evaluation and partitioning from scratch."""

from __future__ import annotations

import ctypes
from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

from ._core import (ErrorCode, address, check, check_length, error,
                    int_array, lib, make_options, metrics_struct)
from ._graph import GraphLike, as_graph
from ._machine import MachineLike, as_machine
from ._metrics import Metrics, from_c


def _part(a: Any, name: str, n: int) -> np.ndarray:
    p = int_array(a, name, np.int32, ErrorCode.EPART)
    check_length(p, name, n, "the graph has nvtxs =")
    return p


def _out(out: Optional[np.ndarray], n: int) -> np.ndarray:
    if out is None:
        return np.empty(n, dtype=np.int32)
    if (not isinstance(out, np.ndarray) or out.dtype != np.int32 or
            out.ndim != 1 or not out.flags.c_contiguous or
            not out.flags.writeable):
        raise error(ErrorCode.EINVAL, "out must be a writable C-contiguous "
                    "one-dimensional int32 numpy array")
    check_length(out, "out", n, "the graph has nvtxs =")
    return out


def repartition(graph: GraphLike, old: Any, machine: MachineLike, *,
                alpha: Optional[float] = None, iters: Optional[int] = None,
                seed: Optional[int] = None, threads: Optional[int] = None,
                throttle: Optional[float] = None, pwgt: Any = None,
                rwgt: Any = None, out: Optional[np.ndarray] = None,
                **options: Any) -> Tuple[np.ndarray, Metrics]:
    """Repartitions graph for machine starting from old (minex_repartition,
    SPEC §3): moves vertices so that the largest per-processor cost
    MaxQwgt (processing + communication + remapping, scaled by the
    slowdowns) is as low as the rules reach, never above old's when every
    old owner is available.

    graph: a :class:`Graph`, a scipy.sparse matrix or array (its stored
    entries the edges, its values their Cwgt), or a tuple ``(indptr,
    indices[, data])``; pwgt and rwgt (one per vertex, None: 1 each) go
    with a matrix or a tuple, a Graph has its own. old: the current owner
    of each vertex, in [0, P). machine: a :class:`Machine` or a processor
    count P (one cluster, Proc = Conn = 1).

    Options, each by keyword (None: the library's default; ``minex.options()``
    lists them all with their defaults): ``alpha`` latency tolerance in
    [0, 1]; ``iters`` the horizon k (``iterations``); ``seed``; ``threads``
    the OpenMP threads of the call (``nthreads``; default 1, 0: every core;
    the result does not depend on it); ``throttle``; and every other name
    of the library's options (``refine=minex.ON``, ``paper_exact=True``,
    ``remap_mode=minex.REMAP_SENDER``, ...).

    out: an int32 array of nvtxs entries to write the new partition into
    (None: a new one). Returns (new partition as int32, :class:`Metrics` of
    the new partition). The GIL is released during the C call. Raises
    :class:`MinexError` (the library's code, name and message) for a
    malformed input: wrong lengths, ids out of range, weights that are NaN,
    infinite or negative, an option out of its range."""
    g = as_graph(graph, pwgt, rwgt)
    n = g.nvtxs
    o = _part(old, "old", n)
    m = as_machine(machine)
    opts = make_options(dict(options, alpha=alpha, iters=iters, seed=seed,
                             threads=threads, throttle=throttle))
    new = _out(out, n)
    cm = metrics_struct()
    check(lib.minex_repartition(g._ptr, m._ptr, address(o), opts.ptr,
                                address(new), ctypes.byref(cm)),
          "minex_repartition")
    return new, from_c(cm)


def evaluate(graph: GraphLike, old: Any, new: Any, machine: MachineLike, *,
             pwgt: Any = None, rwgt: Any = None,
             **options: Any) -> Metrics:
    """The scores of new against old on machine (minex_evaluate, SPEC §2):
    every field of :class:`Metrics` for the new partition (those only a
    repartition fills are 0). Owners on unavailable processors are counted
    in ``stranded``. The options that matter are alpha, remap_mode and
    iterations (``iters``); graph, machine, pwgt and rwgt as for
    :func:`repartition`."""
    g = as_graph(graph, pwgt, rwgt)
    n = g.nvtxs
    o = _part(old, "old", n)
    w = _part(new, "new", n)
    m = as_machine(machine)
    opts = make_options(options)
    cm = metrics_struct()
    check(lib.minex_evaluate(g._ptr, m._ptr, address(o), address(w),
                             opts.ptr, ctypes.byref(cm)), "minex_evaluate")
    return from_c(cm)


class Loads(NamedTuple):
    """Per-processor loads of a partition (P entries each, unavailable
    processors included), SPEC §2: ``wgt`` (Wgt^p) and ``comm`` (Comm^p)
    of one solver iteration, ``remap`` (Remap^p) and ``qwgt`` (Qwgt^p)
    under the horizon k = ``iters``: at alpha 0, ``qwgt = k * (wgt +
    comm) + remap``."""

    wgt: np.ndarray
    comm: np.ndarray
    remap: np.ndarray
    qwgt: np.ndarray


def loads(graph: GraphLike, old: Any, new: Any, machine: MachineLike, *,
          pwgt: Any = None, rwgt: Any = None, **options: Any) -> Loads:
    """The loads of each processor under new, old giving the remapping
    (minex_evaluate_procs); arguments as for :func:`evaluate`."""
    g = as_graph(graph, pwgt, rwgt)
    n = g.nvtxs
    o = _part(old, "old", n)
    w = _part(new, "new", n)
    m = as_machine(machine)
    opts = make_options(options)
    p = m.nprocs
    arrays = [np.zeros(p) for _ in range(4)]
    check(lib.minex_evaluate_procs(g._ptr, m._ptr, address(o), address(w),
                                   opts.ptr, *[address(a) for a in arrays]),
          "minex_evaluate_procs")
    return Loads(*arrays)


def partition(graph: GraphLike, machine: MachineLike, *, seed: int = 1,
              pwgt: Any = None, rwgt: Any = None,
              out: Optional[np.ndarray] = None) -> np.ndarray:
    """A partition from scratch onto the available processors of machine
    (minex_partition_graph): Scotch maps the graph onto the clusters by
    their share of the machine's speed, then each cluster's part onto its
    processors, balancing Pwgt and cutting little Cwgt. Deterministic for
    a seed. Returns an int32 array (or fills out)."""
    g = as_graph(graph, pwgt, rwgt)
    m = as_machine(machine)
    s = int(seed)
    if not 0 <= s < 2**64:
        raise error(ErrorCode.EINVAL, "seed = %d is not in [0, 2^64)" % s)
    part = _out(out, g.nvtxs)
    check(lib.minex_partition_graph(g._ptr, m._ptr, s, address(part)),
          "minex_partition_graph")
    return part

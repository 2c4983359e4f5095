# SPDX-License-Identifier: GPL-3.0-or-later
"""The dual graph (minex_graph): CSR topology, vertex and edge weights."""

from __future__ import annotations

import ctypes
import os
import weakref
from ctypes import c_double, c_int32, c_int64, c_void_p
from typing import Any, Optional, Tuple, Union

import numpy as np

from ._core import (ErrorCode, address, check, check_length, error,
                    int_array, lib, real_array, view)


class Graph:
    """A graph held by the library (minex_graph, SPEC §1): one vertex per
    mesh element, with its processing weight ``pwgt`` (Pwgt) and remapping
    weight ``rwgt`` (Rwgt), and a communication weight (Cwgt) per edge.

    ``Graph(indptr, indices, data=None, *, pwgt=None, rwgt=None)`` takes
    the CSR arrays of a symmetric adjacency matrix: ``indptr`` (nvtxs + 1
    offsets), ``indices`` (the neighbours of vertex v at
    ``indices[indptr[v]:indptr[v+1]]``) and ``data`` (one Cwgt per entry
    of ``indices``). Every edge must appear in both directions with the
    same weight, without self loops or duplicates; weights are finite and
    >= 0; a missing weight array means 1 each.

    The library always copies the arrays (minex_graph_create), sorting
    each neighbour list by id: the graph is built once, and every call
    given the Graph (repartition, evaluate, ...) uses the library's copy
    with no conversion or copy at all. The arrays are handed to the
    library as they are when their types are the library's (int64
    ``indptr``, int32 ``indices``, float64 weights, C-contiguous);
    otherwise each is converted once first (an int32 ``indptr``, as scipy
    makes, becomes int64; int64 ``indices`` become int32, refused when an
    id does not fit). The result is the same for int32 and int64 inputs.

    The attributes ``indptr``, ``indices``, ``data`` (also ``cwgt``),
    ``pwgt`` and ``rwgt`` are read-only numpy views of the library's
    arrays, neighbours in sorted order; the topology is fixed, the weights
    change through :meth:`set_weights`.
    """

    __slots__ = ("_ptr", "_finalizer", "__weakref__")

    def __init__(self, indptr: Any, indices: Any, data: Any = None, *,
                 pwgt: Any = None, rwgt: Any = None):
        xadj = int_array(indptr, "indptr", np.int64)
        if xadj.shape[0] < 1:
            raise error(ErrorCode.EINVAL, "indptr must have nvtxs + 1 >= 1 "
                        "entries, has 0")
        n = xadj.shape[0] - 1
        if n > 2**31 - 1:
            raise error(ErrorCode.EINVAL, "%d vertices: at most 2^31 - 1" % n)
        adj = int_array(indices, "indices", np.int32, ErrorCode.EGRAPH)
        if xadj[-1] != adj.shape[0]:
            raise error(ErrorCode.EINVAL, "indices has %d entries, indptr[%d]"
                        " = %d" % (adj.shape[0], n, int(xadj[-1])))
        cw = None
        if data is not None:
            cw = real_array(data, "data")
            check_length(cw, "data", adj.shape[0], "indices has")
        pw = rw = None
        if pwgt is not None:
            pw = real_array(pwgt, "pwgt")
            check_length(pw, "pwgt", n, "the graph has nvtxs =")
        if rwgt is not None:
            rw = real_array(rwgt, "rwgt")
            check_length(rw, "rwgt", n, "the graph has nvtxs =")
        out = c_void_p()
        rc = lib.minex_graph_create(n, address(xadj), address(adj),
                                    address(pw), address(rw), address(cw),
                                    ctypes.byref(out))
        check(rc, "minex_graph_create")
        self._adopt(out.value)

    def _adopt(self, ptr: int) -> None:
        self._ptr = ptr
        self._finalizer = weakref.finalize(self, lib.minex_graph_destroy,
                                           ptr)

    @classmethod
    def _wrap(cls, ptr: int) -> "Graph":
        g = cls.__new__(cls)
        g._adopt(ptr)
        return g

    @classmethod
    def from_csr(cls, matrix: Any, *, pwgt: Any = None,
                 rwgt: Any = None) -> "Graph":
        """A Graph of a square scipy.sparse matrix or array (CSR as it is;
        another format is converted with ``tocsr()`` first), or of a tuple
        ``(indptr, indices[, data])``. The matrix's stored entries are the
        edges, its values their Cwgt."""
        if isinstance(matrix, tuple):
            if len(matrix) not in (2, 3):
                raise error(ErrorCode.EINVAL, "a graph tuple is (indptr, "
                            "indices) or (indptr, indices, data), not %d "
                            "items" % len(matrix))
            return cls(*matrix, pwgt=pwgt, rwgt=rwgt)
        if hasattr(matrix, "tocsr") and hasattr(matrix, "shape"):
            if getattr(matrix, "format", None) != "csr":
                matrix = matrix.tocsr()
            shape = matrix.shape
            if len(shape) != 2 or shape[0] != shape[1]:
                raise error(ErrorCode.EINVAL, "the adjacency matrix must be "
                            "square, not of shape %s" % (shape,))
            return cls(matrix.indptr, matrix.indices, matrix.data,
                       pwgt=pwgt, rwgt=rwgt)
        raise TypeError("a graph is a minex.Graph, a scipy.sparse matrix "
                        "or array, or a tuple (indptr, indices[, data]), "
                        "not %s" % type(matrix).__name__)

    @property
    def nvtxs(self) -> int:
        """Number of vertices."""
        return lib.minex_graph_nvtxs(self._ptr)

    @property
    def nedges(self) -> int:
        """Number of undirected edges (len(indices) / 2)."""
        return lib.minex_graph_nedges(self._ptr)

    @property
    def indptr(self) -> np.ndarray:
        """int64 offsets (xadj), nvtxs + 1 entries."""
        return view(self, lib.minex_graph_xadj(self._ptr), self.nvtxs + 1,
                    c_int64, np.int64)

    @property
    def indices(self) -> np.ndarray:
        """int32 neighbour ids (adjncy), each vertex's sorted."""
        return view(self, lib.minex_graph_adjncy(self._ptr), 2 * self.nedges,
                    c_int32, np.int32)

    @property
    def data(self) -> np.ndarray:
        """Cwgt of each entry of ``indices`` (float64)."""
        return view(self, lib.minex_graph_cwgt(self._ptr), 2 * self.nedges,
                    c_double, np.float64)

    cwgt = data

    @property
    def pwgt(self) -> np.ndarray:
        """Pwgt of each vertex (float64)."""
        return view(self, lib.minex_graph_pwgt(self._ptr), self.nvtxs,
                    c_double, np.float64)

    @property
    def rwgt(self) -> np.ndarray:
        """Rwgt of each vertex (float64)."""
        return view(self, lib.minex_graph_rwgt(self._ptr), self.nvtxs,
                    c_double, np.float64)

    def set_weights(self, pwgt: Any = None, rwgt: Any = None,
                    cwgt: Any = None) -> None:
        """Replaces weights, keeping the topology (minex_graph_set_weights):
        pwgt and rwgt per vertex, cwgt per entry of ``indices`` in the
        stored (sorted) order; None keeps those weights. Only the weights
        are checked (finite, >= 0, Cwgt equal both ways), in O(V + E); on
        error nothing changes. The views returned before show the new
        weights. Not while another thread uses the graph."""
        n = self.nvtxs
        pw = rw = cw = None
        if pwgt is not None:
            pw = real_array(pwgt, "pwgt")
            check_length(pw, "pwgt", n, "the graph has nvtxs =")
        if rwgt is not None:
            rw = real_array(rwgt, "rwgt")
            check_length(rw, "rwgt", n, "the graph has nvtxs =")
        if cwgt is not None:
            cw = real_array(cwgt, "cwgt")
            check_length(cw, "cwgt", 2 * self.nedges, "indices has")
        check(lib.minex_graph_set_weights(self._ptr, address(pw), address(rw),
                                          address(cw)),
              "minex_graph_set_weights")

    def to_scipy(self):
        """The adjacency matrix as a scipy.sparse.csr_array of the Cwgt
        (a copy)."""
        import scipy.sparse
        n = self.nvtxs
        return scipy.sparse.csr_array(
            (self.data.copy(), self.indices.copy(), self.indptr.copy()),
            shape=(n, n))

    def write_metis(self, path: Union[str, os.PathLike]) -> None:
        """Writes the graph in METIS format with its weights
        (minex_graph_write_metis), atomically."""
        check(lib.minex_graph_write_metis(self._ptr, os.fsencode(path)),
              "minex_graph_write_metis")

    def __repr__(self) -> str:
        return "minex.Graph(nvtxs=%d, nedges=%d)" % (self.nvtxs, self.nedges)


GraphLike = Union[Graph, Any, Tuple[Any, ...]]


def as_graph(graph: GraphLike, pwgt: Any = None, rwgt: Any = None
             ) -> Graph:
    """graph itself when it is a Graph (pwgt and rwgt must then be None:
    they are its own), else a Graph made of it."""
    if isinstance(graph, Graph):
        if pwgt is not None or rwgt is not None:
            raise error(ErrorCode.EINVAL, "pwgt and rwgt belong to the "
                        "minex.Graph given; change them with "
                        "Graph.set_weights")
        return graph
    return Graph.from_csr(graph, pwgt=pwgt, rwgt=rwgt)


def read_graph(path: Union[str, os.PathLike]) -> Graph:
    """Reads a METIS graph file (minex_graph_read_metis): fmt digits
    "vsize vwgt ewgt" give Rwgt, Pwgt and Cwgt (a missing weight is 1).
    Raises MinexError naming the file and line of a malformed input."""
    out = c_void_p()
    check(lib.minex_graph_read_metis(os.fsencode(path), ctypes.byref(out)))
    return Graph._wrap(out.value)


def read_partition(path: Union[str, os.PathLike], nvtxs: int,
                   nparts: int = 0) -> np.ndarray:
    """Reads a partition file, one processor id per line
    (minex_part_read): exactly nvtxs ids, each in [0, nparts) (nparts <=
    0: any id the library accepts). Returns an int32 array."""
    out = c_void_p()
    check(lib.minex_part_read(os.fsencode(path), int(nvtxs), int(nparts),
                              ctypes.byref(out)))
    try:
        part = view(None, out.value, int(nvtxs), c_int32, np.int32).copy()
    finally:
        _free(out.value)
    return part


def write_partition(path: Union[str, os.PathLike], part: Any) -> None:
    """Writes a partition file, one id per line (minex_part_write),
    atomically."""
    p = int_array(part, "part", np.int32, ErrorCode.EPART)
    check(lib.minex_part_write(os.fsencode(path), p.shape[0], address(p)))


_libc_free: Optional[Any] = None


def _free(ptr: Optional[int]) -> None:
    """free() of the C library the process runs (minex_part_read's array
    is malloc'ed, for the caller to free)."""
    global _libc_free
    if not ptr:
        return
    if _libc_free is None:
        f = ctypes.CDLL(None).free
        f.restype = None
        f.argtypes = [c_void_p]
        _libc_free = f
    _libc_free(ptr)

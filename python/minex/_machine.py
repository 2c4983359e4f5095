# SPDX-License-Identifier: GPL-3.0-or-later
"""The machine: clusters of processors with slowdowns (minex_config)."""

from __future__ import annotations

import ctypes
import os
import weakref
from ctypes import c_void_p
from typing import Any, Iterable, Sequence, Tuple, Union

import numpy as np

from ._core import (ErrorCode, address, check, error, int_array, lib,
                    real_array)


class Machine:
    """The configuration graph (SPEC §1): clusters of processors, numbered
    0..P-1 cluster by cluster, with processing slowdowns and link
    slowdowns (1 = the fastest).

    ``Machine(clusters=[16, 16], proc=[1, 2], conn=[[1, 10], [10, 1]],
    unavailable=[3])``: ``clusters`` the processor count of each cluster
    (>= 0, at least one processor in all); ``proc`` each cluster's Proc_c >
    0 (None: all 1); ``conn`` the symmetric C x C matrix of Conn(c, d) > 0,
    the diagonal the slowdown inside a cluster (None: all 1);
    ``unavailable`` processors that own nothing in a new partition (a
    resource that left). ``Machine.uniform(P)`` is one cluster of P equal
    processors, ``Machine.load(path)`` reads the XML description
    (minex_config_load, validated against the schema).
    """

    __slots__ = ("_ptr", "_finalizer", "__weakref__")

    def __init__(self, clusters: Sequence[int], proc: Any = None,
                 conn: Any = None, unavailable: Iterable[int] = ()):
        sizes = int_array(clusters, "clusters", np.int32, ErrorCode.ECONFIG)
        c = sizes.shape[0]
        p = None
        if proc is not None:
            p = real_array(proc, "proc")
            if p.shape[0] != c:
                raise error(ErrorCode.EINVAL, "proc has %d entries, for %d "
                            "clusters" % (p.shape[0], c))
        m = None
        if conn is not None:
            m2 = np.asarray(conn)
            if m2.shape != (c, c):
                raise error(ErrorCode.EINVAL, "conn must be %d x %d (one row "
                            "and column per cluster), not of shape %s" %
                            (c, c, m2.shape))
            m = real_array(m2.reshape(-1), "conn")
        out = c_void_p()
        check(lib.minex_config_create(c, address(sizes), address(p),
                                      address(m), ctypes.byref(out)),
              "minex_config_create")
        self._adopt(out.value)
        for q in unavailable:
            self.set_available(q, False)

    def _adopt(self, ptr: int) -> None:
        self._ptr = ptr
        self._finalizer = weakref.finalize(self, lib.minex_config_destroy,
                                           ptr)

    @classmethod
    def _wrap(cls, ptr: int) -> "Machine":
        m = cls.__new__(cls)
        m._adopt(ptr)
        return m

    @classmethod
    def uniform(cls, nprocs: int) -> "Machine":
        """One cluster of nprocs processors, Proc = Conn = 1
        (minex_config_create_uniform)."""
        out = c_void_p()
        check(lib.minex_config_create_uniform(_int32(nprocs, "nprocs"),
                                              ctypes.byref(out)),
              "minex_config_create_uniform")
        return cls._wrap(out.value)

    @classmethod
    def load(cls, path: Union[str, os.PathLike]) -> "Machine":
        """Reads a configuration XML file (docs/reference/formats.md), validated
        against the schema built into the library (minex_config_load)."""
        out = c_void_p()
        check(lib.minex_config_load(os.fsencode(path), ctypes.byref(out)))
        return cls._wrap(out.value)

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the configuration as XML (minex_config_save),
        atomically."""
        check(lib.minex_config_save(self._ptr, os.fsencode(path)),
              "minex_config_save")

    def set_available(self, proc: int, available: bool = True) -> None:
        """Marks processor proc available or not
        (minex_config_set_available)."""
        check(lib.minex_config_set_available(self._ptr,
                                             _int32(proc, "proc"),
                                             1 if available else 0),
              "minex_config_set_available")

    @property
    def nclusters(self) -> int:
        """C, the number of clusters."""
        return lib.minex_config_nclusters(self._ptr)

    @property
    def nprocs(self) -> int:
        """P, the number of processors, available or not."""
        return lib.minex_config_nprocs(self._ptr)

    @property
    def navailable(self) -> int:
        """The number of available processors."""
        return lib.minex_config_navailable(self._ptr)

    @property
    def clusters(self) -> Tuple[int, ...]:
        """The processor count of each cluster."""
        return tuple(lib.minex_config_cluster_nprocs(self._ptr, c)
                     for c in range(self.nclusters))

    @property
    def proc(self) -> np.ndarray:
        """Proc_c of each cluster."""
        return np.array([lib.minex_config_proc_slowdown(self._ptr, c)
                         for c in range(self.nclusters)])

    @property
    def conn(self) -> np.ndarray:
        """The C x C matrix Conn(c, d)."""
        c = self.nclusters
        return np.array([[lib.minex_config_conn(self._ptr, i, j)
                          for j in range(c)] for i in range(c)])

    @property
    def cluster_of(self) -> np.ndarray:
        """The cluster of each processor (int32, P entries)."""
        return np.array([lib.minex_config_cluster_of(self._ptr, q)
                         for q in range(self.nprocs)], dtype=np.int32)

    @property
    def available(self) -> np.ndarray:
        """Whether each processor is available (bool, P entries)."""
        return np.array([lib.minex_config_is_available(self._ptr, q) != 0
                         for q in range(self.nprocs)], dtype=bool)

    @property
    def unavailable(self) -> Tuple[int, ...]:
        """The processors marked unavailable."""
        return tuple(int(q) for q in np.flatnonzero(~self.available))

    def __repr__(self) -> str:
        return ("minex.Machine(clusters=%s, proc=%s, conn=%s, "
                "unavailable=%s)" % (list(self.clusters),
                                     self.proc.tolist(), self.conn.tolist(),
                                     list(self.unavailable)))


def _int32(v: Any, name: str) -> int:
    try:
        iv = int(v)
    except (TypeError, ValueError):
        raise error(ErrorCode.EINVAL, "%s must be an integer, not %r" %
                    (name, v)) from None
    if iv != v or not -(2**31) <= iv < 2**31:
        raise error(ErrorCode.EINVAL, "%s = %r is not a 32-bit integer" %
                    (name, v))
    return iv


MachineLike = Union[Machine, int]


def as_machine(machine: MachineLike) -> Machine:
    """machine itself, or for an int P the uniform machine of P
    processors."""
    if isinstance(machine, Machine):
        return machine
    if isinstance(machine, (int, np.integer)) and not isinstance(machine,
                                                                 bool):
        return Machine.uniform(int(machine))
    raise TypeError("a machine is a minex.Machine or a processor count, not "
                    "%s" % type(machine).__name__)


# SPDX-License-Identifier: GPL-3.0-or-later
"""MinEX from Python: latency-tolerant diffusive repartitioning of adaptive
meshes on heterogeneous clusters, over the installed C library (ctypes; no
compiler needed).

    import minex
    graph = minex.read_graph("mesh.graph")      # or a scipy.sparse CSR
    machine = minex.Machine(clusters=[16, 16], proc=[1, 2],
                            conn=[[1, 10], [10, 1]])
    new, metrics = minex.repartition(graph, old, machine, iters=10,
                                     threads=2)

The library is found through ``MINEX_LIBRARY``, then
``ctypes.util.find_library("minex")``, then the prefix the package is
installed in; importing the package checks its binary interface
(minex_abi_get) and refuses a library that differs. The semantics are
those of docs/SPEC.md; docs/guide/python.md describes the package.
"""

from __future__ import annotations

from typing import Dict

from ._lib import LibraryError, PACKAGE_VERSION
from ._core import (AUTO, OFF, ON, REMAP_BOTH, REMAP_RECEIVER, REMAP_SENDER,
                    ErrorCode, MinexError, abi_values, lib, library_path,
                    options)
from ._metrics import Metrics
from ._graph import Graph, read_graph, read_partition, write_partition
from ._machine import Machine
from ._mesh import ELEM_KINDS, MIXED, Mesh, dual_graph, read_mesh
from ._calls import Loads, evaluate, loads, partition, repartition

__version__ = "%d.%d.%d" % PACKAGE_VERSION[:3]


def version() -> str:
    """The version of the C library loaded (minex_version)."""
    return lib.minex_version().decode()


def abi() -> Dict[str, object]:
    """The binary interface of the library loaded (minex_abi_get), as the
    import checked it, and the path it was loaded from (``path``)."""
    return dict(abi_values, path=library_path)


__all__ = [
    "AUTO", "ELEM_KINDS", "ErrorCode", "Graph", "LibraryError", "Loads",
    "MIXED", "Machine", "Mesh", "Metrics", "MinexError", "OFF", "ON",
    "REMAP_BOTH", "REMAP_RECEIVER", "REMAP_SENDER", "abi", "dual_graph",
    "evaluate", "library_path", "loads", "options", "partition",
    "read_graph", "read_mesh", "read_partition", "repartition", "version",
    "write_partition",
]

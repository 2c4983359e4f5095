# SPDX-License-Identifier: GPL-3.0-or-later
"""Meshes (minex_mesh): reading, centroids and the dual graph."""

from __future__ import annotations

import ctypes
import os
import weakref
from ctypes import c_double, c_int32, c_void_p
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

from ._core import (ErrorCode, address, check, check_length, error, lib,
                    real_array, view)
from ._graph import Graph

# The element kinds (minex_elem_type: VTK's cell types) and their names as
# the library gives them (minex_elem_name).
MIXED = 1
_KINDS = (3, 4, 9, 12, 13, 14)
ELEM_KINDS: Dict[str, int] = {
    lib.minex_elem_name(k).decode(): k for k in _KINDS}


def _kind(kind: Union[None, int, str]) -> int:
    if kind is None:
        return 0
    if isinstance(kind, str):
        if kind not in ELEM_KINDS:
            raise error(ErrorCode.EINVAL, "unknown element kind '%s' (one of "
                        "%s)" % (kind, ", ".join(ELEM_KINDS)))
        return ELEM_KINDS[kind]
    return int(kind)


class Mesh:
    """A mesh held by the library (minex_mesh): tetrahedra, hexahedra,
    prisms and pyramids, or triangles and quadrilaterals, of one kind or
    mixed, by their corner nodes. Made by :func:`read_mesh`."""

    __slots__ = ("_ptr", "_finalizer", "__weakref__")

    @classmethod
    def _wrap(cls, ptr: int) -> "Mesh":
        m = cls.__new__(cls)
        m._ptr = ptr
        m._finalizer = weakref.finalize(m, lib.minex_mesh_destroy, ptr)
        return m

    @property
    def nnodes(self) -> int:
        """Number of nodes."""
        return lib.minex_mesh_nnodes(self._ptr)

    @property
    def nelems(self) -> int:
        """Number of elements (of the highest dimension in the file)."""
        return lib.minex_mesh_nelems(self._ptr)

    @property
    def elem_type(self) -> int:
        """The kind of every element (a VTK cell type: 4 tetrahedron, 12
        hexahedron, ...), or 1 (MIXED) for a mesh of several kinds."""
        return lib.minex_mesh_elem_type(self._ptr)

    @property
    def coords(self) -> np.ndarray:
        """Node coordinates, a read-only (nnodes, 3) view."""
        n = self.nnodes
        return view(self, lib.minex_mesh_coords(self._ptr), 3 * n, c_double,
                    np.float64, (n, 3))

    def elem_kinds(self) -> np.ndarray:
        """The kind of each element (int32, nelems entries)."""
        t = self.elem_type
        if t != MIXED:
            return np.full(self.nelems, t, dtype=np.int32)
        return np.array([lib.minex_mesh_elem_kind(self._ptr, e)
                         for e in range(self.nelems)], dtype=np.int32)

    def _offsets(self) -> Tuple[np.ndarray, np.ndarray]:
        kinds = self.elem_kinds()
        counts = np.zeros(kinds.shape[0], dtype=np.int64)
        for k in np.unique(kinds):
            counts[kinds == k] = lib.minex_elem_nnodes(int(k))
        off = np.zeros(kinds.shape[0] + 1, dtype=np.int64)
        np.cumsum(counts, out=off[1:])
        return off, counts

    @property
    def elems(self) -> np.ndarray:
        """The corner nodes (0-based, VTK's order): a read-only (nelems, k)
        view for a mesh of one kind, for a mixed mesh the flat list of
        every element's corners one after the other (:meth:`elem_kinds`
        says how many each has)."""
        ne, t = self.nelems, self.elem_type
        if t != MIXED:
            k = lib.minex_elem_nnodes(t)
            return view(self, lib.minex_mesh_elems(self._ptr), ne * k,
                        c_int32, np.int32, (ne, k))
        off, _ = self._offsets()
        return view(self, lib.minex_mesh_elems(self._ptr), int(off[-1]),
                    c_int32, np.int32)

    @property
    def ignored(self) -> int:
        """Elements of the file the reader ignored (lower-dimensional ones,
        and with a kind given to read_mesh those of other kinds)."""
        return lib.minex_mesh_ignored(self._ptr)

    @property
    def file_partition(self) -> Optional[np.ndarray]:
        """The partition stored in the file (a read-only int32 view, one
        part per element), or None."""
        p = lib.minex_mesh_file_partition(self._ptr)
        if not p:
            return None
        return view(self, p, self.nelems, c_int32, np.int32)

    def centroids(self) -> np.ndarray:
        """Each element's centroid, the mean of its corners, as
        minex_mesh_centroid computes it (the same sums in the same order,
        so the same doubles): a new (nelems, 3) array."""
        ne = self.nelems
        out = np.zeros((ne, 3))
        if ne == 0:
            return out
        xyz = self.coords
        off, counts = self._offsets()
        flat = view(self, lib.minex_mesh_elems(self._ptr), int(off[-1]),
                    c_int32, np.int32)
        for k in np.unique(counts):
            sel = np.flatnonzero(counts == k)
            k = int(k)
            nodes = flat[off[sel][:, None] + np.arange(k)]
            s = np.zeros((sel.shape[0], 3))
            for i in range(k):  # corner after corner, as the C loop adds
                s += xyz[nodes[:, i]]
            out[sel] = s / k
        return out

    def __repr__(self) -> str:
        t = self.elem_type
        kind = "mixed" if t == MIXED else lib.minex_elem_name(t).decode()
        return "minex.Mesh(nnodes=%d, nelems=%d, %s)" % (self.nnodes,
                                                        self.nelems, kind)


def read_mesh(path: Union[str, os.PathLike],
              kind: Union[None, int, str] = None) -> Mesh:
    """Reads a mesh file, its format chosen by content (minex_mesh_read):
    MEDIT .mesh/.meshb, Gmsh .msh (v2, 4.0 ASCII, 4.1), VTK legacy .vtk,
    VTK XML .vtu. The elements of the highest dimension are kept, in file
    order. kind (an element kind by value or by name, "tetrahedron",
    "hexahedron", ...; minex.ELEM_KINDS) keeps only that kind
    (minex_mesh_read_kind)."""
    out = c_void_p()
    k = _kind(kind)
    if k == 0:
        rc = lib.minex_mesh_read(os.fsencode(path), ctypes.byref(out))
    else:
        rc = lib.minex_mesh_read_kind(os.fsencode(path), k,
                                      ctypes.byref(out))
    check(rc)
    return Mesh._wrap(out.value)


def dual_graph(mesh: Union[Mesh, str, os.PathLike], *, pwgt: Any = None,
               rwgt: Any = None, ncommon: int = 0
               ) -> Tuple[Graph, np.ndarray]:
    """The dual graph of a mesh (or of a mesh file) and the element
    centroids: vertex i is element i, an edge joins two elements sharing a
    face (an edge in 2D; with ncommon >= 1, at least ncommon corner nodes,
    as mpmetis -ncommon) with Cwgt 1 (minex_mesh_dual_ncommon). pwgt and
    rwgt (one per element; None: 1 each) are the vertex weights. Returns
    (Graph, centroids of shape (nelems, 3))."""
    if not isinstance(mesh, Mesh):
        mesh = read_mesh(mesh)
    n = mesh.nelems
    pw = rw = None
    if pwgt is not None:
        pw = real_array(pwgt, "pwgt")
        check_length(pw, "pwgt", n, "the mesh has nelems =")
    if rwgt is not None:
        rw = real_array(rwgt, "rwgt")
        check_length(rw, "rwgt", n, "the mesh has nelems =")
    out = c_void_p()
    check(lib.minex_mesh_dual_ncommon(mesh._ptr, int(ncommon), address(pw),
                                      address(rw), None, None,
                                      ctypes.byref(out)))
    return Graph._wrap(out.value), mesh.centroids()

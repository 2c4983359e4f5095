# SPDX-License-Identifier: GPL-3.0-or-later
"""Meshes: the dual graph is the one `minex mesh2dual` writes, the
centroids are minex_mesh_centroid's to the bit, for one kind and for a
mixed mesh, and a kind can be kept alone."""

import ctypes
import os

import numpy as np
import pytest

import minex
from minex import _core
from conftest import DATA, run_tool

PERFUSION = os.path.join(DATA, "meshes", "perfusion_micro3d.mesh")


def mesh_path(root, name):
    return os.path.join(root, "tests", "data", name)


def c_centroids(mesh):
    out = np.zeros((mesh.nelems, 3))
    xyz = (ctypes.c_double * 3)()
    for e in range(mesh.nelems):
        _core.lib.minex_mesh_centroid(mesh._ptr, e, xyz)
        out[e] = xyz[:]
    return out


def test_dual_graph_is_the_one_mesh2dual_writes(tool, tmp_path):
    run_tool(tool, "mesh2dual", PERFUSION, "-o", str(tmp_path / "d.graph"))
    ref = minex.read_graph(tmp_path / "d.graph")
    g, cent = minex.dual_graph(PERFUSION)
    assert g.nvtxs == 18161 == ref.nvtxs
    for a in ("indptr", "indices", "data", "pwgt", "rwgt"):
        assert np.array_equal(getattr(g, a), getattr(ref, a)), a
    assert cent.shape == (18161, 3)
    assert np.array_equal(cent, c_centroids(minex.read_mesh(PERFUSION)))


def test_weights_of_the_dual_graph():
    mesh = minex.read_mesh(PERFUSION)
    pw = np.linspace(1, 2, mesh.nelems)
    g, _ = minex.dual_graph(mesh, pwgt=pw, rwgt=2 * pw)
    assert np.array_equal(g.pwgt, pw) and np.array_equal(g.rwgt, 2 * pw)
    with pytest.raises(minex.MinexError) as info:
        minex.dual_graph(mesh, pwgt=pw[:-1])
    assert info.value.code == minex.ErrorCode.EINVAL


@pytest.mark.parametrize("name", ["mesh_gmsh_mixed_v41.msh",
                                  "mesh_gmsh_mixed.vtk",
                                  "mesh_square2d.mesh"])
def test_centroids_of_every_kind(root, name):
    mesh = minex.read_mesh(mesh_path(root, name))
    assert mesh.nelems > 0
    assert np.array_equal(mesh.centroids(), c_centroids(mesh))
    kinds = mesh.elem_kinds()
    if mesh.elem_type == minex.MIXED:
        assert len(set(kinds.tolist())) > 1
        assert mesh.elems.shape == (sum(_core.lib.minex_elem_nnodes(int(k))
                                        for k in kinds),)
    else:
        assert mesh.elems.shape == (mesh.nelems,
                                    _core.lib.minex_elem_nnodes(
                                        mesh.elem_type))
    assert mesh.coords.shape == (mesh.nnodes, 3)


def test_read_one_kind(root):
    path = mesh_path(root, "mesh_gmsh_mixed_v41.msh")
    mixed = minex.read_mesh(path)
    tets = minex.read_mesh(path, kind="tetrahedron")
    assert tets.elem_type == minex.ELEM_KINDS["tetrahedron"] == 4
    n_tets = int((mixed.elem_kinds() == 4).sum())
    assert tets.nelems == n_tets > 0
    assert tets.ignored == mixed.ignored + mixed.nelems - n_tets
    with pytest.raises(minex.MinexError) as info:
        minex.read_mesh(path, kind="octahedron")
    assert "unknown element kind 'octahedron'" in info.value.message


def test_file_partition(root):
    mesh = minex.read_mesh(mesh_path(root, "mesh_gmsh_mixed_part3_v41.msh"))
    part = mesh.file_partition
    assert part is not None and part.shape == (mesh.nelems,)
    assert sorted(set(part.tolist())) == [0, 1, 2]
    assert minex.read_mesh(PERFUSION).file_partition is None

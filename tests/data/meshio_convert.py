# SPDX-License-Identifier: GPL-3.0-or-later
# MinEX test files: mesh_gmsh_mixed_v41.msh (Gmsh) converted by meshio
# (Debian python3-meshio) to the formats Gmsh does not write with every
# element kind: MEDIT with Prisms and Pyramids, VTK 5.1 legacy, VTK XML.
import meshio
import numpy as np
m = meshio.read('mesh_gmsh_mixed_v41.msh')
vol = [c for c in m.cells if c.type in ('tetra', 'hexahedron', 'wedge', 'pyramid')]
m2 = meshio.Mesh(m.points, vol)
meshio.write('mesh_meshio_mixed.mesh', m2)
meshio.write('mesh_meshio_mixed.vtk', m2, binary=False)
meshio.write('mesh_meshio_mixed_bin.vtk', m2, binary=True)
meshio.write('mesh_meshio_mixed_ascii.vtu', m2, binary=False)
meshio.write('mesh_meshio_mixed_zlib.vtu', m2, binary=True, compression='zlib')
meshio.write('mesh_meshio_mixed_b64.vtu', m2, binary=True, compression=None)
# MEDIT binary .meshb: version 4 (64-bit integers, as meshio reads them)
# and version 3 (32-bit integers)
meshio.write('mesh_meshio_mixed_v4.meshb', m2)
m3 = meshio.Mesh(m.points, [meshio.CellBlock(c.type, c.data.astype('int32'))
                            for c in vol])
meshio.write('mesh_meshio_mixed_v3.meshb', m3)
# Gmsh 4.0 binary (Gmsh 4.8 writes 4.0 in ASCII only): 8-byte unsigned
# long counts, int tags, as a 64-bit Linux writer
from meshio.gmsh import _gmsh40
_gmsh40.write("mesh_meshio_mixed_v40_bin.msh", m2,
             binary=True)
# the same as a Windows writer makes it, whose C unsigned long (numpy 'L')
# is 4 bytes
_gmsh40.c_ulong = np.dtype('uint32')
_gmsh40.write("mesh_meshio_mixed_v40_bin_ulong4.msh", m2, binary=True)

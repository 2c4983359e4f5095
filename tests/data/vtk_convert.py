# SPDX-License-Identifier: GPL-3.0-or-later
# MinEX test files: mesh_gmsh_mixed.vtk (Gmsh) written again by VTK 9.1's
# own XML writer (Debian python3-vtk9) in the layouts meshio does not
# write: appended raw data (VTK's default), zlib-compressed, inline
# base64 with compression, appended base64 with UInt64 headers, and
# big-endian appended raw zlib.
# Also the legacy writer's files (5.1, OFFSETS/CONNECTIVITY) with an integer
# cell array "partition" = cell index % 3, which VTK writes as a FIELD.
# Usage: python3 vtk_convert.py (in this folder).
import numpy
import vtk
import vtk.util.numpy_support as ns

r = vtk.vtkUnstructuredGridReader()
r.SetFileName('mesh_gmsh_mixed.vtk')
r.Update()
grid = r.GetOutput()
for name, mode, encode, zlib, uint64 in [
        ('raw', 2, False, False, False),
        ('raw_zlib', 2, False, True, False),
        ('b64inline_zlib', 1, True, True, False),
        ('appended_b64', 2, True, False, True),
        ('bigendian_zlib', 2, False, True, True)]:
    w = vtk.vtkXMLUnstructuredGridWriter()
    w.SetInputData(grid)
    w.SetFileName('mesh_vtk9_mixed_%s.vtu' % name)
    w.SetDataMode(mode)
    w.SetEncodeAppendedData(encode)
    if zlib:
        w.SetCompressorTypeToZLib()
    else:
        w.SetCompressorTypeToNone()
    if uint64:
        w.SetHeaderTypeToUInt64()
    if name.startswith('bigendian'):
        w.SetByteOrderToBigEndian()
    w.Write()

part = ns.numpy_to_vtk(numpy.arange(grid.GetNumberOfCells()) % 3, deep=1,
                       array_type=vtk.VTK_INT)
part.SetName('partition')
grid.GetCellData().AddArray(part)
for name, binary in [('legacy', False), ('legacy_bin', True)]:
    w = vtk.vtkUnstructuredGridWriter()
    w.SetInputData(grid)
    w.SetFileName('mesh_vtk9_mixed_%s.vtk' % name)
    if binary:
        w.SetFileTypeToBinary()
    w.Write()

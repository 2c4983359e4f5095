/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the VTK legacy reader (src/mesh/vtk_read.c), ASCII and
 * big-endian BINARY, classic and 5.1 CELLS. Any input is rejected with a
 * reader error or gives a mesh that passes mesh_check and whose dual
 * graphs are built (or refused as non-manifold, MINEX_EPARSE); read with
 * every kind chosen and with hexahedra only. */
#include "fuzz_util.h"

#include "mesh/mesh.h"

#include <minex.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  fuzz_mesh_read_kind(mesh_read_vtk, path, 0);
  fuzz_mesh_read_kind(mesh_read_vtk, path, MINEX_ELEM_HEXA);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the MEDIT readers, ASCII .mesh (src/mesh/medit.c) and
 * binary .meshb (src/mesh/medit_bin.c). Any input is rejected with a
 * reader error or gives a mesh that passes mesh_check and whose dual graph
 * is built (or refused as non-manifold, MINEX_EPARSE); read by the ASCII
 * reader three times (kind chosen automatically, tetrahedra, triangles)
 * and by the binary one. */
#include "fuzz_util.h"

#include "mesh/mesh.h"

#include <minex.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  fuzz_mesh_read_kind(mesh_read_medit, path, 0);
  fuzz_mesh_read_kind(mesh_read_medit, path, MINEX_ELEM_TETRA);
  fuzz_mesh_read_kind(mesh_read_medit, path, MINEX_ELEM_TRIANGLE);
  fuzz_mesh_read_kind(mesh_read_meshb, path, 0);
  return 0;
}

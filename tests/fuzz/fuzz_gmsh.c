/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the Gmsh .msh (ASCII v2 and v4) reader (src/mesh/gmsh.c). Any
 * input is rejected with a reader error or gives a mesh that passes mesh_check
 * and whose dual graph is built (or refused as non-manifold, MINEX_EPARSE);
 * read three times: kind chosen automatically, tetrahedra, triangles. */
#include "fuzz_util.h"

#include "mesh/mesh.h"

#include <minex.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  fuzz_mesh_read_kind(mesh_read_gmsh, path, 0);
  fuzz_mesh_read_kind(mesh_read_gmsh, path, MINEX_ELEM_TETRA);
  fuzz_mesh_read_kind(mesh_read_gmsh, path, MINEX_ELEM_TRIANGLE);
  return 0;
}

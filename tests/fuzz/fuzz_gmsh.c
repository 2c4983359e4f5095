/* Fuzz harness of the Gmsh .msh (ASCII v2 and v4) reader (src/mesh/gmsh.c). Any
 * input is rejected with a reader error or gives a mesh that passes mesh_check
 * and whose dual graph is built (or refused as non-manifold, MINEX_EPARSE);
 * read three times: kind chosen automatically, tetrahedra, triangles. */
#include "fuzz_util.h"

#include "mesh/mesh.h"

#include <minex.h>

/* One read with element kind selection kind (0: automatic). */
static void read_kind(const char *path, int kind) {
  minex_mesh *mesh = NULL;
  int rc = mesh_read_gmsh(path, kind, &mesh);
  if (rc != MINEX_OK) {
    FUZZ_REQUIRE(fuzz_reader_error_ok(rc));
    FUZZ_REQUIRE(mesh == NULL);
    return;
  }
  FUZZ_REQUIRE(mesh_check(mesh) == MINEX_OK);
  FUZZ_REQUIRE(kind == 0 || (int)minex_mesh_elem_type(mesh) == kind);
  minex_graph *dual = NULL;
  rc = minex_mesh_dual(mesh, NULL, NULL, NULL, NULL, &dual);
  if (rc == MINEX_OK)
    FUZZ_REQUIRE(minex_graph_nvtxs(dual) == minex_mesh_nelems(mesh));
  else
    FUZZ_REQUIRE(rc == MINEX_EPARSE && dual == NULL);
  minex_graph_destroy(dual);
  minex_mesh_destroy(mesh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write_tmp(data, size);
  read_kind(path, 0);
  read_kind(path, MINEX_ELEM_TETRA);
  read_kind(path, MINEX_ELEM_TRIANGLE);
  return 0;
}

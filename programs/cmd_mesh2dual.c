/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex mesh2dual: MEDIT .mesh or Gmsh .msh to its dual graph (elements
 * sharing a face, or an edge in 2D), unit weights, METIS format. */
#include "tool.h"

#include <inttypes.h>
#include <string.h>

static void help(void) {
  printf(
      "Usage: minex mesh2dual MESH -o GRAPH [--kind tet|tri] [--vtk OUT.vtk] "
      "[-v]\n"
      "\n"
      "Reads MESH (MEDIT .mesh, Gmsh .msh ASCII v2/v4; tetrahedra, else "
      "triangles)\nand writes its dual graph in METIS format: vertex i = "
      "element i of the\nfile, an edge per shared face (tetrahedra) or "
      "edge (triangles), all\nweights 1.\n"
      "\n"
      "  -o, --output GRAPH   dual graph to write (atomically)\n"
      "  --kind tet|tri       keep only the tetrahedra (or triangles) of a "
      "file that\n"
      "                       mixes element kinds; without it such a file "
      "is refused\n"
      "  --vtk OUT.vtk        also write the mesh as a VTK unstructured "
      "grid\n"
      "  -v, --verbose        timings on stderr\n"
      "  -h, --help           this help\n");
}

int cmd_mesh2dual(int argc, char **argv) {
  const char *cmd = "mesh2dual";
  const char *mesh_path = NULL, *out_path = NULL, *vtk_path = NULL;
  int verbose = 0, kind = 0;
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if ((out_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--kind")) {
      const char *k = tool_args_value(&a);
      if (k == NULL)
        return TOOL_EXIT_USAGE;
      if (strcmp(k, "tet") == 0)
        kind = MINEX_ELEM_TETRA;
      else if (strcmp(k, "tri") == 0)
        kind = MINEX_ELEM_TRIANGLE;
      else
        return tool_usage_error(cmd, "--kind: expected tet or tri, got '%s'",
                                k);
    } else if (tool_args_is(&a, NULL, "--vtk")) {
      if ((vtk_path = tool_args_value(&a)) == NULL)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, "-v", "--verbose")) {
      verbose = 1;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else if (mesh_path == NULL) {
      mesh_path = a.arg;
    } else {
      return tool_usage_error(cmd, "unexpected argument '%s'", a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if (mesh_path == NULL)
    return tool_usage_error(cmd, "missing MESH");
  if (out_path == NULL)
    return tool_usage_error(cmd, "missing -o GRAPH");

  int status = TOOL_EXIT_FAIL, rc;
  minex_mesh *mesh = NULL;
  minex_graph *g = NULL;
  double t = tool_wtime();
  if ((rc = minex_mesh_read_kind(mesh_path, kind, &mesh)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  tool_verbose(verbose, cmd, "read %s in %.3f s", mesh_path, tool_wtime() - t);
  t = tool_wtime();
  if ((rc = minex_mesh_dual(mesh, NULL, NULL, NULL, NULL, &g)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  tool_verbose(verbose, cmd, "dual graph in %.3f s", tool_wtime() - t);
  if ((rc = minex_graph_write_metis(g, out_path)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  if (vtk_path != NULL &&
      (rc = minex_mesh_write_vtk(mesh, g, NULL, NULL, vtk_path)) != MINEX_OK) {
    status = tool_fail(cmd, rc);
    goto done;
  }
  printf("%s: %" PRId32 " %s, %" PRId32 " nodes -> %s: %" PRId32
         " vertices, %" PRId64 " edges\n",
         mesh_path, minex_mesh_nelems(mesh),
         minex_mesh_elem_type(mesh) == MINEX_ELEM_TETRA ? "tetrahedra"
                                                        : "triangles",
         minex_mesh_nnodes(mesh), out_path, minex_graph_nvtxs(g),
         minex_graph_nedges(g));
  if (vtk_path != NULL)
    printf("mesh written to %s\n", vtk_path);
  status = TOOL_EXIT_OK;
done:
  minex_graph_destroy(g);
  minex_mesh_destroy(mesh);
  return status;
}

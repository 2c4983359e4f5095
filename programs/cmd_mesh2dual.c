/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex mesh2dual: a mesh (Gmsh .msh, MEDIT .mesh, VTK .vtk; every element
 * kind) to its dual graph (elements sharing a face, or an edge in 2D, or
 * --ncommon corners), unit weights, METIS format. */
#include "tool.h"

#include <inttypes.h>
#include <string.h>

static void help(void) {
  printf("Usage: minex mesh2dual MESH -o GRAPH [--kind K] [--ncommon N] "
         "[--vtk OUT.vtk]\n"
         "                       [-v]\n"
         "\n"
         "Reads MESH (read by content: Gmsh .msh 2.x/4.0/4.1 ASCII or binary, "
         "MEDIT\n.mesh/.meshb, VTK legacy .vtk, VTK XML .vtu; tetrahedra, "
         "hexahedra, prisms,\npyramids, or in 2D triangles and quadrilaterals, "
         "mixed, of any order) and\nwrites its dual graph in METIS format: "
         "vertex i = element i of the file (its\nvolume elements, in file "
         "order; lower-dimensional ones are ignored and\ncounted), an edge per "
         "shared face (edge in 2D), all weights 1.\n"
         "\n"
         "  -o, --output GRAPH   dual graph to write (atomically)\n"
         "  --kind K             keep only one kind: tet, hex, prism, pyramid, "
         "tri or\n"
         "                       quad (the others are dropped and counted)\n"
         "  --ncommon N          join elements sharing at least N corner nodes "
         "(mpmetis\n"
         "                       -ncommon) instead of a whole face\n"
         "  --vtk OUT.vtk        also write the mesh as a VTK unstructured "
         "grid\n"
         "  -v, --verbose        timings on stderr\n"
         "  -h, --help           this help\n");
}

int cmd_mesh2dual(int argc, char **argv) {
  const char *cmd = "mesh2dual";
  const char *mesh_path = NULL, *out_path = NULL, *vtk_path = NULL;
  int verbose = 0, kind = 0;
  int32_t ncommon = 0;
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
      if (k == NULL || tool_parse_kind(cmd, k, &kind) != 0)
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--ncommon")) {
      const char *v = tool_args_value(&a);
      if (v == NULL || tool_parse_i32(cmd, "--ncommon", v, 1, &ncommon) != 0)
        return TOOL_EXIT_USAGE;
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
  if ((rc = tool_read_mesh(cmd, mesh_path, kind, &mesh)) != MINEX_OK)
    goto done;
  tool_verbose(verbose, cmd, "read %s in %.3f s", mesh_path, tool_wtime() - t);
  t = tool_wtime();
  if ((rc = minex_mesh_dual_ncommon(mesh, ncommon, NULL, NULL, NULL, NULL,
                                    &g)) != MINEX_OK) {
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
  /* element counts by kind */
  int64_t count[16] = {0};
  for (int32_t e = 0; e < minex_mesh_nelems(mesh); e++)
    count[minex_mesh_elem_kind(mesh, e) & 15]++;
  printf("%s: %" PRId32 " elements (", mesh_path, minex_mesh_nelems(mesh));
  static const minex_elem_type order[] = {
      MINEX_ELEM_TETRA,   MINEX_ELEM_HEXA,     MINEX_ELEM_PRISM,
      MINEX_ELEM_PYRAMID, MINEX_ELEM_TRIANGLE, MINEX_ELEM_QUAD};
  static const char *plural[] = {"tetrahedra", "hexahedra", "prisms",
                                 "pyramids",   "triangles", "quadrilaterals"};
  const char *sep = "";
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
    if (count[order[i]] > 0) {
      printf("%s%" PRId64 " %s", sep, count[order[i]],
             count[order[i]] == 1 ? minex_elem_name(order[i]) : plural[i]);
      sep = ", ";
    }
  printf("), %" PRId32 " nodes -> %s: %" PRId32 " vertices, %" PRId64
         " edges\n",
         minex_mesh_nnodes(mesh), out_path, minex_graph_nvtxs(g),
         minex_graph_nedges(g));
  if (minex_mesh_ignored(mesh) > 0)
    printf("%" PRId64 " lower-dimensional (or unselected) elements of the "
           "file ignored\n",
           minex_mesh_ignored(mesh));
  if (vtk_path != NULL)
    printf("mesh written to %s\n", vtk_path);
  status = TOOL_EXIT_OK;
done:
  minex_graph_destroy(g);
  minex_mesh_destroy(mesh);
  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* VTK legacy ASCII unstructured grid for ParaView (SPEC §7): the mesh (its
 * corners in the order they are kept, which is VTK's) with cell data
 * "partition" (new), "old", "moved" (0/1), "pwgt", "rwgt", each written
 * only when its input is given. Written through a temporary file
 * renamed at the end, so a failure leaves no truncated file. Numbers use
 * '.' whatever the locale (io_locale_c). */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"

#include <stdio.h>

static void write_ints(FILE *fp, const char *name, const int32_t *v,
                       const int32_t *w, int32_t n) {
  fprintf(fp, "SCALARS %s int 1\nLOOKUP_TABLE default\n", name);
  for (int32_t e = 0; e < n; e++)
    fprintf(fp, "%d\n", w ? (int)(v[e] != w[e]) : (int)v[e]);
}

static void write_doubles(FILE *fp, const char *name, const double *v,
                          int32_t n) {
  fprintf(fp, "SCALARS %s double 1\nLOOKUP_TABLE default\n", name);
  for (int32_t e = 0; e < n; e++)
    fprintf(fp, "%.17g\n", v[e]);
}

/* VTK cell type of a kind (VTK_TRIANGLE 5, VTK_TETRA 10; the others are
 * the kind's value). */
static int vtk_cell_type(minex_elem_type t) {
  return t == MINEX_ELEM_TRIANGLE ? 5 : t == MINEX_ELEM_TETRA ? 10 : (int)t;
}

int minex_mesh_write_vtk(const minex_mesh *mesh, const minex_graph *graph,
                         const int32_t *old, const int32_t *new_part,
                         const char *path) {
  core_error_clear();
  if (mesh == NULL || path == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_write_vtk: NULL mesh or "
                                    "path");
  const int32_t ne = mesh->nelems;
  if (graph != NULL && minex_graph_nvtxs(graph) != ne)
    return core_error(MINEX_EINVAL,
                      "minex_mesh_write_vtk: graph has %d "
                      "vertices, mesh %d elements",
                      (int)minex_graph_nvtxs(graph), (int)ne);
  io_atomic af;
  int rc = io_atomic_open(&af, path);
  if (rc != MINEX_OK)
    return rc;
  FILE *fp = af.fp;
  /* "%.17g" with '.' whatever the host program's LC_NUMERIC */
  locale_t prev = io_locale_c();
  fprintf(fp,
          "# vtk DataFile Version 3.0\nMinEX mesh: %d %s\nASCII\n"
          "DATASET UNSTRUCTURED_GRID\nPOINTS %d double\n",
          (int)ne,
          mesh->type == MINEX_ELEM_MIXED ? "mixed elements"
                                         : minex_elem_name(mesh->type),
          (int)mesh->nnodes);
  for (int64_t v = 0; v < mesh->nnodes; v++)
    fprintf(fp, "%.17g %.17g %.17g\n", mesh->coords[3 * v],
            mesh->coords[3 * v + 1], mesh->coords[3 * v + 2]);
  int64_t total =
      mesh->eptr ? mesh->eptr[ne] : (int64_t)ne * minex_elem_nnodes(mesh->type);
  fprintf(fp, "CELLS %d %lld\n", (int)ne, (long long)(ne + total));
  for (int32_t e = 0; e < ne; e++) {
    int k;
    const int32_t *en = mesh_elem(mesh, e, &k);
    fprintf(fp, "%d", k);
    for (int i = 0; i < k; i++)
      fprintf(fp, " %d", (int)en[i]);
    fputc('\n', fp);
  }
  fprintf(fp, "CELL_TYPES %d\n", (int)ne);
  for (int32_t e = 0; e < ne; e++)
    fprintf(fp, "%d\n", vtk_cell_type(mesh_kind(mesh, e)));
  if (new_part || old || graph)
    fprintf(fp, "CELL_DATA %d\n", (int)ne);
  if (new_part)
    write_ints(fp, "partition", new_part, NULL, ne);
  if (old)
    write_ints(fp, "old", old, NULL, ne);
  if (old && new_part)
    write_ints(fp, "moved", old, new_part, ne);
  if (graph) {
    write_doubles(fp, "pwgt", minex_graph_pwgt(graph), ne);
    write_doubles(fp, "rwgt", minex_graph_rwgt(graph), ne);
  }
  io_locale_restore(prev);
  rc = io_atomic_commit(&af);
  if (rc != MINEX_OK)
    return rc;
  return MINEX_OK;
}

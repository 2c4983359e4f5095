/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gmsh MSH 4.1 ASCII writer (SPEC §7): the mesh as one model entity of its
 * dimension ($Entities) and, with a partition, one partitioned entity per
 * non-empty part ($PartitionedEntities, no ghost entities), so that Gmsh
 * shows the parts; the partition (and the old one, and moved 0/1) as
 * $ElementData views for any viewer. Element tags are MinEX element
 * numbers + 1 and node tags node numbers + 1, part p's entity tag p + 2; the
 * element blocks go part after part and kind after kind (tet, hex, prism,
 * pyramid, tri, quad), each node in the block of the lowest part that uses
 * it. Written through a temporary file renamed at the end. Numbers
 * use '.' whatever the locale (io_locale_c). */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Gmsh element type of a kind (first order). */
static int gmsh_type(minex_elem_type t) {
  switch (t) {
  case MINEX_ELEM_TRIANGLE:
    return 2;
  case MINEX_ELEM_QUAD:
    return 3;
  case MINEX_ELEM_TETRA:
    return 4;
  case MINEX_ELEM_HEXA:
    return 5;
  case MINEX_ELEM_PRISM:
    return 6;
  default:
    return 7; /* pyramid */
  }
}

static const minex_elem_type kinds[] = {MINEX_ELEM_TETRA,    MINEX_ELEM_HEXA,
                                        MINEX_ELEM_PRISM,    MINEX_ELEM_PYRAMID,
                                        MINEX_ELEM_TRIANGLE, MINEX_ELEM_QUAD};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static void write_box(FILE *fp, const double *b) {
  fprintf(fp, "%.17g %.17g %.17g %.17g %.17g %.17g", b[0], b[1], b[2], b[3],
          b[4], b[5]);
}

static void write_view(FILE *fp, const char *name, const int32_t *v,
                       const int32_t *w, int32_t n) {
  fprintf(fp, "$ElementData\n1\n\"%s\"\n1\n0\n3\n0\n1\n%d\n", name, (int)n);
  for (int32_t e = 0; e < n; e++)
    fprintf(fp, "%d %d\n", (int)e + 1, w ? (int)(v[e] != w[e]) : (int)v[e]);
  fputs("$EndElementData\n", fp);
}

int minex_mesh_write_gmsh(const minex_mesh *mesh, const int32_t *old,
                          const int32_t *new_part, const char *path) {
  core_error_clear();
  if (mesh == NULL || path == NULL || path[0] == '\0')
    return core_error(MINEX_EINVAL, "minex_mesh_write_gmsh: NULL mesh or "
                                    "empty path");
  const int32_t ne = mesh->nelems, nn = mesh->nnodes;
  if (ne < 1)
    return core_error(MINEX_EINVAL, "minex_mesh_write_gmsh: mesh without "
                                    "elements");
  int32_t np = 1; /* parts: 1 without a partition */
  for (int pass = 0; pass < 2; pass++) {
    const int32_t *p = pass == 0 ? new_part : old;
    for (int32_t e = 0; p != NULL && e < ne; e++) {
      if (p[e] < 0 || p[e] == INT32_MAX)
        return core_error(MINEX_EINVAL,
                          "minex_mesh_write_gmsh: %s partition: element %d "
                          "in part %d (ids >= 0 expected)",
                          pass == 0 ? "new" : "old", (int)e, (int)p[e]);
      if (pass == 0 && p[e] + 1 > np)
        np = p[e] + 1;
    }
  }
  const int dim = minex_elem_dim(mesh_kind(mesh, 0));
  /* per part: element count, bounding box; per node: lowest part */
  int64_t *count = calloc((size_t)np, sizeof *count);
  double *box = malloc(sizeof *box * 6 * (size_t)np);
  int32_t *npart = malloc(sizeof *npart * ((size_t)nn + 1));
  int64_t *ncount = calloc((size_t)np, sizeof *ncount);
  if (count == NULL || box == NULL || npart == NULL || ncount == NULL) {
    free(count), free(box), free(npart), free(ncount);
    return core_error(MINEX_ENOMEM, "minex_mesh_write_gmsh: out of memory");
  }
  for (int32_t p = 0; p < np; p++)
    for (int i = 0; i < 3; i++)
      box[6 * p + i] = HUGE_VAL, box[6 * p + 3 + i] = -HUGE_VAL;
  for (int32_t v = 0; v < nn; v++)
    npart[v] = np; /* unused so far */
  double all[6] = {HUGE_VAL,  HUGE_VAL,  HUGE_VAL,
                   -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (int32_t e = 0; e < ne; e++) {
    int32_t p = new_part ? new_part[e] : 0;
    int k;
    const int32_t *en = mesh_elem(mesh, e, &k);
    count[p]++;
    for (int i = 0; i < k; i++) {
      const double *x = mesh->coords + 3 * (int64_t)en[i];
      for (int c = 0; c < 3; c++) {
        double *b = box + 6 * p;
        b[c] = x[c] < b[c] ? x[c] : b[c];
        b[3 + c] = x[c] > b[3 + c] ? x[c] : b[3 + c];
        all[c] = x[c] < all[c] ? x[c] : all[c];
        all[3 + c] = x[c] > all[3 + c] ? x[c] : all[3 + c];
      }
      if (p < npart[en[i]])
        npart[en[i]] = p;
    }
  }
  int32_t first = 0; /* nodes no element uses: in the first part's block */
  while (count[first] == 0)
    first++;
  for (int32_t v = 0; v < nn; v++) {
    if (npart[v] == np)
      npart[v] = first;
    ncount[npart[v]]++;
  }

  io_atomic af;
  int rc = io_atomic_open(&af, path);
  if (rc != MINEX_OK) {
    free(count), free(box), free(npart), free(ncount);
    return rc;
  }
  FILE *fp = af.fp;
  locale_t prev = io_locale_c();
  fputs("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n", fp);
  /* the model: one entity (tag 1) of the mesh's dimension */
  fprintf(fp, "$Entities\n0 0 %d %d\n1 ", dim == 2, dim == 3);
  write_box(fp, all);
  fputs(" 0 0\n$EndEntities\n", fp);
  int32_t nonempty = 0;
  for (int32_t p = 0; p < np; p++)
    nonempty += count[p] > 0;
  /* entity tag of part p: p + 2 (the model's entity is 1, and partitioned
     entities share the tags of their dimension), or 1 without parts */
  if (new_part != NULL) {
    fprintf(fp, "$PartitionedEntities\n%d\n0\n0 0 %d %d\n", (int)np,
            dim == 2 ? (int)nonempty : 0, dim == 3 ? (int)nonempty : 0);
    for (int32_t p = 0; p < np; p++) {
      if (count[p] == 0)
        continue;
      fprintf(fp, "%d %d 1 1 %d ", (int)p + 2, dim, (int)p + 1);
      write_box(fp, box + 6 * p);
      fputs(" 0 0\n", fp);
    }
    fputs("$EndPartitionedEntities\n", fp);
  }
  /* the nodes and the elements in block order, by counting sorts (stable:
     file order within a block) */
  int64_t nb = (int64_t)np * NKINDS;
  int64_t *koff = calloc((size_t)nb + 1, sizeof *koff);
  int64_t *noff = calloc((size_t)np + 1, sizeof *noff);
  int32_t *eorder = malloc(sizeof *eorder * (size_t)ne);
  int32_t *norder = malloc(sizeof *norder * ((size_t)nn + 1));
  if (koff == NULL || noff == NULL || eorder == NULL || norder == NULL) {
    io_locale_restore(prev);
    io_atomic_abort(&af);
    free(koff), free(noff), free(eorder), free(norder);
    free(count), free(box), free(npart), free(ncount);
    return core_error(MINEX_ENOMEM, "minex_mesh_write_gmsh: out of memory");
  }
  for (int32_t v = 0; v < nn; v++)
    noff[npart[v] + 1]++;
  for (int32_t p = 0; p < np; p++)
    noff[p + 1] += noff[p];
  for (int32_t v = 0; v < nn; v++)
    norder[noff[npart[v]]++] = v;
  for (int32_t p = np; p > 0; p--) /* back to the starts */
    noff[p] = noff[p - 1];
  noff[0] = 0;
  for (int32_t e = 0; e < ne; e++) {
    minex_elem_type t = mesh_kind(mesh, e);
    int j = 0;
    while (kinds[j] != t)
      j++;
    eorder[e] = (new_part ? new_part[e] : 0) * NKINDS + j; /* its block */
    koff[eorder[e] + 1]++;
  }
  for (int64_t b = 0; b < nb; b++)
    koff[b + 1] += koff[b];
  {
    int64_t *at = malloc(sizeof *at * ((size_t)nb + 1));
    int32_t *blk = malloc(sizeof *blk * (size_t)ne);
    if (at == NULL || blk == NULL) {
      free(at), free(blk);
      io_locale_restore(prev);
      io_atomic_abort(&af);
      free(koff), free(noff), free(eorder), free(norder);
      free(count), free(box), free(npart), free(ncount);
      return core_error(MINEX_ENOMEM, "minex_mesh_write_gmsh: out of memory");
    }
    memcpy(at, koff, sizeof *at * ((size_t)nb + 1));
    memcpy(blk, eorder, sizeof *blk * (size_t)ne);
    for (int32_t e = 0; e < ne; e++)
      eorder[at[blk[e]]++] = e;
    free(at), free(blk);
  }
  /* nodes, one block per part that holds any */
  int32_t nblocks = 0;
  for (int32_t p = 0; p < np; p++)
    nblocks += ncount[p] > 0;
  fprintf(fp, "$Nodes\n%d %d %d %d\n", (int)nblocks, (int)nn, nn > 0 ? 1 : 0,
          (int)nn);
  for (int32_t p = 0; p < np; p++) {
    if (ncount[p] == 0)
      continue;
    fprintf(fp, "%d %d 0 %lld\n", dim, new_part ? (int)p + 2 : 1,
            (long long)ncount[p]);
    for (int64_t i = noff[p]; i < noff[p] + ncount[p]; i++)
      fprintf(fp, "%d\n", (int)norder[i] + 1);
    for (int64_t i = noff[p]; i < noff[p] + ncount[p]; i++) {
      const double *x = mesh->coords + 3 * (int64_t)norder[i];
      fprintf(fp, "%.17g %.17g %.17g\n", x[0], x[1], x[2]);
    }
  }
  fputs("$EndNodes\n", fp);
  /* elements, one block per (part, kind) that holds any */
  nblocks = 0;
  for (int64_t b = 0; b < nb; b++)
    nblocks += koff[b + 1] > koff[b];
  fprintf(fp, "$Elements\n%d %d 1 %d\n", (int)nblocks, (int)ne, (int)ne);
  for (int64_t b = 0; b < nb; b++) {
    if (koff[b + 1] == koff[b])
      continue;
    int32_t p = (int32_t)(b / NKINDS);
    minex_elem_type t = kinds[b % NKINDS];
    fprintf(fp, "%d %d %d %lld\n", dim, new_part ? (int)p + 2 : 1, gmsh_type(t),
            (long long)(koff[b + 1] - koff[b]));
    for (int64_t i = koff[b]; i < koff[b + 1]; i++) {
      int32_t e = eorder[i];
      int k;
      const int32_t *en = mesh_elem(mesh, e, &k);
      int32_t c[8];
      for (int q = 0; q < k; q++)
        c[q] = en[q];
      if (t == MINEX_ELEM_PRISM)
        mesh_prism_to_vtk(c); /* its own inverse: back to Gmsh's order */
      fprintf(fp, "%d", (int)e + 1);
      for (int q = 0; q < k; q++)
        fprintf(fp, " %d", (int)c[q] + 1);
      fputc('\n', fp);
    }
  }
  fputs("$EndElements\n", fp);
  if (new_part != NULL)
    write_view(fp, "partition", new_part, NULL, ne);
  if (old != NULL)
    write_view(fp, "old", old, NULL, ne);
  if (old != NULL && new_part != NULL)
    write_view(fp, "moved", old, new_part, ne);
  io_locale_restore(prev);
  free(koff), free(noff), free(eorder), free(norder);
  free(count), free(box), free(npart), free(ncount);
  return io_atomic_commit(&af);
}

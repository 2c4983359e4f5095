/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Structured tetrahedral mesh of the unit cube: nx*ny*nz cubes, each cut
 * into the 6 Kuhn (Freudenthal) tetrahedra that share its main diagonal.
 * All cubes use the same cut, so neighbouring cubes' faces are split along
 * the same diagonal and the mesh is conforming. */
#include "mesh/mesh.h"

#include "core/core.h"

#include <stdlib.h>

/* The 6 axis permutations; the tetrahedron of permutation (a, b, c) walks
 * from corner 000 along a, then b, then c to corner 111. Its signed volume
 * has the permutation's sign, so odd ones swap two nodes (VTK order:
 * det(p1-p0, p2-p0, p3-p0) > 0). */
static const int kuhn_perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                    {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};

int minex_gen_box(int32_t nx, int32_t ny, int32_t nz, minex_mesh **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_gen_box: out is NULL");
  *out = NULL;
  if (nx < 1 || ny < 1 || nz < 1)
    return core_error(MINEX_EINVAL,
                      "minex_gen_box: %d x %d x %d cubes: each "
                      "count must be >= 1",
                      (int)nx, (int)ny, (int)nz);
  int64_t ne = 6 * (int64_t)nx * ny * nz;
  int64_t nn = ((int64_t)nx + 1) * ((int64_t)ny + 1) * ((int64_t)nz + 1);
  if (ne > INT32_MAX || nn > INT32_MAX)
    return core_error(MINEX_EINVAL,
                      "minex_gen_box: %d x %d x %d cubes make "
                      "%lld elements, more than 2^31 - 1",
                      (int)nx, (int)ny, (int)nz, (long long)ne);
  double *coords = malloc(sizeof *coords * (size_t)(3 * nn));
  int32_t *elems = malloc(sizeof *elems * (size_t)(4 * ne));
  if (coords == NULL || elems == NULL) {
    free(coords);
    free(elems);
    return core_error(MINEX_ENOMEM,
                      "minex_gen_box: out of memory for %lld "
                      "elements",
                      (long long)ne);
  }
  const int64_t sx = 1, sy = (int64_t)nx + 1, sz = sy * ((int64_t)ny + 1);
  for (int32_t k = 0; k <= nz; k++)
    for (int32_t j = 0; j <= ny; j++)
      for (int32_t i = 0; i <= nx; i++) {
        double *c = coords + 3 * (i * sx + j * sy + k * sz);
        c[0] = (double)i / nx;
        c[1] = (double)j / ny;
        c[2] = (double)k / nz;
      }
  const int64_t step[3] = {sx, sy, sz};
  int32_t *en = elems;
  for (int32_t k = 0; k < nz; k++)
    for (int32_t j = 0; j < ny; j++)
      for (int32_t i = 0; i < nx; i++) {
        int64_t v0 = i * sx + j * sy + k * sz;
        for (int t = 0; t < 6; t++, en += 4) {
          const int *p = kuhn_perm[t];
          int64_t v1 = v0 + step[p[0]], v2 = v1 + step[p[1]];
          int64_t v3 = v2 + step[p[2]];
          en[0] = (int32_t)v0;
          en[1] = (int32_t)(t < 3 ? v1 : v2);
          en[2] = (int32_t)(t < 3 ? v2 : v1);
          en[3] = (int32_t)v3;
        }
      }
  return mesh_adopt((int32_t)nn, coords, (int32_t)ne, MINEX_ELEM_TETRA, elems,
                    out);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recursive coordinate bisection of element centroids (used to make the
 * "old" partitions of data/cases): each step cuts the longest extent of the
 * centroids' bounding box. Part p receives the elements of positions
 * [floor(N p / K), floor(N (p+1) / K)) of the final order, so part sizes
 * differ by at most one for any K. The split is found by quickselect under
 * the total order (coordinate, element id): deterministic, O(N log K). */
#include "mesh/mesh.h"

#include "core/core.h"

#include <stdlib.h>

typedef struct rcb_item {
  double key; /* centroid coordinate along the current axis */
  int32_t id; /* element                                     */
} rcb_item;

static int item_less(const rcb_item *a, const rcb_item *b) {
  return a->key < b->key || (a->key == b->key && a->id < b->id);
}

/* Rearranges a[0, n) so that a[nth] is in its sorted place, smaller items
 * before it, larger after (Hoare partition, median-of-three pivot). */
static void select_nth(rcb_item *a, int64_t n, int64_t nth) {
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    int64_t mid = lo + (hi - lo) / 2;
    rcb_item x = a[lo], y = a[mid], z = a[hi], pv;
    if (item_less(&x, &y))
      pv = item_less(&y, &z) ? y : (item_less(&x, &z) ? z : x);
    else
      pv = item_less(&x, &z) ? x : (item_less(&y, &z) ? z : y);
    int64_t i = lo, j = hi;
    while (i <= j) {
      while (item_less(&a[i], &pv))
        i++;
      while (item_less(&pv, &a[j]))
        j--;
      if (i <= j) {
        rcb_item t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (nth <= j)
      hi = j;
    else if (nth >= i)
      lo = i;
    else
      return;
  }
}

typedef struct rcb_ctx {
  const double *cent; /* 3 per element                    */
  int32_t *perm;      /* element order being refined      */
  rcb_item *tmp;      /* scratch, nelems items            */
  int64_t n;          /* N, elements                      */
  int32_t nparts;     /* K                                */
  int32_t *part;      /* output                           */
} rcb_ctx;

static int64_t boundary(const rcb_ctx *c, int64_t p) {
  return c->n * p / c->nparts; /* both < 2^31: no overflow */
}

static void rcb_split(rcb_ctx *c, int32_t p0, int32_t k) {
  int64_t lo = boundary(c, p0), hi = boundary(c, p0 + k);
  if (k == 1) {
    for (int64_t i = lo; i < hi; i++)
      c->part[c->perm[i]] = p0;
    return;
  }
  int32_t k1 = k / 2;
  int64_t mid = boundary(c, p0 + k1);
  if (lo < mid && mid < hi) {
    double bmin[3], bmax[3];
    for (int d = 0; d < 3; d++)
      bmin[d] = bmax[d] = c->cent[3 * (int64_t)c->perm[lo] + d];
    for (int64_t i = lo + 1; i < hi; i++)
      for (int d = 0; d < 3; d++) {
        double x = c->cent[3 * (int64_t)c->perm[i] + d];
        if (x < bmin[d])
          bmin[d] = x;
        if (x > bmax[d])
          bmax[d] = x;
      }
    int axis = 0;
    for (int d = 1; d < 3; d++)
      if (bmax[d] - bmin[d] > bmax[axis] - bmin[axis])
        axis = d;
    rcb_item *a = c->tmp + lo;
    for (int64_t i = lo; i < hi; i++)
      a[i - lo] =
          (rcb_item){c->cent[3 * (int64_t)c->perm[i] + axis], c->perm[i]};
    select_nth(a, hi - lo, mid - lo);
    for (int64_t i = lo; i < hi; i++)
      c->perm[i] = a[i - lo].id;
  }
  rcb_split(c, p0, k1);
  rcb_split(c, p0 + k1, k - k1);
}

int minex_mesh_partition_rcb(const minex_mesh *mesh, int32_t nparts,
                             int32_t *part) {
  core_error_clear();
  if (mesh == NULL || part == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_partition_rcb: NULL "
                                    "argument");
  if (nparts < 1)
    return core_error(MINEX_EINVAL,
                      "minex_mesh_partition_rcb: nparts = %d "
                      "< 1",
                      (int)nparts);
  int64_t n = mesh->nelems;
  double *cent = malloc(sizeof *cent * (size_t)(3 * n + 1));
  int32_t *perm = malloc(sizeof *perm * (size_t)(n + 1));
  rcb_item *tmp = malloc(sizeof *tmp * (size_t)(n + 1));
  if (cent == NULL || perm == NULL || tmp == NULL) {
    free(cent);
    free(perm);
    free(tmp);
    return core_error(MINEX_ENOMEM,
                      "minex_mesh_partition_rcb: out of "
                      "memory for %lld elements",
                      (long long)n);
  }
  for (int64_t e = 0; e < n; e++) {
    minex_mesh_centroid(mesh, (int32_t)e, cent + 3 * e);
    perm[e] = (int32_t)e;
  }
  rcb_ctx c = {cent, perm, tmp, n, nparts, part};
  rcb_split(&c, 0, nparts);
  free(cent);
  free(perm);
  free(tmp);
  return MINEX_OK;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recursive coordinate bisection of element centroids (used to make the
 * "old" partitions of data/cases): each step cuts the longest extent of the
 * centroids' bounding box. Part p receives the elements of positions
 * [floor(N p / K), floor(N (p+1) / K)) of the final order, so part sizes
 * differ by at most one for any K. The split is found by quickselect under
 * the total order (coordinate, element id): deterministic, O(N log K).
 * minex_mesh_partition_geom adds weights, part targets (shares of a
 * heterogeneous machine) and the inertial axis (RIB): each segment is
 * sorted along the axis and cut where the prefix weight reaches the left
 * parts' share; O(N log N log K). */
#include "mesh/mesh.h"

#include "core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The axis (0, 1, 2) of the longest extent of the bounding box of the
 * centroids of perm[lo..hi-1] (the first on ties). */
static int longest_axis(const double *cent, const int32_t *perm, int64_t lo,
                        int64_t hi) {
  double bmin[3], bmax[3];
  for (int d = 0; d < 3; d++)
    bmin[d] = bmax[d] = cent[3 * (int64_t)perm[lo] + d];
  for (int64_t i = lo + 1; i < hi; i++)
    for (int d = 0; d < 3; d++) {
      double x = cent[3 * (int64_t)perm[i] + d];
      bmin[d] = x < bmin[d] ? x : bmin[d];
      bmax[d] = x > bmax[d] ? x : bmax[d];
    }
  int a = 0;
  for (int d = 1; d < 3; d++)
    if (bmax[d] - bmin[d] > bmax[a] - bmin[a])
      a = d;
  return a;
}

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
    int axis = longest_axis(c->cent, c->perm, lo, hi);
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

/* ------------------------------------------------ weighted, RCB or RIB */

typedef struct geom_ctx {
  const double *cent;   /* 3 per element                          */
  const double *wgt;    /* per element, or NULL (1 each)          */
  const double *target; /* per part (prefix sums), NULL: equal    */
  int32_t *perm;        /* element order being refined            */
  rcb_item *tmp;        /* scratch                                */
  int method;           /* MINEX_GEOM_RCB or _RIB                 */
  int32_t *part;        /* output                                 */
} geom_ctx;

static int item_cmp(const void *a, const void *b) {
  const rcb_item *x = a, *y = b;
  return item_less(x, y) ? -1 : item_less(y, x) ? 1 : 0;
}

/* Share of parts [p0, p1) (prefix sums of the targets). */
static double share(const geom_ctx *c, int32_t p0, int32_t p1) {
  return c->target ? c->target[p1] - c->target[p0] : (double)(p1 - p0);
}

/* Unit axis of the segment: longest extent (RCB) or the principal axis
 * of the weighted inertia of the centroids (RIB, power iteration started
 * from the longest extent). */
static void seg_axis(const geom_ctx *c, int64_t lo, int64_t hi,
                     double axis[3]) {
  int a = longest_axis(c->cent, c->perm, lo, hi);
  axis[0] = axis[1] = axis[2] = 0;
  axis[a] = 1;
  if (c->method != MINEX_GEOM_RIB)
    return;
  double mean[3] = {0, 0, 0}, wsum = 0, m[3][3] = {{0}};
  for (int64_t i = lo; i < hi; i++) {
    double w = c->wgt ? c->wgt[c->perm[i]] : 1.0;
    wsum += w;
    for (int d = 0; d < 3; d++)
      mean[d] += w * c->cent[3 * (int64_t)c->perm[i] + d];
  }
  if (!(wsum > 0))
    return;
  for (int d = 0; d < 3; d++)
    mean[d] /= wsum;
  for (int64_t i = lo; i < hi; i++) {
    double w = c->wgt ? c->wgt[c->perm[i]] : 1.0, x[3];
    for (int d = 0; d < 3; d++)
      x[d] = c->cent[3 * (int64_t)c->perm[i] + d] - mean[d];
    for (int r = 0; r < 3; r++)
      for (int q = 0; q < 3; q++)
        m[r][q] += w * x[r] * x[q];
  }
  for (int it = 0; it < 50; it++) {
    double y[3], n = 0;
    for (int r = 0; r < 3; r++) {
      y[r] = m[r][0] * axis[0] + m[r][1] * axis[1] + m[r][2] * axis[2];
      n += y[r] * y[r];
    }
    if (!(n > 0) || !isfinite(n))
      return;
    n = sqrt(n);
    for (int r = 0; r < 3; r++)
      axis[r] = y[r] / n;
  }
}

static void geom_split(geom_ctx *c, int64_t lo, int64_t hi, int32_t p0,
                       int32_t k) {
  if (k == 1 || hi - lo <= 0) {
    for (int64_t i = lo; i < hi; i++)
      c->part[c->perm[i]] = p0;
    return;
  }
  int32_t k1 = k / 2;
  double axis[3];
  seg_axis(c, lo, hi, axis);
  rcb_item *a = c->tmp + lo;
  double wsum = 0;
  for (int64_t i = lo; i < hi; i++) {
    const double *x = c->cent + 3 * (int64_t)c->perm[i];
    a[i - lo] = (rcb_item){x[0] * axis[0] + x[1] * axis[1] + x[2] * axis[2],
                           c->perm[i]};
    wsum += c->wgt ? c->wgt[c->perm[i]] : 1.0;
  }
  qsort(a, (size_t)(hi - lo), sizeof *a, item_cmp);
  double all = share(c, p0, p0 + k);
  double want = all > 0 ? wsum * share(c, p0, p0 + k1) / all : wsum / 2;
  /* cut after the prefix whose weight is closest to want */
  int64_t mid = lo;
  double acc = 0, best = fabs(want);
  for (int64_t i = lo; i < hi; i++) {
    acc += c->wgt ? c->wgt[a[i - lo].id] : 1.0;
    if (fabs(acc - want) < best) {
      best = fabs(acc - want);
      mid = i + 1;
    }
  }
  for (int64_t i = lo; i < hi; i++)
    c->perm[i] = a[i - lo].id;
  geom_split(c, lo, mid, p0, k1);
  geom_split(c, mid, hi, p0 + k1, k - k1);
}

int minex_mesh_partition_geom(const minex_mesh *mesh, int32_t nparts,
                              minex_geom_method method, const double *wgt,
                              const double *target, int32_t *part) {
  core_error_clear();
  if (mesh == NULL || part == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_partition_geom: NULL "
                                    "argument");
  if (nparts < 1)
    return core_error(MINEX_EINVAL,
                      "minex_mesh_partition_geom: nparts = %d < 1",
                      (int)nparts);
  if (method != MINEX_GEOM_RCB && method != MINEX_GEOM_RIB)
    return core_error(MINEX_EINVAL,
                      "minex_mesh_partition_geom: unknown method %d",
                      (int)method);
  int64_t n = mesh->nelems;
  for (int64_t e = 0; wgt != NULL && e < n; e++)
    if (!isfinite(wgt[e]) || wgt[e] < 0)
      return core_error(MINEX_EINVAL,
                        "minex_mesh_partition_geom: weight of "
                        "element %lld is %g (finite and >= 0 expected)",
                        (long long)e, wgt[e]);
  double tsum = 0;
  for (int32_t p = 0; target != NULL && p < nparts; p++) {
    if (!isfinite(target[p]) || target[p] < 0)
      return core_error(MINEX_EINVAL,
                        "minex_mesh_partition_geom: target of "
                        "part %d is %g (finite and >= 0 expected)",
                        (int)p, target[p]);
    tsum += target[p];
  }
  if (target != NULL && !(tsum > 0))
    return core_error(MINEX_EINVAL, "minex_mesh_partition_geom: the targets "
                                    "sum to 0");
  if (wgt == NULL && target == NULL && method == MINEX_GEOM_RCB)
    return minex_mesh_partition_rcb(mesh, nparts, part);
  double *cent = malloc(sizeof *cent * (size_t)(3 * n + 1));
  int32_t *perm = malloc(sizeof *perm * (size_t)(n + 1));
  rcb_item *tmp = malloc(sizeof *tmp * (size_t)(n + 1));
  double *pre = target ? malloc(sizeof *pre * ((size_t)nparts + 1)) : NULL;
  int32_t *out = malloc(sizeof *out * (size_t)(n + 1));
  if (cent == NULL || perm == NULL || tmp == NULL || out == NULL ||
      (target != NULL && pre == NULL)) {
    free(cent);
    free(perm);
    free(tmp);
    free(pre);
    free(out);
    return core_error(MINEX_ENOMEM,
                      "minex_mesh_partition_geom: out of "
                      "memory for %lld elements",
                      (long long)n);
  }
  if (pre != NULL) {
    pre[0] = 0;
    for (int32_t p = 0; p < nparts; p++)
      pre[p + 1] = pre[p] + target[p];
  }
  for (int64_t e = 0; e < n; e++) {
    minex_mesh_centroid(mesh, (int32_t)e, cent + 3 * e);
    perm[e] = (int32_t)e;
  }
  geom_ctx c = {cent, wgt, pre, perm, tmp, (int)method, out};
  geom_split(&c, 0, n, 0, nparts);
  memcpy(part, out, sizeof *part * (size_t)n);
  free(cent);
  free(perm);
  free(tmp);
  free(pre);
  free(out);
  return MINEX_OK;
}

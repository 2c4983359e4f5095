/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Proportional allocation of partitions by the largest-remainder rule
 * (ATOP-grid, Gupta 2006 §5.5: W_node = W_site / N * AWVec_i / avg AWVec,
 * in whole partitions; e.g. weights {1,1,1,1,1,1,0.66,0.66} over 64 give
 * {9,9,9,9,8,8,6,6}). */
#include "core/core.h"

#include <math.h>
#include <stdlib.h>

static int check_weights(int32_t n, const double *w, const char *fn,
                         const char *name, double *sum) {
  double s = 0;
  for (int32_t i = 0; i < n; i++) {
    if (!isfinite(w[i]) || w[i] < 0)
      return core_error(MINEX_EINVAL,
                        "%s: %s[%d] = %g must be finite and "
                        ">= 0",
                        fn, name, (int)i, w[i]);
    s += w[i];
  }
  if (!(s > 0) || !isfinite(s))
    return core_error(MINEX_EINVAL,
                      "%s: the %s must have a positive finite "
                      "sum",
                      fn, name);
  *sum = s;
  return MINEX_OK;
}

/* counts from weights with a known positive sum; rem is scratch of n. */
static void largest_remainder(int32_t n, const double *w, double sum,
                              int32_t total, int32_t *counts, double *rem) {
  int64_t given = 0;
  for (int32_t i = 0; i < n; i++) {
    double q = (double)total * (w[i] / sum);
    double f = floor(q);
    counts[i] = (int32_t)f;
    rem[i] = q - f;
    given += counts[i];
  }
  /* rounding can overshoot by a unit in extreme cases: take it back from
     the smallest remainders (the last index on ties) */
  while (given > total) {
    int32_t best = -1;
    for (int32_t i = 0; i < n; i++)
      if (counts[i] > 0 && (best < 0 || rem[i] <= rem[best]))
        best = i;
    counts[best]--, rem[best] += 1, given--;
  }
  while (given < total) {
    int32_t best = -1;
    for (int32_t i = 0; i < n; i++)
      if (w[i] > 0 && (best < 0 || rem[i] > rem[best]))
        best = i;
    counts[best]++, rem[best] -= 1, given++;
  }
}

int minex_allocate(int32_t n, const double *weights, int32_t total,
                   int32_t *counts) {
  core_error_clear();
  const char *fn = "minex_allocate";
  if (n < 1 || weights == NULL || counts == NULL)
    return core_error(MINEX_EINVAL,
                      "%s: needs n >= 1 (got %d) and non-NULL "
                      "weights and counts",
                      fn, (int)n);
  if (total < 0)
    return core_error(MINEX_EINVAL, "%s: total = %d must be >= 0", fn,
                      (int)total);
  double sum = 0;
  int rc = check_weights(n, weights, fn, "weights", &sum);
  if (rc != MINEX_OK)
    return rc;
  double *rem = malloc(sizeof(double) * (size_t)n);
  if (rem == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
  largest_remainder(n, weights, sum, total, counts, rem);
  free(rem);
  return MINEX_OK;
}

int minex_allocate_sites(int32_t nsites, const int32_t *site_size,
                         const double *node_weights, const double *site_factor,
                         int32_t total, int32_t *site_counts,
                         int32_t *node_counts) {
  core_error_clear();
  const char *fn = "minex_allocate_sites";
  if (nsites < 1 || site_size == NULL || node_weights == NULL ||
      site_counts == NULL || node_counts == NULL)
    return core_error(MINEX_EINVAL,
                      "%s: needs nsites >= 1 (got %d) and "
                      "non-NULL site_size, node_weights, site_counts and "
                      "node_counts",
                      fn, (int)nsites);
  if (total < 0)
    return core_error(MINEX_EINVAL, "%s: total = %d must be >= 0", fn,
                      (int)total);
  int64_t nn = 0;
  for (int32_t s = 0; s < nsites; s++) {
    if (site_size[s] < 1)
      return core_error(MINEX_EINVAL, "%s: site_size[%d] = %d must be >= 1", fn,
                        (int)s, (int)site_size[s]);
    nn += site_size[s];
    if (nn > INT32_MAX)
      return core_error(MINEX_EINVAL, "%s: too many nodes", fn);
  }
  double sum = 0;
  int rc = check_weights((int32_t)nn, node_weights, fn, "node_weights", &sum);
  if (rc != MINEX_OK)
    return rc;
  if (site_factor != NULL &&
      (rc = check_weights(nsites, site_factor, fn, "site_factor", &sum)))
    return rc;
  size_t big = (size_t)(nn > nsites ? nn : nsites);
  double *sw = malloc(sizeof(double) * (size_t)nsites);
  double *rem = malloc(sizeof(double) * big);
  if (sw == NULL || rem == NULL) {
    free(sw), free(rem);
    return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
  }
  /* AWVec_global,site = sum of the site's AWVec_local (times its factor) */
  int64_t first = 0;
  double ssum = 0;
  for (int32_t s = 0; s < nsites; s++) {
    double x = 0;
    for (int32_t i = 0; i < site_size[s]; i++)
      x += node_weights[first + i];
    sw[s] = x * (site_factor ? site_factor[s] : 1.0);
    ssum += sw[s];
    first += site_size[s];
  }
  if (!(ssum > 0)) {
    free(sw), free(rem);
    return core_error(MINEX_EINVAL, "%s: every site has weight 0", fn);
  }
  largest_remainder(nsites, sw, ssum, total, site_counts, rem);
  first = 0;
  for (int32_t s = 0; s < nsites; s++) {
    const double *w = node_weights + first;
    double x = 0;
    for (int32_t i = 0; i < site_size[s]; i++)
      x += w[i];
    if (x > 0)
      largest_remainder(site_size[s], w, x, site_counts[s], node_counts + first,
                        rem);
    else /* a site of weight 0 gets no partitions */
      for (int32_t i = 0; i < site_size[s]; i++)
        node_counts[first + i] = 0;
    first += site_size[s];
  }
  free(sw), free(rem);
  return MINEX_OK;
}

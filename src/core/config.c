/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The configuration graph object (SPEC §1): clusters, Proc_c, Conn(c,d),
 * processor availability. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int minex_config_create(int32_t nclusters, const int32_t *nprocs,
                        const double *proc_slowdown, const double *conn,
                        minex_config **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_config_create: out is NULL");
  *out = NULL;
  if (nclusters <= 0 || nprocs == NULL)
    return core_error(MINEX_EINVAL, "minex_config_create: need at least one "
                                    "cluster and a processor count array");
  if (nclusters > MINEX_NCLUSTERS_MAX)
    return core_error(MINEX_ECONFIG,
                      "configuration has %d clusters (at most "
                      "MINEX_NCLUSTERS_MAX = %d)",
                      (int)nclusters, MINEX_NCLUSTERS_MAX);
  int64_t total = 0;
  for (int32_t c = 0; c < nclusters; c++) {
    if (nprocs[c] < 0)
      return core_error(MINEX_ECONFIG,
                        "cluster %d: %d processors (must be "
                        ">= 0)",
                        (int)c, (int)nprocs[c]);
    total += nprocs[c];
  }
  if (total <= 0 || total > MINEX_NPROCS_MAX)
    return core_error(MINEX_ECONFIG,
                      "configuration has %lld processors "
                      "(must be in 1..MINEX_NPROCS_MAX = %d)",
                      (long long)total, MINEX_NPROCS_MAX);
  for (int32_t c = 0; proc_slowdown && c < nclusters; c++)
    if (!isfinite(proc_slowdown[c]) || proc_slowdown[c] <= 0)
      return core_error(MINEX_ECONFIG,
                        "cluster %d: Proc = %g (must be "
                        "finite and > 0)",
                        (int)c, proc_slowdown[c]);
  for (int32_t c = 0; conn && c < nclusters; c++)
    for (int32_t d = 0; d < nclusters; d++) {
      double x = conn[(size_t)c * (size_t)nclusters + (size_t)d];
      double y = conn[(size_t)d * (size_t)nclusters + (size_t)c];
      if (!isfinite(x) || x <= 0)
        return core_error(MINEX_ECONFIG,
                          "Conn(%d,%d) = %g (must be finite "
                          "and > 0)",
                          (int)c, (int)d, x);
      if (x != y)
        return core_error(MINEX_ECONFIG,
                          "Conn(%d,%d) = %g but Conn(%d,%d) "
                          "= %g: Conn must be symmetric",
                          (int)c, (int)d, x, (int)d, (int)c, y);
    }
  minex_config *cf = calloc(1, sizeof *cf);
  if (cf == NULL)
    return core_error(MINEX_ENOMEM, "minex_config_create: out of memory");
  size_t nc = (size_t)nclusters, np = (size_t)total;
  cf->nclusters = nclusters;
  cf->nprocs = (int32_t)total;
  cf->navail = (int32_t)total;
  cf->csize = malloc(sizeof(int32_t) * nc);
  cf->cfirst = malloc(sizeof(int32_t) * (nc + 1));
  cf->proc = malloc(sizeof(double) * nc);
  cf->conn = malloc(sizeof(double) * nc * nc);
  cf->cluster = malloc(sizeof(int32_t) * np);
  cf->avail = malloc(np);
  if (!cf->csize || !cf->cfirst || !cf->proc || !cf->conn || !cf->cluster ||
      !cf->avail) {
    minex_config_destroy(cf);
    return core_error(MINEX_ENOMEM, "minex_config_create: out of memory");
  }
  cf->cfirst[0] = 0;
  for (int32_t c = 0; c < nclusters; c++) {
    cf->csize[c] = nprocs[c];
    cf->cfirst[c + 1] = cf->cfirst[c] + nprocs[c];
    cf->proc[c] = proc_slowdown ? proc_slowdown[c] : 1.0;
    for (int32_t p = cf->cfirst[c]; p < cf->cfirst[c + 1]; p++)
      cf->cluster[p] = c;
  }
  for (size_t i = 0; i < nc * nc; i++)
    cf->conn[i] = conn ? conn[i] : 1.0;
  memset(cf->avail, 1, np);
  *out = cf;
  return MINEX_OK;
}

int minex_config_create_uniform(int32_t nparts, minex_config **out) {
  if (nparts <= 0) {
    if (out)
      *out = NULL;
    return core_error(MINEX_EINVAL, "nparts = %d (must be > 0)", (int)nparts);
  }
  return minex_config_create(1, &nparts, NULL, NULL, out);
}

void minex_config_destroy(minex_config *cf) {
  if (cf == NULL)
    return;
  free(cf->csize);
  free(cf->cfirst);
  free(cf->proc);
  free(cf->conn);
  free(cf->cluster);
  free(cf->avail);
  free(cf);
}

int minex_config_set_available(minex_config *cf, int32_t proc, int available) {
  core_error_clear();
  if (cf == NULL)
    return core_error(MINEX_EINVAL, "minex_config_set_available: config is "
                                    "NULL");
  if (proc < 0 || proc >= cf->nprocs)
    return core_error(MINEX_EINVAL, "processor %d outside [0, %d)", (int)proc,
                      (int)cf->nprocs);
  unsigned char a = available ? 1 : 0;
  if (cf->avail[proc] != a)
    cf->navail += a ? 1 : -1;
  cf->avail[proc] = a;
  return MINEX_OK;
}

int32_t minex_config_nclusters(const minex_config *cf) {
  return cf ? cf->nclusters : 0;
}
int32_t minex_config_nprocs(const minex_config *cf) {
  return cf ? cf->nprocs : 0;
}
int32_t minex_config_navailable(const minex_config *cf) {
  return cf ? cf->navail : 0;
}
int32_t minex_config_cluster_nprocs(const minex_config *cf, int32_t c) {
  return (cf && c >= 0 && c < cf->nclusters) ? cf->csize[c] : 0;
}
int32_t minex_config_cluster_of(const minex_config *cf, int32_t p) {
  return (cf && p >= 0 && p < cf->nprocs) ? cf->cluster[p] : -1;
}
double minex_config_proc_slowdown(const minex_config *cf, int32_t c) {
  return (cf && c >= 0 && c < cf->nclusters) ? cf->proc[c] : NAN;
}
double minex_config_conn(const minex_config *cf, int32_t c, int32_t d) {
  if (cf == NULL || c < 0 || d < 0 || c >= cf->nclusters || d >= cf->nclusters)
    return NAN;
  return cf->conn[(size_t)c * (size_t)cf->nclusters + (size_t)d];
}
int minex_config_is_available(const minex_config *cf, int32_t p) {
  return (cf && p >= 0 && p < cf->nprocs) ? cf->avail[p] : 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The distributed benchmark case (dist_case.h). */
#include "dist_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double dist_proc[DIST_CLUSTERS] = {1, 1, 2, 2};

void dist_case_drop_whole(dist_case *c) {
  minex_graph_destroy(c->g);
  free(c->old_all);
  free(c->newid);
  c->g = NULL;
  c->old_all = c->newid = NULL;
}

void dist_case_free(dist_case *c) {
  dist_case_drop_whole(c);
  free(c->xadj);
  free(c->adj);
  free(c->pw);
  free(c->rw);
  free(c->cw);
  free(c->old);
  memset(c, 0, sizeof *c);
}

int dist_case_make(int64_t elements, int rank, int size, dist_case *c) {
  memset(c, 0, sizeof *c);
  minex_mesh *mesh = NULL;
  int32_t nx = (int32_t)fmax(1.0, round(cbrt((double)elements / 6.0)));
  minex_ball ball = {{0.3, 0.5, 0.5}, 0.15 * sqrt(3.0), 8.0, 4.0};
  int rc = minex_gen_box(nx, nx, nx, &mesh);
  if (rc != MINEX_OK)
    return rc;
  int32_t n = minex_mesh_nelems(mesh);
  c->old_all = malloc(sizeof *c->old_all * (size_t)n);
  c->newid = malloc(sizeof *c->newid * (size_t)n);
  int32_t *byid = malloc(sizeof *byid * (size_t)n);
  if (c->old_all == NULL || c->newid == NULL || byid == NULL)
    rc = MINEX_ENOMEM;
  if (rc == MINEX_OK)
    rc = minex_mesh_partition_rcb(mesh, DIST_P, c->old_all);
  if (rc == MINEX_OK)
    rc = minex_mesh_dual_ball(mesh, &ball, &c->g);
  minex_mesh_destroy(mesh);
  if (rc != MINEX_OK) {
    free(byid);
    dist_case_free(c);
    return rc;
  }
  /* part by part, the graph's order inside a part */
  int64_t cnt[DIST_P + 1] = {0}, fill[DIST_P];
  for (int32_t v = 0; v < n; v++)
    cnt[c->old_all[v] + 1]++;
  for (int p = 0; p < DIST_P; p++)
    cnt[p + 1] += cnt[p];
  memcpy(fill, cnt, sizeof fill);
  for (int32_t v = 0; v < n; v++) {
    c->newid[v] = (int32_t)fill[c->old_all[v]]++;
    byid[c->newid[v]] = v;
  }
  for (int r = 0; r <= size; r++)
    c->vd[r] = cnt[(int64_t)r * DIST_P / size];
  c->first = c->vd[rank];
  c->nloc = c->vd[rank + 1] - c->vd[rank];
  const int64_t *X = minex_graph_xadj(c->g);
  const int32_t *A = minex_graph_adjncy(c->g);
  int64_t nnz = 0;
  for (int64_t i = 0; i < c->nloc; i++)
    nnz += X[byid[c->first + i] + 1] - X[byid[c->first + i]];
  size_t nl = (size_t)c->nloc + 1, ne = (size_t)nnz + 1;
  c->xadj = malloc(sizeof *c->xadj * nl);
  c->adj = malloc(sizeof *c->adj * ne);
  c->cw = malloc(sizeof *c->cw * ne);
  c->pw = malloc(sizeof *c->pw * nl);
  c->rw = malloc(sizeof *c->rw * nl);
  c->old = malloc(sizeof *c->old * nl);
  if (!c->xadj || !c->adj || !c->cw || !c->pw || !c->rw || !c->old) {
    free(byid);
    dist_case_free(c);
    return MINEX_ENOMEM;
  }
  c->xadj[0] = 0;
  for (int64_t i = 0; i < c->nloc; i++) {
    int32_t v = byid[c->first + i];
    int64_t o = c->xadj[i];
    for (int64_t j = X[v]; j < X[v + 1]; j++) {
      c->adj[o + j - X[v]] = c->newid[A[j]];
      c->cw[o + j - X[v]] = minex_graph_cwgt(c->g)[j];
    }
    c->xadj[i + 1] = o + X[v + 1] - X[v];
    c->pw[i] = minex_graph_pwgt(c->g)[v];
    c->rw[i] = minex_graph_rwgt(c->g)[v];
    c->old[i] = c->old_all[v];
  }
  free(byid);
  return MINEX_OK;
}

int dist_case_config(minex_config **cfg) {
  int32_t np[DIST_CLUSTERS];
  double conn[DIST_CLUSTERS * DIST_CLUSTERS];
  for (int a = 0; a < DIST_CLUSTERS; a++) {
    np[a] = DIST_P / DIST_CLUSTERS;
    for (int b = 0; b < DIST_CLUSTERS; b++)
      conn[a * DIST_CLUSTERS + b] = a == b ? 1.0 : 10.0;
  }
  return minex_config_create(DIST_CLUSTERS, np, dist_proc, conn, cfg);
}

long dist_status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  if (f == NULL)
    return -1;
  char line[256];
  long kb = -1;
  size_t k = strlen(key);
  while (fgets(line, sizeof line, f) != NULL)
    if (strncmp(line, key, k) == 0)
      kb = strtol(line + k, NULL, 10);
  fclose(f);
  return kb;
}

int dist_reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f == NULL)
    return -1;
  int ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-part layout of minex_repartition (layout.h). */
#include "driver/layout.h"

#include <stdlib.h>
#include <string.h>

typedef struct end {
  int32_t t;
  double w;
} end;

static int end_cmp(const void *x, const void *y) {
  const end *a = x, *b = y;
  return (a->t > b->t) - (a->t < b->t);
}

/* Sorts a row of len ends by id, by insertion (mesh rows are short). */
static void insertion_sort(int32_t *a, double *c, int64_t len) {
  for (int64_t i = 1; i < len; i++) {
    int32_t t = a[i];
    double w = c[i];
    int64_t k = i;
    for (; k > 0 && a[k - 1] > t; k--) {
      a[k] = a[k - 1];
      c[k] = c[k - 1];
    }
    a[k] = t;
    c[k] = w;
  }
}

/* Sorts a long row of len ends by id; without memory, by insertion
 * (slower, same result). */
static void sort_row(int32_t *a, double *c, int64_t len) {
  end *e = core_malloc(sizeof(end) * (size_t)len);
  if (e != NULL) {
    for (int64_t i = 0; i < len; i++)
      e[i] = (end){a[i], c[i]};
    qsort(e, (size_t)len, sizeof *e, end_cmp);
    for (int64_t i = 0; i < len; i++) {
      a[i] = e[i].t;
      c[i] = e[i].w;
    }
    core_free(e);
    return;
  }
  insertion_sort(a, c, len);
}

void layout_destroy(layout *lay) {
  core_graph_free_arrays(&lay->g);
  core_free(lay->old);
  core_free(lay->perm);
  core_free(lay->first);
  memset(lay, 0, sizeof *lay);
}

int layout_create(layout *lay, const minex_graph *g, const int32_t *old,
                  int32_t nprocs, int nthreads) {
  memset(lay, 0, sizeof *lay);
  int32_t n = g->nvtxs;
  int64_t ne = g->xadj[n];
  int nt = nthreads > 1 ? nthreads : 1;
  size_t nv = (size_t)n + 1;
  lay->g.nvtxs = n;
  lay->g.xadj = core_malloc(sizeof(int64_t) * nv);
  lay->g.adjncy = core_malloc(sizeof(int32_t) * ((size_t)ne + 1));
  lay->g.pwgt = core_malloc(sizeof(double) * nv);
  lay->g.rwgt = core_malloc(sizeof(double) * nv);
  lay->g.cwgt = core_malloc(sizeof(double) * ((size_t)ne + 1));
  lay->old = core_malloc(sizeof(int32_t) * nv);
  lay->perm = core_malloc(sizeof(int32_t) * nv);
  lay->first = core_calloc((size_t)nprocs + 2, sizeof(int32_t));
  int32_t *inv = core_malloc(sizeof(int32_t) * nv);
  if (!lay->g.xadj || !lay->g.adjncy || !lay->g.pwgt || !lay->g.rwgt ||
      !lay->g.cwgt || !lay->old || !lay->perm || !lay->first || !inv) {
    core_free(inv);
    layout_destroy(lay);
    return core_error(MINEX_ENOMEM,
                      "minex_repartition: out of memory for the per-part "
                      "layout of %d vertices",
                      (int)n);
  }
  /* a stable counting sort by old owner */
  int32_t *first = lay->first;
  for (int32_t v = 0; v < n; v++)
    first[old[v] + 1]++;
  for (int32_t p = 0; p < nprocs; p++)
    first[p + 1] += first[p];
  int32_t *next = core_malloc(sizeof(int32_t) * ((size_t)nprocs + 1));
  if (next == NULL) {
    core_free(inv);
    layout_destroy(lay);
    return core_error(MINEX_ENOMEM,
                      "minex_repartition: out of memory for the per-part "
                      "layout of %d vertices",
                      (int)n);
  }
  memcpy(next, first, sizeof(int32_t) * (size_t)nprocs);
  for (int32_t v = 0; v < n; v++)
    inv[next[old[v]]++] = v;
  core_free(next);
  for (int32_t u = 0; u < n; u++)
    lay->perm[inv[u]] = u;
  lay->g.xadj[0] = 0;
  for (int32_t u = 0; u < n; u++) {
    int32_t v = inv[u];
    lay->g.xadj[u + 1] = lay->g.xadj[u] + (g->xadj[v + 1] - g->xadj[v]);
  }
  const int32_t *perm = lay->perm;
  minex_graph *h = &lay->g;
  minex_workspace *pool = core_pool_current();
#pragma omp parallel for schedule(static, 4096) num_threads(nt) if (nt > 1)
  for (int32_t u = 0; u < n; u++) {
    int32_t v = inv[u];
    h->pwgt[u] = g->pwgt[v];
    h->rwgt[u] = g->rwgt[v];
    lay->old[u] = old[v];
    int64_t b = h->xadj[u], len = h->xadj[u + 1] - b, s = g->xadj[v];
    int32_t *a = h->adjncy + b;
    double *c = h->cwgt + b;
    for (int64_t i = 0; i < len; i++) {
      a[i] = perm[g->adjncy[s + i]];
      c[i] = g->cwgt[s + i];
    }
    if (len > 32) { /* a long row: sorted as pairs */
      minex_workspace *prev = core_pool_swap(pool); /* the call's buffers */
      sort_row(a, c, len);
      core_pool_swap(prev);
      continue;
    }
    insertion_sort(a, c, len); /* the row in ascending order */
  }
  core_free(inv);
  return MINEX_OK;
}

void layout_to_input(const layout *lay, const int32_t *in, int32_t *out) {
  for (int32_t v = 0; v < lay->g.nvtxs; v++)
    out[v] = in[lay->perm[v]];
}

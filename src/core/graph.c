/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dual graph object (SPEC §1): creation from CSR with full validation,
 * weight updates on the same topology, accessors, destruction. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct edge_entry {
  int32_t to;
  double cwgt;
} edge_entry;

static int edge_entry_cmp(const void *a, const void *b) {
  int32_t x = ((const edge_entry *)a)->to, y = ((const edge_entry *)b)->to;
  return (x > y) - (x < y);
}

/* Sorts one row of (adjncy, cwgt) by neighbour id; rows of mesh graphs are
 * short, so insertion sort, with qsort for the rare long row. */
static void sort_row(int32_t *adj, double *cw, int64_t len, edge_entry *tmp) {
  if (len > 32) {
    for (int64_t i = 0; i < len; i++)
      tmp[i] = (edge_entry){adj[i], cw[i]};
    qsort(tmp, (size_t)len, sizeof *tmp, edge_entry_cmp);
    for (int64_t i = 0; i < len; i++) {
      adj[i] = tmp[i].to;
      cw[i] = tmp[i].cwgt;
    }
    return;
  }
  for (int64_t i = 1; i < len; i++) {
    int32_t a = adj[i];
    double c = cw[i];
    int64_t j = i;
    while (j > 0 && adj[j - 1] > a) {
      adj[j] = adj[j - 1];
      cw[j] = cw[j - 1];
      j--;
    }
    adj[j] = a;
    cw[j] = c;
  }
}

static int check_weight(const char *what, int64_t i, double w) {
  if (!isfinite(w) || w < 0)
    return core_error(MINEX_EGRAPH,
                      "%s[%lld] = %g: weights must be finite "
                      "and >= 0",
                      what, (long long)i, w);
  return MINEX_OK;
}

/* Index of w in the sorted row of v, or -1. */
static int64_t row_find(const minex_graph *g, int32_t v, int32_t w) {
  int64_t lo = g->xadj[v], hi = g->xadj[v + 1] - 1;
  while (lo <= hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->adjncy[mid] == w)
      return mid;
    if (g->adjncy[mid] < w)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* The CSR arrays before anything is copied: counts, NULLs, xadj starting
 * at 0, never decreasing, holding each edge twice. */
static int check_csr(int32_t nvtxs, const int64_t *xadj,
                     const int32_t *adjncy) {
  if (nvtxs < 0)
    return core_error(MINEX_EINVAL, "minex_graph_create: nvtxs = %d < 0",
                      (int)nvtxs);
  if (xadj == NULL || (adjncy == NULL && nvtxs > 0 && xadj[nvtxs] > 0))
    return core_error(MINEX_EINVAL, "minex_graph_create: xadj or adjncy is "
                                    "NULL");
  if (xadj[0] != 0)
    return core_error(MINEX_EGRAPH, "xadj[0] = %lld, must be 0",
                      (long long)xadj[0]);
  for (int32_t v = 0; v < nvtxs; v++)
    if (xadj[v + 1] < xadj[v])
      return core_error(MINEX_EGRAPH, "xadj decreases at vertex %d", (int)v);
  int64_t nadj = xadj[nvtxs];
  if (nadj % 2 != 0)
    return core_error(MINEX_EGRAPH,
                      "%lld adjacency entries: an undirected "
                      "graph stores each edge twice",
                      (long long)nadj);
  return MINEX_OK;
}

/* A graph of nvtxs vertices and nadj entries, arrays allocated, nothing
 * filled but nvtxs. */
static int graph_alloc(int32_t nvtxs, int64_t nadj, minex_graph **out) {
  minex_graph *g = core_calloc(1, sizeof *g);
  if (g == NULL)
    return core_error(MINEX_ENOMEM, "minex_graph_create: out of memory");
  g->nvtxs = nvtxs;
  g->xadj = core_malloc(sizeof(int64_t) * ((size_t)nvtxs + 1));
  g->adjncy = core_malloc(sizeof(int32_t) * (size_t)(nadj > 0 ? nadj : 1));
  g->cwgt = core_malloc(sizeof(double) * (size_t)(nadj > 0 ? nadj : 1));
  g->pwgt = core_malloc(sizeof(double) * (size_t)(nvtxs > 0 ? nvtxs : 1));
  g->rwgt = core_malloc(sizeof(double) * (size_t)(nvtxs > 0 ? nvtxs : 1));
  if (!g->xadj || !g->adjncy || !g->cwgt || !g->pwgt || !g->rwgt) {
    minex_graph_destroy(g);
    return core_error(MINEX_ENOMEM,
                      "minex_graph_create: out of memory for "
                      "%d vertices, %lld entries",
                      (int)nvtxs, (long long)nadj);
  }
  *out = g;
  return MINEX_OK;
}

/* The weights into g (1 where an array is NULL), each checked. */
static int copy_weights(minex_graph *g, const double *pwgt, const double *rwgt,
                        const double *cwgt) {
  int rc = MINEX_OK;
  int64_t nadj = g->xadj[g->nvtxs];
  for (int64_t i = 0; i < nadj && rc == MINEX_OK; i++) {
    g->cwgt[i] = cwgt ? cwgt[i] : 1.0;
    if (cwgt)
      rc = check_weight("cwgt", i, cwgt[i]);
  }
  for (int32_t v = 0; v < g->nvtxs && rc == MINEX_OK; v++) {
    g->pwgt[v] = pwgt ? pwgt[v] : 1.0;
    g->rwgt[v] = rwgt ? rwgt[v] : 1.0;
    if (pwgt)
      rc = check_weight("pwgt", v, pwgt[v]);
    if (rwgt && rc == MINEX_OK)
      rc = check_weight("rwgt", v, rwgt[v]);
  }
  return rc;
}

/* Neighbours in [0, nvtxs) and no self loop; *maxdeg: the largest
 * degree. */
static int check_neighbours(const minex_graph *g, int64_t *maxdeg) {
  int32_t nvtxs = g->nvtxs;
  *maxdeg = 0;
  for (int32_t v = 0; v < nvtxs; v++) {
    int64_t deg = g->xadj[v + 1] - g->xadj[v];
    if (deg > *maxdeg)
      *maxdeg = deg;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t w = g->adjncy[j];
      if (w < 0 || w >= nvtxs)
        return core_error(MINEX_EGRAPH,
                          "vertex %d: neighbour %d outside "
                          "[0, %d)",
                          (int)v, (int)w, (int)nvtxs);
      if (w == v)
        return core_error(MINEX_EGRAPH, "vertex %d: self loop", (int)v);
    }
  }
  return MINEX_OK;
}

/* Sorts every row by neighbour id and refuses duplicate edges. */
static int sort_rows(minex_graph *g, int64_t maxdeg) {
  int rc = MINEX_OK;
  edge_entry *tmp = NULL;
  if (maxdeg > 32) {
    tmp = core_malloc(sizeof *tmp * (size_t)maxdeg);
    if (tmp == NULL)
      return core_error(MINEX_ENOMEM, "minex_graph_create: out of memory");
  }
  for (int32_t v = 0; v < g->nvtxs && rc == MINEX_OK; v++) {
    int64_t b = g->xadj[v], e = g->xadj[v + 1];
    sort_row(g->adjncy + b, g->cwgt + b, e - b, tmp);
    for (int64_t j = b + 1; j < e; j++)
      if (g->adjncy[j] == g->adjncy[j - 1]) {
        rc = core_error(MINEX_EGRAPH, "vertex %d: duplicate edge to %d", (int)v,
                        (int)g->adjncy[j]);
        break;
      }
  }
  core_free(tmp);
  return rc;
}

/* Every edge has its reverse, of the same Cwgt (rows sorted). */
static int check_symmetry(const minex_graph *g) {
  for (int32_t v = 0; v < g->nvtxs; v++)
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t w = g->adjncy[j];
      int64_t r = row_find(g, w, v);
      if (r < 0)
        return core_error(MINEX_EGRAPH, "edge %d-%d has no reverse edge",
                          (int)v, (int)w);
      if (g->cwgt[r] != g->cwgt[j])
        return core_error(MINEX_EGRAPH,
                          "edge %d-%d has Cwgt %g one way and "
                          "%g the other",
                          (int)v, (int)w, g->cwgt[j], g->cwgt[r]);
    }
  return MINEX_OK;
}

int minex_graph_create(int32_t nvtxs, const int64_t *xadj,
                       const int32_t *adjncy, const double *pwgt,
                       const double *rwgt, const double *cwgt,
                       minex_graph **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_graph_create: out is NULL");
  *out = NULL;
  int rc = check_csr(nvtxs, xadj, adjncy);
  if (rc != MINEX_OK)
    return rc;
  int64_t nadj = xadj[nvtxs], maxdeg = 0;
  minex_graph *g = NULL;
  if ((rc = graph_alloc(nvtxs, nadj, &g)) != MINEX_OK)
    return rc;
  memcpy(g->xadj, xadj, sizeof(int64_t) * ((size_t)nvtxs + 1));
  if (nadj > 0)
    memcpy(g->adjncy, adjncy, sizeof(int32_t) * (size_t)nadj);
  rc = copy_weights(g, pwgt, rwgt, cwgt);
  if (rc == MINEX_OK)
    rc = check_neighbours(g, &maxdeg);
  if (rc == MINEX_OK)
    rc = sort_rows(g, maxdeg);
  if (rc == MINEX_OK)
    rc = check_symmetry(g);
  if (rc != MINEX_OK) {
    minex_graph_destroy(g);
    return rc;
  }
  *out = g;
  return MINEX_OK;
}

/* Validates everything before writing anything, so a refused update leaves
 * the graph as it was. Rows are sorted, so visiting v in increasing order
 * meets the entries (w, v), v < w, of row w in increasing order too: a
 * cursor per row finds each reverse entry in O(1), O(V + E) in all. */
int minex_graph_set_weights(minex_graph *graph, const double *pwgt,
                            const double *rwgt, const double *cwgt) {
  core_error_clear();
  if (graph == NULL)
    return core_error(MINEX_EINVAL, "minex_graph_set_weights: graph is NULL");
  const int32_t n = graph->nvtxs;
  const int64_t *xadj = graph->xadj;
  const int32_t *adjncy = graph->adjncy;
  int rc = MINEX_OK;
  for (int32_t v = 0; v < n && rc == MINEX_OK; v++) {
    if (pwgt)
      rc = check_weight("pwgt", v, pwgt[v]);
    if (rwgt && rc == MINEX_OK)
      rc = check_weight("rwgt", v, rwgt[v]);
  }
  if (rc != MINEX_OK)
    return rc;
  for (int64_t j = 0; cwgt && j < xadj[n] && rc == MINEX_OK; j++)
    rc = check_weight("cwgt", j, cwgt[j]);
  if (rc != MINEX_OK)
    return rc;
  if (cwgt) {
    int64_t *cursor = core_malloc(sizeof *cursor * (size_t)(n > 0 ? n : 1));
    if (cursor == NULL)
      return core_error(MINEX_ENOMEM,
                        "minex_graph_set_weights: out of "
                        "memory for %d vertices",
                        (int)n);
    for (int32_t v = 0; v < n; v++)
      cursor[v] = xadj[v];
    for (int32_t v = 0; v < n && rc == MINEX_OK; v++)
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
        int32_t w = adjncy[j];
        if (w < v)
          continue;              /* checked from w's side */
        int64_t r = cursor[w]++; /* row w holds v here, by the order above */
        if (cwgt[r] != cwgt[j]) {
          rc = core_error(MINEX_EGRAPH,
                          "edge %d-%d: cwgt[%lld] = %g one "
                          "way and cwgt[%lld] = %g the other",
                          (int)v, (int)w, (long long)j, cwgt[j], (long long)r,
                          cwgt[r]);
          break;
        }
      }
    core_free(cursor);
    if (rc != MINEX_OK)
      return rc;
    memcpy(graph->cwgt, cwgt, sizeof(double) * (size_t)xadj[n]);
  }
  if (pwgt)
    memcpy(graph->pwgt, pwgt, sizeof(double) * (size_t)n);
  if (rwgt)
    memcpy(graph->rwgt, rwgt, sizeof(double) * (size_t)n);
  return MINEX_OK;
}

void core_graph_free_arrays(minex_graph *g) {
  core_free(g->xadj);
  core_free(g->adjncy);
  core_free(g->cwgt);
  core_free(g->pwgt);
  core_free(g->rwgt);
  memset(g, 0, sizeof *g);
}

void minex_graph_destroy(minex_graph *graph) {
  if (graph == NULL)
    return;
  core_graph_free_arrays(graph);
  core_free(graph);
}

int32_t minex_graph_nvtxs(const minex_graph *g) {
  return g ? g->nvtxs : 0;
}
int64_t minex_graph_nedges(const minex_graph *g) {
  return g ? g->xadj[g->nvtxs] / 2 : 0;
}
const int64_t *minex_graph_xadj(const minex_graph *g) {
  return g ? g->xadj : NULL;
}
const int32_t *minex_graph_adjncy(const minex_graph *g) {
  return g ? g->adjncy : NULL;
}
const double *minex_graph_pwgt(const minex_graph *g) {
  return g ? g->pwgt : NULL;
}
const double *minex_graph_rwgt(const minex_graph *g) {
  return g ? g->rwgt : NULL;
}
const double *minex_graph_cwgt(const minex_graph *g) {
  return g ? g->cwgt : NULL;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The least-squares balancing flow (flow.h). */
#include "partition/flow.h"
#include "partition/partition.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int32_t find(int32_t *up, int32_t x) {
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

static int check(int32_t nprocs, const partition_qedge *e, int64_t ne,
                 const double *excess) {
  if (nprocs < 1 || ne < 0 || (ne > 0 && e == NULL) || excess == NULL)
    return core_error(MINEX_EINVAL,
                      "flow: %d processors and %lld edges (e %s, excess %s)",
                      (int)nprocs, (long long)ne, e ? "set" : "NULL",
                      excess ? "set" : "NULL");
  for (int64_t i = 0; i < ne; i++)
    if (e[i].p < 0 || e[i].p >= nprocs || e[i].q < 0 || e[i].q >= nprocs ||
        e[i].p == e[i].q || !isfinite(e[i].w) || e[i].w <= 0)
      return core_error(MINEX_EINVAL,
                        "flow: edge %lld (%d, %d, weight %g): processors in "
                        "[0, %d), distinct, weight finite and positive",
                        (long long)i, (int)e[i].p, (int)e[i].q, e[i].w,
                        (int)nprocs);
  for (int32_t p = 0; p < nprocs; p++)
    if (!isfinite(excess[p]))
      return core_error(MINEX_EINVAL, "flow: excess of processor %d is %g",
                        (int)p, excess[p]);
  return MINEX_OK;
}

/* The potentials of the s processors of one component (ids[0..s), local
 * index loc[p]) with ids[0] grounded: L' lambda' = excess' on the other
 * s - 1, centred so that the component's excess sums to 0. */
/* The edges and each processor's component (comp) and index in it (loc). */
typedef struct flow_graph {
  const partition_qedge *e;
  int64_t ne;
  const int32_t *loc, *comp;
} flow_graph;

static int component_potentials(const flow_graph *fg, const int32_t *ids,
                                int32_t s, int32_t c, const double *excess,
                                double mean, double *lambda) {
  const partition_qedge *e = fg->e;
  const int32_t *loc = fg->loc, *comp = fg->comp;
  int64_t ne = fg->ne;
  lambda[ids[0]] = 0;
  if (s == 1)
    return MINEX_OK;
  size_t m = (size_t)s - 1;
  gsl_matrix *A = gsl_matrix_calloc(m, m);
  gsl_vector *b = gsl_vector_alloc(m);
  if (A == NULL || b == NULL) {
    gsl_matrix_free(A), gsl_vector_free(b);
    return core_error(MINEX_ENOMEM, "flow: out of memory for %d processors",
                      (int)s);
  }
  for (int32_t k = 1; k < s; k++)
    gsl_vector_set(b, (size_t)k - 1, excess[ids[k]] - mean);
  for (int64_t i = 0; i < ne; i++) {
    if (comp[e[i].p] != c)
      continue;
    int32_t a = loc[e[i].p] - 1, d = loc[e[i].q] - 1;
    if (a >= 0)
      *gsl_matrix_ptr(A, (size_t)a, (size_t)a) += e[i].w;
    if (d >= 0)
      *gsl_matrix_ptr(A, (size_t)d, (size_t)d) += e[i].w;
    if (a >= 0 && d >= 0) {
      *gsl_matrix_ptr(A, (size_t)a, (size_t)d) -= e[i].w;
      *gsl_matrix_ptr(A, (size_t)d, (size_t)a) -= e[i].w;
    }
  }
  /* a connected component's grounded Laplacian is positive definite */
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int g = gsl_linalg_cholesky_decomp1(A);
  if (g == GSL_SUCCESS)
    g = gsl_linalg_cholesky_svx(A, b);
  gsl_set_error_handler(old);
  int rc = MINEX_OK;
  if (g != GSL_SUCCESS)
    rc = core_error(MINEX_EINTERNAL,
                    "flow: the Laplacian of a component of %d processors is "
                    "not positive definite (%s)",
                    (int)s, gsl_strerror(g));
  for (int32_t k = 1; k < s && rc == MINEX_OK; k++)
    lambda[ids[k]] = gsl_vector_get(b, (size_t)k - 1);
  gsl_matrix_free(A);
  gsl_vector_free(b);
  return rc;
}

int partition_flow(int32_t nprocs, const partition_qedge *e, int64_t ne,
                   const double *excess, double *flow, double *unrouted) {
  int rc = check(nprocs, e, ne, excess);
  if (rc != MINEX_OK)
    return rc;
  size_t P = (size_t)nprocs;
  int32_t *up = core_malloc(sizeof *up * P),
          *comp = core_malloc(sizeof *comp * P);
  int32_t *ids = core_malloc(sizeof *ids * P),
          *loc = core_malloc(sizeof *loc * P);
  int32_t *start = core_calloc(P + 1, sizeof *start);
  double *lambda = core_malloc(sizeof *lambda * P);
  double *sum = core_calloc(P, sizeof *sum);
  if (!up || !comp || !ids || !loc || !start || !lambda || !sum) {
    rc = core_error(MINEX_ENOMEM, "flow: out of memory for %d processors",
                    (int)nprocs);
    goto out;
  }
  for (int32_t p = 0; p < nprocs; p++)
    up[p] = p;
  for (int64_t i = 0; i < ne; i++) {
    int32_t a = find(up, e[i].p), b = find(up, e[i].q);
    if (a != b)
      up[a > b ? a : b] = a < b ? a : b;
  }
  /* components numbered by their smallest processor; their processors in
     id order (ids[start[c] ..]) */
  int32_t nc = 0;
  for (int32_t p = 0; p < nprocs; p++) {
    int32_t r = find(up, p);
    comp[p] = r == p ? nc++ : comp[r];
    start[comp[p] + 1]++;
    sum[comp[p]] += excess[p];
  }
  for (int32_t c = 0; c < nc; c++)
    start[c + 1] += start[c];
  int32_t *next = up; /* the union-find is done: a cursor per component */
  for (int32_t c = 0; c < nc; c++)
    next[c] = start[c];
  for (int32_t p = 0; p < nprocs; p++) {
    int32_t c = comp[p];
    loc[p] = next[c] - start[c];
    ids[next[c]++] = p;
  }
  flow_graph fg = {e, ne, loc, comp};
  for (int32_t c = 0; c < nc && rc == MINEX_OK; c++) {
    int32_t s = start[c + 1] - start[c];
    rc = component_potentials(&fg, ids + start[c], s, c, excess, sum[c] / s,
                              lambda);
  }
  if (rc != MINEX_OK)
    goto out;
  for (int64_t i = 0; i < ne; i++)
    flow[i] = e[i].w * (lambda[e[i].p] - lambda[e[i].q]);
  for (int32_t p = 0; unrouted != NULL && p < nprocs; p++) {
    int32_t s = start[comp[p] + 1] - start[comp[p]];
    unrouted[p] = sum[comp[p]] / s;
  }
out:
  core_free(up), core_free(comp), core_free(ids), core_free(loc);
  core_free(start), core_free(lambda), core_free(sum);
  return rc;
}

static int qedge_cmp(const void *a, const void *b) {
  const partition_qedge *x = a, *y = b;
  if (x->p != y->p)
    return x->p < y->p ? -1 : 1;
  return (x->q > y->q) - (x->q < y->q);
}

int partition_quotient(const minex_graph *g, const int32_t *part,
                       int32_t nprocs, partition_qedge **edges, int64_t *ne) {
  *edges = NULL;
  *ne = 0;
  int64_t cut = 0;
  for (int32_t v = 0; v < g->nvtxs; v++) {
    if (part[v] < 0 || part[v] >= nprocs)
      return core_error(MINEX_EINVAL,
                        "quotient: vertex %d is on processor %d, not in "
                        "[0, %d)",
                        (int)v, (int)part[v], (int)nprocs);
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
      cut += g->adjncy[j] > v && part[g->adjncy[j]] != part[v];
  }
  partition_qedge *e = core_malloc(sizeof *e * ((size_t)cut + 1));
  if (e == NULL)
    return core_error(MINEX_ENOMEM, "quotient: out of memory for %lld edges",
                      (long long)cut);
  int64_t k = 0;
  for (int32_t v = 0; v < g->nvtxs; v++)
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t u = g->adjncy[j], a = part[v], b = part[u];
      if (u > v && a != b)
        e[k++] = (partition_qedge){a < b ? a : b, a < b ? b : a, g->cwgt[j]};
    }
  qsort(e, (size_t)k, sizeof *e, qedge_cmp);
  /* one edge per pair, its Cwgt summed in the sorted order */
  int64_t m = 0;
  for (int64_t i = 0; i < k; i++) {
    if (m > 0 && e[m - 1].p == e[i].p && e[m - 1].q == e[i].q)
      e[m - 1].w += e[i].w;
    else
      e[m++] = e[i];
  }
  *edges = e;
  *ne = m;
  return MINEX_OK;
}

int partition_excess(const minex_graph *g, const minex_config *cfg,
                     const int32_t *part, double *excess) {
  int32_t P = cfg->nprocs;
  double total = 0, speed = 0;
  for (int32_t p = 0; p < P; p++) {
    excess[p] = 0;
    if (cfg->avail[p])
      speed += 1.0 / cfg->proc[cfg->cluster[p]];
  }
  if (speed <= 0)
    return core_error(MINEX_ENOPROC, "excess: no processor is available");
  for (int32_t v = 0; v < g->nvtxs; v++) {
    if (part[v] < 0 || part[v] >= P)
      return core_error(MINEX_EINVAL,
                        "excess: vertex %d is on processor %d, not in "
                        "[0, %d)",
                        (int)v, (int)part[v], (int)P);
    excess[part[v]] += g->pwgt[v];
    total += g->pwgt[v];
  }
  for (int32_t p = 0; p < P; p++)
    if (cfg->avail[p])
      excess[p] -= total * (1.0 / cfg->proc[cfg->cluster[p]]) / speed;
  return MINEX_OK;
}

/* An arc of the flow: amount from s to t. */
typedef struct flow_arc {
  int32_t s, t;
  double amount;
} flow_arc;

static int arc_cmp(const void *a, const void *b) {
  const flow_arc *x = a, *y = b;
  if (x->s != y->s)
    return x->s < y->s ? -1 : 1;
  return (x->t > y->t) - (x->t < y->t);
}

/* Cwgt of v's edges to processor t minus those to its own processor s. */
static double flow_key(const minex_graph *g, const int32_t *part, int32_t v,
                       int32_t s, int32_t t) {
  double d = 0;
  for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
    int32_t o = part[g->adjncy[j]];
    d += o == t ? g->cwgt[j] : o == s ? -g->cwgt[j] : 0;
  }
  return -d; /* the heap pops the smallest key */
}

/* The processors in the flow's topological order (order[0..P)): Kahn's
 * algorithm, the ready ones in id order. The flow of partition_flow is a
 * potential flow, so acyclic. */
static int arcs_order(int32_t P, const flow_arc *a, int64_t na,
                      const int64_t *first, int32_t *order) {
  int32_t *indeg = core_calloc((size_t)P, sizeof *indeg);
  if (indeg == NULL)
    return core_error(MINEX_ENOMEM, "flow: out of memory");
  for (int64_t i = 0; i < na; i++)
    indeg[a[i].t]++;
  int32_t head = 0, tail = 0;
  for (int32_t p = 0; p < P; p++)
    if (indeg[p] == 0)
      order[tail++] = p;
  while (head < tail) {
    int32_t p = order[head++];
    for (int64_t i = first[p]; i < first[p + 1]; i++)
      if (--indeg[a[i].t] == 0)
        order[tail++] = a[i].t;
  }
  core_free(indeg);
  return tail == P ? MINEX_OK
                   : core_error(MINEX_EINTERNAL, "flow: the flow has a cycle");
}

/* A processor's vertices: its own, then those it receives. */
typedef struct vlist {
  int32_t *v;
  int32_t n, cap;
} vlist;

/* Fills arc a with src's vertices (those still on a->s) next to a->t,
 * appending each moved vertex to dst. Returns the moves. */
static int64_t fill_arc(const minex_graph *g, int32_t *part, partition_heap *h,
                        const vlist *src, const flow_arc *a, vlist *dst) {
  int32_t s = a->s, t = a->t;
  for (int32_t k = 0; k < src->n; k++) {
    int32_t v = src->v[k];
    if (part[v] != s)
      continue;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
      if (part[g->adjncy[j]] == t) {
        partition_heap_set(h, v, flow_key(g, part, v, s, t), 0);
        break;
      }
  }
  double done = 0;
  int64_t moved = 0;
  int32_t v;
  while (done < a->amount && (v = partition_heap_pop(h)) >= 0) {
    if (done + 0.5 * g->pwgt[v] > a->amount)
      continue;
    part[v] = t;
    done += g->pwgt[v];
    moved++;
    dst->v[dst->n++] = v;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t u = g->adjncy[j];
      if (part[u] == s)
        partition_heap_set(h, u, flow_key(g, part, u, s, t), 0);
    }
  }
  while (partition_heap_pop(h) >= 0)
    ;
  return moved;
}

int partition_flow_moves(const minex_graph *g, int32_t nprocs, int32_t *part,
                         const partition_qedge *e, int64_t ne,
                         const double *flow, int64_t *moved) {
  *moved = 0;
  int32_t n = g->nvtxs, P = nprocs;
  for (int32_t v = 0; v < n; v++)
    if (part[v] < 0 || part[v] >= P)
      return core_error(MINEX_EINVAL,
                        "flow moves: vertex %d is on processor %d, not in "
                        "[0, %d)",
                        (int)v, (int)part[v], (int)P);
  for (int64_t i = 0; i < ne; i++)
    if (e[i].p < 0 || e[i].p >= P || e[i].q < 0 || e[i].q >= P ||
        !isfinite(flow[i]))
      return core_error(MINEX_EINVAL, "flow moves: edge %lld (%d, %d, flow %g)",
                        (long long)i, (int)e[i].p, (int)e[i].q, flow[i]);
  flow_arc *a = core_malloc(sizeof *a * ((size_t)ne + 1));
  int64_t *first = core_calloc((size_t)P + 1, sizeof *first);
  int32_t *order = core_malloc(sizeof *order * ((size_t)P + 1));
  vlist *vl = core_calloc((size_t)P + 1, sizeof *vl);
  partition_heap h;
  memset(&h, 0, sizeof h);
  int rc = a && first && order && vl
               ? partition_heap_create(&h, n, n)
               : core_error(MINEX_ENOMEM, "flow moves: out of memory");
  int64_t na = 0;
  for (int64_t i = 0; rc == MINEX_OK && i < ne; i++)
    if (flow[i] != 0)
      a[na++] = flow[i] > 0 ? (flow_arc){e[i].p, e[i].q, flow[i]}
                            : (flow_arc){e[i].q, e[i].p, -flow[i]};
  if (rc == MINEX_OK) {
    qsort(a, (size_t)na, sizeof *a, arc_cmp);
    for (int64_t i = 0; i < na; i++)
      first[a[i].s + 1]++;
    for (int32_t p = 0; p < P; p++)
      first[p + 1] += first[p];
    rc = arcs_order(P, a, na, first, order);
  }
  for (int32_t v = 0; rc == MINEX_OK && v < n; v++)
    vl[part[v]].cap++;
  for (int32_t p = 0; rc == MINEX_OK && p < P; p++)
    if ((vl[p].v = core_malloc(sizeof(int32_t) * ((size_t)vl[p].cap + 1))) ==
        NULL)
      rc = core_error(MINEX_ENOMEM, "flow moves: out of memory");
  for (int32_t v = 0; rc == MINEX_OK && v < n; v++)
    vl[part[v]].v[vl[part[v]].n++] = v;
  for (int32_t k = 0; rc == MINEX_OK && k < P; k++) {
    int32_t s = order[k];
    for (int64_t i = first[s]; rc == MINEX_OK && i < first[s + 1]; i++) {
      vlist *t = &vl[a[i].t];
      if (t->n + vl[s].n > t->cap) { /* room for all of s's vertices */
        int32_t cap = t->n + vl[s].n + 16;
        int32_t *b = core_realloc(t->v, sizeof(int32_t) * (size_t)cap);
        if (b == NULL) {
          rc = core_error(MINEX_ENOMEM, "flow moves: out of memory");
          break;
        }
        t->v = b, t->cap = cap;
      }
      *moved += fill_arc(g, part, &h, &vl[s], &a[i], t);
    }
  }
  partition_heap_destroy(&h);
  for (int32_t p = 0; vl != NULL && p < P; p++)
    core_free(vl[p].v);
  core_free(a), core_free(first), core_free(order), core_free(vl);
  return rc;
}

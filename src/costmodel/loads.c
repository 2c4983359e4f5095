/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Per-processor loads Wgt, Comm, Remap, Qwgt (SPEC §2, paper §2.3) with a
 * min segment tree over the available processors, so that MinQwgt before
 * and after a move is found in O(log P). */
#include "costmodel/costmodel.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int lighter(const costmodel_loads *ld, int32_t a, int32_t b) {
  return ld->qwgt[a] < ld->qwgt[b] || (ld->qwgt[a] == ld->qwgt[b] && a < b);
}

void costmodel_low_rebuild(costmodel_loads *ld) {
  int32_t k = 0;
  for (int32_t p = 0; p < ld->nprocs; p++) {
    if (!ld->cfg->avail[p])
      continue;
    if (k == COSTMODEL_NLOW && !lighter(ld, p, ld->low[k - 1]))
      continue;
    int32_t i = k < COSTMODEL_NLOW ? k++ : k - 1;
    while (i > 0 && lighter(ld, p, ld->low[i - 1])) {
      ld->low[i] = ld->low[i - 1];
      i--;
    }
    ld->low[i] = p;
  }
  ld->nlow = k;
}

void costmodel_tree_set(costmodel_loads *ld, int32_t p, double q) {
  int32_t i = ld->tsize + p;
  ld->tree[i] = q;
  for (i >>= 1; i >= 1; i >>= 1) {
    double a = ld->tree[2 * i], b = ld->tree[2 * i + 1];
    ld->tree[i] = a < b ? a : b;
  }
}

void costmodel_resync(costmodel_loads *ld) {
  ld->qwgt_tot = ld->qwgt_tot_mag = 0;
  ld->tree[0] = INFINITY; /* unused slot, kept defined: states compare bytes */
  for (int32_t p = 0; p < ld->tsize; p++) {
    int on = p < ld->nprocs && ld->cfg->avail[p];
    if (on) {
      ld->qwgt_tot += ld->qwgt[p];
      ld->qwgt_tot_mag += fabs(ld->qwgt_tot);
    }
    ld->tree[ld->tsize + p] = on ? ld->qwgt[p] : INFINITY;
  }
  for (int32_t i = ld->tsize - 1; i >= 1; i--) {
    double a = ld->tree[2 * i], b = ld->tree[2 * i + 1];
    ld->tree[i] = a < b ? a : b;
  }
  costmodel_low_rebuild(ld);
}

int32_t costmodel_argmin(const costmodel_loads *ld, double *min_out) {
  if (min_out)
    *min_out = ld->tree[1];
  return ld->nlow > 0 ? ld->low[0] : -1;
}

/* SPEC §2 requires finite loads and a Qwgt that is finite, >= 0 and
 * non-decreasing in each argument. The sums overflow only for weights near
 * DBL_MAX; a user qwgt_fn is checked where it is called from scratch, and
 * spot-checked for monotonicity at twice each argument. */
static int check_qwgt(const costmodel_loads *ld, int32_t p) {
  double w = ld->wgt[p], c = ld->comm[p], r = ld->remap[p], q = ld->qwgt[p];
  double iu = ld->inv_unit; /* messages in the caller's units */
  if (!isfinite(w) || !isfinite(c) || !isfinite(r)) {
    if (ld->unit != 1)
      return core_error(MINEX_EINVAL,
                        "cost model: processor %d has Wgt %g, Comm %g, "
                        "Remap %g in units of 2^%d: the weights span too "
                        "many orders of magnitude to be normalised",
                        (int)p, w, c, r, ilogb(iu));
    return core_error(MINEX_EINVAL,
                      "cost model: processor %d has Wgt %g, "
                      "Comm %g, Remap %g: the weights are too large (their "
                      "sums overflow)",
                      (int)p, w, c, r);
  }
  if (!isfinite(q) || q < 0)
    return core_error(MINEX_EINVAL,
                      "%s returned %g for processor %d (Wgt "
                      "%g, Comm %g, Remap %g): it must be finite and >= 0",
                      ld->fn ? "options.qwgt_fn" : "the cost model", q * iu,
                      (int)p, w * iu, c * iu, r * iu);
  if (ld->fn == NULL)
    return MINEX_OK;
  const double arg[3][3] = {{2 * w, c, r}, {w, 2 * c, r}, {w, c, 2 * r}};
  static const char *const name[3] = {"Wgt", "Comm", "Remap"};
  for (int k = 0; k < 3; k++) {
    double q2 = costmodel_qwgt(ld, arg[k][0], arg[k][1], arg[k][2]);
    if (!(q2 >= q) && isfinite(arg[k][k]))
      return core_error(MINEX_EINVAL,
                        "options.qwgt_fn decreases in %s: "
                        "%g at (Wgt %g, Comm %g, Remap %g), %g with %s "
                        "doubled (processor %d); SPEC §2 requires a "
                        "non-decreasing function",
                        name[k], q * iu, w * iu, c * iu, r * iu, q2 * iu,
                        name[k], (int)p);
  }
  return MINEX_OK;
}

int costmodel_loads_create(costmodel_loads *ld, const minex_graph *g,
                           const minex_config *cfg, const int32_t *old,
                           const int32_t *part, const minex_options *opt) {
  costmodel_problem pb = {g, cfg, old, opt, 1.0};
  return costmodel_loads_create_k(
      ld, &pb, part, opt->iterations > 1 ? (double)opt->iterations : 1.0);
}

/* The loads of P processors with nothing on them yet (costmodel_loads_refresh
 * completes them). */
static int loads_alloc(costmodel_loads *ld, const minex_config *cfg,
                       const minex_options *opt, double k, double unit) {
  memset(ld, 0, sizeof *ld);
  int32_t P = cfg->nprocs;
  ld->cfg = cfg;
  ld->alpha = opt->alpha;
  ld->iters = k;
  ld->unit = unit;
  ld->inv_unit = 1 / unit;
  ld->mode = opt->remap_mode;
  ld->fn = opt->qwgt_fn;
  ld->fn_ctx = opt->qwgt_ctx;
  ld->nprocs = P;
  ld->navail = cfg->navail;
  ld->tsize = 1;
  while (ld->tsize < P)
    ld->tsize *= 2;
  size_t np = (size_t)P;
  ld->wgt = core_calloc(np, sizeof(double));
  ld->comm = core_calloc(np, sizeof(double));
  ld->remap = core_calloc(np, sizeof(double));
  ld->qwgt = core_calloc(np, sizeof(double));
  ld->tree = core_malloc(sizeof(double) * 2 * (size_t)ld->tsize);
  if (!ld->wgt || !ld->comm || !ld->remap || !ld->qwgt || !ld->tree ||
      costmodel_scratch_create(&ld->mv, P) != MINEX_OK) {
    costmodel_loads_destroy(ld);
    return core_error(MINEX_ENOMEM,
                      "cost model: out of memory for %d "
                      "processors",
                      (int)P);
  }
  return MINEX_OK;
}

/* Vertex v's share of the loads of pb, part[] its processor, into w, c,
 * r. */
static void vertex_loads(const costmodel_problem *pb, const int32_t *part,
                         int32_t v, double *w, double *c, double *r) {
  const minex_graph *g = pb->g;
  const minex_config *cfg = pb->cfg;
  const int32_t *old = pb->old;
  int mode = pb->opt->remap_mode;
  double unit = pb->unit;
  const int32_t *cl = cfg->cluster;
  const double *conn = cfg->conn;
  size_t C = (size_t)cfg->nclusters;
  /* each weight into the unit first: exact, as in costmodel_eval_move */
  int32_t p = part[v], cp = cl[p];
  w[p] += g->pwgt[v] * unit * cfg->proc[cp];
  for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
    int32_t q = part[g->adjncy[j]];
    if (q != p)
      c[p] += g->cwgt[j] * unit * conn[(size_t)cp * C + (size_t)cl[q]];
  }
  int32_t o = old[v];
  if (o != p) {
    double rc = g->rwgt[v] * unit * conn[(size_t)cl[o] * C + (size_t)cp];
    if (mode != MINEX_REMAP_SENDER)
      r[p] += rc;
    if (mode != MINEX_REMAP_RECEIVER)
      r[o] += rc;
  }
}

int costmodel_loads_create_k(costmodel_loads *ld, const costmodel_problem *pb,
                             const int32_t *part, double k) {
  int rc = loads_alloc(ld, pb->cfg, pb->opt, k, pb->unit);
  if (rc != MINEX_OK)
    return rc;
  for (int32_t v = 0; v < pb->g->nvtxs; v++)
    vertex_loads(pb, part, v, ld->wgt, ld->comm, ld->remap);
  return costmodel_loads_refresh(ld);
}

static int proc_cmp(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The partials of the runs of vertices v in [lo, hi) (lo starts a run,
 * hi ends one) into *out (*len entries, *cap allocated; grown here). */
static int run_partials_range(const costmodel_problem *pb, const int32_t *part,
                              int32_t lo, int32_t hi, costmodel_partial **out,
                              int64_t *len, int64_t *cap) {
  const int32_t *old = pb->old;
  int32_t P = pb->cfg->nprocs;
  double *acc = core_calloc(3 * (size_t)P + 1, sizeof *acc);
  int32_t *seen = core_calloc((size_t)P + 1, sizeof *seen);
  int32_t *touched = core_malloc(sizeof *touched * ((size_t)P + 1));
  if (!acc || !seen || !touched) {
    core_free(acc), core_free(seen), core_free(touched);
    return MINEX_ENOMEM;
  }
  double *w = acc, *c = acc + P, *r = acc + 2 * (size_t)P;
  int32_t stamp = 0;
  int rc = MINEX_OK;
  for (int32_t v = lo; v < hi && rc == MINEX_OK;) {
    /* one run of vertices of the same old owner */
    int32_t e = v + 1;
    while (e < hi && old[e] == old[v])
      e++;
    stamp++;
    int32_t nt = 0;
    for (int32_t x = v; x < e; x++) {
      int32_t p = part[x], o = old[x];
      if (seen[p] != stamp)
        seen[p] = stamp, touched[nt++] = p;
      if (o != p && seen[o] != stamp)
        seen[o] = stamp, touched[nt++] = o;
      vertex_loads(pb, part, x, w, c, r);
    }
    qsort(touched, (size_t)nt, sizeof *touched, proc_cmp);
    if (*len + nt > *cap) {
      int64_t k = *cap > 0 ? *cap : 16;
      while (*len + nt > k)
        k *= 2;
      costmodel_partial *b = core_realloc(*out, sizeof **out * (size_t)k);
      if (b == NULL) {
        rc = MINEX_ENOMEM;
        break;
      }
      *out = b;
      *cap = k;
    }
    for (int32_t i = 0; i < nt; i++) {
      int32_t p = touched[i];
      (*out)[(*len)++] = (costmodel_partial){p, 0, {w[p], c[p], r[p]}};
      w[p] = c[p] = r[p] = 0;
    }
    v = e;
  }
  core_free(acc), core_free(seen), core_free(touched);
  return rc;
}

/* Vertices per chunk of runs summed on one thread: a run's partials do not
 * depend on the chunk it is in, so the result is the same on any number
 * of threads. */
#define RUN_CHUNK 65536

int costmodel_run_partials(const costmodel_problem *pb, const int32_t *part,
                           costmodel_partial **out, int64_t *nout) {
  const int32_t *old = pb->old;
  int32_t n = pb->g->nvtxs;
  int nt = pb->opt != NULL && pb->opt->nthreads > 1 ? pb->opt->nthreads : 1;
  *out = NULL;
  *nout = 0;
  /* chunk boundaries at the first run start at or after each multiple of
     RUN_CHUNK */
  int32_t nch = n / RUN_CHUNK + 1;
  int32_t *lo = core_malloc(sizeof *lo * ((size_t)nch + 1));
  costmodel_partial **pt = core_calloc((size_t)nch, sizeof *pt);
  int64_t *len = core_calloc((size_t)nch, sizeof *len);
  int64_t *cap = core_calloc((size_t)nch, sizeof *cap);
  int rc = lo && pt && len && cap ? MINEX_OK : MINEX_ENOMEM;
  int32_t k = 0;
  if (rc == MINEX_OK) {
    for (int32_t i = 0; i < nch; i++) {
      int32_t v = (int32_t)((int64_t)i * RUN_CHUNK);
      if (v > n)
        v = n;
      while (v > 0 && v < n && old[v] == old[v - 1])
        v++;
      if (k == 0 || v > lo[k - 1])
        lo[k++] = v;
    }
    if (lo[k - 1] < n)
      lo[k++] = n;
  }
  int32_t nrange = rc == MINEX_OK ? k - 1 : 0;
  int failed = 0;
#pragma omp parallel for schedule(dynamic, 1)                                  \
    num_threads(nt) if (nt > 1 && nrange > 1) reduction(|                      \
                                                        : failed)
  for (int32_t i = 0; i < nrange; i++)
    failed |= run_partials_range(pb, part, lo[i], lo[i + 1], &pt[i], &len[i],
                                 &cap[i]) != MINEX_OK;
  int64_t total = 0;
  for (int32_t i = 0; i < nrange; i++)
    total += len[i];
  costmodel_partial *all = NULL;
  if (rc == MINEX_OK && !failed &&
      (all = core_malloc(sizeof *all * ((size_t)total + 1))) != NULL) {
    int64_t at = 0;
    for (int32_t i = 0; i < nrange; i++) {
      if (len[i] > 0)
        memcpy(all + at, pt[i], sizeof *all * (size_t)len[i]);
      at += len[i];
    }
  }
  for (int32_t i = 0; pt != NULL && i < nrange; i++)
    core_free(pt[i]);
  core_free(lo), core_free(pt), core_free(len), core_free(cap);
  if (all == NULL)
    return core_error(MINEX_ENOMEM,
                      "cost model: out of memory for the partial loads of "
                      "%d processors",
                      (int)pb->cfg->nprocs);
  *out = all;
  *nout = total;
  return MINEX_OK;
}

int costmodel_loads_from_partials(costmodel_loads *ld, const minex_config *cfg,
                                  const minex_options *opt, double k,
                                  double unit, const costmodel_partial *pt,
                                  int64_t n) {
  int rc = loads_alloc(ld, cfg, opt, k, unit);
  if (rc != MINEX_OK)
    return rc;
  for (int64_t i = 0; i < n; i++) {
    int32_t p = pt[i].proc;
    if (p < 0 || p >= cfg->nprocs) {
      costmodel_loads_destroy(ld);
      return core_error(MINEX_EINTERNAL,
                        "cost model: a partial load of processor %d of %d",
                        (int)p, (int)cfg->nprocs);
    }
    ld->wgt[p] += pt[i].sum.wgt;
    ld->comm[p] += pt[i].sum.comm;
    ld->remap[p] += pt[i].sum.remap;
  }
  return costmodel_loads_refresh(ld);
}

int costmodel_loads_create_runs(costmodel_loads *ld,
                                const costmodel_problem *pb,
                                const int32_t *part, double k) {
  costmodel_partial *pt;
  int64_t n;
  memset(ld, 0, sizeof *ld);
  int rc = costmodel_run_partials(pb, part, &pt, &n);
  if (rc != MINEX_OK)
    return rc;
  rc = costmodel_loads_from_partials(ld, pb->cfg, pb->opt, k, pb->unit, pt, n);
  core_free(pt);
  return rc;
}

int costmodel_loads_refresh(costmodel_loads *ld) {
  const minex_config *cfg = ld->cfg;
  int32_t P = ld->nprocs;
  double k = ld->iters;
  double qmax = 0;
  for (int32_t p = 0; p < P; p++) {
    ld->qwgt[p] = costmodel_qwgt(ld, ld->wgt[p], ld->comm[p], ld->remap[p]);
    int rc = check_qwgt(ld, p);
    if (rc != MINEX_OK) {
      costmodel_loads_destroy(ld);
      return rc;
    }
    if (cfg->avail[p] && ld->qwgt[p] > qmax)
      qmax = ld->qwgt[p];
  }
  /* QwgtTot, the min tree and the least-loaded list from Qwgt */
  costmodel_resync(ld);
  /* MinVar sums P squares of loads: it must stay finite, or every dMinVar
     is NaN and no move is ever admissible (and metrics.min_var, in the
     caller's units, is not a number). The loads count Wgt and Comm k
     times: the advice says by how much to divide the weights, or k. */
  double na = (double)(ld->navail > 0 ? ld->navail : 1);
  if (!isfinite(ld->qwgt_tot) || !isfinite(qmax * qmax * na)) {
    double limit = sqrt(DBL_MAX / na), iu = ld->inv_unit;
    costmodel_loads_destroy(ld);
    return core_error(
        MINEX_EINVAL,
        "cost model: loads up to %g under the horizon k = %g "
        "(k x Wgt, k x Comm, plus Remap) overflow MinVar: the "
        "sum of the squares of %d loads must stay below "
        "DBL_MAX, so loads below ~%.2g. The weights are too large for this "
        "horizon: divide them by at least %.2g, or shorten "
        "the horizon (options.iterations, --iters)",
        qmax * iu, k, (int)na, limit * iu, 2 * qmax / limit);
  }
  return MINEX_OK;
}

void costmodel_unit_sums(const minex_graph *g, const int32_t *part,
                         double *sums) {
  for (int32_t v = 0; v < g->nvtxs; v++) {
    double *s = sums + 3 * (size_t)part[v];
    s[0] += g->pwgt[v];
    s[1] += g->rwgt[v];
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
      s[2] += g->cwgt[j];
  }
}

int costmodel_unit(const minex_graph *g, const minex_config *cfg,
                   const int32_t *old, const minex_options *opt, double *unit) {
  /* old's loads run by run (one run per part in the call's layout: the
     sums of costmodel_loads_create, on the call's threads) */
  costmodel_loads ld;
  costmodel_problem pb = {g, cfg, old, opt, 1.0};
  int rc = costmodel_loads_create_runs(
      &ld, &pb, old, opt->iterations > 1 ? (double)opt->iterations : 1.0);
  if (rc != MINEX_OK)
    return rc;
  double *sums = core_calloc(3 * (size_t)cfg->nprocs + 1, sizeof *sums);
  if (sums == NULL) {
    costmodel_loads_destroy(&ld);
    return core_error(MINEX_ENOMEM, "cost model: out of memory");
  }
  costmodel_unit_sums(g, old, sums);
  costmodel_unit_from(&ld, sums, unit);
  core_free(sums);
  costmodel_loads_destroy(&ld);
  return MINEX_OK;
}

void costmodel_unit_from(const costmodel_loads *ld, const double *sums,
                         double *unit) {
  const minex_config *cfg = ld->cfg;
  double tot = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    tot += ld->qwgt[p];
  double mean = ld->nprocs > 0 ? tot / ld->nprocs : 0, k = ld->iters;
  int32_t ld_nprocs = ld->nprocs;
  /* an upper bound of any load of any partition, in the caller's units:
     every vertex's processing, remapping and communication on one
     processor at the largest slowdowns (a partition the candidates may
     reach, e.g. a remapping 1e60 times heavier than the old loads); the
     sums per old part first, then in part order, so that processes that
     hold whole parts find the same figures */
  double wp = 0, wr = 0, wc = 0, sp = 0, sc = 0;
  for (int32_t p = 0; p < ld->nprocs; p++) {
    wp += sums[3 * (size_t)p];
    wr += sums[3 * (size_t)p + 1];
    wc += sums[3 * (size_t)p + 2];
  }
  for (int32_t c = 0; c < cfg->nclusters; c++)
    sp = fmax(sp, cfg->proc[c]);
  for (size_t i = 0; i < (size_t)cfg->nclusters * (size_t)cfg->nclusters; i++)
    sc = fmax(sc, cfg->conn[i]);
  double big = k * wp * sp + wr * sc + k * wc * sc;
  /* the unit brings the old mean load into [1, 2), unless that would let
     a load reach 2^480 / sqrt(P): then MinVar's sum of P squares could
     overflow where the caller's units do not (found by the repartition
     fuzzer: tiny old loads, a remapping of 1e62) */
  int e = mean > 0 && isfinite(mean) ? -ilogb(mean) : 0;
  int cap = 480 - (ilogb((double)(ld_nprocs > 0 ? ld_nprocs : 1)) + 1) / 2;
  if (big > 0 && isfinite(big) && e > cap - ilogb(big))
    e = cap - ilogb(big);
  e = e > 1000 ? 1000 : e < -1000 ? -1000 : e;
  *unit = ldexp(1.0, e);
}

void costmodel_loads_destroy(costmodel_loads *ld) {
  core_free(ld->wgt);
  core_free(ld->comm);
  core_free(ld->remap);
  core_free(ld->qwgt);
  costmodel_scratch_destroy(&ld->mv);
  core_free(ld->tree);
  memset(ld, 0, sizeof *ld);
}

int costmodel_scratch_create(costmodel_scratch *s, int32_t nprocs) {
  memset(s, 0, sizeof *s);
  size_t np = (size_t)(nprocs > 0 ? nprocs : 1);
  s->dwgt = core_calloc(np, sizeof(double));
  s->dcomm = core_calloc(np, sizeof(double));
  s->dremap = core_calloc(np, sizeof(double));
  s->qnew = core_calloc(np, sizeof(double));
  s->stamp = core_calloc(np, sizeof(int32_t));
  s->touched = core_calloc(np, sizeof(int32_t));
  if (!s->dwgt || !s->dcomm || !s->dremap || !s->qnew || !s->stamp ||
      !s->touched) {
    costmodel_scratch_destroy(s);
    return core_error(MINEX_ENOMEM,
                      "cost model: out of memory for the move scratch of %d "
                      "processors",
                      (int)nprocs);
  }
  return MINEX_OK;
}

void costmodel_scratch_destroy(costmodel_scratch *s) {
  core_free(s->dwgt);
  core_free(s->dcomm);
  core_free(s->dremap);
  core_free(s->qnew);
  core_free(s->stamp);
  core_free(s->touched);
  memset(s, 0, sizeof *s);
}

double costmodel_min_var(const costmodel_loads *ld) {
  double m = INFINITY, s = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p] && ld->qwgt[p] < m)
      m = ld->qwgt[p];
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p])
      s += (ld->qwgt[p] - m) * (ld->qwgt[p] - m);
  return s;
}

int costmodel_loads_check(const costmodel_loads *ld) {
  /* The recomputed Qwgt takes the same operations on the same operands as
     the running one, so they differ only by a user function's drift; the
     running QwgtTot has rounded at most DBL_EPSILON / 2 times the
     magnitudes summed into it (partial sums and deltas), and the
     recomputation as much of its own partial sums. Both bounds are
     relative: no weight scale is too small or too large for them. */
  double tot = 0, mag = 0;
  for (int32_t p = 0; p < ld->nprocs; p++) {
    double q = costmodel_qwgt(ld, ld->wgt[p], ld->comm[p], ld->remap[p]);
    if (fabs(q - ld->qwgt[p]) > 1e-9 * fmax(fabs(q), fabs(ld->qwgt[p])))
      return core_error(MINEX_EINTERNAL,
                        "loads: Qwgt^%d = %.17g, recomputed "
                        "%.17g",
                        (int)p, ld->qwgt[p], q);
    double leaf = ld->cfg->avail[p] ? ld->qwgt[p] : INFINITY;
    if (ld->tree[ld->tsize + p] != leaf)
      return core_error(MINEX_EINTERNAL, "loads: min tree leaf %d stale",
                        (int)p);
    if (ld->cfg->avail[p]) {
      tot += ld->qwgt[p];
      mag += fabs(tot);
    }
  }
  for (int32_t i = 1; i < ld->tsize; i++) {
    double a = ld->tree[2 * i], b = ld->tree[2 * i + 1];
    if (ld->tree[i] != (a < b ? a : b))
      return core_error(MINEX_EINTERNAL,
                        "loads: min tree node %d is not "
                        "the min of its children",
                        (int)i);
  }
  costmodel_loads copy = *ld;
  costmodel_low_rebuild(&copy);
  if (copy.nlow != ld->nlow ||
      memcmp(copy.low, ld->low, sizeof(int32_t) * (size_t)ld->nlow) != 0)
    return core_error(MINEX_EINTERNAL, "loads: least-loaded list is stale");
  /* twice the proven bound: a real error in a Gain is far above it */
  double tol = DBL_EPSILON * (ld->qwgt_tot_mag + mag);
  if (!(fabs(tot - ld->qwgt_tot) <= tol))
    return core_error(MINEX_EINTERNAL,
                      "loads: QwgtTot %.17g, recomputed %.17g "
                      "(difference %g above the rounding bound %g)",
                      ld->qwgt_tot, tot, fabs(tot - ld->qwgt_tot), tol);
  return MINEX_OK;
}

size_t costmodel_state_size(const costmodel_loads *ld) {
  return sizeof(double) * (4 * (size_t)ld->nprocs + 2 * (size_t)ld->tsize + 2) +
         sizeof(int32_t) * (COSTMODEL_NLOW + 2);
}

void costmodel_state_put(const costmodel_loads *ld, void *buf) {
  char *p = buf;
  size_t P = (size_t)ld->nprocs, T = 2 * (size_t)ld->tsize;
  const double *arr[4] = {ld->wgt, ld->comm, ld->remap, ld->qwgt};
  for (int i = 0; i < 4; i++, p += sizeof(double) * P)
    memcpy(p, arr[i], sizeof(double) * P);
  memcpy(p, ld->tree, sizeof(double) * T);
  p += sizeof(double) * T;
  double sums[2] = {ld->qwgt_tot, ld->qwgt_tot_mag};
  memcpy(p, sums, sizeof sums);
  p += sizeof sums;
  int32_t nl[2] = {ld->nlow, 0};
  memcpy(p, nl, sizeof nl);
  p += sizeof nl;
  memcpy(p, ld->low, sizeof(int32_t) * COSTMODEL_NLOW);
}

void costmodel_state_get(costmodel_loads *ld, const void *buf) {
  const char *p = buf;
  size_t P = (size_t)ld->nprocs, T = 2 * (size_t)ld->tsize;
  double *arr[4] = {ld->wgt, ld->comm, ld->remap, ld->qwgt};
  for (int i = 0; i < 4; i++, p += sizeof(double) * P)
    memcpy(arr[i], p, sizeof(double) * P);
  memcpy(ld->tree, p, sizeof(double) * T);
  p += sizeof(double) * T;
  double sums[2];
  memcpy(sums, p, sizeof sums);
  p += sizeof sums;
  ld->qwgt_tot = sums[0];
  ld->qwgt_tot_mag = sums[1];
  int32_t nl[2];
  memcpy(nl, p, sizeof nl);
  p += sizeof nl;
  ld->nlow = nl[0];
  memcpy(ld->low, p, sizeof(int32_t) * COSTMODEL_NLOW);
}

int costmodel_snapshot_take(const costmodel_loads *ld, costmodel_snapshot *s) {
  s->buf = core_malloc(costmodel_state_size(ld));
  if (s->buf == NULL)
    return core_error(MINEX_ENOMEM, "cost model: out of memory");
  costmodel_state_put(ld, s->buf);
  return MINEX_OK;
}

void costmodel_snapshot_restore(costmodel_loads *ld,
                                const costmodel_snapshot *s) {
  costmodel_state_get(ld, s->buf);
}

void costmodel_snapshot_free(costmodel_snapshot *s) {
  core_free(s->buf);
  s->buf = NULL;
}

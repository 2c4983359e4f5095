/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Load bounds (docs/SPEC.md §3 "Load bounds"): processor p's processing
 * load L_p = sum of Pwgt on p against its target t_p = (sum Pwgt) *
 * (1/Proc_p) / sum_avail (1/Proc_q); upper bound U_p = min(max_imbalance,
 * target_max[p]) * t_p, lower bound target_min[p] * t_p. A serial pass of
 * single-vertex moves, each lowering the load outside the bounds, cheapest
 * first; the same for any number of threads or ranks. */
#include "driver/bound.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bound_active(const minex_options *o) {
  return o != NULL && (o->max_imbalance != 0 || o->target_min != NULL ||
                       o->target_max != NULL);
}

void bound_strip(const minex_options *in, minex_options *out) {
  if (in != NULL)
    *out = *in;
  else
    minex_options_init(out);
  out->max_imbalance = 0;
  out->target_min = NULL;
  out->target_max = NULL;
}

int bound_check(const char *fn, const minex_config *cfg,
                const minex_options *o) {
  if (o == NULL)
    return MINEX_OK;
  if (o->max_imbalance != 0 && !(o->max_imbalance >= 1))
    return core_error(MINEX_EINVAL,
                      "%s: options.max_imbalance = %g (0 (no bound) or >= 1)",
                      fn, o->max_imbalance);
  for (int32_t p = 0; p < cfg->nprocs; p++) {
    double lo = o->target_min != NULL ? o->target_min[p] : 0;
    double hi = o->target_max != NULL ? o->target_max[p] : INFINITY;
    if (!(isfinite(lo) && lo >= 0))
      return core_error(MINEX_EINVAL,
                        "%s: options.target_min[%d] = %g is not finite and "
                        ">= 0",
                        fn, (int)p, lo);
    if (!(hi >= lo))
      return core_error(MINEX_EINVAL,
                        "%s: options.target_max[%d] = %g is below "
                        "target_min[%d] = %g (or NaN)",
                        fn, (int)p, hi, (int)p, lo);
  }
  return MINEX_OK;
}

/* The bounds of every processor, and the loads. */
typedef struct bnd {
  int32_t P;
  double *lo, *hi, *load, *target;
} bnd;

static void bnd_free(bnd *b) {
  core_free(b->lo);
  core_free(b->hi);
  core_free(b->load);
  core_free(b->target);
}

static int bnd_create(bnd *b, const minex_graph *g, const minex_config *cfg,
                      const minex_options *o) {
  int32_t P = cfg->nprocs;
  memset(b, 0, sizeof *b);
  b->P = P;
  b->lo = core_malloc(sizeof(double) * (size_t)P);
  b->hi = core_malloc(sizeof(double) * (size_t)P);
  b->load = core_malloc(sizeof(double) * (size_t)P);
  b->target = core_malloc(sizeof(double) * (size_t)P);
  if (!b->lo || !b->hi || !b->load || !b->target) {
    bnd_free(b);
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory (load "
                                    "bounds)");
  }
  double tot = 0, speed = 0;
  for (int32_t v = 0; v < g->nvtxs; v++)
    tot += g->pwgt[v];
  for (int32_t p = 0; p < P; p++)
    if (cfg->avail[p])
      speed += 1.0 / cfg->proc[cfg->cluster[p]];
  for (int32_t p = 0; p < P; p++) {
    double t =
        cfg->avail[p] ? tot * (1.0 / cfg->proc[cfg->cluster[p]]) / speed : 0;
    double rel = o->max_imbalance > 0 ? o->max_imbalance : INFINITY;
    if (o->target_max != NULL && o->target_max[p] < rel)
      rel = o->target_max[p];
    b->target[p] = t;
    b->hi[p] = cfg->avail[p] ? (isinf(rel) ? INFINITY : rel * t) : 0;
    b->lo[p] =
        cfg->avail[p] && o->target_min != NULL ? o->target_min[p] * t : 0;
  }
  return MINEX_OK;
}

static void bnd_loads(bnd *b, const minex_graph *g, const int32_t *part) {
  for (int32_t p = 0; p < b->P; p++)
    b->load[p] = 0;
  for (int32_t v = 0; v < g->nvtxs; v++)
    b->load[part[v]] += g->pwgt[v];
}

static double excess1(const bnd *b, int32_t p, double l) {
  return (l > b->hi[p] ? l - b->hi[p] : 0) + (l < b->lo[p] ? b->lo[p] - l : 0);
}

/* The load outside the bounds, summed; *ratio the largest L_p / t_p. A
 * bound missed by less than 1e-12 of the total counts as met (the loads
 * are sums of doubles). */
static double bnd_excess(const bnd *b, const minex_graph *g,
                         const int32_t *part, double *ratio) {
  bnd_loads((bnd *)b, g, part);
  double ex = 0, tot = 0, r = 0;
  for (int32_t p = 0; p < b->P; p++)
    tot += b->load[p];
  for (int32_t p = 0; p < b->P; p++) {
    ex += excess1(b, p, b->load[p]);
    if (b->target[p] > 0 && b->load[p] / b->target[p] > r)
      r = b->load[p] / b->target[p];
  }
  if (ratio != NULL)
    *ratio = r;
  return ex <= 1e-12 * tot ? 0 : ex;
}

/* Passes of neighbour moves alone before the most-room candidate joins. */
#define REPAIR_NEAR_PASSES 32

typedef struct bmove {
  double cost;
  int32_t v, q;
} bmove;

static int bmove_cmp(const void *a, const void *b) {
  const bmove *x = a, *y = b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? -1 : 1;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  return (x->q > y->q) - (x->q < y->q);
}

/* The change of the load outside the bounds when v (weight w) moves p->q. */
static double dexcess(const bnd *b, int32_t p, int32_t q, double w) {
  return excess1(b, p, b->load[p] - w) + excess1(b, q, b->load[q] + w) -
         excess1(b, p, b->load[p]) - excess1(b, q, b->load[q]);
}

/* What a move adds to the horizon's cost: k times the cut weight (Conn
 * scaled) it adds, plus the remapping it adds. */
static double move_cost(const minex_graph *g, const minex_config *cfg,
                        const int32_t *old, const int32_t *part, double k,
                        int32_t v, int32_t q) {
  int32_t p = part[v];
  const int32_t *cl = cfg->cluster;
  int32_t C = cfg->nclusters;
  double dc = 0;
  for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
    int32_t w = part[g->adjncy[j]];
    double c = g->cwgt[j];
    if (w != p)
      dc -= c * cfg->conn[(size_t)cl[p] * (size_t)C + (size_t)cl[w]];
    if (w != q)
      dc += c * cfg->conn[(size_t)cl[q] * (size_t)C + (size_t)cl[w]];
  }
  double dr = 0;
  int32_t o = old[v];
  if (q != o)
    dr += g->rwgt[v] * cfg->conn[(size_t)cl[o] * (size_t)C + (size_t)cl[q]];
  if (p != o)
    dr -= g->rwgt[v] * cfg->conn[(size_t)cl[o] * (size_t)C + (size_t)cl[p]];
  return k * dc + dr;
}

/* The repair: passes of moves, each pass's candidates found against the
 * pass's loads, sorted by (cost, vertex, processor) and executed when they
 * still lower the excess. Candidates: a vertex of a processor above its
 * upper bound to each neighbouring owner, and, after REPAIR_NEAR_PASSES
 * passes or once the neighbours' moves stop, to the available processor
 * with the most room under its bound (so that a processor whose
 * neighbours are all full still sheds load); a vertex next to a processor
 * below its lower bound to that processor. */
static int repair(bnd *b, const minex_graph *g, const minex_config *cfg,
                  const int32_t *old, double k, int32_t *part) {
  int32_t n = g->nvtxs, P = cfg->nprocs;
  size_t cap = 1024;
  bmove *mv = core_malloc(sizeof *mv * cap);
  int32_t *seen = core_malloc(sizeof *seen * (size_t)P);
  if (mv == NULL || seen == NULL) {
    core_free(mv);
    core_free(seen);
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory (load "
                                    "bound repair)");
  }
  for (int32_t p = 0; p < P; p++)
    seen[p] = -1;
  int rc = MINEX_OK;
  /* neighbours only (diffusion, layer by layer) for the first passes or
     until they make no progress; then the most-room candidate too, which
     reaches any processor in a few passes */
  int far = 0;
  int64_t maxpass = REPAIR_NEAR_PASSES + 4 * (int64_t)P + 64;
  for (int64_t pass = 0; pass < maxpass; pass++) {
    if (bnd_excess(b, g, part, NULL) == 0)
      break;
    if (pass >= REPAIR_NEAR_PASSES)
      far = 1;
    for (int32_t p = 0; p < P; p++)
      seen[p] = -1;
    int32_t roomy = -1;
    for (int32_t p = 0; far && p < P; p++)
      if (cfg->avail[p] &&
          (roomy < 0 || b->hi[p] - b->load[p] > b->hi[roomy] - b->load[roomy]))
        roomy = p;
    size_t nm = 0;
    for (int32_t v = 0; v < n && rc == MINEX_OK; v++) {
      double w = g->pwgt[v];
      int32_t p = part[v];
      if (!(w > 0))
        continue;
      int over = b->load[p] > b->hi[p];
      for (int64_t j = g->xadj[v]; j <= g->xadj[v + 1]; j++) {
        int32_t q = j < g->xadj[v + 1] ? part[g->adjncy[j]] : roomy;
        if (j == g->xadj[v + 1] && !over)
          break;
        if (q < 0 || q == p || !cfg->avail[q] || seen[q] == v)
          continue;
        seen[q] = v;
        if (!over && !(b->load[q] < b->lo[q]))
          continue;
        if (!(dexcess(b, p, q, w) < 0))
          continue;
        if (nm == cap) {
          bmove *t = core_realloc(mv, sizeof *mv * cap * 2);
          if (t == NULL) {
            rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory "
                                          "(load bound repair)");
            break;
          }
          mv = t;
          cap *= 2;
        }
        mv[nm].v = v;
        mv[nm].q = q;
        mv[nm].cost = move_cost(g, cfg, old, part, k, v, q);
        nm++;
      }
    }
    if (rc != MINEX_OK)
      break;
    if (nm == 0) {
      if (far)
        break;
      far = 1;
      continue;
    }
    qsort(mv, nm, sizeof *mv, bmove_cmp);
    int64_t done = 0;
    for (size_t i = 0; i < nm; i++) {
      int32_t v = mv[i].v, q = mv[i].q, p = part[v];
      double w = g->pwgt[v];
      if (p == q || !(dexcess(b, p, q, w) < 0))
        continue;
      part[v] = q;
      b->load[p] -= w;
      b->load[q] += w;
      done++;
    }
    if (done == 0 && far)
      break;
    far |= done == 0;
  }
  core_free(mv);
  core_free(seen);
  return rc;
}

/* The evaluator's figures of e into m, the rest of m kept. */
static void metrics_eval(minex_metrics *m, const minex_metrics *e) {
  m->max_qwgt = e->max_qwgt;
  m->min_qwgt = e->min_qwgt;
  m->qwgt_tot = e->qwgt_tot;
  m->load_imb = e->load_imb;
  m->min_var = e->min_var;
  m->lower_bound = e->lower_bound;
  m->max_wgt = e->max_wgt;
  m->max_comm = e->max_comm;
  m->max_remap = e->max_remap;
  m->steady_max = e->steady_max;
  m->horizon_time = e->horizon_time;
  m->cut_edges = e->cut_edges;
  m->cut_weight = e->cut_weight;
  m->moved = e->moved;
  m->total_v = e->total_v;
  m->max_v = e->max_v;
  m->stranded = e->stranded;
  m->navailable = e->navailable;
}

int bound_apply(const minex_graph *g, const minex_config *cfg,
                const int32_t *old, const minex_options *o, int32_t *part,
                minex_metrics *metrics) {
  int rc = bound_check("minex_repartition", cfg, o);
  if (rc != MINEX_OK)
    return rc;
  int32_t n = g->nvtxs;
  bnd b;
  if ((rc = bnd_create(&b, g, cfg, o)) != MINEX_OK)
    return rc;
  int32_t *r = core_malloc(sizeof *r * ((size_t)n + 1));
  if (r == NULL) {
    bnd_free(&b);
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory (load "
                                    "bounds)");
  }
  memcpy(r, part, sizeof *r * (size_t)n);
  double k = o->iterations > 0 ? o->iterations : 1;
  minex_metrics mr, mo;
  double ratio_r = 0, ratio_o = 0, ex_r = 0, ex_o = 0;
  if ((rc = repair(&b, g, cfg, old, k, r)) == MINEX_OK)
    rc = minex_evaluate(g, cfg, old, r, o, &mr);
  int all_avail = 1;
  for (int32_t v = 0; v < n && all_avail; v++)
    all_avail = cfg->avail[old[v]];
  if (rc == MINEX_OK)
    ex_r = bnd_excess(&b, g, r, &ratio_r);
  int keep_old = 0;
  if (rc == MINEX_OK && all_avail) {
    ex_o = bnd_excess(&b, g, old, &ratio_o);
    if ((rc = minex_evaluate(g, cfg, old, old, o, &mo)) == MINEX_OK) {
      if (ex_o == 0)
        keep_old = ex_r > 0 || mo.max_qwgt < mr.max_qwgt;
      else
        keep_old = ex_r > 0 && ex_o < ex_r;
    }
  }
  if (rc == MINEX_OK) {
    const int32_t *res = keep_old ? old : r;
    memcpy(part, res, sizeof *part * (size_t)n);
    if (metrics != NULL) {
      metrics_eval(metrics, keep_old ? &mo : &mr);
      metrics->imbalance = keep_old ? ratio_o : ratio_r;
      metrics->bound_excess = keep_old ? ex_o : ex_r;
      metrics->bound_status =
          (keep_old ? ex_o : ex_r) == 0 ? MINEX_BOUND_MET : MINEX_BOUND_MISSED;
      if (keep_old) {
        metrics->returned_old = 1;
        metrics->scratch_used = 0;
      } else {
        int moved_old = 0; /* the inner call returned old, the repair
                              moved it */
        for (int32_t v = 0; v < n && metrics->returned_old && !moved_old; v++)
          moved_old = r[v] != old[v];
        if (moved_old)
          metrics->returned_old = 0;
      }
    }
  }
  core_free(r);
  bnd_free(&b);
  return rc;
}

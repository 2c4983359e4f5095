/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The evaluator (SPEC §2): every metric of (graph, config, old, new) from
 * scratch, so partitions made by other tools are scored by the same rules. */
#include "costmodel/costmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Validates the common arguments of evaluate and repartition. */
int costmodel_check_args(const char *fn, const minex_graph *g,
                         const minex_config *cfg, const int32_t *old,
                         const minex_options *opt) {
  if (g == NULL)
    return core_error(MINEX_EINVAL, "%s: graph is NULL", fn);
  if (cfg == NULL)
    return core_error(MINEX_EINVAL, "%s: config is NULL", fn);
  int rc = core_check_part("old partition", g->nvtxs, old, cfg->nprocs);
  if (rc != MINEX_OK)
    return rc;
  return opt ? core_check_options(opt) : MINEX_OK;
}

void costmodel_metrics_from_loads(const costmodel_loads *ld, minex_metrics *m) {
  const minex_config *cf = ld->cfg;
  m->max_qwgt = 0;
  m->min_qwgt = 0;
  m->navailable = cf->navail;
  double mn = INFINITY, mx = -INFINITY, sum_inv = 0;
  for (int32_t p = 0; p < cf->nprocs; p++) {
    if (!cf->avail[p])
      continue;
    double q = ld->qwgt[p];
    mx = fmax(mx, q);
    mn = fmin(mn, q);
    m->max_wgt = fmax(m->max_wgt, ld->wgt[p]);
    m->max_comm = fmax(m->max_comm, ld->comm[p]);
    m->max_remap = fmax(m->max_remap, ld->remap[p]);
    double steady = costmodel_qwgt_steady(ld, ld->wgt[p], ld->comm[p]);
    /* a user qwgt_fn is checked where loads are built, with Remap; here it
       runs with Remap = 0: a NaN or negative value must not vanish in fmax */
    m->steady_max =
        steady >= 0 && m->steady_max >= 0 ? fmax(m->steady_max, steady) : NAN;
    sum_inv += 1.0 / cf->proc[cf->cluster[p]];
  }
  double tot = 0;
  for (int32_t p = 0; p < cf->nprocs; p++)
    if (cf->avail[p])
      tot += ld->qwgt[p];
  if (cf->navail > 0) {
    m->max_qwgt = mx;
    m->min_qwgt = mn;
    for (int32_t p = 0; p < cf->nprocs; p++)
      if (cf->avail[p])
        m->min_var += (ld->qwgt[p] - mn) * (ld->qwgt[p] - mn);
  }
  m->qwgt_tot = tot;
  m->load_imb = tot > 0 ? cf->navail * mx / tot : 0;
  m->lower_bound = sum_inv; /* divided into sum Pwgt by the caller */
  m->horizon_time = m->max_remap + ld->iters * m->steady_max;
}

double costmodel_loads_max(const costmodel_loads *ld) {
  double m = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p] && ld->qwgt[p] > m)
      m = ld->qwgt[p];
  return m;
}

double costmodel_steady_max(const costmodel_loads *ld) {
  double m = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p])
      m = fmax(m, costmodel_qwgt_steady(ld, ld->wgt[p], ld->comm[p]));
  return m;
}

double costmodel_remap_max(const costmodel_loads *ld) {
  double m = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p])
      m = fmax(m, ld->remap[p]);
  return m;
}

double costmodel_max_qwgt_k(const costmodel_loads *ld, double k) {
  double m = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p])
      m = fmax(m,
               costmodel_qwgt_k(ld, k, ld->wgt[p], ld->comm[p], ld->remap[p]));
  return m;
}

double costmodel_horizon_time(const costmodel_loads *ld, double k) {
  return costmodel_remap_max(ld) + k * costmodel_steady_max(ld);
}

const char *costmodel_metrics_nonfinite(const minex_metrics *m, double *value) {
  const double fields[] = {
      m->max_qwgt,    m->min_qwgt,   m->qwgt_tot,   m->min_var,     m->load_imb,
      m->lower_bound, m->max_wgt,    m->max_comm,   m->max_remap,   m->total_v,
      m->max_v,       m->cut_weight, m->steady_max, m->horizon_time};
  static const char *const names[] = {
      "MaxQwgt", "MinQwgt",    "QwgtTot",   "MinVar",   "LoadImb",
      "LB",      "MaxWgt",     "MaxComm",   "MaxRemap", "TotalV",
      "MaxV",    "cut weight", "SteadyMax", "T_k"};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (!isfinite(fields[i])) {
      *value = fields[i];
      return names[i];
    }
  return NULL;
}

int minex_evaluate(const minex_graph *g, const minex_config *cfg,
                   const int32_t *old, const int32_t *nw,
                   const minex_options *options, minex_metrics *m) {
  core_error_clear();
  int rc = costmodel_check_args("minex_evaluate", g, cfg, old, options);
  if (rc != MINEX_OK)
    return rc;
  if (m == NULL)
    return core_error(MINEX_EINVAL, "minex_evaluate: metrics is NULL");
  if ((rc = core_check_part("new partition", g->nvtxs, nw, cfg->nprocs)))
    return rc;
  minex_options def;
  if (options == NULL) {
    minex_options_init(&def);
    options = &def;
  }
  costmodel_loads ld;
  if ((rc = costmodel_loads_create(&ld, g, cfg, old, nw, options)))
    return rc;
  double *vol = core_calloc((size_t)cfg->nprocs, sizeof(double));
  if (vol == NULL) {
    costmodel_loads_destroy(&ld);
    return core_error(MINEX_ENOMEM, "minex_evaluate: out of memory");
  }
  minex_metrics r;
  memset(&r, 0, sizeof r);
  costmodel_metrics_from_loads(&ld, &r);
  double sum_pwgt = 0;
  for (int32_t v = 0; v < g->nvtxs; v++) {
    sum_pwgt += g->pwgt[v];
    if (nw[v] != old[v]) {
      r.moved++;
      r.total_v += g->rwgt[v];
      vol[nw[v]] += g->rwgt[v];
      vol[old[v]] += g->rwgt[v];
    }
    if (!cfg->avail[nw[v]])
      r.stranded++;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++)
      if (g->adjncy[j] > v && nw[g->adjncy[j]] != nw[v]) {
        r.cut_edges++;
        r.cut_weight += g->cwgt[j];
      }
  }
  for (int32_t p = 0; p < cfg->nprocs; p++)
    if (cfg->avail[p])
      r.max_v = fmax(r.max_v, vol[p]);
  r.lower_bound = r.lower_bound > 0 ? sum_pwgt / r.lower_bound : 0;
  core_free(vol);
  costmodel_loads_destroy(&ld);
  /* the loads are checked finite when they are built; the sums over
     vertices (Rwgt moved, Pwgt for LB) can still overflow on their own */
  double val;
  const char *bad = costmodel_metrics_nonfinite(&r, &val);
  if (bad != NULL)
    return core_error(MINEX_EINVAL,
                      "minex_evaluate: %s is %g: the "
                      "weights are too large (their sums overflow)",
                      bad, val);
  *m = r;
  return MINEX_OK;
}

int minex_evaluate_procs(const minex_graph *g, const minex_config *cfg,
                         const int32_t *old, const int32_t *nw,
                         const minex_options *options, double *wgt,
                         double *comm, double *remap, double *qwgt) {
  core_error_clear();
  int rc = costmodel_check_args("minex_evaluate_procs", g, cfg, old, options);
  if (rc != MINEX_OK)
    return rc;
  if ((rc = core_check_part("new partition", g->nvtxs, nw, cfg->nprocs)))
    return rc;
  minex_options def;
  if (options == NULL) {
    minex_options_init(&def);
    options = &def;
  }
  costmodel_loads ld;
  if ((rc = costmodel_loads_create(&ld, g, cfg, old, nw, options)))
    return rc;
  size_t bytes = sizeof(double) * (size_t)cfg->nprocs;
  if (wgt)
    memcpy(wgt, ld.wgt, bytes);
  if (comm)
    memcpy(comm, ld.comm, bytes);
  if (remap)
    memcpy(remap, ld.remap, bytes);
  if (qwgt)
    memcpy(qwgt, ld.qwgt, bytes);
  costmodel_loads_destroy(&ld);
  return MINEX_OK;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One configuration of the MinEX paper's experiment (§4): the adaptation
 * steps of a workload, repartitioned between them. */
#include "sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_fail(int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sim_error_vset(rc, fmt, ap);
  va_end(ap);
  return rc;
}

int sim_config_make(int32_t P, int32_t C, double I, const double *proc,
                    minex_config **out) {
  *out = NULL;
  if (C < 1 || P < C)
    return sim_fail(MINEX_EINVAL,
                    "machine: %d processors cannot fill %d "
                    "clusters",
                    (int)P, (int)C);
  if (!(I >= 1) || !isfinite(I))
    return sim_fail(MINEX_EINVAL,
                    "machine: interconnect slowdown %g (must "
                    "be >= 1)",
                    I);
  int32_t *np = malloc(sizeof(int32_t) * (size_t)C);
  double *pr = malloc(sizeof(double) * (size_t)C);
  double *conn = malloc(sizeof(double) * (size_t)C * (size_t)C);
  int rc = MINEX_ENOMEM;
  if (np && pr && conn) {
    for (int32_t c = 0; c < C; c++) {
      np[c] = P / C + (c < P % C);
      pr[c] = proc ? proc[c] : 1.0;
      for (int32_t d = 0; d < C; d++)
        conn[(size_t)c * (size_t)C + (size_t)d] = c == d ? 1.0 : I;
    }
    rc = minex_config_create(C, np, pr, conn, out);
    if (rc != MINEX_OK)
      sim_fail(rc, "machine: %s", minex_last_error());
  } else {
    sim_fail(rc, "machine: out of memory");
  }
  free(np);
  free(pr);
  free(conn);
  return rc;
}

void sim_result_free(sim_result *r) {
  if (r == NULL)
    return;
  free(r->steps);
  free(r->qwgt);
  memset(r, 0, sizeof *r);
}

static void fill_step(sim_step *s, const minex_metrics *m, int64_t leaves,
                      double throttle, double seconds) {
  s->leaves = leaves;
  s->max_qwgt = m->max_qwgt;
  s->min_qwgt = m->min_qwgt;
  s->qwgt_tot = m->qwgt_tot;
  s->load_imb = m->load_imb;
  s->lower_bound = m->lower_bound;
  s->cut_edges = m->cut_edges;
  s->cut_weight = m->cut_weight;
  s->moved = m->moved;
  s->total_v = m->total_v;
  s->max_v = m->max_v;
  s->steady_max = m->steady_max;
  s->max_remap = m->max_remap;
  s->horizon_time = m->horizon_time;
  s->throttle_used = throttle;
  s->seconds = seconds;
}

int sim_run(const sim_workload *w, const minex_config *cfg,
            const int32_t *initial, const sim_params *p, sim_step_fn fn,
            void *fn_ctx, sim_result *out) {
  memset(out, 0, sizeof *out);
  if (w->nsteps < 1)
    return sim_fail(MINEX_EINVAL, "sim: the workload has no steps");
  int32_t n = sim_workload_nvtxs(w);
  int32_t P = minex_config_nprocs(cfg);
  int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *cur = malloc(sizeof(int32_t) * (size_t)n);
  out->steps = calloc((size_t)w->nsteps, sizeof(sim_step));
  out->qwgt = calloc((size_t)w->nsteps * (size_t)P, sizeof(double));
  if (!old || !cur || !out->steps || !out->qwgt) {
    free(old);
    free(cur);
    sim_result_free(out);
    return sim_fail(MINEX_ENOMEM, "sim: out of memory");
  }
  out->nsteps = w->nsteps;
  out->nprocs = P;
  memcpy(cur, initial, sizeof(int32_t) * (size_t)n);
  int rc = MINEX_OK;
  double ideal = 0;
  /* the horizon is the workload's (SPEC §2): every call runs under it */
  minex_options opt = p->opt;
  opt.iterations = w->params.iterations;
  /* the repartitioner's large buffers kept from step to step (unless the
     caller gave a workspace of its own) */
  minex_workspace *ws = NULL;
  if (p->partition && opt.workspace == NULL &&
      minex_workspace_create(&ws) == MINEX_OK)
    opt.workspace = ws;
  /* one graph for the run: each step replaces its weights only */
  minex_graph *g = NULL;
  for (int32_t k = 0; k < w->nsteps && rc == MINEX_OK; k++) {
    if ((rc = sim_workload_graph(w, k, &g)) != MINEX_OK)
      break; /* the message names the adaptation */
    memcpy(old, cur, sizeof(int32_t) * (size_t)n);
    minex_metrics m;
    double seconds = 0, throttle = opt.throttle;
    if (p->partition) {
      rc = minex_repartition(g, cfg, old, &opt, cur, &m);
      seconds = m.seconds;
      throttle = m.throttle_used;
    } else {
      rc = minex_evaluate(g, cfg, old, cur, &opt, &m);
    }
    if (rc == MINEX_OK)
      rc = minex_evaluate_procs(g, cfg, old, cur, &opt, NULL, NULL, NULL,
                                out->qwgt + (size_t)k * (size_t)P);
    if (rc != MINEX_OK) {
      sim_fail(rc, "sim: step %d: %s", (int)k + 1, minex_last_error());
      break;
    }
    sim_step *s = &out->steps[k];
    fill_step(s, &m, w->leaves ? w->leaves[k] : 0, throttle, seconds);
    s->returned_old = p->partition ? m.returned_old : 0;
    out->total += m.max_qwgt;
    out->total_horizon += m.horizon_time;
    out->seconds += seconds;
    if (m.navailable > 0)
      ideal += m.qwgt_tot / m.navailable;
    if (fn && fn(k + 1, g, old, cur, s, fn_ctx) != 0)
      rc = sim_fail(MINEX_EINVAL, "sim: stopped after step %d", (int)k + 1);
  }
  out->load_imb = ideal > 0 ? out->total / ideal : 0;
  minex_workspace_destroy(ws);
  minex_graph_destroy(g);
  free(old);
  free(cur);
  if (rc != MINEX_OK)
    sim_result_free(out);
  return rc;
}

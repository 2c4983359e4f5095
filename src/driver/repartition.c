/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_repartition: contract, partition the contracted graph, expand
 * (SPEC §3, paper §3.1), with the guarantees of SPEC §3. */
#include "contract/contract.h"
#include "costmodel/costmodel.h"
#include "expand/expand.h"
#include "partition/partition.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Debug builds (MINEX_CHECKS, issue 10): every structure checks itself at
 * each phase boundary; a failure is MINEX_EINTERNAL naming check and
 * phase. */
#ifdef MINEX_CHECKS
#define CHECK_PHASE(ws, ld, pc, phase) partition_check_phase(ws, ld, pc, phase)
#else
#define CHECK_PHASE(ws, ld, pc, phase) MINEX_OK
#endif

/* Tests per restored pair beyond the pair itself (SPEC §3: "when one
 * moves, its border neighbours are tested too"). */
#define EXPAND_BUDGET 16

static void logf_(const minex_options *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(const minex_options *o, const char *fmt, ...) {
  if (o->log_fn == NULL)
    return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  o->log_fn(buf, o->log_ctx);
}

/* Moves any fine vertex still on an unavailable processor (only possible
 * when passes were cut short) with the forced rule. */
static void force_off_unavailable(partition_ctx *pc) {
  contract_ws *ws = pc->ws;
  for (int32_t v = 0; v < ws->n; v++) {
    partition_choice ch;
    if (!pc->cfg->avail[ws->owner[v]] && partition_best_move(pc, v, &ch))
      partition_execute(pc, v, ch.move.to);
  }
}

/* Largest Qwgt over available processors, from the running loads (exact
 * at any level: a coarse assignment has the loads of its projection). */
static double loads_max(const costmodel_loads *ld) {
  double m = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p] && ld->qwgt[p] > m)
      m = ld->qwgt[p];
  return m;
}

/* throttle_auto (issue 3): partitions the contracted graph with each
 * candidate from the same start, rolls every trial back (owners, loads,
 * interior flags), and returns the candidate with the lowest MaxQwgt in
 * *best (the first of equals, so the order of the candidates breaks
 * ties). */
static int choose_throttle(partition_ctx *pc, const minex_options *opt,
                           double *best) {
  static const double builtin[MINEX_THROTTLE_AUTO_COUNT] =
      MINEX_THROTTLE_AUTO_SET;
  const double *cand =
      opt->throttle_candidates ? opt->throttle_candidates : builtin;
  int32_t ncand = opt->throttle_candidates ? opt->nthrottle_candidates
                                           : MINEX_THROTTLE_AUTO_COUNT;
  contract_ws *ws = pc->ws;
  int32_t na = 0, nids = contract_nids(ws);
  int32_t *act = malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  int32_t *own = malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  costmodel_snapshot snap = {0};
  int rc = act && own ? costmodel_snapshot_take(pc->ld, &snap)
                      : core_error(MINEX_ENOMEM, "throttle auto: out of "
                                                 "memory");
  if (rc != MINEX_OK)
    goto done;
  for (int32_t x = 0; x < nids; x++)
    if (ws->parent[x] == x) {
      act[na] = x;
      own[na++] = ws->owner[x];
    }
  double best_max = INFINITY;
  *best = cand[0];
  for (int32_t i = 0; i < ncand && rc == MINEX_OK; i++) {
    pc->throttle = cand[i];
    if ((rc = partition_run(pc, opt->max_passes > 0 ? opt->max_passes : 1)))
      break;
    if ((rc = CHECK_PHASE(ws, pc->ld, pc, "after a throttle_auto trial")))
      break;
    double m = loads_max(pc->ld);
    logf_(opt, "throttle auto: ThroTTle %g -> coarse MaxQwgt %.6g", cand[i], m);
    if (m < best_max) {
      best_max = m;
      *best = cand[i];
    }
    for (int32_t k = 0; k < na; k++)
      if (ws->owner[act[k]] != own[k])
        contract_set_owner(ws, act[k], own[k]);
    costmodel_snapshot_restore(pc->ld, &snap);
    memset(pc->interior, 0, (size_t)nids);
    pc->moves = pc->forced_moves = 0;
    if ((rc = CHECK_PHASE(ws, pc->ld, pc, "after a throttle_auto rollback")))
      break;
  }
done:
  costmodel_snapshot_free(&snap);
  free(act);
  free(own);
  return rc;
}

int minex_repartition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, const minex_options *options,
                      int32_t *new_part, minex_metrics *metrics) {
  core_error_clear();
  double t0 = core_wtime();
  int rc = costmodel_check_args("minex_repartition", g, cfg, old, options);
  if (rc != MINEX_OK)
    return rc;
  if (new_part == NULL)
    return core_error(MINEX_EINVAL, "minex_repartition: new_part is NULL");
  if (cfg->navail == 0)
    return core_error(MINEX_ENOPROC,
                      "minex_repartition: all %d processors "
                      "are unavailable",
                      (int)cfg->nprocs);
  minex_options opt;
  if (options)
    opt = *options;
  else
    minex_options_init(&opt);
  int32_t n = g->nvtxs;
  int all_avail = 1;
  for (int32_t v = 0; v < n && all_avail; v++)
    all_avail = cfg->avail[old[v]];

  costmodel_loads ld;
  contract_ws ws;
  partition_ctx pc;
  gsl_rng *rng = NULL;
  memset(&pc, 0, sizeof pc);
  memset(&ws, 0, sizeof ws);
  if ((rc = costmodel_loads_create(&ld, g, cfg, old, old, &opt)))
    return rc;
  /* the old partition's MaxQwgt, from the same from-scratch loads that
     minex_evaluate computes */
  double old_max = 0;
  for (int32_t p = 0; p < cfg->nprocs; p++)
    if (cfg->avail[p] && ld.qwgt[p] > old_max)
      old_max = ld.qwgt[p];
  if ((rc = contract_ws_create(&ws, g, old)))
    goto done;
  rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (rng == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
    goto done;
  }
  gsl_rng_set(rng, (unsigned long)opt.seed);

  int64_t target = opt.coarse_target;
  if (target <= 0) {
    /* coarse_per_proc per processor, but coarse vertices of at least four
       fine ones on average: on a graph with few vertices per processor a
       single fine vertex rarely pays for its cut edges, and moves that
       fill empty (newly joined) processors need bigger pieces */
    target = (int64_t)opt.coarse_per_proc * cfg->navail;
    if (target > n / 4)
      target = n / 4 > 0 ? n / 4 : 1;
  }
  if (target > n)
    target = n;
  double t1 = core_wtime();
  if ((rc = contract_run(&ws, (int32_t)target, opt.sample_size, rng)))
    goto done;
  if ((rc = CHECK_PHASE(&ws, &ld, NULL, "after contraction")))
    goto done;
  if ((rc = contract_freeze(&ws)))
    goto done;
  if ((rc = partition_ctx_create(&pc, &ws, &ld, &opt)))
    goto done;
  if ((rc = CHECK_PHASE(&ws, &ld, &pc, "after contract_freeze")))
    goto done;
  double t2 = core_wtime();
  logf_(&opt, "contract: %d -> %d vertices in %.3f s", (int)n, (int)ws.nactive,
        t2 - t1);
  int32_t coarse = ws.nactive;
  if (opt.throttle_auto) {
    double t;
    if ((rc = choose_throttle(&pc, &opt, &t)))
      goto done;
    pc.throttle = opt.throttle = t;
  }
  if ((rc = partition_run(&pc, opt.max_passes > 0 ? opt.max_passes : 1)))
    goto done;
  if ((rc = CHECK_PHASE(&ws, &ld, &pc, "after the coarse partition")))
    goto done;
  int64_t coarse_moves = pc.moves;
  double t3 = core_wtime();
  logf_(&opt, "partition: %lld moves on %d coarse vertices in %.3f s",
        (long long)coarse_moves, (int)coarse, t3 - t2);
  if ((rc = expand_run(&pc, EXPAND_BUDGET)))
    goto done;
  force_off_unavailable(&pc);
  if ((rc = CHECK_PHASE(&ws, &ld, &pc, "before returning")))
    goto done;
  double t4 = core_wtime();
  logf_(&opt, "expand: %lld moves in %.3f s",
        (long long)(pc.moves - coarse_moves), t4 - t3);
  /* SPEC §3 guarantee: never worse than old when old is feasible. Scored
     from scratch by the evaluator, the same rules as any other tool. The
     fine owners are ws.owner[0..n-1]; new_part is written only once
     nothing can fail any more (a failure leaves it untouched). */
  const int32_t *result = ws.owner;
  minex_metrics mnew;
  if ((rc = minex_evaluate(g, cfg, old, result, &opt, &mnew)))
    goto done;
  int returned_old = 0;
  if (all_avail && mnew.max_qwgt > old_max) {
    logf_(&opt, "result MaxQwgt %.6g > old %.6g: old partition returned",
          mnew.max_qwgt, old_max);
    result = old;
    if ((rc = minex_evaluate(g, cfg, old, result, &opt, &mnew)))
      goto done;
    returned_old = 1;
  }
  memcpy(new_part, result, sizeof(int32_t) * (size_t)n);
  if (metrics) {
    *metrics = mnew;
    metrics->coarse_nvtxs = coarse;
    metrics->coarse_moves = coarse_moves;
    metrics->expand_moves = pc.moves - coarse_moves;
    metrics->returned_old = returned_old;
    metrics->seconds_contract = t2 - t1;
    metrics->seconds_partition = t3 - t2;
    metrics->seconds_expand = t4 - t3;
    metrics->seconds = core_wtime() - t0;
    metrics->throttle_used = opt.throttle;
  }
done:
  gsl_rng_free(rng);
  partition_ctx_destroy(&pc);
  contract_ws_destroy(&ws);
  costmodel_loads_destroy(&ld);
  return rc;
}

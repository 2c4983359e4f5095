/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One candidate of minex_repartition: the diffusive run of SPEC §3 on the
 * shared contraction -- partition the contracted graph (throttle_auto
 * trials first), expand, move off unavailable processors, the balance
 * moves and the refinement beyond the paper -- and the figures it is
 * scored by. */
#include "driver/driver.h"
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

void driver_log(const minex_options *o, const char *fmt, ...) {
  if (o->log_fn == NULL)
    return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  minex_workspace *pool = core_pool_swap(NULL); /* the user's own memory */
  o->log_fn(buf, o->log_ctx);
  core_pool_swap(pool);
}

int driver_expand_in_rounds(const minex_options *o) {
  return !o->paper_exact && o->rounds != MINEX_ROUNDS_OFF;
}

/* MaxQwgt of the loads under horizon k (whatever k they were built for). */
double driver_max_qwgt(const costmodel_loads *ld, double k) {
  double m = 0;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p])
      m = fmax(m,
               costmodel_qwgt_k(ld, k, ld->wgt[p], ld->comm[p], ld->remap[p]));
  return m;
}

double driver_horizon_time(const costmodel_loads *ld, double k) {
  return partition_remap_max(ld) + k * partition_steady_max(ld);
}

/* throttle_auto (issue 3): partitions the contracted graph with each
 * candidate from the same start, rolls every trial back (owners, loads,
 * interior flags), and returns the candidate with the lowest MaxQwgt in
 * *best (the first of equals, so the order of the candidates breaks
 * ties). */
int driver_choose_throttle(partition_ctx *pc, const minex_options *opt,
                           int rounds, double *best) {
  static const double builtin[MINEX_THROTTLE_AUTO_COUNT] =
      MINEX_THROTTLE_AUTO_SET;
  const double *cand =
      opt->throttle_candidates ? opt->throttle_candidates : builtin;
  int32_t ncand = opt->throttle_candidates ? opt->nthrottle_candidates
                                           : MINEX_THROTTLE_AUTO_COUNT;
  /* spread over ranks (the from-scratch candidate's level in the MPI
     layer): the failures agreed, the rank-local checks left out (they
     would fail one rank alone), the log on rank 0 */
  const contract_comm *cm = pc->ws->comm;
  partition_checkpoint cp;
  int rc = partition_checkpoint_take(pc, &cp);
  if (cm != NULL)
    rc = cm->agree(cm->ctx, rc);
  if (rc != MINEX_OK) {
    partition_checkpoint_free(&cp);
    return rc;
  }
  double best_max = INFINITY;
  *best = cand[0];
  for (int32_t i = 0; i < ncand && rc == MINEX_OK; i++) {
    pc->throttle = cand[i];
    int32_t passes = opt->max_passes > 0 ? opt->max_passes : 1;
    if ((rc = rounds
                  ? partition_passes_rounds(pc, passes, PARTITION_ROUNDS_BUDGET)
                  : partition_run(pc, passes)))
      break;
    if (cm == NULL &&
        (rc = CHECK_PHASE(pc->ws, pc->ld, pc, "after a throttle_auto trial")))
      break;
    double m = partition_loads_max(pc->ld);
    if (cm == NULL || cm->rank == 0)
      driver_log(opt, "throttle auto: ThroTTle %g -> MaxQwgt %.6g on %s",
                 cand[i], m * pc->ld->inv_unit,
                 rounds ? "the from-scratch level" : "the coarse graph");
    if (m < best_max) {
      best_max = m;
      *best = cand[i];
    }
    partition_checkpoint_restore(pc, &cp);
    if (cm == NULL && (rc = CHECK_PHASE(pc->ws, pc->ld, pc,
                                        "after a throttle_auto rollback")))
      break;
  }
  partition_checkpoint_free(&cp);
  return rc;
}

/* Whether the balance moves run (options.balance). Under AUTO: when the
 * processors are in more than one cluster, where the remapping a receiver
 * pays differs most from what the sender saves (issue 18 §2(c): a 2-cluster
 * run of `minex sim` summed 66,882 with the paper's rule alone and 57,137
 * with them, 62,604 without repartitioning); on one cluster they left the
 * simulation's later steps a slightly worse start (739,853 -> 745,117). */
int driver_balance_wanted(const minex_options *o, const minex_config *cfg) {
  if (o->paper_exact || o->balance == MINEX_BALANCE_OFF)
    return 0;
  if (o->balance == MINEX_BALANCE_ON)
    return 1;
  int used = 0;
  for (int32_t c = 0; c < cfg->nclusters; c++) {
    int has = 0;
    for (int32_t p = 0; p < cfg->nprocs && !has; p++)
      has = cfg->cluster[p] == c && cfg->avail[p];
    used += has;
  }
  return used > 1;
}

/* One multilevel run of SPEC §3 on the contracted graph of ws (frozen, or
 * rewound to its freeze) from start (NULL: the old partition): partition
 * the contracted graph, expand, with the refinement passes when refine is
 * set, all under the horizon `iters`, the loads in units of 1/unit of the
 * caller's (costmodel_unit). Writes the result into out and scores it
 * under the call's own horizon (opt_in->iterations). */
int driver_run_candidate(const minex_graph *g, const minex_config *cfg,
                         const int32_t *old, const int32_t *start,
                         contract_ws *ws, const minex_options *opt_in,
                         double iters, double unit, int refine, int32_t *out,
                         candidate *cd) {
  minex_options opt = *opt_in;
  double k_call = opt_in->iterations > 1 ? opt_in->iterations : 1;
  int32_t n = g->nvtxs;
  costmodel_loads ld;
  partition_ctx pc;
  memset(&pc, 0, sizeof pc);
  memset(cd, 0, sizeof *cd);
  /* a start partition (the from-scratch candidate's): its loads summed part
     by part (costmodel_run_partials), as the MPI layer's ranks sum them */
  int rc = start ? costmodel_loads_create_runs(&ld, g, cfg, old, start, &opt,
                                               iters, unit)
                 : costmodel_loads_create_k(&ld, g, cfg, old, old, &opt, iters,
                                            unit);
  if (rc != MINEX_OK)
    return rc;
  cd->start_max = driver_max_qwgt(&ld, k_call) * ld.inv_unit;
  cd->horizon = iters;
  double t2 = core_wtime();
  if ((rc = partition_ctx_create(&pc, ws, &ld, &opt)))
    goto done;
  if ((rc = CHECK_PHASE(ws, &ld, &pc, "at the start of a candidate")))
    goto done;
  cd->coarse_nvtxs = ws->nactive;
  if (opt.throttle_auto) {
    double t;
    if ((rc = driver_choose_throttle(&pc, &opt, start && pc.rounds, &t)))
      goto done;
    pc.throttle = opt.throttle = t;
  }
  /* the from-scratch candidate starts on a level of about n/2 vertices:
     under rounds = ON its first partition runs in rounds too (as on the
     ranks of the MPI layer) */
  if ((rc = start && pc.rounds
                ? partition_passes_rounds(
                      &pc, opt.max_passes > 0 ? opt.max_passes : 1,
                      PARTITION_ROUNDS_BUDGET)
                : partition_run(&pc, opt.max_passes > 0 ? opt.max_passes : 1)))
    goto done;
  if ((rc = CHECK_PHASE(ws, &ld, &pc, "after the coarse partition")))
    goto done;
  /* no refinement of the coarse graph: lowering QwgtTot there leaves the
     expansion a start from which it balances worse (measured: MaxQwgt
     3,651 instead of 3,500 on box1e4-hetero4-p16 at k = 1) */
  int32_t rpasses = opt.refine_passes > 0 ? opt.refine_passes : 1;
  cd->coarse_moves = pc.moves;
  double t3 = core_wtime();
  driver_log(
      &opt, "partition (k = %g): %lld moves on %d coarse vertices in %.3f s",
      cd->horizon, (long long)cd->coarse_moves, (int)cd->coarse_nvtxs, t3 - t2);
  /* in synchronous rounds of a level's merges (SPEC §3 "Parallel
     execution"), or the paper's expansion one merge at a time */
  int rounds = driver_expand_in_rounds(&opt);
  if ((rc = rounds ? expand_rounds(&pc, EXPAND_BUDGET)
                   : expand_run(&pc, EXPAND_BUDGET)))
    goto done;
  if ((rc = partition_force_off(&pc)))
    goto done;
  driver_log(&opt, "expansion: %lld moves in %.3f s",
             (long long)(pc.moves - cd->coarse_moves), core_wtime() - t3);
  if (driver_balance_wanted(&opt, cfg)) {
    int64_t before = pc.moves;
    double tb = core_wtime();
    if ((rc = partition_balance(&pc, MINEX_BALANCE_PASSES)))
      goto done;
    driver_log(&opt, "balance: %lld moves on the fine graph in %.3f s",
               (long long)(pc.moves - before), core_wtime() - tb);
  }
  if (refine) {
    int64_t before = pc.moves;
    double tr = core_wtime();
    if ((rc = partition_refine(&pc, rpasses)))
      goto done;
    cd->seconds_refine = core_wtime() - tr;
    driver_log(&opt, "refine: %lld moves on the fine graph",
               (long long)(pc.moves - before));
  }
  if ((rc = CHECK_PHASE(ws, &ld, &pc, "before returning")))
    goto done;
  double t4 = core_wtime();
  driver_log(&opt, "expand: %lld moves in %.3f s",
             (long long)(pc.moves - cd->coarse_moves), t4 - t3);
  memcpy(out, ws->owner, sizeof(int32_t) * (size_t)n);
  cd->end_max = driver_max_qwgt(&ld, k_call) * ld.inv_unit;
  cd->end_time = driver_horizon_time(&ld, k_call) * ld.inv_unit;
  cd->expand_moves = pc.moves - cd->coarse_moves;
  cd->seconds_partition = t3 - t2;
  cd->seconds_expand = t4 - t3;
  cd->throttle = opt.throttle;
  cd->par = pc.par;
done:
  partition_ctx_destroy(&pc);
  costmodel_loads_destroy(&ld);
  return rc;
}

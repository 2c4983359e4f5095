/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The candidate pipeline (driver.h): one diffusive run of SPEC §3 on the
 * shared contraction -- partition the contracted graph (throttle_auto
 * trials first), expand, move off unavailable processors, the balance
 * moves and the refinement beyond the paper -- the figures it is scored
 * by, and the serial layout. */
#include "driver/driver.h"
#include "expand/expand.h"
#include "partition/partition.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* throttle_auto: partitions the contracted graph with each candidate from
 * the same start, rolls every trial back (owners, loads, interior flags),
 * and returns the candidate with the lowest MaxQwgt in *best (the first
 * of equals, so the order of the candidates breaks ties). */
int driver_choose_throttle(partition_ctx *pc, const run_ctx *run, int rounds,
                           int log, double *best) {
  static const double builtin[MINEX_THROTTLE_AUTO_COUNT] =
      MINEX_THROTTLE_AUTO_SET;
  const minex_options *opt = &run->opt;
  const double *cand =
      opt->throttle_candidates ? opt->throttle_candidates : builtin;
  int32_t ncand = opt->throttle_candidates ? opt->nthrottle_candidates
                                           : MINEX_THROTTLE_AUTO_COUNT;
  /* spread over ranks (the from-scratch candidate's level in the MPI
     layer): the failures agreed */
  partition_checkpoint cp;
  int rc = dist_agree_or(pc->ws->comm, partition_checkpoint_take(pc, &cp));
  if (rc != MINEX_OK) {
    partition_checkpoint_free(&cp);
    return rc;
  }
  double best_max = INFINITY;
  *best = cand[0];
  for (int32_t i = 0; i < ncand && rc == MINEX_OK; i++) {
    pc->throttle = cand[i];
    if ((rc = rounds ? partition_passes_rounds(pc, opt->max_passes,
                                               PARTITION_ROUNDS_BUDGET)
                     : partition_run(pc, opt->max_passes)))
      break;
    if ((rc = partition_checks(pc->ws, pc->ld, pc,
                               "after a throttle_auto trial")))
      break;
    double m = costmodel_loads_max(pc->ld);
    if (log)
      driver_log(opt, "throttle auto: ThroTTle %g -> MaxQwgt %.6g on %s",
                 cand[i], m * pc->ld->inv_unit,
                 rounds ? "the from-scratch level" : "the coarse graph");
    if (m < best_max) {
      best_max = m;
      *best = cand[i];
    }
    partition_checkpoint_restore(pc, &cp);
    if ((rc = partition_checks(pc->ws, pc->ld, pc,
                               "after a throttle_auto rollback")))
      break;
  }
  partition_checkpoint_free(&cp);
  return rc;
}

int candidate_better(const candidate *best, const candidate *c, int all_avail,
                     double old_max) {
  return c->end_time < best->end_time && !(all_avail && c->end_max > old_max);
}

static int agree(const cand_layout *lay, int rc) {
  return lay->agree != NULL ? lay->agree(lay->ctx, rc) : rc;
}

/* MINEX_CHECKS' checks of the contracted graph, which every rank of a
 * spread call holds whole: a failure of one rank's (its memory) is agreed,
 * so that no rank goes on alone into the next collective. */
static int coarse_checks(const cand_layout *lay, contract_ws *coarse,
                         const costmodel_loads *ld, const partition_ctx *pc,
                         const char *phase) {
#ifdef MINEX_CHECKS
  return agree(lay, partition_checks(coarse, ld, pc, phase));
#else
  (void)lay, (void)coarse, (void)ld, (void)pc, (void)phase;
  return MINEX_OK;
#endif
}

/* The fine phases from the current level of pc's contraction: the
 * expansion (in synchronous rounds of a level's merges, SPEC §3 "Parallel
 * execution", or the paper's one merge at a time), the moves off
 * unavailable processors, the balance and the refinement passes. */
static int candidate_fine(partition_ctx *pc, const run_ctx *run,
                          const cand_layout *lay, candidate *cd) {
  const minex_options *opt = &run->opt;
  const minex_config *cfg = pc->cfg;
  int64_t before = pc->moves;
  double t = core_wtime();
  int rc = run->rounds ? expand_rounds(pc, EXPAND_BUDGET)
                       : expand_run(pc, EXPAND_BUDGET);
  if (rc == MINEX_OK && cfg->navail < cfg->nprocs)
    rc = partition_force_off(pc);
  if (rc != MINEX_OK)
    return rc;
  if (lay->log)
    driver_log(opt, "expansion: %lld moves in %.3f s",
               (long long)(pc->moves - before), core_wtime() - t);
  if (run->balance) {
    before = pc->moves;
    t = core_wtime();
    if ((rc = partition_balance(pc, MINEX_BALANCE_PASSES)))
      return rc;
    if (lay->log)
      driver_log(opt, "balance: %lld moves on the fine graph in %.3f s",
                 (long long)(pc->moves - before), core_wtime() - t);
  }
  if (run->refine) {
    before = pc->moves;
    t = core_wtime();
    if ((rc = partition_refine(pc, opt->refine_passes)))
      return rc;
    cd->seconds_refine = core_wtime() - t;
    if (lay->log)
      driver_log(opt, "refine: %lld moves on the fine graph",
                 (long long)(pc->moves - before));
  }
  return MINEX_OK;
}

/* No refinement of the contracted graph: lowering QwgtTot there leaves the
 * expansion a start from which it balances worse (measured: MaxQwgt 3,651
 * instead of 3,500 on box1e4-hetero4-p16 at k = 1). A start partition (the
 * from-scratch candidate's, on a level of about n/2 vertices) is
 * partitioned in rounds under rounds = ON, as on the ranks of the MPI
 * layer. */
int candidate_run(const run_ctx *run, const cand_layout *lay,
                  const cand_args *a, candidate *cd) {
  const minex_options *opt = &run->opt;
  double t0 = core_wtime(), k = run->k;
  contract_ws *ws = a->ws, *coarse = a->coarse;
  int split = coarse != ws; /* the contracted graph's partition elsewhere */
  int in_rounds = a->start != NULL && run->rounds;
  costmodel_loads ld;
  partition_ctx pcc, pw;
  memset(&pcc, 0, sizeof pcc);
  memset(&pw, 0, sizeof pw);
  memset(cd, 0, sizeof *cd);
  cd->horizon = a->horizon;
  cd->throttle = opt->throttle;
  int rc = lay->loads(lay->ctx, a->start, a->horizon, &ld);
  if (rc != MINEX_OK)
    return rc;
  cd->start_max = costmodel_max_qwgt_k(&ld, k) * ld.inv_unit;
  cd->coarse_nvtxs = a->start_nvtxs;
  /* the same state after this point on every rank: a failure below is
     everyone's (memory aside, agreed at the next collective) */
  if ((rc = partition_ctx_create(&pcc, coarse, &ld, opt)) == MINEX_OK && split)
    rc = partition_ctx_create(&pw, ws, &ld, opt);
  if ((rc = agree(lay, rc)) != MINEX_OK)
    goto done;
  if ((rc = coarse_checks(lay, coarse, &ld, &pcc,
                          "at the start of a candidate")))
    goto done;
  if (opt->throttle_auto) {
    double t;
    rc = driver_choose_throttle(&pcc, run, in_rounds, lay->log, &t);
    if (rc == MINEX_OK)
      pcc.throttle = pw.throttle = cd->throttle = t;
    if ((rc = agree(lay, rc)) != MINEX_OK)
      goto done;
  }
  rc = in_rounds ? partition_passes_rounds(&pcc, opt->max_passes,
                                           PARTITION_ROUNDS_BUDGET)
                 : partition_run(&pcc, opt->max_passes);
  /* the coarse phase of a gathered graph has no collective: its failures
     are agreed after it, so that no rank waits in the expansion for one
     that left */
  if ((rc = agree(lay, rc)) != MINEX_OK)
    goto done;
  if ((rc =
           coarse_checks(lay, coarse, &ld, &pcc, "after the coarse partition")))
    goto done;
  cd->coarse_moves = pcc.moves;
  cd->coarse_time = costmodel_horizon_time(&ld, k) * ld.inv_unit;
  double t1 = core_wtime();
  cd->seconds_partition = t1 - t0;
  if (lay->log)
    driver_log(opt,
               "partition (k = %g): %lld moves on %lld coarse vertices in "
               "%.3f s, T_k %.6g",
               cd->horizon, (long long)cd->coarse_moves,
               (long long)cd->coarse_nvtxs, t1 - t0, cd->coarse_time);
  partition_ctx *pf = &pcc;
  if (split) {
    lay->from_coarse(lay->ctx);
    pf = &pw;
  }
  if ((rc = candidate_fine(pf, run, lay, cd)) != MINEX_OK)
    goto done;
  if ((rc = partition_checks(ws, &ld, pf, "before returning")))
    goto done;
  double t2 = core_wtime();
  cd->expand_moves = pf->moves - (split ? 0 : cd->coarse_moves);
  if (lay->log)
    driver_log(opt, "expand: %lld moves in %.3f s", (long long)cd->expand_moves,
               t2 - t1);
  cd->rounds = pf->dist_rounds;
  cd->tries = pf->dist_tries;
  cd->rank0 = pf->dist_rank0;
  cd->end_max = costmodel_max_qwgt_k(&ld, k) * ld.inv_unit;
  cd->end_time = costmodel_horizon_time(&ld, k) * ld.inv_unit;
  cd->par = pf->par;
  cd->seconds_expand = t2 - t1;
done:
  partition_ctx_destroy(&pw);
  partition_ctx_destroy(&pcc);
  costmodel_loads_destroy(&ld);
  cd->seconds = core_wtime() - t0;
  return rc;
}

/* The serial layout's loads: a start partition's summed part by part
 * (costmodel_loads_create_runs), as the MPI layer's ranks sum them. */
static int serial_loads(void *ctx, const int32_t *start, double h,
                        costmodel_loads *ld) {
  const driver_serial *s = ctx;
  return costmodel_loads_create_runs(ld, s, start ? start : s->old, h);
}

void driver_serial_layout(driver_serial *s, cand_layout *lay) {
  memset(lay, 0, sizeof *lay);
  lay->loads = serial_loads;
  lay->ctx = s;
  lay->log = 1;
}

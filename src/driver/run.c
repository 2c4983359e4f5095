/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run_init: the options resolved once for a call (SPEC §3 "Defaults"). */
#include "driver/run.h"

#include "contract/contract.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int run_distributed_applies(const minex_options *o) {
  return !o->paper_exact && o->rounds != MINEX_ROUNDS_OFF;
}

double run_ladder_horizon(double k, int j) {
  return k / pow(MINEX_LADDER_STEP, j + 1);
}

/* Processors in more than one cluster: where the remapping a receiver pays
 * differs most from what the sender saves, the balance moves' case (a
 * 2-cluster run of `minex sim` summed 66,882 with the paper's rule alone
 * and 57,137 with them, 62,604 without repartitioning); on one cluster
 * they left the simulation's later steps a slightly worse start (739,853
 * against 745,117). */
static int clusters_used(const minex_config *cfg) {
  int used = 0;
  for (int32_t c = 0; c < cfg->nclusters; c++) {
    int has = 0;
    for (int32_t p = 0; p < cfg->nprocs && !has; p++)
      has = cfg->cluster[p] == c && cfg->avail[p];
    used += has;
  }
  return used;
}

/* A mode under AUTO is `when`; paper_exact turns every addition off. */
static int mode_on(int mode, int off, int on, int paper_exact, int when) {
  if (paper_exact || mode == off)
    return 0;
  return mode == on ? 1 : when;
}

void run_init(run_ctx *r, const minex_options *options, const minex_config *cfg,
              int64_t n, int distributed) {
  minex_options o;
  if (options != NULL)
    o = *options;
  else
    minex_options_init(&o);
  int pe = o.paper_exact;
  int32_t k = o.iterations > 1 ? o.iterations : 1;
  r->k = k;
  int nt = o.nthreads;
#ifdef _OPENMP
  if (nt == 0)
    nt = distributed ? 1 : omp_get_num_procs();
#else
  nt = distributed ? (nt > 0 ? nt : 1) : 1;
#endif
  o.nthreads = nt;
  o.iterations = k;
  o.max_passes = o.max_passes > 0 ? o.max_passes : 1;
  o.refine_passes = o.refine_passes > 0 ? o.refine_passes : 1;
  /* rounds: AUTO is ON, the distributed kernel's rule */
  r->rounds = !pe && o.rounds != MINEX_ROUNDS_OFF;
  /* refinement from k = 2: at k = 1 a refined step left the next steps of
     a sequence a worse start (docs/design/algorithm.md §7) */
  r->refine = mode_on(o.refine, MINEX_REFINE_OFF, MINEX_REFINE_ON, pe,
                      k >= MINEX_REFINE_AUTO_ITERATIONS);
  r->balance = mode_on(o.balance, MINEX_BALANCE_OFF, MINEX_BALANCE_ON, pe,
                       clusters_used(cfg) > 1);
  /* the ladder from k = 2, and at k = 1 when alpha > 0, where MaxQwgt
     hides the remapping behind computation but T_1 charges it in full (at
     alpha = 0 and k = 1 it left the simulation's later steps a worse
     start: sim32 T_1 ratio 0.503 against 0.467) */
  r->nrungs = mode_on(o.ladder, MINEX_LADDER_OFF, MINEX_LADDER_ON, pe,
                      k >= MINEX_LADDER_AUTO_ITERATIONS || o.alpha > 0)
                  ? MINEX_LADDER_MAX
                  : 0;
  /* the from-scratch candidate needs two vertices per processor */
  r->scratch = mode_on(o.scratch, MINEX_SCRATCH_OFF, MINEX_SCRATCH_ON, pe,
                       k >= MINEX_SCRATCH_AUTO_ITERATIONS) &&
               n >= 2 * (int64_t)cfg->navail;
  o.rounds = r->rounds ? MINEX_ROUNDS_ON : MINEX_ROUNDS_OFF;
  o.refine = r->refine ? MINEX_REFINE_ON : MINEX_REFINE_OFF;
  o.balance = r->balance ? MINEX_BALANCE_ON : MINEX_BALANCE_OFF;
  o.ladder = r->nrungs ? MINEX_LADDER_ON : MINEX_LADDER_OFF;
  o.scratch = r->scratch ? MINEX_SCRATCH_ON : MINEX_SCRATCH_OFF;
  if (pe)
    o.cluster_levels = MINEX_CLUSTER_LEVELS_OFF;
  /* cluster levels: every level (ON), or those with more than
     CONTRACT_CLUSTER_ABOVE times the target's vertices (AUTO) */
  r->cluster_factor = o.cluster_levels == MINEX_CLUSTER_LEVELS_OFF ? 0
                      : o.cluster_levels == MINEX_CLUSTER_LEVELS_ON
                          ? 1
                          : CONTRACT_CLUSTER_ABOVE;
  /* the contraction's target: coarse_per_proc per processor, but coarse
     vertices of at least four fine ones on average: on a graph with few
     vertices per processor a single fine vertex rarely pays for its cut
     edges, and moves that fill empty (newly joined) processors need
     bigger pieces */
  int64_t target = o.coarse_target;
  if (target <= 0) {
    target = (int64_t)o.coarse_per_proc * cfg->navail;
    if (target > n / 4)
      target = n / 4 > 0 ? n / 4 : 1;
  }
  r->coarse_target = target > n ? n : target;
  r->opt = o;
}

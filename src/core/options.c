/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Default options (SPEC §3 "Defaults"). */
#include "core.h"

#include <math.h>
#include <string.h>

void minex_options_init(minex_options *o) {
  if (o == NULL)
    return;
  memset(o, 0, sizeof *o);
  o->throttle = INFINITY;
  o->alpha = 0.0;
  o->remap_mode = MINEX_REMAP_RECEIVER;
  o->coarse_per_proc = 64;
  o->coarse_target = 0;
  o->sample_size = 4;
  o->seed = 1;
  o->global_candidates = 1;
  o->max_passes = 8;
  o->iterations = 1;
  o->refine = MINEX_REFINE_AUTO;
  o->refine_passes = 4;
  o->scratch = MINEX_SCRATCH_AUTO;
  o->ladder = MINEX_LADDER_AUTO;
  o->paper_exact = 0;
  o->balance = MINEX_BALANCE_AUTO;
  o->rounds = MINEX_ROUNDS_AUTO;
  o->nthreads = 1;
  o->cluster_levels = MINEX_CLUSTER_LEVELS_AUTO;
  o->global_spread = MINEX_GLOBAL_SPREAD_MAX;
}

/* A mode field (refine, scratch, ladder): one of its OFF, ON, AUTO. */
static int check_mode(int v, const char *field, const char *name, int off,
                      int on, int aut) {
  if (v == off || v == on || v == aut)
    return MINEX_OK;
  return core_error(MINEX_EINVAL,
                    "options.%s = %d (must be MINEX_%s_OFF, _ON or _AUTO)",
                    field, v, name);
}

int core_check_options(const minex_options *o) {
  if (!o->throttle_auto && !(o->throttle >= 0))
    return core_error(MINEX_EINVAL,
                      "options.throttle = %g (must be >= 0 or "
                      "INFINITY)",
                      o->throttle);
  if (!(o->alpha >= 0 && o->alpha <= 1))
    return core_error(MINEX_EINVAL, "options.alpha = %g (must be in [0,1])",
                      o->alpha);
  if (o->remap_mode != MINEX_REMAP_RECEIVER &&
      o->remap_mode != MINEX_REMAP_SENDER && o->remap_mode != MINEX_REMAP_BOTH)
    return core_error(MINEX_EINVAL,
                      "options.remap_mode = %d is not a "
                      "minex_remap_mode",
                      (int)o->remap_mode);
  if (o->nthreads < 0 || o->nthreads > MINEX_NTHREADS_MAX)
    return core_error(MINEX_EINVAL,
                      "options.nthreads = %ld (must be in [0, %d]; 0 uses "
                      "every processor of the node)",
                      (long)o->nthreads, MINEX_NTHREADS_MAX);
  if (o->coarse_target < 0 || o->coarse_target > MINEX_COARSE_TARGET_MAX)
    return core_error(MINEX_EINVAL,
                      "options.coarse_target = %ld (must be in "
                      "[0, %ld]; 0 uses coarse_per_proc)",
                      (long)o->coarse_target, (long)MINEX_COARSE_TARGET_MAX);
  if (o->coarse_target == 0 && (o->coarse_per_proc < 1 ||
                                o->coarse_per_proc > MINEX_COARSE_PER_PROC_MAX))
    return core_error(MINEX_EINVAL,
                      "options.coarse_per_proc = %ld (must be "
                      "in [1, %ld])",
                      (long)o->coarse_per_proc,
                      (long)MINEX_COARSE_PER_PROC_MAX);
  /* each contraction step scans a window of 2 * sample_size entries, so
     its cost grows with the option: bounded, not only kept from
     overflowing */
  if (o->sample_size < 1 || o->sample_size > MINEX_SAMPLE_SIZE_MAX)
    return core_error(MINEX_EINVAL,
                      "options.sample_size = %ld (must be in "
                      "[1, %ld])",
                      (long)o->sample_size, (long)MINEX_SAMPLE_SIZE_MAX);
  if (o->global_candidates != 0 && o->global_candidates != 1)
    return core_error(MINEX_EINVAL,
                      "options.global_candidates = %d (must be "
                      "0 or 1)",
                      o->global_candidates);
  if (o->throttle_auto != 0 && o->throttle_auto != 1)
    return core_error(MINEX_EINVAL,
                      "options.throttle_auto = %d (must be 0 "
                      "or 1)",
                      o->throttle_auto);
  if (o->throttle_auto && o->throttle_candidates != NULL) {
    if (o->nthrottle_candidates < 1 ||
        o->nthrottle_candidates > MINEX_THROTTLE_CANDIDATES_MAX)
      return core_error(MINEX_EINVAL,
                        "options.nthrottle_candidates = %d "
                        "(must be in [1, %d] with throttle_candidates)",
                        (int)o->nthrottle_candidates,
                        MINEX_THROTTLE_CANDIDATES_MAX);
    for (int32_t i = 0; i < o->nthrottle_candidates; i++)
      if (!(o->throttle_candidates[i] >= 0))
        return core_error(MINEX_EINVAL,
                          "options.throttle_candidates[%d] = "
                          "%g (must be >= 0 or INFINITY)",
                          (int)i, o->throttle_candidates[i]);
  }
  int rc;
  if ((rc = check_mode(o->refine, "refine", "REFINE", MINEX_REFINE_OFF,
                       MINEX_REFINE_ON, MINEX_REFINE_AUTO)) ||
      (rc = check_mode(o->scratch, "scratch", "SCRATCH", MINEX_SCRATCH_OFF,
                       MINEX_SCRATCH_ON, MINEX_SCRATCH_AUTO)) ||
      (rc = check_mode(o->ladder, "ladder", "LADDER", MINEX_LADDER_OFF,
                       MINEX_LADDER_ON, MINEX_LADDER_AUTO)) ||
      (rc = check_mode(o->balance, "balance", "BALANCE", MINEX_BALANCE_OFF,
                       MINEX_BALANCE_ON, MINEX_BALANCE_AUTO)) ||
      (rc = check_mode(o->rounds, "rounds", "ROUNDS", MINEX_ROUNDS_OFF,
                       MINEX_ROUNDS_ON, MINEX_ROUNDS_AUTO)) ||
      (rc = check_mode(o->cluster_levels, "cluster_levels", "CLUSTER_LEVELS",
                       MINEX_CLUSTER_LEVELS_OFF, MINEX_CLUSTER_LEVELS_ON,
                       MINEX_CLUSTER_LEVELS_AUTO)))
    return rc;
  if (o->global_spread < 1 || o->global_spread > MINEX_GLOBAL_SPREAD_MAX)
    return core_error(MINEX_EINVAL,
                      "options.global_spread = %ld (must be in [1, %d])",
                      (long)o->global_spread, MINEX_GLOBAL_SPREAD_MAX);
  if (o->paper_exact != 0 && o->paper_exact != 1)
    return core_error(MINEX_EINVAL, "options.paper_exact = %d (must be 0 or 1)",
                      o->paper_exact);
  if (o->refine_passes < 0 || o->refine_passes > MINEX_MAX_PASSES_MAX)
    return core_error(MINEX_EINVAL,
                      "options.refine_passes = %ld (must be in [0, %ld])",
                      (long)o->refine_passes, (long)MINEX_MAX_PASSES_MAX);
  if (o->iterations < 0 || o->iterations > MINEX_ITERATIONS_MAX)
    return core_error(MINEX_EINVAL,
                      "options.iterations = %ld (must be in [0, %ld]; 0 "
                      "means 1)",
                      (long)o->iterations, (long)MINEX_ITERATIONS_MAX);
  if (o->max_passes < 0 || o->max_passes > MINEX_MAX_PASSES_MAX)
    return core_error(MINEX_EINVAL,
                      "options.max_passes = %ld (must be in "
                      "[0, %ld]; 0 means 1)",
                      (long)o->max_passes, (long)MINEX_MAX_PASSES_MAX);
  return MINEX_OK;
}

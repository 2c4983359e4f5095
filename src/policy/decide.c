/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether a repartition pays off (SPEC §5; ATOP-grid, Gupta 2006 §6.5:
 * Cost_Effective iff Gain * (1 - Delta_approx) >= Adaptation_cost, with
 * the gain of §6.5.1 taken per step from the cost model). SPEC §5 asks for
 * a strict ">": a repartition that only breaks even is not made. */
#include "core/core.h"

#include <math.h>
#include <string.h>

static int check_nonneg(double x, const char *fn, const char *name) {
  if (!isfinite(x) || x < 0)
    return core_error(MINEX_EINVAL, "%s: %s = %g must be finite and >= 0", fn,
                      name, x);
  return MINEX_OK;
}

int minex_should_repartition(double steady_old, double steady_new,
                             double remap_cost, double steps, double delta,
                             minex_decision *out) {
  core_error_clear();
  const char *fn = "minex_should_repartition";
  int rc;
  if ((rc = check_nonneg(steady_old, fn, "steady_old")) ||
      (rc = check_nonneg(steady_new, fn, "steady_new")) ||
      (rc = check_nonneg(remap_cost, fn, "remap_cost")) ||
      (rc = check_nonneg(steps, fn, "steps")))
    return rc;
  if (!(delta >= 0 && delta < 1))
    return core_error(MINEX_EINVAL, "%s: delta = %g is not in [0,1)", fn,
                      delta);
  if (out == NULL)
    return core_error(MINEX_EINVAL, "%s: out is NULL", fn);
  memset(out, 0, sizeof *out);
  double saving = steady_old - steady_new;
  out->saving_per_step = saving;
  out->remap_cost = remap_cost;
  out->gain = saving * steps * (1 - delta);
  out->repartition = out->gain > remap_cost;
  out->break_even_steps =
      saving > 0 ? remap_cost / (saving * (1 - delta)) : INFINITY;
  return MINEX_OK;
}

/* SPEC §5 in SPEC §2's figures: SteadyMax of old kept and of new_part
 * once moved, and new_part's MaxRemap, so that at delta = 0 the answer is
 * T_steps(new) < T_steps(old) with T_k = MaxRemap + k SteadyMax. None of
 * the three depends on options->iterations: the horizon the partition was
 * made for does not multiply steps. */
int minex_decide(const minex_graph *graph, const minex_config *config,
                 const int32_t *old, const int32_t *new_part,
                 const minex_options *options, double steps, double delta,
                 minex_decision *out) {
  minex_metrics kept, moved;
  int rc;
  if ((rc = minex_evaluate(graph, config, old, old, options, &kept)))
    return rc;
  if ((rc = minex_evaluate(graph, config, old, new_part, options, &moved)))
    return rc;
  minex_decision d;
  if ((rc = minex_should_repartition(kept.steady_max, moved.steady_max,
                                     moved.max_remap, steps, delta, &d)))
    return rc;
  /* old's vertices on unavailable processors must move whatever it costs
     (their load is in no available processor's SteadyMax) */
  if (kept.stranded > 0 && moved.stranded == 0)
    d.repartition = 1;
  *out = d;
  return MINEX_OK;
}

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

int minex_should_repartition(double max_qwgt_old, double max_qwgt_new,
                             double remap_cost, double steps, double delta,
                             minex_decision *out) {
  core_error_clear();
  const char *fn = "minex_should_repartition";
  int rc;
  if ((rc = check_nonneg(max_qwgt_old, fn, "max_qwgt_old")) ||
      (rc = check_nonneg(max_qwgt_new, fn, "max_qwgt_new")) ||
      (rc = check_nonneg(remap_cost, fn, "remap_cost")) ||
      (rc = check_nonneg(steps, fn, "steps")))
    return rc;
  if (!(delta >= 0 && delta < 1))
    return core_error(MINEX_EINVAL, "%s: delta = %g is not in [0,1)", fn,
                      delta);
  if (out == NULL)
    return core_error(MINEX_EINVAL, "%s: out is NULL", fn);
  memset(out, 0, sizeof *out);
  double saving = max_qwgt_old - max_qwgt_new;
  out->saving_per_step = saving;
  out->remap_cost = remap_cost;
  out->gain = saving * steps * (1 - delta);
  out->repartition = out->gain > remap_cost;
  out->break_even_steps =
      saving > 0 ? remap_cost / (saving * (1 - delta)) : INFINITY;
  return MINEX_OK;
}

int minex_decide(const minex_graph *graph, const minex_config *config,
                 const int32_t *old, const int32_t *new_part,
                 const minex_options *options, double steps, double delta,
                 minex_decision *out) {
  minex_metrics kept, moved, settled;
  int rc;
  if ((rc = minex_evaluate(graph, config, old, old, options, &kept)))
    return rc;
  if ((rc = minex_evaluate(graph, config, old, new_part, options, &moved)))
    return rc;
  if ((rc = minex_evaluate(graph, config, new_part, new_part, options,
                           &settled)))
    return rc;
  double remap = moved.max_qwgt - settled.max_qwgt;
  return minex_should_repartition(kept.max_qwgt, settled.max_qwgt,
                                  remap > 0 ? remap : 0, steps, delta, out);
}

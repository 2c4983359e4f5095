/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether a repartition pays off (SPEC §5; ATOP-grid, Gupta 2006 §6.5:
 * Cost_Effective iff Gain * (1 - Delta_approx) >= Adaptation_cost, with
 * the gain of §6.5.1 taken per step from the cost model). SPEC §5 asks for
 * a strict ">": a repartition that only breaks even is not made. */
#include "core/core.h"
#include "driver/run.h"

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
  out->steps = steps;
  out->delta = delta;
  return MINEX_OK;
}

int minex_decision_add_call(minex_decision *d, double call_cost) {
  core_error_clear();
  const char *fn = "minex_decision_add_call";
  if (d == NULL)
    return core_error(MINEX_EINVAL, "%s: d is NULL", fn);
  int rc = check_nonneg(call_cost, fn, "call_cost");
  if (rc != MINEX_OK)
    return rc;
  double call = d->call_cost + call_cost;
  if (!isfinite(call))
    return core_error(MINEX_EINVAL, "%s: call_cost %g + %g is not finite", fn,
                      d->call_cost, call_cost);
  double saving = d->saving_per_step, cost = d->remap_cost + call;
  d->call_cost = call;
  d->repartition = d->forced || d->gain > cost;
  d->break_even_steps =
      saving > 0 ? cost / (saving * (1 - d->delta)) : INFINITY;
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
    d.repartition = d.forced = 1;
  *out = d;
  return MINEX_OK;
}

/* No partition's SteadyMax is below LB: Qwgt^p >= Wgt^p under SPEC §2's
 * formula (alpha min(Wgt, X) <= X), and some available processor's Wgt
 * is at least LB (the Pwgt shares against 1 / Proc sum to 1). */
int minex_decide_before(const minex_graph *graph, const minex_config *config,
                        const int32_t *old, const minex_options *options,
                        double steps, double delta, minex_decision *out) {
  minex_metrics kept;
  int rc;
  if ((rc = minex_evaluate(graph, config, old, old, options, &kept)))
    return rc;
  double floor = options != NULL && options->qwgt_fn != NULL
                     ? 0
                     : fmin(kept.lower_bound, kept.steady_max);
  minex_decision d;
  if ((rc = minex_should_repartition(kept.steady_max, floor, 0, steps, delta,
                                     &d)))
    return rc;
  if (kept.stranded > 0)
    d.repartition = d.forced = 1;
  *out = d;
  return MINEX_OK;
}

int minex_predict_seconds(const minex_graph *graph, const minex_config *config,
                          const minex_options *options, double last_seconds,
                          int64_t last_size, double *seconds) {
  core_error_clear();
  const char *fn = "minex_predict_seconds";
  if (graph == NULL || config == NULL || seconds == NULL)
    return core_error(MINEX_EINVAL, "%s: %s is NULL", fn,
                      graph == NULL    ? "graph"
                      : config == NULL ? "config"
                                       : "seconds");
  int rc = check_nonneg(last_seconds, fn, "last_seconds");
  if (rc != MINEX_OK)
    return rc;
  if (last_seconds > 0 && last_size < 1)
    return core_error(MINEX_EINVAL,
                      "%s: last_size = %lld must be >= 1 with last_seconds "
                      "= %g",
                      fn, (long long)last_size, last_seconds);
  if (options != NULL && (rc = core_check_options(options)) != MINEX_OK)
    return rc;
  int64_t n = graph->nvtxs;
  double size = (double)n + (double)graph->xadj[n];
  if (last_seconds > 0) {
    *seconds = last_seconds * size / (double)last_size;
    return MINEX_OK;
  }
  run_ctx run;
  run_init(&run, options, config, n, 0);
  double candidates = 1 + run.nrungs + (run.scratch ? 1 : 0);
  *seconds = 1e-9 * MINEX_PREDICT_NS_PER_ENTRY * size * candidates;
  return MINEX_OK;
}

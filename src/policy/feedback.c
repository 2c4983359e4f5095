/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Slowdowns measured by the application itself (Watts, Rieffel, Taylor
 * 1998, §2: utilization U = L / C, so the capacity C = L / U is load over
 * the time it took; capacities "calculated dynamically by dividing the
 * total number of particles on each computer by the CPU time required to
 * process them"). Each processor keeps a window of its last capacities;
 * GSL's statistics smooth them (median, or the time-weighted mean). */
#include "policy/feedback.h"

#include <float.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int minex_feedback_create(int32_t nprocs, int32_t window,
                          minex_feedback_estimator estimator,
                          minex_feedback **out) {
  core_error_clear();
  const char *fn = "minex_feedback_create";
  if (out == NULL)
    return core_error(MINEX_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  if (nprocs < 1)
    return core_error(MINEX_EINVAL, "%s: nprocs = %d must be >= 1", fn,
                      (int)nprocs);
  if (window < 1 || window > 1 << 20)
    return core_error(MINEX_EINVAL, "%s: window = %d must be in [1, 2^20]", fn,
                      (int)window);
  if (estimator != MINEX_FEEDBACK_MEDIAN && estimator != MINEX_FEEDBACK_RATIO)
    return core_error(MINEX_EINVAL, "%s: unknown estimator %d", fn,
                      (int)estimator);
  minex_feedback *f = calloc(1, sizeof *f);
  size_t cells = (size_t)nprocs * (size_t)window;
  if (f != NULL) {
    f->load = malloc(sizeof(double) * cells);
    f->secs = malloc(sizeof(double) * cells);
    f->count = calloc((size_t)nprocs, sizeof(int32_t));
    f->next = calloc((size_t)nprocs, sizeof(int32_t));
  }
  if (f == NULL || !f->load || !f->secs || !f->count || !f->next) {
    minex_feedback_destroy(f);
    return core_error(MINEX_ENOMEM, "%s: out of memory for %d x %d samples", fn,
                      (int)nprocs, (int)window);
  }
  f->nprocs = nprocs;
  f->window = window;
  f->est = estimator;
  *out = f;
  return MINEX_OK;
}

void minex_feedback_destroy(minex_feedback *f) {
  if (f == NULL)
    return;
  free(f->load), free(f->secs), free(f->count), free(f->next);
  free(f);
}

int minex_feedback_add(minex_feedback *f, const double *load,
                       const double *seconds) {
  core_error_clear();
  const char *fn = "minex_feedback_add";
  if (f == NULL || load == NULL || seconds == NULL)
    return core_error(MINEX_EINVAL,
                      "%s: feedback, load and seconds must not "
                      "be NULL",
                      fn);
  /* all checked before anything is recorded */
  for (int32_t p = 0; p < f->nprocs; p++) {
    if (!isfinite(load[p]) || load[p] < 0)
      return core_error(MINEX_EINVAL,
                        "%s: load[%d] = %g must be finite and "
                        ">= 0",
                        fn, (int)p, load[p]);
    if (!isfinite(seconds[p]) || seconds[p] < 0)
      return core_error(MINEX_EINVAL,
                        "%s: seconds[%d] = %g must be finite "
                        "and >= 0",
                        fn, (int)p, seconds[p]);
    /* the capacity load/seconds must be a finite positive number too, and
       a window of them must sum without overflow */
    double cap = load[p] / seconds[p];
    if (load[p] > 0 && seconds[p] > 0 &&
        !(isfinite(cap) && cap > 0 && load[p] <= DBL_MAX / f->window &&
          seconds[p] <= DBL_MAX / f->window))
      return core_error(MINEX_EINVAL,
                        "%s: load[%d] = %g in seconds[%d] = %g "
                        "gives the capacity %g: outside the range of a "
                        "double",
                        fn, (int)p, load[p], (int)p, seconds[p], cap);
  }
  for (int32_t p = 0; p < f->nprocs; p++) {
    if (!(load[p] > 0 && seconds[p] > 0))
      continue;
    size_t at = (size_t)p * (size_t)f->window + (size_t)f->next[p];
    f->load[at] = load[p];
    f->secs[at] = seconds[p];
    f->next[p] = (f->next[p] + 1) % f->window;
    if (f->count[p] < f->window)
      f->count[p]++;
  }
#ifdef MINEX_CHECKS
  return policy_feedback_check(f); /* debug builds */
#else
  return MINEX_OK;
#endif
}

/* Smoothed capacity of processor p (its count > 0) and the standard
 * deviation of its window; cap is scratch of window entries. */
static void estimate_one(const minex_feedback *f, int32_t p, double *cap,
                         double *value, double *sd) {
  size_t base = (size_t)p * (size_t)f->window;
  int32_t k = f->count[p];
  double sl = 0, st = 0;
  for (int32_t i = 0; i < k; i++) {
    cap[i] = f->load[base + (size_t)i] / f->secs[base + (size_t)i];
    sl += f->load[base + (size_t)i];
    st += f->secs[base + (size_t)i];
  }
  *sd = k > 1 ? gsl_stats_sd(cap, 1, (size_t)k) : 0.0;
  if (f->est == MINEX_FEEDBACK_RATIO) {
    *value = sl / st;
  } else {
    gsl_sort(cap, 1, (size_t)k);
    *value = gsl_stats_median_from_sorted_data(cap, 1, (size_t)k);
  }
}

/* Capacities of all processors; processors without samples get the median
 * of those with. Returns MINEX_EINVAL when no processor has a sample. */
static int capacities(const minex_feedback *f, double *capacity, double *sd,
                      const char *fn) {
  double *cap = malloc(sizeof(double) * (size_t)f->window);
  double *known = malloc(sizeof(double) * (size_t)f->nprocs);
  if (cap == NULL || known == NULL) {
    free(cap), free(known);
    return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
  }
  size_t nk = 0;
  for (int32_t p = 0; p < f->nprocs; p++) {
    sd[p] = 0;
    capacity[p] = NAN;
    if (f->count[p] == 0)
      continue;
    estimate_one(f, p, cap, &capacity[p], &sd[p]);
    known[nk++] = capacity[p];
  }
  free(cap);
  if (nk == 0) {
    free(known);
    return core_error(MINEX_EINVAL,
                      "%s: no processor has a measured step "
                      "yet (minex_feedback_add with load > 0 and seconds > "
                      "0)",
                      fn);
  }
  gsl_sort(known, 1, nk);
  double med = gsl_stats_median_from_sorted_data(known, 1, nk);
  free(known);
  for (int32_t p = 0; p < f->nprocs; p++)
    if (f->count[p] == 0)
      capacity[p] = med;
  return MINEX_OK;
}

int minex_feedback_estimate(const minex_feedback *f, double *capacity,
                            double *slowdown, double *sd, int32_t *samples) {
  core_error_clear();
  const char *fn = "minex_feedback_estimate";
  if (f == NULL)
    return core_error(MINEX_EINVAL, "%s: feedback is NULL", fn);
  double *cap = malloc(sizeof(double) * (size_t)f->nprocs);
  double *dev = malloc(sizeof(double) * (size_t)f->nprocs);
  if (cap == NULL || dev == NULL) {
    free(cap), free(dev);
    return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
  }
  int rc = capacities(f, cap, dev, fn);
  double best = rc == MINEX_OK ? gsl_stats_max(cap, 1, (size_t)f->nprocs) : 0;
  /* every sample is finite, but capacities far apart still overflow the
     slowdown best/cap (or the deviation): nothing is written then */
  for (int32_t p = 0; p < f->nprocs && rc == MINEX_OK; p++)
    if (!isfinite(best / cap[p]) || !isfinite(dev[p]) || !(cap[p] > 0))
      rc = core_error(MINEX_EINVAL,
                      "%s: processor %d: capacity %g, "
                      "deviation %g, slowdown %g against the best %g: not a "
                      "finite positive number",
                      fn, (int)p, cap[p], dev[p], best / cap[p], best);
  for (int32_t p = 0; p < f->nprocs && rc == MINEX_OK; p++) {
    if (capacity)
      capacity[p] = cap[p];
    if (slowdown)
      slowdown[p] = best / cap[p];
    if (sd)
      sd[p] = dev[p];
    if (samples)
      samples[p] = f->count[p];
  }
  free(cap), free(dev);
  return rc;
}

int minex_feedback_config(const minex_feedback *f, const minex_config *base,
                          int per_processor, minex_config **out) {
  core_error_clear();
  const char *fn = "minex_feedback_config";
  if (out != NULL)
    *out = NULL; /* on every error, the bad arguments included */
  if (f == NULL || base == NULL || out == NULL)
    return core_error(MINEX_EINVAL,
                      "%s: feedback, base and out must not be "
                      "NULL",
                      fn);
  *out = NULL;
  if (base->nprocs != f->nprocs)
    return core_error(MINEX_EINVAL,
                      "%s: base has %d processors, the "
                      "feedback %d",
                      fn, (int)base->nprocs, (int)f->nprocs);
  int32_t P = f->nprocs, C = base->nclusters;
  int32_t nc = per_processor ? P : C;
  double *cap = malloc(sizeof(double) * (size_t)P);
  double *dev = malloc(sizeof(double) * (size_t)P);
  double *proc = malloc(sizeof(double) * (size_t)nc);
  int32_t *np = malloc(sizeof(int32_t) * (size_t)nc);
  double *conn = malloc(sizeof(double) * (size_t)nc * (size_t)nc);
  minex_config *cfg = NULL;
  int rc = MINEX_OK;
  if (!cap || !dev || !proc || !np || !conn) {
    rc = core_error(MINEX_ENOMEM, "%s: out of memory", fn);
    goto done;
  }
  if ((rc = capacities(f, cap, dev, fn)))
    goto done;
  if (per_processor) {
    for (int32_t p = 0; p < P; p++) {
      proc[p] = cap[p];
      np[p] = 1;
      for (int32_t q = 0; q < P; q++)
        conn[(size_t)p * (size_t)P + (size_t)q] =
            base->conn[(size_t)base->cluster[p] * (size_t)C +
                       (size_t)base->cluster[q]];
    }
  } else {
    /* cluster capacity: the median of its processors' (dev as scratch) */
    for (int32_t c = 0; c < C; c++) {
      np[c] = base->csize[c];
      memcpy(conn + (size_t)c * (size_t)C, base->conn + (size_t)c * (size_t)C,
             sizeof(double) * (size_t)C);
      int32_t k = base->csize[c];
      if (k == 0) {
        proc[c] = NAN;
        continue;
      }
      memcpy(dev, cap + base->cfirst[c], sizeof(double) * (size_t)k);
      gsl_sort(dev, 1, (size_t)k);
      proc[c] = gsl_stats_median_from_sorted_data(dev, 1, (size_t)k);
    }
  }
  /* capacities -> slowdowns; empty clusters keep their base Proc */
  double best = 0;
  for (int32_t c = 0; c < nc; c++)
    if (isfinite(proc[c]) && proc[c] > best)
      best = proc[c];
  for (int32_t c = 0; c < nc; c++)
    proc[c] = isfinite(proc[c]) ? best / proc[c] : base->proc[c];
  if ((rc = minex_config_create(nc, np, proc, conn, &cfg)))
    goto done;
  for (int32_t p = 0; p < P; p++)
    if (!base->avail[p]) {
      /* per_processor: processor p is cluster p; otherwise same numbering */
      if ((rc = minex_config_set_available(cfg, p, 0)))
        goto done;
    }
  *out = cfg;
  cfg = NULL;
done:
  minex_config_destroy(cfg);
  free(cap), free(dev), free(proc), free(np), free(conn);
  return rc;
}

int policy_feedback_check(const minex_feedback *f) {
  const char *w = "policy_feedback_check";
  if (f == NULL || !f->load || !f->secs || !f->count || !f->next)
    return core_error(MINEX_EINTERNAL, "%s: feedback or its arrays missing", w);
  if (f->nprocs < 1 || f->window < 1 || f->window > 1 << 20)
    return core_error(MINEX_EINTERNAL, "%s: %d processors, window %d", w,
                      (int)f->nprocs, (int)f->window);
  if (f->est != MINEX_FEEDBACK_MEDIAN && f->est != MINEX_FEEDBACK_RATIO)
    return core_error(MINEX_EINTERNAL, "%s: unknown estimator %d", w,
                      (int)f->est);
  for (int32_t p = 0; p < f->nprocs; p++) {
    int32_t k = f->count[p], nx = f->next[p];
    if (k < 0 || k > f->window || nx < 0 || nx >= f->window)
      return core_error(MINEX_EINTERNAL,
                        "%s: processor %d holds %d samples, "
                        "next slot %d, window %d",
                        w, (int)p, (int)k, (int)nx, (int)f->window);
    /* the ring fills from slot 0: until it is full, next == count */
    if (k < f->window && nx != k)
      return core_error(MINEX_EINTERNAL,
                        "%s: processor %d: %d samples but "
                        "next slot %d",
                        w, (int)p, (int)k, (int)nx);
    size_t base = (size_t)p * (size_t)f->window;
    for (int32_t i = 0; i < k; i++) {
      double l = f->load[base + (size_t)i], t = f->secs[base + (size_t)i];
      /* minex_feedback_add keeps only samples with load, seconds > 0 */
      if (!isfinite(l) || !isfinite(t) || !(l > 0) || !(t > 0))
        return core_error(MINEX_EINTERNAL,
                          "%s: processor %d, sample %d: "
                          "load %g in %g s",
                          w, (int)p, (int)i, l, t);
    }
  }
  return MINEX_OK;
}

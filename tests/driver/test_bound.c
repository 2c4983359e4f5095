/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Load bounds of minex_repartition (options.max_imbalance, target_min,
 * target_max; docs/SPEC.md §3 "Load bounds"): every processor within its
 * bound when one is reachable, recomputed here from the public accessors;
 * the closest partition and MINEX_BOUND_MISSED when none is; the same
 * result for any number of threads; the options' checks. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* L_p (sum of Pwgt on p) and t_p (the speed share of the total), from the
 * public accessors. */
static void loads_targets(const minex_graph *g, const minex_config *cf,
                          const int32_t *part, double *load, double *target) {
  int32_t P = minex_config_nprocs(cf), n = minex_graph_nvtxs(g);
  const double *pw = minex_graph_pwgt(g);
  double tot = 0, speed = 0;
  for (int32_t p = 0; p < P; p++)
    load[p] = 0;
  for (int32_t v = 0; v < n; v++) {
    load[part[v]] += pw[v];
    tot += pw[v];
  }
  for (int32_t p = 0; p < P; p++)
    if (minex_config_is_available(cf, p))
      speed +=
          1 / minex_config_proc_slowdown(cf, minex_config_cluster_of(cf, p));
  for (int32_t p = 0; p < P; p++)
    target[p] = minex_config_is_available(cf, p)
                    ? tot /
                          minex_config_proc_slowdown(
                              cf, minex_config_cluster_of(cf, p)) /
                          speed
                    : 0;
}

/* The largest L_p / t_p over available processors. */
static double ratio_of(const minex_graph *g, const minex_config *cf,
                       const int32_t *part) {
  int32_t P = minex_config_nprocs(cf);
  double *l = malloc(sizeof *l * (size_t)P), *t = malloc(sizeof *t * (size_t)P);
  loads_targets(g, cf, part, l, t);
  double r = 0;
  for (int32_t p = 0; p < P; p++)
    if (t[p] > 0 && l[p] / t[p] > r)
      r = l[p] / t[p];
  free(l);
  free(t);
  return r;
}

START_TEST(reachable_bound_is_met_on_every_processor) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 77);
  int met_changed = 0;
  for (int trial = 0; trial < 24; trial++) {
    int32_t nx = 8 + trial % 5, ny = 7 + trial % 3, nz = 4;
    minex_graph *g = test_grid_graph(nx, ny, nz);
    int32_t n = minex_graph_nvtxs(g);
    double *pw = malloc(sizeof *pw * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      pw[v] = 1 + (double)gsl_rng_uniform_int(rng, 3);
    ck_assert_int_eq(minex_graph_set_weights(g, pw, NULL, NULL), MINEX_OK);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t P = minex_config_nprocs(cf);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *nw = malloc(sizeof *nw * (size_t)n);
    int32_t *nw3 = malloc(sizeof *nw3 * (size_t)n);
    for (int32_t v = 0; v < n; v++) /* skewed blocks: low ids own more */
      old[v] = (int32_t)(P * pow((v + 0.5) / n, 1.5 + trial % 3));
    minex_options o;
    minex_options_init(&o);
    o.max_imbalance = trial % 2 ? 1.05 : 1.02;
    o.iterations = 1 + 9 * (trial % 3 == 2);
    o.seed = (uint64_t)trial;
    minex_metrics m, e;
    ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, &m), MINEX_OK);
    double *l = malloc(sizeof *l * (size_t)P),
           *t = malloc(sizeof *t * (size_t)P);
    loads_targets(g, cf, nw, l, t);
    for (int32_t p = 0; p < P; p++) {
      ck_assert(minex_config_is_available(cf, p) || l[p] == 0);
      ck_assert_msg(l[p] <= o.max_imbalance * t[p] * (1 + 1e-12),
                    "trial %d: processor %d load %g above %g x target %g",
                    trial, (int)p, l[p], o.max_imbalance, t[p]);
    }
    ck_assert_int_eq(m.bound_status, MINEX_BOUND_MET);
    ck_assert_double_eq(m.bound_excess, 0);
    ck_assert(test_close(m.imbalance, ratio_of(g, cf, nw), 1e-12));
    /* the figures are the returned partition's */
    ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &o, &e), MINEX_OK);
    ck_assert(test_close(m.max_qwgt, e.max_qwgt, 1e-12));
    ck_assert_int_eq(m.moved, e.moved);
    /* the guarantee among partitions meeting the bound: old when it meets
       the bound and nothing better */
    minex_metrics mo;
    ck_assert_int_eq(minex_evaluate(g, cf, old, old, &o, &mo), MINEX_OK);
    if (ratio_of(g, cf, old) <= o.max_imbalance)
      ck_assert_double_le(m.max_qwgt, mo.max_qwgt);
    /* without the bound the result may miss it: count the cases that the
       bound changed */
    minex_options o0 = o;
    o0.max_imbalance = 0;
    ck_assert_int_eq(minex_repartition(g, cf, old, &o0, nw3, &e), MINEX_OK);
    ck_assert_int_eq(e.bound_status, MINEX_BOUND_NONE);
    if (ratio_of(g, cf, nw3) > o.max_imbalance * (1 + 1e-12))
      met_changed++;
    /* any number of threads, the same partition */
    o.nthreads = 3;
    ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw3, NULL), MINEX_OK);
    ck_assert_mem_eq(nw, nw3, sizeof *nw * (size_t)n);
    free(l);
    free(t);
    free(pw);
    free(old);
    free(nw);
    free(nw3);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  /* the bound did work: some unbounded results were outside it */
  ck_assert_int_gt(met_changed, 0);
  gsl_rng_free(rng);
}
END_TEST

/* Random graphs (disconnected ones too), machines with an unavailable
 * processor, skewed old partitions: whenever every vertex is light
 * against the slack of the smallest target (a partition within the bound
 * then exists), the bound is met; always, the status and the figures are
 * the recomputed ones. */
START_TEST(random_cases_meet_the_bound_whenever_the_slack_allows) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 4242);
  static const double bounds[] = {1.02, 1.05, 1.1};
  int asserted = 0;
  for (int trial = 0; trial < 40; trial++) {
    int32_t n = 300 + (int32_t)gsl_rng_uniform_int(rng, 2700);
    minex_graph *g = test_random_graph(rng, n, 1.0 + trial % 6, trial % 2);
    minex_config *cf = test_random_config(rng, 3, 5);
    int32_t P = minex_config_nprocs(cf);
    if (P > 2)
      minex_config_set_available(cf, (int32_t)gsl_rng_uniform_int(rng, P), 0);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *nw = malloc(sizeof *nw * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      old[v] = (int32_t)(P * pow(gsl_rng_uniform(rng), 2.0));
    minex_options o;
    minex_options_init(&o);
    o.max_imbalance = bounds[trial % 3];
    o.iterations = 1 + 99 * (trial % 4 == 3);
    o.alpha = trial % 5 == 4 ? 0.5 : 0;
    minex_metrics m;
    ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, &m), MINEX_OK);
    double *l = malloc(sizeof *l * (size_t)P),
           *t = malloc(sizeof *t * (size_t)P);
    loads_targets(g, cf, nw, l, t);
    double tmin = INFINITY, pmax = 0, excess = 0;
    for (int32_t p = 0; p < P; p++) {
      ck_assert(minex_config_is_available(cf, p) || l[p] == 0);
      if (t[p] > 0 && t[p] < tmin)
        tmin = t[p];
      if (l[p] > o.max_imbalance * t[p])
        excess += l[p] - o.max_imbalance * t[p];
    }
    for (int32_t v = 0; v < n; v++)
      pmax = fmax(pmax, minex_graph_pwgt(g)[v]);
    double tot = 0;
    for (int32_t p = 0; p < P; p++)
      tot += l[p];
    if (pmax <= (o.max_imbalance - 1) * tmin) {
      asserted++;
      ck_assert_msg(m.bound_status == MINEX_BOUND_MET,
                    "trial %d: bound %g missed (imbalance %g, excess %g)",
                    trial, o.max_imbalance, m.imbalance, m.bound_excess);
    }
    ck_assert_int_eq(m.bound_status, excess <= 1e-12 * tot
                                         ? MINEX_BOUND_MET
                                         : MINEX_BOUND_MISSED);
    ck_assert(
        test_close(m.bound_excess, excess <= 1e-12 * tot ? 0 : excess, 1e-9));
    ck_assert(test_close(m.imbalance, ratio_of(g, cf, nw), 1e-12));
    free(l);
    free(t);
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  ck_assert_int_gt(asserted, 5);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(unreachable_bound_returns_the_closest_and_reports_it) {
  /* a path of 4 vertices, Pwgt 1 1 1 9, on 2 equal processors: the target
     is 6 each, the heaviest vertex alone is 1.5 x target */
  int64_t xadj[] = {0, 1, 3, 5, 6};
  int32_t adj[] = {1, 0, 2, 1, 3, 2};
  double pw[] = {1, 1, 1, 9};
  minex_graph *g;
  ck_assert_int_eq(minex_graph_create(4, xadj, adj, pw, NULL, NULL, &g),
                   MINEX_OK);
  minex_config *cf;
  ck_assert_int_eq(minex_config_create_uniform(2, &cf), MINEX_OK);
  int32_t old[] = {0, 0, 1, 1}, nw[4];
  minex_options o;
  minex_options_init(&o);
  o.max_imbalance = 1.05;
  minex_metrics m;
  ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, &m), MINEX_OK);
  ck_assert_int_eq(m.bound_status, MINEX_BOUND_MISSED);
  /* the best reachable: 9 alone, 3 on the other (excess 9 - 6.3) */
  ck_assert(test_close(m.imbalance, 1.5, 1e-12));
  ck_assert(test_close(m.bound_excess, 9 - 1.05 * 6, 1e-12));
  ck_assert_int_ne(nw[3], nw[0]);
  ck_assert_int_eq(nw[0], nw[1]);
  ck_assert_int_eq(nw[1], nw[2]);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

START_TEST(per_processor_targets_are_bounds_relative_to_the_target) {
  minex_graph *g = test_grid_graph(10, 10, 2);
  int32_t n = minex_graph_nvtxs(g);
  minex_config *cf;
  ck_assert_int_eq(minex_config_create_uniform(4, &cf), MINEX_OK);
  int32_t *old = malloc(sizeof *old * (size_t)n);
  int32_t *nw = malloc(sizeof *nw * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    old[v] = (int32_t)(4 * v / n);
  double lo[] = {0, 0, 1.2, 0}, hi[] = {0.5, INFINITY, INFINITY, 1.1};
  minex_options o;
  minex_options_init(&o);
  o.target_min = lo;
  o.target_max = hi;
  minex_metrics m;
  ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, &m), MINEX_OK);
  ck_assert_int_eq(m.bound_status, MINEX_BOUND_MET);
  double l[4], t[4];
  loads_targets(g, cf, nw, l, t);
  for (int p = 0; p < 4; p++) {
    ck_assert_msg(l[p] <= hi[p] * t[p] * (1 + 1e-12), "p %d: %g > %g", p, l[p],
                  hi[p] * t[p]);
    ck_assert_msg(l[p] >= lo[p] * t[p] * (1 - 1e-12), "p %d: %g < %g", p, l[p],
                  lo[p] * t[p]);
  }
  free(old);
  free(nw);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

START_TEST(bad_bounds_are_refused_naming_them) {
  minex_graph *g = test_grid_graph(4, 4, 1);
  minex_config *cf;
  ck_assert_int_eq(minex_config_create_uniform(2, &cf), MINEX_OK);
  int32_t old[16], nw[16], keep[16];
  for (int v = 0; v < 16; v++)
    old[v] = nw[v] = keep[v] = v % 2;
  minex_options o;
  minex_options_init(&o);
  o.max_imbalance = 0.5;
  ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "max_imbalance"));
  o.max_imbalance = NAN;
  ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, NULL), MINEX_EINVAL);
  o.max_imbalance = 0;
  double lo[] = {-1, 0}, hi[] = {1, 0.5}, lo2[] = {0, 1};
  o.target_min = lo;
  ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "target_min[0]"));
  o.target_min = lo2;
  o.target_max = hi;
  ck_assert_int_eq(minex_repartition(g, cf, old, &o, nw, NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "target_max[1]"));
  ck_assert_mem_eq(nw, keep, sizeof nw);
  double v;
  ck_assert_int_eq(minex_options_set(&o, "max_imbalance", 1.05), MINEX_OK);
  ck_assert_int_eq(minex_options_get(&o, "max_imbalance", &v), MINEX_OK);
  ck_assert_double_eq(v, 1.05);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bound");
  TCase *tc = tcase_create("bound");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, reachable_bound_is_met_on_every_processor);
  tcase_add_test(tc, unreachable_bound_returns_the_closest_and_reports_it);
  tcase_add_test(tc, random_cases_meet_the_bound_whenever_the_slack_allows);
  tcase_add_test(tc, per_processor_targets_are_bounds_relative_to_the_target);
  tcase_add_test(tc, bad_bounds_are_refused_naming_them);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

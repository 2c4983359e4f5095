/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/policy/decide.c and allocate.c: the repartition-or-not
 * rule (SPEC §5) and the largest-remainder allocation of partitions
 * (ATOP-grid, Gupta 2006 §5.5.1 worked example). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

START_TEST(rule_arithmetic) {
  minex_decision d;
  /* saving 20 per step, 10 steps, no tolerance: gain 200 > 150 */
  ck_assert_int_eq(minex_should_repartition(100, 80, 150, 10, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 1);
  ck_assert(fabs(d.saving_per_step - 20) < 1e-15);
  ck_assert(fabs(d.gain - 200) < 1e-12);
  ck_assert(fabs(d.break_even_steps - 7.5) < 1e-12);
  ck_assert(fabs(d.remap_cost - 150) < 1e-15);
  /* a tolerance of 0.3 discounts the gain to 140 < 150 */
  ck_assert_int_eq(minex_should_repartition(100, 80, 150, 10, 0.3, &d),
                   MINEX_OK);
  ck_assert_int_eq(d.repartition, 0);
  ck_assert(fabs(d.gain - 140) < 1e-12);
  ck_assert(fabs(d.break_even_steps - 150 / 14.0) < 1e-12);
  /* breaking even exactly is not enough (SPEC §5: "exceeds") */
  ck_assert_int_eq(minex_should_repartition(100, 80, 200, 10, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 0);
  ck_assert(fabs(d.break_even_steps - 10) < 1e-12);
  /* more steps make it pay */
  ck_assert_int_eq(minex_should_repartition(100, 80, 200, 11, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 1);
  /* nothing to save: never, break-even infinite */
  ck_assert_int_eq(minex_should_repartition(80, 80, 0, 1e6, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 0);
  ck_assert(isinf(d.break_even_steps));
  ck_assert_int_eq(minex_should_repartition(80, 90, 1, 10, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 0);
  ck_assert(d.saving_per_step < 0);
  /* free remapping and any saving: yes */
  ck_assert_int_eq(minex_should_repartition(80, 79, 0, 1, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 1);
  ck_assert(fabs(d.break_even_steps) < 1e-15);
  /* bad arguments */
  ck_assert_int_eq(minex_should_repartition(-1, 0, 0, 1, 0, &d), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "steady_old") != NULL);
  ck_assert_int_eq(minex_should_repartition(1, NAN, 0, 1, 0, &d), MINEX_EINVAL);
  ck_assert_int_eq(minex_should_repartition(1, 0, 0, 1, 1.0, &d), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "delta") != NULL);
  ck_assert_int_eq(minex_should_repartition(1, 0, 0, INFINITY, 0, &d),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_should_repartition(1, 0, 0, 1, 0, NULL), MINEX_EINVAL);
}
END_TEST

/* minex_decide against the brute-force evaluator (test_util): SteadyMax
 * of old and new and new's MaxRemap (SPEC §5 in SPEC §2's figures),
 * recomputed from scratch. */
START_TEST(decide_matches_cost_model) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  for (int trial = 0; trial < 30; trial++) {
    int32_t n = 20 + (int32_t)gsl_rng_uniform_int(rng, 200);
    minex_graph *g = test_random_graph(rng, n, 5.0, 1);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    test_random_part(rng, cf, n, old);
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = trial % 3 == 0 ? 0.5 : 0.0;
    opt.remap_mode = trial % 2 ? MINEX_REMAP_BOTH : MINEX_REMAP_RECEIVER;
    minex_metrics mm;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, &mm), MINEX_OK);
    double steps = 1 + (double)gsl_rng_uniform_int(rng, 20);
    double delta = trial % 4 == 0 ? 0.2 : 0.0;
    minex_decision d;
    ck_assert_int_eq(minex_decide(g, cf, old, nw, &opt, steps, delta, &d),
                     MINEX_OK);
    minex_metrics kept, moved;
    test_brute_metrics_k(g, cf, old, old, opt.alpha, opt.remap_mode, 1, &kept,
                         NULL);
    test_brute_metrics_k(g, cf, old, nw, opt.alpha, opt.remap_mode, 1, &moved,
                         NULL);
    double saving = kept.steady_max - moved.steady_max;
    double remap = moved.max_remap;
    ck_assert(test_close(d.saving_per_step, saving, 1e-9));
    ck_assert(test_close(d.remap_cost, remap, 1e-9));
    ck_assert_int_eq(d.repartition, saving * steps * (1 - delta) > remap);
    /* keeping old: nothing saved, nothing to pay, never worth it */
    ck_assert_int_eq(minex_decide(g, cf, old, old, &opt, steps, 0, &d),
                     MINEX_OK);
    ck_assert_int_eq(d.repartition, 0);
    ck_assert(fabs(d.remap_cost) < 1e-12);
    free(old), free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  gsl_rng_free(rng);
}
END_TEST

/* The decision agrees with T_k (SPEC §5): at delta = 0,
 * repartition iff T_steps(new) < T_steps(old), T scored by minex_evaluate
 * under the horizon k = steps; the remap cost is new's MaxRemap (before,
 * MaxQwgt(moving step) - MaxQwgt(new), often 0 beside a MaxRemap in the
 * thousands); and the horizon the partition was made for
 * (options.iterations) does not multiply steps. */
START_TEST(decide_agrees_with_horizon_time) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 18);
  int yes = 0, no = 0;
  for (int trial = 0; trial < 40; trial++) {
    int32_t n = 40 + (int32_t)gsl_rng_uniform_int(rng, 200);
    minex_graph *g = test_random_graph(rng, n, 5.0, 1);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    test_random_part(rng, cf, n, old);
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = trial % 3 == 0 ? 1.0 : 0.0;
    opt.remap_mode = trial % 2 ? MINEX_REMAP_BOTH : MINEX_REMAP_RECEIVER;
    /* MinEX's answer, or another random partition (a poor candidate) */
    if (trial % 2)
      ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_OK);
    else
      test_random_part(rng, cf, n, nw);
    int32_t steps = 1 + (int32_t)gsl_rng_uniform_int(rng, 30);
    minex_options ok = opt;
    ok.iterations = steps;
    minex_metrics mo, mn;
    ck_assert_int_eq(minex_evaluate(g, cf, old, old, &ok, &mo), MINEX_OK);
    ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &ok, &mn), MINEX_OK);
    minex_decision d, dk;
    ck_assert_int_eq(minex_decide(g, cf, old, nw, &opt, steps, 0, &d),
                     MINEX_OK);
    ck_assert(test_close(d.remap_cost, mn.max_remap, 1e-12));
    /* T_steps(old) - T_steps(new) = gain - remap_cost */
    ck_assert(test_close(mo.horizon_time - mn.horizon_time,
                         d.gain - d.remap_cost, 1e-9 * (1 + mo.horizon_time)));
    if (fabs(mo.horizon_time - mn.horizon_time) > 1e-9 * mo.horizon_time) {
      ck_assert_int_eq(d.repartition, mn.horizon_time < mo.horizon_time);
      yes += d.repartition;
      no += !d.repartition;
    }
    /* the partition's own horizon does not enter */
    opt.iterations = 1 + (int32_t)gsl_rng_uniform_int(rng, 1000);
    ck_assert_int_eq(minex_decide(g, cf, old, nw, &opt, steps, 0, &dk),
                     MINEX_OK);
    ck_assert_int_eq(dk.repartition, d.repartition);
    ck_assert(dk.gain == d.gain && dk.remap_cost == d.remap_cost);
    free(old), free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  /* both answers occurred: the comparison was not vacuous */
  ck_assert_int_gt(yes, 0);
  ck_assert_int_gt(no, 0);
  gsl_rng_free(rng);
}
END_TEST

/* A vertex of old on an unavailable processor must move: the decision is
 * yes whatever the figures (its load is in no available SteadyMax). */
START_TEST(decide_moves_off_unavailable_processors) {
  minex_graph *g = NULL;
  const int64_t xadj[] = {0, 1, 2};
  const int32_t adj[] = {1, 0};
  ck_assert_int_eq(minex_graph_create(2, xadj, adj, NULL, NULL, NULL, &g),
                   MINEX_OK);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(2, &cf), MINEX_OK);
  ck_assert_int_eq(minex_config_set_available(cf, 1, 0), MINEX_OK);
  int32_t old[2] = {0, 1}, nw[2] = {0, 0};
  minex_decision d;
  ck_assert_int_eq(minex_decide(g, cf, old, nw, NULL, 0, 0, &d), MINEX_OK);
  ck_assert_int_eq(d.repartition, 1);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

/* SPEC §5 "the repartitioner's own time": the call's cost joins the
 * one-off costs and turns a paying repartition into one that does not. */
START_TEST(call_cost_arithmetic) {
  minex_decision d;
  /* saving 20 per step over 10 steps: gain 200 against 150 */
  ck_assert_int_eq(minex_should_repartition(100, 80, 150, 10, 0, &d), MINEX_OK);
  ck_assert(d.call_cost == 0 && d.steps == 10 && d.delta == 0);
  ck_assert_int_eq(minex_decision_add_call(&d, 40), MINEX_OK);
  ck_assert_int_eq(d.repartition, 1); /* 190 < 200 */
  ck_assert(fabs(d.break_even_steps - 9.5) < 1e-12);
  ck_assert_int_eq(minex_decision_add_call(&d, 20), MINEX_OK);
  ck_assert_int_eq(d.repartition, 0); /* 210 > 200 */
  ck_assert(fabs(d.call_cost - 60) < 1e-12);
  ck_assert(fabs(d.break_even_steps - 10.5) < 1e-12);
  ck_assert(fabs(d.gain - 200) < 1e-12 && fabs(d.remap_cost - 150) < 1e-12);
  /* the tolerance stays in the break-even: (150 + 10) / (20 * 0.5) */
  ck_assert_int_eq(minex_should_repartition(100, 80, 150, 10, 0.5, &d),
                   MINEX_OK);
  ck_assert_int_eq(minex_decision_add_call(&d, 10), MINEX_OK);
  ck_assert_int_eq(d.repartition, 0);
  ck_assert(fabs(d.break_even_steps - 16) < 1e-12);
  /* nothing saved: never, whatever the call costs */
  ck_assert_int_eq(minex_should_repartition(80, 80, 0, 10, 0, &d), MINEX_OK);
  ck_assert_int_eq(minex_decision_add_call(&d, 0), MINEX_OK);
  ck_assert_int_eq(d.repartition, 0);
  ck_assert(isinf(d.break_even_steps));
  /* bad arguments leave d as it was */
  minex_decision before = d;
  ck_assert_int_eq(minex_decision_add_call(&d, -1), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "call_cost") != NULL);
  ck_assert_int_eq(minex_decision_add_call(&d, NAN), MINEX_EINVAL);
  ck_assert_int_eq(minex_decision_add_call(&d, INFINITY), MINEX_EINVAL);
  ck_assert_int_eq(memcmp(&d, &before, sizeof d), 0);
  ck_assert_int_eq(minex_decision_add_call(NULL, 1), MINEX_EINVAL);
}
END_TEST

/* minex_decide_before bounds every partition's saving: SteadyMax(old) -
 * LB (LB recomputed from scratch) is at least the saving of MinEX's
 * answer and of random partitions, so a "no" before the call is a "no"
 * after it for the same call cost. */
START_TEST(decide_before_bounds_every_partition) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 55);
  int no_before = 0;
  for (int trial = 0; trial < 30; trial++) {
    int32_t n = 30 + (int32_t)gsl_rng_uniform_int(rng, 200);
    minex_graph *g = test_random_graph(rng, n, 5.0, 1);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    test_random_part(rng, cf, n, old);
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = trial % 3 == 0 ? 1.0 : trial % 3 == 1 ? 0.5 : 0.0;
    double steps = 1 + (double)gsl_rng_uniform_int(rng, 50);
    minex_decision db, da;
    ck_assert_int_eq(minex_decide_before(g, cf, old, &opt, steps, 0, &db),
                     MINEX_OK);
    minex_metrics kept;
    test_brute_metrics_k(g, cf, old, old, opt.alpha, opt.remap_mode, 1, &kept,
                         NULL);
    double psum = 0, speed = 0;
    for (int32_t v = 0; v < n; v++)
      psum += minex_graph_pwgt(g)[v];
    for (int32_t p = 0; p < minex_config_nprocs(cf); p++)
      if (minex_config_is_available(cf, p))
        speed +=
            1 / minex_config_proc_slowdown(cf, minex_config_cluster_of(cf, p));
    double lb = fmin(psum / speed, kept.steady_max);
    ck_assert(test_close(db.saving_per_step, kept.steady_max - lb, 1e-9));
    ck_assert(db.remap_cost == 0);
    /* half the bound's gain as the call's cost */
    double call = 0.5 * db.gain + (trial % 5 == 0 ? db.gain : 0);
    ck_assert_int_eq(minex_decision_add_call(&db, call), MINEX_OK);
    for (int w = 0; w < 2; w++) {
      if (w == 0)
        ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL),
                         MINEX_OK);
      else
        test_random_part(rng, cf, n, nw);
      ck_assert_int_eq(minex_decide(g, cf, old, nw, &opt, steps, 0, &da),
                       MINEX_OK);
      ck_assert(da.saving_per_step <=
                db.saving_per_step + 1e-9 * (1 + kept.steady_max));
      ck_assert_int_eq(minex_decision_add_call(&da, call), MINEX_OK);
      if (!db.repartition)
        ck_assert_int_eq(da.repartition, 0);
    }
    no_before += !db.repartition;
    free(old), free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  ck_assert_int_gt(no_before, 0); /* the implication was exercised */
  gsl_rng_free(rng);
}
END_TEST

/* The prediction scales the last call by the size, or counts the
 * candidates the options make at MINEX_PREDICT_NS_PER_ENTRY. */
START_TEST(predict_seconds) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 3);
  minex_graph *g = test_random_graph(rng, 300, 5.0, 1);
  minex_config *cf = test_random_config(rng, 2, 4);
  double size = 300 + (double)minex_graph_nedges(g) * 2, s1, s100, s;
  ck_assert_int_eq(minex_predict_seconds(g, cf, NULL, 0, 0, &s1), MINEX_OK);
  ck_assert(test_close(s1, 1e-9 * MINEX_PREDICT_NS_PER_ENTRY * size, 1e-12));
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = 100; /* the ladder's rungs and the from-scratch candidate */
  ck_assert_int_eq(minex_predict_seconds(g, cf, &opt, 0, 0, &s100), MINEX_OK);
  ck_assert(test_close(s100, s1 * (2 + MINEX_LADDER_MAX), 1e-12));
  opt.paper_exact = 1;
  ck_assert_int_eq(minex_predict_seconds(g, cf, &opt, 0, 0, &s), MINEX_OK);
  ck_assert(test_close(s, s1, 1e-12));
  /* the last call's 0.5 s on a graph of twice the size */
  ck_assert_int_eq(
      minex_predict_seconds(g, cf, NULL, 0.5, (int64_t)(2 * size), &s),
      MINEX_OK);
  ck_assert(test_close(s, 0.25, 1e-12));
  ck_assert_int_eq(minex_predict_seconds(g, cf, NULL, 0.5, 0, &s),
                   MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "last_size") != NULL);
  ck_assert_int_eq(minex_predict_seconds(g, cf, NULL, -1, 10, &s),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_predict_seconds(g, cf, NULL, NAN, 10, &s),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_predict_seconds(NULL, cf, NULL, 0, 0, &s),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_predict_seconds(g, cf, NULL, 0, 0, NULL),
                   MINEX_EINVAL);
  opt.alpha = 2;
  ck_assert_int_eq(minex_predict_seconds(g, cf, &opt, 0, 0, &s), MINEX_EINVAL);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
  gsl_rng_free(rng);
}
END_TEST

/* Gupta 2006, §5.5.1: site 1 measures ARM {1,1,1,1,1,1,1.5,1.5}, so
 * AWVec_local = {1,1,1,1,1,1,0.66,0.66}; 64 partitions give
 * {9,9,9,9,8,8,6,6} (the thesis prints a 9-entry vector
 * {9,9,9,9,9,8,8,6,6} for 8 nodes, one 9 too many: its sum is 73). Site 2
 * is co-scheduled on 4 nodes, EShare {0.625 x4, 1 x4}: {6,6,6,6,10,10,10,
 * 10} (printed {6,6,6,6,9,9,9,9,9}, again 9 entries). */
START_TEST(atop_worked_example) {
  const double w1[8] = {1, 1, 1, 1, 1, 1, 0.66, 0.66};
  const double w2[8] = {0.625, 0.625, 0.625, 0.625, 1, 1, 1, 1};
  const int32_t want1[8] = {9, 9, 9, 9, 8, 8, 6, 6};
  const int32_t want2[8] = {6, 6, 6, 6, 10, 10, 10, 10};
  int32_t got[16];
  ck_assert_int_eq(minex_allocate(8, w1, 64, got), MINEX_OK);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(got[i], want1[i]);
  ck_assert_int_eq(minex_allocate(8, w2, 64, got), MINEX_OK);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(got[i], want2[i]);
  /* global step: AWVec_global = {7.32, 6.5}, 128 partitions -> 68 and 60 */
  double both[16];
  memcpy(both, w1, sizeof w1);
  memcpy(both + 8, w2, sizeof w2);
  int32_t sizes[2] = {8, 8}, sites[2];
  ck_assert_int_eq(minex_allocate_sites(2, sizes, both, NULL, 128, sites, got),
                   MINEX_OK);
  ck_assert_int_eq(sites[0], 68);
  ck_assert_int_eq(sites[1], 60);
  int32_t s0 = 0, s1 = 0;
  for (int i = 0; i < 8; i++)
    s0 += got[i], s1 += got[8 + i];
  ck_assert_int_eq(s0, 68);
  ck_assert_int_eq(s1, 60);
  /* each site's share goes out by its own weights: 68 over w1 */
  int32_t local[8];
  ck_assert_int_eq(minex_allocate(8, w1, 68, local), MINEX_OK);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(got[i], local[i]);
  /* site 2's 60 after the global step: {6,6,6,6,9,9,9,9}, which is the
     thesis' printed site-2 vector without its ninth entry (docs/design/drum.md)
   */
  const int32_t want60[8] = {6, 6, 6, 6, 9, 9, 9, 9};
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(got[8 + i], want60[i]);
  /* initial state of the example: equal weights, 64 + 64 */
  double ones[16];
  for (int i = 0; i < 16; i++)
    ones[i] = 1;
  ck_assert_int_eq(minex_allocate_sites(2, sizes, ones, NULL, 128, sites, got),
                   MINEX_OK);
  ck_assert_int_eq(sites[0], 64);
  ck_assert_int_eq(got[15], 8);
  /* a communication factor halves site 1's weight: 128 * 4 / 12 */
  double fac[2] = {0.5, 1};
  ck_assert_int_eq(minex_allocate_sites(2, sizes, ones, fac, 128, sites, got),
                   MINEX_OK);
  ck_assert_int_eq(sites[0], 43);
  ck_assert_int_eq(sites[1], 85);
}
END_TEST

/* Largest remainder on random inputs: the sum is exact, each count is
 * within one of its quota (floor or ceiling), a count above its floor never
 * has a smaller remainder than one left at its floor, and more partitions
 * never give anyone fewer when the weights are equal. */
START_TEST(allocation_properties) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 11);
  for (int trial = 0; trial < 500; trial++) {
    int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, 20);
    int32_t total = (int32_t)gsl_rng_uniform_int(rng, 300);
    double w[20], sum = 0;
    int32_t c[20];
    for (int32_t i = 0; i < n; i++) {
      w[i] = trial % 5 == 0 ? 1.0 : gsl_rng_uniform(rng) * 3;
      if (trial % 7 == 0 && i % 3 == 1)
        w[i] = 0;
      sum += w[i];
    }
    if (!(sum > 0)) {
      w[0] = 1;
      sum = 1;
    }
    ck_assert_int_eq(minex_allocate(n, w, total, c), MINEX_OK);
    int64_t s = 0;
    double rmin_up = 2, rmax_down = -1;
    for (int32_t i = 0; i < n; i++) {
      double q = total * (w[i] / sum);
      ck_assert(c[i] >= floor(q) - 1e-9 && c[i] <= ceil(q) + 1e-9);
      if (w[i] == 0)
        ck_assert_int_eq(c[i], 0);
      double r = q - floor(q);
      if (c[i] > floor(q) + 0.5)
        rmin_up = fmin(rmin_up, r);
      else if (w[i] > 0)
        rmax_down = fmax(rmax_down, r);
      s += c[i];
    }
    ck_assert_int_eq(s, total);
    ck_assert(rmin_up >= rmax_down - 1e-12);
  }
  int32_t c[3];
  const double w[3] = {1, 2, 3};
  const double bad[3] = {1, -1, 3}, zero[3] = {0, 0, 0};
  ck_assert_int_eq(minex_allocate(3, w, 0, c), MINEX_OK);
  ck_assert_int_eq(c[0] + c[1] + c[2], 0);
  ck_assert_int_eq(minex_allocate(3, bad, 10, c), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "weights[1]") != NULL);
  ck_assert_int_eq(minex_allocate(3, zero, 10, c), MINEX_EINVAL);
  ck_assert_int_eq(minex_allocate(3, w, -1, c), MINEX_EINVAL);
  ck_assert_int_eq(minex_allocate(0, w, 1, c), MINEX_EINVAL);
  int32_t sz[2] = {2, 0}, sc[2];
  ck_assert_int_eq(minex_allocate_sites(2, sz, w, NULL, 5, sc, c),
                   MINEX_EINVAL);
  gsl_rng_free(rng);
}
END_TEST

int main(void) {
  Suite *s = suite_create("decide");
  TCase *tc = tcase_create("decide");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, rule_arithmetic);
  tcase_add_test(tc, decide_matches_cost_model);
  tcase_add_test(tc, decide_agrees_with_horizon_time);
  tcase_add_test(tc, decide_moves_off_unavailable_processors);
  tcase_add_test(tc, call_cost_arithmetic);
  tcase_add_test(tc, decide_before_bounds_every_partition);
  tcase_add_test(tc, predict_seconds);
  tcase_add_test(tc, atop_worked_example);
  tcase_add_test(tc, allocation_properties);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The invariant checks of MINEX_CHECKS builds are wired into
 * minex_repartition (src/driver/repartition.c): a user Qwgt
 * function that drifts between calls makes the running loads disagree
 * with their recomputation, which costmodel_loads_check reports at the
 * first phase boundary. Without MINEX_CHECKS the call goes through. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double drifting_qwgt(double wgt, double comm, double remap, void *ctx) {
  double *drift = ctx;
  *drift += 1e-3; /* a different value at every call: not a function */
  return wgt + comm + remap + *drift;
}

START_TEST(a_failed_check_stops_the_repartition_with_its_name) {
  minex_graph *g = test_grid_graph(8, 8, 2);
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_config_create_uniform(4, &cfg), MINEX_OK);
  int32_t n = minex_graph_nvtxs(g), old[128], out[128];
  ck_assert_int_eq(n, 128);
  for (int32_t v = 0; v < n; v++)
    old[v] = v < 80 ? 0 : 1 + v % 3;
  minex_options opt;
  minex_options_init(&opt);
  double drift = 0;
  opt.qwgt_fn = drifting_qwgt;
  opt.qwgt_ctx = &drift;
  int rc = minex_repartition(g, cfg, old, &opt, out, NULL);
#ifdef MINEX_CHECKS
  ck_assert_int_eq(rc, MINEX_EINTERNAL);
  ck_assert_msg(strstr(minex_last_error(),
                       "costmodel_loads_check failed "
                       "at the start of a candidate") != NULL,
                "%s", minex_last_error());
#else
  ck_assert_int_eq(rc, MINEX_OK);
#endif
  /* a consistent function passes every check */
  opt.qwgt_fn = NULL;
  ck_assert_msg(minex_repartition(g, cfg, old, &opt, out, NULL) == MINEX_OK,
                "%s", minex_last_error());
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}
END_TEST

/* A slow cluster (Proc 1e6 to 1e8) holding most of the old
 * partition. Its loads leave the running QwgtTot as the vertices move
 * off, but their rounding stays: with tolerances relative to the total of
 * the moment, costmodel_loads_check refused 47 of 200 such valid inputs
 * ("QwgtTot 1792, recomputed 1792"). The tolerance is now relative to the
 * magnitudes summed; every case must pass every check. */
START_TEST(checks_accept_slowdowns_up_to_1e8) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int refused = 0;
  for (int trial = 0; trial < 60; trial++) {
    gsl_rng_set(rng, (unsigned long)trial + 100);
    int32_t n = 50 + (int32_t)gsl_rng_uniform_int(rng, 400);
    minex_graph *g = test_random_graph(rng, n, 4.0, trial % 2);
    int32_t np[2] = {2, 6};
    double proc[2] = {pow(10.0, 6.0 + 2.0 * gsl_rng_uniform(rng)), 1.0};
    double conn[4] = {1, 2, 2, 1};
    minex_config *cf = NULL;
    ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cf), MINEX_OK);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      old[v] = gsl_rng_uniform(rng) < 0.9 ? v % 2 : 2 + v % 6;
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = 0.5 * (trial % 3);
    opt.iterations = trial % 4 == 3 ? 100 : 1;
    opt.seed = (uint64_t)trial;
    minex_metrics before, after;
    int rc = minex_repartition(g, cf, old, &opt, nw, &after);
    if (rc != MINEX_OK) {
      refused++;
      fprintf(stderr, "trial %d: %s\n", trial, minex_last_error());
    } else {
      for (int32_t v = 0; v < n; v++)
        ck_assert(nw[v] >= 0 && nw[v] < 8);
      ck_assert_int_eq(minex_evaluate(g, cf, old, old, &opt, &before),
                       MINEX_OK);
      ck_assert_msg(after.max_qwgt <= before.max_qwgt,
                    "trial %d: MaxQwgt %g > old %g", trial, after.max_qwgt,
                    before.max_qwgt);
    }
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  ck_assert_msg(refused == 0, "%d of 60 valid inputs refused", refused);
  gsl_rng_free(rng);
}
END_TEST

int main(void) {
  Suite *s = suite_create("repartition_checks");
  TCase *tc = tcase_create("repartition_checks");
  tcase_add_test(tc, a_failed_check_stops_the_repartition_with_its_name);
  tcase_add_test(tc, checks_accept_slowdowns_up_to_1e8);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

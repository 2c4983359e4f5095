/* Tests of src/driver/repartition.c, i.e. of MinEX as a whole (SPEC §3):
 * the guarantees (valid partition, MaxQwgt never worse than old,
 * determinism), ThroTTle semantics at 0 and infinity, resources that leave
 * and join, argument errors, and a real case from data/. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double alphas[] = {0.0, 0.5, 1.0};
static const double throttles[] = {0.0, 1.0, 64.0, INFINITY};

/* Every owner is an available processor of cf. */
static void assert_valid(const minex_config *cf, int32_t n,
                         const int32_t *part) {
  for (int32_t v = 0; v < n; v++) {
    ck_assert_int_ge(part[v], 0);
    ck_assert_int_lt(part[v], minex_config_nprocs(cf));
    ck_assert_msg(minex_config_is_available(cf, part[v]),
                  "vertex %d on unavailable processor %d", v, part[v]);
  }
}

START_TEST(result_is_valid_and_never_worse_than_old) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 2024);
  for (int trial = 0; trial < 60; trial++) {
    int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, 600);
    minex_graph *g = test_random_graph(rng, n, 2.0 + trial % 6, trial % 2);
    minex_config *cf = test_random_config(rng, 4, 6);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    int32_t P = minex_config_nprocs(cf);
    for (int32_t v = 0; v < n; v++) /* skewed: low ids own more */
      old[v] = (int32_t)(P * pow(gsl_rng_uniform(rng), 2.0));
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = alphas[trial % 3];
    opt.throttle = throttles[(trial / 3) % 4];
    opt.remap_mode = (minex_remap_mode)(trial % 3);
    opt.seed = (uint64_t)trial;
    opt.coarse_per_proc = 1 + (int32_t)gsl_rng_uniform_int(rng, 20);
    minex_metrics got, before, after;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, &got), MINEX_OK);
    assert_valid(cf, n, nw);
    ck_assert_int_eq(minex_evaluate(g, cf, old, old, &opt, &before), MINEX_OK);
    ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &after), MINEX_OK);
    ck_assert_msg(after.max_qwgt <= before.max_qwgt,
                  "trial %d: MaxQwgt %g > old %g", trial, after.max_qwgt,
                  before.max_qwgt);
    /* the metrics returned are those of the partition returned */
    ck_assert(test_close(got.max_qwgt, after.max_qwgt, 1e-12));
    ck_assert_int_eq(got.moved, after.moved);
    ck_assert_int_eq(got.cut_edges, after.cut_edges);
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(throttle_zero_never_raises_qwgttot) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 77);
  int moved_somewhere = 0;
  for (int trial = 0; trial < 40; trial++) {
    int32_t n = 10 + (int32_t)gsl_rng_uniform_int(rng, 500);
    minex_graph *g = test_random_graph(rng, n, 4.0, 1);
    minex_config *cf = test_random_config(rng, 3, 5);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    test_random_part(rng, cf, n, old);
    minex_options opt;
    minex_options_init(&opt);
    opt.throttle = 0;
    opt.alpha = alphas[trial % 3];
    minex_metrics before, after;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, &after), MINEX_OK);
    minex_evaluate(g, cf, old, old, &opt, &before);
    ck_assert_msg(after.qwgt_tot <= before.qwgt_tot * (1 + 1e-12),
                  "trial %d: QwgtTot %g > old %g", trial, after.qwgt_tot,
                  before.qwgt_tot);
    moved_somewhere |= after.moved > 0;
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  ck_assert_msg(moved_somewhere, "ThroTTle 0 never moved anything: the "
                "test would not see a violation");
  gsl_rng_free(rng);
}
END_TEST

START_TEST(throttle_inf_balances_a_homogeneous_mesh) {
  /* a 3D grid mesh, 8 homogeneous processors, an old partition whose
     blocks differ in size by up to 3x */
  minex_graph *g = test_grid_graph(24, 24, 24);
  int32_t n = minex_graph_nvtxs(g), P = 8;
  int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    old[v] = (int32_t)(P * sqrt((double)v / n));
  minex_config *cf = NULL;
  minex_config_create_uniform(P, &cf);
  minex_options opt;
  minex_options_init(&opt);
  minex_metrics before, after;
  minex_evaluate(g, cf, old, old, &opt, &before);
  ck_assert_double_gt(before.load_imb, 1.3);
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, &after), MINEX_OK);
  ck_assert_msg(after.load_imb <= 1.05, "LoadImb %g", after.load_imb);
  free(old);
  free(nw);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

/* A random graph and configuration with a block old partition, run twice
 * with options first and second; the two partitions must be identical. */
static void assert_two_runs_agree(unsigned long seed, int32_t n,
                                  int32_t maxc, int32_t maxp,
                                  const minex_options *first,
                                  const minex_options *second) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, seed);
  minex_graph *g = test_random_graph(rng, n, 5.0, 1);
  minex_config *cf = test_random_config(rng, maxc, maxp);
  int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *a = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *b = malloc(sizeof(int32_t) * (size_t)n);
  int32_t P = minex_config_nprocs(cf);
  for (int32_t v = 0; v < n; v++)
    old[v] = (int32_t)((int64_t)v * P / n);
  ck_assert_int_eq(minex_repartition(g, cf, old, first, a, NULL), MINEX_OK);
  ck_assert_int_eq(minex_repartition(g, cf, old, second, b, NULL), MINEX_OK);
  ck_assert_mem_eq(a, b, sizeof(int32_t) * (size_t)n);
  free(old);
  free(a);
  free(b);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
  gsl_rng_free(rng);
}

START_TEST(same_seed_gives_identical_output) {
  minex_options opt;
  minex_options_init(&opt);
  opt.seed = 12345;
  opt.alpha = 0.5;
  assert_two_runs_agree(31, 3000, 4, 8, &opt, &opt);
}
END_TEST

/* throttle_auto picks one of its candidates, and its result is exactly
 * the result of a call with that ThroTTle fixed: every trial is rolled
 * back (owners, loads, interior flags) before the chosen one runs. */
START_TEST(throttle_auto_equals_a_fixed_run_with_the_chosen_value) {
  static const double mine[] = {2.0, 0.0, 1000.0};
  static const double builtin[] = MINEX_THROTTLE_AUTO_SET;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 77);
  int seen_finite = 0;
  for (int trial = 0; trial < 12; trial++) {
    int32_t n = 400 + (int32_t)gsl_rng_uniform_int(rng, 1500);
    minex_graph *g = test_random_graph(rng, n, 5.0, trial % 2);
    minex_config *cf = test_random_config(rng, 4, 8);
    int32_t P = minex_config_nprocs(cf);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *a = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *b = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      old[v] = (int32_t)(P * pow(gsl_rng_uniform(rng), 3.0));
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = alphas[trial % 3];
    opt.seed = (uint64_t)trial;
    opt.throttle_auto = 1;
    opt.throttle = -5; /* ignored under throttle_auto */
    const double *cand = builtin;
    int32_t ncand = MINEX_THROTTLE_AUTO_COUNT;
    if (trial % 2) {
      opt.throttle_candidates = cand = mine;
      opt.nthrottle_candidates = ncand = 3;
    }
    minex_metrics ma, mb;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, a, &ma), MINEX_OK);
    int found = 0;
    for (int32_t i = 0; i < ncand; i++)
      found |= ma.throttle_used == cand[i];
    ck_assert_msg(found, "throttle_used %g is not a candidate",
                  ma.throttle_used);
    seen_finite |= isfinite(ma.throttle_used);
    minex_options fixed = opt;
    fixed.throttle_auto = 0;
    fixed.throttle = ma.throttle_used;
    ck_assert_int_eq(minex_repartition(g, cf, old, &fixed, b, &mb), MINEX_OK);
    ck_assert_mem_eq(a, b, sizeof(int32_t) * (size_t)n);
    ck_assert(ma.max_qwgt == mb.max_qwgt);
    ck_assert(mb.throttle_used == ma.throttle_used);
    free(old);
    free(a);
    free(b);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  ck_assert_msg(seen_finite, "auto never chose a finite ThroTTle: the "
                "candidates were not really compared");
  gsl_rng_free(rng);
}
END_TEST

START_TEST(throttle_auto_rejects_bad_candidates) {
  minex_graph *g = test_grid_graph(4, 4, 4);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(4, &cf), MINEX_OK);
  int32_t old[64], nw[64];
  for (int v = 0; v < 64; v++)
    old[v] = v % 4;
  minex_options opt;
  minex_options_init(&opt);
  opt.throttle_auto = 1;
  double bad[] = {1.0, -1.0};
  opt.throttle_candidates = bad;
  opt.nthrottle_candidates = 2;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "throttle_candidates[1]"));
  opt.nthrottle_candidates = 0;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "nthrottle_candidates"));
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(resources_that_leave_are_emptied_and_joined_ones_used) {
  minex_graph *g = test_grid_graph(16, 16, 8);
  int32_t n = minex_graph_nvtxs(g);
  int32_t np[] = {4, 4};
  double proc[] = {1, 2}, conn[] = {1, 5, 5, 1};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cf), MINEX_OK);
  int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
  /* old uses processors 0..6; 7 has just joined; 2 and 5 are leaving */
  for (int32_t v = 0; v < n; v++)
    old[v] = (int32_t)((int64_t)v * 7 / n);
  minex_config_set_available(cf, 2, 0);
  minex_config_set_available(cf, 5, 0);
  minex_options opt;
  minex_options_init(&opt);
  minex_metrics m;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, &m), MINEX_OK);
  assert_valid(cf, n, nw);
  ck_assert_int_eq(m.stranded, 0);
  int32_t on7 = 0;
  for (int32_t v = 0; v < n; v++)
    on7 += nw[v] == 7;
  ck_assert_int_gt(on7, n / 16);
  free(old);
  free(nw);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

START_TEST(bad_arguments_return_errors_naming_them) {
  minex_graph *g = test_grid_graph(4, 4, 1);
  minex_config *cf = NULL;
  minex_config_create_uniform(2, &cf);
  int32_t old[16] = {0}, nw[16];
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_int_eq(minex_repartition(NULL, cf, old, &opt, nw, NULL),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, NULL, NULL),
                   MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "new_part"));
  old[5] = 2;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_EPART);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "vertex 5"));
  old[5] = 0;
  opt.throttle = -1;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL),
                   MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "throttle"));
  opt.throttle = NAN;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL),
                   MINEX_EINVAL);
  minex_options_init(&opt);
  minex_config_set_available(cf, 0, 0);
  minex_config_set_available(cf, 1, 0);
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL),
                   MINEX_ENOPROC);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

START_TEST(degenerate_graphs_are_handled) {
  minex_config *cf = NULL;
  minex_config_create_uniform(3, &cf);
  int64_t xadj[4] = {0, 0, 0, 0};
  minex_graph *g = NULL;
  int32_t old[3] = {0, 0, 0}, nw[3];
  ck_assert_int_eq(minex_graph_create(0, xadj, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  minex_metrics m;
  ck_assert_int_eq(minex_repartition(g, cf, old, NULL, nw, &m), MINEX_OK);
  ck_assert_int_eq(m.moved, 0);
  minex_graph_destroy(g);
  /* three isolated vertices on one processor spread out */
  ck_assert_int_eq(minex_graph_create(3, xadj, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  ck_assert_int_eq(minex_repartition(g, cf, old, NULL, nw, &m), MINEX_OK);
  ck_assert(m.max_qwgt < 3.0);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

static double user_max(double w, double c, double r, void *ctx) {
  (void)ctx;
  return fmax(w, c + r);
}

START_TEST(user_qwgt_function_equal_to_alpha_one_gives_same_result) {
  minex_options alpha_one, user;
  minex_options_init(&alpha_one);
  alpha_one.alpha = 1.0;
  minex_options_init(&user);
  user.qwgt_fn = user_max;
  assert_two_runs_agree(4, 800, 3, 4, &alpha_one, &user);
}
END_TEST

/* SPEC §2: with remapping charged at both ends and Rwgt well above Pwgt a
 * step cannot lower the overloaded processor's Qwgt, yet MinVar-lowering
 * moves exist; the result must then be the old partition itself. */
START_TEST(heavy_two_ended_remapping_falls_back_to_old) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int fallbacks = 0;
  for (int t = 0; t < 60; t++) {
    int32_t n = 50 + t;
    minex_graph *g0 = test_random_graph(rng, n, 4, 1);
    double *rw = malloc(sizeof(double) * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      rw[v] = 5 + 20 * gsl_rng_uniform(rng);
    minex_graph *g = NULL;
    ck_assert_int_eq(minex_graph_create(n, minex_graph_xadj(g0),
                                        minex_graph_adjncy(g0),
                                        minex_graph_pwgt(g0), rw,
                                        minex_graph_cwgt(g0), &g),
                     MINEX_OK);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t P = minex_config_nprocs(cf);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      old[v] = (int32_t)(P * pow(gsl_rng_uniform(rng), 2));
    minex_options opt;
    minex_options_init(&opt);
    opt.remap_mode = MINEX_REMAP_BOTH;
    opt.alpha = (t % 3) * 0.5;
    minex_metrics m, mo;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, &m), MINEX_OK);
    minex_evaluate(g, cf, old, old, &opt, &mo);
    ck_assert(m.max_qwgt <= mo.max_qwgt);
    if (m.returned_old) {
      fallbacks++;
      ck_assert_mem_eq(nw, old, sizeof(int32_t) * (size_t)n);
      ck_assert(m.max_qwgt == mo.max_qwgt);
      ck_assert_int_eq(m.moved, 0);
    }
    minex_graph_destroy(g0);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
    free(rw);
    free(old);
    free(nw);
  }
  ck_assert_int_gt(fallbacks, 0);
  gsl_rng_free(rng);
}
END_TEST

/* data/cases/cube_ball_p16: one refinement step of a real
 * tetrahedral mesh at P = 16. Its README gives MaxQwgt 41,852 for the old
 * partition, 35,536 for Scotch's repartitioner and 28,390 for a plain
 * prototype of SPEC §3, which a faithful implementation should match. */
START_TEST(cube_ball_p16_beats_the_prototype_and_scotch) {
  char gpath[4096], ppath[4096];
  const char *dir = test_repo_data("cases/cube_ball_p16/graph.graph");
  snprintf(gpath, sizeof gpath, "%s", dir);
  snprintf(ppath, sizeof ppath, "%s",
           test_repo_data("cases/cube_ball_p16/old.part"));
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_read_metis(gpath, &g), MINEX_OK);
  int32_t n = minex_graph_nvtxs(g), *old = NULL;
  ck_assert_int_eq(minex_part_read(ppath, n, 16, &old), MINEX_OK);
  int32_t *nw = malloc(sizeof(int32_t) * (size_t)n);
  minex_config *cf = NULL;
  minex_config_create_uniform(16, &cf);
  minex_metrics before, after;
  ck_assert_int_eq(minex_evaluate(g, cf, old, old, NULL, &before), MINEX_OK);
  ck_assert(fabs(before.max_qwgt - 41852) < 0.5);
  ck_assert(fabs(before.lower_bound - 19069) < 1);
  ck_assert_int_eq(minex_repartition(g, cf, old, NULL, nw, &after), MINEX_OK);
  assert_valid(cf, n, nw);
  fprintf(stderr, "cube_ball_p16: MaxQwgt %.0f (old 41852, prototype 28390, "
          "LB %.0f), moved %lld, %.3f s\n", after.max_qwgt,
          after.lower_bound, (long long)after.moved, after.seconds);
  ck_assert_double_le(after.max_qwgt, 28390);
  ck_assert_double_ge(after.max_qwgt, after.lower_bound);
  free(old);
  free(nw);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("repartition");
  TCase *tc = tcase_create("repartition");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, result_is_valid_and_never_worse_than_old);
  tcase_add_test(tc, throttle_zero_never_raises_qwgttot);
  tcase_add_test(tc, throttle_inf_balances_a_homogeneous_mesh);
  tcase_add_test(tc, same_seed_gives_identical_output);
  tcase_add_test(tc, throttle_auto_equals_a_fixed_run_with_the_chosen_value);
  tcase_add_test(tc, throttle_auto_rejects_bad_candidates);
  tcase_add_test(tc, resources_that_leave_are_emptied_and_joined_ones_used);
  tcase_add_test(tc, bad_arguments_return_errors_naming_them);
  tcase_add_test(tc, degenerate_graphs_are_handled);
  tcase_add_test(tc, user_qwgt_function_equal_to_alpha_one_gives_same_result);
  tcase_add_test(tc, heavy_two_ended_remapping_falls_back_to_old);
  tcase_add_test(tc, cube_ball_p16_beats_the_prototype_and_scotch);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

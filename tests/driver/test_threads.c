/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Determinism across threads (SPEC §3 "Parallel execution"): the
 * same partition, bit for bit, and the same metrics for options.nthreads =
 * 1, 2, 3, 4 and 8, on graphs whose parts are cut into several contraction
 * chunks and on graphs with scattered owners, under every option set that
 * changes what runs (horizons, alpha, the ladder, the from-scratch
 * candidate, throttle_auto, paper_exact, the passes in rounds), with the
 * balance passes on. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int thread_counts[] = {2, 3, 4, 8};

/* An option set of the test. */
typedef struct variant {
  const char *name;
  int32_t iterations;
  double alpha;
  int paper_exact, throttle_auto, scratch;
  int rounds;         /* options.rounds */
  int cluster_levels; /* options.cluster_levels */
} variant;

#define CL_AUTO MINEX_CLUSTER_LEVELS_AUTO
static const variant variants[] = {
    {"defaults, k = 1", 1, 0, 0, 0, MINEX_SCRATCH_AUTO, MINEX_ROUNDS_AUTO,
     CL_AUTO},
    {"k = 100 (ladder, refinement, scratch)", 100, 0, 0, 0, MINEX_SCRATCH_AUTO,
     MINEX_ROUNDS_AUTO, CL_AUTO},
    {"alpha = 1, k = 4 (ladder)", 4, 1, 0, 0, MINEX_SCRATCH_OFF,
     MINEX_ROUNDS_AUTO, CL_AUTO},
    {"paper_exact", 1, 0.5, 1, 0, MINEX_SCRATCH_AUTO, MINEX_ROUNDS_AUTO,
     CL_AUTO},
    {"throttle_auto, scratch on", 1, 0, 0, 1, MINEX_SCRATCH_ON,
     MINEX_ROUNDS_AUTO, CL_AUTO},
    {"k = 10, rounds off (the paper's expansion, heap passes)", 10, 0, 0, 0,
     MINEX_SCRATCH_OFF, MINEX_ROUNDS_OFF, CL_AUTO},
    {"cluster levels on every level, k = 10 (scratch)", 10, 0, 0, 0,
     MINEX_SCRATCH_AUTO, MINEX_ROUNDS_AUTO, MINEX_CLUSTER_LEVELS_ON},
    {"cluster levels on, rounds off (every merge's list read)", 1, 0, 0, 0,
     MINEX_SCRATCH_OFF, MINEX_ROUNDS_OFF, MINEX_CLUSTER_LEVELS_ON},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

/* Runs every variant with 1 thread and with each of thread_counts, and
 * asserts identical partitions and metrics. */
static void assert_thread_independent(const char *graph, const minex_graph *g,
                                      const minex_config *cf,
                                      const int32_t *old, int nvariants) {
  int32_t n = minex_graph_nvtxs(g);
  int32_t *ref = malloc(sizeof(int32_t) * (size_t)n);
  int32_t *got = malloc(sizeof(int32_t) * (size_t)n);
  int moving = 0; /* variants that moved vertices */
  for (int i = 0; i < nvariants; i++) {
    const variant *vr = &variants[i];
    minex_options opt;
    minex_options_init(&opt);
    opt.iterations = vr->iterations;
    opt.alpha = vr->alpha;
    opt.paper_exact = vr->paper_exact;
    opt.throttle_auto = vr->throttle_auto;
    opt.scratch = vr->scratch;
    opt.rounds = vr->rounds;
    opt.cluster_levels = vr->cluster_levels;
    opt.balance = MINEX_BALANCE_ON; /* the fine passes, on one cluster too */
    opt.seed = 7;
    minex_metrics m1, mt;
    ck_assert_int_eq(minex_repartition(g, cf, old, &opt, ref, &m1), MINEX_OK);
    moving += m1.moved > 0;
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
      opt.nthreads = thread_counts[t];
      ck_assert_int_eq(minex_repartition(g, cf, old, &opt, got, &mt), MINEX_OK);
      int32_t diff = 0;
      for (int32_t v = 0; v < n; v++)
        diff += got[v] != ref[v];
      ck_assert_msg(diff == 0,
                    "%s, %s: %d of %d owners differ between 1 and %d "
                    "threads",
                    graph, vr->name, (int)diff, (int)n, thread_counts[t]);
      ck_assert_msg(mt.max_qwgt == m1.max_qwgt &&
                        mt.horizon_time == m1.horizon_time &&
                        mt.coarse_nvtxs == m1.coarse_nvtxs &&
                        mt.candidates == m1.candidates &&
                        mt.coarse_moves == m1.coarse_moves &&
                        mt.expand_moves == m1.expand_moves,
                    "%s, %s: metrics differ between 1 and %d threads", graph,
                    vr->name, thread_counts[t]);
    }
  }
  /* a run that moves nothing would compare nothing */
  ck_assert_msg(moving > 0, "%s: no variant moved a vertex", graph);
  free(ref);
  free(got);
}

/* A part larger than a contraction chunk (CONTRACT_CHUNK = 16,384
 * vertices) is cut into several, each contracted alone: 17,000 vertices on
 * processor 0 and the rest on 1, 2 and 3, in two clusters. */
START_TEST(large_parts_give_the_same_partition_for_any_thread_count) {
  minex_graph *g = test_grid_graph(40, 40, 12);
  int32_t n = minex_graph_nvtxs(g);
  int32_t np[2] = {2, 2};
  double proc[2] = {1, 1.5}, conn[4] = {1, 10, 10, 1};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cf), MINEX_OK);
  int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    old[v] = v < 17000 ? 0 : v < 18100 ? 1 : v < 18700 ? 2 : 3;
  /* the cheap variants on the large graph; all of them below */
  assert_thread_independent("grid 40x40x12", g, cf, old, 1);
  free(old);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

/* Random graphs and machines, owners in blocks with scattered exceptions
 * (parts of many small runs), every variant. */
START_TEST(random_graphs_give_the_same_partition_for_any_thread_count) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 19);
  for (int trial = 0; trial < 3; trial++) {
    int32_t n = 1500 + (int32_t)gsl_rng_uniform_int(rng, 1500);
    minex_graph *g = test_random_graph(rng, n, 5.0, trial % 2);
    minex_config *cf = test_random_config(rng, 3, 6);
    int32_t P = minex_config_nprocs(cf);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    for (int32_t v = 0; v < n; v++)
      old[v] = gsl_rng_uniform(rng) < 0.9
                   ? (int32_t)((int64_t)v * P / n)
                   : (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    char name[64];
    snprintf(name, sizeof name, "random graph %d (n = %d, P = %d)", trial,
             (int)n, (int)P);
    assert_thread_independent(name, g, cf, old, NVARIANTS);
    free(old);
    minex_config_destroy(cf);
    minex_graph_destroy(g);
  }
  gsl_rng_free(rng);
}
END_TEST

/* The grid of a refined-ball step from data/ (sim_box988_c2), two
 * clusters: every variant. */
START_TEST(a_mesh_step_gives_the_same_partition_for_any_thread_count) {
  minex_graph *g;
  int32_t *old;
  test_sim_box988_step1(&g, &old);
  int32_t np[2] = {4, 4};
  double proc[2] = {1, 1.5}, conn[4] = {1, 10, 10, 1};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cf), MINEX_OK);
  assert_thread_independent("sim_box988_c2 step 1", g, cf, old, NVARIANTS);
  free(old);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(nthreads_is_checked) {
  minex_graph *g = test_grid_graph(4, 4, 2);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(2, &cf), MINEX_OK);
  int32_t old[32], nw[32];
  for (int v = 0; v < 32; v++)
    old[v] = v < 24 ? 0 : 1;
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_int_eq(opt.nthreads, 1);
  opt.nthreads = -1;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "nthreads"));
  opt.nthreads = MINEX_NTHREADS_MAX + 1;
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_EINVAL);
  opt.nthreads = 0; /* every processor of the node */
  ck_assert_int_eq(minex_repartition(g, cf, old, &opt, nw, NULL), MINEX_OK);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("threads");
  TCase *tc = tcase_create("threads");
  tcase_set_timeout(tc, 900);
  tcase_add_test(tc, large_parts_give_the_same_partition_for_any_thread_count);
  tcase_add_test(tc, nthreads_is_checked);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 900);
  tcase_add_test(heavy,
                 random_graphs_give_the_same_partition_for_any_thread_count);
  tcase_add_test(heavy,
                 a_mesh_step_gives_the_same_partition_for_any_thread_count);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/expand/expand.c: expansion undoes every merge, keeps the
 * running loads equal to a fresh evaluation of the fine partition, never
 * moves a vertex by a rule other than the partition's (so it cannot raise
 * MinVar except by a forced move), and with a budget of 0 still restores
 * the graph. */
#include "contract/contract.h"
#include "expand/expand.h"
#include "partition/partition.h"
#include "test_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Contracts a 3D grid's random partition to about target coarse vertices,
 * partitions the coarse graph, and returns everything ready to expand. */
typedef struct run {
  minex_graph *g;
  minex_config *cfg;
  int32_t *old;
  costmodel_loads ld;
  contract_ws ws;
  partition_ctx pc;
  gsl_rng *rng;
} run;

static void run_setup_t(run *r, int32_t side, int32_t nprocs, int32_t target,
                        unsigned long seed, int32_t nthreads) {
  r->g = test_grid_graph(side, side, side);
  int32_t n = minex_graph_nvtxs(r->g);
  ck_assert_int_eq(minex_config_create_uniform(nprocs, &r->cfg), MINEX_OK);
  r->old = malloc(sizeof(int32_t) * (size_t)n);
  /* slabs with the first twice as thick: an imbalance to repair */
  for (int32_t v = 0; v < n; v++) {
    int32_t z = v / (side * side);
    r->old[v] = z < 2 * side / (nprocs + 1)
                    ? 0
                    : 1 + (int32_t)((int64_t)(z - 2 * side / (nprocs + 1)) *
                                    (nprocs - 1) / side);
    if (r->old[v] >= nprocs)
      r->old[v] = nprocs - 1;
  }
  minex_options opt;
  minex_options_init(&opt);
  opt.nthreads = nthreads;
  ck_assert_int_eq(
      costmodel_loads_create(&r->ld, r->g, r->cfg, r->old, r->old, &opt),
      MINEX_OK);
  ck_assert_int_eq(contract_ws_create(&r->ws, r->g, r->old), MINEX_OK);
  r->rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r->rng, seed);
  ck_assert_int_eq(contract_run(&r->ws, target, 4, gsl_rng_get(r->rng), 1),
                   MINEX_OK);
  ck_assert_int_eq(contract_freeze(&r->ws), MINEX_OK);
  ck_assert_int_eq(partition_ctx_create(&r->pc, &r->ws, &r->ld, &opt),
                   MINEX_OK);
  ck_assert_int_eq(partition_run(&r->pc, 8), MINEX_OK);
}

static void run_setup(run *r, int32_t side, int32_t nprocs, int32_t target,
                      unsigned long seed) {
  run_setup_t(r, side, nprocs, target, seed, 1);
}

static void run_teardown(run *r) {
  partition_ctx_destroy(&r->pc);
  contract_ws_destroy(&r->ws);
  costmodel_loads_destroy(&r->ld);
  gsl_rng_free(r->rng);
  free(r->old);
  minex_config_destroy(r->cfg);
  minex_graph_destroy(r->g);
}

/* Per-processor Qwgt of the fine partition the workspace holds, from
 * scratch by the brute-force evaluator of the tests. */
static void fresh_qwgt(const run *r, double *q) {
  int32_t n = minex_graph_nvtxs(r->g);
  int32_t *own = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    own[v] = r->ws.owner[v];
  minex_metrics m;
  test_brute_metrics(r->g, r->cfg, r->old, own, 0, MINEX_REMAP_RECEIVER, &m, q);
  free(own);
}

START_TEST(expansion_restores_every_vertex_with_exact_loads) {
  for (unsigned long seed = 1; seed <= 3; seed++) {
    run r;
    run_setup(&r, 8, 4, 32, seed);
    ck_assert_int_lt(r.ws.nactive, minex_graph_nvtxs(r.g));
    ck_assert_int_eq(expand_run(&r.pc, 16), MINEX_OK);
    /* back at the fine level: n active vertices, no merge left */
    ck_assert_int_eq(r.ws.nlevels, 1);
    ck_assert_int_eq(r.ws.nactive, minex_graph_nvtxs(r.g));
    ck_assert_int_eq(contract_cur(&r.ws)->nmerge, 0);
    ck_assert_int_eq(contract_check(&r.ws), MINEX_OK);
    ck_assert_int_eq(costmodel_loads_check(&r.ld), MINEX_OK);
    ck_assert_int_eq(partition_ctx_check(&r.pc), MINEX_OK);
    double q[4];
    fresh_qwgt(&r, q);
    for (int p = 0; p < 4; p++)
      ck_assert_msg(test_close(q[p], r.ld.qwgt[p], 1e-9),
                    "seed %lu proc %d: running %g, fresh %g", seed, p,
                    r.ld.qwgt[p], q[p]);
    run_teardown(&r);
  }
}
END_TEST

/* Every move made during expansion passes the partition rule, which only
 * admits moves that lower MinVar (no processor is unavailable here): the
 * MinVar of the loads never rises from the coarse result to the fine one. */
START_TEST(expansion_never_raises_minvar) {
  for (unsigned long seed = 1; seed <= 3; seed++) {
    run r;
    run_setup(&r, 8, 4, 32, seed);
    double before = costmodel_min_var(&r.ld);
    int64_t moves = r.pc.moves;
    ck_assert_int_eq(expand_run(&r.pc, 16), MINEX_OK);
    ck_assert(costmodel_min_var(&r.ld) <= before * (1 + 1e-12));
    ck_assert_int_ge(r.pc.moves, moves);
    run_teardown(&r);
  }
}
END_TEST

/* With a budget of 0 only the restored pair itself is tested; the graph is
 * restored all the same, and the result differs from budget 16's only in
 * the moves made (both are valid fine partitions). */
START_TEST(expansion_with_zero_budget_still_restores_the_graph) {
  run r;
  run_setup(&r, 6, 3, 16, 7);
  ck_assert_int_eq(expand_run(&r.pc, 0), MINEX_OK);
  ck_assert_int_eq(r.ws.nactive, minex_graph_nvtxs(r.g));
  for (int32_t v = 0; v < minex_graph_nvtxs(r.g); v++)
    ck_assert(r.ws.owner[v] >= 0 && r.ws.owner[v] < 3);
  ck_assert_int_eq(costmodel_loads_check(&r.ld), MINEX_OK);
  run_teardown(&r);
}
END_TEST

/* The expansion in synchronous rounds restores every vertex,
 * keeps the running loads exact, moves only by the partition rule (so
 * MinVar does not rise), and gives the same owners, loads and move count
 * for 1, 2 and 3 threads (the tests of a round read a frozen state; the
 * moves are applied in a fixed order). A grid of 20^3 with P = 8 makes
 * rounds of several thousand tests, so the threads share them. */
START_TEST(rounds_restore_exactly_and_do_not_depend_on_threads) {
  for (unsigned long seed = 1; seed <= 3; seed++) {
    int32_t *first = NULL;
    double q1[8];
    int64_t moves1 = 0;
    for (int32_t nt = 1; nt <= 3; nt++) {
      run r;
      run_setup_t(&r, 20, 8, 64, seed, nt);
      int32_t n = minex_graph_nvtxs(r.g);
      double before = costmodel_min_var(&r.ld);
      ck_assert_int_eq(expand_rounds(&r.pc, 16), MINEX_OK);
      ck_assert_int_eq(r.ws.nlevels, 1);
      ck_assert_int_eq(r.ws.nactive, n);
      ck_assert_int_eq(contract_check(&r.ws), MINEX_OK);
      ck_assert_int_eq(costmodel_loads_check(&r.ld), MINEX_OK);
      ck_assert_int_eq(partition_ctx_check(&r.pc), MINEX_OK);
      ck_assert(costmodel_min_var(&r.ld) <= before * (1 + 1e-12));
      double q[8];
      fresh_qwgt(&r, q);
      for (int p = 0; p < 8; p++)
        ck_assert_msg(test_close(q[p], r.ld.qwgt[p], 1e-9),
                      "seed %lu proc %d: running %g, fresh %g", seed, p,
                      r.ld.qwgt[p], q[p]);
      if (nt == 1) {
        first = malloc(sizeof(int32_t) * (size_t)n);
        memcpy(first, r.ws.owner, sizeof(int32_t) * (size_t)n);
        memcpy(q1, r.ld.qwgt, sizeof q1);
        moves1 = r.pc.moves;
        ck_assert_int_gt(moves1, 0);
      } else {
        ck_assert_mem_eq(r.ws.owner, first, sizeof(int32_t) * (size_t)n);
        ck_assert_mem_eq(r.ld.qwgt, q1, sizeof q1);
        ck_assert_int_eq(r.pc.moves, moves1);
      }
      run_teardown(&r);
    }
    free(first);
  }
}
END_TEST

/* A round's moves are the ones the sequential rule would accept at the
 * moment they are applied: with a budget of 0 (no neighbour rounds) the
 * rounds still restore the graph with exact loads. */
START_TEST(rounds_with_zero_budget_still_restore_the_graph) {
  run r;
  run_setup(&r, 6, 3, 16, 7);
  ck_assert_int_eq(expand_rounds(&r.pc, 0), MINEX_OK);
  ck_assert_int_eq(r.ws.nactive, minex_graph_nvtxs(r.g));
  ck_assert_int_eq(costmodel_loads_check(&r.ld), MINEX_OK);
  double q[3];
  fresh_qwgt(&r, q);
  for (int p = 0; p < 3; p++)
    ck_assert(test_close(q[p], r.ld.qwgt[p], 1e-9));
  run_teardown(&r);
}
END_TEST

int main(void) {
  Suite *s = suite_create("expand");
  TCase *tc = tcase_create("expand");
  tcase_add_test(tc, expansion_restores_every_vertex_with_exact_loads);
  tcase_add_test(tc, expansion_never_raises_minvar);
  tcase_add_test(tc, expansion_with_zero_budget_still_restores_the_graph);
  tcase_add_test(tc, rounds_restore_exactly_and_do_not_depend_on_threads);
  tcase_add_test(tc, rounds_with_zero_budget_still_restore_the_graph);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

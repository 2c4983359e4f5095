/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the refinement (beyond the paper, SPEC §3; partition_refine):
 * on random graphs, machines, alphas, charging modes and horizons, every
 * move it makes has a Gain equal to the from-scratch difference of
 * QwgtTot, lowers QwgtTot, and never takes MaxQwgt above its value at the
 * start; the result is deterministic. The same for the passes in
 * synchronous rounds (options.rounds = MINEX_ROUNDS_ON), whose
 * moves are re-tested against the gate before they are made. */
#include "contract/contract.h"
#include "partition/partition.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The moves partition_execute reports, replayed on a copy of the owners
 * and scored from scratch. */
typedef struct replay {
  const minex_graph *g;
  const minex_config *cfg;
  const int32_t *old;
  const minex_options *opt;
  int32_t *part;       /* owners as the moves go                  */
  double start_max;    /* MaxQwgt before the first move           */
  double start_steady; /* SteadyMax before the first move       */
  double start_remap;  /* MaxRemap before the first move        */
  int64_t moves;       /* moves seen                              */
} replay;

static void on_move(void *ctx, int32_t x, int32_t from, int32_t to,
                    double gain) {
  replay *r = ctx;
  minex_metrics before, after;
  QUIET_ASSERT(r->part[x] == from);
  QUIET_ASSERT(minex_evaluate(r->g, r->cfg, r->old, r->part, r->opt, &before) ==
               MINEX_OK);
  r->part[x] = to;
  QUIET_ASSERT(minex_evaluate(r->g, r->cfg, r->old, r->part, r->opt, &after) ==
               MINEX_OK);
  double want = after.qwgt_tot - before.qwgt_tot;
  double scale = 1e-9 * fmax(1.0, before.qwgt_tot);
  if (fabs(gain - want) > scale)
    ck_abort_msg("move %lld of %d: Gain %.17g, from scratch %.17g",
                 (long long)r->moves, (int)x, gain, want);
  QUIET_ASSERT(gain < 0);
  if (after.max_qwgt > r->start_max * (1 + 1e-12) ||
      after.steady_max > r->start_steady * (1 + 1e-12) ||
      after.max_remap > r->start_remap * (1 + 1e-12))
    ck_abort_msg("move %lld raised MaxQwgt, SteadyMax or MaxRemap: %.17g "
                 "%.17g %.17g above %.17g %.17g %.17g",
                 (long long)r->moves, after.max_qwgt, after.steady_max,
                 after.max_remap, r->start_max, r->start_steady,
                 r->start_remap);
  r->moves++;
}

START_TEST(refinement_moves_lower_qwgttot_by_their_gain_and_keep_maxqwgt) {
  static const double alphas[] = {0.0, 0.4, 1.0};
  static const int32_t ks[] = {1, 10, 1000};
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 1313);
  int64_t total = 0, total_rounds = 0;
  for (int trial = 0; trial < 72; trial++) {
    int32_t n = 20 + (int32_t)gsl_rng_uniform_int(rng, 150);
    minex_graph *g = test_random_graph(rng, n, 3.0 + trial % 3, trial % 2);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t *old = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *cur = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *again = malloc(sizeof(int32_t) * (size_t)n);
    test_random_part(rng, cf, n, old);
    /* start from a partition other than old: remapping counts too */
    memcpy(cur, old, sizeof(int32_t) * (size_t)n);
    for (int32_t v = 0; v < n; v += 3)
      cur[v] = old[(v + 1) % n];
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = alphas[trial % 3];
    opt.iterations = ks[(trial / 3) % 3];
    opt.remap_mode = (minex_remap_mode)(trial % 3);
    int rounds = trial >= 36;
    opt.rounds = rounds ? MINEX_ROUNDS_ON : MINEX_ROUNDS_OFF;
    for (int run = 0; run < 2; run++) {
      costmodel_loads ld;
      contract_ws ws;
      partition_ctx pc;
      ck_assert_int_eq(costmodel_loads_create(&ld, g, cf, old, cur, &opt),
                       MINEX_OK);
      /* the fine graph, uncontracted, on cur */
      ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
      ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
      memcpy(ws.owner, cur, sizeof(int32_t) * (size_t)n);
      ck_assert_int_eq(partition_ctx_create(&pc, &ws, &ld, &opt), MINEX_OK);
      replay r = {g,
                  cf,
                  old,
                  &opt,
                  malloc(sizeof(int32_t) * (size_t)n),
                  costmodel_loads_max(&ld),
                  costmodel_steady_max(&ld),
                  costmodel_remap_max(&ld),
                  0};
      memcpy(r.part, cur, sizeof(int32_t) * (size_t)n);
      pc.trace = run == 0 ? on_move : NULL;
      pc.trace_ctx = &r;
      ck_assert_int_eq(partition_refine(&pc, 4), MINEX_OK);
      ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_OK);
      ck_assert_int_eq(partition_ctx_check(&pc), MINEX_OK);
      if (run == 0) {
        ck_assert_int_eq(r.moves, pc.moves);
        ck_assert_mem_eq(r.part, ws.owner, sizeof(int32_t) * (size_t)n);
        memcpy(again, ws.owner, sizeof(int32_t) * (size_t)n);
        total += r.moves;
        total_rounds += rounds ? r.moves : 0;
      } else {
        /* deterministic: the same moves without the trace */
        ck_assert_mem_eq(again, ws.owner, sizeof(int32_t) * (size_t)n);
      }
      free(r.part);
      partition_ctx_destroy(&pc);
      contract_ws_destroy(&ws);
      costmodel_loads_destroy(&ld);
    }
    free(old);
    free(cur);
    free(again);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  /* the refinement did something on these inputs */
  ck_assert_int_gt(total - total_rounds, 100);
  ck_assert_int_gt(total_rounds, 100);
  gsl_rng_free(rng);
}
END_TEST

int main(void) {
  Suite *s = suite_create("refine");
  TCase *tc = tcase_create("refine");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc,
                 refinement_moves_lower_qwgttot_by_their_gain_and_keep_maxqwgt);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/partition/partition_check.c: partition_ctx_check
 * passes along a real partition run and expansion and fails on
 * deliberately corrupted contexts; partition_check_phase names the check
 * that failed. */
#include "expand/expand.h"
#include "partition/partition.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A grid on 4 processors, all of it on processor 0 but a corner, with the
 * contraction, loads and context of a repartition. */
typedef struct fixture {
  minex_graph *g;
  minex_config *cfg;
  int32_t *old;
  costmodel_loads ld;
  contract_ws ws;
  partition_ctx pc;
  gsl_rng *rng;
} fixture;

static void fixture_init(fixture *f) {
  memset(f, 0, sizeof *f);
  f->g = test_grid_graph(6, 6, 2);
  int32_t n = minex_graph_nvtxs(f->g);
  ck_assert_int_eq(minex_config_create_uniform(4, &f->cfg), MINEX_OK);
  f->old = malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t v = 0; v < n; v++)
    f->old[v] = v < n - 8 ? 0 : 1 + v % 3;
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_int_eq(
      costmodel_loads_create(&f->ld, f->g, f->cfg, f->old, f->old, &opt),
      MINEX_OK);
  ck_assert_int_eq(contract_ws_create(&f->ws, f->g, f->old), MINEX_OK);
  f->rng = gsl_rng_alloc(gsl_rng_mt19937);
  ck_assert_int_eq(contract_run(&f->ws, 12, 4, gsl_rng_get(f->rng), 1),
                   MINEX_OK);
  ck_assert_int_eq(contract_freeze(&f->ws), MINEX_OK);
  ck_assert_int_eq(partition_ctx_create(&f->pc, &f->ws, &f->ld, &opt),
                   MINEX_OK);
}

static void fixture_free(fixture *f) {
  partition_ctx_destroy(&f->pc);
  contract_ws_destroy(&f->ws);
  costmodel_loads_destroy(&f->ld);
  gsl_rng_free(f->rng);
  free(f->old);
  minex_config_destroy(f->cfg);
  minex_graph_destroy(f->g);
}

START_TEST(ctx_check_passes_through_a_repartition) {
  fixture f;
  fixture_init(&f);
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_OK);
  ck_assert_int_eq(partition_check_phase(&f.ws, &f.ld, &f.pc, "at start"),
                   MINEX_OK);
  ck_assert_int_eq(partition_run(&f.pc, 8), MINEX_OK);
  ck_assert_int_gt(f.pc.moves, 0);
  ck_assert_msg(partition_ctx_check(&f.pc) == MINEX_OK, "%s",
                minex_last_error());
  ck_assert_int_eq(expand_run(&f.pc, 16), MINEX_OK);
  ck_assert_msg(partition_check_phase(&f.ws, &f.ld, &f.pc, "at the end") ==
                    MINEX_OK,
                "%s", minex_last_error());
  fixture_free(&f);
}
END_TEST

/* An active id with a neighbour on another processor. */
static int32_t border_id(fixture *f) {
  contract_ws *ws = &f->ws;
  for (int32_t x = 0; x < contract_nids(ws); x++) {
    if (ws->parent[x] != x)
      continue;
    const int32_t *adj;
    const double *cw;
    int64_t len;
    contract_edges(ws, x, &adj, &cw, &len);
    for (int64_t j = 0; j < len; j++)
      if (contract_end_owner(ws, adj[j]) != ws->owner[x])
        return x;
  }
  return -1;
}

START_TEST(ctx_check_fails_on_corrupted_contexts) {
  fixture f;
  fixture_init(&f);
  ck_assert_int_eq(partition_run(&f.pc, 8), MINEX_OK);
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_OK);
  /* an interior flag on a border vertex */
  int32_t x = border_id(&f);
  ck_assert_int_ge(x, 0);
  f.pc.interior[x] = 1;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "interior"));
  /* the phase check names the check and the phase */
  ck_assert_int_eq(partition_check_phase(&f.ws, &f.ld, &f.pc, "in a test"),
                   MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "partition_ctx_check "
                                                   "failed in a test"));
  f.pc.interior[x] = 0;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_OK);
  /* a stamp ahead of the current one */
  f.pc.sc[0].nbr_stamp[2] = f.pc.sc[0].stamp + 1;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "stamp"));
  f.pc.sc[0].nbr_stamp[2] = 0;
  /* more forced moves than moves */
  f.pc.forced_moves = f.pc.moves + 1;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "forced"));
  f.pc.forced_moves = 0;
  /* an owner out of range */
  int32_t o = f.ws.owner[x];
  f.ws.owner[x] = 4;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "outside"));
  f.ws.owner[x] = o;
  /* a missing scratch buffer, a mean load that is not a number */
  int32_t *cand = f.pc.sc[0].cand;
  f.pc.sc[0].cand = NULL;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_EINTERNAL);
  f.pc.sc[0].cand = cand;
  double qbar = f.pc.qbar;
  f.pc.qbar = NAN;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "qbar"));
  f.pc.qbar = qbar;
  ck_assert_int_eq(partition_ctx_check(&f.pc), MINEX_OK);
  /* a load the running sums do not know of: costmodel_loads_check */
  f.ld.qwgt[1] += 1;
  ck_assert_int_eq(partition_check_phase(&f.ws, &f.ld, &f.pc, "in a test"),
                   MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "costmodel_loads_check"));
  f.ld.qwgt[1] -= 1;
  ck_assert_int_eq(partition_check_phase(&f.ws, &f.ld, &f.pc, "in a test"),
                   MINEX_OK);
  fixture_free(&f);
}
END_TEST

int main(void) {
  Suite *s = suite_create("partition_check");
  TCase *tc = tcase_create("partition_check");
  tcase_add_test(tc, ctx_check_passes_through_a_repartition);
  tcase_add_test(tc, ctx_check_fails_on_corrupted_contexts);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

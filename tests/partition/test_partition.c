/* Tests of src/partition/partition.c: the candidate list of the move rule
 * (SPEC §3 "Candidates") on hand-made graphs. */
#include "contract/contract.h"
#include "partition/partition.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

/* Five vertices on three processors of one cluster:
 *
 *   proc 0: a=0, b=1, c=2 (Pwgt 10 each), edges a-b, a-c, b-d
 *   proc 1: e=4 (Pwgt 5), isolated
 *   proc 2: d=3 (Pwgt 1)
 *
 * a is interior (all its neighbours are on proc 0), proc 0 is above the
 * mean and proc 2 is the least loaded: a's only candidate is proc 2, the
 * global one. b is a boundary vertex with a neighbour on proc 2. */
typedef struct fixture {
  minex_graph *g;
  minex_config *cfg;
  int32_t old[5];
  costmodel_loads ld;
  contract_ws ws;
  partition_ctx pc;
} fixture;

static void fixture_setup(fixture *f) {
  static const int64_t xadj[6] = {0, 2, 4, 5, 6, 6};
  static const int32_t adj[6] = {1, 2, 0, 3, 0, 1};
  static const double pw[5] = {10, 10, 10, 1, 5};
  static const double cw[6] = {0.01, 0.01, 0.01, 0.01, 0.01, 0.01};
  static const int32_t old[5] = {0, 0, 0, 2, 1};
  ck_assert_int_eq(minex_graph_create(5, xadj, adj, pw, NULL, cw, &f->g),
                   MINEX_OK);
  ck_assert_int_eq(minex_config_create_uniform(3, &f->cfg), MINEX_OK);
  for (int v = 0; v < 5; v++)
    f->old[v] = old[v];
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_int_eq(costmodel_loads_create(&f->ld, f->g, f->cfg, f->old,
                                          f->old, &opt),
                   MINEX_OK);
  ck_assert_int_eq(contract_ws_create(&f->ws, f->g, f->old), MINEX_OK);
  ck_assert_int_eq(contract_freeze(&f->ws), MINEX_OK);
  ck_assert_int_eq(f->ws.nactive, 5);
  ck_assert_int_eq(partition_ctx_create(&f->pc, &f->ws, &f->ld, &opt),
                   MINEX_OK);
}

static void fixture_teardown(fixture *f) {
  partition_ctx_destroy(&f->pc);
  contract_ws_destroy(&f->ws);
  costmodel_loads_destroy(&f->ld);
  minex_config_destroy(f->cfg);
  minex_graph_destroy(f->g);
}

START_TEST(interior_vertex_moves_to_the_least_loaded_processor) {
  fixture f;
  fixture_setup(&f);
  partition_choice ch;
  ck_assert_int_eq(partition_best_move(&f.pc, 0, &ch), 1);
  ck_assert_int_eq(ch.move.to, 2);
  ck_assert_int_eq(ch.forced, 0);
  ck_assert(ch.move.dmin_var < 0);
  fixture_teardown(&f);
}
END_TEST

/* The regression: a's interior flag is set by a first test; then b's
 * gather marks its neighbours' owners {0, 2}; a second test of a (interior:
 * no gather of its own) must still see proc 2 as a candidate. Before the
 * fix the least-loaded processor was skipped when the previous gather had
 * marked it, and a got no move at all. */
START_TEST(least_loaded_candidate_survives_another_vertexs_gather) {
  fixture f;
  fixture_setup(&f);
  partition_choice ch, ch_b;
  ck_assert_int_eq(partition_best_move(&f.pc, 0, &ch), 1);
  ck_assert_int_eq(f.pc.interior[0], 1);
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch_b), 1);
  ck_assert_int_eq(ch_b.move.to, 2);
  partition_choice again;
  ck_assert_int_eq(partition_best_move(&f.pc, 0, &again), 1);
  ck_assert_int_eq(again.move.to, 2);
  ck_assert(again.move.gain == ch.move.gain);
  ck_assert(again.move.dmin_var == ch.move.dmin_var);
  fixture_teardown(&f);
}
END_TEST

int main(void) {
  Suite *s = suite_create("partition");
  TCase *tc = tcase_create("candidates");
  tcase_add_test(tc, interior_vertex_moves_to_the_least_loaded_processor);
  tcase_add_test(tc, least_loaded_candidate_survives_another_vertexs_gather);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

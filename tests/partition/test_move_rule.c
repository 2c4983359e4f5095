/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/partition/move_rule.c: which move the rule of SPEC §3
 * chooses on hand-made graphs of 3 to 6 vertices (uncontracted: every
 * vertex is its own coarse vertex) — the candidates, the ThroTTle gate at
 * 0, 1 and inf, a tie of Gain, and the forced move off an unavailable
 * processor when no candidate passes the gate. */
#include "contract/contract.h"
#include "partition/partition.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

enum { MAXV = 8 };

/* A graph, a uniform configuration of nprocs processors (some possibly
 * unavailable) and the partition context over it. */
typedef struct fixture {
  minex_graph *g;
  minex_config *cfg;
  int32_t old[MAXV];
  costmodel_loads ld;
  contract_ws ws;
  partition_ctx pc;
} fixture;

/* Edges as pairs (a, b) with weight cw[k]; pwgt per vertex; unavail: a
 * processor marked unavailable, or -1. */
static void fixture_setup(fixture *f, int32_t n, int32_t nedges,
                          const int32_t (*edge)[2], const double *cw,
                          const double *pw, const int32_t *old, int32_t nprocs,
                          int32_t unavail) {
  int64_t xadj[MAXV + 1] = {0};
  int32_t adj[4 * MAXV];
  double acw[4 * MAXV];
  for (int32_t k = 0; k < nedges; k++) {
    xadj[edge[k][0] + 1]++;
    xadj[edge[k][1] + 1]++;
  }
  for (int32_t v = 0; v < n; v++)
    xadj[v + 1] += xadj[v];
  int64_t at[MAXV];
  for (int32_t v = 0; v < n; v++)
    at[v] = xadj[v];
  for (int32_t k = 0; k < nedges; k++)
    for (int e = 0; e < 2; e++) {
      int32_t a = edge[k][e], b = edge[k][1 - e];
      adj[at[a]] = b;
      acw[at[a]++] = cw[k];
    }
  ck_assert_int_eq(minex_graph_create(n, xadj, adj, pw, NULL, acw, &f->g),
                   MINEX_OK);
  ck_assert_int_eq(minex_config_create_uniform(nprocs, &f->cfg), MINEX_OK);
  if (unavail >= 0)
    ck_assert_int_eq(minex_config_set_available(f->cfg, unavail, 0), MINEX_OK);
  for (int32_t v = 0; v < n; v++)
    f->old[v] = old[v];
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_int_eq(
      costmodel_loads_create(&f->ld, f->g, f->cfg, f->old, f->old, &opt),
      MINEX_OK);
  ck_assert_int_eq(contract_ws_create(&f->ws, f->g, f->old), MINEX_OK);
  ck_assert_int_eq(contract_freeze(&f->ws), MINEX_OK);
  ck_assert_int_eq(f->ws.nactive, n);
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

/* Five vertices on three processors:
 *
 *   proc 0: a=0, b=1, c=2 (Pwgt 10 each), edges a-b, a-c, b-d
 *   proc 1: e=4 (Pwgt 5), isolated
 *   proc 2: d=3 (Pwgt 1)
 *
 * a is interior (all its neighbours are on proc 0), proc 0 is above the
 * mean and proc 2 is the least loaded: a's only candidate is proc 2, the
 * global one. b is a boundary vertex with a neighbour on proc 2. The a-b
 * edge is heavy (Cwgt 2): moving b cuts it, so b's move raises QwgtTot
 * while it lowers MinVar. */
static void five_vertices(fixture *f) {
  static const int32_t edge[3][2] = {{0, 1}, {0, 2}, {1, 3}};
  static const double cw[3] = {2, 0.01, 0.01};
  static const double pw[5] = {10, 10, 10, 1, 5};
  static const int32_t old[5] = {0, 0, 0, 2, 1};
  fixture_setup(f, 5, 3, edge, cw, pw, old, 3, -1);
}

START_TEST(interior_vertex_moves_to_the_least_loaded_processor) {
  fixture f;
  five_vertices(&f);
  partition_choice ch;
  ck_assert_int_eq(partition_best_move(&f.pc, 2, &ch), 1);
  ck_assert_int_eq(ch.move.to, 2);
  ck_assert_int_eq(ch.forced, 0);
  ck_assert(ch.move.dmin_var < 0);
  fixture_teardown(&f);
}
END_TEST

/* A regression test: c's interior flag is set by a first test;
 * then b's gather marks its neighbours' owners {0, 2}; a second test of c
 * (interior: no gather of its own) must still see proc 2 as a candidate.
 * Before the fix the least-loaded processor was skipped when the previous
 * gather had marked it, and c got no move at all. */
START_TEST(least_loaded_candidate_survives_another_vertexs_gather) {
  fixture f;
  five_vertices(&f);
  partition_choice ch, ch_b;
  ck_assert_int_eq(partition_best_move(&f.pc, 2, &ch), 1);
  ck_assert_int_eq(f.pc.interior[2], 1);
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch_b), 1);
  ck_assert_int_eq(ch_b.move.to, 2);
  partition_choice again;
  ck_assert_int_eq(partition_best_move(&f.pc, 2, &again), 1);
  ck_assert_int_eq(again.move.to, 2);
  ck_assert(again.move.gain == ch.move.gain);
  ck_assert(again.move.dmin_var == ch.move.dmin_var);
  fixture_teardown(&f);
}
END_TEST

/* b's move to proc 2 lowers MinVar but raises QwgtTot (it cuts the heavy
 * a-b edge): the gate -Gain/dMinVar < ThroTTle (in units of the mean load)
 * rejects it at ThroTTle 0 and below its ratio, admits it above the ratio
 * and at inf. */
START_TEST(throttle_gates_a_move_that_raises_qwgttot) {
  fixture f;
  five_vertices(&f);
  partition_choice ch;
  f.pc.throttle = INFINITY;
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch), 1);
  ck_assert_int_eq(ch.move.to, 2);
  ck_assert(ch.move.gain > 0);
  ck_assert(ch.move.dmin_var < 0);
  double ratio = ch.move.gain * f.pc.qbar / -ch.move.dmin_var;
  ck_assert(ratio > 0 && isfinite(ratio));
  f.pc.throttle = 0;
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch), 0);
  f.pc.throttle = 0.5 * ratio;
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch), 0);
  f.pc.throttle = 2 * ratio;
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch), 1);
  ck_assert_int_eq(ch.move.to, 2);
  /* ThroTTle 1 decides by the ratio, whichever side of 1 it falls */
  f.pc.throttle = 1;
  ck_assert_int_eq(partition_best_move(&f.pc, 1, &ch), ratio < 1);
  fixture_teardown(&f);
}
END_TEST

/* ThroTTle 0 admits a move that lowers QwgtTot: c's move to the empty
 * proc 2 of a 4-vertex path 0-1-2-3, all on proc 0 but 3, where cutting
 * nothing new and removing the 2-3 cut lowers the total. */
START_TEST(throttle_zero_admits_a_move_that_lowers_qwgttot) {
  static const int32_t edge[3][2] = {{0, 1}, {1, 2}, {2, 3}};
  static const double cw[3] = {0.01, 0.01, 5};
  static const double pw[4] = {10, 10, 10, 1};
  static const int32_t old[4] = {0, 0, 0, 1};
  fixture f;
  fixture_setup(&f, 4, 3, edge, cw, pw, old, 2, -1);
  f.pc.throttle = 0;
  partition_choice ch;
  ck_assert_int_eq(partition_best_move(&f.pc, 2, &ch), 1);
  ck_assert_int_eq(ch.move.to, 1);
  ck_assert(ch.move.gain < 0);
  ck_assert(ch.move.dmin_var < 0);
  fixture_teardown(&f);
}
END_TEST

/* x = 0 on proc 0 (with y = 1) has one neighbour on proc 1 and one on
 * proc 2, with equal Cwgt: both moves have the same Gain exactly, and the
 * rule takes the one with the smaller dMinVar, the lighter processor —
 * whichever of the two it is. */
START_TEST(a_tie_of_gain_goes_to_the_smaller_dminvar) {
  static const int32_t edge[3][2] = {{0, 1}, {0, 2}, {0, 3}};
  static const double cw[3] = {0.5, 1, 1};
  for (int lighter = 1; lighter <= 2; lighter++) {
    double pw[4] = {4, 20, 0, 0};
    pw[2] = lighter == 1 ? 2 : 6; /* vertex 2 is on proc 1 */
    pw[3] = lighter == 1 ? 6 : 2; /* vertex 3 is on proc 2 */
    static const int32_t old[4] = {0, 0, 1, 2};
    fixture f;
    fixture_setup(&f, 4, 3, edge, cw, pw, old, 3, -1);
    const contract_attr *a = &contract_cur(&f.ws)->at[0];
    costmodel_nbr nb[3] = {{0, 0.5}, {1, 1}, {2, 1}};
    costmodel_vertex v = {a->pwgt, a->rwgt, a->old, 0, nb, 3};
    costmodel_move m1, m2;
    costmodel_eval_move(&f.ld, &v, 1, &m1);
    costmodel_eval_move(&f.ld, &v, 2, &m2);
    ck_assert(m1.gain == m2.gain);
    ck_assert(m1.dmin_var != m2.dmin_var);
    partition_choice ch;
    ck_assert_int_eq(partition_best_move(&f.pc, 0, &ch), 1);
    ck_assert_int_eq(ch.move.to, lighter);
    fixture_teardown(&f);
  }
}
END_TEST

/* x = 0 (Pwgt 20) sits on proc 0, which has left; procs 1 and 2 hold 10
 * and 5. Either move raises MinVar (x outweighs the difference), so no
 * candidate passes the gate, yet x must move: the rule takes the move that
 * unbalances least, to the lighter proc 2, and marks it forced. */
START_TEST(forced_move_without_admissible_candidate_unbalances_least) {
  static const int32_t edge[2][2] = {{0, 1}, {0, 2}};
  static const double cw[2] = {1, 1};
  static const double pw[3] = {20, 10, 5};
  static const int32_t old[3] = {0, 1, 2};
  fixture f;
  fixture_setup(&f, 3, 2, edge, cw, pw, old, 3, 0);
  partition_choice ch;
  f.pc.throttle = INFINITY;
  ck_assert_int_eq(partition_best_move(&f.pc, 0, &ch), 1);
  ck_assert_int_eq(ch.forced, 1);
  ck_assert_int_eq(ch.move.to, 2);
  ck_assert(ch.move.dmin_var > 0);
  /* the gate is irrelevant to a forced move: ThroTTle 0 moves it too */
  f.pc.throttle = 0;
  ck_assert_int_eq(partition_best_move(&f.pc, 0, &ch), 1);
  ck_assert_int_eq(ch.move.to, 2);
  fixture_teardown(&f);
}
END_TEST

int main(void) {
  Suite *s = suite_create("move_rule");
  TCase *tc = tcase_create("move_rule");
  tcase_add_test(tc, interior_vertex_moves_to_the_least_loaded_processor);
  tcase_add_test(tc, least_loaded_candidate_survives_another_vertexs_gather);
  tcase_add_test(tc, throttle_gates_a_move_that_raises_qwgttot);
  tcase_add_test(tc, throttle_zero_admits_a_move_that_lowers_qwgttot);
  tcase_add_test(tc, a_tie_of_gain_goes_to_the_smaller_dminvar);
  tcase_add_test(tc, forced_move_without_admissible_candidate_unbalances_least);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

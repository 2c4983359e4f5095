/* Tests of src/contract: contraction conserves weights and yields the
 * quotient graph, merges only same-owner pairs, Find agrees with a naive
 * walk of the merge forest, and expansion restores the graph exactly. */
#include "contract/contract.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

/* Root of x by following merge pointers only (no lookup cache). */
static int32_t naive_root(const contract_ws *ws, int32_t x) {
  while (ws->nd[x].merge != -1)
    x = ws->nd[x].merge;
  return x;
}

static void assert_find_is_naive(contract_ws *ws) {
  for (int32_t x = 0; x < ws->vtot; x++)
    ck_assert_int_eq(contract_find(ws, x), naive_root(ws, x));
}

static minex_graph *graph_and_part(gsl_rng *rng, int trial, int32_t **old,
                                   int32_t *P) {
  int32_t n = 20 + (int32_t)gsl_rng_uniform_int(rng, 400);
  minex_graph *g = test_random_graph(rng, n, 3.0 + trial % 5, trial % 2);
  *P = 1 + (int32_t)gsl_rng_uniform_int(rng, 6);
  *old = malloc(sizeof(int32_t) * (size_t)n);
  /* blocks of ids plus noise: realistic same-owner neighbourhoods */
  for (int32_t v = 0; v < n; v++)
    (*old)[v] = gsl_rng_uniform(rng) < 0.8
                    ? (int32_t)((int64_t)v * *P / n)
                    : (int32_t)gsl_rng_uniform_int(rng, (unsigned long)*P);
  return g;
}

START_TEST(contraction_conserves_weights_and_builds_the_quotient_graph) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 11);
  for (int trial = 0; trial < 30; trial++) {
    int32_t *old, P;
    minex_graph *g = graph_and_part(rng, trial, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    for (int32_t target = n - n / 4; target >= 1; target /= 2) {
      ck_assert_int_eq(contract_run(&ws, target, 1 + trial % 4, rng),
                       MINEX_OK);
      ck_assert_int_eq(contract_check(&ws), MINEX_OK);
      assert_find_is_naive(&ws);
      ck_assert(ws.nactive >= target || ws.nvalid == 0);
    }
    /* merges join same-owner vertices only; the owner is inherited */
    for (int32_t k = 0; k < ws.vtot - n; k++) {
      int32_t a = ws.child[2 * k], b = ws.child[2 * k + 1];
      ck_assert_int_eq(ws.old[a], ws.old[b]);
      ck_assert_int_eq(ws.nd[n + k].owner, ws.nd[a].owner);
    }
    contract_ws_destroy(&ws);
    minex_graph_destroy(g);
    free(old);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(contraction_stops_when_no_same_owner_pair_remains) {
  /* a checkerboard owner pattern on a grid: no edge joins equal owners */
  minex_graph *g = test_grid_graph(6, 5, 4);
  int32_t n = minex_graph_nvtxs(g), *old = malloc(sizeof(int32_t) * 120);
  for (int32_t v = 0; v < n; v++) {
    int32_t x = v % 6, y = (v / 6) % 5, z = v / 30;
    old[v] = (x + y + z) % 2;
  }
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  contract_ws ws;
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  ck_assert_int_eq(ws.nvalid, 0);
  ck_assert_int_eq(contract_run(&ws, 1, 4, rng), MINEX_OK);
  ck_assert_int_eq(ws.nactive, n);
  /* one owner for all: contraction goes down to the target */
  contract_ws_destroy(&ws);
  memset(old, 0, sizeof(int32_t) * 120);
  ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
  ck_assert_int_eq(contract_run(&ws, 1, 4, rng), MINEX_OK);
  ck_assert_int_eq(ws.nactive, 1);
  ck_assert_int_eq(contract_check(&ws), MINEX_OK);
  contract_ws_destroy(&ws);
  free(old);
  minex_graph_destroy(g);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(expansion_restores_the_graph_exactly) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 23);
  for (int trial = 0; trial < 20; trial++) {
    int32_t *old, P;
    minex_graph *g = graph_and_part(rng, trial, &old, &P);
    int32_t n = minex_graph_nvtxs(g);
    contract_ws ws;
    ck_assert_int_eq(contract_ws_create(&ws, g, old), MINEX_OK);
    ck_assert_int_eq(contract_run(&ws, 1 + n / 10, 3, rng), MINEX_OK);
    if (trial % 2 == 0) /* the driver's mode: direct representatives */
      ck_assert_int_eq(contract_freeze(&ws), MINEX_OK);
    /* give every active vertex an owner, as the partition phase would */
    for (int32_t x = 0; x < ws.vtot; x++)
      if (ws.nd[x].merge == -1)
        contract_set_owner(&ws, x,
                           (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P));
    int32_t steps = 0;
    while (ws.vtot > n) {
      int32_t M = ws.vtot - 1, v, w, own = ws.nd[M].owner;
      contract_undo(&ws, &v, &w);
      ck_assert_int_eq(ws.nd[v].owner, own);
      ck_assert_int_eq(ws.nd[w].owner, own);
      if (++steps % 7 == 0) {
        ck_assert_int_eq(contract_check(&ws), MINEX_OK);
        assert_find_is_naive(&ws);
      }
    }
    ck_assert_int_eq(ws.nactive, n);
    ck_assert_int_eq(ws.msize, 0);
    ck_assert_int_eq(contract_check(&ws), MINEX_OK);
    const int64_t *xadj = minex_graph_xadj(g);
    for (int32_t v = 0; v < n; v++) {
      ck_assert_int_eq(ws.nd[v].merge, -1);
      ck_assert_int_eq(contract_find(&ws, v), v);
      int32_t cnt = contract_gather(&ws, v);
      ck_assert_int_eq(cnt, xadj[v + 1] - xadj[v]);
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
        /* simple graph: one end per neighbour, in CSR order */
        ck_assert_int_eq(ws.list[j - xadj[v]], minex_graph_adjncy(g)[j]);
        ck_assert(ws.lacc[j - xadj[v]] == minex_graph_cwgt(g)[j]);
      }
    }
    contract_ws_destroy(&ws);
    minex_graph_destroy(g);
    free(old);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(contraction_is_deterministic_for_a_seed) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  int32_t *old, P;
  minex_graph *g = graph_and_part(rng, 3, &old, &P);
  int32_t n = minex_graph_nvtxs(g);
  contract_ws a, b;
  gsl_rng *ra = gsl_rng_alloc(gsl_rng_mt19937),
          *rb = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(ra, 42);
  gsl_rng_set(rb, 42);
  contract_ws_create(&a, g, old);
  contract_ws_create(&b, g, old);
  contract_run(&a, n / 8 + 1, 4, ra);
  contract_run(&b, n / 8 + 1, 4, rb);
  ck_assert_int_eq(a.vtot, b.vtot);
  ck_assert_mem_eq(a.child, b.child, sizeof(int32_t) * 2 * (size_t)(a.vtot - n));
  contract_ws_destroy(&a);
  contract_ws_destroy(&b);
  gsl_rng_free(ra);
  gsl_rng_free(rb);
  gsl_rng_free(rng);
  minex_graph_destroy(g);
  free(old);
}
END_TEST

int main(void) {
  Suite *s = suite_create("contract");
  TCase *tc = tcase_create("contract");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, contraction_conserves_weights_and_builds_the_quotient_graph);
  tcase_add_test(tc, contraction_stops_when_no_same_owner_pair_remains);
  tcase_add_test(tc, expansion_restores_the_graph_exactly);
  tcase_add_test(tc, contraction_is_deterministic_for_a_seed);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

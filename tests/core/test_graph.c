/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/core/graph.c and config.c: creation validates every SPEC §1
 * rule and names the vertex at fault; a weight update equals a fresh
 * creation and a refused one changes nothing. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* triangle 0-1-2 plus pendant 3 on 2 */
static const int64_t tri_xadj[] = {0, 2, 4, 7, 8};
static const int32_t tri_adj[] = {1, 2, 0, 2, 0, 1, 3, 2};

START_TEST(graph_create_accepts_valid_graph_and_sorts_rows) {
  int32_t adj[] = {2, 1, 2, 0, 3, 1, 0, 2};
  double cw[] = {5, 4, 6, 4, 7, 6, 5, 7};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, adj, NULL, NULL, cw, &g),
                   MINEX_OK);
  ck_assert_int_eq(minex_graph_nvtxs(g), 4);
  ck_assert_int_eq(minex_graph_nedges(g), 4);
  const int32_t *a = minex_graph_adjncy(g);
  const double *c = minex_graph_cwgt(g);
  ck_assert_int_eq(a[0], 1);
  ck_assert(c[0] == 4);
  ck_assert_int_eq(a[1], 2);
  ck_assert(c[1] == 5);
  ck_assert(minex_graph_pwgt(g)[3] == 1.0);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(graph_create_rejects_asymmetric_edge) {
  int32_t adj[] = {1, 2, 0, 2, 0, 1, 3, 1};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, adj, NULL, NULL, NULL, &g),
                   MINEX_EGRAPH);
  ck_assert_ptr_null(g);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "no reverse edge"));
}
END_TEST

START_TEST(graph_create_rejects_unequal_cwgt_directions) {
  double cw[] = {1, 1, 1, 1, 1, 1, 2, 3};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, tri_adj, NULL, NULL, cw, &g),
                   MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "2-3"));
}
END_TEST

START_TEST(graph_create_rejects_bad_ids_loops_duplicates_weights) {
  minex_graph *g = NULL;
  int32_t out_of_range[] = {1, 2, 0, 2, 0, 1, 9, 2};
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, out_of_range, NULL, NULL, NULL, &g),
      MINEX_EGRAPH);
  int32_t loop[] = {1, 0, 0, 2, 0, 1, 3, 2};
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, loop, NULL, NULL, NULL, &g),
                   MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "self loop"));
  int32_t dup[] = {1, 1, 0, 2, 0, 1, 3, 2};
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, dup, NULL, NULL, NULL, &g),
                   MINEX_EGRAPH);
  double pw[] = {1, -1, 1, 1};
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, tri_adj, pw, NULL, NULL, &g),
                   MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "pwgt[1]"));
  double rw[] = {1, 1, NAN, 1};
  ck_assert_int_eq(minex_graph_create(4, tri_xadj, tri_adj, NULL, rw, NULL, &g),
                   MINEX_EGRAPH);
  ck_assert_int_eq(
      minex_graph_create(-1, tri_xadj, tri_adj, NULL, NULL, NULL, &g),
      MINEX_EINVAL);
  ck_assert_ptr_null(g);
}
END_TEST

START_TEST(graph_create_accepts_empty_and_isolated) {
  int64_t xadj[] = {0, 0, 0};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(2, xadj, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  ck_assert_int_eq(minex_graph_nedges(g), 0);
  minex_graph_destroy(g);
  ck_assert_int_eq(minex_graph_create(0, xadj, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  minex_graph_destroy(g);
  minex_graph_destroy(NULL);
}
END_TEST

/* The weights of the triangle-plus-pendant graph in its sorted order:
 * rows 0:{1,2} 1:{0,2} 2:{0,1,3} 3:{2}. */
static const double set_pw[] = {2, 0, 3.5, 7};
static const double set_rw[] = {1, 4, 0, 9};
static const double set_cw[] = {5, 6, 5, 8, 6, 8, 0.5, 0.5};

START_TEST(graph_set_weights_equals_fresh_create) {
  minex_graph *g = NULL, *fresh = NULL;
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, NULL, NULL, NULL, &g), MINEX_OK);
  const double *pw0 = minex_graph_pwgt(g), *cw0 = minex_graph_cwgt(g);
  ck_assert_int_eq(minex_graph_set_weights(g, set_pw, set_rw, set_cw),
                   MINEX_OK);
  /* the accessors' arrays stay valid and hold the new weights */
  ck_assert_ptr_eq(minex_graph_pwgt(g), pw0);
  ck_assert_ptr_eq(minex_graph_cwgt(g), cw0);
  ck_assert(pw0[3] == 7 && cw0[6] == 0.5);
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, set_pw, set_rw, set_cw, &fresh),
      MINEX_OK);
  test_assert_graphs_equal(g, fresh);
  minex_graph_destroy(fresh);
  /* NULL leaves that array as it is. */
  double pw2[] = {1, 1, 1, 1};
  ck_assert_int_eq(minex_graph_set_weights(g, pw2, NULL, NULL), MINEX_OK);
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, pw2, set_rw, set_cw, &fresh),
      MINEX_OK);
  test_assert_graphs_equal(g, fresh);
  minex_graph_destroy(fresh);
  ck_assert_int_eq(minex_graph_set_weights(g, NULL, NULL, NULL), MINEX_OK);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(graph_set_weights_refuses_bad_weights_leaving_graph_untouched) {
  minex_graph *g = NULL, *before = NULL;
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, set_pw, set_rw, set_cw, &g),
      MINEX_OK);
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, set_pw, set_rw, set_cw, &before),
      MINEX_OK);
  double good_pw[] = {1, 1, 1, 1}, good_cw[] = {1, 1, 1, 1, 1, 1, 1, 1};
  /* Each call pairs a bad array with good ones: nothing may be written. */
  double bad_pw[] = {1, 1, -1, 1};
  ck_assert_int_eq(minex_graph_set_weights(g, bad_pw, good_pw, good_cw),
                   MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "pwgt[2]"));
  test_assert_graphs_equal(g, before);
  double bad_rw[] = {1, 1, 1, INFINITY};
  ck_assert_int_eq(minex_graph_set_weights(g, good_pw, bad_rw, good_cw),
                   MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "rwgt[3]"));
  test_assert_graphs_equal(g, before);
  double nan_cw[] = {1, 1, 1, 1, 1, 1, 1, NAN};
  ck_assert_int_eq(minex_graph_set_weights(g, good_pw, good_pw, nan_cw),
                   MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "cwgt[7] = nan"));
  test_assert_graphs_equal(g, before);
  ck_assert_int_eq(minex_graph_set_weights(NULL, good_pw, NULL, NULL),
                   MINEX_EINVAL);
  minex_graph_destroy(before);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(graph_set_weights_refuses_asymmetric_cwgt) {
  minex_graph *g = NULL, *before = NULL;
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, set_pw, set_rw, set_cw, &g),
      MINEX_OK);
  ck_assert_int_eq(
      minex_graph_create(4, tri_xadj, tri_adj, set_pw, set_rw, set_cw, &before),
      MINEX_OK);
  double one[] = {1, 1, 1, 1};
  /* entry 3 is 1->2 and entry 5 is 2->1 */
  double cw[] = {1, 1, 1, 2, 1, 3, 1, 1};
  ck_assert_int_eq(minex_graph_set_weights(g, one, one, cw), MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "edge 1-2"));
  test_assert_graphs_equal(g, before);
  /* the last edge, 2-3, differing only on the side of the higher id */
  double cw_last[] = {1, 1, 1, 1, 1, 1, 1, 2};
  ck_assert_int_eq(minex_graph_set_weights(g, one, one, cw_last), MINEX_EGRAPH);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "edge 2-3"));
  test_assert_graphs_equal(g, before);
  minex_graph_destroy(before);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(graph_set_weights_on_empty_and_isolated) {
  int64_t xadj[] = {0, 0, 0};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(2, xadj, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  double pw[] = {3, 4}, cw[] = {0};
  ck_assert_int_eq(minex_graph_set_weights(g, pw, pw, cw), MINEX_OK);
  ck_assert(minex_graph_pwgt(g)[1] == 4 && minex_graph_rwgt(g)[0] == 3);
  minex_graph_destroy(g);
  ck_assert_int_eq(minex_graph_create(0, xadj, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  ck_assert_int_eq(minex_graph_set_weights(g, NULL, NULL, cw), MINEX_OK);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(config_create_numbers_processors_by_cluster) {
  int32_t np[] = {2, 0, 3};
  double proc[] = {1, 2, 3};
  double conn[] = {1, 5, 6, 5, 1, 7, 6, 7, 2};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(3, np, proc, conn, &cf), MINEX_OK);
  ck_assert_int_eq(minex_config_nprocs(cf), 5);
  ck_assert_int_eq(minex_config_cluster_of(cf, 1), 0);
  ck_assert_int_eq(minex_config_cluster_of(cf, 2), 2);
  ck_assert_int_eq(minex_config_cluster_of(cf, 5), -1);
  ck_assert(minex_config_conn(cf, 2, 1) == 7);
  ck_assert_int_eq(minex_config_set_available(cf, 3, 0), MINEX_OK);
  ck_assert_int_eq(minex_config_navailable(cf), 4);
  ck_assert_int_eq(minex_config_set_available(cf, 3, 0), MINEX_OK);
  ck_assert_int_eq(minex_config_navailable(cf), 4);
  ck_assert_int_eq(minex_config_set_available(cf, 7, 0), MINEX_EINVAL);
  minex_config_destroy(cf);
}
END_TEST

START_TEST(config_create_rejects_asymmetric_or_nonpositive) {
  int32_t np[] = {2, 2};
  double conn[] = {1, 2, 3, 1};
  double bad_proc[] = {1, 0};
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create(2, np, NULL, conn, &cf), MINEX_ECONFIG);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "symmetric"));
  ck_assert_int_eq(minex_config_create(2, np, bad_proc, NULL, &cf),
                   MINEX_ECONFIG);
  int32_t none[] = {0, 0};
  ck_assert_int_eq(minex_config_create(2, none, NULL, NULL, &cf),
                   MINEX_ECONFIG);
  ck_assert_ptr_null(cf);
}
END_TEST

START_TEST(error_names_and_messages_come_from_one_list) {
  ck_assert_str_eq(minex_err_name(MINEX_EGRAPH), "MINEX_EGRAPH");
  ck_assert_str_eq(minex_strerror(MINEX_OK), "success");
  ck_assert_str_eq(minex_err_name(12345), "MINEX_UNKNOWN");
}
END_TEST

int main(void) {
  Suite *s = suite_create("core");
  TCase *tc = tcase_create("graph_config");
  tcase_add_test(tc, graph_create_accepts_valid_graph_and_sorts_rows);
  tcase_add_test(tc, graph_create_rejects_asymmetric_edge);
  tcase_add_test(tc, graph_create_rejects_unequal_cwgt_directions);
  tcase_add_test(tc, graph_create_rejects_bad_ids_loops_duplicates_weights);
  tcase_add_test(tc, graph_create_accepts_empty_and_isolated);
  tcase_add_test(tc, graph_set_weights_equals_fresh_create);
  tcase_add_test(tc,
                 graph_set_weights_refuses_bad_weights_leaving_graph_untouched);
  tcase_add_test(tc, graph_set_weights_refuses_asymmetric_cwgt);
  tcase_add_test(tc, graph_set_weights_on_empty_and_isolated);
  tcase_add_test(tc, config_create_numbers_processors_by_cluster);
  tcase_add_test(tc, config_create_rejects_asymmetric_or_nonpositive);
  tcase_add_test(tc, error_names_and_messages_come_from_one_list);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The invariant checks of MINEX_CHECKS builds are wired into
 * minex_repartition (src/driver/repartition.c, issue 10): a user Qwgt
 * function that drifts between calls makes the running loads disagree
 * with their recomputation, which costmodel_loads_check reports at the
 * first phase boundary. Without MINEX_CHECKS the call goes through. */
#include "test_util.h"

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

int main(void) {
  Suite *s = suite_create("repartition_checks");
  TCase *tc = tcase_create("repartition_checks");
  tcase_add_test(tc, a_failed_check_stops_the_repartition_with_its_name);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/policy/feedback.c: slowdowns from measured step times
 * (Watts, Rieffel, Taylor 1998: capacity = load / time). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Four processors of true capacities 10, 10, 5, 2.5 load units per second
 * process `load` units each step. */
static void add_steps(minex_feedback *f, int steps, const double *load,
                      const double *cap) {
  for (int s = 0; s < steps; s++) {
    double t[4];
    for (int p = 0; p < 4; p++)
      t[p] = load[p] / cap[p];
    ck_assert_int_eq(minex_feedback_add(f, load, t), MINEX_OK);
  }
}

START_TEST(capacities_and_slowdowns) {
  const double cap[4] = {10, 10, 5, 2.5};
  const double load[4] = {100, 40, 70, 30};
  for (int e = 0; e < 2; e++) {
    minex_feedback *f = NULL;
    ck_assert_int_eq(
        minex_feedback_create(4, 5, (minex_feedback_estimator)e, &f), MINEX_OK);
    add_steps(f, 3, load, cap);
    double c[4], sl[4], sd[4];
    int32_t k[4];
    ck_assert_int_eq(minex_feedback_estimate(f, c, sl, sd, k), MINEX_OK);
    const double want[4] = {1, 1, 2, 4};
    for (int p = 0; p < 4; p++) {
      ck_assert(fabs(c[p] - cap[p]) < 1e-12);
      ck_assert(fabs(sl[p] - want[p]) < 1e-12);
      ck_assert(fabs(sd[p]) < 1e-12);
      ck_assert_int_eq(k[p], 3);
    }
    minex_feedback_destroy(f);
  }
}
END_TEST

START_TEST(median_resists_an_outlier_ratio_weighs_time) {
  const double cap[4] = {10, 10, 5, 2.5};
  const double load[4] = {100, 100, 100, 100};
  minex_feedback *fm = NULL, *fr = NULL;
  ck_assert_int_eq(minex_feedback_create(4, 5, MINEX_FEEDBACK_MEDIAN, &fm),
                   MINEX_OK);
  ck_assert_int_eq(minex_feedback_create(4, 5, MINEX_FEEDBACK_RATIO, &fr),
                   MINEX_OK);
  add_steps(fm, 4, load, cap);
  add_steps(fr, 4, load, cap);
  /* one step in which processor 0 was three times slower (a hiccup) */
  const double slow[4] = {10.0 / 3, 10, 5, 2.5};
  add_steps(fm, 1, load, slow);
  add_steps(fr, 1, load, slow);
  double cm[4], cr[4], sd[4];
  ck_assert_int_eq(minex_feedback_estimate(fm, cm, NULL, sd, NULL), MINEX_OK);
  ck_assert_int_eq(minex_feedback_estimate(fr, cr, NULL, NULL, NULL), MINEX_OK);
  ck_assert(fabs(cm[0] - 10) < 1e-12); /* median of {10,10,10,10,3.33} */
  /* ratio: 500 units in 4*10 + 30 = 70 s */
  ck_assert(fabs(cr[0] - 500.0 / 70) < 1e-12);
  /* sd of {10,10,10,10,10/3} (GSL: sample sd, n - 1) */
  double mean = (40 + 10.0 / 3) / 5,
         ss = 4 * pow(10 - mean, 2) + pow(10.0 / 3 - mean, 2);
  ck_assert(fabs(sd[0] - sqrt(ss / 4)) < 1e-12);
  ck_assert(fabs(sd[1]) < 1e-12);
  /* the window forgets: 5 more normal steps and the hiccup is gone */
  add_steps(fr, 5, load, cap);
  ck_assert_int_eq(minex_feedback_estimate(fr, cr, NULL, NULL, NULL), MINEX_OK);
  ck_assert(fabs(cr[0] - 10) < 1e-12);
  /* and it follows a lasting change after window steps */
  const double changed[4] = {2, 10, 5, 2.5};
  add_steps(fm, 3, load, changed);
  ck_assert_int_eq(minex_feedback_estimate(fm, cm, NULL, NULL, NULL), MINEX_OK);
  ck_assert(fabs(cm[0] - 2) < 1e-12); /* {10, 3.33, 2, 2, 2} */
  minex_feedback_destroy(fm);
  minex_feedback_destroy(fr);
}
END_TEST

/* Samples whose capacity load/seconds is not a finite positive double are
 * refused (nothing recorded); capacities far apart that would make an
 * infinite slowdown fail the estimate without writing the outputs. */
START_TEST(non_finite_capacities_are_errors) {
  minex_feedback *f = NULL;
  ck_assert_int_eq(minex_feedback_create(2, 3, MINEX_FEEDBACK_MEDIAN, &f),
                   MINEX_OK);
  double load[2] = {1e308, 1}, secs[2] = {1e-308, 1};
  ck_assert_int_eq(minex_feedback_add(f, load, secs), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "load[0]"));
  double cap[2] = {-1, -1}, slow[2] = {-1, -1};
  int32_t cnt[2] = {-1, -1};
  /* nothing was recorded: no sample yet */
  ck_assert_int_ne(minex_feedback_estimate(f, cap, slow, NULL, cnt), MINEX_OK);
  /* 1e300 and 1e-300 units/s are each fine; their ratio is not */
  double l2[2] = {1e300, 1e-300}, s2[2] = {1, 1};
  ck_assert_int_eq(minex_feedback_add(f, l2, s2), MINEX_OK);
  ck_assert_int_eq(minex_feedback_estimate(f, cap, slow, NULL, cnt),
                   MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "slowdown"));
  ck_assert(cap[0] == -1 && slow[1] == -1 && cnt[0] == -1);
  minex_feedback_destroy(f);
}
END_TEST

START_TEST(missing_samples_and_errors) {
  minex_feedback *f = NULL;
  ck_assert_int_eq(minex_feedback_create(0, 5, MINEX_FEEDBACK_MEDIAN, &f),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_feedback_create(3, 0, MINEX_FEEDBACK_MEDIAN, &f),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_feedback_create(3, 2, (minex_feedback_estimator)7, &f),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_feedback_create(3, 2, MINEX_FEEDBACK_MEDIAN, &f),
                   MINEX_OK);
  double c[3], sl[3];
  int32_t k[3];
  ck_assert_int_eq(minex_feedback_estimate(f, c, sl, NULL, k), MINEX_EINVAL);
  /* processor 2 had nothing to do: no sample */
  const double load[3] = {10, 30, 0}, t[3] = {1, 2, 0};
  ck_assert_int_eq(minex_feedback_add(f, load, t), MINEX_OK);
  ck_assert_int_eq(minex_feedback_estimate(f, c, sl, NULL, k), MINEX_OK);
  ck_assert_int_eq(k[2], 0);
  ck_assert(fabs(c[2] - 12.5) < 1e-12); /* median of {10, 15} */
  ck_assert(fabs(sl[0] - 1.5) < 1e-12);
  ck_assert(fabs(sl[1] - 1) < 1e-12);
  /* bad values are rejected and nothing of the step is recorded */
  const double bad[3] = {10, NAN, 1}, neg[3] = {1, 1, -1};
  ck_assert_int_eq(minex_feedback_add(f, bad, t), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "load[1]") != NULL);
  ck_assert_int_eq(minex_feedback_add(f, load, neg), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "seconds[2]") != NULL);
  ck_assert_int_eq(minex_feedback_estimate(f, NULL, NULL, NULL, k), MINEX_OK);
  ck_assert_int_eq(k[0], 1);
  ck_assert_int_eq(k[2], 0);
  minex_feedback_destroy(f);
}
END_TEST

/* The measured configuration: per processor, and per cluster (median of
 * the cluster's processors), Conn and availability from the base. */
START_TEST(config_from_feedback) {
  int32_t np[2] = {2, 2};
  double proc[2] = {1, 1}, conn[4] = {1, 10, 10, 2};
  minex_config *base = NULL, *cp = NULL, *cc = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &base), MINEX_OK);
  ck_assert_int_eq(minex_config_set_available(base, 1, 0), MINEX_OK);
  minex_feedback *f = NULL;
  ck_assert_int_eq(minex_feedback_create(4, 3, MINEX_FEEDBACK_MEDIAN, &f),
                   MINEX_OK);
  const double cap[4] = {10, 10, 5, 2.5}, load[4] = {20, 20, 20, 20};
  add_steps(f, 2, load, cap);
  ck_assert_int_eq(minex_feedback_config(f, base, 1, &cp), MINEX_OK);
  ck_assert_int_eq(minex_config_nclusters(cp), 4);
  const double want[4] = {1, 1, 2, 4};
  for (int p = 0; p < 4; p++) {
    ck_assert(fabs(minex_config_proc_slowdown(cp, p) - want[p]) < 1e-12);
    for (int q = 0; q < 4; q++)
      ck_assert(fabs(minex_config_conn(cp, p, q) - conn[(p / 2) * 2 + q / 2]) <
                1e-15);
    ck_assert_int_eq(minex_config_is_available(cp, p), p != 1);
  }
  ck_assert_int_eq(minex_feedback_config(f, base, 0, &cc), MINEX_OK);
  ck_assert_int_eq(minex_config_nclusters(cc), 2);
  /* cluster 1: median of {5, 2.5} = 3.75 -> 10 / 3.75 */
  ck_assert(fabs(minex_config_proc_slowdown(cc, 0) - 1) < 1e-12);
  ck_assert(fabs(minex_config_proc_slowdown(cc, 1) - 10 / 3.75) < 1e-12);
  ck_assert(fabs(minex_config_conn(cc, 1, 1) - 2) < 1e-15);
  ck_assert_int_eq(minex_config_is_available(cc, 1), 0);
  minex_config_destroy(cp);
  minex_config_destroy(cc);
  minex_config *small = NULL;
  ck_assert_int_eq(minex_config_create_uniform(3, &small), MINEX_OK);
  ck_assert_int_eq(minex_feedback_config(f, small, 1, &cp), MINEX_EINVAL);
  ck_assert_ptr_null(cp);
  cp = small; /* a NULL argument sets *out to NULL too */
  ck_assert_int_eq(minex_feedback_config(NULL, small, 1, &cp), MINEX_EINVAL);
  ck_assert_ptr_null(cp);
  minex_config_destroy(small);
  minex_feedback_destroy(f);
  minex_config_destroy(base);
}
END_TEST

int main(void) {
  Suite *s = suite_create("feedback");
  TCase *tc = tcase_create("feedback");
  tcase_add_test(tc, capacities_and_slowdowns);
  tcase_add_test(tc, median_resists_an_outlier_ratio_weighs_time);
  tcase_add_test(tc, missing_samples_and_errors);
  tcase_add_test(tc, non_finite_capacities_are_errors);
  tcase_add_test(tc, config_from_feedback);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

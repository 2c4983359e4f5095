/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of policy_feedback_check (src/policy/feedback.c): it passes on
 * valid feedback objects and fails on deliberately corrupted ones (the
 * proof that the check can fail). */
#include "policy/feedback.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static minex_feedback *valid_feedback(int steps) {
  minex_feedback *f = NULL;
  ck_assert_int_eq(minex_feedback_create(3, 4, MINEX_FEEDBACK_RATIO, &f),
                   MINEX_OK);
  double load[3] = {4, 2, 0}, secs[3] = {1, 2, 0};
  for (int s = 0; s < steps; s++)
    ck_assert_int_eq(minex_feedback_add(f, load, secs), MINEX_OK);
  return f;
}

#define FEEDBACK_CORRUPTION(steps, field, bad, want)                           \
  do {                                                                         \
    minex_feedback *f = valid_feedback(steps);                                 \
    ck_assert_int_eq(policy_feedback_check(f), MINEX_OK);                      \
    __typeof__(field) saved = field;                                           \
    field = bad;                                                               \
    ck_assert_int_eq(policy_feedback_check(f), MINEX_EINTERNAL);               \
    ck_assert_ptr_nonnull(strstr(minex_last_error(), want));                   \
    field = saved;                                                             \
    ck_assert_int_eq(policy_feedback_check(f), MINEX_OK);                      \
    minex_feedback_destroy(f);                                                 \
  } while (0)

START_TEST(feedback_check_passes_on_valid_feedback) {
  for (int steps = 0; steps < 10; steps++) {
    minex_feedback *f = valid_feedback(steps);
    ck_assert_msg(policy_feedback_check(f) == MINEX_OK, "%d steps: %s", steps,
                  minex_last_error());
    minex_feedback_destroy(f);
  }
}
END_TEST

START_TEST(feedback_check_fails_on_corrupted_feedback) {
  FEEDBACK_CORRUPTION(2, f->count[0], 5, "samples"); /* > window */
  FEEDBACK_CORRUPTION(2, f->count[1], -1, "samples");
  FEEDBACK_CORRUPTION(2, f->next[0], 4, "next slot"); /* == window */
  FEEDBACK_CORRUPTION(2, f->next[0], 3, "next slot"); /* != count */
  FEEDBACK_CORRUPTION(2, f->load[1], NAN, "load");
  FEEDBACK_CORRUPTION(2, f->secs[4], 0.0, "load");      /* proc 1 */
  FEEDBACK_CORRUPTION(6, f->secs[3], INFINITY, "load"); /* ring full */
  FEEDBACK_CORRUPTION(1, f->window, 0, "window");
  FEEDBACK_CORRUPTION(1, f->nprocs, 0, "processors");
  FEEDBACK_CORRUPTION(1, f->est, (minex_feedback_estimator)9, "estimator");
  FEEDBACK_CORRUPTION(1, f->count, NULL, "missing");
}
END_TEST

int main(void) {
  Suite *s = suite_create("feedback_check");
  TCase *tc = tcase_create("feedback_check");
  tcase_add_test(tc, feedback_check_passes_on_valid_feedback);
  tcase_add_test(tc, feedback_check_fails_on_corrupted_feedback);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

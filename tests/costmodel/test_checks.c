/* Tests of the self-checks of src/costmodel (issue 10):
 * costmodel_drum_check (drum_model.c) and costmodel_feedback_check
 * (feedback.c) pass on valid structures and fail on deliberately
 * corrupted ones (the proof that each check can fail). */
#include "costmodel/drum.h"
#include "costmodel/feedback.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static minex_drum_model *valid_model(void) {
  minex_drum_model *m = NULL;
  ck_assert_int_eq(
      minex_drum_model_load(test_data_path("drum_case_thesis.xml"), &m),
      MINEX_OK);
  ck_assert_int_ge(minex_drum_nnodes(m), 3);
  return m;
}

/* Loads a valid model, checks it, corrupts it with `corrupt`, expects the
 * check to fail with a message containing want, restores and rechecks. */
#define DRUM_CORRUPTION(field, bad, want)                                      \
  do {                                                                         \
    minex_drum_model *m = valid_model();                                       \
    ck_assert_int_eq(costmodel_drum_check(m), MINEX_OK);                       \
    minex_drum_node *nd = &m->nodes[m->n - 1];                                 \
    (void)nd;                                                                  \
    __typeof__(field) saved = field;                                           \
    field = bad;                                                               \
    ck_assert_int_eq(costmodel_drum_check(m), MINEX_EINTERNAL);                \
    ck_assert_ptr_nonnull(strstr(minex_last_error(), want));                   \
    field = saved;                                                             \
    ck_assert_int_eq(costmodel_drum_check(m), MINEX_OK);                       \
    minex_drum_model_destroy(m);                                               \
  } while (0)

START_TEST(drum_check_passes_on_valid_models) {
  const char *files[] = {"drum_case_thesis.xml", "drum_case_drumhead.xml",
                         "drum_fig35.xml", "drum_table54.xml",
                         "drum_bullpen.xml"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    minex_drum_model *m = NULL;
    ck_assert_int_eq(minex_drum_model_load(test_data_path(files[i]), &m),
                     MINEX_OK);
    ck_assert_msg(costmodel_drum_check(m) == MINEX_OK, "%s: %s", files[i],
                  minex_last_error());
    ck_assert_int_eq(minex_drum_compute_powers(m, NULL), MINEX_OK);
    ck_assert_int_eq(costmodel_drum_check(m), MINEX_OK);
    minex_drum_model_destroy(m);
  }
  minex_drum_model *e = NULL;
  ck_assert_int_eq(minex_drum_model_create(&e), MINEX_OK);
  ck_assert_int_eq(costmodel_drum_check(e), MINEX_OK);
  minex_drum_model_destroy(e);
}
END_TEST

START_TEST(drum_check_fails_on_corrupted_models) {
  DRUM_CORRUPTION(m->n, m->cap + 1, "allocated");
  DRUM_CORRUPTION(m->nodes[0].parent, 0, "parent");
  DRUM_CORRUPTION(nd->parent, m->n - 1, "parent"); /* its own parent */
  DRUM_CORRUPTION(nd->parent, m->n + 3, "parent"); /* a later node */
  DRUM_CORRUPTION(nd->type, (minex_drum_node_type)7, "type");
  DRUM_CORRUPTION(nd->ncpus, 0, "CPUs");
  DRUM_CORRUPTION(nd->nprocs, -1, "processes");
  DRUM_CORRUPTION(nd->capacity, NAN, "capacity");
  DRUM_CORRUPTION(nd->benchmark, -1.0, "benchmark");
  DRUM_CORRUPTION(nd->name, NULL, "name");
  /* a computing node made a parent */
  minex_drum_model *m = valid_model();
  int32_t leaf = -1;
  for (int32_t i = 0; i < m->n && leaf < 0; i++)
    if (m->nodes[i].type == MINEX_DRUM_COMPUTING)
      leaf = i;
  ck_assert_int_ge(leaf, 0);
  int32_t last = m->n - 1;
  int32_t saved = m->nodes[last].parent;
  if (leaf < last) {
    m->nodes[last].parent = leaf;
    ck_assert_int_eq(costmodel_drum_check(m), MINEX_EINTERNAL);
    ck_assert_ptr_nonnull(strstr(minex_last_error(), "computing node"));
    m->nodes[last].parent = saved;
  }
  minex_drum_model_destroy(m);
}
END_TEST

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
    ck_assert_int_eq(costmodel_feedback_check(f), MINEX_OK);                   \
    __typeof__(field) saved = field;                                           \
    field = bad;                                                               \
    ck_assert_int_eq(costmodel_feedback_check(f), MINEX_EINTERNAL);            \
    ck_assert_ptr_nonnull(strstr(minex_last_error(), want));                   \
    field = saved;                                                             \
    ck_assert_int_eq(costmodel_feedback_check(f), MINEX_OK);                   \
    minex_feedback_destroy(f);                                                 \
  } while (0)

START_TEST(feedback_check_passes_on_valid_feedback) {
  for (int steps = 0; steps < 10; steps++) {
    minex_feedback *f = valid_feedback(steps);
    ck_assert_msg(costmodel_feedback_check(f) == MINEX_OK, "%d steps: %s",
                  steps, minex_last_error());
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
  Suite *s = suite_create("checks");
  TCase *tc = tcase_create("checks");
  tcase_add_test(tc, drum_check_passes_on_valid_models);
  tcase_add_test(tc, drum_check_fails_on_corrupted_models);
  tcase_add_test(tc, feedback_check_passes_on_valid_feedback);
  tcase_add_test(tc, feedback_check_fails_on_corrupted_feedback);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of drum_model_check (src/drum/drum_model.c): it passes on valid
 * DRUM machine models and fails on deliberately corrupted ones (the proof
 * that the check can fail). */
#include "drum/drum.h"
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
    ck_assert_int_eq(drum_model_check(m), MINEX_OK);                           \
    minex_drum_node *nd = &m->nodes[m->n - 1];                                 \
    (void)nd;                                                                  \
    __typeof__(field) saved = field;                                           \
    field = bad;                                                               \
    ck_assert_int_eq(drum_model_check(m), MINEX_EINTERNAL);                    \
    ck_assert_ptr_nonnull(strstr(minex_last_error(), want));                   \
    field = saved;                                                             \
    ck_assert_int_eq(drum_model_check(m), MINEX_OK);                           \
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
    ck_assert_msg(drum_model_check(m) == MINEX_OK, "%s: %s", files[i],
                  minex_last_error());
    ck_assert_int_eq(minex_drum_compute_powers(m, NULL), MINEX_OK);
    ck_assert_int_eq(drum_model_check(m), MINEX_OK);
    minex_drum_model_destroy(m);
  }
  minex_drum_model *e = NULL;
  ck_assert_int_eq(minex_drum_model_create(&e), MINEX_OK);
  ck_assert_int_eq(drum_model_check(e), MINEX_OK);
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
    ck_assert_int_eq(drum_model_check(m), MINEX_EINTERNAL);
    ck_assert_ptr_nonnull(strstr(minex_last_error(), "computing node"));
    m->nodes[last].parent = saved;
  }
  minex_drum_model_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("drum_check");
  TCase *tc = tcase_create("drum_check");
  tcase_add_test(tc, drum_check_passes_on_valid_models);
  tcase_add_test(tc, drum_check_fails_on_corrupted_models);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/rcb.c: parts have equal element counts within one for
 * any nparts, the cuts separate space along the longest extent, the result
 * is deterministic, and a real mesh is cut like data/cases' old.part. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void assert_counts_within_one(const int32_t *part, int32_t n,
                                     int32_t nparts) {
  int32_t *cnt = calloc((size_t)nparts, sizeof *cnt);
  for (int32_t e = 0; e < n; e++) {
    /* plain if: ck_assert talks through a pipe on every call */
    if (part[e] < 0 || part[e] >= nparts)
      ck_abort_msg("element %d: part %d", (int)e, (int)part[e]);
    cnt[part[e]]++;
  }
  int32_t lo = n / nparts;
  for (int32_t p = 0; p < nparts; p++)
    ck_assert_msg(cnt[p] == lo || cnt[p] == lo + 1,
                  "nparts %d: part %d has %d elements, %d expected",
                  (int)nparts, (int)p, (int)cnt[p], (int)lo);
  free(cnt);
}

START_TEST(rcb_parts_have_equal_counts_within_one) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(6, 5, 4, &m), MINEX_OK);
  int32_t n = minex_mesh_nelems(m);
  int32_t *part = malloc(sizeof *part * (size_t)n);
  const int32_t ks[] = {1, 2, 3, 5, 7, 16, 31, 64, 100, 720};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    ck_assert_int_eq(minex_mesh_partition_rcb(m, ks[i], part), MINEX_OK);
    assert_counts_within_one(part, n, ks[i]);
  }
  /* more parts than elements: some parts are empty, none holds two */
  ck_assert_int_eq(minex_mesh_partition_rcb(m, n + 5, part), MINEX_OK);
  assert_counts_within_one(part, n, n + 5);
  free(part);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(rcb_first_cut_is_a_plane_across_the_longest_extent) {
  minex_mesh *box = NULL;
  ck_assert_int_eq(minex_gen_box(4, 4, 4, &box), MINEX_OK);
  int32_t nn = minex_mesh_nnodes(box), ne = minex_mesh_nelems(box);
  double *xyz = malloc(sizeof *xyz * 3 * (size_t)nn);
  memcpy(xyz, minex_mesh_coords(box), sizeof *xyz * 3 * (size_t)nn);
  for (int32_t v = 0; v < nn; v++)
    xyz[3 * v + 1] *= 10; /* y is now the longest extent */
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(nn, xyz, ne, MINEX_ELEM_TETRA,
                                     minex_mesh_elems(box), &m),
                   MINEX_OK);
  int32_t *part = malloc(sizeof *part * (size_t)ne);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 2, part), MINEX_OK);
  double max0 = -1e300, min1 = 1e300;
  for (int32_t e = 0; e < ne; e++) {
    double c[3];
    minex_mesh_centroid(m, e, c);
    if (part[e] == 0 && c[1] > max0)
      max0 = c[1];
    if (part[e] == 1 && c[1] < min1)
      min1 = c[1];
  }
  ck_assert(max0 <= min1);
  free(part);
  free(xyz);
  minex_mesh_destroy(m);
  minex_mesh_destroy(box);
}
END_TEST

START_TEST(rcb_is_deterministic) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(5, 5, 5, &m), MINEX_OK);
  int32_t n = minex_mesh_nelems(m);
  int32_t *a = malloc(sizeof *a * (size_t)n),
          *b = malloc(sizeof *b * (size_t)n);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 13, a), MINEX_OK);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 13, b), MINEX_OK);
  ck_assert_int_eq(memcmp(a, b, sizeof *a * (size_t)n), 0);
  free(a);
  free(b);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(rcb_rejects_bad_arguments) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(1, 1, 1, &m), MINEX_OK);
  int32_t part[6];
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 0, part), MINEX_EINVAL);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 2, NULL), MINEX_EINVAL);
  ck_assert_int_eq(minex_mesh_partition_rcb(NULL, 2, part), MINEX_EINVAL);
  minex_mesh_destroy(m);
}
END_TEST

/* old.part of the case was made by RCB into 16 parts before refinement:
 * ours reproduces it when the conventions agree (reported either way). */
START_TEST(rcb_of_cube_big_tetra_compared_with_case_old_part) {
  const char *p = test_repo_data("meshes/cube_big_tetra.mesh");
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(p, &m), MINEX_OK);
  int32_t n = minex_mesh_nelems(m);
  int32_t *part = malloc(sizeof *part * (size_t)n);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 16, part), MINEX_OK);
  assert_counts_within_one(part, n, 16);
  const char *op = test_repo_data("cases/cube_ball_p16/old.part");
  FILE *fp = fopen(op, "r");
  ck_assert_ptr_nonnull(fp);
  int32_t same = 0;
  for (int32_t e = 0; e < n; e++) {
    int v;
    if (fscanf(fp, "%d", &v) != 1)
      ck_abort_msg("old.part: element %d unreadable", (int)e);
    same += v == part[e];
  }
  fclose(fp);
  fprintf(stderr,
          "rcb: %d of %d elements have the owner of the case's "
          "old.part\n",
          (int)same, (int)n);
  ck_assert_int_eq(same, n);
  free(part);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_rcb");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, rcb_parts_have_equal_counts_within_one);
  tcase_add_test(tc, rcb_first_cut_is_a_plane_across_the_longest_extent);
  tcase_add_test(tc, rcb_is_deterministic);
  tcase_add_test(tc, rcb_rejects_bad_arguments);
  suite_add_tcase(s, tc);
  TCase *big = tcase_create("large");
  tcase_set_tags(big, "slow"); /* skipped by the valgrind stage */
  tcase_add_test(big, rcb_of_cube_big_tetra_compared_with_case_old_part);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}

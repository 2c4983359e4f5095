/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/mesh.c: creation validates node ids, coordinates and
 * the element type; accessors, centroids, and format detection by content
 * in minex_mesh_read. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double cube_xyz[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
static const int32_t one_tet[] = {0, 1, 2, 3};

START_TEST(mesh_create_copies_arrays_and_accessors_return_them) {
  double xyz[12];
  int32_t el[4];
  memcpy(xyz, cube_xyz, sizeof xyz);
  memcpy(el, one_tet, sizeof el);
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(4, xyz, 1, MINEX_ELEM_TETRA, el, &m),
                   MINEX_OK);
  xyz[0] = 99;
  el[0] = 3;
  ck_assert_int_eq(minex_mesh_nnodes(m), 4);
  ck_assert_int_eq(minex_mesh_nelems(m), 1);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TETRA);
  ck_assert(minex_mesh_coords(m)[0] == 0.0);
  ck_assert_int_eq(minex_mesh_elems(m)[0], 0);
  minex_mesh_destroy(m);
  minex_mesh_destroy(NULL);
}
END_TEST

START_TEST(mesh_create_rejects_bad_ids_repeats_nonfinite_and_type) {
  minex_mesh *m = NULL;
  int32_t out_of_range[] = {0, 1, 2, 4};
  ck_assert_int_eq(
      minex_mesh_create(4, cube_xyz, 1, MINEX_ELEM_TETRA, out_of_range, &m),
      MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "node 4 outside"));
  int32_t repeated[] = {0, 1, 1, 3};
  ck_assert_int_eq(
      minex_mesh_create(4, cube_xyz, 1, MINEX_ELEM_TETRA, repeated, &m),
      MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "repeats node 1"));
  double nan_xyz[12];
  memcpy(nan_xyz, cube_xyz, sizeof nan_xyz);
  nan_xyz[7] = NAN;
  ck_assert_int_eq(
      minex_mesh_create(4, nan_xyz, 1, MINEX_ELEM_TETRA, one_tet, &m),
      MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "node 2"));
  ck_assert_int_eq(
      minex_mesh_create(4, cube_xyz, 1, (minex_elem_type)5, one_tet, &m),
      MINEX_EINVAL);
  ck_assert_int_eq(
      minex_mesh_create(-1, cube_xyz, 1, MINEX_ELEM_TETRA, one_tet, &m),
      MINEX_EINVAL);
  ck_assert_int_eq(minex_mesh_create(4, NULL, 1, MINEX_ELEM_TETRA, one_tet, &m),
                   MINEX_EINVAL);
  ck_assert_ptr_null(m);
  ck_assert_int_eq(minex_mesh_create(0, NULL, 0, MINEX_ELEM_TRIANGLE, NULL, &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 0);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(mesh_centroid_is_the_mean_of_the_element_nodes) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(
      minex_mesh_create(4, cube_xyz, 1, MINEX_ELEM_TETRA, one_tet, &m),
      MINEX_OK);
  double c[3];
  minex_mesh_centroid(m, 0, c);
  for (int d = 0; d < 3; d++)
    ck_assert(test_close(c[d], 0.25, 1e-15));
  minex_mesh_destroy(m);
  int32_t tri[] = {1, 2, 3};
  ck_assert_int_eq(
      minex_mesh_create(4, cube_xyz, 1, MINEX_ELEM_TRIANGLE, tri, &m),
      MINEX_OK);
  minex_mesh_centroid(m, 0, c);
  for (int d = 0; d < 3; d++)
    ck_assert(test_close(c[d], 1.0 / 3, 1e-15));
  minex_mesh_centroid(m, 7, c); /* out of range: origin, no read */
  ck_assert(c[0] == 0 && c[1] == 0 && c[2] == 0);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(mesh_read_picks_the_reader_by_first_keyword) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_two_tets.mesh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 2);
  minex_mesh_destroy(m);
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_cube_v2.msh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 6);
  minex_mesh_destroy(m);
  /* a METIS graph is neither format */
  char path[] = "/tmp/minex_mesh_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, "2 1\n2\n1\n", 8), 8);
  close(fd);
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EUNSUP);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "unrecognised"));
  remove(path);
  ck_assert_int_eq(minex_mesh_read(test_data_path("no_such_file.mesh"), &m),
                   MINEX_EIO);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "no_such_file.mesh"));
  ck_assert_ptr_null(m);
}
END_TEST

START_TEST(mesh_read_rejects_empty_and_binary_files) {
  char path[] = "/tmp/minex_mesh_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EPARSE);
  FILE *fp = fopen(path, "wb");
  const unsigned char meshb[] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  fwrite(meshb, 1, sizeof meshb, fp);
  fclose(fp);
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EUNSUP);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "binary"));
  ck_assert_ptr_null(m);
  remove(path);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, mesh_create_copies_arrays_and_accessors_return_them);
  tcase_add_test(tc, mesh_create_rejects_bad_ids_repeats_nonfinite_and_type);
  tcase_add_test(tc, mesh_centroid_is_the_mean_of_the_element_nodes);
  tcase_add_test(tc, mesh_read_picks_the_reader_by_first_keyword);
  tcase_add_test(tc, mesh_read_rejects_empty_and_binary_files);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

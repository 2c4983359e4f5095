/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/mesh.c: creation validates node ids, coordinates and
 * the element type; accessors, centroids, and format detection by content
 * in minex_mesh_read; mixed meshes made through the API. */
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
  /* the start of a .meshb (version 2, keyword Dimension) cut short */
  FILE *fp = fopen(path, "wb");
  const unsigned char meshb[] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  fwrite(meshb, 1, sizeof meshb, fp);
  fclose(fp);
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EPARSE);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "offset 8: a keyword"));
  ck_assert_ptr_null(m);
  /* binary bytes of no known format */
  fp = fopen(path, "wb");
  const unsigned char junk[] = {7, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  fwrite(junk, 1, sizeof junk, fp);
  fclose(fp);
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EUNSUP);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "binary"));
  ck_assert_ptr_null(m);
  remove(path);
}
END_TEST

/* A hexahedron beside a prism sharing the quadrilateral x = 1 and a
 * pyramid on the hexahedron's face y = 0: kinds and nodes come back per
 * element, the type is MIXED, the dual joins the hexahedron to both; two
 * dimensions in one mesh, unknown kinds and negative ncommon are refused. */
START_TEST(mixed_mesh_create_accessors_dual_and_errors) {
  /* unit cube corners 0-7, prism apex edge at x = 2 (8, 9), pyramid apex
     at y = -1 (10) */
  const double xyz[] = {0, 0, 0, 1,   0, 0, 1,   1, 0,   0,  1,
                        0, 0, 0, 1,   1, 0, 1,   1, 1,   1,  0,
                        1, 1, 2, 0.5, 0, 2, 0.5, 1, 0.5, -1, 0.5};
  const minex_elem_type types[] = {MINEX_ELEM_HEXA, MINEX_ELEM_PRISM,
                                   MINEX_ELEM_PYRAMID};
  const int32_t el[] = {0, 1, 2, 3, 4, 5, 6, 7, /* hexahedron */
                        1, 8, 2, 5, 9, 6,       /* prism on x = 1 */
                        0, 1, 5, 4, 10};        /* pyramid on y = 0 */
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create_mixed(11, xyz, 3, types, el, &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_MIXED);
  int k;
  const int32_t *en = minex_mesh_elem_nodes(m, 1, &k);
  ck_assert_int_eq(k, 6);
  ck_assert_mem_eq(en, el + 8, sizeof *en * 6);
  ck_assert_int_eq(minex_mesh_elem_kind(m, 2), MINEX_ELEM_PYRAMID);
  ck_assert_int_eq(minex_mesh_elem_kind(m, 3), MINEX_ELEM_MIXED);
  ck_assert_ptr_null(minex_mesh_elem_nodes(m, -1, &k));
  ck_assert_int_eq(k, 0);
  ck_assert_int_eq(minex_mesh_ignored(m), 0);
  ck_assert_ptr_null(minex_mesh_file_partition(m));
  double c[3];
  minex_mesh_centroid(m, 2, c);
  ck_assert(fabs(c[1] - (-1.0 / 5)) < 1e-15);
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
  ck_assert_int_eq(minex_graph_nedges(g), 2); /* hex-prism, hex-pyramid */
  minex_graph_destroy(g);
  /* the prism and the pyramid share nodes 1 and 5 only: ncommon 2 joins
     them too */
  ck_assert_int_eq(minex_mesh_dual_ncommon(m, 2, NULL, NULL, NULL, NULL, &g),
                   MINEX_OK);
  ck_assert_int_eq(minex_graph_nedges(g), 3);
  minex_graph_destroy(g);
  g = (minex_graph *)1;
  ck_assert_int_eq(minex_mesh_dual_ncommon(m, -1, NULL, NULL, NULL, NULL, &g),
                   MINEX_EINVAL);
  ck_assert_ptr_null(g);
  int32_t part[3];
  const double zero[2] = {0, 0};
  ck_assert_int_eq(
      minex_mesh_partition_geom(m, 2, MINEX_GEOM_RCB, NULL, zero, part),
      MINEX_EINVAL);
  ck_assert_int_eq(
      minex_mesh_partition_geom(m, 2, (minex_geom_method)7, NULL, NULL, part),
      MINEX_EINVAL);
  minex_mesh_destroy(m);
  /* a triangle beside a tetrahedron: two dimensions */
  const minex_elem_type two_dims[] = {MINEX_ELEM_TETRA, MINEX_ELEM_TRIANGLE};
  const int32_t el2[] = {0, 1, 2, 3, 0, 1, 2};
  m = (minex_mesh *)1;
  ck_assert_int_eq(minex_mesh_create_mixed(4, cube_xyz, 2, two_dims, el2, &m),
                   MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "one dimension"));
  ck_assert_ptr_null(m);
  const minex_elem_type bad[] = {MINEX_ELEM_TETRA, MINEX_ELEM_MIXED};
  ck_assert_int_eq(minex_mesh_create_mixed(4, cube_xyz, 2, bad, el2, &m),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_elem_nnodes(MINEX_ELEM_MIXED), 0);
  ck_assert_str_eq(minex_elem_name(MINEX_ELEM_PRISM), "prism");
  ck_assert_int_eq(minex_elem_dim(MINEX_ELEM_QUAD), 2);
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
  tcase_add_test(tc, mixed_mesh_create_accessors_dual_and_errors);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/gen_box.c: the Kuhn box has 6*nx*ny*nz positively
 * oriented tetrahedra filling the unit cube, and is conforming: its dual
 * has exactly the 4(nx ny + ny nz + nx nz) boundary faces of the cube's
 * surface and every tetrahedron away from the surface has 4 neighbours. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double tet_volume(const double *xyz, const int32_t *t) {
  double a[3], b[3], c[3];
  for (int d = 0; d < 3; d++) {
    a[d] = xyz[3 * t[1] + d] - xyz[3 * t[0] + d];
    b[d] = xyz[3 * t[2] + d] - xyz[3 * t[0] + d];
    c[d] = xyz[3 * t[3] + d] - xyz[3 * t[0] + d];
  }
  return (a[0] * (b[1] * c[2] - b[2] * c[1]) -
          a[1] * (b[0] * c[2] - b[2] * c[0]) +
          a[2] * (b[0] * c[1] - b[1] * c[0])) /
         6.0;
}

START_TEST(gen_box_has_6nxnynz_elements_on_the_grid_nodes) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(3, 4, 5, &m), MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 6 * 3 * 4 * 5);
  ck_assert_int_eq(minex_mesh_nnodes(m), 4 * 5 * 6);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TETRA);
  const double *xyz = minex_mesh_coords(m);
  /* node i + 4 (j + 5 k) sits at (i/3, j/4, k/5) */
  ck_assert(test_close(xyz[3 * (2 + 4 * (3 + 5 * 4)) + 0], 2.0 / 3, 1e-15));
  ck_assert(test_close(xyz[3 * (2 + 4 * (3 + 5 * 4)) + 1], 3.0 / 4, 1e-15));
  ck_assert(test_close(xyz[3 * (2 + 4 * (3 + 5 * 4)) + 2], 4.0 / 5, 1e-15));
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(gen_box_elements_have_positive_volume_and_fill_the_cube) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(4, 3, 2, &m), MINEX_OK);
  double total = 0, expect = 1.0 / (6.0 * 4 * 3 * 2);
  for (int32_t e = 0; e < minex_mesh_nelems(m); e++) {
    double v = tet_volume(minex_mesh_coords(m), minex_mesh_elems(m) + 4 * e);
    ck_assert_msg(v > 0, "element %d has volume %g", (int)e, v);
    ck_assert(test_close(v, expect, 1e-12));
    total += v;
  }
  ck_assert(test_close(total, 1.0, 1e-12));
  minex_mesh_destroy(m);
}
END_TEST

/* Faces of element e lying on the cube's surface (all 3 nodes on one of
 * the 6 planes x, y or z = 0 or 1). */
static int surface_faces(const minex_mesh *m, int32_t e) {
  const double *xyz = minex_mesh_coords(m);
  const int32_t *t = minex_mesh_elems(m) + 4 * e;
  int n = 0;
  for (int f = 0; f < 4; f++)
    for (int d = 0; d < 3; d++)
      for (int side = 0; side < 2; side++) {
        int on = 1;
        for (int i = 0; i < 4; i++)
          if (i != f)
            on &= xyz[3 * t[i] + d] == (double)side;
        n += on;
      }
  return n;
}

START_TEST(gen_box_dual_has_the_surface_boundary_faces_and_interior_degree_4) {
  const int32_t sizes[][3] = {{1, 1, 1}, {2, 3, 4}, {5, 5, 5}, {7, 1, 3}};
  for (int s = 0; s < 4; s++) {
    int32_t nx = sizes[s][0], ny = sizes[s][1], nz = sizes[s][2];
    minex_mesh *m = NULL;
    ck_assert_int_eq(minex_gen_box(nx, ny, nz, &m), MINEX_OK);
    minex_graph *g = NULL;
    ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
    int64_t ne = 6 * (int64_t)nx * ny * nz;
    /* each cube face on the surface is cut into 2 triangles */
    int64_t boundary = 2 * (2 * nx * ny + 2 * ny * nz + 2 * nx * nz);
    ck_assert_int_eq(2 * minex_graph_nedges(g), 4 * ne - boundary);
    const int64_t *x = minex_graph_xadj(g);
    int64_t surf = 0;
    for (int32_t e = 0; e < ne; e++) {
      int sf = surface_faces(m, e);
      surf += sf;
      ck_assert_int_eq(x[e + 1] - x[e], 4 - sf);
    }
    ck_assert_int_eq(surf, boundary);
    minex_graph_destroy(g);
    minex_mesh_destroy(m);
  }
}
END_TEST

START_TEST(gen_box_rejects_empty_and_oversized_boxes) {
  minex_mesh *m = (minex_mesh *)1;
  ck_assert_int_eq(minex_gen_box(0, 1, 1, &m), MINEX_EINVAL);
  ck_assert_ptr_null(m);
  ck_assert_int_eq(minex_gen_box(1000, 1000, 1000, &m), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "2^31"));
  ck_assert_int_eq(minex_gen_box(1, 1, 1, NULL), MINEX_EINVAL);
}
END_TEST

START_TEST(gen_box_makes_1e7_elements) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(119, 119, 119, &m), MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 6 * 119 * 119 * 119);
  ck_assert_int_eq(minex_mesh_nnodes(m), 120 * 120 * 120);
  const int32_t *last = minex_mesh_elems(m) + 4 * (6 * 119 * 119 * 119 - 1);
  ck_assert_int_eq(last[3], 120 * 120 * 120 - 1);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_gen_box");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, gen_box_has_6nxnynz_elements_on_the_grid_nodes);
  tcase_add_test(tc, gen_box_elements_have_positive_volume_and_fill_the_cube);
  tcase_add_test(
      tc, gen_box_dual_has_the_surface_boundary_faces_and_interior_degree_4);
  tcase_add_test(tc, gen_box_rejects_empty_and_oversized_boxes);
  suite_add_tcase(s, tc);
  TCase *big = tcase_create("large");
  tcase_set_tags(big, "slow"); /* skipped by the valgrind stage */
  tcase_add_test(big, gen_box_makes_1e7_elements);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}

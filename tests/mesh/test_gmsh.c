/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/gmsh.c: ASCII v2, v4.0 and v4.1 files of the same
 * Kuhn-cut cube give the same mesh; sparse node tags map to file-order
 * indices; malformed files are rejected with "path:line:". */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

/* Every element of m has the node coordinates of the same element of ref,
 * node by node (the files list gen_box(1,1,1)'s tetrahedra in its order,
 * with shuffled, sparse node tags). */
static void assert_same_geometry(const minex_mesh *m, const minex_mesh *ref) {
  ck_assert_int_eq(minex_mesh_nelems(m), minex_mesh_nelems(ref));
  ck_assert_int_eq(minex_mesh_nnodes(m), minex_mesh_nnodes(ref));
  ck_assert_int_eq(minex_mesh_elem_type(m), minex_mesh_elem_type(ref));
  int k = (int)minex_mesh_elem_type(m);
  for (int32_t i = 0; i < minex_mesh_nelems(m) * k; i++)
    for (int d = 0; d < 3; d++)
      ck_assert(minex_mesh_coords(m)[3 * minex_mesh_elems(m)[i] + d] ==
                minex_mesh_coords(ref)[3 * minex_mesh_elems(ref)[i] + d]);
}

START_TEST(gmsh_v2_v40_v41_give_the_kuhn_cube_of_gen_box) {
  minex_mesh *ref = NULL;
  ck_assert_int_eq(minex_gen_box(1, 1, 1, &ref), MINEX_OK);
  const char *files[] = {"mesh_cube_v2.msh", "mesh_cube_v40.msh",
                         "mesh_cube_v41.msh"};
  for (int f = 0; f < 3; f++) {
    minex_mesh *m = NULL;
    int rc = minex_mesh_read(test_data_path(files[f]), &m);
    ck_assert_msg(rc == MINEX_OK, "%s: %s", files[f], minex_last_error());
    /* tetrahedra win over the triangle, line and point elements */
    assert_same_geometry(m, ref);
    minex_mesh_destroy(m);
  }
  minex_mesh_destroy(ref);
}
END_TEST

START_TEST(gmsh_sparse_node_tags_map_to_file_order_indices) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_cube_v2.msh"), &m),
                   MINEX_OK);
  /* first node of the file is tag 67 = corner (1,0,1), listed first */
  const double *xyz = minex_mesh_coords(m);
  ck_assert(xyz[0] == 1 && xyz[1] == 0 && xyz[2] == 1);
  /* first tetrahedron: tags 10 27 47 87 -> file positions 1 6 2 ... */
  ck_assert_int_eq(minex_mesh_elems(m)[0], 1);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(gmsh_triangle_only_file_gives_a_triangle_mesh) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_square_v2.msh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TRIANGLE);
  ck_assert_int_eq(minex_mesh_nelems(m), 4);
  ck_assert_int_eq(minex_mesh_elems(m)[0], 0);
  ck_assert_int_eq(minex_mesh_elems(m)[2], 4);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(gmsh_element_count_disagreeing_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_count.msh", MINEX_EPARSE,
      "mesh_bad_count.msh:16: '$EndElements' where an element was "
      "expected");
}
END_TEST

START_TEST(gmsh_node_tag_out_of_range_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_id.msh", MINEX_EPARSE,
      "mesh_bad_id.msh:15: element 2: node tag 9 is not in $Nodes");
}
END_TEST

START_TEST(gmsh_negative_node_tag_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_negative_tag.msh", MINEX_EPARSE,
      "mesh_bad_negative_tag.msh:11: node tag -10: tags must be >= 1");
}
END_TEST

/* 6 tetrahedra and a hexahedron: a mixed mesh of 7 elements in file
 * order (the point, line and triangle ignored and counted); selecting the
 * tetrahedra drops the hexahedron knowingly (counted too). */
START_TEST(gmsh_mixed_volume_kinds_are_kept_in_file_order) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_mixed_hex.msh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 7);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_MIXED);
  for (int32_t e = 0; e < 6; e++)
    ck_assert_int_eq(minex_mesh_elem_kind(m, e), MINEX_ELEM_TETRA);
  ck_assert_int_eq(minex_mesh_elem_kind(m, 6), MINEX_ELEM_HEXA);
  ck_assert_int_eq(minex_mesh_ignored(m), 3);
  int k = 0;
  const int32_t *en = minex_mesh_elem_nodes(m, 6, &k);
  ck_assert_int_eq(k, 8);
  ck_assert_ptr_nonnull(en);
  minex_mesh_destroy(m);
  ck_assert_int_eq(minex_mesh_read_kind(test_data_path("mesh_mixed_hex.msh"),
                                        MINEX_ELEM_TETRA, &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 6);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TETRA);
  ck_assert_int_eq(minex_mesh_ignored(m), 4);
  minex_mesh_destroy(m);
  ck_assert_int_eq(minex_mesh_read_kind(test_data_path("mesh_mixed_hex.msh"),
                                        MINEX_ELEM_TRIANGLE, &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 1);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TRIANGLE);
  minex_mesh_destroy(m);
  m = (minex_mesh *)1;
  ck_assert_int_eq(
      minex_mesh_read_kind(test_data_path("mesh_mixed_hex.msh"), 7, &m),
      MINEX_EINVAL);
  ck_assert_ptr_null(m);
}
END_TEST

/* Gmsh types beyond the first 31 (a third-order hexahedron, type 92; a
 * 40-node prism, type 90; a 16-node quadrilateral, type 36) are kept by
 * their corners. A type that is no Gmsh type (999) is refused naming it
 * and its line, even with a kind selected. */
START_TEST(gmsh_high_order_types_keep_their_corners_unknown_types_fail) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(
      minex_mesh_read(test_data_path("mesh_mixed_highorder_hex.msh"), &m),
      MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 8);
  ck_assert_int_eq(minex_mesh_elem_kind(m, 6), MINEX_ELEM_HEXA);
  ck_assert_int_eq(minex_mesh_elem_kind(m, 7), MINEX_ELEM_PRISM);
  minex_mesh_destroy(m);
  ck_assert_int_eq(
      minex_mesh_read(test_data_path("mesh_mixed_highorder_quad.msh"), &m),
      MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 5);
  ck_assert_int_eq(minex_mesh_elem_kind(m, 4), MINEX_ELEM_QUAD);
  minex_mesh_destroy(m);
  test_expect_mesh_read_fails("mesh_unknown_type.msh", MINEX_EUNSUP,
                              "mesh_unknown_type.msh:30: element type 999");
  m = (minex_mesh *)1;
  ck_assert_int_eq(minex_mesh_read_kind(test_data_path("mesh_unknown_type.msh"),
                                        MINEX_ELEM_TETRA, &m),
                   MINEX_EUNSUP);
  ck_assert_ptr_null(m);
}
END_TEST

START_TEST(gmsh_truncated_section_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_truncated.msh", MINEX_EPARSE,
      "mesh_bad_truncated.msh:14: end of file inside $Elements");
}
END_TEST

START_TEST(gmsh_bad_number_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_number.msh", MINEX_EPARSE,
      "mesh_bad_number.msh:8: node 3: bad or missing coordinate");
}
END_TEST

/* A file that ends after $EndNodes is a file cut before $Elements. */
START_TEST(gmsh_binary_file_without_elements_is_eparse) {
  test_expect_mesh_read_fails("mesh_bad_binary.msh", MINEX_EPARSE,
                              "mesh_bad_binary.msh: offset 88: no elements: "
                              "end of file without an $Elements section");
}
END_TEST

START_TEST(gmsh_v41_node_block_beyond_the_count_is_eparse) {
  test_expect_mesh_read_fails(
      "mesh_bad_block.msh", MINEX_EPARSE,
      "mesh_bad_block.msh:6: node block of 6 nodes exceeds the 5");
}
END_TEST

START_TEST(gmsh_huge_count_in_header_is_eparse_not_enomem) {
  test_expect_mesh_read_fails(
      "mesh_bad_hugecount.msh", MINEX_EPARSE,
      "mesh_bad_hugecount.msh:10: '$EndNodes' where a node was "
      "expected");
}
END_TEST

START_TEST(gmsh_version_3_is_eunsup) {
  test_expect_mesh_read_fails("mesh_bad_version.msh", MINEX_EUNSUP,
                              "mesh_bad_version.msh:2: Gmsh format version 3");
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_gmsh");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, gmsh_v2_v40_v41_give_the_kuhn_cube_of_gen_box);
  tcase_add_test(tc, gmsh_sparse_node_tags_map_to_file_order_indices);
  tcase_add_test(tc, gmsh_triangle_only_file_gives_a_triangle_mesh);
  tcase_add_test(tc, gmsh_element_count_disagreeing_is_eparse_naming_the_line);
  tcase_add_test(tc, gmsh_node_tag_out_of_range_is_eparse_naming_the_line);
  tcase_add_test(tc, gmsh_truncated_section_is_eparse_naming_the_line);
  tcase_add_test(tc, gmsh_bad_number_is_eparse_naming_the_line);
  tcase_add_test(tc, gmsh_binary_file_without_elements_is_eparse);
  tcase_add_test(tc, gmsh_v41_node_block_beyond_the_count_is_eparse);
  tcase_add_test(tc, gmsh_version_3_is_eunsup);
  tcase_add_test(tc, gmsh_huge_count_in_header_is_eparse_not_enomem);
  tcase_add_test(tc, gmsh_negative_node_tag_is_eparse_naming_the_line);
  tcase_add_test(tc, gmsh_mixed_volume_kinds_are_kept_in_file_order);
  tcase_add_test(tc,
                 gmsh_high_order_types_keep_their_corners_unknown_types_fail);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

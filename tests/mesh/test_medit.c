/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/medit.c: the MEDIT reader keeps tetrahedra (else
 * triangles), skips other sections, and rejects malformed files with
 * MINEX_EPARSE and "path:line:" in the message. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

START_TEST(medit_reads_tetrahedra_and_skips_other_sections) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_two_tets.mesh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_nnodes(m), 5);
  ck_assert_int_eq(minex_mesh_nelems(m), 2);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TETRA);
  const int32_t want[] = {0, 1, 2, 3, 1, 2, 3, 4};
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(minex_mesh_elems(m)[i], want[i]);
  const double *xyz = minex_mesh_coords(m);
  ck_assert(xyz[3 * 4] == 1 && xyz[3 * 4 + 1] == 1 && xyz[3 * 4 + 2] == 1);
  ck_assert(xyz[3 * 3 + 2] == 1);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(medit_reads_2d_triangles_with_zero_z) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_square2d.mesh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TRIANGLE);
  ck_assert_int_eq(minex_mesh_nnodes(m), 5);
  ck_assert_int_eq(minex_mesh_nelems(m), 4);
  const double *xyz = minex_mesh_coords(m);
  ck_assert(xyz[3 * 4] == 0.5 && xyz[3 * 4 + 1] == 0.5);
  for (int v = 0; v < 5; v++)
    ck_assert(xyz[3 * v + 2] == 0.0);
  ck_assert_int_eq(minex_mesh_elems(m)[3 * 3], 3);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(medit_truncated_section_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_truncated.mesh", MINEX_EPARSE,
      "mesh_bad_truncated.mesh:13: section Tetrahedra truncated");
}
END_TEST

/* Cut between two sections, a file lacks its End (and the sections after
 * the cut): refused, not read as the sections before the cut. */
START_TEST(medit_file_without_end_is_eparse_naming_the_last_section) {
  test_expect_mesh_read_fails("mesh_bad_no_end.mesh", MINEX_EPARSE,
                              "mesh_bad_no_end.mesh:13: end of file after "
                              "section Tetrahedra without the End keyword");
}
END_TEST

START_TEST(medit_count_disagreeing_with_data_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_count.mesh", MINEX_EPARSE,
      "mesh_bad_count.mesh:14: section Tetrahedra ends at keyword "
      "'End' after 2 of 3");
}
END_TEST

START_TEST(medit_node_id_out_of_range_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_id.mesh", MINEX_EPARSE,
      "mesh_bad_id.mesh:13: Tetrahedra 2: node id 9 outside [1, 5]");
}
END_TEST

/* The keyword of the message used to point into the line buffer that
 * reading the next (long) line had reallocated: a heap use-after-free. */
START_TEST(medit_long_bad_version_line_is_eparse_without_use_after_free) {
  test_expect_mesh_read_fails("mesh_bad_version_long.mesh", MINEX_EPARSE,
                              "mesh_bad_version_long.mesh:2: "
                              "MeshVersionFormatted needs an integer");
}
END_TEST

/* The hand-made hexahedron of mesh_mixed_hex.mesh repeats a node: a
 * degenerate element is refused naming its section and line, whatever
 * kind is selected (the record is read either way). */
START_TEST(medit_degenerate_hexahedron_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails("mesh_mixed_hex.mesh", MINEX_EPARSE,
                              "mesh_mixed_hex.mesh:29: Hexahedra 1 repeats "
                              "node 1");
  minex_mesh *m = (minex_mesh *)1;
  ck_assert_int_eq(minex_mesh_read_kind(test_data_path("mesh_mixed_hex.mesh"),
                                        MINEX_ELEM_TETRA, &m),
                   MINEX_EPARSE);
  ck_assert_ptr_null(m);
}
END_TEST

START_TEST(medit_bad_number_is_eparse_naming_the_line) {
  test_expect_mesh_read_fails(
      "mesh_bad_number.mesh", MINEX_EPARSE,
      "mesh_bad_number.mesh:7: section Vertices, record 3: bad "
      "number '1.5e'");
}
END_TEST

START_TEST(medit_huge_count_in_header_is_eparse_not_enomem) {
  test_expect_mesh_read_fails(
      "mesh_bad_hugecount.mesh", MINEX_EPARSE,
      "mesh_bad_hugecount.mesh:10: section Vertices ends at keyword "
      "'Tetrahedra' after 5 of 2000000000");
}
END_TEST

START_TEST(medit_reads_perfusion_micro3d) {
  const char *p = test_repo_data("meshes/perfusion_micro3d.mesh");
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(p, &m), MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 18161);
  ck_assert_int_eq(minex_mesh_nnodes(m), 3728);
  ck_assert_int_eq(minex_mesh_elem_type(m), MINEX_ELEM_TETRA);
  /* first tetrahedron of the file: 1046 1126 1045 1093 */
  ck_assert_int_eq(minex_mesh_elems(m)[0], 1045);
  ck_assert_int_eq(minex_mesh_elems(m)[3], 1092);
  ck_assert(minex_mesh_coords(m)[0] == 0.56);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(medit_reads_cube_big_tetra) {
  const char *p = test_repo_data("meshes/cube_big_tetra.mesh");
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(p, &m), MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(m), 202596);
  ck_assert_int_eq(minex_mesh_nnodes(m), 36878);
  /* last tetrahedron of the file: 17310 10833 36878 18331 */
  const int32_t *last = minex_mesh_elems(m) + 4 * (202596 - 1);
  ck_assert_int_eq(last[0], 17309);
  ck_assert_int_eq(last[2], 36877);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_medit");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, medit_reads_tetrahedra_and_skips_other_sections);
  tcase_add_test(tc, medit_reads_2d_triangles_with_zero_z);
  tcase_add_test(tc, medit_truncated_section_is_eparse_naming_the_line);
  tcase_add_test(tc, medit_file_without_end_is_eparse_naming_the_last_section);
  tcase_add_test(tc,
                 medit_count_disagreeing_with_data_is_eparse_naming_the_line);
  tcase_add_test(tc, medit_node_id_out_of_range_is_eparse_naming_the_line);
  tcase_add_test(tc, medit_bad_number_is_eparse_naming_the_line);
  tcase_add_test(tc, medit_huge_count_in_header_is_eparse_not_enomem);
  tcase_add_test(tc, medit_reads_perfusion_micro3d);
  tcase_add_test(tc,
                 medit_long_bad_version_line_is_eparse_without_use_after_free);
  tcase_add_test(tc, medit_degenerate_hexahedron_is_eparse_naming_the_line);
  suite_add_tcase(s, tc);
  TCase *big = tcase_create("large");
  tcase_set_tags(big, "slow"); /* skipped by the valgrind stage */
  tcase_add_test(big, medit_reads_cube_big_tetra);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}

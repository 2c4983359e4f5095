/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/field.c: minex_mesh_read_field maps a file's element
 * field onto the mesh's elements (dual vertices) when the file interleaves
 * lower-dimensional cells with the kept ones (VTK legacy, VTK XML: by cell
 * index) and when the values come by element tag in another order (Gmsh
 * $ElementData, also through the partitioned files minex_mesh_write_gmsh
 * writes); a missing field, a wrong component count, an element without a
 * value and MEDIT files are clean errors naming the
 * file and field. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *write_tmp(const char *suffix, const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/minex_field_%d%s", (int)getpid(), suffix);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(text, fp);
  fclose(fp);
  return path;
}

/* two tetrahedra (cells 0 and 2) around a triangle (cell 1) */
static const char vtk_text[] =
    "# vtk DataFile Version 3.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n"
    "POINTS 5 double\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n"
    "CELLS 3 14\n4 0 1 2 3\n3 0 1 2\n4 1 2 3 4\n"
    "CELL_TYPES 3\n10\n5\n10\n"
    "CELL_DATA 3\nSCALARS w double 1\nLOOKUP_TABLE default\n5\n6\n9\n"
    "SCALARS vec double 3\nLOOKUP_TABLE default\n1 2 3\n4 5 6\n7 8 9\n";

static const char vtu_text[] =
    "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" "
    "version=\"0.1\">\n<UnstructuredGrid>\n"
    "<Piece NumberOfPoints=\"5\" NumberOfCells=\"3\">\n"
    "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" "
    "format=\"ascii\">0 0 0 1 0 0 0 1 0 0 0 1 1 1 1</DataArray></Points>\n"
    "<Cells><DataArray type=\"Int64\" Name=\"connectivity\" "
    "format=\"ascii\">0 1 2 3 0 1 2 1 2 3 4</DataArray>\n"
    "<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">4 7 "
    "11</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" "
    "format=\"ascii\">10 5 10</DataArray></Cells>\n"
    "<CellData><DataArray type=\"Int32\" Name=\"w\" format=\"ascii\">5 6 "
    "9</DataArray>\n<DataArray type=\"Float64\" Name=\"bad\" "
    "format=\"ascii\">-1 2 3</DataArray></CellData>\n"
    "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";

/* a triangle (tag 7) and two tets (tags 30, 20 in file order); values by
 * tag in yet another order */
static const char msh_text[] =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$Nodes\n1 5 1 5\n3 1 0 5\n1\n2\n3\n4\n5\n"
    "0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n$EndNodes\n"
    "$Elements\n2 3 7 30\n2 1 2 1\n7 1 2 3\n3 1 4 2\n30 1 2 3 4\n"
    "20 2 3 4 5\n$EndElements\n"
    "$ElementData\n1\n\"other\"\n1\n0\n3\n0\n1\n1\n30 1\n$EndElementData\n"
    "$ElementData\n1\n\"w\"\n1\n0.0\n3\n0\n1\n3\n20 9\n7 6\n30 5\n"
    "$EndElementData\n"
    "$ElementData\n1\n\"half\"\n1\n0\n3\n0\n1\n1\n30 1\n$EndElementData\n";

static void expect_w(const char *suffix, const char *text) {
  const char *path = write_tmp(suffix, text);
  minex_mesh *m = NULL;
  ck_assert_msg(minex_mesh_read(path, &m) == MINEX_OK, "%s",
                minex_last_error());
  ck_assert_int_eq(minex_mesh_nelems(m), 2);
  double w[2] = {0, 0};
  ck_assert_msg(minex_mesh_read_field(m, path, "w", w) == MINEX_OK, "%s",
                minex_last_error());
  ck_assert_double_eq(w[0], 5);
  ck_assert_double_eq(w[1], 9);
  /* a missing field names the file and the field */
  ck_assert_int_eq(minex_mesh_read_field(m, path, "none", w), MINEX_EPARSE);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), path));
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "none"));
  minex_mesh_destroy(m);
  remove(path);
}

START_TEST(field_maps_by_cell_index_and_by_tag) {
  expect_w(".vtk", vtk_text);
  expect_w(".vtu", vtu_text);
  expect_w(".msh", msh_text);
}
END_TEST

START_TEST(field_errors_are_clean) {
  double w[2];
  const char *path = write_tmp(".vtk", vtk_text);
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_OK);
  ck_assert_int_eq(minex_mesh_read_field(m, path, "vec", w), MINEX_EPARSE);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "vec"));
  ck_assert_int_eq(minex_mesh_read_field(NULL, path, "w", w), MINEX_EINVAL);
  ck_assert_int_eq(minex_mesh_read_field(m, path, NULL, w), MINEX_EINVAL);
  minex_mesh_destroy(m);
  remove(path);
  path = write_tmp(".vtu", vtu_text);
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_OK);
  /* the library reads any finite value (the tools want weights >= 0) */
  ck_assert_int_eq(minex_mesh_read_field(m, path, "bad", w), MINEX_OK);
  ck_assert_double_eq(w[0], -1);
  ck_assert_double_eq(w[1], 3);
  minex_mesh_destroy(m);
  remove(path);
  path = write_tmp(".msh", msh_text);
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_OK);
  ck_assert_int_eq(minex_mesh_read_field(m, path, "half", w), MINEX_EPARSE);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "no value for element 20"));
  minex_mesh_destroy(m);
  remove(path);
  ck_assert_int_eq(minex_mesh_read(test_data_path("mesh_two_tets.mesh"), &m),
                   MINEX_OK);
  ck_assert_int_eq(
      minex_mesh_read_field(m, test_data_path("mesh_two_tets.mesh"), "w", w),
      MINEX_EUNSUP);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "MEDIT"));
  minex_mesh_destroy(m);
}
END_TEST

/* the views of minex_mesh_write_gmsh come back through the element tags
 * although the file lists the elements part after part */
START_TEST(field_reads_the_partition_view_of_a_written_file) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(3, 2, 2, &m), MINEX_OK);
  int32_t ne = minex_mesh_nelems(m);
  int32_t *part = malloc(sizeof *part * (size_t)ne);
  for (int32_t e = 0; e < ne; e++)
    part[e] = (e * 5) % 4;
  char path[64];
  snprintf(path, sizeof path, "/tmp/minex_field_%d_w.msh", (int)getpid());
  ck_assert_int_eq(minex_mesh_write_gmsh(m, NULL, part, path), MINEX_OK);
  minex_mesh *r = NULL;
  ck_assert_int_eq(minex_mesh_read(path, &r), MINEX_OK);
  double *w = malloc(sizeof *w * (size_t)ne);
  ck_assert_int_eq(minex_mesh_read_field(r, path, "partition", w), MINEX_OK);
  const int32_t *fp = minex_mesh_file_partition(r);
  for (int32_t e = 0; e < ne; e++)
    ck_assert_double_eq(w[e], fp[e]);
  free(w);
  free(part);
  minex_mesh_destroy(r);
  minex_mesh_destroy(m);
  remove(path);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_field");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, field_maps_by_cell_index_and_by_tag);
  tcase_add_test(tc, field_errors_are_clean);
  tcase_add_test(tc, field_reads_the_partition_view_of_a_written_file);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/vtk.c: the VTK legacy file parses back with the mesh's
 * point, cell and cell-type counts and the requested cell data; a failed
 * write leaves no file. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct vtk_summary {
  long npoints, ncells, cells_size, ntypes, ncelldata;
  long type_count[16]; /* cells per VTK type (< 16)             */
  char names[8][32];   /* SCALARS names in file order           */
  int nscalars;
  double sums[8]; /* sum of each scalar's values           */
  long counts[8]; /* values read for each scalar           */
} vtk_summary;

/* Parses a legacy ASCII unstructured grid as written by the library. */
static vtk_summary parse_vtk(const char *path) {
  vtk_summary s;
  memset(&s, 0, sizeof s);
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  char line[256], word[64];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
  ck_assert_int_eq(strncmp(line, "# vtk DataFile Version", 22), 0);
  ck_assert_ptr_nonnull(fgets(line, sizeof line, fp)); /* title */
  ck_assert_int_eq(fscanf(fp, "%63s", word), 1);
  ck_assert_str_eq(word, "ASCII");
  ck_assert_int_eq(fscanf(fp, " DATASET %63s", word), 1);
  ck_assert_str_eq(word, "UNSTRUCTURED_GRID");
  ck_assert_int_eq(fscanf(fp, " POINTS %ld %63s", &s.npoints, word), 2);
  for (long i = 0; i < 3 * s.npoints; i++) {
    double x;
    ck_assert_int_eq(fscanf(fp, "%lf", &x), 1);
  }
  ck_assert_int_eq(fscanf(fp, " CELLS %ld %ld", &s.ncells, &s.cells_size), 2);
  long read = 0;
  for (long c = 0; c < s.ncells; c++) {
    long k, id;
    ck_assert_int_eq(fscanf(fp, "%ld", &k), 1);
    for (long i = 0; i < k; i++) {
      ck_assert_int_eq(fscanf(fp, "%ld", &id), 1);
      ck_assert(id >= 0 && id < s.npoints);
    }
    read += k + 1;
  }
  ck_assert_int_eq(read, s.cells_size);
  ck_assert_int_eq(fscanf(fp, " CELL_TYPES %ld", &s.ntypes), 1);
  for (long c = 0; c < s.ntypes; c++) {
    int t;
    ck_assert_int_eq(fscanf(fp, "%d", &t), 1);
    ck_assert(t >= 0 && t < 16);
    s.type_count[t]++;
  }
  if (fscanf(fp, " CELL_DATA %ld", &s.ncelldata) == 1) {
    char type[32];
    while (s.nscalars < 8 &&
           fscanf(fp, " SCALARS %31s %31s 1 LOOKUP_TABLE default",
                  s.names[s.nscalars], type) == 2) {
      for (long c = 0; c < s.ncelldata; c++) {
        double v;
        ck_assert_int_eq(fscanf(fp, "%lf", &v), 1);
        s.sums[s.nscalars] += v;
        s.counts[s.nscalars]++;
      }
      s.nscalars++;
    }
  }
  ck_assert_int_eq(fscanf(fp, "%63s", word), EOF);
  fclose(fp);
  return s;
}

static char *tmp_path(void) {
  static char path[] = "/tmp/minex_vtk_XXXXXX";
  strcpy(path, "/tmp/minex_vtk_XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  return path;
}

START_TEST(vtk_output_parses_back_with_counts_and_cell_data) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(3, 2, 2, &m), MINEX_OK);
  int32_t ne = minex_mesh_nelems(m);
  minex_ball ball = {{0.5, 0.5, 0.5}, 0.3, 8, 4};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual_ball(m, &ball, &g), MINEX_OK);
  int32_t *old = malloc(sizeof *old * (size_t)ne);
  int32_t *np = malloc(sizeof *np * (size_t)ne);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 4, old), MINEX_OK);
  double sum_old = 0, sum_new = 0, sum_p = 0, sum_r = 0;
  long moved = 0;
  for (int32_t e = 0; e < ne; e++) {
    np[e] = e % 5 == 0 ? (old[e] + 1) % 4 : old[e];
    moved += np[e] != old[e];
    sum_old += old[e];
    sum_new += np[e];
    sum_p += minex_graph_pwgt(g)[e];
    sum_r += minex_graph_rwgt(g)[e];
  }
  const char *path = tmp_path();
  ck_assert_int_eq(minex_mesh_write_vtk(m, g, old, np, path), MINEX_OK);
  vtk_summary s = parse_vtk(path);
  ck_assert_int_eq(s.npoints, minex_mesh_nnodes(m));
  ck_assert_int_eq(s.ncells, ne);
  ck_assert_int_eq(s.cells_size, 5L * ne);
  ck_assert_int_eq(s.type_count[10], ne);
  ck_assert_int_eq(s.ncelldata, ne);
  ck_assert_int_eq(s.nscalars, 5);
  const char *names[] = {"partition", "old", "moved", "pwgt", "rwgt"};
  const double sums[] = {sum_new, sum_old, (double)moved, sum_p, sum_r};
  for (int i = 0; i < 5; i++) {
    ck_assert_str_eq(s.names[i], names[i]);
    ck_assert_int_eq(s.counts[i], ne);
    ck_assert(test_close(s.sums[i], sums[i], 1e-12));
  }
  ck_assert(sum_p > ne); /* the ball refined something */
  remove(path);
  free(old);
  free(np);
  minex_graph_destroy(g);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(vtk_triangles_are_type_5_and_no_data_means_no_cell_data) {
  const double xyz[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  const int32_t tris[] = {0, 1, 2, 0, 2, 3};
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(4, xyz, 2, MINEX_ELEM_TRIANGLE, tris, &m),
                   MINEX_OK);
  const char *path = tmp_path();
  ck_assert_int_eq(minex_mesh_write_vtk(m, NULL, NULL, NULL, path), MINEX_OK);
  vtk_summary s = parse_vtk(path);
  ck_assert_int_eq(s.ncells, 2);
  ck_assert_int_eq(s.cells_size, 8);
  ck_assert_int_eq(s.type_count[5], 2);
  ck_assert_int_eq(s.ncelldata, 0);
  /* only the new partition: one scalar, no "moved" */
  const int32_t np[] = {1, 0};
  ck_assert_int_eq(minex_mesh_write_vtk(m, NULL, NULL, np, path), MINEX_OK);
  s = parse_vtk(path);
  ck_assert_int_eq(s.nscalars, 1);
  ck_assert_str_eq(s.names[0], "partition");
  remove(path);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(vtk_failed_write_is_eio_and_leaves_no_file) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(1, 1, 1, &m), MINEX_OK);
  const char *path = "/nonexistent_dir_minex/out.vtk";
  ck_assert_int_eq(minex_mesh_write_vtk(m, NULL, NULL, NULL, path), MINEX_EIO);
  ck_assert_int_ne(access(path, F_OK), 0);
  minex_graph *g = NULL;
  minex_mesh *m2 = NULL;
  ck_assert_int_eq(minex_gen_box(2, 1, 1, &m2), MINEX_OK);
  ck_assert_int_eq(minex_mesh_dual(m2, NULL, NULL, NULL, NULL, &g), MINEX_OK);
  ck_assert_int_eq(minex_mesh_write_vtk(m, g, NULL, NULL, "/tmp/x.vtk"),
                   MINEX_EINVAL); /* 12 graph vertices, 6 elements */
  ck_assert_int_ne(access("/tmp/x.vtk", F_OK), 0);
  minex_graph_destroy(g);
  minex_mesh_destroy(m2);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_vtk");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, vtk_output_parses_back_with_counts_and_cell_data);
  tcase_add_test(tc, vtk_triangles_are_type_5_and_no_data_means_no_cell_data);
  tcase_add_test(tc, vtk_failed_write_is_eio_and_leaves_no_file);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

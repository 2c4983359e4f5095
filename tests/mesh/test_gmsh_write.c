/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/gmsh_write.c: the partitioned MSH 4.1 file reads back
 * through minex_mesh_read with every element (part after part, kind after
 * kind within a part, in their order) of the same kind and corners at the same
 * places and its part as the file's partition; the views are there; bad
 * partitions and a failed write leave no file. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *tmp_path(void) {
  static char path[] = "/tmp/minex_gmshw_XXXXXX";
  strcpy(path, "/tmp/minex_gmshw_XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  return path;
}

/* Writes m with part (nparts ids), reads it back and compares. */
static void round_trip(const minex_mesh *m, const int32_t *part,
                       int32_t nparts) {
  const char *path = tmp_path();
  ck_assert_int_eq(minex_mesh_write_gmsh(m, NULL, part, path), MINEX_OK);
  minex_mesh *r = NULL;
  ck_assert_msg(minex_mesh_read(path, &r) == MINEX_OK, "%s",
                minex_last_error());
  int32_t ne = minex_mesh_nelems(m);
  ck_assert_int_eq(minex_mesh_nelems(r), ne);
  const int32_t *fp = minex_mesh_file_partition(r);
  ck_assert_ptr_nonnull(fp);
  /* the writer's order of the kinds within a part */
  const minex_elem_type kinds[] = {MINEX_ELEM_TETRA,    MINEX_ELEM_HEXA,
                                   MINEX_ELEM_PRISM,    MINEX_ELEM_PYRAMID,
                                   MINEX_ELEM_TRIANGLE, MINEX_ELEM_QUAD};
  int32_t i = 0;
  for (int32_t p = 0; p < nparts; p++)
    for (int j = 0; j < 6; j++)
      for (int32_t e = 0; e < ne; e++) {
        if (part[e] != p || minex_mesh_elem_kind(m, e) != kinds[j])
          continue;
        ck_assert_int_eq(fp[i], p);
        ck_assert_int_eq(minex_mesh_elem_kind(r, i),
                         minex_mesh_elem_kind(m, e));
        int k1, k2;
        const int32_t *a = minex_mesh_elem_nodes(m, e, &k1);
        const int32_t *b = minex_mesh_elem_nodes(r, i, &k2);
        ck_assert_int_eq(k1, k2);
        for (int c = 0; c < k1; c++)
          for (int d = 0; d < 3; d++)
            ck_assert_double_eq(minex_mesh_coords(m)[3 * a[c] + d],
                                minex_mesh_coords(r)[3 * b[c] + d]);
        i++;
      }
  ck_assert_int_eq(i, ne);
  minex_mesh_destroy(r);
  remove(path);
}

START_TEST(gmsh_write_reads_back_with_parts_tets) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(3, 2, 2, &m), MINEX_OK);
  int32_t ne = minex_mesh_nelems(m);
  int32_t *part = malloc(sizeof *part * (size_t)ne);
  for (int32_t e = 0; e < ne; e++)
    part[e] = (e * 7) % 5; /* scattered, every part used */
  round_trip(m, part, 5);
  free(part);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(gmsh_write_reads_back_mixed_prisms_and_2d) {
  const char *files[] = {"mesh_gmsh_mixed_v41.msh",
                         "mesh_gmsh_quadtri_v41.msh"};
  for (int f = 0; f < 2; f++) {
    minex_mesh *m = NULL;
    ck_assert_int_eq(minex_mesh_read(test_data_path(files[f]), &m), MINEX_OK);
    int32_t ne = minex_mesh_nelems(m);
    int32_t *part = malloc(sizeof *part * (size_t)ne);
    for (int32_t e = 0; e < ne; e++)
      part[e] = (ne - e) % 3;
    round_trip(m, part, 3);
    free(part);
    minex_mesh_destroy(m);
  }
}
END_TEST

START_TEST(gmsh_write_has_partitioned_entities_and_views) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(1, 1, 1, &m), MINEX_OK); /* 6 tets */
  const int32_t old[] = {0, 0, 0, 1, 1, 1}, np[] = {0, 2, 0, 1, 2, 1};
  const char *path = tmp_path();
  ck_assert_int_eq(minex_mesh_write_gmsh(m, old, np, path), MINEX_OK);
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  char line[256];
  int pe = 0, views = 0, moved = 0, in_moved = 0;
  long sum_moved = 0;
  while (fgets(line, sizeof line, fp) != NULL) {
    if (strcmp(line, "$PartitionedEntities\n") == 0) {
      pe = 1;
      ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
      ck_assert_str_eq(line, "3\n"); /* partitions */
      ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
      ck_assert_str_eq(line, "0\n"); /* ghost entities */
      ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
      ck_assert_str_eq(line, "0 0 0 3\n"); /* three volumes */
    }
    if (strcmp(line, "$ElementData\n") == 0)
      views++;
    if (strcmp(line, "\"moved\"\n") == 0)
      moved = 1, in_moved = 1;
    int tag, v;
    if (in_moved && sscanf(line, "%d %d", &tag, &v) == 2)
      sum_moved += v;
    if (strcmp(line, "$EndElementData\n") == 0)
      in_moved = 0;
  }
  fclose(fp);
  ck_assert_int_eq(pe, 1);
  ck_assert_int_eq(views, 3); /* partition, old, moved */
  ck_assert_int_eq(moved, 1);
  ck_assert_int_eq(sum_moved, 2); /* elements 1 and 4 */
  remove(path);
  /* without a partition: no partitioned entities, still a mesh */
  ck_assert_int_eq(minex_mesh_write_gmsh(m, NULL, NULL, path), MINEX_OK);
  minex_mesh *r = NULL;
  ck_assert_int_eq(minex_mesh_read(path, &r), MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(r), 6);
  ck_assert_ptr_null(minex_mesh_file_partition(r));
  minex_mesh_destroy(r);
  remove(path);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(gmsh_write_rejects_bad_input_and_leaves_no_file) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(1, 1, 1, &m), MINEX_OK);
  const int32_t bad[] = {0, 1, -1, 0, 0, 0};
  const char *path = "/tmp/minex_gmshw_bad.msh";
  remove(path);
  ck_assert_int_eq(minex_mesh_write_gmsh(m, NULL, bad, path), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "element 2"));
  ck_assert_int_ne(access(path, F_OK), 0);
  ck_assert_int_eq(minex_mesh_write_gmsh(m, bad, NULL, path), MINEX_EINVAL);
  ck_assert_int_eq(minex_mesh_write_gmsh(NULL, NULL, NULL, path), MINEX_EINVAL);
  ck_assert_int_eq(minex_mesh_write_gmsh(m, NULL, NULL, ""), MINEX_EINVAL);
  ck_assert_int_eq(
      minex_mesh_write_gmsh(m, NULL, NULL, "/nonexistent_dir_minex/a.msh"),
      MINEX_EIO);
  ck_assert_int_ne(access("/nonexistent_dir_minex/a.msh", F_OK), 0);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_gmsh_write");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, gmsh_write_reads_back_with_parts_tets);
  tcase_add_test(tc, gmsh_write_reads_back_mixed_prisms_and_2d);
  tcase_add_test(tc, gmsh_write_has_partitioned_entities_and_views);
  tcase_add_test(tc, gmsh_write_rejects_bad_input_and_leaves_no_file);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The library's number I/O is independent of the host program's locale
 * (src/io/io_util.c io_locale_c): under de_DE.UTF-8, whose decimal point
 * is ',', every file is written with '.' and reads back to the same
 * doubles, and the caller's locale is left as it was. */
#include "io_test_util.h"
#include "test_util.h"

#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COMMA_LOCALE "de_DE.UTF-8"

/* Switches the process to the decimal-comma locale. Missing locale: a
 * failure where the test set-up can make it (root: scripts/test.sh runs
 * locale-gen; in CI), else a skip. */
static void use_comma_locale(void) {
  if (setlocale(LC_ALL, COMMA_LOCALE) == NULL) {
    const char *ci = getenv("CI");
    if (geteuid() == 0 || (ci != NULL && ci[0] != '\0'))
      ck_abort_msg("locale " COMMA_LOCALE " is missing: scripts/test.sh "
                   "generates it (locales package, locale-gen)");
    test_skip("locale " COMMA_LOCALE " is not installed and this user "
              "cannot generate it");
  }
  /* the premise: here the C library itself writes a decimal comma */
  char buf[32];
  snprintf(buf, sizeof buf, "%g", 1.5);
  ck_assert_str_eq(buf, "1,5");
  ck_assert_str_eq(localeconv()->decimal_point, ",");
}

/* The whole file; malloc'ed. */
static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  ck_assert_ptr_nonnull(fp);
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  ck_assert_ptr_nonnull(text);
  ck_assert_int_eq((long)fread(text, 1, (size_t)n, fp), n);
  text[n] = '\0';
  fclose(fp);
  return text;
}

/* 1 when text holds a number with a decimal comma ("1,5"). */
static int has_decimal_comma(const char *text) {
  for (const char *c = strchr(text, ','); c; c = strchr(c + 1, ','))
    if (c > text && isdigit((unsigned char)c[-1]) &&
        isdigit((unsigned char)c[1]))
      return 1;
  return 0;
}

/* The caller's locale is back after the library's calls. */
static void assert_comma_locale_kept(void) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", 2.5);
  ck_assert_str_eq(buf, "2,5");
}

/* triangle 0-1-2 plus pendant 3 on 2, fractional weights */
static minex_graph *fractional_graph(void) {
  static const int64_t xadj[] = {0, 2, 4, 7, 8};
  static const int32_t adj[] = {1, 2, 0, 2, 0, 1, 3, 2};
  static const double pwgt[] = {1.5, 0.25, 3.125, 1e-3};
  static const double rwgt[] = {0.1, 2, 7.75, 1.0 / 3};
  static const double cwgt[] = {0.5, 2.5, 0.5, 1.25, 2.5, 1.25, 4.2, 4.2};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(4, xadj, adj, pwgt, rwgt, cwgt, &g),
                   MINEX_OK);
  return g;
}

START_TEST(graph_with_fractional_weights_round_trips_with_decimal_point) {
  use_comma_locale();
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "g.graph");
  minex_graph *g = fractional_graph(), *h = NULL;
  ck_assert_int_eq(minex_graph_write_metis(g, path), MINEX_OK);
  char *text = slurp(path);
  ck_assert_int_eq(has_decimal_comma(text), 0);
  ck_assert_ptr_nonnull(strstr(text, "1.5"));
  ck_assert_ptr_nonnull(strstr(text, "3.125"));
  free(text);
  ck_assert_int_eq(minex_graph_read_metis(path, &h), MINEX_OK);
  ck_assert_int_eq(minex_graph_nvtxs(h), 4);
  for (int32_t v = 0; v < 4; v++) {
    ck_assert(minex_graph_pwgt(h)[v] == minex_graph_pwgt(g)[v]);
    ck_assert(minex_graph_rwgt(h)[v] == minex_graph_rwgt(g)[v]);
  }
  for (int64_t i = 0; i < minex_graph_xadj(g)[4]; i++)
    ck_assert(minex_graph_cwgt(h)[i] == minex_graph_cwgt(g)[i]);
  assert_comma_locale_kept();
  minex_graph_destroy(g);
  minex_graph_destroy(h);
  io_rmdir(dir);
}
END_TEST

START_TEST(partition_round_trips_under_comma_locale) {
  use_comma_locale();
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "p.part");
  const int32_t part[] = {0, 3, 1000000, 2, 0, 12345};
  int32_t *back = NULL;
  ck_assert_int_eq(minex_part_write(path, 6, part), MINEX_OK);
  char *text = slurp(path);
  ck_assert_str_eq(text, "0\n3\n1000000\n2\n0\n12345\n");
  free(text);
  ck_assert_int_eq(minex_part_read(path, 6, 0, &back), MINEX_OK);
  for (int v = 0; v < 6; v++)
    ck_assert_int_eq(back[v], part[v]);
  free(back);
  assert_comma_locale_kept();
  io_rmdir(dir);
}
END_TEST

START_TEST(config_with_fractional_slowdowns_round_trips_with_decimal_point) {
  use_comma_locale();
  char dir[256], path[512], path2[512];
  io_tmpdir(dir);
  io_join(path, dir, "c.xml");
  io_join(path2, dir, "hand.xml");
  const int32_t nprocs[] = {2, 3};
  const double proc[] = {1.5, 0.75};
  const double conn[] = {1.25, 10.5, 10.5, 0.1};
  minex_config *c = NULL, *d = NULL, *e = NULL;
  ck_assert_int_eq(minex_config_create(2, nprocs, proc, conn, &c), MINEX_OK);
  ck_assert_int_eq(minex_config_save(c, path), MINEX_OK);
  char *text = slurp(path);
  ck_assert_int_eq(has_decimal_comma(text), 0);
  ck_assert_ptr_nonnull(strstr(text, "proc-slowdown=\"1.5\""));
  ck_assert_ptr_nonnull(strstr(text, "slowdown=\"10.5\""));
  free(text);
  ck_assert_int_eq(minex_config_load(path, &d), MINEX_OK);
  for (int32_t a = 0; a < 2; a++) {
    ck_assert(minex_config_proc_slowdown(d, a) == proc[a]);
    for (int32_t b = 0; b < 2; b++)
      ck_assert(minex_config_conn(d, a, b) == conn[2 * a + b]);
  }
  /* a file written by hand, with a default link */
  io_write_text(path2, "<minex-config version=\"1\" "
                       "default-link-slowdown=\"2.5e1\">\n"
                       "  <cluster name=\"a\" procs=\"1\" "
                       "proc-slowdown=\"0.5\"/>\n"
                       "  <cluster name=\"b\" procs=\"1\"/>\n"
                       "</minex-config>\n");
  ck_assert_int_eq(minex_config_load(path2, &e), MINEX_OK);
  ck_assert(minex_config_proc_slowdown(e, 0) == 0.5);
  ck_assert(minex_config_conn(e, 0, 1) == 25.0);
  assert_comma_locale_kept();
  minex_config_destroy(c);
  minex_config_destroy(d);
  minex_config_destroy(e);
  io_rmdir(dir);
}
END_TEST

START_TEST(vtk_and_mesh_numbers_use_decimal_point) {
  use_comma_locale();
  char dir[256], mpath[512], vpath[512];
  io_tmpdir(dir);
  io_join(mpath, dir, "t.mesh");
  io_join(vpath, dir, "t.vtk");
  /* a MEDIT mesh with fractional coordinates is read under the locale */
  io_write_text(mpath, "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n"
                       "0.5 0 0 0\n1.25 0 0 0\n0 0.75 0 0\n0 0 1e-1 0\n"
                       "Tetrahedra\n1\n1 2 3 4 0\nEnd\n");
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(mpath, &m), MINEX_OK);
  ck_assert(minex_mesh_coords(m)[0] == 0.5);
  ck_assert(minex_mesh_coords(m)[3] == 1.25);
  ck_assert(minex_mesh_coords(m)[7] == 0.75);
  ck_assert(minex_mesh_coords(m)[11] == 0.1);
  const double pwgt[] = {2.5}, rwgt[] = {0.125};
  const int64_t xadj[] = {0, 0};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(1, xadj, NULL, pwgt, rwgt, NULL, &g),
                   MINEX_OK);
  const int32_t part[] = {1};
  ck_assert_int_eq(minex_mesh_write_vtk(m, g, part, part, vpath), MINEX_OK);
  char *text = slurp(vpath);
  ck_assert_int_eq(has_decimal_comma(text), 0);
  ck_assert_ptr_nonnull(strstr(text, "\n0.5 0 0\n1.25 0 0\n0 0.75 0\n"));
  ck_assert_ptr_nonnull(strstr(text, "SCALARS pwgt double 1\n"
                                     "LOOKUP_TABLE default\n2.5\n"));
  ck_assert_ptr_nonnull(strstr(text, "SCALARS rwgt double 1\n"
                                     "LOOKUP_TABLE default\n0.125\n"));
  free(text);
  assert_comma_locale_kept();
  minex_graph_destroy(g);
  minex_mesh_destroy(m);
  io_rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("locale");
  TCase *tc = tcase_create("decimal_comma");
  tcase_add_test(tc,
                 graph_with_fractional_weights_round_trips_with_decimal_point);
  tcase_add_test(tc, partition_round_trips_under_comma_locale);
  tcase_add_test(
      tc, config_with_fractional_slowdowns_round_trips_with_decimal_point);
  tcase_add_test(tc, vtk_and_mesh_numbers_use_decimal_point);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/io/metis_graph.c: METIS graph files round-trip exactly,
 * every fmt variant reads, and every malformed input is refused with the
 * right code and a message naming the line (SPEC §7). */
#include "io_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Exact equality of CSR and weights; one assertion per array, since each
 * ck_assert costs a message to the parent process. */
static void assert_same_graph(const minex_graph *a, const minex_graph *b) {
  int32_t n = minex_graph_nvtxs(a);
  ck_assert_int_eq(minex_graph_nvtxs(b), n);
  ck_assert_int_eq(minex_graph_nedges(b), minex_graph_nedges(a));
  const int64_t *xa = minex_graph_xadj(a), *xb = minex_graph_xadj(b);
  int64_t bad = -1;
  for (int32_t v = 0; v <= n && bad < 0; v++)
    if (xa[v] != xb[v])
      bad = v;
  ck_assert_msg(bad < 0, "xadj differs at %lld", (long long)bad);
  for (int32_t v = 0; v < n && bad < 0; v++)
    if (minex_graph_pwgt(a)[v] != minex_graph_pwgt(b)[v] ||
        minex_graph_rwgt(a)[v] != minex_graph_rwgt(b)[v])
      bad = v;
  ck_assert_msg(bad < 0, "pwgt or rwgt differs at vertex %lld", (long long)bad);
  for (int64_t j = 0; j < xa[n] && bad < 0; j++)
    if (minex_graph_adjncy(a)[j] != minex_graph_adjncy(b)[j] ||
        minex_graph_cwgt(a)[j] != minex_graph_cwgt(b)[j])
      bad = j;
  ck_assert_msg(bad < 0, "adjncy or cwgt differs at entry %lld",
                (long long)bad);
}

/* First line of a file (the header), into buf. */
static void first_line(const char *path, char *buf, int cap) {
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  ck_assert_ptr_nonnull(fgets(buf, cap, fp));
  fclose(fp);
  buf[strcspn(buf, "\n")] = '\0';
}

START_TEST(metis_roundtrip_random_graphs_preserves_csr_and_weights) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "g.graph");
  const int32_t sizes[] = {1, 2, 17, 500, 3000};
  for (int integral = 0; integral <= 1; integral++)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
      gsl_rng_set(rng, 100 + i + 10 * (size_t)integral);
      minex_graph *g = test_random_graph(rng, sizes[i], 6.0, integral);
      ck_assert_ptr_nonnull(g);
      ck_assert_int_eq(minex_graph_write_metis(g, path), MINEX_OK);
      minex_graph *h = NULL;
      int rc = minex_graph_read_metis(path, &h);
      ck_assert_msg(rc == MINEX_OK, "%s", minex_last_error());
      assert_same_graph(g, h);
      minex_graph_destroy(g);
      minex_graph_destroy(h);
    }
  ck_assert_int_eq(io_count_entries(dir), 1); /* no temporaries left */
  io_rmdir(dir);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(metis_roundtrip_keeps_tiny_huge_and_zero_weights_exact) {
  /* path 0-1-2 and isolated 3: weights that %g would round */
  int64_t xadj[] = {0, 1, 3, 4, 4};
  int32_t adj[] = {1, 0, 2, 1};
  double cw[] = {0.1, 0.1, 1e300, 1e300};
  double pw[] = {0, 1.0 / 3.0, 5e-324, 123456789012345678.0};
  double rw[] = {2.5, 9007199254740993.0, 1, 0.30000000000000004};
  minex_graph *g = NULL, *h = NULL;
  ck_assert_int_eq(minex_graph_create(4, xadj, adj, pw, rw, cw, &g), MINEX_OK);
  char dir[256], path[512], head[128];
  io_tmpdir(dir);
  ck_assert_int_eq(minex_graph_write_metis(g, io_join(path, dir, "w.graph")),
                   MINEX_OK);
  first_line(path, head, sizeof head);
  ck_assert_str_eq(head, "4 2 111");
  ck_assert_int_eq(minex_graph_read_metis(path, &h), MINEX_OK);
  assert_same_graph(g, h);
  minex_graph_destroy(g);
  minex_graph_destroy(h);
  io_rmdir(dir);
}
END_TEST

START_TEST(metis_writer_emits_only_the_nonunit_weight_columns) {
  int64_t xadj[] = {0, 1, 2};
  int32_t adj[] = {1, 0};
  double two[] = {2, 2};
  struct {
    const double *pw, *rw, *cw;
    const char *header;
    const char *line1;
  } cases[] = {
      {NULL, NULL, NULL, "2 1", "2"},
      {NULL, NULL, two, "2 1 001", "2 2"},
      {two, NULL, NULL, "2 1 010", "2 2"},
      {NULL, two, NULL, "2 1 100", "2 2"},
      {two, two, NULL, "2 1 110", "2 2 2"},
      {two, two, two, "2 1 111", "2 2 2 2"},
  };
  char dir[256], path[512], buf[128];
  io_tmpdir(dir);
  io_join(path, dir, "f.graph");
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    minex_graph *g = NULL, *h = NULL;
    ck_assert_int_eq(minex_graph_create(2, xadj, adj, cases[i].pw, cases[i].rw,
                                        cases[i].cw, &g),
                     MINEX_OK);
    ck_assert_int_eq(minex_graph_write_metis(g, path), MINEX_OK);
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, fp));
    buf[strcspn(buf, "\n")] = '\0';
    ck_assert_str_eq(buf, cases[i].header);
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, fp));
    buf[strcspn(buf, "\n")] = '\0';
    ck_assert_str_eq(buf, cases[i].line1);
    fclose(fp);
    ck_assert_int_eq(minex_graph_read_metis(path, &h), MINEX_OK);
    assert_same_graph(g, h);
    minex_graph_destroy(g);
    minex_graph_destroy(h);
  }
  io_rmdir(dir);
}
END_TEST

/* Triangle 1-2-3 with Rwgt r_v = 10+v, Pwgt p_v = 20+v, Cwgt of edge
 * (v,w) = v+w, written with every fmt; columns absent from fmt read as 1. */
START_TEST(metis_read_accepts_every_fmt_variant) {
  static const struct {
    const char *fmt;
    int vsize, vwgt, ewgt;
  } fmts[] = {{"", 0, 0, 0},    {"0", 0, 0, 0},    {"000", 0, 0, 0},
              {"1", 0, 0, 1},   {"001", 0, 0, 1},  {"10", 0, 1, 0},
              {"010", 0, 1, 0}, {"11", 0, 1, 1},   {"011", 0, 1, 1},
              {"100", 1, 0, 0}, {"101", 1, 0, 1},  {"110", 1, 1, 0},
              {"111", 1, 1, 1}, {"011 1", 0, 1, 1}};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "fmt.graph");
  for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
    char text[512];
    int len = snprintf(text, sizeof text, "%% fmt '%s'\n3 3 %s\n", fmts[i].fmt,
                       fmts[i].fmt);
    for (int v = 1; v <= 3; v++) {
      if (fmts[i].vsize)
        len += snprintf(text + len, sizeof text - (size_t)len, "%d ", 10 + v);
      if (fmts[i].vwgt)
        len += snprintf(text + len, sizeof text - (size_t)len, "%d ", 20 + v);
      for (int w = 1; w <= 3; w++) {
        if (w == v)
          continue;
        len += snprintf(text + len, sizeof text - (size_t)len, " %d", w);
        if (fmts[i].ewgt)
          len +=
              snprintf(text + len, sizeof text - (size_t)len, " %d.5", v + w);
      }
      len += snprintf(text + len, sizeof text - (size_t)len, "\n");
    }
    io_write_text(path, text);
    minex_graph *g = NULL;
    int rc = minex_graph_read_metis(path, &g);
    ck_assert_msg(rc == MINEX_OK, "fmt '%s': %s", fmts[i].fmt,
                  minex_last_error());
    ck_assert_int_eq(minex_graph_nvtxs(g), 3);
    ck_assert_int_eq(minex_graph_nedges(g), 3);
    for (int v = 0; v < 3; v++) {
      ck_assert(minex_graph_rwgt(g)[v] == (fmts[i].vsize ? 11 + v : 1));
      ck_assert(minex_graph_pwgt(g)[v] == (fmts[i].vwgt ? 21 + v : 1));
      for (int64_t j = minex_graph_xadj(g)[v]; j < minex_graph_xadj(g)[v + 1];
           j++) {
        int w = minex_graph_adjncy(g)[j];
        double want = fmts[i].ewgt ? v + w + 2 + 0.5 : 1;
        ck_assert(minex_graph_cwgt(g)[j] == want);
      }
    }
    minex_graph_destroy(g);
  }
  io_rmdir(dir);
}
END_TEST

START_TEST(metis_read_skips_comments_and_reads_blank_lines_as_isolated) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "c.graph");
  io_write_text(path, "% a comment\n\n  % indented comment\n4 1\n\n3\n"
                      "% between vertices\n2\n\n\n% trailing comment\n");
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_read_metis(path, &g), MINEX_OK);
  ck_assert_int_eq(minex_graph_nvtxs(g), 4);
  ck_assert_int_eq(minex_graph_nedges(g), 1);
  ck_assert_int_eq(minex_graph_xadj(g)[1], 0); /* vertex 1 isolated */
  ck_assert_int_eq(minex_graph_adjncy(g)[0], 2);
  ck_assert_int_eq(minex_graph_xadj(g)[4], 2); /* vertex 4 isolated */
  minex_graph_destroy(g);
  io_write_text(path, "0 0\n");
  ck_assert_int_eq(minex_graph_read_metis(path, &g), MINEX_OK);
  ck_assert_int_eq(minex_graph_nvtxs(g), 0);
  minex_graph_destroy(g);
  io_rmdir(dir);
}
END_TEST

static void expect_read_error(const char *file, int code, const char *where,
                              const char *what) {
  minex_graph *g = (minex_graph *)&g; /* must be reset to NULL */
  int rc = minex_graph_read_metis(io_data(file), &g);
  ck_assert_ptr_null(g);
  char loc[128];
  snprintf(loc, sizeof loc, "%s:%s", file, where);
  io_expect_error(rc, code, loc, what);
}

START_TEST(metis_read_rejects_truncated_file_naming_last_line) {
  expect_read_error("io_truncated.graph", MINEX_EPARSE, "5:", "3 of 4");
}
END_TEST

START_TEST(metis_read_rejects_extra_nonblank_line_naming_it) {
  expect_read_error("io_extra_line.graph", MINEX_EPARSE, "5:", "extra");
}
END_TEST

START_TEST(metis_read_rejects_header_edge_count_mismatch_naming_header) {
  expect_read_error("io_edge_count.graph", MINEX_EPARSE, "2:", "3 edges");
}
END_TEST

START_TEST(metis_read_rejects_neighbour_id_out_of_range_naming_line) {
  expect_read_error("io_id_range.graph", MINEX_EPARSE, "3:", "'4'");
}
END_TEST

START_TEST(metis_read_rejects_nonnumeric_token_naming_line) {
  expect_read_error("io_nonnumeric.graph", MINEX_EPARSE, "3:", "'x3'");
}
END_TEST

/* Numbers are decimal, ids unsigned, and a NUL byte never cuts a line
 * short silently (the rest of it used to be ignored). */
START_TEST(metis_read_rejects_nul_hex_and_plus_sign_naming_line) {
  expect_read_error("io_nul.graph", MINEX_EPARSE, "4:", "NUL byte");
  expect_read_error("io_hex_weight.graph", MINEX_EPARSE, "2:", "hexadecimal");
  expect_read_error("io_plus_id.graph", MINEX_EPARSE, "2:", "'+' sign");
}
END_TEST

START_TEST(metis_read_rejects_negative_weight_naming_line) {
  expect_read_error("io_negative_weight.graph", MINEX_EPARSE, "3:", ">= 0");
}
END_TEST

START_TEST(metis_read_rejects_nan_weight_naming_line) {
  expect_read_error("io_nan_weight.graph", MINEX_EPARSE, "3:", "'nan'");
}
END_TEST

START_TEST(metis_read_rejects_missing_ewgt_naming_line) {
  expect_read_error("io_missing_ewgt.graph", MINEX_EPARSE, "3:", "no ewgt");
}
END_TEST

START_TEST(metis_read_rejects_asymmetric_edge_naming_line) {
  expect_read_error("io_asym.graph", MINEX_EGRAPH, "4:", "edge 2-3");
}
END_TEST

START_TEST(metis_read_rejects_unequal_ewgt_directions_naming_line) {
  expect_read_error("io_ewgt_mismatch.graph", MINEX_EGRAPH, "3:", "on line 4");
}
END_TEST

START_TEST(metis_read_rejects_duplicate_edge_and_self_loop_naming_line) {
  expect_read_error("io_duplicate.graph", MINEX_EGRAPH, "2:", "twice");
  expect_read_error("io_self_loop.graph", MINEX_EGRAPH, "2:", "self loop");
}
END_TEST

START_TEST(metis_read_rejects_multiconstraint_as_unsupported) {
  expect_read_error("io_ncon2.graph", MINEX_EUNSUP, "1:", "ncon");
}
END_TEST

START_TEST(metis_read_rejects_malformed_headers_naming_line) {
  static const char *bad[] = {"x 3\n",       "3\n",        "3 -1\n",
                              "3 1 2\n",     "3 1 0111\n", "3 1 011 0\n",
                              "3 1 1 1 1\n", "-3 1\n",     "3 1 01x\n"};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "h.graph");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char text[64];
    snprintf(text, sizeof text, "%% bad header\n%s", bad[i]);
    io_write_text(path, text);
    minex_graph *g = NULL;
    io_expect_error(minex_graph_read_metis(path, &g), MINEX_EPARSE,
                    "h.graph:2: header", NULL);
  }
  io_write_text(path, "% only a comment\n\n");
  minex_graph *g = NULL;
  io_expect_error(minex_graph_read_metis(path, &g), MINEX_EPARSE, "no header",
                  NULL);
  io_rmdir(dir);
}
END_TEST

/* A mesh given where a graph is expected is named as a mesh, with where
 * to read it instead. */
START_TEST(metis_read_names_a_mesh_file_as_a_mesh) {
  static const struct {
    const char *text, *kind;
  } mesh[] = {{"MeshVersionFormatted 2\nDimension 3\n", "MEDIT"},
              {"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n", "Gmsh"},
              {"# vtk DataFile Version 3.0\nx\nASCII\n", "legacy VTK"},
              {"<VTKFile type=\"UnstructuredGrid\">\n", "VTU"}};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "m.graph");
  for (size_t i = 0; i < sizeof mesh / sizeof *mesh; i++) {
    io_write_text(path, mesh[i].text);
    minex_graph *g = NULL;
    io_expect_error(minex_graph_read_metis(path, &g), MINEX_EPARSE,
                    "m.graph:1: a", mesh[i].kind);
    ck_assert_ptr_nonnull(strstr(minex_last_error(), "--mesh"));
  }
  io_rmdir(dir);
}
END_TEST

START_TEST(metis_read_of_missing_file_is_eio) {
  minex_graph *g = NULL;
  io_expect_error(minex_graph_read_metis("/nonexistent/x.graph", &g), MINEX_EIO,
                  "/nonexistent/x.graph", NULL);
  ck_assert_int_eq(minex_graph_read_metis("x", NULL), MINEX_EINVAL);
}
END_TEST

START_TEST(metis_write_into_missing_directory_is_eio_and_leaves_no_file) {
  minex_graph *g = test_grid_graph(3, 3, 1);
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "no/such/dir.graph");
  io_expect_error(minex_graph_write_metis(g, path), MINEX_EIO, path, NULL);
  ck_assert_int_eq(io_count_entries(dir), 0);
  /* a target that is a directory: the rename fails, the temp is removed */
  io_join(path, dir, "sub");
  ck_assert_int_eq(mkdir(path, 0700), 0);
  ck_assert_int_eq(minex_graph_write_metis(g, path), MINEX_EIO);
  ck_assert_int_eq(io_count_entries(dir), 1);
  ck_assert_int_eq(io_count_entries(path), 0);
  ck_assert_int_eq(minex_graph_write_metis(NULL, path), MINEX_EINVAL);
  minex_graph_destroy(g);
  io_rmdir(dir);
}
END_TEST

START_TEST(metis_read_4elt_has_15606_vertices_and_45878_edges) {
  const char *path = test_repo_data("graphs/4elt.graph");
  minex_graph *g = NULL;
  int rc = minex_graph_read_metis(path, &g);
  ck_assert_msg(rc == MINEX_OK, "%s", minex_last_error());
  ck_assert_int_eq(minex_graph_nvtxs(g), 15606);
  ck_assert_int_eq(minex_graph_nedges(g), 45878);
  minex_graph_destroy(g);
}
END_TEST

/* 10^6 vertices: a 100^3 grid with integer weights on every column (fmt
 * 111, about 7 * 10^6 tokens) round-trips exactly. The times are printed
 * for information; speed is judged by bench/, not by a unit test. */
START_TEST(metis_roundtrip_million_vertex_graph) {
  minex_graph *grid = test_grid_graph(100, 100, 100);
  int32_t n = minex_graph_nvtxs(grid);
  int64_t nadj = minex_graph_xadj(grid)[n];
  double *pw = malloc(sizeof *pw * (size_t)n);
  double *rw = malloc(sizeof *rw * (size_t)n);
  double *cw = malloc(sizeof *cw * (size_t)nadj);
  const int64_t *x = minex_graph_xadj(grid);
  const int32_t *adj = minex_graph_adjncy(grid);
  for (int32_t v = 0; v < n; v++) {
    pw[v] = 1 + v % 7;
    rw[v] = 2 + v % 5;
    for (int64_t j = x[v]; j < x[v + 1]; j++)
      cw[j] = 1 + (v + adj[j]) % 3;
  }
  minex_graph *g = NULL, *h = NULL;
  ck_assert_int_eq(minex_graph_create(n, x, adj, pw, rw, cw, &g), MINEX_OK);
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "big.graph");
  double t0 = (double)clock() / CLOCKS_PER_SEC;
  ck_assert_int_eq(minex_graph_write_metis(g, path), MINEX_OK);
  double t1 = (double)clock() / CLOCKS_PER_SEC;
  ck_assert_int_eq(minex_graph_read_metis(path, &h), MINEX_OK);
  double t2 = (double)clock() / CLOCKS_PER_SEC;
  fprintf(stderr,
          "metis 1e6 vertices, %lld edges: write %.3f s, read "
          "%.3f s\n",
          (long long)minex_graph_nedges(g), t1 - t0, t2 - t1);
  assert_same_graph(g, h);
  minex_graph_destroy(grid);
  minex_graph_destroy(g);
  minex_graph_destroy(h);
  free(pw);
  free(rw);
  free(cw);
  io_rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("metis_graph");
  TCase *tc = tcase_create("metis");
  tcase_add_test(tc, metis_roundtrip_random_graphs_preserves_csr_and_weights);
  tcase_add_test(tc, metis_roundtrip_keeps_tiny_huge_and_zero_weights_exact);
  tcase_add_test(tc, metis_writer_emits_only_the_nonunit_weight_columns);
  tcase_add_test(tc, metis_read_accepts_every_fmt_variant);
  tcase_add_test(tc,
                 metis_read_skips_comments_and_reads_blank_lines_as_isolated);
  tcase_add_test(tc, metis_read_rejects_truncated_file_naming_last_line);
  tcase_add_test(tc, metis_read_rejects_extra_nonblank_line_naming_it);
  tcase_add_test(tc,
                 metis_read_rejects_header_edge_count_mismatch_naming_header);
  tcase_add_test(tc, metis_read_rejects_neighbour_id_out_of_range_naming_line);
  tcase_add_test(tc, metis_read_rejects_nonnumeric_token_naming_line);
  tcase_add_test(tc, metis_read_rejects_negative_weight_naming_line);
  tcase_add_test(tc, metis_read_rejects_nan_weight_naming_line);
  tcase_add_test(tc, metis_read_rejects_missing_ewgt_naming_line);
  tcase_add_test(tc, metis_read_rejects_asymmetric_edge_naming_line);
  tcase_add_test(tc, metis_read_rejects_unequal_ewgt_directions_naming_line);
  tcase_add_test(tc,
                 metis_read_rejects_duplicate_edge_and_self_loop_naming_line);
  tcase_add_test(tc, metis_read_rejects_multiconstraint_as_unsupported);
  tcase_add_test(tc, metis_read_names_a_mesh_file_as_a_mesh);
  tcase_add_test(tc, metis_read_rejects_malformed_headers_naming_line);
  tcase_add_test(tc, metis_read_of_missing_file_is_eio);
  tcase_add_test(tc,
                 metis_write_into_missing_directory_is_eio_and_leaves_no_file);
  tcase_add_test(tc, metis_read_4elt_has_15606_vertices_and_45878_edges);
  tcase_add_test(tc, metis_read_rejects_nul_hex_and_plus_sign_naming_line);
  suite_add_tcase(s, tc);
  /* tagged "slow" so that valgrind runs skip it: CK_EXCLUDE_TAGS=slow */
  TCase *big = tcase_create("timing");
  tcase_set_tags(big, "slow");
  tcase_set_timeout(big, 120);
  tcase_add_test(big, metis_roundtrip_million_vertex_graph);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}

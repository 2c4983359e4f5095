/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/mesh/dual.c: dual graphs of hand-made meshes are known;
 * larger ones equal an independent sort-based face matching; the dual of
 * cube_big_tetra with the refined ball equals data/cases/cube_ball_p16's
 * graph, weights included; non-manifold faces are rejected. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static minex_mesh *read_mesh(const char *path) {
  minex_mesh *m = NULL;
  int rc = minex_mesh_read(path, &m);
  ck_assert_msg(rc == MINEX_OK, "%s: %s", path, minex_last_error());
  return m;
}

/* Undirected edges of g as "a-b" pairs with a < b, in CSR order. */
static int64_t count_edges_between(const minex_graph *g, int32_t a, int32_t b) {
  const int64_t *x = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  int64_t n = 0;
  for (int64_t j = x[a]; j < x[a + 1]; j++)
    n += adj[j] == b;
  return n;
}

typedef struct face_rec {
  int32_t n[3]; /* sorted node ids (third is -1 for triangle edges) */
  int32_t elem;
} face_rec;

static int face_cmp(const void *a, const void *b) {
  const face_rec *x = a, *y = b;
  for (int i = 0; i < 3; i++)
    if (x->n[i] != y->n[i])
      return (x->n[i] > y->n[i]) - (x->n[i] < y->n[i]);
  return (x->elem > y->elem) - (x->elem < y->elem);
}

typedef struct pair_rec {
  int32_t a, b;
} pair_rec;

static int pair_cmp(const void *p, const void *q) {
  const pair_rec *x = p, *y = q;
  if (x->a != y->a)
    return (x->a > y->a) - (x->a < y->a);
  return (x->b > y->b) - (x->b < y->b);
}

/* Reference dual: sort all faces, equal neighbours are adjacent elements;
 * compares the directed pairs with g's CSR (rows sorted). Returns the
 * number of boundary faces. */
static int64_t assert_dual_matches_face_sort(const minex_mesh *m,
                                             const minex_graph *g) {
  int k = (int)minex_mesh_elem_type(m);
  int32_t ne = minex_mesh_nelems(m);
  const int32_t *el = minex_mesh_elems(m);
  int64_t nf = (int64_t)ne * k;
  face_rec *f = malloc(sizeof *f * (size_t)nf);
  pair_rec *p = malloc(sizeof *p * (size_t)nf);
  for (int32_t e = 0; e < ne; e++)
    for (int o = 0; o < k; o++) {
      face_rec *r = &f[(int64_t)e * k + o];
      int c = 0;
      r->n[2] = -1;
      for (int i = 0; i < k; i++)
        if (i != o)
          r->n[c++] = el[(int64_t)e * k + i];
      for (int i = 1; i < c; i++)
        for (int j = i; j > 0 && r->n[j - 1] > r->n[j]; j--) {
          int32_t t = r->n[j];
          r->n[j] = r->n[j - 1];
          r->n[j - 1] = t;
        }
      r->elem = e;
    }
  qsort(f, (size_t)nf, sizeof *f, face_cmp);
  int64_t np = 0, boundary = 0;
  for (int64_t i = 0; i < nf;) {
    int64_t j = i + 1;
    while (j < nf && memcmp(f[j].n, f[i].n, sizeof f[i].n) == 0)
      j++;
    QUIET_ASSERT(j - i <= 2);
    if (j - i == 2) {
      p[np++] = (pair_rec){f[i].elem, f[i + 1].elem};
      p[np++] = (pair_rec){f[i + 1].elem, f[i].elem};
    } else {
      boundary++;
    }
    i = j;
  }
  qsort(p, (size_t)np, sizeof *p, pair_cmp);
  ck_assert_int_eq(minex_graph_nvtxs(g), ne);
  const int64_t *x = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  ck_assert_int_eq(x[ne], np);
  for (int32_t v = 0; v < ne; v++)
    for (int64_t j = x[v]; j < x[v + 1]; j++) {
      QUIET_ASSERT(p[j].a == v);
      QUIET_ASSERT(p[j].b == adj[j]);
    }
  free(f);
  free(p);
  return boundary;
}

START_TEST(dual_of_two_tets_sharing_a_face_is_one_edge) {
  minex_mesh *m = read_mesh(test_data_path("mesh_two_tets.mesh"));
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
  ck_assert_int_eq(minex_graph_nvtxs(g), 2);
  ck_assert_int_eq(minex_graph_nedges(g), 1);
  ck_assert_int_eq(count_edges_between(g, 0, 1), 1);
  minex_graph_destroy(g);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(dual_of_square_triangles_joins_edges_into_a_4_cycle) {
  const char *files[] = {"mesh_square2d.mesh", "mesh_square_v2.msh"};
  for (int f = 0; f < 2; f++) {
    minex_mesh *m = read_mesh(test_data_path(files[f]));
    minex_graph *g = NULL;
    ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
    ck_assert_int_eq(minex_graph_nedges(g), 4);
    for (int32_t v = 0; v < 4; v++) {
      ck_assert_int_eq(count_edges_between(g, v, (v + 1) % 4), 1);
      ck_assert_int_eq(count_edges_between(g, v, (v + 2) % 4), 0);
    }
    minex_graph_destroy(g);
    minex_mesh_destroy(m);
  }
}
END_TEST

START_TEST(dual_of_kuhn_cube_files_is_a_6_cycle) {
  const char *files[] = {"mesh_cube_v2.msh", "mesh_cube_v40.msh",
                         "mesh_cube_v41.msh"};
  /* each Kuhn tetrahedron shares its two diagonal faces: 0-3-2-5-1-4-0 */
  const int32_t cycle[] = {0, 3, 2, 5, 1, 4};
  for (int f = 0; f < 3; f++) {
    minex_mesh *m = read_mesh(test_data_path(files[f]));
    minex_graph *g = NULL;
    ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
    ck_assert_int_eq(minex_graph_nedges(g), 6);
    for (int i = 0; i < 6; i++)
      ck_assert_int_eq(count_edges_between(g, cycle[i], cycle[(i + 1) % 6]), 1);
    ck_assert_int_eq(assert_dual_matches_face_sort(m, g), 12);
    minex_graph_destroy(g);
    minex_mesh_destroy(m);
  }
}
END_TEST

static double cwgt_sum(int32_t a, int32_t b, void *ctx) {
  (void)ctx;
  return (double)a + 10.0 * b; /* not symmetric: the library orders ids */
}

START_TEST(dual_carries_weights_and_calls_cwgt_with_smaller_id_first) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(2, 1, 1, &m), MINEX_OK);
  int32_t ne = minex_mesh_nelems(m);
  double pw[12], rw[12];
  for (int32_t e = 0; e < ne; e++)
    pw[e] = e, rw[e] = 2 * e;
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual(m, pw, rw, cwgt_sum, NULL, &g), MINEX_OK);
  const int64_t *x = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  for (int32_t v = 0; v < ne; v++) {
    ck_assert(minex_graph_pwgt(g)[v] == v);
    ck_assert(minex_graph_rwgt(g)[v] == 2 * v);
    for (int64_t j = x[v]; j < x[v + 1]; j++) {
      int32_t a = v < adj[j] ? v : adj[j], b = v < adj[j] ? adj[j] : v;
      ck_assert(minex_graph_cwgt(g)[j] == a + 10.0 * b);
    }
  }
  assert_dual_matches_face_sort(m, g);
  minex_graph_destroy(g);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(dual_rejects_a_face_shared_by_three_elements) {
  minex_mesh *m = read_mesh(test_data_path("mesh_bad_nonmanifold.mesh"));
  minex_graph *g = (minex_graph *)1;
  ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g),
                   MINEX_EPARSE);
  ck_assert_ptr_null(g);
  ck_assert_msg(strstr(minex_last_error(), "face of nodes 1 2 3") != NULL &&
                    strstr(minex_last_error(), "non-manifold") != NULL,
                "%s", minex_last_error());
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(dual_rejects_two_elements_with_the_same_nodes) {
  const double xyz[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const int32_t tris[] = {0, 1, 2, 2, 0, 1};
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(3, xyz, 2, MINEX_ELEM_TRIANGLE, tris, &m),
                   MINEX_OK);
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g),
                   MINEX_EPARSE);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "same nodes"));
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(dual_of_perfusion_micro3d_matches_face_sort) {
  const char *p = test_repo_data("meshes/perfusion_micro3d.mesh");
  minex_mesh *m = read_mesh(p);
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
  int64_t boundary = assert_dual_matches_face_sort(m, g);
  /* every face is interior (counted twice) or on the boundary */
  ck_assert_int_eq(2 * minex_graph_nedges(g) + boundary,
                   4 * (int64_t)minex_mesh_nelems(m));
  minex_graph_destroy(g);
  minex_mesh_destroy(m);
}
END_TEST

/* The ball of data/cases/cube_ball_p16/README.md: radius 0.15 x the
 * diagonal of the bounding box, centre at 30% of its x extent and mid y, z.
 * The box is that of the element centroids: it gives the case's 14,644
 * refined elements exactly; the nodes' box (the unit cube [-0.5, 0.5]^3)
 * gives 15,033, 389 elements off. */
static minex_ball case_ball(const minex_mesh *m) {
  double lo[3], hi[3], c[3];
  minex_mesh_centroid(m, 0, lo);
  minex_mesh_centroid(m, 0, hi);
  for (int32_t e = 1; e < minex_mesh_nelems(m); e++) {
    minex_mesh_centroid(m, e, c);
    for (int d = 0; d < 3; d++) {
      lo[d] = c[d] < lo[d] ? c[d] : lo[d];
      hi[d] = c[d] > hi[d] ? c[d] : hi[d];
    }
  }
  double diag2 = 0;
  for (int d = 0; d < 3; d++)
    diag2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  minex_ball b = {{lo[0] + 0.3 * (hi[0] - lo[0]), 0.5 * (lo[1] + hi[1]),
                   0.5 * (lo[2] + hi[2])},
                  0.15 * sqrt(diag2),
                  8.0,
                  4.0};
  return b;
}

START_TEST(ball_weights_refine_14644_elements_of_cube_big_tetra) {
  const char *p = test_repo_data("meshes/cube_big_tetra.mesh");
  minex_mesh *m = read_mesh(p);
  minex_ball b = case_ball(m);
  int32_t ne = minex_mesh_nelems(m), nref = -1;
  double *pw = malloc(sizeof *pw * (size_t)ne);
  double *rw = malloc(sizeof *rw * (size_t)ne);
  ck_assert_int_eq(minex_ball_weights(m, &b, pw, rw, &nref), MINEX_OK);
  ck_assert_int_eq(nref, 14644);
  int32_t n8 = 0;
  for (int32_t e = 0; e < ne; e++) {
    n8 += pw[e] == 8.0;
    QUIET_ASSERT(rw[e] == (pw[e] == 8.0 ? 9.0 : 1.0));
  }
  ck_assert_int_eq(n8, 14644);
  free(pw);
  free(rw);
  minex_mesh_destroy(m);
}
END_TEST

typedef struct nbr_rec {
  long w;    /* neighbour, 0-based */
  double cw; /* its Cwgt           */
} nbr_rec;

static int nbr_cmp(const void *p, const void *q) {
  long a = ((const nbr_rec *)p)->w, b = ((const nbr_rec *)q)->w;
  return (a > b) - (a < b);
}

/* Parses the case's METIS graph (fmt 111: vsize vwgt, then neighbour and
 * ewgt pairs, 1-based) and compares it with g vertex by vertex. */
static void assert_equals_metis_file(const minex_graph *g, const char *path) {
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  char *line = NULL;
  size_t cap = 0;
  ck_assert_int_gt(getline(&line, &cap, fp), 0);
  long nv, ne, fmt;
  ck_assert_int_eq(sscanf(line, "%ld %ld %ld", &nv, &ne, &fmt), 3);
  ck_assert_int_eq(nv, minex_graph_nvtxs(g));
  ck_assert_int_eq(ne, minex_graph_nedges(g));
  ck_assert_int_eq(fmt, 111);
  const int64_t *x = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  nbr_rec row[64];
  for (long v = 0; v < nv; v++) {
    QUIET_ASSERT(getline(&line, &cap, fp) > 0);
    char *s = line, *t;
    double vsize = strtod(s, &s), vwgt = strtod(s, &s);
    if (vsize != minex_graph_rwgt(g)[v] || vwgt != minex_graph_pwgt(g)[v])
      ck_abort_msg("vertex %ld: file %g %g, dual %g %g", v + 1, vsize, vwgt,
                   minex_graph_rwgt(g)[v], minex_graph_pwgt(g)[v]);
    int n = 0;
    for (long w; (w = strtol(s, &t, 10)), t != s; n++) {
      QUIET_ASSERT(n < 64);
      s = t;
      row[n].w = w - 1;
      row[n].cw = strtod(s, &s);
    }
    if (n != x[v + 1] - x[v])
      ck_abort_msg("vertex %ld: %d neighbours in the "
                   "file, %d in the dual",
                   v + 1, n, (int)(x[v + 1] - x[v]));
    qsort(row, (size_t)n, sizeof row[0], nbr_cmp);
    for (int i = 0; i < n; i++) {
      QUIET_ASSERT(row[i].w == adj[x[v] + i]);
      QUIET_ASSERT(row[i].cw == minex_graph_cwgt(g)[x[v] + i]);
    }
  }
  free(line);
  fclose(fp);
}

START_TEST(dual_ball_of_cube_big_tetra_equals_case_cube_ball_p16_graph) {
  const char *p = test_repo_data("meshes/cube_big_tetra.mesh");
  minex_mesh *m = read_mesh(p);
  minex_ball b = case_ball(m);
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual_ball(m, &b, &g), MINEX_OK);
  ck_assert_int_eq(minex_graph_nvtxs(g), 202596);
  ck_assert_int_eq(minex_graph_nedges(g), 399108);
  const char *case_graph = test_repo_data("cases/cube_ball_p16/graph.graph");
  assert_equals_metis_file(g, case_graph);
  /* the same adjacency as the independent face matching */
  assert_dual_matches_face_sort(m, g);
  minex_graph_destroy(g);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(dual_ball_null_gives_unit_weights) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(2, 2, 1, &m), MINEX_OK);
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_mesh_dual_ball(m, NULL, &g), MINEX_OK);
  for (int64_t j = 0; j < minex_graph_xadj(g)[minex_graph_nvtxs(g)]; j++)
    ck_assert(minex_graph_cwgt(g)[j] == 1.0);
  ck_assert(minex_graph_pwgt(g)[0] == 1.0);
  minex_graph_destroy(g);
  minex_ball bad = {{0, 0, 0}, -1, 8, 4};
  ck_assert_int_eq(minex_mesh_dual_ball(m, &bad, &g), MINEX_EINVAL);
  ck_assert_ptr_null(g);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_dual");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, dual_of_two_tets_sharing_a_face_is_one_edge);
  tcase_add_test(tc, dual_of_square_triangles_joins_edges_into_a_4_cycle);
  tcase_add_test(tc, dual_of_kuhn_cube_files_is_a_6_cycle);
  tcase_add_test(tc, dual_carries_weights_and_calls_cwgt_with_smaller_id_first);
  tcase_add_test(tc, dual_rejects_a_face_shared_by_three_elements);
  tcase_add_test(tc, dual_rejects_two_elements_with_the_same_nodes);
  tcase_add_test(tc, dual_of_perfusion_micro3d_matches_face_sort);
  tcase_add_test(tc, dual_ball_null_gives_unit_weights);
  suite_add_tcase(s, tc);
  TCase *big = tcase_create("large");
  tcase_set_tags(big, "slow"); /* skipped by the valgrind stage */
  tcase_add_test(big, ball_weights_refine_14644_elements_of_cube_big_tetra);
  tcase_add_test(big,
                 dual_ball_of_cube_big_tetra_equals_case_cube_ball_p16_graph);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of sims/adapt.c and adapt_refine.c, the refinement workload of
 * §2.1-2.2: the split patterns, single tetrahedra whose counts are known
 * in closed form, the weights of every step on small boxes against the
 * per-root trees (sums, symmetry, bounds, roots out of reach, one-level
 * coarsening), determinism, the time-unit parameter, rejected inputs, and
 * the default run against the paper's growth from 50,000 to 1,833,730
 * elements. */
#include "adapt.h"
#include "test_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double unit_tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
/* Face 0 1 2 lies in z = 0; node 3 is far off so that the cylinder can
 * catch the midpoints of that face's edges without those of 03, 13, 23. */
static const double flat_tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 2, 1};

static minex_mesh *one_tet(const double *xyz) {
  static const int32_t el[4] = {0, 1, 2, 3};
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(4, xyz, 1, MINEX_ELEM_TETRA, el, &m),
                   MINEX_OK);
  return m;
}

static minex_mesh *box(int32_t nx, int32_t ny, int32_t nz) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(nx, ny, nz, &m), MINEX_OK);
  return m;
}

/* One adaptation with the cylinder's centre fixed at (f, across) of the
 * bounding box (sweep x, across y, axis z). */
static sim_adapt_params fixed_cylinder(double f, double across, double radius,
                                       int32_t depth) {
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  p.nsteps = 1;
  p.sweep_from = p.sweep_to = f;
  p.across = across;
  p.radius = radius;
  p.depth = depth;
  return p;
}

/* Creates the forest, makes one adaptation, checks it, returns root 0. */
static sim_root_stats adapt_once(const minex_mesh *m,
                                 const sim_adapt_params *p) {
  sim_adapt *a = NULL;
  ck_assert_msg(sim_adapt_create(m, p, &a) == MINEX_OK, "%s", sim_last_error());
  ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
  ck_assert_msg(sim_adapt_check(a) == MINEX_OK, "%s", sim_last_error());
  sim_root_stats st;
  ck_assert_int_eq(sim_adapt_root(a, 0, &st), MINEX_OK);
  ck_assert_int_eq(sim_adapt_leaves(a), st.leaves);
  ck_assert_int_eq(sim_adapt_elements(a), st.elements);
  sim_adapt_destroy(a);
  return st;
}

static int popcount6(unsigned m) {
  int c = 0;
  for (; m; m &= m - 1)
    c++;
  return c;
}

START_TEST(split_children_follow_the_three_3d_tag_patterns) {
  /* Edge i of vertices (01, 02, 03, 12, 13, 23); face d = edges avoiding d. */
  static const int ev[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (unsigned mask = 0; mask < 64; mask++) {
    int in_one_face = 0;
    for (int d = 0; d < 4; d++) {
      int ok = 1;
      for (int e = 0; e < 6; e++)
        if ((mask >> e & 1) && (ev[e][0] == d || ev[e][1] == d))
          ok = 0;
      in_one_face |= ok;
    }
    int want = mask == 0 ? 1 : popcount6(mask) == 1 ? 2 : in_one_face ? 4 : 8;
    ck_assert_int_eq(sim_split_children(mask), want);
  }
  /* Two opposite edges are in no common face: 1:8. */
  ck_assert_int_eq(sim_split_children(1u << 0 | 1u << 5), 8);
  ck_assert_int_eq(sim_split_children(64), -1);
}
END_TEST

START_TEST(tet_inside_the_cylinder_has_8_pow_d_leaves_4_pow_d_per_face) {
  minex_mesh *m = one_tet(unit_tet);
  int64_t p8 = 1, p4 = 1;
  for (int32_t d = 0; d <= 4; d++, p8 *= 8, p4 *= 4) {
    sim_adapt_params p = fixed_cylinder(0.5, 0.5, 10.0, d);
    sim_root_stats st = adapt_once(m, &p);
    ck_assert_int_eq(st.leaves, p8);
    ck_assert_int_eq(st.elements, (8 * p8 - 1) / 7);
    ck_assert_int_eq(st.depth, d);
    for (int f = 0; f < 4; f++) {
      ck_assert_int_eq(st.faces[f], p4);
      ck_assert_int_eq(st.nbr[f], -1);
    }
  }
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(one_marked_edge_bisects_into_2_children_splitting_2_faces) {
  minex_mesh *m = one_tet(flat_tet);
  /* Centre (0.5, 0.5), radius 0.1: only the midpoint of edge 12. Depth 2:
   * the children of a 1:2 split stay leaves even below the depth. */
  sim_adapt_params p = fixed_cylinder(0.25, 0.25, 0.05, 2);
  sim_root_stats st = adapt_once(m, &p);
  ck_assert_int_eq(st.leaves, 2);
  ck_assert_int_eq(st.elements, 3);
  ck_assert_int_eq(st.depth, 1);
  /* Faces holding edge 12 (opposite nodes 0 and 3) are cut in 2. */
  const int64_t want[4] = {2, 1, 1, 2};
  for (int f = 0; f < 4; f++)
    ck_assert_int_eq(st.faces[f], want[f]);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(marked_edges_of_one_face_split_it_1_4) {
  minex_mesh *m = one_tet(flat_tet);
  /* Two edges, 01 and 02 (centre (0, 0), radius 0.6), then all three of
   * face 012 (centre (1/3, 1/3), radius 0.4): both 1:4 on that face. */
  sim_adapt_params two = fixed_cylinder(0.0, 0.0, 0.3, 3);
  sim_adapt_params three = fixed_cylinder(1.0 / 6, 1.0 / 6, 0.2, 3);
  const sim_adapt_params *ps[2] = {&two, &three};
  for (int i = 0; i < 2; i++) {
    sim_root_stats st = adapt_once(m, ps[i]);
    ck_assert_int_eq(st.leaves, 4);
    ck_assert_int_eq(st.elements, 5);
    /* The face opposite node 3 in 4; each other face holds one of its
     * edges, bisected: 2. */
    const int64_t want[4] = {2, 2, 2, 4};
    for (int f = 0; f < 4; f++)
      ck_assert_int_eq(st.faces[f], want[f]);
  }
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(a_marked_edge_of_a_shared_face_is_bisected_on_both_sides) {
  /* Two tetrahedra sharing face 1 2 3 (nodes 1 (1,0,0), 2 (0,1,0),
   * 3 (0,0,1)); the cylinder (axis z) catches only the midpoint
   * (0.5, 0.5, 0) of edge 12 of the shared face: each side bisects it,
   * the shared face is tiled by 2 triangles from both sides, Cwgt = 2. */
  static const double xyz[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0.8, 1};
  static const int32_t el[8] = {0, 1, 2, 3, 4, 1, 2, 3};
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(5, xyz, 2, MINEX_ELEM_TETRA, el, &m),
                   MINEX_OK);
  sim_adapt_params p = fixed_cylinder(0.5, 0.5, 0.05, 3);
  sim_adapt *a = NULL;
  ck_assert_int_eq(sim_adapt_create(m, &p, &a), MINEX_OK);
  ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
  ck_assert_int_eq(sim_adapt_check(a), MINEX_OK);
  for (int32_t r = 0; r < 2; r++) {
    sim_root_stats st;
    ck_assert_int_eq(sim_adapt_root(a, r, &st), MINEX_OK);
    ck_assert_int_eq(st.leaves, 2);
    ck_assert_int_eq(st.nbr[0], 1 - r); /* face opposite node 0 or 4 */
    ck_assert_int_eq(st.faces[0], 2);
  }
  minex_graph *g = NULL;
  ck_assert_int_eq(sim_adapt_graph(a, &g), MINEX_OK);
  ck_assert_int_eq(minex_graph_nedges(g), 1);
  ck_assert(minex_graph_cwgt(g)[0] == 2.0 && minex_graph_cwgt(g)[1] == 2.0);
  ck_assert(minex_graph_pwgt(g)[0] == 2.0 && minex_graph_rwgt(g)[0] == 3.0);
  minex_graph_destroy(g);
  sim_adapt_destroy(a);
  minex_mesh_destroy(m);
}
END_TEST

/* Every property of one step's graph that follows from the trees. */
static void check_step_graph(const sim_adapt *a, const minex_graph *g) {
  const double iters = 1; /* weights are per solver iteration */
  const int32_t n = sim_adapt_nroots(a);
  ck_assert_int_eq(minex_graph_nvtxs(g), n);
  const int64_t *x = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  const double *pw = minex_graph_pwgt(g), *rw = minex_graph_rwgt(g);
  const double *cw = minex_graph_cwgt(g);
  double sum_p = 0, sum_r = 0;
  for (int32_t v = 0; v < n; v++) {
    sim_root_stats s;
    QUIET_ASSERT(sim_adapt_root(a, v, &s) == MINEX_OK);
    QUIET_ASSERT(pw[v] == iters * (double)s.leaves);
    QUIET_ASSERT(rw[v] == (double)s.elements);
    QUIET_ASSERT(pw[v] / iters <= rw[v] && pw[v] >= iters && rw[v] >= 1);
    QUIET_ASSERT(s.leaves <= s.elements);
    sum_p += pw[v];
    sum_r += rw[v];
    int deg = 0;
    for (int f = 0; f < 4; f++)
      deg += s.nbr[f] >= 0;
    QUIET_ASSERT(x[v + 1] - x[v] == deg);
    for (int64_t j = x[v]; j < x[v + 1]; j++) {
      int32_t w = adj[j];
      /* Symmetric: the reverse entry carries the same Cwgt. */
      int64_t back = -1;
      for (int64_t i = x[w]; i < x[w + 1]; i++)
        if (adj[i] == v)
          back = i;
      QUIET_ASSERT(back >= 0 && cw[back] == cw[j]);
      /* Cwgt = iters * the finer of the two sides' tilings. */
      sim_root_stats t;
      QUIET_ASSERT(sim_adapt_root(a, w, &t) == MINEX_OK);
      int fv = -1, fw = -1;
      for (int f = 0; f < 4; f++) {
        if (s.nbr[f] == w)
          fv = f;
        if (t.nbr[f] == v)
          fw = f;
      }
      QUIET_ASSERT(fv >= 0 && fw >= 0);
      int64_t finer = s.faces[fv] > t.faces[fw] ? s.faces[fv] : t.faces[fw];
      QUIET_ASSERT(cw[j] == iters * (double)finer && cw[j] >= iters);
    }
  }
  QUIET_ASSERT(test_close(sum_p / iters, (double)sim_adapt_leaves(a), 1e-12));
  QUIET_ASSERT(sum_r == (double)sim_adapt_elements(a));
}

START_TEST(box_weights_match_the_trees_at_every_step) {
  minex_mesh *m = box(4, 4, 4);
  /* the horizon (iterations) is the repartitioner's: graphs are alike */
  const int32_t iters[2] = {1, 25};
  for (int i = 0; i < 2; i++) {
    sim_adapt_params p;
    sim_adapt_defaults(&p);
    p.iterations = iters[i];
    sim_adapt *a = NULL;
    ck_assert_int_eq(sim_adapt_create(m, &p, &a), MINEX_OK);
    ck_assert_int_eq(sim_adapt_step_count(a), 0);
    ck_assert_int_eq(sim_adapt_leaves(a), 384);
    int64_t grown = 0;
    for (int32_t k = 1; k <= p.nsteps; k++) {
      ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
      ck_assert_int_eq(sim_adapt_step_count(a), k);
      ck_assert_msg(sim_adapt_check(a) == MINEX_OK, "%s", sim_last_error());
      minex_graph *g = NULL;
      ck_assert_msg(sim_adapt_graph(a, &g) == MINEX_OK, "%s", sim_last_error());
      check_step_graph(a, g);
      if (sim_adapt_leaves(a) > 384)
        grown++;
      minex_graph_destroy(g);
    }
    ck_assert_int_eq(grown, p.nsteps); /* the cylinder always refines */
    /* No adaptation beyond nsteps. */
    ck_assert_int_eq(sim_adapt_step(a), MINEX_EINVAL);
    ck_assert_ptr_nonnull(strstr(sim_last_error(), "adaptations"));
    sim_adapt_destroy(a);
  }
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(graph_adjacency_is_the_meshs_face_dual) {
  minex_mesh *m = box(3, 5, 4);
  sim_adapt *a = NULL;
  ck_assert_int_eq(sim_adapt_create(m, NULL, &a), MINEX_OK);
  ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
  minex_graph *g = NULL, *dual = NULL;
  ck_assert_int_eq(sim_adapt_graph(a, &g), MINEX_OK);
  ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &dual), MINEX_OK);
  const int32_t n = minex_graph_nvtxs(dual);
  ck_assert_int_eq(minex_graph_nvtxs(g), n);
  ck_assert(memcmp(minex_graph_xadj(g), minex_graph_xadj(dual),
                   sizeof(int64_t) * ((size_t)n + 1)) == 0);
  ck_assert(memcmp(minex_graph_adjncy(g), minex_graph_adjncy(dual),
                   sizeof(int32_t) * (size_t)minex_graph_xadj(g)[n]) == 0);
  minex_graph_destroy(g);
  minex_graph_destroy(dual);
  sim_adapt_destroy(a);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(roots_out_of_the_cylinders_reach_keep_weight_1) {
  /* The axis is z and the centre line at y = 0.5: a root whose nodes all
   * have |y - 0.5| > R is never touched, at any step or level. */
  minex_mesh *m = box(4, 4, 4);
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  const double r = p.radius; /* L_x = 1 */
  sim_workload w;
  ck_assert_int_eq(sim_workload_build(m, &p, &w), MINEX_OK);
  const int32_t n = minex_mesh_nelems(m);
  const int32_t *el = minex_mesh_elems(m);
  const double *xyz = minex_mesh_coords(m);
  uint8_t *far = calloc((size_t)n, 1);
  int32_t nfar = 0;
  for (int32_t e = 0; e < n; e++) {
    far[e] = 1;
    for (int i = 0; i < 4; i++)
      far[e] &= fabs(xyz[3 * el[4 * e + i] + 1] - 0.5) > r;
    nfar += far[e];
  }
  ck_assert_int_gt(nfar, n / 4);
  minex_graph *g = NULL; /* one graph, its weights set per step */
  for (int32_t k = 0; k < w.nsteps; k++) {
    ck_assert_int_eq(sim_workload_graph(&w, k, &g), MINEX_OK);
    const int64_t *x = minex_graph_xadj(g);
    const int32_t *adj = minex_graph_adjncy(g);
    int32_t refined = 0;
    for (int32_t v = 0; v < n; v++) {
      refined += minex_graph_rwgt(g)[v] > 1;
      if (!far[v])
        continue;
      QUIET_ASSERT(minex_graph_pwgt(g)[v] == 1.0);
      QUIET_ASSERT(minex_graph_rwgt(g)[v] == 1.0);
      for (int64_t j = x[v]; j < x[v + 1]; j++)
        if (far[adj[j]])
          QUIET_ASSERT(minex_graph_cwgt(g)[j] == 1.0);
    }
    ck_assert_int_gt(refined, 0);
  }
  minex_graph_destroy(g);
  free(far);
  sim_workload_free(&w);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(coarsening_removes_at_most_one_level_per_step) {
  minex_mesh *m = box(6, 6, 6);
  sim_adapt *a = NULL;
  ck_assert_int_eq(sim_adapt_create(m, NULL, &a), MINEX_OK);
  const int32_t n = sim_adapt_nroots(a);
  int32_t *prev = calloc((size_t)n, sizeof *prev);
  int64_t drops = 0, refinements = 0;
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  for (int32_t k = 1; k <= p.nsteps; k++) {
    ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
    ck_assert_int_eq(sim_adapt_check(a), MINEX_OK);
    for (int32_t v = 0; v < n; v++) {
      sim_root_stats s;
      QUIET_ASSERT(sim_adapt_root(a, v, &s) == MINEX_OK);
      QUIET_ASSERT(s.depth >= prev[v] - 1 && s.depth <= p.depth);
      drops += s.depth < prev[v];
      refinements += s.depth > prev[v];
      prev[v] = s.depth;
    }
  }
  /* Not vacuous: the wake was coarsened, the front refined. */
  ck_assert_int_gt(drops, 0);
  ck_assert_int_gt(refinements, 0);
  free(prev);
  sim_adapt_destroy(a);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(two_builds_are_identical) {
  minex_mesh *m = box(5, 4, 6);
  sim_workload w1, w2;
  ck_assert_int_eq(sim_workload_build(m, NULL, &w1), MINEX_OK);
  ck_assert_int_eq(sim_workload_build(m, NULL, &w2), MINEX_OK);
  ck_assert_int_eq(w1.nsteps, 9);
  ck_assert_int_eq(w1.initial_elements, 720);
  for (int32_t k = 0; k < w1.nsteps; k++) {
    ck_assert_int_eq(w1.leaves[k], w2.leaves[k]);
    ck_assert_int_eq(w1.elements[k], w2.elements[k]);
    minex_graph *g1 = NULL, *g2 = NULL;
    ck_assert_int_eq(sim_workload_graph(&w1, k, &g1), MINEX_OK);
    ck_assert_int_eq(sim_workload_graph(&w2, k, &g2), MINEX_OK);
    test_assert_graphs_equal(g1, g2);
    minex_graph_destroy(g1);
    minex_graph_destroy(g2);
  }
  sim_workload_free(&w1);
  sim_workload_free(&w2);
  sim_workload_free(&w1); /* freed and zeroed: a no-op */
  sim_workload_free(NULL);
  minex_mesh_destroy(m);
}
END_TEST

/* The workload keeps one graph and each adaptation's weights; the graph
 * it gives for adaptation k, by weight updates on one graph, equals the
 * dual graph built from scratch (sort and full validation) after k + 1
 * steps of the same model. */
START_TEST(workload_graphs_equal_graphs_built_from_scratch) {
  minex_mesh *m = box(5, 4, 6);
  sim_workload w;
  ck_assert_int_eq(sim_workload_build(m, NULL, &w), MINEX_OK);
  sim_adapt *a = NULL;
  ck_assert_int_eq(sim_adapt_create(m, NULL, &a), MINEX_OK);
  minex_graph *g = NULL;
  for (int32_t k = 0; k < w.nsteps; k++) {
    ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
    minex_graph *ref = NULL;
    ck_assert_int_eq(sim_adapt_graph(a, &ref), MINEX_OK);
    minex_graph *fresh = NULL;
    ck_assert_int_eq(sim_workload_graph(&w, k, &g), MINEX_OK);
    ck_assert_int_eq(sim_workload_graph(&w, k, &fresh), MINEX_OK);
    test_assert_graphs_equal(ref, g);
    test_assert_graphs_equal(ref, fresh);
    minex_graph_destroy(fresh);
    minex_graph_destroy(ref);
  }
  minex_graph *bad = NULL;
  ck_assert_int_eq(sim_workload_graph(&w, w.nsteps, &bad), MINEX_EINVAL);
  ck_assert_ptr_null(bad);
  minex_graph_destroy(g);
  sim_adapt_destroy(a);
  sim_workload_free(&w);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(iterations_leave_the_weights_per_iteration) {
  minex_mesh *m = box(4, 4, 4);
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  ck_assert_int_eq(p.iterations, 1);
  sim_workload w1, w7;
  ck_assert_int_eq(sim_workload_build(m, &p, &w1), MINEX_OK);
  p.iterations = 7;
  ck_assert_int_eq(sim_workload_build(m, &p, &w7), MINEX_OK);
  ck_assert_int_eq(w7.params.iterations, 7);
  minex_graph *g = NULL, *h = NULL;
  for (int32_t k = 0; k < w1.nsteps; k++) {
    ck_assert_int_eq(sim_workload_graph(&w1, k, &g), MINEX_OK);
    ck_assert_int_eq(sim_workload_graph(&w7, k, &h), MINEX_OK);
    const int32_t n = minex_graph_nvtxs(g);
    ck_assert_int_eq(w1.leaves[k], w7.leaves[k]);
    for (int32_t v = 0; v < n; v++) {
      QUIET_ASSERT(minex_graph_pwgt(h)[v] == minex_graph_pwgt(g)[v]);
      QUIET_ASSERT(minex_graph_rwgt(h)[v] == minex_graph_rwgt(g)[v]);
    }
    for (int64_t j = 0; j < minex_graph_xadj(g)[n]; j++)
      QUIET_ASSERT(minex_graph_cwgt(h)[j] == minex_graph_cwgt(g)[j]);
  }
  minex_graph_destroy(g);
  minex_graph_destroy(h);
  sim_workload_free(&w1);
  sim_workload_free(&w7);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(mesh_files_of_both_formats_give_workloads) {
  const char *files[2] = {"mesh_two_tets.mesh", "mesh_cube_v2.msh"};
  const int32_t nroots[2] = {2, 6};
  for (int i = 0; i < 2; i++) {
    minex_mesh *m = NULL;
    ck_assert_int_eq(minex_mesh_read(test_data_path(files[i]), &m), MINEX_OK);
    sim_adapt_params p;
    sim_adapt_defaults(&p);
    p.radius = 0.3;
    sim_workload w;
    ck_assert_msg(sim_workload_build(m, &p, &w) == MINEX_OK, "%s",
                  sim_last_error());
    ck_assert_int_eq(w.initial_elements, nroots[i]);
    int64_t most = 0;
    for (int32_t k = 0; k < w.nsteps; k++) {
      ck_assert_int_eq(sim_workload_nvtxs(&w), nroots[i]);
      most = w.leaves[k] > most ? w.leaves[k] : most;
    }
    ck_assert_int_gt(most, nroots[i]);
    sim_workload_free(&w);
    minex_mesh_destroy(m);
  }
}
END_TEST

START_TEST(a_triangle_mesh_is_rejected) {
  static const double xyz[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  static const int32_t tri[6] = {0, 1, 2, 0, 2, 3};
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(4, xyz, 2, MINEX_ELEM_TRIANGLE, tri, &m),
                   MINEX_OK);
  sim_adapt *a = (sim_adapt *)&a; /* must be overwritten with NULL */
  ck_assert_int_eq(sim_adapt_create(m, NULL, &a), MINEX_EINVAL);
  ck_assert_ptr_null(a);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "tetrahedra"));
  sim_workload w;
  ck_assert_int_eq(sim_workload_build(m, NULL, &w), MINEX_EINVAL);
  ck_assert_ptr_null(w.graph);
  ck_assert_int_eq(w.nsteps, 0);
  sim_workload_free(&w);
  minex_mesh_destroy(m);
}
END_TEST

static int set_error(int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rc = sim_error_vset(rc, fmt, ap);
  va_end(ap);
  return rc;
}

START_TEST(other_modules_report_through_sim_last_error) {
  ck_assert_int_eq(set_error(MINEX_EIO, "sweep: %s %d", "job", 7), MINEX_EIO);
  ck_assert_str_eq(sim_last_error(), "sweep: job 7");
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  sim_adapt *a = NULL;
  minex_mesh *m = box(1, 1, 1);
  ck_assert_int_eq(sim_adapt_create(m, &p, &a), MINEX_OK);
  ck_assert_str_eq(sim_last_error(), ""); /* cleared by a success */
  sim_adapt_destroy(a);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(bad_arguments_are_rejected_with_a_message) {
  minex_mesh *m = box(2, 2, 2);
  sim_adapt *a = NULL;
  struct {
    const char *field;
    sim_adapt_params p;
  } bad[8];
  for (int i = 0; i < 8; i++)
    sim_adapt_defaults(&bad[i].p);
  bad[0].field = "nsteps", bad[0].p.nsteps = 0;
  bad[1].field = "depth", bad[1].p.depth = -1;
  bad[2].field = "depth", bad[2].p.depth = SIM_ADAPT_MAX_DEPTH + 1;
  bad[3].field = "radius", bad[3].p.radius = NAN;
  bad[4].field = "iterations", bad[4].p.iterations = 0;
  bad[5].field = "axis", bad[5].p.sweep = bad[5].p.axis;
  bad[6].field = "sweep_from", bad[6].p.sweep_to = INFINITY;
  bad[7].field = "max_elements", bad[7].p.max_elements = 10;
  for (int i = 0; i < 8; i++) {
    ck_assert_int_eq(sim_adapt_create(m, &bad[i].p, &a), MINEX_EINVAL);
    ck_assert_ptr_null(a);
    ck_assert_msg(strstr(sim_last_error(), bad[i].field) != NULL,
                  "case %d: '%s'", i, sim_last_error());
    /* the tool prints it as is: user terms, no internal function name */
    ck_assert_msg(strstr(sim_last_error(), "sim_") == NULL, "case %d: '%s'", i,
                  sim_last_error());
  }
  ck_assert_int_eq(sim_adapt_create(NULL, NULL, &a), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_create(m, NULL, NULL), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_step(NULL), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_create(m, NULL, &a), MINEX_OK);
  sim_root_stats st;
  ck_assert_int_eq(sim_adapt_root(a, -1, &st), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_root(a, 48, &st), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_root(a, 47, NULL), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_graph(a, NULL), MINEX_EINVAL);
  sim_adapt_destroy(a);
  sim_adapt_destroy(NULL);
  minex_mesh_destroy(m);
  /* A non-manifold mesh fails in its dual, with the dual's message. */
  ck_assert_int_eq(
      minex_mesh_read(test_data_path("mesh_bad_nonmanifold.mesh"), &m),
      MINEX_OK);
  ck_assert_int_eq(sim_adapt_create(m, NULL, &a), MINEX_EPARSE);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "non-manifold"));
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(max_elements_stops_a_step_and_keeps_the_forest) {
  minex_mesh *m = box(4, 4, 4);
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  p.max_elements = 2000;
  sim_adapt *a = NULL;
  ck_assert_int_eq(sim_adapt_create(m, &p, &a), MINEX_OK);
  int rc = MINEX_OK;
  int32_t k = 0;
  int64_t leaves = 0;
  while (rc == MINEX_OK && k < p.nsteps) {
    leaves = sim_adapt_leaves(a);
    if ((rc = sim_adapt_step(a)) == MINEX_OK)
      k++;
  }
  ck_assert_int_eq(rc, MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "max_elements"));
  /* The failed step left the previous state intact and checkable. */
  ck_assert_int_eq(sim_adapt_step_count(a), k);
  ck_assert_int_eq(sim_adapt_leaves(a), leaves);
  ck_assert_int_le(sim_adapt_elements(a), 2000);
  ck_assert_int_eq(sim_adapt_check(a), MINEX_OK);
  sim_adapt_destroy(a);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(default_run_grows_from_50400_to_the_papers_1833730) {
  minex_mesh *m = box(20, 20, 21);
  sim_workload w;
  ck_assert_msg(sim_workload_build(m, NULL, &w) == MINEX_OK, "%s",
                sim_last_error());
  ck_assert_int_eq(w.initial_elements, 50400);
  ck_assert_int_eq(w.nsteps, 9);
  int64_t most = 0;
  printf("default workload (%.3f s):\n step    leaves  elements\n", w.seconds);
  for (int32_t k = 0; k < w.nsteps; k++) {
    printf("%5d %9lld %9lld\n", (int)k + 1, (long long)w.leaves[k],
           (long long)w.elements[k]);
    most = w.leaves[k] > most ? w.leaves[k] : most;
    double sum = 0;
    for (int32_t v = 0; v < 50400; v++)
      sum += w.pwgt[k][v];
    ck_assert(sum == (double)w.leaves[k]);
  }
  printf("largest %lld: %+.2f%% of 1833730\n", (long long)most,
         100.0 * ((double)most / 1833730.0 - 1.0));
  /* The issue asks for 10%; the calibration lands within 3%. */
  ck_assert(fabs((double)most / 1833730.0 - 1.0) < 0.03);
  ck_assert_int_gt(w.leaves[0], 10 * 50400);
  sim_workload_free(&w);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sims_adapt");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, split_children_follow_the_three_3d_tag_patterns);
  tcase_add_test(tc,
                 tet_inside_the_cylinder_has_8_pow_d_leaves_4_pow_d_per_face);
  tcase_add_test(tc, one_marked_edge_bisects_into_2_children_splitting_2_faces);
  tcase_add_test(tc, marked_edges_of_one_face_split_it_1_4);
  tcase_add_test(tc, a_marked_edge_of_a_shared_face_is_bisected_on_both_sides);
  tcase_add_test(tc, box_weights_match_the_trees_at_every_step);
  tcase_add_test(tc, graph_adjacency_is_the_meshs_face_dual);
  tcase_add_test(tc, roots_out_of_the_cylinders_reach_keep_weight_1);
  tcase_add_test(tc, coarsening_removes_at_most_one_level_per_step);
  tcase_add_test(tc, two_builds_are_identical);
  tcase_add_test(tc, workload_graphs_equal_graphs_built_from_scratch);
  tcase_add_test(tc, iterations_leave_the_weights_per_iteration);
  tcase_add_test(tc, mesh_files_of_both_formats_give_workloads);
  tcase_add_test(tc, a_triangle_mesh_is_rejected);
  tcase_add_test(tc, bad_arguments_are_rejected_with_a_message);
  tcase_add_test(tc, other_modules_report_through_sim_last_error);
  tcase_add_test(tc, max_elements_stops_a_step_and_keeps_the_forest);
  suite_add_tcase(s, tc);
  TCase *big = tcase_create("large");
  tcase_set_tags(big, "slow"); /* skipped by the valgrind stage */
  tcase_set_timeout(big, 600); /* ~4 s under the sanitizers */
  tcase_add_test(big, default_run_grows_from_50400_to_the_papers_1833730);
  suite_add_tcase(s, big);
  return test_run_suite(s);
}

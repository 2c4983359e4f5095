/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/partition/flow.c: the flow removes every excess (per
 * component, up to its mean), is a potential flow (f_pq / w_pq =
 * lambda_p - lambda_q for one lambda: the least-squares optimum), matches
 * a path worked by hand, and refuses malformed edges naming them. */
#include "core/core.h"
#include "partition/flow.h"
#include "test_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

START_TEST(path_by_hand) {
  /* 0 - 1 - 2, processor 0 two units over, 1 and 2 one under: 2 units
     cross 0-1, 1 unit crosses 1-2 */
  partition_qedge e[2] = {{0, 1, 1.0}, {1, 2, 1.0}};
  double excess[3] = {2, -1, -1}, flow[2], unrouted[3];
  ck_assert_int_eq(partition_flow(3, e, 2, excess, flow, unrouted), MINEX_OK);
  ck_assert(fabs(flow[0] - 2) < 1e-12 && fabs(flow[1] - 1) < 1e-12);
  for (int p = 0; p < 3; p++)
    ck_assert(fabs(unrouted[p]) < 1e-12);
}
END_TEST

START_TEST(parallel_routes_share_by_weight) {
  /* 0 -> 3 over 0-1-3 (weights 1, 1) and 0-2-3 (weights 3, 3): the second
     route carries three quarters */
  partition_qedge e[4] = {{0, 1, 1}, {1, 3, 1}, {0, 2, 3}, {2, 3, 3}};
  double excess[4] = {4, 0, 0, -4}, flow[4];
  ck_assert_int_eq(partition_flow(4, e, 4, excess, flow, NULL), MINEX_OK);
  ck_assert(fabs(flow[0] - 1) < 1e-12 && fabs(flow[1] - 1) < 1e-12);
  ck_assert(fabs(flow[2] - 3) < 1e-12 && fabs(flow[3] - 3) < 1e-12);
}
END_TEST

/* Random graphs of several components: conservation up to each
 * component's mean, and a potential reconstructed along a spanning walk
 * that every edge agrees with. */
START_TEST(random_graphs_conserve_and_are_potential_flows) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 43);
  enum { P = 40, EMAX = 200 };
  for (int trial = 0; trial < 50; trial++) {
    partition_qedge e[EMAX];
    int64_t ne = 0;
    int32_t ncut = 1 + (int32_t)gsl_rng_uniform_int(rng, 3); /* components */
    for (int32_t p = 1; p < P; p++) {
      int32_t c = p * ncut / P;
      int32_t lo = c * P / ncut + (c * P % ncut != 0);
      if (p > lo) /* a tree inside each block, then chords */
        e[ne++] = (partition_qedge){
            p, lo + (int32_t)gsl_rng_uniform_int(rng, (unsigned long)(p - lo)),
            0.1 + gsl_rng_uniform(rng) * 5};
    }
    while (ne < EMAX / 2) {
      int32_t p = (int32_t)gsl_rng_uniform_int(rng, P),
              q = (int32_t)gsl_rng_uniform_int(rng, P);
      if (p != q && p * ncut / P == q * ncut / P)
        e[ne++] = (partition_qedge){p, q, 0.1 + gsl_rng_uniform(rng) * 5};
    }
    double excess[P], flow[EMAX], unrouted[P], out[P] = {0};
    for (int32_t p = 0; p < P; p++)
      excess[p] = gsl_rng_uniform(rng) * 100 - 50;
    ck_assert_int_eq(partition_flow(P, e, ne, excess, flow, unrouted),
                     MINEX_OK);
    for (int64_t i = 0; i < ne; i++) {
      out[e[i].p] += flow[i];
      out[e[i].q] -= flow[i];
    }
    for (int32_t p = 0; p < P; p++)
      ck_assert_msg(fabs(out[p] + unrouted[p] - excess[p]) < 1e-8,
                    "trial %d processor %d: out %g + unrouted %g != %g", trial,
                    (int)p, out[p], unrouted[p], excess[p]);
    /* the potential: lambda[q] = lambda[p] - f / w along the edges, from
       each component's first processor, then every edge checked */
    double lambda[P];
    int set[P] = {0};
    for (int changed = 1; changed;) {
      changed = 0;
      for (int32_t p = 0; p < P; p++)
        if (!set[p] && (p == 0 || p * ncut / P != (p - 1) * ncut / P))
          set[p] = 1, lambda[p] = 0, changed = 1;
      for (int64_t i = 0; i < ne; i++) {
        if (set[e[i].p] && !set[e[i].q])
          lambda[e[i].q] = lambda[e[i].p] - flow[i] / e[i].w,
          set[e[i].q] = changed = 1;
        else if (set[e[i].q] && !set[e[i].p])
          lambda[e[i].p] = lambda[e[i].q] + flow[i] / e[i].w,
          set[e[i].p] = changed = 1;
      }
    }
    for (int64_t i = 0; i < ne; i++)
      ck_assert_msg(
          fabs(flow[i] / e[i].w - (lambda[e[i].p] - lambda[e[i].q])) < 1e-8,
          "trial %d edge %lld: not a potential flow", trial, (long long)i);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(isolated_processor_keeps_its_excess) {
  partition_qedge e[1] = {{0, 1, 2}};
  double excess[3] = {1, -1, 5}, flow[1], unrouted[3];
  ck_assert_int_eq(partition_flow(3, e, 1, excess, flow, unrouted), MINEX_OK);
  ck_assert(fabs(flow[0] - 1) < 1e-12);
  ck_assert(fabs(unrouted[0]) < 1e-12 && fabs(unrouted[2] - 5) < 1e-12);
}
END_TEST

START_TEST(malformed_input_is_refused_naming_it) {
  double excess[2] = {1, -1}, flow[1];
  partition_qedge self[1] = {{1, 1, 1}}, far[1] = {{0, 2, 1}},
                  zero[1] = {{0, 1, 0}}, nan_w[1] = {{0, 1, NAN}};
  ck_assert_int_eq(partition_flow(2, self, 1, excess, flow, NULL),
                   MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "edge 0 (1, 1") != NULL);
  ck_assert_int_eq(partition_flow(2, far, 1, excess, flow, NULL), MINEX_EINVAL);
  ck_assert_int_eq(partition_flow(2, zero, 1, excess, flow, NULL),
                   MINEX_EINVAL);
  ck_assert_int_eq(partition_flow(2, nan_w, 1, excess, flow, NULL),
                   MINEX_EINVAL);
  double bad[2] = {INFINITY, 0};
  partition_qedge ok[1] = {{0, 1, 1}};
  ck_assert_int_eq(partition_flow(2, ok, 1, bad, flow, NULL), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "processor 0") != NULL);
  ck_assert_int_eq(partition_flow(0, ok, 1, excess, flow, NULL), MINEX_EINVAL);
}
END_TEST

/* A 2 x 3 grid (ids row by row, Cwgt 1 across, 2 down) in three parts:
 * columns 0, 1 and 2. */
static minex_graph *grid(void) {
  int64_t xadj[7] = {0, 2, 5, 7, 9, 12, 14};
  int32_t adj[14] = {1, 3, 0, 2, 4, 1, 5, 0, 4, 1, 3, 5, 2, 4};
  double cw[14] = {1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1};
  double pw[6] = {1, 2, 3, 4, 5, 6};
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(6, xadj, adj, pw, NULL, cw, &g),
                   MINEX_OK);
  return g;
}

START_TEST(quotient_of_a_grid) {
  minex_graph *g = grid();
  int32_t part[6] = {0, 1, 2, 0, 1, 2};
  partition_qedge *e = NULL;
  int64_t ne = -1;
  ck_assert_int_eq(partition_quotient(g, part, 3, &e, &ne), MINEX_OK);
  /* 0-1: two horizontal edges of Cwgt 1; 1-2 the same; 0-2 none */
  ck_assert_int_eq(ne, 2);
  ck_assert(e[0].p == 0 && e[0].q == 1 && e[0].w == 2);
  ck_assert(e[1].p == 1 && e[1].q == 2 && e[1].w == 2);
  core_free(e);
  int32_t rows[6] = {0, 0, 0, 1, 1, 1}; /* two rows: three Cwgt 2 edges */
  ck_assert_int_eq(partition_quotient(g, rows, 2, &e, &ne), MINEX_OK);
  ck_assert(ne == 1 && e[0].p == 0 && e[0].q == 1 && e[0].w == 6);
  core_free(e);
  int32_t bad[6] = {0, 1, 2, 0, 3, 2};
  ck_assert_int_eq(partition_quotient(g, bad, 3, &e, &ne), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "vertex 4 is on processor 3") != NULL);
  ck_assert(e == NULL && ne == 0);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(excess_against_the_speeds) {
  minex_graph *g = grid(); /* Pwgt 21 in all */
  int32_t np[2] = {1, 2};
  double proc[2] = {1, 2}, conn[4] = {1, 1, 1, 1};
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cfg), MINEX_OK);
  /* speeds 1, 1/2, 1/2: targets 10.5, 5.25, 5.25 */
  int32_t part[6] = {0, 1, 2, 0, 1, 2};
  double ex[3];
  ck_assert_int_eq(partition_excess(g, cfg, part, ex), MINEX_OK);
  ck_assert(fabs(ex[0] - (5 - 10.5)) < 1e-12);
  ck_assert(fabs(ex[1] - (7 - 5.25)) < 1e-12);
  ck_assert(fabs(ex[2] - (9 - 5.25)) < 1e-12);
  /* processor 2 unavailable: its target is 0, the others share 21 */
  minex_config_set_available(cfg, 2, 0);
  ck_assert_int_eq(partition_excess(g, cfg, part, ex), MINEX_OK);
  ck_assert(fabs(ex[0] - (5 - 14)) < 1e-12 && fabs(ex[1] - (7 - 7)) < 1e-12 &&
            fabs(ex[2] - 9) < 1e-12);
  for (int32_t p = 0; p < 3; p++)
    minex_config_set_available(cfg, p, 0);
  ck_assert_int_eq(partition_excess(g, cfg, part, ex), MINEX_ENOPROC);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}
END_TEST

/* An nx x ny grid of unit weights, ids row by row. */
static minex_graph *grid_n(int32_t nx, int32_t ny) {
  int32_t n = nx * ny;
  int64_t *xadj = malloc(sizeof *xadj * ((size_t)n + 1));
  int32_t *adj = malloc(sizeof *adj * 4 * (size_t)n);
  double *cw = malloc(sizeof *cw * 4 * (size_t)n);
  int64_t k = 0;
  for (int32_t y = 0; y < ny; y++)
    for (int32_t x = 0; x < nx; x++) {
      xadj[y * nx + x] = k;
      int32_t nb[4][2] = {{x, y - 1}, {x - 1, y}, {x + 1, y}, {x, y + 1}};
      for (int d = 0; d < 4; d++)
        if (nb[d][0] >= 0 && nb[d][0] < nx && nb[d][1] >= 0 && nb[d][1] < ny)
          adj[k] = nb[d][1] * nx + nb[d][0], cw[k++] = 1;
    }
  xadj[n] = k;
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(n, xadj, adj, NULL, NULL, cw, &g),
                   MINEX_OK);
  free(xadj), free(adj), free(cw);
  return g;
}

START_TEST(moves_along_a_path) {
  minex_graph *g = grid_n(6, 1);
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_config_create_uniform(2, &cfg), MINEX_OK);
  int32_t part[6] = {0, 0, 0, 0, 1, 1};
  partition_qedge *e = NULL;
  int64_t ne = 0, moved = -1;
  double ex[2], flow[1];
  ck_assert_int_eq(partition_quotient(g, part, 2, &e, &ne), MINEX_OK);
  ck_assert_int_eq(partition_excess(g, cfg, part, ex), MINEX_OK);
  ck_assert_int_eq(partition_flow(2, e, ne, ex, flow, NULL), MINEX_OK);
  ck_assert(fabs(flow[0] - 1) < 1e-12);
  ck_assert_int_eq(partition_flow_moves(g, 2, part, e, ne, flow, &moved),
                   MINEX_OK);
  /* the one vertex of 0 next to 1 */
  ck_assert_int_eq(moved, 1);
  ck_assert(part[3] == 1 && part[2] == 0 && part[4] == 1);
  core_free(e);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}
END_TEST

/* Columns of uneven widths on a grid: after the moves every processor is
 * within two vertices of its target, and the same input gives the same
 * owners. */
START_TEST(moves_balance_a_grid) {
  enum { NX = 24, NY = 10, P = 4 };
  minex_graph *g = grid_n(NX, NY);
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_config_create_uniform(P, &cfg), MINEX_OK);
  int32_t cut[P + 1] = {0, 12, 16, 18, NX}, part[NX * NY], again[NX * NY];
  for (int32_t y = 0; y < NY; y++)
    for (int32_t x = 0; x < NX; x++) {
      int32_t p = 0;
      while (x >= cut[p + 1])
        p++;
      part[y * NX + x] = p;
    }
  for (int run = 0; run < 2; run++) {
    int32_t *q = run ? again : part, before[NX * NY];
    if (run)
      for (int32_t y = 0; y < NY; y++)
        for (int32_t x = 0; x < NX; x++) {
          int32_t p = 0;
          while (x >= cut[p + 1])
            p++;
          again[y * NX + x] = p;
        }
    memcpy(before, q, sizeof before);
    partition_qedge *e = NULL;
    int64_t ne = 0, moved = 0;
    double ex[P], flow[P * P], after[P];
    ck_assert_int_eq(partition_quotient(g, q, P, &e, &ne), MINEX_OK);
    ck_assert_int_eq(partition_excess(g, cfg, q, ex), MINEX_OK);
    ck_assert_int_eq(partition_flow(P, e, ne, ex, flow, NULL), MINEX_OK);
    ck_assert_int_eq(partition_flow_moves(g, P, q, e, ne, flow, &moved),
                     MINEX_OK);
    ck_assert_int_eq(partition_excess(g, cfg, q, after), MINEX_OK);
    for (int32_t p = 0; p < P; p++)
      ck_assert_msg(fabs(after[p]) <= 2, "processor %d excess %g (before %g)",
                    (int)p, after[p], ex[p]);
    /* a vertex forwarded along two arcs counts twice */
    int64_t changed = 0;
    for (int32_t v = 0; v < NX * NY; v++)
      changed += q[v] != before[v];
    ck_assert(changed > 0 && changed <= moved);
    core_free(e);
  }
  ck_assert(memcmp(part, again, sizeof part) == 0);
  minex_config_destroy(cfg);
  minex_graph_destroy(g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("flow");
  TCase *tc = tcase_create("flow");
  tcase_add_test(tc, path_by_hand);
  tcase_add_test(tc, parallel_routes_share_by_weight);
  tcase_add_test(tc, random_graphs_conserve_and_are_potential_flows);
  tcase_add_test(tc, isolated_processor_keeps_its_excess);
  tcase_add_test(tc, malformed_input_is_refused_naming_it);
  tcase_add_test(tc, quotient_of_a_grid);
  tcase_add_test(tc, excess_against_the_speeds);
  tcase_add_test(tc, moves_along_a_path);
  tcase_add_test(tc, moves_balance_a_grid);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness of the API (SPEC §3): the bytes choose a small valid
 * problem (fuzz_problem.h: extreme speed ratios, tiny and huge weights,
 * horizons, every option). It checks the guarantees of minex_repartition:
 * nothing is printed; every vertex gets an available processor;
 * MaxQwgt(new) <= MaxQwgt(old) when every old owner is available; the same
 * seed gives the same output; the metrics it returns equal a fresh
 * minex_evaluate of its output. */
#include "fuzz_problem.h"
#include "fuzz_util.h"

#include <minex.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int near(double a, double b) {
  double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= 1e-9 * scale + 1e-12;
}

static void require_same_metrics(const minex_metrics *r,
                                 const minex_metrics *e) {
  FUZZ_REQUIRE(near(r->max_qwgt, e->max_qwgt));
  FUZZ_REQUIRE(near(r->min_qwgt, e->min_qwgt));
  FUZZ_REQUIRE(near(r->qwgt_tot, e->qwgt_tot));
  FUZZ_REQUIRE(near(r->load_imb, e->load_imb));
  FUZZ_REQUIRE(near(r->lower_bound, e->lower_bound));
  FUZZ_REQUIRE(near(r->max_wgt, e->max_wgt));
  FUZZ_REQUIRE(near(r->max_comm, e->max_comm));
  FUZZ_REQUIRE(near(r->max_remap, e->max_remap));
  FUZZ_REQUIRE(r->cut_edges == e->cut_edges);
  FUZZ_REQUIRE(near(r->cut_weight, e->cut_weight));
  FUZZ_REQUIRE(r->moved == e->moved);
  FUZZ_REQUIRE(near(r->total_v, e->total_v));
  FUZZ_REQUIRE(near(r->max_v, e->max_v));
  FUZZ_REQUIRE(r->stranded == e->stranded && r->stranded == 0);
  FUZZ_REQUIRE(r->navailable == e->navailable);
  /* MinVar is a sum of squares of differences: compare it on the scale of
   * the loads, since cancellation makes a relative test meaningless when
   * it is near 0. */
  double s = r->max_qwgt * r->max_qwgt * (double)(r->navailable + 1);
  FUZZ_REQUIRE(fabs(r->min_var - e->min_var) <= 1e-9 * s + 1e-12);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_problem pb;
  fuzz_problem_make(data, size, &pb);
  int32_t n = pb.n, P = minex_config_nprocs(pb.cfg);
  const minex_graph *g = pb.g;
  const minex_config *cfg = pb.cfg;
  const int32_t *old = pb.old;
  const minex_options opt = pb.opt;
  int32_t *new1 = malloc(sizeof *new1 * (size_t)n);
  int32_t *new2 = malloc(sizeof *new2 * (size_t)n);
  FUZZ_REQUIRE(new1 && new2);

  minex_metrics m1, m2, fresh, before;
  int rc = fuzz_repartition_silent(&pb, new1, &m1);
  if (minex_config_navailable(cfg) == 0) {
    FUZZ_REQUIRE(rc == MINEX_ENOPROC);
    goto done;
  }
  FUZZ_REQUIRE(rc == MINEX_OK);
  for (int32_t v = 0; v < n; v++)
    FUZZ_REQUIRE(new1[v] >= 0 && new1[v] < P &&
                 minex_config_is_available(cfg, new1[v]));
  FUZZ_REQUIRE(minex_evaluate(g, cfg, old, new1, &opt, &fresh) == MINEX_OK);
  require_same_metrics(&m1, &fresh);
  if (pb.all_old_available) {
    FUZZ_REQUIRE(minex_evaluate(g, cfg, old, old, &opt, &before) == MINEX_OK);
    FUZZ_REQUIRE(m1.max_qwgt <= before.max_qwgt * (1 + 1e-9) + 1e-12);
  }
  /* Determinism: the same inputs and seed give the same partition. */
  FUZZ_REQUIRE(fuzz_repartition_silent(&pb, new2, &m2) == MINEX_OK);
  FUZZ_REQUIRE(memcmp(new1, new2, sizeof *new1 * (size_t)n) == 0);
  FUZZ_REQUIRE(m1.max_qwgt == m2.max_qwgt && m1.moved == m2.moved);
done:
  free(new1);
  free(new2);
  fuzz_problem_free(&pb);
  return 0;
}

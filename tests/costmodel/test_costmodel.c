/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/costmodel: the evaluator against a brute-force recomputation
 * written from SPEC §2, and Gain / dMinVar against from-scratch
 * differences (SPEC §3), under every alpha and remap charging mode. */
#include "costmodel/costmodel.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double alphas[] = {0.0, 0.3, 1.0};
static const minex_remap_mode modes[] = {MINEX_REMAP_RECEIVER,
                                         MINEX_REMAP_SENDER, MINEX_REMAP_BOTH};

static void assert_metrics_close(const minex_metrics *a,
                                 const minex_metrics *b) {
  ck_assert_msg(test_close(a->max_qwgt, b->max_qwgt, 1e-9), "max %g vs %g",
                a->max_qwgt, b->max_qwgt);
  ck_assert(test_close(a->min_qwgt, b->min_qwgt, 1e-9));
  ck_assert(test_close(a->qwgt_tot, b->qwgt_tot, 1e-9));
  ck_assert(test_close(a->load_imb, b->load_imb, 1e-9));
  ck_assert(test_close(a->min_var, b->min_var, 1e-7));
  ck_assert(test_close(a->lower_bound, b->lower_bound, 1e-9));
  ck_assert(test_close(a->max_wgt, b->max_wgt, 1e-9));
  ck_assert(test_close(a->max_comm, b->max_comm, 1e-9));
  ck_assert(test_close(a->max_remap, b->max_remap, 1e-9));
  ck_assert_msg(test_close(a->steady_max, b->steady_max, 1e-9),
                "SteadyMax %g vs %g", a->steady_max, b->steady_max);
  ck_assert_msg(test_close(a->horizon_time, b->horizon_time, 1e-9),
                "T_k %g vs %g", a->horizon_time, b->horizon_time);
  ck_assert_int_eq(a->cut_edges, b->cut_edges);
  ck_assert(test_close(a->cut_weight, b->cut_weight, 1e-9));
  ck_assert_int_eq(a->moved, b->moved);
  ck_assert(test_close(a->total_v, b->total_v, 1e-9));
  ck_assert(test_close(a->max_v, b->max_v, 1e-9));
  ck_assert_int_eq(a->stranded, b->stranded);
  ck_assert_int_eq(a->navailable, b->navailable);
}

START_TEST(evaluate_equals_bruteforce_on_random_inputs) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 17);
  for (int trial = 0; trial < 40; trial++) {
    int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, 120);
    minex_graph *g = test_random_graph(rng, n, 5.0, trial % 2);
    minex_config *cf = test_random_config(rng, 4, 4);
    int32_t P = minex_config_nprocs(cf);
    if (P > 1 && trial % 3 == 0)
      minex_config_set_available(cf, 0, 0);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *nw = malloc(sizeof *nw * (size_t)n);
    for (int32_t v = 0; v < n; v++) {
      old[v] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
      nw[v] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    }
    for (int a = 0; a < 3; a++)
      for (int mo = 0; mo < 3; mo++) {
        minex_options opt;
        minex_options_init(&opt);
        opt.alpha = alphas[a];
        opt.remap_mode = modes[mo];
        minex_metrics got, want;
        ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &got), MINEX_OK);
        test_brute_metrics(g, cf, old, nw, alphas[a], modes[mo], &want, NULL);
        assert_metrics_close(&got, &want);
      }
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  gsl_rng_free(rng);
}
END_TEST

/* SPEC §2 horizon: every metric under k equals the brute force for random
 * graphs, machines, alphas, charging modes and k; k = 1 is the paper's
 * formula (the test above). */
START_TEST(evaluate_under_horizon_equals_bruteforce) {
  static const int32_t ks[] = {1, 2, 10, 1000, MINEX_ITERATIONS_MAX};
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 29);
  for (int trial = 0; trial < 30; trial++) {
    int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, 100);
    minex_graph *g = test_random_graph(rng, n, 4.0, trial % 2);
    minex_config *cf = test_random_config(rng, 3, 4);
    int32_t P = minex_config_nprocs(cf);
    if (P > 1 && trial % 4 == 0)
      minex_config_set_available(cf, P - 1, 0);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *nw = malloc(sizeof *nw * (size_t)n);
    test_random_part(rng, cf, n, old);
    test_random_part(rng, cf, n, nw);
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
      for (int a = 0; a < 3; a++) {
        minex_remap_mode mode = modes[(trial + a) % 3];
        minex_options opt;
        minex_options_init(&opt);
        opt.alpha = alphas[a];
        opt.remap_mode = mode;
        opt.iterations = ks[ki];
        minex_metrics got, want, one;
        ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &got), MINEX_OK);
        test_brute_metrics_k(g, cf, old, nw, alphas[a], mode, ks[ki], &want,
                             NULL);
        assert_metrics_close(&got, &want);
        /* SteadyMax and MaxRemap do not depend on k; T_k >= MaxQwgt_k
           (max of sums <= sum of maxes) */
        opt.iterations = 1;
        ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &one), MINEX_OK);
        ck_assert(got.steady_max == one.steady_max);
        ck_assert(got.max_remap == one.max_remap);
        ck_assert(got.horizon_time >= got.max_qwgt * (1 - 1e-12));
      }
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  gsl_rng_free(rng);
}
END_TEST

/* options.iterations = 0 is k = 1 (a zeroed struct), out of range is
 * MINEX_EINVAL naming the field. */
START_TEST(evaluate_iterations_range) {
  minex_graph *g = test_grid_graph(4, 1, 1);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(2, &cf), MINEX_OK);
  int32_t old[4] = {0, 0, 0, 1}, nw[4] = {0, 0, 1, 1};
  minex_options opt;
  minex_options_init(&opt);
  ck_assert_int_eq(opt.iterations, 1);
  minex_metrics m1, m0;
  ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &m1), MINEX_OK);
  opt.iterations = 0;
  ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &m0), MINEX_OK);
  ck_assert(m0.max_qwgt == m1.max_qwgt && m0.horizon_time == m1.horizon_time);
  const int32_t bad[] = {-1, MINEX_ITERATIONS_MAX + 1};
  for (int i = 0; i < 2; i++) {
    opt.iterations = bad[i];
    ck_assert_int_eq(minex_evaluate(g, cf, old, nw, &opt, &m0), MINEX_EINVAL);
    ck_assert_ptr_nonnull(strstr(minex_last_error(), "options.iterations"));
  }
  minex_config_destroy(cf);
  minex_graph_destroy(g);
}
END_TEST

START_TEST(evaluate_procs_matches_bruteforce_per_processor) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  minex_graph *g = test_random_graph(rng, 60, 4.0, 1);
  minex_config *cf = test_random_config(rng, 3, 4);
  int32_t P = minex_config_nprocs(cf);
  int32_t old[60], nw[60];
  test_random_part(rng, cf, 60, old);
  test_random_part(rng, cf, 60, nw);
  double *q = malloc(sizeof *q * (size_t)P),
         *qb = malloc(sizeof *qb * (size_t)P);
  minex_metrics m;
  ck_assert_int_eq(
      minex_evaluate_procs(g, cf, old, nw, NULL, NULL, NULL, NULL, q),
      MINEX_OK);
  test_brute_metrics(g, cf, old, nw, 0.0, MINEX_REMAP_RECEIVER, &m, qb);
  for (int32_t p = 0; p < P; p++)
    ck_assert(test_close(q[p], qb[p], 1e-12));
  free(q);
  free(qb);
  minex_graph_destroy(g);
  minex_config_destroy(cf);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(evaluate_rejects_bad_arguments) {
  minex_graph *g = test_grid_graph(3, 1, 1);
  minex_config *cf = NULL;
  minex_config_create_uniform(2, &cf);
  int32_t old[3] = {0, 1, 1}, bad[3] = {0, 2, 1};
  minex_metrics m;
  ck_assert_int_eq(minex_evaluate(g, cf, old, bad, NULL, &m), MINEX_EPART);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "vertex 1"));
  ck_assert_int_eq(minex_evaluate(NULL, cf, old, old, NULL, &m), MINEX_EINVAL);
  ck_assert_int_eq(minex_evaluate(g, cf, old, old, NULL, NULL), MINEX_EINVAL);
  minex_options opt;
  minex_options_init(&opt);
  opt.alpha = 1.5;
  ck_assert_int_eq(minex_evaluate(g, cf, old, old, &opt, &m), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "alpha"));
  minex_graph_destroy(g);
  minex_config_destroy(cf);
}
END_TEST

/* Aggregates v's fine edges by owner, as the partition phase does. */
static int32_t owners_of(const minex_graph *g, const int32_t *part, int32_t v,
                         costmodel_nbr *nbr) {
  int32_t nn = 0;
  const int64_t *xadj = minex_graph_xadj(g);
  for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
    int32_t o = part[minex_graph_adjncy(g)[j]], k = 0;
    while (k < nn && nbr[k].owner != o)
      k++;
    if (k == nn)
      nbr[nn++] = (costmodel_nbr){o, 0};
    nbr[k].cwgt += minex_graph_cwgt(g)[j];
  }
  return nn;
}

static double user_qwgt(double w, double c, double r, void *ctx) {
  (void)ctx;
  return fmax(w, 0.5 * c) + r * r * 0.01;
}

/* The loads summed run by run (costmodel_loads_create_runs, what the MPI
 * layer's ranks reproduce): with part = old every processor's sums are
 * bit for bit those of costmodel_loads_create_k; for any other part they
 * agree up to rounding, and the partials are, run by run, the brute-force
 * sums of the run's vertices (recomputed here with one run per call). */
START_TEST(loads_by_runs_equal_the_loads) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 41);
  for (int trial = 0; trial < 30; trial++) {
    int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, 150);
    minex_graph *g = test_random_graph(rng, n, 5.0, trial % 2);
    minex_config *cf = test_random_config(rng, 4, 4);
    int32_t P = minex_config_nprocs(cf);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *nw = malloc(sizeof *nw * (size_t)n);
    /* old in runs (sorted), as the layout has them */
    for (int32_t v = 0; v < n; v++)
      old[v] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    for (int32_t v = 1; v < n; v++)
      for (int32_t u = v; u > 0 && old[u - 1] > old[u]; u--) {
        int32_t t = old[u];
        old[u] = old[u - 1];
        old[u - 1] = t;
      }
    for (int32_t v = 0; v < n; v++)
      nw[v] = gsl_rng_uniform(rng) < 0.6
                  ? old[v]
                  : (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    minex_options opt;
    minex_options_init(&opt);
    opt.remap_mode = modes[trial % 3];
    opt.alpha = alphas[trial % 3];
    costmodel_problem pb = {g, cf, old, &opt, 0.5};
    for (int same = 0; same < 2; same++) {
      const int32_t *part = same ? old : nw;
      costmodel_loads a, b;
      ck_assert_int_eq(costmodel_loads_create_k(&a, &pb, part, 3.0), MINEX_OK);
      ck_assert_int_eq(costmodel_loads_create_runs(&b, &pb, part, 3.0),
                       MINEX_OK);
      for (int32_t p = 0; p < P; p++) {
        if (same) {
          ck_assert(a.wgt[p] == b.wgt[p] && a.comm[p] == b.comm[p] &&
                    a.remap[p] == b.remap[p] && a.qwgt[p] == b.qwgt[p]);
        } else {
          ck_assert(test_close(a.wgt[p], b.wgt[p], 1e-12));
          ck_assert(test_close(a.comm[p], b.comm[p], 1e-12));
          ck_assert(test_close(a.remap[p], b.remap[p], 1e-12));
        }
      }
      /* the partials: one entry per processor a run touches, increasing,
         each the run's own sums */
      costmodel_partial *pt;
      int64_t np;
      ck_assert_int_eq(costmodel_run_partials(&pb, part, &pt, &np), MINEX_OK);
      int64_t i = 0;
      for (int32_t v = 0; v < n;) {
        int32_t e = v + 1;
        while (e < n && old[e] == old[v])
          e++;
        double *w = calloc(3 * (size_t)P, sizeof *w);
        for (int32_t x = v; x < e; x++) {
          /* brute force: vertex x alone */
          int32_t q = part[x], cq = cf->cluster[q];
          w[q] += minex_graph_pwgt(g)[x] * 0.5 * cf->proc[cq];
          for (int64_t j = minex_graph_xadj(g)[x];
               j < minex_graph_xadj(g)[x + 1]; j++) {
            int32_t r = part[minex_graph_adjncy(g)[j]];
            if (r != q)
              w[P + q] += minex_graph_cwgt(g)[j] * 0.5 *
                          cf->conn[cq * cf->nclusters + cf->cluster[r]];
          }
          if (old[x] != q) {
            double rc = minex_graph_rwgt(g)[x] * 0.5 *
                        cf->conn[cf->cluster[old[x]] * cf->nclusters + cq];
            if (opt.remap_mode != MINEX_REMAP_SENDER)
              w[2 * P + q] += rc;
            if (opt.remap_mode != MINEX_REMAP_RECEIVER)
              w[2 * P + old[x]] += rc;
          }
        }
        int32_t last = -1;
        for (int32_t p = 0; p < P; p++) {
          int touched = 0;
          for (int32_t x = v; x < e; x++)
            touched |= part[x] == p || (old[x] == p && part[x] != p);
          if (!touched)
            continue;
          ck_assert(i < np && pt[i].proc == p && p > last);
          ck_assert(pt[i].sum.wgt == w[p] && pt[i].sum.comm == w[P + p] &&
                    pt[i].sum.remap == w[2 * P + p]);
          last = p;
          i++;
        }
        free(w);
        v = e;
      }
      ck_assert_int_eq(i, np);
      free(pt);
      costmodel_loads_destroy(&a);
      costmodel_loads_destroy(&b);
    }
    free(old);
    free(nw);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(gain_equals_recomputed_qwgttot_difference) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 99);
  for (int trial = 0; trial < 24; trial++) {
    int32_t n = 2 + (int32_t)gsl_rng_uniform_int(rng, 80);
    minex_graph *g = test_random_graph(rng, n, 6.0, 0);
    minex_config *cf = test_random_config(rng, 3, 5);
    int32_t P = minex_config_nprocs(cf);
    if (P > 2 && trial % 4 == 1)
      minex_config_set_available(cf, P - 1, 0);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *cur = malloc(sizeof *cur * (size_t)n);
    costmodel_nbr *nbr = malloc(sizeof *nbr * (size_t)P);
    for (int32_t v = 0; v < n; v++) {
      old[v] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
      cur[v] = gsl_rng_uniform(rng) < 0.5
                   ? old[v]
                   : (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    }
    for (int variant = 0; variant < 10; variant++) {
      minex_options opt;
      minex_options_init(&opt);
      if (variant < 9) {
        opt.alpha = alphas[variant / 3];
        opt.remap_mode = modes[variant % 3];
      } else {
        opt.qwgt_fn = user_qwgt;
      }
      costmodel_loads ld;
      ck_assert_int_eq(costmodel_loads_create(&ld, g, cf, old, cur, &opt),
                       MINEX_OK);
      for (int k = 0; k < 15; k++) {
        int32_t v = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)n);
        int32_t q = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
        if (q == cur[v])
          continue;
        costmodel_nbr nb[256];
        costmodel_nbr *use =
            minex_graph_xadj(g)[v + 1] - minex_graph_xadj(g)[v] <= 256 ? nb
                                                                       : nbr;
        int32_t nn = owners_of(g, cur, v, use);
        costmodel_vertex cv = {minex_graph_pwgt(g)[v],
                               minex_graph_rwgt(g)[v],
                               old[v],
                               cur[v],
                               use,
                               nn};
        costmodel_move mv;
        costmodel_eval_move(&ld, &cv, q, &mv);
        /* about a fixed reference (the rounds' rule): the same Gain and
           loads after, dMinVar the touched processors' spread about ref */
        double ref = ld.tree[1] * (0.5 + gsl_rng_uniform(rng));
        costmodel_scratch rs;
        ck_assert_int_eq(costmodel_scratch_create(&rs, P), MINEX_OK);
        costmodel_move mr;
        costmodel_eval_move_ref(&ld, &rs, &cv, q, ref, &mr);
        ck_assert(mr.gain == mv.gain && mr.max_after == mv.max_after &&
                  mr.max_to == mv.max_to && mr.to == q);
        ck_assert_int_eq(rs.ntouched, ld.mv.ntouched);
        /* the same move from its deltas copied into a fresh scratch (what
           the MPI layer's ranks decide from): the same doubles */
        costmodel_scratch ds;
        ck_assert_int_eq(costmodel_scratch_create(&ds, P), MINEX_OK);
        ds.ntouched = rs.ntouched;
        for (int32_t i = 0; i < rs.ntouched; i++) {
          int32_t x = rs.touched[i];
          ds.touched[i] = x;
          ds.dwgt[x] = rs.dwgt[x];
          ds.dcomm[x] = rs.dcomm[x];
          ds.dremap[x] = rs.dremap[x];
        }
        costmodel_move md;
        costmodel_finish_move_ref(&ld, &ds, q, ref, &md);
        ck_assert(md.gain == mr.gain && md.max_after == mr.max_after &&
                  md.max_to == mr.max_to && md.dmin_var == mr.dmin_var &&
                  md.to == q);
        for (int32_t i = 0; i < rs.ntouched; i++)
          ck_assert(ds.qnew[i] == rs.qnew[i]);
        /* the deltas alone (what the rounds' scans keep): the same
           processors in the same order, the same doubles */
        costmodel_scratch es;
        ck_assert_int_eq(costmodel_scratch_create(&es, P), MINEX_OK);
        costmodel_move_deltas(&ld, &es, &cv, q);
        ck_assert_int_eq(es.ntouched, rs.ntouched);
        for (int32_t i = 0; i < rs.ntouched; i++) {
          int32_t x = rs.touched[i];
          ck_assert_int_eq(es.touched[i], x);
          ck_assert(es.dwgt[x] == rs.dwgt[x] && es.dcomm[x] == rs.dcomm[x] &&
                    es.dremap[x] == rs.dremap[x]);
        }
        costmodel_scratch_destroy(&es);
        costmodel_scratch_destroy(&ds);
        costmodel_scratch_destroy(&rs);
        minex_metrics before, after;
        double *qb = malloc(sizeof *qb * (size_t)P);
        double *q0 = malloc(sizeof *q0 * (size_t)P);
        minex_evaluate_procs(g, cf, old, cur, &opt, NULL, NULL, NULL, q0);
        minex_evaluate(g, cf, old, cur, &opt, &before);
        int32_t keep = cur[v];
        cur[v] = q;
        minex_evaluate_procs(g, cf, old, cur, &opt, NULL, NULL, NULL, qb);
        minex_evaluate(g, cf, old, cur, &opt, &after);
        ck_assert_msg(
            test_close(mv.gain, after.qwgt_tot - before.qwgt_tot, 1e-9),
            "variant %d: gain %g, recomputed %g", variant, mv.gain,
            after.qwgt_tot - before.qwgt_tot);
        ck_assert_msg(
            test_close(mv.dmin_var, after.min_var - before.min_var, 1e-8),
            "variant %d: dMinVar %g, recomputed %g", variant, mv.dmin_var,
            after.min_var - before.min_var);
        ck_assert(test_close(mv.max_to, qb[q], 1e-9));
        double dref = 0, mag = 0;
        for (int32_t p = 0; p < P; p++)
          if (minex_config_is_available(cf, p)) {
            dref +=
                (qb[p] - ref) * (qb[p] - ref) - (q0[p] - ref) * (q0[p] - ref);
            mag +=
                (qb[p] - ref) * (qb[p] - ref) + (q0[p] - ref) * (q0[p] - ref);
          }
        ck_assert_msg(fabs(mr.dmin_var - dref) <= 1e-9 * (mag + 1),
                      "variant %d: dMinVar about %g: %g, recomputed %g",
                      variant, ref, mr.dmin_var, dref);
        free(qb);
        free(q0);
        if (gsl_rng_uniform(rng) < 0.5) {
          costmodel_apply(&ld);
          ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_OK);
          ck_assert(test_close(ld.qwgt_tot, after.qwgt_tot, 1e-9));
          ck_assert(test_close(costmodel_min_var(&ld), after.min_var, 1e-8));
        } else {
          cur[v] = keep;
        }
      }
      costmodel_loads_destroy(&ld);
    }
    free(old);
    free(cur);
    free(nbr);
    minex_graph_destroy(g);
    minex_config_destroy(cf);
  }
  gsl_rng_free(rng);
}
END_TEST

/* costmodel_resync (the rounds' end): QwgtTot becomes the sum of the
 * available processors' Qwgt in index order, bit for bit, and the min
 * tree and the least-loaded list, made from Qwgt alone, equal the ones
 * the moves kept incrementally (so only QwgtTot's rounding can change);
 * Wgt, Comm,
 * Remap and Qwgt are left alone, and the loads pass their check. */
START_TEST(resync_makes_the_totals_again_from_the_processors) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 5);
  for (int trial = 0; trial < 12; trial++) {
    int32_t n = 20 + (int32_t)gsl_rng_uniform_int(rng, 60);
    minex_graph *g = test_random_graph(rng, n, 5.0, 0);
    minex_config *cf = test_random_config(rng, 3, 6);
    int32_t P = minex_config_nprocs(cf);
    if (P > 2 && trial % 3 == 1)
      minex_config_set_available(cf, 1, 0);
    int32_t *old = malloc(sizeof *old * (size_t)n);
    int32_t *cur = malloc(sizeof *cur * (size_t)n);
    costmodel_nbr *nbr = malloc(sizeof *nbr * (size_t)(P + 1));
    for (int32_t v = 0; v < n; v++)
      old[v] = cur[v] = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
    minex_options opt;
    minex_options_init(&opt);
    opt.alpha = alphas[trial % 3];
    costmodel_loads ld;
    ck_assert_int_eq(costmodel_loads_create(&ld, g, cf, old, cur, &opt),
                     MINEX_OK);
    for (int k = 0; k < 40; k++) {
      int32_t v = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)n);
      int32_t q = (int32_t)gsl_rng_uniform_int(rng, (unsigned long)P);
      if (q == cur[v])
        continue;
      int32_t nn = owners_of(g, cur, v, nbr);
      costmodel_vertex cv = {minex_graph_pwgt(g)[v],
                             minex_graph_rwgt(g)[v],
                             old[v],
                             cur[v],
                             nbr,
                             nn};
      costmodel_move mv;
      costmodel_eval_move(&ld, &cv, q, &mv);
      costmodel_apply(&ld);
      cur[v] = q;
    }
    size_t bytes = costmodel_state_size(&ld);
    char *kept = malloc(bytes), *made = malloc(bytes);
    costmodel_state_put(&ld, kept);
    double running = ld.qwgt_tot;
    /* what resync makes, spoilt first: made again from Qwgt alone */
    for (int32_t i = 1; i < 2 * ld.tsize; i++)
      ld.tree[i] = -1.0;
    ld.nlow = 0;
    ld.qwgt_tot = ld.qwgt_tot_mag = NAN;
    costmodel_resync(&ld);
    costmodel_state_put(&ld, made);
    double tot = 0;
    for (int32_t p = 0; p < P; p++)
      if (ld.cfg->avail[p])
        tot += ld.qwgt[p];
    ck_assert(ld.qwgt_tot == tot);
    ck_assert_msg(test_close(ld.qwgt_tot, running, 1e-12), "QwgtTot %g, %g",
                  ld.qwgt_tot, running);
    /* Wgt, Comm, Remap, Qwgt and the tree unchanged, bit for bit */
    size_t head = sizeof(double) * (4 * (size_t)P + 2 * (size_t)ld.tsize);
    ck_assert(memcmp(kept, made, head) == 0);
    /* the least-loaded list (behind the two totals) unchanged */
    size_t low = head + 2 * sizeof(double);
    ck_assert(memcmp(kept + low, made + low, bytes - low) == 0);
    ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_OK);
    free(kept), free(made);
    costmodel_loads_destroy(&ld);
    free(old), free(cur), free(nbr);
    minex_config_destroy(cf);
    minex_graph_destroy(g);
  }
  gsl_rng_free(rng);
}
END_TEST

START_TEST(argmin_finds_least_loaded_available_processor) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 3);
  minex_graph *g = test_random_graph(rng, 50, 4.0, 1);
  int32_t np[] = {5};
  minex_config *cf = NULL;
  minex_config_create(1, np, NULL, NULL, &cf);
  minex_config_set_available(cf, 4, 0);
  int32_t part[50];
  for (int32_t v = 0; v < 50; v++)
    part[v] = v % 4 == 0 ? 0 : (v % 4 == 1 ? 1 : 2); /* 3 and 4 empty */
  minex_options opt;
  minex_options_init(&opt);
  costmodel_loads ld;
  ck_assert_int_eq(costmodel_loads_create(&ld, g, cf, part, part, &opt),
                   MINEX_OK);
  double m;
  ck_assert_int_eq(costmodel_argmin(&ld, &m), 3);
  ck_assert(m == 0.0);
  ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_OK);
  costmodel_loads_destroy(&ld);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
  gsl_rng_free(rng);
}
END_TEST

/* costmodel_loads_check's tolerances are relative to the magnitudes
 * summed: a QwgtTot or a Qwgt off by one part in 10^6 is
 * caught at any scale of the weights (with an absolute floor of 1 it
 * would be invisible below weights of about 1e-3), and a running QwgtTot that
 * once held loads of 1e8 passes after they left, though its error is
 * then far above 1e-9 of the total left. */
START_TEST(loads_check_tolerances_are_relative_to_the_magnitudes_summed) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 18);
  minex_graph *g0 = test_random_graph(rng, 60, 4.0, 0);
  int32_t n = minex_graph_nvtxs(g0);
  int64_t ne = minex_graph_xadj(g0)[n];
  double *pw = malloc(sizeof(double) * (size_t)n);
  double *rw = malloc(sizeof(double) * (size_t)n);
  double *cw = malloc(sizeof(double) * (size_t)ne);
  int32_t part[60], old[60];
  for (int32_t v = 0; v < n; v++) {
    pw[v] = 1e-200 * minex_graph_pwgt(g0)[v];
    rw[v] = 1e-200 * minex_graph_rwgt(g0)[v];
    part[v] = old[v] = v % 4;
  }
  for (int64_t j = 0; j < ne; j++)
    cw[j] = 1e-200 * minex_graph_cwgt(g0)[j];
  minex_graph *g = NULL;
  ck_assert_int_eq(minex_graph_create(n, minex_graph_xadj(g0),
                                      minex_graph_adjncy(g0), pw, rw, cw, &g),
                   MINEX_OK);
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(4, &cf), MINEX_OK);
  minex_options opt;
  minex_options_init(&opt);
  costmodel_loads ld;
  ck_assert_int_eq(costmodel_loads_create(&ld, g, cf, old, part, &opt),
                   MINEX_OK);
  ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_OK);
  double keep = ld.qwgt_tot;
  ld.qwgt_tot *= 1 + 1e-6;
  ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "QwgtTot"));
  ld.qwgt_tot = keep;
  ld.wgt[2] *= 1 + 1e-6; /* Qwgt^2 no longer its formula's value */
  ck_assert_int_eq(costmodel_loads_check(&ld), MINEX_EINTERNAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "Qwgt^2"));
  costmodel_loads_destroy(&ld);
  minex_config_destroy(cf);

  /* every vertex starts on processor 0 of Proc 1e8 and moves off it, one
     at a time, onto the three processors of Proc 1 */
  int32_t np[2] = {1, 3};
  double proc[2] = {1e8, 1}, conn[4] = {1, 1, 1, 1};
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cf), MINEX_OK);
  for (int32_t v = 0; v < n; v++)
    part[v] = old[v] = 0;
  ck_assert_int_eq(costmodel_loads_create(&ld, g0, cf, old, part, &opt),
                   MINEX_OK);
  costmodel_nbr nbr[4];
  for (int32_t v = 0; v < n; v++) {
    int32_t q = 1 + v % 3;
    costmodel_vertex cv = {minex_graph_pwgt(g0)[v],
                           minex_graph_rwgt(g0)[v],
                           old[v],
                           part[v],
                           nbr,
                           owners_of(g0, part, v, nbr)};
    costmodel_move mv;
    costmodel_eval_move(&ld, &cv, q, &mv);
    costmodel_apply(&ld);
    part[v] = q;
    ck_assert_msg(costmodel_loads_check(&ld) == MINEX_OK, "move %d: %s", (int)v,
                  minex_last_error());
  }
  minex_metrics m;
  ck_assert_int_eq(minex_evaluate(g0, cf, old, part, &opt, &m), MINEX_OK);
  ck_assert(test_close(ld.qwgt_tot, m.qwgt_tot, 1e-6));
  costmodel_loads_destroy(&ld);
  minex_config_destroy(cf);
  minex_graph_destroy(g);
  minex_graph_destroy(g0);
  free(pw);
  free(rw);
  free(cw);
  gsl_rng_free(rng);
}
END_TEST

int main(void) {
  Suite *s = suite_create("costmodel");
  TCase *tc = tcase_create("costmodel");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, evaluate_equals_bruteforce_on_random_inputs);
  tcase_add_test(tc, evaluate_procs_matches_bruteforce_per_processor);
  tcase_add_test(tc, evaluate_under_horizon_equals_bruteforce);
  tcase_add_test(tc, evaluate_iterations_range);
  tcase_add_test(tc, evaluate_rejects_bad_arguments);
  tcase_add_test(tc, gain_equals_recomputed_qwgttot_difference);
  tcase_add_test(tc, loads_by_runs_equal_the_loads);
  tcase_add_test(tc, argmin_finds_least_loaded_available_processor);
  tcase_add_test(tc, resync_makes_the_totals_again_from_the_processors);
  tcase_add_test(tc,
                 loads_check_tolerances_are_relative_to_the_magnitudes_summed);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
